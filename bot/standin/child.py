"""Run the real ``stackbot`` command against a :class:`~bot.standin.DiscordStandIn`
in another process: ``python -m bot.standin.child URL run`` is ``stackbot run``
(``bot.cli.main``: the real discord.py client, ``bot.run()``) with discord.py's REST and
gateway addresses pointed at the stand-in at ``URL``. Nothing else is changed; the bot's
settings come from the environment as always (``DISCORD_TOKEN``, ``DATABASE_URL``, ...).

SIGINT gets its default handler back: a child started by a test that runs as a background
job would otherwise inherit SIGINT ignored."""

from __future__ import annotations

import signal
import sys

from bot.standin import point_discord_py_at


def main(argv: list[str]) -> int:
    signal.signal(signal.SIGINT, signal.default_int_handler)
    point_discord_py_at(argv[0])
    from bot.cli import main as stackbot

    return stackbot(argv[1:])


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
