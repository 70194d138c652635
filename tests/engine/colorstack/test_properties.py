"""Properties of random Color Stack games (hypothesis): they end without an exception,
the 12 dice are conserved, every legal list agrees with the refusals, push/pop and
``to_dict`` are exact, the position key is the position, and the same seed plays the
same game."""

from __future__ import annotations

import random
from collections import Counter

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.colorstack.ai import RandomPlayer
from engine.colorstack.moves import move, set_face
from engine.colorstack.rules import ColorStackSettings
from engine.colorstack.state import SIDE, ZOBRIST, ColorStackState

PLAYERS = ("ann", "ben")
BOARDS = st.sampled_from(["light", "heavy"])
SEEDS = st.integers(0, 2**32)


def play(seed: int, board: str, limit: int = 300, stop: int | None = None) -> ColorStackState:
    rng = random.Random(seed)
    state = ColorStackState(PLAYERS, ColorStackSettings(board=board, turn_limit=limit))
    state.set_up(rng)
    player = RandomPlayer()
    while not state.is_over and (stop is None or state.turns < stop):
        state.apply(player.choose(state, rng), by=state.current_player)
    return state


def dice(state: ColorStackState) -> Counter[int]:
    return Counter(d >> 3 for cell in state.cells for d in cell)


def fresh_key(state: ColorStackState) -> int:
    h = SIDE if state.to_move == 1 else 0
    for sq, cell in enumerate(state.cells):
        for level, d in enumerate(cell):
            h ^= ZOBRIST[sq][level][d]
    return h


@settings(max_examples=25, deadline=None)
@given(seed=SEEDS, board=BOARDS)
def test_random_games_end_without_an_exception_and_conserve_the_dice(seed: int, board: str) -> None:
    rng = random.Random(seed)
    state = ColorStackState(PLAYERS, ColorStackSettings(board=board))
    state.set_up(rng)
    while not state.is_over:
        assert dice(state) == {0: 3, 1: 3, 2: 3, 3: 3}
        assert state.position_key() == fresh_key(state)
        assert state.has_piece(state.to_move)
        for cell in state.cells:
            colours = [d >> 3 for d in cell]
            assert len(colours) == len(set(colours)) <= 3  # no colour twice until a win
        state.apply(RandomPlayer().choose(state, rng))
    outcome = state.outcome()
    assert outcome is not None
    assert outcome.ended_by in ("four_colours", "repetition", "turn_limit")
    assert state.turns <= 300
    if outcome.winners:
        assert any(state.colour_masks[sq] == 0b1111 for sq in range(state.squares))


@settings(max_examples=15, deadline=None)
@given(seed=SEEDS, board=BOARDS, stop=st.integers(0, 120))
def test_legal_moves_are_exactly_the_actions_nothing_refuses(
    seed: int, board: str, stop: int
) -> None:
    state = play(seed, board, stop=stop)
    legal = set(state.legal_moves())
    assert len(legal) == len(state.legal_moves())
    for a in range(state.squares):
        for f in range(1, 7):
            assert (state.refusal(set_face(a, f)) is None) == (set_face(a, f) in legal)
        for b in range(state.squares):
            assert (state.refusal(move(a, b)) is None) == (move(a, b) in legal)


@settings(max_examples=15, deadline=None)
@given(seed=SEEDS, board=BOARDS, stop=st.integers(0, 150))
def test_push_then_pop_restores_the_position_exactly(seed: int, board: str, stop: int) -> None:
    state = play(seed, board, stop=stop)
    before = state.to_dict()
    snapshot = (list(state.cells), list(state.colour_masks), state.occupied, state.position_key())
    for mv in state.legal_moves():
        state.push(mv)
        assert state.position_key() == fresh_key(state)
        state.pop()
        assert snapshot == (
            list(state.cells),
            list(state.colour_masks),
            state.occupied,
            state.position_key(),
        )
    assert state.to_dict() == before


@settings(max_examples=15, deadline=None)
@given(seed=SEEDS, board=BOARDS, stop=st.integers(0, 300))
def test_to_dict_restores_exactly(seed: int, board: str, stop: int) -> None:
    state = play(seed, board, stop=stop)
    restored = ColorStackState.from_dict(state.to_dict())
    assert restored == state
    assert restored.cells == state.cells and restored.position_key() == state.position_key()
    assert restored.repetitions() == state.repetitions()
    assert restored.legal_moves() == state.legal_moves()
    assert restored.outcome() == state.outcome()


@settings(max_examples=10, deadline=None)
@given(seed=SEEDS, board=BOARDS)
def test_a_copy_is_independent(seed: int, board: str) -> None:
    state = play(seed, board, stop=20)
    twin = state.copy()
    assert twin == state
    if not twin.is_over:
        twin.apply(twin.legal_moves()[0])
        assert twin != state and twin.turns == state.turns + 1


@settings(max_examples=10, deadline=None)
@given(seed=SEEDS, board=BOARDS)
def test_same_seed_same_game(seed: int, board: str) -> None:
    assert play(seed, board).to_dict() == play(seed, board).to_dict()
