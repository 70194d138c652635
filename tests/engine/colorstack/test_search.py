"""The ``expert`` AI's search (engine/colorstack/search.py): it takes a win in one, blocks
a win in one when it can, finds forced wins two turns deep, never plays an illegal move,
scores the rule book's draws as 0, keeps to its budget, and is reproducible."""

from __future__ import annotations

import json
import pickle
import random
import time

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.budget import limit_search
from engine.colorstack.board import RED, YELLOW, parse_square
from engine.colorstack.moves import Move, Set, Setup, TurnMove, move, set_face
from engine.colorstack.position import Position
from engine.colorstack.search import (
    INFINITY,
    MATE_BOUND,
    WIN,
    ExpertPlayer,
    NoMoveError,
    _Search,
    make_expert,
    move_scores,
    side_figures,
    think,
)
from engine.colorstack.state import ColorStackState

# ------------------------------------------------------------------ positions


def record_example(turns: int) -> ColorStackState:
    """The record page's example game (colorstack-record.md) after its first ``turns``
    entries: after 6, Alice (seat 0) wins with d1-c6; after 5, Bob cannot stop it."""
    state = ColorStackState(["alice", "bob"])
    cards = ("C", "B", "C", "B", "E", "E")
    state.apply(Setup(0, (RED, YELLOW), cards, (3, 4, 6, 2, 5, 1, 2, 5, 4, 3, 2, 1)))
    for text in ["c1-c5", "a6-c6", "set c5 1", "set i6 3", "c5-c6", "set g6 4"][:turns]:
        state.apply(parse(text))
    return state


def parse(text: str, rows: int = 6) -> TurnMove:
    if text.startswith("set "):
        _, sq, face = text.split()
        at = parse_square(sq, rows)
        assert at is not None
        return set_face(at, int(face))
    frm, to = (parse_square(s, rows) for s in text.split("-"))
    assert frm is not None and to is not None
    return move(frm, to)


def stored(data: str) -> ColorStackState:
    return ColorStackState.from_dict(json.loads(data))


def random_position(seed: int, plies: int, board: str = "light") -> ColorStackState:
    """A position reached by ``plies`` uniformly random turns from a random set-up."""
    from engine.colorstack.rules import ColorStackSettings

    rng = random.Random(seed)
    state = ColorStackState(["ann", "bob"], ColorStackSettings(board=board))
    state.set_up(rng)
    for _ in range(plies):
        if state.is_over:
            break
        state.apply(rng.choice(state.legal_moves()))
    return state


def gives_a_win(state: ColorStackState, mv: TurnMove) -> bool:
    """Whether the opponent can win at once after ``mv``."""
    other = 1 - state.to_move
    state.push(mv)
    try:
        return state.ended_by is None and state.to_move == other and bool(state.winning_moves())
    finally:
        state.pop()


def forced_wins_in_two(state: ColorStackState) -> set[TurnMove]:
    """By brute force: the mover's moves after which it wins on its next turn whatever the
    reply (the test's own check, independent of the search)."""
    me = state.to_move
    out = set()
    for mv in state.legal_moves():
        state.push(mv)
        if state.ended_by is not None:
            wins = state.winner == me
        elif state.to_move == me:
            wins = bool(state.winning_moves())
        else:
            wins = True
            for reply in state.legal_moves():
                state.push(reply)
                wins = state.ended_by is None and bool(state.winning_moves())
                state.pop()
                if not wins:
                    break
        state.pop()
        if wins:
            out.add(mv)
    return out


# Ann (seat 0) threatens f3-c3; Bob's only moves that stop it are b4-d3 and d6-d3.
BLOCKABLE = """{"format": 1, "players": ["ann", "bob"], "rules": {"board": "light", "turn_limit": 300}, "setup": ["setup", 0, ["red", "yellow"], ["C", "B", "C", "B", "E'", "E'"], [5, 4, 6, 1, 6, 1, 2, 5, 1, 3, 1, 3]], "actions": [[0, ["m", "i1", "i2"]], [1, ["m", "g6", "g5"]], [0, ["m", "g1", "c3"]], [1, ["s", "i6", 1]], [0, ["m", "c3", "b4"]], [1, ["s", "c6", 2]], [0, ["m", "b4", "d2"]], [1, ["s", "g5", 6]], [0, ["m", "i2", "h2"]], [1, ["m", "c6", "a6"]], [0, ["m", "c1", "d2"]], [1, ["m", "g5", "h2"]], [0, ["s", "a1", 2]], [1, ["m", "f6", "d5"]], [0, ["m", "d1", "a4"]], [1, ["m", "d5", "d2"]], [0, ["s", "a4", 5]], [1, ["s", "d6", 6]], [0, ["s", "f1", 5]], [1, ["m", "d6", "b6"]], [0, ["s", "f1", 3]], [1, ["s", "h2", 2]], [0, ["m", "a4", "e5"]], [1, ["m", "b6", "c5"]], [0, ["m", "e5", "f3"]], [1, ["m", "c5", "b6"]], [0, ["m", "f3", "d6"]], [1, ["m", "b6", "e5"]], [0, ["m", "f1", "c1"]], [1, ["s", "h2", 5]], [0, ["m", "a1", "b2"]], [1, ["s", "a6", 6]], [0, ["s", "b2", 5]], [1, ["m", "h2", "g4"]], [0, ["s", "b2", 2]], [1, ["m", "g4", "g1"]], [0, ["m", "b2", "b4"]], [1, ["m", "e5", "c3"]], [0, ["s", "b4", 5]], [1, ["m", "g1", "h3"]], [0, ["m", "c1", "b3"]], [1, ["s", "c3", 5]], [0, ["s", "d6", 3]], [1, ["m", "d2", "f3"]]]}"""

# Positions with a forced win two turns deep and none in one (found by random play):
# bob (seat 1) wins after f2-g3; bob wins after turning f2 to 5 (a set forces it).
WIN_IN_TWO = {
    "move": """{"format": 1, "players": ["ann", "bob"], "rules": {"board": "light", "turn_limit": 300}, "setup": ["setup", 1, ["red", "yellow"], ["C", "D", "E", "D", "A'", "E'"], [4, 3, 5, 6, 2, 5, 4, 4, 5, 3, 1, 5]], "actions": [[1, ["m", "f1", "c2"]], [0, ["m", "f6", "f5"]], [1, ["m", "c2", "e6"]], [0, ["m", "f5", "d4"]], [1, ["m", "i1", "f3"]], [0, ["m", "d6", "f3"]], [1, ["s", "d1", 3]], [0, ["m", "d4", "a4"]], [1, ["s", "c1", 6]], [0, ["s", "a4", 5]], [1, ["s", "c1", 2]], [0, ["m", "f3", "g3"]], [1, ["s", "e6", 5]], [0, ["m", "c6", "b3"]], [1, ["m", "e6", "f6"]], [0, ["s", "a6", 2]], [1, ["s", "f6", 1]], [0, ["s", "g3", 2]], [1, ["m", "g1", "f2"]], [0, ["m", "a6", "c6"]], [1, ["s", "d1", 1]], [0, ["m", "b3", "f3"]], [1, ["m", "c1", "b2"]], [0, ["m", "f3", "b3"]], [1, ["s", "b2", 3]], [0, ["s", "c6", 4]], [1, ["m", "b2", "b3"]], [0, ["m", "a4", "b2"]], [1, ["m", "b3", "e3"]], [0, ["s", "g6", 5]]]}""",
    "set": """{"format": 1, "players": ["ann", "bob"], "rules": {"board": "light", "turn_limit": 300}, "setup": ["setup", 1, ["red", "yellow"], ["B", "C", "C", "B'", "E", "E"], [2, 1, 2, 5, 5, 4, 2, 2, 1, 1, 2, 2]], "actions": [[1, ["s", "i1", 1]], [0, ["m", "a6", "c6"]], [1, ["m", "f1", "f2"]], [0, ["s", "c6", 6]], [1, ["s", "g1", 3]], [0, ["s", "c6", 2]], [1, ["s", "c1", 4]], [0, ["s", "c6", 5]], [1, ["s", "a1", 6]], [0, ["s", "c6", 2]], [1, ["s", "d1", 4]], [0, ["s", "g6", 4]], [1, ["m", "c1", "a3"]], [0, ["s", "c6", 4]], [1, ["s", "f2", 1]], [0, ["m", "c6", "f5"]], [1, ["s", "d1", 2]], [0, ["m", "f5", "h5"]], [1, ["m", "a3", "c3"]], [0, ["s", "h5", 6]], [1, ["m", "c3", "b6"]], [0, ["s", "d6", 3]], [1, ["m", "a1", "a3"]], [0, ["m", "d6", "c6"]], [1, ["m", "g1", "e2"]], [0, ["m", "h5", "i2"]], [1, ["m", "a3", "c3"]], [0, ["m", "f6", "g6"]], [1, ["m", "d1", "c2"]], [0, ["m", "c6", "c3"]], [1, ["s", "b6", 1]], [0, ["s", "c3", 1]], [1, ["m", "b6", "a6"]], [0, ["s", "g6", 6]], [1, ["s", "e2", 1]], [0, ["m", "g6", "h3"]], [1, ["m", "e2", "f2"]], [0, ["m", "i2", "g6"]]]}""",
}

# ------------------------------------------------------------------ tactics


def test_takes_a_win_in_one() -> None:
    state = record_example(6)
    assert [str(m) for m in state.winning_moves()] == ["d1-c6"]
    chosen = ExpertPlayer(nodes=1).choose(state, random.Random(1))
    assert str(chosen) == "d1-c6"
    state.apply(chosen)
    assert state.winner == 0 and state.ended_by == "four_colours"


def test_hint_names_the_win_and_says_why() -> None:
    mv, reason = ExpertPlayer(nodes=100).hint(record_example(6))
    assert str(mv) == "d1-c6"
    assert reason == "d1-c6: it makes a stack of all four colours and wins."


def test_blocks_the_opponents_win_in_one_when_it_can() -> None:
    state = stored(BLOCKABLE)
    assert [str(m) for m in state.winning_moves(1 - state.to_move)] == ["f3-c3"]
    blocks = {m for m in state.legal_moves() if not gives_a_win(state, m)}
    assert {str(m) for m in blocks} == {"b4-d3", "d6-d3"}
    for nodes in (1, 50, 2000):
        for seed in range(3):
            assert ExpertPlayer(nodes=nodes).choose(state, random.Random(seed)) in blocks
    mv, reason = ExpertPlayer(nodes=2000).hint(state)
    assert mv in blocks
    assert reason.startswith(f"{mv}: it stops your opponent's win next turn")


def test_a_lost_position_still_gets_a_legal_move_and_says_so() -> None:
    # Bob cannot stop d1-c6 (record example after 5 entries): every move loses at once.
    state = record_example(5)
    assert state.to_move == 1
    result = ExpertPlayer(nodes=3000).search(state, random.Random(0))
    assert result.move in state.legal_moves()
    assert result.score == -(WIN - 2)  # Alice wins on the next ply
    assert not result.safe
    mv, reason = ExpertPlayer(nodes=3000).hint(state)
    assert reason.startswith(f"{mv}: nothing stops every winning move of your opponent")


@pytest.mark.parametrize(
    ("kind", "win"), [("move", "f2-g3"), ("set", "set f2 5")], ids=["by-a-move", "by-a-set"]
)
def test_finds_a_forced_win_two_turns_deep(kind: str, win: str) -> None:
    state = stored(WIN_IN_TWO[kind])
    assert not state.winning_moves()
    wins = forced_wins_in_two(state)
    assert {str(m) for m in wins} == {win}
    result = ExpertPlayer(nodes=200_000).search(state, random.Random(0))
    assert result.move in wins
    assert result.score == WIN - 3  # the mover's second turn is ply 3
    assert ExpertPlayer(nodes=200_000).hint(state)[1] == (
        f"{win}: it forces a win within 2 of your turns, whatever the reply."
    )


def test_move_scores_agree_with_brute_force_two_turns_deep() -> None:
    state = stored(WIN_IN_TWO["move"])
    scores = move_scores(state, 3)
    wins = forced_wins_in_two(state)
    # a forced win on the mover's second turn scores WIN - 3 (later ones, seen past the
    # horizon by the threat search, score less)
    assert {m for m, s in scores.items() if s == WIN - 3} == wins
    assert all(s < WIN - 3 for m, s in scores.items() if m not in wins)
    for mv, score in scores.items():
        if gives_a_win(state, mv):
            assert score == -(WIN - 2), mv


def test_null_moves_deeper_in_the_tree_hide_no_forced_win_two_turns_deep() -> None:
    # five plies deep the tree's inner nodes try null moves (the opponent moving twice);
    # the forced wins still score exactly as brute force finds them
    state = stored(WIN_IN_TWO["move"])
    scores = move_scores(state, 5)
    wins = forced_wins_in_two(state)
    assert {m for m, s in scores.items() if s == WIN - 3} == wins
    assert all(s < WIN - 3 for m, s in scores.items() if m not in wins)


def test_the_horizon_sees_a_threat_that_cannot_be_parried() -> None:
    # one ply deep, the reply's position is the horizon: the opponent there cannot stop
    # the mover's win, so the forced win two turns deep already shows
    state = stored(WIN_IN_TWO["move"])
    scores = move_scores(state, 1)
    assert {m for m, s in scores.items() if s == WIN - 3} == forced_wins_in_two(state)


def test_a_threatened_horizon_is_scored_a_loss_only_when_no_move_parries() -> None:
    lost = Position(record_example(5))  # bob cannot stop d1-c6
    search = _Search(lost, None, None, None, 1)
    assert search.negamax(0, -INFINITY, INFINITY, 0, 0) == -(WIN - 2)
    assert search.parry() == 1
    held = Position(stored(BLOCKABLE))  # bob stops f3-c3 with b4-d3 or d6-d3
    search = _Search(held, None, None, None, 1)
    assert search.parry() is None
    assert abs(search.negamax(0, -INFINITY, INFINITY, 0, 0)) < MATE_BOUND


# ------------------------------------------------------------------ the rule book's draws


def test_a_move_making_a_position_occur_a_third_time_scores_a_draw() -> None:
    state = record_example(0)  # alice to move; the start counts once
    cycle = ["set a1 4", "set a6 3", "set a1 3", "set a6 2"]
    for text in cycle + cycle[:3]:  # the start occurs again once; bob to move
        state.apply(parse(text))
    assert state.repetitions() == 2  # this position: once per cycle so far
    last = parse("set a6 2")
    assert move_scores(state, 1)[last] == 0
    assert move_scores(state, 3)[last] == 0
    state.apply(last)
    assert state.ended_by == "repetition"


def test_the_turn_limit_scores_a_draw() -> None:
    from engine.colorstack.rules import ColorStackSettings

    state = ColorStackState(["alice", "bob"], ColorStackSettings(turn_limit=1))
    state.apply(Setup(0, (RED, YELLOW), ("C", "B", "C", "B", "E", "E"), (3,) * 12))
    assert set(move_scores(state, 2).values()) == {0}


# ------------------------------------------------------------------ any position


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seed=st.integers(0, 10_000),
    plies=st.integers(0, 120),
    board=st.sampled_from(["light", "heavy"]),
    nodes=st.integers(1, 60),
)
def test_never_chooses_an_illegal_move(seed: int, plies: int, board: str, nodes: int) -> None:
    state = random_position(seed, plies, board)
    if state.is_over:
        return
    before = state.to_dict(), state.position_key(), state.repetitions()
    chosen = ExpertPlayer(nodes=nodes).choose(state, random.Random(seed))
    assert chosen in state.legal_moves()
    assert state.is_legal(chosen)
    # the searched state is a copy: the game is untouched
    assert (state.to_dict(), state.position_key(), state.repetitions()) == before
    if state.winning_moves():
        assert chosen in state.winning_moves()
    elif any(not gives_a_win(state, m) for m in state.legal_moves()):
        assert not gives_a_win(state, chosen)


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 10_000), plies=st.integers(0, 150))
def test_evaluation_counts_winning_moves_as_the_state_does(seed: int, plies: int) -> None:
    state = random_position(seed, plies)
    if state.is_over:
        return
    for seat in (0, 1):
        figures = side_figures(state, seat)
        assert figures.threats == len(state.winning_moves(seat))
        assert figures.pieces == len(state.pieces(seat))
        assert figures.threats <= figures.pairs


def test_same_rng_and_node_budget_give_the_same_move() -> None:
    for seed in range(4):
        state = random_position(seed, 30)
        picks = {ExpertPlayer(nodes=800).choose(state, random.Random(seed)) for _ in range(3)}
        assert len(picks) == 1


# ------------------------------------------------------------------ budget and hosting


def test_a_small_time_budget_returns_a_legal_move() -> None:
    state = random_position(7, 40, "heavy")
    expert = ExpertPlayer(budget=0.05)
    start = time.perf_counter()
    result = expert.search(state, random.Random(0))
    took = time.perf_counter() - start
    assert result.move in state.legal_moves()
    print(f"budget 0.05 s: {took * 1000:.1f} ms, depth {result.depth}, {result.nodes} nodes")


def test_a_search_lends_its_tables_to_the_next_search_of_the_same_game_only() -> None:
    from engine.colorstack import search

    state = random_position(5, 20)
    ExpertPlayer(nodes=3000, keep=True).search(state, random.Random(0))
    kept = search._KEPT
    table = kept.tt
    assert table and kept.turns == state.turns
    # two turns on in the same game: the same table is lent, and the search adds to it
    for _ in range(2):
        state.apply(state.legal_moves()[0])
    before = len(table)
    ExpertPlayer(nodes=500, keep=True).search(state, random.Random(0))
    assert kept.tt is table and len(table) >= before and kept.turns == state.turns
    # another game (here: the same game taken back) starts afresh
    ExpertPlayer(nodes=500, keep=True).search(random_position(5, 20), random.Random(0))
    assert kept.tt is not table
    # a node budget by default neither lends nor keeps: it stays reproducible
    fresh = kept.tt
    ExpertPlayer(nodes=500).search(random_position(6, 30), random.Random(0))
    assert kept.tt is fresh and ExpertPlayer(nodes=1).keep is False
    assert ExpertPlayer(budget=0.5).keep is True


def test_an_expert_given_a_node_budget_after_it_is_made_stays_reproducible() -> None:
    """The tools (``--nodes``: :func:`engine.budget.limit_search`) set the node budget of
    an expert the games' registry made timed: it then neither lends nor keeps tables, as
    one made with that budget."""
    expert = limit_search(ExpertPlayer(), None, 500)
    assert expert.keep is False
    assert limit_search(ExpertPlayer(nodes=500), 0.5, None).keep is True
    assert ExpertPlayer(nodes=500, keep=True).keep is True  # asked for: kept


def test_a_node_budget_is_kept() -> None:
    state = random_position(3, 25)
    result = ExpertPlayer(nodes=500).search(state, random.Random(0))
    assert result.nodes <= 501


def test_the_player_pickles_and_thinks_from_a_stored_state() -> None:
    expert = pickle.loads(pickle.dumps(make_expert(budget=0.2, nodes=300)))
    assert (expert.budget, expert.nodes, expert.level) == (0.2, 300, "expert")
    state = random_position(11, 20)
    data = pickle.loads(pickle.dumps(state.to_dict()))
    stored_move = think(data, seed=5, nodes=300)
    assert stored_move == think(state.to_dict(), seed=5, nodes=300)
    chosen = ExpertPlayer(nodes=300).choose(state, random.Random(5))
    assert isinstance(chosen, Move | Set)
    assert stored_move[0] == ("m" if isinstance(chosen, Move) else "s")


def test_no_move_once_the_game_is_over() -> None:
    state = record_example(6)
    state.apply(parse("d1-c6"))
    try:
        ExpertPlayer(nodes=10).choose(state, random.Random(0))
    except NoMoveError as err:
        assert "not being played" in str(err)
    else:
        raise AssertionError("a finished game gave a move")


def test_a_wrong_budget_is_refused_with_a_clear_message() -> None:
    for kwargs, words in [
        ({"budget": 0}, "positive number of seconds"),
        ({"budget": -1.0}, "positive number of seconds"),
        ({"nodes": 0}, "node budget is at least 1"),
        ({"max_depth": 0}, "depth is 1 to"),
    ]:
        try:
            ExpertPlayer(**kwargs)  # type: ignore[arg-type]
        except ValueError as err:
            assert words in str(err)
        else:
            raise AssertionError(f"{kwargs} accepted")


# ------------------------------------------------------------------ head to head (engine.simulate)


def test_expert_beats_greedy_head_to_head_with_the_first_player_alternating() -> None:
    from engine import games
    from engine.simulate import head_to_head

    match = head_to_head(games.get("colorstack"), ("expert", "greedy"), 6, seed=3, nodes=400)
    assert sum(match.wins) + match.draws == 6 == len(match.lengths)
    assert match.wins_first[0] <= 3 and match.wins_first[1] <= 3  # each led 3 games
    assert match.wins[0] > match.wins[1]
    assert match.decisions[0] > 0 and match.decisions[1] > 0


def test_simulate_refuses_levels_it_cannot_pit(capsys: pytest.CaptureFixture[str]) -> None:
    from engine.simulate import main

    for argv in (
        ["--game", "colorstack", "--levels", "expert"],
        ["--game", "colorstack", "--levels", "expert,wizard"],
        ["--game", "colorstack", "--nodes", "0"],
        ["--game", "colorstack", "--budget", "0"],
        ["--game", "colorstack", "--setting", "board=huge"],
    ):
        with pytest.raises(SystemExit):
            main(argv)
    err = capsys.readouterr().err
    assert "--levels names two of random, greedy, expert" in err
    assert "--nodes is at least 1, not 0" in err
    assert "--budget is a positive number of seconds, not 0.0" in err
    assert "bad --setting for Color Stack" in err


def test_simulate_keeps_the_greedy_line_for_other_games(capsys: pytest.CaptureFixture[str]) -> None:
    from engine.simulate import main

    main(["--game", "stackup", "--players", "2", "--games", "4"])
    out = capsys.readouterr().out
    assert out.startswith("Stack Up!: greedy won ") and "of 4 2-player games" in out
