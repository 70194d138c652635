"""Showing what a user typed back to them: printable, and never longer than a short line.

A refusal that repeats its input must fit a chat message whatever was typed, so every echo
is cut to :data:`ECHO_LIMIT` characters, ending in "…" when something was left off. Case is
kept as typed. Characters that cannot be shown (control characters, for instance an escape
that would restyle a terminal) become "�".
"""

from __future__ import annotations

from collections.abc import Sequence

from engine.errors import InvalidMoveError, InvalidReason

ECHO_LIMIT = 40
ELLIPSIS = "…"
REPLACEMENT = "\N{REPLACEMENT CHARACTER}"


def cut(text: str, limit: int = ECHO_LIMIT) -> str:
    """``text`` made printable and at most ``limit`` characters long."""
    head = text[: limit + 1]
    shown = "".join(c if c.isprintable() else REPLACEMENT for c in head)
    if len(text) > limit:
        return shown[: limit - 1] + ELLIPSIS
    return shown


def echo(text: str, limit: int = ECHO_LIMIT) -> str:
    """``text`` cut as :func:`cut` does, in single quotes: ``'Zed'``."""
    return f"'{cut(text, limit)}'"


def typed_move(text: str, names: Sequence[str], extra: int, syntax: str) -> str:
    """``text`` stripped, refused (with ``syntax``, how moves are typed) when it is empty
    or longer than any move can be: the longest of ``names`` and ``extra`` characters."""
    typed = text.strip()
    if not typed:
        raise InvalidMoveError(f"That's empty. {syntax}", InvalidReason.EMPTY)
    if len(typed) > extra + max(len(name) for name in names):
        raise InvalidMoveError(
            f"That's too long to be a move ({echo(typed)}). {syntax}", InvalidReason.TOO_LONG
        )
    return typed
