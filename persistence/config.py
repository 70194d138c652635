"""Where the database is: ``DATABASE_URL``, or the SQLite file ``stackbot.db``."""

from __future__ import annotations

import os
from pathlib import Path

DEFAULT_FILE = "stackbot.db"


def database_url(url: str | None = None) -> str:
    """The SQLAlchemy URL to use: ``url``, else ``$DATABASE_URL``, else ``./stackbot.db``."""
    chosen = url or os.environ.get("DATABASE_URL")
    if chosen:
        return chosen
    return f"sqlite+aiosqlite:///{Path(DEFAULT_FILE).resolve()}"
