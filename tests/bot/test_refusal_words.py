"""Every reason the host refuses for, and every notice it gives, has Discord words — the
very sentences the Discord bot said before the host was typed (issue 19)."""

from __future__ import annotations

import re
from typing import Any

import pytest
from pydantic import ValidationError

import catalog
from bot import games
from bot.front import DISCORD, duration
from bot.metrics import REFUSALS
from bot.refusal_words import NOT_SAVED, WORDS, Refused, refusal_text
from catalog import t
from engine.errors import IllegalMoveError, IllegalReason
from host.refusals import Refusal, Why
from host.words import Notice
from persistence import LeaseLost


def settings_problem() -> ValidationError:
    try:
        games.get("stack").settings_of({"target_score": 0})
    except ValidationError as err:
        return err
    raise AssertionError("a target of 0 is refused")


# (code, facts, the words) — the words as bot/service.py said them before the codes
SAID: list[tuple[Why, dict[str, Any], str]] = [
    (Why.NO_TABLE, {}, "There's no table in this channel. Start one with `/table new`."),
    (Why.TABLE_ENDED, {}, "This table has ended. Start a new one with `/table new`."),
    (
        Why.MOVED_AWAY,
        {},
        "This server's tables are moving to another process of the bot, so nothing was played. "
        "Try again in a few seconds.",
    ),
    (Why.NOT_SAVED, {}, "That move could not be saved, so nothing was played; try again."),
    (Why.TABLE_EXISTS, {}, "This channel already has a table. `/table show` brings it back."),
    (
        Why.UNKNOWN_GAME,
        {"name": "chess", "games": ("stack", "stackup")},
        "There is no game called 'chess' here; the games are stack, stackup.",
    ),
    (
        Why.BAD_SETTINGS,
        {"error": settings_problem()},
        "That table can't be set up: `target_score` must be at least 1, not 0.",
    ),
    (Why.INVALID_SETTINGS, {"detail": "unknown board"}, "unknown board"),
    (Why.ALREADY_STARTED, {}, "The game has already started; wait for the next one."),
    (Why.ALREADY_SEATED, {}, "You're already at this table."),
    (
        Why.NAME_TAKEN,
        {"name": "a_b"},
        "Someone at this table is already called a\\_b: change your server nickname, then press **Join**.",
    ),
    (
        Why.TABLE_FULL,
        {"title": "Stack", "most": 8, "fixed": False},
        "The table is full (8 players).",
    ),
    (
        Why.TABLE_FULL,
        {"title": "Color Stack", "most": 2, "fixed": True},
        "Color Stack is for 2 players: the table is full.",
    ),
    (
        Why.NO_SUCH_AI,
        {"title": "Stack", "level": "slow", "levels": ("random", "greedy")},
        "Stack has no `slow` AI; its levels are random, greedy.",
    ),
    (Why.HOST_ONLY, {"power": "kick"}, "Only the host can kick a player."),
    (Why.HOST_ONLY, {"power": "start"}, "Only the host can start the game."),
    (Why.HOST_ONLY, {"power": "end"}, "Only the host or a server manager can end the table."),
    (Why.NOT_AT_TABLE, {}, "That player isn't at this table."),
    (Why.KICK_SELF, {}, "You can't kick yourself; use `/table leave`."),
    (
        Why.TOO_FEW_PLAYERS,
        {"title": "Stack", "least": 2, "fixed": False},
        "Stack needs at least 2 players: wait for someone to press **Join**, or press **Add AI**.",
    ),
    (
        Why.TOO_FEW_PLAYERS,
        {"title": "Duel", "least": 2, "fixed": True},
        "Duel is for 2 players: wait for someone to press **Join**, or press **Add AI**.",
    ),
    (Why.SETUP_FAILED, {"detail": "Teams need an even number"}, "Teams need an even number"),
    (
        Why.GAME_NOT_STARTED,
        {"hint": False},
        "The game hasn't started yet. The host presses **Start**.",
    ),
    (Why.GAME_NOT_STARTED, {"hint": True}, "The game hasn't started yet."),
    (Why.GAME_OVER, {}, "The game is over."),
    (Why.NOT_SEATED, {"lobby": True}, "You're not at this table. Press **Join** to sit down."),
    (Why.NOT_SEATED, {"lobby": False}, "You're not playing at this table; join the next game."),
    (Why.SEAT_LEFT, {}, "You left this game; an AI plays your seat now."),
    (Why.NOT_YOUR_TURN, {"player": "b*b", "hint": False}, "It's b\\*b's turn."),
    (Why.NOT_YOUR_TURN, {"player": None, "hint": False}, "It's nobody's turn."),
    (
        Why.NOT_YOUR_TURN,
        {"player": "bob", "hint": True},
        "It's bob's turn; a hint waits for yours.",
    ),
    (
        Why.STALE_PANEL,
        {},
        "That button is from an older state of the table, so nothing was played. "
        "Use the newest table message (or `/table show`).",
    ),
    (Why.BUSY, {}, "The table is busy; try again in a moment."),
    (Why.NOT_NOW, {}, "That move can't be played now."),
]


def test_every_refusal_code_has_words() -> None:
    assert set(WORDS) == set(Why)
    assert {code for code, _, _ in SAID} | {Why.ILLEGAL_MOVE} == set(Why)


@pytest.mark.parametrize(("code", "data", "words"), SAID, ids=[c.value for c, _, _ in SAID])
def test_a_refusal_says_what_the_bot_said_before(
    code: Why, data: dict[str, Any], words: str
) -> None:
    assert refusal_text(Refusal(code, **data)) == words


def test_an_illegal_move_is_worded_by_its_game() -> None:
    """The engine's error, in the words of the table's game on Discord."""
    error = IllegalMoveError("No pile 9 here.", IllegalReason.NO_SUCH_PILE)
    refusal = Refusal(Why.ILLEGAL_MOVE, game=games.get("stack"), error=error)
    words = refusal_text(refusal)
    assert words == games.get("stack").refusal_words(error) and words


def test_not_saved_is_one_sentence_kept_in_one_place() -> None:
    assert refusal_text(Refusal(Why.NOT_SAVED)) == t(NOT_SAVED)


NOTICES: list[tuple[Notice, dict[str, Any], str]] = [
    (
        Notice.QUARANTINED,
        {"title": "Stack Up!"},
        "This Stack Up! table's saved game could not be read back after a restart, so the "
        "table is closed (its record is kept for the bot's operators). `/table new` opens "
        "another.",
    ),
    (
        Notice.QUARANTINED,
        {"title": None},
        "This game table's saved game could not be read back after a restart, so the "
        "table is closed (its record is kept for the bot's operators). `/table new` opens "
        "another.",
    ),
    (Notice.NO_HUMAN_AT_START, {}, "No human is left at the table, so it is closed."),
    (Notice.LEFT, {"name": "a_b"}, "a\\_b left"),
    (Notice.KICKED, {"name": "bob"}, "bob was removed by the host"),
    (Notice.LOBBY_LEFT, {"why": "ann left", "host": None}, "ann left."),
    (Notice.LOBBY_LEFT, {"why": "ann left", "host": "bob"}, "ann left. bob is the host now."),
    (
        Notice.LOBBY_EMPTY,
        {"why": "ann left"},
        "ann left; with nobody left, the table is closed.",
    ),
    (
        Notice.SEAT_TO_AI,
        {"why": "ann left", "host": "bob"},
        "ann left; an AI plays their seat from now on. bob is the host now.",
    ),
    (
        Notice.NO_HUMAN_LEFT,
        {"why": "ann left"},
        "ann left; with no human left, the table is closed.",
    ),
    (
        Notice.ENDED_BY,
        {"title": "Stack", "name": "ann"},
        "The Stack table was ended by ann.",
    ),
    (
        Notice.LOBBY_EXPIRED,
        {"seconds": 3600},
        "The lobby closed: no game started within an hour.",
    ),
    (
        Notice.GAME_EXPIRED,
        {"seconds": 600},
        "The game ended as abandoned: no player moved for 10 minutes. `/table new` opens another.",
    ),
    (
        Notice.TIMED_OUT_TO_AI,
        {"name": "ann", "count": 3},
        "ann let 3 turns in a row run out: an AI plays their seat from now on.",
    ),
    (
        Notice.NO_HUMAN_PLAYING,
        {"name": "ann", "count": 3},
        "ann let 3 turns in a row run out and no human is left playing, so the table is closed.",
    ),
]


def test_every_notice_has_words() -> None:
    assert {notice for notice, _, _ in NOTICES} == set(Notice)


@pytest.mark.parametrize(("notice", "data", "words"), NOTICES, ids=[n.value for n, _, _ in NOTICES])
def test_a_notice_says_what_the_bot_said_before(
    notice: Notice, data: dict[str, Any], words: str
) -> None:
    assert DISCORD.notice(notice, data) == words


def test_a_turn_line_is_escaped_and_marks_the_timer() -> None:
    assert DISCORD.turn_line("a_b took 3", automatic=False) == "a\\_b took 3"
    assert DISCORD.turn_line("ann took 3", automatic=True) == (
        "ann took 3 (automatic: the turn timer ran out)"
    )


JAPANESE = re.compile(r"[\u3040-\u30ff\u4e00-\u9fff]")  # kana and kanji
DETAILS = {Why.INVALID_SETTINGS, Why.SETUP_FAILED}  # said as the settings' own words


@pytest.mark.parametrize(("code", "data", "words"), SAID, ids=[c.value for c, _, _ in SAID])
def test_every_refusal_reads_in_japanese_to_a_japanese_user(
    code: Why, data: dict[str, Any], words: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("STACKBOT_CATALOG_STRICT", "1")  # no English stands in for it
    with catalog.speaking("ja"):
        japanese = refusal_text(Refusal(code, **data))
    if code in DETAILS:
        assert japanese == words
    else:
        assert japanese != words and JAPANESE.search(japanese), japanese
    for name in ("b\\*b", "a\\_b", "chess", "`slow`"):  # names and typed words as they are
        # (each language quotes them its own way: 'chess', 「chess」)
        assert (name in words) == (name in japanese)


@pytest.mark.parametrize(("notice", "data", "words"), NOTICES, ids=[n.value for n, _, _ in NOTICES])
def test_every_notice_reads_in_japanese_at_a_japanese_table(
    notice: Notice, data: dict[str, Any], words: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("STACKBOT_CATALOG_STRICT", "1")
    with catalog.speaking("ja"):
        if "why" in data:  # the leaving's words, said at the same table: Japanese
            data = {**data, "why": DISCORD.notice(Notice.LEFT, {"name": "ann"})}
        japanese = DISCORD.notice(notice, data)
    assert japanese != words and JAPANESE.search(japanese), japanese
    assert "`/table new`" in japanese if "`/table new`" in words else True


def test_a_refusal_of_the_discord_layer_is_a_key_said_in_the_users_language() -> None:
    refused = Refused("refusal.no_option", title="Stack", option="dice")
    assert refusal_text(refused) == "Stack has no `dice:` option."
    with catalog.speaking("ja"):
        assert refusal_text(refused) == "Stackには `dice:` オプションはありません。"
        # a game's words not (yet) in the catalog are said as they are
        assert refusal_text(Refused("Play in the table's channel.")) == (
            "Play in the table's channel."
        )


def test_the_durations_of_the_expiry_notices_are_the_catalogs() -> None:
    assert [duration(s) for s in (3600, 7200, 60, 600, 90)] == [
        "an hour",
        "2 hours",
        "a minute",
        "10 minutes",
        "90 seconds",
    ]
    with catalog.speaking("ja"):
        assert [duration(s) for s in (3600, 600, 90)] == ["1時間", "10分", "90秒"]
        assert DISCORD.turn_line("ann took 3", automatic=True) == "ann took 3（自動：時間切れ）"


async def test_a_write_that_found_its_shard_taken_is_said_and_counted_as_moved_away(
    world: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A store write refused by the fence (``LeaseLost``) is the host's ``moved_away``:
    the same words, and the same label of ``stackbot_refusals_total``."""

    async def lost(*args: Any, **kwargs: Any) -> Any:
        raise LeaseLost([0])

    monkeypatch.setattr(world.bot.tables.store, "create_table", lost)
    counted = REFUSALS.labels(Why.MOVED_AWAY.value)._value.get()
    answer = await world.alice.slash(world.channel, "table new")
    assert answer.ephemeral
    assert answer.response.content.startswith("This server's tables are moving to another process")
    assert REFUSALS.labels(Why.MOVED_AWAY.value)._value.get() == counted + 1
    assert "moved" not in {s.labels.get("reason") for m in REFUSALS.collect() for s in m.samples}


def test_the_game_a_refusal_names_is_named_in_the_language_spoken() -> None:
    """The host names a game by its engine's (English) title: a Japanese player reads the
    game's Japanese name, as everywhere else; a title of no hosted game stays as it is."""
    with catalog.speaking("ja"):
        full = refusal_text(Refusal(Why.TABLE_FULL, title="Color Stack", most=2, fixed=True))
        few = refusal_text(Refusal(Why.TOO_FEW_PLAYERS, title="Stack Up!", least=2, fixed=False))
        level = Refusal(Why.NO_SUCH_AI, title="Stack", level="slow", levels=("random",))
        no_ai = refusal_text(level)
        duel = refusal_text(Refusal(Why.TOO_FEW_PLAYERS, title="Duel", least=2, fixed=True))
    assert full == "カラースタックは2人で遊ぶゲームです。卓は満席です。"
    assert few.startswith("スタックアップ！には2人以上が必要です。"), few
    assert no_ai.startswith("スタックに `slow` というAIはありません。"), no_ai
    assert duel.startswith("Duelは2人で遊ぶゲームです。"), duel
