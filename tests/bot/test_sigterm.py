"""Stops cleanly (issue 7, item 17; issue 18, item 2): SIGTERM mid-game stops taking
interactions, flushes the move writer, closes the database and exits 0; every move the
players were told about is stored. Both through simcord and through the real entry point
(``stackbot run`` against a Discord stand-in on loopback)."""

from __future__ import annotations

import asyncio
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import uuid
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import make_url, text
from sqlalchemy.ext.asyncio import create_async_engine

from bot.standin import BOT_TOKEN, DiscordStandIn
from persistence import Store
from tests.services import need_services
from tests.signals import sigterm_as_default, sigterm_ignored_as_pid_1_has_it

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


# ------------------------------------------- SIGTERM at any moment: start-up, PID 1


async def sigterm_after(
    url: str,
    env: dict[str, str],
    args: list[str],
    cwd: Path,
    preexec: Callable[[], None],
    signal_when: Callable[[], Awaitable[None]],
) -> tuple[int, list[str]]:
    """``stackbot ARGS`` as installed (:mod:`tests.bot.entry_child`: :func:`bot.entry.command`)
    against Discord at ``url``, its signals set by ``preexec``; SIGTERM once
    ``signal_when()`` returns after the command's first instruction (before it, Python's
    own start-up runs no code of ours). It must end within 60 s: its exit status and log
    lines."""
    child = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "tests.bot.entry_child",
        url,
        *args,
        cwd=cwd,  # no .env of the repository's
        env=env,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
        preexec_fn=preexec,
    )
    try:
        assert child.stderr is not None and child.stdout is not None
        errors = asyncio.ensure_future(child.stderr.read())
        said = await asyncio.wait_for(child.stdout.readline(), 60)
        assert said == b"CAUGHT\n", said
        output = asyncio.ensure_future(child.stdout.read())
        await signal_when()
        assert child.returncode is None, "it ended before the signal"
        child.send_signal(signal.SIGTERM)
        try:  # generous: it stops in a second or two
            raw = await asyncio.wait_for(errors, 60)
            await asyncio.wait_for(output, 60)
            await asyncio.wait_for(child.wait(), 60)
        except TimeoutError:
            raise AssertionError(f"stackbot {args} did not stop within 60 s of SIGTERM") from None
    finally:
        if child.returncode is None:
            child.kill()
            await child.wait()
    return child.returncode, raw.decode(errors="replace").splitlines()


def at_once() -> Callable[[], Awaitable[None]]:
    async def now() -> None:
        return None

    return now


def after(seconds: float) -> Callable[[], Awaitable[None]]:
    """A moment of start-up (wherever it is then: the signal may come at any point)."""

    async def later() -> None:
        await asyncio.sleep(seconds)

    return later


async def test_sigterm_at_any_moment_of_start_up_stops_stackbot_run_as_a_later_one_does(
    tmp_path: Path,
) -> None:
    """SIGTERM in the second or so ``stackbot run`` spends importing discord.py and the
    rest, before the bot's own handler was installed, killed it (exit status 143, nothing
    logged). It is caught from the command's first moment (:mod:`bot.stop_signal`): at
    once after the start, and at moments of start-up whatever it is doing then, the bot
    logs the signal once and exits 0 with no traceback, as for a SIGTERM once it serves
    (:func:`test_sigterm_stops_the_real_stackbot_run_with_status_0_after_its_shutdown_steps`)."""
    async with DiscordStandIn() as discord_:
        discord_.add_guild("Tables", channels=["stack"])
        for i, moment in enumerate([at_once(), after(0.3), after(1.0), after(2.5)]):
            env = child_env(DATABASE_URL=f"sqlite+aiosqlite:///{tmp_path / f'{i}.db'}")
            status, lines = await sigterm_after(
                discord_.url, env, ["run"], tmp_path, sigterm_as_default, moment
            )
            log = "\n".join(lines)[-4000:]
            assert status == 0, (i, log)
            assert "Traceback" not in log, (i, log)
            assert sum("SIGTERM received: stopping" in line for line in lines) == 1, (i, log)


async def test_stackbot_run_started_as_pid_1_stops_on_sigterm_at_once_after_its_start(
    tmp_path: Path,
) -> None:
    """As PID 1 (``docker run``), SIGTERM before the bot's handler was installed was
    ignored: the bot started and served on, and ``docker stop`` killed it 10 s later. The
    child starts with SIGTERM ignored, which is what PID 1's is without a handler."""
    async with DiscordStandIn() as discord_:
        env = child_env(DATABASE_URL=f"sqlite+aiosqlite:///{tmp_path / 'bot.db'}")
        status, lines = await sigterm_after(
            discord_.url, env, ["run"], tmp_path, sigterm_ignored_as_pid_1_has_it, at_once()
        )
    log = "\n".join(lines)[-4000:]
    assert status == 0 and "Traceback" not in log, log
    assert "SIGTERM received: stopping" in log, log


async def test_sigterm_stops_stackbot_sync_even_as_pid_1_with_status_143_and_a_line(
    tmp_path: Path,
) -> None:
    """``stackbot sync`` had no SIGTERM handler: as PID 1 (``docker compose run sync``)
    it could not be stopped while Discord did not answer. Started with SIGTERM ignored
    (PID 1's), against a Discord that takes the connection and never answers, SIGTERM
    (at once, or while it waits for Discord) stops it: 143, as a shell reports a task
    that SIGTERM cut short, and one line saying so."""
    from bot.cli import STOPPED_EXIT, SYNC_STOPPED

    with socket.socket() as silent:  # connections are taken (the backlog), never answered
        silent.bind(("127.0.0.1", 0))
        silent.listen(8)
        silent.setblocking(False)
        url = f"http://127.0.0.1:{silent.getsockname()[1]}"
        loop = asyncio.get_running_loop()

        async def connected() -> None:  # sync is logging in: waiting for an answer
            conn, _ = await asyncio.wait_for(loop.sock_accept(silent), 60)
            held.append(conn)

        held: list[socket.socket] = []
        try:
            for moment in (at_once(), connected):
                status, lines = await sigterm_after(
                    url, child_env(), ["sync"], tmp_path, sigterm_ignored_as_pid_1_has_it, moment
                )
                log = "\n".join(lines)[-4000:]
                assert status == STOPPED_EXIT == 143, log
                assert "Traceback" not in log, log
                assert lines[-1] == SYNC_STOPPED, log
        finally:
            for conn in held:
                conn.close()


def test_stackbot_play_as_a_real_pid_1_ends_on_sigterm_before_its_game_with_status_143() -> None:
    """``docker run -it stackbot play …``: PID 1. SIGTERM before the game's table handles
    the stop signals (while the command starts) was ignored, and the game went on. It now
    ends the process as SIGTERM's default action does elsewhere: status 143. A real PID 1:
    the command is the first process of a PID namespace of its own (``unshare``, where
    the system lets a user make one; skipped elsewhere)."""
    unshare = shutil.which("unshare")
    pid_1 = [unshare or "unshare", "--user", "--map-root-user", "--pid", "--fork", "--kill-child"]
    if unshare is None or subprocess.run([*pid_1, "true"], capture_output=True).returncode:
        pytest.skip("no unshare, or no PID namespace for this user")
    caught = (
        "import sys; from bot import stop_signal; stop_signal.catch_for(sys.argv[1:]); "
        "print('CAUGHT', flush=True); from bot.cli import main; sys.exit(main())"
    )
    proc = subprocess.Popen(
        [*pid_1, sys.executable, "-c", caught, "play", "--players", "ann", "--bots", "1"],
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": str(ROOT), "LC_ALL": "C"},
        preexec_fn=sigterm_as_default,
        stdin=subprocess.PIPE,  # open: the game would wait for a move
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert proc.stdout is not None
        assert proc.stdout.readline() == "CAUGHT\n"
        children = Path(f"/proc/{proc.pid}/task/{proc.pid}/children").read_text().split()
        (command,) = children  # unshare's one child: PID 1 of its namespace
        status = Path(f"/proc/{command}/status").read_text()
        assert re.search(r"^NSpid:\s+\d+\s+1$", status, re.M), status
        os.kill(int(command), signal.SIGTERM)
        try:  # generous: it ends at once
            _, err = proc.communicate(timeout=60)
        except subprocess.TimeoutExpired:
            raise AssertionError("stackbot play as PID 1 went on after SIGTERM") from None
    finally:
        if proc.poll() is None:
            proc.kill()  # its child with it (--kill-child)
            proc.communicate()
    # (unshare exits with its child's status; 0: the game went on to its end of input)
    assert proc.returncode == 143, (proc.returncode, err[-3000:])
    assert "Traceback" not in err, err[-3000:]


# ------------------------------- a second signal cuts start-up short; one while logging in


class Child:
    """A child process of the test, its stdout and stderr read line by line as they come."""

    def __init__(self, process: asyncio.subprocess.Process) -> None:
        self.process = process
        self.out: list[str] = []
        self.err: list[str] = []
        self._changed = asyncio.Condition()
        assert process.stdout is not None and process.stderr is not None
        self._readers = [
            asyncio.ensure_future(self._read(process.stdout, self.out)),
            asyncio.ensure_future(self._read(process.stderr, self.err)),
        ]

    async def _read(self, stream: asyncio.StreamReader, lines: list[str]) -> None:
        async for raw in stream:
            async with self._changed:
                lines.append(raw.decode(errors="replace").rstrip())
                self._changed.notify_all()
        async with self._changed:
            self._changed.notify_all()

    async def said(self, lines: list[str], text: str) -> None:
        """Wait (60 s at most: a guard) until a line of ``lines`` holds ``text``."""

        async def until() -> None:
            async with self._changed:
                while not any(text in line for line in lines):
                    if all(r.done() for r in self._readers):
                        raise AssertionError(f"it ended before saying {text!r}")
                    await self._changed.wait()

        try:
            await asyncio.wait_for(until(), 60)
        except TimeoutError:
            raise AssertionError(f"not said within 60 s: {text!r}\n" + self.log) from None

    async def ended(self) -> int:
        """Its exit status (it must end within 60 s: a guard)."""
        try:
            await asyncio.wait_for(asyncio.gather(*self._readers), 60)
            return await asyncio.wait_for(self.process.wait(), 60)
        except TimeoutError:
            raise AssertionError("it did not end within 60 s\n" + self.log) from None

    async def kill(self) -> None:
        if self.process.returncode is None:
            self.process.kill()
            await self.process.wait()
        for reader in self._readers:
            reader.cancel()

    @property
    def log(self) -> str:
        return "\n".join(self.err)[-4000:]


async def child_process(module: str, *args: str, cwd: Path, env: dict[str, str]) -> Child:
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        module,
        *args,
        cwd=cwd,  # no .env of the repository's
        env=env,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.PIPE,
        preexec_fn=sigterm_as_default,
    )
    return Child(process)


@pytest.mark.parametrize(
    ("step", "first", "second"),
    [
        ("open", signal.SIGINT, signal.SIGINT),
        ("open", signal.SIGTERM, signal.SIGINT),
        ("resume", signal.SIGTERM, signal.SIGTERM),
    ],
)
async def test_a_second_signal_cuts_a_hung_start_up_step_short_and_stackbot_run_exits_0(
    tmp_path: Path, step: str, first: signal.Signals, second: signal.Signals
) -> None:
    """Since SIGINT and SIGTERM stop start-up at its next step, a step that hangs (a
    migration waiting on a lock, a database that does not answer) could not be stopped:
    a second signal only said "already stopping" (before, Ctrl-C raised
    KeyboardInterrupt at once). A second signal before start-up is over now cuts the step
    short: one line says so, the database is closed, and ``stackbot run`` exits 0 as
    after one signal (the stop asked for is done), with no traceback."""
    async with DiscordStandIn() as discord_:
        env = child_env(DATABASE_URL=f"sqlite+aiosqlite:///{tmp_path / 'bot.db'}")
        child = await child_process(
            "tests.bot.startup_child", discord_.url, step, cwd=tmp_path, env=env
        )
        try:
            await child.said(child.out, "HUNG")
            child.process.send_signal(first)
            await child.said(child.err, f"{first.name} received: stopping")
            child.process.send_signal(second)
            status = await child.ended()
        finally:
            await child.kill()
        assert not discord_.sessions  # never connected
    log = child.log
    assert status == 0, log
    assert "Traceback" not in log, log
    assert sum("start-up was cut short" in line for line in child.err) == 1, log
    assert "already stopping" not in log, log
    assert child.out.count("STORE CLOSED") == 1, (child.out, log)


async def test_a_signal_while_logging_in_stops_stackbot_run_before_its_tables_are_loaded(
    tmp_path: Path,
) -> None:
    """SIGTERM while ``stackbot run`` logs in to Discord (its HTTP part: Discord slow to
    answer) stops it once logged in, before ``setup_hook`` loads the tables (it loaded
    them all, then stopped): one line says so, and it exits 0."""
    discord_ = DiscordStandIn()
    asked = asyncio.Event()
    answer = asyncio.Event()
    rest = discord_._rest

    async def slow_login(request: Any) -> Any:
        if request.match_info["tail"] == "users/@me":
            asked.set()
            await answer.wait()  # until the bot has the signal
        return await rest(request)

    discord_._rest = slow_login  # type: ignore[method-assign]
    async with discord_:
        env = child_env(DATABASE_URL=f"sqlite+aiosqlite:///{tmp_path / 'bot.db'}")
        child = await child_process("bot.standin.child", discord_.url, "run", cwd=tmp_path, env=env)
        try:
            await asyncio.wait_for(asked.wait(), 60)
            child.process.send_signal(signal.SIGTERM)
            await child.said(child.err, "SIGTERM received: stopping")
            answer.set()
            status = await child.ended()
        finally:
            answer.set()
            await child.kill()
        assert not discord_.sessions  # never connected
    log = child.log
    assert status == 0 and "Traceback" not in log, log
    assert sum("start-up ends before loading the tables" in line for line in child.err) == 1
    assert not any("resumed" in line for line in child.err), log
    assert "stopping: the database is closed" in log, log


# ------------------------------------------------- stackbot sync: late and second SIGTERMs


async def test_sigterm_once_stackbot_sync_published_the_commands_reports_success(
    tmp_path: Path,
) -> None:
    """SIGTERM after Discord took the commands, as the client closed, said they "may not
    all be published" and exited 143; the sync is done: it says so and exits 0, its
    client closed to the end."""
    async with DiscordStandIn() as discord_:
        child = await child_process(
            "tests.bot.sync_child", discord_.url, "1", cwd=tmp_path, env=child_env()
        )
        try:
            await child.said(child.out, "CLOSING")  # after Discord answered the sync
            child.process.send_signal(signal.SIGTERM)
            status = await child.ended()
        finally:
            await child.kill()
        published = len(discord_.commands[None])
    log = child.log
    assert status == 0, log
    assert "Traceback" not in log, log
    assert f"synced {published} commands to every guild (may take up to an hour)" in child.out
    assert "STOPPED CLEANLY" in child.out, (child.out, log)


async def test_a_second_sigterm_to_stackbot_sync_does_not_cut_its_client_close_short(
    tmp_path: Path,
) -> None:
    """A second SIGTERM, while ``stackbot sync`` closed its client after the first,
    cancelled the command while it waited on the close: the close's task was then
    cancelled as the loop ended, its HTTP session left unclosed. It is now taken as the
    same stop: the close runs to its end; 143 and the line, as for one SIGTERM."""
    from bot.cli import STOPPED_EXIT, SYNC_STOPPED

    discord_ = DiscordStandIn()
    asked = asyncio.Event()
    answer = asyncio.Event()
    rest = discord_._rest

    async def slow_sync(request: Any) -> Any:
        if request.method == "PUT" and request.match_info["tail"].endswith("commands"):
            asked.set()
            await answer.wait()  # never: the first SIGTERM stops the sync
        return await rest(request)

    discord_._rest = slow_sync  # type: ignore[method-assign]
    async with discord_:
        child = await child_process(
            "tests.bot.sync_child", discord_.url, "2", cwd=tmp_path, env=child_env()
        )
        try:
            await asyncio.wait_for(asked.wait(), 60)
            child.process.send_signal(signal.SIGTERM)
            await child.said(child.out, "CLOSING")  # the first one stopped the sync
            child.process.send_signal(signal.SIGTERM)
            status = await child.ended()
        finally:
            answer.set()
            await child.kill()
    log = child.log
    assert status == STOPPED_EXIT, (child.out, log)
    assert "Traceback" not in log, log
    assert child.err[-1] == SYNC_STOPPED, log
    assert "SIGNALLED 2" in child.out, (child.out, log)
    assert "STOPPED CLEANLY" in child.out, (child.out, log)


# ------------------------------------------------------- Ctrl-C while the command starts


@pytest.mark.parametrize("command", ["run", "sync"])
async def test_ctrl_c_while_stackbot_starts_ends_it_quietly_with_status_130(
    tmp_path: Path, command: str
) -> None:
    """Ctrl-C (SIGINT) while ``stackbot run`` imported its modules, before the bot handles
    the signal itself, printed a KeyboardInterrupt traceback. It ends the command quietly,
    with the status a shell gives a process that SIGINT ended."""
    from bot.stop_signal import INTERRUPTED_EXIT

    async with DiscordStandIn() as discord_:
        env = child_env(DATABASE_URL=f"sqlite+aiosqlite:///{tmp_path / 'bot.db'}")
        env["ENTRY_CHILD_WAIT"] = "1"  # it waits for the signal where the imports run
        child = await child_process(
            "tests.bot.entry_child", discord_.url, command, cwd=tmp_path, env=env
        )
        try:
            await child.said(child.out, "CAUGHT")
            child.process.send_signal(signal.SIGINT)
            status = await child.ended()
        finally:
            await child.kill()
        assert not discord_.requests  # it went no further
    assert status == INTERRUPTED_EXIT == 130, (status, child.log)
    assert child.err == [], child.log
