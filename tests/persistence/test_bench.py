"""`python -m persistence.bench` runs end to end (tiny sizes; its figures are not asserted)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def bench_env(temp: Path | None = None) -> dict[str, str]:
    """The bench's environment: no ``DATABASE_URL``; with ``temp``, its temporary folder."""
    env = {k: v for k, v in os.environ.items() if k != "DATABASE_URL"}
    return env if temp is None else {**env, "TMPDIR": str(temp), "PYTHONPATH": str(ROOT)}


def bench_command(seconds: str, *more: str) -> list[str]:
    """The storage bench at tiny sizes, its tables playing ``seconds``."""
    sizes = f"--tables 4 --seconds {seconds} --raw-seconds 0.2 --load-tables 12".split()
    return [sys.executable, "-m", "persistence.bench", *sizes, *more]


def test_bench_prints_its_summary_line(tmp_path: Path) -> None:
    proc = subprocess.run(
        bench_command("1", "--single-moves", "20", "--dir", str(tmp_path)),
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
        env=bench_env(),
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    lines = proc.stdout.strip().splitlines()
    assert "loaded 12 active tables" in proc.stdout
    assert "one move per commit: " in proc.stdout and "ms CPU per record_move (" in proc.stdout
    last = lines[-1]
    assert (
        "durable moves/s (" in last and "% of raw aiosqlite), p99 " in last and last.endswith(" ms")
    )
