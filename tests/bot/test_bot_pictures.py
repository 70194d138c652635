"""The bot's pictures are drawn by the picture worker, which imports neither Discord nor
the bot (pictures/ is a layer under bot/)."""

from __future__ import annotations

from datetime import UTC, datetime

from bot import games
from bot.startup import warm_up_jobs
from persistence.records import RecentGame
from pictures.charts import StatsChart, sample_game
from pictures.painter import as_job
from tests.pictures.worker import BLOCKED, draw_without_discord

PNG = b"\x89PNG\r\n\x1a\n"


def test_the_bots_pictures_of_every_game_are_drawn_by_a_worker_without_discord() -> None:
    """The jobs the bot sends (each registered game's picture of a new table, as at
    start-up, and a game's chart and a player's stats chart from stored records) are drawn
    by a worker that cannot import Discord, the bot, the host or storage."""
    jobs = warm_up_jobs()
    assert [job.picture for job in jobs] == [game.name for game in games.all_games()]
    stored = RecentGame(1, datetime(2025, 1, 1, tzinfo=UTC), 0, 120, True, 100, 3, ("a", "b"))
    jobs += [as_job(StatsChart("a", (stored,))), as_job(sample_game(3, 4))]
    answers, loaded, errors = draw_without_discord(jobs)
    assert [png[:8] for png in answers] == [PNG] * len(jobs), errors
    assert not set(loaded) & set(BLOCKED), loaded
