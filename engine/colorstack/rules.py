"""The table's options for Color Stack as a validated settings model, and the fixed
numbers of the rule book (``docs/colorstack-rules.md``)."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictInt, ValidationError

from engine import errors

PLAYERS = 2
DICE_PER_PLAYER = 6
DEFAULT_TURN_LIMIT = 300
MAX_HOUSE_TURN_LIMIT = 10_000  # the most a house rule or a table option sets
TURN_LIMIT_WORDS = (  # the turn limit, as its settings field describes it
    "turns (sets and moves of both players) after which a game without a winner is drawn"
)
REPETITIONS = 3  # a position occurring this often draws the game


class ColorStackSettings(BaseModel):
    """The rules of one game, as a game record's ``rules`` holds them."""

    model_config = ConfigDict(extra="forbid", frozen=True)

    board: Annotated[
        Literal["light", "heavy"],
        Field(description="light: 6 cards, a board of 9 × 6; heavy: 9 cards, 9 × 9"),
    ] = "light"
    turn_limit: Annotated[
        StrictInt,
        Field(
            ge=1,
            description=TURN_LIMIT_WORDS,
        ),
    ] = DEFAULT_TURN_LIMIT

    def to_record(self) -> dict[str, object]:
        """The settings as a record's ``rules`` object (every key written out)."""
        return self.model_dump()


class ColorStackHouseRules(ColorStackSettings):
    """The settings as a server's house rules or a table's options set them: a game
    record's (:class:`ColorStackSettings`), with the turn limit at most
    :data:`MAX_HOUSE_TURN_LIMIT`. A record may hold any whole number of at least 1 (the
    rule book's); a table is set up within what a host can keep."""

    turn_limit: Annotated[
        StrictInt,
        Field(
            ge=1,
            le=MAX_HOUSE_TURN_LIMIT,
            description=TURN_LIMIT_WORDS,
        ),
    ] = DEFAULT_TURN_LIMIT


def settings_error(err: ValidationError) -> str:
    """The first problem of a settings validation error, in words."""
    return errors.settings_error(
        err,
        "an unknown key {!r} in rules (the keys are 'board' and 'turn_limit')",
        {"board": '"light" or "heavy"', "turn_limit": "a whole number of at least 1"},
    )
