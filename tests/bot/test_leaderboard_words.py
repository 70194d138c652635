"""What ``/leaderboard`` says for each game and each ``by:``, as a player reads it on
Discord (simcord, the real bot): a game whose outcome's figure is the win itself (Color
Stack: 1 for the winner) shows its wins once, and its leaderboard by points is the one by
wins."""

from __future__ import annotations

from tests.bot.conftest import World, choose_colours, live_of


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
