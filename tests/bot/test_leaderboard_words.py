"""What ``/leaderboard`` says for each game and each ``by:``, as a player reads it on
Discord (simcord, the real bot): a game whose outcome's figure is the win itself (Color
Stack: 1 for the winner) shows its wins once, and its leaderboard by points is the one by
wins; a game ranked by the fewest cards left a game (Stack Up!) shows that figure."""

from __future__ import annotations

import pytest

import catalog
from bot import games
from bot.render import leaderboard_text
from persistence.records import LeaderboardRow, PlayerStats
from tests.bot.conftest import World, choose_colours, live_of

STACK_UP = games.get("stackup")


async def a_color_stack_game_resigned(world: World) -> None:
    """alice and bob play Color Stack; bob resigns at once: alice wins."""
    opened = await world.alice.slash(world.channel, "table new", game="colorstack")
    await world.bob.click(opened.response, label="Join")
    await world.alice.click(opened.response, label="Start")
    assert live_of(world) is not None
    await choose_colours(world)
    resigned = await world.bob.slash(world.channel, "move", move="resign")
    assert resigned.response is not None
    await world.env.settle()
    assert live_of(world) is None


async def test_a_leaderboard_whose_figure_is_the_win_names_the_wins_once(world: World) -> None:
    await a_color_stack_game_resigned(world)
    for by in ("wins", "points"):
        board = await world.carol.slash(world.channel, "leaderboard", game="colorstack", by=by)
        text = board.response.content
        assert board.ephemeral and text.startswith("**Leaderboard of Color Stack** (by wins)"), text
        lines = text.split("\n")[1:]
        assert lines == ["1. alice: 1 win · 1 game", "2. bob: 0 wins · 1 game"], text


async def test_without_game_the_words_are_of_the_game_last_finished_in_the_channel(
    world: World,
) -> None:
    """No table open: ``/scores show:history``, ``/stats`` and ``/leaderboard`` are of the
    channel's last finished game (Color Stack here), not Stack, and say which game."""
    await a_color_stack_game_resigned(world)
    history = (await world.alice.slash(world.channel, "scores", show="history")).response
    assert history.content.startswith("**Finished games of Color Stack in this channel**")
    stats = (await world.alice.slash(world.channel, "stats")).response.content
    assert stats.startswith("**alice** — Color Stack: 1 game, 1 win (100%)"), stats
    board = (await world.alice.slash(world.channel, "leaderboard")).response.content
    assert board.startswith("**Leaderboard of Color Stack** (by wins)"), board
    others = await world.alice.slash(world.channel, "leaderboard", game="stackup")
    assert others.response.content == "Nobody has finished a game of Stack Up! on this server yet."
    none = await world.alice.slash(world.channel, "scores", show="history", game="stack")
    assert none.response.content == "No finished games of Stack in this channel yet."


async def test_a_board_ranked_by_the_fewest_cards_left_a_game_shows_that_figure(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Stack Up!'s board by cards left ranks by the cards left per game played (the
    store's order): each line shows that figure, so the lines read in order, not the sum
    (12 cards left in 3 games above 9 in 2 read as out of order), in either language."""
    rows = [
        LeaderboardRow(1, PlayerStats(1, "ann", 3, 1, 1, game="stackup")),
        LeaderboardRow(2, PlayerStats(2, "bob", 3, 0, 12, game="stackup")),
        LeaderboardRow(3, PlayerStats(3, "cy", 2, 0, 9, game="stackup")),
    ]

    async def board(guild_id: int, *, by: str, game: str) -> list[LeaderboardRow]:
        assert game == "stackup"
        return rows

    monkeypatch.setattr(world.bot.tables.store, "leaderboard", board)
    for by in ("points", "wins"):
        shown = await world.carol.slash(world.channel, "leaderboard", game="stackup", by=by)
        assert shown.response.content.split("\n")[1:] == [
            "1. ann: 1 win · 0.3 cards left a game · 3 games",
            "2. bob: 0 wins · 4 cards left a game · 3 games",
            "3. cy: 0 wins · 4.5 cards left a game · 2 games",
        ], shown.response.content
    with catalog.speaking("ja"):
        text = leaderboard_text(rows, "points", STACK_UP.figure_name, STACK_UP.title, per_game=True)
    assert text.split("\n")[1:] == [
        "1. ann：1勝 · 1戦平均の残り札 0.3 · 3戦",
        "2. bob：0勝 · 1戦平均の残り札 4 · 3戦",
        "3. cy：0勝 · 1戦平均の残り札 4.5 · 2戦",
    ], text
    one = [LeaderboardRow(1, PlayerStats(1, "ann", 2, 0, 2, game="stackup"))]
    text = leaderboard_text(one, "points", STACK_UP.figure_name, STACK_UP.title, per_game=True)
    assert text.endswith("1. ann: 0 wins · 1 card left a game · 2 games"), text
