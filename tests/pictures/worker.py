"""The picture worker run the way the bot runs it (``python -m pictures.painter``), but in
a process where Discord, the bot, the host and storage cannot be imported: any import of
them fails the drawing that made it."""

from __future__ import annotations

import pickle
import subprocess
import sys
from collections.abc import Iterable
from pathlib import Path

from pictures.painter import HEADER, DrawJob

ROOT = Path(__file__).resolve().parent.parent.parent
BLOCKED = ("discord", "bot", "host", "persistence", "terminal")
WORKER = (
    "import runpy, sys\n"
    f"for name in {BLOCKED!r}:\n"
    "    sys.modules[name] = None  # import discord -> ImportError\n"
    "runpy.run_module('pictures.painter', run_name='__main__', alter_sys=True)\n"
    "loaded = sorted({m.split('.')[0] for m, v in sys.modules.items() if v is not None})\n"
    "print('LOADED', *loaded, file=sys.stderr)\n"
)


def draw_without_discord(jobs: Iterable[DrawJob]) -> tuple[list[bytes], list[str], str]:
    """Each job's answer from a worker that cannot import :data:`BLOCKED` (an empty answer:
    it failed), the top-level modules it had loaded when it stopped, and its standard
    error (a failed drawing's traceback)."""
    sent = b"".join(
        HEADER.pack(len(data)) + data
        for data in (pickle.dumps(job, protocol=pickle.HIGHEST_PROTOCOL) for job in jobs)
    )
    done = subprocess.run(
        [sys.executable, "-c", WORKER],
        input=sent,
        capture_output=True,
        cwd=ROOT,
        timeout=600,  # generous: a loaded machine
        check=True,
    )
    answers, out = [], done.stdout
    while out:
        (size,) = HEADER.unpack(out[: HEADER.size])
        answers.append(out[HEADER.size : HEADER.size + size])
        out = out[HEADER.size + size :]
    errors = done.stderr.decode(errors="replace")
    loaded = next(line for line in errors.splitlines() if line.startswith("LOADED")).split()[1:]
    return answers, loaded, errors
