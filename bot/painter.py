"""Drawing table pictures off the event loop, in a worker process.

A picture costs 0.5–4 ms of CPU. Drawn on threads of the bot's own process, the drawing
and the event loop take turns at the interpreter lock (and so does a process pool's
management thread), and every move waits behind them. So the bot keeps one worker
process, ``python -m bot.painter``, and talks to it over its standard input and output
with asyncio's own pipes: the loop only writes a small pickled :class:`FieldPicture` and
reads the PNG back, and the drawing runs on the other core. Answers come back in the
order asked. If the worker dies, a new one is started; if none can be started, pictures
are drawn on the loop's thread pool (``Painter("thread")`` does that from the start:
the tests use it).
"""

from __future__ import annotations

import asyncio
import logging
import pickle
import struct
import sys
from collections import deque
from typing import Literal

from bot.image import FieldPicture, draw_field

log = logging.getLogger(__name__)
Mode = Literal["process", "thread"]
HEADER = struct.Struct(">I")  # each message: its length, then the bytes


class Painter:
    """Draws :class:`FieldPicture` values into PNG bytes, off the event loop."""

    def __init__(self, mode: Mode = "process") -> None:
        self.mode: Mode = mode
        self._worker: asyncio.subprocess.Process | None = None
        self._waiting: deque[asyncio.Future[bytes]] = deque()
        self._reader: asyncio.Task[None] | None = None
        self._starting: asyncio.Lock | None = None

    async def draw(self, picture: FieldPicture) -> bytes:
        if self.mode == "process":
            worker = await self._ready()
            if worker is not None and worker.stdin is not None:
                future: asyncio.Future[bytes] = asyncio.get_running_loop().create_future()
                data = pickle.dumps(picture, protocol=pickle.HIGHEST_PROTOCOL)
                self._waiting.append(future)
                worker.stdin.write(HEADER.pack(len(data)) + data)
                try:
                    return await future
                except (ConnectionError, asyncio.IncompleteReadError):
                    log.warning("the picture worker stopped; drawing this one on a thread")
        return await asyncio.get_running_loop().run_in_executor(None, draw_field, picture)

    async def _ready(self) -> asyncio.subprocess.Process | None:
        if self._worker is not None and self._worker.returncode is None:
            return self._worker
        if self._starting is None:
            self._starting = asyncio.Lock()
        async with self._starting:
            if self._worker is not None and self._worker.returncode is None:
                return self._worker
            try:
                self._worker = await asyncio.create_subprocess_exec(
                    sys.executable,
                    "-m",
                    "bot.painter",
                    stdin=asyncio.subprocess.PIPE,
                    stdout=asyncio.subprocess.PIPE,
                )
            except OSError as err:  # pragma: no cover - no processes on this machine
                log.warning("no picture worker (%s); drawing on threads", err)
                self.mode = "thread"
                return None
            self._reader = asyncio.get_running_loop().create_task(self._read(self._worker))
            return self._worker

    async def _read(self, worker: asyncio.subprocess.Process) -> None:
        assert worker.stdout is not None
        try:
            while True:
                (size,) = HEADER.unpack(await worker.stdout.readexactly(HEADER.size))
                png = await worker.stdout.readexactly(size)
                future = self._waiting.popleft()
                if not future.done():
                    future.set_result(png)
        except (asyncio.IncompleteReadError, ConnectionError, IndexError) as err:
            while self._waiting:
                future = self._waiting.popleft()
                if not future.done():
                    future.set_exception(ConnectionError(f"picture worker: {err!r}"))

    async def close(self) -> None:
        worker, self._worker = self._worker, None
        if worker is not None and worker.returncode is None:
            if worker.stdin is not None:
                worker.stdin.close()
            try:
                await asyncio.wait_for(worker.wait(), timeout=2)
            except TimeoutError:  # pragma: no cover - a stuck worker
                worker.kill()
        if self._reader is not None:
            self._reader.cancel()
            self._reader = None


def serve() -> None:
    """The worker: read pictures from standard input, write PNGs to standard output."""
    source, sink = sys.stdin.buffer, sys.stdout.buffer
    while True:
        head = source.read(HEADER.size)
        if len(head) < HEADER.size:
            return
        (size,) = HEADER.unpack(head)
        picture = pickle.loads(source.read(size))
        if not isinstance(picture, FieldPicture):
            return
        png = draw_field(picture)
        sink.write(HEADER.pack(len(png)) + png)
        sink.flush()


if __name__ == "__main__":
    serve()
