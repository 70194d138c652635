"""Each game's words in the current language: what every front end says of a game's
moves, turns, refused moves and hints.

The engine words a game in English only (``Game.move_words``, ``turn_words``,
``str(error)``, ``hint``'s reason: the terminal's English of before). A game's module here
(``catalog/<game>.py``, defining ``WORDS``) says the same things from the catalog, in the
language being spoken (:func:`catalog.speaking`); its English is the engine's, byte for
byte. A game with no module here yet is worded by its engine, in English.
"""

from __future__ import annotations

import importlib
from functools import cache
from typing import Any, Protocol

from engine import games
from engine.errors import MoveError
from engine.game import Game, TurnEnded

__all__ = ["GameWords", "words"]


class GameWords(Protocol):
    """A game's words (every method says them in the current language)."""

    def title(self) -> str:
        """The game's name as players read it."""
        ...

    def move_words(self, state: Any, move: Any) -> str:
        """A legal move in a player's words, for a button or a menu."""
        ...

    def turn_words(self, state: Any, event: TurnEnded) -> str:
        """The turn that just ended, in words every player may see (no hidden cards)."""
        ...

    def error_text(self, error: MoveError) -> str:
        """A refused move in words (the terminal's, and any page's: typed notation)."""
        ...

    def hint(self, state: Any) -> tuple[Any, str]:
        """The greedy AI's move for the seat to act, and its reason in words."""
        ...

    def render_text(self, state: Any, viewer: int | None = None) -> str:
        """The table in plain text as seat ``viewer`` may see it (``None``: a spectator)."""
        ...

    def rules_text(self) -> str:
        """The rules in brief and how to type a move."""
        ...

    def end_words(self, state: Any) -> str:
        """How the game ended in a line (``""`` while it goes on, or for a game whose end
        its table's text already says)."""
        ...


class EngineWords:
    """A game worded by its engine (English)."""

    def __init__(self, game: Game[Any]) -> None:
        self.game = game

    def title(self) -> str:
        return self.game.title

    def move_words(self, state: Any, move: Any) -> str:
        return self.game.move_words(state, move)

    def turn_words(self, state: Any, event: TurnEnded) -> str:
        return self.game.turn_words(state, event)

    def error_text(self, error: MoveError) -> str:
        return str(error)

    def hint(self, state: Any) -> tuple[Any, str]:
        return self.game.hint(state)

    def render_text(self, state: Any, viewer: int | None = None) -> str:
        return self.game.render_text(state, viewer)

    def rules_text(self) -> str:
        return self.game.rules_text()

    def end_words(self, state: Any) -> str:
        return ""


@cache
def words(name: str) -> GameWords:
    """The words of the game called ``name`` (one of :func:`engine.games.names`)."""
    game = games.get(name)
    try:
        module = importlib.import_module(f"catalog.{name}")
    except ModuleNotFoundError as err:
        if err.name != f"catalog.{name}":
            raise
        return EngineWords(game)
    found: GameWords = module.WORDS
    return found
