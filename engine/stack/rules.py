"""The table's rules as a validated settings model (the house rules of the rule book)."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictInt, ValidationError

from engine import errors

MIN_PLAYERS = 2
MAX_PLAYERS = 8
MAX_DICE_PER_PLAYER = 30
MAX_HOUSE_TARGET = 10_000

TieBreak = Literal["extra_round", "shared"]


class _CommonRules(BaseModel):
    model_config = ConfigDict(extra="forbid", frozen=True)

    target_score: Annotated[StrictInt, Field(ge=1, description="points that end the game")] = 200
    dice_per_player: Annotated[
        StrictInt, Field(ge=1, le=MAX_DICE_PER_PLAYER, description="dice per colour")
    ] = 14
    four_high_bonus: Annotated[
        StrictBool, Field(description="a captured pile scores double its face")
    ] = False
    capture_penalty: Annotated[
        StrictBool,
        Field(description="when a player captures a pile, every other player loses 1 point"),
    ] = False
    rolled_two_penalty: Annotated[
        StrictBool, Field(description="a player who rerolls and rolls a 2 loses 1 point")
    ] = False
    tie_break: Annotated[
        TieBreak, Field(description="extra_round: play on until the tie breaks; shared: joint win")
    ] = "extra_round"


class StackRules(_CommonRules):
    """The rules of one game, as a game record's ``rules`` holds them.

    ``teams`` is ``None`` or the pairs of teammates, naming every player exactly once.
    """

    teams: tuple[tuple[str, str], ...] | None = None

    def team_of(self, players: tuple[str, ...]) -> tuple[int, ...] | None:
        """The team index of each seat, or ``None`` without team play."""
        if self.teams is None:
            return None
        index = {name: t for t, pair in enumerate(self.teams) for name in pair}
        return tuple(index[name] for name in players)

    def to_record(self) -> dict[str, object]:
        """The rules as a record's ``rules`` object (every key written out)."""
        data = self.model_dump()
        if self.teams is not None:
            data["teams"] = [list(pair) for pair in self.teams]
        return data


class HouseRules(_CommonRules):
    """A guild's or channel's house rules: the same keys, with ``teams`` an on/off switch."""

    target_score: Annotated[
        StrictInt, Field(ge=1, le=MAX_HOUSE_TARGET, description="points that end the game")
    ] = 200
    teams: Annotated[StrictBool, Field(description="team play in pairs")] = False

    def for_players(self, players: tuple[str, ...]) -> StackRules:
        """The rules of a game among ``players`` (seated in that order) under these house rules.

        With team play the seat order must already be the one from :func:`seat_teams`;
        teammates are the players ``k`` seats apart, where ``k`` is the number of teams.
        """
        data = self.model_dump(exclude={"teams"})
        teams = None
        if self.teams:
            check_team_size(len(players))
            half = len(players) // 2
            teams = tuple((players[i], players[i + half]) for i in range(half))
        return StackRules(**data, teams=teams)


class TeamSizeError(ValueError):
    """Team play needs an even number of players, at least four."""


def check_team_size(count: int) -> None:
    """Raise :class:`TeamSizeError` unless ``count`` players can play in teams of two."""
    if count < 4 or count % 2:
        raise TeamSizeError(
            f"Team play needs an even number of players, at least 4 (there are {count})."
        )


def seat_teams(players: list[str]) -> tuple[str, ...]:
    """Seat players so that no two teammates sit side by side.

    ``players`` lists the teams pair by pair: ``[a1, a2, b1, b2, ...]``. The result seats
    every team's first member, then every team's second member in the same team order,
    so teammates sit ``k`` seats apart around a circle of ``2k`` (``k >= 2``).
    """
    check_team_size(len(players))
    return tuple(players[0::2]) + tuple(players[1::2])


def teams_adjacent(players: tuple[str, ...], teams: tuple[tuple[str, str], ...]) -> bool:
    """Whether any two teammates sit next to each other, the seat order read as a circle."""
    seat = {name: i for i, name in enumerate(players)}
    n = len(players)
    return any((seat[a] - seat[b]) % n in (1, n - 1) for a, b in teams)


def settings_error(err: ValidationError) -> str:
    """The first problem of a record's rules, in words: ``'dice_per_player' must be a
    whole number from 1 to 30, not 31`` or ``unknown key 'colour'``."""
    return errors.settings_error(
        err,
        musts={
            "target_score": "a whole number of at least 1",
            "dice_per_player": f"a whole number from 1 to {MAX_DICE_PER_PLAYER}",
            "four_high_bonus": "true or false",
            "capture_penalty": "true or false",
            "rolled_two_penalty": "true or false",
            "tie_break": '"extra_round" or "shared"',
            "teams": "null or a list of two-player lists naming every player once",
        },
    )
