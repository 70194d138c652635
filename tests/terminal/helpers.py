"""What the terminal's tests share."""

from __future__ import annotations

import subprocess


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
