"""Migrations: applied at start-up, matching the schema; foreign or newer databases refused."""

from __future__ import annotations

from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from alembic.runtime.environment import EnvironmentContext
from sqlalchemy import Connection, inspect, select, text

from engine.stack.rules import HouseRules
from persistence import DatabaseRefused, Store
from persistence.database import make_engine
from persistence.migrate import alembic_config, head_revision, script_directory
from persistence.records import Announcement
from persistence.schema import metadata
from tests.persistence.conftest import Backend
from tests.persistence.helpers import GUILD, next_step, play_moves, started_table

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
    script = script_directory()

    def upgrade(rev: Any, context: Any) -> Any:
        return script._upgrade_revs(revision, rev)

    with EnvironmentContext(alembic_config(), script, fn=upgrade, destination_rev=revision) as env:
        env.configure(connection=connection, target_metadata=metadata)
        with env.begin_transaction():
            env.run_migrations()


def column_names(connection: Connection, table: str) -> set[str]:
    return {column["name"] for column in inspect(connection).get_columns(table)}


def as_utc(value: Any) -> Any:
    if isinstance(value, datetime) and value.tzinfo is None:
        return value.replace(tzinfo=UTC)
    return value


async def test_a_0001_database_with_games_in_it_upgrades_in_place(
    backend: Backend, tmp_path: Path
) -> None:
    # The data: settings, a finished game, a game in progress and a lobby, played by the
    # store on a scratch file; then copied, column by column, into a 0001 database.
    source = await Store.open(f"sqlite+aiosqlite:///{tmp_path / 'source.db'}")
    await source.set_house_rules(GUILD, {"target_score": 60})
    await source.set_house_rules(GUILD, {"dice_per_player": 10}, channel_id=71)
    await source.set_turn_timer(GUILD, 45)
    done, dstate, drng = await started_table(source, 70, seed=4, rules=HouseRules(target_score=60))
    await play_moves(source, done, dstate, drng, 10_000)
    assert dstate.is_over
    live, state, rng = await started_table(source, 71, seed=5, rules=HouseRules(target_score=500))
    await play_moves(source, live, state, rng, 25)
    lobby = await source.create_table(GUILD, 72, 7, "waiting")
    expected = (
        await source.history(70),
        await source.leaderboard(GUILD),
        await source.stats(GUILD, 1),
        await source.score_sheet(done.id),
        await source.guild_settings(GUILD, 71),
    )
    dump: dict[str, list[dict[str, Any]]] = {}
    async with source.engine.connect() as conn:
        for name in TABLES_0001:
            rows = await conn.execute(select(metadata.tables[name]))
            dump[name] = [{k: as_utc(v) for k, v in r._asdict().items()} for r in rows]
    await source.close()

    engine = make_engine(backend.url, **backend.engine_options)
    async with engine.begin() as conn:
        await conn.run_sync(migrate_to, "0001")
        for name in TABLES_0001:
            columns = await conn.run_sync(column_names, name)
            kept = [{k: v for k, v in r.items() if k in columns} for r in dump[name]]
            if kept:
                await conn.execute(metadata.tables[name].insert(), kept)
        if backend.name == "postgresql":
            await conn.execute(
                text("SELECT setval(pg_get_serial_sequence('tables', 'id'), MAX(id)) FROM tables")
            )
        version = (await conn.execute(text("SELECT version_num FROM alembic_version"))).scalar()
        assert version == "0001"
    await engine.dispose()

    store = await backend.open()  # upgrades at start-up
    try:
        async with store.engine.connect() as conn:
            diff = await conn.run_sync(
                lambda c: list(compare_metadata(MigrationContext.configure(c), metadata))
            )
            assert diff == []
            head = (await conn.execute(text("SELECT version_num FROM alembic_version"))).scalar()
        assert head == head_revision()
        # history, leaderboard, stats, score sheet and settings are unchanged
        assert (
            await store.history(70),
            await store.leaderboard(GUILD),
            await store.stats(GUILD, 1),
            await store.score_sheet(done.id),
            await store.guild_settings(GUILD, 71),
        ) == expected
        # the game and the lobby load, with activity times from what was stored
        loaded = {t.info.id: t for t in await store.load_active_tables()}
        assert set(loaded) == {live.id, lobby.id}
        game = loaded[live.id]
        assert game.state is not None
        assert game.state.to_dict(full_history=False) == state.to_dict(full_history=False)
        assert game.info.moved_at is not None and game.info.last_active_at == game.info.started_at
        assert loaded[lobby.id].info.last_active_at == loaded[lobby.id].info.created_at
        # and the game resumes: moves (with the outbox) go on, to its end
        version = game.info.version
        result = await store.record_move(
            live.id,
            version,
            next_step(state, rng),
            state,
            human=True,
            announcements=[Announcement("table")],
        )
        assert result.version > version and len(result.outbox_ids) == 1
        resumed = await store.table(live.id)
        assert resumed.moved_at is not None and resumed.moved_at > game.info.moved_at
        await play_moves(store, resumed, state, rng, 10_000)
        assert state.is_over and (await store.table(live.id)).status == "finished"
        mine = await store.stats(GUILD, 1)
        assert mine is not None and mine.games == 2
        assert [h.table_id for h in await store.history(71)] == [live.id]
        new = await store.create_table(GUILD, 73, 1, "again")
        assert new.id > live.id
    finally:
        await store.close()
