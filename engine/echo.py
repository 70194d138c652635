"""Showing what a user typed back to them: printable, and never longer than a short line.

A refusal that repeats its input must fit a chat message whatever was typed, so every echo
is cut to :data:`ECHO_LIMIT` characters, ending in "…" when something was left off. Case is
kept as typed. Characters that cannot be shown (control characters, for instance an escape
that would restyle a terminal) become "�". Direction marks, overrides and isolates are left
out: they would reorder the rest of the line. The other invisible format characters stay,
since they are parts of what was typed: the joiner inside a family emoji (👨‍👩‍👧), a flag's
tags, a soft hyphen.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence

from engine.errors import InvalidMoveError, InvalidReason

ECHO_LIMIT = 40
ELLIPSIS = "…"
REPLACEMENT = "\N{REPLACEMENT CHARACTER}"
# Unicode's explicit direction formatting characters (marks, embeddings, overrides, isolates)
DIRECTION_MARKS = frozenset(
    "\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
)


def shown(char: str) -> bool:
    """Whether ``char`` may be shown as typed: printable, or an invisible format
    character (category Cf) other than a direction mark."""
    return char.isprintable() or (
        unicodedata.category(char) == "Cf" and char not in DIRECTION_MARKS
    )


def cut(text: str, limit: int = ECHO_LIMIT) -> str:
    """``text`` made printable and at most ``limit`` characters long."""
    text = "".join(c for c in text if c not in DIRECTION_MARKS)
    head = text[: limit + 1]
    printable = "".join(c if shown(c) else REPLACEMENT for c in head)
    if len(text) > limit:
        return printable[: limit - 1] + ELLIPSIS
    return printable


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
