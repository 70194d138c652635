"""The bot's own buttons and selects are routed by their custom ids
(:class:`bot.views.ItemRouter`): a click reaches its item without discord.py rebuilding
the clicked message's whole view, and a click is answered once."""

from __future__ import annotations

from typing import Any

import discord
import pytest

from tests.bot.conftest import World, buttons_of
from tests.bot.test_game import live_of, open_lobby, play_until, table_message, tap
from tests.bot.test_refusals import actor_of, started


@pytest.fixture
def views_rebuilt(monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    """The messages discord.py rebuilds a view of (``View.from_message``) from now on."""
    rebuilt: list[Any] = []
    original = discord.ui.view.BaseView.from_message.__func__  # type: ignore[attr-defined]

    def spying(cls: Any, message: Any, /, *, timeout: float | None = 180.0) -> Any:
        rebuilt.append(message)
        return original(cls, message, timeout=timeout)

    monkeypatch.setattr(discord.ui.view.BaseView, "from_message", classmethod(spying))
    return rebuilt


async def test_a_tapped_move_reaches_its_button_without_the_message_view_rebuilt(
    world: World, views_rebuilt: list[Any]
) -> None:
    live = await started(world, target=50, dice=5)
    mover = actor_of(world, live.user_at(live.state.current))
    version = live.version
    panel = await mover.click(table_message(world), label="My turn")
    assert panel.ephemeral and panel.response.components
    played = await tap(mover, panel.response, live.state.legal_moves()[0])
    assert played.response.content.startswith("✅"), played.response.content
    assert live_of(world).version > version
    assert views_rebuilt == []


async def test_a_click_is_answered_once(world: World) -> None:
    live = await started(world, target=50, dice=5)
    mover = actor_of(world, live.user_at(live.state.current))
    answers = 0
    send = discord.InteractionResponse.send_message

    async def counting(self: Any, *args: Any, **kwargs: Any) -> Any:
        nonlocal answers
        answers += 1
        return await send(self, *args, **kwargs)

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(discord.InteractionResponse, "send_message", counting)
        panel = await mover.click(table_message(world), label="My turn")
    assert panel.ephemeral
    assert answers == 1


async def test_the_buttons_sent_in_views_are_answered_once_every_time(world: World) -> None:
    """**Full scoring** under a round's end, a game of ``/scores show:history`` and
    **End the table** are clicked again and again, each click answered by one message:
    sending them must not teach discord.py's view store their items, or it answers each
    click a second time beside the router (two copies of the scoring; after the table is
    closed, "This table has ended…" under "The table is closed.")."""
    lobby = await open_lobby(world, target=15, dice=3)
    await world.bob.click(lobby, label="Join")
    await world.alice.click(lobby, label="Start")
    await play_until(world)
    await world.env.advance_time(5)
    [round_end] = [
        m
        for m in world.channel.history()
        if any(b.get("custom_id", "").startswith("story:round:") for b in buttons_of(m))
    ][-1:]
    for _ in range(2):
        scoring = await world.bob.click(round_end, label="Full scoring")
        assert scoring.ephemeral and "pile by pile" in scoring.response.content
        assert scoring.followups == []
    history = await world.alice.slash(world.channel, "scores", show="history")
    [game] = [b for b in buttons_of(history.response) if b["type"] == 2]
    for _ in range(2):
        shown = await world.alice.click(history.response, custom_id=game["custom_id"])
        assert shown.ephemeral and shown.followups == []
    lobby = await open_lobby(world, target=15, dice=3)
    await world.bob.click(lobby, label="Join")
    await world.alice.click(lobby, label="Start")
    confirm = await world.alice.slash(world.channel, "table end")
    ended = await world.alice.click(confirm.response, label="End the table")
    assert ended.response.content == "The table is closed." and ended.followups == []
