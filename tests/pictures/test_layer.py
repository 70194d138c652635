"""pictures/ is a layer of its own: it imports the engine and the message catalog only (never Discord, the bot, the
host or storage), every game's picture is found through one registry, and the painter's
worker draws every game's picture and the charts without importing Discord."""

from __future__ import annotations

import ast
import importlib
import sys
from pathlib import Path

import pytest

import engine.games
from pictures.charts import sample_game, sample_stats
from pictures.games import DRAWINGS, UnknownPicture, drawing
from pictures.painter import DrawJob, as_job, draw_job
from tests.pictures.worker import BLOCKED, draw_without_discord

PICTURES = Path(__file__).resolve().parent.parent.parent / "pictures"
THIRD_PARTY = {"PIL", "matplotlib", "fontTools", "numpy"}


def showcase_jobs(name: str) -> list[DrawJob]:
    """Jobs of the sample pictures (the docs' examples) of the game called ``name``."""
    module = importlib.import_module(DRAWINGS[name].partition(":")[0])
    return [DrawJob(name, (picture,)) for picture in module.showcase().values()]


def imported_packages(path: Path) -> set[str]:
    found = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            found |= {alias.name.split(".")[0] for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.add(node.module.split(".")[0])
    return found


@pytest.mark.parametrize("path", sorted(PICTURES.glob("*.py")), ids=lambda p: p.name)
def test_pictures_import_only_the_engine_and_drawing_libraries(path: Path) -> None:
    foreign = imported_packages(path) - {"engine", "catalog", "pictures"} - THIRD_PARTY
    assert not foreign - set(sys.stdlib_module_names), f"{path.name} imports {foreign}"


def test_every_game_has_its_picture_in_the_one_registry() -> None:
    """Every game of the engine's registry has a drawing here, and its picture's value
    names it (so the painter takes the value as it is)."""
    for name in engine.games.names():
        assert callable(drawing(name))
        module = importlib.import_module(DRAWINGS[name].partition(":")[0])
        for picture in module.showcase().values():
            assert as_job(picture) == DrawJob(name, (picture,))
    for chart in (sample_game(3, 4), sample_stats()):
        assert as_job(chart) == DrawJob("chart", (chart,), chart=True)


def test_a_picture_name_not_registered_is_refused() -> None:
    for name in ("nope", "bot.image:draw_field", "os:system", ""):
        with pytest.raises(UnknownPicture):
            DrawJob(name).resolve()


def test_the_worker_draws_every_game_and_the_charts_without_importing_discord() -> None:
    jobs = [job for name in engine.games.names() for job in showcase_jobs(name)]
    jobs += [as_job(sample_game(8, 12)), as_job(sample_stats())]
    answers, loaded, errors = draw_without_discord(jobs)
    assert len(answers) == len(jobs), errors
    for job, png in zip(jobs, answers, strict=True):
        assert png.startswith(b"\x89PNG"), f"{job.picture} not drawn:\n{errors}"
        if not job.chart:  # the same picture as drawn here, byte for byte
            assert png == draw_job(job)
    assert set(engine.games.names()) <= {job.picture for job in jobs}
    assert not set(loaded) & set(BLOCKED), loaded
