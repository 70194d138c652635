"""The host's background steps: each runs on its own, its error logged (never lost, never
fatal to the others), and all of them awaited or cancelled when the process stops."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Coroutine, Iterator
from typing import Any

log = logging.getLogger(__name__)


class Tasks:
    """The background steps under way (a table edit, a delivery, a clock's event...)."""

    def __init__(self) -> None:
        self._running: set[asyncio.Task[Any]] = set()

    def spawn(self, coro: Coroutine[Any, Any, Any], name: str = "") -> asyncio.Task[Any]:
        """Run ``coro`` in the background; an error is logged, never lost or fatal."""
        task = asyncio.get_running_loop().create_task(_logged(coro, name))
        self.keep(task)
        # a task cancelled before it ran (a clock replaced at once) never awaited ``coro``
        task.add_done_callback(lambda _: coro.close())
        return task

    def keep(self, task: asyncio.Task[Any]) -> None:
        """Track a task made elsewhere (awaited at the stop like the others)."""
        self._running.add(task)
        task.add_done_callback(self._running.discard)

    def __iter__(self) -> Iterator[asyncio.Task[Any]]:
        return iter(list(self._running))

    def busy(self) -> bool:
        """Whether any step is still under way."""
        return any(not t.done() for t in self._running)

    async def drain(self, timeout: float) -> None:
        """Wait up to ``timeout`` seconds for the steps under way, then cancel the rest."""
        pending = [t for t in self._running if not t.done()]
        if pending:
            await asyncio.wait(pending, timeout=timeout)
        for task in list(self._running):
            task.cancel()


async def _logged(coro: Coroutine[Any, Any, Any], name: str) -> Any:
    try:
        return await coro
    except asyncio.CancelledError:
        raise
    except Exception:
        log.exception("background step failed: %s", name or coro)
        return None
