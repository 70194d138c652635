"""Adding a finished game to a player's stats, as one upsert on SQLite and PostgreSQL."""

from __future__ import annotations

from typing import Any

from sqlalchemy import Table, func
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.ext.asyncio import AsyncConnection


async def upsert_stats(
    conn: AsyncConnection, table: Table, guild_id: int, row: dict[str, Any]
) -> None:
    """Add one game (``row``: user_id, name, win, points, best, captures) to the stats."""
    values = {
        "guild_id": guild_id,
        "user_id": row["user_id"],
        "name": row["name"],
        "games": 1,
        "wins": 1 if row["win"] else 0,
        "points": row["points"],
        "best_round": row["best"],
        "captures": row["captures"],
    }
    dialect = sqlite if conn.dialect.name == "sqlite" else postgresql
    stmt = dialect.insert(table).values(**values)
    excluded = stmt.excluded
    stmt = stmt.on_conflict_do_update(
        index_elements=[table.c.guild_id, table.c.user_id],
        set_={
            "name": excluded.name,
            "games": table.c.games + excluded.games,
            "wins": table.c.wins + excluded.wins,
            "points": table.c.points + excluded.points,
            "best_round": func.max(table.c.best_round, excluded.best_round)
            if conn.dialect.name == "sqlite"
            else func.greatest(table.c.best_round, excluded.best_round),
            "captures": table.c.captures + excluded.captures,
        },
    )
    await conn.execute(stmt)
