"""Where the database is: ``DATABASE_URL``, or the SQLite file ``stackbot.db``."""

from __future__ import annotations

import os
from pathlib import Path

DEFAULT_FILE = "stackbot.db"


# the forms hosts and tutorials hand out, and the async drivers stackbot uses for them
SHORT_SCHEMES = {
    "postgres://": "postgresql+asyncpg://",
    "postgresql://": "postgresql+asyncpg://",
    "sqlite://": "sqlite+aiosqlite://",
}


def database_url(url: str | None = None) -> str:
    """The SQLAlchemy URL to use: ``url``, else ``$DATABASE_URL``, else ``./stackbot.db``
    (``postgres://…``, ``postgresql://…`` and ``sqlite://…`` name the async drivers)."""
    chosen = (url or os.environ.get("DATABASE_URL") or "").strip()  # blank: unset
    if chosen:
        for short, full in SHORT_SCHEMES.items():
            if chosen.startswith(short):
                return full + chosen[len(short) :]
        return chosen
    return f"sqlite+aiosqlite:///{Path(DEFAULT_FILE).resolve()}"
