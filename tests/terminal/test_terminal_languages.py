"""``stackbot play --lang ja`` (or ``LANG=ja_JP.UTF-8``): a whole game of every game typed at
the terminal, junk and hints included, said in Japanese; and every refusal and notice of
the host in both languages, the English as it always was."""

from __future__ import annotations

import io
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from pydantic import BaseModel, ConfigDict, ValidationError

import catalog
from bot.cli import main, play_language
from engine import games
from host.refusals import Refusal, Why
from host.words import Notice
from terminal import table
from terminal.words import NOTICES, WORDS, refusal_text

ROOT = Path(__file__).resolve().parents[2]
# the terminal's own English, which must never reach a player who reads Japanese
ENGLISH = (
    "Hint: ",
    "Commands besides moves",
    "Game abandoned",
    "Winner: ",
    "A draw (",
    "=== Game over.",
    "It's ",
    "press Enter",
)


class Typer(io.StringIO):
    """A player at the keyboard: the lines of ``junk`` first (once each), then the move the
    game's hint would play, each time asked. It reads the table of the terminal being
    played (:attr:`front`, set when the game starts)."""

    def __init__(self, junk: list[str]) -> None:
        super().__init__()
        self.junk = list(junk)
        self.front: Any = None
        self.moves = 0

    def readline(self, size: int | None = -1) -> str:
        if self.junk:
            return self.junk.pop(0) + "\n"
        state = self.front.state
        name = "stack" if self.front.__module__ == "terminal.stack" else self.front.game.name
        game = games.get(name)
        self.moves += 1
        return game.move_notation(state, game.hint(state)[0]) + "\n"


def play_typed(
    monkeypatch: pytest.MonkeyPatch, argv: list[str], junk: list[str]
) -> tuple[int, str, Typer]:
    """``stackbot play ARGV`` in this process, typed by a :class:`Typer`: the exit code,
    what the terminal printed, and the typer."""
    typer, out = Typer(junk), io.StringIO()
    started = table.Front.run

    def run(front: table.Front) -> int:
        typer.front = front
        return started(front)

    monkeypatch.setattr(table.Front, "run", run)
    monkeypatch.setattr(sys, "stdin", typer)
    monkeypatch.setattr(sys, "stdout", out)
    code = main(["play", *argv])
    return code, out.getvalue(), typer


JUNK = ["hint", "help", "show", "zzz nothing", "/hint"]
OPTIONS = {"stack": ["--target", "40"], "stackup": [], "colorstack": ["--turn-limit", "60"]}


@pytest.mark.parametrize("name", games.names())
def test_a_whole_game_typed_with_lang_ja_is_said_in_japanese(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    for variable in ("LC_ALL", "LC_MESSAGES", "LANG"):
        monkeypatch.setenv(variable, "en_US.UTF-8")  # --lang wins over the environment
    argv = ["--lang", "ja", "--game", name, "--players", "alice", "--bots", "1", "--seed", "3"]
    code, out, typer = play_typed(monkeypatch, [*argv, *OPTIONS[name]], JUNK)
    assert code == 0, out[-2000:]
    assert typer.front.state.is_over and typer.moves > 0
    assert out.count("ヒント：") >= 2  # asked for twice, the slash form too
    assert "Traceback" not in out
    for english in ENGLISH if name != "stack" else ("Hint: ",):
        assert english not in out, english
    if name != "stack":  # Stack's own table words are its front end's (terminal/stack.py)
        assert "手のほかに使えるコマンド：" in out
        assert "\n=== ゲーム終了。" in out
        assert "勝者：" in out or "引き分け（" in out
        assert "alice、AI 1。" in out or "AI 1、alice。" in out  # the players, listed


def test_a_whole_game_typed_under_lang_ja_jp_is_said_in_japanese(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv("LC_ALL", raising=False)
    monkeypatch.delenv("LC_MESSAGES", raising=False)
    monkeypatch.setenv("LANG", "ja_JP.UTF-8")
    argv = ["--game", "colorstack", "--players", "alice", "--bots", "1", "--turn-limit", "60"]
    code, out, _ = play_typed(monkeypatch, argv, ["hint", "quit"])
    assert code == 0
    assert "ヒント：" in out
    assert out.endswith("ゲームを中断しました（quit と入力）。\n")


def test_without_lang_or_a_japanese_locale_the_terminal_speaks_english(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    for variable in ("LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(variable, raising=False)
    monkeypatch.setenv("LANG", "C.UTF-8")
    argv = ["--game", "stackup", "--players", "alice", "--bots", "1"]
    code, out, _ = play_typed(monkeypatch, argv, ["hint", "help", "quit"])
    assert code == 0
    assert "Hint: " in out and "Commands besides moves:" in out
    assert out.endswith("Game abandoned: you quit.\n")


@pytest.mark.parametrize(
    ("argv", "environ", "language"),
    [
        ([], {}, "en"),
        ([], {"LANG": "ja_JP.UTF-8"}, "ja"),
        ([], {"LANG": "C"}, "en"),
        ([], {"LANG": "fr_FR.UTF-8"}, "en"),
        ([], {"LANG": "en_US.UTF-8", "LC_MESSAGES": "ja_JP.UTF-8"}, "ja"),
        ([], {"LC_ALL": "en_GB.UTF-8", "LC_MESSAGES": "ja_JP.UTF-8"}, "en"),
        (["--lang", "ja"], {"LANG": "en_US.UTF-8"}, "ja"),
        (["--lang=en"], {"LC_ALL": "ja_JP.UTF-8"}, "en"),
        (["--game", "stackup", "--lang", "ja"], {}, "ja"),
    ],
)
def test_the_play_language_is_lang_else_lc_all_lc_messages_lang_else_english(
    argv: list[str], environ: dict[str, str], language: str
) -> None:
    assert play_language(argv, environ) == language


def run_cli(args: list[str], **env: str) -> subprocess.CompletedProcess[str]:
    clean = {k: v for k, v in os.environ.items() if k not in ("LC_ALL", "LC_MESSAGES", "LANG")}
    return subprocess.run(
        [sys.executable, "-m", "bot.cli", *args],
        env={**clean, "PYTHONPATH": str(ROOT), **env},
        capture_output=True,
        text=True,
        timeout=300,
        stdin=subprocess.DEVNULL,
        check=False,
    )


def test_an_unattended_game_under_lang_ja_jp_reads_in_japanese_to_its_end() -> None:
    args = ["play", "--game", "stackup", "--bots", "3", "--seed", "3"]
    proc = run_cli(args, LANG="ja_JP.UTF-8")
    assert proc.returncode == 0, proc.stderr
    assert "=== ゲーム終了。" in proc.stdout and "勝者：AI " in proc.stdout
    assert "の選択：" in proc.stdout  # a direction chosen, Stack Up!'s choice that ends no turn


def test_play_help_and_refusals_are_said_in_the_language_chosen() -> None:
    help_ja = run_cli(["play", "--help"], LANG="ja_JP.UTF-8")
    assert help_ja.returncode == 0
    assert help_ja.stdout.startswith("使い方: stackbot play")
    assert "オプション:" in help_ja.stdout and "人間のプレイヤー（例：alice,bob）" in help_ja.stdout
    help_en = run_cli(["play", "--help", "--lang", "en"], LANG="ja_JP.UTF-8")
    assert help_en.stdout.startswith("usage: stackbot play")
    assert "human players, e.g. alice,bob" in help_en.stdout
    refused = run_cli(["play", "--lang", "ja", "--players", "alice", "--bots", "100"])
    assert refused.returncode == 2
    assert refused.stderr == "stackbot play: --bots は0〜8で指定してください。\n"
    stack = run_cli(["play", "--lang", "ja", "--turn-limit", "3"])
    assert stack.stderr.startswith("stackbot play: スタックに --turn-limit はありません")


class Options(BaseModel):
    model_config = ConfigDict(extra="forbid")
    size: int = 1


def _settings_error() -> ValidationError:
    try:
        Options.model_validate({"colour": "red"})
    except ValidationError as err:
        return err
    raise AssertionError("the model takes no colour")


FACTS: dict[str, Any] = {
    "player": "bob",
    "hint": True,
    "fixed": False,
    "title": "Stack Up!",
    "most": 6,
    "least": 2,
    "name": "zoe",
    "games": ("stack", "stackup"),
    "detail": "d",
    "level": "clever",
    "levels": ("greedy", "random"),
    "power": "start",
    "why": "bob left",
    "host": "ann",
    "seconds": 60,
    "count": 3,
}
# the codes whose words are another's (an engine's or a validator's), in any language
PASSED_ON = {Why.INVALID_SETTINGS, Why.SETUP_FAILED, Why.ILLEGAL_MOVE}

ENGLISH_WORDS = [
    (Why.NOT_YOUR_TURN, {"player": "bob", "hint": True}, "It's bob's turn; a hint waits for yours."),
    (Why.NOT_YOUR_TURN, {"player": None, "hint": False}, "It's nobody's turn."),
    (Why.TABLE_FULL, {"fixed": True, "title": "Color Stack", "most": 2}, "Color Stack is for 2 players: the table is full."),
    (Why.TOO_FEW_PLAYERS, {"fixed": False, "title": "Stack Up!", "least": 2}, "Stack Up! needs at least 2 players: add players (--players) or AI seats (--bots)."),
    (Why.UNKNOWN_GAME, {"name": "go", "games": ("stack", "stackup")}, "There is no game called 'go' here; the games are stack, stackup."),
    (Why.NO_SUCH_AI, {"title": "Stack", "level": "x", "levels": ("greedy", "random")}, "Stack has no AI level 'x'; its levels are greedy, random."),
    (Why.HOST_ONLY, {"power": "end"}, "Only the host can end the game."),
    (Why.NOT_NOW, {}, "That move can't be played now; type `hint` for one that can."),
]  # fmt: skip


@pytest.mark.parametrize(("code", "facts", "english"), ENGLISH_WORDS)
def test_the_terminals_english_refusals_read_as_before(
    code: Why, facts: dict[str, Any], english: str
) -> None:
    assert refusal_text(Refusal(code, **facts)) == english


def test_an_unknown_table_option_is_refused_in_each_language() -> None:
    refusal = Refusal(Why.BAD_SETTINGS, error=_settings_error())
    assert refusal_text(refusal) == "That table can't be set up: unknown option 'colour'."
    with catalog.speaking("ja"):
        assert (
            refusal_text(refusal)
            == "その設定では卓を作れません：「colour」という設定はありません。"
        )


REFUSALS = [
    (code, power)
    for code in sorted(set(Why) - PASSED_ON, key=lambda w: w.value)
    for power in (("kick", "start", "end") if code is Why.HOST_ONLY else ("start",))
]
ENGLISH_WORD = re.compile(r"\b(the|a|is|can|table|players?|game|turn|try|type)\b", re.IGNORECASE)


def english_in(text: str) -> list[str]:
    """The English words of ``text``, but for what a player types (``--players``, `hint`)."""
    typed = re.sub(r"--[a-z-]+|`[^`]*`", "", text)
    return ENGLISH_WORD.findall(typed)


@pytest.mark.parametrize(("code", "power"), REFUSALS, ids=[f"{c.value}-{p}" for c, p in REFUSALS])
def test_every_refusal_is_said_in_japanese(code: Why, power: str) -> None:
    for fixed, hint, player in ((True, True, "bob"), (False, False, None)):
        facts = {**FACTS, "power": power, "error": _settings_error()}
        facts.update(fixed=fixed, hint=hint, player=player)
        english = WORDS[code](facts)
        with catalog.speaking("ja"):
            japanese = WORDS[code](facts)
        assert japanese and japanese != english
        assert english_in(japanese) == [], japanese


@pytest.mark.parametrize("notice", list(Notice), ids=[n.value for n in Notice])
def test_every_notice_is_said_in_japanese(notice: Notice) -> None:
    english = NOTICES[notice](FACTS)
    with catalog.speaking("ja"):
        japanese = NOTICES[notice](FACTS)
    assert japanese and japanese != english
    assert english_in(japanese) == [], japanese
