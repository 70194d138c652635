"""Migrations: applied at start-up, matching the schema; foreign or newer databases refused."""

from __future__ import annotations

import json
import random
import subprocess
import sys
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import Connection, MetaData, Table, create_engine, inspect, select, text

from persistence import DatabaseRefused, Store
from persistence.database import make_engine
from persistence.migrate import HEAD, head_revision
from persistence.records import Announcement
from persistence.schema import metadata
from tests.persistence.conftest import Backend
from tests.persistence.helpers import GUILD, migrate, next_step, play_moves
from tests.persistence.release import Where, as_before, as_json, run_release, shared_places

# the tables of revision 0001, parents first
TABLES_0001 = (
    "guild_settings",
    "channel_settings",
    "tables",
    "snapshots",
    "seats",
    "moves",
    "round_scores",
    "results",
    "player_stats",
)


async def test_migrations_build_exactly_the_schema(store: Store) -> None:
    def diff(conn: Connection) -> list[object]:
        return list(compare_metadata(MigrationContext.configure(conn), metadata))

    async with store.engine.connect() as conn:
        assert await conn.run_sync(diff) == []
        version = (await conn.execute(text("SELECT version_num FROM alembic_version"))).scalar_one()
    assert version == head_revision()


async def test_opening_twice_is_a_no_op(backend: Backend) -> None:
    first = await backend.open()
    await first.create_table(1, 1, 1, "a")
    await first.close()
    second = await backend.open()
    assert await second.count_tables() == 1
    await second.close()


def test_head_is_the_newest_migration_script() -> None:
    """The revision a start compares a database with, without Alembic, is the scripts'."""
    assert head_revision() == HEAD


def test_a_database_at_head_is_opened_without_loading_alembic(tmp_path: Path) -> None:
    """Every start but the first after an upgrade finds the database up to date in one
    query: Alembic and its scripts (a fifth of a second of a start) are not loaded."""
    url = f"sqlite+aiosqlite:///{tmp_path / 'stackbot.db'}"
    opened = (
        "import asyncio, sys\n"
        "from persistence import Store\n"
        "async def main():\n"
        f"    store = await Store.open({url!r})\n"
        "    await store.close()\n"
        "asyncio.run(main())\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] == 'alembic'))\n"
    )
    run = [sys.executable, "-c", opened]
    first = subprocess.run(run, capture_output=True, text=True, check=True, timeout=300)
    assert first.stdout.strip() != "[]"  # created and upgraded: with Alembic
    again = subprocess.run(run, capture_output=True, text=True, check=True, timeout=300)
    assert again.stdout.strip() == "[]", again.stdout


async def test_a_newer_database_is_refused_and_left_untouched(backend: Backend) -> None:
    store = await backend.open()
    async with store.engine.begin() as conn:
        await conn.execute(text("UPDATE alembic_version SET version_num = '9999_future'"))
    await store.close()
    with pytest.raises(DatabaseRefused, match="newer stackbot"):
        await backend.open()
    engine = make_engine(backend.url, **backend.engine_options)
    async with engine.connect() as conn:
        assert (
            await conn.execute(text("SELECT version_num FROM alembic_version"))
        ).scalar_one() == "9999_future"
    await engine.dispose()


async def test_a_database_that_is_not_ours_is_refused_and_left_untouched(backend: Backend) -> None:
    engine = make_engine(backend.url, **backend.engine_options)
    async with engine.begin() as conn:
        await conn.execute(text("CREATE TABLE invoices (id INTEGER PRIMARY KEY)"))
    with pytest.raises(DatabaseRefused, match="not stackbot's"):
        await backend.open()
    async with engine.connect() as conn:
        names = await conn.run_sync(lambda c: inspect(c).get_table_names())
    assert names == ["invoices"]
    await engine.dispose()


async def test_sqlite_runs_in_wal_mode_with_foreign_keys(backend: Backend) -> None:
    if backend.name != "sqlite":
        pytest.skip("SQLite pragmas")
    store = await backend.open()
    async with store.engine.connect() as conn:
        assert (await conn.execute(text("PRAGMA journal_mode"))).scalar_one() == "wal"
        assert (await conn.execute(text("PRAGMA foreign_keys"))).scalar_one() == 1
    await store.close()


def migrate_to(connection: Connection, revision: str) -> None:
    """Bring an empty database to ``revision`` (not the head)."""
    migrate(connection, revision)


def as_utc(value: Any) -> Any:
    if isinstance(value, datetime) and value.tzinfo is None:
        return value.replace(tzinfo=UTC)
    return value


@pytest.fixture(scope="session")
def release_sqlite(
    release_code: Path, tmp_path_factory: pytest.TempPathFactory
) -> tuple[Path, Any]:
    """A SQLite file built by the release before issue 9, and what that release read."""
    folder = tmp_path_factory.mktemp("release-db")
    path = folder / "release.db"
    before = run_release(release_code, Where(f"sqlite+aiosqlite:///{path}"), folder / "out.json")
    return path, before


def copy_rows(target: Connection, source: Path, names: tuple[str, ...]) -> None:
    """The rows of ``source``'s tables ``names`` into ``target``'s, column by column: the
    columns both have; a row the target cannot hold (NULL where it needs a value) stays."""
    engine = create_engine(f"sqlite:///{source}")
    try:
        with engine.connect() as conn:
            for name in names:
                into = Table(name, MetaData(), autoload_with=target)
                needed = {
                    c.name for c in into.columns if not c.nullable and c.server_default is None
                }
                rows = conn.execute(select(Table(name, MetaData(), autoload_with=conn))).all()
                kept = []
                for r in rows:
                    values = {k: as_utc(v) for k, v in r._asdict().items() if k in into.columns}
                    if all(values.get(c) is not None for c in needed):
                        kept.append(values)
                if kept:
                    target.execute(into.insert(), kept)
    finally:
        engine.dispose()


async def test_a_0001_database_with_games_in_it_upgrades_in_place(
    backend: Backend, release_sqlite: tuple[Path, Any]
) -> None:
    # The data: a database the release before issue 9 built (settings, finished games, a
    # game in progress, a lobby), copied column by column into a 0001 database.
    source, before = release_sqlite
    ids = before["ids"]
    engine = make_engine(backend.url, **backend.engine_options)
    async with engine.begin() as conn:
        await conn.run_sync(migrate_to, "0001")
        await conn.run_sync(copy_rows, source, TABLES_0001)
        if backend.name == "postgresql":
            await conn.execute(
                text("SELECT setval(pg_get_serial_sequence('tables', 'id'), MAX(id)) FROM tables")
            )
        version = (await conn.execute(text("SELECT version_num FROM alembic_version"))).scalar()
        assert version == "0001"
    await engine.dispose()

    async with backend.opened() as store:  # upgrades at start-up
        async with store.engine.connect() as conn:
            diff = await conn.run_sync(
                lambda c: list(compare_metadata(MigrationContext.configure(c), metadata))
            )
            assert diff == []
            head = (await conn.execute(text("SELECT version_num FROM alembic_version"))).scalar()
        assert head == head_revision()
        # history, leaderboard, stats (rounds and faces filled in by 0004 from the logs),
        # score sheets and the house rules read as the release read them
        for channel in ("70", "74", "75"):
            expected = before["history"][channel]
            assert as_before(expected, await store.history(int(channel))) == expected
        for guild in (GUILD, 2000):
            expected = shared_places(before["leaderboard"][f"{guild}/wins"])  # ties shared
            assert as_before(expected, await store.leaderboard(guild)) == expected
            for user in (1, 2, 3, 4):
                expected = before["stats"][f"{guild}/{user}"]
                assert as_before(expected, await store.stats(guild, user)) == expected
        for table_id in ids["finished"]:
            expected = before["sheets"][str(table_id)]
            assert as_before(expected, await store.score_sheet(table_id)) == expected
        here = await store.guild_settings(GUILD, 71)
        rules = {k: before["settings"][f"{GUILD}/71"][k] for k in ("rules", "channel_rules")}
        assert as_before(rules, here) == rules
        assert here.turn_seconds == 45  # 0001 had no channel timer: the server's
        # the game and the lobby load, with activity times from what was stored
        loaded = {t.info.id: t for t in await store.load_active_tables()}
        assert set(loaded) == {ids["live"], ids["lobby"]}
        game = loaded[ids["live"]]
        state = game.state
        assert state is not None
        assert as_json(state.to_dict(full_history=False)) == before["live_state"]
        assert game.info.moved_at is not None and game.info.last_active_at == game.info.started_at
        lobby = loaded[ids["lobby"]].info
        assert lobby.last_active_at == lobby.created_at
        # and the game resumes: moves (with the outbox) go on, to its end
        rng = random.Random(3)
        version = game.info.version
        result = await store.record_move(
            game.info.id,
            version,
            next_step(state, rng),
            state,
            human=True,
            announcements=[Announcement("table")],
        )
        assert result.version > version and len(result.outbox_ids) == 1
        resumed = await store.table(game.info.id)
        assert resumed.moved_at is not None and resumed.moved_at > game.info.moved_at
        await play_moves(store, resumed, state, rng, 10_000)
        assert state.is_over and (await store.table(game.info.id)).status == "finished"
        mine = await store.stats(GUILD, 1)
        assert mine is not None and mine.games == before["stats"][f"{GUILD}/1"]["games"] + 1
        assert [h.table_id for h in await store.history(71)] == [game.info.id]
        new = await store.create_table(GUILD, 73, 1, "again")
        assert new.id > max(*ids["finished"], ids["live"], ids["lobby"], ids["ended"])


async def test_a_turn_limit_past_what_a_house_rule_sets_is_lowered_to_it(
    backend: Backend,
) -> None:
    """0010: a server's or a channel's Stack Up! or Color Stack turn limit above 10,000,
    and a lobby's own, are lowered to 10,000; the other rules, the other games and a game
    in progress (its options are its game's) are left as they were."""
    from engine.stackup.rules import MAX_HOUSE_TURN_LIMIT

    async with backend.opened() as store:
        await store.set_house_rules(GUILD, {"target_score": 300})  # Stack's: kept
        lobby = await store.create_table(GUILD, 81, 1, "ann", game="stackup")
        playing = await store.create_table(GUILD, 82, 1, "ann", game="colorstack")
    engine = make_engine(backend.url, **backend.engine_options)
    async with engine.begin() as conn:
        await conn.run_sync(migrate, "0009", down=True)
        big = 10**25 if backend.name == "postgresql" else 2**63 - 1
        for channel, game, rules in (
            (0, "stackup", {"turn_limit": big}),
            (83, "stackup", {"turn_limit": 10_001}),
            (0, "colorstack", {"board": "heavy", "turn_limit": 20_000}),
        ):
            await conn.execute(
                text(
                    "INSERT INTO house_rules (guild_id, channel_id, game, rules, updated_at) "
                    "VALUES (:g, :c, :game, :rules, :at)"
                ),
                {"g": GUILD, "c": channel, "game": game, "rules": json.dumps(rules),
                 "at": datetime(2026, 1, 1, tzinfo=UTC)},
            )  # fmt: skip
        for table_id, status in ((lobby.id, "lobby"), (playing.id, "playing")):
            await conn.execute(
                text("UPDATE tables SET options = :o, status = :s WHERE id = :id"),
                {"o": json.dumps({"turn_limit": 50_000}), "s": status, "id": table_id},
            )
        await conn.run_sync(migrate, "head")
        options = dict(
            (await conn.execute(text("SELECT id, options FROM tables ORDER BY id"))).all()
        )
    await engine.dispose()
    async with backend.opened() as store:
        server = await store.guild_settings(GUILD, None, game="stackup")
        assert server.rules.turn_limit == MAX_HOUSE_TURN_LIMIT == 10_000
        here = await store.guild_settings(GUILD, 83, game="stackup")
        assert here.channel_rules is not None and here.channel_rules.turn_limit == 10_000
        colour = await store.guild_settings(GUILD, None, game="colorstack")
        assert (colour.rules.board, colour.rules.turn_limit) == ("heavy", 10_000)
        stack = await store.guild_settings(GUILD, None)
        assert stack.rules.target_score == 300
    as_dict = {k: v if isinstance(v, dict) else json.loads(v) for k, v in options.items()}
    assert as_dict[lobby.id] == {"turn_limit": 10_000}
    assert as_dict[playing.id] == {"turn_limit": 50_000}
