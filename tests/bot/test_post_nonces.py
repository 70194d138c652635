"""Every message the bot posts in a channel carries a nonce Discord is asked to enforce
(``enforce_nonce``): discord.py sends a message create again by itself on a 5xx or a reset
connection, and if Discord made the message the first time, a second post (a second ping)
would follow; with the nonce Discord answers the retry with the first message. A table
message's post draws its own; an outbox row's is its id, the same at each delivery."""

from __future__ import annotations

import json
from typing import Any

import pytest

from bot.outbox import post_nonce
from tests.bot.conftest import World, table_text_of
from tests.bot.test_game import open_lobby, play_until, table_message
from tests.bot.test_refusals import started


def payload_of(kwargs: dict[str, Any]) -> dict[str, Any]:
    params = kwargs["params"]
    if params.payload is not None:
        return dict(params.payload)
    part = next(p for p in params.multipart if p["name"] == "payload_json")  # with a file
    return dict(json.loads(part["value"]))


class Sent:
    """The payloads of the bot's message creates (``HTTPClient.send_message``)."""

    def __init__(self, world: World, monkeypatch: pytest.MonkeyPatch) -> None:
        self.payloads: list[dict[str, Any]] = []
        http = type(world.bot.http)
        send_message = http.send_message

        async def sending(self_: Any, channel_id: int, *args: Any, **kwargs: Any) -> Any:
            self.payloads.append(payload_of(kwargs))
            return await send_message(self_, channel_id, *args, **kwargs)

        monkeypatch.setattr(http, "send_message", sending)


async def test_every_post_of_a_whole_game_carries_an_enforced_nonce_of_its_own(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    sent = Sent(world, monkeypatch)
    lobby = await open_lobby(world, target=25, dice=4)
    await world.bob.click(lobby, label="Join")
    await world.alice.click(lobby, label="Start")
    await play_until(world)
    await world.alice.slash(world.channel, "table show")  # (none left: no table message)
    texts = [p.get("content") or "" for p in sent.payloads]
    assert any(t.startswith("**Round 1 is over.**") for t in texts), texts  # outbox rows
    assert any("🏆" in t for t in texts), texts
    assert len(sent.payloads) >= 4
    for payload in sent.payloads:
        assert payload.get("enforce_nonce") is True, payload.get("content")
        assert 1 <= len(payload["nonce"]) <= 25  # Discord's limit
    nonces = [p["nonce"] for p in sent.payloads]
    assert len(set(nonces)) == len(nonces), nonces


async def test_a_table_messages_ping_is_posted_with_a_nonce_drawn_for_it(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    live = await started(world, target=60, dice=5)
    sent = Sent(world, monkeypatch)
    await world.alice.slash(world.channel, "table show")
    await world.alice.slash(world.channel, "table show")
    posts = [p for p in sent.payloads if p.get("components")]
    assert len(posts) == 2 and table_text_of(table_message(world))
    assert posts[0]["nonce"] != posts[1]["nonce"]
    assert all(p["enforce_nonce"] is True for p in posts)
    assert live.id  # the same table throughout


def test_an_outbox_rows_nonce_is_its_id_at_every_delivery() -> None:
    assert post_nonce(41) == post_nonce(41) == "o41"
    assert post_nonce(41) != post_nonce(42)
    assert post_nonce() != post_nonce()
    assert len(post_nonce(2**63 - 1)) <= 25 and len(post_nonce()) <= 25
