"""The table picture: everything a player needs at a glance, laid out for a phone.

What it shows: the game, round and target, the turn timer's length (the live countdown is
in the message text) and, in team play, each team's total; then a card per seat with its
colour chip (the seat's mark on its emoji square's colour), name, team, this round's
points and total (labelled ``round +9``, ``total 37``); its unstacked dice grouped by face
(``×3``), the piles it owns (towers of dice in their owners' colours, each lower die a
strip tall enough for its owner's mark, so height and owner read at once) and the piles
it captured (towers of four in a red frame with a ticked red disc, which a legend under
the cards explains). Icons are drawn as shapes, never as a font's glyph. Whose turn it is is marked (a gold card and a
"to move" tag), the last move is framed in gold (it always lies in the card of the
player who made it), and during the last turns each seat is tagged "out" (no unstacked
die left), "last turn" (one more to come) or "done" (had it). Rows wrap, so 1 to 30
dice and 2 to 8 seats always fit; nothing is cut but a name too long for its card, with
"…" (names starting alike keep their ends too: :func:`pictures.fonts.fit_apart`).

Readable on a phone. Discord writes message text at 16 px; a phone shows a picture at
the screen's width, 360-412 CSS px (about 380). A picture :data:`WIDTH` = 760 px wide is
shown there at half size, so its text of :data:`FONT` = 30 px reads as
``FONT * 380 / WIDTH = 30 * 380 / 760 = 15`` CSS px, about Discord's own 16 px (every
text in the picture is 30 px; a 412 px phone shows 16.3). Wider pictures would need
proportionally bigger text. Cards fill the width; rows are as tall as what they hold.

Colour-blind players: hue never carries meaning alone. Every seat has a mark
(:func:`pictures.palette.seat_mark`: ● ■ ▲ ◆ ★ ✚ ▼ ⬟): its dice's pips are drawn in that
shape, its chip carries it, and the lower dice of a pile show their owners' marks.

Fast: drawn from cached parts, each built once on the ground it is pasted on and reduced
to the theme's 256-colour palette (die and pile sprites per face, owners, theme and
ground; a label per text, colour and ground; a card per size and kind), pasted onto a
palette image and saved with fast PNG compression. :func:`draw_field` is pure and
thread-safe; the bot calls it in a worker process (:mod:`pictures.painter`) with a
:class:`FieldPicture` taken on the event loop.

``python -m pictures.stack`` prints the bench; ``python -m pictures.stack --save docs/pictures``
draws the pictures of ``docs/pictures/`` again.
"""

from __future__ import annotations

import io
import math
import random
import statistics
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Literal

from PIL import Image, ImageDraw

from catalog import n, t
from engine.game import Decision
from engine.stack.ai import GreedyPlayer, RandomPlayer
from engine.stack.rules import StackRules
from engine.stack.state import StackState
from pictures import fonts
from pictures.palette import (
    SEAT_COLOURS,
    Colour,
    Ground,
    Palette,
    Theme,
    blend,
    contrast_text,
    ground_colour,
    palette,
    picture_colours,
    seat_colour,
)
from pictures.parts import IndexedPalette, Parts

WIDTH = 760  # every picture is this wide (shown at ~380 CSS px on a phone); it grows down
FONT = 30  # every text: 30 * 380 / 760 = 15 CSS px on a phone
MARGIN = 12  # around the picture
LINE = 40  # a line of text
CARD_GAP = 6  # between two cards
CARD_PAD_X = 12  # inside a card, left and right
CARD_PAD_Y = 5  # inside a card, top and bottom
RADIUS = 14  # a card's corners
BORDER = 4  # the gold border of the seat to move
CHIP = 34  # a seat's colour chip
DIE = 44  # a die's side
STEP = 18  # how far each die of a pile sits above the one below it (its visible strip)
CAPTURED_STEP = 18  # the same in a captured pile (four dice)
MARK_OF_STRIP = 0.33  # a lower die's mark: this much of its strip in radius (12 px across)
PAD = 5  # around an item (die group, pile, captured pile): room for its frame
FRAME = 4  # the width of the last move's frame
ITEM_GAP = 2  # between two items' boxes
SECTION_GAP = 26  # between unstacked dice, piles and captured piles
LINE_GAP = 2  # between two lines of items
TAG_PAD = 10  # inside a tag, left and right
GAP = 12  # between the parts of a card's header
ICON = 34  # an icon drawn before a title's text (the turn timer's stopwatch)
BADGE = 20  # the captured mark's size
BADGE_ROOM = BADGE + 8  # how much wider a captured pile's box is, for its mark
SUPERSAMPLE = 4  # sprites are drawn this much larger, then reduced (smooth edges)
LABEL_CACHE_SIZE = 4096  # texts kept drawn (names, numbers)
PNG_OPTIONS: dict[str, int | bool] = {"compress_level": 1, "optimize": False}
TEAM_LETTERS = "ABCD"

BoxKind = Literal[
    "title",  # a piece of the top lines (game, round, target, timer, teams) or the legend
    "card",  # a seat's card (everything of the seat is inside it)
    "chip",  # the seat's colour and mark
    "name",
    "points",  # this round's points
    "total",
    "tag",  # "to move", "out", "last turn", "wins", a team's letter
    "dice",  # unstacked dice of one face (members: indices into singles[seat])
    "pile",  # identical piles (members: indices into piles)
    "captured",  # identical captured piles (members: indices into captures[seat])
]
ITEM_KINDS: tuple[BoxKind, ...] = ("dice", "pile", "captured")
HighlightKind = Literal["dice", "pile", "captured"]

PIPS = {
    1: ((0.5, 0.5),),
    2: ((0.27, 0.27), (0.73, 0.73)),
    3: ((0.25, 0.25), (0.5, 0.5), (0.75, 0.75)),
    4: ((0.27, 0.27), (0.73, 0.27), (0.27, 0.73), (0.73, 0.73)),
    5: ((0.25, 0.25), (0.75, 0.25), (0.5, 0.5), (0.25, 0.75), (0.75, 0.75)),
    6: ((0.27, 0.22), (0.73, 0.22), (0.27, 0.5), (0.73, 0.5), (0.27, 0.78), (0.73, 0.78)),
}


@dataclass(frozen=True, slots=True)
class Highlight:
    """The last move's result: unstacked dice of ``seat`` showing face ``index`` (a die
    rerolled onto no pile), the pile ``piles[index]``, or ``captures[seat][index]``."""

    kind: HighlightKind
    seat: int
    index: int


@dataclass(frozen=True, slots=True)
class FieldPicture:
    """What the picture shows, copied from the state so it can be drawn in another
    process (immutable and picklable). Only the first three fields are needed; the rest
    default to a table with nothing more to say."""

    PICTURE = "stack"  # its drawing in pictures.games (a class attribute, not a field)

    names: tuple[str, ...]
    singles: tuple[tuple[int, ...], ...]  # per seat, faces of unstacked dice
    piles: tuple[tuple[int, tuple[int, ...]], ...]  # (face, owners bottom to top)
    captures: tuple[tuple[tuple[int, tuple[int, ...]], ...], ...] = ()  # per seat
    totals: tuple[int, ...] = ()  # per seat, the running total
    points: tuple[int, ...] = ()  # per seat, this round's points so far
    teams: tuple[int, ...] | None = None  # per seat, its team's number
    current: int | None = None  # the seat to move
    round: int = 0  # 0: no round yet
    target: int = 0  # 0: not shown
    turn_seconds: int | None = None
    theme: Theme = "dark"
    last: Highlight | None = None
    out: tuple[int, ...] = ()  # seats out during the last turns
    owed: tuple[int, ...] = ()  # seats still owed a last turn
    last_turns: bool = False
    winners: tuple[int, ...] = ()  # when the game is over
    over: bool = False

    @classmethod
    def of(
        cls, state: StackState, *, theme: Theme = "dark", turn_seconds: int | None = None
    ) -> FieldPicture:
        """The picture of ``state`` in ``theme``, with a turn timer of ``turn_seconds``
        (``None``: no timer)."""
        n = state.n
        singles = tuple(
            tuple(f for f in range(1, 7) for _ in range(state.singles[s][f])) for s in range(n)
        )
        piles = tuple(sorted(state.pile_compositions(), key=lambda p: (p[1][-1], p[0], p[1])))
        captures = tuple(tuple(state.captures[s]) for s in range(n))
        playing = state.round_number > 0
        points = tuple(state.field_scores()) if playing else (0,) * n
        over = state.decision is Decision.OVER
        last_turns = state.in_last_turns and not over
        out: tuple[int, ...] = ()
        owed: tuple[int, ...] = ()
        if last_turns and state.last_turns is not None:
            owed = tuple(s for s in state.last_turns if state.single_total[s])
            out = tuple(s for s in range(n) if not state.single_total[s] and s != state.current)
        return cls(
            names=tuple(state.players),
            singles=singles,
            piles=piles,
            captures=captures,
            totals=tuple(state.totals),
            points=points,
            teams=state.team,
            current=None if over else state.current,
            round=max(state.round_number, 1),
            target=state.rules.target_score,
            turn_seconds=turn_seconds,
            theme=theme,
            last=_last_move(state, piles, captures) if playing else None,
            out=out,
            owed=owed,
            last_turns=last_turns,
            winners=tuple(state.winner or ()) if over else (),
            over=over,
        )


def _last_move(
    state: StackState,
    piles: tuple[tuple[int, tuple[int, ...]], ...],
    captures: tuple[tuple[tuple[int, tuple[int, ...]], ...], ...],
) -> Highlight | None:
    """Where the last turn of the round being shown put its die."""
    if not state.history or not state.history[-1]["turns"]:
        return None
    turn = state.history[-1]["turns"][-1]
    if turn[0] == "stack":
        _, player, face, owner, height = turn
    else:
        _, player, _, face, owner, height = turn
        if owner is None:  # rolled onto no pile: back among the player's dice
            return Highlight("dice", player, face) if state.singles[player][face] else None
    if height == 3:
        if captures[player] and captures[player][-1][0] == face:
            return Highlight("captured", player, len(captures[player]) - 1)
        return None
    made = state.piles.get((player, face, height + 1))
    if not made:
        return None
    try:
        return Highlight("pile", player, piles.index((face, made[-1])))
    except ValueError:
        return None


# ------------------------------------------------------------------ the layout


@dataclass(frozen=True, slots=True)
class Box:
    """Where one thing is drawn. ``right`` and ``bottom`` are exclusive, as in
    :meth:`PIL.Image.Image.crop`. ``members`` are the dice or piles an item stands for;
    ``text`` is what a title, name, number or tag says."""

    kind: BoxKind
    seat: int  # -1 for the title lines
    left: int
    top: int
    right: int
    bottom: int
    members: tuple[int, ...] = ()
    text: str = ""
    face: int = 0  # an item's face
    owners: tuple[int, ...] = ()  # a pile's owners, bottom to top
    highlight: bool = False  # the last move
    style: str = ""  # how a tag or title is drawn

    @property
    def corners(self) -> tuple[int, int, int, int]:
        return (self.left, self.top, self.right, self.bottom)

    @property
    def width(self) -> int:
        return self.right - self.left

    @property
    def height(self) -> int:
        return self.bottom - self.top


@dataclass(frozen=True, slots=True)
class Layout:
    """The picture's size and a box for everything drawn, in drawing order (a card
    before what is in it)."""

    width: int
    height: int
    boxes: tuple[Box, ...]

    def of_kind(self, *kinds: BoxKind) -> list[Box]:
        return [box for box in self.boxes if box.kind in kinds]


def pile_step(dice: int) -> int:
    """How far each die of a pile of ``dice`` sits above the one below it."""
    return STEP if dice <= 3 else CAPTURED_STEP


def pile_height(dice: int) -> int:
    """The height of a pile of ``dice`` dice (1 for an unstacked die, 4 for a captured
    pile)."""
    return DIE + (dice - 1) * pile_step(dice)


def _count_text(count: int) -> str:
    return f"×{count}" if count > 1 else ""


def _seat_ground(picture: FieldPicture, seat: int) -> Ground:
    return "turn" if seat == picture.current or seat in picture.winners else "panel"


def _item_size(kind: BoxKind, height: int, count: int) -> tuple[int, int]:
    """The box of an item: its sprite (``height`` dice high) and its count, padded; a
    captured pile's has room for its mark on the right."""
    width = DIE
    label = _count_text(count)
    if label:
        width += 4 + _label_width(label, "regular")
    if kind == "captured":
        width += BADGE_ROOM
    return width + 2 * PAD, pile_height(height) + 2 * PAD


def _items(
    picture: FieldPicture, seat: int
) -> list[tuple[BoxKind, int, tuple[int, ...], tuple[int, ...]]]:
    """A seat's items in order: (kind, face, owners, members): its unstacked dice by face,
    the piles it owns (identical piles together), the piles it captured."""
    items: list[tuple[BoxKind, int, tuple[int, ...], tuple[int, ...]]] = []
    faces = picture.singles[seat]
    by_face: dict[int, list[int]] = {}
    for index, face in enumerate(faces):
        by_face.setdefault(face, []).append(index)
    for face in sorted(by_face):
        items.append(("dice", face, (seat,), tuple(by_face[face])))
    groups: dict[tuple[int, tuple[int, ...]], list[int]] = {}
    for index, (face, owners) in enumerate(picture.piles):
        if owners and owners[-1] == seat:
            groups.setdefault((face, owners), []).append(index)
    for (face, owners), members in sorted(groups.items(), key=lambda g: (len(g[0][1]), g[0])):
        items.append(("pile", face, owners, tuple(members)))
    caught: dict[tuple[int, tuple[int, ...]], list[int]] = {}
    if seat < len(picture.captures):
        for index, (face, owners) in enumerate(picture.captures[seat]):
            caught.setdefault((face, owners), []).append(index)
    for (face, owners), members in sorted(caught.items()):
        items.append(("captured", face, owners, tuple(members)))
    return items


def _highlighted(
    picture: FieldPicture, seat: int, kind: BoxKind, face: int, members: tuple[int, ...]
) -> bool:
    last = picture.last
    if last is None or last.kind != kind:
        return False
    if kind == "dice":
        return last.seat == seat and last.index == face
    if kind == "pile":
        return last.index in members
    return last.seat == seat and last.index in members


def _title_pieces(picture: FieldPicture) -> list[tuple[str, str]]:
    """The top line's pieces as (text, style)."""
    pieces = [(t("stack.title"), "bold")]
    if picture.over:
        pieces.append((t("stack.picture.game_over"), "text"))
        if picture.round:
            pieces.append((n("stack.rounds", picture.round), "muted"))
    elif picture.round:
        pieces.append((t("stack.picture.round", round=picture.round), "text"))
    if picture.target:
        pieces.append((t("stack.picture.first_to", target=picture.target), "text"))
    if picture.last_turns:
        pieces.append((t("stack.picture.last_turns"), "gold"))
    if picture.turn_seconds and not picture.over:
        pieces.append((t("stack.picture.timer", seconds=picture.turn_seconds), "timer"))
    return pieces


def _team_pieces(picture: FieldPicture) -> list[tuple[str, str]]:
    if picture.teams is None:
        return []
    sums: dict[int, int] = {}
    for seat, team in enumerate(picture.teams):
        total = picture.totals[seat] if seat < len(picture.totals) else 0
        sums[team] = sums.get(team, 0) + total
    pieces = [(t("stack.picture.teams"), "muted")]
    for team in sorted(sums):
        pieces.append((f"{TEAM_LETTERS[team % len(TEAM_LETTERS)]} {sums[team]}", "bold"))
    return pieces


def _flow_title(boxes: list[Box], pieces: list[tuple[str, str]], top: int) -> int:
    """Lay out the top line's pieces, " · " between them, wrapping; the next top."""
    left, right = MARGIN, WIDTH - MARGIN
    x = left
    dot = _label_width(" · ", "regular")
    for text, style in pieces:
        icon = ICON if style in ICON_STYLES else 0
        width = min(icon + _label_width(text, _weight(style)), right - left)
        if x > left and x + dot + width > right:
            top += LINE
            x = left
        if x > left:
            boxes.append(Box("title", -1, x, top, x + dot, top + LINE, text=" · ", style="muted"))
            x += dot
        boxes.append(Box("title", -1, x, top, x + width, top + LINE, text=text, style=style))
        x += width
    return top + LINE


# Title pieces drawn with an icon of shapes before their text (never a font's glyph): the
# turn timer's stopwatch, and the legend's captured mark and last-move frame.
ICON_STYLES = ("timer", "key-captured", "key-last")


def _legend_pieces(picture: FieldPicture) -> list[tuple[str, str]]:
    """The legend under the cards, when a captured pile is shown: its mark, and the
    last move's frame."""
    if not any(picture.captures):
        return []
    pieces = [(t("stack.picture.captured"), "key-captured")]
    if picture.last is not None:
        pieces.append((t("stack.picture.last_move"), "key-last"))
    return pieces


def _weight(style: str) -> fonts.Weight:
    return "bold" if style == "bold" else "regular"


def layout(picture: FieldPicture) -> Layout:
    """Where everything goes: the title lines, then a card per seat, its header (chip,
    name, tags, round points, total) over its items, which flow left to right and wrap
    (dice, then piles, then captured piles; items of a line stand on its bottom)."""
    boxes: list[Box] = []
    top = _flow_title(boxes, _title_pieces(picture), MARGIN)
    team_pieces = _team_pieces(picture)
    if team_pieces:
        top = _flow_title(boxes, team_pieces, top)
    top += CARD_GAP
    n = len(picture.names)
    inner_left, inner_right = MARGIN + CARD_PAD_X, WIDTH - MARGIN - CARD_PAD_X
    totals = [_total_text(picture, seat) for seat in range(n)]
    points = [_points_text(picture, seat) for seat in range(n)]
    total_column = max(_total_width(text) for text in totals)
    points_column = max((_label_width(text, "regular") for text in points if text), default=0)
    if total_column + points_column > SCORES_ROOM:  # huge numbers: the points unlabelled
        points = [text.removeprefix(_round_word()) for text in points]
        points_column = max((_label_width(text, "regular") for text in points if text), default=0)
    # each header: chip, name, tags ... round points, total; the names are cut to their
    # room together, so that long names starting alike are cut apart
    name_left = inner_left + CHIP + GAP
    points_right = inner_right - total_column - GAP
    tags = [_tags(picture, seat) for seat in range(n)]
    tag_widths = [[_tag_width(text) for text, _ in seat_tags] for seat_tags in tags]
    rights = [  # where each name and its tags end
        points_right - (points_column + GAP if points[seat] else 0) for seat in range(n)
    ]
    rooms = tuple(
        max(rights[seat] - name_left - sum(w + GAP for w in tag_widths[seat]), FONT)
        for seat in range(n)
    )
    names = fonts.fit_apart(picture.names, rooms, FONT, "bold")
    for seat in range(n):
        card: list[Box] = []
        y = top + CARD_PAD_Y
        chip_top = y + (LINE - CHIP) // 2
        card.append(Box("chip", seat, inner_left, chip_top, inner_left + CHIP, chip_top + CHIP))
        total_left = inner_right - total_column
        card.append(Box("total", seat, total_left, y, inner_right, y + LINE, text=totals[seat]))
        if points[seat]:
            card.append(
                Box(
                    "points",
                    seat,
                    points_right - points_column,
                    y,
                    points_right,
                    y + LINE,
                    text=points[seat],
                )
            )
        right = rights[seat]
        name = names[seat]
        name_width = min(_label_width(name, "bold"), rooms[seat])
        card.append(Box("name", seat, name_left, y, name_left + name_width, y + LINE, text=name))
        x = name_left + name_width + GAP
        for (text, style), width in zip(tags[seat], tag_widths[seat], strict=True):
            if x + width > right:
                break  # no room left (only with absurdly wide numbers)
            card.append(Box("tag", seat, x, y + 2, x + width, y + LINE - 2, text=text, style=style))
            x += width + GAP
        y += LINE
        # the items, flowing
        line: list[tuple[BoxKind, int, tuple[int, ...], tuple[int, ...], int, int, bool]] = []
        x = inner_left
        previous: BoxKind | None = None
        for kind, face, owners, members in _items(picture, seat):
            height = len(owners) if kind != "dice" else 1
            width, _ = _item_size(kind, height, len(members))
            if previous is not None and kind != previous and line:
                x += SECTION_GAP
            previous = kind
            if line and x + width > inner_right:
                y = _close_line(card, seat, line, y)
                line, x = [], inner_left
            lit = _highlighted(picture, seat, kind, face, members)
            line.append((kind, face, owners, members, x, width, lit))
            x += width + ITEM_GAP
        if line:
            y = _close_line(card, seat, line, y)
        bottom = y + CARD_PAD_Y
        boxes.append(
            Box(
                "card", seat, MARGIN, top, WIDTH - MARGIN, bottom, style=_seat_ground(picture, seat)
            )
        )
        boxes.extend(card)
        top = bottom + CARD_GAP
    legend = _legend_pieces(picture)
    if legend:
        top = _flow_title(boxes, legend, top)
    else:
        top -= CARD_GAP
    height = top + MARGIN
    return Layout(WIDTH, height, tuple(boxes))


def _close_line(
    boxes: list[Box],
    seat: int,
    line: list[tuple[BoxKind, int, tuple[int, ...], tuple[int, ...], int, int, bool]],
    top: int,
) -> int:
    """Put a finished line's items on its floor; the next line's top."""
    tallest = max(pile_height(len(owners) if kind != "dice" else 1) for kind, _, owners, *_ in line)
    bottom = top + tallest + 2 * PAD
    for kind, face, owners, members, left, width, lit in line:
        dice = len(owners) if kind != "dice" else 1
        item_top = bottom - pile_height(dice) - 2 * PAD
        boxes.append(
            Box(
                kind,
                seat,
                left,
                item_top,
                left + width,
                bottom,
                members=members,
                face=face,
                owners=owners,
                highlight=lit,
            )
        )
    return bottom + LINE_GAP


def _total_word() -> str:
    """The word before a seat's total, in the muted colour (with its space)."""
    return t("stack.picture.total")


def _round_word() -> str:
    """The word before a seat's points this round (with its space)."""
    return t("stack.picture.points")


SCORES_ROOM = 320  # the most a card's header gives its points and total (labelled)


def _total_text(picture: FieldPicture, seat: int) -> str:
    """A seat's running total, labelled: ``total 37``."""
    return _total_word() + (str(picture.totals[seat]) if seat < len(picture.totals) else "0")


def _total_width(text: str) -> int:
    """``total 37``'s width: the word regular, the number bold."""
    word = _total_word()
    return _label_width(word, "regular") + _label_width(text.removeprefix(word), "bold")


def _points_text(picture: FieldPicture, seat: int) -> str:
    """This round's points so far, labelled: ``round +9``."""
    if not picture.round or seat >= len(picture.points):
        return ""
    return f"{_round_word()}{picture.points[seat]:+d}"


def _tags(picture: FieldPicture, seat: int) -> list[tuple[str, str]]:
    """A seat's tags as (text, style): its team, then how it stands in the round."""
    tags = []
    if picture.teams is not None and seat < len(picture.teams):
        tags.append((TEAM_LETTERS[picture.teams[seat] % len(TEAM_LETTERS)], "team"))
    if seat in picture.winners:
        tags.append((t("stack.picture.wins"), "gold"))
    elif seat == picture.current:
        tags.append((t("stack.picture.to_move"), "gold"))
    elif seat in picture.out:
        tags.append((t("stack.picture.out"), "muted"))
    elif seat in picture.owed:
        tags.append((t("stack.picture.last_turn"), "outline"))
    elif picture.last_turns:
        tags.append((t("stack.picture.done"), "muted"))  # had its last turn
    return tags


def _tag_width(text: str) -> int:
    return _label_width(text, "regular") + 2 * TAG_PAD


# ------------------------------------------------------------------ drawing


def draw_field(picture: FieldPicture) -> bytes:
    """The picture as a PNG (the theme's palette, fast compression)."""
    return _png(_compose(picture, layout(picture)))


def _compose(picture: FieldPicture, plan: Layout) -> Image.Image:
    theme = picture.theme
    image = Image.new("P", (plan.width, plan.height), 0)
    image.putpalette(_palette_bytes(theme))
    paste = image.paste
    ground: Ground = "panel"
    for box in plan.boxes:
        kind = box.kind
        if kind == "card":
            ground = "turn" if box.style == "turn" else "panel"
            paste(_card((theme, box.width, box.height, ground)), (box.left, box.top))
        elif kind in ITEM_KINDS:
            if box.highlight or kind == "captured":
                paste(
                    _frame(
                        (theme, ground, box.width, box.height, box.highlight, kind == "captured")
                    ),
                    (box.left, box.top),
                )
            count = len(box.members)
            part = _item((theme, ground, kind, box.face, box.owners, count))
            paste(part, (box.left + PAD, box.top + PAD))
        elif kind == "chip":
            paste(_chip((theme, ground, box.seat % len(SEAT_COLOURS))), (box.left, box.top))
        elif kind == "name":
            style = "muted" if box.seat in picture.out else "text"
            paste(_label((box.text, "bold", style, theme, ground)), (box.left, box.top))
        elif kind == "total":
            label = _label((box.text.removeprefix(_total_word()), "bold", "text", theme, ground))
            word = _label((_total_word(), "regular", "muted", theme, ground))
            paste(label, (box.right - label.width, box.top))
            paste(word, (box.right - label.width - word.width, box.top))
        elif kind == "points":
            label = _label((box.text, "regular", "muted", theme, ground))
            paste(label, (box.right - label.width, box.top))
        elif kind == "tag":
            paste(_tag((box.text, box.style, theme, ground)), (box.left, box.top))
        elif kind == "title":
            left, room = box.left, box.width
            style = box.style
            if style in ICON_STYLES:
                paste(_icon((theme, style)), (left, box.top))
                left, room, style = left + ICON, room - ICON, "muted"
            label = _label((box.text, _weight(style), style, theme, "background"))
            paste(
                label.crop((0, 0, room, box.height)) if label.width > room else label,
                (left, box.top),
            )
    return image


def _png(image: Image.Image) -> bytes:
    out = io.BytesIO()
    image.save(out, format="PNG", **PNG_OPTIONS)
    return out.getvalue()


# ------------------------------------------------------------------ cached parts


def _style_colour(colours: Palette, style: str) -> Colour:
    return {
        "muted": colours.muted,
        "gold": colours.highlight_ink,
        "outline": colours.text,
        "team": colours.text,
    }.get(style, colours.text)


def _palette_colours(theme: Theme) -> list[Colour]:
    """The theme's palette: its grounds first (the picture's background is entry 0), the
    pure colours, then the shades their smoothed edges need."""
    colours, grounds, inks = picture_colours(theme)
    inks += [colours.highlight_ink, colours.captured, colours.panel_edge]
    light, dark = (250, 250, 250), (20, 20, 20)
    keys = [*grounds, *inks, colours.highlight_text, colours.outline, light, dark, *SEAT_COLOURS]
    shades: list[Colour] = []
    steps = (0.14, 0.28, 0.43, 0.57, 0.71, 0.86)
    for ground in grounds:
        for ink in [*inks, colours.outline]:
            shades += [blend(ground, ink, t) for t in steps]
    shades += [blend(colours.highlight, colours.highlight_text, t) for t in steps]
    for fill in SEAT_COLOURS:
        shades += [blend(fill, colours.outline, t) for t in (0.33, 0.67)]
        shades += [blend(fill, contrast_text(fill), t) for t in (0.25, 0.5, 0.75)]
        for ground in grounds[1:]:
            shades += [blend(fill, ground, 0.5)]
    found = list(dict.fromkeys([*keys, *shades]))
    assert len(found) <= 256, len(found)
    return found


_PALETTE = IndexedPalette(_palette_colours)
_PALETTE_BYTES = _PALETTE.bytes


def _palette_bytes(theme: Theme) -> bytes:
    return _PALETTE_BYTES[theme]


def _reduce(image: Image.Image, theme: Theme) -> Image.Image:
    """An RGB part in the theme's palette (:class:`~pictures.parts.IndexedPalette`)."""
    part = _PALETTE.reduce(image, theme)
    part.load()
    return part


def _shape(
    draw: ImageDraw.ImageDraw, mark: int, cx: float, cy: float, r: float, fill: Colour
) -> None:
    """Seat ``mark``'s shape (● ■ ▲ ◆ ★ ✚ ▼ ⬟) centred on ``cx, cy``, about ``r`` in
    radius (scaled so that all eight look about as big)."""
    mark %= 8
    if mark == 0:
        draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=fill)
    elif mark == 1:
        s = r * 0.9
        draw.rectangle((cx - s, cy - s, cx + s, cy + s), fill=fill)
    elif mark in (2, 6):
        s = r * 1.3
        sign = 1 if mark == 2 else -1
        draw.polygon(
            [
                (cx, cy - sign * s),
                (cx + s * 0.97, cy + sign * s * 0.72),
                (cx - s * 0.97, cy + sign * s * 0.72),
            ],
            fill=fill,
        )
    elif mark == 3:
        s = r * 1.3
        draw.polygon([(cx, cy - s), (cx + s, cy), (cx, cy + s), (cx - s, cy)], fill=fill)
    elif mark == 4:
        outer, inner = r * 1.45, r * 0.62
        points = []
        for i in range(10):
            radius = outer if i % 2 == 0 else inner
            angle = -math.pi / 2 + i * math.pi / 5
            points.append((cx + radius * math.cos(angle), cy + radius * math.sin(angle) + r * 0.1))
        draw.polygon(points, fill=fill)
    elif mark == 5:
        s, t = r * 1.15, r * 0.42
        draw.rectangle((cx - s, cy - t, cx + s, cy + t), fill=fill)
        draw.rectangle((cx - t, cy - s, cx + t, cy + s), fill=fill)
    else:
        s = r * 1.15
        points = [
            (
                cx + s * math.cos(-math.pi / 2 + i * 2 * math.pi / 5),
                cy + s * math.sin(-math.pi / 2 + i * 2 * math.pi / 5) + r * 0.08,
            )
            for i in range(5)
        ]
        draw.polygon(points, fill=fill)


def _draw_die(
    draw: ImageDraw.ImageDraw,
    theme: Theme,
    owner: int,
    face: int | None,
    x: float,
    y: float,
    s: int,
    strip: int = STEP,
) -> None:
    """A die of ``owner`` at ``x, y`` (supersampled by ``s``); pips of ``face`` in the
    owner's mark, or (``None``) just the mark in the middle of its visible strip."""
    colours = palette(theme)
    side = DIE * s
    fill = seat_colour(owner, theme)
    draw.rounded_rectangle(
        (x, y, x + side - 1, y + side - 1),
        radius=8 * s,
        fill=fill,
        outline=colours.outline,
        width=2 * s,
    )
    pip = contrast_text(fill)
    if face is None:
        r = min(strip * MARK_OF_STRIP, 7.0) * s
        _shape(draw, owner, x + side / 2, y + side - strip * s / 2 - s / 2, r, pip)
        return
    for px, py in PIPS[face]:
        _shape(draw, owner, x + px * side, y + py * side, 4.6 * s, pip)


def _build_item(key: tuple[Theme, Ground, BoxKind, int, tuple[int, ...], int]) -> Image.Image:
    """Unstacked dice of one face (``owners`` is the seat) or a pile, and its count."""
    theme, ground, kind, face, owners, count = key
    s = SUPERSAMPLE
    dice = 1 if kind == "dice" else len(owners)
    height = pile_height(dice)
    label = _count_text(count)
    label_width = _label_width(label, "regular") + 4 if label else 0
    image = Image.new("RGB", (DIE * s, height * s), ground_colour(theme, ground))
    draw = ImageDraw.Draw(image)
    for level in range(dice):
        owner = owners[level] if kind != "dice" else owners[0]
        top = (height - DIE - level * pile_step(dice)) * s
        shown = face if level == dice - 1 else None
        _draw_die(draw, theme, owner, shown, 0, top, s, pile_step(dice))
    sprite = image.reduce(s)
    if label_width:
        whole = Image.new("RGB", (DIE + label_width, height), ground_colour(theme, ground))
        whole.paste(sprite, (0, 0))
        text = _text_rgb(label, "regular", palette(theme).text, ground_colour(theme, ground))
        whole.paste(text, (DIE + 4, height - LINE + (LINE - DIE) // 2 + 2))
        sprite = whole
    return _reduce(sprite, theme)


_ITEMS: Parts[tuple[Theme, Ground, BoxKind, int, tuple[int, ...], int], Image.Image] = Parts(
    _build_item
)


def _item(key: tuple[Theme, Ground, BoxKind, int, tuple[int, ...], int]) -> Image.Image:
    return _ITEMS(key)


def sprite(
    face: int, owners: tuple[int, ...], theme: Theme = "dark", ground: Ground = "panel"
) -> Image.Image:
    """A die showing ``face`` in ``owners[0]``'s colour, or a pile of them (``owners``
    bottom to top), without a count; built once, shared (do not modify)."""
    kind: BoxKind = "dice" if len(owners) == 1 else "pile"
    return _ITEMS((theme, ground, kind, face, tuple(o % len(SEAT_COLOURS) for o in owners), 1))


def _build_frame(key: tuple[Theme, Ground, int, int, bool, bool]) -> Image.Image:
    """The frame around an item: gold for the last move; for a captured pile, a thick red
    frame with the captured mark (:func:`_draw_badge`) on its right (the legend under the
    cards shows the same mark)."""
    theme, ground, width, height, lit, captured = key
    colours = palette(theme)
    s = SUPERSAMPLE
    back = ground_colour(theme, ground)
    image = Image.new("RGB", (width * s, height * s), back)
    draw = ImageDraw.Draw(image)
    if captured:
        inset = (FRAME - 1) * s
        draw.rounded_rectangle(
            (inset, inset, width * s - 1 - inset, height * s - 1 - inset),
            radius=6 * s,
            outline=colours.captured,
            width=3 * s,
        )
        centre = width - PAD - 4 - BADGE / 2
        _draw_badge(draw, theme, centre * s, (PAD + BADGE / 2 + 2) * s, BADGE / 2 * s)
    if lit:
        draw.rounded_rectangle(
            (0, 0, width * s - 1, height * s - 1),
            radius=9 * s,
            outline=colours.highlight,
            width=FRAME * s,
        )
    return _reduce(image.reduce(s), theme)


_FRAMES: Parts[tuple[Theme, Ground, int, int, bool, bool], Image.Image] = Parts(_build_frame, 512)


def _draw_badge(draw: ImageDraw.ImageDraw, theme: Theme, cx: float, cy: float, r: float) -> None:
    """The captured mark: a red disc with a white tick (shapes, not a font's glyph)."""
    colours = palette(theme)
    draw.ellipse((cx - r, cy - r, cx + r, cy + r), fill=colours.captured)
    tick = [
        (cx - r * 0.5, cy + r * 0.02),
        (cx - r * 0.12, cy + r * 0.42),
        (cx + r * 0.55, cy - r * 0.4),
    ]
    draw.line(tick, fill=(250, 250, 250), width=max(1, round(r * 0.28)), joint="curve")


def _build_icon(key: tuple[Theme, str]) -> Image.Image:
    """A title's icon, :data:`ICON` wide and a line high, drawn as shapes: the turn
    timer's stopwatch, or the legend's captured mark or last-move frame."""
    theme, style = key
    colours = palette(theme)
    s = SUPERSAMPLE
    back = ground_colour(theme, "background")
    image = Image.new("RGB", (ICON * s, LINE * s), back)
    draw = ImageDraw.Draw(image)
    cx, cy = (ICON / 2 - 2) * s, (LINE / 2 + 1) * s
    if style == "timer":
        ink = colours.muted
        r = 11 * s
        draw.ellipse((cx - r, cy - r, cx + r, cy + r), outline=ink, width=3 * s)
        draw.rectangle((cx - 4 * s, cy - r - 6 * s, cx + 4 * s, cy - r - 3 * s), fill=ink)
        draw.rectangle((cx - 1.5 * s, cy - r - 4 * s, cx + 1.5 * s, cy - r), fill=ink)
        draw.line([(cx, cy), (cx, cy - 7 * s)], fill=ink, width=3 * s)
        draw.line([(cx, cy), (cx + 5 * s, cy + 3 * s)], fill=ink, width=3 * s)
    elif style == "key-captured":
        _draw_badge(draw, theme, cx, cy, BADGE / 2 * s)
    else:
        side = 11 * s
        draw.rounded_rectangle(
            (cx - side, cy - side, cx + side, cy + side),
            radius=6 * s,
            outline=colours.highlight,
            width=FRAME * s,
        )
    return _reduce(image.reduce(s), theme)


_ICONS: Parts[tuple[Theme, str], Image.Image] = Parts(_build_icon)


def _icon(key: tuple[Theme, str]) -> Image.Image:
    return _ICONS(key)


def _frame(key: tuple[Theme, Ground, int, int, bool, bool]) -> Image.Image:
    return _FRAMES(key)


def _build_card(key: tuple[Theme, int, int, Ground]) -> Image.Image:
    """A seat's card on the picture's background: gold-edged for the seat to move."""
    theme, width, height, ground = key
    colours = palette(theme)
    s = SUPERSAMPLE
    image = Image.new("RGB", (width * s, height * s), colours.background)
    draw = ImageDraw.Draw(image)
    edge = colours.highlight if ground == "turn" else colours.panel_edge
    edge_width = BORDER if ground == "turn" else 1
    draw.rounded_rectangle(
        (0, 0, width * s - 1, height * s - 1),
        radius=RADIUS * s,
        fill=edge,
    )
    inset = edge_width * s
    draw.rounded_rectangle(
        (inset, inset, width * s - 1 - inset, height * s - 1 - inset),
        radius=(RADIUS - edge_width) * s,
        fill=ground_colour(theme, ground),
    )
    return _reduce(image.reduce(s), theme)


_CARDS: Parts[tuple[Theme, int, int, Ground], Image.Image] = Parts(_build_card, 256)


def _card(key: tuple[Theme, int, int, Ground]) -> Image.Image:
    return _CARDS(key)


def _build_chip(key: tuple[Theme, Ground, int]) -> Image.Image:
    """A seat's chip: its colour with its mark."""
    theme, ground, seat = key
    colours = palette(theme)
    s = SUPERSAMPLE
    fill = seat_colour(seat, theme)
    image = Image.new("RGB", (CHIP * s, CHIP * s), ground_colour(theme, ground))
    draw = ImageDraw.Draw(image)
    draw.rounded_rectangle(
        (0, 0, CHIP * s - 1, CHIP * s - 1),
        radius=8 * s,
        fill=fill,
        outline=colours.outline,
        width=2 * s,
    )
    _shape(draw, seat, CHIP * s / 2, CHIP * s / 2, 9 * s, contrast_text(fill))
    return _reduce(image.reduce(s), theme)


_CHIPS: Parts[tuple[Theme, Ground, int], Image.Image] = Parts(_build_chip)


def _chip(key: tuple[Theme, Ground, int]) -> Image.Image:
    return _CHIPS(key)


_WIDTHS: Parts[tuple[str, fonts.Weight], int] = Parts(
    lambda key: max(1, math.ceil(fonts.text_width(key[0], FONT, key[1]))), LABEL_CACHE_SIZE
)


def _label_width(text: str, weight: fonts.Weight) -> int:
    """How wide ``text`` is drawn (whole pixels)."""
    return _WIDTHS((text, weight))


def _text_rgb(text: str, weight: fonts.Weight, ink: Colour, ground: Colour) -> Image.Image:
    """``text`` in ``ink`` on ``ground``, a line high (RGB)."""
    mask = fonts.text_mask(text, FONT, LINE, weight)
    image = Image.new("RGB", mask.size, ground)
    image.paste(ink, (0, 0), mask)
    return image


def _build_label(key: tuple[str, fonts.Weight, str, Theme, Ground]) -> Image.Image:
    text, weight, style, theme, ground = key
    colours = palette(theme)
    image = _text_rgb(text, weight, _style_colour(colours, style), ground_colour(theme, ground))
    return _reduce(image, theme)


_LABELS: Parts[tuple[str, fonts.Weight, str, Theme, Ground], Image.Image] = Parts(
    _build_label, LABEL_CACHE_SIZE
)


def _label(key: tuple[str, fonts.Weight, str, Theme, Ground]) -> Image.Image:
    return _LABELS(key)


def _build_tag(key: tuple[str, str, Theme, Ground]) -> Image.Image:
    """A tag: gold with dark text ("to move", "wins"), or outlined."""
    text, style, theme, ground = key
    colours = palette(theme)
    s = SUPERSAMPLE
    width, height = _tag_width(text), LINE - 4
    back = ground_colour(theme, ground)
    image = Image.new("RGB", (width * s, height * s), back)
    draw = ImageDraw.Draw(image)
    box = (0, 0, width * s - 1, height * s - 1)
    if style == "gold":
        draw.rounded_rectangle(box, radius=height * s // 2, fill=colours.highlight)
        ink, inside = colours.highlight_text, colours.highlight
    else:
        edge = colours.muted if style == "muted" else colours.text
        draw.rounded_rectangle(box, radius=height * s // 2, outline=edge, width=2 * s)
        ink, inside = _style_colour(colours, style), back
    image = image.reduce(s)
    mask = fonts.text_mask(text, FONT, height, "regular")
    image.paste(ink, (TAG_PAD, 0), mask.crop((0, 0, min(mask.width, width - TAG_PAD), height)))
    del inside
    return _reduce(image, theme)


_TAGS: Parts[tuple[str, str, Theme, Ground], Image.Image] = Parts(_build_tag)


def _tag(key: tuple[str, str, Theme, Ground]) -> Image.Image:
    return _TAGS(key)


def forget_parts() -> None:
    """Drop every cached part (they are built again on use)."""
    for parts in (_ITEMS, _FRAMES, _CARDS, _CHIPS, _WIDTHS, _LABELS, _TAGS, _ICONS):
        parts.clear()


# ------------------------------------------------------------------ measuring it

SAMPLE_NAMES = (
    "Ālīce ✨",
    "ボブ",
    "😀",
    "Dmitri Ivanovich Mendeleev",
    "**__@everyone__**~~`<@123>`~~||x||",
    "Zoë",
    "Ngozi",
    "李小龍",
)


def sample_pictures(
    seats: int, dice: int, count: int, seed: int = 1, theme: Theme = "dark"
) -> list[FieldPicture]:
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
                    pictures.append(FieldPicture.of(state, theme=theme, turn_seconds=60))
    return pictures


def bench(samples: int = 300) -> list[str]:
    """CPU per picture for 2, 4 and 8 seats of 14 dice and 8 of 30, parts already cached
    (as in a running bot); first, what filling the caches costs. The last line is
    ``picture 8x14: p50 X ms, p99 Y ms``."""
    from pictures.samples import cpu_ms, measure

    lines = []
    forget_parts()
    cold = sample_pictures(8, 30, 1, seed=0)
    first = cpu_ms(draw_field, cold)[0]
    lines.append(f"first picture (8x30, every part built): {first:.1f} ms")
    for seats, dice in ((8, 30), (2, 14), (4, 14), (8, 14)):
        pictures = sample_pictures(seats, dice, samples)
        lines += measure(
            f"{seats}x{dice}", draw_field, pictures, width=WIDTH, tall=_median_height, sized=50
        )
    return lines


def _median_height(pictures: Sequence[FieldPicture]) -> float:
    return statistics.median(layout(p).height for p in pictures)


# ------------------------------------------------------------------ the pictures of docs/


def _rolling(state: StackState) -> bool:
    return state.decision is Decision.CHANCE


def _play_until(
    names: tuple[str, ...],
    rules: StackRules,
    seed: int,
    done: Callable[[StackState], bool],
    *,
    limit: int = 5000,
) -> StackState:
    """A game played by greedy and random AIs until ``done`` holds after a move."""
    rng = random.Random(seed)
    greedy, random_player = GreedyPlayer(), RandomPlayer()
    state = StackState(names, rules)
    for _ in range(limit):
        if state.is_over:
            break
        if _rolling(state):
            state.apply(state.sample_chance(rng))
            continue
        player = greedy if rng.random() < 0.6 else random_player
        state.apply(player.choose(state, rng))
        if not _rolling(state) and done(state):
            break
    return state


def showcase() -> dict[str, FieldPicture]:
    """The pictures kept in ``docs/pictures/``, by file name."""
    four = ("Ālīce ✨", "ボブ", "😀", "Dmitri")
    eight = (
        "Ālīce ✨",
        "ボブ",
        "😀",
        "**__@everyone__**~~`<@123>`~~||x||",
        "Zoë",
        "Ngozi Okonjo-Iweala",
        "李小龍",
        "Sam",
    )
    mid = _play_until(
        four,
        StackRules(),
        7,
        lambda s: s.round_number == 2 and sum(s.single_total) < 30 and any(s.captures),
    )
    teams = _play_until(
        ("Ālīce ✨", "ボブ", "Zoë", "Sam"),
        StackRules(teams=(("Ālīce ✨", "Zoë"), ("ボブ", "Sam"))),
        11,
        lambda s: s.round_number == 3 and sum(s.single_total) < 32,
    )
    last = _play_until(
        eight,
        StackRules(),
        5,
        lambda s: (
            s.round_number >= 2 and s.in_last_turns and sum(1 for t in s.single_total if not t) >= 2
        ),
    )
    full = _play_until(
        eight,
        StackRules(dice_per_player=30),
        3,
        lambda s: sum(s.single_total) < 150 and any(s.captures),
    )
    two = _play_until(
        ("Ālīce ✨", "ボブ"),
        StackRules(),
        2,
        lambda s: s.round_number == 2 and sum(s.single_total) < 18,
    )
    over = _play_until(four, StackRules(target_score=60), 4, lambda s: False)
    return {
        "table-dark.png": FieldPicture.of(mid, turn_seconds=60),
        "table-light.png": FieldPicture.of(mid, theme="light", turn_seconds=60),
        "table-names.png": FieldPicture.of(last, turn_seconds=90),
        "table-names-light.png": FieldPicture.of(last, theme="light", turn_seconds=90),
        "table-8x30.png": FieldPicture.of(full, turn_seconds=120),
        "table-teams.png": FieldPicture.of(teams, turn_seconds=60),
        "table-2.png": FieldPicture.of(two, theme="light"),
        "table-over.png": FieldPicture.of(over),
    }


JAPANESE = {"stack-ja.png": "table-dark.png"}  # the docs' Japanese example (README)


def main(argv: list[str] | None = None) -> None:
    from pictures import samples

    samples.main(argv, "stack", samples=300)


if __name__ == "__main__":
    main()
