"""The host's refusals in Discord's words, and the Discord layer's own refusals.

The host (:mod:`host`) refuses with a reason code and its facts
(:class:`~host.refusals.Refusal`); :func:`refusal_text` says each code here, once, in the
words players read (ephemerally: :func:`bot.views.answer_error`). A refusal that only the
Discord layer knows (a command used in DMs, another member's panel…) is a :class:`Refused`
carrying its words.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from bot.text import escape_name
from engine.errors import settings_error  # storage's words for the same error
from host.refusals import Refusal, Why

MOVED_AWAY = (
    "This server's tables are moving to another process of the bot, so nothing was played. "
    "Try again in a few seconds."
)
NOT_SAVED = "That move could not be saved, so nothing was played; try again."


class Refused(Exception):
    """A request the Discord layer refuses itself, with the words for the user; nothing
    was changed."""


def _not_started(data: Mapping[str, Any]) -> str:
    if data.get("hint"):
        return "The game hasn't started yet."
    return "The game hasn't started yet. The host presses **Start**."


def _whose_turn(data: Mapping[str, Any]) -> str:
    player = data.get("player")
    whose = f"{escape_name(player)}'s" if player is not None else "nobody's"
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
    return f"{data['title']} {needs}: wait for someone to Join, or Add AI."


def _not_seated(data: Mapping[str, Any]) -> str:
    if data["lobby"]:
        return "You're not at this table. Press **Join** to sit down."
    return "You're not playing at this table; join the next game."


_HOST_ONLY = {
    "kick": "Only the host can kick a player.",
    "start": "Only the host can start the game.",
    "end": "Only the host or a server manager can end the table.",
}

WORDS: dict[Why, Callable[[Mapping[str, Any]], str]] = {
    Why.NO_TABLE: lambda d: "There's no table in this channel. Start one with `/table new`.",
    Why.TABLE_ENDED: lambda d: "This table has ended. Start a new one with `/table new`.",
    Why.MOVED_AWAY: lambda d: MOVED_AWAY,
    Why.NOT_SAVED: lambda d: NOT_SAVED,
    Why.TABLE_EXISTS: lambda d: "This channel already has a table. `/table show` brings it back.",
    Why.UNKNOWN_GAME: lambda d: (
        f"There is no game called {d['name']!r} here; the games are {', '.join(d['games'])}."
    ),
    Why.BAD_SETTINGS: lambda d: f"That table can't be set up: {settings_error(d['error'])}.",
    Why.INVALID_SETTINGS: lambda d: str(d["detail"]),
    Why.ALREADY_STARTED: lambda d: "The game has already started; wait for the next one.",
    Why.ALREADY_SEATED: lambda d: "You're already at this table.",
    Why.NAME_TAKEN: lambda d: (
        f"Someone at this table is already called {escape_name(d['name'])}: "
        "change your server nickname, then Join."
    ),
    Why.TABLE_FULL: _full,
    Why.NO_SUCH_AI: lambda d: (
        f"{d['title']} has no `{escape_name(d['level'])}` AI; "
        f"its levels are {', '.join(d['levels'])}."
    ),
    Why.HOST_ONLY: lambda d: _HOST_ONLY[d["power"]],
    Why.NOT_AT_TABLE: lambda d: "That player isn't at this table.",
    Why.KICK_SELF: lambda d: "You can't kick yourself; use `/table leave`.",
    Why.TOO_FEW_PLAYERS: _too_few,
    Why.SETUP_FAILED: lambda d: str(d["detail"]),
    Why.GAME_NOT_STARTED: _not_started,
    Why.GAME_OVER: lambda d: "The game is over.",
    Why.NOT_SEATED: _not_seated,
    Why.SEAT_LEFT: lambda d: "You left this game; an AI plays your seat now.",
    Why.NOT_YOUR_TURN: _whose_turn,
    Why.STALE_PANEL: lambda d: (
        "That button is from an older state of the table, so nothing was played. "
        "Use the newest table message (or `/table show`)."
    ),
    Why.BUSY: lambda d: "The table is busy; try again in a moment.",
    Why.ILLEGAL_MOVE: lambda d: d["game"].refusal_words(d["error"]),
    Why.NOT_NOW: lambda d: "That move can't be played now.",
}


def refusal_text(refusal: Refusal | Refused) -> str:
    """What the user reads when their request is refused."""
    if isinstance(refusal, Refused):
        return str(refusal)
    return WORDS[refusal.code](refusal.data)


__all__ = [
    "MOVED_AWAY",
    "NOT_SAVED",
    "WORDS",
    "Refusal",
    "Refused",
    "Why",
    "refusal_text",
    "settings_error",
]
