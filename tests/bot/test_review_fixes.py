"""Review fixes of issue 9, through simcord with the real bot: ``/scores``, the history
and the leaderboard in each game's words (Stack Up! has no target, no points, no rounds);
the answer to a move never shows another seat's panel, even when another move commits
first; every reader of a table's state holds its lock; the history button never exports a
running game with hidden hands, nor another server's; a round's buttons and the first
player's direction are the game's to give; ``stackbot play --level`` offers the registry's
levels."""

from __future__ import annotations

import ast
import re
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import pytest

import bot.games.stackup.game
import bot.games.stackup.views
from bot import cli, games
from bot.games.stack.story import ScoringButton
from bot.sheets import score_sheet_text
from bot.story import history_view
from bot.text import MESSAGE_LIMIT, escape_name
from engine import games as engine_games
from engine.stackup.cards import card_name, is_special
from engine.stackup.moves import Direction
from engine.stackup.state import StackUpState
from host.service import Player
from persistence.records import GameSummary, OutboxItem, ScoreSheet
from tests.bot.conftest import (
    World,
    buttons_of,
    live_of,
    table_message,
    table_text_of,
)
from tests.bot.test_stackup_discord import click_through

CARD = re.compile(r"(?<![A-Za-z0-9])([RBYG](?:1[0-5]|[1-9]))(?![0-9])")
BOT = Path(__file__).resolve().parents[2] / "bot"


# ---------------------------------------------------------------------------- driving


async def stackup_table(world: World, **options: Any) -> Any:
    """alice opens a Stack Up! table, bob joins, alice starts: two humans, no AI."""
    opened = await world.alice.slash(world.channel, "table new", game="stackup", **options)
    lobby = opened.response
    joined = await world.bob.click(lobby, label="Join")
    assert joined.ephemeral and "You're in" in joined.response.content
    await world.alice.click(lobby, label="Start")
    live = live_of(world)
    assert live is not None and isinstance(live.state, StackUpState)
    return live


def actor_of(world: World, live: Any, seat: int) -> Any:
    user = live.user_at(seat)
    return world.alice if user == world.alice.id else world.bob


async def play_out(world: World, live: Any) -> None:
    """The players play each their first legal move until the game is over."""
    tables = world.bot.tables
    for _ in range(500):
        if not live.info.is_active:
            await world.env.advance_time(2)  # the outbox: the result, the last edit
            return
        seat = live.state.current_player
        actor = actor_of(world, live, seat)
        move = live.state.legal_moves()[0]
        outcome = await tables.service.move(
            world.channel.id, Player(actor.id, actor.name), move=move
        )
        tables.committed(outcome)
    raise AssertionError("the game did not end")


def hand_cards(state: StackUpState, seat: int) -> set[str]:
    return {card_name(c) for c in state.hand(seat) if not is_special(c)}


def no_points(text: str) -> None:
    """A Stack Up! text: no points, no rounds, no target, no crash note."""
    lowered = text.lower()
    for word in ("point", "round", "leader at", "target", "something went wrong"):
        assert word not in lowered, (word, text)


# ---------------------------------------------------------------------------- /scores


async def test_scores_of_a_running_stack_up_game_say_hand_sizes_not_points(
    world: World,
) -> None:
    """P1: `/scores` crashed (a leader line divided by the target 0) while Stack Up! ran."""
    live = await stackup_table(world)
    answer = await world.bob.slash(world.channel, "scores")
    assert answer.ephemeral
    text = answer.response.content
    assert text.startswith("**Stack Up!**"), text
    no_points(text)
    for name in live.state.players:
        assert escape_name(name) in text
    for seat in range(live.state.n):  # /scores itself gives every hand's size
        size = live.state.hand_size(seat)
        assert f"**{escape_name(live.state.players[seat])}** · {size} cards" in text, text
    # with the table's committed state (read under its lock): every hand's size, no card
    sheet = await world.bot.store.score_sheet(live.id)
    sized = await world.bot.tables.score_text(sheet)
    no_points(sized)
    state = live.state
    for seat in range(state.n):
        assert f"**{escape_name(state.players[seat])}** · {state.hand_size(seat)} cards" in sized
    held = hand_cards(state, 0) | hand_cards(state, 1)
    assert not set(CARD.findall(sized)) & held, sized


def test_a_score_sheet_without_a_target_has_no_leader_line() -> None:
    """The default score text assumes no target: a leader line only with one."""
    running = ScoreSheet(1, ("ann", "bob"), ((3, 5),), (3, 5), 0, False, None, "other")
    text = score_sheet_text(running)
    assert "Leader" not in text and "ann" in text and "bob" in text
    with_target = ScoreSheet(1, ("ann", "bob"), ((3, 5),), (3, 5), 200, False, None)
    assert "Leader at 5/200 (2%)." in score_sheet_text(with_target)


async def test_a_finished_stack_up_game_in_scores_history_and_leaderboard_counts_cards(
    world: World,
) -> None:
    live = await stackup_table(world, turn_limit=2)
    await play_out(world, live)
    state = live.state
    outcome = state.outcome()
    assert outcome is not None
    winners = [state.players[s] for s in outcome.winners]
    # /scores: the winners, and the cards left in every hand
    scores = (await world.alice.slash(world.channel, "scores")).response.content
    no_points(scores)
    assert "🏆" in scores and "Cards left:" in scores
    for name in winners:
        assert f"**{escape_name(name)}**" in scores
    for seat, name in enumerate(state.players):
        size = state.hand_size(seat)
        assert f"{escape_name(name)} {size} card{'s' if size != 1 else ''}" in scores
    # /scores show:history: how it ended and the cards left, no rounds
    history = await world.alice.slash(world.channel, "scores", show="history", game="stackup")
    text = history.response.content
    no_points(text)
    assert "cards left: " in text and "fewest cards at the turn limit" in text, text
    # /leaderboard: cards left, not points
    for by, heading in (("wins", "(by wins)"), ("points", "(by cards left)")):
        board = await world.alice.slash(world.channel, "leaderboard", by=by, game="stackup")
        shown = board.response.content
        no_points(shown)
        assert heading in shown and ("cards left" in shown or "card left" in shown), shown


def test_stack_keeps_its_history_and_leaderboard_words() -> None:
    """Stack's lines are as before (rounds, totals, points)."""
    from bot.render import history_page, leaderboard_text
    from persistence.records import LeaderboardRow, PlayerStats

    when = datetime(2024, 5, 1, tzinfo=UTC)
    stack = games.get("stack")
    text = history_page(
        [GameSummary(3, when, 4, ("ann", "bob"), (210, 150), ("ann",))],
        stack.history_line,
        stack.title,
    )[0]
    assert "**1.** 2024-05-01 · 4 rounds · 🏆 ann · ann 210, bob 150" in text
    rows = [LeaderboardRow(1, PlayerStats(1, "ann", 2, 1, 360))]
    board = leaderboard_text(rows, "points", stack.figure_name, stack.title)
    assert "(by points)" in board and "1. ann: 1 win · 360 points · 2 games" in board


# ---------------------------------------------------------------------------- the race


@pytest.mark.parametrize("how", ["typed", "button"])
async def test_the_answer_to_a_move_never_shows_another_seats_hand(
    world: World, monkeypatch: pytest.MonkeyPatch, how: str
) -> None:
    """P1: the first player chooses the direction (their turn goes on: they are answered
    with their panel), but before the panel is built the turn timer plays their turn
    out: the table waits for the other player now, and the mover is told what was
    done, never shown the other hand."""
    tables = world.bot.tables
    service = tables.service
    live = await stackup_table(world)
    mover = live.state.current_player
    assert live.state.phase == "direction"
    actor = actor_of(world, live, mover)
    moved = service.move

    async def then_the_timer(*args: Any, **kwargs: Any) -> Any:
        outcome = await moved(*args, **kwargs)
        timed = await service.auto_move(live.id, live.version)  # commits before the panel
        assert timed is not None
        tables.committed(timed)
        return outcome

    monkeypatch.setattr(service, "move", then_the_timer)
    if how == "typed":
        answer = await actor.slash(world.channel, "play", cards="up")
    else:
        panel = (await actor.click(table_message(world, live.id), label="My hand")).response
        answer = await click_through(actor, panel, live, Direction(True))
    state = live.state
    other = 1 - mover
    assert state.current_player == other  # the interleaving happened
    text = answer.response.content
    assert text.startswith("✅"), text
    assert "Your hand" not in text and not buttons_of(answer.response)
    assert not set(CARD.findall(text)) & hand_cards(state, other), text
    assert "chose to go up (1 → 15)." in text


async def test_the_first_players_direction_is_told_on_the_table_message(world: World) -> None:
    live = await stackup_table(world)
    mover = live.state.current_player
    actor = actor_of(world, live, mover)
    answer = await actor.slash(world.channel, "play", cards="down")
    # their turn goes on: their own hand, with the plays as buttons
    assert answer.response.content.startswith("🃏 **Your hand**")
    shown = set(CARD.findall(answer.response.content.split("\n")[1]))
    assert shown == hand_cards(live.state, mover)
    await world.env.advance_time(1)
    text = table_text_of(table_message(world, live.id))
    name = escape_name(live.state.players[mover])
    assert f"{name} chose to go down (15 → 1)." in text, text


# ---------------------------------------------------------------------------- the lock


async def test_every_reader_of_a_table_holds_its_lock(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The state is played on and then committed across awaits: a reader without the
    lock may see a move half-played. My hand's steps, a typed Snatch's mentions, the
    countdown and a move button's code are read under the lock."""
    tables = world.bot.tables
    seen: dict[str, list[bool]] = {}

    def spy(owner: Any, name: str) -> None:
        real = getattr(owner, name)

        def wrapper(*args: Any, **kwargs: Any) -> Any:
            lock = live_now().lock
            seen.setdefault(name, []).append(lock.locked())
            return real(*args, **kwargs)

        monkeypatch.setattr(owner, name, wrapper)

    def live_now() -> Any:
        return live_of(world) or live

    spy(bot.games.stackup.views, "hand_panel")
    spy(bot.games.stackup.game, "named_mentions")
    real_deadline = tables.deadline

    async def deadline(live_table: Any) -> Any:
        seen.setdefault("deadline", []).append(live_table.lock.locked())
        return await real_deadline(live_table)

    monkeypatch.setattr(tables, "deadline", deadline)
    live = await stackup_table(world)
    actor = actor_of(world, live, live.state.current_player)
    await actor.slash(world.channel, "play", cards="up")
    panel = (await actor.click(table_message(world, live.id), label="My hand")).response
    step = next(b for b in buttons_of(panel) if ":s:" in b["custom_id"])
    stepped = await actor.click(panel, custom_id=step["custom_id"])
    assert stepped.response.content.startswith("🃏")
    await world.env.advance_time(1)  # the clock reads the turn's deadline
    for name in ("hand_panel", "named_mentions", "deadline"):
        assert seen.get(name) and all(seen[name]), (name, seen.get(name))


async def test_a_move_button_is_read_back_under_the_lock(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    stack = games.get("stack")
    seen: list[bool] = []
    real = stack.move_from_code

    def spy(state: Any, code: str) -> Any:
        seen.append(live_of(world).lock.locked())
        return real(state, code)

    monkeypatch.setattr(stack, "move_from_code", spy)
    opened = await world.alice.slash(world.channel, "table new", target=30, dice=3)
    await world.bob.click(opened.response, label="Join")
    await world.alice.click(opened.response, label="Start")
    live = live_of(world)
    actor = actor_of(world, live, live.state.current_player)
    panel = (await actor.click(table_message(world, live.id), label="My turn")).response
    move = next(b for b in buttons_of(panel) if b["custom_id"].startswith("move:"))
    version = live.version
    await actor.click(panel, custom_id=move["custom_id"])
    assert seen and all(seen)
    assert live.version > version


# ---------------------------------------------------------------------------- history


async def test_the_history_button_never_exports_a_running_hidden_game(world: World) -> None:
    live = await stackup_table(world, turn_limit=2)
    here: Any = world.bot.get_channel(world.channel.id)
    summary = GameSummary(live.id, datetime.now(UTC), 0, ("a", "b"), (1, 2), ("a",), "stackup")

    async def click(actor: Any, channel: Any) -> Any:
        posted = await channel.send("a button", view=history_view([summary]))
        result = await actor.click(posted, custom_id=f"story:game:{live.id}")
        assert result.ephemeral
        return result.response

    running = await click(world.alice, here)
    assert "still running" in running.content and not running.attachments
    assert not set(CARD.findall(running.content)), running.content
    other = world.env.create_guild()
    there: Any = world.bot.get_channel(other.create_text_channel("elsewhere").id)
    mallory = other.add_member(world.env.create_user("mallory"))
    await play_out(world, live)
    elsewhere = await click(mallory, there)
    assert elsewhere.content == "That button belongs to a game on another server."
    assert not elsewhere.attachments
    over = await click(world.alice, here)
    assert len(over.content) <= MESSAGE_LIMIT and "Cards left:" in over.content
    assert [a.filename for a in over.attachments] == [f"stackup-table-{live.id}.json"]


# ---------------------------------------------------------------------------- round buttons


async def test_a_rounds_buttons_are_its_games(world: World) -> None:
    """Stack's round ends carry **Full scoring**; Stack Up! (no rounds) gets none, even
    from an outbox row that says it is a round."""
    stack_view = games.get("stack").round_view(5, 2)
    assert stack_view is not None
    [item] = stack_view.children
    assert item.custom_id == "story:round:5:2"  # a ScoringButton's, routed by its custom id
    assert ScoringButton.__discord_ui_compiled_template__.fullmatch(item.custom_id)
    assert games.get("stackup").round_view(5, 2) is None
    live = await stackup_table(world)
    row = OutboxItem(1, live.id, world.channel.id, "round", "…", datetime.now(UTC), round_no=1)
    assert await world.bot.tables.courier._round_view(row) is None
    gone = OutboxItem(2, live.id + 99, world.channel.id, "round", "…", datetime.now(UTC), 1)
    assert await world.bot.tables.courier._round_view(gone) is None


# ---------------------------------------------------------------------------- the command line


def test_play_levels_are_every_games_ai_levels() -> None:
    levels = sorted({lv for g in engine_games.all_games() for lv in g.ai_levels})
    assert cli.ai_levels() == levels
    args = cli._parser().parse_args(["play", "--game", "stackup", "--level", levels[0]])
    assert args.level == levels[0]
    with pytest.raises(SystemExit):
        cli._parser().parse_args(["play", "--level", "grandmaster"])
    imported = {
        node.module
        for node in ast.walk(ast.parse((BOT / "cli.py").read_text()))
        if isinstance(node, ast.ImportFrom)
    }
    assert "engine.stack.ai" not in imported, imported  # Stack's levels are not every game's
