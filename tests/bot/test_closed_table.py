"""A table closed before its game ended (its host ended it): its last table message names
nobody to move, in any of its parts — no ▶ on a seat's line, no seat to move in the
picture's description nor drawn in the picture, no container in the colour of a seat to
move."""

from __future__ import annotations

from typing import Any

import pytest

from tests.bot.conftest import (
    World,
    buttons_of,
    choose_colours,
    drawings,
    live_of,
    message,
    table_text_of,
)


@pytest.mark.parametrize("game", ["stack", "stackup", "colorstack"])
async def test_a_table_ended_mid_game_shows_nobody_to_move(
    world: World, monkeypatch: pytest.MonkeyPatch, game: str
) -> None:
    opened = await world.alice.slash(world.channel, "table new", game=game)
    await world.bob.click(opened.response, label="Join")
    await world.alice.click(opened.response, label="Add AI")
    await world.alice.click(opened.response, label="Start")
    await choose_colours(world, world.alice, world.bob)
    live = live_of(world)
    assert live.state.current_player is not None
    posted = world.bot.tables.messages[live.id].message_id
    jobs = drawings(world, monkeypatch)
    asked = await world.alice.slash(world.channel, "table end")
    await world.alice.click(asked.response, label="End the table")
    await world.env.advance_time(60)
    last = message(world, posted)
    shown = table_text_of(last)
    assert shown.startswith("**This table is closed.**"), shown
    assert "▶" not in shown, shown
    assert not buttons_of(last)
    [alt] = [a.description or "" for a in last.attachments]
    assert alt and "to move" not in alt, alt
    stored: Any = world.env.backend.get_message(world.channel.id, posted)
    assert [c.get("accent_color") for c in stored.components] == [None]
    pictures = [job.args[0] for job in jobs if job.picture == game]
    assert pictures and pictures[-1].current is None
