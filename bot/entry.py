"""The ``stackbot`` command as installed (pyproject's ``[project.scripts]``): SIGTERM's
handling for the command (:mod:`bot.stop_signal`) is set before anything else is imported
(``bot.cli`` and what it imports take a second or so), then :func:`bot.cli.main` runs."""

from __future__ import annotations

import sys

from bot import stop_signal


def main() -> int:
    stop_signal.catch_for(sys.argv[1:])
    from bot.cli import main as stackbot

    return stackbot()
