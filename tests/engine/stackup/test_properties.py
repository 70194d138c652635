"""Properties over random games (hypothesis): whatever the seed, seats and turn limit."""

from __future__ import annotations

import json
import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.game import Decision, GameEnded, TurnEnded
from engine.stackup.cards import FULL_DECK
from engine.stackup.moves import Move, move_from_json, move_to_json
from engine.stackup.rules import StackUpSettings
from engine.stackup.state import StackUpState
from tests.engine.situations import decisions

from .situations import NAMES

seeds = st.integers(0, 2**32 - 1)
seats = st.integers(2, 6)
limits = st.sampled_from([1, 2, 7, 30, 500])


def random_game(
    seed: int, n: int, turn_limit: int = 500, *, check: bool = True
) -> tuple[StackUpState, list[Move]]:
    """Play a game with uniformly random decisions, checking invariants after every move."""
    rng = random.Random(seed)
    state = StackUpState(NAMES[:n], StackUpSettings(turn_limit=turn_limit))
    moves: list[Move] = []
    turns = 0
    while not state.is_over:
        assert len(moves) < 5000, "the game does not end"
        if state.decision is Decision.CHANCE:
            move: Move = state.sample_chance(rng)
        else:
            legal = state.legal_moves()
            auto = state.automatic()
            if auto is not None:
                assert legal == [auto]
            if check:
                assert legal and len(set(legal)) == len(legal)
                assert all(state.is_legal(m) for m in legal)
            move = auto if auto is not None else legal[rng.randrange(len(legal))]
        events = state.apply(move)
        moves.append(move)
        turns += sum(isinstance(e, TurnEnded) for e in events)
        assert (GameEnded() in events) == state.is_over
        assert turns == state.turns_taken == len(state.log)
        if check:
            everything = [c for h in state.hands for c in h] + state.pile + state.stack
            assert Counter(everything) == Counter(FULL_DECK)
            if not state.is_over and state.phase != "direction":
                assert all(state.hands), "a hand is empty without a win"
    return state, moves


@settings(max_examples=60, deadline=None)
@given(seeds, seats, limits)
def test_random_games_end_and_keep_all_80_cards(seed: int, n: int, limit: int) -> None:
    state, _ = random_game(seed, n, limit)
    outcome = state.outcome()
    assert outcome is not None and outcome.ended_by in ("empty_hand", "turn_limit")
    assert outcome.scores == state.hand_sizes and state.turns_taken <= limit
    if outcome.ended_by == "empty_hand":
        assert len(outcome.winners) == 1 and state.hand_size(outcome.winners[0]) == 0
    else:
        assert state.turns_taken == limit
        assert set(outcome.winners) == {
            s for s in range(n) if state.hand_size(s) == min(state.hand_sizes)
        }


@settings(max_examples=40, deadline=None)
@given(seeds, seats, limits, st.integers(0, 400))
def test_to_dict_round_trip_is_exact_at_every_point(
    seed: int, n: int, limit: int, stop: int
) -> None:
    full, moves = random_game(seed, n, limit, check=False)
    state = StackUpState(NAMES[:n], StackUpSettings(turn_limit=limit))
    for move in moves[: min(stop, len(moves))]:
        state.apply(move)
    data = json.loads(json.dumps(state.to_dict()))
    restored = StackUpState.from_dict(data)
    assert restored == state and restored.to_dict() == state.to_dict()
    assert restored.legal_moves() == state.legal_moves()
    copy = state.copy()
    assert copy == state
    # the rest of the game plays identically from the restored state and from the copy
    for move in moves[min(stop, len(moves)) :]:
        state.apply(move)
        restored.apply(move)
        copy.apply(move)
    assert restored == state == full == copy


@settings(max_examples=30, deadline=None)
@given(seeds, seats)
def test_same_seed_same_game(seed: int, n: int) -> None:
    one, moves_one = random_game(seed, n, check=False)
    two, moves_two = random_game(seed, n, check=False)
    assert moves_one == moves_two and one == two


@settings(max_examples=30, deadline=None)
@given(seeds, seats)
def test_every_move_of_a_game_survives_the_codec(seed: int, n: int) -> None:
    _, moves = random_game(seed, n, check=False)
    for move in moves:
        assert move_from_json(json.loads(json.dumps(move_to_json(move)))) == move


@settings(max_examples=40, deadline=None)
@given(seeds, seats)
def test_the_table_never_stalls(seed: int, n: int) -> None:
    """When no card can be drawn, some player holds a card of the stack's colour."""
    rng = random.Random(seed)
    state = StackUpState(NAMES[:n])
    for _ in decisions(state, rng):
        if state.phase == "turn" and not state.pile and not state.base:
            assert any(state.has_play(s) for s in range(n))
        legal = state.legal_moves()
        state.apply(legal[rng.randrange(len(legal))])


def test_copy_is_independent() -> None:
    state, _ = random_game(5, 3, check=False)
    fresh = StackUpState(NAMES[:3])
    copy = fresh.copy()
    copy.apply(copy.sample_chance(random.Random(1)))
    assert fresh.phase == "deal" and fresh.hand_sizes == (0, 0, 0)
    assert state.copy() == state
