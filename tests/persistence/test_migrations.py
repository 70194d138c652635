"""Migrations: applied at start-up, matching the schema; foreign or newer databases refused."""

from __future__ import annotations

import pytest
from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import Connection, inspect, text

from persistence import DatabaseRefused, Store
from persistence.database import make_engine
from persistence.migrate import head_revision
from persistence.schema import metadata
from tests.persistence.conftest import Backend


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
