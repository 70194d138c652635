"""A picture of the field: each player's name, unstacked dice and the piles they own, as
stacked dice in the players' colours.

Drawn from cached parts so a picture costs about a millisecond of CPU: a sprite per die or
pile (built once per face and colours), a label per name (drawn once per name and colour),
pasted onto a palette image saved with fast PNG compression. Rows wrap, so nothing is cut.
:func:`draw_field` is pure and thread-safe: call it off the event loop (a thread or a
process pool) with a :class:`FieldPicture` taken on the loop. ``python -m bot.image``
measures it.
"""

from __future__ import annotations

import io
import random
import statistics
import threading
import time
from collections import OrderedDict
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from typing import Generic, Literal, TypeVar

from PIL import Image, ImageDraw, ImageFont

from engine.game import Decision
from engine.stack.ai import RandomPlayer
from engine.stack.rules import StackRules
from engine.stack.state import StackState

Colour = tuple[int, int, int]

BACKGROUND: Colour = (47, 49, 54)
OUTLINE: Colour = (20, 20, 20)
LIGHT_PIP: Colour = (250, 250, 250)
SEAT_COLOURS: tuple[Colour, ...] = (
    (220, 50, 47),
    (38, 139, 210),
    (60, 170, 80),
    (230, 200, 40),
    (150, 80, 200),
    (240, 140, 30),
    (140, 90, 50),
    (235, 235, 235),
)
PIPS = {
    1: ((0.5, 0.5),),
    2: ((0.25, 0.25), (0.75, 0.75)),
    3: ((0.25, 0.25), (0.5, 0.5), (0.75, 0.75)),
    4: ((0.25, 0.25), (0.75, 0.25), (0.25, 0.75), (0.75, 0.75)),
    5: ((0.25, 0.25), (0.75, 0.25), (0.5, 0.5), (0.25, 0.75), (0.75, 0.75)),
    6: ((0.25, 0.25), (0.75, 0.25), (0.25, 0.5), (0.75, 0.5), (0.25, 0.75), (0.75, 0.75)),
}

WIDTH = 720  # every picture is this wide; it grows downwards
MARGIN = 8  # around the picture
DIE = 22  # a die's side
GAP = 4  # between dice, and between a seat's lines
STEP = DIE - 6  # how far each die of a pile sits above the one below it
NAME_HEIGHT = 18  # the line a seat's name is written on
FONT_SIZE = 14
SEAT_GAP = 8  # between one seat's dice and the next seat's name
SUPERSAMPLE = 4  # sprites are drawn this much larger, then reduced (smooth edges)
LABEL_CACHE_SIZE = 2048  # names (with their colour) kept drawn, about 4 KiB each
PNG_OPTIONS: dict[str, int | bool] = {"compress_level": 1, "optimize": False}

BoxKind = Literal["name", "die", "pile"]


@dataclass(frozen=True, slots=True)
class FieldPicture:
    """What the picture shows, copied from the state so it can be drawn on another thread
    or in another process (immutable and picklable)."""

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
        return cls(tuple(state.players), singles, piles)


@dataclass(frozen=True, slots=True)
class Box:
    """Where one thing is drawn: a seat's name, one of its unstacked dice
    (``picture.singles[seat][index]``) or a pile it owns (``picture.piles[index]``).
    ``right`` and ``bottom`` are exclusive, as in :meth:`PIL.Image.Image.crop`."""

    kind: BoxKind
    seat: int
    index: int
    left: int
    top: int
    right: int
    bottom: int

    @property
    def corners(self) -> tuple[int, int, int, int]:
        return (self.left, self.top, self.right, self.bottom)


@dataclass(frozen=True, slots=True)
class Layout:
    """The picture's size and a box for every name, die and pile, seat by seat."""

    width: int
    height: int
    boxes: tuple[Box, ...]


def pile_height(dice: int) -> int:
    """The height of a pile of ``dice`` dice (1 for an unstacked die)."""
    return DIE + (dice - 1) * STEP


def layout(picture: FieldPicture) -> Layout:
    """Where everything goes. Each seat has its name on a line of its own, then its
    unstacked dice and, after a space, the piles it owns (top die its colour), left to
    right; a line that is full wraps onto the next, so every die and pile is shown.
    The dice of a line stand on its bottom edge; piles rise above it."""
    boxes: list[Box] = []
    right_edge = WIDTH - MARGIN
    top = MARGIN
    for seat in range(len(picture.names)):
        boxes.append(Box("name", seat, 0, MARGIN, top, right_edge, top + NAME_HEIGHT))
        top += NAME_HEIGHT + GAP
        items: list[tuple[BoxKind, int, int]] = [
            ("die", index, DIE) for index in range(len(picture.singles[seat]))
        ]
        items += [
            ("pile", index, pile_height(len(owners)))
            for index, (_, owners) in enumerate(picture.piles)
            if owners[-1] == seat
        ]
        line: list[tuple[BoxKind, int, int, int]] = []  # kind, index, left, height
        x = MARGIN
        for kind, index, height in items:
            if kind == "pile" and line and line[-1][0] == "die":
                x += DIE  # a space between the unstacked dice and the piles
            if x + DIE > right_edge and line:
                top = _close_line(boxes, seat, line, top)
                line, x = [], MARGIN
            line.append((kind, index, x, height))
            x += DIE + GAP
        if line:
            top = _close_line(boxes, seat, line, top)
        top += SEAT_GAP - GAP
    height = max(top - SEAT_GAP + MARGIN, 2 * MARGIN)
    return Layout(WIDTH, height, tuple(boxes))


def _close_line(
    boxes: list[Box], seat: int, line: list[tuple[BoxKind, int, int, int]], top: int
) -> int:
    """Put a finished line's boxes at ``top``; the next line's top."""
    bottom = top + max(height for _, _, _, height in line)
    for kind, index, left, height in line:
        boxes.append(Box(kind, seat, index, left, bottom - height, left + DIE, bottom))
    return bottom + GAP


def draw_field(picture: FieldPicture) -> bytes:
    """The field as a PNG (palette colours, fast compression)."""
    plan = layout(picture)
    image = _blank(plan.height)
    paste = image.paste
    singles, piles, names = picture.singles, picture.piles, picture.names
    for box in plan.boxes:
        if box.kind == "die":
            paste(sprite(singles[box.seat][box.index], (box.seat,)), (box.left, box.top))
        elif box.kind == "pile":
            face, owners = piles[box.index]
            paste(sprite(face, owners), (box.left, box.top))
        else:
            label = _label(names[box.seat], box.seat % len(SEAT_COLOURS))
            paste(label, (box.left, box.top))
    out = io.BytesIO()
    image.save(out, format="PNG", **PNG_OPTIONS)
    return out.getvalue()


# ------------------------------------------------------------------ cached parts

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")


class _Parts(Generic[K, V]):
    """Parts built on first use, once each (builds run under one lock, so a font or a
    half-built part is never shared between threads), then read without locking.
    With ``limit``, the least recently built parts beyond it are dropped."""

    def __init__(self, build: Callable[[K], V], limit: int | None = None) -> None:
        self._build = build
        self._limit = limit
        self._parts: OrderedDict[K, V] = OrderedDict()

    def __call__(self, key: K) -> V:
        part = self._parts.get(key)
        if part is not None:
            return part
        with _BUILD_LOCK:
            part = self._parts.get(key)
            if part is None:
                part = self._build(key)
                self._parts[key] = part
                if self._limit is not None and len(self._parts) > self._limit:
                    self._parts.popitem(last=False)
            return part

    def __len__(self) -> int:
        return len(self._parts)

    def clear(self) -> None:
        with _BUILD_LOCK:
            self._parts.clear()


_BUILD_LOCK = threading.RLock()


def _blend(a: Colour, b: Colour, t: float) -> Colour:
    return (
        round(a[0] + (b[0] - a[0]) * t),
        round(a[1] + (b[1] - a[1]) * t),
        round(a[2] + (b[2] - a[2]) * t),
    )


def _palette_colours() -> list[Colour]:
    """Background first, then the pure colours, then the shades their smoothed edges need
    (each colour against its neighbours: outline, pips, background)."""
    colours = [BACKGROUND, OUTLINE, LIGHT_PIP, *SEAT_COLOURS]
    pairs = [(BACKGROUND, OUTLINE)]
    for colour in SEAT_COLOURS:
        pairs += [(colour, OUTLINE), (colour, LIGHT_PIP), (colour, BACKGROUND)]
    for a, b in pairs:
        colours += [_blend(a, b, t / 4) for t in (1, 2, 3)]
    return list(dict.fromkeys(colours))


PALETTE: tuple[Colour, ...] = tuple(_palette_colours())
# unused entries repeat the background, so nothing is ever matched to a stray black
_PALETTE_BYTES = bytes(c for colour in PALETTE for c in colour) + bytes(BACKGROUND) * (
    256 - len(PALETTE)
)
_PALETTE_IMAGE = Image.new("P", (1, 1))
_PALETTE_IMAGE.putpalette(_PALETTE_BYTES)


def _pip_colour(colour: Colour) -> Colour:
    return OUTLINE if sum(colour) > 450 else LIGHT_PIP


def _build_sprite(key: tuple[int, tuple[int, ...]]) -> Image.Image:
    face, colours = key
    s = SUPERSAMPLE
    side, step = DIE * s, STEP * s
    height = side + (len(colours) - 1) * step
    image = Image.new("RGB", (side, height), BACKGROUND)
    draw = ImageDraw.Draw(image)
    for level, colour_index in enumerate(colours):
        colour = SEAT_COLOURS[colour_index]
        y = height - side - level * step
        draw.rounded_rectangle(
            (0, y, side - 1, y + side - 1), radius=4 * s, fill=colour, outline=OUTLINE, width=s
        )
        pip, r = _pip_colour(colour), 2 * s
        for px, py in PIPS[face]:
            cx, cy = px * side, y + py * side
            draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=pip)
    sprite = image.reduce(s).quantize(palette=_PALETTE_IMAGE, dither=Image.Dither.NONE)
    sprite.load()
    return sprite


_SPRITES: _Parts[tuple[int, tuple[int, ...]], Image.Image] = _Parts(_build_sprite)


def sprite(face: int, owners: tuple[int, ...]) -> Image.Image:
    """A die showing ``face`` in ``owners[0]``'s colour, or a pile of them (``owners``
    bottom to top), in the picture's palette; built once, shared (do not modify)."""
    return _SPRITES((face, tuple(owner % len(SEAT_COLOURS) for owner in owners)))


def _load_font() -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    try:
        return ImageFont.truetype("DejaVuSans.ttf", FONT_SIZE)
    except OSError:  # no DejaVu on this system: Pillow's own scalable font
        return ImageFont.load_default(size=FONT_SIZE)


_FONT: list[ImageFont.FreeTypeFont | ImageFont.ImageFont] = []


def _font() -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    with _BUILD_LOCK:
        if not _FONT:
            _FONT.append(_load_font())
        return _FONT[0]


def fitted_name(name: str, width: int = WIDTH - 2 * MARGIN) -> str:
    """``name`` as the picture writes it: on one line, shortened with "…" to fit ``width``
    pixels."""
    font = _font()
    text = "".join(ch if ch.isprintable() else " " for ch in name[:200])
    if font.getlength(text) <= width:
        return text
    while text and font.getlength(text + "…") > width:
        text = text[:-1]
    return text.rstrip() + "…"


def _coverage_indices(colour: Colour) -> list[int]:
    """For each text coverage 0-255, the palette index of ``colour`` over the background
    at that coverage (to the nearest quarter)."""
    shades = [_blend(colour, BACKGROUND, quarter / 4) for quarter in range(5)]
    return [PALETTE.index(shades[round((255 - level) * 4 / 255)]) for level in range(256)]


_COVERAGE_INDICES = tuple(_coverage_indices(colour) for colour in SEAT_COLOURS)


def _build_label(key: tuple[str, int]) -> Image.Image:
    """A name in its seat's colour, antialiased (FreeType's coverage, in quarters)."""
    name, colour_index = key
    font = _font()
    text = fitted_name(name)
    width = max(1, min(WIDTH - 2 * MARGIN, int(font.getlength(text)) + 2))
    coverage = Image.new("L", (width, NAME_HEIGHT), 0)
    ImageDraw.Draw(coverage).text((0, NAME_HEIGHT // 2), text, font=font, fill=255, anchor="lm")
    indices = coverage.point(_COVERAGE_INDICES[colour_index])
    label = Image.frombytes("P", indices.size, indices.tobytes())
    label.putpalette(_PALETTE_BYTES)
    label.load()
    return label


_LABELS: _Parts[tuple[str, int], Image.Image] = _Parts(_build_label, LABEL_CACHE_SIZE)


def _label(name: str, colour_index: int) -> Image.Image:
    return _LABELS((name, colour_index))


def _blank(height: int) -> Image.Image:
    """A new picture of the background colour, in the palette."""
    blank = Image.new("P", (WIDTH, height), 0)
    blank.putpalette(_PALETTE_BYTES)
    return blank


# ------------------------------------------------------------------ measuring it


def forget_parts() -> None:
    """Drop every cached sprite and label (they are built again on use)."""
    for parts in (_SPRITES, _LABELS):
        parts.clear()


def sample_pictures(seats: int, dice: int, count: int, seed: int = 1) -> list[FieldPicture]:
    """``count`` pictures of random games with ``seats`` players of ``dice`` dice each,
    taken after about one move in four, round after round (names of 32 characters)."""
    rng = random.Random(seed)
    player = RandomPlayer()
    names = tuple(f"Player {seat + 1} with a very long name"[:32] for seat in range(seats))
    pictures: list[FieldPicture] = []
    while len(pictures) < count:
        state = StackState(names, StackRules(dice_per_player=dice, target_score=10_000))
        while len(pictures) < count and not state.is_over:
            if state.decision is Decision.CHANCE:
                state.apply(state.sample_chance(rng))
            else:
                state.apply(player.choose(state, rng))
                if rng.random() < 0.25:
                    pictures.append(FieldPicture.of(state))
    return pictures


def cpu_ms(draw: Callable[[FieldPicture], object], pictures: list[FieldPicture]) -> list[float]:
    """CPU milliseconds (this thread's) that ``draw`` takes for each picture."""
    times = []
    for picture in pictures:
        start = time.thread_time_ns()
        draw(picture)
        times.append((time.thread_time_ns() - start) / 1e6)
    return times


def bench(samples: int = 300) -> list[str]:
    """CPU per picture for 2, 4 and 8 seats of 14 dice and 8 of 30, parts already cached
    (as in a running bot); first, what filling the caches costs. The last line is
    ``picture 8x14: p50 X ms, p99 Y ms``."""
    lines = []
    forget_parts()
    cold = sample_pictures(8, 30, 1, seed=0)
    first = cpu_ms(draw_field, cold)[0]
    lines.append(f"first picture (8x30, every part built): {first:.1f} ms")
    for seats, dice in ((8, 30), (2, 14), (4, 14), (8, 14)):
        pictures = sample_pictures(seats, dice, samples)
        cpu_ms(draw_field, pictures)  # warm: every sprite and label built
        times = sorted(cpu_ms(draw_field, pictures))
        p50, p99 = statistics.median(times), times[min(len(times) - 1, len(times) * 99 // 100)]
        size = statistics.median(len(draw_field(p)) for p in pictures[:50]) / 1024
        lines.append(f"picture {seats}x{dice}: median PNG {size:.1f} KiB")
        lines.append(f"picture {seats}x{dice}: p50 {p50:.2f} ms, p99 {p99:.2f} ms")
    return lines


if __name__ == "__main__":
    for line in bench():
        print(line)
