"""The Color Stack picture (pictures/colorstack.py) is drawn in its theme's palette, like
Stack's and Stack Up!'s: every colour it is drawn in is one of the palette's exactly, and
smoothed edges are the nearest of its shades; painting through a mask (the last move's
arrow) changes only the pixels the mask touches."""

from __future__ import annotations

import io

import numpy as np
import pytest
from PIL import Image

from pictures.colorstack import (
    _PALETTE,
    DIE_COLOURS,
    BoardPicture,
    board_colours,
    draw_board,
    sample_pictures,
    showcase,
    square_centre,
)
from pictures.palette import THEMES, Theme, blend, palette


def opened(png: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(png))
    image.load()
    return image


@pytest.mark.parametrize("theme", THEMES)
def test_the_board_picture_is_a_palette_png_in_the_themes_colours(theme: Theme) -> None:
    picture = sample_pictures("heavy", 1, seed=3, theme=theme)[0]
    image = opened(draw_board(picture))
    assert image.mode == "P"
    colours = image.convert("RGB")
    assert colours.getpixel((0, 0)) == palette(theme).background
    entries = image.getpalette() or []
    found = {tuple(entries[i : i + 3]) for i in range(0, len(entries), 3)}
    board = board_colours(theme)
    for colour in [*DIE_COLOURS.values(), board.white, board.black, board.card, board.arrow]:
        assert colour in found


def test_the_last_moves_arrow_is_drawn_in_its_own_colour() -> None:
    arrows = [p for p in showcase().values() if len(p.path) >= 2 and p.selected is None]
    assert {p.theme for p in arrows} == set(THEMES)
    for picture in arrows:
        image = opened(draw_board(picture)).convert("RGB")
        # the shaft starts at the first square's centre
        x, y = square_centre(picture, picture.path[0])
        assert image.getpixel((round(x), round(y))) == board_colours(picture.theme).arrow


def test_painting_through_a_mask_changes_only_the_pixels_it_touches() -> None:
    theme: Theme = "dark"
    colours = board_colours(theme)
    image = _PALETTE.reduce(Image.new("RGB", (40, 20), colours.white), theme)
    before = np.asarray(image).copy()
    mask = Image.new("L", (10, 10), 0)
    mask.putpixel((2, 2), 255)  # fully covered: the colour itself
    mask.putpixel((3, 2), 128)  # half: the palette's nearest to the blend
    _PALETTE.paint(image, theme, (5, 5), [(colours.arrow, mask)])
    after = np.asarray(image)
    changed = {(int(y), int(x)) for y, x in zip(*np.nonzero(after != before), strict=True)}
    assert changed == {(7, 7), (7, 8)}
    rgb = image.convert("RGB")
    assert rgb.getpixel((7, 7)) == colours.arrow
    half = blend(colours.white, colours.arrow, 0.5)
    shown = rgb.getpixel((8, 7))
    assert isinstance(shown, tuple)
    assert max(abs(a - b) for a, b in zip(shown, half, strict=True)) <= 24


def test_a_mask_partly_outside_the_picture_paints_only_what_is_inside() -> None:
    theme: Theme = "light"
    colours = board_colours(theme)
    image = _PALETTE.reduce(Image.new("RGB", (10, 10), colours.white), theme)
    _PALETTE.paint(image, theme, (-5, 8), [(colours.arrow, Image.new("L", (10, 10), 255))])
    rgb = image.convert("RGB")
    assert rgb.getpixel((0, 9)) == colours.arrow and rgb.getpixel((4, 8)) == colours.arrow
    assert rgb.getpixel((5, 9)) == colours.white and rgb.getpixel((0, 7)) == colours.white


def test_the_same_board_always_gives_the_same_png() -> None:
    picture: BoardPicture = sample_pictures("light", 1, seed=4)[0]
    assert draw_board(picture) == draw_board(picture)
