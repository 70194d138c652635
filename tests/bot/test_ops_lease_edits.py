"""A process whose shard was taken over while it was paused (its lease lost) keeps its
hands off the channel: the table message it would bring up to date is the new holder's
to edit, and an edit of the old holder's would show an old turn (found with SIGSTOP of
one of two real ``stackbot run`` processes)."""

from __future__ import annotations

from typing import Any

import aiohttp
import pytest

import bot.tables
from bot.table_message import EDIT_RETRY
from persistence import LeaseLost
from persistence.errors import DatabaseUnavailable
from tests.bot.conftest import World, table_text_of
from tests.bot.test_game import live_of, open_lobby, table_message, tap


async def game_under_way(world: World) -> Any:
    """A two-player game of Stack started in the channel: its table message."""
    lobby = await open_lobby(world, target=30, dice=3)
    await world.bob.click(lobby, label="Join")
    await world.alice.click(lobby, label="Start")
    await world.env.advance_time(2)
    return table_message(world)


async def move_once(world: World, shown: Any) -> None:
    """The player to move opens their panel from the table message ``shown`` and makes
    the first legal move."""
    live = live_of(world)
    mover = world.alice if live.current_user() == world.alice.id else world.bob
    panel = await mover.click(shown, label="My turn")
    await tap(mover, panel.response, live.state.legal_moves()[0])
    await world.env.advance_time(3)


async def test_a_process_that_lost_its_lease_leaves_the_table_message_as_it_was(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    shown = await game_under_way(world)
    before = table_text_of(shown)
    lost: list[int] = []

    async def taken_over(guild_id: int) -> None:
        lost.append(guild_id)
        raise LeaseLost([0])

    monkeypatch.setattr(world.bot.store, "confirm_lease", taken_over)
    await move_once(world, shown)
    assert lost == [world.guild.id] * len(lost) and lost  # it asked, and was told no
    assert table_message(world).id == shown.id
    assert table_text_of(table_message(world)) == before


async def test_an_edit_the_database_could_not_confirm_is_made_once_it_answers(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The database out of reach when a move's edit asks whether this process still holds
    the table's shard: the edit is not made blind, nor lost (the table message would show
    the old turn until the next change); it is tried again a little later."""
    monkeypatch.setattr(bot.tables, "PING_AFTER", 3600.0)  # no ping re-posts it meanwhile
    shown = await game_under_way(world)
    before = table_text_of(shown)
    store = world.bot.store
    real_confirm = store.confirm_lease
    asked: list[int] = []

    async def out_of_reach(guild_id: int) -> None:
        asked.append(guild_id)
        if len(asked) == 1:
            raise DatabaseUnavailable("the database is out of reach")
        await real_confirm(guild_id)

    monkeypatch.setattr(store, "confirm_lease", out_of_reach)
    await move_once(world, shown)
    assert asked and table_text_of(table_message(world)) == before  # not edited blind
    await world.env.advance_time(EDIT_RETRY + 3)
    assert len(asked) >= 2
    assert table_text_of(table_message(world)) != before


async def test_an_edit_cut_by_a_connection_error_is_made_later(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A move's edit of the table message cut by a connection error (aiohttp's server
    disconnected, not Discord's answer): not lost until the next change, it is tried again
    a little later."""
    monkeypatch.setattr(bot.tables, "PING_AFTER", 3600.0)  # no ping re-posts it meanwhile
    shown = await game_under_way(world)
    before = table_text_of(shown)
    http = type(world.bot.http)
    edit_message = http.edit_message
    cuts: list[int] = []

    def cut_once(self: Any, channel_id: int, message_id: int, **kwargs: Any) -> Any:
        if not cuts:
            cuts.append(message_id)
            raise aiohttp.ServerDisconnectedError()
        return edit_message(self, channel_id, message_id, **kwargs)

    monkeypatch.setattr(http, "edit_message", cut_once)
    await move_once(world, shown)
    assert cuts == [shown.id] and table_text_of(table_message(world)) == before
    await world.env.advance_time(EDIT_RETRY + 3)
    assert table_message(world).id == shown.id
    assert table_text_of(table_message(world)) != before
