"""AI players: legality, the random player's uniformity, and greedy beating random."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from engine.simulate import win_rate
from engine.stack.ai import GreedyPlayer, NoMoveError, RandomPlayer, make_ai
from engine.stack.moves import Stack
from tests.engine.situations import B, deal, stack


def test_random_player_is_uniform_over_distinct_legal_moves() -> None:
    state = deal([3, 4, 4], [3, 4, 5], [4, 6, 6])
    moves = state.legal_moves()
    assert len(moves) == len(set(moves))
    rng = random.Random(1)
    counts = Counter(RandomPlayer().choose(state, rng) for _ in range(6000))
    assert set(counts) == set(moves)
    expected = 6000 / len(moves)
    assert all(abs(c - expected) < expected * 0.2 for c in counts.values())


def test_count_and_nth_agree_with_legal_moves() -> None:
    state = deal([3, 4, 4], [3, 4, 5], [4, 6, 6])
    assert [
        state.nth_legal_move(i) for i in range(state.count_legal_moves())
    ] == state.legal_moves()
    with pytest.raises(IndexError):
        state.nth_legal_move(state.count_legal_moves())


def test_greedy_takes_a_capture() -> None:
    state = deal([6, 6, 2], [6, 6, 3], [6, 1, 4])
    stack(state, 6, B)
    stack(state, 6, 0, 2)
    move = GreedyPlayer().choose(state, random.Random(0))
    assert move == Stack(6, B, 3)
    assert "captures" in GreedyPlayer().best(state).reason


def test_ai_has_no_move_at_a_chance_node() -> None:
    state = deal([3], [3])
    stack(state, 3, B)
    with pytest.raises(NoMoveError):
        make_ai("greedy").choose(state, random.Random(0))
    with pytest.raises(ValueError, match="no AI level"):
        make_ai("genius")


def test_greedy_beats_random_clearly() -> None:
    # A small sample keeps the test quick; `python -m engine.simulate` runs 1,000 games.
    assert win_rate(games=40, seed=3) > 0.6
