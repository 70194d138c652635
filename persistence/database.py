"""Creating the async SQLAlchemy engine for SQLite (WAL, foreign keys) or PostgreSQL."""

from __future__ import annotations

from typing import Any

import orjson
from sqlalchemy import event
from sqlalchemy.engine import make_url
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine

from persistence.config import database_url

SQLITE_BUSY_SECONDS = 30
IDLE_IN_TRANSACTION_MS = 10_000  # PostgreSQL ends a transaction idle for this long


def json_dumps(value: Any) -> str:
    """JSON columns are written with orjson (several times faster than the json module)."""
    return orjson.dumps(value).decode()


JSON_OPTIONS = {"json_serializer": json_dumps, "json_deserializer": orjson.loads}


def is_sqlite(engine: AsyncEngine) -> bool:
    return engine.dialect.name == "sqlite"


def make_engine(
    url: str | None = None, *, application_name: str | None = None, **kwargs: Any
) -> AsyncEngine:
    """An async engine for ``url`` (default: ``$DATABASE_URL`` or ``./stackbot.db``).

    SQLite runs in WAL mode with foreign keys on and ``synchronous=FULL``, so a commit
    that returned is on disk; PostgreSQL runs through asyncpg, its sessions named
    ``application_name`` when given (a process of several: its node id, so that the
    process taking its shards over can end its sessions).
    """
    resolved = make_url(database_url(url))
    kwargs = {**JSON_OPTIONS, **kwargs}
    if resolved.get_backend_name() == "sqlite":
        if resolved.database in (None, "", ":memory:"):
            raise ValueError("stackbot needs a SQLite file, not an in-memory database.")
        engine = create_async_engine(
            resolved, connect_args={"timeout": SQLITE_BUSY_SECONDS}, **kwargs
        )

        @event.listens_for(engine.sync_engine, "connect")
        def _pragmas(dbapi_connection: Any, _record: Any) -> None:
            cursor = dbapi_connection.cursor()
            cursor.execute("PRAGMA journal_mode=WAL")
            cursor.execute("PRAGMA foreign_keys=ON")
            cursor.execute("PRAGMA synchronous=FULL")
            cursor.execute(f"PRAGMA busy_timeout={SQLITE_BUSY_SECONDS * 1000}")
            # Commits never checkpoint: the move writer starts checkpoints beside them.
            cursor.execute("PRAGMA wal_autocheckpoint=0")
            cursor.close()

        return engine
    kwargs.setdefault("pool_size", 10)
    kwargs.setdefault("max_overflow", 10)
    kwargs.setdefault("pool_pre_ping", True)
    # A transaction left open (its process paused, or hung) is ended by the server, so that
    # the locks it holds (a shard lease's share lock) never stop another process's claim.
    connect_args = dict(kwargs.pop("connect_args", {}))
    server_settings = {
        "idle_in_transaction_session_timeout": str(IDLE_IN_TRANSACTION_MS),
        **({"application_name": application_name[:63]} if application_name else {}),
        **connect_args.get("server_settings", {}),
    }
    connect_args["server_settings"] = server_settings
    return create_async_engine(resolved, connect_args=connect_args, **kwargs)
