"""What a game's start owes its channel ("The game is on! … won the roll-off") is stored
with the start's commit and said once: as the public answer to Start when it can be, else
posted by the outbox, after a crash too; never twice."""

from __future__ import annotations

from typing import Any

import aiohttp
import discord
import pytest

from host.outbox import REDELIVER_AFTER
from persistence import StorageError
from tests.bot.conftest import World, make_bot, table_text_of
from tests.bot.test_discord_api_current import slowly
from tests.bot.test_game import live_of, open_lobby, table_message

LINE = "won the roll-off"


def start_lines(world: World) -> list[str]:
    """The channel's public messages that say who won the roll-off."""
    return [
        table_text_of(m)
        for m in world.channel.history()
        if LINE in table_text_of(m) and not m.flags.ephemeral
    ]


async def restart(world: World, seed: int) -> None:
    """The bot crashes and a new one starts on the same database."""
    new_bot = make_bot(world.db, seed=seed)
    await world.env.restart_bot(new_bot)
    world.bot = new_bot
    await world.env.advance_time(3)
    await new_bot.tables.recovered()
    await world.env.advance_time(3)


async def test_the_start_line_a_crash_cut_off_is_posted_after_the_restart_once(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The process dies right after the start's commit, before Start is answered: the
    table message shows the game after the restart, and the line who begins is posted in
    the channel then — once, however many restarts follow."""
    lobby = await open_lobby(world, target=100, dice=5)
    await world.bob.click(lobby, label="Join")
    service = world.bot.tables.service
    start = service.start

    async def committed_then_crashed(*args: Any, **kwargs: Any) -> Any:
        await start(*args, **kwargs)
        raise RuntimeError("the process died here")  # nothing of it runs after the commit

    monkeypatch.setattr(service, "start", committed_then_crashed)
    started = await world.alice.click(lobby, label="Start")
    assert started.response is None or LINE not in (started.response.content or "")
    assert start_lines(world) == []
    await restart(world, seed=91)
    assert "round 1" in table_text_of(table_message(world))
    assert len(start_lines(world)) == 1, "the start's line was not posted after the restart"
    await restart(world, seed=92)
    assert len(start_lines(world)) == 1


async def test_the_start_line_answered_is_not_posted_again(
    world: World,
) -> None:
    """Start answered in public with the line: that answer is the line's delivery, and a
    restart does not post it again."""
    lobby = await open_lobby(world, target=100, dice=5)
    await world.bob.click(lobby, label="Join")
    started = await world.alice.click(lobby, label="Start")
    assert not started.ephemeral and LINE in started.response.content
    await world.env.advance_time(3)
    assert len(start_lines(world)) == 1
    await restart(world, seed=93)
    assert len(start_lines(world)) == 1


async def test_a_start_line_posted_but_not_marked_is_not_posted_again_after_a_crash(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Start answered in public with the line, but the database fails as the line is
    marked delivered; the process then dies. The restart finds the answer in the channel
    and does not post the line again."""
    lobby = await open_lobby(world, target=100, dice=5)
    await world.bob.click(lobby, label="Join")

    async def never(*args: Any, **kwargs: Any) -> None:
        raise StorageError("the database is gone")

    monkeypatch.setattr(type(world.bot.store), "mark_delivered", never)
    started = await world.alice.click(lobby, label="Start")
    assert not started.ephemeral and LINE in started.response.content
    await world.env.advance_time(3)
    monkeypatch.undo()
    await restart(world, seed=94)
    assert len(start_lines(world)) == 1
    assert live_of(world).info.status == "playing"


async def test_a_start_line_whose_post_is_cut_by_a_connection_error_is_posted_later(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Start's answer lost (the interaction expired), and the outbox's post of the line
    cut by a connection error that is not an ``OSError`` (aiohttp's server disconnected):
    the post is tried again later, as after Discord's 5xx, and goes out once."""
    lobby = await open_lobby(world, target=100, dice=5)
    await world.bob.click(lobby, label="Join")
    world.env.inject_error(
        "POST", "/interactions/*/callback", status=404, code=10062, message="Unknown interaction"
    )
    http = type(world.bot.http)
    send_message = http.send_message
    cuts: list[int] = []

    def cut_once(self: Any, channel_id: int, *args: Any, **kwargs: Any) -> Any:
        payload = kwargs["params"].payload or {}
        if not cuts and LINE in str(payload.get("content", "")):
            cuts.append(channel_id)
            raise aiohttp.ServerDisconnectedError()
        return send_message(self, channel_id, *args, **kwargs)

    monkeypatch.setattr(http, "send_message", cut_once)
    await world.alice.click(lobby, label="Start")
    await world.env.advance_time(3)
    assert cuts, "the line's post was not cut"
    assert start_lines(world) == []
    await world.env.advance_time(REDELIVER_AFTER + 5)
    assert len(start_lines(world)) == 1, "the line cut by the connection was not posted again"


@pytest.mark.simcord(settle_timeout=30.0)
async def test_a_slow_start_whose_answer_could_not_deliver_the_line_says_it_once(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A start slow enough to be deferred in public ("thinking…"), the database failing as
    the answer reads the line owed: the outbox posts it, and the public "thinking…" is
    taken away, not edited into a second copy of the line."""
    lobby = await open_lobby(world, target=100, dice=5)
    await world.bob.click(lobby, label="Join")
    service = world.bot.tables.service
    monkeypatch.setattr(service, "start", slowly(service.start))
    store = type(world.bot.store)
    pending_outbox = store.pending_outbox
    failed: list[int] = []

    async def fails_once(self: Any, *args: Any, **kwargs: Any) -> Any:
        if not failed:
            failed.append(1)
            raise StorageError("the database is out of reach")
        return await pending_outbox(self, *args, **kwargs)

    monkeypatch.setattr(store, "pending_outbox", fails_once)
    await world.alice.click(lobby, label="Start")
    await world.env.advance_time(REDELIVER_AFTER + 5)
    assert failed
    assert len(start_lines(world)) == 1, start_lines(world)
    assert "round 1" in table_text_of(table_message(world))


async def test_a_start_whose_answer_breaks_still_brings_the_table_message_up_to_date(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Anything escaping the answer to Start (a bug, an error of discord.py's own) leaves
    the table message and the outbox brought up to date all the same: the game shows, and
    who begins is posted by the outbox."""
    lobby = await open_lobby(world, target=100, dice=5)
    await world.bob.click(lobby, label="Join")

    async def broken(*args: Any, **kwargs: Any) -> bool:
        raise RuntimeError("an error of the answer's")

    monkeypatch.setattr(world.bot.tables.outbox, "answer", broken)
    await world.alice.click(lobby, label="Start")
    await world.env.advance_time(3)
    assert "round 1" in table_text_of(table_message(world))
    assert len(start_lines(world)) == 1


@pytest.mark.simcord(settle_timeout=30.0)
async def test_a_slow_start_whose_deferral_is_cut_still_says_who_begins_once(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A start slow enough to be deferred, the deferral cut by a connection error: the
    start, committed, goes on as if it had not been deferred (the error escaped after the
    commit: the table message stayed a lobby and nothing said who begins)."""
    lobby = await open_lobby(world, target=100, dice=5)
    await world.bob.click(lobby, label="Join")
    service = world.bot.tables.service
    monkeypatch.setattr(service, "start", slowly(service.start))
    cuts: list[int] = []

    async def cut(self: Any, *args: Any, **kwargs: Any) -> None:
        cuts.append(1)
        raise aiohttp.ServerDisconnectedError()

    monkeypatch.setattr(discord.InteractionResponse, "defer", cut)
    await world.alice.click(lobby, label="Start")
    await world.env.advance_time(REDELIVER_AFTER + 5)
    assert cuts
    assert "round 1" in table_text_of(table_message(world))
    assert len(start_lines(world)) == 1, start_lines(world)
