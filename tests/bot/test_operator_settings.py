"""An operator's first runs of ``stackbot run`` and ``sync`` (README "Running the bot on your
server"), with the mistakes one makes: each is one line naming the mistake, with the exit
status of a bad command line or setting (2), before anything is opened or sent."""

from __future__ import annotations

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
