"""Storage of tables, moves, scores and settings: SQLAlchemy Core (async) on SQLite by
default, PostgreSQL for servers that outgrow one process. Imports the engine, never Discord.
"""

from persistence.errors import (
    AlreadySeated,
    DatabaseRefused,
    InvalidSettings,
    LeaseLost,
    NotSeated,
    StaleVersion,
    StorageError,
    TableExists,
    TableFull,
    TableNotFound,
    WrongTableStatus,
)
from persistence.store import Store

__all__ = [
    "AlreadySeated",
    "DatabaseRefused",
    "InvalidSettings",
    "LeaseLost",
    "NotSeated",
    "StaleVersion",
    "StorageError",
    "Store",
    "TableExists",
    "TableFull",
    "TableNotFound",
    "WrongTableStatus",
]
