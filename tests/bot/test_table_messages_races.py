"""Issue 18, items 4, 6, 7, 10 and 11, through simcord with the real bot: an announcement
is posted once however much the members chatted before a restart, and a mark that fails
during a database cut neither doubles it nor shouts; a restart with a cold cache keeps
every table's picture; the picture worker is started and warm once the bot is ready, and
Color Stack's piece step answers before it draws; a move made while the ping is being
posted leaves one live table message; a panel answers its owner only, in every game."""

from __future__ import annotations

import asyncio
import logging
from datetime import datetime
from pathlib import Path
from typing import Any

import discord
import pytest
from simcord.actors import _component_interaction

import bot.startup
import bot.tables as tables_module
import persistence.writer
from bot.client import StackBot
from bot.config import Settings
from bot.table_message import belongs_to
from host.service import Player
from persistence import StorageError
from tests.bot.conftest import World, buttons_of, make_bot, message, table_text_of
from tests.bot.test_colorstack_discord import colorstack_table, to_move
from tests.bot.test_colorstack_discord import open_piece as open_colorstack_piece
from tests.bot.test_game import live_of, open_lobby, table_message, tap
from tests.bot.test_lifecycle import game, move_once, restart, texts
from tests.bot.test_refusals import actor_of, started
from tests.bot.test_restart_recovery import spy_edits
from tests.bot.test_stackup_discord import stackup_table

# ---------------------------------------------------------------- helpers


def stored(world: World, message_id: int) -> Any:
    return world.env.backend.get_message(world.channel.id, message_id)


def attachments_of(world: World, message_id: int) -> list[Any]:
    return list(stored(world, message_id).attachments)


def live_table_messages(world: World) -> list[Any]:
    """The channel's public messages with a live private button (**My turn** …)."""
    return [
        m
        for m in world.channel.history()
        if any(str(b.get("custom_id", "")).startswith("panel:") for b in buttons_of(m))
    ]


async def replay(actor: Any, world: World, message_id: int, custom_id: str, **extra: Any) -> Any:
    """``actor`` sends the interaction of a component of another member's message: a
    modified client replaying a custom id (Discord's own client shows an ephemeral panel
    to its owner only, so simcord's ``click`` refuses it)."""
    data: dict[str, Any] = {"custom_id": custom_id, "component_type": 2, **extra}
    return await _component_interaction(actor, stored(world, message_id), data)


def snapshot(world: World, message_id: int) -> tuple[str, list[Any], int]:
    """What a message shows: its content, its buttons, its attachments' count."""
    m = stored(world, message_id)
    return (m.content, [dict(c) for c in m.components], len(m.attachments))


def answered_anew(world: World, result: Any, owner_panel: int) -> Any:
    """The presser's answer: a new private message, not an edit of the owner's panel."""
    assert result.ephemeral, result.response
    assert result.response is not None and result.response.id != owner_panel
    return result.response


def finish_game(world: World) -> Any:
    async def play() -> None:
        for _ in range(60):
            if world.channel.id not in world.bot.tables.service.by_channel:
                return
            await move_once(world)

    return play()


# ---------------------------------------------------------------- item 4


class DiscordClock(datetime):
    """The database's clock following simcord's (in production both are the wall
    clock; simcord's Discord runs on its own virtual time)."""

    @classmethod
    def now(cls, tz: Any = None) -> Any:
        return discord.utils.utcnow()


async def winner_posted_unmarked(world: World, monkeypatch: pytest.MonkeyPatch) -> Any:
    """A one-round game played to its end whose announcements are posted but never marked
    delivered (as if the process died in between): the winner is in the channel once.
    Returns storage's real ``mark_delivered``, to put back."""
    monkeypatch.setattr(persistence.writer, "datetime", DiscordClock)
    await game(world, target=1, dice=1)

    async def never(self: Any, ids: Any, **posts: Any) -> None:
        return None

    real = type(world.bot.store).mark_delivered
    monkeypatch.setattr(type(world.bot.store), "mark_delivered", never)
    await finish_game(world)
    await world.env.advance_time(30)
    assert sum(t.startswith("🏆") for t in texts(world)) == 1
    return real


async def test_an_announcement_is_posted_once_however_much_members_chatted_before_the_restart(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The winner was posted, the process died before marking it delivered, then 60
    members' messages came: the restarted bot finds its own post (searching its messages
    after the outbox row's time, page after page), and posts nothing twice."""
    real = await winner_posted_unmarked(world, monkeypatch)
    rounds = sum("Round 1" in t for t in texts(world))
    assert rounds >= 1
    assert await world.bot.store.pending_outbox()
    for i in range(60):
        await world.carol.send(world.channel, f"gg, well played ({i})")
    monkeypatch.setattr(type(world.bot.store), "mark_delivered", real)
    await restart(world)
    await world.env.advance_time(30)
    assert sum(t.startswith("🏆") for t in texts(world)) == 1
    assert sum("Round 1" in t for t in texts(world)) == rounds
    assert not await world.bot.store.pending_outbox()


async def test_a_channel_that_cannot_be_read_at_the_restart_is_searched_again_not_posted_blind(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The winner was posted but not marked delivered; at the restart Discord fails to
    list the channel's messages: the bot posts nothing blind, looks again later, finds
    its post, and marks it."""
    real = await winner_posted_unmarked(world, monkeypatch)
    monkeypatch.setattr(type(world.bot.store), "mark_delivered", real)
    world.env.inject_error("GET", f"/channels/{world.channel.id}/messages*", times=None)
    await restart(world)
    await world.env.advance_time(40)
    assert await world.bot.store.pending_outbox(), "nothing was found, nor marked"
    world.env.backend.faults.clear()  # Discord answers again
    await world.env.advance_time(60)
    assert sum(t.startswith("🏆") for t in texts(world)) == 1
    assert not await world.bot.store.pending_outbox()


async def test_a_mark_that_fails_in_a_database_cut_is_warned_of_once_and_posts_nothing_twice(
    world: World, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """Marking an announcement delivered fails (the database is cut right after the
    post): one WARNING, no ERROR; once the database is back the row is marked without
    posting it again, and the next announcements of the table go out once each."""
    await game(world, target=1, dice=1)
    store_type = type(world.bot.store)
    real = store_type.mark_delivered
    cut = {"on": True, "failed": 0}

    async def flaky(self: Any, ids: Any, **posts: Any) -> None:
        if cut["on"]:
            cut["failed"] += 1
            raise StorageError("connection refused (the database is cut)")
        await real(self, ids, **posts)

    monkeypatch.setattr(store_type, "mark_delivered", flaky)
    caplog.set_level(logging.INFO)
    await finish_game(world)
    await world.env.advance_time(5)
    assert cut["failed"] >= 1
    posted = [t for t in texts(world) if t.startswith("🏆") or "Round 1" in t]
    assert posted, "the first announcement went out before its mark failed"
    await world.env.advance_time(100)  # redeliveries while the database is still cut
    during = [t for t in texts(world) if t.startswith("🏆") or "Round 1" in t]
    assert during == posted, "nothing is posted again while its mark fails"
    cut["on"] = False
    await world.env.advance_time(100)
    assert sum(t.startswith("🏆") for t in texts(world)) == 1
    assert sum("Round 1" in t for t in texts(world)) == sum("Round 1" in t for t in posted)
    assert not await world.bot.store.pending_outbox()
    errors = [r for r in caplog.records if r.levelno >= logging.ERROR]
    assert not errors, [r.getMessage() for r in errors]
    warned = [r for r in caplog.records if "not marked delivered" in r.getMessage()]
    assert len(warned) == 1, [r.getMessage() for r in warned]
    assert warned[0].levelno == logging.WARNING


# ---------------------------------------------------------------- item 6


@pytest.mark.parametrize("which", ["stack", "stackup", "colorstack"])
async def test_a_restart_with_a_cold_cache_keeps_every_table_picture(
    world: World, monkeypatch: pytest.MonkeyPatch, which: str
) -> None:
    """The restarted bot re-renders its stale tables before the gateway delivered the
    guilds (its cache is cold: the channel is a partial one, with no guild): the table
    message is edited with its picture, never stripped of it. (The message is taken for
    stale here: a current one is not re-rendered at all.)"""
    if which == "stack":
        await started(world, ai=True, target=60, dice=5)
    elif which == "stackup":
        await stackup_table(world, monkeypatch)
    else:
        await colorstack_table(world, monkeypatch)
    live = live_of(world)
    shown = world.bot.tables.messages[live.id].message_id
    assert attachments_of(world, shown)
    new_bot = make_bot(world.db, seed=99)
    monkeypatch.setattr(new_bot, "get_channel", lambda channel_id: None)  # cold cache
    monkeypatch.setattr(new_bot, "get_guild", lambda guild_id: None)
    monkeypatch.setattr(bot.startup, "version_shown", lambda message, table_id: None)
    edits = spy_edits(world, monkeypatch, shown)
    await world.env.restart_bot(new_bot)
    world.bot = new_bot
    await world.env.advance_time(3)
    assert edits, "the table message was re-rendered at the restart"
    assert attachments_of(world, shown), "the restart stripped the table's picture"
    assert world.bot.tables.messages[live.id].message_id == shown


async def test_a_game_ended_before_a_cold_restart_keeps_its_final_picture(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The game's last move was committed, then the process died before any message:
    the restarted bot, its cache still cold, gives the table message its final edit
    (the outbox's) with the final position's picture."""
    live = await game(world, target=1, dice=1)
    table_id = live.id
    monkeypatch.setattr(tables_module.Tables, "committed", lambda self, outcome: None)
    await finish_game(world)
    monkeypatch.undo()
    info = await world.bot.store.table(table_id)
    assert info.message_id is not None and attachments_of(world, info.message_id)
    new_bot = make_bot(world.db, seed=99)
    monkeypatch.setattr(new_bot, "get_channel", lambda channel_id: None)  # cold cache
    monkeypatch.setattr(new_bot, "get_guild", lambda guild_id: None)
    await world.env.restart_bot(new_bot)
    world.bot = new_bot
    await world.env.advance_time(30)
    final = message(world, info.message_id)
    assert "🏆" in table_text_of(final) and not buttons_of(final)
    assert attachments_of(world, info.message_id), "the final edit stripped the picture"


# ---------------------------------------------------------------- item 7


async def test_the_picture_worker_is_started_at_start_up_and_warms_without_holding_it_up(
    tmp_path: Path,
) -> None:
    """The bot's start-up (its ``setup_hook``, run before the gateway connects and any
    interaction is served), drawing in its worker process as in production, starts the
    worker and warms it in the background: every game's drawing code imported, a picture
    of each drawn. Start-up does not wait for it (pictures asked meanwhile are drawn on
    threads: test_a_cold_worker_never_makes_a_drawing_wait), so the first interaction is
    never held up by the painter. (Not through simcord: a real worker process's pipe is
    outside its virtual time.)"""
    proc_bot = StackBot(
        Settings(database_url=f"sqlite+aiosqlite:///{tmp_path / 'bot.db'}", discord_token=None),
        seed=7,
        handle_signals=False,
        pictures="process",
    )
    try:
        await proc_bot.setup_hook()
        painter = proc_bot.tables.painter
        assert painter.mode == "process"
        assert await painter.wait_warm(600.0), "the worker started at start-up never warmed"
        assert painter.worker_alive()
        assert set(painter.warmed) >= {
            "stack",
            "stackup",
            "colorstack",
        }
    finally:
        if proc_bot._tables is not None:
            await proc_bot.tables.drain()
        if proc_bot.store is not None:
            await proc_bot.store.close()
        await proc_bot.health.stop()


async def test_a_cold_worker_never_makes_a_drawing_wait(monkeypatch: pytest.MonkeyPatch) -> None:
    """Until the started worker has answered its warm-up, pictures are drawn on a thread
    of the bot: nothing waits on a worker still starting or importing."""
    from bot import games
    from engine.colorstack.state import ColorStackState
    from pictures.colorstack import BoardPicture
    from pictures.painter import DrawJob, Painter

    painter = Painter("process")

    async def never_ready() -> Any:
        await asyncio.Event().wait()  # a worker that takes forever to start

    monkeypatch.setattr(painter, "_ready", never_ready)
    colorstack = games.get("colorstack").game
    state = colorstack.new_state(("a", "b"), colorstack.settings())
    assert isinstance(state, ColorStackState)
    job = DrawJob("colorstack", (BoardPicture.of(state),))
    try:
        painter.start([job])
        png = await asyncio.wait_for(painter.draw(job), timeout=60)
        assert png.startswith(b"\x89PNG")
        assert not painter.warm
    finally:
        await painter.close()


async def test_the_color_stack_piece_step_answers_before_it_draws(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    """**My move**, then a piece: the click is answered (deferred) before the board is
    drawn, so a slow or cold drawing never lets Discord's 3 s pass unanswered."""
    humans, _ = await colorstack_table(world, monkeypatch)
    live = live_of(world)
    seat = to_move(live.state)
    actor = next(h for h in humans if h.id == live.user_at(seat))
    backend = world.env.backend
    answered_first: list[bool] = []
    painter = world.bot.tables.painter
    draw = painter.draw

    async def watching(job: Any) -> bytes:
        if job.picture == "colorstack" and job.args[0].selected is not None:
            newest = max(backend.interactions.values(), key=lambda i: i.id)
            answered_first.append(newest.responded)
        return await draw(job)

    monkeypatch.setattr(painter, "draw", watching)
    panel = await open_colorstack_piece(world, actor, live, live.state.pieces(seat)[0])
    assert answered_first == [True], answered_first
    assert panel.attachments, "the piece's panel shows the board"
    assert "Your pieces" in panel.content


# ---------------------------------------------------------------- item 10


async def test_a_move_made_while_the_ping_is_posted_leaves_one_live_table_message(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The ping's new table message is sent; before Discord's answer comes back the
    player's move is committed (which stops the clock that is posting it): the re-post
    still finishes as one unit — the old message deleted, the new one recorded and
    brought up to date — so the channel holds exactly one table message with live
    buttons."""
    monkeypatch.setattr(tables_module, "PING_AFTER", 5.0)
    live = await started(world, ai=False, target=100, dice=5)
    first = table_message(world).id
    tables = world.bot.tables
    http = type(world.bot.http)
    send_message = http.send_message
    moved = asyncio.Event()
    moves: list[asyncio.Task[None]] = []
    version = live.version

    async def move() -> None:
        user = live.current_user()
        assert user is not None
        outcome = await tables.service.move(
            live.channel_id,
            Player(user, "mover"),
            move=live.state.legal_moves()[0],
            table_id=live.id,
            version=live.version,
        )
        tables.committed(outcome)
        moved.set()

    async def slow_answer(self: Any, channel_id: int, **kwargs: Any) -> Any:
        data = await send_message(self, channel_id, **kwargs)
        if not moves:  # the ping: Discord has the message, its answer is on the way
            moves.append(asyncio.get_running_loop().create_task(move()))
            await moved.wait()
        return data

    monkeypatch.setattr(http, "send_message", slow_answer)
    await world.env.advance_time(6)
    assert moves and moved.is_set()
    await world.env.advance_time(3)
    assert live_of(world).version > version
    tables_shown = live_table_messages(world)
    assert len(tables_shown) == 1, [m.id for m in tables_shown]
    assert first not in [m.id for m in world.channel.history()]
    assert tables_shown[0].id == world.bot.tables.messages[live.id].message_id
    now = live_of(world)
    assert f"<@{now.current_user()}>, it's your turn" in table_text_of(tables_shown[0])
    custom_ids = [b.get("custom_id") for b in buttons_of(tables_shown[0])]
    assert f"panel:{now.id}:{now.version}" in custom_ids


async def test_a_table_ended_while_its_ping_is_posted_keeps_its_closed_message_alone(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The ping's new table message is sent; before Discord's answer comes back the host
    ends the table (its last edit goes to the stored message, the old one): the new
    message, a table's no more, is deleted, and the old one, closed, is left — not the
    other way round (the closed message deleted, the new one left with live buttons and
    a stale ping)."""
    monkeypatch.setattr(tables_module, "PING_AFTER", 5.0)
    live = await started(world, ai=False, target=100, dice=5)
    first = table_message(world).id
    http = type(world.bot.http)
    send_message = http.send_message
    ended = asyncio.Event()
    ends: list[asyncio.Task[None]] = []

    async def end() -> None:  # as the host's "End the table" does
        tables = world.bot.tables
        host = Player(live.info.host_id, "host")
        tables.committed(await tables.service.end(live.channel_id, host, manager=False))
        ended.set()

    async def slow_answer(self: Any, channel_id: int, **kwargs: Any) -> Any:
        data = await send_message(self, channel_id, **kwargs)
        if not ends:  # the ping: Discord has the message, its answer is on the way
            ends.append(asyncio.get_running_loop().create_task(end()))
            await ended.wait()
        return data

    monkeypatch.setattr(http, "send_message", slow_answer)
    await world.env.advance_time(6)
    assert ends and ended.is_set()
    await world.env.advance_time(3)
    assert world.bot.tables.service.by_channel.get(world.channel.id) is None
    assert [m for m in world.channel.history() if belongs_to(m, live.id)] == []  # no buttons
    assert first in [m.id for m in world.channel.history()]
    closed = message(world, first)
    assert table_text_of(closed).startswith("**This table is closed.**")
    assert not [b for b in buttons_of(closed) if b.get("custom_id")]


# ---------------------------------------------------------------- item 11


async def test_another_member_pressing_a_stack_panel_gets_their_own_answer(
    world: World,
) -> None:
    """Stack: the **My turn** panel of the player to move, pressed by another member,
    plays nothing and stays as it was; the presser is answered in a new private message."""
    live = await started(world, ai=False, target=100, dice=5)
    owner = actor_of(world, live.current_user())
    other = world.bob if owner is world.alice else world.alice
    panel = (await owner.click(table_message(world), label="My turn")).response
    before, version = snapshot(world, panel.id), live.version
    move = next(b for b in buttons_of(panel) if str(b.get("custom_id", "")).startswith("move:"))
    result = await replay(other, world, panel.id, move["custom_id"])
    answer = answered_anew(world, result, panel.id)
    assert "nothing was played" in answer.content
    assert snapshot(world, panel.id) == before
    assert live_of(world).version == version
    played = await tap(owner, panel, live.state.legal_moves()[0])  # the owner's still works
    assert played.response is not None and live_of(world).version > version


async def test_another_member_pressing_a_stack_up_hand_gets_their_own_hand(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Stack Up!: another player pressing a step of the **My hand** panel of the player
    to move gets their own hand in a new private message; the owner's panel keeps their
    hand and their buttons, and still works."""
    humans, _ = await stackup_table(world, monkeypatch)
    live = live_of(world)
    panel = None
    for _ in range(12):  # past the first player's choice of direction: a step to press
        live = live_of(world)
        owner = next(h for h in humans if h.id == live.current_user())
        shown = table_message(world)
        panel = (await owner.click(shown, label="My hand")).response
        steps = [b["custom_id"] for b in buttons_of(panel) if ":s:" in b.get("custom_id", "")]
        if steps:
            break
        moves = [b["custom_id"] for b in buttons_of(panel) if ":m:" in b.get("custom_id", "")]
        await owner.click(panel, custom_id=moves[0])
        await world.env.advance_time(2)
    assert panel is not None and steps
    other = next(h for h in humans if h.id != owner.id and live.info.seat_of(h.id) is not None)
    before, version = snapshot(world, panel.id), live.version
    result = await replay(other, world, panel.id, steps[0])
    answer = answered_anew(world, result, panel.id)
    other_seat = live.info.seat_of(other.id).position
    assert "Your hand" in answer.content
    assert f"{len(live.state.hand(other_seat))} card" in answer.content.split("\n")[0]
    assert snapshot(world, panel.id) == before
    moves = [b["custom_id"] for b in buttons_of(panel) if ":m:" in b.get("custom_id", "")]
    if moves:
        refused = await replay(other, world, panel.id, moves[0])
        assert "nothing was played" in answered_anew(world, refused, panel.id).content
        assert snapshot(world, panel.id) == before
    assert live_of(world).version == version
    again = await owner.click(panel, custom_id=steps[0])  # the owner's panel still works
    assert again.response.id == panel.id and buttons_of(again.response)


async def test_another_member_pressing_a_color_stack_panel_gets_their_own_panel(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Color Stack: the **My move** panels — the mover's piece step pressed by the other
    player, the waiting player's **Resign…** pressed by the mover — each answer the
    presser with their own panel in a new private message; the owner's stays, and
    nobody's resignation can be built on another's panel."""
    humans, _ = await colorstack_table(world, monkeypatch)
    live = live_of(world)
    seat = to_move(live.state)
    mover = next(h for h in humans if h.id == live.user_at(seat))
    waiting = next(h for h in humans if h is not mover)
    shown = table_message(world)
    mover_panel = (await mover.click(shown, label="My move")).response
    waiting_panel = (await waiting.click(shown, label="My move")).response
    piece = next(b["custom_id"] for b in buttons_of(mover_panel) if ":s:p" in b["custom_id"])
    resign = next(b["custom_id"] for b in buttons_of(waiting_panel) if b["label"] == "Resign…")
    before_mover, before_waiting = (
        snapshot(world, mover_panel.id),
        snapshot(world, waiting_panel.id),
    )
    version = live.version
    result = await replay(waiting, world, mover_panel.id, piece)
    answer = answered_anew(world, result, mover_panel.id)
    assert "Waiting for" in answer.content
    result = await replay(mover, world, waiting_panel.id, resign)
    answer = answered_anew(world, result, waiting_panel.id)
    assert "Resign this game?" not in answer.content
    assert snapshot(world, mover_panel.id) == before_mover
    assert snapshot(world, waiting_panel.id) == before_waiting
    assert live_of(world).version == version
    confirm = await waiting.click(waiting_panel, label="Resign…")  # the owner's still works
    assert confirm.response.id == waiting_panel.id
    assert "Resign this game?" in confirm.response.content
    yes = f"move:{live.id}:{live.version}:resign.{1 - seat}"
    refused = await replay(mover, world, waiting_panel.id, yes)
    assert "nothing was played" in answered_anew(world, refused, waiting_panel.id).content
    assert live_of(world).version == version


_ = (open_lobby, make_bot)
