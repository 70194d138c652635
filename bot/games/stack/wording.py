"""Refusals in Discord's words.

The engine's errors carry typed details and speak the terminal's language (``str(error)``:
"First put your rerolled 4 on a pile: `place on NAME`"). On Discord there is no ``place``:
a rerolled die goes on its pile through the chooser the bot showed, the **My turn** button,
or ``/stack die:4 on:NAME``; moves are slash commands, not typed text. This module words
the same errors for Discord. It is a pure function of the error: no Discord import.
"""

from __future__ import annotations

from engine import errors
from engine.stack.describe import pile_words
from engine.stack.notation import SYNTAX

DISCORD_SYNTAX = "Use `/stack die:3 on:NAME` (add `height:` to pick a pile) or `/reroll die:3`."
CHOOSER = "pick a pile in the chooser, press **My turn**"


def discord_words(error: errors.MoveError) -> str:
    """What to tell a Discord user about ``error``; the terminal wording when they agree."""
    if isinstance(error, errors.IllegalMoveError):
        if error.reason is errors.IllegalReason.PLACEMENT_PENDING and error.face is not None:
            return _placement_pending(error.face, error.asked, error.targets)
        if error.reason is errors.IllegalReason.NOTHING_TO_PLACE:
            return (
                "There is no rerolled die waiting to be placed. "
                "On your turn, use `/stack` or `/reroll`."
            )
    if isinstance(error, errors.AmbiguousMoveError) and error.choices:
        listed = ", or ".join(error.choices)
        return f"Which one: {listed}? Choose it below, or give `/stack` a `height:`."
    if isinstance(error, errors.InvalidMoveError):
        return _invalid(error)
    return str(error)


def _placement_pending(face: int, asked: int | None, targets: tuple[errors.Target, ...]) -> str:
    example = f"`/stack die:{face} on:NAME`"
    where = ""
    if targets:
        first = targets[0]
        several = sum(t.seat == first.seat for t in targets) > 1
        height = f" height:{first.height}" if several else ""
        example = f"`/stack die:{face} on:{first.name}{height}`"
        piles = [pile_words(t.name, face, t.height) for t in targets]
        where = f" It can go on {', or '.join(piles)}."
    how = f"{CHOOSER}, or use {example}."
    if asked is None:
        return f"First put your rerolled {face} on a pile: {how}{where}"
    return f"Your rerolled die shows {face}, not {asked}: {how}{where}"


def _invalid(error: errors.InvalidMoveError) -> str:
    text = str(error)
    if error.reason is errors.InvalidReason.UNKNOWN_WORD:
        return f"That is not a move. {DISCORD_SYNTAX}"
    if error.reason in (errors.InvalidReason.MISSING_FACE, errors.InvalidReason.MISSING_TARGET):
        return DISCORD_SYNTAX
    if text.endswith(SYNTAX):
        return f"{text.removesuffix(SYNTAX).rstrip()} {DISCORD_SYNTAX}"
    return text
