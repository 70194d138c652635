"""What a game's end leaves in storage, for any game: the result (winners, each seat's
final figure, how it ended) and each credited player's stats (the game's own figures).

A game played in rounds (one that emits :class:`~engine.game.RoundEnded`) gives its
finished rounds' scores by :meth:`~engine.game.Game.round_scores` (a row per round, a
figure per seat): storage keeps them, round by round, for the score sheet
(:func:`round_scores_of`).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any, TypedDict

from engine.game import Game
from persistence.records import SeatInfo


@dataclass(slots=True)
class ResultRow:
    """A finished game: who won, each seat's final figure (counted as ``higher_wins``
    says), how it ended, the rounds it took, and each seat's figures for the stats."""

    winners: list[int]
    scores: list[int]
    ended_by: str
    higher_wins: bool = True
    rounds_played: int = 0
    figures: list[dict[str, int]] = field(default_factory=list)  # per position
    # the seats that win or lose together (Game.sides); none: every seat alone
    sides: list[list[int]] = field(default_factory=list)


class CreditedStats(TypedDict):
    """What one player's stats gain from a game."""

    user_id: int
    name: str
    win: bool
    points: int
    figures: dict[str, int]


def round_scores_of(game: Game[Any], state: Any) -> list[list[int]]:
    """The scores of every round ``state`` has finished (:meth:`Game.round_scores`: none
    for a game not played in rounds)."""
    return [list(r) for r in game.round_scores(state)]


def result_of(game: Game[Any], state: Any, whole: Any) -> ResultRow:
    """The result of the finished game ``state``; the stats figures come from ``whole``,
    the same game holding all of it (:meth:`~engine.game.Game.holds_whole_game`).
    Raises ``ValueError`` (nothing is stored) for a state that is not over or figures that
    are not whole numbers by name."""
    outcome = game.outcome(state)
    if outcome is None:
        raise ValueError(f"The {game.title} game is over but has no outcome.")
    seat_count = len(state.players)
    if len(outcome.scores) != seat_count or not all(0 <= w < seat_count for w in outcome.winners):
        raise ValueError(f"The {game.title} outcome does not fit its {seat_count} seats.")
    return ResultRow(
        winners=list(outcome.winners),
        scores=list(outcome.scores),
        ended_by=outcome.ended_by,
        higher_wins=outcome.higher_wins,
        rounds_played=len(round_scores_of(game, state)),
        figures=[checked_figures(game, game.stats_figures(whole, p)) for p in range(seat_count)],
        sides=[list(side) for side in game.sides(state)],
    )


def checked_figures(game: Game[Any], figures: Mapping[str, int]) -> dict[str, int]:
    """``figures`` as stored; ``ValueError`` unless they are whole numbers by name."""
    for key, value in figures.items():
        if not isinstance(key, str) or not key or type(value) is not int:
            raise ValueError(f"{game.title}'s stats figure {key!r}: {value!r} is not a count.")
    return dict(figures)


def credited_stats(result: ResultRow, seat_infos: Iterable[SeatInfo]) -> list[CreditedStats]:
    """The stats the game adds, one row per seat whose result belongs to a player.

    A seat handed to an AI because its player left or was kicked (``left_game``) credits
    nobody: the AI's play is not that player's. A seat that timed out into the AI keeps
    its player's result (they did not leave; the AI played their turns for them).
    """
    rows: list[CreditedStats] = []
    for seat in seat_infos:
        if seat.user_id is None or seat.left_game:
            continue
        p = seat.position
        rows.append(
            CreditedStats(
                user_id=seat.user_id,
                name=seat.name,
                win=p in result.winners,
                points=result.scores[p],
                figures=result.figures[p] if p < len(result.figures) else {},
            )
        )
    return rows
