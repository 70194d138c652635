"""AI players: random over complete decisions, greedy with reasons that hide other hands."""

from __future__ import annotations

import random
import re
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.simulate import greedy_win_rate
from engine.stackup.ai import GreedyPlayer, NoMoveError, RandomPlayer, make_ai
from engine.stackup.cards import CRASH, FREEZE, FULL_DECK, card_names
from engine.stackup.game import GAME
from engine.stackup.moves import BLOCK, Deal, Play
from engine.stackup.state import StackUpState
from tests.engine.situations import decisions

from .situations import BEN, NAMES, cards, table


def test_random_player_chooses_uniformly_among_complete_decisions() -> None:
    state = table("R6 R7 R8 B1", "G1 G2", stack="R5")
    legal = state.legal_moves()
    rng = random.Random(4)
    counts = Counter(RandomPlayer().choose(state, rng) for _ in range(3000))
    assert set(counts) == set(legal)
    assert min(counts.values()) > 3000 / len(legal) / 2


def test_greedy_plays_a_winning_move() -> None:
    state = table("R6 R7", "G1 G2", stack="R5")
    move, reason = GreedyPlayer().hint(state)
    assert move == Play(tuple(cards("R6 R7"))) and "you win" in reason


def test_greedy_blocks_rather_than_takes() -> None:
    state = table("R6 B2", "G1 Crash G5", stack="R5", seat=BEN, crash=BEN)
    assert GreedyPlayer().choose(state, random.Random(1)) == BLOCK


def test_greedy_sheds_more_cards_and_keeps_its_specials() -> None:
    state = table("R6 R7 Y9 Freeze Switch", "G1 G2 G3 G4 G5", stack="R5")
    move, reason = GreedyPlayer().hint(state)
    assert move == Play(tuple(cards("R6 R7"))), reason
    assert reason.startswith("R6 R7: plays 2 cards") and reason.endswith(".")


def test_greedy_freezes_for_another_turn_with_two_players() -> None:
    state = table("Freeze B9 Y9", "G1 G2", stack="R5")
    assert GreedyPlayer().hint(state)[0] == Play((FREEZE,))


def test_greedy_crashes_a_player_about_to_go_out() -> None:
    state = table("Crash B9 Y9 R12", "G1", "Y1 Y2 Y3 Y4 Y5", stack="R5")
    move, reason = GreedyPlayer().hint(state)
    assert move == Play((CRASH,)) and "ben" in reason


def test_no_decision_no_move() -> None:
    state = StackUpState(NAMES[:2])
    with pytest.raises(NoMoveError):
        GreedyPlayer().choose(state, random.Random(1))
    with pytest.raises(NoMoveError):
        RandomPlayer().choose(state, random.Random(1))


def test_make_ai_knows_both_levels() -> None:
    assert make_ai("random").level == "random" and make_ai("greedy").level == "greedy"
    with pytest.raises(ValueError, match="choose from random, greedy"):
        make_ai("genius")


def test_greedy_beats_random_players() -> None:
    # deterministic (a fixed seed): the greedy seat wins more than its share
    # `python -m engine.simulate --game stackup` plays 1,000 games per table size
    assert greedy_win_rate(GAME, 2, 200, seed=11) > 0.5
    assert greedy_win_rate(GAME, 4, 200, seed=11) > 0.25


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(2, 6))
def test_hints_never_name_another_players_cards(seed: int, n: int) -> None:
    rng = random.Random(seed)
    state = StackUpState(NAMES[:n])
    greedy = GreedyPlayer()
    for _ in decisions(state, rng):
        p = state.current_player
        assert p is not None
        move, reason = greedy.hint(state)
        assert state.is_legal(move) and reason.endswith(".")
        named = set(re.findall(r"\b[RBYG][0-9]+\b", reason))
        assert named <= set(card_names(state.hand(p))) | set(card_names(state.stack_cards))
        state.apply(greedy.choose(state, rng))


def test_reasons_count_cards_in_words_not_card_s() -> None:
    state = StackUpState(NAMES[:2])
    state.apply(Deal(tuple(FULL_DECK), 0))  # ann: R1 R3 … R15 B2 B4 on Blue 6
    reasons = [r.reason for r in GreedyPlayer().rate(state)]
    assert reasons == [
        "up: going up gives you a play of 1 card.",
        "down: going down gives you a play of 1 card.",
    ]
    switch = table("Switch B1 Y2 Y3", "G1 G2", stack="R5")
    said = {r.reason for r in GreedyPlayer().rate(switch)}
    assert {
        "switch blue: Switch to Blue, a colour you hold 1 card of.",
        "switch yellow: Switch to Yellow, a colour you hold 2 cards of.",
        "switch green: Switch to Green, a colour you hold no card of.",
    } <= said
    assert not any("(s)" in reason for reason in said)
