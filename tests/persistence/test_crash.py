"""Crash safety: SIGKILL a process writing moves, at random moments, several times.

After every restart the tables load and replay cleanly, and each holds exactly the moves
whose commit had returned (plus, at most, the one move whose commit was under way).
"""

from __future__ import annotations

import asyncio
import os
import random
import signal
import subprocess
import sys
import time
from pathlib import Path

from sqlalchemy import func, select

from persistence import Store
from persistence.schema import moves, tables

ROOT = Path(__file__).resolve().parents[2]
TABLES = 6


def run_and_kill(url: str, run: int, delay: float) -> list[str]:
    proc = subprocess.Popen(
        [sys.executable, "-m", "tests.persistence.crash_child", url, str(TABLES), str(run)],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONUNBUFFERED": "1"},
    )
    assert proc.stdout is not None
    lines: list[str] = []
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        line = proc.stdout.readline()
        if not line:
            break
        lines.append(line.strip())
        if line.strip() == "READY":
            break
    assert lines and lines[-1] == "READY", (lines[-5:], proc.stderr.read() if proc.stderr else "")
    time.sleep(delay)
    os.kill(proc.pid, signal.SIGKILL)
    rest, err = proc.communicate(timeout=30)
    assert proc.returncode == -signal.SIGKILL, err
    # a line cut by the kill is not a whole report
    for line in rest.splitlines():
        if line.count(" ") >= 2 and line[0] in "WC":
            lines.append(line.strip())
    return lines


def expectations(lines: list[str]) -> dict[int, set[int]]:
    """For each table, the versions the database may hold: the last reported commit, or
    the move whose commit was under way when the process died."""
    committed: dict[int, int] = {}
    inflight: dict[int, int] = {}
    for line in lines:
        parts = line.split()
        if parts[0] == "C" and len(parts) == 3:
            committed[int(parts[1])] = int(parts[2])
            inflight.pop(int(parts[1]), None)
        elif parts[0] == "W" and len(parts) == 4:
            inflight[int(parts[1])] = int(parts[3])
    return {t: {v} | ({inflight[t]} if t in inflight else set()) for t, v in committed.items()}


async def stored(url: str) -> dict[int, tuple[int, int]]:
    store = await Store.open(url)
    try:
        loaded = await store.load_active_tables()
        out = {}
        for table in loaded:
            assert table.state is not None
            assert (await store.replay_log(table.info.id)).to_dict(
                full_history=False
            ) == table.state.to_dict(full_history=False)
            async with store.engine.connect() as conn:
                logged = (
                    await conn.execute(
                        select(func.count())
                        .select_from(moves)
                        .where(moves.c.table_id == table.info.id)
                    )
                ).scalar_one()
                version = (
                    await conn.execute(select(tables.c.version).where(tables.c.id == table.info.id))
                ).scalar_one()
            out[table.info.id] = (version, logged)
        return out
    finally:
        await store.close()


def test_sigkill_at_random_moments_loses_no_committed_move(tmp_path: Path) -> None:
    url = f"sqlite+aiosqlite:///{tmp_path / 'crash.db'}"
    rng = random.Random(2026)
    checked = 0
    for run in range(1, 5):
        lines = run_and_kill(url, run, delay=rng.uniform(0.2, 1.5))
        allowed = expectations(lines)
        held = asyncio.run(stored(url))
        for table_id, versions in allowed.items():
            version, logged = held[table_id]
            assert version == logged, "the version is the length of the move log"
            assert version in versions, (table_id, version, versions)
            checked += 1
    assert checked >= TABLES * 4
