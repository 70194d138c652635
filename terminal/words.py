"""The host's refusals and notices in the terminal's words.

The host refuses with a reason code and its facts (:class:`~host.refusals.Refusal`); the
terminal says each code here, once. The English is the Discord bot's
(:mod:`bot.refusal_words`) where it names nothing of Discord's; a terminal has no buttons,
slash commands or server nicknames, so it says what to type instead. A move the rules
refuse is said in the engine's own words (``str(error)``, the terminal's language).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from engine.errors import settings_error
from host.refusals import Refusal, Why
from host.words import Notice


def _whose_turn(data: Mapping[str, Any]) -> str:
    player = data.get("player")
    whose = f"{player}'s" if player is not None else "nobody's"
    if data.get("hint"):
        return f"It's {whose} turn; a hint waits for yours."
    return f"It's {whose} turn."


def _full(data: Mapping[str, Any]) -> str:
    if data["fixed"]:
        return f"{data['title']} is for {data['most']} players: the table is full."
    return f"The table is full ({data['most']} players)."


def _too_few(data: Mapping[str, Any]) -> str:
    least = data["least"]
    needs = f"is for {least} players" if data["fixed"] else f"needs at least {least} players"
    return f"{data['title']} {needs}: add players (--players) or AI seats (--bots)."


WORDS: dict[Why, Callable[[Mapping[str, Any]], str]] = {
    Why.NO_TABLE: lambda d: "There's no table.",
    Why.TABLE_ENDED: lambda d: "This table has ended.",
    Why.MOVED_AWAY: lambda d: "The table moved to another process, so nothing was played.",
    Why.NOT_SAVED: lambda d: "That move could not be saved, so nothing was played; try again.",
    Why.TABLE_EXISTS: lambda d: "There is a table already.",
    Why.UNKNOWN_GAME: lambda d: (
        f"There is no game called {d['name']!r} here; the games are {', '.join(d['games'])}."
    ),
    Why.BAD_SETTINGS: lambda d: (
        f"That table can't be set up: {settings_error(d['error'], 'unknown option {!r}')}."
    ),
    Why.INVALID_SETTINGS: lambda d: str(d["detail"]),
    Why.ALREADY_STARTED: lambda d: "The game has already started.",
    Why.ALREADY_SEATED: lambda d: "You're already at this table.",
    Why.NAME_TAKEN: lambda d: f"Two players are called {d['name']}: give each a name of their own.",
    Why.TABLE_FULL: _full,
    Why.NO_SUCH_AI: lambda d: (
        f"{d['title']} has no AI level {d['level']!r}; its levels are {', '.join(d['levels'])}."
    ),
    Why.HOST_ONLY: lambda d: f"Only the host can {d['power']} the game.",
    Why.NOT_AT_TABLE: lambda d: "That player isn't at this table.",
    Why.KICK_SELF: lambda d: "You can't remove yourself; type `quit` to leave.",
    Why.TOO_FEW_PLAYERS: _too_few,
    Why.SETUP_FAILED: lambda d: str(d["detail"]),
    Why.GAME_NOT_STARTED: lambda d: "The game hasn't started yet.",
    Why.GAME_OVER: lambda d: "The game is over.",
    Why.NOT_SEATED: lambda d: "You're not playing at this table.",
    Why.SEAT_LEFT: lambda d: "You left this game; an AI plays your seat now.",
    Why.NOT_YOUR_TURN: _whose_turn,
    Why.STALE_PANEL: lambda d: "The table moved on meanwhile, so nothing was played: type `show`.",
    Why.BUSY: lambda d: "The table is busy; try again in a moment.",
    Why.ILLEGAL_MOVE: lambda d: str(d["error"]),
    Why.NOT_NOW: lambda d: "That move can't be played now; type `hint` for one that can.",
}


def refusal_text(refusal: Refusal) -> str:
    """What the player at the terminal reads when the host refuses their request."""
    return WORDS[refusal.code](refusal.data)


NOTICES: dict[Notice, Callable[[Mapping[str, Any]], str]] = {
    Notice.QUARANTINED: lambda d: "The saved game could not be read back, so the table is closed.",
    Notice.NO_HUMAN_AT_START: lambda d: "No human is left at the table, so it is closed.",
    Notice.LEFT: lambda d: f"{d['name']} left",
    Notice.KICKED: lambda d: f"{d['name']} was removed by the host",
    Notice.LOBBY_LEFT: lambda d: f"{d['why']}." + _new_host(d["host"]),
    Notice.LOBBY_EMPTY: lambda d: f"{d['why']}; with nobody left, the table is closed.",
    Notice.SEAT_TO_AI: lambda d: (
        f"{d['why']}; an AI plays their seat from now on." + _new_host(d["host"])
    ),
    Notice.NO_HUMAN_LEFT: lambda d: f"{d['why']}; with no human left, the table is closed.",
    Notice.ENDED_BY: lambda d: f"The {d['title']} table was ended by {d['name']}.",
    Notice.LOBBY_EXPIRED: lambda d: f"The lobby closed: no game started in {d['seconds']} s.",
    Notice.GAME_EXPIRED: lambda d: (
        f"The game ended as abandoned: no player moved for {d['seconds']} s."
    ),
    Notice.TIMED_OUT_TO_AI: lambda d: (
        f"{d['name']} let {d['count']} turns in a row run out: an AI plays their seat now."
    ),
    Notice.NO_HUMAN_PLAYING: lambda d: "No human is left playing, so the table is closed.",
}


def _new_host(host: str | None) -> str:
    return f" {host} is the host now." if host is not None else ""
