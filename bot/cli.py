"""The ``stackbot`` command: ``stackbot play`` runs a game in the terminal."""

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


def main(argv: list[str] | None = None) -> int:
    args = _parser().parse_args(argv)
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
