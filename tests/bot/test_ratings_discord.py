"""Ratings on Discord, through simcord with the real bot: ``/stats`` shows the player's
rating (ordinal ± uncertainty) and, after two rated games, its chart; ``/leaderboard``
ranks by rating when asked, and by default once a human has 5 rated games of the game on
the server (by wins before); every name escaped, every answer within Discord's limit."""

from __future__ import annotations

import random

import pytest

import catalog
from bot.render import rating_board_text
from bot.text import MESSAGE_LIMIT
from engine.game import Decision
from engine.stack.rules import HouseRules
from engine.stack.state import StackState
from persistence.ratings import RATED_AFTER
from persistence.records import Rating, RatingRow
from pictures.charts import RatingChart, StatsChart
from tests.bot.conftest import World, drawings, live_of, table_message
from tests.bot.speakers import client_locales
from tests.bot.test_story import play, seat, tap_first
from tests.persistence.helpers import play_moves


async def games_played(world: World, count: int) -> None:
    """The first game played through Discord; the others (two games in a row through the
    stand-in are slow to settle) stored as the bot stores them, in other channels of the
    server, with the same two players."""
    for n in range(count):
        if n == 0 and not await world.bot.tables.store.history(world.channel.id):
            await seat(world, [world.alice, world.bob], target=5, dice=1)
            await play(world, [world.alice, world.bob])
            continue
        store = world.bot.tables.store
        info = await store.create_table(world.guild.id, 5000 + n, world.alice.id, "alice")
        info = await store.join_table(info.id, world.bob.id, "bob")
        names = ("alice", "bob")
        rules = HouseRules(target_score=5, dice_per_player=1).for_players(names)
        state = StackState(names, rules)
        rng = random.Random(n)
        opening = state.resolve_chance(rng)
        info = await store.start_table(info.id, range(2), state, opening)
        await play_moves(store, info, state, rng, 5000)
        assert state.decision is Decision.OVER


async def test_stats_show_the_rating_and_its_chart_after_two_games(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    await games_played(world, 1)
    one = (await world.alice.slash(world.channel, "stats")).response
    assert "Rating: **" in one.content and "(1 rated game)" in one.content
    assert [a.filename for a in one.attachments] == ["stats.png"]  # one game: no line yet
    await games_played(world, 1)
    jobs = drawings(world, monkeypatch)
    two = (await world.alice.slash(world.channel, "stats")).response
    assert " ± " in two.content and "(2 rated games)" in two.content
    assert [a.filename for a in two.attachments] == ["stats.png", "rating.png"]
    # the chart, and its alt text, say what it is: the player's rating in which game
    assert (
        "rating in Stack after each of their last 2 rated games" in two.attachments[1].description
    )
    (chart,) = [job for job in jobs if isinstance(job, RatingChart)]
    assert (chart.name, chart.game) == ("alice", "Stack")
    # so do the chart of the last games and its alt text: which game's
    (bars,) = [job for job in jobs if isinstance(job, StatsChart)]
    assert (bars.name, bars.game) == ("alice", "Stack")
    assert "alice's last 2 games of Stack, oldest first" in two.attachments[0].description


async def test_the_leaderboard_is_by_rating_once_a_player_has_5_rated_games(
    world: World,
) -> None:
    await games_played(world, RATED_AFTER - 1)
    before = (await world.alice.slash(world.channel, "leaderboard")).response.content
    assert "(by wins)" in before
    asked = (await world.alice.slash(world.channel, "leaderboard", by="rating")).response
    assert asked.content.startswith("Nobody has 5 rated games of Stack on this server yet")
    await games_played(world, 1)
    after = (await world.alice.slash(world.channel, "leaderboard")).response.content
    assert after.startswith("**Leaderboard of Stack** (by rating")
    assert "· 5 games" in after and " ± " in after
    by_wins = (await world.alice.slash(world.channel, "leaderboard", by="wins")).response
    assert "(by wins)" in by_wins.content


def test_the_rating_board_escapes_names_marks_ai_levels_and_fits_a_message() -> None:
    rows = [
        RatingRow(i + 1, Rating(f"**bold**_{i}_ @everyone " * 3, 30.0 - i / 10, 2.0, 40 + i, i))
        for i in range(200)
    ]
    rows.insert(0, RatingRow(0, Rating("AI greedy", 31.0, 1.5, 300, ai_level="greedy")))
    text = rating_board_text(rows, RATED_AFTER, "Stack")
    assert len(text) <= MESSAGE_LIMIT and text.endswith("(shortened)")
    assert "0. 🤖 AI greedy: 26.5 ± 1.5 · 300 games" in text
    assert "**bold**" not in text and "\\*\\*bold\\*\\*" in text
    with catalog.speaking("ja"):  # the AI level named in the server's language
        assert "0. 🤖 AI（ふつう）：26.5 ± 1.5" in rating_board_text(rows, RATED_AFTER, "Stack")


async def test_leaving_a_game_against_the_ai_rates_the_leaver_last(world: World) -> None:
    """README, Ratings, Leavers: leaving a lost game does not spare a rating, also when
    the leaver was the table's only human (the table then closes)."""
    opened = await world.alice.slash(world.channel, "table new", game="colorstack")
    await world.alice.slash(world.channel, "table addbot", level="greedy")
    await world.alice.click(opened.response, label="Start")
    left = await world.alice.slash(world.channel, "table leave")
    assert "the table is closed" in left.response.content
    store = world.bot.tables.store
    rated = await store.player_rating(world.guild.id, world.alice.id, game="colorstack")
    assert rated is not None and rated.rating.games == 1 and rated.rating.mu < 25
    stats = await world.alice.slash(world.channel, "stats", game="colorstack")
    assert "Rating: **" in stats.response.content


async def test_the_stats_of_a_player_rated_only_for_a_game_they_left_say_why_it_is_not_counted(
    world: World,
) -> None:
    """The stats count a left game for nobody, the rating counts it: /stats says both,
    not "has not finished a game" above a rating."""
    opened = await world.alice.slash(world.channel, "table new", game="colorstack")
    await world.alice.slash(world.channel, "table addbot", level="greedy")
    await world.alice.click(opened.response, label="Start")
    await world.alice.slash(world.channel, "table leave")
    stats = (await world.alice.slash(world.channel, "stats", game="colorstack")).response
    assert "has not finished" not in stats.content
    assert stats.content.startswith("alice has no game of Color Stack in the stats here")
    assert "closed before their end.\nRating: **" in stats.content


async def test_stats_show_an_ai_levels_rating_and_refuse_a_player_with_it(world: World) -> None:
    """``/stats ai:``: an AI level is one rated player per server and game; before its
    first rated game it says so; a player and an AI level at once are refused, ephemeral."""
    unrated = await world.alice.slash(world.channel, "stats", ai="expert")
    assert (
        unrated.response.content
        == "AI expert has no finished or rated game of Stack on this server yet."
    )
    opened = await world.alice.slash(world.channel, "table new", game="colorstack")
    await world.alice.slash(world.channel, "table addbot", level="greedy")
    await world.alice.click(opened.response, label="Start")
    await world.alice.slash(world.channel, "table leave")  # the AI wins; both are rated
    rated = (await world.bob.slash(world.channel, "stats", ai="greedy", game="colorstack")).response
    assert rated.content.startswith("**AI greedy** in Color Stack on this server")
    assert "\nNo finished game of Color Stack yet: it is rated for games left or closed" in (
        rated.content
    )
    assert "\nRating: **" in rated.content and "(1 rated game)" in rated.content
    stored = await world.bot.tables.store.ai_rating(world.guild.id, "greedy", game="colorstack")
    assert stored is not None and stored.rating.mu > 25  # it placed above the leaver
    both = await world.alice.slash(world.channel, "stats", player=world.bob, ai="greedy")
    assert both.ephemeral
    assert both.response.content.startswith("Ask for a player's stats or an AI level's, not both")


async def test_stats_of_an_ai_level_show_its_record_and_its_last_games_chart(world: World) -> None:
    """``/stats ai:`` after a finished game against the AI: its games and wins (the
    game counted once for the level) above its rating, with the chart of its last games."""
    opened = await world.alice.slash(world.channel, "table new", target=5, dice=1)
    await world.alice.slash(world.channel, "table addbot", level="greedy")
    await world.alice.click(opened.response, label="Start")
    for _ in range(3000):
        await world.env.settle()
        live = live_of(world)
        if live is None:
            break
        panel = await world.alice.click(table_message(world, live.id), label="My turn")
        assert panel.ephemeral, panel.response.content
        await tap_first(world.alice, panel.response)
    else:
        raise AssertionError("the game did not end")
    (finished,) = await world.bot.tables.store.history(world.channel.id)
    won = 1 if "AI 1" in finished.winners else 0  # the AI's seat is "AI 1"
    shown = (await world.bob.slash(world.channel, "stats", ai="greedy")).response
    head, line, rating = shown.content.split("\n")
    assert head == "**AI greedy** in Stack on this server (every seat of that level is one player):"
    assert line == f"Record: 1 game, {won} win{'' if won == 1 else 's'} ({won * 100}%)"
    assert rating.startswith("Rating: **") and "(1 rated game)" in rating
    assert [a.filename for a in shown.attachments] == ["stats.png"]  # one rated game: no line
    assert "AI greedy" in shown.attachments[0].description
    assert len(shown.content) <= MESSAGE_LIMIT


async def test_the_stats_of_a_player_whose_game_was_ended_do_not_say_they_left(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    """README, Ratings: a game against the AI that its one human ended (``/table end``) is
    rated, that human last, and counts for nobody in the stats; ``/stats`` says why
    without saying they left it (English and Japanese), and ``/stats ai:`` likewise."""
    opened = await world.alice.slash(world.channel, "table new", game="colorstack")
    await world.alice.slash(world.channel, "table addbot", level="greedy")
    await world.alice.click(opened.response, label="Start")
    confirm = await world.alice.slash(world.channel, "table end")
    await world.alice.click(confirm.response, label="End the table")
    store = world.bot.tables.store
    rated = await store.player_rating(world.guild.id, world.alice.id, game="colorstack")
    assert rated is not None and rated.rating.games == 1  # the rating as README says
    stats = (await world.alice.slash(world.channel, "stats", game="colorstack")).response
    assert stats.content.startswith(
        "alice has no game of Color Stack in the stats here: they count only games played "
        "to their end; the rating also counts games left or closed before their end.\n"
        "Rating: **"
    ), stats.content
    assert "left before its end counts for nobody" not in stats.content
    ai = (await world.alice.slash(world.channel, "stats", ai="greedy", game="colorstack")).response
    assert (
        "\nNo finished game of Color Stack yet: it is rated for games left or closed before "
        "their end.\n"
    ) in ai.content, ai.content
    client_locales(monkeypatch)[world.alice.id] = "ja"
    ja = (await world.alice.slash(world.channel, "stats", game="colorstack")).response
    assert ja.content.startswith(
        "aliceのここでのカラースタックの戦績はまだありません。戦績には最後まで終えたゲームだけを"
        "数えますが、レーティングには途中で抜けたゲームや途中で閉じられたゲームも数えます。"
    ), ja.content
