"""The real bot, its real command tree and views, against simcord's simulated Discord."""

from __future__ import annotations

import asyncio
import contextlib
import re
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import discord
import pytest
import simcord
from simcord.components import walk_components

from bot.client import StackBot
from bot.config import Settings
from bot.refusal_words import Refused, refusal_text
from host.refusals import Refusal
from pictures import fonts
from pictures.painter import warm_up

_made: list[StackBot] = []


def make_bot(db: Path, seed: int = 7) -> StackBot:
    bot = StackBot(
        Settings(database_url=f"sqlite+aiosqlite:///{db}", discord_token=None),
        seed=seed,
        handle_signals=False,
        pictures="thread",  # a worker process per test would cost a second each
    )
    _made.append(bot)
    return bot


@pytest.fixture(autouse=True)
async def crashed_bots_release_their_database() -> AsyncIterator[None]:
    """A test's restart is a crash: simcord drops the old bot without closing it, where
    the operating system would close what its process held. Here the process lives on:
    once the test is over, every bot of it still holding its database (each crashed one,
    and the last one, which simcord leaves open too) closes it. Its tasks are cancelled
    already, so nothing is written: the move writer's kept connection and the pool's
    are closed. Left open, they were two SQLite connections (a thread and three
    descriptors each) a restart, which over the whole suite took the process past 1,023
    descriptors."""
    yield
    await close_made_bots()


async def close_made_bots() -> None:
    """Close the database of every bot :func:`make_bot` made that still holds it."""
    while _made:
        bot = _made.pop()
        if bot.store is not None:
            await asyncio.wait_for(bot.store.close(), 60)


@dataclass
class World:
    env: simcord.Env
    bot: StackBot
    guild: Any
    channel: Any
    alice: Any
    bob: Any
    carol: Any
    admin: Any
    db: Path


@pytest.fixture(scope="session", autouse=True)
def drawing_warmed_up() -> None:
    """The tests draw pictures on threads (simcord counts them as the bot's work) and some
    let the bot settle for only 1 s of real time: load every font's character map and
    matplotlib once, as the production worker does when it starts and when idle."""
    fonts.prepare()
    warm_up()


@pytest.fixture(autouse=True)
def immediate_edits(monkeypatch: pytest.MonkeyPatch) -> None:
    """Most tests read the table message right after a move, at one instant of simcord's
    clock: edit at once, and ping only when a test lets minutes pass. The tests of the
    channel's rate limit and of pings put the production values back."""
    import bot.table_message
    import bot.tables

    monkeypatch.setattr(bot.table_message, "EDIT_GAP", 0.0)
    monkeypatch.setattr(bot.tables, "PING_AFTER", 600.0)


@pytest.fixture
def simcord_bot(tmp_path: Path) -> StackBot:
    return make_bot(tmp_path / "bot.db")


@pytest.fixture
async def world(simcord_env: simcord.Env, simcord_bot: StackBot, tmp_path: Path) -> World:
    env = simcord_env
    await simcord_bot.tree.sync()  # what `stackbot sync` does
    guild = env.create_guild()
    channel = guild.create_text_channel("stack")
    admins = guild.create_role("Admins", permissions=discord.Permissions(manage_guild=True))
    return World(
        env,
        simcord_bot,
        guild,
        channel,
        guild.add_member(env.create_user("alice")),
        guild.add_member(env.create_user("bob")),
        guild.add_member(env.create_user("carol")),
        guild.add_member(env.create_user("admin"), roles=[admins]),
        tmp_path / "bot.db",
    )


def message(world: World, message_id: int) -> discord.Message:
    """The channel's message with that id, as the bot's Discord shows it now."""
    for m in world.channel.history():
        if m.id == message_id:
            return m
    raise AssertionError(f"no message {message_id} in the channel")


def live_of(world: World) -> Any:
    """The host's live table in the world's channel (``None`` without one)."""
    return world.bot.tables.service.by_channel.get(world.channel.id)


def table_message(world: World, table_id: int) -> discord.Message:
    """Table ``table_id``'s message, as the channel shows it now."""
    message_id = world.bot.tables.messages[table_id].message_id
    assert message_id is not None
    return message(world, message_id)


def drawings(world: World, monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    """The picture jobs the bot's painter is given from now on (it still draws them)."""
    jobs: list[Any] = []
    painter = world.bot.tables.painter
    draw = painter.draw

    async def spying(job: Any) -> bytes:
        jobs.append(job)
        return await draw(job)

    monkeypatch.setattr(painter, "draw", spying)
    return jobs


NASTY = "**__@everyone__**~~`<@123>`~~||x||"


def nasty_name(seat: int) -> str:
    """A 32-character name full of markdown and mentions, unique by its first digit."""
    return (str(seat) + NASTY).ljust(32, "x")[:32]


def table_text_of(message: Any) -> str:
    """The text a message shows: its content, or (components V2, as the table message)
    its text displays joined by line breaks. ``message`` is a channel message or an
    interaction's response (whose components are wire dictionaries)."""
    texts = [message.content] if message.content else []
    texts += [str(c["content"]) for c in _components(message) if c.get("type") == 10]
    return "\n".join(texts)


def buttons_of(message: Any) -> list[dict[str, Any]]:
    """Every button and select of a message (in rows, or in a V2 container), as wire
    dictionaries."""
    return [c for c in _components(message) if c.get("type") in (2, 3)]


def _components(message: Any) -> list[dict[str, Any]]:
    """Every component of a message, nested ones too, as wire dictionaries."""
    roots = [c if isinstance(c, dict) else c.to_dict() for c in message.components]
    return list(walk_components(roots))


def refused_with(result: Any, text: str) -> None:
    """``result`` is answered, to its user alone, with exactly ``text``."""
    assert result.response is not None, "no answer"
    assert result.ephemeral, result.response.content
    assert result.response.content == text


@contextlib.contextmanager
def refused(match: str) -> Iterator[None]:
    """The block is refused (by the host, or by the Discord layer itself), and the words a
    player reads for it match ``match`` (as ``pytest.raises(..., match=...)``)."""
    with pytest.raises((Refusal, Refused)) as caught:
        yield
    words = refusal_text(caught.value)
    assert re.search(match, words), words


async def choose_colours(
    world: World, *players: Any, channel: Any = None, colours: str = "red yellow"
) -> None:
    """A Color Stack table just started in ``channel`` (default: the test's): when its
    first player, one of ``players`` (default: alice, bob, carol), is to choose colours
    (set-up step 1), they type ``colours``; the board is then set up."""
    where = channel or world.channel
    live = world.bot.tables.service.by_channel.get(where.id)
    state = None if live is None else live.state
    if state is None or not getattr(state, "choosing_colours", False):
        return
    user = live.user_at(state.first)
    chooser = next(p for p in players or (world.alice, world.bob, world.carol) if p.id == user)
    chosen = await chooser.slash(where, "move", move=f"colours {colours}")
    now = world.bot.tables.service.by_channel[where.id].state
    assert not now.choosing_colours, chosen.response.content
