"""What the channel holds and who gets pinged: failed sends never stop the rest, nobody is
pinged who should not be, the channel stays within Discord's rate limit and holds no
trail of pings (issue 7, items 2, 3 and 4)."""

from __future__ import annotations

from collections import defaultdict
from typing import Any

import pytest

import bot.table_message
import bot.tables as tables_module
from engine.game import Decision
from tests.bot.conftest import World, buttons_of, table_text_of
from tests.bot.test_game import live_of, open_lobby, table_message, tap

NASTY = [
    "<@&123456789012345678>__**Al**__",
    "@everyone Bartholomew_the_Great",
    "<@999999999999999999> ~~b~~ `x`",
]


def bot_messages(world: World) -> list[Any]:
    me = world.bot.user
    assert me is not None
    return [m for m in world.channel.history() if m.author.id == me.id]


def stored(world: World, message: Any) -> Any:
    """simcord's own record of a message: who it pinged."""
    return world.env.backend.get_message(world.channel.id, message.id)


async def quick_game(world: World, *, alice_first: bool = True, **options: Any) -> Any:
    lobby = await open_lobby(world, **options)
    await world.bob.click(lobby, label="Join")
    await world.alice.click(lobby, label="Start")
    return live_of(world)


async def play_one(world: World, *, advance: float = 0.0) -> bool:
    """The player to move taps their first legal move; ``False`` once the game is over."""
    live = world.bot.tables.service.by_channel.get(world.channel.id)
    if live is None or live.state is None or live.state.is_over:
        return False
    state = live.state
    actor = {world.alice.id: world.alice, world.bob.id: world.bob}[live.current_user()]
    panel = await actor.click(table_message(world), label="My turn")
    assert panel.ephemeral, panel.response.content
    move = state.legal_moves()[-1] if state.decision is Decision.TURN else state.legal_moves()[0]
    result = await tap(actor, panel.response, move)
    if result is not None and result.response is not None and result.response.components:
        live = world.bot.tables.service.by_channel[world.channel.id]
        await tap(actor, result.response, live.state.legal_moves()[0])
    if advance:
        await world.env.advance_time(advance)
    return True


async def test_a_refused_round_end_message_stops_neither_the_game_end_nor_the_table_edit(
    world: World,
) -> None:
    """Item 2: the steps after a committed move are independent."""
    await quick_game(world, target=1, dice=1)
    # every channel message create fails from now on: the round and game messages too
    world.env.inject_error(
        "POST", f"/channels/{world.channel.id}/messages", status=400, code=50035, times=2
    )
    table_id = live_of(world).id
    replies = []
    while (live := world.bot.tables.service.by_channel.get(world.channel.id)) is not None:
        actor = {world.alice.id: world.alice, world.bob.id: world.bob}[live.current_user()]
        panel = await actor.click(table_message(world), label="My turn")
        result = await tap(actor, panel.response, live.state.legal_moves()[0])
        replies.append(result.response.content if result.response else "")
    await world.env.advance_time(30)
    # the player whose move was saved is told so, never "nothing was changed"
    assert replies and all(r.startswith("✅") for r in replies), replies
    assert not any("nothing was changed" in r for r in replies)
    texts = [table_text_of(m) for m in bot_messages(world)]
    assert any("🏆" in t for t in texts), texts
    # the table message shows the end: no "your turn", no My turn button
    stored_info = await world.bot.store.table(table_id)
    message = next(m for m in world.channel.history() if m.id == stored_info.message_id)
    assert not buttons_of(message)
    assert "🏆" in table_text_of(message)
    assert "it's your turn" not in table_text_of(message)


@pytest.mark.parametrize("nick", NASTY)
async def test_names_never_ping_and_never_format(world: World, nick: str) -> None:
    """Item 3: display names are escaped; only the intended user is ever pinged."""
    role = world.guild.create_role("Everyone-pingable", mentionable=True)
    nasty = world.guild.add_member(world.env.create_user("nasty"), nick=nick)
    lobby = await open_lobby(world, target=1, dice=2)
    await nasty.click(lobby, label="Join")
    await world.alice.click(lobby, label="Start")
    for _ in range(40):
        live = world.bot.tables.service.by_channel.get(world.channel.id)
        if live is None:
            break
        actor = {world.alice.id: world.alice, nasty.id: nasty}[live.current_user()]
        panel = await actor.click(table_message(world), label="My turn")
        await tap(actor, panel.response, live.state.legal_moves()[0])
        await world.env.advance_time(6)
    await world.env.advance_time(30)
    for message in bot_messages(world):
        record = stored(world, message)
        text = table_text_of(message)
        assert not record.ping_role_ids, text
        assert not record.mention_everyone, text
        assert set(record.ping_user_ids) <= {world.alice.id, nasty.id}, text
        assert len(record.ping_user_ids) <= 1, text
        assert "<@&123456789012345678>" not in text
        assert "<@999999999999999999>" not in text
        assert "@everyone" not in text
        if "Bartholomew" in text:
            assert "Bartholomew\\_the\\_Great" in text
    _ = role


# simcord lets a sleep shorter than the settle timeout run in real time: at 0.5 s the edit
# coalescing's waits (up to EDIT_GAP) all follow simcord's clock, as the moves do.
@pytest.mark.simcord(settle_timeout=0.5)
async def test_a_fast_game_stays_within_the_channel_rate_limit_and_leaves_no_pings(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Item 4: at most 5 message creates/deletes per 5 s per channel, at most 2 REST calls
    per move on average, and after the game the channel holds the table, the round results
    and the result — no pings."""
    monkeypatch.setattr(bot.table_message, "EDIT_GAP", 1.5)
    monkeypatch.setattr(tables_module, "PING_AFTER", 5.0)
    # Pictures ride on the same calls (an attachment of the edit or post) and change no
    # count; here they would be drawn on threads whose real time the settle counts.
    world.bot.tables.draw_pictures = False
    await quick_game(world, target=40, dice=4)
    await world.env.advance_time(1.5)
    log = world.env.backend.http_requests
    t0 = world.env.now()
    stamps: list[tuple[float, Any]] = []

    def stamp(before: int) -> None:
        at = (world.env.now() - t0).total_seconds()
        stamps.extend((at, entry) for entry in log[before:])

    moves = 0
    # humans at the keyboard: a move every 0.5 s, with a slow turn (8 s) now and then
    while True:
        before = len(log)
        gap = 8.0 if moves % 10 == 9 else 0.5
        if not await play_one(world, advance=gap):
            break
        stamp(before)
        moves += 1
        assert moves < 400
    before = len(log)
    await world.env.advance_time(30)
    stamp(before)
    channel_path = f"/channels/{world.channel.id}/messages"
    writes = [
        t for t, e in stamps if e.path.startswith(channel_path) and e.method in ("POST", "DELETE")
    ]
    windows: dict[int, int] = defaultdict(int)
    for t in writes:
        windows[int(t // 5)] += 1
    # a sliding check: no 5 s span holds more than 5 creates/deletes
    for i, t in enumerate(writes):
        in_span = [u for u in writes[i:] if u - t < 5.0]
        assert len(in_span) <= 5, (t, in_span)
    # the answers to the players' own clicks are not the channel's: count what the bot
    # sends to the channel on its own (table edits, re-posts, deletes, results)
    calls = [e for _, e in stamps if e.path.startswith(channel_path)]
    print(f"{moves} moves: {len(calls)} channel calls, {len(writes)} creates/deletes")
    assert len(calls) / moves <= 2.0, (len(calls), moves)
    # the channel after the game: the table, round results and the result
    texts = [table_text_of(m) for m in bot_messages(world)]
    assert not any("it's your turn" in t for t in texts), texts
    assert sum("🏆" in t for t in texts) >= 1
    tables = [m for m in bot_messages(world) if m.attachments or "round" in table_text_of(m)]
    assert tables
