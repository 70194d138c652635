"""A restart imports what the bot runs, not what it does not (the product's restarts are
to take under a second): ``stackbot run`` without ``WEB_PORT`` serves no web pages, so it
imports none of their modules; nor the terminal front end, which only ``stackbot play``
runs. Checked in the real process (``stackbot run`` against the Discord stand-in), at the
moment its tables are resumed: its health endpoint and, with ``WEB_PORT``, its web pages
are started by then."""

from __future__ import annotations

import signal
import socket
import subprocess
import sys
from pathlib import Path

from bot.standin import DiscordStandIn
from tests.bot.test_sigterm import child_env, child_process

# the web pages' modules (pictures and numpy under them are the bot's own anyway) and the
# terminal front end's (with persistence.savefile, play's save files)
NOT_RUN = (
    "web.server",
    "web.activity",
    "web.hub",
    "web.views",
    "terminal.table",
    "terminal.hosting",
    "persistence.savefile",
)


async def imported_by_run(tmp_path: Path, **settings: str) -> set[str]:
    """Which of :data:`NOT_RUN` a real ``stackbot run`` has imported once serving."""
    async with DiscordStandIn() as discord_:
        discord_.add_guild("Tables", channels=["stack"])
        env = child_env(DATABASE_URL=f"sqlite+aiosqlite:///{tmp_path / 'bot.db'}")
        env.pop("WEB_PORT", None)
        env.update(settings)
        child = await child_process(
            "tests.bot.imports_child", discord_.url, *NOT_RUN, cwd=tmp_path, env=env
        )
        try:
            await child.said(child.out, "IMPORTED")
            child.process.send_signal(signal.SIGTERM)
            await child.ended()
        finally:
            await child.kill()
        line = next(line for line in child.out if line.startswith("IMPORTED"))
        return set(line.split()[1:])


async def test_stackbot_run_without_web_port_imports_neither_the_web_pages_nor_the_terminal(
    tmp_path: Path,
) -> None:
    assert await imported_by_run(tmp_path) == set()


async def test_stackbot_run_with_web_port_imports_the_web_pages(tmp_path: Path) -> None:
    """(The check above sees what is imported by the time the pages are served.)"""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    imported = await imported_by_run(tmp_path, WEB_PORT=str(port))
    assert {"web.server", "web.activity", "web.hub"} <= imported
    assert "terminal.table" not in imported


def test_table_activity_on_a_bot_without_web_pages_imports_none_of_them() -> None:
    """``/table activity`` where the bot serves no pages says so, and loads none of them
    (they were imported to look for the Activity's page among pages not served)."""
    asked = (
        "import asyncio, sys\n"
        "from bot.webfront import launch_activity\n"
        "class Response:\n"
        "    async def send_message(self, text, **kwargs):\n"
        "        print('SAID', kwargs.get('ephemeral'))\n"
        "class Interaction:\n"
        "    response = Response()\n"
        "    locale = None\n"
        "    guild_locale = None\n"
        "asyncio.run(launch_activity(Interaction(), None))\n"
        "print(sorted(m for m in sys.modules if m.split('.')[0] == 'web'))\n"
    )
    done = subprocess.run(
        [sys.executable, "-c", asked], capture_output=True, text=True, check=True, timeout=300
    )
    assert done.stdout.splitlines() == ["SAID True", "[]"], done.stdout + done.stderr
