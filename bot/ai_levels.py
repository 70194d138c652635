"""Each AI level's words, in one place: its name in the lobby and in answers, its name and
strength in the lobby's select, and its choice of ``/table addbot level:``.

The texts live in the catalog (``discord.lobby.level.<level>``,
``discord.select.level.<level>`` and ``.about``); the slash command's choice names are the
code's own English (Discord shows them before any translator speaks), with their Japanese
in the ``commands`` domain under ``choice.table.addbot.level.<level>``. A level none of
these know (a game's own) is shown by its bare name.
"""

from __future__ import annotations

from catalog import t

# every AI level the words below cover, easiest first
KNOWN_LEVELS = ("random", "greedy", "expert")

# how strong each level plays, in the code's English, for ``/table addbot level:``
# (README's ladder; the catalog's ``choice.table.addbot.level.*`` say the same)
STRENGTH = {
    "random": "easy: any legal move",
    "greedy": "fair: the best move for now",
    "expert": "strong: looks ahead, about a second a move",
}


def level_name(level: str | None) -> str:
    """An AI level's name in the current language (its own name where there is none)."""
    if level in KNOWN_LEVELS:
        return t(f"discord.lobby.level.{level}")
    return str(level)


def level_choice_name(level: str) -> str:
    """An AI level as ``/table addbot level:`` offers it: its name and its strength."""
    return f"{level} ({STRENGTH[level]})" if level in STRENGTH else level


def level_select_words(level: str) -> tuple[str, str | None]:
    """An AI level in the lobby's select, in the current language: its name and its
    strength (a level without words: its bare name and nothing)."""
    if level not in KNOWN_LEVELS:
        return level, None
    return t(f"discord.select.level.{level}"), t(f"discord.select.level.{level}.about")
