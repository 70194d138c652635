"""One test per rule of ``docs/stackup-rules.md``, each on a hand-made table."""

from __future__ import annotations

import random

import pytest

from engine.errors import IllegalMoveError, IllegalReason
from engine.game import Decision, GameEnded, TurnEnded
from engine.stackup import moves
from engine.stackup.cards import (
    BLUE,
    CRASH,
    FLIP,
    FREEZE,
    FULL_DECK,
    GREEN,
    RED,
    SNATCH,
    SWITCH,
    YELLOW,
    card_names,
    parse_card,
)
from engine.stackup.state import StackUpState

from .situations import ANN, BEN, CAT, DAN, NAMES, cards, hand, p, play, table


def refused(state: StackUpState, move: object, reason: IllegalReason, by: int | None = None) -> str:
    """Assert ``move`` is refused for ``reason`` and changes nothing; return the message."""
    before = state.to_dict()
    with pytest.raises(IllegalMoveError) as err:
        state.apply(move, by=by)  # type: ignore[arg-type]
    assert err.value.reason is reason, str(err.value)
    assert state.to_dict() == before
    return str(err.value)


# ------------------------------------------------------------------------ setting up


def ordered_deck(n: int, hands: list[str], start: str) -> tuple[int, ...]:
    """A deck dealing ``hands`` (first player's first), then ``start``, then the rest."""
    deck: list[int] = []
    held = [cards(h) for h in hands]
    for k in range(10 * n):
        deck.append(held[k % n][k // n])
    deck += cards(start)
    rest = list(FULL_DECK)
    for c in deck:
        rest.remove(c)
    return tuple(deck + rest)


def test_deal_gives_ten_cards_each_clockwise_from_the_first_player() -> None:
    state = StackUpState(NAMES[:3])
    deck = tuple(FULL_DECK)
    state.apply(moves.Deal(deck, 2))
    # deck[k] goes to seat (2 + k) mod 3: cat gets 0, 3, 6…; ann 1, 4, 7…
    assert state.hand(CAT) == tuple(range(0, 30, 3))
    assert state.hand(ANN) == tuple(range(1, 30, 3))
    assert state.hand(BEN) == tuple(range(2, 30, 3))
    assert card_names(state.stack_cards) == ["Y1"]  # deck[30] starts the stack
    assert state.pile_size == 80 - 30 - 1 and state.top_card == 30
    assert state.current_player == CAT and state.decision is Decision.TURN


def test_special_starting_card_is_buried_at_the_bottom_of_the_pile() -> None:
    hands = [" ".join(f"R{i}" for i in range(1, 11)), " ".join(f"B{i}" for i in range(1, 11))]
    deck = ordered_deck(2, hands, "Flip Crash G7")
    state = StackUpState(NAMES[:2])
    state.apply(moves.Deal(deck, 0))
    assert card_names(state.stack_cards) == ["G7"]
    assert state.pile_size == 80 - 20 - 1
    # read from the top, the pile ends with the buried cards in the order they were turned
    pile_top_first = state.to_dict()["pile"]
    assert pile_top_first[-2:] == ["Flip", "Crash"] and "G7" not in pile_top_first
    assert (state.colour, state.number) == (GREEN, 7)


def test_deal_with_only_specials_is_dealt_again() -> None:
    bad = tuple(range(60)) + tuple(FULL_DECK[60:])  # 6 players hold all 60 number cards
    state = StackUpState(NAMES)
    refused(state, moves.Deal(bad, 0), IllegalReason.BAD_OUTCOME)

    class Rigged(random.Random):
        """Shuffles into the all-specials deal once, then shuffles honestly."""

        shuffles = 0

        def shuffle(self, x: list[int]) -> None:  # type: ignore[override]
            self.shuffles += 1
            if self.shuffles == 1:
                x[:] = bad
            else:
                super().shuffle(x)

    rng = Rigged(3)
    deal = state.sample_chance(rng)
    assert isinstance(deal, moves.Deal) and rng.shuffles == 2 and deal.deck != bad
    assert state.is_legal(deal)


def test_deal_again_keeps_the_same_first_player() -> None:
    for seed in range(20):
        rng = random.Random(seed)
        first = random.Random(seed).randrange(6)
        deal = StackUpState(NAMES).sample_chance(rng)
        assert isinstance(deal, moves.Deal) and deal.first == first


def test_first_player_is_chosen_at_random() -> None:
    firsts = set()
    for seed in range(60):
        deal = StackUpState(NAMES[:4]).sample_chance(random.Random(seed))
        assert isinstance(deal, moves.Deal)
        firsts.add(deal.first)
    assert firsts == {0, 1, 2, 3}


def test_first_player_chooses_the_direction_and_it_is_not_a_turn() -> None:
    state = StackUpState(NAMES[:3])
    state.apply(moves.Deal(tuple(FULL_DECK), 1))
    assert state.legal_moves() == [moves.UP, moves.DOWN]
    assert state.automatic() is None
    refused(state, moves.UP, IllegalReason.NOT_YOUR_TURN, by=ANN)
    assert state.apply(moves.DOWN, by=BEN) == []
    assert state.direction == "down" and state.turns_taken == 0 and state.current_player == BEN


# ------------------------------------------------------------------------ the stack


def test_number_card_sets_colour_and_number() -> None:
    state = table("R6 B2", "G1 G2", stack="R5")
    state.apply(p("R6"))
    assert (state.colour, state.number, state.up) == (RED, 6, True)


def test_number_card_of_the_stack_colour_is_legal_with_any_number() -> None:
    state = table("R12 B2", "G1 G2", stack="R5")
    state.apply(p("R12"))
    assert (state.colour, state.number, state.up) == (RED, 12, True)  # direction stays


def test_next_number_in_the_direction_is_legal_in_any_colour() -> None:
    up = table("B6 B4 Y1", "G1 G2", stack="R5")
    assert {m.cards for m in up.plays(ANN)} == {tuple(cards("B6"))}
    down = table("B6 B4 Y1", "G1 G2", stack="R5", up=False)
    assert {m.cards for m in down.plays(ANN)} == {tuple(cards("B4"))}
    msg = refused(down, p("B6"), IllegalReason.NOT_ON_STACK)
    assert msg == "B6 is not legal on Red 5 going down: it takes a red card or a 4."


def test_numbers_never_wrap_at_15_or_1() -> None:
    top = table("B1 R3 Y14", "G1 G2", stack="R15")
    assert [m.cards for m in top.plays(ANN)] == [tuple(cards("R3"))]
    bottom = table("B15 Y2 R9", "G1 G3", stack="R1", up=False)
    assert [m.cards for m in bottom.plays(ANN)] == [tuple(cards("R9"))]
    assert "nothing goes below 1" in refused(bottom, p("B15"), IllegalReason.NOT_ON_STACK)


def test_flip_reverses_the_direction() -> None:
    state = table("Flip B2", "G1 G2", stack="R5")
    state.apply(moves.Play((FLIP,)))
    assert (state.colour, state.number, state.up) == (RED, 5, False)


def test_switch_changes_the_colour_and_keeps_the_number() -> None:
    state = table("Switch Y2", "G1 G2", stack="B5")
    assert [m.colour for m in state.plays(ANN)] == [RED, YELLOW, GREEN]
    state.apply(moves.Play((SWITCH,), colour=RED))
    assert (state.colour, state.number, state.up) == (RED, 5, True)


def test_switch_must_name_a_different_colour() -> None:
    state = table("Switch Y2", "G1 G2", stack="B5")
    assert "already Blue" in refused(
        state, moves.Play((SWITCH,), colour=BLUE), IllegalReason.BAD_CHOICE
    )
    refused(state, moves.Play((SWITCH,)), IllegalReason.MISSING_CHOICE)


def test_freeze_snatch_and_crash_leave_the_stack_unchanged() -> None:
    for special, extra in ((FREEZE, {}), (CRASH, {}), (SNATCH, {"target": BEN, "count": 1})):
        state = table("Freeze Snatch Crash Y2", "G1 G2 G3", "B1 B2", stack="B5")
        state.apply(moves.Play((special,), **extra))  # type: ignore[arg-type]
        assert (state.colour, state.number, state.up) == (BLUE, 5, True)
        assert state.top_card == special


# ------------------------------------------------------------------------ a turn


def test_crash_penalty_player_may_only_block_or_take() -> None:
    state = table("R6 Crash", "G1 G2", stack="R5", crash=ANN)
    assert state.legal_moves() == [moves.BLOCK, moves.TAKE]
    assert state.automatic() is None
    refused(state, p("R6"), IllegalReason.WRONG_DECISION)
    refused(state, moves.DRAW, IllegalReason.WRONG_DECISION)


def test_player_with_a_legal_play_must_play() -> None:
    state = table("R6 B9", "G1 G2", stack="R5")
    assert state.automatic() is None
    assert moves.DRAW not in state.legal_moves()
    refused(state, moves.DRAW, IllegalReason.WRONG_DECISION)
    refused(state, moves.USE_PASS, IllegalReason.WRONG_DECISION)


def test_stuck_player_with_a_draw_pass_uses_it_and_draws_nothing() -> None:
    state = table("B9 G2", "G1 G3", stack="R5", passes=[2, 0])
    assert state.legal_moves() == [moves.USE_PASS] and state.automatic() == moves.USE_PASS
    refused(state, moves.DRAW, IllegalReason.WRONG_DECISION)
    pile = state.pile_size
    assert state.apply(moves.USE_PASS) == [TurnEnded(ANN)]
    assert state.passes == [1, 0] and state.hand_size(ANN) == 2 and state.pile_size == pile
    assert state.current_player == BEN and state.turns_taken == 1


def test_stuck_player_without_a_pass_draws_one_card() -> None:
    state = table("B9 G2", "G1 G3", stack="R5", pile="Y11 R1")
    assert state.legal_moves() == [moves.DRAW] and state.automatic() == moves.DRAW
    refused(state, moves.USE_PASS, IllegalReason.WRONG_DECISION)
    assert state.apply(moves.DRAW) == []
    assert hand(state, ANN) == "B9 Y11 G2" and state.drawn == parse_card("Y11")
    assert state.legal_moves() == [moves.KEEP] and state.automatic() == moves.KEEP
    assert state.apply(moves.KEEP) == [TurnEnded(ANN)]
    assert state.current_player == BEN and state.turns_taken == 1
    assert state.log[-1].kind == "draw" and state.log[-1].cards == ()


def test_drawn_card_that_is_legal_may_be_played_alone() -> None:
    state = table("B9 G2", "G1 G3", stack="R5", pile="R6 R7")
    play(state, moves.DRAW)
    assert state.legal_moves() == [moves.PLAY_DRAWN, moves.KEEP] and state.automatic() is None
    assert state.apply(moves.PLAY_DRAWN) == [TurnEnded(ANN)]
    assert state.number == 6 and hand(state, ANN) == "B9 G2"
    assert state.log[-1].kind == "draw" and state.log[-1].cards == tuple(cards("R6"))


def test_drawn_card_is_played_alone_and_earns_no_bonus() -> None:
    state = table("B9 G2", "G1 G3", stack="R5", pile="R6")
    play(state, moves.DRAW)
    refused(state, p("R6"), IllegalReason.WRONG_DECISION)
    refused(state, moves.PlayDrawn(colour=BLUE), IllegalReason.EXTRA_CHOICE)
    assert state.passes == [0, 0]


def test_player_may_keep_a_playable_drawn_card() -> None:
    state = table("B9 G2", "G1 G3", stack="R5", pile="Switch")
    play(state, moves.DRAW)
    assert state.legal_moves() == [
        moves.PlayDrawn(colour=BLUE), moves.PlayDrawn(colour=YELLOW), moves.PlayDrawn(colour=GREEN), moves.KEEP,
    ]  # fmt: skip
    play(state, moves.KEEP)
    assert hand(state, ANN) == "B9 G2 Switch" and state.current_player == BEN


def test_drawn_card_is_judged_with_it_in_hand() -> None:
    # a single-card hand may not play a Flip, but the drawn Flip is never the last card
    state = table("B9", "G1 G3", stack="R5", pile="Flip")
    play(state, moves.DRAW)
    assert state.legal_moves() == [moves.PLAY_DRAWN, moves.KEEP]
    play(state, moves.PLAY_DRAWN)
    assert state.up is False and hand(state, ANN) == "B9"


# ------------------------------------------------------------------------ plays


def test_combo_steps_once_in_the_direction_in_one_colour() -> None:
    down = table("R9 R8 R7 B2", "G1 G2", stack="R10", up=False)
    assert p("R9 R8 R7", "skip") in down.legal_moves()
    up = table("R6 R7 R8 B12 B13 B14 Y1", "G1 G2", stack="B5")
    legal = up.legal_moves()
    assert p("R6 R7 R8", "pass") in legal and p("B12 B13 B14", "pass") in legal
    up.apply(p("R6 R7 R8", "pass"))
    assert (up.colour, up.number) == (RED, 8)


def test_combo_cards_must_share_the_first_cards_colour_and_step_exactly() -> None:
    state = table("R6 B7 R8 R9 Y1", "G1 G2", stack="R5")
    assert "B7 is not red" in refused(state, p("R6 B7"), IllegalReason.BAD_COMBO)
    assert "comes R7, not R8" in refused(state, p("R6 R8"), IllegalReason.BAD_COMBO)
    refused(state, p("R9 R8"), IllegalReason.BAD_COMBO)


def test_combo_first_card_may_be_a_colour_reset() -> None:
    state = table("R12 R13 B2", "G1 G2", stack="R5")
    state.apply(p("R12 R13"))
    assert state.number == 13


def test_special_cards_are_legal_on_any_stack() -> None:
    state = table("Flip Freeze Snatch Switch Crash", "G1 G2", stack="Y15")
    kinds = {m.cards[0] for m in state.plays(ANN)}
    assert kinds == {FLIP, FREEZE, SNATCH, SWITCH, CRASH}


def test_flip_freeze_and_snatch_may_not_be_the_last_card() -> None:
    for special, extra in ((FLIP, {}), (FREEZE, {}), (SNATCH, {"target": BEN, "count": 1})):
        state = table(card_names((special,))[0], "G1 G2", stack="R5")
        assert state.plays(ANN) == []
        assert state.legal_moves() == [moves.DRAW]
        refused(state, moves.Play((special,), **extra), IllegalReason.LAST_CARD)  # type: ignore[arg-type]


def test_switch_or_crash_may_be_the_last_card_and_win() -> None:
    state = table("Switch", "G1 G2", stack="R5")
    assert state.apply(moves.Play((SWITCH,), colour=GREEN)) == [TurnEnded(ANN), GameEnded()]
    assert state.outcome() is not None and state.outcome().winners == (ANN,)  # type: ignore[union-attr]
    crash = table("Crash", "G1 G2", stack="R5")
    crash.apply(moves.Play((CRASH,)))
    assert crash.is_over and crash.pending_crash is None


def test_special_cards_never_join_a_number_play() -> None:
    state = table("R6 Flip R7", "G1 G2", stack="R5")
    refused(state, moves.Play((*cards("R6"), FLIP)), IllegalReason.BAD_COMBO)
    refused(state, moves.Play((FLIP, *cards("R6"))), IllegalReason.BAD_COMBO)


def test_a_play_needs_cards_the_player_holds() -> None:
    state = table("R6 B2", "R7 G2", stack="R5")
    assert refused(state, p("R7"), IllegalReason.CARD_NOT_HELD) == "You hold no R7."
    refused(state, moves.Play(()), IllegalReason.BAD_COMBO)


# ------------------------------------------------------------------------ the bonus


def test_three_card_play_that_keeps_cards_must_choose_a_bonus() -> None:
    state = table("R6 R7 R8 B2", "G1 G2", stack="R5")
    refused(state, p("R6 R7 R8"), IllegalReason.MISSING_CHOICE)
    assert p("R6 R7 R8") not in state.legal_moves()
    assert [m.bonus for m in state.legal_moves() if len(m.cards) == 3] == ["pass", "skip"]  # type: ignore[union-attr]


def test_bonus_pass_gives_a_draw_pass_and_passes_add_up() -> None:
    state = table("R6 R7 R8 B2 B3 B4 G9", "G1 G2", stack="R5", passes=[1, 0])
    state.apply(p("R6 R7 R8", "pass"))
    assert state.passes == [2, 0] and state.current_player == BEN


def test_bonus_skip_skips_the_next_player() -> None:
    state = table("R6 R7 R8 B2", "G1 G2", "Y1 Y2", stack="R5")
    assert state.apply(p("R6 R7 R8", "skip")) == [TurnEnded(ANN)]
    assert state.current_player == CAT and state.turns_taken == 1


def test_bonus_skip_with_two_players_gives_another_turn() -> None:
    state = table("R6 R7 R8 B2", "G1 G2", stack="R5")
    state.apply(p("R6 R7 R8", "skip"))
    assert state.current_player == ANN


def test_play_that_empties_the_hand_earns_no_bonus() -> None:
    state = table("R6 R7 R8", "G1 G2", stack="R5")
    assert p("R6 R7 R8") in state.legal_moves()
    refused(state, p("R6 R7 R8", "skip"), IllegalReason.EXTRA_CHOICE)
    assert state.apply(p("R6 R7 R8")) == [TurnEnded(ANN), GameEnded()]
    assert state.passes == [0, 0]


def test_two_card_play_earns_no_bonus() -> None:
    state = table("R6 R7 B1", "G1 G2", stack="R5")
    refused(state, p("R6 R7", "pass"), IllegalReason.EXTRA_CHOICE)


def test_draw_pass_never_applies_to_a_crash_penalty() -> None:
    state = table("B9 G2", "G1 G3", stack="R5", passes=[1, 0], crash=ANN, pile="Y1 Y2 Y3")
    assert state.legal_moves() == [moves.TAKE]
    refused(state, moves.USE_PASS, IllegalReason.WRONG_DECISION)
    state.apply(moves.TAKE)
    assert state.passes == [1, 0] and state.hand_size(ANN) == 5


# ------------------------------------------------------------------------ special cards


def test_freeze_skips_the_next_player() -> None:
    state = table("Freeze B2", "G1 G2", "Y1 Y2", "B7 B8", stack="R5")
    state.apply(moves.Play((FREEZE,)))
    assert state.current_player == CAT


def test_freeze_with_two_players_gives_the_freezer_another_turn() -> None:
    state = table("Freeze B2", "G1 G2", stack="R5")
    assert state.apply(moves.Play((FREEZE,))) == [TurnEnded(ANN)]
    assert state.current_player == ANN and state.turns_taken == 1


def test_snatch_needs_a_target_with_two_cards() -> None:
    state = table("Snatch B2", "G1", "Y1 Y2", stack="R5")
    assert [(m.target, m.count) for m in state.plays(ANN)] == [(CAT, 1)]
    msg = refused(state, moves.Play((SNATCH,), target=BEN, count=1), IllegalReason.BAD_CHOICE)
    assert msg == "ben holds only 1 card; a Snatch needs a player holding at least 2."
    refused(state, moves.Play((SNATCH,), target=ANN, count=1), IllegalReason.BAD_CHOICE)


def test_snatch_with_nobody_to_name_is_not_a_legal_play() -> None:
    state = table("Snatch B2", "G1", "Y1", stack="R5")
    assert state.plays(ANN) == [] and state.legal_moves() == [moves.DRAW]


def test_snatch_takes_one_to_three_from_four_cards_and_exactly_one_from_two_or_three() -> None:
    state = table("Snatch B2", "G1 G2 G3 G4", "Y1 Y2 Y3", "B5 B6", stack="R5")
    assert [(m.target, m.count) for m in state.plays(ANN)] == [
        (BEN, 1), (BEN, 2), (BEN, 3), (CAT, 1), (DAN, 1),
    ]  # fmt: skip
    refused(state, moves.Play((SNATCH,), target=CAT, count=2), IllegalReason.BAD_CHOICE)
    refused(state, moves.Play((SNATCH,), target=BEN, count=4), IllegalReason.BAD_CHOICE)
    refused(state, moves.Play((SNATCH,), target=BEN), IllegalReason.MISSING_CHOICE)


def test_snatch_moves_random_cards_of_the_target_into_the_snatchers_hand() -> None:
    state = table("Snatch B2", "G1 G2 G3 G4", "Y1 Y2", stack="R5")
    assert state.apply(moves.Play((SNATCH,), target=BEN, count=2)) == []
    assert state.decision is Decision.CHANCE and state.chance_kind == "snatch"
    took = state.sample_chance(random.Random(1))
    assert isinstance(took, moves.Took) and len(took.cards) == 2
    assert set(took.cards) <= set(cards("G1 G2 G3 G4"))
    refused(state, moves.Took(tuple(cards("G1 Y1"))), IllegalReason.BAD_OUTCOME)
    refused(state, moves.Took(tuple(cards("G1"))), IllegalReason.BAD_OUTCOME)
    assert state.apply(moves.Took(tuple(cards("G4 G1")))) == [TurnEnded(ANN)]
    assert hand(state, ANN) == "B2 G1 G4" and hand(state, BEN) == "G2 G3"
    assert state.current_player == BEN
    outcomes = {state_took(seed) for seed in range(30)}
    assert len(outcomes) > 1  # random cards, not always the same


def state_took(seed: int) -> tuple[int, ...]:
    state = table("Snatch B2", "G1 G2 G3 G4", stack="R5")
    state.apply(moves.Play((SNATCH,), target=BEN, count=2))
    took = state.sample_chance(random.Random(seed))
    assert isinstance(took, moves.Took)
    return tuple(sorted(took.cards))


def test_crash_puts_a_penalty_on_the_next_player() -> None:
    state = table("Crash B2", "G1 G2", "Y1 Y2", stack="R5")
    state.apply(moves.Play((CRASH,)))
    assert state.pending_crash == BEN and state.current_player == BEN
    assert state.legal_moves() == [moves.TAKE]


# ------------------------------------------------------------------------ Crash penalty


def test_take_draws_three_cards_and_ends_the_turn() -> None:
    state = table("R6 B2", "G1 G2 R7", stack="R5", seat=BEN, crash=BEN, pile="R8 R9 R10 B11")
    assert state.automatic() == moves.TAKE  # ben holds no Crash: taken without asking
    assert state.apply(moves.TAKE) == [TurnEnded(BEN)]
    assert hand(state, BEN) == "R7 R8 R9 R10 G1 G2"
    assert state.current_player == ANN and state.pending_crash is None


def test_take_draws_fewer_when_not_enough_can_be_drawn() -> None:
    state = table("R6 B2", "G1 G2", "", stack="R5", seat=BEN, crash=BEN, pile="B9", spare=CAT)
    state.apply(moves.TAKE)
    assert hand(state, BEN) == "B9 G1 G2" and state.pile_size == 0
    assert state.log[-1].drew == tuple(cards("B9"))


def test_player_holding_a_crash_may_still_take() -> None:
    state = table("R6 B2", "G1 Crash", stack="R5", seat=BEN, crash=BEN, pile="B9 B10 B11")
    state.apply(moves.TAKE)
    assert hand(state, BEN) == "B9 B10 B11 G1 Crash"


def test_two_player_block_cancels_the_penalty() -> None:
    state = table("R6 B2", "G1 Crash", stack="R5", seat=BEN, crash=BEN)
    assert state.apply(moves.BLOCK) == [TurnEnded(BEN)]
    assert state.pending_crash is None and state.current_player == ANN
    assert hand(state, ANN) == "R6 B2" and state.top_card == CRASH


def test_three_player_block_passes_the_penalty_on() -> None:
    state = table("R6 B2", "G1 Crash", "Y1 Y2", stack="R5", seat=BEN, crash=BEN)
    state.apply(moves.BLOCK)
    assert state.pending_crash == CAT and state.current_player == CAT
    assert state.legal_moves() == [moves.TAKE]


def test_passed_penalty_may_come_back_to_the_first_crasher() -> None:
    state = table("Crash B2", "G1 Crash", "Y1 Crash", stack="R5")
    play(state, moves.Play((CRASH,)), moves.BLOCK, moves.BLOCK)
    assert state.pending_crash == ANN and state.legal_moves() == [moves.TAKE]
    play(state, moves.TAKE)
    assert state.hand_size(ANN) == 4 and state.pending_crash is None


def test_penalty_is_always_three_cards() -> None:
    state = table("Crash B2", "G1 Crash", "Y1 Y2", stack="R5")
    play(state, moves.Play((CRASH,)), moves.BLOCK, moves.TAKE)
    assert state.hand_size(CAT) == 2 + 3


def test_blocking_with_the_last_card_wins() -> None:
    state = table("R6 B2", "Crash", "Y1 Y2", stack="R5", seat=BEN, crash=BEN)
    assert state.apply(moves.BLOCK) == [TurnEnded(BEN), GameEnded()]
    outcome = state.outcome()
    assert outcome is not None and outcome.winners == (BEN,) and outcome.ended_by == "empty_hand"
    assert state.pending_crash is None


# ------------------------------------------------------------------------ skipped turns


def test_skipped_turn_is_not_a_turn() -> None:
    state = table("Freeze B2", "G1 G2", "Y1 Y2", stack="R5")
    state.apply(moves.Play((FREEZE,)))
    assert state.turns_taken == 1 and [t.seat for t in state.log] == [ANN]


def test_skip_applies_only_to_the_next_turn() -> None:
    state = table("Freeze B2", "G1 G2", "R6 Y2", stack="R5", pile="G12 G13")
    play(state, moves.Play((FREEZE,)), p("R6"))  # ben is skipped, cat plays
    assert state.current_player == ANN
    play(state, moves.DRAW, moves.KEEP)  # ann is stuck; ben's turn is not skipped again
    assert state.current_player == BEN


# ------------------------------------------------------------------------ the draw pile


def test_rebuilt_pile_keeps_last_number_card_and_specials_on_it() -> None:
    state = table("B9 G2", "G1 G3", stack="Y4 R8 Flip R5 Freeze Switch", pile="")
    below = sorted(state.stack_cards[:-3])
    play(state, moves.DRAW)
    assert state.decision is Decision.CHANCE and state.chance_kind == "reshuffle"
    shuffle = state.sample_chance(random.Random(2))
    assert isinstance(shuffle, moves.Reshuffle) and sorted(shuffle.cards) == below
    refused(state, moves.Reshuffle(tuple(below[1:])), IllegalReason.BAD_OUTCOME)
    state.apply(shuffle)
    assert card_names(state.stack_cards) == ["R5", "Freeze", "Switch"]
    assert state.drawn == shuffle.cards[0] and state.pile_size == len(below) - 1
    assert (state.colour, state.number) == (RED, 5)
    assert state.log == [] and state.phase == "drawn"


def test_rebuild_does_not_change_the_stack_state() -> None:
    state = table("B9 Y2", "G1 G3", "", stack="Y4 R8 R5 Switch", pile="", spare=CAT)
    state.colour = GREEN  # as after the Switch named Green
    play(state, moves.DRAW, moves.Reshuffle(tuple(cards("Y4 R8"))))
    assert (state.colour, state.number, state.up) == (GREEN, 5, True)


def test_take_may_rebuild_the_pile_partway() -> None:
    state = table(
        "R6 B2", "G1 G2", "", stack="Y4 B8 R5", seat=BEN, crash=BEN, pile="B11", spare=CAT
    )
    assert state.apply(moves.TAKE) == []
    assert state.chance_kind == "reshuffle" and hand(state, BEN) == "B11 G1 G2"
    assert state.apply(moves.Reshuffle(tuple(cards("B8 Y4")))) == [TurnEnded(BEN)]
    assert hand(state, BEN) == "B8 B11 Y4 G1 G2"
    assert state.log[-1].reshuffle == tuple(cards("B8 Y4"))


def test_draw_with_nothing_to_rebuild_is_lost() -> None:
    # every card is in a hand or is the stack's one number card
    state = table("B9 Y2", "", stack="R5", pile="", spare=BEN)
    assert state.pile_size == 0 and state.stack_cards == tuple(cards("R5"))
    play(state, moves.DRAW)
    assert state.drew_nothing and state.legal_moves() == [moves.KEEP]
    play(state, moves.KEEP)
    assert state.log[-1].drew == () and state.log[-1].reshuffle is None


# ------------------------------------------------------------------------ winning and ending


def test_emptying_the_hand_wins_at_once_and_nothing_pending_is_resolved() -> None:
    state = table("Crash", "G1 G2", "Y1 Y2", stack="R5")
    assert state.apply(moves.Play((CRASH,))) == [TurnEnded(ANN), GameEnded()]
    assert state.pending_crash is None and state.current_player is None and state.is_over
    refused(state, moves.TAKE, IllegalReason.GAME_OVER)


def test_turn_limit_ends_the_game_after_the_limit() -> None:
    state = table("R6 B2 B3", "G1 G2", stack="R5", turns=9, turn_limit=10)
    assert state.turns_left == 1
    assert state.apply(p("R6")) == [TurnEnded(ANN), GameEnded()]
    outcome = state.outcome()
    assert outcome is not None and outcome.ended_by == "turn_limit"
    assert outcome.winners == (ANN, BEN) and outcome.scores == (2, 2)
    assert outcome.higher_wins is False


def test_turn_limit_fewest_cards_share_the_win() -> None:
    state = table("R6 B2", "G1 G2", "Y1 Y2 Y3", "B9 B10", stack="R5", turns=2, turn_limit=3)
    state.apply(p("R6"))
    outcome = state.outcome()
    assert outcome is not None and outcome.winners == (ANN,)
    shared = table("B2 B3", "G1 G2", "Y1 Y2 Y3", stack="R5", turns=0, turn_limit=1)
    play(shared, moves.DRAW, moves.KEEP)  # ann is stuck and draws: 3 cards, ben 2
    assert shared.outcome().winners == (BEN,)  # type: ignore[union-attr]


def test_every_turn_counts_towards_the_limit() -> None:
    state = table("Crash R6 B3", "G1 Crash", "Y1 Y2 Y3", "B9 B10", stack="R5", turn_limit=5)
    play(state, moves.Play((CRASH,)), moves.BLOCK, moves.TAKE)  # a play, a block, a take
    assert state.turns_taken == 3
    play(state, moves.DRAW, moves.KEEP)  # dan is stuck
    assert state.turns_taken == 4 and not state.is_over
    play(state, p("R6"))
    outcome = state.outcome()
    assert state.is_over and outcome is not None and outcome.ended_by == "turn_limit"


def test_hand_emptied_on_the_last_turn_wins_as_an_empty_hand() -> None:
    state = table("R6", "G1 G2", stack="R5", turns=4, turn_limit=5)
    state.apply(p("R6"))
    outcome = state.outcome()
    assert outcome is not None and outcome.ended_by == "empty_hand" and outcome.winners == (ANN,)


# ------------------------------------------------------------------------ asking and refusing


def test_nobody_moves_out_of_turn() -> None:
    state = table("R6 B2", "R7 G2", stack="R5")
    assert refused(state, p("R7"), IllegalReason.NOT_YOUR_TURN, by=BEN) == "It's ann's turn."
    refused(state, p("R6"), IllegalReason.NOT_YOUR_TURN, by=BEN)


def test_players_cannot_play_chance_outcomes() -> None:
    state = table("Snatch B2", "G1 G2", stack="R5")
    state.apply(moves.Play((SNATCH,), target=BEN, count=1))
    refused(state, moves.Took(tuple(cards("G1"))), IllegalReason.WRONG_DECISION, by=ANN)
    refused(state, moves.DRAW, IllegalReason.WRONG_DECISION)


def test_legal_moves_are_distinct_and_each_is_legal() -> None:
    state = table("R6 R7 R8 R9 Snatch Switch Switch Crash Flip", "G1 G2 G3 G4", stack="R5")
    legal = state.legal_moves()
    assert len(legal) == len(set(legal))
    assert all(state.is_legal(m) for m in legal)
    assert legal == state.legal_moves()  # a fixed order


# ------------------------------------------------------------------------ refusals in words


@pytest.mark.parametrize(
    ("stack", "words"),
    [
        ("R7", "B3 is not legal on Red 7 going up: it takes a red card or an 8."),
        ("R10", "B3 is not legal on Red 10 going up: it takes a red card or an 11."),
        ("R4", "B3 is not legal on Red 4 going up: it takes a red card or a 5."),
    ],
)
def test_a_card_not_legal_on_the_stack_says_what_the_stack_takes(stack: str, words: str) -> None:
    state = table("B3 G1", "G2 G3", stack=stack)
    assert refused(state, moves.Play(tuple(cards("B3"))), IllegalReason.NOT_ON_STACK) == words


def test_snatched_cards_of_the_wrong_count_are_counted_in_words() -> None:
    one = table("Snatch B2", "G1 G2", "Y1 Y2", stack="R5")
    one.apply(moves.Play((SNATCH,), target=BEN, count=1))
    msg = refused(one, moves.Took(tuple(cards("G1 G2"))), IllegalReason.BAD_OUTCOME)
    assert msg == "The Snatch takes 1 card from ben."
    two = table("Snatch B2", "G1 G2 G3 G4", stack="R5")
    two.apply(moves.Play((SNATCH,), target=BEN, count=2))
    msg = refused(two, moves.Took(tuple(cards("G1"))), IllegalReason.BAD_OUTCOME)
    assert msg == "The Snatch takes 2 cards from ben."


def test_a_stuck_player_who_drew_is_refused_in_one_phrasing() -> None:
    state = table("B9 G2", "G1 G3", stack="R5", pile="R6")
    state.apply(moves.DRAW)
    msg = refused(state, moves.Play(tuple(cards("B9"))), IllegalReason.WRONG_DECISION)
    assert msg == "You were stuck and drew a card: play it alone, or keep it."
    named = state.refusal(moves.Play(tuple(cards("B9"))), named=True)
    assert named is not None
    assert str(named) == "ann was stuck and drew a card: play it alone, or keep it."
    nothing = table("B9 Y2", "", stack="R5", pile="", spare=BEN)  # no card to draw
    nothing.apply(moves.DRAW)
    assert nothing.drew_nothing
    for move in (moves.PLAY_DRAWN, moves.Play(tuple(cards("B9")))):
        msg = refused(nothing, move, IllegalReason.WRONG_DECISION)
        assert msg == (
            "You were stuck and no card could be drawn: there is nothing to play, so keep."
        )
