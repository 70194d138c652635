"""A bot process for the SIGTERM test: the real StackBot (its signal handling on) against
simcord's Discord, playing a game and printing each move's version once it is answered.
Run as ``python -m tests.bot.sigterm_child DB``."""

from __future__ import annotations

import asyncio
import sys
from pathlib import Path
from typing import Any

import simcord

from bot.client import StackBot
from bot.config import Settings
from engine.stack.moves import Stack


async def main(db: Path) -> int:
    bot = StackBot(
        Settings(database_url=f"sqlite+aiosqlite:///{db}", discord_token=None),
        seed=5,
        pictures="thread",  # a worker's pipe, started at start-up, is outside simcord's time
    )
    async with simcord.run(bot, check_errors=False, settle_timeout=0.5) as env:
        await bot.tree.sync()
        guild = env.create_guild()
        channel = guild.create_text_channel("stack")
        alice = guild.add_member(env.create_user("alice"))
        bob = guild.add_member(env.create_user("bob"))
        people = {alice.id: alice, bob.id: bob}
        lobby = await alice.slash(channel, "table new", target=10_000, dice=20)
        await bob.click(lobby.response, label="Join")
        await alice.click(lobby.response, label="Start")
        print("READY", flush=True)
        while bot.tables.accepting:  # until SIGTERM's shutdown begins
            live = bot.tables.service.by_channel.get(channel.id)
            if live is None or live.current_user() is None:
                await asyncio.sleep(0.01)
                continue
            player = people[live.current_user()]
            move = live.state.legal_moves()[0]
            text = _typed(live.state, move)
            if text is not None:
                result = await player.slash(channel, "stack", **text)
            else:
                result = await player.slash(channel, "reroll", die=move.face)
            chooser = result.response.components if result.response else []
            if chooser:  # a rerolled die: its pile from the chooser
                first = chooser[0]["components"][0]
                result = await player.click(result.response, custom_id=first["custom_id"])
            content = result.response.content if result.response else ""
            if content.startswith("✅"):
                print("ACK", bot.tables.service.by_channel[channel.id].version, flush=True)
            await asyncio.sleep(0.005)
    return 0


def _typed(state: Any, move: Any) -> dict[str, Any] | None:
    if isinstance(move, Stack):
        return {"die": move.face, "on": state.name(move.owner), "height": move.height}
    return None


if __name__ == "__main__":
    sys.exit(asyncio.run(main(Path(sys.argv[1]))))
