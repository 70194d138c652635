"""One conformance suite for every registered game, through the public interface alone.

As OpenSpiel checks every game with one random-simulation test: random games end without
an exception, every decision taken was legal, a state serialises and restores exactly, a
finished game exports to a record that its checker accepts and that replays to the same
game, the same seed plays the same game, and the parser answers arbitrary text with a
move or one of the three errors, never anything else. Every game is played through the
table loop production runs (:mod:`engine.flow`), and the contract's hooks that hosts
read (forced moves, round scores, the goal) are checked along the way.
"""

from __future__ import annotations

import json
import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import games
from engine.errors import AmbiguousMoveError, IllegalMoveError, InvalidMoveError
from engine.flow import By, play, play_out, settle
from engine.game import Decision, Game, GameEnded, GameState, Goal, RoundEnded, TurnEnded

NAMES = ("ann", "ben", "cat", "dan", "eve", "fay", "gus", "hal")
GAMES = games.names()
DRAWS = ("repetition", "turn_limit")  # how a game may end with nobody winning
SLOW = settings(
    max_examples=12, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture]
)


def new_game(game: Game[Any], players: int) -> GameState[Any]:
    return game.new_state(NAMES[:players], game.settings())


def random_play(game: Game[Any], players: int, seed: int) -> GameState[Any]:
    rng = random.Random(seed)
    state = new_game(game, players)
    choose = game.make_ai("random").choose
    play_out(game, state, [choose] * players, rng)
    return state


def drawn_table(name: str, data: st.DataObject) -> tuple[Game[Any], int]:
    """The game called ``name`` and a number of players drawn for it (at most 6)."""
    game = games.get(name)
    return game, data.draw(st.integers(game.min_players, min(game.max_players, 6)))


@pytest.mark.parametrize("name", GAMES)
def test_registry_finds_every_game_by_its_name_and_record_format(name: str) -> None:
    game = games.get(name)
    assert game.name == name
    assert games.by_record_format(game.record_format) is game
    assert 2 <= game.min_players <= game.max_players
    assert {"random", "greedy"} <= set(game.ai_levels)
    game.settings()  # every option has a default
    # a game with forced moves says so, or the table loop never asks for them
    assert game.forced_moves or type(game).automatic is Game.automatic
    with pytest.raises(games.UnknownGame, match="no game called"):
        games.get("chess")


@pytest.mark.parametrize("name", GAMES)
@SLOW
@given(data=st.data())
def test_random_games_end_and_every_decision_was_legal(name: str, data: st.DataObject) -> None:
    game, players = drawn_table(name, data)
    rng = random.Random(data.draw(st.integers(0, 2**32)))
    state = new_game(game, players)
    rand = game.make_ai("random")
    turns = 0
    ended = 0
    rounds = 0
    steps = settle(game, state, rng)
    while True:
        for step in steps:
            json.dumps(game.encode_move(step.move))
            assert (step.seat is None) is (step.by is By.CHANCE)
            turns += sum(isinstance(e, TurnEnded) for e in step.events)
            ended += sum(isinstance(e, GameEnded) for e in step.events)
            rounds += sum(isinstance(e, RoundEnded) for e in step.events)
        # the contract's hooks a host reads: a row of scores per round ended, the goal
        assert len(game.round_scores(state)) == rounds
        assert all(len(row) == players for row in game.round_scores(state))
        assert isinstance(game.goal(state), Goal)
        if state.is_over:
            break
        assert state.decision is Decision.TURN
        seat = state.current_player
        assert seat is not None
        # the table loop stopped: no forced move is left (and none where the game has none)
        assert game.automatic(state) is None
        legal = list(state.legal_moves())
        assert legal, "a player to decide always has a legal move"
        assert len(set(legal)) == len(legal), "legal moves are distinct"
        move = rand.choose(state, rng)
        assert move in legal and state.is_legal(move)
        other = (seat + 1) % players
        with pytest.raises(IllegalMoveError):
            state.check(move, by=other)  # not your turn
        assert game.decode_move(json.loads(json.dumps(game.encode_move(move)))) == move
        steps = play(game, state, move, rng, by=seat)
        assert steps[0].move == move and steps[0].seat == seat and steps[0].by is By.PLAYER
    outcome = state.outcome()
    assert outcome is not None and outcome.ended_by
    assert outcome.winners or outcome.ended_by in DRAWS  # a game without a winner is a draw
    if outcome.ended_by == "turn_limit":  # the draw's words name the limit
        assert game.goal(state).turn_limit is not None
    assert len(outcome.scores) == players
    assert ended == 1 and turns > 0
    assert list(state.legal_moves()) == []
    with pytest.raises(IllegalMoveError):
        state.apply(move)  # nothing is legal once the game is over


@pytest.mark.parametrize("name", GAMES)
@SLOW
@given(data=st.data())
def test_a_state_serialises_and_restores_exactly_and_plays_on_the_same(
    name: str, data: st.DataObject
) -> None:
    game, players = drawn_table(name, data)
    seed = data.draw(st.integers(0, 2**32))
    stop = data.draw(st.integers(0, 400))
    rng = random.Random(seed)
    state = new_game(game, players)
    choose = game.make_ai("random").choose
    for _ in range(stop):
        settle(game, state, rng)
        if state.is_over:
            break
        # the player's move alone: the state may be left at a chance node
        state.apply(choose(state, rng), by=state.current_player)
    for data_dict in (state.to_dict(), game.snapshot(state)):
        text = json.dumps(data_dict)
        restored = game.state_from_dict(json.loads(text))
        assert restored.to_dict() == game.state_from_dict(data_dict).to_dict()
        assert restored.decision == state.decision
        assert restored.current_player == state.current_player
        assert list(restored.legal_moves()) == list(state.legal_moves())
        # both play on identically from the same RNG state
        a_rng, b_rng = random.Random(seed + 1), random.Random(seed + 1)
        original = game.state_from_dict(state.to_dict())
        play_out(game, original, [choose] * players, a_rng)
        play_out(game, restored, [choose] * players, b_rng)
        assert original.outcome() == restored.outcome()


@pytest.mark.parametrize("name", GAMES)
@SLOW
@given(data=st.data())
def test_export_then_check_then_replay_gives_the_same_game(name: str, data: st.DataObject) -> None:
    game, players = drawn_table(name, data)
    state = random_play(game, players, data.draw(st.integers(0, 2**32)))
    record = json.loads(json.dumps(game.export_record(state, {"table": 7})))
    assert record["format"] == game.record_format
    result = game.check_record(record)
    assert result["ok"] is True, result
    assert result["finished"] is True
    outcome = state.outcome()
    assert outcome is not None
    winners = [state.players[s] for s in outcome.winners]
    assert result["winner"] == (winners or None)
    replayed = game.replay_record(record)
    assert replayed.outcome() == outcome
    assert game.export_record(replayed, {"table": 7}) == record


@pytest.mark.parametrize("name", GAMES)
def test_same_seed_same_game(name: str) -> None:
    game = games.get(name)
    for players in (game.min_players, min(game.max_players, 4)):
        first = random_play(game, players, 1234)
        second = random_play(game, players, 1234)
        assert first.to_dict() == second.to_dict()
        other = random_play(game, players, 4321)
        assert other.to_dict() != first.to_dict()


@pytest.mark.parametrize("name", GAMES)
@settings(max_examples=150, deadline=None)
@given(text=st.text(max_size=60), stop=st.integers(0, 60), seed=st.integers(0, 10**6))
def test_the_parser_answers_any_text_with_a_move_or_one_of_three_errors(
    name: str, text: str, stop: int, seed: int
) -> None:
    game = games.get(name)
    rng = random.Random(seed)
    state = new_game(game, min(game.min_players + seed % 2, game.max_players))
    choose = game.make_ai("random").choose
    settle(game, state, rng)
    for _ in range(stop):
        if state.is_over:
            break
        play(game, state, choose(state, rng), rng, by=state.current_player)
    before = json.dumps(state.to_dict())
    seat = state.current_player
    try:
        move = game.parse_move(state, text, seat)
    except (InvalidMoveError, IllegalMoveError, AmbiguousMoveError):
        pass
    else:
        assert state.is_legal(move)
    assert json.dumps(state.to_dict()) == before  # parsing never changes the game


@pytest.mark.parametrize("name", GAMES)
def test_every_legal_move_reads_back_from_its_notation(name: str) -> None:
    game = games.get(name)
    rng = random.Random(5)
    state = new_game(game, min(game.min_players + 1, game.max_players))
    choose = game.make_ai("random").choose
    checked = 0
    settle(game, state, rng)
    while checked < 300:
        if state.is_over:
            break
        seat = state.current_player
        for move in state.legal_moves():
            typed = game.move_notation(state, move)
            try:
                assert game.parse_move(state, typed, seat) == move, typed
            except AmbiguousMoveError as err:
                assert move in err.candidates, typed
            assert game.move_words(state, move)
            checked += 1
        play(game, state, choose(state, rng), rng, by=seat)
    assert checked > 0


@pytest.mark.parametrize("name", GAMES)
def test_texts_hide_nothing_a_viewer_may_not_see_and_never_fail(name: str) -> None:
    game = games.get(name)
    state = random_play(game, game.min_players, 9)
    assert game.render_text(state, None)
    assert game.render_text(state, 0)
    assert game.rules_text()
    for seat in range(len(state.players)):
        assert isinstance(game.stats_figures(state, seat), dict)
