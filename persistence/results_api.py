"""The store's record of played games, per game: score sheets, a channel's history, a
server's leaderboard and a player's stats."""

from __future__ import annotations

from typing import Literal

from persistence import history
from persistence.core import StoreCore
from persistence.gamebook import game_named
from persistence.records import (
    DEFAULT_GAME,
    GameSummary,
    LeaderboardRow,
    PlayerRating,
    PlayerStats,
    RatingRow,
    ScoreSheet,
)


class ResultsAPI(StoreCore):
    async def score_sheet(self, table_id: int) -> ScoreSheet:
        """The game's score sheet from the stored round scores (and its result once it
        is finished)."""
        async with self.engine.connect() as conn:
            return await history.score_sheet(conn, table_id)

    async def history(
        self, channel_id: int, limit: int = 10, *, game: str = DEFAULT_GAME
    ) -> list[GameSummary]:
        """The channel's finished games of ``game``, newest first."""
        game_named(game)
        async with self.engine.connect() as conn:
            return await history.history(conn, channel_id, limit, game)

    async def last_finished(self, channel_id: int) -> tuple[int, str] | None:
        """The table and the game of the channel's newest finished game, of any game."""
        async with self.engine.connect() as conn:
            return await history.last_finished(conn, channel_id)

    async def leaderboard(
        self,
        guild_id: int,
        by: Literal["wins", "points"] = "wins",
        limit: int = 10,
        *,
        game: str = DEFAULT_GAME,
    ) -> list[LeaderboardRow]:
        """The guild's best players of ``game`` by wins (then points) or by points (then
        wins)."""
        game_named(game)
        async with self.engine.connect() as conn:
            return await history.leaderboard(conn, guild_id, by, limit, game)

    async def stats(
        self, guild_id: int, user_id: int, *, game: str = DEFAULT_GAME
    ) -> PlayerStats | None:
        """A player's stats of ``game`` in the guild, or ``None`` before their first
        finished game of it: games, wins, points (their final figures added up), the
        game's own figures (Stack: rounds played, best round, captures, dice placed per
        face), and their last 10 finished games of it here, newest first
        (:attr:`~PlayerStats.recent`). Only games credited to them count: not one whose
        seat they left."""
        game_named(game)
        async with self.engine.connect() as conn:
            return await history.player(conn, guild_id, user_id, game)

    async def ai_stats(
        self, guild_id: int, level: str, *, game: str = DEFAULT_GAME
    ) -> PlayerStats | None:
        """An AI level's record of ``game`` in the guild (every seat of that level is one
        player; a game counts once, a win when one of its seats won) with its last 10
        finished games, newest first; ``None`` before its first finished game."""
        game_named(game)
        async with self.engine.connect() as conn:
            return await history.ai_stats(conn, guild_id, level, game)

    async def rating_board(
        self, guild_id: int, limit: int = 10, *, game: str = DEFAULT_GAME
    ) -> list[RatingRow]:
        """The guild's best rated players of ``game`` (humans and AI levels), by their
        rating's ordinal; only those with 5 rated games or more
        (:data:`persistence.ratings.RATED_AFTER`)."""
        game_named(game)
        async with self.engine.connect() as conn:
            return await history.rating_board(conn, guild_id, limit, game)

    async def ranked_by_rating(self, guild_id: int, *, game: str = DEFAULT_GAME) -> bool:
        """Whether the leaderboard of ``game`` ranks by rating when not told how: once a
        human player has 5 rated games of it on the guild."""
        game_named(game)
        async with self.engine.connect() as conn:
            return await history.ranked_by_rating(conn, guild_id, game)

    async def player_rating(
        self, guild_id: int, user_id: int, *, game: str = DEFAULT_GAME
    ) -> PlayerRating | None:
        """A player's rating of ``game`` in the guild, with its value after each of their
        last 10 rated games (oldest first); ``None`` before their first rated game."""
        game_named(game)
        async with self.engine.connect() as conn:
            return await history.player_rating(conn, guild_id, user_id, game)

    async def ai_rating(
        self, guild_id: int, level: str, *, game: str = DEFAULT_GAME
    ) -> PlayerRating | None:
        """An AI level's rating of ``game`` in the guild, with its value after each of its
        last 10 rated games (oldest first); ``None`` before its first rated game."""
        game_named(game)
        async with self.engine.connect() as conn:
            return await history.ai_rating(conn, guild_id, level, game)
