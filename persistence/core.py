"""What every part of the :class:`~persistence.store.Store` shares: the database engine,
the one group-commit writer every durable write goes through, and the settings cache."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Concatenate, ParamSpec, TypeVar

from sqlalchemy.ext.asyncio import AsyncEngine

from persistence.settings import SettingsCache
from persistence.writer import MoveWriter, Operation, WriteContext

SNAPSHOT_EVERY = 16  # moves between two snapshots of a table's state (at most)
P = ParamSpec("P")
T = TypeVar("T")


class StoreCore:
    """The state the store's parts (settings, tables, moves, results, outbox) share."""

    def __init__(self, engine: AsyncEngine, *, snapshot_every: int = SNAPSHOT_EVERY) -> None:
        self.engine = engine
        self.snapshot_every = snapshot_every
        self.writer = MoveWriter(engine)
        self.settings_cache = SettingsCache()


def bind(
    operation: Callable[Concatenate[WriteContext, P], Awaitable[T]],
    *args: P.args,
    **kwargs: P.kwargs,
) -> Operation[T]:
    """``operation`` with its arguments: a function of the write context alone."""

    def bound(ctx: WriteContext) -> Awaitable[T]:
        return operation(ctx, *args, **kwargs)

    return bound
