"""Start-up work queued behind live requests: bringing channels up to date after a restart
(stale table messages re-rendered, owed pings and outbox delivered), the recent turns
recalled, the clocks armed. A few workers take the steps one at a time, in the order they
were queued, giving the loop back between steps, so that the first interactions are served
at once and not after all of it."""

from __future__ import annotations

import asyncio
import logging
import time
from collections import deque
from collections.abc import Callable, Coroutine
from typing import Any

from host.tasks import Tasks

log = logging.getLogger(__name__)
RECOVERY_WORKERS = 2  # recovery steps under way at once
SLICE = 0.005  # seconds of recovery work between two turns given to the live requests

Step = Callable[[], Coroutine[Any, Any, Any]]


class Recovery:
    """The queue of start-up steps, and its workers."""

    def __init__(self, tasks: Tasks, *, workers: int = RECOVERY_WORKERS) -> None:
        self.tasks = tasks
        self.workers = workers
        self._queue: deque[tuple[Step, str]] = deque()
        self._running = 0
        self._idle = asyncio.Event()
        self._idle.set()

    def put(self, step: Step, name: str = "recovery step") -> None:
        """Queue ``step`` (called when its turn comes)."""
        self.put_all([step], name)

    def put_all(self, steps: list[Step], name: str = "recovery step") -> None:
        """Queue ``steps``, in order."""
        self._queue.extend((step, name) for step in steps)
        if not self._queue:
            return
        self._idle.clear()
        while self._running < self.workers:
            self._running += 1
            self.tasks.spawn(self._work(), "recovery")

    def __len__(self) -> int:
        return len(self._queue)

    async def _work(self) -> None:
        try:
            while self._queue:
                step, name = self._queue.popleft()
                try:
                    await step()
                except asyncio.CancelledError:
                    raise
                except Exception:
                    log.exception("recovery step failed: %s", name)
                await asyncio.sleep(0)  # live requests first
        finally:
            self._running -= 1
            if self._running == 0 and not self._queue:
                self._idle.set()

    async def wait(self) -> None:
        """Until every queued step is done."""
        await self._idle.wait()


class Slices:
    """Long recovery work cut into slices of ``SLICE`` seconds, the loop given back
    between two (the live requests are served in between)."""

    def __init__(self, seconds: float = SLICE) -> None:
        self.seconds = seconds
        self._since = time.perf_counter()

    async def tick(self) -> None:
        """Give the loop back if this slice is used up."""
        if time.perf_counter() - self._since >= self.seconds:
            await asyncio.sleep(0)
            self._since = time.perf_counter()
