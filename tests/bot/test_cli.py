"""The ``stackbot`` command's edges (issue 7.16): no token, a refused token, no network, bad
``play`` options, Ctrl-C: one line each, never a traceback; start-up logs no library noise."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import aiohttp
import discord
import pytest

from bot import cli
from bot.cli import main
from bot.client import StackBot
from bot.webfront import ListenRefused
from tests.signals import sigint_as_a_terminal_gives_it

ROOT = Path(__file__).resolve().parents[2]


def run(args: list[str], cwd: Path, **env: str) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items() if k not in ("DISCORD_TOKEN", "DATABASE_URL")}
    return subprocess.run(
        [sys.executable, *args],
        cwd=cwd,
        env={**clean, "PYTHONPATH": str(ROOT), **env},
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def test_run_without_a_token_says_how_to_get_one(tmp_path: Path) -> None:
    proc = run(["-m", "bot.cli", "run"], tmp_path)
    assert proc.returncode != 0
    assert "no DISCORD_TOKEN is set" in proc.stderr
    assert "discord.com/developers/applications" in proc.stderr
    assert "stackbot play" in proc.stderr
    assert proc.stdout == ""


def test_the_token_is_never_echoed(tmp_path: Path) -> None:
    secret = "MTIz.not-a-real-token.but-secret"
    proc = run(["-m", "bot.cli", "run"], tmp_path, DISCORD_TOKEN=secret, LOG_LEVEL="verbose")
    assert proc.returncode != 0 and "LOG_LEVEL" in proc.stderr
    assert secret not in proc.stdout + proc.stderr


def test_the_entry_module_runs_as_the_stackbot_command(tmp_path: Path) -> None:
    # ``python -m bot.entry`` is ``stackbot`` by module (it did nothing and exited 0)
    proc = run(["-m", "bot.entry", "run"], tmp_path)
    assert proc.returncode != 0
    assert "no DISCORD_TOKEN is set" in proc.stderr


# ---------------------------------------------------------------- run and sync: one line each


def connection_refused() -> aiohttp.ClientConnectorError:
    """The error aiohttp raises when nothing answers (a local port that refuses)."""

    async def attempt() -> aiohttp.ClientConnectorError:
        async with aiohttp.ClientSession() as session:
            try:
                await session.get("http://127.0.0.1:1/")
            except aiohttp.ClientConnectorError as err:
                return err
        raise AssertionError("port 1 answered")

    return asyncio.run(attempt())


@pytest.fixture
def bot_env(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A token and a database for `stackbot run`; logging left as the test runner has it."""
    monkeypatch.setenv("DISCORD_TOKEN", "not.a.real-token")
    monkeypatch.setenv("DATABASE_URL", f"sqlite+aiosqlite:///{tmp_path / 'bot.db'}")
    monkeypatch.setenv("LOG_LEVEL", "INFO")
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(cli, "configure_logging", lambda level: None)


def login_raising(err: BaseException) -> object:
    async def login(self: StackBot, token: str) -> None:
        raise err

    return login


FAILURES = [
    pytest.param(discord.LoginFailure("Improper token has been passed."), "refused", id="token"),
    pytest.param(None, "cannot reach Discord", id="connection-refused"),
    pytest.param(OSError(101, "Network is unreachable"), "cannot reach Discord", id="oserror"),
    pytest.param(TimeoutError(), "cannot reach Discord", id="timeout"),
    pytest.param(discord.GatewayNotFound(), "cannot reach Discord", id="gateway"),
    pytest.param(
        ListenRefused("HEALTH_PORT", "127.0.0.1", 9101, OSError(98, "Address already in use")),
        "cannot listen on HEALTH_PORT=9101 (127.0.0.1): Address already in use.",
        id="health-port-in-use",
    ),
]


@pytest.mark.usefixtures("bot_env")
@pytest.mark.parametrize("command", ["run", "sync"])
@pytest.mark.parametrize(("error", "says"), FAILURES)
def test_run_and_sync_that_cannot_log_in_say_why_in_one_line(
    command: str,
    error: BaseException | None,
    says: str,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    monkeypatch.setattr(StackBot, "login", login_raising(error or connection_refused()))
    assert main([command]) == 1
    out = capsys.readouterr()
    lines = out.err.strip().splitlines()
    assert len(lines) == 1, out.err
    assert lines[0].startswith("stackbot: ") and says in lines[0]
    assert "Traceback" not in out.err + out.out and "not.a.real-token" not in out.err


def test_startup_logs_no_alembic_or_voice_noise_at_info(tmp_path: Path) -> None:
    # The real `stackbot run` start-up (database migrated, tables loaded) with a login that
    # runs the set-up and then is refused, as Discord refuses a bad token.
    script = textwrap.dedent(
        """
        import sys

        import discord

        from bot.client import StackBot
        from bot.cli import main

        async def login(self, token):
            await self.setup_hook()
            raise discord.LoginFailure("Improper token has been passed.")

        StackBot.login = login
        sys.exit(main(["run"]))
        """
    )
    proc = run(
        ["-c", script],
        tmp_path,
        DISCORD_TOKEN="not.a.real-token",
        DATABASE_URL=f"sqlite+aiosqlite:///{tmp_path / 'bot.db'}",
        LOG_LEVEL="INFO",
    )
    assert proc.returncode == 1, proc.stderr
    assert "database schema upgraded" in proc.stderr  # INFO lines are shown
    for noise in ("Context impl", "non-transactional DDL", "Running upgrade", "PyNaCl", "davey"):
        assert noise not in proc.stderr
    assert "Traceback" not in proc.stderr
    assert proc.stderr.strip().splitlines()[-1] == (
        "stackbot: Discord refused the token (DISCORD_TOKEN)."
    )


# ---------------------------------------------------------------- play: options and Ctrl-C


@pytest.mark.parametrize(
    ("args", "line"),
    [
        (["--dice", "40"], "stackbot play: bad --dice 40: Input should be less than or equal to 30."),
        (["--dice", "0"], "stackbot play: bad --dice 0: Input should be greater than or equal to 1."),
        (["--target", "0"], "stackbot play: bad --target 0: Input should be greater than or equal to 1."),
        (["--target", "20000"], "stackbot play: bad --target 20000: Input should be less than or equal to 10000."),
        (["--bots", "100000000"], "stackbot play: --bots must be 0 to 8."),
        (["--bots", "-1"], "stackbot play: --bots must be 0 to 8."),
    ],
)  # fmt: skip
def test_bad_play_options_are_refused_in_one_line(
    args: list[str], line: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["play", "--players", "alice", "--bots", "1", *args]) == 2
    out = capsys.readouterr()
    assert out.err == line + "\n"
    assert out.out == ""


def test_play_alone_says_how_to_start_a_game(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["play"]) == 2
    out = capsys.readouterr()
    assert out.out == "" and out.err == (
        "stackbot play: nobody to play: name yourself with --players and add AI seats with "
        "--bots, as in `stackbot play --players you --bots 3` (at least 2 players in all).\n"
    )


def test_ctrl_c_at_the_prompt_ends_the_game_with_one_line(tmp_path: Path) -> None:
    proc = subprocess.Popen(
        [sys.executable, "-m", "bot.cli", "play", "--players", "alice", "--bots", "1"],
        cwd=tmp_path,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        preexec_fn=sigint_as_a_terminal_gives_it,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    assert proc.stdout is not None
    seen = ""
    while not seen.endswith("alice> "):
        char = proc.stdout.read(1)
        assert char, seen  # the game waits for alice before it could end
        seen += char
    proc.send_signal(signal.SIGINT)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 130
    assert err == ""
    assert out.strip().splitlines()[-1] == "Game abandoned: interrupted (Ctrl-C)."


# ---------------------------------------------------------------- run as one process of several

SHARD_MISTAKES = [
    (["--shards", "0-3"], "--shards needs --shard-count (the total number of shards"),
    (["--shard-count", "0"], "--shard-count must be 1 to 4096, not 0"),
    (["--shards", "0-9", "--shard-count", "8"], "bad --shards '0-9': shard 9 is not one of the"),
    (["--shards", "2-1", "--shard-count", "8"], "bad --shards '2-1': '2-1' runs backwards"),
    (["--shards", "x", "--shard-count", "8"], "bad --shards 'x': 'x' is not a shard or a range"),
]


@pytest.mark.usefixtures("bot_env")
@pytest.mark.parametrize(("args", "says"), SHARD_MISTAKES)
def test_run_with_bad_shards_is_refused_in_one_line(
    args: list[str], says: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["run", *args]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("stackbot run: ") and says in err[0], err


@pytest.mark.usefixtures("bot_env")
def test_shards_need_postgresql_and_redis(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    args = ["run", "--shards", "0-3", "--shard-count", "8"]
    assert main(args) == 2  # the test's database is a SQLite file
    assert "share PostgreSQL, not a SQLite file" in capsys.readouterr().err
    monkeypatch.setenv("DATABASE_URL", "postgresql+asyncpg://stackbot@127.0.0.1:1/stackbot")
    monkeypatch.delenv("REDIS_URL", raising=False)
    assert main(args) == 2
    assert "set REDIS_URL=redis://host:6379/0" in capsys.readouterr().err


@pytest.mark.usefixtures("bot_env")
def test_run_with_shards_builds_the_sharded_client(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """`stackbot run --shards 0-3 --shard-count 8` runs an AutoShardedClient with those
    shards as its home (here its database cannot be reached, found before logging in, and
    it says so in one line)."""
    from bot.client import ShardedStackBot

    built: list[ShardedStackBot] = []
    real_init = ShardedStackBot.__init__

    def spy(self: ShardedStackBot, *args: object, **kwargs: object) -> None:
        real_init(self, *args, **kwargs)  # type: ignore[arg-type]
        built.append(self)

    monkeypatch.setattr(ShardedStackBot, "__init__", spy)
    monkeypatch.setattr(StackBot, "login", login_raising(discord.LoginFailure("no")))
    monkeypatch.setenv("DATABASE_URL", "postgresql+asyncpg://stackbot@127.0.0.1:1/stackbot")
    monkeypatch.setenv("REDIS_URL", "redis://127.0.0.1:1/0")
    assert main(["run", "--shards", "0-3", "--shard-count", "8"]) == 1
    assert "Cannot reach PostgreSQL at 127.0.0.1:1" in capsys.readouterr().err
    (bot,) = built
    assert isinstance(bot, discord.AutoShardedClient)
    assert bot.shard_count == 8 and bot.shard_ids == [0, 1, 2, 3]
    assert bot.cluster_config is not None and bot.cluster_config.home == {0, 1, 2, 3}
