"""The 80 cards, their names and the record's hand order."""

from __future__ import annotations

from collections import Counter

import pytest

from engine.stackup.cards import (
    ALL_CARDS,
    CRASH,
    FLIP,
    FULL_DECK,
    GREEN,
    RED,
    SPECIALS,
    card_name,
    colour_of,
    is_number,
    is_special,
    number_card,
    number_of,
    parse_card,
    parse_colour_letter,
    read_card,
    sorted_hand,
)


def test_deck_has_80_cards_60_numbers_and_four_of_each_special() -> None:
    assert len(FULL_DECK) == 80
    counts = Counter(FULL_DECK)
    assert sum(1 for c in counts if is_number(c)) == 60
    assert all(counts[c] == 1 for c in counts if is_number(c))
    assert {c: counts[c] for c in SPECIALS} == dict.fromkeys(SPECIALS, 4)


def test_number_cards_are_one_of_each_number_1_to_15_in_four_colours() -> None:
    names = {card_name(c) for c in FULL_DECK if is_number(c)}
    assert names == {f"{col}{n}" for col in "RBYG" for n in range(1, 16)}


def test_card_names_read_back_exactly() -> None:
    for card in ALL_CARDS:
        assert parse_card(card_name(card)) == card
    assert card_name(number_card(RED, 7)) == "R7"
    assert card_name(number_card(GREEN, 15)) == "G15"
    assert card_name(FLIP) == "Flip"


@pytest.mark.parametrize("text", ["r7", "R07", "R16", "R0", "flip", "X3", "", " R7", "R7 "])
def test_nothing_else_is_a_card_in_a_record(text: str) -> None:
    with pytest.raises(ValueError):
        parse_card(text)


def test_typed_cards_ignore_case() -> None:
    assert read_card("r7") == parse_card("R7")
    assert read_card("CRASH") == CRASH
    assert read_card("r16") is None


def test_colour_and_number_of_a_card() -> None:
    b5 = parse_card("B5")
    assert (colour_of(b5), number_of(b5)) == (1, 5)
    assert colour_of(FLIP) is None and number_of(FLIP) is None
    assert is_special(CRASH) and not is_special(b5)
    assert parse_colour_letter("Y") == 2
    with pytest.raises(ValueError):
        parse_colour_letter("y")


def test_hand_order_is_colour_then_number_then_specials() -> None:
    names = ["Crash", "G2", "Flip", "B13", "R4", "Y1", "Switch", "Snatch", "Freeze", "B1", "Flip"]
    ordered = [card_name(c) for c in sorted_hand([parse_card(n) for n in names])]
    assert ordered == [
        "R4", "B1", "B13", "Y1", "G2", "Flip", "Flip", "Freeze", "Snatch", "Switch", "Crash",
    ]  # fmt: skip
