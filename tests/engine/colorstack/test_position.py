"""The expert's own position (engine/colorstack/position.py) agrees with the engine's state
on every random position: the legal actions, the winning moves of both seats, whose turn,
the position key, repetitions and endings after each action, and push/pop restores it."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.colorstack.board import RED, YELLOW
from engine.colorstack.moves import Setup, move, set_face
from engine.colorstack.position import Position, from_engine, history_counts, to_engine
from engine.colorstack.rules import ColorStackSettings
from engine.colorstack.state import ColorStackState


def snapshot(pos: Position) -> tuple[object, ...]:
    return (
        list(pos.cells),
        list(pos.masks),
        pos.occ,
        list(pos.seat_bb),
        list(pos.face_bb),
        list(pos.mask_bb),
        pos.hash,
        dict(pos.counts),
        pos.to_move,
        pos.turns,
        pos.over,
        pos.winner,
    )


def same_as_engine(pos: Position, state: ColorStackState) -> None:
    assert pos.over == state.is_over
    assert pos.winner == state.winner
    assert pos.hash == state.position_key()
    assert pos.to_move == state.to_move
    assert pos.turns == state.turns
    if state.is_over:
        return
    assert pos.repetitions() == state.repetitions()
    mine = pos.legal_moves()
    assert len(mine) == len(set(mine))
    assert {to_engine(m) for m in mine} == set(state.legal_moves())
    for seat in (0, 1):
        wins = {to_engine(m) for m in pos.winning_moves(seat)}
        assert wins == set(state.winning_moves(seat))
        assert pos.can_win(seat) == bool(wins)


def play_out(seed: int, board: str, turn_limit: int, wins_first: float) -> None:
    """A whole game of random actions (winning moves preferred with chance ``wins_first``),
    the position pushed alongside the engine, compared after every action."""
    rng = random.Random(seed)
    state = ColorStackState(["ann", "bob"], ColorStackSettings(board=board, turn_limit=turn_limit))
    state.set_up(rng)
    pos = Position(state)
    while True:
        same_as_engine(pos, state)
        if state.is_over:
            break
        legal = pos.legal_moves()
        before = snapshot(pos)
        for mv in rng.sample(legal, min(3, len(legal))):
            pos.push(mv)
            pos.pop()
            assert snapshot(pos) == before
        wins = pos.winning_moves(pos.to_move)
        mv = rng.choice(wins) if wins and rng.random() < wins_first else rng.choice(legal)
        pos.push(mv)
        state.apply(to_engine(mv))
    # taken all the way back, it is the start again
    while pos.undo:
        pos.pop()
    start = ColorStackState(["ann", "bob"], state.settings)
    start.apply(state.setup)  # type: ignore[arg-type]
    assert snapshot(pos)[:10] == snapshot(Position(start))[:10]


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 100_000),
    board=st.sampled_from(["light", "heavy"]),
    turn_limit=st.sampled_from([300, 30]),
    wins_first=st.sampled_from([0.0, 0.5]),
)
def test_position_plays_every_game_as_the_engine_does(
    seed: int, board: str, turn_limit: int, wins_first: float
) -> None:
    play_out(seed, board, turn_limit, wins_first)


@settings(max_examples=30, deadline=None)
@given(seed=st.integers(0, 100_000), plies=st.integers(0, 200))
def test_a_position_made_mid_game_counts_the_games_earlier_positions(seed: int, plies: int) -> None:
    rng = random.Random(seed)
    state = ColorStackState(["ann", "bob"])
    state.set_up(rng)
    for _ in range(plies):
        if state.is_over:
            return
        state.apply(rng.choice(state.legal_moves()))
    pos = Position(state)
    same_as_engine(pos, state)
    copy = state.copy()
    seen = [copy.position_key()]
    while copy.log:
        copy.pop()
        seen.append(copy.position_key())
    assert history_counts(state) == {k: seen.count(k) for k in set(seen)}


def test_a_position_occurring_a_third_time_ends_the_game_as_a_draw() -> None:
    state = ColorStackState(["alice", "bob"])
    cards = ("C", "B", "C", "B", "E", "E")
    state.apply(Setup(0, (RED, YELLOW), cards, (3, 4, 6, 2, 5, 1, 2, 5, 4, 3, 2, 1)))
    a1, a6 = 0, 45
    pos = Position(state)
    cycle = [set_face(a1, 4), set_face(a6, 3), set_face(a1, 3), set_face(a6, 2)]
    for mv in cycle * 2:
        assert not pos.over
        pos.push(from_engine(mv))
        state.apply(mv)
    assert pos.over and pos.winner is None and state.ended_by == "repetition"


def test_the_first_turn_allows_no_stacking_and_no_win() -> None:
    state = ColorStackState(["alice", "bob"])
    cards = ("A", "A", "B", "B", "B", "B")
    state.apply(Setup(0, (RED, YELLOW), cards, (2, 1, 1, 2, 2, 2, 2, 2, 2, 2, 2, 2)))
    pos = Position(state)
    c1, d1 = 2, 3  # c1 (yellow 1) reaches d1 (red 1) in one step, but may not stack yet
    assert move(c1, d1) not in {to_engine(m) for m in pos.legal_moves()}
    assert not pos.can_win(0) and not pos.can_win(1)
    same_as_engine(pos, state)
    state.apply(set_face(0, 3))  # alice sets a1; later turns may stack
    state.apply(set_face(45, 3))  # bob sets a6
    pos = Position(state)
    assert move(c1, d1) in {to_engine(m) for m in pos.legal_moves()}
    same_as_engine(pos, state)
