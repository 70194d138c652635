"""The storage API the bot uses, for every game: settings, tables and seats, moves, the
outbox, scores and stats.

:class:`Store` is a facade over one part per aggregate, each a small module:
:mod:`~persistence.settings_api` (house rules per game, timers, expiry, theme),
:mod:`~persistence.tables_api` (lobbies, seats, start and end),
:mod:`~persistence.moves_api` (the move log, loading and replaying games),
:mod:`~persistence.results_api` (score sheets, history, leaderboards, stats) and
:mod:`~persistence.outbox_api` (what writes owe their channels) and
:mod:`~persistence.leases` (which process owns which shard, when several share PostgreSQL).

Every method is async, validates its input before writing, and raises a specific
:mod:`persistence.errors` exception (writing nothing) when the input is wrong. Every
durable write goes through the one group-commit writer (:mod:`persistence.writer`), so
lobbies, seats, ends and settings share the moves' transactions instead of committing on
their own. A game is named as :mod:`engine.games` names it; storage holds its rules,
states, moves and figures as the game encodes them (:class:`engine.game.Game`).
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterable
from typing import Any

from persistence.core import SNAPSHOT_EVERY
from persistence.database import make_engine
from persistence.fence import shard_of
from persistence.leases import LeasesAPI
from persistence.migrate import upgrade_database
from persistence.moves_api import MovesAPI
from persistence.outbox_api import OutboxAPI
from persistence.results_api import ResultsAPI
from persistence.settings import MAX_TURN_SECONDS
from persistence.settings_api import SettingsAPI
from persistence.tables_api import TablesAPI

__all__ = ["MAX_TURN_SECONDS", "SNAPSHOT_EVERY", "Store"]


class Store(SettingsAPI, TablesAPI, MovesAPI, ResultsAPI, OutboxAPI, LeasesAPI):
    """The database of one bot. Open it with :meth:`open`; close it with :meth:`close`."""

    def forget_shards(self, shard_count: int, shards: Iterable[int]) -> None:
        """What this process kept in memory of the guilds of ``shards`` (the move writer's
        cursors, cached settings) is dropped: it gave them up or takes them over, and
        another process may have written them meanwhile."""
        chosen = set(shards)
        self.writer.forget_guilds(lambda guild: shard_of(guild, shard_count) in chosen)
        self.settings_cache.invalidate()

    @classmethod
    async def open(
        cls, url: str | None = None, *, application_name: str | None = None, **engine_options: Any
    ) -> Store:
        """Connect to ``url`` (default ``$DATABASE_URL`` or ``./stackbot.db``) and migrate;
        on PostgreSQL the sessions are named ``application_name`` when given.

        Raises :class:`~persistence.errors.DatabaseRefused` for a database that is newer
        than this code or not stackbot's; it is left untouched.
        """
        engine = make_engine(url, application_name=application_name, **engine_options)
        try:
            await upgrade_database(engine)
        except BaseException:
            await engine.dispose()
            raise
        return cls(engine)

    async def close(self) -> None:
        """Stop the writer (after the writes already queued) and close every connection."""
        await self.writer.stop()
        with contextlib.suppress(Exception):  # closing it frees the lock: nothing to keep
            await self.release_serving()
        await self.engine.dispose()
