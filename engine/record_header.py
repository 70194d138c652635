"""What a game record opens with, read the same way by every game that shares it: the
record's ``rules`` (an object of the game's settings) and ``players`` (the names in seat
order)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TypeVar

from pydantic import BaseModel, ValidationError

from engine.errors import RecordError, settings_from

SettingsT = TypeVar("SettingsT", bound=BaseModel)


def read_rules(
    raw: object, model: type[SettingsT], wrong: Callable[[ValidationError], str]
) -> SettingsT:
    """The record's ``rules`` as ``model``; :class:`RecordError` when they are not an
    object, or with the sentence ``wrong`` makes of the model's validation error."""
    return settings_from(raw, model, RecordError, 'The record\'s "rules" must be an object.', wrong)


def read_players(raw: object, least: int, most: int) -> list[str]:
    """The record's ``players``: a list of ``least`` to ``most`` non-empty names (whether
    two may be the same is each game's to say)."""
    if not isinstance(raw, list) or not least <= len(raw) <= most:
        raise RecordError(f'"players" must list {least} to {most} players in seat order.')
    if any(not isinstance(p, str) or not p for p in raw):
        raise RecordError('Every name in "players" must be a non-empty string.')
    return raw
