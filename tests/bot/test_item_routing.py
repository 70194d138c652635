"""The bot's own buttons and selects are routed by their custom ids
(:class:`bot.views.ItemRouter`): a click reaches its item without discord.py rebuilding
the clicked message's whole view, and a click is answered once."""

from __future__ import annotations

from typing import Any

import discord
import pytest

from tests.bot.conftest import World
from tests.bot.test_game import live_of, table_message, tap
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
