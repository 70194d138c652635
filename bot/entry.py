"""The ``stackbot`` command as installed (pyproject's ``[project.scripts]``): SIGTERM's
handling for the command (:mod:`bot.stop_signal`) is set before anything else is imported
(``bot.cli`` and what it imports take a second or so), then :func:`bot.cli.main` runs."""

from __future__ import annotations

import sys

from bot import stop_signal

TYPE_CHECKING = False  # (typing's, not imported: nothing more is before catch_for)
if TYPE_CHECKING:
    from collections.abc import Callable


def main() -> int:
    return command(sys.argv[1:])


def command(argv: list[str], started: Callable[[], object] | None = None) -> int:
    """``stackbot ARGV``: SIGTERM's handling set first, then ``started()`` (a test's), then
    the command. Ctrl-C before the command handles it itself (while it is imported) ends
    it quietly, with the status a shell gives a process that SIGINT ended."""
    stop_signal.catch_for(argv)
    try:
        if started is not None:
            started()
        from bot.cli import main as stackbot

        return stackbot(argv)
    except KeyboardInterrupt:
        return stop_signal.INTERRUPTED_EXIT


if __name__ == "__main__":  # ``python -m bot.entry ARGS``: the installed command, by module
    sys.exit(main())
