"""The host is game-agnostic (issue 9): `/table new game:` offers every hosted game,
refusals are answered in one place, buttons posted before games had names still work,
and the modules import without a cycle."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path
from typing import Any

import discord
import pytest

from bot import games
from bot.games.base import DiscordGame
from bot.views import DYNAMIC_ITEMS, TableButton, table_of_custom_id
from catalog import t
from tests.bot.conftest import World, buttons_of, refused, refused_with, table_text_of
from tests.bot.test_game import live_of, open_lobby

BOT = Path(__file__).resolve().parents[2] / "bot"


# ---------------------------------------------------------------------------- /table new


def test_table_new_offers_every_hosted_game_stack_first(world: World) -> None:
    new = world.bot.tree.get_command("table").get_command("new")  # type: ignore[union-attr]
    game = next(p for p in new.parameters if p.name == "game")
    assert [c.value for c in game.choices] == list(games.names())
    assert game.choices[0].value == "stack" and game.choices[0].name == "Stack"
    assert not game.required  # Stack is the default


async def test_table_new_opens_a_stack_table_by_default_and_when_chosen(world: World) -> None:
    lobby = await open_lobby(world)
    assert table_text_of(lobby).startswith("**Stack** table — lobby")
    assert live_of(world).info.game == "stack"
    await world.alice.slash(world.channel, "table end")
    other = world.guild.create_text_channel("other")
    chosen = await world.alice.slash(other, "table new", game="stack", dice=3)
    assert "**Stack** table — lobby" in table_text_of(chosen.response)
    assert "3 dice each" in table_text_of(chosen.response)


async def test_an_unknown_game_or_an_option_it_lacks_is_refused(world: World) -> None:
    tables = world.bot.tables

    class Interaction:
        guild_id = world.guild.id
        channel_id = world.channel.id

    with refused(match="no game called 'chess'"):
        await tables.new(Interaction(), {}, "chess")  # type: ignore[arg-type]
    assert world.channel.id not in tables.service.by_channel


def test_the_registry_hosts_stack_and_refuses_what_it_does_not_host() -> None:
    assert games.names()[0] == games.DEFAULT == "stack"
    stack = games.get("stack")
    assert isinstance(stack, DiscordGame) and stack.game.name == "stack"
    assert t(stack.private_button.label) == "My turn" and not stack.hidden_information
    with pytest.raises(games.UnknownGame, match="no game called 'chess'"):
        games.get("chess")


# ---------------------------------------------------------------------------- errors


async def test_a_refusal_from_a_command_is_answered_by_the_tree(world: World) -> None:
    """No table here: `/table show` raises a Refusal; the tree's error handler says it."""
    shown = await world.alice.slash(world.channel, "table show")
    refused_with(shown, "There's no table in this channel. Start one with `/table new`.")


async def test_an_unexpected_error_in_a_command_gets_a_short_note(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    async def broken(*args: Any, **kwargs: Any) -> None:
        raise RuntimeError("boom")

    monkeypatch.setattr(world.bot.tables, "show", broken)
    shown = await world.alice.slash(world.channel, "table show")
    assert shown.ephemeral and shown.response.content.startswith("Something went wrong")


async def test_a_refusal_from_a_button_is_answered_by_the_button_base(world: World) -> None:
    lobby = await open_lobby(world)
    joined = await world.bob.click(lobby, label="Start")
    assert joined.ephemeral and joined.response.content == "Only the host can start the game."


def test_the_host_answers_refusals_in_one_place() -> None:
    """Outside the error handlers, no Discord module catches a Refusal to answer it (the
    benches and the command line drive the service without Discord)."""
    skipped = {"bench.py", "cluster_bench.py", "coldstart.py", "cli.py"}
    paths = [p for p in BOT.glob("*.py") if p.name not in skipped]
    for path in [*paths, *BOT.glob("cogs/*.py"), *BOT.glob("games/stack/*.py")]:
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            if isinstance(node, ast.ExceptHandler) and node.type is not None:
                names = {n.id for n in ast.walk(node.type) if isinstance(n, ast.Name)}
                assert not names & {"Refusal", "Refused", "StoryRefusal"}, path


def test_every_button_has_one_base_class() -> None:
    from bot.story import STORY_ITEMS

    for item in (*DYNAMIC_ITEMS, *STORY_ITEMS):
        assert issubclass(item, TableButton), item


# ---------------------------------------------------------------------------- old ids


@pytest.mark.parametrize(
    ("custom_id", "table"),
    [
        ("stack:lobby:join:12:3", 12),
        ("stack:turn:12:3", 12),
        ("lobby:start:12:3", 12),
        ("panel:12:3", 12),
        ("move:12:3:s3.1.2", None),  # a panel's button, not the table message's
        ("story:round:12:1", None),
    ],
)
def test_table_message_buttons_old_and_new_name_their_table(
    custom_id: str, table: int | None
) -> None:
    assert table_of_custom_id(custom_id) == table


async def test_buttons_posted_before_games_had_names_still_work(world: World) -> None:
    """A lobby and a table message as the previous release posted them (ids starting with
    ``stack:``): Join, Start and My turn, then a move from the old panel's ids."""
    lobby = await open_lobby(world, dice=3)
    live = live_of(world)
    channel = world.bot.get_channel(world.channel.id)
    old = discord.ui.View(timeout=None)
    for action, label in (("join", "Join"), ("start", "Start")):
        old.add_item(discord.ui.Button(label=label, custom_id=f"stack:lobby:{action}:{live.id}:0"))
    posted = await channel.send("an old lobby", view=old)
    old.stop()
    joined = await world.bob.click(posted, label="Join")
    assert joined.ephemeral and "You're in" in joined.response.content
    started = await world.alice.click(posted, label="Start")
    assert "won the roll-off" in started.response.content
    live = live_of(world)
    mover = world.alice if live.current_user() == world.alice.id else world.bob
    turn = discord.ui.View(timeout=None)
    turn.add_item(
        discord.ui.Button(label="My turn", custom_id=f"stack:turn:{live.id}:{live.version}")
    )
    table = await channel.send("an old table", view=turn)
    turn.stop()
    panel = await mover.click(table, label="My turn")
    assert panel.ephemeral and "**Your turn**" in panel.response.content
    codes = [c["custom_id"] for c in buttons_of(panel.response) if c["type"] == 2]
    assert codes and all(c.startswith(f"move:{live.id}:{live.version}:") for c in codes)
    # the same move under the old id, as a panel of the previous release carried it
    old_id = "stack:" + codes[0]
    old_panel = discord.ui.View(timeout=None)
    old_panel.add_item(discord.ui.Button(label="Play", custom_id=old_id))
    carried = await channel.send("an old panel", view=old_panel)
    old_panel.stop()
    version = live.version
    played = await mover.click(carried, custom_id=old_id)
    assert played.response is not None and "older state" not in str(played.response.content)
    assert live_of(world).version > version
    _ = lobby


# ---------------------------------------------------------------------------- imports


@pytest.mark.parametrize(
    "module",
    [
        "bot.views",
        "bot.games",
        "bot.games.base",
        "bot.games.stack.game",
        "bot.story",
        "bot.render",
        "host.service",
    ],
)
def test_a_module_imports_alone_first(module: str) -> None:
    done = subprocess.run(
        [sys.executable, "-c", f"import {module}"], capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr


def test_no_module_below_the_host_imports_it() -> None:
    """``bot.tables`` (the host) imports the views, the story and the games; none of them
    imports it back (not even for typing: they use the Host protocol)."""
    for path in [
        BOT / n for n in ("views.py", "story.py", "games/base.py", "games/stack/game.py")
    ] + [BOT.parent / "host" / "service.py"]:
        tree = ast.parse(path.read_text())
        imported = {node.module for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)}
        assert "bot.tables" not in imported and "bot.client" not in imported, path
