"""``stackbot run`` against a Discord stand-in at URL (:mod:`bot.standin.child`), with one
start-up step made to hang forever: ``python -m tests.bot.startup_child URL STEP``, STEP
``open`` (the database opened, its write check never answered: a database that hangs) or
``resume`` (the tables never done loading). It prints ``HUNG`` as the step hangs, and
``STORE CLOSED`` as the database is closed."""

from __future__ import annotations

import asyncio
import sys
from typing import Any

from bot import stop_signal


async def _hang(*args: Any, **kwargs: Any) -> None:
    print("HUNG", flush=True)
    await asyncio.Event().wait()  # forever


def main(argv: list[str]) -> int:
    stop_signal.catch_for(["run"])  # as bot.entry.main
    import bot.client
    from bot.tables import Tables
    from persistence import Store

    close = Store.close

    async def closed(self: Store) -> None:
        await close(self)
        print("STORE CLOSED", flush=True)

    Store.close = closed  # type: ignore[method-assign]
    if argv[1] == "open":
        bot.client.check_writable = _hang  # type: ignore[assignment]
    else:
        Tables.resume = _hang  # type: ignore[method-assign]
    from bot.standin.child import main as child

    return child([argv[0], "run"])


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
