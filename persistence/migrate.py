"""Versioned migrations (Alembic), applied automatically at start-up.

A database whose revision this code does not know (it is newer than the code), or one that
holds tables but no Alembic revision (it is not ours), is refused and left untouched.

A database already at :data:`HEAD` (every start but the first after an upgrade) is told so
by one query: Alembic and its scripts, a fifth of a second of a start, are loaded only to
check or upgrade another.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import TYPE_CHECKING

from sqlalchemy import Connection, inspect, text
from sqlalchemy.ext.asyncio import AsyncEngine

from persistence.errors import DatabaseRefused
from persistence.schema import metadata

if TYPE_CHECKING:
    from alembic.config import Config
    from alembic.script import ScriptDirectory

MIGRATIONS = Path(__file__).with_name("migrations")
# the newest migration's revision (a test holds it to the scripts' head)
HEAD = "0013"
# PostgreSQL: the advisory lock every start-up takes for its migration's transaction, so that
# processes starting together (``stackbot run --shards``) upgrade the schema one at a time
# (the second finds it done).
MIGRATION_LOCK = 0x537461636B6D67  # "Stackmg"
# One line per upgrade; Alembic's own INFO lines are left to the application's log set-up.
log = logging.getLogger(__name__)


def alembic_config() -> Config:
    """An Alembic configuration for this project's migration scripts."""
    from alembic.config import Config

    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS))
    return config


def script_directory() -> ScriptDirectory:
    from alembic.script import ScriptDirectory

    return ScriptDirectory.from_config(alembic_config())


def head_revision() -> str:
    head = script_directory().get_current_head()
    assert head is not None
    return head


def check_database(connection: Connection) -> str | None:
    """The database's revision; :class:`DatabaseRefused` if it is newer or not ours."""
    from alembic.runtime.migration import MigrationContext

    current = MigrationContext.configure(connection).get_current_revision()
    script = script_directory()
    if current is None:
        existing = set(inspect(connection).get_table_names()) - {"alembic_version"}
        if existing:
            names = ", ".join(sorted(existing)[:5])
            raise DatabaseRefused(
                f"This database already holds tables that are not stackbot's ({names}); "
                "point DATABASE_URL at an empty or stackbot database. Nothing was changed."
            )
        return None
    known = {rev.revision for rev in script.walk_revisions()}
    if current not in known:
        raise DatabaseRefused(
            f"This database is at schema revision {current!r}, which this version of stackbot "
            f"does not know (its newest is {script.get_current_head()!r}): it was written by a "
            "newer stackbot. Upgrade stackbot; nothing was changed."
        )
    return current


def at_head(connection: Connection) -> bool:
    """Whether the database is at :data:`HEAD` (its one Alembic revision), read in one
    query without Alembic."""
    if not inspect(connection).has_table("alembic_version"):
        return False
    rows = connection.execute(text("SELECT version_num FROM alembic_version")).all()
    return [tuple(row) for row in rows] == [(HEAD,)]


def _upgrade(connection: Connection) -> None:
    if at_head(connection):
        return
    from alembic.runtime.environment import EnvironmentContext

    current = check_database(connection)
    script = script_directory()
    if current == script.get_current_head():
        return
    config = alembic_config()

    def upgrade(rev: object, context: object) -> object:
        return script._upgrade_revs("head", rev)  # type: ignore[arg-type]

    with EnvironmentContext(config, script, fn=upgrade, destination_rev="head") as env:
        env.configure(connection=connection, target_metadata=metadata)
        with env.begin_transaction():
            env.run_migrations()
    log.info(
        "database schema upgraded from %s to %s",
        current or "an empty database",
        script.get_current_head(),
    )


async def upgrade_database(engine: AsyncEngine) -> None:
    """Bring the database to the newest schema (or refuse it, leaving it untouched)."""
    async with engine.begin() as conn:
        if conn.dialect.name == "postgresql":
            await conn.execute(text("SELECT pg_advisory_xact_lock(:key)"), {"key": MIGRATION_LOCK})
        await conn.run_sync(_upgrade)
