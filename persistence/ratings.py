"""Ratings: each player's skill in one game on one server, by OpenSkill's Plackett-Luce
model (the ``openskill`` package, its default prior: mu 25, sigma 25/3), updated with
every finished game in the commit that stores its result.

Who is rated, and how a finished game places them (README, "Ratings"):

* every seat played by a Discord user, under their user id (a seat that timed out into
  the AI keeps its player: the result stands as theirs, as in their stats); and every AI
  level, one rated player per server and game (``"AI greedy"``): every seat of that level
  is that player;
* the seats that win or lose together (:meth:`engine.game.Game.sides`: Stack's teams)
  are one side; every other seat is a side of its own;
* the sides holding a winner share first place (one winner, or a shared win); the other
  sides follow in the order of their figure (a team's seats' figures added up, more or
  fewer first as the game counts them: Stack's totals, Stack Up!'s cards left), equal
  figures tied. A draw (no winner) ties every side;
* a player who left mid-game (their seat handed to the AI) is rated last, below every side
  that played on, on a side of their own (leavers tied with each other): leaving a game
  one is losing does not spare a rating. The AI that played the seat on is not rated for
  it, and the side the leaver left is placed as it finished, with its other players;
* an AI level on several seats of a game plays each of them from its rating before the
  game, and keeps the mean of what the seats' results make of it;
* a game with fewer than two sides to place (one rated player, alone) rates nobody;
* a game closed before its end (abandoned: its last human left, or its host ended it,
  or it expired) is rated only when someone left it (:func:`closed_game`), so that
  leaving does not spare a rating when the leaver was the last human: its leavers last,
  every side that played on tied above them (as in a draw). With nobody gone it rates
  nobody.

Game order is the results' ``(finished_at, table_id)`` (a closed game's: its table's);
the games one commit ends are rated in table order. :func:`replay` rates stored results
(and the closed games a leaver left) from scratch in that order (the migrations'
backfill, and the tests' reference).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from typing import Any

from openskill.models import PlackettLuce
from sqlalchemy import bindparam, insert, select, update
from sqlalchemy.ext.asyncio import AsyncConnection

from persistence.records import SeatInfo
from persistence.schema import rating_history, ratings

MODEL = PlackettLuce()
RATED_AFTER = 5  # rated games after which a player's rating is shown ranked
LEFT = "left"  # a leaver's place


@dataclass(frozen=True, slots=True)
class Skill:
    """A rated player's skill: ``mu`` (the estimate) and ``sigma`` (its uncertainty), and
    the number of rated games behind it."""

    mu: float = MODEL.mu
    sigma: float = MODEL.sigma
    games: int = 0

    @property
    def ordinal(self) -> float:
        """The skill a player is shown and ranked by: ``mu - 3 sigma`` (99.7 % sure they
        are at least this good); 0 for a new player."""
        return self.mu - 3 * self.sigma


@dataclass(frozen=True, slots=True)
class Player:
    """Who a seat's result rates: ``key`` is ``"user:<id>"`` or ``"ai:<level>"``."""

    key: str
    name: str
    user_id: int | None = None
    ai_level: str | None = None


@dataclass(frozen=True, slots=True)
class RatedGame:
    """A finished game as rating reads it: its result and its seats."""

    table_id: int
    guild_id: int
    game: str
    finished_at: datetime
    winners: Sequence[int]
    scores: Sequence[int]
    higher_wins: bool
    seats: Sequence[SeatInfo]
    sides: Sequence[Sequence[int]] = ()  # none: every seat alone


def closed_game(
    table_id: int,
    guild_id: int,
    game: str,
    finished_at: datetime,
    seats: Sequence[SeatInfo],
    sides: Sequence[Sequence[int]] = (),
) -> RatedGame | None:
    """A game closed before its end (abandoned) as rating reads it: no winner (every side
    that played on ties) and its leavers last; ``None`` when nobody counts as gone (such
    a game rates nobody).

    Who counts as gone: with two humans or more still holding their seats at the close
    (a stop by agreement: the host ended it, or it expired), those who left. With one or
    none (a game against the AI walked away from: left, lost to the turn timer, ended by
    its last human or expired idle), every human seat: nobody spares a rating by
    leaving a game against the AI in any of those ways."""
    humans = [s for s in seats if s.user_id is not None]
    holding = [s for s in humans if s.ai_level is None and not s.left_game]
    gone = {s.position for s in humans} if len(holding) <= 1 else set()
    gone |= {s.position for s in humans if s.left_game}
    if not gone:
        return None
    rated = [replace(s, left_game=True) if s.position in gone else s for s in seats]
    scores = [0] * (max((s.position for s in seats), default=-1) + 1)
    return RatedGame(table_id, guild_id, game, finished_at, (), scores, True, rated, sides)


def player_of(seat: SeatInfo) -> Player | None:
    """The rated player a seat's result belongs to (a leaver's too: see :func:`placing`)."""
    if seat.user_id is not None:
        return Player(f"user:{seat.user_id}", seat.name, user_id=seat.user_id)
    if seat.ai_level is not None:
        level = seat.ai_level
        return Player(f"ai:{level}", f"AI {level}", ai_level=level)
    return None


def placing(game: RatedGame) -> list[tuple[int, list[SeatInfo]]]:
    """The game's rated sides, each as its place (0 first; equal places tie) and its
    seats, as the module's rules place them; empty when fewer than two sides are left."""
    seats = {s.position: s for s in game.seats}
    sides = [list(side) for side in game.sides] or [[p] for p in sorted(seats)]
    winners = set(game.winners)
    played: list[tuple[bool, int, list[SeatInfo]]] = []  # (won, figure, seats on)
    leavers: list[SeatInfo] = []
    for side in sides:
        rated = [seats[p] for p in side if p in seats and player_of(seats[p]) is not None]
        on = [s for s in rated if not s.left_game]
        leavers += [s for s in rated if s.left_game]
        if on:
            figure = sum(game.scores[p] for p in side)
            played.append((any(p in winners for p in side), figure, on))
    if len(played) + len(leavers) < 2:
        return []
    sign = -1 if game.higher_wins else 1

    def order(won: bool, figure: int) -> tuple[int, int]:
        if not winners:  # a draw: every side that played on ties
            return (0, 0)
        return (0, 0) if won else (1, sign * figure)

    keys = sorted({order(won, figure) for won, figure, _ in played})
    placed = [(keys.index(order(won, figure)), on) for won, figure, on in played]
    placed += [(len(keys), [s]) for s in leavers]
    return placed


def rate(prior: Mapping[str, Skill], game: RatedGame) -> dict[str, tuple[Player, Skill]]:
    """The skills of the game's rated players after it, from their skills before it
    (``prior``; a player missing there starts at the model's prior)."""
    placed = placing(game)
    if not placed:
        return {}
    teams: list[list[Any]] = []
    ranks: list[float] = []
    members: list[list[Player]] = []
    for place, side in placed:
        team = []
        players = []
        for seat in side:
            player = player_of(seat)
            assert player is not None
            skill = prior.get(player.key, Skill())
            team.append(MODEL.create_rating([skill.mu, skill.sigma]))
            players.append(player)
        teams.append(team)
        ranks.append(float(place + 1))
        members.append(players)
    after = MODEL.rate(teams, ranks=ranks)
    seen: dict[str, tuple[Player, list[float], list[float]]] = {}
    for players, team in zip(members, after, strict=True):
        for player, rating in zip(players, team, strict=True):
            _, mus, sigmas = seen.setdefault(player.key, (player, [], []))
            mus.append(float(rating.mu))
            sigmas.append(float(rating.sigma))
    return {
        key: (
            player,
            Skill(
                sum(mus) / len(mus),
                sum(sigmas) / len(sigmas),
                prior.get(key, Skill()).games + 1,
            ),
        )
        for key, (player, mus, sigmas) in seen.items()
    }


@dataclass(frozen=True, slots=True)
class Replayed:
    """What :func:`replay` makes of a run of results: each rated player's skill at the
    end (``(guild_id, game, key)``: player and skill) and their skill after each game."""

    skills: dict[tuple[int, str, str], tuple[Player, Skill]]
    history: list[dict[str, Any]]


def replay(games: Iterable[RatedGame]) -> Replayed:
    """Rate ``games`` from scratch, in game order (``(finished_at, table_id)``)."""
    skills: dict[tuple[int, str, str], tuple[Player, Skill]] = {}
    history: list[dict[str, Any]] = []
    for game in sorted(games, key=lambda g: (g.finished_at, g.table_id)):
        prior = {
            key: skill
            for (g, n, key), (_, skill) in skills.items()
            if (g, n) == (game.guild_id, game.game)
        }
        for key, (player, skill) in rate(prior, game).items():
            skills[(game.guild_id, game.game, key)] = (player, skill)
            history.append(history_row(game, key, skill))
    return Replayed(skills, history)


def history_row(game: RatedGame, key: str, skill: Skill) -> dict[str, Any]:
    return {
        "table_id": game.table_id,
        "player": key,
        "guild_id": game.guild_id,
        "game": game.game,
        "finished_at": game.finished_at,
        "mu": skill.mu,
        "sigma": skill.sigma,
    }


def rating_row(guild_id: int, game: str, player: Player, skill: Skill) -> dict[str, Any]:
    return {
        "guild_id": guild_id,
        "game": game,
        "player": player.key,
        "user_id": player.user_id,
        "ai_level": player.ai_level,
        "name": player.name,
        "mu": skill.mu,
        "sigma": skill.sigma,
        "ordinal": skill.ordinal,
        "games": skill.games,
    }


# a rated player's row rewritten (executemany: every ``b_`` column of :func:`rating_row`)
UPDATE_RATING = (
    update(ratings)
    .where(
        ratings.c.guild_id == bindparam("b_guild_id"),
        ratings.c.game == bindparam("b_game"),
        ratings.c.player == bindparam("b_player"),
    )
    .values(
        {
            name: bindparam(f"b_{name}")
            for name in ("user_id", "ai_level", "name", "mu", "sigma", "ordinal", "games")
        }
    )
)


async def rate_finished(conn: AsyncConnection, games: Sequence[RatedGame]) -> None:
    """Rate the games a transaction ends, in table order, in that transaction: each
    player's skill is read, rated and written back (one writer rates a server's games:
    its tables' shard is one process's)."""
    for game in sorted(games, key=lambda g: g.table_id):
        keys = [p.key for s in game.seats if (p := player_of(s)) is not None]
        c = ratings.c
        rows = await conn.execute(
            select(c.player, c.mu, c.sigma, c.games).where(
                c.guild_id == game.guild_id, c.game == game.game, c.player.in_(keys)
            )
        )
        prior = {r.player: Skill(r.mu, r.sigma, r.games) for r in rows}
        rated = rate(prior, game)
        if not rated:
            continue
        rows_of = {k: rating_row(game.guild_id, game.game, p, s) for k, (p, s) in rated.items()}
        known = [{f"b_{k}": v for k, v in rows_of[key].items()} for key in rated if key in prior]
        if known:
            await conn.execute(UPDATE_RATING, known)
        new = [rows_of[key] for key in rated if key not in prior]
        if new:
            await conn.execute(insert(ratings), new)
        await conn.execute(
            insert(rating_history),
            [history_row(game, key, skill) for key, (_, skill) in rated.items()],
        )
