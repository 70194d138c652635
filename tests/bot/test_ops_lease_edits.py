"""A process whose shard was taken over while it was paused (its lease lost) keeps its
hands off the channel: the table message it would bring up to date is the new holder's
to edit, and an edit of the old holder's would show an old turn (found with SIGSTOP of
one of two real ``stackbot run`` processes)."""

from __future__ import annotations

import pytest

from persistence import LeaseLost
from tests.bot.conftest import World, table_text_of
from tests.bot.test_game import live_of, open_lobby, table_message, tap


async def test_a_process_that_lost_its_lease_leaves_the_table_message_as_it_was(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    lobby = await open_lobby(world, target=30, dice=3)
    await world.bob.click(lobby, label="Join")
    await world.alice.click(lobby, label="Start")
    await world.env.advance_time(2)
    shown = table_message(world)
    before = table_text_of(shown)
    lost: list[int] = []

    async def taken_over(guild_id: int) -> None:
        lost.append(guild_id)
        raise LeaseLost([0])

    monkeypatch.setattr(world.bot.store, "confirm_lease", taken_over)
    live = live_of(world)
    mover = world.alice if live.current_user() == world.alice.id else world.bob
    panel = await mover.click(shown, label="My turn")
    await tap(mover, panel.response, live.state.legal_moves()[0])
    await world.env.advance_time(3)
    assert lost == [world.guild.id] * len(lost) and lost  # it asked, and was told no
    assert table_message(world).id == shown.id
    assert table_text_of(table_message(world)) == before
