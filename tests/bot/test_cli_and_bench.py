"""`python -m bot.bench` end to end (tiny sizes), and the sync-only bot (the `stackbot`
command's own tests are in test_cli.py)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def run(args: list[str], cwd: Path, **env: str) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items() if k not in ("DISCORD_TOKEN", "DATABASE_URL")}
    return subprocess.run(
        [sys.executable, "-m", *args],
        cwd=cwd,
        env={**clean, "PYTHONPATH": str(ROOT), **env},
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def test_bot_bench_prints_its_summary_line(tmp_path: Path) -> None:
    proc = run(
        [
            "bot.bench",
            "--tables",
            "6",
            "--seconds",
            "1",
            "--closed-seconds",
            "0.5",
            "--gap",
            "0.2",
            "--dir",
            str(tmp_path),
        ],
        ROOT,
    )
    assert proc.returncode == 0, proc.stderr
    last = proc.stdout.strip().splitlines()[-1]
    assert " moves/s, p99 " in last and last.endswith(" KiB/table")


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
