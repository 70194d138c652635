"""Color Stack in words and text: buttons, turns for everyone (skips, wins, draws,
resignations), the text board and the rules."""

from __future__ import annotations

import json

from engine.colorstack.describe import end_words, move_words, turn_words
from engine.colorstack.moves import Resign
from engine.colorstack.record import replay
from engine.colorstack.render import render_text, rules_text
from engine.game import TurnEnded

from .situations import arrange, mv, new_game, setf
from .test_record import EXAMPLE

CORRIDOR = tuple(f"{c}2" for c in "abcdefghi")


def example_after(turns: int):  # type: ignore[no-untyped-def]
    data = json.loads(EXAMPLE)
    data["turns"] = data["turns"][:turns]
    return replay(data)


def test_move_words_say_what_a_button_does() -> None:
    state = new_game()
    assert move_words(state, mv("c1-c5")) == "Move yellow 4 c1 → c5"
    assert move_words(state, setf("c1", 1)) == "Set c1 to 1 (now yellow 4)"
    assert move_words(state, Resign(0)) == "Resign (the other player wins)"
    state = example_after(6)
    assert move_words(state, mv("d1-c6")) == (
        "Stack red 6 d1 → c6 onto blue 5, green 2, yellow 1 (wins: four colours)"
    )


def test_turn_words_tell_everyone_what_happened() -> None:
    assert turn_words(example_after(1), TurnEnded(0)) == "alice moved yellow 4 c1-c5."
    assert turn_words(example_after(2), TurnEnded(1)) == (
        "bob moved green 2 a6-c6, stacking onto blue 5: c6 is now blue 5, green 2."
    )
    assert turn_words(example_after(3), TurnEnded(0)) == "alice set the yellow die on c5 to 1."
    assert turn_words(example_after(7), TurnEnded(0)).endswith(
        "alice made a stack of all four colours and wins!"
    )


def test_turn_words_tell_a_skip() -> None:
    state = arrange({"e3": "R2", "e5": "B3", "a1": "Y4"})
    state.apply(mv("e3-e5"))
    assert turn_words(state, TurnEnded(0)).endswith(
        "ben has no piece and is skipped: ann plays again."
    )


def test_end_words_for_draws_and_resignation() -> None:
    state = new_game(turn_limit=1)
    state.apply(setf("a1", 6))
    assert end_words(state) == (
        "The turn limit of 1 turn was reached without a winner: the game is drawn."
    )
    assert "drawn" in turn_words(state, TurnEnded(0))
    state = new_game()
    for action in (setf("a1", 6), setf("a6", 6), setf("a1", 3), setf("a6", 2)) * 2:
        state.apply(action)
    assert end_words(state) == (
        "The same position occurred a third time: the game is drawn by repetition."
    )
    state = new_game()
    state.apply(Resign(1))
    assert end_words(state) == "ben resigned: ann wins."
    assert end_words(new_game()) == ""


def test_the_text_board_shows_faces_colours_heights_and_coordinates() -> None:
    text = render_text(example_after(5), 1)
    assert "6  .   .   Y1³  G4  #   B3   G2  #   B3" in text
    assert "   a   b   c    d   e   f    g   h   i" in text
    assert "Stacks, bottom to top: c6 B5G2Y1" in text
    assert "▶ bob to move." in text
    assert "Turns: 5 played, 295 left before the limit of 300" in text
    assert "alice: red (R) and yellow (Y), moved first" in text


def test_the_text_board_says_a_position_is_repeated() -> None:
    state = new_game()
    for action in (setf("a1", 6), setf("a6", 6), setf("a1", 3), setf("a6", 2)):
        state.apply(action)
    assert "This position has occurred 2 times; a third time draws." in render_text(state)


def test_the_text_board_of_a_finished_game() -> None:
    text = render_text(example_after(7))
    assert text.startswith("Color Stack (light) — 🏁 alice made a stack of all four colours")


def test_rules_text_gives_the_notation() -> None:
    text = rules_text()
    for words in ("c1-e3", "set c1 4", "resign", "6 beats 1", "third time"):
        assert words in text


def test_the_last_moves_path_for_an_arrow() -> None:
    state = example_after(2)
    path = state.last_path()
    assert path is not None and path[0] == 45 and path[-1] == 47 and len(path) == 3
    assert example_after(3).last_path() is None  # a set
    state = arrange({"a1": "R4"}, black=CORRIDOR)
    state.apply(mv("a1-e1"))
    assert state.last_path() == (0, 1, 2, 3, 4)
