"""The table's options for Stack Up! as a validated settings model, and the fixed numbers
of the rule book (``docs/stackup-rules.md``)."""

from __future__ import annotations

from typing import Annotated, Final

from pydantic import BaseModel, ConfigDict, Field, StrictInt, ValidationError

from engine import errors

MIN_PLAYERS: Final = 2
MAX_PLAYERS: Final = 6
HAND_SIZE: Final = 10  # cards dealt to each player
PENALTY_CARDS: Final = 3  # a Crash penalty draws this many, never more
BONUS_LENGTH: Final = 3  # a number play of at least this many cards earns a stacking bonus
MAX_SNATCH: Final = 3  # a Snatch takes at most this many cards
DEFAULT_TURN_LIMIT: Final = 500
MAX_HOUSE_TURN_LIMIT: Final = 10_000  # the most a house rule or a table option sets
TURN_LIMIT_WORDS = (  # the turn limit, as its settings field describes it
    "turns after which the game ends; the fewest cards in hand then win "
    "(skipped turns do not count)"
)


class StackUpSettings(BaseModel):
    """The rules of one game, as a game record's ``rules`` holds them.

    The rule book fixes everything else; only the turn limit is a table option (a bot
    needs every game to end, and 500 binds only on deliberate stalling).
    """

    model_config = ConfigDict(extra="forbid", frozen=True)

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


class StackUpHouseRules(StackUpSettings):
    """The settings as a server's house rules or a table's options set them: a game
    record's (:class:`StackUpSettings`), with the turn limit at most
    :data:`MAX_HOUSE_TURN_LIMIT`. A record may hold any whole number of at least 1 (the
    rule book's); a table is set up within what a host can keep and what can bind (the
    default binds only on deliberate stalling)."""

    turn_limit: Annotated[
        StrictInt,
        Field(
            ge=1,
            le=MAX_HOUSE_TURN_LIMIT,
            description=TURN_LIMIT_WORDS,
        ),
    ] = DEFAULT_TURN_LIMIT


def settings_error(err: ValidationError) -> str:
    """The first problem of a settings validation error, in words:
    ``"turn_limit" must be a whole number of at least 1`` or ``unknown key 'colour'``."""
    return errors.settings_error(
        err,
        "an unknown key {!r} (the only key is 'turn_limit')",
        {"turn_limit": "a whole number of at least 1"},
    )
