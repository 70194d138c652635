"""Creating the async SQLAlchemy engine for SQLite (WAL, foreign keys) or PostgreSQL,
with every wait on the database bounded, and naming what is wrong when the database
cannot be used (:func:`database_problem`, :func:`is_database_fault`)."""

from __future__ import annotations

import asyncio
import os
import re
import socket
import sqlite3
from pathlib import Path
from typing import Any

import orjson
from sqlalchemy import event, exc, text
from sqlalchemy.engine import URL, make_url
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine

from persistence.config import database_url
from persistence.errors import DatabaseUnavailable, StorageError

# Every wait on the database is bounded, so that a stalled or cut database answers with an
# error ("could not be saved, try again") instead of freezing the tables that wait on it.
SQLITE_BUSY_SECONDS = 5  # a write waits this long for another connection's lock
CONNECT_SECONDS = 10  # PostgreSQL: opening a connection
STATEMENT_SECONDS = 10  # PostgreSQL: one statement (the client gives up and cancels it)
POOL_SECONDS = 10  # waiting for a free connection of the pool
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
    problem = url_problem(url)
    if problem is not None:
        raise ValueError(problem)
    resolved = make_url(database_url(url))
    kwargs = {**JSON_OPTIONS, **kwargs}
    if resolved.get_backend_name() == "sqlite":
        sqlite_folder(resolved)
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
    kwargs.setdefault("pool_pre_ping", True)  # a connection broken by an outage is replaced
    kwargs.setdefault("pool_timeout", POOL_SECONDS)
    # A transaction left open (its process paused, or hung) is ended by the server, so that
    # the locks it holds (a shard lease's share lock) never stop another process's claim.
    # A statement that takes longer than STATEMENT_SECONDS is cancelled (by the client, so
    # also when the server or the network stalls; and by the server, a little later).
    connect_args = dict(kwargs.pop("connect_args", {}))
    connect_args.setdefault("timeout", CONNECT_SECONDS)
    connect_args.setdefault("command_timeout", STATEMENT_SECONDS)
    server_settings = {
        "idle_in_transaction_session_timeout": str(IDLE_IN_TRANSACTION_MS),
        "statement_timeout": str(int(STATEMENT_SECONDS * 1000 + 2000)),
        **({"application_name": application_name[:63]} if application_name else {}),
        **connect_args.get("server_settings", {}),
    }
    connect_args["server_settings"] = server_settings
    return create_async_engine(resolved, connect_args=connect_args, **kwargs)


def migration_options(options: dict[str, Any]) -> dict[str, Any]:
    """``options`` (an engine's) for migrating at start-up: on PostgreSQL its statements
    have no time limit (upgrading a large database may take minutes); connecting is still
    bounded."""
    connect_args = dict(options.get("connect_args", {}))
    connect_args["command_timeout"] = None
    connect_args["server_settings"] = {
        **connect_args.get("server_settings", {}),
        "statement_timeout": "0",
    }
    return {**options, "connect_args": connect_args}


# ---------------------------------------------------------------- what is wrong, in words


def sqlite_folder(url: URL) -> None:
    """The SQLite file's folder exists (created when missing), or
    :class:`DatabaseUnavailable` says which folder could not be created and what to do."""
    database = url.database or ""
    if database.startswith("file:"):  # a URI (?mode=ro&uri=true): left to SQLite
        return
    folder = Path(database).expanduser().absolute().parent
    if folder.is_dir():
        return
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as err:
        raise DatabaseUnavailable(
            f"The folder {folder} of the SQLite database does not exist and cannot be created "
            f"({err.strerror or err}): create it, writable by the bot's user, or set "
            "DATABASE_URL to a file in a folder that exists."
        ) from err


def _chain(error: BaseException) -> list[BaseException]:
    """``error``, what it wraps (SQLAlchemy's ``orig``), and its causes, once each."""
    seen: list[BaseException] = []
    todo: list[BaseException | None] = [error]
    while todo:
        e = todo.pop(0)
        if e is None or any(e is s for s in seen):
            continue
        seen.append(e)
        orig = getattr(e, "orig", None)
        todo += [orig if isinstance(orig, BaseException) else None, e.__cause__, e.__context__]
    return seen


def _postgres_error(error: BaseException, name: str) -> bool:
    return any(type(e).__name__ == name for e in _chain(error))


def is_database_fault(error: BaseException) -> bool:
    """Whether ``error`` is the database being out of reach, too slow or read-only (as
    opposed to a refusal or a bug): the request may work again once it is back."""
    for e in _chain(error):
        if isinstance(e, DatabaseUnavailable):
            return True
        if isinstance(e, StorageError):
            continue  # another refusal wraps nothing of the kind unless its cause says so
        if isinstance(e, exc.TimeoutError):  # no free connection in the pool
            return True
        if isinstance(e, (OSError, TimeoutError, asyncio.TimeoutError)) and _raised_by_driver(e):
            return True  # a connection refused or cut, a statement timed out
        if isinstance(e, (exc.OperationalError, exc.InterfaceError)):
            return True
        if isinstance(e, exc.DBAPIError) and e.connection_invalidated:
            return True
        if isinstance(e, sqlite3.OperationalError):
            return True
        module = type(e).__module__
        if module.startswith("asyncpg") and any(
            c.__name__
            in (
                "PostgresConnectionError",
                "InterfaceError",
                "ConnectionDoesNotExistError",
                "QueryCanceledError",
                "ReadOnlySQLTransactionError",
                "CannotConnectNowError",
                "OperatorInterventionError",
            )
            for c in type(e).__mro__
        ):
            return True
    return False


DRIVER_CODE = ("asyncpg", "sqlalchemy", "aiosqlite", "sqlite3")


def _raised_by_driver(error: BaseException) -> bool:
    """Whether ``error`` (an OSError or a timeout, which a drawing or Discord may raise
    too) came out of the database drivers."""
    tb = error.__traceback__
    while tb is not None:
        parts = Path(tb.tb_frame.f_code.co_filename).parts
        if any(name in parts for name in DRIVER_CODE):
            return True
        tb = tb.tb_next
    return False


def _where(url: URL) -> str:
    return f"{url.host or 'localhost'}:{url.port or 5432}"


def _without_password(url: str) -> str:
    """``url`` as it may be shown, whether or not it can be read: a password left out —
    what stands between the user's ``:`` and the last ``@`` before the query, and a
    ``password=`` query value — and nothing else."""
    start = url.find("//") + 2 if "//" in url else 0
    query = url.find("?", start)
    end = len(url) if query < 0 else query
    at = url.rfind("@", start, end)
    colon = url.find(":", start, at) if at >= 0 else -1
    if colon >= 0:
        url = f"{url[: colon + 1]}…{url[at:]}"
    return re.sub(r"(?i)([?&]password=)[^&#]*", r"\1…", url)


def url_problem(url: str | None = None) -> str | None:
    """One line naming what is wrong with the database URL itself (read as
    :func:`~persistence.config.database_url` does), found before anything is connected to;
    ``None`` when it names a database to try. Its password is never echoed."""
    given = database_url(url)
    try:
        resolved = make_url(given)
    except (exc.ArgumentError, ValueError):  # ValueError: a port that is not a number
        return (
            f"DATABASE_URL is not a database URL: {_without_password(given)[:100]!r} (use "
            "sqlite+aiosqlite:///PATH or postgresql+asyncpg://USER:PASSWORD@HOST:PORT/DATABASE)."
        )
    if resolved.get_backend_name() == "sqlite" and resolved.database in (None, "", ":memory:"):
        return (
            "DATABASE_URL names an in-memory SQLite database, which every restart would lose: "
            "name a file, as sqlite+aiosqlite:///PATH (or leave it unset for ./stackbot.db)."
        )
    if resolved.port is not None and not 1 <= resolved.port <= 65535:
        return f"DATABASE_URL's port {resolved.port} is not a port number (1 to 65535)."
    return None


def database_problem(error: BaseException, url: str | None = None) -> str | None:
    """One line naming what keeps the database at ``url`` from being used, and the fix;
    ``None`` when ``error`` is not such a problem."""
    problem = url_problem(url)
    if problem is not None:
        return problem
    resolved = make_url(database_url(url))
    chain = _chain(error)
    for e in chain:
        if isinstance(e, DatabaseUnavailable):
            return str(e)
    if resolved.drivername not in ("sqlite+aiosqlite", "postgresql+asyncpg"):
        return (
            f"DATABASE_URL names a database or driver stackbot does not use "
            f"({resolved.drivername!r}): use sqlite+aiosqlite:///PATH (or a plain "
            "sqlite:///PATH) or postgresql+asyncpg://USER@HOST/DATABASE (or postgres://…)."
        )
    first = next((str(e) for e in chain if str(e).strip()), type(error).__name__)
    messages = " | ".join(str(e) for e in chain).lower()
    if resolved.get_backend_name() == "sqlite":
        known = is_database_fault(error) or "file is not a database" in messages
        return _sqlite_problem(resolved, messages, first) if known else None
    where = _where(resolved)
    if _postgres_error(error, "InvalidCatalogNameError"):
        return (
            f"PostgreSQL at {where} has no database {resolved.database!r}: create it "
            f"(createdb -h {resolved.host or 'localhost'} -p {resolved.port or 5432} "
            f"-U {resolved.username or 'postgres'} {resolved.database}), or fix the database "
            "name in DATABASE_URL."
        )
    if _postgres_error(error, "InvalidPasswordError") or _postgres_error(
        error, "InvalidAuthorizationSpecificationError"
    ):
        return (
            f"PostgreSQL at {where} refused the user {resolved.username!r}: fix the user and "
            "password in DATABASE_URL (or the server's pg_hba.conf)."
        )
    if "read-only" in messages or _postgres_error(error, "ReadOnlySQLTransactionError"):
        return (
            f"The PostgreSQL database {resolved.database!r} at {where} is read-only (a standby, "
            "or default_transaction_read_only is on): point DATABASE_URL at the primary, or "
            "make the database writable."
        )
    if _postgres_error(error, "InsufficientPrivilegeError"):
        return (
            f"The PostgreSQL user {resolved.username!r} may not create or change stackbot's "
            f"tables in {resolved.database!r}: grant it the rights (e.g. make it the "
            "database's owner)."
        )
    if any(isinstance(e, (OSError, TimeoutError)) for e in chain) or is_database_fault(error):
        reason = _unreachable(chain)
        return (
            f"Cannot reach PostgreSQL at {where} ({_short(reason)}): start it, or fix the host "
            "and port in DATABASE_URL."
        )
    return None


def _unreachable(chain: list[BaseException]) -> str:
    """Why a server was not reached, in a few words."""
    for e in chain:
        if isinstance(e, ConnectionRefusedError) or "connection refused" in str(e).lower():
            return "connection refused: nothing listens there"
        if isinstance(e, socket.gaierror):
            return "unknown host name"
        if isinstance(e, (TimeoutError, asyncio.TimeoutError)):
            return f"no answer within {CONNECT_SECONDS} s"
    for e in chain:
        if isinstance(e, OSError) and str(e):
            return e.strerror or str(e)
    return "it did not answer"


def _short(reason: str) -> str:
    line = reason.strip().splitlines()[0] if reason.strip() else reason
    return line if len(line) <= 120 else line[:119] + "…"


def _sqlite_problem(url: URL, messages: str, first: str) -> str:
    database = url.database or ""
    file = Path(database.removeprefix("file:").split("?")[0]).expanduser().absolute()
    folder = file.parent
    if database and file.is_dir():
        return (
            f"DATABASE_URL names the folder {file}, not a file: set it to a file in that "
            f"folder (e.g. sqlite+aiosqlite:///{file / 'stackbot.db'})."
        )
    if database and file.exists() and not file.is_file():
        return (
            f"DATABASE_URL names {file}, which is not a regular file (a device or a pipe): "
            "set it to a file such as stackbot.db."
        )
    if "file is not a database" in messages:
        return (
            f"The file {file} is not a SQLite database (or it is damaged): move it away, or "
            "set DATABASE_URL to another file."
        )
    if not folder.is_dir():
        return (
            f"The folder {folder} of the SQLite database does not exist: create it, or set "
            "DATABASE_URL to a file in a folder that exists."
        )
    if _read_only_mount(folder) and url.query.get("mode") != "ro":
        return (
            f"The folder {folder} of the SQLite database is on a read-only file system: "
            "mount it read-write (in Docker: a volume without :ro), or set DATABASE_URL to a "
            "file on a writable one."
        )
    if "readonly" in messages or "read-only" in messages or "read only" in messages:
        if url.query.get("mode") == "ro":
            return (
                f"The SQLite database {file} is opened read-only (mode=ro in DATABASE_URL): "
                "stackbot writes every move; drop mode=ro."
            )
        return (
            f"The SQLite database {file} is read-only: make the file and its folder {folder} "
            "writable by the user the bot runs as (with -wal and -shm files beside it)."
        )
    if not os.access(folder, os.W_OK | os.X_OK):
        return (
            f"The folder {folder} of the SQLite database is not writable by the user the bot "
            f"runs as (uid {os.getuid()}): make it writable (e.g. chown), or set DATABASE_URL "
            "to a file in a writable folder."
        )
    if file.exists() and not os.access(file, os.R_OK | os.W_OK):
        return (
            f"The SQLite database {file} is not readable and writable by the user the bot runs "
            f"as (uid {os.getuid()}): fix its owner or mode."
        )
    if "locked" in messages or "busy" in messages:
        return (
            f"The SQLite database {file} is locked by another program: stop it (only one bot "
            "process may use a SQLite file), then start again."
        )
    return f"Cannot open the SQLite database {file}: {_short(first)}"


def _read_only_mount(folder: Path) -> bool:
    """Whether ``folder`` is on a file system mounted read-only (no chown makes it
    writable)."""
    try:
        return bool(os.statvfs(folder).f_flag & os.ST_RDONLY)
    except (OSError, AttributeError):  # AttributeError: no statvfs (Windows)
        return False


async def check_writable(engine: AsyncEngine) -> None:
    """Raise (the driver's error) unless the database takes a write: a write that changes
    nothing, rolled back (a read-only file or server is found at start, not at the first
    move)."""
    async with engine.connect() as conn, conn.begin() as transaction:
        await conn.execute(text("UPDATE alembic_version SET version_num = version_num"))
        await transaction.rollback()
