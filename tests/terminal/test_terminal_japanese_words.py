"""`stackbot play --lang ja`: Stack Up! and Color Stack's table, rules and end, start-up
errors (the engine's setup refusals, bad option values, argparse's), the winner line, the
quit line, the hot-seat prompt and a failed --export are said in Japanese; English stays."""

from __future__ import annotations

import io
import re
from pathlib import Path
from typing import Any

import pytest

import catalog
from bot.cli import main
from engine.stack.rules import StackRules
from terminal.table import play
from terminal.words import setup_error_text, validation_text

TYPED = "help\nshow\nquit\n"


def _play(lang: str, *humans: str, bots: int = 1, typed: str = TYPED, **kw: Any) -> str:
    """What the game printed, and after it what it said on stderr."""
    out, err = io.StringIO(), io.StringIO()
    if kw.get("game", "stack") == "stack":
        kw["rules"] = StackRules(target_score=40)
    with catalog.speaking(lang):
        play(
            list(humans),
            bots,
            seed=3,
            level="greedy",
            stdin=io.StringIO(typed),
            stdout=out,
            stderr=err,
            **kw,
        )
    return out.getvalue() + err.getvalue()


@pytest.mark.parametrize("game", ["stackup", "colorstack"])
def test_the_table_and_the_rules_are_japanese(game: str) -> None:
    out = _play("ja", "はな", game=game)
    for english in ("How to type a move", "Your hand", "Draw pile", "Turns:", "to play", "Stack:"):
        assert english not in out, english
    assert "ゲームを中断しました（quit と入力）。" in out
    assert "：" in out.splitlines()[0]  # the start line's full-width colon


@pytest.mark.parametrize("game", ["stackup", "colorstack"])
def test_a_finished_game_ends_in_japanese(game: str) -> None:
    out = _play("ja", bots=2, game=game, settings={"turn_limit": 30})
    assert "Turn limit" not in out and "resigned" not in out and " & " not in out
    assert "勝者：" in out or "引き分け（" in out
    assert re.search(r"勝者：AI \d(、AI \d)*\n", out) or "引き分け（" in out


def test_the_stack_quit_line_reads_like_the_others() -> None:
    out = _play("ja", "はな", typed="quit\n")
    assert out.endswith("ゲームを中断しました（quit と入力）。\n")
    assert "ゲーム中断:" not in out
    assert _play("en", "ann", typed="quit\n").endswith("Game abandoned: you quit.\n")


@pytest.mark.parametrize(
    ("text", "ja", "en"),
    [
        ("Color Stack needs 2 to 2 players.", "カラースタックはちょうど2人で遊びます。",
         "Color Stack is for exactly 2 players."),
        ("Stack needs 2 to 8 players, not 0.", "スタックは2〜8人で遊びます（0人では遊べません）。",
         "Stack needs 2 to 8 players, not 0."),
        ("Every player needs a different name.", "プレイヤーの名前はそれぞれ違うものにしてください。",
         "Every player needs a different name."),
        ("Color Stack is for 2 players, not 3.", "カラースタックは2人で遊びます（3人では遊べません）。",
         "Color Stack is for 2 players, not 3."),
        ("Something new.", "Something new.", "Something new."),
    ],
)  # fmt: skip
def test_setup_errors_are_worded_from_their_facts(text: str, ja: str, en: str) -> None:
    with catalog.speaking("ja"):
        assert setup_error_text(text) == ja
    assert setup_error_text(text) == en


def test_validation_errors_keep_pydantics_english() -> None:
    from typing import Literal

    from pydantic import BaseModel, Field, ValidationError

    class Options(BaseModel):
        dice: int = Field(default=1, ge=1, le=30)
        board: Literal["light", "heavy"] = "light"

    for data in ({"dice": 99}, {"dice": 0}, {"dice": "x"}, {"board": "zz"}, {"dice": 1.5}):
        try:
            Options.model_validate(data)
        except ValidationError as err:
            first = err.errors()[0]
            assert validation_text(first) == first["msg"]
            with catalog.speaking("ja"):
                said = validation_text(first)
            assert "Input" not in said and said


def _cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str]:
    try:
        code = main(["play", "--lang", "ja", *argv])
    except SystemExit as end:
        code = int(end.code or 0)
    captured = capsys.readouterr()
    return code, captured.out + captured.err


def test_start_up_errors_are_japanese(capsys: pytest.CaptureFixture[str]) -> None:
    code, err = _cli(capsys, "--game", "colorstack", "--players", "a", "--bots", "2")
    assert code == 2 and "カラースタックは2人で遊びます（3人では遊べません）。" in err
    code, err = _cli(capsys, "--dice", "99", "--players", "a", "--bots", "1")
    assert code == 2 and "30以下にしてください" in err and "Input" not in err
    code, err = _cli(capsys, "--bots", "x")
    assert code == 2 and "--bots の値「x」は整数ではありません" in err and "invalid" not in err
    code, err = _cli(
        capsys, "--game", "colorstack", "--board", "zz", "--players", "a", "--bots", "1"
    )
    assert code == 2 and "`light`" in err and "Input" not in err


def test_a_target_above_the_tables_limit_is_refused_as_the_option_in_japanese(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, err = _cli(capsys, "--target", "20000", "--players", "a", "--bots", "1")
    assert code == 2
    assert (
        err
        == "stackbot play: --target の値「20000」が正しくありません：10000以下にしてください。\n"
    )


def test_play_help_gives_the_targets_range_in_both_languages(
    capsys: pytest.CaptureFixture[str],
) -> None:
    code, said = _cli(capsys, "--help")
    assert code == 0 and "ゲームが終わる点数（1〜10000）" in said
    with pytest.raises(SystemExit):
        main(["play", "--lang", "en", "--help"])
    assert "points that end the game (1 to 10000)" in capsys.readouterr().out


def test_export_into_a_missing_folder_is_one_line(tmp_path: Path) -> None:
    missing = tmp_path / "nowhere" / "game.json"
    for game in ("stack", "stackup", "colorstack"):
        out = _play("ja", bots=2, game=game, export=missing)
        assert "Traceback" not in out
        assert f"ゲームの記録を {missing} に書き出せません：フォルダがありません。" in out
        out = _play("en", bots=2, game=game, export=missing)
        assert f"cannot write the game record to {missing}: its folder does not exist." in out


def test_the_hot_seat_prompt_is_only_where_there_are_hands_and_plays_nothing() -> None:
    """Color Stack hides nothing: its players share the screen, no one looks away. Stack
    Up!'s hand waits behind Enter, and a move typed there is said not to be played."""
    out = _play("ja", "はな", "けん", bots=0, game="colorstack", typed="a1-a2\nquit\n")
    assert "Enter を押す" not in out and "手札" not in out and "はな> " in out
    out = _play("ja", "はな", "けん", bots=0, game="stackup", typed="up\nquit\n")
    assert "Enter を押すと手札を表示します" in out
    assert "（そこでは Enter だけを押してください。「up」は出していません。" in out


def test_what_was_typed_is_quoted_in_corner_brackets_in_japanese(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """argparse's refusals, a wrong option value and a move typed at the hot-seat prompt
    quote the text typed in 「…」 in Japanese, and as before in English."""
    said: dict[str, str] = {}
    for lang in ("ja", "en"):
        said[lang] = "\n".join(
            [
                _cli(capsys, "--lang", lang, "--bots", "it's")[1],
                _cli(capsys, "--lang", lang, "--game", "chess")[1],
                _play(lang, "a", game="colorstack", settings={"board": "zz"}),
                _play(lang, "はな", "けん", bots=0, game="stackup", typed="r7 r8\nquit\n"),
            ]
        )
    japanese = said["ja"]
    for quoted in (
        "--bots の値「it's」は整数ではありません",
        "--game に「chess」は選べません（選べるもの：`stack`、`stackup`、`colorstack`）",
        "board の値「zz」が正しくありません：",
        "（そこでは Enter だけを押してください。「r7 r8」は出していません。",
    ):
        assert quoted in japanese, japanese
    typed = r"(?:it's|chess|zz|r7 r8|stack)"
    assert not re.search(rf"['\"]{typed}|{typed}['\"]", japanese), japanese
    english = said["en"]
    for quoted in (
        'argument --bots: invalid int value: "it\'s"',
        "argument --game: invalid choice: 'chess' (choose from 'stack', 'stackup', 'colorstack')",
        "bad board 'zz': Input should be 'light' or 'heavy'",
        "(Only Enter there: 'r7 r8' was not played. Type your move now.)",
    ):
        assert quoted in english, english


def test_an_options_own_check_is_said_without_argparses_english_in_japanese(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """An option whose value its own check refuses (``--players ,``): argparse's "argument"
    stays out of the Japanese line, and English is argparse's own."""
    code, err = _cli(capsys, "--lang", "ja", "--players", ",")
    assert code == 2
    assert err.endswith(
        "stackbot play: エラー：--players：プレイヤーの名前をコンマ区切りで指定してください。\n"
    ), err
    assert "argument" not in err
    code, err = _cli(capsys, "--lang", "en", "--players", ",")
    assert err.endswith(
        "stackbot play: error: argument --players: give player names separated by commas.\n"
    ), err


def test_options_of_another_game_are_listed_apart_from_the_japanese_words(
    capsys: pytest.CaptureFixture[str],
) -> None:
    """Two options Stack does not have: spaced from または as from the sentence around them
    (--turn-limit または --board, not --turn-limitまたは--board); English as before."""
    _, err = _cli(capsys, "--lang", "ja", "--turn-limit", "5", "--board", "heavy")
    assert "スタックに --turn-limit または --board はありません" in err, err
    _, err = _cli(capsys, "--lang", "en", "--turn-limit", "5", "--board", "heavy")
    assert "Stack has no --turn-limit or --board (choose the game with --game)." in err, err
