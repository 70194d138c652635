"""The games the bot hosts, by name: each is one package of this folder,
``bot/games/<game>/``, holding all that is the game's on Discord (its panel, views and
words); its ``game`` module's ``DISCORD_GAME`` is a :class:`~bot.games.base.DiscordGame`
over the engine's game of the same name (:mod:`engine.games`). The contract a game
fulfils is :mod:`bot.games.base`. A new game is one line in :data:`_MODULES`.

A game's package is imported on first use; one that cannot be imported is an error, never
a game quietly left out.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # a game's Discord-free parts (its words) import without discord.py
    from bot.games.base import DiscordGame

# name -> the module (a game package's ``game``) whose ``DISCORD_GAME`` is the game on
# Discord, in the order offered
_MODULES = {
    "stack": "bot.games.stack.game",
    "stackup": "bot.games.stackup.game",
    "colorstack": "bot.games.colorstack.game",
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


__all__ = ["DEFAULT", "UnknownGame", "all_games", "get", "names"]
