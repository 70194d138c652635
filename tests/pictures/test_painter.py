"""The picture worker draws table pictures and charts, in a process or on threads."""

from __future__ import annotations

import asyncio
import os
import pickle
import random
import signal
import subprocess
import sys
from datetime import UTC, datetime

import pytest

from engine.stack.state import StackState
from persistence.records import RecentGame
from pictures import painter as painter_module
from pictures.charts import GameChart, StatsChart, sample_game, sample_stats
from pictures.painter import DrawJob, Painter, as_job
from pictures.stack import FieldPicture

PNG = b"\x89PNG\r\n\x1a\n"


def field_picture() -> FieldPicture:
    state = StackState(("Ālīce ✨", "ボブ"))
    state.resolve_chance(random.Random(3))
    return FieldPicture.of(state)


def png_size(png: bytes) -> tuple[int, int]:
    assert png.startswith(PNG)
    return int.from_bytes(png[16:20], "big"), int.from_bytes(png[20:24], "big")


def broken_stats() -> StatsChart:
    """A chart whose data cannot be drawn (a total that is not a number)."""
    game = RecentGame(1, datetime(2025, 1, 1, tzinfo=UTC), 0, "lots", False, 200, 3, ("a", "b"))  # type: ignore[arg-type]
    return StatsChart("a", (game,))


@pytest.mark.parametrize("mode", ["process", "thread"])
async def test_a_painter_draws_table_pictures_game_charts_and_stats_charts(mode: str) -> None:
    painter = Painter(mode)  # type: ignore[arg-type]
    try:
        picture = await painter.draw(field_picture())
        game = await painter.draw(sample_game(8, 40))
        stats = await painter.draw(sample_stats())
    finally:
        await painter.close()
    assert picture.startswith(PNG)
    assert png_size(game)[0] == 760 and png_size(stats)[0] == 760
    assert painter.mode == mode  # nothing fell back to threads


async def test_jobs_sent_together_come_back_to_their_callers() -> None:
    painter = Painter("process")
    charts = [sample_game(seats, 5, seed=seats) for seats in range(2, 9)]
    try:
        pngs = await asyncio.gather(*(painter.draw(c) for c in charts))
    finally:
        await painter.close()
    # a chart's height grows with its legend, a row per player: each answer is its own
    heights = [png_size(p)[1] for p in pngs]
    assert heights == sorted(heights) and len(set(heights)) == len(heights)


async def test_a_dead_worker_is_replaced_and_the_next_chart_is_drawn() -> None:
    painter = Painter("process")
    try:
        await painter.draw(sample_game(2, 3))
        worker = painter._charts.process
        assert worker is not None
        worker.kill()
        await worker.wait()
        png = await painter.draw(sample_game(3, 3))
        assert png_size(png)[0] == 760
        assert painter._charts.process is not None and painter._charts.process is not worker
    finally:
        await painter.close()


@pytest.mark.parametrize("mode", ["process", "thread"])
async def test_a_job_that_cannot_be_drawn_raises_and_the_worker_lives_on(mode: str) -> None:
    painter = Painter(mode)  # type: ignore[arg-type]
    try:
        await painter.draw(sample_game(2, 3))
        worker = painter._charts.process
        with pytest.raises(TypeError):
            await painter.draw(broken_stats())
        assert painter._charts.process is worker
        assert (await painter.draw(sample_game(3, 3))).startswith(PNG)
    finally:
        await painter.close()


async def test_something_that_is_not_a_job_is_refused() -> None:
    painter = Painter("thread")
    with pytest.raises(TypeError):
        await painter.draw("a picture, please")  # type: ignore[arg-type]


def test_the_painter_and_table_pictures_load_no_matplotlib() -> None:
    code = (
        "import sys, random\n"
        "from pictures.painter import draw_job\n"
        "from pictures.stack import FieldPicture\n"
        "from engine.stack.state import StackState\n"
        "s = StackState(('a', 'b')); s.resolve_chance(random.Random(1))\n"
        "draw_job(FieldPicture.of(s))\n"
        "print('matplotlib' in sys.modules)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_a_game_chart_refuses_what_is_not_a_game() -> None:
    with pytest.raises(ValueError):
        GameChart((), (), 200)
    with pytest.raises(ValueError):
        GameChart(("a", "b"), ((1, 2, 3),), 200)
    with pytest.raises(ValueError):
        GameChart(("a", "b"), ((1, 2),), 200, winners=(2,))


def counting_draws(monkeypatch: pytest.MonkeyPatch) -> list[DrawJob]:
    """The jobs actually drawn (on threads) from now on."""
    drawn: list[DrawJob] = []
    draw = painter_module.draw_job

    def counted(job: DrawJob) -> bytes:
        drawn.append(as_job(job))
        return draw(job)

    monkeypatch.setattr(painter_module, "draw_job", counted)
    return drawn


async def test_an_unchanged_picture_is_never_drawn_again(monkeypatch: pytest.MonkeyPatch) -> None:
    drawn = counting_draws(monkeypatch)
    painter = Painter("thread")
    first = await painter.draw(field_picture())
    again = await painter.draw(field_picture())  # an equal job, built anew
    assert again == first and len(drawn) == 1
    assert (painter.drawn, painter.hits) == (1, 1)
    other = await painter.draw(FieldPicture.of(StackState(("a", "b"))))
    assert other != first and len(drawn) == 2


async def test_a_picture_asked_for_while_it_is_drawn_is_drawn_once(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    drawn = counting_draws(monkeypatch)
    painter = Painter("thread")
    pngs = await asyncio.gather(*(painter.draw(field_picture()) for _ in range(5)))
    assert len(set(pngs)) == 1 and len(drawn) == 1


async def test_the_cache_keeps_only_the_most_recently_asked_pictures(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(painter_module, "CACHE_PICTURES", 2)
    drawn = counting_draws(monkeypatch)
    painter = Painter("thread")
    a, b, c = (sample_game(seats, 3) for seats in (2, 3, 4))
    for chart in (a, b, a, c):  # a asked again: b is the least recently used
        await painter.draw(chart)
    assert len(drawn) == 3
    await painter.draw(a)
    assert len(drawn) == 3
    await painter.draw(b)
    assert len(drawn) == 4


async def test_a_picture_that_failed_is_not_kept(monkeypatch: pytest.MonkeyPatch) -> None:
    drawn = counting_draws(monkeypatch)
    painter = Painter("thread")
    for _ in range(2):
        with pytest.raises(TypeError):
            await painter.draw(broken_stats())
    assert len(drawn) == 2


async def sent(painter: Painter) -> None:
    """Return once a job is waiting for its worker's answer."""
    while not painter.queued():
        await asyncio.sleep(0.01)


async def test_a_table_picture_never_waits_behind_a_chart() -> None:
    """Charts have their own worker: with the charts' worker held still in the middle
    of a chart, a table picture asked for after it is drawn (and the chart still waits)."""
    painter = Painter("process")
    painter.start([field_picture()])
    try:
        assert await painter.wait_warm(600)
        await painter.draw(sample_game(2, 3))  # the charts' worker is up
        charts = painter._charts.process
        assert charts is not None and charts.pid != painter._tables.process.pid  # type: ignore[union-attr]
        os.kill(charts.pid, signal.SIGSTOP)
        try:
            chart = asyncio.ensure_future(painter.draw(sample_game(8, 40)))
            await asyncio.wait_for(sent(painter), timeout=300)  # the chart is sent first
            state = StackState(("Zoë", "Bob"))
            state.resolve_chance(random.Random(11))
            png = await asyncio.wait_for(painter.draw(FieldPicture.of(state)), timeout=300)
            assert png.startswith(PNG)
            assert not chart.done()
        finally:
            os.kill(charts.pid, signal.SIGCONT)
        assert png_size(await chart)[0] == 760
    finally:
        await painter.close()


async def test_start_up_starts_the_charts_worker_too() -> None:
    painter = Painter("process")
    painter.start([field_picture()])
    try:
        assert painter._charts_starting is not None
        await painter._charts_starting
        assert painter._charts.alive() and painter._tables.process is not None
        assert painter._charts.process is not painter._tables.process
    finally:
        await painter.close()


def test_a_worker_whose_bot_is_gone_ends_quietly_without_a_traceback() -> None:
    """The bot killed mid-job: the worker's answer finds no reader; it ends, exit 0, and
    writes nothing into the log the two share (it printed a BrokenPipeError traceback)."""
    worker = subprocess.Popen(
        [sys.executable, "-m", "pictures.painter", "--lane", "tables"],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert worker.stdin is not None and worker.stdout is not None
    job = pickle.dumps(DrawJob("stack", (field_picture(),)))
    worker.stdout.close()  # the reader of its answers is gone before it answers
    worker.stdin.write(painter_module.HEADER.pack(len(job)) + job)
    worker.stdin.flush()
    _, err = worker.communicate(timeout=120)
    assert worker.returncode == 0
    assert b"Traceback" not in err and b"BrokenPipe" not in err, err.decode()
