"""Errors of the storage layer: each names what was wrong; none leaves a partial write."""

from __future__ import annotations


class StorageError(Exception):
    """Base class of every storage error."""


class DatabaseRefused(StorageError):
    """The database is newer than this code, or is not a stackbot database; left untouched."""


class InvalidSettings(StorageError, ValueError):
    """House rules or timer settings that do not validate."""


class TableNotFound(StorageError, LookupError):
    """No such table, or no active table in that channel."""


class TableExists(StorageError):
    """The channel already has an active table."""

    def __init__(self, channel_id: int) -> None:
        super().__init__(f"Channel {channel_id} already has an active table.")
        self.channel_id = channel_id


class WrongTableStatus(StorageError):
    """The table is not in the state the operation needs (e.g. finished, or not started)."""

    def __init__(self, table_id: int, status: str, needed: str) -> None:
        super().__init__(f"Table {table_id} is {status}; this needs a table that is {needed}.")
        self.table_id = table_id
        self.status = status


class StaleVersion(StorageError):
    """A move was made against an older state of the table; it was not stored."""

    def __init__(self, table_id: int, expected: int, actual: int) -> None:
        super().__init__(
            f"Table {table_id} is at version {actual}, not {expected}: the move is stale."
        )
        self.table_id = table_id
        self.expected = expected
        self.actual = actual


class AlreadySeated(StorageError):
    """The player is already at the table."""


class NotSeated(StorageError, LookupError):
    """The player is not at the table."""


class TableFull(StorageError):
    """The table has no free seat (8 players at most)."""


class LeaseLost(StorageError):
    """This process no longer holds the shard lease of what it tried to write (another
    process took the shard over, or the lease expired): nothing was written."""

    def __init__(self, shards: list[int]) -> None:
        names = ", ".join(str(s) for s in shards)
        super().__init__(f"This process no longer holds shard {names}; nothing was written.")
        self.shards = shards


class ShardCountMismatch(DatabaseRefused):
    """Live shard leases were claimed under another shard count."""

    def __init__(self, running: int, asked: int, owner: str) -> None:
        super().__init__(
            f"Processes already run with --shard-count {running} on this database (e.g. "
            f"{owner}), not {asked}: stop them all before changing the shard count."
        )
        self.running = running
        self.asked = asked


class ClusterRunning(DatabaseRefused):
    """A process without shards was started on a database that processes with shards
    (``--shard-count``) serve: it would serve their tables beside them, unfenced."""

    def __init__(self, running: int, owner: str) -> None:
        super().__init__(
            f"Processes with shards already serve this database (--shard-count {running}, "
            f"e.g. {owner}): start this one with --shard-count {running} (and its --shards), "
            "or stop them all first; a process without shards would serve their tables "
            "beside them."
        )
        self.running = running


class AlreadyServed(DatabaseRefused):
    """Another process serves this PostgreSQL database in a way this one cannot serve it
    beside: a process without shards serves every table, so it serves alone."""

    def __init__(self, *, sharded: bool, holder: str | None = None) -> None:
        if sharded:
            why = (
                "A stackbot process without shards already serves this database: stop it "
                "first (then start every process with --shard-count and its --shards); "
                "processes with shards would serve its tables beside it."
            )
        else:
            why = (
                "Another stackbot process already serves this database: a process without "
                "shards serves every table, so it must be the only one. Stop the other "
                "process first, or start every process with --shard-count and its --shards."
            )
        if holder is not None:
            why += f" It is held by {holder}."
        super().__init__(why)
        self.sharded = sharded
        self.holder = holder


class DatabaseUnavailable(StorageError):
    """The database could not be reached, did not answer in time, or cannot be written
    (a connection refused or cut, a stall, a read-only file): nothing was written, and
    the same request may work once it is back. Its message names the problem."""
