"""Naming players in typed text: what every game's notation shares.

A typed name is compared with each player's under three keys in turn — as typed, with runs
of spaces read as one (and without the isolates a screen puts around a right-to-left
name), then ignoring case too (:data:`NAME_KEYS`); each game's notation
says what decides between them (see :mod:`engine.stack.names`). A name that could mean
several players is refused with :func:`unclear_name` when none of them works.
"""

from __future__ import annotations

from collections.abc import Callable

from engine.echo import echo
from engine.errors import InvalidMoveError, InvalidReason


def exact(text: str) -> str:
    return text


# Isolates (LRI, RLI, FSI, PDI): the front ends put them around a right-to-left name where
# they show it, so a name copied from the screen may carry them; they name nobody.
_NO_ISOLATES = str.maketrans("", "", "\u2066\u2067\u2068\u2069")


def spaced(text: str) -> str:
    return " ".join(text.translate(_NO_ISOLATES).split())


def folded(text: str) -> str:
    return " ".join(text.translate(_NO_ISOLATES).casefold().split())


# the keys a typed name is compared under, strictest first
NAME_KEYS: tuple[Callable[[str], str], ...] = (exact, spaced, folded)


def or_words(names: tuple[str, ...]) -> str:
    """``a or b``, ``a, b or c``."""
    if len(names) <= 2:
        return " or ".join(names)
    return ", ".join(names[:-1]) + " or " + names[-1]


def unclear_name(typed: str, names: tuple[str, ...]) -> InvalidMoveError:
    """The refusal of ``typed`` text that could name any of ``names`` when none of their
    readings can be played."""
    return InvalidMoveError(
        f"{echo(typed)} could mean {or_words(names)}, and none of them works here.",
        InvalidReason.UNCLEAR_NAME,
        names=names,
    )
