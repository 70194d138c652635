"""The public side of a Stack Up! table without Discord: the table message's text and the
picture show the stack (colour, number, direction), the last play, every hand's size, the
draw pile, draw passes, a pending Crash, whose turn and the turns left — and never a card
of any hand, at 6 seats of 32-character names full of markdown and mentions, within
2,000 characters."""

from __future__ import annotations

import io
import random
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image

import catalog
from bot.games.stackup.views import field_text, seat_line
from bot.text import MESSAGE_LIMIT, escape_name
from engine.game import Decision
from engine.stackup.cards import card_name
from engine.stackup.moves import Play
from engine.stackup.state import StackUpState
from pictures.stackup import (
    WIDTH,
    Piece,
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


LANGUAGES = pytest.mark.parametrize("language", catalog.LANGUAGES)


@LANGUAGES
@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 10**6), players=st.integers(2, 6))
def test_the_table_text_names_no_card_of_any_hand_and_fits_a_message(
    language: str, seed: int, players: int
) -> None:
    for state in random_states(seed, players, every=3):
        with catalog.speaking(language):
            text = field_text(state, None)
            lines = [seat_line(state, seat) for seat in range(state.n)]
            sizes = [catalog.n("stackup.count.cards", state.hand_size(s)) for s in range(state.n)]
        assert len(text) <= MESSAGE_LIMIT
        assert not LIVE_MENTION.search(text), text
        named = set(CARD.findall(text))
        assert not named & in_hands(state), (named & in_hands(state), text)
        for seat in range(state.n):
            assert escape_name(state.players[seat]) in text
            assert sizes[seat] in lines[seat]


@LANGUAGES
@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 10**6), players=st.integers(2, 6))
def test_the_picture_is_given_public_facts_only(language: str, seed: int, players: int) -> None:
    for state in random_states(seed, players, every=2):
        with catalog.speaking(language):
            picture = TablePicture.of(state)
            alt = describe(picture)
        assert picture.hand_sizes == state.hand_sizes
        assert picture.passes == tuple(state.passes)
        assert picture.draw_pile == state.pile_size
        assert picture.crash_on == (None if state.is_over else state.pending_crash)
        # its cards are the last play's, on the stack now: in no hand
        assert not set(picture.last_cards) & in_hands(state)
        words = " ".join(str(getattr(picture, f)) for f in picture.__dataclass_fields__)
        assert not set(CARD.findall(words)) & in_hands(state) - set(picture.last_cards)
        assert not set(CARD.findall(alt)) & in_hands(state)


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


@LANGUAGES
def test_every_showcase_picture_draws_760_wide_in_its_theme(language: str) -> None:
    with catalog.speaking(language):
        for name, picture in showcase().items():
            png = draw_table(picture)
            image = Image.open(io.BytesIO(png))
            assert image.width == WIDTH and image.height == layout(picture).height, name
            corner = image.convert("RGB").getpixel((1, 1))
            assert (corner == (255, 255, 255)) == (picture.theme == "light"), name


def _right_edge(piece: Piece) -> int:
    """Where a label or a tag ends (its text's width, a tag's padding)."""
    from pictures.stackup import _width

    text = str(piece.key[0])
    if piece.kind == "tag":
        return piece.left + _width(text) + 20
    return piece.left + _width(text, piece.key[1])  # type: ignore[arg-type]


@LANGUAGES
@pytest.mark.parametrize("players", [2, 6])
def test_every_label_fits_the_picture_with_the_longest_names(language: str, players: int) -> None:
    for state in random_states(7 + players, players, every=9):
        for theme in ("dark", "light"):
            with catalog.speaking(language):
                picture = TablePicture.of(state, theme=theme, turn_seconds=600)
                pieces = layout(picture).pieces
            for piece in pieces:
                if piece.kind in ("label", "tag"):
                    assert _right_edge(piece) <= WIDTH - 8, (language, piece)


def test_the_alt_text_says_the_stack_and_every_hand_size() -> None:
    state = table("R6 R7 B2", "G4 G5 G6 G7", stack="R5", passes=[1, 0])
    words = describe(TablePicture.of(state))
    assert words.startswith("Stack Up! table: the stack is Red 5, going up. draw pile")
    assert "ann 3 cards, 1 pass, to move; ben 4 cards" in words
    with catalog.speaking("ja"):
        words = describe(TablePicture.of(state))
    assert words.startswith("スタックアップ！の卓：場は赤5、上り。山札")
    assert "ann 3枚、パス1、手番／ben 4枚" in words


def test_the_table_text_in_japanese() -> None:
    state = table(
        "R6 R7 R8 B2", "Crash G4 G5 G6", "R1 R2 Y5", stack="R5", passes=[0, 2, 0], turns=10
    )
    state.apply(Play(tuple(cards("R6 R7 R8")), "skip"))
    state.apply(Play(tuple(cards("R1 R2"))))
    with catalog.speaking("ja"):
        text = field_text(state, ["annはR6 R7 R8を出しました。"])
    lines = text.split("\n")
    assert lines[0] == "**スタックアップ！** · 13ターン目 · 上限まであと488ターン"
    assert lines[1].startswith("🟥 **赤2** · ⬆️ 上り（1→15） · 山札 **")
    assert "直前：**cat** R1 R2" in text
    assert "**ben** · 4枚 · 🎟️ ドローパス2枚" in text
    assert "▶ **ann** · 1枚" in text


def test_a_pending_crash_and_a_snatch_in_japanese() -> None:
    state = table("Crash R9 B2", "G4 G5 G6", "Y1 Y2 Y3", stack="R5")
    state.apply(Play(tuple(cards("Crash"))))
    with catalog.speaking("ja"):
        text = field_text(state, None)
        picture = TablePicture.of(state)
        tags = [p.key[0] for p in layout(picture).pieces if p.kind == "tag"]
    assert "💥 **ben**に**クラッシュ**：クラッシュでブロックするか3枚引く" in text
    assert "**ben** · 3枚 · 💥 クラッシュを受けている" in text
    assert "直前：**ann** クラッシュ" in text
    assert "✸ クラッシュ待ち" in tags and "クラッシュ！" in tags
    state = table("Snatch R9 B2", "G4 G5 G6 G7", "Y1 Y2 Y3", stack="R5")
    state.apply(Play(tuple(cards("Snatch")), target=BEN, count=2))
    while state.decision is Decision.CHANCE:
        state.apply(state.sample_chance(random.Random(1)))
    with catalog.speaking("ja"):
        assert last_turn(state) == (ANN, ("Snatch",), "benから2枚取った")
