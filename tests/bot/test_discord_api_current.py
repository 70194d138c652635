"""No deprecated Discord API (issue 18, item 14): an answer that had to be deferred
("thinking…") is finished by editing that deferred message, not by a follow-up (Discord
documents a follow-up in its place as deprecated), and every slash command says where it
may be used with ``contexts`` (servers only), never with the deprecated ``dm_permission``."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

import pytest

import bot.answers
from tests.bot.conftest import World


def slowly(work: Callable[..., Awaitable[Any]]) -> Callable[..., Awaitable[Any]]:
    """``work`` taking longer than Discord's 3 s (on simcord's clock): it gets deferred."""

    async def slow(*args: Any, **kwargs: Any) -> Any:
        await asyncio.sleep(bot.answers.DEFER_AFTER + 2)
        return await work(*args, **kwargs)

    return slow


def answered_by_editing_the_deferral(world: World, since: int) -> bool:
    """The interaction answered since request ``since`` was deferred ("thinking…"), then
    that message was edited (``PATCH .../messages/@original``), with no follow-up
    (``POST /webhooks/{application}/{token}``, which Discord would still turn into that edit
    but documents as deprecated)."""
    calls = [(r.method, r.path) for r in world.env.backend.http_requests[since:]]
    deferred = [
        r
        for r in world.env.backend.http_requests[since:]
        if r.path.endswith("/callback") and (r.json or {}).get("type") == 5
    ]
    follow_ups = [c for c in calls if c[0] == "POST" and c[1].startswith("/webhooks/")]
    edits = [c for c in calls if c[0] == "PATCH" and c[1].endswith("/messages/@original")]
    return len(deferred) == 1 and not follow_ups and len(edits) == 1


@pytest.mark.simcord(settle_timeout=30.0)
async def test_a_deferred_start_is_answered_by_editing_the_deferred_message(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    lobby = await world.alice.slash(world.channel, "table new")
    await world.bob.click(lobby.response, label="Join")
    service = world.bot.tables.service
    monkeypatch.setattr(service, "start", slowly(service.start))
    sent = len(world.env.backend.http_requests)
    started = await world.alice.slash(world.channel, "table start")
    assert answered_by_editing_the_deferral(world, sent)
    assert started.response is not None and "starts" in started.response.content
    assert not started.ephemeral  # who begins is said to the channel, as deferred


async def test_a_deferred_export_is_answered_by_editing_the_deferred_message_with_its_file(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    lobby = await world.alice.slash(world.channel, "table new")
    await world.bob.click(lobby.response, label="Join")
    await world.alice.slash(world.channel, "table start")
    store = world.bot.tables.store
    monkeypatch.setattr(store, "export_record", slowly(store.export_record))
    sent = len(world.env.backend.http_requests)
    exported = await world.alice.slash(world.channel, "export")
    assert answered_by_editing_the_deferral(world, sent)
    assert exported.ephemeral and exported.followups == []
    answer = exported.response
    assert answer is not None and "game record" in answer.content
    assert [a.filename for a in answer.attachments] == ["stack-table-1.json"]


async def test_every_command_is_sent_with_contexts_and_without_dm_permission(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    sent: list[dict[str, Any]] = []
    backend = world.env.backend
    register = backend.register_commands

    def spy(guild_id: int | None, payloads: list[dict[str, Any]]) -> list[dict[str, Any]]:
        sent.extend(payloads)
        return register(guild_id, payloads)

    monkeypatch.setattr(backend, "register_commands", spy)
    await world.bot.tree.sync()  # what `stackbot sync` sends
    names = {p["name"] for p in sent}
    assert {"table", "houserules", "scores", "export", "stack", "play", "move"} <= names
    for payload in sent:
        assert "dm_permission" not in payload, payload["name"]
        assert payload["contexts"] == [0], payload["name"]  # servers only
