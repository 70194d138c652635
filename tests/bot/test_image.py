"""The table picture (bot/image.py): a PNG of fixed width in which every seat's name, every
unstacked die and every pile is drawn, in its own box, whatever the game; drawn from cached
parts, the same on any thread or process."""

from __future__ import annotations

import io
import pickle
import random
from collections import Counter
from concurrent.futures import ThreadPoolExecutor

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from PIL import Image

from bot.image import (
    BACKGROUND,
    DIE,
    NAME_HEIGHT,
    SEAT_COLOURS,
    WIDTH,
    FieldPicture,
    bench,
    draw_field,
    fitted_name,
    forget_parts,
    layout,
    pile_height,
    sample_pictures,
    sprite,
)
from engine.game import Decision
from engine.stack.ai import GreedyPlayer, RandomPlayer
from engine.stack.rules import MAX_DICE_PER_PLAYER, MAX_PLAYERS, StackRules
from engine.stack.state import StackState

NAMES = [f"Player {seat} with a very long name"[:32] for seat in range(MAX_PLAYERS)]


def play(seats: int, dice: int, seed: int, moves: int) -> StackState:
    """A game of ``seats`` players with ``dice`` dice each, ``moves`` decisions in."""
    rng = random.Random(seed)
    state = StackState(NAMES[:seats], StackRules(dice_per_player=dice, target_score=10_000))
    made = 0
    while made < moves and not state.is_over:
        if state.decision is Decision.CHANCE:
            state.apply(state.sample_chance(rng))
        else:
            player = GreedyPlayer() if rng.random() < 0.5 else RandomPlayer()
            state.apply(player.choose(state, rng))
            made += 1
    return state


@st.composite
def game_pictures(draw: st.DrawFn) -> tuple[StackState, FieldPicture]:
    """The picture of a random game (2-8 seats, 1-30 dice) somewhere in its play."""
    seats = draw(st.integers(2, MAX_PLAYERS))
    dice = draw(st.integers(1, MAX_DICE_PER_PLAYER))
    state = play(seats, dice, draw(st.integers(0, 2**32)), draw(st.integers(0, 150)))
    return state, FieldPicture.of(state)


@st.composite
def any_pictures(draw: st.DrawFn, max_dice: int = 70) -> FieldPicture:
    """Any field, even one no game reaches: any names, any number of dice and piles."""
    seats = draw(st.integers(2, MAX_PLAYERS))
    names = tuple(draw(st.text(max_size=48)) for _ in range(seats))
    faces = st.integers(1, 6)
    singles = tuple(tuple(sorted(draw(st.lists(faces, max_size=max_dice)))) for _ in range(seats))
    owners = st.lists(st.integers(0, seats - 1), min_size=2, max_size=3).map(tuple)
    piles = tuple(draw(st.lists(st.tuples(faces, owners), max_size=max_dice)))
    return FieldPicture(names, singles, piles)


@st.composite
def full_tables(draw: st.DrawFn) -> FieldPicture:
    """8 seats of 30 dice: each seat's 30 dice split between unstacked dice and the tops of
    piles it owns, the piles 2 or 3 high (as many dice as a seat can show)."""
    seats, dice = MAX_PLAYERS, MAX_DICE_PER_PLAYER
    tops = [draw(st.integers(0, dice)) for _ in range(seats)]
    singles = tuple(
        tuple(sorted(draw(st.lists(st.integers(1, 6), min_size=n, max_size=n))))
        for n in (dice - top for top in tops)
    )
    piles = []
    for seat, count in enumerate(tops):
        for _ in range(count):
            below = draw(st.lists(st.integers(0, seats - 1), min_size=1, max_size=2))
            piles.append((draw(st.integers(1, 6)), (*below, seat)))
    return FieldPicture(tuple(NAMES), singles, tuple(piles))


def decoded(png: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(png))
    assert image.format == "PNG"
    image.load()
    return image


def colours_in(image: Image.Image) -> set[tuple[int, int, int]]:
    counted = image.convert("RGB").getcolors(1 << 16) or []
    return {(colour[0], colour[1], colour[2]) for _, colour in counted if isinstance(colour, tuple)}


def assert_boxes_fit(picture: FieldPicture) -> None:
    """One box per name, unstacked die and pile, in its seat; all inside; none overlapping."""
    plan = layout(picture)
    boxes = plan.boxes
    assert plan.width == WIDTH
    for seat, faces in enumerate(picture.singles):
        assert sorted(b.index for b in boxes if b.kind == "die" and b.seat == seat) == list(
            range(len(faces))
        ), "every unstacked die has exactly one box, in its seat's row"
        assert [b.index for b in boxes if b.kind == "name" and b.seat == seat] == [0]
    pile_boxes = [b for b in boxes if b.kind == "pile"]
    assert sorted(b.index for b in pile_boxes) == list(range(len(picture.piles))), (
        "every pile has exactly one box"
    )
    for box in pile_boxes:
        assert box.seat == picture.piles[box.index][1][-1], "a pile is drawn with its owner"
    for box in boxes:
        assert 0 <= box.left < box.right <= plan.width, box
        assert 0 <= box.top < box.bottom <= plan.height, box
    by_top = sorted(boxes, key=lambda b: b.top)
    for i, a in enumerate(by_top):
        for b in by_top[i + 1 :]:
            if b.top >= a.bottom:
                break
            assert a.right <= b.left or b.right <= a.left, f"{a} overlaps {b}"


def assert_drawn_in_boxes(picture: FieldPicture) -> None:
    """Each die and pile box holds its sprite, and outside the boxes nothing is drawn."""
    png = draw_field(picture)
    image = decoded(png)
    plan = layout(picture)
    assert image.size == (plan.width, plan.height)
    rgb = image.convert("RGB")
    for box in plan.boxes:
        if box.kind == "die":
            expected = sprite(picture.singles[box.seat][box.index], (box.seat,))
        elif box.kind == "pile":
            expected = sprite(*picture.piles[box.index])
        else:
            continue
        drawn = rgb.crop(box.corners)
        assert drawn.size == expected.size, box
        assert drawn.tobytes() == expected.convert("RGB").tobytes(), box
    for box in plan.boxes:
        rgb.paste(BACKGROUND, box.corners)
    assert colours_in(rgb) == {BACKGROUND}, "nothing is drawn outside the boxes"


# ------------------------------------------------------------------ the picture


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(game_pictures())
def test_a_game_picture_is_a_png_of_fixed_width_showing_every_die_and_pile(
    game: tuple[StackState, FieldPicture],
) -> None:
    state, picture = game
    assert picture.names == state.players
    for seat in range(state.n):
        assert Counter(picture.singles[seat]) == Counter(state.unstacked(seat))
    assert sorted(picture.piles) == sorted(state.pile_compositions())
    image = decoded(draw_field(picture))
    assert image.width == WIDTH
    assert image.mode == "P", "a palette picture (fast to compress)"
    assert_boxes_fit(picture)
    assert_drawn_in_boxes(picture)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(any_pictures())
def test_every_die_and_pile_gets_one_box_inside_the_picture_and_no_two_boxes_overlap(
    picture: FieldPicture,
) -> None:
    assert_boxes_fit(picture)


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(any_pictures(max_dice=40))
def test_each_die_and_pile_is_drawn_in_its_box_and_nothing_outside_the_boxes(
    picture: FieldPicture,
) -> None:
    assert_drawn_in_boxes(picture)


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(full_tables())
def test_a_full_table_of_8_seats_with_30_dice_each_fits_with_nothing_dropped(
    picture: FieldPicture,
) -> None:
    assert_boxes_fit(picture)
    assert_drawn_in_boxes(picture)
    assert decoded(draw_field(picture)).width == WIDTH


def test_a_row_too_long_for_the_width_wraps_onto_another_line() -> None:
    one_line = FieldPicture(("a", "b"), ((1,) * 5, ()), ())
    thirty = FieldPicture(("a", "b"), ((1,) * 30, ()), ())
    tops = {b.top for b in layout(thirty).boxes if b.kind == "die"}
    assert len(tops) == 2, "30 dice take two lines"
    assert layout(thirty).height > layout(one_line).height
    assert max(b.right for b in layout(thirty).boxes) <= WIDTH


def test_a_seats_piles_stand_apart_from_its_unstacked_dice() -> None:
    picture = FieldPicture(("a", "b"), ((2, 5), ()), ((4, (1, 0)), (6, (1, 0))))
    boxes = layout(picture).boxes
    last_die = max(b.right for b in boxes if b.kind == "die")
    first_pile = min(b.left for b in boxes if b.kind == "pile")
    spacing = boxes[2].left - boxes[1].right  # between the two unstacked dice
    assert first_pile - last_die >= spacing + DIE, "a die's width of space before the piles"


# ------------------------------------------------------------------ its parts


@settings(max_examples=40, deadline=None)
@given(
    st.integers(1, 6),
    st.lists(st.integers(0, MAX_PLAYERS - 1), min_size=1, max_size=3).map(tuple),
)
def test_a_die_or_pile_sprite_shows_every_owners_colour_and_is_as_tall_as_the_pile(
    face: int, owners: tuple[int, ...]
) -> None:
    image = sprite(face, owners)
    assert image.size == (DIE, pile_height(len(owners)))
    shown = colours_in(image)
    assert {SEAT_COLOURS[owner] for owner in owners} <= shown


def test_each_face_has_its_own_sprite_and_a_sprite_is_built_once() -> None:
    sprites = [sprite(face, (0,)) for face in range(1, 7)]
    assert len({s.tobytes() for s in sprites}) == 6, "the six faces look different"
    assert sprite(3, (2, 5)) is sprite(3, (2, 5)), "cached, not drawn again"


def test_a_name_too_long_for_its_line_is_shortened_with_an_ellipsis() -> None:
    long = "W" * 200
    shown = fitted_name(long)
    assert shown.endswith("…")
    assert long.startswith(shown[:-1])
    assert fitted_name("Alice") == "Alice", "a name that fits is written whole"


def test_a_name_with_line_breaks_or_control_characters_is_written_on_one_line() -> None:
    assert fitted_name("Al\nice\x00\t!") == "Al ice  !"
    picture = FieldPicture(("Al\nice", "@everyone\r\n" * 5), ((1, 2), (3,)), ())
    assert_drawn_in_boxes(picture)
    image = decoded(draw_field(picture)).convert("RGB")
    name_box = layout(picture).boxes[0]
    assert name_box.bottom - name_box.top == NAME_HEIGHT
    assert SEAT_COLOURS[0] in colours_in(image.crop(name_box.corners)), "the name is written"


# ------------------------------------------------------------------ threads, processes


def test_pictures_drawn_on_many_threads_from_empty_caches_match_those_drawn_alone() -> None:
    pictures = sample_pictures(8, 30, 24, seed=5) + sample_pictures(3, 14, 24, seed=6)
    forget_parts()
    with ThreadPoolExecutor(max_workers=8) as pool:
        together = list(pool.map(draw_field, pictures))
    forget_parts()
    alone = [draw_field(picture) for picture in pictures]
    assert together == alone


def test_a_field_picture_survives_pickling_for_a_process_pool() -> None:
    picture = FieldPicture.of(play(4, 14, seed=3, moves=60))
    again = pickle.loads(pickle.dumps(picture))
    assert again == picture
    assert draw_field(again) == draw_field(picture)


def test_the_same_field_always_gives_the_same_png() -> None:
    picture = FieldPicture.of(play(8, 30, seed=9, moves=200))
    first = draw_field(picture)
    forget_parts()
    assert draw_field(picture) == first


# ------------------------------------------------------------------ the bench


def test_the_picture_bench_ends_with_the_8x14_figure() -> None:
    lines = bench(samples=3)
    assert lines[-1].startswith("picture 8x14: p50 ")
    assert lines[-1].endswith(" ms")
    assert any(line.startswith("picture 8x30: p50 ") for line in lines)
    assert any(line.startswith("picture 2x14: p50 ") for line in lines)
