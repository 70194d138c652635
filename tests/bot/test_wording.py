"""Refusals speak Discord on Discord (issue 7.14): the same engine errors, worded for slash
commands, buttons and the chooser, with no `place` command and no terminal syntax."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from bot.games.stack.wording import discord_words
from engine.errors import IllegalMoveError, IllegalReason, InvalidMoveError, MoveError
from engine.stack.moves import Reroll
from engine.stack.notation import SYNTAX, parse_move
from engine.stack.state import StackState
from tests.engine.situations import deal, one_step, reroll, stack

ROOT = Path(__file__).resolve().parents[2]


def refusal(state: StackState, text: str) -> MoveError:
    with pytest.raises(MoveError) as err:
        parse_move(state, text)
    return err.value


def placing_four() -> StackState:
    """alice rerolled a 3 and rolled a 4, which may go on bob's or carol's single 4."""
    state = deal([3, 5], [4, 6], [4, 1])
    reroll(state, 3, 4)
    return state


def test_a_reroll_while_a_rerolled_die_waits_points_at_the_chooser_my_turn_and_stack() -> None:
    err = refusal(placing_four(), "reroll 5")
    words = discord_words(err)
    assert words.startswith("First put your rerolled 4 on a pile:")
    assert "chooser" in words and "“My turn”" in words
    assert "`/stack die:4 on:bob`" in words
    assert "bob's single 4, or carol's single 4" in words
    assert "place" not in words
    assert str(err) == "First put your rerolled 4 on a pile: `place on NAME`."


def test_the_command_to_copy_names_a_pile_only_when_code_shows_its_name_as_typed(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """bob is b`ob: code cannot show his backtick, so the command keeps NAME."""
    monkeypatch.setattr("tests.engine.situations.NAMES", ("alice", "b`ob", "carol"))
    words = discord_words(refusal(placing_four(), "reroll 5"))
    assert "`/stack die:4 on:NAME`" in words and "b`ob's single 4" in words


def test_stacking_another_face_while_a_rerolled_die_waits_says_which_face_it_shows() -> None:
    err = refusal(placing_four(), "stack 1 on carol")
    words = discord_words(err)
    assert words.startswith("Your rerolled die shows 4, not 1:")
    assert "`/stack die:4 on:bob`" in words and "place" not in words
    assert "`place on NAME`" in str(err)


def test_a_button_for_another_move_while_a_rerolled_die_waits_is_worded_the_same() -> None:
    state = placing_four()
    with pytest.raises(IllegalMoveError) as err:
        state.apply(Reroll(5), by=0)
    words = discord_words(err.value)
    assert words.startswith("Your rerolled die shows 4, not 5:") and "“My turn”" in words


def test_a_pile_owner_with_two_heights_is_named_with_the_height() -> None:
    state = deal([3, 5, 6], [3, 3, 3], [3, 4, 4])
    stack(state, 3, 1)  # alice on bob: (bob, alice)
    stack(state, 3, 0, 2)  # bob on it: (bob, alice, bob); bob keeps a single 3
    reroll(state, 4, 3)  # carol rerolls a 4, rolls a 3: bob's single or his 3-high pile
    words = discord_words(refusal(state, "reroll 4"))
    assert "`/stack die:3 on:bob height:1`" in words


def test_nothing_to_place_on_discord_names_the_slash_commands() -> None:
    err = refusal(deal([3, 4], [3, 5]), "place on bob")
    assert isinstance(err, IllegalMoveError) and err.reason is IllegalReason.NOTHING_TO_PLACE
    words = discord_words(err)
    assert "no rerolled die waiting" in words and "`/stack`" in words


def test_terminal_syntax_becomes_slash_command_syntax() -> None:
    err = refusal(deal([3, 4], [3, 5]), "dance")
    assert isinstance(err, InvalidMoveError) and SYNTAX in str(err)
    words = discord_words(err)
    assert SYNTAX not in words and "`/stack die:3 on:NAME`" in words
    assert words.startswith("'dance' is not a move.")


def test_an_ambiguous_pile_asks_to_choose_or_give_a_height() -> None:
    state = deal([3, 5, 6], [3, 3, 3], [3, 4, 4])
    stack(state, 3, 1)
    stack(state, 3, 0, 2)
    words = discord_words(refusal(state, "stack 3 on bob"))
    assert "bob's single 3, or bob's 3-high pile of 3s" in words and "height:" in words


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("stack 3 on Zed", "There's no player called 'Zed' at this table"),
        ("stack 4 on bob", "You have no unstacked 4."),
        ("stack 3 on alice", "You may never stack directly on your own colour."),
    ],
)
def test_refusals_that_read_the_same_everywhere_keep_the_terminal_words(
    text: str, expected: str
) -> None:
    err = refusal(deal([3, 5], [3, 6]), text)
    assert discord_words(err) == str(err)
    assert expected in discord_words(err)


def test_no_discord_wording_mentions_place_or_the_terminal_syntax() -> None:
    state = placing_four()
    texts = ["reroll 5", "stack 1 on bob", "dance", "stak 4 on bob", "stack 4 on zed", "reroll"]
    for text in texts:
        try:
            parse_move(state, text)
        except MoveError as err:
            words = discord_words(err)
            assert "place on" not in words and SYNTAX not in words, (text, words)


def test_wording_does_not_import_discord() -> None:
    code = "import sys, bot.games.stack.wording; sys.exit('discord' in sys.modules)"
    proc = subprocess.run([sys.executable, "-c", code], cwd=ROOT, check=False)
    assert proc.returncode == 0


def test_score_sheet_columns_line_up_for_wide_and_accented_names() -> None:
    """A code block is monospaced: Japanese and emoji take two columns, combining marks
    none, so the round and total columns stay aligned whatever the names."""
    from bot.sheets import sheet_lines
    from catalog import width as display_width

    rows = sheet_lines(["alice", "ボブ", "😀 x", "Ālīce ✨"], [[1, 2, 3, 4]], [1, 2, 3, 4])[2:-1]
    assert len({display_width(row) for row in rows}) == 1, rows


def test_a_finished_games_sheet_names_no_leader_the_result_says_who_won() -> None:
    import random

    from bot.games.stack.words import game_end_messages
    from engine.stack.ai import RandomPlayer
    from engine.stack.rules import StackRules
    from engine.stack.state import StackState

    state = StackState(["ボブ", "Ālīce ✨"], StackRules(target_score=30))
    rng = random.Random(3)
    while not state.is_over:
        one_step(state, rng, RandomPlayer())
    text = "\n".join(game_end_messages(state))
    assert "🏆" in text and "Leader at" not in text
