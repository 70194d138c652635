"""The leaderboard ranks by each game's own measure: Stack's points (totals) count up,
Stack Up!'s (cards left at the end) count down, per game played."""

from __future__ import annotations

from typing import Any

from persistence import Store
from persistence.schema import player_stats
from tests.persistence.helpers import GUILD


async def put(store: Store, game: str, rows: list[tuple[int, str, int, int, int]]) -> None:
    """``(user, name, games, wins, points)`` rows of ``game``'s stats."""
    values: list[dict[str, Any]] = [
        {
            "guild_id": GUILD,
            "user_id": u,
            "game": game,
            "name": n,
            "games": g,
            "wins": w,
            "points": p,
            "figures": {},
        }
        for u, n, g, w, p in rows
    ]
    async with store.engine.begin() as conn:
        await conn.execute(player_stats.insert(), values)


async def test_stack_up_by_points_ranks_the_fewest_cards_left_per_game_first(store: Store) -> None:
    # ann: 2 cards left a game; bob: 4 (in fewer games, so fewer in all); cat: 1
    await put(store, "stackup", [(1, "ann", 5, 2, 10), (2, "bob", 1, 0, 4), (3, "cat", 2, 1, 2)])
    board = await store.leaderboard(GUILD, by="points", game="stackup")
    assert [row.stats.name for row in board] == ["cat", "ann", "bob"]
    board = await store.leaderboard(GUILD, by="wins", game="stackup")
    assert [row.stats.name for row in board] == ["ann", "cat", "bob"]


async def test_stack_by_points_ranks_the_most_points_first(store: Store) -> None:
    await put(store, "stack", [(1, "ann", 5, 2, 900), (2, "bob", 1, 0, 150), (3, "cat", 2, 2, 400)])
    board = await store.leaderboard(GUILD, by="points")
    assert [row.stats.name for row in board] == ["ann", "cat", "bob"]
    board = await store.leaderboard(GUILD, by="wins")
    assert [row.stats.name for row in board] == ["ann", "cat", "bob"]  # a tie on wins: points


async def test_players_tied_on_what_the_board_ranks_by_share_their_rank(store: Store) -> None:
    """Equal on every figure the board ranks by, two players share a rank (1, 1, 3), the
    line after them numbered by its place; the name only orders the tied lines."""
    await put(store, "stack", [(1, "bob", 2, 1, 50), (2, "ann", 3, 1, 50), (3, "cat", 2, 0, 60)])
    board = await store.leaderboard(GUILD, by="wins")
    assert [(r.rank, r.stats.name) for r in board] == [(1, "ann"), (1, "bob"), (3, "cat")]
    board = await store.leaderboard(GUILD, by="points")
    assert [(r.rank, r.stats.name) for r in board] == [(1, "cat"), (2, "ann"), (2, "bob")]
    # Color Stack's figure is the win itself: a tie on wins is a tie
    await put(store, "colorstack", [(1, "bob", 4, 1, 1), (2, "ann", 2, 1, 1), (3, "cy", 1, 0, 0)])
    board = await store.leaderboard(GUILD, by="wins", game="colorstack")
    assert [(r.rank, r.stats.name) for r in board] == [(1, "ann"), (1, "bob"), (3, "cy")]
    # Stack Up!: the cards left per game played (6 in 3 games is 2 in 1)
    await put(store, "stackup", [(1, "bob", 3, 0, 6), (2, "ann", 1, 0, 2), (3, "cy", 1, 0, 3)])
    board = await store.leaderboard(GUILD, by="points", game="stackup")
    assert [(r.rank, r.stats.name) for r in board] == [(1, "ann"), (1, "bob"), (3, "cy")]
