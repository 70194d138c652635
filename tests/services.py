"""The real services the multi-process tests use: the local PostgreSQL
(``TEST_DATABASE_URL``) in a fresh schema each, and the local Redis (``TEST_REDIS_URL``,
else ``redis://127.0.0.1:6379/0`` when it answers) under a fresh key prefix each. A test
that needs one skips when it is not there; ``.ci/run`` sets both."""

from __future__ import annotations

import asyncio
import os
import socket
import uuid
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlparse

import pytest
from sqlalchemy import text
from sqlalchemy.ext.asyncio import create_async_engine

POSTGRES_URL = os.environ.get("TEST_DATABASE_URL")
DEFAULT_REDIS = "redis://127.0.0.1:6379/0"


def redis_url() -> str | None:
    """``TEST_REDIS_URL``, or the local Redis when one listens on 127.0.0.1:6379."""
    url = os.environ.get("TEST_REDIS_URL")
    if url:
        return url
    parsed = urlparse(DEFAULT_REDIS)
    try:
        with socket.create_connection((parsed.hostname or "", parsed.port or 6379), 0.5):
            return DEFAULT_REDIS
    except OSError:
        return None


@dataclass(frozen=True)
class Services:
    """Where a test's database and Redis keys live."""

    database_url: str
    schema: str
    redis_url: str
    prefix: str

    @property
    def engine_options(self) -> dict[str, Any]:
        return in_schema(self.schema)


def in_schema(schema: str) -> dict[str, Any]:
    """The engine options of a store whose tables live in PostgreSQL schema ``schema``."""
    return {"connect_args": {"server_settings": {"search_path": schema}}}


@asynccontextmanager
async def fresh_schema(database: str, tag: str | None = None) -> AsyncIterator[str]:
    """A fresh schema (``test_<tag>``, a random tag by default) in PostgreSQL ``database``,
    dropped with all it holds afterwards."""
    schema = f"test_{tag or uuid.uuid4().hex[:12]}"
    admin = create_async_engine(database)
    async with admin.begin() as conn:
        await conn.execute(text(f'CREATE SCHEMA "{schema}"'))
    try:
        yield schema
    finally:
        async with admin.begin() as conn:
            await conn.execute(text(f'DROP SCHEMA "{schema}" CASCADE'))
        await admin.dispose()


def need_services() -> tuple[str, str]:
    if not POSTGRES_URL:
        pytest.skip("TEST_DATABASE_URL is not set: the multi-process tests need PostgreSQL")
    redis = redis_url()
    if redis is None:
        pytest.skip("no Redis on 127.0.0.1:6379 and TEST_REDIS_URL is not set")
    return POSTGRES_URL, redis


@asynccontextmanager
async def fresh_services() -> AsyncIterator[Services]:
    """A fresh PostgreSQL schema and Redis key prefix, dropped and deleted afterwards."""
    database, redis = need_services()
    tag = uuid.uuid4().hex[:12]
    services = Services(database, f"test_{tag}", redis, f"stackbot-test-{tag}")
    try:
        async with fresh_schema(database, tag):
            yield services
    finally:
        import redis.asyncio as aioredis

        client = aioredis.Redis.from_url(redis)
        keys = [k async for k in client.scan_iter(match=f"{services.prefix}:*")]
        if keys:
            await client.delete(*keys)
        await client.aclose()


async def until(check: Callable[[], bool], seconds: float = 10.0) -> None:
    """Wait (real time) until ``check()`` holds; fail after ``seconds``."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + seconds
    while not check():
        assert loop.time() < deadline, "timed out waiting"
        await asyncio.sleep(0.02)
