"""Stack Up!'s Discord words in Japanese: the lobby, the rules, a refused typed play, the
end of a game, /scores and the channel's history — each in the language being spoken,
with names and typed notation as they are, and English exactly as before."""

from __future__ import annotations

import random
import re
from datetime import UTC, datetime

import pytest

import catalog
from bot.games.stackup.game import DISCORD_GAME
from bot.text import MESSAGE_LIMIT
from engine.echo import cut
from engine.errors import MoveError
from engine.game import Decision
from engine.stackup.notation import parse_move
from engine.stackup.rules import StackUpSettings
from engine.stackup.state import StackUpState
from persistence.records import GameSummary, ScoreSheet
from tests.engine.stackup.situations import table

NAMES = ("ann", "ben", "cat")
# English left in a Japanese text: only commands, names, cards and the notation's words
ENGLISH = re.compile(r"[A-Za-z]{3,}")
KEPT = re.compile(
    r"`[^`]*`|「[^」]*」|(?<![A-Za-z])(?:ann|ben|cat|Discord)(?![A-Za-z])|[RBYG]\d{1,2}"
)


def english_words(text: str) -> list[str]:
    return ENGLISH.findall(KEPT.sub("", text))


def finished(seed: int = 3) -> StackUpState:
    rng = random.Random(seed)
    state = StackUpState(NAMES, StackUpSettings(turn_limit=40))
    while not state.is_over:
        if state.decision is Decision.CHANCE:
            state.apply(state.sample_chance(rng))
        else:
            state.apply(rng.choice(state.legal_moves()))
    return state


def test_the_lobby_and_the_rules_in_japanese_fit_a_message() -> None:
    with catalog.speaking("ja"):
        lobby = DISCORD_GAME.lobby_summary(StackUpSettings(turn_limit=200))
    assert lobby == [
        "スタックアップ！ · 2〜6人 · 手札10枚 · 先に手札をなくした人の勝ち",
        "200ターンで終了します（手札が最も少ない人の勝ち）。",
    ]
    brief = DISCORD_GAME.rules_brief("ja")
    assert len(brief) <= MESSAGE_LIMIT and "…" not in brief[-20:]
    assert brief.startswith("**スタックアップ！**")
    for typed in ("`/table new", "/play R7 R8 R9 skip", "/play switch blue", "/play snatch @bob 2"):
        assert typed in brief
    assert "**手札**" in brief
    assert not english_words(brief), english_words(brief)
    english = DISCORD_GAME.rules_brief("en-US")
    assert english.startswith("**Stack Up!** (2–6 players") and "My hand" in english
    with catalog.speaking("ja"):
        assert DISCORD_GAME.rules_brief() == brief  # no locale: the language spoken


@pytest.mark.parametrize("typed", ["R99", "switch", "snatch zed 1", "flip r7", "r7 r8 r9 skip"])
def test_a_refused_typed_play_is_said_in_japanese(typed: str) -> None:
    state = StackUpState(NAMES, StackUpSettings())
    rng = random.Random(1)
    while state.decision is Decision.CHANCE or state.phase == "direction":
        if state.decision is Decision.CHANCE:
            state.apply(state.sample_chance(rng))
        else:
            state.apply(state.legal_moves()[0])
    try:
        parse_move(state, typed, state.current_player)
    except MoveError as err:
        message = str(err)
        english = DISCORD_GAME.refusal_words(err)
        with catalog.speaking("ja"):
            said = DISCORD_GAME.refusal_words(err)
    else:
        pytest.skip("a legal play here")
    assert english.replace("\\", "") == message
    assert said != english and not english_words(said), said


def test_a_refused_typed_play_quotes_it_in_corner_brackets_escaped_for_discord() -> None:
    state = StackUpState(NAMES, StackUpSettings())
    rng = random.Random(1)
    while state.decision is Decision.CHANCE:
        state.apply(state.sample_chance(rng))
    typed = "snatch *zed* 1"
    with pytest.raises(MoveError) as caught:
        parse_move(state, typed, state.current_player)
    english = DISCORD_GAME.refusal_words(caught.value, [typed])
    with catalog.speaking("ja"):
        said = DISCORD_GAME.refusal_words(caught.value, [typed])
    assert english.startswith("There's no player called '\\*zed\\*' at this table")
    assert said.startswith("この卓に「\\*zed\\*」というプレイヤーはいません"), said
    assert "'" not in said, said


def test_the_end_of_a_game_in_japanese() -> None:
    state = finished()
    with catalog.speaking("ja"):
        [text] = DISCORD_GAME.game_end_texts(state)
        line = DISCORD_GAME.end_line(state)
    assert text.startswith("🏆 ") and "残り札：" in text
    assert line.startswith("🏆 ") and "勝" in line
    assert not english_words(text) and not english_words(line), (text, line)
    [english] = DISCORD_GAME.game_end_texts(state)
    assert "Cards left: " in english


def test_scores_and_history_in_japanese() -> None:
    sheet = ScoreSheet(1, NAMES, (), (0, 4, 2), 0, True, ("ann",), "stackup")
    running = ScoreSheet(1, NAMES, (), (0, 0, 0), 0, False, None, "stackup")
    summary = GameSummary(
        1, datetime(2026, 11, 1, tzinfo=UTC), 0, NAMES, (0, 4, 2), ("ann",), "stackup",
        "empty_hand", False,
    )  # fmt: skip
    assert DISCORD_GAME.score_text(sheet) == (
        "**Stack Up!** · 🏆 **ann** wins by playing every card.\n"
        "Cards left: ann 0 cards, ben 4 cards, cat 2 cards."
    )
    with catalog.speaking("ja"):
        over = DISCORD_GAME.score_text(sheet)
        on = DISCORD_GAME.score_text(running)
        history = DISCORD_GAME.history_line(1, summary)
        shown = DISCORD_GAME.score_text(running, finished(5))
    assert over == (
        "**スタックアップ！** · 🏆 **ann**の勝ち（すべての札を出し切りました）。\n"
        "残り札：ann 0枚、ben 4枚、cat 2枚。"
    )
    assert on.startswith("**スタックアップ！** · ann、ben、cat：ゲーム中です。")
    # won at the turn limit with cards left: how, without parentheses inside parentheses
    limit = ScoreSheet(1, NAMES, (), (3, 2, 2), 0, True, ("ben", "cat"), "stackup")
    with catalog.speaking("ja"):
        shared = DISCORD_GAME.score_text(limit)
    assert shared.startswith(
        "**スタックアップ！** · 🏆 **ben**、**cat**が勝利を分け合いました（残り札2枚で最少）。\n"
    ), shared
    assert "手札を出し切った" in history and "残り札" in history
    assert shown.startswith("**スタックアップ！**")
    assert DISCORD_GAME.figure_name == ("card left", "cards left")
    with catalog.speaking("ja"):
        assert DISCORD_GAME.figure_name == ("残り札", "残り札")
        assert DISCORD_GAME.private_button.label == "手札"
    assert DISCORD_GAME.private_button.label == "My hand"


@pytest.mark.parametrize("count", ["99999999999999", "12345" * 16])
def test_a_snatch_count_too_big_is_said_in_japanese_as_typed(count: str) -> None:
    state = table("Snatch R9", "G1 G2 G3 G4", "Y1 Y2 Y3", players=NAMES)
    with pytest.raises(MoveError) as caught:
        parse_move(state, f"snatch ben {count}", 0)
    with catalog.speaking("ja"):
        said = DISCORD_GAME.refusal_words(caught.value)
    assert said == f"ben（手札4枚）からスナッチできるのは1〜3枚です。{cut(count)}枚は取れません。"
