"""The ``stackbot`` command: ``run`` the Discord bot, ``sync`` its slash commands, or
``play`` a game in the terminal (no Discord needed)."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from engine.stack.ai import AI_LEVELS
from engine.stack.rules import MAX_DICE_PER_PLAYER, StackRules
from engine.terminal import play


def _names(text: str) -> list[str]:
    names = [n.strip() for n in text.split(",") if n.strip()]
    if not names:
        raise argparse.ArgumentTypeError("give player names separated by commas")
    return names


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="stackbot", description="The Stack dice game bot.")
    sub = parser.add_subparsers(dest="command", required=True)
    sub.add_parser("run", help="run the Discord bot (needs DISCORD_TOKEN)")
    s = sub.add_parser("sync", help="publish the slash commands to Discord")
    s.add_argument("--guild", type=int, default=None, help="only to this guild (instant)")
    p = sub.add_parser("play", help="play Stack in this terminal (no Discord needed)")
    p.add_argument("--players", type=_names, default=[], help="human players, e.g. alice,bob")
    p.add_argument("--bots", type=int, default=0, help="how many AI seats to add")
    p.add_argument("--level", choices=sorted(AI_LEVELS), default="greedy", help="AI level")
    p.add_argument(
        "--seed", type=int, default=None, help="seed for the dice (same seed, same game)"
    )
    p.add_argument("--target", type=int, default=200, help="points that end the game")
    p.add_argument(
        "--dice", type=int, default=14, help=f"dice per player (1 to {MAX_DICE_PER_PLAYER})"
    )
    p.add_argument("--export", type=Path, default=None, help="write the game record here")
    return parser


NO_TOKEN = """stackbot: no DISCORD_TOKEN is set.
Create an application and its bot at https://discord.com/developers/applications, copy the
bot's token, and put it in the environment or in .env (see .env.example):
    DISCORD_TOKEN=...
Without a token you can still play in this terminal: stackbot play --players you --bots 3"""


def _bot_command(command: str, guild: int | None) -> int:
    import asyncio
    import logging

    from pydantic import ValidationError

    from bot.config import Settings

    try:
        settings = Settings()
    except ValidationError as err:
        print(f"stackbot: bad settings: {err.errors()[0]['msg']}", file=sys.stderr)
        return 2
    if settings.discord_token is None:
        print(NO_TOKEN, file=sys.stderr)
        return 2
    logging.basicConfig(
        level=settings.log_level, format="%(asctime)s %(levelname)s %(name)s: %(message)s"
    )
    import discord

    from bot.client import StackBot

    token = settings.discord_token.get_secret_value()
    bot = StackBot(settings, sync_only=command == "sync")
    if command == "sync":

        async def sync() -> None:
            async with bot:
                await bot.login(token)  # runs setup_hook: the commands, no database
                target = discord.Object(guild) if guild else None
                if target is not None:
                    bot.tree.copy_global_to(guild=target)
                synced = await bot.tree.sync(guild=target)
                where = f"guild {guild}" if guild else "every guild (may take up to an hour)"
                print(f"synced {len(synced)} commands to {where}")

        try:
            asyncio.run(sync())
        except discord.LoginFailure:
            print("stackbot: Discord refused the token (DISCORD_TOKEN).", file=sys.stderr)
            return 1
        return 0
    try:
        bot.run(token, log_handler=None)
    except discord.LoginFailure:
        print("stackbot: Discord refused the token (DISCORD_TOKEN).", file=sys.stderr)
        return 1
    return 0


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    if args.command in ("run", "sync"):
        return _bot_command(args.command, getattr(args, "guild", None))
    if args.command == "play":
        if args.bots < 0:
            print("stackbot play: --bots must be 0 or more", file=sys.stderr)
            return 2
        try:
            rules = StackRules(target_score=args.target, dice_per_player=args.dice)
        except ValueError as err:
            print(f"stackbot play: {err}", file=sys.stderr)
            return 2
        return play(
            args.players,
            args.bots,
            seed=args.seed,
            level=args.level,
            rules=rules,
            stdin=sys.stdin,
            stdout=sys.stdout,
            export=args.export,
        )
    return 2  # pragma: no cover - argparse requires a command


if __name__ == "__main__":
    sys.exit(main())
