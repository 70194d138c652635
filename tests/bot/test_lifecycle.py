"""Seats, hosts, timers and restarts (issue 7, items 5 to 11): results belong to who
played, the host's powers move on, no table is ever stuck, what a committed move owes the
channel survives a crash, one clock per table, races end in refusals, nothing grows."""

from __future__ import annotations

import asyncio
from typing import Any

import aiohttp
import discord
import pytest

import bot.tables as tables_module
from bot.tables import Tables
from engine.colorstack.board import square_name
from host.service import Player
from tests.bot.conftest import (
    World,
    buttons_of,
    make_bot,
    refused,
    refused_with,
    table_text_of,
)
from tests.bot.speakers import client_locales
from tests.bot.test_game import live_of, open_lobby, table_message, tap


def texts(world: World) -> list[str]:
    """The channel's messages other than the table message (whose text is in its
    components)."""
    return [m.content for m in world.channel.history()]


def actor(world: World, user_id: int | None) -> Any:
    return {world.alice.id: world.alice, world.bob.id: world.bob, world.carol.id: world.carol}[
        user_id
    ]


async def restart(world: World) -> None:
    new_bot = make_bot(world.db, seed=99)
    await world.env.restart_bot(new_bot)
    world.bot = new_bot


async def game(world: World, *, ai: bool = False, carol: bool = False, **options: Any) -> Any:
    lobby = await open_lobby(world, **options)
    await world.bob.click(lobby, label="Join")
    if carol:
        await world.carol.click(lobby, label="Join")
    if ai:
        await world.alice.click(lobby, label="Add AI")
    await world.alice.click(lobby, label="Start")
    return live_of(world)


async def move_once(world: World) -> None:
    live = live_of(world)
    mover = actor(world, live.current_user())
    panel = await mover.click(table_message(world), label="My turn")
    result = await tap(mover, panel.response, live.state.legal_moves()[0])
    if result is not None and result.response is not None and result.response.components:
        await tap(mover, result.response, live_of(world).state.legal_moves()[0])


# ---------------------------------------------------------------- item 5


async def test_a_seat_taken_over_after_its_player_left_credits_nobody(world: World) -> None:
    """Item 5: a player who leaves right after the start is not credited with the AI's
    results (the departure counts as an abandoned game for them: no game, no win)."""
    await game(world, target=5, dice=2)
    await world.bob.slash(world.channel, "table leave")
    for _ in range(200):
        if world.channel.id not in world.bot.tables.service.by_channel:
            break
        await move_once(world)
    await world.env.advance_time(30)
    assert await world.bot.store.stats(world.guild.id, world.bob.id) is None
    alice = await world.bot.store.stats(world.guild.id, world.alice.id)
    assert alice is not None and alice.games == 1


# ---------------------------------------------------------------- item 6


async def test_the_host_leaving_mid_game_hands_host_powers_to_the_next_human(
    world: World,
) -> None:
    """Item 6: the next human seat becomes host (announced); the old host loses kick/end."""
    await game(world, carol=True, target=100, dice=5)
    left = await world.alice.slash(world.channel, "table leave")
    assert left.ephemeral
    info = live_of(world).info
    assert info.host_id in (world.bob.id, world.carol.id)
    await world.env.advance_time(10)
    assert any("is the host now" in t for t in texts(world))
    refused = await world.alice.slash(world.channel, "table kick", player=world.bob)
    assert refused.ephemeral and refused.response.content == "Only the host can kick a player."
    new_host = actor(world, info.host_id)
    other = world.carol if new_host is world.bob else world.bob
    kicked = await new_host.slash(world.channel, "table kick", player=other)
    assert kicked.ephemeral and "removed by the host" in kicked.response.content


# ---------------------------------------------------------------- item 7


async def test_pending_ai_turns_are_played_at_start_up(world: World) -> None:
    """Item 7: a crash between a human's move and the AI's reply leaves the AI to move;
    the restarted bot plays it instead of waiting forever."""
    await world.admin.slash(world.channel, "houserules set", key="turn_timer", value="off")
    live = await game_with_ai_only(world)
    state = live.state
    assert live.current_user() == world.alice.id
    # the human's move is committed, and the process dies before the AI replies
    work = state.copy()
    move = work.legal_moves()[0]
    work.apply(move, by=state.current)
    step = [move]
    if work.chance_kind == "roll":
        roll = work.sample_chance(live.rng)
        work.apply(roll)
        step.append(roll)
    step += work.resolve_chance(live.rng)
    if work.is_over or work.current is None or work.current == state.current:
        pytest.skip("the move did not hand the turn to the AI")
    await world.bot.store.record_move(live.id, live.version, step, work)
    version = live.version + len(step)
    await restart(world)
    resumed = live_of(world)
    assert resumed.version > version, "the AI's turn was played at start-up"
    assert resumed.current_user() == world.alice.id or resumed.state.is_over


async def game_with_ai_only(world: World) -> Any:
    lobby = await open_lobby(world, target=200, dice=6)
    await world.alice.click(lobby, label="Add AI")
    await world.alice.click(lobby, label="Start")
    return live_of(world)


# ---------------------------------------------------------------- item 8


async def test_a_crash_before_the_table_edit_is_repaired_from_storage(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Item 8: the move is answered, the process dies before the table is edited: the
    restarted bot shows the position after the move and names the player to move."""
    live = await game(world, target=100, dice=5)
    monkeypatch.setattr(Tables, "refresh", lambda self, live: None)
    await move_once(world)
    after = live_of(world)
    version, user = after.version, after.current_user()
    monkeypatch.undo()
    await restart(world)
    await world.env.advance_time(2)
    shown = table_message(world)
    assert live_of(world).version == version
    assert f"<@{user}>, it's your turn" in table_text_of(shown).split("\n")[0]
    _ = live


async def test_round_and_game_messages_survive_a_crash_after_the_commit(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Item 8: the process dies after the game-ending move is committed and before any
    message: after the restart the channel has each round's result and the winner once,
    and the table message shows the end with no buttons."""
    live = await game(world, target=1, dice=1)
    table_id = live.id
    monkeypatch.setattr(Tables, "committed", lambda self, outcome: None)
    for _ in range(50):
        if world.channel.id not in world.bot.tables.service.by_channel:
            break
        await move_once(world)
    monkeypatch.undo()
    assert not any(t.startswith("🏆") for t in texts(world))
    await restart(world)
    await world.env.advance_time(30)
    all_texts = texts(world)
    assert sum(t.startswith("🏆") for t in all_texts) == 1, all_texts
    assert any("Round 1" in t for t in all_texts)
    info = await world.bot.store.table(table_id)
    final = next(m for m in world.channel.history() if m.id == info.message_id)
    assert not buttons_of(final) and "it's your turn" not in table_text_of(final)
    assert "🏆" in table_text_of(final)  # the final position names the winner


async def test_a_message_sent_just_before_the_crash_is_not_sent_again(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Item 8, exactly once as a user sees it: the winner was posted but the process died
    before marking it delivered; the restarted bot finds it in the channel."""
    await game(world, target=1, dice=1)

    async def never(self: Any, ids: Any, **posts: Any) -> None:
        return None

    monkeypatch.setattr(type(world.bot.store), "mark_delivered", never)
    for _ in range(50):
        if world.channel.id not in world.bot.tables.service.by_channel:
            break
        await move_once(world)
    await world.env.advance_time(30)
    before = texts(world)
    assert sum(t.startswith("🏆") for t in before) == 1
    monkeypatch.undo()
    await restart(world)
    await world.env.advance_time(30)
    assert sum(t.startswith("🏆") for t in texts(world)) == 1
    assert not await world.bot.store.pending_outbox()


async def drawn_colorstack_game(world: World) -> None:
    """A Color Stack game of Alice and Bob drawn at its turn limit of one turn: its end
    reads the same, word for word, every time."""
    opened = await world.alice.slash(world.channel, "table new", game="colorstack", turn_limit=1)
    await world.bob.click(opened.response, label="Join")
    await world.alice.click(opened.response, label="Start")
    live = live_of(world)
    seat = live.state.current_player

    def mover() -> Any:
        return world.alice if live.user_at(seat) == world.alice.id else world.bob

    await mover().slash(world.channel, "move", move="colours red yellow")  # no turn
    state = live_of(world).state
    piece = state.pieces(seat)[0]
    face = 1 if state.face(piece) != 1 else 2
    done = await mover().slash(world.channel, "move", move=f"set {square_name(piece)} {face}")
    assert done.response.content.startswith("✅"), done.response.content


async def test_an_owed_end_is_posted_though_an_earlier_game_ended_in_the_same_words(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Exactly once, both ways: the second of two games that end in the same words is
    committed, and the process dies before posting its end. After the restart the first
    game's post (delivered, before it) is not taken for the second's: the second is
    posted, once."""
    draw = "🤝 Draw: the turn limit (1 turn) was reached."
    await drawn_colorstack_game(world)
    await world.env.advance_time(30)
    assert sum(draw in t for t in texts(world)) == 1

    async def dies_before_posting(self: Any, table_id: int, guild_id: Any = None) -> None:
        return None

    monkeypatch.setattr(type(world.bot.tables.outbox), "deliver", dies_before_posting)
    await drawn_colorstack_game(world)
    await world.env.advance_time(30)
    assert sum(draw in t for t in texts(world)) == 1  # owed, not posted
    assert await world.bot.store.pending_outbox()
    monkeypatch.undo()
    await restart(world)
    await world.env.advance_time(30)
    assert sum(draw in t for t in texts(world)) == 2
    assert not await world.bot.store.pending_outbox()


# ---------------------------------------------------------------- item 9


async def test_one_clock_per_table_however_often_it_is_rearmed(world: World) -> None:
    """Item 9: overlapping arms leave exactly one clock, so a warning or an expiry fires
    once: each arm replaces the clock before the next one can start."""
    live = await game(world, ai=True, target=100, dice=5)
    tables = world.bot.tables
    clocks = []
    for _ in range(5):
        tables.turn_changed(live)
        clocks.append(tables.expiry.timers[live.id])
    await asyncio.sleep(0)
    alive = [c for c in clocks if c is not None and not c.done()]
    assert len(set(clocks)) == 5 and alive == [clocks[-1]]
    # (that the one clock's expiry plays exactly one turn is
    # test_timers_and_restart.test_a_timed_out_player_gets_exactly_one_automatic_turn)


async def test_a_timeout_that_ends_the_game_announces_the_round_and_the_game(
    world: World,
) -> None:
    """Item 9: the timer's move that ends the game announces round and game end."""
    await world.admin.slash(world.channel, "houserules set", key="turn_timer", value="20")
    await game_with_ai_only_small(world)
    for _ in range(40):
        if world.channel.id not in world.bot.tables.service.by_channel:
            break
        await world.env.advance_time(21)
    await world.env.advance_time(30)
    all_texts = "\n".join(texts(world))
    assert "🏆" in all_texts or "the table is closed" in all_texts.lower()
    if "🏆" in all_texts:
        assert "Round" in all_texts


async def game_with_ai_only_small(world: World) -> Any:
    lobby = await open_lobby(world, target=1, dice=1)
    await world.alice.click(lobby, label="Add AI")
    await world.alice.click(lobby, label="Start")
    return live_of(world)


# ---------------------------------------------------------------- item 10


async def test_a_leave_queued_behind_the_end_of_the_table_is_a_refusal(world: World) -> None:
    """Item 10: races end in refusals, never in errors."""
    live = await game(world, target=100, dice=5)
    service = world.bot.tables.service
    alice = Player(world.alice.id, "alice")
    bob = Player(world.bob.id, "bob")
    ending = asyncio.ensure_future(service.end(world.channel.id, alice, manager=False))
    leaving = asyncio.ensure_future(service.leave(world.channel.id, bob))
    await ending
    with refused(match="This table has ended"):
        await leaving
    _ = live


async def test_readers_never_see_a_move_that_is_not_committed(world: World) -> None:
    """Item 10: My turn, /hint and the table message read under the table's lock: while a
    move is being committed they wait, and when its commit fails they see the table as it
    was (reloaded from storage), never the move."""
    live = await game(world, target=100, dice=5)
    store = world.bot.store
    release = asyncio.Event()
    original = store.record_move

    async def failing(*args: Any, **kwargs: Any) -> Any:
        await release.wait()
        raise RuntimeError("the database went away")

    store.record_move = failing  # type: ignore[method-assign]
    service = world.bot.tables.service
    user = live.current_user()
    before = live.state.to_dict()
    mover = Player(user, "x")
    choices_before = [c.move for c in await service.legal_choices(live, mover)]
    pending = asyncio.ensure_future(
        service.move(world.channel.id, mover, move=live.state.legal_moves()[0])
    )
    await asyncio.sleep(0)
    reading = asyncio.ensure_future(service.legal_choices(live_of(world), mover))
    hinting = asyncio.ensure_future(service.hint(world.channel.id, mover))
    await asyncio.sleep(0)
    assert not reading.done() and not hinting.done(), "readers wait for the commit"
    release.set()
    with pytest.raises(RuntimeError):
        await pending
    store.record_move = original  # type: ignore[method-assign]
    assert [c.move for c in await reading] == choices_before
    assert await hinting
    assert live_of(world).state.to_dict() == before


# ---------------------------------------------------------------- item 11


async def test_an_idle_lobby_closes_after_an_hour(world: World) -> None:
    """Item 11: a lobby nobody starts closes after the server's lobby timeout (1 h)."""
    await open_lobby(world)
    await world.env.advance_time(3500)
    assert world.channel.id in world.bot.tables.service.by_channel
    await world.env.advance_time(200)
    assert world.channel.id not in world.bot.tables.service.by_channel
    assert any("lobby closed" in t.lower() for t in texts(world))


async def test_a_lobby_whose_answer_is_lost_is_posted_and_closes_when_idle(
    world: World,
) -> None:
    """Item 11: ``/table new`` stores the lobby and its answer fails (the interaction
    expired before the answer: Discord's 404 Unknown interaction). The lobby is posted in
    the channel all the same, with its buttons, and closes after the lobby timeout as any
    lobby does: it is never left unseen, holding the channel (``/table new`` refused) for
    good."""
    world.env.inject_error(
        "POST", "/interactions/*/callback", status=404, code=10062, message="Unknown interaction"
    )
    await world.alice.slash(world.channel, "table new")
    await world.env.advance_time(1)
    await posted_then_closed_when_idle(world)


async def posted_then_closed_when_idle(world: World) -> None:
    """The lobby is in the channel as the table message, and closes after the lobby
    timeout."""
    shown = table_message(world)
    assert "lobby" in table_text_of(shown)
    assert "Join" in [b.get("label") for b in buttons_of(shown)]
    await world.env.advance_time(3700)
    assert world.channel.id not in world.bot.tables.service.by_channel
    assert any("lobby closed" in t.lower() for t in texts(world))


@pytest.mark.parametrize(
    "cut",
    [ConnectionResetError(104, "Connection reset by peer"), aiohttp.ServerDisconnectedError()],
    ids=["oserror", "aiohttp"],
)
async def test_a_lobby_whose_answer_hits_a_connection_error_is_posted_and_closes_when_idle(
    world: World, monkeypatch: pytest.MonkeyPatch, cut: Exception
) -> None:
    """As above, the answer to ``/table new`` lost, but to a connection error (the
    connection reset, the server disconnected: an ``OSError`` or an aiohttp error, not
    Discord's answer): the lobby is posted in the channel all the same, and closes after
    the lobby timeout."""
    send_message = discord.InteractionResponse.send_message
    cuts: list[Exception] = []

    async def cut_once(self: Any, *args: Any, **kwargs: Any) -> Any:
        if not cuts:
            cuts.append(cut)
            raise cut
        return await send_message(self, *args, **kwargs)

    monkeypatch.setattr(discord.InteractionResponse, "send_message", cut_once)
    await world.alice.slash(world.channel, "table new")
    await world.env.advance_time(1)
    assert cuts, "the answer was not cut"
    await posted_then_closed_when_idle(world)


async def test_a_game_nobody_plays_ends_as_abandoned_after_a_day(world: World) -> None:
    """Item 11: with the turn timer off, a game with no human move for 24 h ends."""
    await world.admin.slash(world.channel, "houserules set", key="turn_timer", value="off")
    await game(world, target=100, dice=5)
    await world.env.advance_time(23 * 3600)
    assert world.channel.id in world.bot.tables.service.by_channel
    await world.env.advance_time(3600 + 60)
    assert world.channel.id not in world.bot.tables.service.by_channel
    assert any("abandoned" in t for t in texts(world))


@pytest.mark.simcord(settle_timeout=1.0)  # the 5 s ping waits for the clock
async def test_a_ping_owed_when_the_process_died_is_sent_after_the_restart(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Item 8: the move is committed, the process dies before the player is pinged; the
    restarted bot pings them (the table posted anew, only them pingable), once."""
    monkeypatch.setattr(tables_module, "PING_AFTER", 5.0)
    await game(world, target=100, dice=5)
    await move_once(world)
    user = live_of(world).current_user()
    await restart(world)
    await world.env.advance_time(6)
    shown = table_message(world)
    record = world.env.backend.get_message(world.channel.id, shown.id)
    assert list(record.ping_user_ids) == [user]
    assert live_of(world).version == world.bot.tables.messages[live_of(world).id].pinged_version
    await world.env.advance_time(6)
    assert table_message(world).id == shown.id, "pinged once, not again"


async def test_a_table_message_left_behind_by_a_crash_mid_repost_is_removed(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Item 8: the process died after posting the new table message and before storing
    where it is: after the restart the channel holds one table message, not two."""
    live = await game(world, target=100, dice=5)
    store_type = type(world.bot.store)

    async def lost(self: Any, *args: Any, **kwargs: Any) -> None:
        return None

    monkeypatch.setattr(store_type, "set_message", lost)
    result = await world.bob.slash(world.channel, "table show")  # a repost
    assert result.ephemeral
    monkeypatch.undo()
    await restart(world)
    await world.env.advance_time(2)
    tables = [m for m in world.channel.history() if buttons_of(m)]
    assert len(tables) == 1, [m.id for m in tables]
    _ = live


@pytest.mark.simcord(settle_timeout=1.0)  # the 5 s ping waits for the clock
async def test_a_failed_ping_does_not_stop_the_clock(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Items 2 and 9: Discord refusing the ping (a lost permission, a 500) must not leave
    the table waiting forever: the turn still runs out and is played automatically."""
    monkeypatch.setattr(tables_module, "PING_AFTER", 5.0)
    live = await game(world, target=100, dice=5)
    version = live.version
    world.env.inject_error("POST", f"/channels/{world.channel.id}/messages", status=500)
    await world.env.advance_time(6)
    await world.env.advance_time(120)
    assert live_of(world).version > version, "the turn ran out and was played for them"


async def test_panels_keep_no_view_alive(world: World) -> None:
    """Item 11: a My turn panel is an ephemeral message with buttons; its buttons are
    found by their ids, so no view (and no 15-minute timer) is kept per panel."""
    live = await game(world, target=100, dice=5)
    mover = actor(world, live.current_user())
    for _ in range(10):
        await mover.click(table_message(world), label="My turn")
    timers = [t for t in asyncio.all_tasks() if "timeout_task" in repr(t.get_coro())]
    assert len(timers) <= 1, timers


async def test_two_players_of_one_name_cannot_both_sit_down(world: World) -> None:
    """A game needs its players' names to tell them apart: a second "alex" is asked to
    change nickname at Join, not refused at Start."""
    twin = world.guild.add_member(world.env.create_user("twin"), nick="alice")
    lobby = await open_lobby(world)
    refused_with(
        await twin.click(lobby, label="Join"),
        "Someone at this table is already called alice: change your server nickname, then press **Join**.",
    )


async def test_an_unexpected_error_in_a_button_is_answered_not_left_failing(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Item 2: an error after a click gets the short note (the table shows what was
    saved), not Discord's "This interaction failed"."""
    await game(world, target=100, dice=5)

    async def broken(self: Any, interaction: Any, table_id: int) -> None:
        raise RuntimeError("a bug")

    monkeypatch.setattr(Tables, "open_panel", broken)
    live = live_of(world)
    result = await actor(world, live.current_user()).click(table_message(world), label="My turn")
    assert result.ephemeral
    assert result.response.content.startswith("Something went wrong on our side.")
    assert "nothing was changed" not in result.response.content


async def test_start_up_reads_the_words_of_every_language_off_the_loop(world: World) -> None:
    """The catalog's files are read in a thread while the tables load, so no interaction
    is the first to read them."""
    import catalog

    catalog.catalog.cache_clear()
    await restart(world)
    reading = world.bot._catalog_read
    assert reading is not None
    await reading
    assert catalog.catalog.cache_info().currsize == len(catalog.LANGUAGES)


async def test_table_end_says_what_becomes_of_the_game_and_it_is_so(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    """README, Commands and Seats: an ended game has no result, so it is in neither
    ``/scores`` (nor its history) nor the stats; the confirmation says so (in English and
    Japanese) instead of promising a history that never shows it."""
    locales = client_locales(monkeypatch)
    lobby = await open_lobby(world, target=15, dice=3)
    await world.bob.click(lobby, label="Join")
    await world.alice.click(lobby, label="Start")
    locales[world.admin.id] = "ja"  # Manage Server: may end it too, asked in Japanese
    confirm_ja = await world.admin.slash(world.channel, "table end")
    assert confirm_ja.ephemeral
    assert confirm_ja.response.content == (
        "この卓を全員分終了しますか？進行中のゲームは途中で終わり、"
        "`/scores` にもその履歴にも戦績にも残りません。"
    )
    confirm = await world.alice.slash(world.channel, "table end")
    assert confirm.ephemeral
    assert confirm.response.content == (
        "End this table for everyone? A game under way stops here unfinished: "
        "it will not be in `/scores`, its history or the stats."
    )
    ended = await world.alice.click(confirm.response, label="End the table")
    assert ended.response.content == "The table is closed."
    scores = await world.alice.slash(world.channel, "scores")
    assert scores.response.content == "No game is running or has finished in this channel yet."
    history = await world.alice.slash(world.channel, "scores", show="history")
    assert history.response.content == "No finished games of Stack in this channel yet."
    for who in (world.alice, world.bob):
        stats = await who.slash(world.channel, "stats")
        assert "has not finished a game of Stack here yet" in stats.response.content
