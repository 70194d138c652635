"""Ratings (OpenSkill, Plackett-Luce) per server and game, as README's "Ratings" says: how
a finished game places its players (a draw, a shared win, teams, leavers, AI levels),
that a game's end rates its players in the commit that stores its result, and that the
migration's backfill rates the stored results from scratch in game order, equal to the
ratings the games made as they ended (SQLite and PostgreSQL)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import Connection, select

from engine.game import Decision
from engine.stack.rules import HouseRules
from persistence import Store
from persistence.errors import StorageError
from persistence.migrate import head_revision
from persistence.ratings import MODEL, RatedGame, Skill, placing, rate, replay
from persistence.records import SeatInfo
from persistence.schema import rating_history, ratings
from tests.persistence.conftest import Backend
from tests.persistence.helpers import (
    GUILD,
    downgrade_to,
    migrate,
    next_step,
    play_moves,
    refusing_inserts,
    started_table,
)

T0 = datetime(2026, 1, 1, tzinfo=UTC)


def human(position: int, user_id: int, *, left: bool = False) -> SeatInfo:
    level = "greedy" if left else None
    return SeatInfo(position, user_id, f"user{user_id}", level, 0, left)


def ai(position: int, level: str = "greedy") -> SeatInfo:
    return SeatInfo(position, None, f"AI {position}", level)


def game(
    seats: list[SeatInfo],
    winners: list[int],
    scores: list[int],
    *,
    higher_wins: bool = True,
    sides: list[list[int]] | None = None,
    table_id: int = 1,
    at: datetime = T0,
) -> RatedGame:
    return RatedGame(table_id, GUILD, "stack", at, winners, scores, higher_wins, seats, sides or [])


def rated(g: RatedGame, prior: dict[str, Skill] | None = None) -> dict[str, Skill]:
    return {key: skill for key, (_, skill) in rate(prior or {}, g).items()}


def test_a_draw_ties_every_side() -> None:
    after = rated(game([human(0, 1), human(1, 2)], [], [0, 0]))
    assert after["user:1"] == after["user:2"]
    assert after["user:1"].mu == pytest.approx(MODEL.mu)  # equals drew: nobody moves
    assert after["user:1"].sigma < MODEL.sigma and after["user:1"].games == 1


def test_a_draw_ties_the_sides_whatever_their_figures() -> None:
    assert placing(game([human(0, 1), human(1, 2)], [], [3, 9]))[0][0] == 0
    assert {place for place, _ in placing(game([human(0, 1), human(1, 2)], [], [3, 9]))} == {0}


def test_a_shared_win_places_the_winners_first_and_tied() -> None:
    seats = [human(0, 1), human(1, 2), human(2, 3)]
    shared = rated(game(seats, [0, 1], [200, 200, 150]))
    assert shared["user:1"] == shared["user:2"]
    assert shared["user:1"].mu > MODEL.mu > shared["user:3"].mu
    alone = rated(game(seats, [0], [200, 190, 150]))
    assert alone["user:1"].mu > shared["user:1"].mu  # a win shared is worth less


def test_the_others_follow_by_their_figure_as_the_game_counts_it() -> None:
    seats = [human(0, 1), human(1, 2), human(2, 3)]
    more = placing(game(seats, [0], [210, 120, 180]))
    assert [(place, [s.position for s in side]) for place, side in more] == [
        (0, [0]),
        (2, [1]),
        (1, [2]),
    ]
    fewer = placing(game(seats, [0], [0, 7, 3], higher_wins=False))  # Stack Up!'s cards left
    assert [place for place, _ in fewer] == [0, 2, 1]
    tied = placing(game(seats, [0], [210, 150, 150]))
    assert [place for place, _ in tied] == [0, 1, 1]


def test_a_leaver_is_rated_last_and_the_ai_that_played_on_is_not() -> None:
    # seat 0 left; the AI that took it over went on to win
    seats = [human(0, 1, left=True), human(1, 2), human(2, 3)]
    g = game(seats, [0], [210, 150, 120])
    assert [place for place, _ in placing(g)] == [0, 1, 2]
    placed = {side[0].user_id: place for place, side in placing(g)}
    assert placed == {2: 0, 3: 1, 1: 2}
    after = rated(g)
    assert set(after) == {"user:1", "user:2", "user:3"}  # no "ai:greedy"
    assert after["user:1"].mu < after["user:3"].mu < after["user:2"].mu


def test_a_timed_out_seat_keeps_its_players_result() -> None:
    timed_out = SeatInfo(0, 1, "user1", "greedy", 3, False)
    after = rated(game([timed_out, human(1, 2)], [0], [200, 100]))
    assert set(after) == {"user:1", "user:2"} and after["user:1"].mu > MODEL.mu


def test_a_leaver_is_placed_below_the_one_who_stayed_and_a_lone_player_is_not_rated() -> None:
    g = game([human(0, 1, left=True), human(1, 2)], [1], [0, 1])
    assert [place for place, _ in placing(g)] == [0, 1]  # the one who stayed, then the leaver
    alone = game([human(0, 1)], [0], [1])
    assert placing(alone) == [] and rate({}, alone) == {}


def test_each_ai_level_is_one_rated_player() -> None:
    seats = [human(0, 1), ai(1, "greedy"), ai(2, "greedy"), ai(3, "random")]
    after = rated(game(seats, [1], [150, 200, 120, 90]))
    assert set(after) == {"user:1", "ai:greedy", "ai:random"}
    assert after["ai:greedy"].games == 1  # one game, two seats
    # its seats were rated from the same prior; it keeps their mean
    copies = MODEL.rate([[MODEL.rating()] for _ in range(4)], ranks=[2.0, 1.0, 3.0, 4.0])
    assert after["ai:greedy"].mu == pytest.approx((copies[1][0].mu + copies[2][0].mu) / 2)
    assert after["ai:greedy"].sigma == pytest.approx((copies[1][0].sigma + copies[2][0].sigma) / 2)


def test_teammates_win_and_lose_together() -> None:
    seats = [human(0, 1), human(1, 2), human(2, 3), human(3, 4)]
    # Stack's team play: seats 0 and 2 against 1 and 3, ranked by the team's total
    g = game(seats, [0, 2], [60, 120, 150, 80], sides=[[0, 2], [1, 3]])
    assert [(place, [s.position for s in side]) for place, side in placing(g)] == [
        (0, [0, 2]),
        (1, [1, 3]),
    ]
    after = rated(g)
    assert after["user:1"].mu > MODEL.mu and after["user:3"].mu > MODEL.mu
    assert after["user:2"].mu < MODEL.mu and after["user:4"].mu < MODEL.mu


def test_beating_weaker_players_raises_a_rating_less_than_beating_stronger_ones() -> None:
    weak, strong = Skill(15.0, 4.0, 30), Skill(35.0, 4.0, 30)
    prior = {"user:2": weak, "user:3": weak, "user:12": strong, "user:13": strong}
    seats = [human(0, 1), human(1, 2), human(2, 3)]
    over_weak = rated(game(seats, [0], [200, 100, 90]), prior)["user:1"]
    seats = [human(0, 11), human(1, 12), human(2, 13)]
    over_strong = rated(game(seats, [0], [200, 100, 90]), prior)["user:11"]
    assert over_weak.mu - MODEL.mu < over_strong.mu - MODEL.mu
    assert over_weak.ordinal < over_strong.ordinal
    # and over a run of games: one player only ever beats the weak, another the strong
    weak_side, strong_side = dict(prior), dict(prior)
    for n in range(10):
        beaten = rate(weak_side, game([human(0, 1), human(1, 2), human(2, 3)], [0], [9, 1, 0]))
        weak_side.update({k: s for k, (_, s) in beaten.items() if k == "user:1"})
        seats = [human(0, 11), human(1, 12), human(2, 13)]
        beaten = rate(strong_side, game(seats, [0], [9, 1, 0], table_id=n))
        strong_side.update({k: s for k, (_, s) in beaten.items() if k == "user:11"})
        assert weak_side["user:1"].mu < strong_side["user:11"].mu
    assert weak_side["user:1"].ordinal < strong_side["user:11"].ordinal


def test_replay_rates_in_game_order_whatever_order_it_is_given() -> None:
    seats = [human(0, 1), human(1, 2)]
    games = [
        game(seats, [0], [1, 0], table_id=1, at=T0),
        game(seats, [1], [0, 1], table_id=3, at=T0 + timedelta(minutes=1)),
        game(seats, [1], [0, 1], table_id=2, at=T0 + timedelta(minutes=1)),  # same time
        game(seats, [0], [1, 0], table_id=4, at=T0 + timedelta(minutes=2)),
    ]
    in_order = replay([games[0], games[2], games[1], games[3]])
    assert replay(reversed(games)) == in_order
    assert [row["table_id"] for row in in_order.history] == [1, 1, 2, 2, 3, 3, 4, 4]
    # the order matters: the same results in another order end elsewhere
    won, lost = ([0], [1, 0]), ([1], [0, 1])
    early = [game(seats, *r, table_id=n) for n, r in enumerate((won, won, lost))]
    late = [game(seats, *r, table_id=n) for n, r in enumerate((lost, won, won))]
    assert replay(early).skills != replay(late).skills


def test_ratings_are_kept_per_server_and_game() -> None:
    seats = [human(0, 1), human(1, 2)]
    here = game(seats, [0], [1, 0])
    elsewhere = RatedGame(2, GUILD + 1, "stack", T0, [1], [0, 1], True, seats)
    other_game = RatedGame(3, GUILD, "stackup", T0, [1], [0, 1], False, seats)
    skills = replay([here, elsewhere, other_game]).skills
    assert skills[(GUILD, "stack", "user:1")][1] == skills[(GUILD + 1, "stack", "user:2")][1]
    assert skills[(GUILD, "stackup", "user:2")][1].games == 1


# ------------------------------------------------------------------ storage


async def finished_games(store: Store, count: int) -> list[int]:
    """``count`` Stack games played to their end through the store (two humans, one AI
    seat; a game in teams; a game one player left): their table ids."""
    ids = []
    for n in range(count):
        teams = n == 1
        info, state, rng = await started_table(
            store,
            900 + n,
            humans=(2, 3, 3, 2)[n % 4],
            ais=(1, 1, 1, 2)[n % 4],
            seed=n,
            rules=HouseRules(target_score=40, teams=teams),
        )
        if n == 2:  # the first seat's player leaves; the AI plays on
            await store.set_seat_ai(info.id, 0, "greedy", left=True)
        await play_moves(store, info, state, rng, 5000)
        assert state.decision is Decision.OVER
        ids.append(info.id)
    return ids


async def stored_ratings(store: Store) -> tuple[dict[str, Any], list[tuple[Any, ...]]]:
    async with store.engine.connect() as conn:
        rows = {
            r.player: (r.user_id, r.ai_level, r.name, r.mu, r.sigma, r.ordinal, r.games)
            for r in await conn.execute(select(ratings).where(ratings.c.guild_id == GUILD))
        }
        history = [
            (r.table_id, r.player, r.mu, r.sigma)
            for r in await conn.execute(
                select(rating_history).order_by(rating_history.c.table_id, rating_history.c.player)
            )
        ]
    return rows, history


async def test_a_games_end_rates_its_players_as_a_replay_of_the_results_does(
    store: Store,
) -> None:
    ids = await finished_games(store, 4)
    rows, history = await stored_ratings(store)
    assert "ai:greedy" in rows and rows["ai:greedy"][:3] == (None, "greedy", "AI greedy")
    assert rows["user:1"][6] == 4 and rows["ai:greedy"][6] == 4
    assert {t for t, *_ in history} == set(ids)
    async with store.engine.connect() as conn:
        games = await conn.run_sync(_stored_games)
    expected = replay(games)
    for (_, _, key), (_, skill) in expected.skills.items():
        assert rows[key][3:5] == (skill.mu, skill.sigma)
        assert rows[key][5] == pytest.approx(skill.ordinal)
        assert rows[key][6] == skill.games
    assert len(history) == len(expected.history)


def _stored_games(conn: Connection) -> list[RatedGame]:
    from persistence.migrations.versions import __path__ as versions

    module = _load_migration(versions[0])
    return list(module.rated_games(conn))


def _load_migration(folder: str) -> Any:
    import importlib.util
    from pathlib import Path

    path = Path(folder) / "0009_rate_games_a_leaver_closed.py"
    spec = importlib.util.spec_from_file_location("migration_0009", path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


async def test_a_rating_is_written_in_the_commit_of_the_result(store: Store) -> None:
    """A game's end whose rating cannot be written stores nothing of the end: the move,
    the result and the ratings commit together or not at all."""
    info, state, rng = await started_table(
        store, 950, humans=2, ais=0, rules=HouseRules(target_score=40)
    )
    version = info.version
    while True:
        step = next_step(state, rng)
        if state.decision is Decision.OVER:
            break
        version = (await store.record_move(info.id, version, step, state)).version
    async with refusing_inserts(store, "rating_history"):
        with pytest.raises(StorageError):
            await store.record_move(info.id, version, step, state)
    assert (await store.table(info.id)).status == "playing"
    rows, history = await stored_ratings(store)
    assert rows == {} and history == []
    await store.record_move(info.id, version, step, state)
    rows, history = await stored_ratings(store)
    assert set(rows) == {"user:1", "user:2"} and len(history) == 2


async def test_the_backfill_rates_the_stored_results_as_the_games_did(
    backend: Backend,
) -> None:
    """A database of before ratings (its results kept; the rating tables taken down with
    the migration's downgrade) upgrades to ratings equal to those the games made."""
    async with backend.opened() as store:
        await finished_games(store, 4)
        live = await stored_ratings(store)
        async with store.engine.begin() as conn:
            await conn.run_sync(downgrade_to, "0006")
        async with store.engine.begin() as conn:
            await conn.run_sync(migrate, head_revision())
        assert await stored_ratings(store) == live


async def a_game_left_by_its_last_human(store: Store, channel: int = 970) -> int:
    """user1 against an AI seat; user1 leaves mid-game, so the table closes (abandoned,
    as the host closes a table with no human left): its id."""
    info, state, rng = await started_table(store, channel, humans=1, ais=1)
    await store.record_move(info.id, info.version, next_step(state, rng), state)
    await store.set_seat_ai(info.id, 0, "greedy", left=True)
    await store.end_table(info.id, "abandoned")
    return info.id


async def test_a_game_closed_once_its_last_human_left_rates_the_leaver_last(
    store: Store,
) -> None:
    """README, Ratings, Leavers: leaving a lost game does not spare a rating, also when
    the leaver was the only human (the table then closes without a result): the sides
    that played on tie above the leavers."""
    table_id = await a_game_left_by_its_last_human(store)
    rows, history = await stored_ratings(store)
    async with store.engine.connect() as conn:
        games = await conn.run_sync(_stored_games)
    assert [g.table_id for g in games] == [table_id]  # what the backfill would rate
    assert set(rows) == {"user:1", "ai:greedy"}
    assert rows["user:1"][3] < MODEL.mu < rows["ai:greedy"][3]
    assert rows["user:1"][6] == rows["ai:greedy"][6] == 1
    assert {(t, p) for t, p, *_ in history} == {(table_id, "user:1"), (table_id, "ai:greedy")}
    rated = await store.player_rating(GUILD, 1)
    assert rated is not None and len(rated.recent) == 1


async def test_a_game_closed_with_nobody_gone_rates_nobody(store: Store) -> None:
    """A table its host ends, or that expires, with every player still seated: no result,
    no rating."""
    info, state, rng = await started_table(store, 971, humans=2, ais=1)
    await store.record_move(info.id, info.version, next_step(state, rng), state)
    await store.end_table(info.id, "abandoned")
    assert await stored_ratings(store) == ({}, [])


async def a_game_against_the_ai_closed(
    store: Store, channel: int, *, timed_out: bool = False, rated: bool = True
) -> int:
    """user1 against an AI seat, closed mid-game (as its host ends it, or the turn
    timer hands user1's seat to the AI first: ``timed_out``): its id."""
    info, state, rng = await started_table(store, channel, humans=1, ais=1)
    await store.record_move(info.id, info.version, next_step(state, rng), state)
    if timed_out:
        await store.set_seat_ai(info.id, 0, "greedy")
    await store.end_table(info.id, "abandoned", rated=rated)
    return info.id


@pytest.mark.parametrize("timed_out", [False, True], ids=["ended", "timed-out"])
async def test_walking_away_from_a_game_against_the_ai_rates_the_human_last(
    store: Store, timed_out: bool
) -> None:
    """Its only human ending the game, or letting the turn timer give the seat to the AI
    until the table closes, spares no rating: as leaving, the human is rated last."""
    table_id = await a_game_against_the_ai_closed(store, 973, timed_out=timed_out)
    rows, history = await stored_ratings(store)
    assert rows["user:1"][3] < MODEL.mu < rows["ai:greedy"][3]
    assert {(t, p) for t, p, *_ in history} == {(table_id, "user:1"), (table_id, "ai:greedy")}


async def test_a_table_closed_unrated_rates_nobody_even_against_the_ai(store: Store) -> None:
    """A table closed because its stored game does not read back (``rated=False``)."""
    await a_game_against_the_ai_closed(store, 974, rated=False)
    assert await stored_ratings(store) == ({}, [])


async def test_a_game_ended_by_agreement_after_a_leave_rates_only_the_leaver_last(
    store: Store,
) -> None:
    """Two humans or more still seated when the host ends it: those who left are rated
    last, everyone who played on ties above them; a seat lost to the turn timer is still
    its player's, in that tie."""
    info, state, rng = await started_table(store, 975, humans=4, ais=0)
    await store.record_move(info.id, info.version, next_step(state, rng), state)
    await store.set_seat_ai(info.id, 3, "greedy", left=True)
    await store.set_seat_ai(info.id, 2, "greedy")  # timed out, not gone
    await store.end_table(info.id, "abandoned")
    rows, _ = await stored_ratings(store)
    assert set(rows) == {"user:1", "user:2", "user:3", "user:4"}
    assert rows["user:1"][3] == rows["user:2"][3] == rows["user:3"][3] > rows["user:4"][3]


async def test_the_backfill_rates_games_closed_by_a_leaver_as_they_were(
    backend: Backend,
) -> None:
    """Finished games and a game closed when its last human left, taken down to before
    ratings and upgraded again: the ratings are those the games made as they ended."""
    async with backend.opened() as store:
        await finished_games(store, 2)
        await a_game_left_by_its_last_human(store)
        await finished_games_more(store)
        live = await stored_ratings(store)
        assert any(t for t, p, *_ in live[1] if p == "user:1")
        async with store.engine.begin() as conn:
            await conn.run_sync(downgrade_to, "0006")
        async with store.engine.begin() as conn:
            await conn.run_sync(migrate, head_revision())
        assert await stored_ratings(store) == live


async def finished_games_more(store: Store) -> None:
    """One more finished game (user1, user2 and an AI), after the others."""
    info, state, rng = await started_table(store, 972, humans=2, ais=1, seed=9)
    await play_moves(store, info, state, rng, 5000)
    assert state.decision is Decision.OVER


async def rated_players(
    store: Store, players: dict[str, tuple[int | None, str | None, int, float]]
) -> None:
    """Rating rows as games would leave them: key -> (user id, AI level, games, mu)."""
    async with store.engine.begin() as conn:
        for key, (user_id, level, games, mu) in players.items():
            await conn.execute(
                ratings.insert().values(
                    guild_id=GUILD,
                    game="stack",
                    player=key,
                    user_id=user_id,
                    ai_level=level,
                    name=key,
                    mu=mu,
                    sigma=2.0,
                    ordinal=mu - 6.0,
                    games=games,
                )
            )


async def test_the_leaderboard_ranks_by_rating_once_a_human_has_5_rated_games(
    store: Store,
) -> None:
    assert not await store.ranked_by_rating(GUILD)
    await rated_players(
        store, {"ai:greedy": (None, "greedy", 50, 20.0), "user:1": (1, None, 4, 30.0)}
    )
    assert not await store.ranked_by_rating(GUILD)  # an AI level's games do not count
    assert [r.rating.name for r in await store.rating_board(GUILD)] == ["ai:greedy"]
    await rated_players(store, {"user:2": (2, None, 5, 21.0)})
    assert await store.ranked_by_rating(GUILD)
    assert not await store.ranked_by_rating(GUILD + 1)
    assert not await store.ranked_by_rating(GUILD, game="stackup")
    board = await store.rating_board(GUILD)
    assert [(r.rank, r.rating.name) for r in board] == [(1, "user:2"), (2, "ai:greedy")]
    assert board[0].rating.ordinal == pytest.approx(15.0)  # mu 21 - 3 * sigma 2


async def test_players_of_the_same_rating_share_their_rank_on_the_board(store: Store) -> None:
    """Two rated players equal in ordinal and mu are one place (1, 1, 3)."""
    await rated_players(
        store,
        {
            "user:2": (2, None, 6, 21.0),
            "user:1": (1, None, 5, 21.0),
            "ai:greedy": (None, "greedy", 9, 20.0),
        },
    )
    board = await store.rating_board(GUILD)
    assert [(r.rank, r.rating.name) for r in board] == [
        (1, "user:1"),
        (1, "user:2"),
        (3, "ai:greedy"),
    ]


async def test_a_players_rating_comes_with_its_last_games_oldest_first(store: Store) -> None:
    await finished_games(store, 3)
    rating = await store.player_rating(GUILD, 1)
    assert rating is not None and rating.rating.games == 3 and len(rating.recent) == 3
    _, history = await stored_ratings(store)
    mine = [(mu, sigma) for _, player, mu, sigma in history if player == "user:1"]
    assert rating.recent == tuple(mine)  # tables end in id order here
    assert rating.recent[-1] == (rating.rating.mu, rating.rating.sigma)
    assert await store.player_rating(GUILD, 99) is None


async def test_an_ai_levels_rating_comes_with_its_last_games_oldest_first(store: Store) -> None:
    await finished_games(store, 3)
    rating = await store.ai_rating(GUILD, "greedy")
    assert rating is not None and rating.rating.ai_level == "greedy"
    _, history = await stored_ratings(store)
    its = [(mu, sigma) for _, player, mu, sigma in history if player == "ai:greedy"]
    assert rating.rating.games == len(its) >= 2 and rating.recent == tuple(its)
    assert rating.recent[-1] == (rating.rating.mu, rating.rating.sigma)
    assert await store.ai_rating(GUILD, "expert") is None
    assert await store.ai_rating(GUILD, "greedy", game="colorstack") is None


async def test_the_releases_finished_games_are_rated_by_the_upgrade(
    backend: Backend, release_code: Path, tmp_path: Path
) -> None:
    """A database built by the release before issue 9 (finished games, one in teams, one a
    player left) upgrades to ratings equal to a replay of its results from scratch."""
    from tests.persistence.test_upgrade import built_by_the_release

    built_by_the_release(backend, release_code, tmp_path)
    async with backend.opened() as store:  # upgrades at start-up
        rows, history = await stored_ratings(store)
        async with store.engine.connect() as conn:
            games = await conn.run_sync(_stored_games)
        assert any(g.sides and len(g.sides[0]) == 2 for g in games)  # the team game
        assert any(s.left_game for g in games for s in g.seats)  # the game a player left
        expected = replay(games)
        here = {k: s for (g, _, k), (_, s) in expected.skills.items() if g == GUILD}
        assert here and set(rows) == set(here)
        for key, skill in here.items():
            assert rows[key][3:5] == pytest.approx((skill.mu, skill.sigma))
            assert rows[key][6] == skill.games
        assert len(history) == len(expected.history)


def test_stacks_sides_are_its_teams() -> None:
    from engine.stack.game import GAME as STACK
    from engine.stack.state import StackState

    names = ("a", "b", "c", "d")
    teams = StackState(names, HouseRules(teams=True).for_players(names))
    assert STACK.sides(teams) == ((0, 2), (1, 3))
    alone = StackState(names, HouseRules().for_players(names))
    assert STACK.sides(alone) == ((0,), (1,), (2,), (3,))
