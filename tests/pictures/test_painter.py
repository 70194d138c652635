"""The picture worker draws table pictures and charts, in a process or on threads."""

from __future__ import annotations

import asyncio
import random
import subprocess
import sys
from datetime import UTC, datetime

import pytest

from engine.stack.state import StackState
from persistence.records import RecentGame
from pictures.charts import GameChart, StatsChart, sample_game, sample_stats
from pictures.painter import Painter
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
        worker = painter._worker
        assert worker is not None
        worker.kill()
        await worker.wait()
        png = await painter.draw(sample_game(3, 3))
        assert png_size(png)[0] == 760
        assert painter._worker is not None and painter._worker is not worker
    finally:
        await painter.close()


@pytest.mark.parametrize("mode", ["process", "thread"])
async def test_a_job_that_cannot_be_drawn_raises_and_the_worker_lives_on(mode: str) -> None:
    painter = Painter(mode)  # type: ignore[arg-type]
    try:
        await painter.draw(sample_game(2, 3))
        worker = painter._worker
        with pytest.raises(TypeError):
            await painter.draw(broken_stats())
        assert painter._worker is worker
        assert (await painter.draw(sample_game(2, 3))).startswith(PNG)
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
