"""What a real restart after ``kill -9`` showed (the real ``stackbot run`` against the
Discord stand-in), pinned down in the simulated world: the channel keeps one live table
message whatever the ping's clock and the start-up's recovery do at the same time."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

import bot.startup
import bot.table_message
import bot.tables
import persistence.writer
from bot.table_message import belongs_to
from persistence import StorageError
from tests.bot.conftest import World, make_bot
from tests.bot.test_game import table_message
from tests.bot.test_refusals import started
from tests.bot.test_table_messages_races import DiscordClock


def live_table_messages(world: World, table_id: int) -> list[Any]:
    """The channel's messages that carry buttons of table ``table_id``."""
    return [m for m in world.channel.history() if belongs_to(m, table_id)]


async def test_a_ping_under_way_at_start_up_leaves_one_table_message_after_a_crash_mid_repost(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A bot killed mid-ping (the new table message posted, not stored) leaves two table
    messages. At the restart the turn's ping is overdue, so its clock posts the table
    message anew while the start-up's recovery adopts the message the crash left: the
    one re-post that deletes the message it replaced must be the one the other saw, so
    that exactly one table message (with live buttons) is left in the channel."""
    monkeypatch.setattr(bot.tables, "PING_AFTER", 5.0)
    monkeypatch.setattr(persistence.writer, "datetime", DiscordClock)  # stored times
    live = await started(world, ai=True, target=60, dice=5)
    store_type = type(world.bot.store)
    real_set_message = store_type.set_message

    async def dies_before_storing(self: Any, *args: Any, **kwargs: Any) -> None:
        raise StorageError("the process is killed here")

    monkeypatch.setattr(store_type, "set_message", dies_before_storing)
    await world.env.advance_time(6)  # the ping: posted, not stored (the crash)
    assert len(live_table_messages(world, live.id)) == 2
    monkeypatch.setattr(store_type, "set_message", real_set_message)

    # at the restart, real time passes while the start-up recovers: the overdue ping
    # fires first, reads which message it replaces and draws its message, while the
    # recovery comes to adopt the message the crash left
    pinging, adopting = asyncio.Event(), asyncio.Event()
    real_recover = bot.startup.Startup._recover
    real_finish = bot.startup.Startup._finish_repost
    real_render = bot.table_message.TableMessages._render

    async def recover(self: Any, *args: Any, **kwargs: Any) -> None:
        await pinging.wait()
        await real_recover(self, *args, **kwargs)

    async def finish(self: Any, *args: Any, **kwargs: Any) -> None:
        adopting.set()
        await real_finish(self, *args, **kwargs)

    async def render(self: Any, live_: Any, channel: Any, **kwargs: Any) -> Any:
        record = self.tables.messages.get(live_.id)
        if not pinging.is_set() and record is not None and record.lock.locked():
            pinging.set()  # the ping's re-post, under its record's lock
            await adopting.wait()
        return await real_render(self, live_, channel, **kwargs)

    monkeypatch.setattr(bot.startup.Startup, "_recover", recover)
    monkeypatch.setattr(bot.startup.Startup, "_finish_repost", finish)
    monkeypatch.setattr(bot.table_message.TableMessages, "_render", render)
    new_bot = make_bot(world.db, seed=99)
    await world.env.restart_bot(new_bot)
    world.bot = new_bot
    await world.env.advance_time(20)  # before the half-time warning (at 60 s)
    assert pinging.is_set() and adopting.is_set()
    left = live_table_messages(world, live.id)
    assert [m.id for m in left] == [table_message(world).id], [m.id for m in left]
    assert (await world.bot.store.table(live.id)).message_id == left[0].id
