"""How many columns text takes in a monospaced font, and text cut or padded to a number of
columns: the one measure of every front end's code blocks and score sheets (Discord's,
the terminal's), and of a name's length in a line of text.

Two ways of drawing differ on emoji sequences only. Discord (a browser) draws a family
joined by zero-width joiners (👨‍👩‍👧‍👦), an emoji with its skin tone (👍🏽) or a character
asked for as an emoji (❤️) as one glyph of two columns: the default. A terminal moves
its cursor by each character (as ``wcwidth`` counts): the family's four emoji take 8
columns, the skin tone two more, the emoji request none, and a soft hyphen shows
(``terminal=True``). Everything else is counted alike: East Asian wide and full-width
characters two columns, combining marks and invisible characters (zero-width spaces,
joiners, direction marks, variation selectors, tags) none, the rest one.
"""

from __future__ import annotations

import unicodedata

__all__ = ["ELLIPSIS", "cut_columns", "ljust", "rjust", "width"]

ELLIPSIS = "…"
_JOINER = "\u200d"  # zero-width joiner: the emoji after it joins the glyph before
_EMOJI_STYLE = "\ufe0f"  # variation selector 16: the character before drawn as an emoji
_SKIN_TONES = ("\U0001f3fb", "\U0001f3ff")  # emoji modifiers: part of the emoji before
_SOFT_HYPHEN = "\u00ad"  # a format character that terminals draw as a hyphen


def _nothing(char: str) -> bool:
    """Whether ``char`` is drawn as nothing of its own: a combining or enclosing mark, a
    format character (zero-width space, joiner, direction mark, tag), a variation
    selector."""
    return (
        bool(unicodedata.combining(char))
        or unicodedata.category(char) in ("Mn", "Me", "Cf")
        or "\ufe00" <= char <= "\ufe0f"
    )


def _wide(char: str) -> bool:
    return unicodedata.east_asian_width(char) in ("W", "F")


def _terminal_width(text: str) -> int:
    return sum(
        1 if char == _SOFT_HYPHEN else 0 if _nothing(char) else 2 if _wide(char) else 1
        for char in text
    )


def width(text: str, *, terminal: bool = False) -> int:
    """How many columns ``text`` takes in a monospaced font: 2 for wide characters
    (Chinese, Japanese, Korean, emoji), 0 for marks and invisible characters, 1 for the
    rest. An emoji sequence is one glyph of 2 columns as Discord draws it (a family or a
    flag joined by zero-width joiners, an emoji with its skin tone, a character asked for
    as an emoji); with ``terminal``, each of its characters counts by itself, as a
    terminal moves its cursor (the module's docstring)."""
    if terminal:
        return _terminal_width(text)
    total = 0
    last = 0  # the columns of the last glyph counted
    emoji = False  # whether that glyph is an emoji, which a joiner or a skin tone extends
    joined = False
    for char in text:
        if char == _JOINER:
            joined = emoji
            continue
        if char == _EMOJI_STYLE:
            if last:  # a narrow character shown as an emoji takes two columns
                total += 2 - last
                last, emoji = 2, True
            continue
        if _nothing(char):
            continue
        if joined or (emoji and _SKIN_TONES[0] <= char <= _SKIN_TONES[1]):
            joined = False  # part of the emoji before
            continue
        emoji = ord(char) >= 0x1F300  # a flag's two letters (0x1F1E6–0x1F1FF) one column each
        last = 2 if emoji or _wide(char) else 1
        total += last
    return total


def _joins_before(text: str, at: int) -> bool:
    """Whether the character at ``at`` is drawn as part of the glyph before it (a
    combining mark, an invisible character, a variation selector, a skin tone, or what a
    zero-width joiner joins), so that a cut before it would split a glyph."""
    char = text[at]
    if at and text[at - 1] == _JOINER:
        return True
    return _nothing(char) or _SKIN_TONES[0] <= char <= _SKIN_TONES[1]


def cut_columns(text: str, columns: int, *, terminal: bool = False) -> str:
    """``text`` if it takes at most ``columns`` columns (:func:`width`), else its longest
    start that fits with "…" after it, cut between glyphs (a Japanese character counts two
    columns; an accent, an emoji's skin tone or a family's members stay with their
    glyph)."""
    if columns < 1:
        raise ValueError("columns must be at least 1")
    if width(text, terminal=terminal) <= columns:
        return text
    room = columns - width(ELLIPSIS)
    end = 0
    for at in range(1, len(text) + 1):
        if at < len(text) and _joins_before(text, at):
            continue  # not between two glyphs
        if width(text[:at], terminal=terminal) > room:
            break
        end = at
    return text[:end].rstrip() + ELLIPSIS


def ljust(text: str, columns: int, *, terminal: bool = False) -> str:
    """``text`` padded on the right to ``columns`` columns (:func:`width`)."""
    return text + " " * max(0, columns - width(text, terminal=terminal))


def rjust(text: str, columns: int, *, terminal: bool = False) -> str:
    """``text`` padded on the left to ``columns`` columns (:func:`width`)."""
    return " " * max(0, columns - width(text, terminal=terminal)) + text
