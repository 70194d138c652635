"""``stackbot run`` against a Discord stand-in at URL (:mod:`bot.standin.child`) that says
which of the modules MODULE... it has imported once its tables are resumed (its health
endpoint and, with ``WEB_PORT``, its web pages started): ``python -m
tests.bot.imports_child URL MODULE...`` prints ``IMPORTED`` and those imported, by name."""

from __future__ import annotations

import sys

from bot import stop_signal


def main(argv: list[str]) -> int:
    stop_signal.catch_for(["run"])  # as bot.entry.main
    from bot.tables import Tables

    resume = Tables.resume

    async def resumed(self: Tables) -> None:
        await resume(self)
        print("IMPORTED", *(name for name in argv[1:] if name in sys.modules), flush=True)

    Tables.resume = resumed  # type: ignore[method-assign]
    from bot.standin.child import main as child

    return child([argv[0], "run"])


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
