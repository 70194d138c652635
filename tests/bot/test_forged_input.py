"""Values a modified Discord client can send (issue 18, item 5): an unknown game, a
leaderboard by something else, an option of the wrong type or out of range, a member who
left the server. Each gets a clear ephemeral refusal, changes nothing, and logs at most an
INFO line (no ERROR, no traceback)."""

from __future__ import annotations

import logging
from typing import Any

import pytest
from simcord import interactions as wire
from simcord.backend import serializers

from tests.bot.conftest import World, refused_with
from tests.bot.test_game import live_of
from tests.bot.test_refusals import started

STRING, INTEGER, USER = 3, 4, 6


async def forged(
    actor: Any,
    channel: Any,
    name: str,
    options: list[dict[str, Any]],
    resolved: dict[str, Any] | None = None,
) -> Any:
    """``/name`` with ``options`` as given (name, type, value), unchecked against the
    command's declared choices and types: what a modified client can send."""
    parts = name.split()
    root = actor._resolve_root(parts[0], 1, channel.id)
    _leaf, nesting = wire.walk_to_subcommand(root, parts[1:])
    data: dict[str, Any] = {
        "id": root["id"],
        "name": root["name"],
        "type": 1,
        "options": wire.nest_options(root, nesting, options),
    }
    if resolved:
        data["resolved"] = resolved
    return await actor._dispatch_interaction(2, channel, data)


def option(name: str, kind: int, value: Any) -> dict[str, Any]:
    return {"name": name, "type": kind, "value": value}


def no_error_logged(caplog: pytest.LogCaptureFixture) -> None:
    loud = [r for r in caplog.records if r.levelno >= logging.WARNING or r.exc_info]
    assert not loud, [(r.levelname, r.getMessage()) for r in loud]


FORGED = [
    pytest.param(
        "leaderboard",
        [option("game", STRING, "junk")],
        "There is no game called “junk” here; the games are stack, stackup, colorstack.",
        id="leaderboard-unknown-game",
    ),
    pytest.param(
        "stats",
        [option("game", STRING, "**x**")],
        "There is no game called “\\*\\*x\\*\\*” here; the games are stack, stackup, colorstack.",
        id="stats-unknown-game-escaped",
    ),
    pytest.param(
        "stats",
        [option("ai", STRING, "**x**")],
        "Stack has no \\*\\*x\\*\\* AI; its levels are random, greedy and expert.",
        id="stats-unknown-ai-level-escaped",
    ),
    pytest.param(
        "scores",
        [option("show", STRING, "history"), option("game", STRING, "chess")],
        "There is no game called “chess” here; the games are stack, stackup, colorstack.",
        id="scores-history-unknown-game",
    ),
    pytest.param(
        "leaderboard",
        [option("by", STRING, "junk")],
        "The leaderboard is by rating, by wins or by points.",
        id="leaderboard-by-junk",
    ),
    pytest.param(
        "table new",
        [option("game", STRING, "**x** @everyone " + "y" * 100)],
        "There is no game called '\\*\\*x\\*\\* @\u200beveryone " + "y" * 23 + "…' here; "
        "the games are stack, stackup, colorstack.",
        id="table-new-unknown-game-cut-and-escaped",
    ),
    pytest.param(
        "houserules show",
        [option("game", STRING, "nope")],
        "There is no game called “nope” here; the games are stack, stackup, colorstack.",
        id="houserules-unknown-game",
    ),
]


@pytest.mark.parametrize(("command", "options", "says"), FORGED)
async def test_forged_values_get_a_clear_refusal_and_no_error_log(
    world: World,
    caplog: pytest.LogCaptureFixture,
    command: str,
    options: list[dict[str, Any]],
    says: str,
) -> None:
    caplog.set_level(logging.INFO)
    who = world.admin if command.startswith("houserules") else world.alice
    refused_with(await forged(who, world.channel, command, options), says)
    no_error_logged(caplog)


async def test_failed_conversions_get_a_clear_refusal_and_no_error_log(
    world: World, caplog: pytest.LogCaptureFixture
) -> None:
    live = await started(world, target=50, dice=5)
    before = live.state.to_dict()
    mover = {world.alice.id: world.alice, world.bob.id: world.bob}[live.current_user()]
    caplog.set_level(logging.INFO)
    # a die of 9 (the command declares 1 to 6), a die that is no number, and a user option
    # naming someone Discord did not resolve
    for actor, command, options, says in [
        (mover, "reroll", [option("die", INTEGER, 9)], "A die shows 1 to 6, not 9."),
        (mover, "reroll", [option("die", INTEGER, "six")], "'six' is not a die face (1 to 6)."),
        (
            world.alice,
            "table kick",
            [option("player", USER, "123456789012345678")],
            "That player isn't at this table.",
        ),
        (
            world.alice,
            "table kick",
            [option("player", USER, "not a user")],
            "That command's options could not be read; pick them from Discord's menus.",
        ),
    ]:
        result = await forged(actor, world.channel, command, options)
        assert result.response is not None and result.ephemeral, command
        assert result.response.content.startswith(says), result.response.content
    no_error_logged(caplog)
    assert live_of(world).state.to_dict() == before


async def test_kicking_a_player_who_left_the_server_removes_them(
    world: World, caplog: pytest.LogCaptureFixture
) -> None:
    live = await started(world, ai=False, target=50, dice=5)
    assert live.info.host_id == world.alice.id
    world.guild.remove_member(world.bob)
    caplog.set_level(logging.INFO)
    user = world.env.backend.get_user(world.bob.id)
    # Discord resolves someone no longer in the server as a user, without a member
    result = await forged(
        world.alice,
        world.channel,
        "table kick",
        [option("player", USER, str(world.bob.id))],
        {"users": {str(world.bob.id): dict(serializers.user_payload(user))}},
    )
    assert result.response is not None
    assert "Something went wrong" not in result.response.content
    assert "bob was removed by the host" in result.response.content, result.response.content
    seat = live_of(world).info.seat_of(world.bob.id)
    assert seat is None or seat.is_ai
    no_error_logged(caplog)


async def test_an_unknown_ai_level_is_quoted_as_sent_in_its_code_span(world: World) -> None:
    """``/table addbot`` with a level no menu offers: the level is shown in a code span,
    as typed (no markdown escapes showing there, no backtick ending the span early)."""
    await world.alice.slash(world.channel, "table new")
    added = await forged(
        world.alice, world.channel, "table addbot", [option("level", STRING, "**x**`y`")]
    )
    refused_with(
        added, "Stack has no `**x**\u02cby\u02cb` AI; its levels are random, greedy, expert."
    )


async def test_stats_of_a_player_who_left_the_server_name_them_as_they_played(
    world: World,
) -> None:
    """``/stats player:`` of someone no longer in the server (Discord resolves a user, not
    a member): named as they played and as ``/leaderboard`` ranks them, not by their
    account's name."""
    from tests.bot.conftest import choose_colours

    dave = world.guild.add_member(world.env.create_user("dave"), nick="Dave the Brave")
    opened = await world.alice.slash(world.channel, "table new", game="colorstack")
    await dave.click(opened.response, label="Join")
    await world.alice.click(opened.response, label="Start")
    await choose_colours(world, world.alice, dave)
    await dave.slash(world.channel, "move", move="resign")
    await world.env.settle()
    world.guild.remove_member(dave)
    user = world.env.backend.get_user(dave.id)
    result = await forged(
        world.alice,
        world.channel,
        "stats",
        [option("player", USER, str(dave.id)), option("game", STRING, "colorstack")],
        {"users": {str(dave.id): dict(serializers.user_payload(user))}},
    )
    assert result.response is not None
    assert result.response.content.startswith("**Dave the Brave** — Color Stack: 1 game, 0 wins")
