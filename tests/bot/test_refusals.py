"""Every refusal is ephemeral, specific, and changes nothing; the permission matrix; an
outdated button; a duplicated interaction; the ambiguous-target chooser."""

from __future__ import annotations

from typing import Any

import discord
import pytest

from engine.stack.moves import FACES, RoundDice, Stack
from host.service import Player
from tests.bot.conftest import World, buttons_of, message, refused_with
from tests.bot.test_game import live_of, open_lobby, table_message, tap


async def started(world: World, *, ai: bool = True, **options: Any) -> Any:
    lobby = await open_lobby(world, **options)
    await world.bob.click(lobby, label="Join")
    if ai:
        await world.alice.click(lobby, label="Add AI")
    await world.alice.click(lobby, label="Start")
    return live_of(world)


def actor_of(world: World, user_id: int | None) -> Any:
    return {world.alice.id: world.alice, world.bob.id: world.bob}[user_id]


async def refused(result: Any, text: str) -> None:
    assert result.ephemeral, result.response.content
    assert result.response.content == text


async def test_refusals_are_specific_and_change_nothing(world: World) -> None:
    live = await started(world, target=50, dice=5)
    state = live.state
    mover = live.user_at(state.current)
    other = world.bob if mover == world.alice.id else world.alice
    before = state.to_dict()
    await refused(
        await other.slash(world.channel, "reroll", die=3),
        f"It's {state.name(state.current)}'s turn.",
    )
    # mid-game there is no Join button: a stranger is told to wait for the next game
    await refused(
        await world.carol.slash(world.channel, "reroll", die=3),
        "You're not playing at this table; join the next game.",
    )
    await refused(
        await world.carol.click(table_message(world), label="My turn"),
        "You're not playing at this table; join the next game.",
    )
    missing = next(f for f in FACES if not state.singles[state.current][f])
    await refused(
        await actor_of(world, mover).slash(world.channel, "reroll", die=missing),
        f"You have no unstacked {missing}.",
    )
    await refused(
        await actor_of(world, mover).slash(world.channel, "stack", die=missing, on="nobody"),
        f"You have no unstacked {missing}.",
    )
    await refused(
        await world.bob.slash(world.channel, "table end"),
        "Only the host or a server manager can end the table.",
    )
    await refused(
        await world.bob.slash(world.channel, "table join"), "You're already at this table."
    )
    await refused(
        await world.carol.slash(world.channel, "table join"),
        "The game has already started; wait for the next one.",
    )
    await refused(
        await world.alice.slash(world.channel, "table new"),
        "This channel already has a table. `/table show` brings it back.",
    )
    assert live_of(world).state.to_dict() == before


async def test_no_table_in_the_channel(world: World) -> None:
    for name in ("table join", "table start", "table show", "hint"):
        result = await world.alice.slash(world.channel, name)
        await refused(result, "There's no table in this channel. Start one with `/table new`.")
    result = await world.alice.slash(world.channel, "reroll", die=2)
    await refused(result, "There's no table in this channel. Start one with `/table new`.")


async def test_start_needs_two_players_and_team_sizes(world: World) -> None:
    await open_lobby(world)
    await refused(
        await world.alice.slash(world.channel, "table start"),
        "Stack needs at least 2 players: wait for someone to press **Join**, or press **Add AI**.",
    )
    await world.alice.slash(world.channel, "table end")
    await world.alice.slash(world.channel, "table end")  # confirmation shown, not applied
    assert live_of(world).info.status == "lobby"


@pytest.mark.parametrize(
    ("who", "allowed"),
    [("admin", True), ("alice", True), ("bob", False), ("carol", False)],
)
async def test_permission_matrix_end_table(world: World, who: str, allowed: bool) -> None:
    # admin: manager (not seated); alice: host; bob: player; carol: bystander
    await started(world, ai=True)
    actor = getattr(world, who)
    result = await actor.slash(world.channel, "table end")
    assert result.ephemeral
    if not allowed:
        assert result.response.content == "Only the host or a server manager can end the table."
        assert live_of(world).info.status == "playing"
        return
    confirm = await actor.click(result.response, label="End the table")
    assert confirm.response.content == "The table is closed."
    assert world.channel.id not in world.bot.tables.service.by_channel
    assert any("was ended by" in m.content for m in world.channel.history())


@pytest.mark.parametrize(("who", "allowed"), [("admin", True), ("alice", False), ("bob", False)])
async def test_permission_matrix_house_rules(world: World, who: str, allowed: bool) -> None:
    actor = getattr(world, who)
    if not allowed:
        assert "houserules set" not in actor.available_commands(world.channel)
        return
    result = await actor.slash(world.channel, "houserules set", key="target_score", value="150")
    assert result.ephemeral and "now 150" in result.response.content
    result = await actor.slash(world.channel, "houserules set", key="target_score", value="0")
    assert result.response.content == "`target_score` must be at least 1, not 0."
    result = await actor.slash(
        world.channel, "houserules set", key="capture_penalty", value="maybe"
    )
    assert result.response.content == "`capture_penalty` is on or off, not 'maybe'."
    shown = await actor.slash(world.channel, "houserules show")
    assert "`target_score` = 150" in shown.response.content
    await actor.slash(world.channel, "houserules reset")
    shown = await actor.slash(world.channel, "houserules show")
    assert "`target_score` = 200" in shown.response.content


async def test_house_rules_runtime_check_when_default_permissions_are_overridden(
    world: World,
) -> None:
    # A server admin lets bob use /houserules (an override of default_permissions): the
    # bot still checks Manage Server when he runs it, and changes nothing.
    commands = await world.bot.tree.fetch_commands()
    houserules = next(c for c in commands if c.name == "houserules")
    world.guild.set_command_permissions(houserules, {world.bob: True})
    assert "houserules set" in world.bob.available_commands(world.channel)
    result = await world.bob.slash(world.channel, "houserules set", key="target_score", value="5")
    assert result.ephemeral
    assert result.response.content == "Only members with **Manage Server** can change house rules."
    shown = await world.admin.slash(world.channel, "houserules show")
    assert "`target_score` = 200" in shown.response.content


@pytest.mark.parametrize(("who", "allowed"), [("alice", True), ("bob", False), ("admin", False)])
async def test_permission_matrix_start_and_kick(world: World, who: str, allowed: bool) -> None:
    lobby = await open_lobby(world)
    await world.bob.click(lobby, label="Join")
    actor = getattr(world, who)
    kicked = await actor.slash(world.channel, "table kick", player=world.bob)
    if allowed:
        assert kicked.response.content == "bob was removed by the host."
        assert live_of(world).info.seat_of(world.bob.id) is None
    else:
        assert kicked.response.content == "Only the host can kick a player."
        start = await actor.slash(world.channel, "table start")
        assert start.response.content in (
            "Only the host can start the game.",
            "You're not at this table. Press **Join** to sit down.",
        )
        assert live_of(world).info.status == "lobby"


async def test_an_outdated_button_is_refused(world: World) -> None:
    live = await started(world, target=50, dice=5)
    mover = actor_of(world, live.user_at(live.state.current))
    old_panel = await mover.click(table_message(world), label="My turn")
    new_panel = await mover.click(table_message(world), label="My turn")
    await tap(mover, new_panel.response, live.state.legal_moves()[0])
    version = live_of(world).version
    button = next(c["custom_id"] for c in buttons_of(old_panel.response) if c["type"] == 2)
    old_click = await mover.click(old_panel.response, custom_id=button)
    assert old_click.ephemeral
    assert old_click.response.content.startswith(
        "That button is from an older state of the table, so nothing was played."
    )
    assert live_of(world).version == version


async def test_a_duplicated_interaction_is_applied_once(world: World) -> None:
    live = await started(world, target=50, dice=5)
    service = world.bot.tables.service
    seat = live.state.current
    player = Player(live.user_at(seat), "x")
    move = live.state.legal_moves()[0]
    version = live.version
    first = await service.move(world.channel.id, player, move=move, interaction_id="dup-1")
    assert not first.duplicate and live_of(world).version > version
    after = live_of(world).version
    again = await service.move(world.channel.id, player, move=move, interaction_id="dup-1")
    assert again.duplicate and live_of(world).version == after


async def test_ambiguous_target_gets_a_chooser(world: World) -> None:
    live = await started(world, ai=False, target=50, dice=3)
    service = world.bot.tables.service
    state = live.state
    # a round where bob ends up with a single 3 and a 3-high pile of 3s on top
    a, b = state.current, 1 - state.current
    state.history.pop()
    state.history_offset = 0
    state._chance = "dice"
    from engine.game import Decision
    from engine.stack.state import Phase

    state.phase, state.decision = Phase.CHANCE, Decision.CHANCE
    state.first = a
    dice = [(3, 3, 6), (3, 3, 3)] if a == 0 else [(3, 3, 3), (3, 3, 6)]
    state.apply(RoundDice(tuple(dice)))
    state.apply(Stack(3, b, 1))  # a on b's 3
    state.apply(Stack(3, a, 2))  # b on top: bob's 3-high pile
    assert state.current == a
    mover = actor_of(world, live.user_at(a))
    result = await mover.slash(world.channel, "stack", die=3, on=state.name(b))
    assert result.ephemeral and result.response.content == "Which pile do you mean?"
    labels = [c["label"] for c in buttons_of(result.response)]
    assert labels == [
        f"Stack a 3 on {state.name(b)}'s single 3",
        f"Stack a 3 on {state.name(b)}'s 3-high pile of 3s",
    ]
    _ = service
    _ = message


@pytest.mark.parametrize(
    ("game", "title"), [("colorstack", "Color Stack"), ("stackup", "Stack Up!")]
)
async def test_stacks_commands_at_another_games_table_are_refused_by_name(
    world: World, game: str, title: str
) -> None:
    """``/stack`` and ``/reroll`` are Stack's: at another game's table they say so, as
    ``/play`` and ``/move`` do, instead of reading the words as that game's notation."""
    lobby = (await world.alice.slash(world.channel, "table new", game=game)).response
    await world.bob.click(lobby, label="Join")
    await world.alice.click(lobby, label="Start")
    live = live_of(world)
    mover = actor_of(world, live.user_at(live.state.current_player))
    before = (live.version, live.state.to_dict())
    said = f"`/stack` and `/reroll` are for Stack tables; this table plays {title}."
    await refused(await mover.slash(world.channel, "stack", die=3, on="bob"), said)
    await refused(await mover.slash(world.channel, "reroll", die=3), said)
    assert (live_of(world).version, live_of(world).state.to_dict()) == before


async def test_a_table_ended_mid_game_names_nobody_to_move(world: World) -> None:
    """The last edit of a table closed before its game ended says it is closed, not whose
    turn it was (nobody is to move any more), and leaves no button."""
    from tests.bot.conftest import table_text_of

    await started(world, ai=True)
    posted = table_message(world).id
    result = await world.alice.slash(world.channel, "table end")
    await world.alice.click(result.response, label="End the table")
    await world.env.advance_time(60)
    [last] = [m for m in world.channel.history() if m.id == posted]
    shown = table_text_of(last)
    assert shown.startswith("**This table is closed.**"), shown
    assert "to move" not in shown and "your turn" not in shown, shown
    assert not buttons_of(last)


CANNOT_POST = (
    "I can't post in this channel: a table needs the bot to have **View Channel** and "
    "**Send Messages** here (to ping players and post the results). Ask a server manager, "
    "or use another channel."
)


async def test_a_channel_the_bot_may_not_post_in_gets_no_table(world: World) -> None:
    """Where the bot may not send messages, a lobby would still open (it is the command's
    answer), but no ping, round or result could ever be posted: ``/table new`` says why
    and opens nothing; ``/table show`` of a table there says the same, not "below"."""
    bot_role = world.guild.roles["TestBot"]
    muted = world.guild.create_text_channel(
        "announcements", overwrites={bot_role: discord.PermissionOverwrite(send_messages=False)}
    )
    opened = await world.alice.slash(muted, "table new")
    refused_with(opened, CANNOT_POST)
    assert muted.id not in world.bot.tables.service.by_channel and not muted.history()
    alice = Player(world.alice.id, "alice")
    await world.bot.tables.service.new_table(world.guild.id, muted.id, alice, {})
    shown = await world.alice.slash(muted, "table show")
    refused_with(shown, CANNOT_POST)
    assert not shown.followups and not muted.history()
