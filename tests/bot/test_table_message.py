"""The table message and the My turn panel as a player on a phone meets them (issue 8):
one components-V2 message holding whose turn it is, the picture and the text field and
the button; a panel with the player's own row first, the moves grouped by what they
achieve and the greedy AI's pick suggested — at the biggest table (8 seats of 32-character
names full of markdown and mentions, 30 dice each), within Discord's limits, pinging
nobody but the player whose turn it is."""

from __future__ import annotations

import re
from typing import Any

import discord
import pytest

import bot.startup
import bot.tables
from bot.games.stack.game import move_code
from bot.games.stack.panel import SUGGESTED
from bot.text import MESSAGE_LIMIT, escape_name
from engine.game import Decision
from engine.stack.advice import advise
from engine.stack.render import LINE_WIDTH, short_name
from pictures.painter import as_job
from pictures.palette import seat_colour
from pictures.stack import FieldPicture
from tests.bot.conftest import World, buttons_of, drawings, nasty_name, table_text_of
from tests.bot.test_game import live_of, open_lobby, table_message, tap

COMPONENTS_V2 = 1 << 15
LIVE_MENTION = re.compile(r"<@[!&]?\d+>|@everyone|@here")


def stored(world: World, message: Any) -> Any:
    return world.env.backend.get_message(world.channel.id, message.id)


def actor(world: World, players: list[Any], user_id: int | None) -> Any:
    return next(p for p in players if p.id == user_id)


async def big_table(world: World) -> list[Any]:
    """Eight humans of nasty names at a table of 30 dice each, the game started."""
    players = [world.alice] + [
        world.guild.add_member(world.env.create_user(f"p{i}"), nick=nasty_name(i))
        for i in range(1, 8)
    ]
    lobby = await open_lobby(world, dice=30)
    for player in players[1:]:
        joined = await player.click(lobby, label="Join")
        assert joined.ephemeral, joined.response.content
    await world.alice.click(lobby, label="Start")
    return players


def view_of(world: World, message: Any) -> dict[str, Any]:
    """simcord's stored message, as Discord holds it: flags and the component tree."""
    record = stored(world, message)
    return {"flags": record.flags, "components": record.components, "record": record}


def assert_panel_fits(result: Any, moves: int) -> None:
    rows = result.response.components
    assert len(rows) <= 5
    shown = 0
    for row in rows:
        items = row["components"]
        assert len(items) <= 5
        selects = [c for c in items if c["type"] == 3]
        assert not selects or len(items) == 1
        for item in items:
            if item["type"] == 2:
                assert len(item["label"]) <= 80
                shown += 1
            else:
                assert 1 <= len(item["options"]) <= 25
                shown += len(item["options"])
    hidden = re.search(r"(\d+) more can be typed", result.response.content)
    assert shown + (int(hidden[1]) if hidden else 0) == moves


async def test_the_table_message_is_one_v2_container_with_turn_picture_field_and_button(
    world: World,
) -> None:
    players = await big_table(world)
    live = live_of(world)
    state = live.state
    shown = table_message(world)
    held = view_of(world, shown)
    assert held["flags"] & COMPONENTS_V2 and not shown.content
    [container] = held["components"]
    assert container["type"] == 17
    red, green, blue = seat_colour(state.current)
    assert container["accent_color"] == (red << 16) + (green << 8) + blue
    kinds = [c["type"] for c in container["components"]]
    assert kinds == [10, 12, 10, 1]  # head, picture, field, My turn
    head, gallery, field, row = container["components"]
    user = live.current_user()
    assert f"<@{user}>, it's your turn" in head["content"]
    assert re.search(r"time runs out <t:\d+:R>", head["content"])
    [item] = gallery["items"]
    assert item["description"].startswith("Stack table, round 1")
    assert [a.filename for a in shown.attachments] == ["table.png"]
    assert "**Stack** · round 1" in field["content"]
    assert [b["label"] for b in row["components"]] == ["My turn"]
    text = table_text_of(shown)
    assert len(text) <= MESSAGE_LIMIT
    assert not LIVE_MENTION.sub("", text.replace(f"<@{user}>", "")).count("<@")
    # the first table message came from the lobby's edit: it pinged nobody
    assert stored(world, shown).ping_user_ids == []
    _ = players


async def test_the_field_reads_on_a_phone_and_explains_its_marks_in_the_first_round(
    world: World,
) -> None:
    await big_table(world)
    field = table_text_of(table_message(world))
    lines = field.split("\n")
    assert "-# 1×3: three 1s" in field  # the legend, in the first round
    rows = [line for line in lines if line.startswith("\u2003")]
    assert len(rows) >= 8 and all(len(line) <= LINE_WIDTH for line in rows), rows
    assert all("×" in line for line in rows if line.lstrip().startswith("dice"))


async def test_the_panel_shows_my_row_first_my_moves_grouped_and_the_suggestion(
    world: World,
) -> None:
    players = await big_table(world)
    placed = 0
    for _ in range(40):  # moves through the panel, each player as they come
        live = live_of(world)
        state = live.state
        seat = state.current
        mover = actor(world, players, live.current_user())
        panel = await mover.click(table_message(world), label="My turn")
        assert panel.ephemeral
        content = panel.response.content
        lines = content.split("\n")
        assert lines[0].startswith("🎲 **Your")
        own = escape_name(short_name(state.name(seat)))
        assert own in lines[1] and "pts" in lines[1]  # my row first
        assert lines[2].lstrip().startswith("dice ")
        advice = advise(state)
        for group in {a.group for a in advice}:
            assert f"**{group.title}** (" in content
        best = next(a for a in advice if a.suggested)
        assert f"{SUGGESTED} Suggested:" in content
        assert len(content) <= MESSAGE_LIMIT and not LIVE_MENTION.search(content)
        assert_panel_fits(panel, len(state.legal_moves()))
        suggested = [b for b in buttons_of(panel.response) if b.get("style") == 3]
        assert len(suggested) == 1  # the suggestion is always a button, the green one
        assert suggested[0]["custom_id"].endswith(":" + move_code(best.move))
        result = await tap(mover, panel.response, best.move)
        if result.response is not None and result.response.components:  # place the reroll
            live = live_of(world)
            placing = result.response.content
            assert placing.startswith(f"🎲 **Your rerolled {live.state.placing} must go on")
            assert own in placing.split("\n")[1] and f"{SUGGESTED} Suggested:" in placing
            assert_panel_fits(result, len(live.state.legal_moves()))
            await tap(mover, result.response, live.state.legal_moves()[0])
            placed += 1
    assert live_of(world).state.decision is not Decision.OVER
    assert placed  # a rerolled die had to go on one of several piles, at least once


@pytest.mark.simcord(settle_timeout=1.0)  # the 5 s ping waits for the clock
async def test_the_ping_reposts_the_v2_message_pinging_exactly_that_player_and_edits_ping_nobody(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(bot.tables, "PING_AFTER", 5.0)
    players = await big_table(world)
    first = table_message(world)
    user = live_of(world).current_user()
    await world.env.advance_time(6)
    ping = table_message(world)
    assert ping.id != first.id
    record = stored(world, ping)
    assert record.flags & COMPONENTS_V2
    assert list(record.ping_user_ids) == [user]
    assert not record.ping_role_ids and not record.mention_everyone
    # a move edits the message in place: the next player is named, nobody pinged
    mover = actor(world, players, user)
    panel = await mover.click(ping, label="My turn")
    state = live_of(world).state
    await tap(mover, panel.response, state.legal_moves()[0])
    live = live_of(world)
    if live.state.placing is not None:
        panel = await mover.click(table_message(world), label="My turn")
        await tap(mover, panel.response, live.state.legal_moves()[0])
    await world.env.advance_time(2)
    edited = table_message(world)
    assert edited.id == ping.id
    assert list(stored(world, edited).ping_user_ids) == []
    assert f"<@{live_of(world).current_user()}>, it's your turn" in table_text_of(edited)


@pytest.mark.simcord(settle_timeout=1.0)  # the 5 s ping waits for the clock
async def test_table_show_after_a_ping_posts_the_table_anew_still_pinging_that_player(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    """/table show deletes the table message to post it at the bottom: a ping posted for
    this turn is posted anew with its ping (deleting it took the player's mention away)."""
    monkeypatch.setattr(bot.tables, "PING_AFTER", 5.0)
    await big_table(world)
    user = live_of(world).current_user()
    await world.env.advance_time(6)
    ping = table_message(world)
    assert list(stored(world, ping).ping_user_ids) == [user]
    monkeypatch.setattr(bot.tables, "PING_AFTER", 600.0)
    await world.bob.slash(world.channel, "table show")
    shown = table_message(world)
    assert shown.id != ping.id
    assert list(stored(world, shown).ping_user_ids) == [user]


async def test_without_attach_files_the_table_is_text_only(world: World) -> None:
    world.bot.tables.draw_pictures = False  # what a channel without Attach Files gets
    await big_table(world)
    shown = table_message(world)
    [container] = view_of(world, shown)["components"]
    assert [c["type"] for c in container["components"]] == [10, 10, 1]
    assert not shown.attachments


async def test_the_picture_is_drawn_in_the_servers_theme_with_the_turn_timer(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    await world.bot.store.set_theme(world.guild.id, "light")
    jobs = drawings(world, monkeypatch)
    lobby = await open_lobby(world, dice=3)
    await world.bob.click(lobby, label="Join")
    await world.alice.click(lobby, label="Start")
    # Stack's picture: draw_field(FieldPicture)
    drawn: list[FieldPicture] = [as_job(job).args[0] for job in jobs]
    assert drawn and all(p.theme == "light" and p.turn_seconds == 120 for p in drawn)


async def test_a_lobby_is_v2_and_a_closed_lobby_stays_v2(world: World) -> None:
    lobby = await open_lobby(world)
    assert stored(world, lobby).flags & COMPONENTS_V2
    buttons = [b for b in buttons_of(lobby) if b["type"] == 2]
    assert [b["label"] for b in buttons] == ["Join", "Leave", "Add AI", "Start"]
    [levels] = [c for c in buttons_of(lobby) if c["type"] == 3]
    assert levels["placeholder"] == "Add an AI player of a level…"
    assert [(o["label"], o["value"], o["description"]) for o in levels["options"]] == [
        ("Easy (random)", "random", "Any legal move"),
        ("Fair (greedy)", "greedy", "The best move for now"),
        ("Strong (expert)", "expert", "Looks ahead, about a second a move"),
    ]
    await world.alice.click(lobby, label="Leave")
    await world.env.advance_time(1)
    closed = stored(world, lobby)
    assert closed.flags & COMPONENTS_V2
    message = next(m for m in world.channel.history() if m.id == lobby.id)
    assert table_text_of(message).startswith("This Stack table is closed.")
    assert not buttons_of(message)


async def test_a_table_message_from_before_v2_is_recognised_and_replaced_after_a_restart(
    world: World,
) -> None:
    """A table posted by an older bot (text content and a row of buttons) is still found
    by its buttons and edited into the V2 layout."""
    lobby = await open_lobby(world, dice=3)
    await world.bob.click(lobby, label="Join")
    await world.alice.click(lobby, label="Start")
    live = live_of(world)
    legacy = discord.ui.View(timeout=None)
    legacy.add_item(
        discord.ui.Button(label="My turn", custom_id=f"stack:turn:{live.id}:{live.version}")
    )
    me = world.bot.user
    assert me is not None
    channel = world.bot.get_channel(world.channel.id)
    old = await channel.send("an old table message", view=legacy)
    assert bot.table_message.belongs_to(old, live.id)
    record = world.bot.tables.message(live)
    record.message_id = old.id
    world.bot.tables.refresh(live)
    await world.env.advance_time(1)
    now = stored(world, old)
    assert now.flags & COMPONENTS_V2 and not now.content
    assert "it's your turn" in "\n".join(
        str(c.get("content", "")) for c in now.components[0]["components"]
    )
