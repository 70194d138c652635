"""The information and table commands in Japanese (issue 21): each answer to a ``ja``
client is worded from the catalog in Japanese (``/rules``, ``/houserules``, ``/scores``,
``/table new``'s refusal of another game's option), a story refusal is said in the
language of whoever clicked, the channel's history and the score sheet read in Japanese,
and a score sheet's columns line up by display width with Japanese names and headers."""

from __future__ import annotations

import re
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import UTC, datetime
from typing import Any

import pytest
import simcord.interactions

import catalog
from bot import games
from bot.cogs.info import duration_words, key_words, long_duration
from bot.sheets import SHEET_NAME, score_sheet_text, sheet_lines, summary_line
from bot.story import GONE, StoryRefusal
from catalog import width as display_width
from persistence.records import GameSummary, ScoreSheet
from tests.bot.conftest import World, drawings
from tests.bot.test_ratings_discord import games_played


@contextmanager
def ja_clients(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """Every client is a ``ja`` client (simcord's interactions say ``en-US``), and the
    test speaks Japanese around them (the language the bot sets from the locale)."""
    build = simcord.interactions.base_payload

    def ja_payload(*args: Any, **kwargs: Any) -> Any:
        record, payload = build(*args, **kwargs)
        payload["locale"] = "ja"
        return record, payload

    with monkeypatch.context() as patched, catalog.speaking("ja"):
        patched.setattr(simcord.interactions, "base_payload", ja_payload)
        yield


@pytest.fixture
def japanese(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    with ja_clients(monkeypatch):
        yield


async def said(actor: Any, world: World, command: str, **options: Any) -> str:
    result = await actor.slash(world.channel, command, **options)
    assert result.ephemeral, result.response.content
    return str(result.response.content)


def no_english_sentence(text: str) -> bool:
    """No run of two English words outside backticks (keys, commands and values stay) and
    the games' names."""
    bare = re.sub(r"`[^`]*`|Stack Up!|Color Stack", "", text)
    return re.search(r"[A-Za-z]{2,}\s+[A-Za-z]{2,}", bare) is None


# ---------------------------------------------------------------------------- answers


async def test_houserules_answer_a_japanese_client_in_japanese(
    world: World, japanese: None
) -> None:
    shown = await said(world.admin, world, "houserules show")
    ours = shown.splitlines()[-5:]  # above: the game's own settings_text
    assert ours[:4] == [
        "`turn_timer` = 120秒",
        "`lobby_timeout` = 1時間（サーバー）",
        "`idle_timeout` = 1日（サーバー）",
        "`theme` = `dark`（サーバー：画像のテーマ）",
    ]
    assert ours[4].startswith("`language` = ")
    done = await said(world.admin, world, "houserules set", key="turn_timer", value="90")
    assert done == "このサーバーの手番の制限時間：90秒。次の手番から適用されます。"
    short = await said(world.admin, world, "houserules set", key="turn_timer", value="5")
    assert short.startswith("手番の制限時間は off（0）か 15秒以上です。")
    here = await said(world.admin, world, "houserules set", key="theme", value="light", here=True)
    assert here == "`theme` はサーバー全体の設定です。`here` を付けずに設定してください。"
    wrong = await said(world.admin, world, "houserules set", key="chess", value="1")
    assert wrong.startswith(
        "スタックに「chess」というハウスルールはありません。スタックのハウスルール："
    )
    assert (
        "全ゲーム共通：`turn_timer`、`lobby_timeout`、`idle_timeout`、`theme`、`language`。"
        in wrong
    )
    limit = await said(
        world.admin, world, "houserules set", game="stackup", key="turn_limit", value="40"
    )
    assert limit == (
        "このサーバーの `turn_limit` を 40 にしました。これから開くスタックアップ！の卓に適用されます。"
    )
    number = await said(world.admin, world, "houserules set", key="turn_timer", value="soon")
    assert number == (
        "`turn_timer` には秒数（90）、時間（2m、1m30s）または off を指定してください"
        "（「soon」は使えません）。"
    )
    long = await said(world.admin, world, "houserules set", key="idle_timeout", value="90d")
    assert long == "idle_timeout は 1時間から30日まで（3600〜2592000秒）です。"
    reset = await said(world.admin, world, "houserules reset")
    assert reset == (
        "このサーバーのスタックのハウスルールを初期設定に戻しました。"
        "全ゲーム共通の手番の制限時間も初期設定に戻りました：120秒。"
    )
    for text in (*ours, done, short, here, limit, number, long, reset):
        assert no_english_sentence(text), text


async def test_a_member_without_manage_server_is_refused_in_japanese(
    world: World, japanese: None
) -> None:
    commands = await world.bot.tree.fetch_commands()
    houserules = next(c for c in commands if c.name == "houserules")
    world.guild.set_command_permissions(houserules, {world.bob: True})
    refused = await said(world.bob, world, "houserules set", key="target_score", value="5")
    assert refused == "ハウスルールを変更できるのは **サーバー管理** 権限を持つメンバーだけです。"


async def test_rules_and_scores_answer_a_japanese_client_in_japanese(
    world: World, japanese: None
) -> None:
    await said(world.admin, world, "houserules set", key="turn_timer", value="60")
    rules = await said(world.alice, world, "rules")
    assert rules.endswith("\n手番の制限時間：60秒")
    scores = await said(world.alice, world, "scores")
    assert scores == "このチャンネルには、進行中のゲームも終わったゲームもまだありません。"


async def test_an_option_of_another_game_is_refused_in_japanese(
    world: World, japanese: None
) -> None:
    refused = await world.alice.slash(world.channel, "table new", game="stackup", target=100)
    assert refused.ephemeral
    text = str(refused.response.content)
    # a game's title runs into its particles, as Japanese writes a word (no spaces)
    assert (
        text
        == "`target` はスタックのオプションです。スタックアップ！で使えるオプションは `turn_limit` です。"
    )
    assert no_english_sentence(text), text


async def test_stats_answer_a_japanese_client_in_japanese(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    await games_played(world, 2)
    jobs = drawings(world, monkeypatch)
    with ja_clients(monkeypatch):
        shown = (await world.alice.slash(world.channel, "stats")).response
    assert "\nレーティング：**" in shown.content and "（レーティング対象2戦）" in shown.content
    assert [a.filename for a in shown.attachments] == ["stats.png", "rating.png"]
    # the charts name the game in the client's language
    assert [(job.name, job.game) for job in jobs] == [("alice", "スタック")] * 2
    bars = shown.attachments[0].description
    assert bars.startswith("aliceのスタックの直近2ゲームの棒グラフ（古い順）："), bars
    alt = shown.attachments[1].description
    assert alt.startswith("aliceのスタックでの直近2回のレーティング対象ゲームごとの"), alt


async def test_an_ai_levels_stats_answer_a_japanese_client_in_japanese(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    opened = await world.alice.slash(world.channel, "table new", game="colorstack")
    await world.alice.slash(world.channel, "table addbot", level="greedy")
    await world.alice.click(opened.response, label="Start")
    await world.alice.slash(world.channel, "table leave")
    with ja_clients(monkeypatch):
        shown = await world.bob.slash(world.channel, "stats", ai="greedy", game="colorstack")
        unrated = await said(world.bob, world, "stats", ai="expert")
        both = await said(world.bob, world, "stats", player=world.alice, ai="greedy")
    text = str(shown.response.content)
    assert text.startswith("このサーバーのカラースタックでの**AI（ふつう）**"), text
    assert "\nカラースタックで最後まで終えたゲームはまだありません。" in text
    assert "\nレーティング：**" in text and "（レーティング対象1戦）" in text
    assert unrated == (
        "AI（つよい）はこのサーバーのスタックで、終了したゲームもレーティング対象のゲームもまだありません。"
    )
    assert both.startswith("プレイヤーの戦績かAIレベルの戦績か")


def test_the_same_answers_stay_in_english_for_everyone_else() -> None:
    assert duration_words(7200) == "2h" and long_duration(60) == "1 minute"
    with catalog.speaking("ja"):
        assert duration_words(7200) == "2時間" and long_duration(604800) == "7日"


# ---------------------------------------------------------------------------- story


def test_a_story_refusal_is_said_in_the_language_where_it_is_raised() -> None:
    assert str(StoryRefusal(GONE)) == "That game is no longer stored, so there is nothing to show."
    with catalog.speaking("ja"):
        assert str(StoryRefusal(GONE)) == (
            "そのゲームはもう保存されていないため、表示できるものがありません。"
        )
        assert "Color Stack" in str(StoryRefusal("info.story.running", game="Color Stack"))
    assert str(StoryRefusal("Round 7 is not over.")) == "Round 7 is not over."  # words as given


def summary(**fields: Any) -> GameSummary:
    base: dict[str, Any] = {
        "table_id": 1,
        "finished_at": datetime(2026, 11, 26, tzinfo=UTC),
        "players": ("先手太郎", "bob"),
        "totals": (3, 0),
        "winners": (),
        "rounds_played": 2,
        "ended_by": "turn_limit",
    }
    return GameSummary(**{**base, **fields})


def test_the_channels_history_reads_in_japanese() -> None:
    drawn, won = summary(), summary(winners=("先手太郎",), ended_by="resignation")
    assert summary_line(1, drawn, "cards left") == (
        "**1.** 2026-11-26 · 2 rounds · 🤝 draw at the turn limit · cards left: 先手太郎 3, bob 0"
    )
    with catalog.speaking("ja"):
        assert summary_line(1, drawn, "残り枚数") == (
            "**1.** 2026-11-26 · 2ラウンド · 🤝 引き分け（手数の上限） · 残り枚数：先手太郎 3、bob 0"
        )
        assert "🏆 先手太郎（投了）" in summary_line(2, won, "残り枚数")


WIDE_NAME = "李小龍" * 10 + "ab"  # 32 characters, 30 of them wide: 62 columns
LATIN_NAME = "Bartholomew_the_Great_of_Stacks_"  # 32 characters


@pytest.mark.parametrize("language", catalog.LANGUAGES)
def test_names_in_history_and_leaderboard_lines_are_cut_by_display_width(language: str) -> None:
    # a line of markdown is not monospaced, but a Japanese or Chinese character takes
    # about twice a Latin letter's room: cut by characters, a wide name took twice the
    # line; cut by columns (two a wide character), it takes about as much as a Latin one
    from bot.render import rating_board_text
    from persistence.records import Rating, RatingRow

    game = summary(players=(WIDE_NAME, LATIN_NAME), totals=(3, 0))
    rows = [RatingRow(1, Rating(WIDE_NAME, 30.0, 2.0, 40)), RatingRow(2, Rating(LATIN_NAME, 29.0, 2.0, 40))]  # fmt: skip
    with catalog.speaking(language):
        line = summary_line(1, game, "cards left")
        board = rating_board_text(rows, 5, "Stack")
    # the history's 16 columns: 7 wide characters and …; a Latin name 15 and … as before
    assert f"{WIDE_NAME[:7]}…" in line and WIDE_NAME[:8] not in line
    assert "Bartholomew\\_the…" in line
    # the leaderboard's 32 columns: 15 wide characters and …; a Latin name whole
    assert f"{WIDE_NAME[:15]}…" in board and WIDE_NAME[:16] not in board
    assert "Bartholomew\\_the\\_Great\\_of\\_Stacks\\_" in board


# ---------------------------------------------------------------------------- sheets


def column_ends(row: str) -> list[int]:
    """Where each cell of a code block's row ends, in display columns."""
    return [display_width(row[: m.end()]) for m in re.finditer(r"\S+", row)]


@pytest.mark.parametrize("language", catalog.LANGUAGES)
def test_a_score_sheets_columns_line_up_by_display_width(language: str) -> None:
    names = ["先手の山田太郎", "bob", "ゆき"]
    rounds = [[12, 0, 5], [100, 7, 0], [3, 3, 3]]
    with catalog.speaking(language):
        lines = sheet_lines(names, rounds, [115, 10, 8])
    header, *players = lines[1:-1]  # inside the code block
    assert len(players) == len(names)
    ends = column_ends(header)  # R1 R2 R3 Total
    assert len(ends) == len(rounds) + 1
    for row in players:
        name_end, *cells = column_ends(row)
        assert name_end == display_width("先手の山田太郎") or row.startswith(("bob", "ゆき"))
        assert cells == ends, (language, lines)
    assert {display_width(row.split(" ")[0]) for row in players} <= {3, 4, 14}


LONG_LATIN = "Émile_le_très_long_nom_de_joueur"  # 32 characters, one column each
MIXED = (
    "李小龍李小龍李小龍李小龍李小龍李小龍李小龍李小龍李小龍李小龍李",  # 31 wide characters
    "ボブ Bob ボブ Bob ボブ Bob ボブ Bob",
    "山田taro山田taro山田taro山田taro",
    "ａｂｃｄｅｆｇｈｉｊｋｌｍｎｏｐ",  # full-width Latin
    "👨‍👩‍👧‍👦 famille 👍🏽 e\u0301e\u0301 李小龍",
)


@pytest.mark.parametrize("language", catalog.LANGUAGES)
def test_wide_names_make_a_score_sheet_no_wider_than_latin_ones(language: str) -> None:
    # a history button's game, /scores: a name is cut to the name column by display
    # width (a Japanese character two columns), so a 32-character Japanese name takes
    # no more room than a Latin one, and every row still lines up
    rounds = [[7 * (seat + 1) + r for seat in range(len(MIXED) + 1)] for r in range(12)]
    totals = [sum(r[seat] for r in rounds) for seat in range(len(MIXED) + 1)]
    with catalog.speaking(language):
        latin = sheet_lines([LONG_LATIN, *["x" * 32] * len(MIXED)], rounds, totals)
        mixed = sheet_lines([LONG_LATIN, *MIXED], rounds, totals)
    start = mixed.index("```")
    header, *players = mixed[start + 1 : -1]
    widest = max(display_width(row) for row in latin[start + 1 : -1])
    ends = column_ends(header)
    for name, row in zip([LONG_LATIN, *MIXED], players, strict=True):
        label = row.rsplit(maxsplit=len(ends))[0]  # the row without its cells
        assert display_width(label) <= SHEET_NAME, (name, label)
        assert label.endswith("…") and label.removesuffix("…").rstrip() == label[:-1]
        assert column_ends(row)[-len(ends) :] == ends, (language, row)
        assert display_width(row) <= widest, (name, row)


def test_a_score_sheet_reads_in_japanese() -> None:
    sheet = ScoreSheet(
        table_id=1,
        names=("先手", "bob"),
        rounds=((5, 3),),
        totals=(5, 3),
        target_score=0,
        finished=True,
        winners=("先手",),
    )
    with catalog.speaking("ja"):
        text = score_sheet_text(sheet)
    assert text.startswith("**スコア表**\n```")
    assert text.endswith("勝者：先手。")
    assert "合計" in text and "Total" not in text


def test_every_games_house_rules_are_described_in_the_catalog_as_in_their_settings() -> None:
    """``/houserules set``'s autocomplete says what each key is: in English the settings
    field's own description, word for word; in Japanese, from the catalog."""
    for played in games.all_games():
        for key, field in played.game.settings.model_fields.items():
            assert key_words(played, key) == field.description, (played.name, key)
            with catalog.speaking("ja"):
                words = key_words(played, key)
            assert words != field.description, (played.name, key)


async def test_a_house_rule_out_of_range_is_refused_in_japanese_with_its_range(
    world: World, japanese: None
) -> None:
    """The settings' own limits, said in Japanese (not the settings library's English)."""
    asked = {
        (
            "stack",
            "target_score",
            "0",
        ): "`target_score` には1以上を指定してください（0は使えません）。",
        ("stack", "dice_per_player", "31"): (
            "`dice_per_player` には30以下を指定してください（31は使えません）。"
        ),
        ("stack", "tie_break", "sudden"): (
            "`tie_break` には `extra_round` または `shared` のいずれかを指定してください"
            "（「sudden」は使えません）。"
        ),
        ("colorstack", "board", "huge"): (
            "`board` には `light` または `heavy` のいずれかを指定してください"
            "（「huge」は使えません）。"
        ),
    }
    for (game, key, value), expected in asked.items():
        refused = await said(world.admin, world, "houserules set", game=game, key=key, value=value)
        assert refused == expected and no_english_sentence(refused), refused


async def test_what_was_typed_is_quoted_in_corner_brackets_and_escaped_in_japanese(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    """/houserules set quotes a key or a value it refuses as typed, escaped for Discord:
    'in ASCII quotes' in English, 「in corner brackets」 in Japanese."""
    asked = [
        ({"key": "*chess*", "value": "1"}, "'\\*chess\\*'", "「\\*chess\\*」というハウスルール"),
        (
            {"key": "turn_timer", "value": "_soon_"},
            "not '\\_soon\\_'.",
            "（「\\_soon\\_」は使えません）",
        ),
        ({"key": "theme", "value": "grey"}, "not 'grey'.", "（「grey」は使えません）"),
        (
            {"key": "tie_break", "value": "<@1>"},
            "not '\\<\u200b@\u200b1>'",
            "（「\\<\u200b@\u200b1>」は",
        ),
    ]
    for options, english, _ in asked:
        refused = await said(world.admin, world, "houserules set", **options)
        assert english in refused, refused
    with ja_clients(monkeypatch):
        for options, _, japanese in asked:
            refused = await said(world.admin, world, "houserules set", **options)
            assert japanese in refused and not re.search("['\"]", refused), refused


async def test_a_full_color_stack_table_is_named_in_japanese(world: World, japanese: None) -> None:
    """A Japanese player pressing **Join** at a full Color Stack table reads the game's
    Japanese name (the host names it by its engine's English title)."""
    opened = await world.alice.slash(world.channel, "table new", game="colorstack")
    await world.bob.click(opened.response, label="Join")
    full = await world.carol.click(opened.response, label="Join")
    assert full.ephemeral
    assert full.response.content == "カラースタックは2人で遊ぶゲームです。卓は満席です。"


async def test_a_teams_table_of_three_is_refused_at_start_in_japanese(
    world: World, japanese: None
) -> None:
    """Start at a Stack table in teams with three players: the engine's reason (said in
    English) reaches a Japanese host in Japanese."""
    opened = await world.alice.slash(world.channel, "table new", teams=True)
    for player in (world.bob, world.carol):
        await player.click(opened.response, label="Join")
    started = await world.alice.click(opened.response, label="Start")
    assert started.ephemeral
    assert started.response.content == "チーム戦は4人以上の偶数人で遊びます（今は3人です）。"


async def test_a_tables_options_and_the_servers_overridden_values_read_as_the_house_rules(
    world: World, japanese: None
) -> None:
    """/rules' line of the channel's table's options and /houserules show's line of the
    server's values a channel overrides write each setting as the house rules above them
    do (`key` = `value`, the value in code too in Japanese), joined by 、 (not ", ")."""
    await said(world.admin, world, "houserules set", key="tie_break", value="shared", here=True)
    await said(world.admin, world, "houserules set", key="target_score", value="150", here=True)
    shown = await said(world.admin, world, "houserules show")
    assert "\n`target_score` = `150`\n" in shown, shown  # the house rules, as they are
    assert (
        "-# ここで上書きされているサーバーの値：`target_score` = `200`、`tie_break` = `extra_round`"
        in shown
    ), shown
    opened = await world.alice.slash(world.channel, "table new", target=30, dice=3)
    assert not opened.ephemeral, opened.response.content
    rules = await said(world.alice, world, "rules")
    assert rules.endswith("\nこのチャンネルの卓：`target_score` = `30`、`dice_per_player` = `3`"), (
        rules
    )
