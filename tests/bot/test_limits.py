"""Every text the bot sends fits Discord's limits, and no name pings anyone or breaks the
markdown around it (issue 7, items 1 and 3; the plurals of item 14) — in every language
the bot speaks (issue 21), with the longest names, Latin and Japanese."""

from __future__ import annotations

import random
import re
from collections.abc import Collection
from datetime import UTC, datetime, timedelta
from itertools import islice
from typing import TYPE_CHECKING, Any

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

import catalog
from bot import games as hosted
from bot.games.stack.panel import move_label
from bot.games.stack.words import (
    RULES_BRIEF,
    alt_text,
    game_end_messages,
    house_rules_text,
    round_end_text,
    score_sheet_text,
    scoring_messages,
    stats_text,
    table_parts,
)
from bot.render import history_page, leaderboard_text, lobby_text
from bot.text import (
    EMBED_FIELD,
    GRAVE,
    MESSAGE_LIMIT,
    ZWSP,
    code_name,
    cut,
    echo,
    escape_name,
    escape_prose,
    fit_message,
    mention,
    percent,
    plural,
    shortened,
    split_message,
)
from engine import errors
from engine.flow import settle
from engine.game import Decision
from engine.stack.advice import advise
from engine.stack.ai import GreedyPlayer, RandomPlayer
from engine.stack.notation import parse_move as parse_stack_move
from engine.stack.rules import MAX_DICE_PER_PLAYER, MAX_HOUSE_TARGET, HouseRules, StackRules
from engine.stack.state import StackState
from engine.stackup.notation import parse_move as parse_stackup_move
from persistence.records import (
    GameSummary,
    LeaderboardRow,
    PlayerStats,
    ScoreSheet,
    SeatInfo,
    TableInfo,
)
from tests.engine.situations import decisions, one_step

if TYPE_CHECKING:
    from tests.bot.conftest import World


def stack_lobby_text(info: TableInfo, rules: HouseRules) -> str:
    """A Stack lobby's message, as the host writes it."""
    from bot.games.stack.game import DISCORD_GAME

    return lobby_text(info, "Stack", DISCORD_GAME.lobby_summary(rules), 8)


NASTY = "<@&123456789012345678>__**x**__@everyone`|~"
FRAGMENTS = [
    "<@&123456789012345678>",
    "<@123456789012345678>",
    "<@!123456789012345678>",
    "<#1>",
    "</stack:1>",
    "<t:1:R>",
    "@everyone",
    "@here",
    "__",
    "**",
    "*",
    "_",
    "~~",
    "||",
    "`",
    "```",
    "> ",
    "# ",
    "-# ",
    "- ",
    "1. ",
    "[x](https://e.com)",
    "\\",
    "Bartholomew_the_Great",
    "ジャバウォック＿卿＊",  # wide characters: two columns each in a code block
    "\u202e",
    "\n",
]
USER_IDS = [10**17 + i for i in range(8)]
STACK = hosted.get("stack")
# A mention Discord would act on: users, roles, channels, slash commands, everyone, here.
LIVE_MENTION = re.compile(r"<@!?\d+>|<@&\d+>|<#\d+>|</[^>]+:\d+>|@everyone|@here")
FENCE_LINE = re.compile(r"^```", re.MULTILINE)


def nasty_name(draw: st.DrawFn, seat: int) -> str:
    """A 32-character name full of markdown and mentions (unique by its seat digit)."""
    parts = draw(st.lists(st.sampled_from(FRAGMENTS), min_size=1, max_size=8))
    return (f"{seat}" + "".join(parts) + NASTY * 2)[:32]


@st.composite
def seat_names(draw: st.DrawFn) -> list[str]:
    count = draw(st.integers(2, 8))
    return [nasty_name(draw, seat) for seat in range(count)]


def assert_safe(text: str, *, allowed: Collection[int] = (), limit: int = MESSAGE_LIMIT) -> None:
    """Within ``limit``, code blocks closed, and mentioning only users in ``allowed``."""
    assert 0 < len(text) <= limit, len(text)
    assert len(FENCE_LINE.findall(text)) % 2 == 0, text
    for found in LIVE_MENTION.findall(text):
        assert found in {mention(u) for u in allowed}, (found, text)


def seat_infos(names: list[str], ai_from: int) -> tuple[SeatInfo, ...]:
    return tuple(
        SeatInfo(i, None, n, "greedy") if i >= ai_from else SeatInfo(i, USER_IDS[i], n, None)
        for i, n in enumerate(names)
    )


def table_info(names: list[str], ai_from: int) -> TableInfo:
    now = datetime(2025, 1, 1, tzinfo=UTC)
    return TableInfo(
        id=1,
        guild_id=2,
        channel_id=3,
        host_id=USER_IDS[0],
        status="lobby",
        options={},
        seats=seat_infos(names, ai_from),
        version=0,
        rules=None,
        message_channel_id=None,
        message_id=None,
        deadline=None,
        created_at=now,
        started_at=None,
        finished_at=None,
    )


def summaries(names: list[str], count: int, rounds: int) -> list[GameSummary]:
    day = datetime(2025, 1, 1, tzinfo=UTC)
    return [
        GameSummary(
            table_id=g,
            finished_at=day + timedelta(days=g),
            rounds_played=rounds,
            players=tuple(names),
            totals=tuple(10_000 + i for i in range(len(names))),
            winners=tuple(names[:2]),
        )
        for g in range(count)
    ]


def player_stats(name: str, n: int) -> PlayerStats:
    return PlayerStats(user_id=1, name=name, games=n, wins=n, points=n, best_round=n, captures=n)


def check_records(names: list[str], state: StackState) -> None:
    """Score sheet, history, leaderboard and stats built by hand from ``names``."""
    sheet = ScoreSheet(
        table_id=1,
        names=tuple(names),
        rounds=tuple(tuple(r) for r in state.round_scores),
        totals=tuple(state.totals),
        target_score=state.rules.target_score,
        finished=state.is_over,
        winners=tuple(state.name(s) for s in state.winner) if state.winner else None,
    )
    assert_safe(score_sheet_text(sheet))
    assert_safe(
        history_page(
            summaries(names, 10, len(state.round_scores)), STACK.history_line, STACK.title
        )[0]
    )
    rows = [
        LeaderboardRow(rank=i + 1, stats=player_stats(n, 10**6)) for i, n in enumerate(names * 3)
    ]
    assert_safe(leaderboard_text(rows, "wins", STACK.figure_name, STACK.title))
    for name in names:
        assert_safe(stats_text(name, player_stats(name, 1)))
        assert_safe(STACK.stats_text(name, None))


def table_text(state: StackState, **options: Any) -> str:
    """The live table message as one text: :func:`table_parts` joined by a line break."""
    return "\n".join(part for part in table_parts(state, **options) if part)


def play_and_check(state: StackState, rng: random.Random, steps: int, ai_from: int) -> None:
    """Play up to ``steps`` random decisions, rendering every message kind along the way."""
    for _ in islice(decisions(state, rng), steps):
        if rng.random() < 0.1:
            check_table(state, rng, ai_from)
        rounds = len(state.round_scores)
        player = GreedyPlayer() if rng.random() < 0.5 else RandomPlayer()
        state.apply(player.choose(state, rng))
        if state.chance_kind == "roll":
            state.apply(state.sample_chance(rng))
        if len(state.round_scores) > rounds:
            assert_safe(round_end_text(state, len(state.round_scores)))
            for text in scoring_messages(state, len(state.round_scores)):
                assert_safe(text)
    check_table(state, rng, ai_from)
    if state.is_over:
        messages = game_end_messages(state)
        assert 1 <= len(messages) <= 2
        for text in messages:
            assert_safe(text)


def check_table(state: StackState, rng: random.Random, ai_from: int) -> None:
    seat = state.current
    user = USER_IDS[seat] if seat is not None and seat < ai_from else None
    deadline = datetime.now(UTC) + timedelta(seconds=rng.randrange(1, 600))
    recent = [escape_name(f"{state.name(s)} stacked a 3 on {NASTY}") for s in range(state.n)]
    note = escape_name(state.name(0)) + " left; an AI plays their seat from now on."
    for last in (None, "\n".join(recent)):
        text = table_text(state, current_user=user, last_move=last, deadline=deadline, note=note)
        assert_safe(text, allowed={user} if user else set())
        head, field = table_parts(
            state, current_user=user, last_move=last, deadline=deadline, note=note
        )
        assert head and field and len(head) + 1 + len(field) <= MESSAGE_LIMIT
    assert_safe(alt_text(state), limit=EMBED_FIELD)


@pytest.mark.parametrize("language", catalog.LANGUAGES)
@settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(
    names=seat_names(),
    dice=st.integers(1, MAX_DICE_PER_PLAYER),
    target=st.one_of(st.integers(1, 60), st.integers(61, MAX_HOUSE_TARGET)),
    ai_from=st.integers(1, 8),
    seed=st.integers(0, 2**32),
    house=st.booleans(),
)
def test_every_message_of_a_random_game_fits_discord_and_mentions_only_whom_it_means(
    language: str, names: list[str], dice: int, target: int, ai_from: int, seed: int, house: bool
) -> None:
    with catalog.speaking(language):
        random_game_fits(names, dice, target, ai_from, seed, house)


def random_game_fits(
    names: list[str], dice: int, target: int, ai_from: int, seed: int, house: bool
) -> None:
    rng = random.Random(seed)
    rules = HouseRules(
        target_score=target,
        dice_per_player=dice,
        four_high_bonus=house,
        capture_penalty=house,
        rolled_two_penalty=house,
        teams=house and len(names) in (4, 6, 8),
    )
    assert_safe(stack_lobby_text(table_info(names, ai_from), rules), allowed=set(USER_IDS))
    assert_safe(house_rules_text(rules, channel=house))
    assert_safe(RULES_BRIEF + "\n\n" + house_rules_text(rules))
    state = StackState(names, rules.for_players(tuple(names)))
    play_and_check(state, rng, steps=1_500, ai_from=ai_from)
    check_records(names, state)


def long_names() -> list[str]:
    return [(f"{i}" + NASTY * 2)[:32] for i in range(8)]


def wide_names() -> list[str]:
    """Eight 32-character Japanese names with markdown in them (two columns a character)."""
    return [(f"{i}＿山田＊" + "寿限無寿限無五劫の擦り切れ" * 3)[:32] for i in range(8)]


@pytest.mark.parametrize("language", catalog.LANGUAGES)
@pytest.mark.parametrize("names", [long_names, wide_names], ids=["latin", "wide"])
def test_a_full_table_of_thirty_dice_and_long_names_fits_in_every_message_for_many_rounds(
    language: str, names: Any
) -> None:
    # 8 seats of 32-character names, 30 dice, target 10,000: today's worst case.
    with catalog.speaking(language):
        state = StackState(names(), StackRules(dice_per_player=30, target_score=10_000))
        rng = random.Random(7)
        while len(state.round_scores) < 12:
            play_and_check(state, rng, steps=200, ai_from=4)
        check_records(names(), state)


@pytest.mark.parametrize("language", catalog.LANGUAGES)
def test_a_long_game_ends_in_at_most_two_messages_with_the_last_rounds_shown(
    language: str,
) -> None:
    # one die each: many short rounds before anyone reaches the target
    with catalog.speaking(language):
        state = StackState(long_names(), StackRules(dice_per_player=1, target_score=150))
        rng = random.Random(3)
        play_and_check(state, rng, steps=100_000, ai_from=8)
        assert state.is_over and len(state.round_scores) > 10
        text = "\n".join(game_end_messages(state))
    assert "🏆" in text and (language != "en" or "(shortened)" in text)
    assert f"R{len(state.round_scores)}" in text and "R1 " not in text


# ------------------------------------------------------------------ bot.text


def discord_shows(markdown: str) -> str:
    """What Discord shows for text of escaped characters: a backslash before ASCII
    punctuation shows that character, zero-width spaces show nothing."""
    return re.sub(r"\\([!-/:-@\[-`{-~])", r"\1", markdown).replace(ZWSP, "")


@given(
    st.lists(
        st.one_of(st.sampled_from(FRAGMENTS), st.text(alphabet="ab <>@&#!_*~|`-[]()\\.:1 ")),
        max_size=8,
    ).map("".join)
)
@example(name="> \u202e\n<@&123456789012345678>")  # a direction mark between white space
def test_an_escaped_name_shows_as_typed_on_one_line_and_mentions_nobody(name: str) -> None:
    escaped = escape_name(name)
    assert not LIVE_MENTION.search(escaped)
    assert "\n" not in escaped
    one_line = " ".join(name.replace("\u202e", "").split()) or "?"
    assert discord_shows(escaped) == one_line
    # no markdown character is left unescaped, anywhere or (quotes, headings, lists) first
    bare = escaped.replace("\\\\", "")
    assert not re.search(r"(?<!\\)[*_~|`\[\]<]", bare)
    assert not re.match(r"\s*([>#+-]|\d+\.)", escaped)


def test_bartholomew_the_great_is_not_in_italics() -> None:
    assert escape_name("Bartholomew_the_Great") == r"Bartholomew\_the\_Great"


def test_a_name_inside_a_code_block_cannot_end_the_block_or_mention() -> None:
    name = code_name("```@everyone <@1>")
    assert "`" not in name and not LIVE_MENTION.search(name) and "\\" not in name


def test_only_mention_produces_a_mention() -> None:
    assert mention(42) == "<@42>" and mention(None) == ""
    assert LIVE_MENTION.fullmatch(mention(42))


def test_cut_keeps_short_text_and_marks_what_it_shortens() -> None:
    assert cut("abc", 3) == "abc"
    assert cut("abcdef", 4) == "abc…"
    assert cut("ab\\cdef", 4) == "ab…"  # never a backslash escaping the mark


def test_echoed_input_is_cut_to_forty_characters_and_escaped() -> None:
    typed = "@everyone " + "x" * 2000
    shown = echo(typed)
    assert len(discord_shows(shown)) <= 42 and shown.endswith("…'")
    assert not LIVE_MENTION.search(shown)
    assert echo("maybe") == "'maybe'"


def test_fit_message_marks_what_it_shortens_and_closes_a_code_block() -> None:
    text = "head\n```\n" + "\n".join(f"row {i}" for i in range(1000)) + "\n```\ntail"
    fitted = fit_message(text)
    assert len(fitted) <= MESSAGE_LIMIT and fitted.endswith("… (shortened)")
    assert len(FENCE_LINE.findall(fitted)) == 2
    assert fit_message("short") == "short"


def test_split_message_closes_and_reopens_a_code_block_it_breaks() -> None:
    lines = ["**Title**", "```", *[f"{i:>5} " + "x" * 60 for i in range(100)], "```", "end"]
    parts = split_message(lines)
    assert len(parts) > 1
    for part in parts:
        assert len(part) <= MESSAGE_LIMIT
        assert len(FENCE_LINE.findall(part)) % 2 == 0
    # every line arrives, in order, fences aside
    said = [line for part in parts for line in part.split("\n") if line != "```"]
    assert said == [line for line in lines if line != "```"]


@given(
    st.lists(st.one_of(st.just("```"), st.text(max_size=300)), max_size=60),
    st.integers(40, 400),
)
def test_split_message_keeps_every_part_within_the_limit(lines: list[str], limit: int) -> None:
    parts = split_message(lines, limit)
    for part in parts:
        assert 0 < len(part) <= limit and part.strip()


def test_a_single_over_long_line_is_cut() -> None:
    (part,) = split_message(["y" * 5000])
    assert len(part) == MESSAGE_LIMIT - 5 and part.endswith("…")


def test_plurals_say_one_game_one_win_one_round() -> None:
    assert plural(1, "game") == "1 game" and plural(2, "game") == "2 games"
    assert plural(1, "die", "dice") == "1 die" and plural(0, "die", "dice") == "0 dice"
    text = stats_text("bob", player_stats("bob", 1))
    assert "1 game," in text and "1 win " in text and "1 point," in text
    assert "1 capture" in text and "games" not in text and "wins" not in text
    board = leaderboard_text(
        [LeaderboardRow(1, player_stats("bob", 1))], "wins", STACK.figure_name, STACK.title
    )
    assert "1 win ·" in board and "1 game" in board and "1 games" not in board
    assert (
        "· 1 round ·"
        in history_page(summaries(["a", "b"], 1, 1), STACK.history_line, STACK.title)[0]
    )


# ------------------------------------------------------------------ bot.games.stack.words


def test_history_of_ten_games_of_eight_long_names_fits_and_says_it_is_shortened() -> None:
    names = [f"{i}{'Maximilian-Alexander the Third'}{i}"[:32] for i in range(8)]
    text = history_page(summaries(names, 10, 12), STACK.history_line, STACK.title)[0]
    assert len(text) <= MESSAGE_LIMIT
    assert "(shortened)" in text and "older game" in text


@pytest.mark.parametrize("names", [long_names, wide_names], ids=["latin", "wide"])
def test_history_and_boards_in_japanese_fit_and_say_what_they_leave_out(names: Any) -> None:
    with catalog.speaking("ja"):
        text = history_page(summaries(names(), 40, 12), STACK.history_line, STACK.title)[0]
        assert len(text) <= MESSAGE_LIMIT and "古いゲーム" in text and "（省略）" in text
        rows = [LeaderboardRow(i + 1, player_stats(n, 10**6)) for i, n in enumerate(names() * 9)]
        board = leaderboard_text(rows, "points", STACK.figure_name, STACK.title)
        assert_safe(board)
        assert board.startswith("**スタックのランキング**（得点順）") and board.endswith(
            shortened()
        )
        assert "1000000勝 · 1000000得点 · 1000000戦" in board


def test_a_score_sheet_of_many_rounds_shows_the_last_rounds_and_every_total() -> None:
    rounds = tuple(tuple(r * 10 + s for s in range(8)) for r in range(300))
    totals = tuple(sum(r[s] for r in rounds) for s in range(8))
    sheet = ScoreSheet(1, tuple(long_names()), rounds, totals, 10_000, True, (long_names()[7],))
    text = score_sheet_text(sheet)
    assert len(text) <= MESSAGE_LIMIT
    assert "R300" in text and "R290" not in text and "Rounds 1–290 are left out" in text
    assert all(str(t) in text for t in totals)
    assert text.endswith("Won by " + escape_name(long_names()[7][:19] + "…") + ".")


def test_the_table_mentions_the_player_to_move_and_counts_down_to_the_deadline() -> None:
    state = StackState(["alice", "bob"], StackRules(dice_per_player=3), first=0)
    state.apply(state.sample_chance(random.Random(1)))
    deadline = datetime(2030, 1, 1, tzinfo=UTC)
    text = table_text(state, current_user=42, last_move=None, deadline=deadline)
    first = text.splitlines()[0]
    stamp = f"<t:{int(deadline.timestamp())}:R>"
    assert first == f"▶ 🟥 <@42>, it's your turn · time runs out {stamp}"
    assert "**Stack** · round 1" in text
    quiet = table_text(state, current_user=None, last_move=None)
    assert "<@" not in quiet and quiet.startswith("▶ 🟥 **alice** to move")
    head, field = table_parts(state, current_user=42, last_move=None, deadline=deadline)
    assert head == first and field.startswith("**Stack** · round 1")
    assert "to move" not in field  # the head says whose turn it is


def test_the_lobby_mentions_seated_humans_and_escapes_ai_names() -> None:
    info = table_info(["alice", "AI_1 @here"], ai_from=1)
    text = stack_lobby_text(info, HouseRules(dice_per_player=1))
    assert mention(USER_IDS[0]) + " — host" in text
    assert "🤖 AI\\_1 @\u200bhere (greedy)" in text and "1 die each" in text


def test_the_alt_text_names_every_player_without_mentions_or_markdown_escapes() -> None:
    state = StackState(long_names(), StackRules(dice_per_player=30))
    state.apply(state.sample_chance(random.Random(2)))
    text = alt_text(state)
    assert len(text) <= EMBED_FIELD and not LIVE_MENTION.search(text)
    assert text.count("(red)") == 1 and "\\" not in text


def test_the_rules_brief_points_to_the_full_rule_book() -> None:
    assert "`docs/stack-rules.md`" in RULES_BRIEF


# ------------------------------------------------------------------ through the bot


async def test_a_refusal_echoes_at_most_forty_characters_of_what_was_typed(world: World) -> None:
    typed = "@everyone <@&123456789012345678> " + "x" * 1900
    result = await world.admin.slash(
        world.channel, "houserules set", key="capture_penalty", value=typed
    )
    content = result.response.content
    assert result.ephemeral and len(content) <= 100
    assert content.startswith("`capture_penalty` is on or off, not '") and content.endswith("…'.")
    assert not LIVE_MENTION.search(content)


async def test_a_number_refusal_echo_is_cut_too(world: World) -> None:
    result = await world.admin.slash(
        world.channel, "houserules set", key="target_score", value="9" * 4301
    )
    content = result.response.content
    assert result.ephemeral and len(content) <= 100 and content.endswith("…'.")


async def test_stats_escapes_the_display_name(world: World) -> None:
    nick = "<@&123456789012345678>__x__"
    member = world.guild.add_member(world.env.create_user("mallory"), nick=nick)
    result = await member.slash(world.channel, "stats")
    content = result.response.content
    assert not LIVE_MENTION.search(content)
    assert escape_name(nick) in content and "has not finished a game" in content


def finished_round(dice: int, seed: int) -> StackState:
    """8 seats of long names whose first round has just ended."""
    state = StackState(long_names(), StackRules(dice_per_player=dice, four_high_bonus=True))
    rng = random.Random(seed)
    while not state.round_scores:
        one_step(state, rng, RandomPlayer())
    return state


# ------------------------------------------------------------------ refused moves' words

WEIRD = "**@everyone** <@123>_||sp||\u202e"


def test_a_refused_stack_move_shows_the_names_and_what_was_typed_as_they_are() -> None:
    """Stack's refusal (an unknown player) lists the seated names and echoes what was
    typed: escaped, with the sentence's own code (``/stack``) still code."""
    state = StackState(("ann", WEIRD), StackRules())
    state.resolve_chance(random.Random(1))
    with pytest.raises(errors.MoveError) as refused:
        parse_stack_move(state, "stack 2 on <@&77>__x__", state.current)
    said = STACK.refusal_words(refused.value)
    assert not LIVE_MENTION.search(said) and "\u202e" not in said
    shown = discord_shows(said)
    assert "'<@&77>__x__'" in shown and "ann, **@everyone** <@123>_||sp||)" in shown, said


def test_a_refused_stack_up_move_keeps_its_code_and_escapes_the_rest() -> None:
    """Stack Up!'s words for a play before the direction: its own code (`up`) stays code."""
    game = hosted.get("stackup")
    state = game.game.new_state(["ann", WEIRD], game.game.settings())
    settle(game.game, state, random.Random(3))
    with pytest.raises(errors.MoveError) as refused:
        parse_stackup_move(state, "r1", state.current_player)
    said = game.refusal_words(refused.value)
    assert "`up`" in said and "`down`" in said and "\\`" not in said, said


@given(
    st.text(alphabet="ab <>@&#!_*~|`-[]()\\.:/1 \u202e\ue000\ue001\"'ˋ", min_size=1, max_size=20)
)
def test_prose_with_a_name_in_it_mentions_nobody_and_keeps_its_code(name: str) -> None:
    """A name (any characters, backticks too) in a sentence with code: the name shows as
    it is (its backticks as look-alikes that start no code), and the sentence's code stays
    code. (A name that is a piece of the sentence's own code cannot be told from it.)"""
    escaped = escape_prose(f"It's {name}'s turn: `place on NAME`, then {name}.", [name])
    outside = re.sub(r"(`+)[\s\S]*?[^`]\1(?!`)", "", escaped)  # what Discord shows as text
    assert not LIVE_MENTION.search(outside) and "\u202e" not in escaped
    assert "://" not in outside
    words = [w.strip("\"'“”‘’") for w in (name, *name.split())]
    words += re.findall(r"[\"“”]([^\"“”]+)[\"“”]", name)  # a quoted part: held as it is
    if any("`" in w and not w.replace("`", "").strip() for w in words):  # no code kept
        assert not re.search(r"(?<!\\)`", escaped.replace("\\\\", "")), escaped
    elif name.replace("`", "").strip() and name not in "`place on NAME`":
        assert "`place on NAME`" in escaped
        shown = name.replace("\u202e", "")
        assert discord_shows(escaped) == f"It's {shown}'s turn: `place on NAME`, then {shown}."


def test_a_backtick_in_a_word_of_what_was_typed_starts_no_code() -> None:
    """The game quotes one word of what was typed: that word's backtick is held too."""
    said = escape_prose("'p`' is not a card; choose `up` or `down`.", ["p` 3"])
    assert said == "'p\\`' is not a card; choose `up` or `down`."
    in_code = escape_prose("Type `stack 3 on a`b` now, a`b.", ["a`b"])
    assert in_code == f"Type `stack 3 on a{GRAVE}b` now, a\\`b."
    quoted = escape_prose("No player called 'x`y` z' (players: ann).", ['stack 4 on "x`y` z"'])
    assert quoted == "No player called 'x\\`y\\` z' (players: ann)."
    alone = escape_prose("'`' is not a card. Type cards by name (`r7 r8`).", ["`"])
    assert alone == "'\\`' is not a card. Type cards by name (\\`r7 r8\\`)."  # all as typed
    assert escape_prose(f"It's a{GRAVE}b's turn: `x`", [f"a{GRAVE}b"]) == (
        f"It's a{GRAVE}b's turn: `x`"  # a real look-alike stays one
    )


def test_move_buttons_tell_apart_players_whose_names_are_cut_alike() -> None:
    """Two names alike in their first 20 characters: their piles' buttons still differ
    (each owner's colour square is on the label)."""
    names = ("Tournament Player Number Alpha", "Tournament Player Number Bravo", "carol")
    rng = random.Random(5)
    for _ in range(200):
        state = StackState(names, StackRules())
        state.resolve_chance(rng)
        while state.decision is Decision.TURN:
            advice = advise(state)
            labels = [move_label(state, a) for a in advice]
            assert len(set(labels)) == len(labels), labels
            if {a.owner for a in advice} >= {0, 1}:
                return
            one_step(state, rng, RandomPlayer())
    raise AssertionError("no position offered piles of both long names")


def test_a_win_rate_is_rounded_half_up() -> None:
    assert [percent(w, g) for w, g in ((3, 7), (1, 6), (1, 2), (1, 8), (0, 0), (5, 5))] == [
        43, 17, 50, 13, 0, 100,
    ]  # fmt: skip


def test_cut_closes_an_isolate_it_cuts_open_before_the_mark() -> None:
    name = catalog.isolate("\u202eשלום עולם ארוך מאוד")
    label = cut(f"1. 12:00 · 🏆 {name} and more", 24)
    assert len(label) <= 24
    assert label.endswith(catalog.PDI + "…")
    assert label.count(catalog.FSI) == label.count(catalog.PDI)
    assert cut(f"ab{name}", 3) == "ab…"  # an isolate cut before it opens needs no close


def test_a_settings_refusal_cuts_a_whole_number_of_any_length() -> None:
    from pydantic import ValidationError

    from bot.refusal_words import settings_words
    from bot.text import ECHO_LIMIT
    from engine.stackup.rules import StackUpHouseRules

    with pytest.raises(ValidationError) as err:
        StackUpHouseRules.model_validate({"turn_limit": int("9" * 1990)})
    said = settings_words(err.value)
    assert said == f"`turn_limit` must be at most 10000, not {'9' * (ECHO_LIMIT - 1)}…"


@given(st.text(alphabet=st.characters(blacklist_categories=("Cc", "Cf", "Cs", "Zl", "Zp"))))
@example("cool_guy *stacked* [a](https://e.vil) `x` <@123> @everyone \\_ > # 1. ~~s~~ ||p||")
def test_text_escaped_for_discord_reads_back_as_itself_unescaped(text: str) -> None:
    from bot.text import escape_text, unescape_text

    assert unescape_text(escape_text(text)) == text
