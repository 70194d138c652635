"""Stack Up!'s expert: determinised sampling that decides only from what its seat sees."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from engine.flow import settle
from engine.stackup.ai import GreedyPlayer, make_ai
from engine.stackup.cards import FULL_DECK
from engine.stackup.expert import ExpertPlayer, determinise, unseen_cards
from engine.stackup.game import GAME
from engine.stackup.moves import Play
from engine.stackup.state import StackUpState

from .situations import NAMES, cards, table


def _midgame(seed: int, players: int = 4) -> StackUpState:
    """A game some greedy turns in, at a decision of the seat to act."""
    rng = random.Random(seed)
    greedy = GreedyPlayer()
    state = GAME.new_state(NAMES[:players], GAME.settings())
    settle(GAME, state, rng)
    for _ in range(rng.randrange(2, 12)):
        state.apply(greedy.choose(state, rng))
        settle(GAME, state, rng)
        if state.is_over:
            return _midgame(seed + 1000, players)
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
    return other


def test_the_expert_is_a_thinking_level_of_stack_up() -> None:
    assert GAME.ai_levels == ("random", "greedy", "expert")
    assert GAME.thinking_levels == ("expert",)
    assert make_ai("expert").level == "expert"


def test_positions_differing_only_in_cards_it_cannot_see_get_the_same_decision() -> None:
    differing = 0
    for seed in range(6):
        state = _midgame(seed, players=2 + seed % 3)
        other = _hidden_cards_dealt_again(state, random.Random(seed + 99))
        if other.hands != state.hands:
            differing += 1
        assert other.hand(other.current_player) == state.hand(state.current_player)
        mine = ExpertPlayer(nodes=600).scores(state, random.Random(seed))
        theirs = ExpertPlayer(nodes=600).scores(other, random.Random(seed))
        assert mine == theirs
        assert ExpertPlayer(nodes=600).choose(state, random.Random(seed)) == ExpertPlayer(
            nodes=600
        ).choose(other, random.Random(seed))
    assert differing >= 5  # the hidden cards really were different


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
