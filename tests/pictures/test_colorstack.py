"""The Color Stack picture (pictures/colorstack.py) is drawn in its theme's palette, like
Stack's and Stack Up!'s: every colour it is drawn in is one of the palette's exactly, and
smoothed edges are the nearest of its shades; painting through a mask (the last move's
arrow) changes only the pixels the mask touches. Its words are in the language its job
carries, and Japanese labels fit as English ones do."""

from __future__ import annotations

import io
from typing import Any

import numpy as np
import pytest
from PIL import Image

import catalog
from pictures import fonts
from pictures.colorstack import (
    _PALETTE,
    BOARD_TOP,
    DIE_COLOURS,
    HOW,
    MARGIN,
    BoardPicture,
    _text_width,
    _title,
    board_colours,
    describe,
    draw_board,
    sample_pictures,
    showcase,
    showcase_in,
    square_centre,
)
from pictures.painter import DrawJob, draw_job
from pictures.palette import THEMES, Theme, blend, palette
from pictures.parts import FONT, WIDTH
from tests.pictures.cut_names import assert_cut_apart


def opened(png: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(png))
    image.load()
    return image


@pytest.mark.parametrize("language", catalog.LANGUAGES)
@pytest.mark.parametrize("theme", THEMES)
def test_the_board_picture_is_a_palette_png_in_the_themes_colours(
    theme: Theme, language: str
) -> None:
    picture = sample_pictures("heavy", 1, seed=3, theme=theme)[0]
    with catalog.speaking(language):
        image = opened(draw_board(picture))
    assert image.mode == "P"
    colours = image.convert("RGB")
    assert colours.getpixel((0, 0)) == palette(theme).background
    entries = image.getpalette() or []
    found = {tuple(entries[i : i + 3]) for i in range(0, len(entries), 3)}
    board = board_colours(theme)
    for colour in [*DIE_COLOURS.values(), board.white, board.black, board.card, board.arrow]:
        assert colour in found


@pytest.mark.parametrize("language", catalog.LANGUAGES)
def test_the_last_moves_arrow_is_drawn_in_its_own_colour(language: str) -> None:
    arrows = [p for p in showcase().values() if len(p.path) >= 2 and p.selected is None]
    assert {p.theme for p in arrows} == set(THEMES)
    for picture in arrows:
        with catalog.speaking(language):
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


# ------------------------------------------------------------------ languages


def pictures_with_long_names() -> list[BoardPicture]:
    """The showcase's pictures, every state of a game (under way, won, drawn, resigned)
    with 32-character names."""
    from dataclasses import replace

    long = ("W" * 32, "あ" * 32)
    found = []
    for picture in showcase().values():
        found.append(replace(picture, names=long))
        for ended_by in ("resignation", "repetition", "turn_limit"):
            if picture.over:
                winners = () if ended_by != "resignation" else picture.winners
                found.append(replace(picture, names=long, ended_by=ended_by, winners=winners))
    return found


@pytest.mark.parametrize("language", catalog.LANGUAGES)
def test_the_title_has_every_glyph_and_the_japanese_one_fits_whole(language: str) -> None:
    """(What an English title drawn says when it is long: the test below.)"""
    with catalog.speaking(language):
        for picture in pictures_with_long_names():
            bold, muted = _title(picture)
            assert fonts.missing(bold + muted) == set(), muted  # a font has every glyph
            if language == "ja":
                room = WIDTH - 2 * MARGIN
                assert _text_width(bold, "bold") + _text_width(muted) <= room, (bold, muted)
            assert len(draw_board(picture)) > 1000


def titles_drawn(picture: BoardPicture, monkeypatch: pytest.MonkeyPatch) -> str:
    """The title line as the picture writes it (its bold part and its muted part)."""
    from pictures import colorstack

    written: list[str] = []
    paste_label = colorstack._paste_label

    def recorded(*args: Any) -> int:
        _image, text, _weight, _ink, _ground, (_x, y), _theme = args
        if y == MARGIN:
            written.append(text)
        return paste_label(*args)

    with monkeypatch.context() as patched:
        patched.setattr(colorstack, "_paste_label", recorded)
        draw_board(picture)
    return "".join(written)


@pytest.mark.parametrize("language", catalog.LANGUAGES)
def test_the_title_says_how_the_game_ended_in_whole_words(
    language: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A draw at the default turn limit (300) was titled 'over after 300 turns · draw at
    th…': the title keeps its parts whole, the turns said shorter or left out before how
    the game ended is cut; a game under way leaves out its timer, then the turns left."""
    from dataclasses import replace

    over = showcase()["colorstack-over.png"]
    playing = showcase()["colorstack-dark.png"]
    with catalog.speaking(language):
        hows = {how: catalog.t(key) for how, key in HOW.items()}
        for how, words in hows.items():
            for turns in (300, 10_000):
                picture = replace(over, ended_by=how, turns_taken=turns, turn_limit=turns)
                title = titles_drawn(picture, monkeypatch)
                assert "…" not in title and title.endswith(f" · {words}"), title
                assert language == "en" or str(turns) in title, title
        for turns, limit, seconds in ((5, 300, 120), (1233, 10_000, 86_400)):
            picture = replace(
                playing, turns_taken=turns, turn_limit=limit, turn_seconds=seconds, over=False
            )
            title = titles_drawn(picture, monkeypatch)
            assert "…" not in title and str(turns + 1) in title, title
    with catalog.speaking("en"):
        short = replace(over, ended_by="repetition", turns_taken=300, turn_limit=300)
        assert titles_drawn(short, monkeypatch) == "Color Stack · 300 turns · draw by repetition"


def test_the_japanese_picture_says_its_words_in_japanese() -> None:
    picture = showcase()["colorstack-over.png"]
    english, japanese = _title(picture), None
    with catalog.speaking("ja"):
        japanese = _title(picture)
        alt = describe(picture)
    assert english[0] == "Color Stack" and japanese[0] == "カラースタック"
    assert "over after" in english[1] and "手で終局" in japanese[1]
    assert alt.startswith("カラースタックの盤") and "wins" not in alt
    assert draw_board(picture) != showcase_in("ja")["colorstack-ja.png"]


def test_a_draw_job_is_drawn_in_its_own_language() -> None:
    picture = showcase()["colorstack-dark.png"]
    with catalog.speaking("ja"):
        japanese_job = DrawJob("colorstack", (picture,))
        japanese = draw_board(picture)
    english_job = DrawJob("colorstack", (picture,))
    assert japanese_job.language == "ja" and english_job.language == "en"
    assert draw_job(japanese_job) == japanese  # whatever language the worker speaks
    assert draw_job(english_job) == draw_board(picture) != japanese
    assert FONT > 0


# ------------------------------------------------------------------ names


def names_drawn(picture: BoardPicture, monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The players' names as the picture writes them in its rows over the board."""
    from pictures import colorstack

    written: list[tuple[str, str, int]] = []
    paste_label = colorstack._paste_label

    def recorded(*args: Any) -> int:
        _image, text, weight, _ink, _ground, (_x, y), _theme = args
        written.append((text, weight, y))
        return paste_label(*args)

    with monkeypatch.context() as patched:
        patched.setattr(colorstack, "_paste_label", recorded)
        draw_board(picture)
    return [text for text, weight, y in written if weight == "bold" and MARGIN < y < BOARD_TOP]


def test_long_names_starting_alike_are_cut_apart_on_the_board_picture(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Two 32-character names alike but for their last characters, on games under way
    (the "to move" tag) and won ("wins"): the name cut beside its tag keeps its end."""
    from dataclasses import replace

    alike = ("Alexandra Konstantinopoulou-Li 1", "Alexandra Konstantinopoulou-Li 2")
    cut = 0
    for picture in showcase().values():
        shown = names_drawn(replace(picture, names=alike), monkeypatch)
        assert len(shown) == 2 and shown[0] != shown[1], shown
        for name, text in zip(alike, shown, strict=True):
            cut += assert_cut_apart(name, text)  # cut when it does not fit beside its tag
    assert cut >= 4, cut


def test_the_title_of_a_game_over_after_one_turn_says_turn_in_the_singular() -> None:
    from dataclasses import replace

    picture = showcase()["colorstack-over.png"]
    assert _title(replace(picture, turns_taken=1))[1] == " · over after 1 turn · four colours"
    assert _title(replace(picture, turns_taken=2))[1] == " · over after 2 turns · four colours"
