"""`stackbot play` Stack in Japanese: what terminal/stack.py prints reads in Japanese when
Japanese is spoken (names and typed notation as they are), and in English as before."""

from __future__ import annotations

import catalog
from engine.stack.rules import StackRules
from tests.terminal.helpers import typed_game

LINES = ["dance", "stack 9 on AI 1", "help", "scores"]
LINES += ["reroll 1", "reroll 2", "reroll 3", "reroll 4", "reroll 5", "reroll 6"] * 40
LINES += ["quit"]


def _play() -> tuple[int, str]:
    rules = StackRules(dice_per_player=4, target_score=30)
    return typed_game(["alice"], 1, "\n".join(LINES) + "\n", seed=3, level="greedy", rules=rules)


def test_a_stack_session_at_the_terminal_reads_in_japanese() -> None:
    with catalog.speaking("ja"):
        code, out = _play()
    assert code == 0
    assert "スタック：alice、AI 1。30点先取で勝ちです。" in out
    assert "先手決めのロール（1が最強）" in out
    assert "=== 第1ラウンド：全員がダイスを振ります。" in out
    assert "コマンド：\n  stack V on NAME [HEIGHT]" in out  # help: the commands as typed
    # (a refusal is printed by terminal/table.py, with catalog.games.words("stack"))
    assert "alice：" in out and "を振り直して" in out  # her turns, in words
    assert "第1ラウンド" in out and "合計" in out  # the field and the score sheet
    for english in ("Round ", "alice: ", "Commands:", "First to", "goes first", "Last:"):
        assert english not in out, english


def test_a_finished_game_at_the_terminal_says_who_won_in_japanese() -> None:
    rules = StackRules(dice_per_player=3, target_score=15)
    with catalog.speaking("ja"):
        code, out = typed_game([], 3, "", seed=5, level="greedy", rules=rules)
    assert code == 0
    assert "=== ゲーム終了。" in out and "勝者：" in out and "ラウンド終了。" in out
    assert "（AI）：" in out


def test_each_round_and_the_game_over_line_follow_a_blank_line_in_both_languages() -> None:
    rules = StackRules(dice_per_player=3, target_score=15)
    for language in ("en", "ja"):
        with catalog.speaking(language):
            code, out = typed_game([], 3, "", seed=5, level="greedy", rules=rules)
        assert code == 0
        lines = out.splitlines()
        headings = [i for i, line in enumerate(lines) if line.startswith("=== ")]
        assert len(headings) >= 3, language  # a round, its end, the game's end
        assert all(lines[i - 1] == "" for i in headings), language


def test_the_same_session_in_english_is_worded_as_before() -> None:
    code, out = _play()
    assert code == 0
    assert "Stack: alice, AI 1. First to 30 wins." in out
    assert "Commands:" in out and "alice: rerolled" in out


def test_stacks_help_names_show_which_it_reads_in_both_languages() -> None:
    # `show` draws the field again (as in the other games, whose help says so): Stack's
    # help listed hint, scores, help and quit only
    for language, line in (("en", "the table again"), ("ja", "卓をもう一度表示")):
        with catalog.speaking(language):
            code, out = typed_game(
                ["alice"], 1, "help\nshow\nquit\n", seed=5, level="greedy", rules=StackRules()
            )
        assert code == 0
        listed = [x.split() for x in out.splitlines() if x.startswith("  show ")]
        assert listed and " ".join(listed[0][1:]) == line, language
