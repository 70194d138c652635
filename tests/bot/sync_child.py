"""``stackbot sync`` against a Discord stand-in at URL (:mod:`bot.standin.child`), its
client's close held until it has had SIGNALS signals: ``python -m tests.bot.sync_child URL
SIGNALS``. It prints ``SIGNALLED n`` as it takes the n-th SIGTERM, ``CLOSING`` as the
client starts closing, and at its end ``STOPPED CLEANLY`` if the client's stop ran to its
end (not cancelled) and its HTTP session is closed."""

from __future__ import annotations

import asyncio
import signal
import sys
from collections.abc import Callable
from typing import Any

from bot import stop_signal


def main(argv: list[str]) -> int:
    stop_signal.catch_for(["sync"])  # as bot.entry.main
    from bot.client import StackBot

    wanted = int(argv[1])
    taken: list[signal.Signals] = []
    enough: list[asyncio.Event] = []  # made on the command's loop
    bots: list[StackBot] = []
    stop_on = stop_signal.stop_on

    def counted_stop_on(loop: Any, stop: Callable[[signal.Signals], object]) -> None:
        enough.append(asyncio.Event())

        def counted(sig: signal.Signals) -> None:
            stop(sig)
            taken.append(sig)
            print("SIGNALLED", len(taken), flush=True)
            if len(taken) >= wanted:
                enough[0].set()

        stop_on(loop, counted)

    stop_signal.stop_on = counted_stop_on
    init = StackBot.__init__
    shut_down = StackBot._shut_down

    def kept(self: StackBot, *args: Any, **kwargs: Any) -> None:
        init(self, *args, **kwargs)
        bots.append(self)

    async def held(self: StackBot) -> None:
        print("CLOSING", flush=True)
        await enough[0].wait()
        await shut_down(self)

    StackBot.__init__ = kept  # type: ignore[method-assign]
    StackBot._shut_down = held  # type: ignore[method-assign]
    from bot.standin.child import main as child

    status = child([argv[0], "sync"])
    (bot,) = bots
    stopping = bot._stopping
    session = bot.http._HTTPClient__session  # type: ignore[attr-defined]
    if stopping is not None and stopping.done() and not stopping.cancelled() and session.closed:
        print("STOPPED CLEANLY", flush=True)
    return status


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
