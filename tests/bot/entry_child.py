"""``stackbot ARGS`` as the installed command starts it (:func:`bot.entry.command`: SIGTERM's
handling set before anything else is imported), talking to a Discord stand-in at URL:
``python -m tests.bot.entry_child URL ARGS``. Then as ``python -m bot.standin.child URL
ARGS`` (which, a module of the stand-in's package, imports it first). With
``ENTRY_CHILD_WAIT=1``, it waits there for a signal (up to 60 s) before it goes on."""

from __future__ import annotations

import os
import signal
import sys
import time

from bot import entry


def main(argv: list[str]) -> int:
    def started() -> None:
        # (for the test: SIGTERM is the command's from here; before, in the interpreter's
        # own start-up, no code of ours has run yet and the signal does its default action)
        signal.signal(signal.SIGINT, signal.default_int_handler)  # as bot.standin.child
        print("CAUGHT", flush=True)
        if os.environ.get("ENTRY_CHILD_WAIT") == "1":  # a signal while the command starts
            for _ in range(6000):  # (each sleep is cut short by the signal's handler)
                time.sleep(0.01)
        from bot.standin import point_discord_py_at

        point_discord_py_at(argv[0])

    return entry.command(argv[1:], started)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
