"""What a game record opens with, read the same way by every game that shares it: the
record's ``players`` (the names in seat order)."""

from __future__ import annotations

from engine.errors import RecordError


def read_players(raw: object, least: int, most: int) -> list[str]:
    """The record's ``players``: a list of ``least`` to ``most`` non-empty names (whether
    two may be the same is each game's to say)."""
    if not isinstance(raw, list) or not least <= len(raw) <= most:
        raise RecordError(f'"players" must list {least} to {most} players in seat order.')
    if any(not isinstance(p, str) or not p for p in raw):
        raise RecordError('Every name in "players" must be a non-empty string.')
    return raw
