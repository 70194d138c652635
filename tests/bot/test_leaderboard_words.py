"""What ``/leaderboard`` says for each game and each ``by:``, as a player reads it on
Discord (simcord, the real bot): a game whose outcome's figure is the win itself (Color
Stack: 1 for the winner) shows its wins once, and its leaderboard by points is the one by
wins."""

from __future__ import annotations

from tests.bot.conftest import World, live_of


async def a_color_stack_game_resigned(world: World) -> None:
    """alice and bob play Color Stack; bob resigns at once: alice wins."""
    opened = await world.alice.slash(world.channel, "table new", game="colorstack")
    await world.bob.click(opened.response, label="Join")
    await world.alice.click(opened.response, label="Start")
    assert live_of(world) is not None
    resigned = await world.bob.slash(world.channel, "move", move="resign")
    assert resigned.response is not None
    await world.env.settle()
    assert live_of(world) is None


async def test_a_leaderboard_whose_figure_is_the_win_names_the_wins_once(world: World) -> None:
    await a_color_stack_game_resigned(world)
    for by in ("wins", "points"):
        board = await world.carol.slash(world.channel, "leaderboard", game="colorstack", by=by)
        text = board.response.content
        assert board.ephemeral and text.startswith("**Leaderboard** (by wins)"), text
        lines = text.split("\n")[1:]
        assert lines == ["1. alice: 1 win · 1 game", "2. bob: 0 wins · 1 game"], text
