"""The Color Stack board picture: the board as the first player sees it, for a phone.

What it shows: a title line (the turn and the turns left, or how the game ended), a row
per player (name, their two colours as small dice, "to move" / "wins"), then the board —
its 3 × 3 cards with their white and black squares, coordinates ``a``–``i`` under it and
``1``–``6`` (heavy ``1``–``9``) beside it, row 1 at the bottom, the first player's side —
with each stack on its square: its top die large in its colour with its number, the dice
under it as edges peeking below (so a stack looks as high as it is), and a column of
small marks beside it, one per die bottom to top, each the die's colour *and shape*
(● red, ■ blue, ▲ green, ◆ yellow: :func:`pictures.palette.seat_mark`'s shapes in the same
colours), so hue never carries the meaning alone. The last move is an arrow along its
path (its start and end squares tinted; a set is its square tinted and ringed). In a
player's private panel, the piece they selected is the board's strongest mark (its
square filled gold in a thick frame; the last move is left out there) and its legal
destinations are marked: a dot on an empty square, corner brackets round a stack it may
stack on.

Readable on a phone like :mod:`pictures.stack`: :data:`WIDTH` = 760 px shown at about 380 CSS
px, every text :data:`FONT` = 30 px (the dice's numbers larger).

Fast: a square's tile (its colour, marks and stack) is drawn once supersampled, reduced
to the theme's palette (:func:`_palette_colours`: every colour drawn and the shades of
their smoothed edges, at most 256) and cached, keyed by what it shows; a picture is tiles
and labels pasted into a palette ("P") image, the arrow drawn supersampled on its own
small mask and painted in (only the pixels it touches reduced again), and saved with fast
PNG compression — a palette PNG encodes about five times faster than an RGB one.
:func:`draw_board` is pure and thread-safe; the bot runs it in the painter worker with a
:class:`BoardPicture` taken on the event loop (:meth:`BoardPicture.of`).

``python -m pictures.colorstack`` prints the bench (CPU ms per picture);
``python -m pictures.colorstack --save docs/pictures`` draws the docs' examples (and the
Japanese one, ``colorstack-ja.png``).
"""

from __future__ import annotations

import io
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Literal

from PIL import Image, ImageDraw

from catalog import colorstack as words
from catalog import n, t
from engine.colorstack.board import COLOUR_LETTERS as LETTERS
from engine.colorstack.moves import Set
from engine.colorstack.state import ColorStackState, stack_text
from pictures import fonts
from pictures.palette import LETTER_COLOURS, Colour, Theme, blend, contrast_text, palette
from pictures.parts import FONT, SUPERSAMPLE, WIDTH, IndexedPalette

__all__ = [
    "COLOUR_LETTERS",
    "DIE_COLOURS",
    "BoardPicture",
    "Mark",
    "describe",
    "draw_board",
    "square_name",
    "square_of",
]

LINE = 40
MARGIN = 12
GAP = 8
COLUMNS = 9
SQUARE = 72  # a square's tile
TEXT_TOP = (SQUARE - LINE) // 2  # a row number's top, from its squares' top
SQUARE_GAP = 3  # between the squares of a card
CARD_PAD = 4  # a card's rim round its squares
CARD_GAP = 8  # between cards
CARD = CARD_PAD * 2 + SQUARE * 3 + SQUARE_GAP * 2  # 230
BOARD = CARD * 3 + CARD_GAP * 2  # 706: the board is as wide as high on heavy
RANK_W = WIDTH - 2 * MARGIN - BOARD  # the row numbers' column: 30
DIE = 46  # the top die of a stack
DIE_LEFT, DIE_TOP = 4, 4
LAYER = 5  # how far each die under the top one shows below it
NUMBER = 34  # a die's number
PIP = 15  # a die's mark in the column beside it
SELECTED_FILL = 0.55  # the selected square: this much of the mark's gold in its fill
PIP_LEFT = 54
SEAT_H = 50  # a player's row
CHIP = 34  # a player's colour as a small die
BOARD_TOP = MARGIN + LINE + GAP + 2 * (SEAT_H + GAP)  # under the title and the players' rows
PNG_OPTIONS: dict[str, int | bool] = {"compress_level": 1, "optimize": False}

COLOUR_LETTERS = tuple(LETTERS)  # the record's colour letters: R B Y G
DIE_COLOURS = LETTER_COLOURS  # Discord's 🟥🟦🟨🟩, as the text shows them (as Stack Up!'s cards)
# the shape of each colour: pictures.palette's marks of the seats of these colours (red ●,
# blue ■, green ▲, yellow ◆), so every picture of the bot pairs a colour with one shape
SHAPES = {"R": "circle", "B": "square", "G": "triangle", "Y": "diamond"}
SHAPE_GLYPHS = {"circle": "●", "square": "■", "triangle": "▲", "diamond": "◆"}

Mark = Literal["", "last", "selected", "dest"]


@dataclass(frozen=True, slots=True)
class Board:
    """The squares' colours: ``black[i]`` for square ``i`` (row-major from ``a1``)."""

    rows: int
    black: tuple[bool, ...]


@dataclass(frozen=True, slots=True)
class BoardPicture:
    """What the picture shows, as plain values (picklable, hashable: the table message
    caches the PNG by it). Squares are numbered row-major from ``a1`` (``a1`` 0, ``b1`` 1,
    ``a2`` 9); ``stacks[i]`` is the stack on square ``i`` bottom to top as the record
    writes it (``"B5G2"``; ``""`` empty), ``black[i]`` whether it is black.

    ``path`` is the last move's path, start to end (``()``: no move yet); ``set_square``
    the square of a last move that was a set. ``selected`` and ``destinations`` are a
    private panel's: the piece chosen and where it may go."""

    PICTURE = "colorstack"  # its drawing in pictures.games (a class attribute, not a field)

    rows: int
    black: tuple[bool, ...]
    stacks: tuple[str, ...]
    names: tuple[str, str]
    colours: tuple[tuple[str, ...], tuple[str, ...]]  # each seat's colour letters (or none yet)
    current: int | None = None
    winners: tuple[int, ...] = ()
    over: bool = False
    ended_by: str = ""
    turns_taken: int = 0
    turn_limit: int = 300
    path: tuple[int, ...] = ()
    set_square: int | None = None
    selected: int | None = None
    destinations: tuple[int, ...] = ()
    theme: Theme = "dark"
    turn_seconds: int | None = None

    def __post_init__(self) -> None:
        size = self.rows * COLUMNS
        if len(self.black) != size or len(self.stacks) != size:
            raise ValueError(f"a {COLUMNS}x{self.rows} board has {size} squares")

    @classmethod
    def of(
        cls,
        state: ColorStackState,
        *,
        theme: Theme = "dark",
        turn_seconds: int | None = None,
        selected: int | str | None = None,
    ) -> BoardPicture:
        """The picture of a Color Stack state (``selected``: a square, number or name,
        whose piece's legal destinations are shown, as a private panel shows them)."""
        if isinstance(selected, str):
            selected = square_of(selected)
        outcome = state.outcome()
        pairs = state.colours or ((), ())  # none before the first player chooses them
        colours = tuple(tuple(COLOUR_LETTERS[c] for c in pair) for pair in pairs)
        last = state.last_turn
        return cls(
            rows=state.rows,
            black=tuple(state.is_black(sq) for sq in range(state.squares)),
            stacks=tuple(stack_text(state.stack(sq)) for sq in range(state.squares)),
            names=(state.players[0], state.players[1]),
            colours=(colours[0], colours[1]),
            current=state.current_player,
            winners=tuple(outcome.winners) if outcome is not None else (),
            over=state.is_over,
            ended_by=state.ended_by or "",
            turns_taken=state.turns,
            turn_limit=state.turn_limit,
            path=tuple(state.last_path() or ()),
            set_square=last[1].square if last is not None and isinstance(last[1], Set) else None,
            selected=selected,
            destinations=tuple(state.destinations(selected)) if selected is not None else (),
            theme=theme,
            turn_seconds=turn_seconds,
        )


def square_name(index: int) -> str:
    """``0`` -> ``"a1"``."""
    return f"{'abcdefghi'[index % COLUMNS]}{index // COLUMNS + 1}"


def square_of(name: str) -> int:
    """``"a1"`` -> ``0`` (the name must be well formed)."""
    return (int(name[1:]) - 1) * COLUMNS + "abcdefghi".index(name[0])


def dice_of(stack: str) -> tuple[tuple[str, int], ...]:
    """``"B5G2"`` -> ``(("B", 5), ("G", 2))``: colour letter and face, bottom to top."""
    return tuple((stack[i], int(stack[i + 1])) for i in range(0, len(stack), 2))


# ------------------------------------------------------------------ words


def _colour(letter: str) -> str:
    """A colour letter (``R``) in words (``red``), in the language spoken."""
    return words.colour_name(COLOUR_LETTERS.index(letter))


def describe(picture: BoardPicture) -> str:
    """The picture's alt text, in the language spoken: the players and their colours,
    whose turn, the last move and every stack (plain text, names as they are)."""
    seats = []
    for seat, name in enumerate(picture.names):
        colours = t("colorstack.colours.and").join(_colour(c) for c in picture.colours[seat])
        key = "colorstack.alt.seat"
        if seat in picture.winners:
            key = "colorstack.alt.seat_wins"
        elif seat == picture.current and not picture.over:
            key = "colorstack.alt.seat_to_move"
        seats.append(t(key, name=name, colours=colours))
    size = t("colorstack.alt.heavy" if picture.rows == 9 else "colorstack.alt.light")
    parts = [t("colorstack.alt.board", size=size, seats=t("colorstack.alt.seats").join(seats))]
    if picture.path:
        frm, to = square_name(picture.path[0]), square_name(picture.path[-1])
        parts.append(t("colorstack.alt.last_move", frm=frm, to=to))
    elif picture.set_square is not None:
        parts.append(t("colorstack.alt.last_set", square=square_name(picture.set_square)))
    dice = t("colorstack.alt.die_separator")
    stacks = [
        f"{square_name(i)} "
        + dice.join(t("colorstack.die", colour=_colour(c), face=face) for c, face in dice_of(stack))
        for i, stack in enumerate(picture.stacks)
        if stack
    ]
    parts.append(
        t("colorstack.alt.stacks", stacks=t("colorstack.alt.stack_separator").join(stacks))
    )
    if picture.selected is not None:
        where = " ".join(square_name(i) for i in picture.destinations) or t(
            "colorstack.alt.nowhere"
        )
        parts.append(
            t("colorstack.alt.selected", square=square_name(picture.selected), where=where)
        )
    return t("colorstack.alt.sentence").join(parts)[:1024]


HOW = {  # how a game ended (the picture's ended_by) -> its words in the title
    "four_colours": "colorstack.picture.how.four_colours",
    "resignation": "colorstack.picture.how.resignation",
    "repetition": "colorstack.picture.how.repetition",
    "turn_limit": "colorstack.picture.how.turn_limit",
}


def _title(picture: BoardPicture) -> tuple[str, str]:
    """The title line's bold and muted parts, in the language spoken."""
    return words.WORDS.title(), _muted_titles(picture)[0]


def _muted_titles(picture: BoardPicture) -> list[str]:
    """The title's muted part, from the fullest to the shortest: where one does not fit,
    the next says less, every part of it whole. Once the game is over how it ended is
    kept (its turns said shorter, then left out); under way the turn is (its timer left
    out, then the turns left)."""
    if picture.over:
        key = HOW.get(picture.ended_by)
        how = t(key) if key else picture.ended_by
        turns = picture.turns_taken
        choices = [
            [n("colorstack.picture.over", turns), how],
            [n("colorstack.picture.turns", turns), how],
            [how],
        ]
    else:
        left = max(0, picture.turn_limit - picture.turns_taken)
        parts = [
            t("colorstack.picture.turn", turn=picture.turns_taken + 1),
            t("colorstack.picture.left", left=left),
        ]
        if picture.turn_seconds:
            parts.append(t("colorstack.picture.timer", seconds=picture.turn_seconds))
        choices = [parts[:size] for size in range(len(parts), 0, -1)]
    return ["".join(f" · {part}" for part in parts) for parts in choices]


# ------------------------------------------------------------------ colours


@dataclass(frozen=True, slots=True)
class BoardColours:
    """The board's colours in one theme."""

    card: Colour  # a card's rim
    white: Colour  # an open square
    black: Colour  # an impassable square
    hatch: Colour  # the lines across a black square
    last: Colour  # the last move's squares
    arrow: Colour
    arrow_edge: Colour
    mark: Colour  # the selection and destinations
    mark_edge: Colour
    die_edge: Colour


# The board's colours, dark then light (the mark is the theme's highlight).
_BOARD: dict[str, tuple[Colour, Colour]] = {
    "card": ((112, 98, 78), (150, 132, 104)),
    "white": ((222, 215, 198), (246, 241, 228)),
    "black": ((44, 44, 50), (58, 56, 60)),
    "hatch": ((78, 78, 86), (96, 94, 100)),
    "last": ((240, 212, 110), (250, 224, 130)),
    "arrow": ((255, 128, 0), (232, 110, 0)),
    "arrow_edge": ((24, 12, 0), (60, 30, 0)),
    "mark_edge": ((20, 20, 22), (40, 40, 44)),
    "die_edge": ((12, 12, 14), (40, 40, 44)),
}


def board_colours(theme: Theme) -> BoardColours:
    index = 1 if theme == "light" else 0
    colours = {name: pair[index] for name, pair in _BOARD.items()}
    return BoardColours(mark=palette(theme).highlight, **colours)


def _palette_colours(theme: Theme) -> list[Colour]:
    """The theme's palette (entry 0 the picture's background): every colour a part is
    drawn in, then the shades the smoothed edges between two of them need — finer where
    text is written (its letters' edges), coarser at a shape's edge."""
    colours = palette(theme)
    board = board_colours(theme)
    panel, turn = _seat_ground(theme, False), _seat_ground(theme, True)
    selected = blend(board.white, board.mark, SELECTED_FILL)
    dice = list(DIE_COLOURS.values())
    tiles = [board.white, board.last, selected]
    keys = [
        colours.background,
        panel,
        turn,
        colours.panel_edge,
        colours.text,
        colours.muted,
        colours.highlight,
        colours.highlight_text,
        board.card,
        *tiles,
        board.black,
        board.hatch,
        board.arrow,
        board.arrow_edge,
        board.mark,
        board.mark_edge,
        board.die_edge,
        *dice,
        *(contrast_text(fill) for fill in dice),
    ]
    text = [
        (colours.background, colours.text),
        (colours.background, colours.muted),
        (panel, colours.text),
        (turn, colours.text),
        (colours.highlight, colours.highlight_text),
    ]
    numbers = [(fill, contrast_text(fill)) for fill in dice]
    under_arrow = [*tiles, board.card, colours.background, board.black, board.hatch, *dice]
    shapes = [
        (colours.background, colours.panel_edge),
        (colours.panel_edge, panel),
        (colours.background, colours.highlight),
        (colours.highlight, turn),
        (colours.background, board.card),
        (board.black, board.hatch),
        (board.white, board.mark),
        (board.white, board.mark_edge),
        (board.mark, board.mark_edge),
        (board.arrow, board.arrow_edge),
        *((ground, board.die_edge) for ground in [panel, turn, *tiles, *dice]),
    ]
    edges = [(ground, board.arrow_edge) for ground in under_arrow]
    shades = [blend(a, b, i / 12) for a, b in text for i in range(1, 12)]
    shades += [blend(a, b, i / 7) for a, b in [*numbers, *shapes] for i in range(1, 7)]
    shades += [blend(a, b, i / 4) for a, b in edges for i in range(1, 4)]
    found = list(dict.fromkeys([*keys, *shades]))
    assert len(found) <= 256, len(found)
    return found


# ------------------------------------------------------------------ parts


def _shape(
    draw: ImageDraw.ImageDraw,
    shape: str,
    box: tuple[float, float, float, float],
    fill: Colour,
    edge: Colour,
    width: float,
) -> None:
    """One colour's shape (supersampled coordinates) inside ``box``."""
    x0, y0, x1, y1 = box
    cx, cy = (x0 + x1) / 2, (y0 + y1) / 2
    if shape == "circle":
        draw.ellipse(box, fill=fill, outline=edge, width=round(width))
    elif shape == "square":
        inset = (x1 - x0) * 0.08
        draw.rectangle(
            (x0 + inset, y0 + inset, x1 - inset, y1 - inset),
            fill=fill,
            outline=edge,
            width=round(width),
        )
    elif shape == "triangle":
        draw.polygon([(cx, y0), (x1, y1), (x0, y1)], fill=fill, outline=edge, width=round(width))
    else:
        draw.polygon(
            [(cx, y0), (x1, cy), (cx, y1), (x0, cy)], fill=fill, outline=edge, width=round(width)
        )


@lru_cache(maxsize=4096)
def _tile(theme: Theme, black: bool, stack: str, mark: Mark, last: bool) -> Image.Image:
    """One square: its colour (tinted when the last move touched it), its stack, and a
    panel's mark (``selected``: a frame; ``dest``: a dot or corner brackets)."""
    s = SUPERSAMPLE
    colours = board_colours(theme)
    size = SQUARE * s
    if black:
        image = Image.new("RGB", (size, size), colours.black)
        draw = ImageDraw.Draw(image)
        step = 12 * s
        for offset in range(-size, size, step):  # hatched: a wall in any theme
            draw.line((offset, size, offset + size, 0), fill=colours.hatch, width=2 * s)
        return _reduce(image.reduce(s), theme)
    ground = colours.last if last else colours.white
    if mark == "selected":  # the strongest mark of the board: filled and thickly framed
        ground = blend(colours.white, colours.mark, SELECTED_FILL)
    image = Image.new("RGB", (size, size), ground)
    draw = ImageDraw.Draw(image)
    dice = dice_of(stack)
    if mark == "selected":
        draw.rectangle((0, 0, size - 1, size - 1), outline=colours.mark_edge, width=10 * s)
        draw.rectangle(
            (2 * s, 2 * s, size - 1 - 2 * s, size - 1 - 2 * s), outline=colours.mark, width=7 * s
        )
    # bottom die first, each lower than the one on it: the dice under the top one show
    # their lower edges beneath it
    height = len(dice)
    # a winning stack may hold up to six dice (two stacks of three sharing colours): the
    # layers and marks close up to stay inside the square
    layer = min(float(LAYER), 15 / (height - 1)) if height > 1 else 0.0
    spacing = min(float(PIP + 1), (SQUARE - 8) / height) if height else 0.0
    pip = min(float(PIP), spacing - 1)
    for index, (colour, _face) in enumerate(dice):
        top = round((DIE_TOP + layer * (height - 1 - index)) * s)
        left = DIE_LEFT * s
        draw.rounded_rectangle(
            (left, top, left + DIE * s - 1, top + DIE * s - 1),
            radius=8 * s,
            fill=DIE_COLOURS[colour],
            outline=colours.die_edge,
            width=2 * s,
        )
    for index, (colour, _face) in enumerate(dice):
        bottom = (SQUARE - 4 - spacing * index) * s
        pip_left = (PIP_LEFT + (PIP - pip) / 2) * s
        box = (pip_left, bottom - pip * s, pip_left + pip * s, bottom)
        _shape(draw, SHAPES[colour], box, DIE_COLOURS[colour], colours.die_edge, 1.5 * s)
    if mark == "dest":
        if dice:
            arm, width = 18 * s, 5 * s
            for x, dx in ((0, 1), (size - 1, -1)):
                for y, dy in ((0, 1), (size - 1, -1)):
                    for fill, grow in ((colours.mark_edge, 2 * s), (colours.mark, 0)):
                        w = width + grow
                        draw.rectangle(_bar(x, y, dx * (arm + grow), dy * w), fill=fill)
                        draw.rectangle(_bar(x, y, dx * w, dy * (arm + grow)), fill=fill)
        else:
            radius = 12 * s
            c = size / 2
            draw.ellipse(
                (c - radius, c - radius, c + radius, c + radius),
                fill=colours.mark,
                outline=colours.mark_edge,
                width=3 * s,
            )
    image = image.reduce(s)
    if dice:
        colour, face = dice[-1]
        ink = contrast_text(DIE_COLOURS[colour])
        mask = fonts.text_mask(str(face), NUMBER, DIE, "bold")
        image.paste(ink, (DIE_LEFT + round((DIE - mask.width) / 2), DIE_TOP), mask)
    return _reduce(image, theme)


def _bar(x: float, y: float, dx: float, dy: float) -> tuple[float, float, float, float]:
    """The rectangle from corner ``x, y`` spanning ``dx, dy`` (either sign)."""
    return (min(x, x + dx), min(y, y + dy), max(x, x + dx), max(y, y + dy))


@lru_cache(maxsize=64)
def _card_plate(theme: Theme) -> Image.Image:
    """A card's rim: a rounded plate the squares are pasted on."""
    s = SUPERSAMPLE
    colours = board_colours(theme)
    image = Image.new("RGB", (CARD * s, CARD * s), palette(theme).background)
    ImageDraw.Draw(image).rounded_rectangle(
        (0, 0, CARD * s - 1, CARD * s - 1), radius=10 * s, fill=colours.card
    )
    return _reduce(image.reduce(s), theme)


@lru_cache(maxsize=2048)
def _label(
    text: str, weight: fonts.Weight, ink: Colour, ground: Colour, theme: Theme
) -> Image.Image:
    mask = fonts.text_mask(text, FONT, LINE, weight)
    image = Image.new("RGB", mask.size, ground)
    image.paste(ink, (0, 0), mask)
    return _reduce(image, theme)


@lru_cache(maxsize=64)
def _chip(theme: Theme, colour: str, ground: Colour) -> Image.Image:
    """A player's colour: a small die with the colour's shape on it."""
    s = SUPERSAMPLE
    image = Image.new("RGB", (CHIP * s, CHIP * s), ground)
    draw = ImageDraw.Draw(image)
    fill = DIE_COLOURS[colour]
    draw.rounded_rectangle(
        (0, 0, CHIP * s - 1, CHIP * s - 1),
        radius=7 * s,
        fill=fill,
        outline=board_colours(theme).die_edge,
        width=2 * s,
    )
    inset = 8 * s
    ink = contrast_text(fill)
    _shape(draw, SHAPES[colour], (inset, inset, CHIP * s - inset, CHIP * s - inset), ink, ink, s)
    return _reduce(image.reduce(s), theme)


@lru_cache(maxsize=256)
def _panel(theme: Theme, width: int, height: int, turn: bool) -> Image.Image:
    """A player's row: gold-edged for the player to move (or the winner)."""
    colours = palette(theme)
    s = SUPERSAMPLE
    image = Image.new("RGB", (width * s, height * s), colours.background)
    draw = ImageDraw.Draw(image)
    fill = _seat_ground(theme, turn)
    edge = colours.highlight if turn else colours.panel_edge
    border = 4 if turn else 1
    draw.rounded_rectangle((0, 0, width * s - 1, height * s - 1), radius=12 * s, fill=edge)
    draw.rounded_rectangle(
        (border * s, border * s, (width - border) * s - 1, (height - border) * s - 1),
        radius=(12 - border) * s,
        fill=fill,
    )
    return _reduce(image.reduce(s), theme)


def _seat_ground(theme: Theme, turn: bool) -> Colour:
    colours = palette(theme)
    return blend(colours.panel, colours.highlight, 0.16) if turn else colours.panel


@lru_cache(maxsize=256)
def _tag(text: str, theme: Theme, ground: Colour) -> Image.Image:
    """A gold pill with dark text ("to move", "wins")."""
    colours = palette(theme)
    width, height = math.ceil(fonts.text_width(text, FONT)) + 20, LINE - 4
    s = SUPERSAMPLE
    image = Image.new("RGB", (width * s, height * s), ground)
    ImageDraw.Draw(image).rounded_rectangle(
        (0, 0, width * s - 1, height * s - 1), radius=height * s // 2, fill=colours.highlight
    )
    image = image.reduce(s)
    mask = fonts.text_mask(text, FONT, height, "regular")
    image.paste(colours.highlight_text, (10, 0), mask)
    return _reduce(image, theme)


_PALETTE = IndexedPalette(_palette_colours)
_reduce = _PALETTE.reduce  # an RGB part in the theme's palette


def forget_parts() -> None:
    """Drop every cached part (built again on use)."""
    for part in (_tile, _card_plate, _label, _chip, _panel, _tag, _empty_board):
        part.cache_clear()


# ------------------------------------------------------------------ the layout


def board_top(picture: BoardPicture) -> int:
    """Where the board starts: under the title and the two players' rows."""
    return BOARD_TOP


def board_height(rows: int) -> int:
    cards = rows // 3
    return CARD * cards + CARD_GAP * (cards - 1)


def square_box(picture: BoardPicture, index: int) -> tuple[int, int]:
    """The top left corner of square ``index``'s tile (row 1 at the bottom)."""
    return _square_box(picture.rows, index)


def _square_box(rows: int, index: int) -> tuple[int, int]:
    column, row = index % COLUMNS, index // COLUMNS
    left = (
        MARGIN
        + RANK_W
        + (column // 3) * (CARD + CARD_GAP)
        + CARD_PAD
        + (column % 3) * (SQUARE + SQUARE_GAP)
    )
    from_top = rows - 1 - row
    top = (
        BOARD_TOP
        + (from_top // 3) * (CARD + CARD_GAP)
        + CARD_PAD
        + (from_top % 3) * (SQUARE + SQUARE_GAP)
    )
    return left, top


def square_centre(picture: BoardPicture, index: int) -> tuple[float, float]:
    left, top = square_box(picture, index)
    return left + SQUARE / 2, top + SQUARE / 2


def picture_height(picture: BoardPicture) -> int:
    return board_top(picture) + board_height(picture.rows) + 4 + LINE + MARGIN


def _text_width(text: str, weight: fonts.Weight = "regular") -> int:
    return math.ceil(fonts.text_width(text, FONT, weight))


def _paste_label(
    image: Image.Image,
    text: str,
    weight: fonts.Weight,
    ink: Colour,
    ground: Colour,
    xy: tuple[int, int],
    theme: Theme,
) -> int:
    part = _label(text, weight, ink, ground, theme)
    image.paste(part, xy)
    return xy[0] + part.width


def _draw_header(image: Image.Image, picture: BoardPicture) -> None:
    theme = picture.theme
    colours = palette(theme)
    bold, _ = _title(picture)
    x = _paste_label(image, bold, "bold", colours.text, colours.background, (MARGIN, MARGIN), theme)
    room = WIDTH - MARGIN - x
    choices = _muted_titles(picture)
    muted = next((c for c in choices if _text_width(c) <= room), fonts.fit(choices[-1], room, FONT))
    _paste_label(
        image,
        muted,
        "regular",
        colours.muted,
        colours.background,
        (x, MARGIN),
        theme,
    )
    top = MARGIN + LINE + GAP
    width = WIDTH - 2 * MARGIN
    seats = range(len(picture.names))
    turns = [seat in picture.winners if picture.over else seat == picture.current for seat in seats]
    tags = [
        t("colorstack.picture.wins")
        if seat in picture.winners
        else t("colorstack.picture.to_move")
        if turns[seat] and not picture.over
        else ""
        for seat in seats
    ]
    # each name after its chips, before its tag; the names cut together, so that long
    # names starting alike are cut apart
    name_lefts = [MARGIN + 12 + len(picture.colours[seat]) * (CHIP + 6) + 6 for seat in seats]
    rooms = tuple(
        WIDTH - MARGIN - 12 - name_lefts[seat] - (_text_width(tag) + 20 + GAP if tag else 0)
        for seat, tag in enumerate(tags)
    )
    names = fonts.fit_apart(picture.names, rooms, FONT, "bold")
    for seat, shown in enumerate(names):
        turn, tag = turns[seat], tags[seat]
        image.paste(_panel(theme, width, SEAT_H, turn), (MARGIN, top))
        ground = _seat_ground(theme, turn)
        for index, colour in enumerate(picture.colours[seat]):
            chip_left = MARGIN + 12 + index * (CHIP + 6)
            image.paste(_chip(theme, colour, ground), (chip_left, top + (SEAT_H - CHIP) // 2))
        xy = (name_lefts[seat], top + (SEAT_H - LINE) // 2)
        x = _paste_label(image, shown, "bold", colours.text, ground, xy, theme)
        if tag:
            image.paste(_tag(tag, theme, ground), (x + GAP, top + (SEAT_H - LINE) // 2 + 2))
        top += SEAT_H + GAP


@lru_cache(maxsize=8)
def _empty_board(theme: Theme, rows: int) -> Image.Image:
    """The picture of an empty board of ``rows`` rows, before anything else is drawn on it:
    the background, the cards with every square open and empty, and the coordinates.
    Drawn once per theme and size; every picture starts as a copy of it."""
    colours = palette(theme)
    top = BOARD_TOP
    image = Image.new("P", (WIDTH, top + board_height(rows) + 4 + LINE + MARGIN), 0)
    image.putpalette(_PALETTE.bytes[theme])
    plate = _card_plate(theme)
    for card_row in range(rows // 3):
        for card_column in range(3):
            image.paste(
                plate,
                (
                    MARGIN + RANK_W + card_column * (CARD + CARD_GAP),
                    top + card_row * (CARD + CARD_GAP),
                ),
            )
    open_square = _tile(theme, False, "", "", False)
    for index in range(rows * COLUMNS):
        image.paste(open_square, _square_box(rows, index))
    # coordinates: row numbers on the left, column letters under the board, each centred
    # in its room (left, width) at its top
    bottom = top + board_height(rows) + 4
    rooms = [
        (str(row + 1), MARGIN - 2, RANK_W, _square_box(rows, row * COLUMNS)[1] + TEXT_TOP)
        for row in range(rows)
    ]
    rooms += [
        ("abcdefghi"[column], _square_box(rows, column)[0], SQUARE, bottom)
        for column in range(COLUMNS)
    ]
    for text, left, room, text_top in rooms:
        xy = (left + (room - _text_width(text)) // 2, text_top)
        _paste_label(image, text, "regular", colours.muted, colours.background, xy, theme)
    return image


def _draw_board(image: Image.Image, picture: BoardPicture) -> None:
    """The squares that are not open and empty (those the empty board has): black ones,
    stacks, the last move's, a panel's marks."""
    theme = picture.theme
    touched = {picture.path[0], picture.path[-1]} if picture.path else set()
    if picture.set_square is not None:
        touched.add(picture.set_square)
    if picture.selected is not None:
        # a panel's picture is about the choice: no last move (neither its arrow nor its
        # tinted squares) competes with the selected piece and where it may go
        touched = set()
    destinations = set(picture.destinations)
    for index in range(picture.rows * COLUMNS):
        mark: Mark = (
            "selected" if index == picture.selected else "dest" if index in destinations else ""
        )
        black, stack, last = picture.black[index], picture.stacks[index], index in touched
        if black or stack or mark or last:
            tile = _tile(theme, black, stack, mark, last)
            image.paste(tile, _square_box(picture.rows, index))


def _draw_arrow(image: Image.Image, picture: BoardPicture) -> None:
    """The last move's path as an arrow: a thick line through the squares' centres with
    a dark edge, its head just inside the end square (drawn supersampled on a mask of its
    own small box)."""
    if len(picture.path) < 2:
        if picture.set_square is not None:
            _draw_ring(image, picture, picture.set_square)
        return
    colours = board_colours(picture.theme)
    points = [square_centre(picture, i) for i in picture.path]
    # the head ends at the last square's edge (its stack and marks stay clear)
    (px, py), (ex, ey) = points[-2], points[-1]
    length = math.hypot(ex - px, ey - py)
    ux, uy = (ex - px) / length, (ey - py) / length
    tip = (ex - ux * (SQUARE / 2 + 1), ey - uy * (SQUARE / 2 + 1))
    head_len, head_half = 26.0, 17.0
    base = (tip[0] - ux * head_len, tip[1] - uy * head_len)
    shaft = [*points[:-1], base]
    head = [
        tip,
        (base[0] - uy * head_half, base[1] + ux * head_half),
        (base[0] + uy * head_half, base[1] - ux * head_half),
    ]
    xs = [p[0] for p in [*shaft, *head]]
    ys = [p[1] for p in [*shaft, *head]]
    pad = 24
    left, top = int(min(xs)) - pad, int(min(ys)) - pad
    right, bottom = int(max(xs)) + pad, int(max(ys)) + pad
    s = SUPERSAMPLE
    size = ((right - left) * s, (bottom - top) * s)

    def local(point: tuple[float, float]) -> tuple[float, float]:
        return ((point[0] - left) * s, (point[1] - top) * s)

    layers = []
    for fill, grow in ((colours.arrow_edge, 3.0), (colours.arrow, 0.0)):
        mask = Image.new("L", size, 0)
        draw = ImageDraw.Draw(mask)
        width = round((10 + 2 * grow) * s)
        line = [local(p) for p in shaft]
        draw.line(line, fill=255, width=width, joint="curve")
        for point in line:  # round ends and corners
            r = width / 2
            draw.ellipse((point[0] - r, point[1] - r, point[0] + r, point[1] + r), fill=255)
        grown = _grow_triangle(head, grow)
        draw.polygon([local(p) for p in grown], fill=255)
        layers.append((fill, mask.reduce(s)))
    _PALETTE.paint(image, picture.theme, (left, top), layers)


def _grow_triangle(points: list[tuple[float, float]], by: float) -> list[tuple[float, float]]:
    """A triangle pushed out from its centroid by about ``by`` pixels (its outline)."""
    if not by:
        return points
    cx = sum(p[0] for p in points) / 3
    cy = sum(p[1] for p in points) / 3
    out = []
    for x, y in points:
        d = math.hypot(x - cx, y - cy) or 1.0
        out.append((x + (x - cx) / d * by * 2, y + (y - cy) / d * by * 2))
    return out


def _draw_ring(image: Image.Image, picture: BoardPicture, index: int) -> None:
    """A set's square: ringed in the arrow's colour."""
    colours = board_colours(picture.theme)
    left, top = square_box(picture, index)
    s = SUPERSAMPLE
    mask = Image.new("L", (SQUARE * s, SQUARE * s), 0)
    draw = ImageDraw.Draw(mask)
    draw.rounded_rectangle(
        (0, 0, SQUARE * s - 1, SQUARE * s - 1), radius=10 * s, outline=255, width=6 * s
    )
    edge = Image.new("L", (SQUARE * s, SQUARE * s), 0)
    ImageDraw.Draw(edge).rounded_rectangle(
        (0, 0, SQUARE * s - 1, SQUARE * s - 1), radius=10 * s, outline=255, width=8 * s
    )
    _PALETTE.paint(
        image,
        picture.theme,
        (left, top),
        [(colours.arrow_edge, edge.reduce(s)), (colours.arrow, mask.reduce(s))],
    )


def compose(picture: BoardPicture) -> Image.Image:
    """The picture as a "P" image in the theme's palette (:func:`_palette_colours`)."""
    image = _empty_board(picture.theme, picture.rows).copy()
    _draw_header(image, picture)
    _draw_board(image, picture)
    if picture.selected is None:  # a panel's picture shows where the piece may go instead
        _draw_arrow(image, picture)
    return image


def draw_board(picture: BoardPicture) -> bytes:
    """The picture as a PNG (the theme's palette, fast compression)."""
    out = io.BytesIO()
    compose(picture).save(out, format="PNG", **PNG_OPTIONS)
    return out.getvalue()


# ------------------------------------------------------------------ examples and the bench

NASTY = "**__@everyone__**~~`<@123>`~~||x||"


def _play_until(
    names: Sequence[str],
    seed: int,
    done: Callable[[Any], bool],
    *,
    board: str = "light",
    limit: int = 2000,
    greedy: bool = False,
) -> Any:
    """A game of random (or, when ``greedy``, winning-when-possible) moves until ``done``
    holds at a player's decision, or the game ends."""
    import random

    from engine.colorstack.rules import ColorStackSettings
    from engine.colorstack.state import ColorStackState

    rng = random.Random(seed)
    state = ColorStackState(names, ColorStackSettings(board=board))
    state.set_up(rng)
    for _ in range(limit):
        if state.is_over or done(state):
            break
        wins = state.winning_moves() if greedy else []
        state.apply(wins[0] if wins else rng.choice(state.legal_moves()))
    return state


def sample_pictures(
    board: str, count: int, seed: int = 1, theme: Theme = "dark"
) -> list[BoardPicture]:
    """``count`` pictures of random games with 32-character names, taken at about one
    turn in four (a quarter of them with a piece selected, as a panel shows it)."""
    import random

    from pictures.samples import from_games, long_names

    names = long_names(2)

    def take(rng: random.Random, state: Any) -> BoardPicture:
        pieces = [m.frm for m in state.legal_moves() if hasattr(m, "frm")]
        selected = rng.choice(pieces) if pieces and rng.random() < 0.25 else None
        return BoardPicture.of(state, theme=theme, turn_seconds=60, selected=selected)

    return from_games(
        count, seed, lambda game, done: _play_until(names, game, done, board=board), take, 0.25
    )


def _first_height(pictures: Sequence[BoardPicture]) -> int:
    return picture_height(pictures[0])


def bench(samples: int = 100) -> list[str]:
    """CPU per picture (parts cached, as in a running bot), light and heavy; first, what
    the first picture costs with every part to build. The last line is
    ``picture heavy: p50 X ms, p99 Y ms``."""
    from pictures.samples import cpu_ms, measure

    fonts.prepare()
    forget_parts()
    first = cpu_ms(draw_board, sample_pictures("heavy", 1))[0]
    lines = [f"first picture (heavy, every part built): {first:.1f} ms"]
    for board in ("light", "heavy"):
        pictures = sample_pictures(board, samples, seed=7 if board == "light" else 9)
        lines += measure(board, draw_board, pictures, width=WIDTH, tall=_first_height)
    return lines


def showcase() -> dict[str, BoardPicture]:
    """The pictures kept in ``docs/pictures/``, by file name: a light game under way in
    both themes, a heavy game with 32-character names full of markdown, a private panel's
    picture with a piece selected, and a game won with all four colours."""
    two = ("Ālīce ✨", "ボブ")
    nasty = tuple((str(i) + NASTY).ljust(32, "x")[:32] for i in range(2))

    def stacked(state: Any) -> bool:
        return (
            state.turns >= 24
            and any(len(state.stack(sq)) > 1 for sq in range(state.squares))
            and bool(state.last_path())
        )

    mid = _play_until(two, 4, stacked)
    heavy = _play_until(nasty, 6, stacked, board="heavy")
    chosen = _play_until(
        two,
        11,
        lambda s: (
            s.turns >= 16
            and len({m.to for m in s.legal_moves() if hasattr(m, "to") and s.top(m.to) is not None})
            >= 1
        ),
    )
    stacks = [m for m in chosen.legal_moves() if hasattr(m, "to") and chosen.top(m.to) is not None]
    selected = stacks[0].frm if stacks else chosen.pieces(chosen.to_move)[0]
    won = _play_until(two, 2, lambda s: False, greedy=True)
    return {
        "colorstack-dark.png": BoardPicture.of(mid, turn_seconds=60),
        "colorstack-light.png": BoardPicture.of(mid, theme="light", turn_seconds=60),
        "colorstack-heavy.png": BoardPicture.of(heavy, turn_seconds=90),
        "colorstack-selected.png": BoardPicture.of(chosen, selected=selected),
        "colorstack-over.png": BoardPicture.of(won, theme="light"),
    }


JAPANESE = {"colorstack-ja.png": "colorstack-dark.png"}  # the docs' Japanese example: which


def showcase_in(language: str) -> dict[str, bytes]:
    """The docs' examples of ``language`` (Japanese: :data:`JAPANESE`), drawn as PNGs in
    it: a picture is drawn in the language spoken where it is drawn."""
    import catalog

    with catalog.speaking(language):
        pictures = showcase()
        return {name: draw_board(pictures[shown]) for name, shown in JAPANESE.items()}


def main(argv: list[str] | None = None) -> None:
    from pictures import samples

    samples.main(argv, "colorstack", samples=100)


if __name__ == "__main__":
    main()
