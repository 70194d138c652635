"""An operator's first runs of ``stackbot run`` and ``sync`` (README "Running the bot on your
server"), with the mistakes one makes: each is one line naming the mistake, with the exit
status of a bad command line or setting (2), before anything is opened or sent."""

from __future__ import annotations

import socket
from pathlib import Path

import pytest

from tests.bot.test_cli import run

TOKEN = "not.a.real-token"


def refused(proc_stderr: str) -> str:
    """The one line said, checked to be one line and no traceback."""
    lines = proc_stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in proc_stderr, proc_stderr
    return lines[0]


@pytest.mark.parametrize("guild", ["0", "-5", str(2**64)])
def test_sync_to_a_guild_that_is_no_server_id_is_refused_not_synced_everywhere(
    tmp_path: Path, guild: str
) -> None:
    # --guild 0 was taken for no guild: the commands went to every server, an hour's wait
    proc = run(["-m", "bot.cli", "sync", "--guild", guild], tmp_path, DISCORD_TOKEN=TOKEN)
    assert proc.returncode == 2
    assert proc.stderr.strip().splitlines()[-1] == (
        f"stackbot sync: error: argument --guild: {guild} is not a server id "
        "(Copy Server ID in Discord, with Developer Mode on)"
    )
    assert proc.stdout == "" and list(tmp_path.iterdir()) == []


@pytest.mark.parametrize("name", ["DEV_GUILD_ID", "DISCORD_CLIENT_ID"])
@pytest.mark.parametrize("value", ["0", "-1", str(2**64)])
def test_a_discord_id_setting_that_is_no_id_is_named(tmp_path: Path, name: str, value: str) -> None:
    # DEV_GUILD_ID=0 synced nowhere without a word; a negative one failed at start-up
    proc = run(["-m", "bot.cli", "run"], tmp_path, DISCORD_TOKEN=TOKEN, **{name: value})
    assert proc.returncode == 2
    assert refused(proc.stderr) == (
        f"stackbot: bad setting {name}: {name} must be a Discord id, a number such as "
        "1234567890123456789"
    )
    assert list(tmp_path.iterdir()) == [], "nothing opened"


@pytest.mark.parametrize(
    ("name", "value", "must_be"),
    [
        ("HEALTH_PORT", "abc", "a port number, 1 to 65535"),
        ("WEB_PORT", "80.5", "a port number, 1 to 65535"),
        ("WEB_PORT", "8080/tcp", "a port number, 1 to 65535"),
        ("DEV_GUILD_ID", "my server", "a Discord id, a number such as 1234567890123456789"),
        ("DISCORD_CLIENT_ID", "12e3", "a Discord id, a number such as 1234567890123456789"),
    ],
)
def test_a_number_setting_that_is_no_number_is_named_in_our_words(
    tmp_path: Path, name: str, value: str, must_be: str
) -> None:
    # pydantic's own words were said: "Input should be a valid integer, unable to parse
    # string as an integer", which says nothing of what the setting is
    proc = run(["-m", "bot.cli", "run"], tmp_path, DISCORD_TOKEN=TOKEN, **{name: value})
    assert proc.returncode == 2
    assert refused(proc.stderr) == f"stackbot: bad setting {name}: {name} must be {must_be}"
    assert list(tmp_path.iterdir()) == [], "nothing opened"


@pytest.mark.parametrize("name", ["HEALTH_PORT", "WEB_PORT"])
def test_a_port_in_use_is_refused_before_the_database_is_created(tmp_path: Path, name: str) -> None:
    # it was found once the database was created and migrated, and Discord logged in to
    db = tmp_path / "bot.db"
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        host = "HEALTH_HOST" if name == "HEALTH_PORT" else "WEB_HOST"
        proc = run(
            ["-m", "bot.cli", "run"],
            tmp_path,
            DISCORD_TOKEN=TOKEN,
            DATABASE_URL=f"sqlite+aiosqlite:///{db}",
            **{name: str(port), host: "127.0.0.1"},
        )
    assert proc.returncode == 1
    assert refused(proc.stderr) == (
        f"stackbot: cannot listen on {name}={port} (127.0.0.1): Address already in use."
    )
    assert list(tmp_path.iterdir()) == [], "no database created"


@pytest.mark.parametrize(
    ("lines", "says"),
    [
        ("LOG_LEVL=DEBUG\n", ".env line 2: LOG_LEVL is no setting; did you mean LOG_LEVEL?"),
        ("HEALTH_PROT=8080\n", ".env line 2: HEALTH_PROT is no setting; did you mean HEALTH_PORT?"),
        ("database_uri=x\n", ".env line 2: database_uri is no setting; did you mean DATABASE_URL?"),
        ("DISCORD TOKEN=secret.tok\n", ".env line 2 is not NAME=value, nor a # comment"),
    ],
)
def test_a_mistyped_line_of_dot_env_is_named_not_skipped(
    tmp_path: Path, lines: str, says: str
) -> None:
    # each was skipped without a word: the bot ran with the setting at its default
    (tmp_path / ".env").write_text(f"DISCORD_TOKEN={TOKEN}\n{lines}# the end\n")
    for command in ("run", "sync"):
        proc = run(["-m", "bot.cli", command], tmp_path)
        assert proc.returncode == 2
        assert refused(proc.stderr) == f"stackbot: {says}"
        assert "secret" not in proc.stderr and TOKEN not in proc.stderr
    assert [p.name for p in tmp_path.iterdir()] == [".env"], "nothing opened"


def test_dot_env_may_hold_other_programs_settings(tmp_path: Path) -> None:
    """Docker Compose's own (or any name not a letter or two from a setting's) are left
    alone, as are comments, blank lines, ``export`` and quotes."""
    (tmp_path / ".env").write_text(
        "# stackbot\n\nexport POSTGRES_PASSWORD=x\nTZ='Asia/Tokyo'\nlog_level=\"nonsense\"\n"
    )
    proc = run(["-m", "bot.cli", "run"], tmp_path)
    assert proc.returncode == 2  # reached the settings: the real one's bad value
    assert refused(proc.stderr).startswith("stackbot: bad setting LOG_LEVEL: ")


@pytest.mark.parametrize("pace", ["-1", "nan", "inf", "abc"])
def test_web_demo_with_a_pace_that_is_no_number_of_seconds_is_refused(
    tmp_path: Path, pace: str
) -> None:
    # -1 and nan were taken: the demo's tables played flat out, or stood still
    proc = run(["-m", "bot.cli", "web", "--demo", "--port", "0", "--pace", pace], tmp_path)
    assert proc.returncode == 2
    assert proc.stderr.strip().splitlines()[-1] == (
        f"stackbot web: error: argument --pace: {pace} is not a number of seconds (0 to 3600)"
    )


def test_an_address_family_the_machine_has_switched_off_is_passed_over_as_the_server_does(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A host name that also gives an IPv6 address on a machine where that address is not
    available: the server (asyncio) passes it over and listens on the rest, so the check
    before the database does not refuse it."""
    from bot import webfront

    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    found = [
        (socket.AF_INET6, socket.SOCK_STREAM, 6, "", ("2001:db8::1", port, 0, 0)),
        (socket.AF_INET, socket.SOCK_STREAM, 6, "", ("127.0.0.1", port)),
    ]
    monkeypatch.setattr(webfront.socket, "getaddrinfo", lambda *args, **kwargs: found)
    webfront.check_listen("HEALTH_PORT", "dual-stack.example", port)
