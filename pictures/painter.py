"""Drawing pictures off the event loop, in a worker process, for every game: a job is a
:class:`DrawJob` — a picture's name in the registry :mod:`pictures.games` (a game's name,
or ``"chart"``) and its picklable arguments — so any game's picture runs through the same
worker, which imports neither Discord nor the host. A picture's value that names its
drawing (:class:`Picture`: Stack's :class:`~pictures.stack.FieldPicture`, the charts'
:class:`~pictures.charts.GameChart` and :class:`~pictures.charts.StatsChart`…) may be
given as it is: it becomes the job of that drawing. Each drawing's module is imported on
its first job (matplotlib with the first chart, so the first table picture does not wait
for it).

A picture costs 0.5–5 ms of CPU, a chart 50–110 ms. Drawn on threads of the bot's own
process, the drawing and the event loop take turns at the interpreter lock (and so does a
process pool's management thread), and every move waits behind them. So the bot keeps two
worker processes, ``python -m pictures.painter --lane tables`` and ``--lane charts``, and
talks to each over its standard input and output with asyncio's own pipes: the loop only
writes a small pickled job and reads the PNG back, and the drawing runs on another core.
Table pictures and charts go to their own lanes, so a table picture never waits behind a
chart; each lane answers in the order asked. If a worker dies, a new one is started; if
none can be started, pictures are drawn on the loop's thread pool (``Painter("thread")``
does that from the start: the tests use it). A job a worker fails to draw is answered
with an empty message and drawn again on a thread (which raises its error to the caller);
the worker lives on. The charts' worker loads matplotlib and its fonts as soon as it
starts, the table pictures' worker never; it runs at a lower priority
(:data:`CHARTS_NICENESS`), as charts are answered after a deferral and table pictures and
moves are not.

An unchanged picture is never drawn again: the painter keeps the last
:data:`CACHE_PICTURES` PNGs (:data:`CACHE_BYTES` at the most) by their job — the job holds
everything the picture shows, so it is the rendered state's key — and a job asked for
again while it is being drawn waits for that drawing. The cache is on the submitting side
(the bot's process), not in the worker: a hit then costs no pickling, no pipe round trip
and no place in the worker's queue behind other pictures, and the bot's process, which
holds the table messages anyway, is where the answer is needed.

The bot starts the workers at start-up (:meth:`Painter.start`, called by
``bot.tables.Tables.adopt`` before the tables load), warms the table pictures' worker with
a small picture of each game (the drawing modules imported, the fonts loaded), in the
background; until it has answered those, and while a worker that died is replaced and
warmed again, table pictures are drawn on threads: no picture ever waits on a cold worker.
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
from collections import OrderedDict, deque
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol

import catalog
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
    message caches by it), so ``args`` hold what the picture shows. Its words are drawn in
    ``language``: by default the language spoken where the job is made
    (:func:`catalog.current`), so a table's picture is in the table's language."""

    picture: str
    args: tuple[Any, ...] = ()
    chart: bool = False  # a matplotlib chart: drawn with the garbage collector paused
    language: str = field(default_factory=catalog.current)

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


TABLES, CHARTS = "tables", "charts"  # the worker lanes: table pictures, and charts
CHARTS_NICENESS = 5  # the charts' worker's: charts are answered after a deferral
CACHE_PICTURES = 256  # the pictures the painter keeps, by job (least recently used out)
CACHE_BYTES = 16 * 1024 * 1024  # and their PNGs' bytes at the most


class Lane:
    """One worker process (``python -m pictures.painter --lane NAME``) and the jobs sent
    to it, answered in the order asked."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.process: asyncio.subprocess.Process | None = None
        self.waiting: deque[asyncio.Future[bytes]] = deque()
        self._reader: asyncio.Task[None] | None = None
        self._starting: asyncio.Lock | None = None

    def alive(self) -> bool:
        return self.process is not None and self.process.returncode is None

    async def ready(self) -> asyncio.subprocess.Process:
        """The lane's worker, started if it is not running (:exc:`OSError`: none can be)."""
        if self.process is not None and self.alive():
            return self.process
        if self._starting is None:
            self._starting = asyncio.Lock()
        async with self._starting:
            if self.process is not None and self.alive():
                return self.process
            self.process = await asyncio.create_subprocess_exec(
                sys.executable,
                "-m",
                "pictures.painter",
                "--lane",
                self.name,
                stdin=asyncio.subprocess.PIPE,
                stdout=asyncio.subprocess.PIPE,
            )
            self._reader = asyncio.get_running_loop().create_task(self._read(self.process))
            return self.process

    async def send(self, worker: asyncio.subprocess.Process, job: DrawJob) -> bytes:
        """``job`` drawn by ``worker`` (this lane's)."""
        assert worker.stdin is not None
        future: asyncio.Future[bytes] = asyncio.get_running_loop().create_future()
        data = pickle.dumps(job, protocol=pickle.HIGHEST_PROTOCOL)
        self.waiting.append(future)
        worker.stdin.write(HEADER.pack(len(data)) + data)
        return await future

    async def _read(self, worker: asyncio.subprocess.Process) -> None:
        assert worker.stdout is not None
        try:
            while True:
                (size,) = HEADER.unpack(await worker.stdout.readexactly(HEADER.size))
                png = await worker.stdout.readexactly(size)
                future = self.waiting.popleft()
                if future.done():
                    continue
                if png:
                    future.set_result(png)
                else:
                    future.set_exception(DrawFailed())
        except (asyncio.IncompleteReadError, ConnectionError, IndexError) as err:
            while self.waiting:
                future = self.waiting.popleft()
                if not future.done():
                    future.set_exception(ConnectionError(f"picture worker: {err!r}"))

    async def close(self) -> None:
        worker, self.process = self.process, None
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


class Painter:
    """Draws jobs (table pictures and charts) into PNG bytes, off the event loop: table
    pictures in one worker process, charts in another (a table picture never waits behind
    a chart), the last :data:`CACHE_PICTURES` pictures kept by their job."""

    def __init__(self, mode: Mode = "process") -> None:
        self.mode: Mode = mode
        self._tables = Lane(TABLES)
        self._charts = Lane(CHARTS)
        self._started = False  # start() was called: a cold worker is never waited on
        self._warm_jobs: tuple[DrawJob, ...] = ()
        self._warming: asyncio.Task[None] | None = None
        self._charts_starting: asyncio.Task[Any] | None = None
        self.warm = False  # the worker has drawn the warm-up pictures (or: threads only)
        self.warmed: list[str] = []  # the pictures the worker has warmed up
        # the pictures drawn, by job (least recently used first), and those being drawn:
        # an unchanged picture is never drawn again, nor twice at once
        self._cache: OrderedDict[DrawJob, bytes] = OrderedDict()
        self._cached_bytes = 0
        self._drawing: dict[DrawJob, asyncio.Task[bytes]] = {}
        self.drawn = 0  # pictures drawn (not found in the cache)
        self.hits = 0  # pictures answered from the cache (or from a drawing under way)

    def start(self, jobs: Iterable[Job] = ()) -> None:
        """Start the workers and warm them in the background: the table pictures' worker
        draws ``jobs`` (a small picture of each game) once, so that its imports and fonts
        are loaded before the first table asks; the charts' worker loads matplotlib at
        once. Until the first is warm, table pictures are drawn on threads. Call it at
        start-up, on the event loop, before any interaction is served: it does not block."""
        if self._started:
            return
        self._started = True
        self._warm_jobs = tuple(as_job(job) for job in jobs)
        if self.mode != "process":
            self.warm = True
            return
        self._rewarm()
        loop = asyncio.get_running_loop()
        self._charts_starting = loop.create_task(self._ready_lane(self._charts))

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
                await self._tables.send(worker, job)
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
        """Whether the table pictures' worker is running."""
        return self._tables.alive()

    def queued(self) -> int:
        """The jobs sent to the workers and not answered yet."""
        return len(self._tables.waiting) + len(self._charts.waiting)

    async def draw(self, job: Job) -> bytes:
        """``job`` drawn as PNG bytes: the same bytes as last time for a job drawn before
        (kept while it is among the last :data:`CACHE_PICTURES` asked for), else in its
        worker process, else on a thread (a table picture also while a started worker is
        not warm yet: no picture waits on a cold worker)."""
        job = as_job(job)
        try:
            png = self._cache.get(job)
        except TypeError:  # arguments that cannot be hashed: drawn each time
            self.drawn += 1
            return await self._draw(job)
        if png is not None:
            self._cache.move_to_end(job)
            self.hits += 1
            return png
        drawing = self._drawing.get(job)
        if drawing is None:
            self.drawn += 1
            drawing = asyncio.get_running_loop().create_task(self._draw(job))
            self._drawing[job] = drawing
            drawing.add_done_callback(lambda task: self._drawn(job, task))
        else:
            self.hits += 1
        return await asyncio.shield(drawing)  # a caller that gives up leaves it drawing

    def _drawn(self, job: DrawJob, task: asyncio.Task[bytes]) -> None:
        del self._drawing[job]
        if task.cancelled() or task.exception() is not None:
            return  # raised to its callers; drawn again when asked again
        png = task.result()
        self._cache[job] = png
        self._cached_bytes += len(png)
        while len(self._cache) > CACHE_PICTURES or self._cached_bytes > CACHE_BYTES:
            _, dropped = self._cache.popitem(last=False)
            self._cached_bytes -= len(dropped)

    async def _draw(self, job: DrawJob) -> bytes:
        # a chart goes to the charts' worker (matplotlib stays out of the bot's process;
        # charts are answered after a deferral)
        cold = self._started and not (self.warm and self.worker_alive())
        if self.mode == "process" and cold and not (job.chart or job.picture == CHART):
            if not self.worker_alive():
                self._rewarm()  # a worker that died is replaced, and warmed again
        elif self.mode == "process":
            chart = job.chart or job.picture == CHART
            lane = self._charts if chart else self._tables
            worker = await (self._ready_lane(lane) if chart else self._ready())
            if worker is not None:
                try:
                    return await lane.send(worker, job)
                except (ConnectionError, asyncio.IncompleteReadError):
                    log.warning("the picture worker stopped; drawing this one on a thread")
                except DrawFailed:
                    log.warning("the picture worker failed to draw %r; trying a thread", job)
        return await asyncio.get_running_loop().run_in_executor(None, draw_job, job)

    async def _ready(self) -> asyncio.subprocess.Process | None:
        """The table pictures' worker (:meth:`_ready_lane`)."""
        return await self._ready_lane(self._tables)

    async def _ready_lane(self, lane: Lane) -> asyncio.subprocess.Process | None:
        """``lane``'s worker, started if need be; ``None`` if no process can be started
        (then everything is drawn on threads)."""
        try:
            return await lane.ready()
        except OSError as err:  # pragma: no cover - no processes on this machine
            log.warning("no picture worker (%s); drawing on threads", err)
            self.mode = "thread"
            return None

    async def close(self) -> None:
        for task in (self._warming, self._charts_starting):
            if task is not None:
                task.cancel()
        self._warming = self._charts_starting = None
        await self._tables.close()
        await self._charts.close()


def draw_job(job: Job) -> bytes:
    """Draw any job: a game's picture, or a chart (matplotlib imported on the first)."""
    job = as_job(job)
    with catalog.speaking(job.language):
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
        try:
            sink.write(HEADER.pack(len(png)) + png)
            sink.flush()
        except BrokenPipeError:  # the bot is gone (killed mid-job): nobody to answer
            os._exit(0)  # quietly, no traceback in the bot's log
        if chart:
            gc.enable()
            gc.collect()
            if not frozen:
                gc.freeze()
                frozen = True


def main(argv: list[str] | None = None) -> None:
    """``python -m pictures.painter [--lane tables|charts]``: a worker. The table
    pictures' worker never loads matplotlib; the charts' loads it at once (it is started
    at start-up, so the first chart is warm); without a lane, it loads it once idle."""
    import argparse

    parser = argparse.ArgumentParser(prog="python -m pictures.painter")
    parser.add_argument("--lane", choices=(TABLES, CHARTS))
    lane = parser.parse_args(argv).lane
    if lane == CHARTS:
        os.nice(CHARTS_NICENESS)  # the CPU goes to the table pictures and the bot first
    serve(None if lane == TABLES else 0.0 if lane == CHARTS else WARM_AFTER)


if __name__ == "__main__":
    main()
