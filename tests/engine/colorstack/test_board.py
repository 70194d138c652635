"""The rule book's components, board and set-up (``colorstack-rules.md``: Components,
The board, Setting up)."""

from __future__ import annotations

import random

import pytest

from engine.colorstack.board import (
    BLUE,
    COPIES,
    DECK,
    DESIGNS,
    GREEN,
    RED,
    YELLOW,
    all_start_squares,
    black_squares,
    card_black,
    cards_problem,
    deal_cards,
    home_slots,
    other_colours,
    parse_square,
    square_name,
    start_colours,
)
from engine.colorstack.colours import DEFAULT_CHOICE
from engine.colorstack.moves import FirstPlayer, Setup
from engine.colorstack.render import board_lines
from engine.colorstack.state import ColorStackState

from .situations import PLAYERS, new_game


def names(squares: object) -> list[str]:
    return sorted(square_name(s) for s in squares)  # type: ignore[attr-defined]


def test_five_card_designs_as_the_rule_book_draws_them() -> None:
    assert DESIGNS == {
        "A": ("...", "...", "..."),
        "B": ("...", ".#.", "..."),
        "C": ("#..", "...", "..."),
        "D": ("...", "##.", "..."),
        "E": (".#.", "...", ".#."),
    }


def test_eighteen_cards_two_open_and_four_of_each_other_design() -> None:
    assert len(DECK) == 18
    assert COPIES == {"A": 2, "B": 4, "C": 4, "D": 4, "E": 4}


def test_a_printed_card_lies_with_its_top_row_away_from_the_first_player() -> None:
    # slot 0 covers a1..c3; C's printed top-left black square lies on a3
    assert names(card_black("C", 0)) == ["a3"]
    assert names(card_black("D", 0)) == ["a2", "b2"]
    # slot 4 (card row 2, middle) covers d4..f6
    assert names(card_black("E", 4)) == ["e4", "e6"]


def test_a_turned_card_lies_a_half_turn_round() -> None:
    assert names(card_black("C'", 0)) == ["c1"]
    assert names(card_black("D'", 0)) == ["b2", "c2"]
    for same in ("A", "B", "E"):  # these look the same turned
        assert card_black(same, 2) == card_black(same + "'", 2)


def test_light_board_is_9_columns_by_6_rows_and_heavy_9_by_9() -> None:
    light, heavy = new_game("light"), new_game("heavy")
    assert (light.columns, light.rows, light.squares) == (9, 6, 54)
    assert (heavy.columns, heavy.rows, heavy.squares) == (9, 9, 81)
    assert len(board_lines(light)) == 6 + 1 + 1  # rows, a gap between card rows, letters


def test_squares_are_named_from_a1_on_the_first_players_left() -> None:
    assert square_name(0) == "a1" and square_name(8) == "i1" and square_name(9) == "a2"
    assert parse_square("i6", 6) == 53 and parse_square("i7", 6) is None
    assert parse_square("i9", 9) == 80 and parse_square("a0", 9) is None


def test_start_squares_are_the_home_cards_outer_corners() -> None:
    assert [square_name(s) for s in all_start_squares(6)] == [
        "a1", "c1", "d1", "f1", "g1", "i1", "a6", "c6", "d6", "f6", "g6", "i6",
    ]  # fmt: skip
    assert [square_name(s) for s in all_start_squares(9)][6:] == [
        "a9", "c9", "d9", "f9", "g9", "i9",
    ]  # fmt: skip


def test_home_rows_are_the_first_and_last_card_rows() -> None:
    assert home_slots(6) == (0, 1, 2, 3, 4, 5)
    assert home_slots(9) == (0, 1, 2, 6, 7, 8)  # the heavy middle row is nobody's


def test_the_second_player_gets_the_other_colours_in_order_red_blue_yellow_green() -> None:
    assert other_colours((RED, YELLOW)) == (BLUE, GREEN)
    assert other_colours((GREEN, BLUE)) == (RED, YELLOW)


def test_dice_start_from_their_owners_left_alternating_first_and_second_colour() -> None:
    assert start_colours((RED, YELLOW), True) == (RED, YELLOW) * 3  # a1 c1 d1 f1 g1 i1
    # the second player's left is i6: i6 f6 c6 first colour, g6 d6 a6 second
    assert start_colours((BLUE, GREEN), False) == (GREEN, BLUE) * 3  # a6 c6 … i6


def test_the_rule_books_example_board() -> None:
    state = new_game("light")
    assert board_lines(state)[:7] == [
        "6  G2  .   B5   G4  #   B3   G2  #   B1",
        "5  .   #   .    .   .   .    .   .   .",
        "4  .   .   .    .   #   .    .   #   .",
        "",
        "3  #   .   .    .   .   .    #   .   .",
        "2  .   .   .    .   #   .    .   .   .",
        "1  R3  .   Y4   R6  .   Y2   R5  .   Y1",
    ]
    assert names(black_squares(state.cards)) == ["a3", "b5", "e2", "e4", "e6", "g3", "h4", "h6"]
    assert all(len(state.stack(s)) == 1 for s in all_start_squares(6))  # every die alone


def test_setup_turns_a_home_card_whose_start_square_is_black() -> None:
    seen_c_at_home = 0
    for seed in range(300):
        for rows in (6, 9):
            cards = deal_cards(random.Random(seed), rows)
            assert cards_problem(cards, rows) is None
            for slot in home_slots(rows):
                if cards[slot][0] == "C":
                    seen_c_at_home += 1
                    # printed, C's black corner is on the top row: fine at home in row 1,
                    # a start square in the last row; turned, the reverse
                    assert cards[slot] == ("C" if slot < 3 else "C'")
    assert seen_c_at_home > 100


def test_setup_lays_cards_printed_or_turned_at_random() -> None:
    turned = printed = 0
    for seed in range(100):
        for card in deal_cards(random.Random(seed), 9):
            if card[0] in "D":
                turned += card.endswith("'")
                printed += not card.endswith("'")
    assert turned > 20 and printed > 20


def test_cards_as_the_record_shows_them_once_set_up_is_done() -> None:
    with pytest.raises(Exception, match="start square c1 is black"):
        new_game("light", cards=("C'", "B", "C", "B", "E", "E"))
    assert cards_problem(("C", "B", "C", "B", "E", "C'"), 6) is None
    assert "a6 is black" in (cards_problem(("C", "B", "C", "C", "E", "E"), 6) or "")
    assert "only 2 cards of design A" in (cards_problem(("A", "A", "A'", "B", "E", "E"), 6) or "")
    assert "heavy board has 9 cards" in (cards_problem(("A",) * 6, 9) or "")


def test_the_set_up_draws_the_first_player_cards_and_dice_from_the_rng() -> None:
    """Set-up step 1: the first player at random; steps 2–4: the cards and the dice, for
    the colours chosen (by default red, then yellow)."""
    firsts = set()
    for seed in range(40):
        state = ColorStackState(PLAYERS)
        drawn = state.sample_chance(random.Random(seed))
        assert isinstance(drawn, FirstPlayer)
        state.apply(drawn)
        state.apply(DEFAULT_CHOICE, by=drawn.seat)
        setup = state.sample_chance(random.Random(seed))
        assert isinstance(setup, Setup) and setup.first == drawn.seat
        assert setup.colours == (RED, YELLOW)  # the rule book's default choice
        assert len(setup.dice) == 12 and all(1 <= d <= 6 for d in setup.dice)
        state.apply(setup)
        assert state.current_player == setup.first == state.first
        firsts.add(setup.first)
        assert state.colours[setup.first] == (RED, YELLOW)
        assert state.colours[1 - setup.first] == (BLUE, GREEN)
    assert firsts == {0, 1}
