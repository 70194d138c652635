"""Every persistence test runs on SQLite, and on PostgreSQL when TEST_DATABASE_URL is set."""

from __future__ import annotations

import os
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest

from persistence import Store
from tests.persistence.release import fetch_release
from tests.services import fresh_schema, in_schema

POSTGRES_URL = os.environ.get("TEST_DATABASE_URL")


class Backend:
    """Where a test's database lives, and how to open a Store on it (again, after a restart)."""

    def __init__(self, name: str, url: str, engine_options: dict[str, Any]) -> None:
        self.name = name
        self.url = url
        self.engine_options = engine_options

    async def open(self) -> Store:
        return await Store.open(self.url, **self.engine_options)

    @asynccontextmanager
    async def opened(self) -> AsyncIterator[Store]:
        """A Store open on this database while inside (closed at the end, as a restart
        would leave it)."""
        store = await self.open()
        try:
            yield store
        finally:
            await store.close()


@pytest.fixture(params=["sqlite", "postgresql"])
async def backend(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Backend]:
    if request.param == "sqlite":
        yield Backend("sqlite", f"sqlite+aiosqlite:///{tmp_path / 'stackbot.db'}", {})
        return
    if not POSTGRES_URL:
        pytest.skip("TEST_DATABASE_URL is not set: PostgreSQL tests skipped")
    async with fresh_schema(POSTGRES_URL) as schema:
        yield Backend("postgresql", POSTGRES_URL, in_schema(schema))


@pytest.fixture
async def store(backend: Backend) -> AsyncIterator[Store]:
    async with backend.opened() as opened:
        yield opened


@pytest.fixture(scope="session")
def release_code(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The code of the release before issue 9 (see :mod:`tests.persistence.release`)."""
    return fetch_release(tmp_path_factory.mktemp("release"))
