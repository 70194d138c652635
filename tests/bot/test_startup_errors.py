"""Start-up with a database that cannot be used (issue 18, item 12): the real ``stackbot
run`` opens and migrates the database before it logs in to Discord, and each problem is
one line naming it and its fix, with exit status 1 and no traceback. Empty settings in
the environment or ``.env`` are taken as unset; a bad one is named."""

from __future__ import annotations

import asyncio
import contextlib
import os
import shutil
import socket
import subprocess
import sys
import uuid
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest
from sqlalchemy import text
from sqlalchemy.engine import make_url

from persistence import Store
from persistence.database import make_engine

ROOT = Path(__file__).resolve().parents[2]
TOKEN = "not.a.real-token"
LOGIN = "logging in using static token"  # discord.py's INFO line as the login starts


def stackbot_run(
    cwd: Path, database_url: str | None, *, prefix: list[str] | None = None, **env: str
) -> subprocess.CompletedProcess[str]:
    """``python -m bot.cli run`` (what the ``stackbot run`` script calls) with a fake
    token, at INFO, optionally started through ``prefix`` (e.g. ``unshare``)."""
    clean = {
        k: v
        for k, v in os.environ.items()
        if k not in ("DISCORD_TOKEN", "DATABASE_URL", "DEV_GUILD_ID", "HEALTH_PORT")
    }
    settings = {"DISCORD_TOKEN": TOKEN, "LOG_LEVEL": "INFO"}
    if database_url is not None:
        settings["DATABASE_URL"] = database_url
    return subprocess.run(
        [*(prefix or []), sys.executable, "-m", "bot.cli", "run"],
        cwd=cwd,
        env={**clean, "PYTHONPATH": str(ROOT), **settings, **env},
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def refused_in_one_line(proc: subprocess.CompletedProcess[str], *says: str) -> str:
    """The child stopped before logging in, with one ``stackbot:`` line that says each
    of ``says``; that line."""
    assert proc.returncode == 1, proc.stderr[-3000:]
    assert "Traceback" not in proc.stderr + proc.stdout, proc.stderr[-3000:]
    assert LOGIN not in proc.stderr, "Discord was tried before the database was checked"
    lines = [line for line in proc.stderr.splitlines() if line.startswith("stackbot")]
    assert len(lines) == 1, proc.stderr
    assert proc.stderr.strip().splitlines()[-1] == lines[0]
    for words in says:
        assert words in lines[0], lines[0]
    assert TOKEN not in proc.stderr
    return lines[0]


def sqlite(path: Path) -> str:
    return f"sqlite+aiosqlite:///{path}"


def migrated(db: Path) -> None:
    async def make() -> None:
        store = await Store.open(sqlite(db))
        await store.close()

    asyncio.run(make())


def read_only_mount(source: Path) -> list[str]:
    """A prefix that runs the child with ``source`` (a folder or a file) mounted read-only
    (root ignores file modes, so a read-only mount is what stops it writing); skipped where
    the machine does not allow a private mount namespace."""
    unshare = shutil.which("unshare")
    if unshare is None:
        pytest.skip("no unshare here")
    probe = subprocess.run(
        [unshare, "-m", "sh", "-c", f"mount --bind -o ro '{source}' '{source}'"],
        capture_output=True,
        check=False,
    )
    if probe.returncode != 0:
        pytest.skip(f"no private read-only mount here: {probe.stderr.decode()[:200]}")
    return [
        unshare,
        "-m",
        "sh",
        "-c",
        f"mount --bind -o ro '{source}' '{source}' && exec \"$@\"",
        "-",
    ]


# ---------------------------------------------------------------- SQLite


def test_a_sqlite_file_in_a_missing_folder_gets_its_folder_created(tmp_path: Path) -> None:
    # as .env.example's DATABASE_URL=sqlite+aiosqlite:////var/lib/stackbot/stackbot.db on a
    # machine where /var/lib/stackbot does not exist yet
    db = tmp_path / "var" / "lib" / "stackbot" / "stackbot.db"
    proc = stackbot_run(tmp_path, sqlite(db))
    assert "database schema upgraded" in proc.stderr, proc.stderr[-3000:]
    assert db.exists()
    assert "Traceback" not in proc.stderr
    # then it goes on to Discord (unreachable here, or refusing the fake token)
    assert LOGIN in proc.stderr
    assert proc.stderr.strip().splitlines()[-1].startswith("stackbot: ")


def test_a_sqlite_folder_that_cannot_be_created_is_named_with_the_fix(tmp_path: Path) -> None:
    blocker = tmp_path / "data"
    blocker.write_text("a file where the folder should be")
    line = refused_in_one_line(stackbot_run(tmp_path, sqlite(blocker / "stackbot.db")))
    assert line.startswith(f"stackbot: The folder {blocker} of the SQLite database does not exist")
    assert "create it" in line and "DATABASE_URL" in line


def test_a_sqlite_url_naming_a_folder_says_to_name_a_file_in_it(tmp_path: Path) -> None:
    """DATABASE_URL set to the data folder itself: SQLite said only 'unable to open
    database file'."""
    folder = tmp_path / "data"
    folder.mkdir()
    line = refused_in_one_line(stackbot_run(tmp_path, sqlite(folder)))
    assert line.startswith(f"stackbot: DATABASE_URL names the folder {folder}, not a file"), line
    assert str(folder / "stackbot.db") in line
    assert list(folder.iterdir()) == []


def test_a_sqlite_url_naming_a_device_says_it_is_no_file(tmp_path: Path) -> None:
    """DATABASE_URL set to /dev/null: SQLite said only 'disk I/O error'."""
    line = refused_in_one_line(stackbot_run(tmp_path, sqlite(Path("/dev/null"))))
    assert line.startswith("stackbot: DATABASE_URL names /dev/null, which is not a regular file")


def test_a_sqlite_folder_not_writable_is_named_with_the_fix(tmp_path: Path) -> None:
    folder = tmp_path / "data"
    folder.mkdir()
    prefix: list[str] = []
    if os.geteuid() == 0:
        prefix = read_only_mount(folder)
    else:
        folder.chmod(0o555)
    try:
        proc = stackbot_run(tmp_path, sqlite(folder / "stackbot.db"), prefix=prefix)
    finally:
        folder.chmod(0o755)
    if prefix:  # root: the folder on a read-only mount, said as such
        said = f"The folder {folder} of the SQLite database is on a read-only file system"
        refused_in_one_line(proc, said, "mount it read-write")
    else:
        said = f"The folder {folder} of the SQLite database is not writable"
        refused_in_one_line(proc, said, "make it writable")
    assert not (folder / "stackbot.db").exists()


def test_a_read_only_sqlite_database_is_one_line_not_a_storage_error_traceback(
    tmp_path: Path,
) -> None:
    db = tmp_path / "stackbot.db"
    migrated(db)  # an existing database at the newest schema: nothing to migrate
    prefix: list[str] = []
    if os.geteuid() == 0:
        prefix = read_only_mount(db)
    else:
        db.chmod(0o444)
    proc = stackbot_run(tmp_path, sqlite(db), prefix=prefix)
    line = refused_in_one_line(proc, f"The SQLite database {db} is read-only")
    assert "writable" in line and "StorageError" not in proc.stderr


@pytest.mark.parametrize("what", ["folder", "database"])
def test_a_sqlite_database_on_a_read_only_mount_says_so_not_chown(
    tmp_path: Path, what: str
) -> None:
    """A folder on a file system mounted read-only (a Docker volume mounted ``:ro``) was
    said to be "not writable by the user the bot runs as (uid 0): make it writable (e.g.
    chown)", which no chown fixes; the line now names the read-only file system."""
    folder = tmp_path / "data"
    folder.mkdir()
    db = folder / "stackbot.db"
    if what == "database":
        migrated(db)
    proc = stackbot_run(tmp_path, sqlite(db), prefix=read_only_mount(folder))
    said = f"The folder {folder} of the SQLite database is on a read-only file system"
    line = refused_in_one_line(proc, said, "DATABASE_URL")
    assert "chown" not in line


def test_a_sqlite_database_opened_read_only_by_its_url_is_named(tmp_path: Path) -> None:
    db = tmp_path / "stackbot.db"
    migrated(db)
    url = f"sqlite+aiosqlite:///file:{db}?mode=ro&uri=true"
    refused_in_one_line(stackbot_run(tmp_path, url), "read-only (mode=ro in DATABASE_URL)")


# ---------------------------------------------------------------- PostgreSQL


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_postgresql_not_listening_is_not_called_a_discord_problem(tmp_path: Path) -> None:
    port = free_port()
    url = f"postgresql+asyncpg://stackbot:secret@127.0.0.1:{port}/stackbot"
    line = refused_in_one_line(
        stackbot_run(tmp_path, url), f"Cannot reach PostgreSQL at 127.0.0.1:{port}"
    )
    assert "connection refused" in line and "start it" in line
    assert "Discord" not in line and "secret" not in line


@pytest.fixture
def postgres_url() -> str:
    url = os.environ.get("TEST_DATABASE_URL")
    if not url:
        pytest.skip("TEST_DATABASE_URL is not set")
    return url


def test_a_postgresql_database_that_does_not_exist_is_named_with_the_fix(
    tmp_path: Path, postgres_url: str
) -> None:
    name = f"stackbot_missing_{uuid.uuid4().hex[:10]}"
    url = make_url(postgres_url).set(database=name).render_as_string(hide_password=False)
    line = refused_in_one_line(stackbot_run(tmp_path, url), f"has no database '{name}'")
    assert "createdb" in line and "DATABASE_URL" in line


@contextlib.asynccontextmanager
async def database_of_its_own(postgres_url: str, *settings: str) -> AsyncIterator[str]:
    """The URL of a new PostgreSQL database on ``postgres_url``'s server, with these
    ``ALTER DATABASE … SET`` ``settings``; dropped afterwards."""
    name = f"stackbot_own_{uuid.uuid4().hex[:10]}"
    admin = make_engine(postgres_url, isolation_level="AUTOCOMMIT")
    try:
        async with admin.connect() as conn:
            # from template0, which nobody is connected to (template1 may be in use)
            await conn.execute(text(f'CREATE DATABASE "{name}" TEMPLATE template0'))
            for setting in settings:
                await conn.execute(text(f'ALTER DATABASE "{name}" SET {setting}'))
        yield make_url(postgres_url).set(database=name).render_as_string(hide_password=False)
    finally:
        async with admin.connect() as conn:
            await conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        await admin.dispose()


@pytest.fixture
async def read_only_postgres(postgres_url: str) -> AsyncIterator[str]:
    """A PostgreSQL database of its own whose sessions are read-only by default."""
    async with database_of_its_own(postgres_url, "default_transaction_read_only = on") as url:
        yield url


def test_a_read_only_postgresql_database_is_named_with_the_fix(
    tmp_path: Path, read_only_postgres: str
) -> None:
    line = refused_in_one_line(stackbot_run(tmp_path, read_only_postgres), "is read-only")
    assert "primary" in line


@pytest.fixture
async def postgres_of_its_own(postgres_url: str) -> AsyncIterator[str]:
    """A PostgreSQL database of its own (its serving lock nobody else's)."""
    async with database_of_its_own(postgres_url) as url:
        yield url


async def test_a_second_process_without_shards_is_refused_in_one_line(
    tmp_path: Path, postgres_of_its_own: str
) -> None:
    """A process without shards serves every table: while one serves a PostgreSQL
    database, a second started on it stops before logging in, and says what to do."""
    serving = await Store.open(postgres_of_its_own)
    try:
        await serving.hold_serving(sharded=False)
        proc = await asyncio.to_thread(stackbot_run, tmp_path, postgres_of_its_own)
        line = refused_in_one_line(proc, "Another stackbot process already serves this database")
        assert "--shard-count" in line
    finally:
        await serving.close()
    # once the first is gone, the next start gets past the database (to Discord's login)
    proc = await asyncio.to_thread(stackbot_run, tmp_path, postgres_of_its_own)
    assert "already serves" not in proc.stderr and LOGIN in proc.stderr, proc.stderr[-2000:]


# ---------------------------------------------------------------- settings


@pytest.fixture
def env_file(tmp_path: Path) -> Iterator[Path]:
    yield tmp_path / ".env"


@pytest.mark.parametrize("where", ["environment", ".env"])
def test_empty_dev_guild_id_and_health_port_are_unset(
    tmp_path: Path, env_file: Path, where: str
) -> None:
    db = tmp_path / "bot.db"
    if where == "environment":
        proc = stackbot_run(tmp_path, sqlite(db), DEV_GUILD_ID="", HEALTH_PORT="")
    else:
        env_file.write_text("DEV_GUILD_ID=\nHEALTH_PORT=\n")
        proc = stackbot_run(tmp_path, sqlite(db))
    assert "bad setting" not in proc.stderr, proc.stderr
    assert "database schema upgraded" in proc.stderr and LOGIN in proc.stderr


def test_a_bad_setting_is_named(tmp_path: Path) -> None:
    proc = stackbot_run(tmp_path, sqlite(tmp_path / "bot.db"), DEV_GUILD_ID="my server")
    assert proc.returncode == 2
    assert proc.stderr.strip() == (
        "stackbot: bad setting DEV_GUILD_ID: DEV_GUILD_ID must be a Discord id, a number such "
        "as 1234567890123456789"
    )


@pytest.mark.parametrize(
    "url",
    ["127.0.0.1:6379", "http://127.0.0.1:6379/0", "redis://:s3cret@h:port/0", "redis://h/db7"],
)
def test_a_redis_url_that_is_not_one_is_named_without_its_password(
    tmp_path: Path, url: str
) -> None:
    """A bad ``REDIS_URL`` is refused as every bad setting is, by name, exit status 2 (it
    was a traceback of redis-py's, after the database was opened; a database number it
    cannot read was taken as db 0), and its password is not echoed."""
    proc = stackbot_run(tmp_path, sqlite(tmp_path / "bot.db"), REDIS_URL=url)
    assert proc.returncode == 2, proc.stderr[-2000:]
    said = "stackbot: bad setting REDIS_URL: REDIS_URL must be a Redis URL such as "
    assert proc.stderr.startswith(said), proc.stderr[-2000:]
    assert "redis://host:6379/0" in proc.stderr and "s3cret" not in proc.stderr
    assert len(proc.stderr.strip().splitlines()) == 1


@pytest.mark.parametrize("name", ["ノード1", "bot\tone"])
def test_a_node_name_postgresql_cannot_name_a_session_by_is_refused(
    tmp_path: Path, name: str
) -> None:
    """The node id names the process's PostgreSQL sessions, so that a take-over can end a
    paused holder's; PostgreSQL keeps only printable ASCII in a session's name (``ノード1``
    became ``?????????1``, which matches no node id: its sessions could not be found). Such
    a ``NODE_NAME`` is refused by name, exit status 2."""
    proc = stackbot_run(tmp_path, sqlite(tmp_path / "bot.db"), NODE_NAME=name)
    assert proc.returncode == 2, proc.stderr[-2000:]
    assert proc.stderr.startswith("stackbot: bad setting NODE_NAME: NODE_NAME must be "), (
        proc.stderr[-2000:]
    )


def test_a_database_url_of_another_kind_is_named_in_one_line(tmp_path: Path) -> None:
    """A URL of a database or driver stackbot does not use is one line naming what to use
    (it was SQLAlchemy's NoSuchModuleError traceback)."""
    refused_in_one_line(stackbot_run(tmp_path, "mysql://root@127.0.0.1/db"), "'mysql'")


def test_a_file_that_is_not_a_database_is_named_with_the_fix(tmp_path: Path) -> None:
    (tmp_path / "notes.db").write_text("garbage, not a database\n" * 100)
    refused_in_one_line(
        stackbot_run(tmp_path, sqlite(tmp_path / "notes.db")), "is not a SQLite database"
    )


def test_the_short_url_forms_name_the_drivers_stackbot_uses() -> None:
    """``postgres://`` (as many hosts hand it out), ``postgresql://`` and ``sqlite://`` are
    read as the async drivers, not refused with an import error."""
    from persistence.config import database_url

    assert database_url("postgres://u@h/db") == "postgresql+asyncpg://u@h/db"
    assert database_url("postgresql://u@h:5/db") == "postgresql+asyncpg://u@h:5/db"
    assert database_url("sqlite:///x.db") == "sqlite+aiosqlite:///x.db"
    assert database_url("sqlite+aiosqlite:///x.db") == "sqlite+aiosqlite:///x.db"


def test_an_empty_log_level_is_the_default(tmp_path: Path) -> None:
    """``LOG_LEVEL=`` is unset, as every setting left empty is (it was refused)."""
    from bot.config import Settings

    assert Settings(_env_file=None, LOG_LEVEL="").log_level == "INFO"  # type: ignore[call-arg]


@pytest.mark.parametrize(
    ("name", "default"),
    [
        ("WEB_HOST", "127.0.0.1"),
        ("HEALTH_HOST", "0.0.0.0"),
        ("CLUSTER_PREFIX", "stackbot"),
        ("DISCORD_API_BASE", "https://discord.com/api/v10"),
    ],
)
@pytest.mark.parametrize("empty", ["", "  "])
def test_an_empty_address_or_prefix_is_its_default(
    monkeypatch: pytest.MonkeyPatch, name: str, default: str, empty: str
) -> None:
    """``WEB_HOST=`` is unset, as every setting left empty is: the web pages stay on
    127.0.0.1 (they were served on every interface, IPv4 and IPv6, as aiohttp reads an
    empty host); ``CLUSTER_PREFIX=`` is ``stackbot`` (it was refused), an empty
    ``HEALTH_HOST`` or ``DISCORD_API_BASE`` their defaults."""
    from bot.config import Settings

    monkeypatch.setenv(name, empty)
    settings = Settings(_env_file=None)  # type: ignore[call-arg]
    assert getattr(settings, name.lower()) == default


@pytest.mark.parametrize(
    ("url", "says"),
    [
        ("sqlite+aiosqlite:///:memory:", "in-memory"),
        ("sqlite://", "in-memory"),
        ("postgresql+asyncpg://u:s3cret@127.0.0.1:99999/db", "port 99999"),
        ("postgresql+asyncpg://u:s3cret@127.0.0.1:0/db", "port 0"),
        ("postgresql+asyncpg://u:s3cret@127.0.0.1:port/db", "not a database URL"),
        ("postgresql+asyncpg//u:s3cret@127.0.0.1/db", "not a database URL"),
    ],
)
def test_a_database_url_that_cannot_name_a_database_is_one_line_without_its_password(
    tmp_path: Path, url: str, says: str
) -> None:
    """An in-memory SQLite database (a restart would lose everything) and a port that is
    none (99999, ``port``) were tracebacks (ValueError, OverflowError); port 0 was taken
    as 5432. Each is one line, exit status 1, before anything is connected to, and a
    password in the URL is not echoed."""
    line = refused_in_one_line(stackbot_run(tmp_path, url), says, "DATABASE_URL")
    assert "s3cret" not in line


def test_a_blank_database_url_is_the_default_file(tmp_path: Path) -> None:
    """``DATABASE_URL=`` with a space is unset, as every setting left empty is (it was
    refused as 'not a database URL')."""
    proc = stackbot_run(tmp_path, " ")
    assert "database schema upgraded" in proc.stderr and LOGIN in proc.stderr, proc.stderr
    assert (tmp_path / "stackbot.db").exists()
