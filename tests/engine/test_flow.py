"""The table loop (:mod:`engine.flow`): what it guarantees every host, for every game.

Chance is played as explicit outcomes (the moves it returns replay the game exactly), the
game's forced moves are played by the table and no game without them is asked, AI seats
play until a human is to act, the loop stops at the game's end, and a host that plays a
seed move by move through it gets the same game as self-play. The contract's hooks a host
reads (round scores, the goal) are checked on the test games as on the registered ones.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from engine import flow, games
from engine.errors import IllegalMoveError
from engine.flow import By, FlowError, Played
from engine.game import Decision, Game, GameEnded, GameState, Goal, RoundEnded, TurnEnded
from persistence.results import round_scores_of
from tests.persistence import duel_game, shed_game

NAMES = ("ann", "ben", "cat", "dan")
GAMES = games.names()


def new_game(game: Game[Any], players: int) -> GameState[Any]:
    settings = game.settings()
    return game.new_state(game.seat_order(NAMES[:players], settings), settings)


def random_seats(game: Game[Any], ai_seats: set[int]) -> flow.Seats:
    choose = game.make_ai("random").choose
    return lambda seat: choose if seat in ai_seats else None


@pytest.mark.parametrize("name", GAMES)
def test_chance_is_played_as_explicit_outcomes_that_replay_the_game(name: str) -> None:
    game = games.get(name)
    state = new_game(game, 2)
    rng = random.Random(4)
    steps = flow.advance(game, state, rng, random_seats(game, {0, 1}))
    assert state.is_over
    chance = [s for s in steps if s.by is By.CHANCE]
    assert chance, "every game here opens with a chance outcome (a roll-off, a deal, a set-up)"
    assert all(s.seat is None for s in chance)
    # the moves alone (chance outcomes included) replay the same game, with no RNG
    replayed = new_game(game, 2)
    for step in steps:
        assert replayed.decision is (Decision.CHANCE if step.by is By.CHANCE else Decision.TURN)
        assert list(replayed.apply(step.move, by=step.seat)) == list(step.events)
    assert replayed.to_dict() == state.to_dict()


def test_forced_moves_are_played_by_the_table_for_the_seat_to_act() -> None:
    game = games.get("stackup")
    assert game.forced_moves
    rng = random.Random(1)
    choose = game.make_ai("random").choose
    forced: list[Played] = []
    state = new_game(game, 3)
    steps = flow.settle(game, state, rng)
    while not state.is_over:
        forced += [s for s in steps if s.by is By.FORCED]
        assert game.automatic(state) is None  # the loop stopped at a player's decision
        seat = state.current_player
        before = state.copy()
        steps = flow.play(game, state, choose(state, rng), rng, by=seat)
        # each forced move was the game's own for the seat that played it
        for step in steps:
            if step.by is By.FORCED:
                assert game.automatic(before) == step.move and before.current_player == step.seat
            before.apply(step.move, by=step.seat)
    assert forced, "a Stack Up! game of three random players has stuck turns"


def test_a_game_without_forced_moves_is_never_asked_for_one() -> None:
    class Asked(duel_game.DuelGame):
        forced_moves = False

        def automatic(self, state: Any) -> Any:
            raise AssertionError("a game without forced moves was asked for one")

    game = Asked()
    state = game.new_state(("ann", "ben"), game.settings())
    steps = flow.advance(game, state, random.Random(2), random_seats(game, {0, 1}))
    assert state.is_over and all(s.by is By.AI for s in steps)


@pytest.mark.parametrize("name", GAMES)
def test_ai_seats_play_until_a_human_is_to_act(name: str) -> None:
    game = games.get(name)
    rng = random.Random(7)
    state = new_game(game, 2)
    seats = random_seats(game, {1})  # seat 0 is a human
    human = game.make_ai("random").choose
    steps = flow.advance(game, state, rng, seats)
    humans_moves = 0
    while not state.is_over:
        assert state.current_player == 0 and state.decision is Decision.TURN
        assert all(s.seat == 1 for s in steps if s.by is By.AI)
        steps = flow.play(game, state, human(state, rng), rng, by=0, ai=seats)
        assert steps[0].by is By.PLAYER and steps[0].seat == 0
        humans_moves += 1
    assert humans_moves > 0


@pytest.mark.parametrize("name", GAMES)
def test_the_loop_stops_at_the_game_end(name: str) -> None:
    game = games.get(name)
    rng = random.Random(11)
    state = new_game(game, 2)
    steps = flow.advance(game, state, rng, random_seats(game, {0, 1}))
    assert state.is_over and state.decision is Decision.OVER
    assert any(isinstance(e, GameEnded) for e in steps[-1].events)
    assert sum(isinstance(e, GameEnded) for s in steps for e in s.events) == 1
    assert flow.advance(game, state, rng, random_seats(game, {0, 1})) == []
    assert flow.settle(game, state, rng) == []
    with pytest.raises(IllegalMoveError):
        flow.play(game, state, steps[-1].move, rng, by=steps[-1].seat)


@pytest.mark.parametrize("name", GAMES)
def test_a_host_playing_a_seed_move_by_move_gets_the_self_play_game(name: str) -> None:
    """A host (the bot, the terminal) plays a human's move, then what follows it; the
    benches play the whole game in one call: the same seed gives the same game."""
    game = games.get(name)
    for players in sorted({game.min_players, min(game.max_players, 3)}):
        choose = game.make_ai("random").choose
        rng = random.Random(99)
        hosted = new_game(game, players)
        seats = random_seats(game, set(range(1, players)))
        flow.advance(game, hosted, rng, seats)
        while not hosted.is_over:
            seat = hosted.current_player
            flow.play(game, hosted, choose(hosted, rng), rng, by=seat, ai=seats)
        selfplay = new_game(game, players)
        flow.play_out(game, selfplay, [choose] * players, random.Random(99))
        assert hosted.to_dict() == selfplay.to_dict()


@pytest.mark.parametrize("name", GAMES)
def test_a_game_nobody_watches_is_the_game_a_watcher_sees(name: str) -> None:
    """``play_out`` without ``on_step`` takes a lean loop (no steps recorded): the same
    moves, forced moves and chance outcomes, so the same final state and random draws,
    as with a watcher, for random and greedy players and every table size."""
    game = games.get(name)
    for players in range(game.min_players, min(game.max_players, 4) + 1):
        for level in ("random", "greedy"):
            choose = game.make_ai(level).choose
            for seed in range(6):
                seen, unseen = new_game(game, players), new_game(game, players)
                watched, unwatched = random.Random(seed), random.Random(seed)
                steps: list[Played] = []
                made = flow.play_out(game, seen, [choose] * players, watched, on_step=steps.append)
                assert flow.play_out(game, unseen, [choose] * players, unwatched) == made
                assert unseen.to_dict() == seen.to_dict()
                assert unwatched.getstate() == watched.getstate()


def test_every_event_is_seen_as_it_happens_with_the_seat_that_played_it() -> None:
    """``on_step`` sees each move right after it is applied: a round's scores before the
    next round's dice change the table (what the channel's round message words)."""
    game = games.get("stack")
    state = game.new_state(("ann", "ben"), game.settings(target_score=40))
    seen: list[Played] = []
    rounds_at_round_end: list[int] = []

    def on_step(step: Played) -> None:
        seen.append(step)
        if any(isinstance(e, RoundEnded) for e in step.events):
            # the round's scores are in, the next round's dice not yet rolled
            assert state.decision is Decision.CHANCE or state.is_over
            rounds_at_round_end.append(len(game.round_scores(state)))

    steps = flow.advance(game, state, random.Random(3), random_seats(game, {0, 1}), on_step=on_step)
    assert seen == steps
    assert rounds_at_round_end == list(range(1, len(game.round_scores(state)) + 1))
    for step in steps:
        for event in step.events:
            if isinstance(event, TurnEnded):
                assert step.seat in (None, event.seat)  # a chance roll may end the turn


def test_a_game_that_never_waits_is_stopped() -> None:
    class Restless(shed_game.ShedGame):
        """Every turn is forced: the table never waits for a player."""

        forced_moves = True

        def automatic(self, state: Any) -> Any:
            return shed_game.KEEP

    game = Restless()
    state = game.new_state(("ann", "ben"), shed_game.ShedSettings(turn_limit=500))
    with pytest.raises(FlowError, match="without waiting for a player"):
        flow.settle(game, state, random.Random(0), limit=50)
    assert not state.is_over


@pytest.mark.parametrize("game", [duel_game.GAME, shed_game.GAME], ids=["duel", "shed"])
def test_the_test_games_fill_the_contract_hosts_read(game: Game[Any]) -> None:
    state = game.new_state(("ann", "ben"), game.settings())
    flow.advance(game, state, random.Random(5), random_seats(game, {0, 1}))
    assert state.is_over
    assert game.round_scores(state) == ()
    assert game.goal(state) == Goal(turn_limit=state.settings.turn_limit)


def test_a_game_that_forgets_its_round_scores_is_refused_not_given_an_empty_sheet() -> None:
    class Forgetful(Game[Any]):
        name = "forgetful"

    with pytest.raises(NotImplementedError):
        round_scores_of(Forgetful(), object())
    with pytest.raises(NotImplementedError):
        Forgetful().goal(object())
