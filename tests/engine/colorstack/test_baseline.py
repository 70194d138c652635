"""The plain alpha-beta baseline (engine/colorstack/baseline.py) and the match tool
(engine/colorstack/match.py): the baseline's own move generator gives exactly the engine's
legal moves over thousands of random positions, it takes a win in one, blocks one,
finds a forced win two turns deep, scores the rule book's draws, never plays an illegal
move, and its "one set away" term counts what a set would make a win; the match tool
plays a tiny match and prints its figures."""

from __future__ import annotations

import random

import pytest

from engine.colorstack.baseline import (
    WIN,
    BaselinePlayer,
    Position,
    generated_moves,
    history_counts,
    to_engine,
)
from engine.colorstack.match import elo, main, run, score_interval
from engine.colorstack.moves import set_face
from engine.colorstack.rules import ColorStackSettings
from engine.colorstack.state import ColorStackState
from tests.engine.colorstack.test_search import (
    BLOCKABLE,
    WIN_IN_TWO,
    forced_wins_in_two,
    gives_a_win,
    parse,
    record_example,
    stored,
)


def random_game_positions(seed: int, board: str, every: int = 1) -> list[ColorStackState]:
    """Every ``every``-th position of a uniformly random game (copies), the start too."""
    rng = random.Random(seed)
    state = ColorStackState(["ann", "bob"], ColorStackSettings(board=board))  # type: ignore[arg-type]
    state.set_up(rng)
    out = []
    while not state.is_over:
        if state.turns % every == 0:
            out.append(state.copy())
        state.apply(rng.choice(state.legal_moves()))
    return out


# ------------------------------------------------------------------ the move generator


@pytest.mark.parametrize("board", ["light", "heavy"])
def test_own_move_generator_gives_the_engines_legal_moves(board: str) -> None:
    positions = 0
    for seed in range(40):
        for state in random_game_positions(seed, board, every=3):
            pos = Position(state)
            mine = {to_engine(mv) for mv in pos.legal()}
            assert mine == set(state.legal_moves()), (seed, state.turns)
            for seat in (0, 1):  # four-colour moves, as if ``seat`` were to move
                assert pos.threats(seat) == len(state.winning_moves(seat))
            assert pos.generate(pos.to_move)[3] == bool(state.winning_moves())
            positions += 1
    assert positions >= 1500
    assert generated_moves(state) == set(state.legal_moves())


def one_set_away_by_brute_force(state: ColorStackState, seat: int) -> int | None:
    """(piece, stack) pairs of ``seat`` that are no four-colour move now but become one
    after some set of the piece (the engine's winning_moves after each set); ``None``
    when a set would end the game (its winning moves are then not listed)."""
    now = {(m.frm, m.to) for m in state.winning_moves(seat)}
    pairs: set[tuple[int, int]] = set()
    for sq in state.pieces(seat):
        for face in range(1, 7):
            if face == state.face(sq):
                continue
            state.push(set_face(sq, face))
            if state.ended_by is not None:
                state.pop()
                return None
            pairs |= {(m.frm, m.to) for m in state.winning_moves(seat) if m.frm == sq}
            state.pop()
    return len(pairs - now)


def test_one_set_away_counts_what_a_set_would_make_a_win() -> None:
    checked = 0
    for seed in range(12):
        for state in random_game_positions(seed, "light", every=5):
            if state.turns == 0:
                continue
            pos = Position(state, soon=True)
            for seat in (0, 1):
                want = one_set_away_by_brute_force(state, seat)
                if want is not None:
                    assert pos.one_set_away(seat) == want, (seed, state.turns, seat)
                    checked += 1
    assert checked >= 200


def test_own_repetition_counts_agree_with_the_engine() -> None:
    state = record_example(0)
    cycle = ["set a1 4", "set a6 3", "set a1 3", "set a6 2"]
    for text in cycle * 2:
        pos = Position(state)
        assert pos.counts[pos.hash] == state.repetitions()
        state.apply(parse(text))
    pos = Position(state)
    assert pos.counts[pos.hash] == state.repetitions() == 3  # the start, a third time
    assert sum(history_counts(state).values()) == state.turns + 1  # nothing stacked yet


def test_make_and_unmake_restore_the_position() -> None:
    for seed in range(10):
        for state in random_game_positions(seed, "light", every=7):
            pos = Position(state)
            before = (list(pos.cells), list(pos.masks), pos.occ, pos.hash, pos.to_move)
            counts = dict(pos.counts)
            for mv in pos.legal():
                pos.make(mv)
                pos.unmake()
            assert (list(pos.cells), list(pos.masks), pos.occ, pos.hash, pos.to_move) == before
            assert pos.counts == counts


# ------------------------------------------------------------------ tactics and rules


def test_takes_a_win_in_one() -> None:
    state = record_example(6)
    assert [str(m) for m in state.winning_moves()] == ["d1-c6"]
    for nodes in (1, 100):
        assert str(BaselinePlayer(nodes=nodes).choose(state, random.Random(0))) == "d1-c6"
    assert str(BaselinePlayer(budget=0.05).choose(state, random.Random(0))) == "d1-c6"


def test_takes_a_win_in_one_in_random_positions() -> None:
    found = 0
    for seed in range(30):
        rng = random.Random(seed)
        state = ColorStackState(["ann", "bob"])
        state.set_up(rng)
        while not state.is_over:
            wins = state.winning_moves()
            if wins:
                assert BaselinePlayer(nodes=20).choose(state, random.Random(seed)) in wins
                found += 1
            state.apply(rng.choice(state.legal_moves()))
    assert found >= 10


def test_blocks_the_opponents_win_in_one() -> None:
    state = stored(BLOCKABLE)
    blocks = {m for m in state.legal_moves() if not gives_a_win(state, m)}
    for seed in range(3):
        assert BaselinePlayer(nodes=3000).choose(state, random.Random(seed)) in blocks


@pytest.mark.parametrize("kind", ["move", "set"])
def test_finds_a_forced_win_two_turns_deep(kind: str) -> None:
    state = stored(WIN_IN_TWO[kind])
    result = BaselinePlayer(nodes=300_000).search(state, random.Random(0))
    assert result.move in forced_wins_in_two(state)
    assert result.score == WIN - 3


def test_a_third_occurrence_is_a_draw_in_its_search() -> None:
    state = record_example(0)
    cycle = ["set a1 4", "set a6 3", "set a1 3", "set a6 2"]
    for text in cycle + cycle[:3]:
        state.apply(parse(text))
    pos = Position(state)
    last = parse("set a6 2")
    pos.make(next(m for m in pos.legal() if to_engine(m) == last))
    assert pos.over and not pos.won


@pytest.mark.parametrize(("seed", "board"), [(1, "light"), (2, "heavy"), (3, "light")])
def test_never_plays_an_illegal_move(seed: int, board: str) -> None:
    rng = random.Random(seed)
    settings = ColorStackSettings(board=board, turn_limit=80)  # type: ignore[arg-type]
    state = ColorStackState(["ann", "bob"], settings)
    state.set_up(rng)
    players = (BaselinePlayer(nodes=40), BaselinePlayer(nodes=200, soon=True))
    while not state.is_over:
        seat = state.current_player
        assert seat is not None
        mv = players[seat].choose(state, rng)
        assert mv in state.legal_moves()
        state.apply(mv, by=seat)


def test_whole_first_finishes_depth_one_however_small_the_budget() -> None:
    state = stored(BLOCKABLE)
    blocks = {m for m in state.legal_moves() if not gives_a_win(state, m)}
    result = BaselinePlayer(budget=1e-6, whole_first=True).search(state, random.Random(0))
    assert result.depth >= 1 and result.nodes >= len(state.legal_moves())
    assert result.move in blocks  # depth 1 sees the win it would hand over


def test_no_move_once_over() -> None:
    state = record_example(6)
    state.apply(parse("d1-c6"))
    with pytest.raises(ValueError, match="no move"):
        BaselinePlayer(nodes=10).choose(state, random.Random(0))


# ------------------------------------------------------------------ the match tool


def test_score_interval_and_elo() -> None:
    s, low, high = score_interval(5, 0, 5)
    assert s == 0.5 and low < 0.5 < high
    assert score_interval(10, 0, 0)[1:] == (pytest.approx(0.722, abs=0.001), pytest.approx(1))
    assert elo(0.5) == 0
    assert elo(0.75) == pytest.approx(190.8, abs=0.1)
    assert elo(1.0) == float("inf") and elo(0.0) == float("-inf")


def test_a_tiny_match_runs_and_reports(capsys: pytest.CaptureFixture[str]) -> None:
    main(["--nodes", "30", "--games", "2", "--turn-limit", "20", "--quiet"])
    out = capsys.readouterr().out
    assert "expert v baseline, 2 games: +" in out
    assert "score " in out and "Elo " in out and "Wilson" in out
    main(["--nodes", "30", "--games", "2", "--turn-limit", "20", "--quiet", "--baseline-soon"])
    assert "(baseline with wins a set away)" in capsys.readouterr().out
    main(
        ["--nodes", "30", "--games", "2", "--turn-limit", "9", "--quiet", "--baseline-whole-first"]
    )
    assert "(baseline with depth 1 whole)" in capsys.readouterr().out
    tally = run(2, "heavy", 0.1, 20, 5, 12, quiet=True)
    assert tally.games == 2 and tally.moves[0] + tally.moves[1] == tally.turns
