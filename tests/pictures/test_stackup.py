"""Stack Up!'s table picture (pictures/stackup.py) tells players apart wherever it cuts a
name: on the "Last:" line, in a Snatch's note and on the seats, long names that start
alike keep their ends.
(The picture's public facts and its fitting are tested in tests/bot/test_stackup_table.py.)"""

from __future__ import annotations

import itertools
import random

import catalog
from engine.game import Decision
from engine.stackup.moves import Play
from engine.stackup.state import StackUpState
from pictures import fonts
from pictures.stackup import Piece, TablePicture, last_turn, layout
from tests.engine.stackup.situations import BEN, CAT, cards, table
from tests.pictures.cut_names import assert_cut_apart

# six 32-character names alike but for their last characters
ALIKE = tuple(f"Alexandra Konstantinopoulou-Li {seat}" for seat in range(1, 7))


def every_few_decisions(seed: int, every: int) -> list[StackUpState]:
    """A random game of the six alike names, a state every ``every`` decisions and the last."""
    rng = random.Random(seed)
    state = StackUpState(ALIKE)
    seen = []
    decisions = 0
    while not state.is_over:
        if state.decision is Decision.CHANCE:
            state.apply(state.sample_chance(rng))
            continue
        decisions += 1
        if decisions % every == 0:
            seen.append(state.copy())
        state.apply(rng.choice(state.legal_moves()))
    return [*seen, state]


def names_shown(pieces: tuple[Piece, ...]) -> tuple[str | None, list[str]]:
    """The name on the "Last:" line (``None`` if there is none) and each seat's name."""
    last = None
    for before, piece in itertools.pairwise(pieces):
        if before.kind == "label" and before.key[0] == "Last:":
            last = str(piece.key[0])
    seats = sorted(
        (piece.seat, str(piece.key[0]))
        for piece in pieces
        if piece.kind == "label" and piece.seat >= 0 and piece.key[1] == "bold"
    )
    return last, [name for _, name in seats]


def test_long_names_starting_alike_are_cut_apart_on_the_table_picture() -> None:
    """Six 32-character names alike but for their last characters: the "Last:" line, cut
    short, says which of them played, and a seat's name cut beside its tags ("to move",
    "Crash!") is its own."""
    lasts = cut_seats = 0
    for state in every_few_decisions(seed=5, every=3):
        picture = TablePicture.of(state, turn_seconds=60)
        last, seats = names_shown(layout(picture).pieces)
        assert len(set(seats)) == len(ALIKE), seats
        for name, text in zip(ALIKE, seats, strict=True):
            cut_seats += assert_cut_apart(name, text)  # cut when the tags leave no room
        if picture.last_seat is not None and last is not None:
            # the line leaves it 300 px at most: always cut
            lasts += assert_cut_apart(ALIKE[picture.last_seat], last)
    assert lasts >= 10 and cut_seats >= 10, (lasts, cut_seats)


def test_a_snatch_from_one_of_names_starting_alike_says_whose_cards_it_took() -> None:
    """The last play's note names a Snatch's victim by its first 24 characters, unless
    those begin another player's name: then the name is cut apart, keeping its end."""
    for victim in (BEN, CAT):
        state = table("Snatch R9 B2", "G4 G5 G6 G7", "Y1 Y2 Y3 Y4", stack="R5", players=ALIKE[:3])
        state.apply(Play(tuple(cards("Snatch")), target=victim, count=2))
        while state.decision is Decision.CHANCE:
            state.apply(state.sample_chance(random.Random(1)))
        picture = TablePicture.of(state)
        assert "…" in picture.last_note, picture.last_note  # not just its first characters
        head, tail = picture.last_note.removeprefix("took 2 from ").split("…")
        assert ALIKE[victim].startswith(head) and len(head) >= len("Alexandra"), head
        assert tail == ALIKE[victim][-4:], picture.last_note
        drawn = [piece.key[0] for piece in layout(picture).pieces if piece.kind == "label"]
        assert picture.last_note in drawn  # whole on its line
    # names that begin no other are cut to 24 characters, the cut marked
    plain = ("Ann", "Bartholomew Higginbotham-Smythe the Third", "Cat")
    state = table("Snatch R9 B2", "G4 G5 G6 G7", "Y1 Y2 Y3", stack="R5", players=plain)
    state.apply(Play(tuple(cards("Snatch")), target=BEN, count=2))
    while state.decision is Decision.CHANCE:
        state.apply(state.sample_chance(random.Random(1)))
    assert last_turn(state)[2] == "took 2 from Bartholomew Higginbotha…"
    state = table(
        "Snatch R9 B2",
        "G4 G5 G6 G7",
        "Y1 Y2 Y3",
        stack="R5",
        players=("Ann", "Bartholomew Higginbotham", "Cat"),
    )
    state.apply(Play(tuple(cards("Snatch")), target=BEN, count=2))
    while state.decision is Decision.CHANCE:
        state.apply(state.sample_chance(random.Random(1)))
    assert last_turn(state)[2] == "took 2 from Bartholomew Higginbotham"  # 24: whole


def test_a_snatch_note_in_japanese_reads_the_victims_right_to_left_name_then_the_words() -> None:
    """「שלום עולםから2枚取った」: the name, isolated, reads from the right without taking
    the Japanese words after it into its direction (they stay on its right)."""
    hebrew = "שלום עולם"
    with catalog.speaking("ja"):
        state = table(
            "Snatch R9 B2", "G4 G5 G6 G7", "Y1 Y2 Y3", stack="R5", players=("Ann", hebrew, "Cat")
        )
        state.apply(Play(tuple(cards("Snatch")), target=BEN, count=2))
        while state.decision is Decision.CHANCE:
            state.apply(state.sample_chance(random.Random(1)))
        picture = TablePicture.of(state)
        drawn = [str(piece.key[0]) for piece in layout(picture).pieces if piece.kind == "label"]
    (note,) = [text for text in drawn if "から" in text]
    assert in_drawn_order(note) == [(hebrew, True), ("から2枚取った", False)]
    # English too: the name at the end of the words
    assert in_drawn_order(last_turn(state)[2]) == [("took 2 from ", False), (hebrew, True)]


def in_drawn_order(text: str) -> list[tuple[str, bool]]:
    """``text``'s pieces from the left, each with whether it reads from the right."""
    pieces: list[tuple[str, bool]] = []
    for run, _, rtl in fonts.visual_runs(text):
        if pieces and pieces[-1][1] == rtl:
            pieces[-1] = (pieces[-1][0] + run, rtl)
        else:
            pieces.append((run, rtl))
    return pieces


def test_the_title_of_a_game_over_after_one_turn_says_turn_in_the_singular() -> None:
    from dataclasses import replace

    from pictures.stackup import _turn_piece

    picture = TablePicture.of(table("G1 G2", "Y1 Y2 Y3", seat=0))
    assert _turn_piece(replace(picture, over=True, turns_taken=1)) == "game over after 1 turn"
    assert _turn_piece(replace(picture, over=True, turns_taken=2)) == "game over after 2 turns"
    with catalog.speaking("ja"):
        assert _turn_piece(replace(picture, over=True, turns_taken=1)) == "1ターンで終了"
