"""Showing what a user typed back to them: printable, and never longer than a short line.

A refusal that repeats its input must fit a chat message whatever was typed, so every echo
is cut to :data:`ECHO_LIMIT` characters, ending in "…" when something was left off. Case is
kept as typed. Characters that cannot be shown (control characters, for instance an escape
that would restyle a terminal) become "�".
"""

from __future__ import annotations

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
