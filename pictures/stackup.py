"""The Stack Up! table picture: what everyone at the table may see, at a glance, on a phone.

What it shows: the stack's top as a large card in its colour (with the colour's letter and
name printed on it, so hue never carries the meaning alone), the stacking direction as an
arrow (up 1→15 or down 15→1), the draw pile and its size, the last play as small cards,
a pending Crash, and a card per seat: its name, whose turn it is ("to move"), the Crash
on it, its draw passes and its hand as a fan of face-down cards with the count. Never a
card of any hand: :class:`TablePicture` holds hand *sizes* only, so the worker that draws
it is never even told a hidden card. A name too long for its room (the last play's line,
a Snatch's victim, a seat beside its tags) is cut, names starting alike keeping their
ends (:func:`pictures.fonts.fit_apart`), so the picture always says who is who.

Readable on a phone, like :mod:`pictures.stack`: :data:`WIDTH` = 760 px shown at about 380
CSS px, every text :data:`FONT` = 30 px (about Discord's own 16 px there).

Fast: every part (the big card per colour and number, a fan per size, labels per text)
is drawn once, supersampled for smooth edges, cached, and pasted; the picture is reduced
to a fixed palette of the theme's colours and saved with fast PNG compression.
:func:`draw_table` is pure and thread-safe; the bot runs it in the painter worker.

``python -m pictures.stackup`` prints the bench (CPU ms per picture);
``python -m pictures.stackup --save docs/pictures`` draws the docs' examples.
"""

from __future__ import annotations

import io
import math
import statistics
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Literal

from PIL import Image, ImageDraw

from catalog import isolate, n, t
from catalog.stackup import colour_name, special_name
from engine.stackup.cards import COLOUR_LETTERS, card_names
from engine.stackup.state import StackUpState
from pictures import fonts
from pictures.palette import (
    LETTER_COLOURS,
    Colour,
    Ground,
    Theme,
    blend,
    contrast_text,
    ground_colour,
    palette,
    picture_colours,
)
from pictures.parts import FONT, SUPERSAMPLE, WIDTH, IndexedPalette, Parts

MARGIN = 12
LINE = 40
GAP = 12
RADIUS = 14
BORDER = 4  # the gold edge of the seat to move
BIG_W, BIG_H = 160, 212  # the stack's top card
BIG_NUMBER = 96  # its number's size
SMALL_H = 56  # a card of the last play
SMALL_MIN_W = 66
BACK_W, BACK_H = 34, 48  # a face-down card of a hand's fan
FAN_STEP = 16  # how far apart the fan's cards are (less when many)
FAN_MAX = 60  # cards drawn at most in a fan (the count says the rest)
PILE_W, PILE_H = 104, 146  # the draw pile
ARROW = 120  # the direction's disc
SEAT_PAD_X, SEAT_PAD_Y = 12, 6
CACHE_SIZE = 2048
PNG_OPTIONS: dict[str, int | bool] = {"compress_level": 1, "optimize": False}

CARD_COLOURS = LETTER_COLOURS  # the cards' colours: Discord's 🟥🟦🟨🟩 (the text's squares)
SPECIAL_MARKS = {"Flip": "⇅", "Freeze": "❄", "Snatch": "☚", "Switch": "◐", "Crash": "✸"}
SPECIAL_FILL: Colour = (88, 70, 140)  # special cards: no colour of their own
BACK_FILL: Colour = (64, 84, 120)  # the back of a card
CRASH_FILL: Colour = (200, 48, 48)


@dataclass(frozen=True, slots=True)
class TablePicture:
    """What the picture shows: only what every player may see (hand sizes, never hands).
    Immutable and picklable: taken on the event loop, drawn in the painter worker.

    ``last_cards`` are the cards of the last play (on the stack now, so public: a number
    play's cards, one special card, or nothing for a take, a pass or a kept draw);
    ``last_note`` says the rest in a few words ("skip", "→ Blue", "took 3"), in the
    language spoken where the picture is made (that of its draw job)."""

    PICTURE = "stackup"  # its drawing in pictures.games (a class attribute, not a field)

    names: tuple[str, ...]
    hand_sizes: tuple[int, ...]
    passes: tuple[int, ...]
    colour: str  # the stack's colour letter: R, B, Y, G
    number: int  # the stack's number, 1-15
    direction: Literal["up", "down"] | None  # None: the first player has not chosen yet
    draw_pile: int
    current: int | None = None  # the seat to act
    crash_on: int | None = None  # the seat a pending Crash penalty is on
    last_seat: int | None = None
    last_cards: tuple[str, ...] = ()
    last_note: str = ""
    turns_taken: int = 0
    turn_limit: int = 500
    winners: tuple[int, ...] = ()
    over: bool = False
    theme: Theme = "dark"
    turn_seconds: int | None = None

    @classmethod
    def of(
        cls, state: StackUpState, *, theme: Theme = "dark", turn_seconds: int | None = None
    ) -> TablePicture:
        """The picture of ``state``: its public facts only (hand sizes, never a hand)."""
        over = state.is_over
        outcome = state.outcome()
        last_seat, last_cards, note = last_turn(state)
        return cls(
            names=tuple(state.players),
            hand_sizes=state.hand_sizes,
            passes=tuple(state.passes),
            colour=COLOUR_LETTERS[state.colour],
            number=state.number,
            direction=state.direction,  # type: ignore[arg-type]
            draw_pile=state.pile_size,
            current=None if over else state.current_player,
            crash_on=None if over else state.pending_crash,
            last_seat=last_seat,
            last_cards=last_cards,
            last_note=note,
            turns_taken=state.turns_taken,
            turn_limit=state.turn_limit,
            winners=tuple(outcome.winners) if outcome is not None else (),
            over=over,
            theme=theme,
            turn_seconds=turn_seconds,
        )


def last_turn(state: StackUpState) -> tuple[int | None, tuple[str, ...], str]:
    """The last finished turn as (seat, the cards it put on the stack, a few words on the
    rest): public facts only — never the cards drawn (``drew``) or snatched (``took``)."""
    if not state.log:
        return None, (), ""
    turn = state.log[-1]
    cards = tuple(card_names(turn.cards))
    if turn.kind == "block":
        return turn.seat, cards, t("stackup.note.blocked")
    if turn.kind == "take":
        return turn.seat, (), n("stackup.note.took", len(turn.drew))
    if turn.kind == "pass":
        return turn.seat, (), t("stackup.note.used_pass")
    if turn.kind == "draw" and not cards:
        return turn.seat, (), t("stackup.note.drew_kept" if turn.drew else "stackup.note.no_card")
    notes = []
    if turn.kind == "draw":
        notes.append(t("stackup.note.drawn_played"))
    if turn.bonus is not None:
        notes.append(
            t("stackup.note.bonus_skip" if turn.bonus == "skip" else "stackup.note.bonus_pass")
        )
    if turn.colour is not None:
        notes.append(t("stackup.note.colour", colour=colour_name(turn.colour)))
    if turn.target is not None and turn.count is not None:
        victim = snatched_from(state.players, turn.target)
        # isolated: a right-to-left name does not turn the words around it (「…から2枚」)
        notes.append(t("stackup.note.snatched", count=turn.count, player=isolate(victim)))
    return turn.seat, cards, t("list.comma").join(notes)


VICTIM_CHARACTERS = 24  # of a Snatch's victim's name, in the last play's note


def snatched_from(players: Sequence[str], seat: int) -> str:
    """A Snatch's victim as the last play's note names them: their name, cut to
    :data:`VICTIM_CHARACTERS` characters ending in "…" when longer, or, if those begin another
    player's name, their name cut apart from the others' in as much room
    (:func:`pictures.fonts.fit_apart`: ``Alexandra Konstanti…Li 2``)."""
    names = tuple(" ".join(name.split()) for name in players)
    name = names[seat]
    short = name[:VICTIM_CHARACTERS]
    if not any(other != name and other.startswith(short) for other in names):
        return short if short == name else short[:-1] + "…"  # marked where it was cut
    room = fonts.text_width(short + "…", FONT)
    return fonts.fit_apart(names, (room,) * len(names), FONT)[seat]


# ------------------------------------------------------------------ words


def describe(picture: TablePicture) -> str:
    """The picture's alt text: what it shows, in words (names as they are; the host
    escapes nothing here because alt text is not markdown)."""
    colour = _colour(picture.colour)
    way = t(
        {"up": "stackup.alt.up", "down": "stackup.alt.down"}.get(
            picture.direction or "", "stackup.alt.unset"
        )
    )
    parts = [t("stackup.alt.head", colour=colour, number=picture.number, way=way)]
    parts.append(t("stackup.alt.pile", count=picture.draw_pile))
    seats = []
    for seat, name in enumerate(picture.names):
        cards = n("stackup.count.cards", picture.hand_sizes[seat])
        words = [t("stackup.alt.seat", player=name, cards=cards)]
        if picture.passes[seat]:
            words.append(n("stackup.alt.passes", picture.passes[seat]))
        if seat == picture.crash_on:
            words.append(t("stackup.alt.crash"))
        if seat in picture.winners:
            words.append(t("stackup.alt.wins"))
        elif seat == picture.current and not picture.over:
            words.append(t("stackup.alt.to_move"))
        seats.append(t("list.comma").join(words))
    parts.append(t("stackup.alt.seats_join").join(seats))
    return t("stackup.alt.join").join(parts)[:1000]


def _colour(letter: str) -> str:
    """A colour by its letter (``R``), named in the language spoken."""
    return colour_name(COLOUR_LETTERS.index(letter)) if letter in COLOUR_LETTERS else letter


def _turn_piece(picture: TablePicture) -> str:
    left = max(0, picture.turn_limit - picture.turns_taken)
    if picture.over:
        return n("stackup.picture.over", picture.turns_taken)
    return t("stackup.picture.turn", turn=picture.turns_taken + 1, left=left)


# ------------------------------------------------------------------ cached parts


def _ink(theme: Theme, style: str) -> Colour:
    colours = palette(theme)
    return {
        "muted": colours.muted,
        "gold": colours.highlight_ink,
        "crash": (240, 90, 90) if theme == "dark" else (180, 30, 30),
    }.get(style, colours.text)


def _rgba_text(text: str, size: int, height: int, weight: fonts.Weight, ink: Colour) -> Image.Image:
    """``text`` in ``ink`` on transparency, ``height`` high."""
    mask = fonts.text_mask(text, size, height, weight)
    image = Image.new("RGBA", mask.size, (*ink, 0))
    image.putalpha(mask)
    return image


def _build_label(key: tuple[str, fonts.Weight, str, Theme, Ground]) -> Image.Image:
    text, weight, style, theme, ground = key
    mask = fonts.text_mask(text, FONT, LINE, weight)
    image = Image.new("RGB", mask.size, ground_colour(theme, ground))
    image.paste(_ink(theme, style), (0, 0), mask)
    return image


_LABELS: Parts[tuple[str, fonts.Weight, str, Theme, Ground], Image.Image] = Parts(
    _build_label, CACHE_SIZE
)
_WIDTHS: Parts[tuple[str, fonts.Weight], int] = Parts(
    lambda key: max(1, math.ceil(fonts.text_width(key[0], FONT, key[1]))), 8192
)


def _label(
    text: str, weight: fonts.Weight, style: str, theme: Theme, ground: Ground
) -> Image.Image:
    return _LABELS((text, weight, style, theme, ground))


def _width(text: str, weight: fonts.Weight = "regular") -> int:
    return _WIDTHS((text, weight))


def _rounded(
    size: tuple[int, int],
    ground: Colour,
    fill: Colour,
    *,
    radius: int,
    edge: Colour | None = None,
    edge_width: int = 0,
) -> tuple[Image.Image, ImageDraw.ImageDraw]:
    """A supersampled rounded rectangle on ``ground`` (reduce it by :data:`SUPERSAMPLE`
    once drawn on)."""
    s = SUPERSAMPLE
    width, height = size
    image = Image.new("RGB", (width * s, height * s), ground)
    draw = ImageDraw.Draw(image)
    box = (0, 0, width * s - 1, height * s - 1)
    if edge is not None and edge_width:
        draw.rounded_rectangle(box, radius=radius * s, fill=edge)
        inset = edge_width * s
        box = (inset, inset, width * s - 1 - inset, height * s - 1 - inset)
        draw.rounded_rectangle(box, radius=max(1, radius - edge_width) * s, fill=fill)
    else:
        draw.rounded_rectangle(box, radius=radius * s, fill=fill)
    return image, draw


def _text_at(
    image: Image.Image,
    text: str,
    size: int,
    weight: fonts.Weight,
    ink: Colour,
    *,
    centre_x: float | None = None,
    left: int = 0,
    top: int,
    height: int,
) -> None:
    """Paste ``text`` onto ``image`` (not supersampled), centred on ``centre_x`` or from
    ``left``."""
    mask = fonts.text_mask(text, size, height, weight)
    x = round(centre_x - mask.width / 2) if centre_x is not None else left
    image.paste(ink, (x, top), mask)


def _build_big_card(key: tuple[Theme, str, int]) -> Image.Image:
    """The stack's top: a large card in its colour, its number in the middle, the colour's
    letter and number in the corners and its name at the foot."""
    theme, colour, number = key
    fill = CARD_COLOURS[colour]
    ink = contrast_text(fill)
    image, _ = _rounded(
        (BIG_W, BIG_H),
        palette(theme).background,
        fill,
        radius=16,
        edge=palette(theme).outline,
        edge_width=3,
    )
    image = image.reduce(SUPERSAMPLE)
    corner = f"{colour}{number}"
    _text_at(image, corner, FONT, "bold", ink, left=12, top=6, height=LINE)
    _text_at(image, str(number), BIG_NUMBER, "bold", ink, centre_x=BIG_W / 2, top=44, height=116)
    _text_at(
        image,
        _colour(colour).upper(),
        FONT,
        "bold",
        ink,
        centre_x=BIG_W / 2,
        top=BIG_H - LINE - 8,
        height=LINE,
    )
    return image


_BIG: Parts[tuple[Theme, str, int], Image.Image] = Parts(_build_big_card, 256)


def _card_face(card: str) -> tuple[Colour, str]:
    """A card's fill and the text it shows."""
    if card in SPECIAL_MARKS:
        fill = CRASH_FILL if card == "Crash" else SPECIAL_FILL
        return fill, f"{SPECIAL_MARKS[card]} {special_name(card)}"
    return CARD_COLOURS[card[0]], card


def small_card_width(card: str) -> int:
    _, text = _card_face(card)
    return max(SMALL_MIN_W, _width(text, "bold") + 20)


def _build_small_card(key: tuple[Theme, Ground, str]) -> Image.Image:
    """A card of the last play, face up: ``R7`` on red, ``⇅ Flip`` on purple."""
    theme, ground, card = key
    fill, text = _card_face(card)
    width = small_card_width(card)
    image, _ = _rounded(
        (width, SMALL_H),
        ground_colour(theme, ground),
        fill,
        radius=9,
        edge=palette(theme).outline,
        edge_width=2,
    )
    image = image.reduce(SUPERSAMPLE)
    _text_at(
        image,
        text,
        FONT,
        "bold",
        contrast_text(fill),
        centre_x=width / 2,
        top=(SMALL_H - LINE) // 2,
        height=LINE,
    )
    return image


_SMALL: Parts[tuple[Theme, Ground, str], Image.Image] = Parts(_build_small_card, 512)


def _back(draw: ImageDraw.ImageDraw, x: float, y: float, w: int, h: int, theme: Theme) -> None:
    """A face-down card at ``x, y`` (supersampled coordinates)."""
    s = SUPERSAMPLE
    draw.rounded_rectangle(
        (x, y, x + w * s - 1, y + h * s - 1),
        radius=5 * s,
        fill=BACK_FILL,
        outline=palette(theme).outline,
        width=2 * s,
    )
    inset = 6 * s
    draw.rounded_rectangle(
        (x + inset, y + inset, x + w * s - 1 - inset, y + h * s - 1 - inset),
        radius=3 * s,
        outline=blend(BACK_FILL, (255, 255, 255), 0.45),
        width=max(1, s * 3 // 2),
    )


def fan_width(cards: int, room: int) -> int:
    """How wide a fan of ``cards`` face-down cards is, given ``room`` pixels at most."""
    shown = min(cards, FAN_MAX)
    if shown <= 1:
        return BACK_W if shown else 0
    step = min(FAN_STEP, (room - BACK_W) / (shown - 1))
    return math.ceil(BACK_W + step * (shown - 1))


def _build_fan(key: tuple[Theme, Ground, int, int]) -> Image.Image:
    """A hand as a fan of ``cards`` face-down cards, at most ``room`` pixels wide."""
    theme, ground, cards, room = key
    shown = min(cards, FAN_MAX)
    width = max(1, fan_width(cards, room))
    s = SUPERSAMPLE
    image = Image.new("RGB", (width * s, BACK_H * s), ground_colour(theme, ground))
    draw = ImageDraw.Draw(image)
    step = min(FAN_STEP, (room - BACK_W) / (shown - 1)) if shown > 1 else 0
    for index in range(shown):
        _back(draw, index * step * s, 0, BACK_W, BACK_H, theme)
    return image.reduce(s)


_FANS: Parts[tuple[Theme, Ground, int, int], Image.Image] = Parts(_build_fan, 1024)


def _build_pile(key: tuple[Theme, int]) -> Image.Image:
    """The draw pile: a few face-down cards offset, its size written on the top one
    (an empty pile is a dashed outline)."""
    theme, count = key
    s = SUPERSAMPLE
    background = palette(theme).background
    image = Image.new("RGB", (PILE_W * s, PILE_H * s), background)
    draw = ImageDraw.Draw(image)
    card_w, card_h = PILE_W - 8, PILE_H - 8
    if count:
        layers = min(3, count)
        for layer in range(layers):
            offset = (layers - 1 - layer) * 4 * s
            _back(draw, offset, offset, card_w, card_h, theme)
    else:
        draw.rounded_rectangle(
            (0, 0, card_w * s - 1, card_h * s - 1),
            radius=8 * s,
            outline=palette(theme).muted,
            width=2 * s,
        )
    image = image.reduce(s)
    ink = (250, 250, 250) if count else palette(theme).muted
    _text_at(
        image, str(count), 44, "bold", ink, centre_x=card_w / 2, top=card_h // 2 - 30, height=60
    )
    return image


_PILES: Parts[tuple[Theme, int], Image.Image] = Parts(_build_pile, 256)


def _build_arrow(key: tuple[Theme, str]) -> Image.Image:
    """The direction: a disc with an arrow up or down (a question mark before the first
    player has chosen)."""
    theme, direction = key
    colours = palette(theme)
    s = SUPERSAMPLE
    image = Image.new("RGB", (ARROW * s, ARROW * s), colours.background)
    draw = ImageDraw.Draw(image)
    draw.ellipse(
        (0, 0, ARROW * s - 1, ARROW * s - 1), fill=colours.panel, outline=colours.text, width=3 * s
    )
    c = ARROW * s / 2
    if direction in ("up", "down"):
        sign = -1 if direction == "up" else 1
        head, shaft = 30 * s, 11 * s
        tip = c + sign * 40 * s
        base = c + sign * 4 * s
        draw.polygon([(c, tip), (c - head, base), (c + head, base)], fill=colours.text)
        draw.rectangle(
            (c - shaft, min(base, c - sign * 38 * s), c + shaft, max(base, c - sign * 38 * s)),
            fill=colours.text,
        )
        image = image.reduce(s)
    else:
        image = image.reduce(s)
        _text_at(image, "?", 64, "bold", colours.text, centre_x=ARROW / 2, top=20, height=80)
    return image


_ARROWS: Parts[tuple[Theme, str], Image.Image] = Parts(_build_arrow, 16)


def _build_panel(key: tuple[Theme, int, int, Ground]) -> Image.Image:
    """A seat's card: gold-edged for the seat to act."""
    theme, width, height, ground = key
    colours = palette(theme)
    turn = ground == "turn"
    image, _ = _rounded(
        (width, height),
        colours.background,
        ground_colour(theme, ground),
        radius=RADIUS,
        edge=colours.highlight if turn else colours.panel_edge,
        edge_width=BORDER if turn else 1,
    )
    return image.reduce(SUPERSAMPLE)


_PANELS: Parts[tuple[Theme, int, int, Ground], Image.Image] = Parts(_build_panel, 256)


def _build_tag(key: tuple[str, str, Theme, Ground]) -> Image.Image:
    """A tag: gold with dark text ("to move", "wins"), red ("Crash!") or outlined."""
    text, style, theme, ground = key
    colours = palette(theme)
    width, height = _width(text) + 20, LINE - 4
    back = ground_colour(theme, ground)
    s = SUPERSAMPLE
    image = Image.new("RGB", (width * s, height * s), back)
    draw = ImageDraw.Draw(image)
    box = (0, 0, width * s - 1, height * s - 1)
    if style in ("gold", "crash"):
        fill = colours.highlight if style == "gold" else CRASH_FILL
        draw.rounded_rectangle(box, radius=height * s // 2, fill=fill)
        ink = colours.highlight_text if style == "gold" else (250, 250, 250)
    else:
        draw.rounded_rectangle(box, radius=height * s // 2, outline=colours.muted, width=2 * s)
        ink = colours.text
    image = image.reduce(s)
    _text_at(image, text, FONT, "regular", ink, left=10, top=0, height=height)
    return image


_TAGS: Parts[tuple[str, str, Theme, Ground], Image.Image] = Parts(_build_tag, 512)


def forget_parts() -> None:
    """Drop every cached part (built again on use)."""
    for parts in (_LABELS, _WIDTHS, _BIG, _SMALL, _FANS, _PILES, _ARROWS, _PANELS, _TAGS):
        parts.clear()
    _REDUCED.clear()


# ------------------------------------------------------------------ the layout


@dataclass(frozen=True, slots=True)
class Piece:
    """One part of the picture and where it goes (its top left corner)."""

    kind: str  # label, big, small, fan, pile, arrow, panel, tag
    left: int
    top: int
    key: tuple[object, ...]
    seat: int = -1  # the seat it belongs to (-1: the table)

    @property
    def image(self) -> Image.Image:
        return _BUILDERS[self.kind](self.key)


_BUILDERS: dict[str, Callable[[tuple[object, ...]], Image.Image]] = {
    "label": _LABELS,  # type: ignore[dict-item]
    "big": _BIG,  # type: ignore[dict-item]
    "small": _SMALL,  # type: ignore[dict-item]
    "fan": _FANS,  # type: ignore[dict-item]
    "pile": _PILES,  # type: ignore[dict-item]
    "arrow": _ARROWS,  # type: ignore[dict-item]
    "panel": _PANELS,  # type: ignore[dict-item]
    "tag": _TAGS,  # type: ignore[dict-item]
}


@dataclass(frozen=True, slots=True)
class Layout:
    width: int
    height: int
    pieces: tuple[Piece, ...]


def _seat_ground(picture: TablePicture, seat: int) -> Ground:
    if picture.over:
        return "turn" if seat in picture.winners else "panel"
    return "turn" if seat == picture.current else "panel"


def _seat_tags(picture: TablePicture, seat: int) -> list[tuple[str, str]]:
    tags: list[tuple[str, str]] = []
    if seat in picture.winners:
        tags.append((t("stackup.picture.wins"), "gold"))
    elif seat == picture.current and not picture.over:
        tags.append((t("stackup.picture.to_move"), "gold"))
    if seat == picture.crash_on and not picture.over:
        tags.append((t("stackup.picture.crash"), "crash"))
    return tags


def _label_piece(
    pieces: list[Piece],
    text: str,
    weight: fonts.Weight,
    style: str,
    theme: Theme,
    ground: Ground,
    left: int,
    top: int,
    seat: int = -1,
) -> int:
    """Add a label; the x after it."""
    pieces.append(Piece("label", left, top, (text, weight, style, theme, ground), seat))
    return left + _width(text, weight)


def layout(picture: TablePicture) -> Layout:
    """Where everything goes: the title line, the stack (top card, direction, draw pile),
    the last play, then a card per seat (name and tags over its fan and count)."""
    theme = picture.theme
    pieces: list[Piece] = []
    right_edge = WIDTH - MARGIN
    # the title line
    title = t("stackup.title")
    x = _label_piece(pieces, title, "bold", "text", theme, "background", MARGIN, MARGIN)
    seconds = picture.turn_seconds
    for text in [_turn_piece(picture)] + (
        [t("stackup.picture.seconds", seconds=seconds)] if seconds and not picture.over else []
    ):
        dot = _width(" · ")
        if x + dot + _width(text) > right_edge:
            break
        x = _label_piece(pieces, " · ", "regular", "muted", theme, "background", x, MARGIN)
        x = _label_piece(pieces, text, "regular", "muted", theme, "background", x, MARGIN)
    top = MARGIN + LINE + GAP
    # the stack: the top card, the direction, the draw pile, left to right
    pieces.append(Piece("big", MARGIN + 8, top, (theme, picture.colour, picture.number)))
    words = t(
        {"up": "stackup.picture.up", "down": "stackup.picture.down"}.get(
            picture.direction or "", "stackup.picture.choosing"
        )
    )
    words_width = _width(words, "bold")
    # the direction's disc, its words centred under it and clear of the top card
    column = MARGIN + 8 + BIG_W + max(36, (words_width - ARROW) // 2 + 2 * GAP)
    pieces.append(Piece("arrow", column, top + 14, (theme, picture.direction or "?")))
    centre = column + ARROW // 2
    _label_piece(
        pieces,
        words,
        "bold",
        "text",
        theme,
        "background",
        centre - words_width // 2,
        top + 14 + ARROW + 8,
    )
    pile_words = t("stackup.picture.draw_pile")
    pile_left = right_edge - 8 - max(PILE_W, _width(pile_words))
    pile_x = pile_left + (max(PILE_W, _width(pile_words)) - PILE_W) // 2
    pieces.append(Piece("pile", pile_x, top, (theme, picture.draw_pile)))
    _label_piece(
        pieces,
        pile_words,
        "regular",
        "muted",
        theme,
        "background",
        pile_left + (max(PILE_W, _width(pile_words)) - _width(pile_words)) // 2,
        top + PILE_H + 8,
    )
    top += BIG_H + GAP
    if picture.crash_on is not None and not picture.over:
        # between the disc and the draw pile when it fits there with room around it,
        # else on a line of its own under the stack
        tag = t("stackup.picture.crash_pending")
        tag_width = _width(tag) + 20
        free_left = max(column + ARROW, centre + words_width // 2) + 2 * GAP
        free_right = pile_left - 2 * GAP
        if free_right - free_left >= tag_width:
            middle = (free_left + free_right) // 2
            tag_top = top - BIG_H - GAP + 40
            pieces.append(
                Piece("tag", middle - tag_width // 2, tag_top, (tag, "crash", theme, "background"))
            )
        else:
            pieces.append(Piece("tag", MARGIN + 8, top, (tag, "crash", theme, "background")))
            top += LINE - 4 + GAP
    # the last play
    if picture.last_seat is not None and (picture.last_cards or picture.last_note):
        last = t("stackup.picture.last")
        x = _label_piece(pieces, last, "regular", "muted", theme, "background", MARGIN, top + 8)
        x += GAP // 2
        room = max(4 * FONT, min(right_edge - x, 300))
        # cut apart from the other players' names, so that it says which of them played
        everyone = fonts.fit_apart(picture.names, (room,) * len(picture.names), FONT, "bold")
        shown = everyone[picture.last_seat]
        x = _label_piece(pieces, shown, "bold", "text", theme, "background", x, top + 8)
        x += GAP
        line_top = top
        for card in picture.last_cards:
            width = small_card_width(card)
            if x + width > right_edge:
                line_top += SMALL_H + 6
                x = MARGIN + 20
            pieces.append(Piece("small", x, line_top, (theme, "background", card)))
            x += width + 6
        if picture.last_note:
            note = fonts.fit(picture.last_note, right_edge - MARGIN - 20, FONT, "regular")
            if x + _width(note) > right_edge:
                line_top += SMALL_H + 6
                x = MARGIN + 20
            _label_piece(pieces, note, "regular", "text", theme, "background", x + 4, line_top + 8)
        top = line_top + SMALL_H + GAP
    # the seats
    inner_left, inner_right = MARGIN + SEAT_PAD_X, right_edge - SEAT_PAD_X
    # each name is cut to the room its tags leave, all together, so that long names
    # starting alike are cut apart
    tags = [_seat_tags(picture, seat) for seat in range(len(picture.names))]
    rooms = tuple(
        max(
            inner_right - inner_left - sum(_width(text) + 20 + GAP for text, _ in seat_tags),
            4 * FONT,
        )
        for seat_tags in tags
    )
    names = fonts.fit_apart(picture.names, rooms, FONT, "bold")
    for seat, shown in enumerate(names):
        ground = _seat_ground(picture, seat)
        seat_pieces: list[Piece] = []
        y = top + SEAT_PAD_Y
        x = _label_piece(seat_pieces, shown, "bold", "text", theme, ground, inner_left, y, seat)
        x += GAP
        for text, style in tags[seat]:
            if x + _width(text) + 20 > inner_right:
                break
            seat_pieces.append(Piece("tag", x, y + 2, (text, style, theme, ground), seat))
            x += _width(text) + 20 + GAP
        y += LINE + 2
        cards = picture.hand_sizes[seat]
        count = n("stackup.count.cards", cards)
        passes = picture.passes[seat]
        extra = n("stackup.picture.passes", passes) if passes else ""
        right_text = f"{count} · {extra}" if extra else count
        text_width = _width(right_text)
        fan_room = inner_right - inner_left - text_width - GAP
        if cards:
            fan = fan_width(cards, fan_room)
            seat_pieces.append(Piece("fan", inner_left, y, (theme, ground, cards, fan_room), seat))
            text_left = inner_left + fan + GAP
        else:
            text_left = inner_left
        _label_piece(
            seat_pieces,
            right_text,
            "regular",
            "text" if cards else "gold",
            theme,
            ground,
            text_left,
            y + (BACK_H - LINE) // 2,
            seat,
        )
        bottom = y + BACK_H + SEAT_PAD_Y + 2
        pieces.append(
            Piece("panel", MARGIN, top, (theme, WIDTH - 2 * MARGIN, bottom - top, ground), seat)
        )
        pieces.extend(seat_pieces)
        top = bottom + 6
    return Layout(WIDTH, top - 6 + MARGIN, tuple(pieces))


# ------------------------------------------------------------------ drawing


def _palette_colours(theme: Theme) -> list[Colour]:
    """The theme's palette: the picture's background first (entry 0), the grounds, inks
    and card colours, then the shades between them that smooth edges need."""
    colours, grounds, inks = picture_colours(theme)
    inks += [
        colours.highlight_text,
        colours.highlight_ink,
        colours.outline,
        colours.panel_edge,
        _ink(theme, "crash"),
        (250, 250, 250),
        (20, 20, 20),
    ]
    fills = [*CARD_COLOURS.values(), SPECIAL_FILL, BACK_FILL, CRASH_FILL]
    found: list[Colour] = [*grounds, *inks, *fills, blend(BACK_FILL, (255, 255, 255), 0.45)]
    steps = (0.2, 0.4, 0.6, 0.8)
    for ground in grounds:
        for ink in [*inks[:8], *fills]:
            found += [blend(ground, ink, t) for t in steps]
    for fill in fills:
        for ink in ((250, 250, 250), (20, 20, 20), colours.outline):
            found += [blend(fill, ink, t) for t in steps]
    return list(dict.fromkeys(found))[:256]


_PALETTE = IndexedPalette(_palette_colours)
_PALETTE_BYTES = _PALETTE.bytes
_reduce = _PALETTE.reduce  # an RGB part in the theme's palette


_REDUCED: Parts[tuple[str, tuple[object, ...], Theme], Image.Image] = Parts(
    lambda key: _reduce(_BUILDERS[key[0]](key[1]), key[2]), 4096
)


def compose(picture: TablePicture, plan: Layout | None = None) -> Image.Image:
    """The picture in the theme's palette: every part reduced once (cached) and pasted."""
    plan = plan or layout(picture)
    theme = picture.theme
    image = Image.new("P", (plan.width, plan.height), 0)
    image.putpalette(_PALETTE_BYTES[theme])
    for piece in plan.pieces:
        image.paste(_REDUCED((piece.kind, piece.key, theme)), (piece.left, piece.top))
    return image


def draw_table(picture: TablePicture) -> bytes:
    """The picture as a PNG (the theme's palette, fast compression)."""
    out = io.BytesIO()
    compose(picture).save(out, format="PNG", **PNG_OPTIONS)
    return out.getvalue()


# ------------------------------------------------------------------ examples and the bench

SAMPLE_NAMES = (
    "Ālīce ✨",
    "ボブ",
    "😀",
    "Dmitri Ivanovich Mendeleev",
    "**__@everyone__**~~`<@123>`~~||x||",
    "李小龍",
)


def _play_until(
    names: Sequence[str], seed: int, done: Callable[[StackUpState], bool], limit: int = 2000
) -> StackUpState:
    """A game of random moves until ``done`` holds at a player's decision."""
    import random

    from engine.game import Decision

    rng = random.Random(seed)
    state = StackUpState(names)
    for _ in range(limit):
        if state.is_over:
            break
        if state.decision is Decision.CHANCE:
            state.apply(state.sample_chance(rng))
            continue
        if done(state):
            break
        state.apply(rng.choice(state.legal_moves()))
    return state


def sample_pictures(
    seats: int, count: int, seed: int = 1, theme: Theme = "dark"
) -> list[TablePicture]:
    """``count`` pictures of random games of ``seats`` players with 32-character names,
    taken at about one decision in three."""
    import random

    from pictures.samples import from_games, long_names

    names = long_names(seats)

    def take(_rng: random.Random, state: StackUpState) -> TablePicture:
        return TablePicture.of(state, theme=theme, turn_seconds=60)

    return from_games(count, seed, lambda game, done: _play_until(names, game, done), take, 0.33)


def _median_height(pictures: Sequence[TablePicture]) -> float:
    return statistics.median(layout(p).height for p in pictures)


def bench(samples: int = 50) -> list[str]:
    """CPU per picture (parts cached, as in a running bot) for 2, 4 and 6 seats; first,
    what the first picture costs with every part to build. The last line is
    ``picture 6 seats: p50 X ms, p99 Y ms``."""
    from pictures.samples import cpu_ms, measure

    fonts.prepare()
    forget_parts()
    lines = [
        f"first picture (6 seats, every part built): {cpu_ms(draw_table, sample_pictures(6, 1))[0]:.1f} ms"
    ]
    for seats in (2, 4, 6):
        pictures = sample_pictures(seats, samples, seed=seats)
        lines += measure(f"{seats} seats", draw_table, pictures, width=WIDTH, tall=_median_height)
    return lines


NASTY = "**__@everyone__**~~`<@123>`~~||x||"


def showcase() -> dict[str, TablePicture]:
    """The pictures kept in ``docs/pictures/``, by file name: a game under way in both
    themes, the first player choosing the direction, a pending Crash, six seats of nasty
    32-character names, and a finished game."""
    four = ("Ālīce ✨", "ボブ", "😀", "Dmitri")
    six = tuple((str(i) + NASTY).ljust(32, "x")[:32] for i in range(6))
    mid = _play_until(four, 3, lambda s: s.turns_taken >= 10 and len(last_turn(s)[1]) >= 2)
    crash = _play_until(four, 5, lambda s: s.pending_crash is not None and s.turns_taken > 4)
    start = _play_until(("Ālīce ✨", "ボブ"), 1, lambda s: True)
    names = _play_until(six, 8, lambda s: s.turns_taken >= 30)
    over = _play_until(("Ālīce ✨", "ボブ", "Zoë"), 2, lambda s: False)
    return {
        "stackup-dark.png": TablePicture.of(mid, turn_seconds=60),
        "stackup-light.png": TablePicture.of(mid, theme="light", turn_seconds=60),
        "stackup-start.png": TablePicture.of(start, turn_seconds=120),
        "stackup-crash.png": TablePicture.of(crash, theme="light"),
        "stackup-names.png": TablePicture.of(names, turn_seconds=90),
        "stackup-over.png": TablePicture.of(over),
    }


JAPANESE = {"stackup-ja.png": "stackup-dark.png"}  # the docs' Japanese example (README)


def main(argv: list[str] | None = None) -> None:
    from pictures import samples

    samples.main(argv, "stackup", samples=50)


if __name__ == "__main__":
    main()
