"""Stops cleanly (issue 7, item 17; issue 18, item 2): SIGTERM mid-game stops taking
interactions, flushes the move writer, closes the database and exits 0; every move the
players were told about is stored. Both through simcord and through the real entry point
(``stackbot run`` against a Discord stand-in on loopback)."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import uuid
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from sqlalchemy import make_url, text
from sqlalchemy.ext.asyncio import create_async_engine

from bot.standin import BOT_TOKEN, DiscordStandIn
from persistence import Store
from tests.services import need_services

ROOT = Path(__file__).resolve().parents[2]


def test_sigterm_mid_game_exits_0_with_every_acknowledged_move_stored(
    tmp_path: Path,
) -> None:
    db = tmp_path / "bot.db"
    child = subprocess.Popen(
        [sys.executable, "-m", "tests.bot.sigterm_child", str(db)],
        cwd=ROOT,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    assert child.stdout is not None
    acked: list[int] = []
    ready = False
    for line in child.stdout:
        if line.startswith("READY"):
            ready = True
        elif line.startswith("ACK"):
            acked.append(int(line.split()[1]))
            if len(acked) >= 6:
                break
    assert ready and acked, child.stderr.read() if child.stderr else ""
    child.send_signal(signal.SIGTERM)
    try:  # generous: a second or so on an idle machine
        rest, errors = child.communicate(timeout=60)
    except subprocess.TimeoutExpired:
        child.kill()
        raise AssertionError("the bot did not stop within 60 s of SIGTERM") from None
    acked += [int(line.split()[1]) for line in rest.splitlines() if line.startswith("ACK")]
    assert child.returncode == 0, errors[-3000:]

    async def stored_version() -> int:
        store = await Store.open(f"sqlite+aiosqlite:///{db}")
        try:
            tables = await store.load_active_tables()
            return max(t.info.version for t in tables)
        finally:
            await store.close()

    assert asyncio.run(stored_version()) >= max(acked)


# ---------------------------------------------------------------- the real entry point

SHUTDOWN_LOGGED = (  # one process: no shards to hand over
    "SIGTERM received: stopping",
    "stopping: no new interactions are taken",
    "stopping: the steps under way are finished",
    "stopping: the database is closed",
    "stopped: disconnected from Discord",
)


async def run_then_sigterm(
    discord_: DiscordStandIn,
    env: dict[str, str],
    args: list[str],
    cwd: Path,
    ready: Callable[[], Any],
    serving: Callable[[], Awaitable[None]] | None = None,
) -> list[str]:
    """``stackbot ARGS`` against the stand-in until ``ready()``, then (after ``serving``)
    SIGTERM; it must exit 0 within 60 s. Its log lines."""
    child = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "bot.standin.child",
        discord_.url,
        *args,
        cwd=cwd,  # no .env of the repository's
        env=env,
        stdout=asyncio.subprocess.DEVNULL,
        stderr=asyncio.subprocess.PIPE,
    )
    lines: list[str] = []

    async def read() -> None:
        assert child.stderr is not None
        async for raw in child.stderr:
            lines.append(raw.decode(errors="replace").rstrip())

    reader = asyncio.create_task(read())
    try:
        try:
            await discord_.wait_for(lambda: ready() or reader.done(), timeout=60)
        except TimeoutError:
            raise AssertionError("\n".join(lines[-40:])) from None
        assert not reader.done(), "\n".join(lines[-40:])  # it did not end at start-up
        if serving is not None:
            await serving()
        child.send_signal(signal.SIGTERM)
        try:  # generous: the steps take well under a second on an idle machine
            await asyncio.wait_for(child.wait(), 60)
        except TimeoutError:
            raise AssertionError(
                "stackbot run did not stop within 60 s of SIGTERM:\n" + "\n".join(lines[-40:])
            ) from None
        await asyncio.wait_for(reader, 10)
    finally:
        if child.returncode is None:
            child.kill()
            await child.wait()
        reader.cancel()
    log = "\n".join(lines)
    assert child.returncode == 0, log[-4000:]
    assert "Traceback" not in log, log[-4000:]
    return lines


def child_env(**settings: str) -> dict[str, str]:
    """The environment of a ``stackbot`` child: this one's, without the bot's settings,
    plus ``settings``."""
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in ("DATABASE_URL", "REDIS_URL", "HEALTH_PORT", "NODE_NAME", "DEV_GUILD_ID")
    }
    env.update(PYTHONPATH=str(ROOT), DISCORD_TOKEN=BOT_TOKEN, LOG_LEVEL="INFO", **settings)
    return env


def logged_once_in_order(lines: list[str], steps: tuple[str, ...]) -> None:
    at = [next((i for i, line in enumerate(lines) if step in line), -1) for step in steps]
    log = "\n".join(lines)[-4000:]
    assert -1 not in at and at == sorted(at), log
    for step in steps:
        assert sum(step in line for line in lines) == 1, log


async def test_sigterm_stops_the_real_stackbot_run_with_status_0_after_its_shutdown_steps(
    tmp_path: Path,
) -> None:
    """``stackbot run`` (bot.cli:main, discord.py's ``bot.run()``), connected to a Discord
    stand-in and serving a command, exits 0 after SIGTERM, having run its shutdown once:
    interactions refused, steps drained, database closed, gateway closed."""
    async with DiscordStandIn() as discord_:
        guild = discord_.add_guild("Tables", channels=["stack"])
        channel = guild["channels"][0]
        gid = int(guild["id"])
        env = child_env(
            DATABASE_URL=f"sqlite+aiosqlite:///{tmp_path / 'bot.db'}", DEV_GUILD_ID=str(gid)
        )

        async def serving() -> None:  # a slash command is answered through the gateway
            user = discord_.user("alice")
            command = discord_.slash_command(
                guild, channel, user, "table", [{"type": 1, "name": "new", "options": []}]
            )
            await discord_.dispatch("INTERACTION_CREATE", command, guild_id=gid)
            await discord_.wait_for(lambda: discord_.responses[command["token"]], timeout=60)

        lines = await run_then_sigterm(
            discord_,
            env,
            ["run"],
            tmp_path,
            ready=lambda: discord_.ready_sessions and discord_.commands.get(gid),
            serving=serving,
        )
        logged_once_in_order(lines, SHUTDOWN_LOGGED)
        assert discord_.sessions and all(s.ws.closed for s in discord_.sessions)
        assert not discord_.unhandled, discord_.unhandled


async def test_sigterm_to_one_process_of_several_hands_its_shards_over_and_exits_0(
    tmp_path: Path,
) -> None:
    """``stackbot run --shards 0-1 --shard-count 2`` (PostgreSQL and Redis; both gateway
    shards on the stand-in): SIGTERM hands both shards over (their leases released, for
    the next process to claim at once), then stops as one process does."""
    database, redis = need_services()
    tag = uuid.uuid4().hex[:12]
    name = f"stackbot_sigterm_{tag}"
    admin = create_async_engine(database, isolation_level="AUTOCOMMIT")
    async with admin.connect() as conn:
        await conn.execute(text(f'CREATE DATABASE "{name}"'))
    url = make_url(database).set(database=name).render_as_string(hide_password=False)
    try:
        async with DiscordStandIn(shards=2) as discord_:
            for i in range(4):  # guilds on both shards
                discord_.add_guild(f"Tables {i}", channels=["stack"])
            env = child_env(
                DATABASE_URL=url, REDIS_URL=redis, CLUSTER_PREFIX=f"stackbot-test-{tag}"
            )
            lines = await run_then_sigterm(
                discord_,
                env,
                ["run", "--shards", "0-1", "--shard-count", "2"],
                tmp_path,
                ready=lambda: sorted(s.shard for s in discord_.ready_sessions) == [(0, 2), (1, 2)],
            )
        logged_once_in_order(
            lines,
            (
                "SIGTERM received: stopping",
                "stopping: no new interactions are taken",
                "stopping: the shards are handed over",
                "stopping: the steps under way are finished",
                "stopping: the database is closed",
                "stopped: disconnected from Discord",
            ),
        )
        store = await Store.open(url)
        try:
            leases = await store.leases(2)
        finally:
            await store.close()
        assert [(x.shard, x.owner) for x in leases] == [(0, None), (1, None)]
    finally:
        async with admin.connect() as conn:
            await conn.execute(text(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)'))
        await admin.dispose()
