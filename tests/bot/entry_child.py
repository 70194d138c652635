"""``stackbot ARGS`` as the installed command starts it (:func:`bot.entry.main`: SIGTERM's
handling set before anything else is imported), talking to a Discord stand-in at URL:
``python -m tests.bot.entry_child URL ARGS``. Then as ``python -m bot.standin.child URL
ARGS`` (which, a module of the stand-in's package, imports it first)."""

from __future__ import annotations

import sys

from bot import stop_signal


def main(argv: list[str]) -> int:
    stop_signal.catch_for(argv[1:])  # what bot.entry.main does first
    # (for the test: SIGTERM is the command's from here; before, in the interpreter's own
    # start-up, no code of ours has run yet and the signal does its default action)
    print("CAUGHT", flush=True)
    from bot.standin.child import main as child

    return child(argv)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
