"""A picture of the field, drawn with Pillow: each player's unstacked dice and the piles
they own as stacked dice in the players' colours. Pure and thread-safe: call it off the
event loop with a :class:`FieldPicture` taken on the loop."""

from __future__ import annotations

import io
from dataclasses import dataclass

from PIL import Image, ImageDraw

from engine.stack.state import StackState

RGB = (
    (220, 50, 47),
    (38, 139, 210),
    (60, 170, 80),
    (230, 200, 40),
    (150, 80, 200),
    (240, 140, 30),
    (140, 90, 50),
    (235, 235, 235),
)
DIE = 22
GAP = 4
ROW = 3 * DIE + 24
WIDTH = 720
PIPS = {
    1: [(0.5, 0.5)],
    2: [(0.25, 0.25), (0.75, 0.75)],
    3: [(0.25, 0.25), (0.5, 0.5), (0.75, 0.75)],
    4: [(0.25, 0.25), (0.75, 0.25), (0.25, 0.75), (0.75, 0.75)],
    5: [(0.25, 0.25), (0.75, 0.25), (0.5, 0.5), (0.25, 0.75), (0.75, 0.75)],
    6: [(0.25, 0.25), (0.75, 0.25), (0.25, 0.5), (0.75, 0.5), (0.25, 0.75), (0.75, 0.75)],
}


@dataclass(frozen=True, slots=True)
class FieldPicture:
    """What the picture shows, copied from the state so it can be drawn on another thread."""

    names: tuple[str, ...]
    singles: tuple[tuple[int, ...], ...]  # per seat, faces of unstacked dice
    piles: tuple[tuple[int, tuple[int, ...]], ...]  # (face, owners bottom to top)

    @classmethod
    def of(cls, state: StackState) -> FieldPicture:
        singles = tuple(
            tuple(f for f in range(1, 7) for _ in range(state.singles[s][f]))
            for s in range(state.n)
        )
        piles = tuple(sorted(state.pile_compositions(), key=lambda p: (p[1][-1], p[0], len(p[1]))))
        return cls(state.players, singles, piles)


def _die(draw: ImageDraw.ImageDraw, x: int, y: int, face: int, seat: int) -> None:
    colour = RGB[seat % len(RGB)]
    draw.rounded_rectangle((x, y, x + DIE, y + DIE), radius=4, fill=colour, outline=(20, 20, 20))
    pip = (20, 20, 20) if sum(colour) > 450 else (250, 250, 250)
    for px, py in PIPS[face]:
        cx, cy = x + px * DIE, y + py * DIE
        draw.ellipse((cx - 2, cy - 2, cx + 2, cy + 2), fill=pip)


def draw_field(picture: FieldPicture) -> bytes:
    """The field as a PNG."""
    height = len(picture.names) * ROW + 10
    image = Image.new("RGB", (WIDTH, height), (47, 49, 54))
    draw = ImageDraw.Draw(image)
    for seat, name in enumerate(picture.names):
        top = 5 + seat * ROW
        draw.text((8, top + 2), name[:24], fill=RGB[seat % len(RGB)])
        x = 8
        y = top + 2 * DIE + 16
        for face in picture.singles[seat]:
            _die(draw, x, y, face, seat)
            x += DIE + GAP
        x += DIE
        for face, owners in picture.piles:
            if owners[-1] != seat:
                continue
            for level, owner in enumerate(owners):
                _die(draw, x, y - level * (DIE - 6), face, owner)
            x += DIE + GAP
            if x > WIDTH - DIE:
                break
    out = io.BytesIO()
    image.save(out, format="PNG", optimize=False)
    return out.getvalue()
