"""Stack Up!'s expert: information-set sampling that decides only from what its seat sees
(its hand and the public history), with the greedy policy's play-outs and a cut-off
evaluation."""

from __future__ import annotations

import dataclasses
import random
from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest

from engine.budget import Budget
from engine.flow import settle
from engine.stackup.ai import GreedyPlayer, best_run, make_ai
from engine.stackup.cards import (
    COLOUR_OF,
    CRASH,
    FLIP,
    FULL_DECK,
    GREEN,
    NUMBER_OF,
    RED,
    SPECIALS,
    SWITCH,
    Card,
    card_names,
)
from engine.stackup.expert import (
    ExpertPlayer,
    _repair,
    agrees,
    determinise,
    evaluate,
    rate,
    unseen_cards,
)
from engine.stackup.game import GAME
from engine.stackup.heuristic import Follower, none_of
from engine.stackup.inference import LastRun, inferences, read_history
from engine.stackup.moves import DRAW, KEEP, TAKE, Play
from engine.stackup.policy import greedy_choice
from engine.stackup.state import StackUpState

from .situations import ANN, BEN, NAMES, cards, p, table


def _midgame(seed: int, players: int = 4, turns: tuple[int, int] = (2, 12)) -> StackUpState:
    """A game some greedy turns in, at a decision of the seat to act."""
    rng = random.Random(seed)
    greedy = GreedyPlayer()
    state = GAME.new_state(NAMES[:players], GAME.settings())
    settle(GAME, state, rng)
    for _ in range(rng.randrange(*turns)):
        state.apply(greedy.choose(state, rng))
        settle(GAME, state, rng)
        if state.is_over:
            return _midgame(seed + 1000, players, turns)
    return state


def _hidden_cards_dealt_again(state: StackUpState, rng: random.Random) -> StackUpState:
    """``state`` with every card its seat to act cannot see (the other hands and the draw
    pile) shuffled and dealt out again in the same sizes."""
    me = state.current_player
    other = state.copy()
    hidden = [c for s in range(state.n) if s != me for c in state.hands[s]] + state.pile
    rng.shuffle(hidden)
    at = 0
    for s in range(state.n):
        if s != me:
            size = len(state.hands[s])
            other.hands[s] = sorted(hidden[at : at + size])
            at += size
    other.pile = hidden[at:]
    # and the history's hidden cards (which cards were drawn, snatched, reshuffled) are
    # other cards too: only how many is public
    log = []
    for turn in other.log:
        log.append(
            dataclasses.replace(
                turn,
                drew=tuple(rng.sample(FULL_DECK, len(turn.drew))),
                took=tuple(rng.sample(FULL_DECK, len(turn.took))),
                reshuffle=None
                if turn.reshuffle is None
                else tuple(rng.sample(FULL_DECK, len(turn.reshuffle))),
            )
        )
    other.log = log
    return other


def test_the_expert_is_a_thinking_level_of_stack_up() -> None:
    assert GAME.ai_levels == ("random", "greedy", "expert")
    assert GAME.thinking_levels == ("expert",)
    assert make_ai("expert").level == "expert"


def assert_it_decides_only_from_what_its_seat_sees(
    make: Callable[[], Any],
) -> None:
    """Six positions, each against a copy whose hidden cards (the other hands, the pile,
    the hidden cards of the history) are dealt anew: the same scores and the same move
    from a player ``make`` builds, under a node budget."""
    differing = inferring = 0
    for seed in range(6):
        state = _midgame(seed, players=2 + seed % 3, turns=(6, 30))
        me = state.current_player
        assert me is not None
        inferring += bool(inferences(state, me))
        other = _hidden_cards_dealt_again(state, random.Random(seed + 99))
        if other.hands != state.hands:
            differing += 1
        assert other.current_player == me and other.hand(me) == state.hand(me)
        mine = make().scores(state, random.Random(seed))
        theirs = make().scores(other, random.Random(seed))
        assert mine == theirs
        assert make().choose(state, random.Random(seed)) == make().choose(
            other, random.Random(seed)
        )
    assert differing >= 5  # the hidden cards really were different
    assert inferring >= 3  # and the history had something to infer from


def test_positions_differing_only_in_cards_it_cannot_see_get_the_same_decision() -> None:
    assert_it_decides_only_from_what_its_seat_sees(lambda: ExpertPlayer(nodes=600))


def test_the_unseen_cards_are_the_deck_less_its_hand_and_the_stack() -> None:
    state = table("R6 R7 Flip", "G1 G2", "B3", stack="R4 R5")
    unseen = unseen_cards(state, 0)
    assert len(unseen) == len(FULL_DECK) - 3 - 2
    assert Counter(unseen) + Counter(cards("R6 R7 Flip R4 R5")) == Counter(FULL_DECK)
    assert len(unseen) == state.hand_size(1) + state.hand_size(2) + state.pile_size


def test_a_determinisation_keeps_its_hand_the_stack_and_every_size() -> None:
    state = _midgame(3)
    me = state.current_player
    assert me is not None
    sim = determinise(state, me, unseen_cards(state, me), random.Random(5))
    assert sim.hand(me) == state.hand(me) and sim.stack_cards == state.stack_cards
    assert sim.hand_sizes == state.hand_sizes and sim.pile_size == state.pile_size
    everything = [c for h in sim.hands for c in h] + sim.pile + list(sim.stack_cards)
    assert sorted(everything) == sorted(FULL_DECK)


def test_under_a_node_budget_the_same_position_and_seed_give_the_same_move() -> None:
    state = _midgame(7)
    before = state.to_dict()
    moves = {ExpertPlayer(nodes=400).choose(state, random.Random(2)) for _ in range(3)}
    assert len(moves) == 1 and state.is_legal(moves.pop())
    assert state.to_dict() == before


def test_the_expert_plays_a_winning_move() -> None:
    state = table("R6 R7", "G1 G2", stack="R5")
    assert ExpertPlayer(nodes=200).choose(state, random.Random(0)) == Play(tuple(cards("R6 R7")))


def test_a_budget_that_is_not_one_is_refused() -> None:
    with pytest.raises(ValueError, match="node budget"):
        ExpertPlayer(nodes=0)


def _stuck_ben(drawn: str = "B12") -> StackUpState:
    """Ann plays R6 on Red 5 going up; Ben, holding no red, no 7 and no special card, is
    stuck, draws ``drawn`` and keeps it; Ann is to play."""
    hands = ("R6 R8 Y7 G9", "G1 G2 Y9 B10")
    rest = Counter(FULL_DECK)
    rest.subtract(cards(" ".join((*hands, "R5", drawn))))
    pile = " ".join([drawn, *card_names(sorted(rest.elements()))])
    state = table(*hands, stack="R5", pile=pile)
    for move in (p("R6"), DRAW, KEEP):
        state.apply(move)
    assert state.current_player == ANN
    return state


def _in(card: Card, colour: int, number: int) -> bool:
    return card >= FLIP or COLOUR_OF[card] == colour or NUMBER_OF[card] == number


def test_a_seat_seen_stuck_lacked_every_card_it_could_have_played() -> None:
    (lack,) = inferences(_stuck_ben(), ANN)
    assert lack.seat == BEN and lack.allowed == 1  # the card he drew may be anything
    assert lack.cards == {c for c in set(FULL_DECK) if _in(c, RED, 7)}


def test_a_determinisation_deals_a_stuck_seat_only_what_it_may_hold() -> None:
    state = _stuck_ben()
    unseen = unseen_cards(state, ANN)
    lacks = inferences(state, ANN)
    plain = inferred = 0
    for seed in range(200):
        dealt = determinise(state, ANN, unseen, random.Random(seed), lacks).hand(BEN)
        assert sum(_in(c, RED, 7) for c in dealt) <= 1
        inferred += sum(_in(c, RED, 7) for c in dealt)
        free = determinise(state, ANN, unseen, random.Random(seed)).hand(BEN)
        plain += sum(_in(c, RED, 7) for c in free)
    assert plain > 2 * inferred  # without the inference he would often get them


def test_cards_a_stuck_seat_plays_later_use_up_what_it_may_hold() -> None:
    state = _stuck_ben("R12")  # he kept a red card, playable then
    state.apply(p("R8"))
    state.apply(p("Y9"))  # not red, not a 7: one of the cards he held when stuck
    assert [lack.allowed for lack in inferences(state, ANN)] == [1]
    state = _stuck_ben("R12")
    state.apply(p("R8"))
    state.apply(p("R12"))  # red: it can only be the card he drew
    assert [lack.allowed for lack in inferences(state, ANN)] == [0]


def test_a_seat_that_took_a_crash_penalty_held_no_crash() -> None:
    state = table("R6 R7 Crash", "G1 G2 Y9", stack="R5", pile="B12 B13 B14")
    state.apply(Play((CRASH,)))
    state.apply(TAKE)
    (lack,) = inferences(state, ANN)
    assert lack.seat == BEN and lack.cards == {CRASH} and lack.allowed == 3


def test_the_inferences_hold_for_the_true_hands_of_greedy_games() -> None:
    checked = 0
    for seed in range(12):
        rng = random.Random(seed)
        state = GAME.new_state(NAMES[: 2 + seed % 5], GAME.settings())
        settle(GAME, state, rng)
        while not state.is_over:
            me = state.current_player
            assert me is not None
            for lack in inferences(state, me):
                held = sum(1 for c in state.hand(lack.seat) if c in lack.cards)
                assert held <= lack.allowed
                checked += 1
            state.apply(greedy_choice(state, rng))
            settle(GAME, state, rng)
    assert checked > 100


def test_the_play_out_policy_chooses_as_the_greedy_player_does() -> None:
    greedy = GreedyPlayer()
    compared = 0
    for seed in range(30):
        rng = random.Random(seed)
        state = GAME.new_state(NAMES[: 2 + seed % 5], GAME.settings())
        settle(GAME, state, rng)
        while not state.is_over:
            mine = greedy_choice(state, random.Random(compared))
            assert mine == greedy.choose(state, random.Random(compared))
            compared += 1
            state.apply(mine)
            settle(GAME, state, rng)
    assert compared > 500


def test_the_evaluation_prefers_fewer_cards_and_sums_to_one() -> None:
    state = table("R6 R7", "G1 G2 G3 G4 Y9", "B1 B2 B3", stack="R5")
    shares = [evaluate(state, s) for s in range(3)]
    assert shares[0] > shares[2] > shares[1]
    assert sum(shares) == pytest.approx(1.0)


def test_the_chance_of_dealing_no_marked_card_is_hypergeometric() -> None:
    assert none_of(10, 0, 4) == 1.0
    assert none_of(10, 7, 4) == 0.0  # only 3 unmarked cards for 4
    assert none_of(10, 2, 3) == pytest.approx((8 * 7 * 6) / (10 * 9 * 8))


def test_a_seat_seen_stuck_is_rated_likelier_to_be_stuck_again_on_its_colour() -> None:
    state = _stuck_ben()
    unseen = unseen_cards(state, ANN)
    (lack,) = inferences(state, ANN)
    knowing = Follower(state, BEN, unseen, lack)
    guessing = Follower(state, BEN, unseen, None)
    assert knowing.chance_stuck(RED, 8, True) > 5 * guessing.chance_stuck(RED, 8, True)


def test_the_expert_prefers_the_play_that_leaves_a_stuck_seat_stuck() -> None:
    # Ben was stuck on red and 7s; R8 keeps the stack red, Y7 would make it yellow
    state = _stuck_ben()
    rated = dict(rate(state))
    assert rated[p("R8")] > rated[p("Y7")]


def test_a_greedy_player_held_no_longer_run_than_its_last_play_shows() -> None:
    checked = specials = 0
    for seed in range(12):
        rng = random.Random(seed)
        state = GAME.new_state(NAMES[: 2 + seed % 5], GAME.settings())
        settle(GAME, state, rng)
        while not state.is_over:
            me = state.current_player
            assert me is not None
            for run in read_history(state, me)[1]:
                held = [*state.hand(run.seat), *run.cards]
                assert best_run(held, run.colour, run.number, run.up) <= run.length
                assert not any(c in run.none_of for c in held)
                checked += 1
                specials += run.length == 0  # a special card played: no run held
            state.apply(greedy_choice(state, rng))
            settle(GAME, state, rng)
    assert checked > 500 and specials > 20


def _ben_switches() -> StackUpState:
    """Ann plays R6 on Red 5 going up; Ben, holding no red and no 7, plays his Switch
    (naming green); Ann is to play."""
    hands = ("R6 R8 Y7 G9", "G1 G2 Y9 Switch")
    rest = Counter(FULL_DECK)
    rest.subtract(cards(" ".join((*hands, "R5"))))
    state = table(*hands, stack="R5", pile=" ".join(card_names(sorted(rest.elements()))))
    state.apply(p("R6"))
    state.apply(Play((SWITCH,), colour=GREEN))
    assert state.current_player == ANN
    return state


def test_a_greedy_player_who_plays_a_switch_held_no_number_card_and_no_other_special() -> None:
    (run,) = read_history(_ben_switches(), ANN)[1]
    # a Switch is worth less than any number card and than every other special card
    assert run == LastRun(BEN, RED, 6, True, 0, (SWITCH,), frozenset(SPECIALS) - {SWITCH})


def test_a_deal_agrees_with_what_the_others_last_plays_showed() -> None:
    state = _ben_switches()
    expert = ExpertPlayer(nodes=100)
    unseen = unseen_cards(state, ANN)
    lacks, runs = read_history(state, ANN)
    agreeing = plain = 0
    for seed in range(100):
        dealt = expert.deal(state, ANN, unseen, random.Random(seed), lacks, runs)
        agreeing += agrees(dealt.hands, runs)
        plain += agrees(determinise(state, ANN, unseen, random.Random(seed), lacks).hands, runs)
    assert agreeing >= 99 and plain < 90  # one deal in twenty tries may still miss


def test_a_play_out_to_the_end_of_the_game_scores_its_outcome() -> None:
    state = _midgame(5, players=3)
    me = state.current_player
    assert me is not None
    expert = ExpertPlayer(nodes=100, horizon=None)
    moves, _ = expert.candidates(state) or ([], None)
    budget = Budget(nodes=10**9)
    sample = expert.sampler(state, me, moves, budget)
    values = {sample(i, seed) for i in range(len(moves)) for seed in range(5)}
    assert values <= {0.0, 0.5, 1.0, 1 / 3} and 1.0 in values and 0.0 in values
    assert budget.nodes > 20 * len(moves) * 5  # whole games, not a turn round the table


def test_a_seat_whose_deal_disagrees_is_dealt_again_from_its_cards_and_the_pile() -> None:
    state = _ben_switches()
    lacks, runs = read_history(state, ANN)
    hands = [list(state.hand(ANN)), cards("R9 R10 Y2")]  # red: Ben could have played it
    rest = Counter(unseen_cards(state, ANN))
    rest.subtract(hands[BEN])
    pile = sorted(rest.elements())
    assert not agrees(hands, runs)
    fixed, new_pile = _repair(hands, pile, random.Random(3), lacks, runs)
    assert agrees(fixed, runs)
    assert fixed[ANN] == hands[ANN] and len(fixed[BEN]) == 3
    assert Counter(fixed[BEN] + new_pile) == Counter(hands[BEN] + pile)
