"""The first player's choice of colours as every AI level makes it: the rule book's
default, red then yellow, since the rules treat the four colours alike and the choice
never changes the game (:mod:`engine.colorstack.ai` and the search share it)."""

from __future__ import annotations

from engine.colorstack.board import COLOUR_NAMES, DEFAULT_COLOURS
from engine.colorstack.moves import Colours
from engine.colorstack.state import ColorStackState

DEFAULT_CHOICE = Colours(*DEFAULT_COLOURS)


def colours_choice(state: ColorStackState) -> tuple[Colours, str] | None:
    """The AI's colours when it moves first and is to choose them (the default: the
    colours never change the game), and why; ``None`` at any other decision."""
    if not state.choosing_colours:
        return None
    first, second = (COLOUR_NAMES[c] for c in DEFAULT_COLOURS)
    return DEFAULT_CHOICE, (
        f"{first} and {second}, the rule book's default: the rules treat the four colours "
        "alike, so the choice never changes the game."
    )


__all__ = ["DEFAULT_CHOICE", "colours_choice"]
