"""The games the bot hosts, by name: each is a :class:`~bot.games.base.DiscordGame` in one
module of this package (its ``DISCORD_GAME``), over the engine's game of the same name
(:mod:`engine.games`). The contract a game's module fulfils is :mod:`bot.games.base`.

A game's module is imported on first use; one that cannot be imported is an error, never
a game quietly left out.
"""

from __future__ import annotations

import importlib

from bot.games.base import DiscordGame

# name -> the module whose ``DISCORD_GAME`` is the game on Discord, in the order offered
_MODULES = {
    "stack": "bot.games.stack",
    "stackup": "bot.games.stackup",
    "colorstack": "bot.games.colorstack",
}
DEFAULT = "stack"
_loaded: dict[str, DiscordGame] = {}


class UnknownGame(ValueError):
    """No game of that name is hosted."""


def _load(name: str) -> DiscordGame | None:
    known = _loaded.get(name)
    if known is not None:
        return known
    module = _MODULES.get(name)
    if module is None:
        return None
    game: DiscordGame = importlib.import_module(module).DISCORD_GAME
    _loaded[name] = game
    return game


def names() -> tuple[str, ...]:
    """Every hosted game's name, the default first."""
    return tuple(name for name in _MODULES if _load(name) is not None)


def get(name: str) -> DiscordGame:
    """The game called ``name`` on Discord; :class:`UnknownGame` when it is not hosted."""
    game = _load(name)
    if game is None:
        hosted = ", ".join(names())
        raise UnknownGame(f"There is no game called {name!r} here; the games are {hosted}.")
    return game


def all_games() -> list[DiscordGame]:
    return [get(name) for name in names()]


__all__ = ["DEFAULT", "DiscordGame", "UnknownGame", "all_games", "get", "names"]
