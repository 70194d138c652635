"""What a file offered to keep one place's games is (``stackbot play --save FILE``): read
with the standard library's SQLite, read-only, so that nothing is written to a file that
is not such a store, nor to another place's (the bot's own database), nor beside it."""

from __future__ import annotations

import contextlib
import json
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any, Literal

from sqlalchemy import exc

from persistence.errors import DatabaseUnavailable
from persistence.schema import tables

FileKind = Literal["new", "ours", "not_a_store", "other_places", "damaged"]

# how every SQLite database file begins
SQLITE_HEADER = b"SQLite format 3\x00"


def file_kind(path: Path, guild_id: int) -> FileKind:
    """``new``: no file, or an empty one (a store may be made there); ``ours``: a stackbot
    store whose tables are all of ``guild_id`` (the one place that keeps its games there);
    ``not_a_store``: anything else than a stackbot store; ``other_places``: a stackbot
    store that holds other places' tables (the bot's database); ``damaged``: a SQLite
    file that cannot be read whole (a page overwritten, a copy cut short)."""
    if not path.is_file() or path.stat().st_size == 0:
        return "new"
    # With no write-ahead log beside it (none is being written), the file is read as it
    # is (immutable): SQLite then makes no -wal and -shm files beside it, nor needs to
    # (a read-only folder). With one, the log is read too (a game left by a killed
    # process is in it).
    wal = path.with_name(path.name + "-wal")
    uri = f"{path.resolve().as_uri()}?mode=ro" + ("" if wal.exists() else "&immutable=1")
    try:
        with contextlib.closing(sqlite3.connect(uri, uri=True)) as db:
            names = {
                row[0] for row in db.execute("SELECT name FROM sqlite_master WHERE type = 'table'")
            }
            if not {"alembic_version", tables.name} <= names:
                return "not_a_store"
            if db.execute("PRAGMA quick_check(1)").fetchone() != ("ok",):
                return "damaged"
            others = db.execute(
                f"SELECT 1 FROM {tables.name} WHERE guild_id <> ? LIMIT 1", (guild_id,)
            ).fetchone()
    except sqlite3.OperationalError:  # not opened (a file it cannot read, a lock)
        return "not_a_store"
    except sqlite3.DatabaseError:  # malformed: a SQLite file damaged, or no SQLite file
        return "damaged" if _is_sqlite(path) else "not_a_store"
    except sqlite3.Error:
        return "not_a_store"
    return "ours" if others is None else "other_places"


def _is_sqlite(path: Path) -> bool:
    with contextlib.suppress(OSError), path.open("rb") as file:
        return file.read(len(SQLITE_HEADER)) == SQLITE_HEADER
    return False


def store_failed(error: BaseException) -> bool:
    """Whether ``error`` (or what caused it) is the file under a store failing: SQLite's
    own error (a file damaged or cut short while in use, no longer writable, a full disk)
    or storage finding the database out of reach; not a refusal, nor a bug of the code."""
    seen: set[int] = set()
    current: BaseException | None = error
    while current is not None and id(current) not in seen:
        seen.add(id(current))
        if isinstance(current, (sqlite3.Error, exc.DBAPIError, DatabaseUnavailable)):
            return True
        current = current.__cause__ or current.__context__
    return False


# the random source of each game a save keeps, as it stood at its table's version: rows of
# the save file's own (no store's table: the host knows nothing of them), one a table.
DRAWS_TABLE = "terminal_table_draws"
DRAWS_SCHEMA = (
    f"CREATE TABLE IF NOT EXISTS {DRAWS_TABLE} (table_id INTEGER PRIMARY KEY, "
    "version INTEGER NOT NULL, state TEXT NOT NULL)"
)
# what a connection of the playing process gives the trigger: the state staged for a
# table's step (JSON text; NULL: none)
DRAWS_STAGED = "stackbot_staged_draws"
DRAWS_TRIGGER = f"""
CREATE TEMP TRIGGER IF NOT EXISTS stackbot_keep_draws AFTER UPDATE OF version ON main.{tables.name}
BEGIN
    INSERT OR REPLACE INTO {DRAWS_TABLE} (table_id, version, state)
    SELECT NEW.id, NEW.version, staged FROM (SELECT {DRAWS_STAGED}(NEW.id) AS staged)
    WHERE staged IS NOT NULL;
END
"""


def keep_staged_draws(connection: Any, staged: Callable[[int], str | None]) -> None:
    """Have the SQLite ``connection`` (the driver's, as it is opened: a store's own) keep
    with every statement that moves a table's version, in the same transaction, the state
    ``staged(table_id)`` gives (``random.Random.getstate()`` as JSON; ``None``: nothing):
    a step of moves is then in the file with its draws, or neither is. The trigger and
    function are the connection's alone (TEMP): nothing of them is written in the file,
    which any stackbot still reads as before."""
    connection.create_function(DRAWS_STAGED, 1, staged)
    cursor = connection.cursor()
    cursor.execute(DRAWS_TRIGGER)
    cursor.close()


# whether each game a save keeps was seeded (``stackbot play --seed``: its thinking AIs
# search under node budgets, not on the clock), one row a table, written as the table is
# opened, before its game starts: a game in play has its row, unless an earlier stackbot
# (which kept none) saved it. Rows of the save file's own, as the draws'.
SEEDED_TABLE = "terminal_table_seeded"
SEEDED_SCHEMA = (
    f"CREATE TABLE IF NOT EXISTS {SEEDED_TABLE} (table_id INTEGER PRIMARY KEY, "
    "seeded INTEGER NOT NULL)"
)
SEEDED_KEEP = f"INSERT OR REPLACE INTO {SEEDED_TABLE} (table_id, seeded) VALUES (?, ?)"


def kept_seeded(path: Path, table_id: int) -> bool | None:
    """Whether the game of the table ``table_id`` that ``path`` keeps was seeded;
    ``None``: the save does not say (an earlier stackbot's). Raises ``ValueError`` for a
    row no stackbot wrote (the file damaged)."""
    with contextlib.closing(sqlite3.connect(path, timeout=30)) as db:
        known = db.execute(
            "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?", (SEEDED_TABLE,)
        ).fetchone()
        if known is None:
            return None
        row = db.execute(
            f"SELECT seeded FROM {SEEDED_TABLE} WHERE table_id = ?", (table_id,)
        ).fetchone()
    if row is None:
        return None
    if row[0] not in (0, 1):
        raise ValueError(f"seeded is {row[0]!r}")
    return bool(row[0])


def kept_draws(path: Path, table_id: int) -> tuple[int, Any] | None:
    """What the step trigger (:func:`keep_staged_draws`) kept in ``path`` for the table
    ``table_id`` (the version, and the random source's state as JSON gives it back: lists
    for tuples); ``None``: nothing (a save of an earlier stackbot)."""
    with contextlib.closing(sqlite3.connect(path, timeout=30)) as db:
        known = db.execute(
            "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?", (DRAWS_TABLE,)
        ).fetchone()
        if known is None:
            return None
        row = db.execute(
            f"SELECT version, state FROM {DRAWS_TABLE} WHERE table_id = ?", (table_id,)
        ).fetchone()
    return None if row is None else (int(row[0]), json.loads(row[1]))


def stored_version(path: Path, table_id: int) -> int | None:
    """The version the store ``path`` holds of its table ``table_id`` (``None``: none)."""
    with contextlib.closing(sqlite3.connect(path, timeout=30)) as db:
        row = db.execute(f"SELECT version FROM {tables.name} WHERE id = ?", (table_id,)).fetchone()
    return None if row is None else int(row[0])
