"""Reads of played games, for any game: a table's score sheet, a channel's history, a
server's leaderboard and a player's stats with their recent games."""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from fractions import Fraction
from typing import Any, Literal

from sqlalchemy import select
from sqlalchemy.ext.asyncio import AsyncConnection

from engine import games
from persistence.errors import InvalidSettings, WrongTableStatus
from persistence.ratings import RATED_AFTER
from persistence.records import (
    GameSummary,
    LeaderboardRow,
    PlayerRating,
    PlayerStats,
    Rating,
    RatingRow,
    RecentGame,
    ScoreSheet,
)
from persistence.rows import aware, now, read_table
from persistence.schema import (
    player_stats,
    rating_history,
    ratings,
    results,
    round_scores,
    seats,
    tables,
)

RECENT_GAMES = 10  # a player's last games, in their stats


def target_of(rules: dict[str, Any] | None) -> int:
    """The score that ends the game, for a game whose rules have one (Stack's
    ``target_score``); 0 otherwise."""
    target = (rules or {}).get("target_score", 0)
    return target if type(target) is int else 0


async def score_sheet(conn: AsyncConnection, table_id: int) -> ScoreSheet:
    info = await read_table(conn, table_id)
    if info.rules_record is None:
        raise WrongTableStatus(table_id, info.status, "started")
    rows = await conn.execute(
        select(round_scores)
        .where(round_scores.c.table_id == table_id)
        .order_by(round_scores.c.round_no, round_scores.c.position)
    )
    n = len(info.seats)
    rounds: dict[int, list[int]] = {}
    for r in rows:
        rounds.setdefault(r.round_no, [0] * n)[r.position] = r.points
    result = (
        await conn.execute(
            select(results.c.winners, results.c.scores, results.c.ended_by).where(
                results.c.table_id == table_id
            )
        )
    ).first()
    table_rounds = tuple(tuple(rounds[k]) for k in sorted(rounds))
    totals = tuple(sum(r[s] for r in table_rounds) for s in range(n))
    names = tuple(s.name for s in info.seats)
    winners = None
    if result is not None:
        winners = tuple(names[p] for p in result.winners)
        totals = tuple(result.scores)
    return ScoreSheet(
        table_id,
        names,
        table_rounds,
        totals,
        target_of(info.rules_record),
        result is not None,
        winners,
        info.game,
        None if result is None else result.ended_by,
    )


async def _seat_names(conn: AsyncConnection, table_ids: list[int]) -> dict[int, list[str]]:
    """The names on each table's seats, in seat order."""
    names: dict[int, list[str]] = {i: [] for i in table_ids}
    if table_ids:
        for s in await conn.execute(
            select(seats.c.table_id, seats.c.name)
            .where(seats.c.table_id.in_(table_ids))
            .order_by(seats.c.table_id, seats.c.position)
        ):
            names[s.table_id].append(s.name)
    return names


async def last_finished(conn: AsyncConnection, channel_id: int) -> tuple[int, str] | None:
    row = (
        await conn.execute(
            select(results.c.table_id, results.c.game)
            .where(results.c.channel_id == channel_id)
            .order_by(results.c.finished_at.desc(), results.c.table_id.desc())
            .limit(1)
        )
    ).first()
    return None if row is None else (row.table_id, row.game)


async def history(
    conn: AsyncConnection, channel_id: int, limit: int, game: str
) -> list[GameSummary]:
    rows = (
        await conn.execute(
            select(results)
            .where(results.c.channel_id == channel_id, results.c.game == game)
            .order_by(results.c.finished_at.desc(), results.c.table_id.desc())
            .limit(limit)
        )
    ).all()
    names = await _seat_names(conn, [r.table_id for r in rows])
    return [
        GameSummary(
            r.table_id,
            aware(r.finished_at) or now(),
            r.rounds_played,
            tuple(names[r.table_id]),
            tuple(r.scores),
            tuple(names[r.table_id][p] for p in r.winners),
            r.game,
            r.ended_by,
            bool(r.higher_wins),
        )
        for r in rows
    ]


def _stats(row: Any, recent: tuple[RecentGame, ...] = ()) -> PlayerStats:
    """A player's stats from their ``player_stats`` row."""
    return PlayerStats(
        row.user_id,
        row.name,
        row.games,
        row.wins,
        row.points,
        recent=recent,
        figures={str(k): int(v) for k, v in (row.figures or {}).items()},
        game=row.game,
    )


# a finished game's result seen from one seat (what _recent_game reads)
_SEAT_RESULT = (
    results.c.table_id,
    results.c.finished_at,
    results.c.winners,
    results.c.scores,
    results.c.rounds_played,
    seats.c.position,
)


async def recent_games(
    conn: AsyncConnection, guild_id: int, user_id: int, limit: int, game: str
) -> tuple[RecentGame, ...]:
    """The player's last ``limit`` finished games of ``game`` in the guild that are
    credited to them (not those whose seat they left), newest first."""
    rows = (
        await conn.execute(
            select(*_SEAT_RESULT, tables.c.rules)
            .select_from(
                seats.join(results, results.c.table_id == seats.c.table_id).join(
                    tables, tables.c.id == seats.c.table_id
                )
            )
            .where(
                seats.c.user_id == user_id,
                results.c.guild_id == guild_id,
                results.c.game == game,
                seats.c.left_game.is_(False),
            )
            .order_by(results.c.finished_at.desc(), results.c.table_id.desc())
            .limit(limit)
        )
    ).all()
    names = await _seat_names(conn, [r.table_id for r in rows])
    return tuple(_recent_game(r, r.rules, names[r.table_id], game) for r in rows)


def _recent_game(
    row: Any, rules: dict[str, Any] | None, players: list[str], game: str
) -> RecentGame:
    """A finished game of ``row`` (its result's columns and the seat's ``position``) seen
    from that seat, under the table's ``rules`` and with the names on its seats."""
    return RecentGame(
        table_id=row.table_id,
        finished_at=aware(row.finished_at) or now(),
        seat=row.position,
        total=int(row.scores[row.position]),
        won=row.position in row.winners,
        target=target_of(rules),
        rounds=row.rounds_played,
        players=tuple(players),
        game=game,
    )


async def leaderboard(
    conn: AsyncConnection,
    guild_id: int,
    by: Literal["wins", "points"],
    limit: int,
    game: str,
) -> list[LeaderboardRow]:
    if by not in ("wins", "points"):
        raise InvalidSettings("The leaderboard is by 'wins' or by 'points'.")
    # points are the outcome's scores summed: Stack's totals (more is better) or Stack Up!'s
    # cards left (fewer is better, so it ranks by the fewest cards left per game played)
    c = player_stats.c
    if games.get(game).higher_wins:
        points: Any = c.points.desc()
    else:
        points = (c.points * 1.0 / c.games).asc()
    order = (c.wins.desc(), points) if by == "wins" else (points, c.wins.desc())
    rows = list(
        await conn.execute(
            select(player_stats)
            .where(c.guild_id == guild_id, c.game == game)
            .order_by(*order, c.name)
            .limit(limit)
        )
    )
    if games.get(game).higher_wins:
        figures: list[Hashable] = [r.points for r in rows]
    else:  # per game played, exactly (6 cards left in 3 games ties 2 in 1)
        figures = [Fraction(r.points, r.games) if r.games else None for r in rows]
    keys = [(r.wins, f) for r, f in zip(rows, figures, strict=True)]
    ranks = _places(keys)
    return [LeaderboardRow(rank, _stats(r)) for rank, r in zip(ranks, rows, strict=True)]


def _places(keys: Sequence[Hashable]) -> list[int]:
    """The rank of each line of a board sorted by ``keys`` (what it ranks by): lines
    equal on it share the place of the first of them (1, 1, 3), as a tie does."""
    places: list[int] = []
    for i, key in enumerate(keys):
        places.append(places[-1] if i and key == keys[i - 1] else i + 1)
    return places


async def player(
    conn: AsyncConnection, guild_id: int, user_id: int, game: str, recent: int = RECENT_GAMES
) -> PlayerStats | None:
    row = (
        await conn.execute(
            select(player_stats).where(
                player_stats.c.guild_id == guild_id,
                player_stats.c.user_id == user_id,
                player_stats.c.game == game,
            )
        )
    ).first()
    if row is None:
        return None
    return _stats(row, await recent_games(conn, guild_id, user_id, recent, game))


async def ai_stats(
    conn: AsyncConnection, guild_id: int, level: str, game: str, recent: int = RECENT_GAMES
) -> PlayerStats | None:
    """An AI level's record of ``game`` on the guild (``None`` before its first finished
    game there), as a player's: every seat of that level is the one player, as in its
    rating. A game counts once however many seats it held; it is a win when one of them
    won, and its figure is that of its best-placed seat (a winner's, else the best figure
    as the game counts them). Only seats the AI held from the start count: a human's seat
    it played on after a timeout or a leave stays theirs. The game's own figures are a
    player's only (``figures`` is empty); ``recent`` holds its last ``recent`` games."""
    rows = (
        await conn.execute(
            select(*_SEAT_RESULT, results.c.higher_wins)
            .select_from(seats.join(results, results.c.table_id == seats.c.table_id))
            .where(
                seats.c.user_id.is_(None),
                seats.c.ai_level == level,
                results.c.guild_id == guild_id,
                results.c.game == game,
            )
            .order_by(results.c.finished_at.desc(), results.c.table_id.desc(), seats.c.position)
        )
    ).all()
    best: dict[int, Any] = {}  # the best-placed seat of each game, newest game first
    for r in rows:
        held = best.get(r.table_id)
        if held is None or _placed_before(r, held):
            best[r.table_id] = r
    if not best:
        return None
    games = list(best.values())
    shown = games[:recent]
    names = await _seat_names(conn, [r.table_id for r in shown])
    rules = dict(
        (
            await conn.execute(
                select(tables.c.id, tables.c.rules).where(
                    tables.c.id.in_([r.table_id for r in shown])
                )
            )
        ).all()
    )
    return PlayerStats(
        0,
        f"AI {level}",
        len(games),
        sum(1 for r in games if r.position in r.winners),
        sum(int(r.scores[r.position]) for r in games),
        recent=tuple(
            _recent_game(r, rules.get(r.table_id), names[r.table_id], game) for r in shown
        ),
        game=game,
    )


def _placed_before(seat: Any, other: Any) -> bool:
    """Whether ``seat`` of a finished game placed before ``other`` of the same game: a
    winner before a loser, then the better figure (more or fewer as the game counts)."""
    won, other_won = seat.position in seat.winners, other.position in other.winners
    if won != other_won:
        return won
    mine, theirs = int(seat.scores[seat.position]), int(other.scores[other.position])
    return mine > theirs if seat.higher_wins else mine < theirs


def _rating(row: Any) -> Rating:
    return Rating(row.name, row.mu, row.sigma, row.games, row.user_id, row.ai_level)


async def rating_board(
    conn: AsyncConnection, guild_id: int, limit: int, game: str
) -> list[RatingRow]:
    """The guild's rated players of ``game`` (humans and AI levels) with at least
    :data:`~persistence.ratings.RATED_AFTER` rated games, by ordinal (then mu, then name)."""
    c = ratings.c
    rows = list(
        await conn.execute(
            select(ratings)
            .where(c.guild_id == guild_id, c.game == game, c.games >= RATED_AFTER)
            .order_by(c.ordinal.desc(), c.mu.desc(), c.name, c.player)
            .limit(limit)
        )
    )
    ranks = _places([(r.ordinal, r.mu) for r in rows])
    return [RatingRow(rank, _rating(r)) for rank, r in zip(ranks, rows, strict=True)]


async def ranked_by_rating(conn: AsyncConnection, guild_id: int, game: str) -> bool:
    """Whether the guild's leaderboard of ``game`` ranks by rating unless asked otherwise:
    once a human player has :data:`~persistence.ratings.RATED_AFTER` rated games of it
    there (AI levels do not count)."""
    c = ratings.c
    row = (
        await conn.execute(
            select(c.player)
            .where(
                c.guild_id == guild_id,
                c.game == game,
                c.user_id.is_not(None),
                c.games >= RATED_AFTER,
            )
            .limit(1)
        )
    ).first()
    return row is not None


async def player_rating(
    conn: AsyncConnection, guild_id: int, user_id: int, game: str, recent: int = RECENT_GAMES
) -> PlayerRating | None:
    """A player's rating in ``game`` on the guild and after each of their last ``recent``
    rated games; ``None`` before their first rated game."""
    return await _rating_of(conn, guild_id, f"user:{user_id}", game, recent)


async def ai_rating(
    conn: AsyncConnection, guild_id: int, level: str, game: str, recent: int = RECENT_GAMES
) -> PlayerRating | None:
    """An AI level's rating in ``game`` on the guild (every seat of that level is one
    player) and after each of its last ``recent`` rated games; ``None`` before its first."""
    return await _rating_of(conn, guild_id, f"ai:{level}", game, recent)


async def _rating_of(
    conn: AsyncConnection, guild_id: int, key: str, game: str, recent: int
) -> PlayerRating | None:
    c = ratings.c
    row = (
        await conn.execute(
            select(ratings).where(c.guild_id == guild_id, c.game == game, c.player == key)
        )
    ).first()
    if row is None:
        return None
    h = rating_history.c
    points = (
        await conn.execute(
            select(h.mu, h.sigma)
            .where(h.guild_id == guild_id, h.game == game, h.player == key)
            .order_by(h.finished_at.desc(), h.table_id.desc())
            .limit(recent)
        )
    ).all()
    return PlayerRating(_rating(row), tuple((p.mu, p.sigma) for p in reversed(points)))
