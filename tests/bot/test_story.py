"""The story of a game (issue 8): a round's end in one short message whose button answers
privately with the full scoring (after a restart too), the game's end with its chart,
/scores with the chart, /scores show:history with a button per game, /stats with a chart,
the server's picture theme, and every refused click changing nothing."""

from __future__ import annotations

import json
import random
import re
import tempfile
from pathlib import Path
from typing import Any

import pytest

import bot.games.stack.story
import bot.story
import catalog
from bot.games.stack.story import round_view, scoring_of
from bot.games.stack.words import round_end_text, scoring_messages, stats_text
from bot.text import MESSAGE_LIMIT, escape_name
from engine.stack.ai import GreedyPlayer
from engine.stack.render import short_name, square
from engine.stack.rules import StackRules
from engine.stack.state import StackState
from persistence.records import PlayerStats, RecentGame
from tests.bot.conftest import World, live_of, make_bot, message, table_message
from tests.engine.situations import deal, one_step, reroll, stack

NASTY = "<@&123456789012345678>__**x**__@everyone`|~"
LIVE_MENTION = re.compile(r"<@!?\d+>|<@&\d+>|<#\d+>|</[^>]+:\d+>|@everyone|@here")
PICTURES = Path(tempfile.gettempdir()) / "stackbot-pictures"


def hostile(i: int) -> str:
    """A 32-character name of markdown and mentions (unique by its first digit)."""
    return (f"{i}" + NASTY * 2)[:32]


def shown(name: str) -> str:
    """A name as the round's end writes it: shortened to 20, escaped."""
    return escape_name(short_name(name, 20))


def save(name: str, data: bytes) -> Path:
    """Keep a picture the bot sent, to look at (in the temporary folder)."""
    PICTURES.mkdir(exist_ok=True)
    path = PICTURES / name
    path.write_bytes(data)
    return path


def assert_safe(text: str) -> None:
    assert 0 < len(text) <= MESSAGE_LIMIT, len(text)
    assert not LIVE_MENTION.search(text), text


# ---------------------------------------------------------------------------- driving


async def seat(world: World, members: list[Any], **options: Any) -> Any:
    """``members[0]`` opens a table, the others join, and the game starts."""
    opened = await members[0].slash(world.channel, "table new", **options)
    lobby = opened.response
    for member in members[1:]:
        joined = await member.click(lobby, label="Join")
        assert joined.ephemeral and "You're in" in joined.response.content
    await members[0].click(lobby, label="Start")
    live = live_of(world)
    assert live is not None and live.state is not None
    return live


async def tap_first(actor: Any, panel: Any) -> None:
    """Play the first move a panel offers (a button, or a select's first option)."""
    for row in panel.components:
        for component in row["components"]:
            if component["type"] == 2:
                await actor.click(panel, custom_id=component["custom_id"])
                return
            if component["type"] == 3:
                value = component["options"][0]["value"]
                await actor.select(panel, [value], custom_id=component["custom_id"])
                return
    raise AssertionError(f"no move on the panel: {panel.content}")


async def play(world: World, members: list[Any], *, rounds: int | None = None) -> Any:
    """The player to move opens **My turn** and taps its first move, until ``rounds``
    rounds are over (or the game is, without ``rounds``). The table, as it was last."""
    actors = {m.id: m for m in members}
    live = live_of(world)
    for _ in range(3000):
        now = live_of(world)
        if now is None:
            assert rounds is None or len(live.state.round_scores) >= rounds
            return live
        live = now
        if rounds is not None and len(live.state.round_scores) >= rounds:
            return live
        actor = actors[live.user_at(live.state.current)]
        panel = await actor.click(table_message(world, live.id), label="My turn")
        assert panel.ephemeral, panel.response.content
        await tap_first(actor, panel.response)
    raise AssertionError("the game did not end")


def posted(world: World, start: str) -> list[Any]:
    return [m for m in world.channel.history() if m.content.startswith(start)]


def eight_hostile(world: World) -> list[Any]:
    return [
        world.guild.add_member(world.env.create_user(f"player{i}"), nick=hostile(i))
        for i in range(8)
    ]


def button_ids(msg: Any) -> list[str]:
    return [c.custom_id for row in msg.components for c in row.children]


def pile_sums(texts: list[str]) -> dict[str, tuple[int, int]]:
    """From a full scoring: per player header, (round points, sum of its pile lines)."""
    sums: dict[str, tuple[int, int]] = {}
    header = None
    for line in "\n".join(texts).split("\n"):
        m = re.match(r"^(\S+) \*\*(.+)\*\* \*\*([+-]\d+)\*\* → -?\d+", line)
        if m:
            header = m[1]
            sums[header] = (int(m[3]), 0)
        elif line.startswith("· ") and header is not None:
            points, added = sums[header]
            sums[header] = (points, added + int(line.rsplit(": ", 1)[1]))
    return sums


# ---------------------------------------------------------------------------- round end


async def test_a_round_end_is_one_short_message_and_its_button_answers_the_full_scoring(
    world: World,
) -> None:
    members = eight_hostile(world)
    live = await seat(world, members, target=500, dice=3)
    await play(world, members, rounds=1)
    (end,) = posted(world, "**Round 1 is over.**")
    assert_safe(end.content)
    lines = end.content.split("\n")
    assert len(lines) <= 1 + 8 + 2, end.content  # head, a line per player, best pile, out
    sheet = await world.bot.tables.store.score_sheet(live.id)
    for position, name in enumerate(live.info.seats):
        points = sheet.rounds[0][position]
        assert f"{square(position)} {shown(name.name)} **{points:+d}** → {points}" in lines
    assert any(line.startswith(("🏅 Best pile: ", "No pile scored")) for line in lines)
    assert lines[-1].startswith("🚪 ")
    assert button_ids(end) == [f"story:round:{live.id}:1"]

    answer = await members[5].click(end, label="Full scoring")
    texts = [answer.response.content] + [f.content for f in answer.followups]
    assert answer.ephemeral and all(f.ephemeral for f in answer.followups)
    assert texts[0].startswith("**Round 1, pile by pile** · first to 500")
    for text in texts:
        assert_safe(text)
    sums = pile_sums(texts)
    assert len(sums) == 8
    for points, added in sums.values():
        assert points == added
    print("\n--- round end (channel) ---\n" + end.content)
    print("--- full scoring (private) ---\n" + "\n=====\n".join(texts))


async def test_the_full_scoring_button_still_answers_after_a_restart(world: World) -> None:
    live = await seat(world, [world.alice, world.bob], target=300, dice=4)
    await play(world, [world.alice, world.bob], rounds=2)
    first, second = posted(world, "**Round 1 is over.**")[0], posted(world, "**Round 2 is")[0]
    before = (await world.carol.click(first, label="Full scoring")).response.content
    new_bot = make_bot(world.db, seed=99)
    await world.env.restart_bot(new_bot)
    world.bot = new_bot
    # the round's message is not taken for a table message left behind, and still works
    assert first.id in [m.id for m in world.channel.history()]
    after = await world.carol.click(message(world, first.id), label="Full scoring")
    assert after.ephemeral and after.response.content == before
    later = await world.carol.click(message(world, second.id), label="Full scoring")
    assert later.response.content.startswith("**Round 2, pile by pile**")
    assert live_of(world).id == live.id


async def test_the_full_scoring_is_said_in_the_askers_language_each_kept_apart(
    world: World,
) -> None:
    live = await seat(world, [world.alice, world.bob], target=300, dice=4)
    await play(world, [world.alice, world.bob], rounds=1)
    store = world.bot.tables.store
    english = await scoring_of(store, live.id, 1)
    with catalog.speaking("ja"):
        japanese = await scoring_of(store, live.id, 1)
        with pytest.raises(bot.story.StoryRefusal, match="第9ラウンドはありません"):
            await scoring_of(store, live.id, 9)
    assert english[0].startswith("**Round 1, pile by pile** · first to 300")
    assert japanese[0].startswith("**第1ラウンドの得点（山ごと）** · 300点先取")
    assert await scoring_of(store, live.id, 1) == english  # each language kept apart


async def test_refused_clicks_answer_privately_and_change_nothing(world: World) -> None:
    live = await seat(world, [world.alice, world.bob], target=300, dice=3)
    await play(world, [world.alice, world.bob], rounds=1)
    store = world.bot.tables.store
    here: Any = world.bot.get_channel(world.channel.id)
    version, outbox = live_of(world).version, await store.pending_outbox()

    async def click(actor: Any, channel: Any, view: Any, **where: str) -> str:
        posted = await channel.send("a button", view=view)
        result: Any = await actor.click(posted, **where)
        assert result.ephemeral
        return str(result.response.content)

    gone = round_view(live.id + 1000, 1)
    assert await click(world.alice, here, gone, label="Full scoring") == catalog.t(bot.story.GONE)
    future = round_view(live.id, 7)
    assert await click(world.alice, here, future, label="Full scoring") == (
        "That game has no round 7."
    )
    other = world.env.create_guild()
    there: Any = world.bot.get_channel(other.create_text_channel("elsewhere").id)
    mallory = other.add_member(world.env.create_user("mallory"))
    brought = round_view(live.id, 1)
    assert await click(mallory, there, brought, label="Full scoring") == catalog.t(
        bot.story.ELSEWHERE
    )
    game = bot.story.history_view([await _summary(world, live.id)])
    assert await click(mallory, there, game, custom_id=f"story:game:{live.id}") == (
        catalog.t(bot.story.ELSEWHERE)
    )
    assert live_of(world).version == version
    assert await store.pending_outbox() == outbox


async def _summary(world: World, table_id: int) -> Any:
    from datetime import UTC, datetime

    from persistence.records import GameSummary

    return GameSummary(table_id, datetime.now(UTC), 1, ("a", "b"), (1, 2), ("b",))


# ---------------------------------------------------------------------------- game end


async def test_the_game_end_carries_the_chart_and_the_history_gives_each_game(
    world: World,
) -> None:
    members = eight_hostile(world)
    live = await seat(world, members, target=12, dice=2)
    await play(world, members)
    (end,) = posted(world, "🏆 ")
    assert_safe(end.content)
    assert "The game took" in end.content and "```" in end.content
    (chart,) = end.attachments
    assert chart.filename == "game.png" and chart.description
    assert "Chart of the running totals" in chart.description
    assert not LIVE_MENTION.search(chart.description)
    data = await chart.read()
    assert data.startswith(b"\x89PNG")
    save("game-end-8-hostile.png", data)

    scores = await members[1].slash(world.channel, "scores")
    assert scores.ephemeral and scores.response.content.startswith("**Score sheet**")
    assert [a.filename for a in scores.response.attachments] == ["game.png"]

    history = await members[2].slash(world.channel, "scores", show="history")
    assert history.ephemeral and "**1.**" in history.response.content
    (row,) = history.response.components
    (button,) = row["components"]
    assert button["custom_id"] == f"story:game:{live.id}" and button["label"].startswith("1. ")
    assert "\u200b" not in button["label"] and len(button["label"]) <= 80  # as typed
    clicked = await members[2].click(history.response, custom_id=button["custom_id"])
    assert clicked.ephemeral and clicked.response.content.startswith("**Score sheet**")
    files = {a.filename: a for a in clicked.response.attachments}
    assert set(files) == {"game.png", f"stack-table-{live.id}.json"}
    record = json.loads(await files[f"stack-table-{live.id}.json"].read())
    assert record == await world.bot.tables.store.export_record(live.id)


async def test_the_history_offers_a_button_for_each_of_at_most_25_games(world: World) -> None:
    for _ in range(2):
        await seat(world, [world.alice, world.bob], target=5, dice=1)
        await play(world, [world.alice, world.bob])
        await world.env.advance_time(10)  # the channel's message budget fills up again
    history = await world.bob.slash(world.channel, "scores", show="history")
    labels = [c["label"] for row in history.response.components for c in row["components"]]
    assert [label.split(" ", 1)[0] for label in labels] == ["1.", "2."]
    assert history.response.content.count("**2.**") == 1


async def test_the_history_offers_buttons_only_for_the_games_its_text_lists(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    """25 finished games of eight 32-character names full of markdown and mentions: the
    text has room for a few of them only; the buttons are exactly the games it lists."""
    from datetime import UTC, datetime, timedelta

    from persistence.records import GameSummary

    names = tuple(hostile(i) for i in range(8))
    day = datetime(2025, 1, 1, tzinfo=UTC)
    games = [
        GameSummary(100 + g, day + timedelta(days=g), 12, names, tuple(range(8)), names)
        for g in range(25)
    ]

    async def history(channel_id: int, limit: int = 0, **_: Any) -> list[GameSummary]:
        return games[:limit] if limit else games

    monkeypatch.setattr(world.bot.tables.store, "history", history)
    answer = await world.bob.slash(world.channel, "scores", show="history")
    text = answer.response.content
    assert_safe(text)
    listed = [int(n) for n in re.findall(r"^\*\*(\d+)\.\*\*", text, re.MULTILINE)]
    assert 0 < len(listed) < 25 and listed == list(range(1, len(listed) + 1))
    rows = answer.response.components
    assert len(rows) <= 5 and all(len(row["components"]) <= 5 for row in rows)
    buttons = [c for row in rows for c in row["components"]]
    assert [int(b["label"].split(".", 1)[0]) for b in buttons] == listed
    assert [b["custom_id"] for b in buttons] == [f"story:game:{100 + n - 1}" for n in listed]
    assert all(len(b["label"]) <= 80 for b in buttons)


async def test_a_history_button_shows_the_winners_name_as_typed_and_the_text_pings_nobody(
    world: World,
) -> None:
    """A button's label is plain text that mentions nobody: the names in it are as typed
    (no zero-width spaces after ``@`` and ``<``), while the message keeps them inert."""
    names = ["@everyone <@123>", "<@&42> @here"]
    members = [
        world.guild.add_member(world.env.create_user(f"typed{i}"), nick=name)
        for i, name in enumerate(names)
    ]
    await seat(world, members, target=5, dice=1)
    await play(world, members)
    history = await world.bob.slash(world.channel, "scores", show="history")
    assert_safe(history.response.content)
    (row,) = history.response.components
    (button,) = row["components"]
    (winner,) = [name for name in names if name in button["label"]]
    assert button["label"].endswith(f"🏆 {winner}") and "\u200b" not in button["label"]


async def test_a_game_end_whose_chart_cannot_be_drawn_goes_out_as_text(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    async def broken(tables: Any, chart: Any) -> bytes:
        raise RuntimeError("no matplotlib today")

    monkeypatch.setattr(bot.games.stack.story, "draw", broken)
    await seat(world, [world.alice, world.bob], target=5, dice=1)
    await play(world, [world.alice, world.bob])
    (end,) = posted(world, "🏆 ")
    assert end.attachments == [] and "```" in end.content
    assert not await world.bot.tables.store.pending_outbox()


# ---------------------------------------------------------------------------- stats, theme


async def test_stats_show_the_record_and_a_chart_of_the_last_games(world: World) -> None:
    await seat(world, [world.alice, world.bob], target=5, dice=2)
    await play(world, [world.alice, world.bob])
    result = await world.alice.slash(world.channel, "stats")
    text = result.response.content
    assert result.ephemeral and "1 game," in text and "points a round on average" in text
    assert "Favourite face" in text or "favourite face" in text
    assert "Last games, newest first: " in text
    (chart,) = result.response.attachments
    assert chart.filename == "stats.png" and chart.description
    save("stats-alice.png", await chart.read())
    print("\n--- /stats ---\n" + text + "\n" + chart.description)


async def test_the_picture_theme_is_a_server_setting_the_charts_use(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    themes: list[str] = []
    real = bot.games.stack.story.draw

    async def spy(tables: Any, chart: Any) -> bytes:
        themes.append(chart.theme)
        return await real(tables, chart)

    monkeypatch.setattr(bot.games.stack.story, "draw", spy)
    refused = await world.admin.slash(
        world.channel, "houserules set", key="theme", value="<@&1> purple"
    )
    assert refused.ephemeral and refused.response.content.startswith("`theme` is dark or light")
    assert not LIVE_MENTION.search(refused.response.content)
    here = await world.admin.slash(
        world.channel, "houserules set", key="theme", value="light", here=True
    )
    assert "kept for the whole server" in here.response.content
    assert (await world.bot.tables.store.guild_settings(world.guild.id)).theme == "dark"
    done = await world.admin.slash(world.channel, "houserules set", key="theme", value="Light")
    assert done.response.content.startswith("`theme` is now light on this server")
    shown_rules = await world.admin.slash(world.channel, "houserules show")
    assert "`theme` = light (server" in shown_rules.response.content
    await seat(world, [world.alice, world.bob], target=5, dice=2)
    await play(world, [world.alice, world.bob])
    scores = await world.bob.slash(world.channel, "scores")
    save("scores-light.png", await scores.response.attachments[0].read())
    assert themes == ["light", "light"]  # the game's end, then /scores


# ---------------------------------------------------------------------------- texts


def finished_round(dice: int, seed: int, **rules: Any) -> StackState:
    """8 seats of hostile names whose first round has just ended (greedy play)."""
    names = [hostile(i) for i in range(8)]
    state = StackState(names, StackRules(dice_per_player=dice, **rules))
    rng = random.Random(seed)
    while not state.round_scores:
        one_step(state, rng, GreedyPlayer())
    return state


@pytest.mark.parametrize("dice", [1, 14, 30])
def test_a_round_end_of_eight_long_names_is_one_short_message(dice: int) -> None:
    for seed in range(5):
        state = finished_round(dice, seed, four_high_bonus=True)
        text = round_end_text(state, 1)
        assert_safe(text)
        assert len(text.split("\n")) <= 11
        texts = scoring_messages(state, 1)
        assert 1 <= len(texts) <= 3
        for part in texts:
            assert_safe(part)
        assert "(shortened)" not in "\n".join(texts)
        sums = pile_sums(texts)
        assert [p for p, _ in sums.values()] == state.round_scores[0]
        assert all(points == added for points, added in sums.values())


def test_the_round_end_names_who_went_out_and_the_best_pile() -> None:
    state = deal([3, 6], [3, 5], [5, 4])
    stack(state, 3, 1)  # alice: a 3 on bob's 3
    stack(state, 5, 2)  # bob: his last die on carol's 5: he went out
    reroll(state, 4, 2)  # carol's last turn: her rerolled 2 finds no pile
    reroll(state, 6, 4)  # alice's: neither does her 4
    assert state.round_scores == [[3, 5, 0]]
    text = round_end_text(state, 1)
    assert text.split("\n") == [
        "**Round 1 is over.** First to 200.",
        "🟥 alice **+3** → 3",
        "🟦 bob **+5** → 5",
        "🟩 carol **+0** → 0",
        "🏅 Best pile: 🟦 bob's 2-high pile of 5s, 5 points",
        "🚪 🟦 bob went out.",
    ]


def test_covering_an_opponents_last_die_is_told_as_both_out() -> None:
    state = deal([3], [3], [5])
    stack(state, 3, 1)  # alice's only die on bob's only die: both are out
    reroll(state, 5, 6)  # carol's last turn: her rerolled 6 finds no pile
    assert state.round_scores
    text = round_end_text(state, 1)
    assert text.endswith("🚪 🟥 alice covered 🟦 bob's last die: both are out.")


def test_a_captured_pile_is_the_best_of_equal_worth_and_others_are_counted() -> None:
    state = finished_round(14, 2, four_high_bonus=True)
    text = round_end_text(state, 1)
    best = next(line for line in text.split("\n") if line.startswith("🏅"))
    assert "'s captured pile of 1s, 20 points" in best, best


def test_stats_text_gives_average_favourite_face_and_last_games() -> None:
    from datetime import UTC, datetime

    recent = tuple(
        RecentGame(i, datetime(2025, 1, i + 1, tzinfo=UTC), 0, 100 + i, i == 0, 100, 5, ("a",))
        for i in range(3)
    )
    stats = PlayerStats(
        1, "bob", 3, 1, 303, 40, 2, rounds=15, placed=(0, 0, 4, 0, 0, 9), recent=recent
    )
    text = stats_text("bob", stats)
    assert text.startswith("**bob** — Stack: 3 games, 1 win (33%)"), text  # the game named
    assert "20.2 points a round on average (15 rounds played)" in text
    assert "favourite face 6" in text
    assert "Last games, newest first: 🏆 100/100 · 101/100 · 102/100" in text
