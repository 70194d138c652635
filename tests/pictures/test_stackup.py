"""Stack Up!'s table picture (pictures/stackup.py) tells players apart wherever it cuts a
name: on the "Last:" line and on the seats, long names that start alike keep their ends.
(The picture's public facts and its fitting are tested in tests/bot/test_stackup_table.py.)"""

from __future__ import annotations

import itertools
import random

from engine.game import Decision
from engine.stackup.state import StackUpState
from pictures.stackup import Piece, TablePicture, layout

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
            if text != name:  # cut: they do not fit beside the tags
                head, tail = text.split("…")
                assert head and name.startswith(head), text
                assert tail == name[-4:], text  # "Li 3": the end that tells it apart
                cut_seats += 1
        if picture.last_seat is not None and last is not None:
            head, tail = last.split("…")  # the line leaves it 300 px at most
            assert head and ALIKE[picture.last_seat].startswith(head), last
            assert tail == ALIKE[picture.last_seat][-4:], (last, picture.last_seat)
            lasts += 1
    assert lasts >= 10 and cut_seats >= 10, (lasts, cut_seats)
