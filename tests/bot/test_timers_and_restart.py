"""Turn timers (ping, half-time warning, automatic move, AI takeover, closing an idle
table) and a restart mid-game that resumes the table, its buttons and its timer."""

from __future__ import annotations

from typing import Any

import aiohttp
import pytest

import bot.tables
import persistence.writer
from bot.table_message import belongs_to
from persistence import StorageError
from tests.bot.conftest import World, buttons_of, make_bot, table_text_of
from tests.bot.test_cut_pings import storing_fails_once
from tests.bot.test_game import live_of, open_lobby, table_message, tap
from tests.bot.test_refusals import actor_of, started
from tests.bot.test_table_messages_races import DiscordClock


def texts(world: World) -> list[str]:
    return [table_text_of(m) for m in world.channel.history()]


def pinged(world: World, message: Any) -> list[int]:
    return list(world.env.backend.get_message(world.channel.id, message.id).ping_user_ids)


async def test_turn_timer_pings_warns_and_moves_automatically(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The ping is the table message posted anew with only that player pingable; the old
    one is deleted, so the channel never holds a trail of pings."""
    monkeypatch.setattr(bot.tables, "PING_AFTER", 5.0)
    live = await started(world, ai=True, target=60, dice=5)
    user = live.user_at(live.state.current)
    first = table_message(world)
    assert pinged(world, first) == []
    await world.env.advance_time(6)
    ping = table_message(world)
    assert ping.id != first.id and world.channel.last_message.id == ping.id
    head = table_text_of(ping).split("\n")[0]
    assert f"<@{user}>, it's your turn" in head and "time runs out <t:" in head
    assert pinged(world, ping) == [user]
    assert first.id not in [m.id for m in world.channel.history()]
    version = live.version
    await world.env.advance_time(55)
    warned = table_message(world)
    assert "Half your time is gone: 60 s left." in table_text_of(warned)
    assert pinged(world, warned) == [user]
    assert ping.id not in [m.id for m in world.channel.history()]
    assert live_of(world).version == version
    await world.env.advance_time(60)
    assert live_of(world).version > version
    assert any("(automatic: the turn timer ran out)" in t for t in texts(world))
    seat = live_of(world).info.seat_of(user)
    assert seat is not None and seat.timeouts == 1 and not seat.is_ai


async def test_three_timeouts_hand_the_seat_to_the_ai_and_an_idle_table_closes(
    world: World,
) -> None:
    await started(world, ai=False, target=500, dice=8)
    for _ in range(8):
        if world.channel.id not in world.bot.tables.service.by_channel:
            break
        await world.env.advance_time(121)
    all_text = "\n".join(texts(world))
    # the first to let 3 turns run out hands their seat to the AI; the last human's closes
    assert "let 3 turns in a row run out: an AI plays their seat from now on." in all_text
    closed = "let 3 turns in a row run out and no human is left playing, so the table is closed."
    assert closed in all_text
    assert world.channel.id not in world.bot.tables.service.by_channel


async def test_the_only_human_timing_out_for_good_is_told_in_one_message(world: World) -> None:
    """Alone with an AI, the third turn in a row that runs out closes the table: the
    channel gets one message saying who let their turns run out and that the table is
    closed (not one for the seat handed to the AI, then one for the closing)."""
    lobby = await open_lobby(world, target=500, dice=8)
    await world.alice.click(lobby, label="Add AI")
    await world.alice.click(lobby, label="Start")
    before = {m.id for m in world.channel.history()}
    for _ in range(8):
        if world.channel.id not in world.bot.tables.service.by_channel:
            break
        await world.env.advance_time(121)
    await world.env.settle()
    posted = [table_text_of(m) for m in world.channel.history() if m.id not in before]
    said = [text for text in posted if not text.startswith("**This table is closed.**")]
    assert said == [
        "alice let 3 turns in a row run out and no human is left playing, so the table is closed."
    ], posted
    assert world.channel.id not in world.bot.tables.service.by_channel


async def test_turn_timer_can_be_switched_off(world: World) -> None:
    result = await world.admin.slash(world.channel, "houserules set", key="turn_timer", value="off")
    assert result.response.content.startswith("Turn timer: off on this server.")
    live = await started(world, ai=True, target=60, dice=5)
    version = live.version
    await world.env.advance_time(600)
    assert live_of(world).version == version
    assert not any("time runs out" in t for t in texts(world))


async def test_restart_mid_game_resumes_table_buttons_and_timer(world: World) -> None:
    live = await started(world, ai=True, target=60, dice=5)
    mover = actor_of(world, live.user_at(live.state.current))
    panel = await mover.click(table_message(world), label="My turn")
    await tap(mover, panel.response, live.state.legal_moves()[0])
    before = live_of(world)
    state_before = before.state.to_dict(full_history=False)
    old_message = table_message(world)
    new_bot = make_bot(world.db, seed=99)
    await world.env.restart_bot(new_bot)
    world.bot = new_bot
    resumed = live_of(world)
    assert resumed is not before
    assert resumed.state.to_dict(full_history=False) == state_before
    assert resumed.version == before.version
    # the old message's button still works after the restart
    mover = actor_of(world, resumed.user_at(resumed.state.current))
    again: Any = await mover.click(old_message, label="My turn")
    assert again.ephemeral and again.response.components
    # and the turn timer picked up where it was
    version = resumed.version
    await world.env.advance_time(125)
    assert live_of(world).version > version


async def test_a_player_who_leaves_mid_game_is_replaced_by_an_ai(world: World) -> None:
    await started(world, ai=False, target=60, dice=5)
    result = await world.bob.slash(world.channel, "table leave")
    assert result.ephemeral
    assert result.response.content == "bob left; an AI plays their seat from now on."
    seat = live_of(world).info.seats[[s.name for s in live_of(world).info.seats].index("bob")]
    assert seat.is_ai and seat.left_game
    # the game goes on with alice against the AI seat
    live = live_of(world)
    assert live.user_at(live.state.current) == world.alice.id
    left = await world.alice.slash(world.channel, "table leave")
    assert left.response.content == "alice left; with no human left, the table is closed."
    assert world.channel.id not in world.bot.tables.service.by_channel


async def test_a_timed_out_player_gets_exactly_one_automatic_turn(world: World) -> None:
    live = await started(world, ai=False, target=60, dice=1)  # one die: every turn ends a round
    seat = live.state.current
    rounds = len(live.state.round_scores)
    await world.env.advance_time(121)
    live = live_of(world)
    # the table message lists the turns since; the automatic one is marked, once
    shown = table_text_of(table_message(world))
    assert shown.count("(automatic: the turn timer ran out)") == 1
    assert len(live.state.round_scores) >= rounds
    assert live.info.seats[seat].timeouts == 1


async def test_a_lobby_left_by_everyone_closes_and_says_so(world: World) -> None:
    from tests.bot.test_game import open_lobby

    lobby = await open_lobby(world)
    left = await world.alice.click(lobby, label="Leave")
    assert left.response.content == "alice left; with nobody left, the table is closed."
    from tests.bot.conftest import message

    closed = message(world, lobby.id)
    assert table_text_of(closed).startswith("This Stack table is closed.")
    assert not buttons_of(closed)


async def test_here_means_this_channel_for_every_key_including_the_turn_timer(
    world: World,
) -> None:
    """Item 16: `/houserules set turn_timer 30 here:true` sets it for this channel only."""
    other = world.guild.create_text_channel("elsewhere")
    done = await world.admin.slash(
        world.channel, "houserules set", key="turn_timer", value="30", here=True
    )
    assert done.response.content.startswith("Turn timer: 30 s in this channel.")
    here = await world.admin.slash(world.channel, "houserules show")
    assert "`turn_timer` = 30 s (this channel)" in here.response.content
    there = await world.admin.slash(other, "houserules show")
    assert "`turn_timer` = 120 s" in there.response.content
    rule = await world.admin.slash(
        world.channel, "houserules set", key="target_score", value="150", here=True
    )
    assert rule.response.content.startswith("This channel's `target_score` is now 150.")
    refused = await world.admin.slash(
        world.channel, "houserules set", key="lobby_timeout", value="2h", here=True
    )
    assert refused.response.content == (
        "`lobby_timeout` is kept for the whole server; set it without `here`."
    )
    server = await world.admin.slash(
        world.channel, "houserules set", key="lobby_timeout", value="2h"
    )
    assert server.response.content.startswith("`lobby_timeout` is now 2h on this server")
    live = await started(world, ai=True, target=60, dice=5)
    assert live_of(world).current_user() is not None
    version = live.version
    await world.env.advance_time(31)
    assert live_of(world).version > version, "the channel's 30 s timer ran out"


async def test_a_turn_timer_too_short_to_answer_a_ping_is_refused(world: World) -> None:
    result = await world.admin.slash(world.channel, "houserules set", key="turn_timer", value="5")
    assert result.ephemeral and result.response.content.startswith(
        "The turn timer is off (0) or at least 15 s"
    )
    shown = await world.admin.slash(world.channel, "houserules show")
    assert "`turn_timer` = 120 s" in shown.response.content


async def test_a_restart_after_the_half_time_warning_does_not_warn_again(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The warning is one ping a turn: a bot killed after posting it and started again
    finds it in the channel (the table message posted at half time) and does not post
    the table anew to ping the player a second time."""
    monkeypatch.setattr(bot.tables, "PING_AFTER", 5.0)
    monkeypatch.setattr(persistence.writer, "datetime", DiscordClock)  # stored times
    live = await started(world, ai=True, target=60, dice=5)
    user = live.user_at(live.state.current)
    await world.env.advance_time(61)  # the ping, then the warning at half of 120 s
    warned = table_message(world)
    assert "Half your time is gone" in table_text_of(warned)
    assert pinged(world, warned) == [user]
    new_bot = make_bot(world.db, seed=99)
    await world.env.restart_bot(new_bot)
    world.bot = new_bot
    await world.env.advance_time(20)  # before the turn runs out
    assert table_message(world).id == warned.id  # not posted anew (it pings when it is)
    assert world.channel.last_message.id == warned.id


async def test_a_turn_the_timer_played_is_still_marked_on_the_table_after_a_restart(
    world: World,
) -> None:
    live = await started(world, ai=False, target=60, dice=3)
    await world.env.advance_time(121)  # the turn timer plays the first player's turn
    assert table_text_of(table_message(world)).count("(automatic: the turn timer ran out)") == 1
    new_bot = make_bot(world.db, seed=99)
    await world.env.restart_bot(new_bot)
    world.bot = new_bot
    live = live_of(world)
    mover = actor_of(world, live.user_at(live.state.current))
    panel = await mover.click(table_message(world), label="My turn")
    await tap(mover, panel.response, live.state.legal_moves()[0])
    # the table message, drawn again by the new process, recalls the turns before it
    shown = table_text_of(table_message(world))
    assert shown.count("(automatic: the turn timer ran out)") == 1, shown


async def a_ping_left_by_a_crash(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> tuple[Any, Any, Any]:
    """A game whose bot was killed after posting the turn's ping (the table message posted
    anew, pinging the player) and before storing it: the live table, the table message
    before the ping, the ping. The bot is not restarted yet."""
    monkeypatch.setattr(bot.tables, "PING_AFTER", 5.0)
    monkeypatch.setattr(persistence.writer, "datetime", DiscordClock)  # stored times
    live = await started(world, ai=True, target=60, dice=5)
    user = live.user_at(live.state.current)
    first = table_message(world)
    store_type = type(world.bot.store)
    real = store_type.set_message

    async def dies_before_storing(self: Any, *args: Any, **kwargs: Any) -> None:
        raise StorageError("the process is killed here")

    monkeypatch.setattr(store_type, "set_message", dies_before_storing)
    await world.env.advance_time(6)
    ping = world.channel.last_message
    assert ping.id != first.id and pinged(world, ping) == [user]
    monkeypatch.setattr(store_type, "set_message", real)
    return live, first, ping


async def restart(world: World) -> None:
    """The bot started anew, and 20 s pass (before the half-time warning, at 60 s)."""
    new_bot = make_bot(world.db, seed=99)
    await world.env.restart_bot(new_bot)
    world.bot = new_bot
    await world.env.advance_time(20)


async def test_a_ping_posted_just_before_a_crash_is_kept_and_not_sent_again(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The ping is one ping a turn: a bot killed after posting the pinging table message
    but before storing it finds that message in the channel at start-up, keeps it as the
    table message (the older one goes) and does not ping the player a second time."""
    live, first, ping = await a_ping_left_by_a_crash(world, monkeypatch)
    await restart(world)
    assert table_message(world).id == ping.id
    assert world.channel.last_message.id == ping.id  # no second ping
    assert first.id not in [m.id for m in world.channel.history()]
    assert (await world.bot.store.table(live.id)).message_id == ping.id


async def test_a_ping_kept_at_start_up_though_the_database_fails_to_store_it_ends_the_recovery(
    world: World, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """Start-up keeps the ping a crash left as the runtime keeps a post Discord gave no
    answer to: the database failing as its id is stored does not end the channel's
    recovery — the older table message goes all the same (it kept its live buttons), the
    ping is not sent again, and the next restart keeps it as well."""
    live, first, ping = await a_ping_left_by_a_crash(world, monkeypatch)
    failed = storing_fails_once(world, monkeypatch)
    await restart(world)
    assert failed
    assert "recovery step failed" not in caplog.text
    assert [m.id for m in world.channel.history() if belongs_to(m, live.id)] == [ping.id]
    assert first.id not in [m.id for m in world.channel.history()]
    assert world.channel.last_message.id == ping.id  # no second ping
    await restart(world)
    assert world.channel.last_message.id == ping.id
    assert (await world.bot.store.table(live.id)).message_id == ping.id


async def test_a_connection_cut_deleting_the_message_a_ping_replaced_does_not_end_the_recovery(
    world: World, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """The older table message's delete cut by the connection as start-up keeps the ping a
    crash left: the recovery of the channel goes on (its table is kept as its ping)."""
    live, first, ping = await a_ping_left_by_a_crash(world, monkeypatch)
    http = type(world.bot.http)
    delete_message = http.delete_message
    cuts: list[int] = []

    def cut_once(self: Any, channel_id: int, message_id: int, *args: Any, **kwargs: Any) -> Any:
        if not cuts:
            cuts.append(message_id)
            raise aiohttp.ServerDisconnectedError()
        return delete_message(self, channel_id, message_id, *args, **kwargs)

    monkeypatch.setattr(http, "delete_message", cut_once)
    await restart(world)
    assert cuts == [first.id]
    assert "recovery step failed" not in caplog.text
    assert table_message(world).id == ping.id
    assert world.channel.last_message.id == ping.id  # no second ping
    assert (await world.bot.store.table(live.id)).message_id == ping.id


async def test_a_player_whose_seat_the_timer_gave_to_the_ai_is_not_told_they_left(
    world: World,
) -> None:
    """A player who let 3 turns in a row run out did not leave the game (they keep its
    result): pressing **My turn**, asking a hint or joining again tells them why an AI
    plays their seat, not that they left it."""
    await started(world, ai=False, target=500, dice=8)
    for _ in range(8):
        await world.env.advance_time(121)
        seat = live_of(world).info.seat_of(world.bob.id)
        if seat is not None and seat.is_ai:
            break
    seat = live_of(world).info.seat_of(world.bob.id)
    assert seat is not None and seat.is_ai and not seat.left_game
    words = "You let 3 turns in a row run out, so an AI plays your seat now."
    pressed = await world.bob.click(table_message(world), label="My turn")
    assert pressed.ephemeral and pressed.response.content == words
    hint = await world.bob.slash(world.channel, "hint")
    assert hint.ephemeral and hint.response.content == words
    joined = await world.bob.slash(world.channel, "table join")
    assert joined.ephemeral and joined.response.content == words


async def test_a_player_who_left_mid_game_and_joins_again_is_told_they_left(
    world: World,
) -> None:
    from tests.bot.test_game import open_lobby

    lobby = await open_lobby(world, target=500, dice=8)
    await world.bob.click(lobby, label="Join")
    await world.carol.click(lobby, label="Join")
    await world.alice.click(lobby, label="Start")
    await world.carol.slash(world.channel, "table leave")
    joined = await world.carol.slash(world.channel, "table join")
    assert joined.ephemeral
    assert joined.response.content == "You left this game; an AI plays your seat now."
