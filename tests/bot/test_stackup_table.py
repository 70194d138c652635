"""The public side of a Stack Up! table without Discord: the table message's text and the
picture show the stack (colour, number, direction), the last play, every hand's size, the
draw pile, draw passes, a pending Crash, whose turn and the turns left — and never a card
of any hand, at 6 seats of 32-character names full of markdown and mentions, within
2,000 characters."""

from __future__ import annotations

import io
import random
import re

from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image

from bot.games.stackup.views import field_text, seat_line
from bot.text import MESSAGE_LIMIT, escape_name
from engine.game import Decision
from engine.stackup.cards import card_name
from engine.stackup.moves import Play
from engine.stackup.state import StackUpState
from pictures.stackup import (
    WIDTH,
    TablePicture,
    describe,
    draw_table,
    last_turn,
    layout,
    showcase,
)
from tests.engine.stackup.situations import ANN, BEN, CAT, cards, table

NASTY = "**__@everyone__**~~`<@123>`~~||x||"
CARD = re.compile(r"(?<![A-Za-z0-9])([RBYG](?:1[0-5]|[1-9])|Flip|Freeze|Snatch|Switch|Crash)")
LIVE_MENTION = re.compile(r"<@[!&]?\d+>|@everyone|@here")


def nasty_names(n: int) -> tuple[str, ...]:
    return tuple((str(i) + NASTY).ljust(32, "x")[:32] for i in range(n))


def random_states(seed: int, players: int, every: int = 1) -> list[StackUpState]:
    rng = random.Random(seed)
    state = StackUpState(nasty_names(players))
    seen = []
    while True:
        if state.decision is Decision.CHANCE:
            state.apply(state.sample_chance(rng))
            continue
        if rng.randrange(every) == 0 or state.is_over:
            seen.append(state.copy())
        if state.is_over:
            return seen
        state.apply(rng.choice(state.legal_moves()))


def in_hands(state: StackUpState) -> set[str]:
    """Every number card in any hand (special cards' names are public words)."""
    return {card_name(c) for s in range(state.n) for c in state.hand(s) if c < 60}


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 10**6), players=st.integers(2, 6))
def test_the_table_text_names_no_card_of_any_hand_and_fits_a_message(
    seed: int, players: int
) -> None:
    for state in random_states(seed, players, every=3):
        text = field_text(state, None)
        assert len(text) <= MESSAGE_LIMIT
        assert not LIVE_MENTION.search(text), text
        named = set(CARD.findall(text))
        assert not named & in_hands(state), (named & in_hands(state), text)
        for seat in range(state.n):
            assert escape_name(state.players[seat]) in text
            assert f"{state.hand_size(seat)} card" in seat_line(state, seat)


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 10**6), players=st.integers(2, 6))
def test_the_picture_is_given_public_facts_only(seed: int, players: int) -> None:
    for state in random_states(seed, players, every=2):
        picture = TablePicture.of(state)
        assert picture.hand_sizes == state.hand_sizes
        assert picture.passes == tuple(state.passes)
        assert picture.draw_pile == state.pile_size
        assert picture.crash_on == (None if state.is_over else state.pending_crash)
        # its cards are the last play's, on the stack now: in no hand
        assert not set(picture.last_cards) & in_hands(state)
        words = " ".join(str(getattr(picture, f)) for f in picture.__dataclass_fields__)
        assert not set(CARD.findall(words)) & in_hands(state) - set(picture.last_cards)
        assert not set(CARD.findall(describe(picture))) & in_hands(state)


def test_the_table_text_shows_the_stack_crash_passes_last_play_and_turns_left() -> None:
    state = table(
        "R6 R7 R8 B2", "Crash G4 G5 G6", "R1 R2 Y5", stack="R5", passes=[0, 2, 0], turns=10
    )
    state.apply(Play(tuple(cards("R6 R7 R8")), "skip"))  # ben skipped: cat next
    state.apply(Play(tuple(cards("R1 R2"))))  # cat: a red reset, then up
    text = field_text(state, ["ann played R6 R7 R8"])
    lines = text.split("\n")
    assert lines[0] == "**Stack Up!** · turn 13 · 488 turns left before the limit"
    assert lines[1].startswith("🟥 **Red 2** · ⬆️ up (1→15) · draw pile **")
    assert "Last: **cat** R1 R2" in text
    assert "**ben** · 4 cards · 🎟️ 2 draw passes" in text
    assert "▶ **ann** · 1 card" in text
    assert text.endswith("-# ann played R6 R7 R8")


def test_a_pending_crash_is_on_the_table_and_the_picture() -> None:
    state = table("Crash R9 B2", "G4 G5 G6", "Y1 Y2 Y3", stack="R5")
    state.apply(Play(tuple(cards("Crash"))))
    text = field_text(state, None)
    assert "💥 **Crash** on **ben**: block it with a Crash or take 3 cards" in text
    assert "**ben** · 3 cards · 💥 Crash on them" in text
    picture = TablePicture.of(state)
    assert picture.crash_on == BEN and picture.current == BEN
    assert last_turn(state) == (ANN, ("Crash",), "")
    assert any(p.kind == "tag" and p.key[0] == "✸ Crash pending" for p in layout(picture).pieces)
    _ = CAT


def test_a_snatch_shows_how_many_cards_never_which() -> None:
    state = table("Snatch R9 B2", "G4 G5 G6 G7", "Y1 Y2 Y3", stack="R5")
    state.apply(Play(tuple(cards("Snatch")), target=BEN, count=2))
    while state.decision is Decision.CHANCE:
        state.apply(state.sample_chance(random.Random(1)))
    took = state.log[-1].took
    assert len(took) == 2
    seat, shown, note = last_turn(state)
    assert (seat, shown, note) == (ANN, ("Snatch",), "took 2 from ben")
    text = field_text(state, None)
    assert not {card_name(c) for c in took} & set(CARD.findall(text))


def test_every_showcase_picture_draws_760_wide_in_its_theme() -> None:
    for name, picture in showcase().items():
        png = draw_table(picture)
        image = Image.open(io.BytesIO(png))
        assert image.width == WIDTH and image.height == layout(picture).height, name
        corner = image.convert("RGB").getpixel((1, 1))
        assert (corner == (255, 255, 255)) == (picture.theme == "light"), name


def test_the_alt_text_says_the_stack_and_every_hand_size() -> None:
    state = table("R6 R7 B2", "G4 G5 G6 G7", stack="R5", passes=[1, 0])
    words = describe(TablePicture.of(state))
    assert words.startswith("Stack Up! table: the stack is Red 5, going up. draw pile")
    assert "ann 3 cards, 1 pass, to move; ben 4 cards" in words
