"""Storage keeps any game behind the interface of :mod:`engine.game`: a table of a second
game (Stack Up!, and Shed, a tiny test game whose snapshot leaves its turns to the log) is
opened under that game's settings, played, restarted, finished and recorded as that game's
own (its outcome, its figures, its record), apart from Stack's; house rules are kept per
game; a game this code does not know is refused with a clear message."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

import pytest
from sqlalchemy import select, update

from engine import flow, games
from engine.game import Game
from engine.stack.rules import HouseRules
from persistence import InvalidSettings, StorageError, Store
from persistence.database import make_engine
from persistence.schema import house_rules, player_stats, tables
from tests.persistence import shed_game
from tests.persistence.conftest import Backend
from tests.persistence.helpers import GUILD, count, downgrade_to, play_moves, started_table

CHANNEL = 300


@pytest.fixture(params=["shed", "stackup"])
def second_game(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> Game[Any]:
    """A game other than Stack, as the registry gives it."""
    if request.param == "shed":
        return shed_game.register(monkeypatch)
    return games.get("stackup")


def settle(game: Game[Any], state: Any, rng: random.Random) -> list[Any]:
    """As a host plays a step on (the table loop): the chance outcomes and the game's
    forced moves up to a player's decision."""
    return [played.move for played in flow.settle(game, state, rng)]


def step(game: Game[Any], state: Any, rng: random.Random) -> list[Any]:
    """The random AI's decision for the seat to act, and what it leads to."""
    move = game.make_ai("random").choose(state, rng)
    return [played.move for played in flow.play(game, state, move, rng, by=state.current_player)]


async def play(
    store: Store,
    game: Game[Any],
    table_id: int,
    version: int,
    state: Any,
    rng: random.Random,
    steps: int = 100_000,
) -> int:
    for _ in range(steps):
        if state.is_over:
            break
        version = (
            await store.record_move(table_id, version, step(game, state, rng), state)
        ).version
    return version


async def start(
    store: Store,
    game: Game[Any],
    channel: int,
    seed: int,
    options: dict[str, Any] | None = None,
    *,
    users: Sequence[str] = ("ann", "bob"),
    levels: Sequence[str] = ("random",),
) -> tuple[int, int, Any, random.Random]:
    """A table of ``game`` (``users`` as users 1, 2, …, then an AI of each of ``levels``)
    started under ``options``."""
    info = await store.create_table(GUILD, channel, 1, users[0], options, game=game.name)
    for user, name in enumerate(users[1:], start=2):
        info = await store.join_table(info.id, user, name)
    for level in levels:
        info = await store.add_ai(info.id, level)
    settings = game.settings.model_validate(options or {})
    names = game.seat_order([s.name for s in info.seats], settings)
    state = game.new_state(names, settings)
    rng = random.Random(seed)
    opening = settle(game, state, rng)
    order = [[s.name for s in info.seats].index(n) for n in names]
    info = await store.start_table(info.id, order, state, opening, rules=settings)
    assert info.rules_record == settings.model_dump(mode="json")
    return info.id, info.version, state, rng


def added_up(*figures: dict[str, int]) -> dict[str, int]:
    """Figures as the stats keep them over several games: ``best_`` keys the highest,
    the others summed."""
    total: dict[str, int] = {}
    for one in figures:
        for key, value in one.items():
            if key.startswith("best_"):
                total[key] = max(total.get(key, value), value)
            else:
                total[key] = total.get(key, 0) + value
    return total


async def test_a_second_game_is_played_restarted_and_recorded_as_its_own(
    backend: Backend, second_game: Game[Any]
) -> None:
    game = second_game
    async with backend.opened() as store:
        table_id, version, state, rng = await start(store, game, CHANNEL, 7, {"turn_limit": 60})
        info = await store.table(table_id)
        assert info.game == game.name and info.rules == info.rules_record  # not Stack's rules
        started_at = version
        while version <= started_at + store.snapshot_every:  # until snapshotted mid-game
            version = await play(store, game, table_id, version, state, rng, steps=1)
        assert not state.is_over

    async with backend.opened() as store:  # a restart: the game loads as its snapshot and log say
        (loaded,) = await store.load_active_tables()
        assert loaded.info.game == game.name and loaded.info.version == version
        live = loaded.state
        assert type(live) is type(state)
        assert game.snapshot(live) == game.snapshot(state)
        # Shed's snapshot leaves its turns to the log: its stats need the log replayed
        assert game.holds_whole_game(live) == (game.name != "shed")
        await play(store, game, table_id, version, live, rng)
        assert live.is_over and (await store.table(table_id)).status == "finished"

        whole = await store.replay_log(table_id)
        assert game.holds_whole_game(whole)
        outcome = game.outcome(whole)
        assert outcome is not None and outcome == game.outcome(live)
        names = whole.players
        (summary,) = await store.history(CHANNEL, game=game.name)
        assert summary.table_id == table_id and summary.game == game.name
        assert summary.totals == outcome.scores and summary.ended_by == outcome.ended_by
        assert summary.winners == tuple(names[s] for s in outcome.winners)
        assert summary.higher_wins is outcome.higher_wins is False
        assert summary.rounds_played == 0
        assert await store.history(CHANNEL) == []  # Stack's history has none of it
        assert await store.last_finished(CHANNEL) == (table_id, game.name)  # of any game
        assert await store.last_finished(CHANNEL + 1) is None
        sheet = await store.score_sheet(table_id)
        assert sheet.game == game.name and sheet.finished and sheet.rounds == ()
        assert sheet.totals == outcome.scores and sheet.target_score == 0

        for user, name in ((1, "ann"), (2, "bob")):
            seat = names.index(name)
            stats = await store.stats(GUILD, user, game=game.name)
            assert stats is not None and stats.game == game.name
            assert (stats.games, stats.wins) == (1, int(seat in outcome.winners))
            assert stats.points == outcome.scores[seat]
            assert dict(stats.figures) == game.stats_figures(whole, seat)
            (recent,) = stats.recent
            assert recent.game == game.name and recent.total == outcome.scores[seat]
            assert recent.target == 0 and recent.players == names
            assert await store.stats(GUILD, user) is None  # no Stack game
        board = await store.leaderboard(GUILD, game=game.name)
        assert {row.stats.user_id for row in board} == {1, 2}
        assert await store.leaderboard(GUILD) == []

        assert await store.export_record(table_id) == game.export_record(whole)
        meta = {"table": table_id}
        assert (await store.export_record(table_id, meta)) == game.export_record(whole, meta)

        # a second game: the figures add up (a best_ figure keeps the highest)
        second, version, state, rng = await start(store, game, CHANNEL, 8)
        await play(store, game, second, version, state, rng)
        again = await store.replay_log(second)
        for user, name in ((1, "ann"), (2, "bob")):
            stats = await store.stats(GUILD, user, game=game.name)
            assert stats is not None and stats.games == 2
            first_figures = game.stats_figures(whole, names.index(name))
            second_figures = game.stats_figures(again, again.players.index(name))
            assert dict(stats.figures) == added_up(first_figures, second_figures)


async def test_a_second_games_options_seats_and_ai_levels_are_its_own(
    store: Store, second_game: Game[Any]
) -> None:
    game = second_game
    with pytest.raises(InvalidSettings, match="Unknown table option 'target_score'"):
        await store.create_table(GUILD, 1, 1, "ann", {"target_score": 50}, game=game.name)
    with pytest.raises(InvalidSettings, match="turn_limit"):
        await store.create_table(GUILD, 1, 1, "ann", {"turn_limit": 0}, game=game.name)
    assert await count(store, tables) == 0
    info = await store.create_table(GUILD, 1, 1, "ann", game=game.name)
    with pytest.raises(InvalidSettings, match="no AI level 'genius'"):
        await store.add_ai(info.id, "genius")
    for user in range(2, game.max_players + 1):
        info = await store.join_table(info.id, user, f"p{user}")
    assert len(info.seats) == game.max_players
    with pytest.raises(Exception, match=f"full \\({game.max_players} players\\)"):
        await store.join_table(info.id, 99, "late")


async def test_house_rules_are_kept_per_game(store: Store, second_game: Game[Any]) -> None:
    name = second_game.name
    model = second_game.settings
    await store.set_house_rules(GUILD, {"target_score": 150})
    await store.set_house_rules(GUILD, {"turn_limit": 12}, game=name)
    await store.set_house_rules(GUILD, {"turn_limit": 20}, channel_id=7, game=name)
    stack = await store.guild_settings(GUILD, 7)
    assert stack.rules == HouseRules(target_score=150) and stack.channel_rules is None
    mine = await store.guild_settings(GUILD, 7, game=name)
    assert mine.game == name and mine.rules == model(turn_limit=12)
    assert mine.effective == model(turn_limit=20)
    assert (await store.guild_settings(GUILD, 8, game=name)).effective == model(turn_limit=12)
    # the timer, expiry and theme are the server's, whatever the game
    await store.set_turn_timer(GUILD, 30, channel_id=7)
    await store.set_theme(GUILD, "light")
    mine = await store.guild_settings(GUILD, 7, game=name)
    assert (mine.turn_seconds, mine.theme) == (30, "light")
    # a reset is one game's
    await store.reset_house_rules(GUILD, game=name)
    assert (await store.guild_settings(GUILD, game=name)).rules == model()
    assert (await store.guild_settings(GUILD)).rules == HouseRules(target_score=150)
    await store.reset_house_rules(GUILD, channel_id=7, game=name)
    assert (await store.guild_settings(GUILD, 7, game=name)).channel_rules is None
    # refused, writing nothing
    before = await count(store, house_rules)
    with pytest.raises(InvalidSettings, match="turn_limit"):
        await store.set_house_rules(GUILD, {"turn_limit": 0}, game=name)
    with pytest.raises(InvalidSettings, match="unknown key 'target_score'"):
        await store.set_house_rules(GUILD, {"target_score": 50}, game=name)
    with pytest.raises(InvalidSettings, match="unknown key 'turn_limit'"):
        await store.set_house_rules(GUILD, {"turn_limit": 50})  # Stack has none
    assert await count(store, house_rules) == before


async def test_a_game_nobody_knows_is_refused_with_its_name(store: Store) -> None:
    for call in (
        store.create_table(GUILD, 1, 1, "ann", game="chess"),
        store.guild_settings(GUILD, game="chess"),
        store.set_house_rules(GUILD, {}, game="chess"),
        store.reset_house_rules(GUILD, game="chess"),
        store.history(1, game="chess"),
        store.leaderboard(GUILD, game="chess"),
        store.stats(GUILD, 1, game="chess"),
    ):
        with pytest.raises(InvalidSettings, match="no game called 'chess'"):
            await call
    assert await count(store, tables) == 0
    # a table stored by a stackbot that knows more games than this one
    info, _, _ = await started_table(store, 2)
    async with store.engine.begin() as conn:
        await conn.execute(update(tables).where(tables.c.id == info.id).values(game="chess"))
    with pytest.raises(StorageError, match="'chess', which this version of stackbot"):
        await store.load_table(info.id)


async def test_the_downgrade_keeps_stack_and_drops_what_only_another_game_had(
    backend: Backend, monkeypatch: pytest.MonkeyPatch
) -> None:
    shed = shed_game.register(monkeypatch)
    async with backend.opened() as store:
        info, state, rng = await started_table(store, 1, rules=HouseRules(target_score=40))
        await play_moves(store, info, state, rng, 100_000)
        await store.set_house_rules(GUILD, {"target_score": 90})
        await store.set_house_rules(GUILD, {"turn_limit": 9}, game="shed")
        table_id, version, sstate, srng = await start(store, shed, 2, 1)
        await play(store, shed, table_id, version, sstate, srng)
        stack_stats = await store.stats(GUILD, 1)
    engine = make_engine(backend.url, **backend.engine_options)
    try:
        async with engine.begin() as conn:
            await conn.run_sync(downgrade_to, "0004")
            ids = [r.id for r in await conn.execute(select(tables.c.id))]
            assert ids == [info.id]
            assert len((await conn.execute(select(player_stats.c.user_id))).all()) == 2
    finally:
        await engine.dispose()
    async with backend.opened() as store:  # up again
        assert await store.stats(GUILD, 1) == stack_stats
        assert await store.stats(GUILD, 1, game="shed") is None
        assert (await store.guild_settings(GUILD)).rules == HouseRules(target_score=90)
        assert (await store.guild_settings(GUILD, game="shed")).rules == shed.settings()
