"""The expert's worker processes (:mod:`host.thinking`) end with the bot: a bot killed
outright (SIGKILL, the OOM killer) leaves no worker, nor its resource tracker, running."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]

# a bot's process as far as its workers see it: a pool of the thinker's kind, one job run
# so that a worker runs, its pid printed; then it waits to be killed
BOT = """
import os, sys, time
from host.thinking import Thinker
thinker = Thinker("process", workers=1)
pool = thinker._executor()
print(pool.submit(os.getpid).result(), flush=True)
time.sleep(600)
"""


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    try:  # a zombie left to its new parent counts as gone
        return Path(f"/proc/{pid}/stat").read_text().split()[2] != "Z"
    except OSError:
        return False


def test_a_worker_ends_when_the_bot_is_killed_outright() -> None:
    bot = subprocess.Popen([sys.executable, "-c", BOT], cwd=ROOT, stdout=subprocess.PIPE, text=True)
    try:
        assert bot.stdout is not None
        worker = int(bot.stdout.readline())
        assert worker != bot.pid and alive(worker)
        bot.send_signal(signal.SIGKILL)
        bot.wait()
        deadline = time.monotonic() + 120  # a generous bound, not a measure: it is ~1 s
        while alive(worker) and time.monotonic() < deadline:
            time.sleep(0.2)
        assert not alive(worker), f"worker {worker} outlived the bot"
    finally:
        if bot.poll() is None:
            bot.kill()
