"""The games storage knows, by the name stored with every table, setting and result.

Every lookup goes through :func:`engine.games.get` at call time, so a test may register a
game of its own by replacing that function.
"""

from __future__ import annotations

from typing import Any

from engine import games
from engine.game import Game
from persistence.errors import InvalidSettings, StorageError


def game_named(name: object) -> Game[Any]:
    """The game a caller names (``"stack"``); :class:`InvalidSettings` if there is none."""
    if not isinstance(name, str):
        raise InvalidSettings(f"A game is named by its name, not {name!r}.")
    try:
        return games.get(name)
    except games.UnknownGame as err:
        raise InvalidSettings(str(err)) from None


def stored_game(name: str, what: str) -> Game[Any]:
    """The game of something stored (``what``: "table 12"); a :class:`StorageError` when
    this code does not know it (stored by a newer stackbot with more games)."""
    try:
        return games.get(name)
    except games.UnknownGame:
        raise StorageError(
            f"{what} is a game of {name!r}, which this version of stackbot does not know."
        ) from None


def sides_of(name: str, initial: Any) -> list[list[int]]:
    """The seats that win or lose together (:meth:`~engine.game.Game.sides`: Stack's teams)
    of a table of game ``name`` whose initial state is ``initial`` (its ``to_dict()``);
    none (every seat alone) when the game or the state cannot be read."""
    if initial is None:
        return []
    try:
        game = games.get(name)
        return [list(side) for side in game.sides(game.state_from_dict(initial))]
    except (games.UnknownGame, ValueError, KeyError, TypeError):
        return []
