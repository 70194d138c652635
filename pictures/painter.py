"""Drawing pictures off the event loop, in a worker process, for every game: a job is a
:class:`DrawJob` — a picture's name in the registry :mod:`pictures.games` (a game's name,
or ``"chart"``) and its picklable arguments — so any game's picture runs through the same
worker, which imports neither Discord nor the host. A picture's value that names its
drawing (:class:`Picture`: Stack's :class:`~pictures.stack.FieldPicture`, the charts'
:class:`~pictures.charts.GameChart` and :class:`~pictures.charts.StatsChart`…) may be
given as it is: it becomes the job of that drawing. Each drawing's module is imported on
its first job (matplotlib with the first chart, so the first table picture does not wait
for it).

A picture costs 0.5–4 ms of CPU. Drawn on threads of the bot's own process, the drawing
and the event loop take turns at the interpreter lock (and so does a process pool's
management thread), and every move waits behind them. So the bot keeps one worker
process, ``python -m pictures.painter``, and talks to it over its standard input and output
with asyncio's own pipes: the loop only writes a small pickled job and reads the PNG back, and the drawing runs on the other core. Answers come back in the
order asked. If the worker dies, a new one is started; if none can be started, pictures
are drawn on the loop's thread pool (``Painter("thread")`` does that from the start:
the tests use it). A job the worker fails to draw is answered with an empty message and
drawn again on a thread (which raises its error to the caller); the worker lives on.
Once it has been idle for :data:`WARM_AFTER` seconds, the worker loads matplotlib and
its fonts, so that the first chart costs only its drawing.

The bot starts the worker at start-up (:meth:`Painter.start`) and warms it with a small
picture of each game (the drawing modules imported, the fonts loaded), in the background;
until the worker has answered those, and while a worker that died is replaced and warmed
again, pictures are drawn on threads: no picture ever waits on a cold worker.
"""

from __future__ import annotations

import asyncio
import gc
import logging
import os
import pickle
import select
import struct
import sys
import traceback
from collections import deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, Literal, Protocol

from pictures import fonts
from pictures.games import CHART, drawing

log = logging.getLogger(__name__)
Mode = Literal["process", "thread"]
HEADER = struct.Struct(">I")  # each message: its length, then the bytes
WARM_AFTER = 1.0  # seconds of quiet before the worker loads matplotlib


@dataclass(frozen=True, slots=True)
class DrawJob:
    """A picture to draw: ``picture`` (a name of :data:`pictures.games.DRAWINGS`: a game's
    name, or ``"chart"``) drawn from ``args``. Equal jobs draw equal pictures (the table
    message caches by it), so ``args`` hold what the picture shows."""

    picture: str
    args: tuple[Any, ...] = ()
    chart: bool = False  # a matplotlib chart: drawn with the garbage collector paused

    def resolve(self) -> Callable[..., bytes]:
        """The drawing function (:exc:`~pictures.games.UnknownPicture` for a name that is
        not registered)."""
        return drawing(self.picture)


class Picture(Protocol):
    """A picture's value that names its drawing (:class:`~pictures.stack.FieldPicture`,
    :class:`~pictures.charts.GameChart`…): it may be given to the painter as it is."""

    @property
    def PICTURE(self) -> str:  # a name of pictures.games.DRAWINGS (a class attribute)
        ...


Job = DrawJob | Picture


def as_job(job: Job) -> DrawJob:
    """Any job as a :class:`DrawJob` (a picture's value as the job of its drawing)."""
    if isinstance(job, DrawJob):
        return job
    name = getattr(type(job), "PICTURE", None)
    if not isinstance(name, str):
        raise TypeError(f"nothing to draw in {job!r}")
    return DrawJob(name, (job,), chart=name == CHART)


class DrawFailed(Exception):
    """The worker could not draw a job (its error is in the worker's standard error)."""


class Painter:
    """Draws jobs (table pictures and charts) into PNG bytes, off the event loop."""

    def __init__(self, mode: Mode = "process") -> None:
        self.mode: Mode = mode
        self._worker: asyncio.subprocess.Process | None = None
        self._waiting: deque[asyncio.Future[bytes]] = deque()
        self._reader: asyncio.Task[None] | None = None
        self._starting: asyncio.Lock | None = None
        self._started = False  # start() was called: a cold worker is never waited on
        self._warm_jobs: tuple[DrawJob, ...] = ()
        self._warming: asyncio.Task[None] | None = None
        self.warm = False  # the worker has drawn the warm-up pictures (or: threads only)
        self.warmed: list[str] = []  # the pictures the worker has warmed up

    def start(self, jobs: Iterable[Job] = ()) -> None:
        """Start the worker and warm it in the background: it draws ``jobs`` (a small
        picture of each game) once, so that its imports and fonts are loaded before the
        first table asks. Until it is warm, pictures are drawn on threads."""
        if self._started:
            return
        self._started = True
        self._warm_jobs = tuple(as_job(job) for job in jobs)
        if self.mode != "process":
            self.warm = True
            return
        self._rewarm()

    def _rewarm(self) -> None:
        if self._warming is None or self._warming.done():
            self.warm = False
            self.warmed = []
            self._warming = asyncio.get_running_loop().create_task(self._warm_up())

    async def _warm_up(self) -> None:
        try:
            worker = await self._ready()
            if worker is None:
                return
            for job in self._warm_jobs:
                await self._in_worker(worker, job)
                self.warmed.append(job.picture)
            self.warm = self.worker_alive()
        except (ConnectionError, asyncio.IncompleteReadError, DrawFailed, OSError) as err:
            log.warning("the picture worker did not warm up (%r); drawing on threads", err)

    async def wait_warm(self, timeout: float) -> bool:
        """Wait (at most ``timeout`` seconds, without blocking the loop) for the worker to
        be warm; whether it is."""
        warming = self._warming
        if warming is not None and not warming.done():
            await asyncio.wait({warming}, timeout=timeout)
        return self.warm

    def worker_alive(self) -> bool:
        return self._worker is not None and self._worker.returncode is None

    async def draw(self, job: Job) -> bytes:
        """``job`` drawn as PNG bytes: in the worker process, else on a thread (a table
        picture also while a started worker is not warm yet: no picture waits on a cold
        worker)."""
        job = as_job(job)
        # a chart still goes to the worker (matplotlib stays out of the bot's process;
        # charts are answered after a deferral)
        cold = self._started and not (self.warm and self.worker_alive())
        if self.mode == "process" and cold and not job.chart:
            if not self.worker_alive():
                self._rewarm()  # a worker that died is replaced, and warmed again
        elif self.mode == "process":
            worker = await self._ready()
            if worker is not None and worker.stdin is not None:
                try:
                    return await self._in_worker(worker, job)
                except (ConnectionError, asyncio.IncompleteReadError):
                    log.warning("the picture worker stopped; drawing this one on a thread")
                except DrawFailed:
                    log.warning("the picture worker failed to draw %r; trying a thread", job)
        return await asyncio.get_running_loop().run_in_executor(None, draw_job, job)

    async def _in_worker(self, worker: asyncio.subprocess.Process, job: DrawJob) -> bytes:
        assert worker.stdin is not None
        future: asyncio.Future[bytes] = asyncio.get_running_loop().create_future()
        data = pickle.dumps(job, protocol=pickle.HIGHEST_PROTOCOL)
        self._waiting.append(future)
        worker.stdin.write(HEADER.pack(len(data)) + data)
        return await future

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
                    "pictures.painter",
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
                if future.done():
                    continue
                if png:
                    future.set_result(png)
                else:
                    future.set_exception(DrawFailed())
        except (asyncio.IncompleteReadError, ConnectionError, IndexError) as err:
            while self._waiting:
                future = self._waiting.popleft()
                if not future.done():
                    future.set_exception(ConnectionError(f"picture worker: {err!r}"))

    async def close(self) -> None:
        if self._warming is not None:
            self._warming.cancel()
            self._warming = None
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


def draw_job(job: Job) -> bytes:
    """Draw any job: a game's picture, or a chart (matplotlib imported on the first)."""
    job = as_job(job)
    return job.resolve()(*job.args)


def warm_up() -> None:
    """Load matplotlib and the fonts charts use (by drawing a small one)."""
    from pictures.charts import SAMPLE_NAMES, GameChart, draw_chart

    draw_chart(GameChart(SAMPLE_NAMES, ((1,) * len(SAMPLE_NAMES),), 10))


def _read(fd: int, size: int) -> bytes:
    """``size`` bytes from ``fd`` (fewer at its end)."""
    parts, left = [], size
    while left:
        part = os.read(fd, left)
        if not part:
            break
        parts.append(part)
        left -= len(part)
    return b"".join(parts)


def serve(warm_after: float | None = WARM_AFTER) -> None:
    """The worker: read jobs from standard input, write PNGs to standard output (an empty
    message for a job it failed to draw). After ``warm_after`` seconds with no job, it
    warms up (:func:`warm_up`) once.

    A chart makes some 100,000 objects, which set the cyclic garbage collector off a few
    times mid-drawing: charts are drawn with it paused, and collected once the answer is
    sent; what the first chart (or the warm-up) left alive — modules, fonts — is then
    frozen out of the collector's way.
    """
    from pictures import painter as this

    source, sink = sys.stdin.fileno(), sys.stdout.buffer
    fonts.prepare()  # every font's character map, before the first picture is asked for
    warm = warm_after is None
    frozen = False
    while True:
        if not warm:
            ready, _, _ = select.select([source], [], [], warm_after)
            if not ready:
                warm = True
                try:
                    warm_up()
                except Exception:  # pragma: no cover - charts will fail the same way
                    traceback.print_exc()
                gc.collect()
                gc.freeze()
                frozen = True
                continue
        head = _read(source, HEADER.size)
        if len(head) < HEADER.size:
            return
        (size,) = HEADER.unpack(head)
        job = pickle.loads(_read(source, size))
        if not isinstance(job, this.DrawJob):  # the worker runs as __main__
            return
        chart = job.chart
        if chart:
            gc.disable()
        try:
            png = this.draw_job(job)  # the canonical module's DrawJob, as unpickled
        except Exception:
            traceback.print_exc()
            png = b""
        sink.write(HEADER.pack(len(png)) + png)
        sink.flush()
        if chart:
            gc.enable()
            gc.collect()
            if not frozen:
                gc.freeze()
                frozen = True


if __name__ == "__main__":
    serve()
