"""Stops cleanly (issue 7, item 17): SIGTERM mid-game stops taking interactions, flushes
the move writer, closes the database and exits 0 within 5 s; every move the players were
told about is stored."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from persistence import Store

ROOT = Path(__file__).resolve().parents[2]


def test_sigterm_mid_game_exits_0_within_5_s_with_every_acknowledged_move_stored(
    tmp_path: Path,
) -> None:
    db = tmp_path / "bot.db"
    child = subprocess.Popen(
        [sys.executable, "-m", "tests.bot.sigterm_child", str(db)],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    assert child.stdout is not None
    acked: list[int] = []
    ready = False
    for line in child.stdout:
        if line.startswith("READY"):
            ready = True
        elif line.startswith("ACK"):
            acked.append(int(line.split()[1]))
            if len(acked) >= 6:
                break
    assert ready and acked, child.stderr.read() if child.stderr else ""
    sent = time.monotonic()
    child.send_signal(signal.SIGTERM)
    try:
        rest, errors = child.communicate(timeout=5)
    except subprocess.TimeoutExpired:
        child.kill()
        raise AssertionError("the bot did not stop within 5 s of SIGTERM") from None
    took = time.monotonic() - sent
    acked += [int(line.split()[1]) for line in rest.splitlines() if line.startswith("ACK")]
    assert child.returncode == 0, errors[-3000:]
    assert took < 5

    async def stored_version() -> int:
        store = await Store.open(f"sqlite+aiosqlite:///{db}")
        try:
            tables = await store.load_active_tables()
            return max(t.info.version for t in tables)
        finally:
            await store.close()

    assert asyncio.run(stored_version()) >= max(acked)
