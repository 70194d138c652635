"""What a private panel answer costs the bot's CPU: each game's panel (**My turn**, **My
hand**, **My move**) built for the seat to act at many states of random games, and turned
into the answer discord.py sends (``interaction_message_response_params``; the view
stored, as ``send_message`` stores an ephemeral one, then released, as the host does).
Then each state's table message (its text and layout, and the payload of its edit). Prints
CPU microseconds per answer and per table message (``time.process_time``), per game::

    python -m bot.panel_bench [--states 200] [--repeat 3]

A tool: nothing at run time imports it. ``--repeat`` asks for each state's panel that
many times (a member pressing the button again at the same version)."""

from __future__ import annotations

import argparse
import asyncio
import random
import time
from types import SimpleNamespace
from typing import Any

import discord
from discord.http import handle_message_parameters
from discord.ui.view import ViewStore
from discord.webhook.async_ import interaction_message_response_params

from bot import games
from bot.views import table_layout
from engine.game import Decision

GAMES = ("stack", "stackup", "colorstack")


def states(name: str, count: int, seed: int = 1, players: int = 2) -> list[tuple[int, Any]]:
    """``count`` (version, state) pairs at the decisions of random games of ``name``."""
    game = games.get(name).game
    rng = random.Random(seed)
    found: list[tuple[int, Any]] = []
    version = 0
    while len(found) < count:
        names = ("ann", "bob", "carol *", "dan_", "eve", "fay")[:players]
        state = game.new_state(names, game.settings())
        moves = 0
        while not state.is_over and len(found) < count and moves < 400:
            version += 1
            if state.decision is Decision.CHANCE:
                state.apply(state.sample_chance(rng))
                continue
            found.append((version, state.copy()))
            state.apply(rng.choice(state.legal_moves()))
            moves += 1
    return found


class _State:
    """What discord.py's view store asks of the connection state."""

    def __init__(self) -> None:
        self.loop = asyncio.get_running_loop()


async def _answers(name: str, pairs: list[tuple[int, Any]], repeat: int) -> tuple[int, float]:
    game = games.get(name)
    store = ViewStore(_State())  # type: ignore[arg-type]
    flags = discord.MessageFlags._from_value(0)
    flags.ephemeral = True
    done = 0
    start = time.process_time()
    for version, state in pairs:
        seat = state.current_player
        if seat is None:
            continue
        live = SimpleNamespace(id=10**17 + 7, version=version, state=state)
        for _ in range(repeat):
            panel = await game.panel(None, live, seat)  # type: ignore[arg-type]
            view: Any = panel.view
            interaction_message_response_params(
                type=4,
                content=panel.text,
                previous_allowed_mentions=None,
                allowed_mentions=discord.AllowedMentions.none(),
                flags=flags,
                view=view if view is not None else discord.utils.MISSING,
            )
            if view is not None and not view.is_finished():
                view.timeout = 15 * 60.0
                store.add_view(view, done)
            if view is not None:
                view.stop()  # the host's release
            done += 1
    return done, time.process_time() - start


async def _table_messages(name: str, pairs: list[tuple[int, Any]]) -> tuple[int, float]:
    """The table message of each state (its text, its layout, the payload discord.py
    sends for an edit; the layout stored then released, as the host does)."""
    game = games.get(name)
    store = ViewStore(_State())  # type: ignore[arg-type]
    done = 0
    start = time.process_time()
    for version, state in pairs:
        parts = game.table_parts(state, current_user=1234, turns=None)
        view: Any = table_layout(
            10**17 + 7,
            version,
            head=parts.head,
            field=parts.field,
            accent=parts.accent,
            picture=parts.alt_text,
            playing=not state.is_over,
            private=game.private_button,
        )
        with handle_message_parameters(
            content=None, view=view, allowed_mentions=discord.AllowedMentions.none()
        ):
            pass
        if not view.is_finished() and view.is_dispatchable():
            store.add_view(view, done)
        view.stop()
        done += 1
    return done, time.process_time() - start


async def main(count: int, repeat: int) -> None:
    for name in GAMES:
        pairs = states(name, count)
        answers, cpu = await _answers(name, pairs, repeat)
        print(
            f"{name:10} {answers:5} panel answers: {cpu * 1e6 / max(answers, 1):7.1f} µs CPU each"
        )
        edits, cpu = await _table_messages(name, pairs)
        print(f"{name:10} {edits:5} table messages: {cpu * 1e6 / max(edits, 1):6.1f} µs CPU each")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(
        prog="python -m bot.panel_bench", description=__doc__.split("\n\n")[0].rstrip(":") + "."
    )
    parser.add_argument("--states", type=int, default=200)
    parser.add_argument("--repeat", type=int, default=1)
    args = parser.parse_args()
    if args.states < 1 or args.repeat < 1:
        parser.error("--states and --repeat are at least 1")
    asyncio.run(main(args.states, args.repeat))
