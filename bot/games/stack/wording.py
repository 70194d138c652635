"""Refusals in Discord's words.

The engine's errors carry typed details and speak the terminal's language (``str(error)``:
"First put your rerolled 4 on a pile: `place on NAME`"). On Discord there is no ``place``:
a rerolled die goes on its pile through the chooser the bot showed, the **My turn** button,
or ``/stack die:4 on:NAME``; moves are slash commands, not typed text. This module words
the same errors for Discord. It is a pure function of the error: no Discord import.
"""

from __future__ import annotations

from bot.text import button_label
from catalog import t
from catalog.stack import WORDS
from engine import errors
from engine.echo import shown


def discord_words(error: errors.MoveError) -> str:
    """What to tell a Discord user about ``error``; the terminal wording when they agree."""
    if isinstance(error, errors.IllegalMoveError):
        if error.reason is errors.IllegalReason.PLACEMENT_PENDING and error.face is not None:
            return _placement_pending(error.face, error.asked, error.targets)
        if error.reason is errors.IllegalReason.NOTHING_TO_PLACE:
            return t("stack.discord.nothing_to_place")
    if isinstance(error, errors.AmbiguousMoveError) and error.choices:
        choices = [WORDS.choice_words(c) or c for c in error.choices]
        listed = t("stack.error.or_listed").join(choices)
        return t("stack.discord.which_one", listed=listed)
    if isinstance(error, errors.InvalidMoveError):
        return _invalid(error)
    return WORDS.error_text(error)


def _placement_pending(face: int, asked: int | None, targets: tuple[errors.Target, ...]) -> str:
    example = f"`/stack die:{face} on:NAME`"
    where = ""
    if targets:
        first = targets[0]
        several = sum(target.seat == first.seat for target in targets) > 1
        height = f" height:{first.height}" if several else ""
        # a command to copy, with the name as typed; a name that code cannot show as typed
        # (a backtick, a direction mark) leaves the command's general form
        name = first.name if "`" not in first.name and all(map(shown, first.name)) else "NAME"
        example = f"`/stack die:{face} on:{name}{height}`"
        piles = [WORDS.pile_words(target.name, face, target.height) for target in targets]
        where = t("stack.discord.can_go", piles=t("stack.error.or_listed").join(piles))
    how = t("stack.discord.how", example=example, button=button_label("discord.button.my_turn"))
    if asked is None:
        return t("stack.discord.place_first", face=face, how=how, where=where)
    return t("stack.discord.rerolled_shows", face=face, asked=asked, how=how, where=where)


def _invalid(error: errors.InvalidMoveError) -> str:
    syntax = t("stack.discord.syntax")
    if error.reason is errors.InvalidReason.UNKNOWN_WORD:
        return t("stack.discord.not_a_move", syntax=syntax)
    if error.reason in (errors.InvalidReason.MISSING_FACE, errors.InvalidReason.MISSING_TARGET):
        return syntax
    said = WORDS.refusal(error, syntax=False)
    if said is not None and WORDS.has_syntax(error):
        return t("stack.discord.with_syntax", error=said, syntax=syntax)
    return WORDS.error_text(error)
