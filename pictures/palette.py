"""The bot's colours: the two themes (dark, the default, and light) and each seat's colour
and mark, shared by the table picture (:mod:`pictures.stack`) and the charts.

A seat's colour is the colour of the emoji square the text shows for it
(:data:`engine.stack.render.SQUARES`: 🟥🟦🟩🟨🟪🟧🟫⬜, as Discord draws them), so the
picture, the charts and the text agree. Hue alone never carries meaning: every seat also
has a mark (● ■ ▲ ◆ ★ ✚ ▼ ⬟), drawn on its dice, piles, name chip and chart line, so
colour-blind players (and a greyscale print) can still tell the seats apart.

- :func:`seat_colour` is the fill of a seat's dice, chips and chart areas (the emoji
  square's colour, in both themes);
- :func:`seat_ink` is the colour of a seat's text and thin lines, adjusted to stand out
  on the theme's background (yellow and white are too light on the light theme);
- :func:`seat_mark` / :func:`seat_marker` are the seat's mark as a glyph / a matplotlib
  marker code.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

Theme = Literal["dark", "light"]
THEMES: tuple[Theme, ...] = ("dark", "light")
DEFAULT_THEME: Theme = "dark"

Colour = tuple[int, int, int]


@dataclass(frozen=True, slots=True)
class Palette:
    """The colours of one theme (RGB, 0-255)."""

    theme: Theme
    background: Colour  # the picture's background
    panel: Colour  # a seat's card, a chart's plotting area
    panel_edge: Colour  # a thin line around a panel
    text: Colour  # names, numbers
    muted: Colour  # secondary text: labels, units
    grid: Colour  # chart grid lines, separators
    highlight: Colour  # whose turn it is, the last move (a warm gold)
    highlight_text: Colour  # text written on the highlight colour
    highlight_ink: Colour  # text in the highlight's hue, on the background
    outline: Colour  # around dice
    out: Colour  # a seat that is out (last turns), dimmed
    captured: Colour  # the frame of captured piles


# Each colour of a theme, dark then light.
_COLOURS: dict[str, tuple[Colour, Colour]] = {
    "background": ((30, 31, 34), (255, 255, 255)),  # Discord's message background
    "panel": ((43, 45, 49), (242, 243, 245)),
    "panel_edge": ((63, 66, 72), (214, 217, 222)),
    "text": ((242, 243, 245), (20, 21, 24)),
    "muted": ((160, 164, 171), (88, 92, 100)),
    "grid": ((78, 80, 88), (210, 212, 218)),
    "highlight": ((255, 196, 0), (230, 160, 0)),
    "highlight_text": ((24, 24, 24), (20, 20, 20)),
    "highlight_ink": ((255, 196, 0), (160, 100, 0)),
    "outline": ((12, 12, 14), (40, 40, 44)),
    "out": ((98, 100, 106), (170, 173, 180)),
    "captured": ((224, 96, 96), (190, 40, 40)),
}
_DARK, _LIGHT = (
    Palette(theme, **{name: pair[index] for name, pair in _COLOURS.items()})
    for index, theme in enumerate(THEMES)
)


def palette(theme: Theme = DEFAULT_THEME) -> Palette:
    """The colours of ``theme``."""
    return _LIGHT if theme == "light" else _DARK


# Each seat's colour: its name; Discord's (Twemoji's) colour of its square 🟥🟦🟩🟨🟪🟧🟫⬜,
# in the order of engine.stack.render.COLOURS; and the same hue for text and lines, as it
# is on dark, deeper on light.
_SEATS: tuple[tuple[str, Colour, Colour, Colour], ...] = (
    ("red", (221, 46, 68), (240, 80, 96), (200, 30, 52)),
    ("blue", (85, 172, 238), (96, 180, 242), (24, 118, 196)),
    ("green", (120, 177, 89), (128, 190, 96), (62, 130, 40)),
    ("yellow", (253, 203, 88), (253, 208, 96), (176, 128, 0)),
    ("purple", (170, 142, 214), (184, 158, 226), (122, 84, 184)),
    ("orange", (244, 144, 12), (246, 156, 40), (206, 106, 0)),
    ("brown", (193, 105, 79), (206, 126, 100), (140, 70, 44)),
    ("white", (230, 231, 232), (236, 237, 238), (110, 114, 122)),
)
SEAT_COLOUR_NAMES: tuple[str, ...] = tuple(seat[0] for seat in _SEATS)
SEAT_COLOURS: tuple[Colour, ...] = tuple(seat[1] for seat in _SEATS)
_INK_DARK: tuple[Colour, ...] = tuple(seat[2] for seat in _SEATS)
_INK_LIGHT: tuple[Colour, ...] = tuple(seat[3] for seat in _SEATS)
# The colours of the records' colour letters (Stack Up!'s cards, Color Stack's dice):
# Discord's 🟥🟦🟨🟩 as the texts show them, the seats' red, blue, yellow and green.
LETTER_COLOURS: dict[str, Colour] = {
    "R": SEAT_COLOURS[0],
    "B": SEAT_COLOURS[1],
    "Y": SEAT_COLOURS[3],
    "G": SEAT_COLOURS[2],
}

# name (an identifier), glyph, matplotlib marker
MARKS: tuple[tuple[str, str, str], ...] = (
    ("circle", "●", "o"),
    ("square", "■", "s"),
    ("triangle", "▲", "^"),
    ("diamond", "◆", "D"),
    ("star", "★", "*"),
    ("cross", "✚", "P"),
    ("down_triangle", "▼", "v"),
    ("pentagon", "⬟", "p"),
)


def seat_colour(seat: int, theme: Theme = DEFAULT_THEME) -> Colour:
    """The fill colour of ``seat``'s dice and chips: its emoji square's colour (the same
    in both themes; seats beyond eight repeat the colours)."""
    return SEAT_COLOURS[seat % len(SEAT_COLOURS)]


def seat_ink(seat: int, theme: Theme = DEFAULT_THEME) -> Colour:
    """The colour of ``seat``'s text and thin lines on ``theme``'s background (its hue,
    made deep enough to read on the light theme)."""
    inks = _INK_LIGHT if theme == "light" else _INK_DARK
    return inks[seat % len(inks)]


def seat_mark(seat: int) -> str:
    """``seat``'s mark as a glyph: ● ■ ▲ ◆ ★ ✚ ▼ ⬟."""
    return MARKS[seat % len(MARKS)][1]


def seat_marker(seat: int) -> str:
    """``seat``'s mark as a matplotlib marker code (o s ^ D * P v p)."""
    return MARKS[seat % len(MARKS)][2]


def hex_colour(colour: Colour) -> str:
    """``colour`` as ``#rrggbb`` (for matplotlib)."""
    return "#{:02x}{:02x}{:02x}".format(*colour)


def contrast_text(fill: Colour) -> Colour:
    """Black or white, whichever reads better on ``fill``."""
    r, g, b = fill
    return (20, 20, 20) if 0.299 * r + 0.587 * g + 0.114 * b > 150 else (250, 250, 250)


Ground = Literal["background", "panel", "turn"]  # what a picture's part is drawn on


def blend(a: Colour, b: Colour, t: float) -> Colour:
    """``a`` moved ``t`` of the way to ``b``."""
    return (
        round(a[0] + (b[0] - a[0]) * t),
        round(a[1] + (b[1] - a[1]) * t),
        round(a[2] + (b[2] - a[2]) * t),
    )


def ground_colour(theme: Theme, ground: Ground) -> Colour:
    """The colour of a picture's ground: its background, a panel, or the panel of the
    seat to move (tinted with the highlight)."""
    colours = palette(theme)
    if ground == "background":
        return colours.background
    if ground == "turn":
        return blend(colours.panel, colours.highlight, 0.16 if theme == "dark" else 0.14)
    return colours.panel


def picture_colours(theme: Theme) -> tuple[Palette, list[Colour], list[Colour]]:
    """What every table picture's palette starts from: the theme's colours, its grounds
    (the background first: a palette's entry 0; a panel; the panel of the seat to move)
    and the inks every picture writes in (text, muted text, the highlight)."""
    colours = palette(theme)
    grounds = [ground_colour(theme, g) for g in ("background", "panel", "turn")]
    return colours, grounds, [colours.text, colours.muted, colours.highlight]
