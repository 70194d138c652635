"""The host removes an AI seat added by mistake: ``/table kick seat:`` (the seats
autocompleted), in the lobby only; every refusal says why, to the asker alone, in their
language."""

from __future__ import annotations

from typing import Any

import pytest

from tests.bot.conftest import World, refused_with, table_text_of
from tests.bot.speakers import client_locales
from tests.bot.test_game import live_of, open_lobby, table_message


async def seats_offered(world: World, who: Any, typed: str = "") -> list[tuple[str, str]]:
    choices = await who.autocomplete(world.channel, "table kick", "seat", typed)
    return [(c["name"], c["value"]) for c in choices]


async def test_the_host_removes_an_ai_seat_from_the_lobby(world: World) -> None:
    lobby = await open_lobby(world)
    await world.bob.click(lobby, label="Join")
    await world.alice.click(lobby, label="Add AI")
    await world.alice.slash(world.channel, "table addbot", level="expert")
    assert [s.name for s in live_of(world).info.seats] == ["alice", "bob", "AI 1", "AI 2"]
    offered = await seats_offered(world, world.alice)
    assert offered == [("bob", "bob"), ("🤖 AI 1 (greedy)", "AI 1"), ("🤖 AI 2 (expert)", "AI 2")]
    assert await seats_offered(world, world.alice, "2") == [("🤖 AI 2 (expert)", "AI 2")]
    removed = await world.alice.slash(world.channel, "table kick", seat="AI 1")
    assert removed.ephemeral
    assert removed.response.content == "AI 1 (greedy) is removed from the table."
    info = live_of(world).info
    assert [(s.name, s.ai_level) for s in info.seats] == [
        ("alice", None),
        ("bob", None),
        ("AI 2", "expert"),
    ]
    shown = table_text_of(table_message(world))
    assert "AI 1" not in shown and "AI 2" in shown and "3/" in shown, shown
    # typed rather than picked: the case and an @ do not matter
    again = await world.alice.slash(world.channel, "table kick", seat="@ai 2")
    assert again.response.content == "AI 2 (expert) is removed from the table."
    assert [s.name for s in live_of(world).info.seats] == ["alice", "bob"]
    # a player's seat named so is kicked as player: does
    kicked = await world.alice.slash(world.channel, "table kick", seat="bob")
    assert kicked.response.content == "bob was removed by the host."
    assert [s.name for s in live_of(world).info.seats] == ["alice"]


async def test_removing_a_seat_is_refused_with_its_reason(world: World) -> None:
    lobby = await open_lobby(world)
    await world.bob.click(lobby, label="Join")
    await world.alice.click(lobby, label="Add AI")
    seats = [s.name for s in live_of(world).info.seats]
    refused_with(
        await world.bob.slash(world.channel, "table kick", seat="AI 1"),
        "Only the host can remove an AI seat.",
    )
    refused_with(
        await world.alice.slash(world.channel, "table kick", seat="AI 7"),
        "There is no seat named AI 7 at this table.",
    )
    refused_with(
        await world.alice.slash(world.channel, "table kick", seat="**x**"),
        "There is no seat named \\*\\*x\\*\\* at this table.",
    )
    refused_with(
        await world.alice.slash(world.channel, "table kick", player=world.bob, seat="AI 1"),
        "Name a player or a seat to remove, not both.",
    )
    refused_with(
        await world.alice.slash(world.channel, "table kick"),
        "Name the player to remove (`player`), or the seat (`seat`: an AI's too).",
    )
    assert [s.name for s in live_of(world).info.seats] == seats
    await world.alice.click(lobby, label="Start")
    assert live_of(world).info.status != "lobby"
    refused_with(
        await world.alice.slash(world.channel, "table kick", seat="AI 1"),
        "AI 1 plays on: an AI seat can be removed only before the game starts.",
    )
    assert [s.name for s in live_of(world).info.seats if s.is_ai] == ["AI 1"]
    # mid-game the autocomplete offers the other players alone
    assert await seats_offered(world, world.alice) == [("bob", "bob")]


async def test_a_japanese_host_is_answered_in_japanese(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    locales = client_locales(monkeypatch)
    locales[world.alice.id] = locales[world.bob.id] = "ja"
    lobby = await open_lobby(world)
    await world.bob.click(lobby, label="Join")
    await world.alice.slash(world.channel, "table addbot", level="random")
    assert await seats_offered(world, world.alice, "AI") == [("🤖 AI 1（やさしい）", "AI 1")]
    refused_with(
        await world.bob.slash(world.channel, "table kick", seat="AI 1"),
        "AIの席を外せるのはホストだけです。",
    )
    refused_with(
        await world.alice.slash(world.channel, "table kick", seat="AI 9"),
        "この卓に「AI 9」という席はありません。",
    )
    removed = await world.alice.slash(world.channel, "table kick", seat="AI 1")
    assert removed.response.content == "AI 1（やさしい）を卓から外しました。"
    assert [s.name for s in live_of(world).info.seats] == ["alice", "bob"]
