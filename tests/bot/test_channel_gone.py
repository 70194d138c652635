"""A table whose channel is gone (deleted, or the bot removed from its server) ends as an
abandoned table does, once, with one line in the log and nothing more sent there; a
channel that only refuses the bot (403: its access or permission taken away, which may be
given back) leaves the table playing, said once in the log."""

from __future__ import annotations

import logging
from typing import Any

import aiohttp
import pytest

from tests.bot.conftest import World, make_bot
from tests.bot.test_game import live_of
from tests.bot.test_refusals import started


def calls_to(world: World, channel_id: int) -> int:
    """The REST calls the bot made to the channel so far."""
    return sum(f"/channels/{channel_id}/" in r.path for r in world.env.http_requests)


def trouble(caplog: pytest.LogCaptureFixture) -> list[str]:
    """What was logged as an error, or with a traceback."""
    return [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR or r.exc_info]


def said(caplog: pytest.LogCaptureFixture, words: str) -> list[str]:
    return [r.getMessage() for r in caplog.records if words in r.getMessage()]


async def restart(world: World, *, recovered: bool = True) -> None:
    world.bot = make_bot(world.db, seed=99)
    await world.env.restart_bot(world.bot)
    if recovered:
        await world.bot.tables.recovered()


async def nothing_more_is_sent_there(
    world: World, channel: int, caplog: pytest.LogCaptureFixture
) -> None:
    """Its clocks (the half-time warning, the turn timer, twice over) and a restart ask
    nothing of the channel; the table's end was said once in the log, with no trouble."""
    before = calls_to(world, channel)
    await world.env.advance_time(400)
    await restart(world)
    await world.env.advance_time(400)
    assert world.bot.tables.service.by_id == {}
    assert calls_to(world, channel) == before
    assert len(said(caplog, "ends as abandoned")) == 1
    assert trouble(caplog) == []


async def an_ended_table_owing(world: World) -> int:
    """A game ended while Discord failed to take its last posts: its channel (what it is
    owed waits in the outbox, and Discord's faults are cleared)."""
    await started(world, ai=False, target=500, dice=8)
    channel = world.channel.id
    world.env.inject_error("POST", f"/channels/{channel}/messages", status=503, times=None)
    confirm = await world.alice.slash(world.channel, "table end")
    await world.alice.click(confirm.response, label="End the table")
    await world.env.settle()
    assert await world.bot.store.pending_outbox(shard_count=1, shards=frozenset({0}))
    world.env.backend.faults.clear()
    return channel


async def test_a_deleted_channels_table_ends_and_nothing_more_is_sent_there(
    world: World, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)
    live = await started(world, ai=False, target=500, dice=8)
    channel = world.channel.id
    world.env.backend.delete_channel(channel)
    await world.env.settle()
    assert live.id not in world.bot.tables.service.by_id
    assert (await world.bot.store.table(live.id)).status == "abandoned"
    await nothing_more_is_sent_there(world, channel, caplog)


async def test_a_channel_discord_no_longer_knows_ends_its_table_at_a_clock_event(
    world: World, caplog: pytest.LogCaptureFixture
) -> None:
    """Learnt from Discord's answer (404 Unknown Channel) to the half-time warning's post:
    the table ends, and neither its clock nor a restart tries the channel again."""
    caplog.set_level(logging.INFO)
    live = await started(world, ai=False, target=500, dice=8)
    channel = world.channel.id
    world.env.inject_error(
        "*", f"/channels/{channel}/*", status=404, code=10003, message="Unknown Channel", times=None
    )
    await world.env.advance_time(70)  # the half-time warning of a 120 s turn
    assert live.id not in world.bot.tables.service.by_id
    assert (await world.bot.store.table(live.id)).status == "abandoned"
    await nothing_more_is_sent_there(world, channel, caplog)


async def test_a_channel_gone_while_the_bot_was_down_ends_its_table_at_the_restart(
    world: World, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)
    live = await started(world, ai=False, target=500, dice=8)
    channel = world.channel.id
    world.env.inject_error(
        "*", f"/channels/{channel}/*", status=404, code=10003, message="Unknown Channel", times=None
    )
    await restart(world)
    await world.env.settle()
    assert world.bot.tables.service.by_id == {}
    assert (await world.bot.store.table(live.id)).status == "abandoned"
    await nothing_more_is_sent_there(world, channel, caplog)


async def test_the_tables_of_a_server_the_bot_was_removed_from_end(
    world: World, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.INFO)
    live = await started(world, ai=False, target=500, dice=8)
    world.env.backend.remove_guild(world.guild.id)
    await world.env.settle()
    assert world.bot.tables.service.by_id == {}
    assert (await world.bot.store.table(live.id)).status == "abandoned"
    await world.env.advance_time(400)
    assert len(said(caplog, "ends as abandoned")) == 1
    assert trouble(caplog) == []


async def test_a_channel_that_refuses_the_bot_leaves_its_table_playing(
    world: World, caplog: pytest.LogCaptureFixture
) -> None:
    """403 (Missing Access, Missing Permissions) may be lifted: the table plays on (the
    turn timer still plays for the player), said once in the log, not at every post."""
    caplog.set_level(logging.INFO)
    live = await started(world, ai=False, target=500, dice=8)
    channel = world.channel.id
    world.env.inject_error(
        "*", f"/channels/{channel}/*", status=403, code=50001, message="Missing Access", times=None
    )
    version = live.version
    await world.env.advance_time(250)  # a warning, an automatic move, the next warning
    assert live_of(world) is live and live.info.status == "playing"
    assert live.version > version
    assert len(said(caplog, "refuses the bot")) == 1
    assert trouble(caplog) == []
    world.env.backend.faults.clear()  # the access given back: the table shows again
    await world.env.advance_time(125)
    assert len(said(caplog, "may post in channel")) == 1
    assert live_of(world) is live and live.info.status == "playing"


async def test_what_was_owed_to_a_channel_gone_while_the_bot_was_down_is_dropped(
    world: World, caplog: pytest.LogCaptureFixture
) -> None:
    """The outbox does not look for its posts in a channel that is gone, again and again:
    what it owed there is dropped."""
    caplog.set_level(logging.INFO)
    channel = await an_ended_table_owing(world)
    world.env.inject_error(
        "*", f"/channels/{channel}/*", status=404, code=10003, message="Unknown Channel", times=None
    )
    before = calls_to(world, channel)
    await restart(world, recovered=False)
    await world.env.settle()
    assert await world.bot.store.pending_outbox(shard_count=1, shards=frozenset({0})) == []
    assert calls_to(world, channel) == before + 1  # one look, which said it is gone
    before = calls_to(world, channel)
    await world.env.advance_time(400)
    assert calls_to(world, channel) == before
    assert trouble(caplog) == []


async def test_a_channel_that_refuses_the_bot_at_a_restart_is_looked_at_less_and_less_often(
    world: World, caplog: pytest.LogCaptureFixture
) -> None:
    """What was owed to a channel that refuses the bot (403) is not posted blind, nor
    looked for every 30 s for ever: the looks grow further apart (up to 15 minutes), said
    once in the log; the access given back, it is delivered."""
    caplog.set_level(logging.INFO)
    channel = await an_ended_table_owing(world)
    world.env.inject_error(
        "*", f"/channels/{channel}/*", status=403, code=50001, message="Missing Access", times=None
    )
    await restart(world, recovered=False)
    await world.env.settle()
    before = calls_to(world, channel)
    await world.env.advance_time(3600)
    assert calls_to(world, channel) - before <= 8  # 30 s, 1, 2, 4, 8, 15, 15, 15 min
    assert len(said(caplog, "messages not read")) == 1
    assert await world.bot.store.pending_outbox(shard_count=1, shards=frozenset({0}))
    world.env.backend.faults.clear()
    await world.env.advance_time(900)
    assert await world.bot.store.pending_outbox(shard_count=1, shards=frozenset({0})) == []
    assert trouble(caplog) == []


async def test_a_channel_discord_fails_to_read_at_a_restart_is_looked_at_again_every_30_s(
    world: World, caplog: pytest.LogCaptureFixture
) -> None:
    """A failure of Discord's (503) is no refusal: what was owed is looked for again every
    30 s, not less and less often, and delivered once the channel reads."""
    caplog.set_level(logging.INFO)
    channel = await an_ended_table_owing(world)
    world.env.inject_error("GET", f"/channels/{channel}/messages", status=503, times=None)
    await restart(world, recovered=False)
    await world.env.settle()
    before = calls_to(world, channel)
    await world.env.advance_time(300)
    assert calls_to(world, channel) - before >= 8  # every 30 s (backing off: 4 at most)
    world.env.backend.faults.clear()
    await world.env.advance_time(31)
    assert await world.bot.store.pending_outbox(shard_count=1, shards=frozenset({0})) == []


async def test_a_channel_whose_history_read_is_cut_at_a_restart_is_recovered_all_the_same(
    world: World, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The connection cut as the restart reads the channel's recent messages (aiohttp's
    server disconnected, no answer of Discord's): taken as a read that failed, as a
    Discord error is; the table is recovered, its message brought up to date, with no
    trouble logged."""
    caplog.set_level(logging.INFO)
    live = await started(world, ai=False, target=500, dice=8)
    http = type(world.bot.http)
    logs_from = http.logs_from
    cuts: list[int] = []

    def cut_once(self: Any, channel_id: int, *args: Any, **kwargs: Any) -> Any:
        if not cuts:
            cuts.append(channel_id)
            raise aiohttp.ServerDisconnectedError()
        return logs_from(self, channel_id, *args, **kwargs)

    monkeypatch.setattr(http, "logs_from", cut_once)
    await restart(world)
    await world.env.settle()
    assert cuts == [world.channel.id]
    assert live.id in world.bot.tables.service.by_id
    assert trouble(caplog) == []
