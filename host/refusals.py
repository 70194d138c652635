"""A refused request, typed: a reason code and the facts its words need; nothing changed.

Like boardgame.io's ``ActionErrorType``: the host says *why* (:class:`Why`), each front end
says it in its own words (the Discord bot's are :mod:`bot.refusal_words`). No words here.
"""

from __future__ import annotations

from collections.abc import Mapping
from enum import StrEnum
from typing import Any


class Why(StrEnum):
    """Every reason the host refuses a request for. The facts each carries (``data``) are
    named after the member."""

    NO_TABLE = "no_table"  # no table in the channel
    TABLE_ENDED = "table_ended"  # the table (found by id, or queued behind its end) ended
    MOVED_AWAY = "moved_away"  # the table's shard went to another process
    NOT_SAVED = "not_saved"  # storage did not take the step (or does not answer yet)
    TABLE_EXISTS = "table_exists"  # the channel already has a table
    UNKNOWN_GAME = "unknown_game"  # data: name, games (the hosted games' names)
    BAD_SETTINGS = "bad_settings"  # data: error (pydantic's ValidationError)
    INVALID_SETTINGS = "invalid_settings"  # data: detail (storage's InvalidSettings text)
    ALREADY_STARTED = "already_started"  # the lobby is over
    ALREADY_SEATED = "already_seated"
    NAME_TAKEN = "name_taken"  # data: name (a seated player's)
    TABLE_FULL = "table_full"  # data: title, most, fixed (the game is for exactly ``most``)
    NO_SUCH_AI = "no_such_ai"  # data: title, level, levels
    HOST_ONLY = "host_only"  # data: power ("kick", "remove_ai", "start"; "end": host or manager)
    NOT_AT_TABLE = "not_at_table"  # the player to kick is not seated
    KICK_SELF = "kick_self"
    TOO_FEW_PLAYERS = "too_few_players"  # data: title, least, fixed
    SETUP_FAILED = "setup_failed"  # data: detail (the engine's SetupError text)
    GAME_NOT_STARTED = "game_not_started"  # data: hint (asked for a hint)
    GAME_OVER = "game_over"
    NOT_SEATED = "not_seated"  # data: lobby (the table is still a lobby)
    SEAT_LEFT = "seat_left"  # the player left (or, timed_out, let count turns run out); an AI plays their seat
    NOT_YOUR_TURN = "not_your_turn"  # data: player (whose turn, or None), hint
    STALE_PANEL = "stale_panel"  # a button of an older version of the table
    BUSY = "busy"  # nobody is to act (the table is between decisions)
    # data: game (the front end's own game object, which words it), error (the MoveError),
    # said (the players' names and the typed text, which its words may hold)
    ILLEGAL_MOVE = "illegal_move"
    NOT_NOW = "not_now"  # a given move that is not legal now


class Refusal(Exception):
    """A request refused; nothing was changed. ``code`` says why, ``data`` holds the facts
    the words need (names, counts, the engine's error)."""

    def __init__(self, code: Why, **data: Any) -> None:
        super().__init__(code.value)
        self.code = code
        self.data: Mapping[str, Any] = data

    def __repr__(self) -> str:
        facts = ", ".join(f"{k}={v!r}" for k, v in self.data.items())
        return f"Refusal({self.code.value}{', ' if facts else ''}{facts})"
