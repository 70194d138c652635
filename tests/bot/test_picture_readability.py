"""Issue 18's picture and wording fixes: the pictures' own icons are shapes (never a glyph
of an optional font), Stack's lower dice are tall enough to read on a phone, captured
piles carry a mark that a legend explains, the round's points and the total are labelled,
Color Stack's selected piece is the board's strongest mark, Stack Up!'s stack row keeps
its shapes apart, a lobby names its game once, and /scores says how Stack Up! was won."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from PIL import Image, ImageChops

from bot.games.stackup.game import DISCORD_GAME as STACKUP
from persistence.records import ScoreSheet
from pictures import colorstack as colorstack_picture
from pictures import fonts
from pictures import stack as stack_image
from pictures import stackup as stackup_picture
from pictures.palette import contrast_text, palette, seat_colour
from pictures.stack import (
    BADGE,
    DIE,
    FieldPicture,
    draw_field,
    layout,
    pile_height,
    pile_step,
    showcase,
    sprite,
)
from tests.bot.conftest import World, table_text_of

PHONE_SCALE = 380 / 760  # a phone shows the pictures at about half size


def forget_every_part() -> None:
    """Forget the fonts found and every picture's cached parts and widths."""
    fonts.forget()
    for module in (stack_image, stackup_picture, colorstack_picture):
        module.forget_parts()


@pytest.fixture
def without_debian_fonts(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Iterator[None]:
    """A machine without the Debian fonts: only matplotlib's DejaVu Sans is found."""
    monkeypatch.setattr(fonts, "FONT_DIRS", (tmp_path,))
    forget_every_part()
    yield
    monkeypatch.undo()
    forget_every_part()


# ------------------------------------------------------------------ icons


def test_the_pictures_own_words_and_icons_need_no_optional_font(without_debian_fonts: None) -> None:
    """Every text a picture writes of its own (titles, legends, tags, scores; not the
    players' names) has every character in the font that is always there; the turn
    timer's stopwatch is drawn as shapes (it drew as "?" without the Debian fonts)."""
    assert all("matplotlib" in face.name for face in fonts.faces())
    for name, picture in showcase().items():
        plan = layout(picture)
        for box in plan.boxes:
            if box.kind in ("title", "tag", "points", "total"):
                assert fonts.missing(box.text) == set(), (name, box.text)
        timers = [b for b in plan.of_kind("title") if b.style == "timer"]
        assert len(timers) == (1 if picture.turn_seconds and not picture.over else 0)
        if timers:
            drawn = Image.open(_png(draw_field(picture))).convert("RGB")
            icon = drawn.crop(
                (timers[0].left, timers[0].top, timers[0].left + 30, timers[0].bottom)
            )
            muted = palette(picture.theme).muted
            inked = sum(1 for colour in icon.getdata() if _near(colour, muted))
            assert inked > 60, "the stopwatch is drawn"
    for picture in stackup_picture.showcase().values():
        for piece in stackup_picture.layout(picture).pieces:
            if piece.kind in ("label", "tag") and piece.seat == -1:
                text = str(piece.key[0])
                if text not in picture.names:
                    assert fonts.missing(text) == set(), text
    # the cards' special marks and the colours' shapes come from the font always there
    for mark in [
        *stackup_picture.SPECIAL_MARKS.values(),
        *colorstack_picture.SHAPE_GLYPHS.values(),
    ]:
        assert fonts.missing(mark) == set(), mark
    for picture in colorstack_picture.showcase().values():
        for text in [*colorstack_picture._title(picture), "wins", "to move", "abcdefghi"]:
            assert fonts.missing(text) == set(), text


def _png(data: bytes) -> object:
    import io

    return io.BytesIO(data)


def _near(a: tuple[int, ...], b: tuple[int, ...], by: int = 24) -> bool:
    return all(abs(x - y) <= by for x, y in zip(a, b, strict=False))


# ------------------------------------------------------------------ Stack's piles


def test_a_piles_lower_dice_are_tall_enough_to_read_on_a_phone() -> None:
    """Each lower die shows a strip at least 16 px tall (8 px on a phone, where they
    were 5 px) with its owner's mark at least 10 px tall in it."""
    for dice in (2, 3, 4):
        assert pile_step(dice) >= 16
        assert pile_height(dice) == DIE + (dice - 1) * pile_step(dice)
    owners = (1, 2, 3, 0)  # a captured pile: blue, green, yellow under red
    pile = sprite(5, owners).convert("RGB")
    step = pile_step(4)
    for level in range(3):  # the three lower dice, bottom first
        bottom = pile.height - level * step
        strip = pile.crop((0, bottom - step, pile.width, bottom))
        owner = owners[level]
        ink = contrast_text(seat_colour(owner, "dark"))
        rows = [
            y
            for y in range(strip.height)
            if any(_near(strip.getpixel((x, y)), ink, 40) for x in range(strip.width))  # type: ignore[arg-type]
        ]
        assert rows and rows[-1] - rows[0] + 1 >= 10, (level, rows)


def _captured_picture() -> FieldPicture:
    return FieldPicture(
        ("ann", "bob"),
        ((1, 2), (3,)),
        ((4, (1, 0)),),
        captures=(((6, (1, 0, 1, 0)),), ()),
        totals=(37, 12),
        points=(9, -2),
        current=1,
        round=2,
    )


def test_a_captured_pile_has_its_mark_and_the_legend_explains_it() -> None:
    picture = _captured_picture()
    plan = layout(picture)
    legend = [b for b in plan.of_kind("title") if b.style.startswith("key-")]
    assert [b.text for b in legend] == ["captured pile"]
    assert legend[0].top > max(b.bottom for b in plan.of_kind("card")), "under the cards"
    drawn = Image.open(_png(draw_field(picture))).convert("RGB")  # type: ignore[arg-type]
    captured = palette("dark").captured
    (box,) = plan.of_kind("captured")
    mark = drawn.crop((box.right - BADGE - 12, box.top, box.right, box.top + BADGE + 12))
    assert sum(1 for c in mark.getdata() if _near(c, captured, 30)) > BADGE * BADGE // 3
    assert any(_near(c, (250, 250, 250), 30) for c in mark.getdata()), "the tick"
    key = drawn.crop((legend[0].left, legend[0].top, legend[0].left + 34, legend[0].bottom))
    assert sum(1 for c in key.getdata() if _near(c, captured, 30)) > BADGE * BADGE // 3
    # no captured pile, no legend
    plain = FieldPicture(("ann", "bob"), ((1,), (2,)), (), totals=(1, 2), round=1)
    assert not [b for b in layout(plain).of_kind("title") if b.style.startswith("key-")]


def test_the_rounds_points_and_the_total_are_labelled() -> None:
    plan = layout(_captured_picture())
    assert [b.text for b in plan.of_kind("points")] == ["round +9", "round -2"]
    assert [b.text for b in plan.of_kind("total")] == ["total 37", "total 12"]


# ------------------------------------------------------------------ Color Stack


def _difference(a: Image.Image, b: Image.Image) -> float:
    """How much of square ``a`` is marked: the share of its pixels that differ clearly
    (by more than 24 in a channel) from the same square unmarked ``b``."""
    diff = ImageChops.difference(a.convert("RGB"), b.convert("RGB"))
    marked = sum(1 for pixel in diff.getdata() if max(pixel) > 24)
    return marked / (diff.width * diff.height)


def test_the_selected_piece_is_the_boards_strongest_mark() -> None:
    """In a panel's picture, more of the selected square is marked than of any other
    square (the last move's squares were tinted whole, the selection only framed)."""
    for theme in ("dark", "light"):
        picture = colorstack_picture.showcase()["colorstack-selected.png"]
        picture = colorstack_picture.BoardPicture(
            **{**{f: getattr(picture, f) for f in picture.__dataclass_fields__}, "theme": theme}
        )
        assert picture.selected is not None and picture.path
        drawn = colorstack_picture.compose(picture)
        marks: dict[int, float] = {}
        for index in range(picture.rows * 9):
            if picture.black[index]:
                continue
            left, top = colorstack_picture.square_box(picture, index)
            size = colorstack_picture.SQUARE
            shown = drawn.crop((left, top, left + size, top + size))
            plain = colorstack_picture._tile(theme, False, picture.stacks[index], "", False)
            marks[index] = _difference(shown, plain)
        strongest = max(marks, key=lambda i: marks[i])
        assert strongest == picture.selected, (theme, marks[picture.selected], marks[strongest])


# ------------------------------------------------------------------ Stack Up!


def _piece_boxes(plan: stackup_picture.Layout) -> list[tuple[str, tuple[int, int, int, int]]]:
    boxes = []
    for piece in plan.pieces:
        if piece.seat != -1 or piece.top <= stackup_picture.MARGIN:  # the title line flows
            continue
        image = piece.image
        boxes.append(
            (
                f"{piece.kind} {piece.key[0] if piece.kind in ('label', 'tag') else ''}",
                (piece.left, piece.top, piece.left + image.width, piece.top + image.height),
            )
        )
    return boxes


def test_the_stack_rows_shapes_keep_a_margin_from_each_other() -> None:
    """The top card, the direction's disc and words, the pending Crash and the draw pile
    (and the last play) never touch: 4 px apart at least ("down 15→1" touched the card,
    "Crash pending" the disc)."""
    margin = 4
    pictures = list(stackup_picture.showcase().values())
    pictures += stackup_picture.sample_pictures(4, 40, seed=3)
    crash = [p for p in pictures if p.crash_on is not None and not p.over]
    assert crash, "a pending Crash among them"
    for picture in pictures:
        boxes = _piece_boxes(stackup_picture.layout(picture))
        for i, (what, a) in enumerate(boxes):
            for other, b in boxes[i + 1 :]:
                apart = (
                    a[2] + margin <= b[0]
                    or b[2] + margin <= a[0]
                    or a[3] + margin <= b[1]
                    or b[3] + margin <= a[1]
                )
                assert apart, f"{what} {a} touches {other} {b}"


# ------------------------------------------------------------------ words


@pytest.mark.parametrize(
    "game, title", [("stack", "Stack"), ("stackup", "Stack Up!"), ("colorstack", "Color Stack")]
)
async def test_a_lobby_names_its_game_once(world: World, game: str, title: str) -> None:
    opened = await world.alice.slash(world.channel, "table new", game=game)
    first = table_text_of(opened.response).splitlines()[0]
    assert first.startswith(f"**{title}** table — lobby"), first
    assert first.count(title) == 1, first


def test_scores_say_a_stack_up_win_by_an_empty_hand_in_its_own_words() -> None:
    emptied = ScoreSheet(1, ("ann", "bob"), (), (0, 4), 0, True, ("ann",), "stackup")
    text = STACKUP.score_text(emptied)
    assert "**ann** wins by playing every card." in text, text
    assert "fewest" not in text
    limit = ScoreSheet(1, ("ann", "bob", "cy"), (), (2, 2, 5), 0, True, ("ann", "bob"), "stackup")
    text = STACKUP.score_text(limit)
    assert "**ann** & **bob** share the win with the fewest cards left (2)." in text, text
