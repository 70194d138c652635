"""What the terminal's tests share."""

from __future__ import annotations

import io
import subprocess
from typing import Any

from terminal.table import play


def unattended(command: list[str]) -> subprocess.CompletedProcess[str]:
    """Run ``command`` (a ``play`` of AI seats only) with no input, its output captured."""
    return subprocess.run(
        command,
        capture_output=True,
        text=True,
        timeout=120,
        stdin=subprocess.DEVNULL,
        check=False,
    )


def typed_game(humans: list[str], bots: int, typed: str, **options: Any) -> tuple[int, str]:
    """``stackbot play`` in this process, ``typed`` being the keyboard: the exit code and
    what the terminal printed."""
    out = io.StringIO()
    code = play(humans, bots, stdin=io.StringIO(typed), stdout=out, **options)
    return code, out.getvalue()
