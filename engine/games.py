"""The registry of games: every game the host can run, by name.

A new game is one package of :mod:`engine` with a :class:`~engine.game.Game` object, added
to :data:`_MODULES` here.
"""

from __future__ import annotations

import importlib
from typing import Any

from engine.game import Game

# name -> the module whose ``GAME`` is the game (imported on first use)
_MODULES = {
    "stack": "engine.stack.game",
    "stackup": "engine.stackup.game",
    "colorstack": "engine.colorstack.game",
}
DEFAULT = "stack"
_loaded: dict[str, Game[Any]] = {}


class UnknownGame(ValueError):
    """No game has that name."""


def names() -> tuple[str, ...]:
    """Every registered game's name, the default first."""
    return tuple(_MODULES)


def get(name: str) -> Game[Any]:
    """The game called ``name`` (``"stack"``, ``"stackup"``)."""
    known = _loaded.get(name)
    if known is not None:
        return known
    module = _MODULES.get(name)
    if module is None:
        games = ", ".join(_MODULES)
        raise UnknownGame(f"There is no game called {name!r}; the games are {games}.")
    game: Game[Any] = importlib.import_module(module).GAME
    _loaded[name] = game
    return game


def all_games() -> list[Game[Any]]:
    return [get(name) for name in _MODULES]


def by_record_format(fmt: object) -> Game[Any] | None:
    """The game whose records have ``"format": fmt`` (its :attr:`~engine.game.Game.record_format`),
    or ``None``."""
    if not isinstance(fmt, str):
        return None
    return next((game for game in all_games() if game.record_format == fmt), None)
