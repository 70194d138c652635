"""`python -m bot.bench` end to end (tiny sizes), and the sync-only bot (the `stackbot`
command's own tests are in test_cli.py)."""

from __future__ import annotations

import re
from pathlib import Path

from tests.bot.test_cli import run


def test_bot_bench_drives_the_production_path_and_prints_its_summary_line(
    tmp_path: Path,
) -> None:
    proc = run(
        ["-m", "bot.bench", "--tables", "6", "--seconds", "1", "--busy", "6", "--rates", "12"],
        tmp_path,
        TMPDIR=str(tmp_path),
    )
    assert proc.returncode == 0, proc.stderr
    assert "Traceback" not in proc.stdout + proc.stderr, "every step of the bench's moves ran"
    lines = proc.stdout.strip().splitlines()
    assert lines[-1].endswith(" ms, timers on, pictures on") and " moves/s, p99 " in lines[-1]
    assert any("pictures off" in line for line in lines)
    assert any("channel calls per move" in line for line in lines)
    assert list(tmp_path.iterdir()) == [], "the bench removes what it wrote"


def test_picture_bench_prints_each_games_light_and_heavy_pictures_and_the_charts(
    tmp_path: Path,
) -> None:
    proc = run(["-m", "bot.bench", "--pictures", "--samples", "5"], tmp_path)
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.strip().splitlines()
    for game in ("stack", "stackup", "colorstack"):
        for case in ("light", "heavy"):
            assert any(line.startswith(f"{game} {case}") and " p99 " in line for line in lines)
    assert any(line.startswith("chart 8x40: p50 ") for line in lines)
    assert any("while" in line and "charts were drawn" in line for line in lines)
    assert lines[-1].startswith("colorstack heavy: p50 ") and " ms, p99 " in lines[-1]


async def test_sync_only_bot_loads_the_commands_without_a_database(tmp_path: Path) -> None:
    import simcord

    from bot.client import StackBot
    from bot.config import Settings

    db = tmp_path / "never.db"
    bot = StackBot(Settings(database_url=f"sqlite+aiosqlite:///{db}"), sync_only=True)
    async with simcord.run(bot) as env:
        synced = await bot.tree.sync()
        names = {c.name for c in synced}
        assert {
            "table",
            "stack",
            "reroll",
            "hint",
            "export",
            "scores",
            "leaderboard",
            "stats",
            "rules",
            "houserules",
        } <= names
        assert bot.store is None
        _ = env
    assert not db.exists()


def test_cold_start_bench_restarts_its_tables_without_an_error_and_prints_its_line(
    tmp_path: Path,
) -> None:
    """`python -m bot.coldstart` at a tiny size: every table's message is recovered through
    the production path (a step that fails is logged with its traceback, so none may be),
    and its last line keeps the shape README quotes."""
    proc = run(["-m", "bot.coldstart", "--tables", "20"], tmp_path, TMPDIR=str(tmp_path))
    assert proc.returncode == 0, proc.stderr
    assert "Traceback" not in proc.stdout + proc.stderr, (proc.stdout + proc.stderr)[-3000:]
    last = proc.stdout.strip().splitlines()[-1]
    assert re.fullmatch(
        r"cold start 20 tables: first answer \d+\.\d\d s, first move \d+\.\d\d s, "
        r"recovery \d+\.\d\d s, \d+\.\d KiB per table",
        last,
    ), last
