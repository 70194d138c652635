"""A turn's ping (the table message posted anew, pinging the player to move) or half-time
warning whose post gets no answer from Discord — the connection cut (``OSError``,
``aiohttp.ClientError``), or Discord failing (5xx) — may or may not be in the channel.
It is neither dropped (the player never nudged) nor posted again blind (pinged twice):
a little later the bot looks for its own post in the channel first, adopts it if it is
there, and posts only if it is not. The table keeps exactly one live table message."""

from __future__ import annotations

import asyncio
import json
from datetime import timedelta
from typing import Any

import aiohttp
import discord
import pytest
from simcord.http import router

import bot.table_message
import bot.tables
import host.expiry
from bot.table_message import belongs_to
from host.expiry import CLOCK_RETRY
from persistence import StorageError
from tests.bot.conftest import World, message, table_text_of
from tests.bot.test_game import table_message, tap
from tests.bot.test_refusals import actor_of, started

HALF_TIME = "Half your time is gone"


def table_messages(world: World, table_id: int) -> list[discord.Message]:
    """The channel's table messages of ``table_id`` (its buttons name it)."""
    return [m for m in world.channel.history() if belongs_to(m, table_id)]


def pinged(world: World, message: Any) -> list[int]:
    return list(world.env.backend.get_message(world.channel.id, message.id).ping_user_ids)


def pinging_user(kwargs: dict[str, Any]) -> int | None:
    """The user a message post may ping (the table message pings one user at most)."""
    params = kwargs["params"]
    payload = params.payload
    if payload is None:  # with the picture: the payload is the form's JSON part
        part = next(p for p in params.multipart if p["name"] == "payload_json")
        payload = json.loads(part["value"])
    users = (payload.get("allowed_mentions") or {}).get("users") or []
    return int(users[0]) if users else None


class Posts:
    """Every post of a message that pings someone, made through discord.py's real
    ``HTTPClient.send_message``; ``cut`` says how the next one of them is cut."""

    def __init__(self, world: World, monkeypatch: pytest.MonkeyPatch, *, cut: str) -> None:
        self.cut = cut  # "before": Discord never gets it; "after": it is posted, unanswered
        self.cuts: list[int] = []
        self.posted: list[int] = []  # the users pinged by a post that reached Discord
        http = type(world.bot.http)
        send_message = http.send_message

        async def cut_once(self_: Any, channel_id: int, *args: Any, **kwargs: Any) -> Any:
            user = pinging_user(kwargs)
            if user is None:
                return await send_message(self_, channel_id, *args, **kwargs)
            if self.cut and not self.cuts:
                self.cuts.append(user)
                if self.cut == "after":
                    await send_message(self_, channel_id, *args, **kwargs)
                    self.posted.append(user)
                raise aiohttp.ServerDisconnectedError()
            answer = await send_message(self_, channel_id, *args, **kwargs)
            self.posted.append(user)
            return answer

        monkeypatch.setattr(http, "send_message", cut_once)


def database_out_of_reach(world: World, monkeypatch: pytest.MonkeyPatch) -> list[bool]:
    """The database out of reach for the clock (its lease check fails) until something is
    appended to the list returned."""
    store = world.bot.store
    confirm = store.confirm_lease
    reachable: list[bool] = []

    async def out_of_reach(guild_id: int) -> None:
        if not reachable:
            raise StorageError("the database is out of reach")
        await confirm(guild_id)

    monkeypatch.setattr(store, "confirm_lease", out_of_reach)
    return reachable


def storing_fails_once(world: World, monkeypatch: pytest.MonkeyPatch) -> list[int]:
    """The next table message id stored fails (the database out of reach): the list
    returned says whether it has."""
    store = type(world.bot.store)
    set_message = store.set_message
    failed: list[int] = []

    async def fails_once(self: Any, *args: Any, **kwargs: Any) -> Any:
        if not failed:
            failed.append(1)
            raise StorageError("the database is out of reach")
        return await set_message(self, *args, **kwargs)

    monkeypatch.setattr(store, "set_message", fails_once)
    return failed


async def game_with_a_ping_due(world: World, monkeypatch: pytest.MonkeyPatch) -> Any:
    """A game against an AI whose human is pinged 5 s into their turn (120 s to move)."""
    monkeypatch.setattr(bot.tables, "PING_AFTER", 5.0)
    return await started(world, ai=True, target=60, dice=5)


async def a_ping_cut(
    world: World, monkeypatch: pytest.MonkeyPatch, cut: str
) -> tuple[Any, int | None, Any, Posts]:
    """A game with a ping due, its posts cut as ``cut`` says (:class:`Posts`): the live
    table, the user to be pinged, the table message before the ping, the posts."""
    live = await game_with_a_ping_due(world, monkeypatch)
    return live, live.current_user(), table_message(world), Posts(world, monkeypatch, cut=cut)


async def test_a_ping_cut_before_discord_posted_it_is_posted_later_once(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    live, user, first, posts = await a_ping_cut(world, monkeypatch, "before")
    await world.env.advance_time(6)
    assert posts.cuts == [user] and posts.posted == []
    assert table_message(world).id == first.id
    await world.env.advance_time(CLOCK_RETRY + 5)  # before the half-time warning
    assert posts.posted == [user], "the ping cut by the connection was not posted again"
    ping = table_message(world)
    assert ping.id != first.id and pinged(world, ping) == [user]
    assert [m.id for m in table_messages(world, live.id)] == [ping.id]
    assert (await world.bot.store.table(live.id)).message_id == ping.id


async def test_a_ping_posted_but_unanswered_is_adopted_and_not_sent_again(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    live, user, first, posts = await a_ping_cut(world, monkeypatch, "after")
    await world.env.advance_time(6)
    assert posts.cuts == [user] and posts.posted == [user]
    ping = world.channel.last_message
    assert ping.id != first.id and pinged(world, ping) == [user]
    await world.env.advance_time(CLOCK_RETRY + 5)  # before the half-time warning
    assert posts.posted == [user], "the player was pinged twice"
    assert table_message(world).id == ping.id
    assert [m.id for m in table_messages(world, live.id)] == [ping.id]
    assert (await world.bot.store.table(live.id)).message_id == ping.id


async def test_a_ping_discord_failed_to_post_is_posted_later_once(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Discord's 5xx on the re-post (after discord.py's own tries): as a connection cut,
    the ping is not dropped; looked for, then posted once."""
    live, user, first, posts = await a_ping_cut(world, monkeypatch, "")
    world.env.inject_error("POST", "/channels/*/messages", status=500)
    await world.env.advance_time(6)
    assert posts.posted == [] and table_message(world).id == first.id
    await world.env.advance_time(CLOCK_RETRY + 5)  # before the half-time warning
    assert posts.posted == [user], "the ping Discord failed to post was not posted again"
    ping = table_message(world)
    assert ping.id != first.id and pinged(world, ping) == [user]
    assert [m.id for m in table_messages(world, live.id)] == [ping.id]


@pytest.fixture
def history_after_as_discord_reads_it(monkeypatch: pytest.MonkeyPatch) -> None:
    """The channel's messages ``after`` an id as Discord gives them: the oldest ``limit``
    after it, newest first (simcord's stand-in gives the newest)."""
    gets = router._ROUTES["GET"]
    at = next(
        i for i, (path, _) in enumerate(gets) if path == ["channels", "{channel_id}", "messages"]
    )
    path, listed = gets[at]

    def get_history(ctx: Any) -> Any:
        after, limit = ctx.params.get("after"), int(ctx.params.get("limit", 50))
        if after is None or "before" in ctx.params or "around" in ctx.params:
            return listed(ctx)
        ctx.params = {k: v for k, v in ctx.params.items() if k != "limit"} | {"limit": 10**6}
        return list(reversed(listed(ctx)))[:limit][::-1]

    monkeypatch.setitem(router._ROUTES, "GET", [*gets[:at], (path, get_history), *gets[at + 1 :]])


@pytest.mark.usefixtures("history_after_as_discord_reads_it")
async def test_a_ping_posted_but_unanswered_in_a_busy_channel_is_found_not_posted_again(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Members talk on both sides of the cut ping (more messages after the table message
    it replaced than the bot read, and more than a page of Discord's history after it):
    the bot reads from the post's time on, page after page, finds it and keeps it; the
    player is pinged once."""
    monkeypatch.setattr(bot.tables, "PING_AFTER", 20.0)  # (its warning at 60 s)
    live = await started(world, ai=True, target=60, dice=5)
    user, first = live.current_user(), table_message(world)
    for i in range(40):
        await world.carol.send(world.channel, f"chat before ({i})")
    posts = Posts(world, monkeypatch, cut="after")
    await world.env.advance_time(21)
    ping = table_messages(world, live.id)[-1]  # (the cut post: the newest of the table)
    assert posts.cuts == [user] and ping.id != first.id
    for i in range(140):
        await world.carol.send(world.channel, f"chat after ({i})")
    await world.env.advance_time(CLOCK_RETRY + 5)  # before the half-time warning
    assert posts.posted == [user], "the player was pinged twice"
    assert [m.id for m in table_messages(world, live.id)] == [ping.id]
    assert table_message(world).id == ping.id


async def test_a_ping_whose_error_comes_long_after_its_post_is_found_not_posted_again(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Discord makes the post, and the error comes long after (no answer until a timeout):
    the post is looked for from when it was sent, not from when the error came."""
    monkeypatch.setattr(bot.table_message, "CLOCK_SKEW", timedelta(seconds=5))
    live = await game_with_a_ping_due(world, monkeypatch)
    user, first = live.current_user(), table_message(world)
    http = type(world.bot.http)
    send_message = http.send_message
    posted: list[int | None] = []

    async def answered_late(self_: Any, channel_id: int, *args: Any, **kwargs: Any) -> Any:
        answer = await send_message(self_, channel_id, *args, **kwargs)
        posted.append(pinging_user(kwargs))
        if len(posted) == 1:
            await asyncio.sleep(15)  # Discord has it; the answer never comes
            raise aiohttp.ServerTimeoutError()
        return answer

    monkeypatch.setattr(http, "send_message", answered_late)
    await world.env.advance_time(6 + 15)
    ping = table_messages(world, live.id)[-1]
    assert posted == [user] and ping.id != first.id
    await world.env.advance_time(CLOCK_RETRY + 5)  # before the half-time warning
    assert posted == [user], "the player was pinged twice"
    assert [m.id for m in table_messages(world, live.id)] == [ping.id]


async def test_a_half_time_warning_posted_but_unanswered_is_not_sent_again(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    live = await game_with_a_ping_due(world, monkeypatch)
    user = live.current_user()
    version = live.version
    await world.env.advance_time(6)  # the ping, posted as usual
    posts = Posts(world, monkeypatch, cut="after")
    await world.env.advance_time(55)  # the warning at half of 120 s: posted, unanswered
    assert posts.cuts == [user] and posts.posted == [user]
    warned = world.channel.last_message
    assert HALF_TIME in table_text_of(warned)
    await world.env.advance_time(CLOCK_RETRY + 5)  # before the turn runs out
    assert live.version == version
    assert posts.posted == [user], "the player was warned twice"
    assert table_message(world).id == warned.id
    assert [m.id for m in table_messages(world, live.id)] == [warned.id]


async def test_a_move_after_a_ping_posted_but_unanswered_leaves_one_table_message(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The cut ping is in the channel, and the player moves before the clock looks again:
    the move's edit finds the posted ping first and brings it up to date; the older
    table message goes, as after any re-post."""
    live, user, first, posts = await a_ping_cut(world, monkeypatch, "after")
    await world.env.advance_time(6)
    ping = world.channel.last_message
    assert posts.cuts == [user] and ping.id != first.id
    mover = actor_of(world, user)
    panel = await mover.click(ping, label="My turn")
    await tap(mover, panel.response, live.state.legal_moves()[0])
    await world.env.advance_time(3)
    assert [m.id for m in table_messages(world, live.id)] == [ping.id]
    assert table_message(world).id == ping.id
    assert posts.posted == [user]


async def test_a_ping_posted_but_unanswered_is_kept_once_the_database_stores_it(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The post found in the channel, the database failing as its id is stored: it is left
    where it is (neither deleted, which would take the player's ping away and ping again,
    nor kept as a message storage does not know) and looked for again at the clock's next
    try; then kept, the old table message deleted, the player pinged once."""
    monkeypatch.setattr(host.expiry, "CLOCK_RETRY", 10.0)  # (both tries before half time)
    live, user, first, posts = await a_ping_cut(world, monkeypatch, "after")
    await world.env.advance_time(6)
    ping = world.channel.last_message
    failed = storing_fails_once(world, monkeypatch)
    await world.env.advance_time(15)  # the first look (16 s): found, not stored
    assert failed
    assert [m.id for m in table_messages(world, live.id)] == [first.id, ping.id]
    assert (await world.bot.store.table(live.id)).message_id == first.id
    await world.env.advance_time(10)  # the next (26 s): kept
    assert posts.posted == [user]
    assert [m.id for m in table_messages(world, live.id)] == [ping.id]
    assert (await world.bot.store.table(live.id)).message_id == ping.id


async def test_a_table_ended_while_its_ping_is_unanswered_leaves_no_live_ping(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The cut ping is in the channel (its id unknown to the bot) when the host ends the
    table, before the clock looks for it again: closing looks for it and removes it, so
    no table message with live buttons (nor a stale "your turn" ping) is left; the last
    edit goes to the table message the bot knew."""
    live, user, first, posts = await a_ping_cut(world, monkeypatch, "after")
    await world.env.advance_time(6)
    ping = world.channel.last_message
    assert posts.cuts == [user] and ping.id != first.id
    asked = await world.alice.slash(world.channel, "table end")
    await world.alice.click(asked.response, label="End the table")
    await world.env.advance_time(CLOCK_RETRY + 5)
    assert table_messages(world, live.id) == []
    assert ping.id not in [m.id for m in world.channel.history()]
    assert table_text_of(message(world, first.id)).startswith("**This table is closed.**")
    assert posts.posted == [user]


async def test_table_show_after_a_ping_posted_but_unanswered_keeps_the_ping(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    """`/table show` posts a turn's ping anew with its ping (deleting it would take the
    player's mention away): a ping posted but unanswered, found as `/table show` settles
    it, is such a ping."""
    live, user, first, posts = await a_ping_cut(world, monkeypatch, "after")
    await world.env.advance_time(6)
    ping = world.channel.last_message
    assert posts.cuts == [user] and ping.id != first.id
    await world.bob.slash(world.channel, "table show")
    shown = table_message(world)
    assert shown.id != ping.id and world.channel.last_message.id == shown.id
    assert pinged(world, shown) == [user], "the player's ping was taken away"
    assert [m.id for m in table_messages(world, live.id)] == [shown.id]


async def test_a_ping_held_back_past_half_time_is_posted_as_the_warning_once(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The database out of reach from the turn's ping until past half time: the ping and
    the warning are both tried again later (``CLOCK_RETRY`` apart). The ping's retry,
    past the half-time mark, is the warning (its note, its ping): one post; the warning's
    own retry finds it out and posts nothing (not a ping and a warning on its heels)."""
    live = await game_with_a_ping_due(world, monkeypatch)
    user = live.current_user()
    version = live.version
    reachable = database_out_of_reach(world, monkeypatch)
    await world.env.advance_time(61)  # the ping (5 s, 35 s) and the warning (60 s) failed
    assert pinged(world, table_message(world)) == []
    reachable.append(True)
    await world.env.advance_time(5)  # the ping's retry (65 s): past half time
    warned = table_message(world)
    assert pinged(world, warned) == [user]
    assert HALF_TIME in table_text_of(warned), "the late ping did not say half the time is gone"
    await world.env.advance_time(CLOCK_RETRY)  # the warning's retry (90 s)
    assert live.version == version
    assert table_message(world).id == warned.id, "warned again on the late ping's heels"
    assert [m.id for m in table_messages(world, live.id)] == [warned.id]


async def test_a_late_ping_after_a_warning_posted_but_unanswered_pings_no_more(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The turn's ping held back by the database until past half time; the warning then
    posted, unanswered. The ping's retry finds the warning in the channel: the player was
    pinged (and warned) already, so neither the ping nor the warning's retry posts again."""
    live = await game_with_a_ping_due(world, monkeypatch)
    user = live.current_user()
    reachable = database_out_of_reach(world, monkeypatch)
    await world.env.advance_time(58)  # the ping (5 s, 35 s) failed
    reachable.append(True)
    posts = Posts(world, monkeypatch, cut="after")
    await world.env.advance_time(3)  # the warning (60 s): posted, unanswered
    assert posts.cuts == [user] and posts.posted == [user]
    warned = world.channel.last_message
    assert HALF_TIME in table_text_of(warned)
    await world.env.advance_time(5 + CLOCK_RETRY)  # the ping's retry (65 s), the warning's (90 s)
    assert posts.posted == [user], "the player was pinged again"
    assert table_message(world).id == warned.id
    assert [m.id for m in table_messages(world, live.id)] == [warned.id]
