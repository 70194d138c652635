"""Checks of what callers hand the store, made before anything is queued or written: each
raises the specific :mod:`persistence.errors` exception that says what is wrong."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from engine.game import Game
from persistence.errors import InvalidSettings, NotSeated
from persistence.records import ANNOUNCEMENT_KINDS, Announcement


def check_name(name: object) -> None:
    if not isinstance(name, str) or not name.strip() or len(name) > 100:
        raise InvalidSettings("A player's name must be 1 to 100 characters.")


def check_level(level: object, game: Game[Any]) -> None:
    """``level`` is one of the game's AI levels."""
    if level not in game.ai_levels:
        raise InvalidSettings(
            f"There is no AI level {level!r}; choose from {', '.join(game.ai_levels)}."
        )


def check_position(table_id: int, position: object, seat_count: int) -> None:
    if type(position) is not int or not 0 <= position < seat_count:
        raise NotSeated(f"Table {table_id} has no seat {position}.")


def check_announcements(announcements: Sequence[Announcement]) -> None:
    for a in announcements:
        if not isinstance(a, Announcement) or a.kind not in ANNOUNCEMENT_KINDS:
            raise ValueError(f"Not an announcement: {a!r}.")
        if not isinstance(a.content, str):
            raise ValueError("An announcement's content is text.")
        if (a.round_no is not None) != (a.kind == "round"):
            raise ValueError("A round announcement, and only one, names its round.")
