"""The table picture (pictures/stack.py): a PNG of fixed width, laid out for a phone, in which
every seat, unstacked die, pile and captured pile has its box inside the picture, no two
labels overlap, whose turn it is and the last move are marked, and nothing is drawn
outside the boxes; the same on any thread or process. Layout properties, not pixels."""

from __future__ import annotations

import io
import pickle
import random
from collections import Counter
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from PIL import Image

import catalog
from engine.game import AIPlayer, Decision
from engine.stack.ai import GreedyPlayer, RandomPlayer
from engine.stack.render import COLOURS, SQUARES
from engine.stack.rules import MAX_DICE_PER_PLAYER, MAX_PLAYERS, StackRules
from engine.stack.state import StackState
from pictures import fonts
from pictures.painter import DrawJob, draw_job
from pictures.palette import (
    SEAT_COLOURS,
    THEMES,
    palette,
    seat_colour,
    seat_ink,
    seat_mark,
    seat_marker,
)
from pictures.stack import (
    FONT,
    ITEM_KINDS,
    WIDTH,
    FieldPicture,
    Highlight,
    Layout,
    bench,
    draw_field,
    forget_parts,
    layout,
    sample_pictures,
    showcase,
    sprite,
)
from tests.engine.situations import chance_outcomes
from tests.pictures.cut_names import assert_cut_apart
from tests.pictures.test_fonts import needs_debian_fonts

NAMES = [f"Player {seat} with a very long name"[:32] for seat in range(MAX_PLAYERS)]
HARD_NAMES = [
    "Ālīce ✨",
    "ボブ",
    "😀",
    "**__@everyone__**~~`<@123>`~~||x||",
    "Zoë",
    "李小龍",
    "W" * 32,
    "Al\nice\x00",
]
PHONE_CSS_PX = 380  # the width a phone shows a picture at (360-412 CSS px)
SETTINGS = settings(deadline=None, suppress_health_check=[HealthCheck.too_slow])


def play(seats: int, dice: int, seed: int, moves: int, names: list[str] = NAMES) -> StackState:
    """A game of ``seats`` players with ``dice`` dice each, ``moves`` decisions in."""
    rng = random.Random(seed)
    rules = StackRules(dice_per_player=dice, target_score=10_000)
    if seats in (4, 6, 8) and rng.random() < 0.3:
        half = seats // 2
        rules = StackRules(
            dice_per_player=dice,
            target_score=10_000,
            teams=tuple((names[i], names[i + half]) for i in range(half)),
        )
    state = StackState(names[:seats], rules)
    made = 0
    while made < moves and not state.is_over:
        if state.decision is Decision.CHANCE:
            state.apply(state.sample_chance(rng))
        else:
            player = GreedyPlayer() if rng.random() < 0.5 else RandomPlayer()
            state.apply(player.choose(state, rng))
            made += 1
    return state


def endless_game(seats: int, ai: AIPlayer, seed: int) -> Iterator[StackState]:
    """A game of ``seats`` too long to end (a target of 10 000) played by ``ai``: its state
    after each move (chance played out first)."""
    rng = random.Random(seed)
    state = StackState(NAMES[:seats], StackRules(target_score=10_000))
    while True:
        chance_outcomes(state, rng)
        state.apply(ai.choose(state, rng))
        yield state


@st.composite
def games(draw: st.DrawFn) -> StackState:
    """A random game (2-8 seats, 1-30 dice, plain or hard names) somewhere in its play."""
    seats = draw(st.integers(2, MAX_PLAYERS))
    dice = draw(st.integers(1, MAX_DICE_PER_PLAYER))
    names = draw(st.sampled_from([NAMES, HARD_NAMES]))
    return play(seats, dice, draw(st.integers(0, 2**32)), draw(st.integers(0, 400)), names)


@st.composite
def any_pictures(draw: st.DrawFn, max_dice: int = 60) -> FieldPicture:
    """Any field, even one no game reaches: any names, any number of dice, piles and
    captured piles, any marks."""
    seats = draw(st.integers(2, MAX_PLAYERS))
    seat = st.integers(0, seats - 1)
    names = tuple(draw(st.text(max_size=48)) for _ in range(seats))
    faces = st.integers(1, 6)
    singles = tuple(tuple(sorted(draw(st.lists(faces, max_size=max_dice)))) for _ in range(seats))
    owners = st.lists(seat, min_size=2, max_size=3).map(tuple)
    piles = tuple(draw(st.lists(st.tuples(faces, owners), max_size=max_dice)))
    four = st.lists(seat, min_size=4, max_size=4).map(tuple)
    captures = tuple(
        tuple(draw(st.lists(st.tuples(faces, four), max_size=6))) for _ in range(seats)
    )
    number = st.integers(-(10**6), 10**6)
    last = draw(
        st.one_of(
            st.none(),
            st.builds(Highlight, st.just("pile"), seat, st.integers(0, max(0, len(piles) - 1))),
            st.builds(Highlight, st.just("dice"), seat, faces),
            st.builds(Highlight, st.just("captured"), seat, st.integers(0, 5)),
        )
    )
    return FieldPicture(
        names,
        singles,
        piles,
        captures=captures,
        totals=tuple(draw(number) for _ in range(seats)),
        points=tuple(draw(number) for _ in range(seats)),
        teams=draw(st.none() | st.just(tuple(s % max(1, seats // 2) for s in range(seats)))),
        current=draw(st.none() | seat),
        round=draw(st.integers(0, 10**6)),
        target=draw(st.integers(0, 10**6)),
        turn_seconds=draw(st.none() | st.integers(15, 10**6)),
        theme=draw(st.sampled_from(THEMES)),
        last=last,
        out=tuple(draw(st.sets(seat))),
        owed=tuple(draw(st.sets(seat))),
        last_turns=draw(st.booleans()),
    )


def decoded(png: bytes) -> Image.Image:
    image = Image.open(io.BytesIO(png))
    assert image.format == "PNG"
    image.load()
    return image


def assert_laid_out(picture: FieldPicture, plan: Layout | None = None) -> Layout:
    """Every seat, die, pile and captured pile has its box, inside the picture and inside
    its seat's card; no two boxes other than cards overlap; the seat to move is marked."""
    plan = plan or layout(picture)
    assert plan.width == WIDTH
    n = len(picture.names)
    for box in plan.boxes:
        assert 0 <= box.left < box.right <= plan.width, box
        assert 0 <= box.top < box.bottom <= plan.height, box
    cards = {box.seat: box for box in plan.of_kind("card")}
    assert sorted(cards) == list(range(n)), "a card per seat"
    for kind in ("chip", "name", "total"):
        assert sorted(b.seat for b in plan.of_kind(kind)) == list(range(n)), kind
    for box in plan.boxes:
        if box.kind not in ("card", "title"):
            card = cards[box.seat]
            assert card.left <= box.left and box.right <= card.right, box
            assert card.top <= box.top and box.bottom <= card.bottom, box
    # unstacked dice: each in exactly one box of its seat, showing its face
    for seat, faces in enumerate(picture.singles):
        members = [b for b in plan.of_kind("dice") if b.seat == seat]
        assert sorted(i for b in members for i in b.members) == list(range(len(faces)))
        for b in members:
            assert {faces[i] for i in b.members} == {b.face}
    # piles: each in exactly one box, in the card of its top die's owner
    pile_boxes = plan.of_kind("pile")
    assert sorted(i for b in pile_boxes for i in b.members) == list(range(len(picture.piles)))
    for b in pile_boxes:
        for i in b.members:
            assert picture.piles[i] == (b.face, b.owners)
            assert b.seat == b.owners[-1]
    # captured piles: each in exactly one box of its captor
    for seat in range(n):
        caught = picture.captures[seat] if seat < len(picture.captures) else ()
        boxes = [b for b in plan.of_kind("captured") if b.seat == seat]
        assert sorted(i for b in boxes for i in b.members) == list(range(len(caught)))
        for b in boxes:
            assert all(caught[i] == (b.face, b.owners) for i in b.members)
    # no two labels or items overlap (cards hold them; they do not overlap each other)
    for group in (plan.of_kind("card"), [b for b in plan.boxes if b.kind != "card"]):
        ordered = sorted(group, key=lambda b: b.top)
        for i, a in enumerate(ordered):
            for b in ordered[i + 1 :]:
                if b.top >= a.bottom:
                    break
                assert a.right <= b.left or b.right <= a.left, f"{a} overlaps {b}"
    # whose turn it is
    to_move = [b.seat for b in plan.of_kind("tag") if b.text == catalog.t("stack.picture.to_move")]
    if picture.current is not None and picture.current not in picture.winners:
        assert to_move == [picture.current]
        assert cards[picture.current].style == "turn"
    else:
        assert to_move == []
    assert sum(b.highlight for b in plan.boxes) <= 1, "one last move"
    return plan


def assert_nothing_outside_boxes(picture: FieldPicture) -> Image.Image:
    """Outside the cards and title pieces, only the background; and every item's box
    has something drawn in it."""
    image = decoded(draw_field(picture))
    plan = layout(picture)
    assert image.size == (plan.width, plan.height)
    assert image.mode == "P", "a palette picture (fast to compress)"
    rgb = image.convert("RGB")
    background = palette(picture.theme).background
    for box in plan.boxes:
        if box.kind in ITEM_KINDS:
            assert len(rgb.crop(box.corners).getcolors(1 << 16) or []) > 2, box
    for box in plan.boxes:
        if box.kind in ("card", "title"):
            rgb.paste(background, box.corners)
    shown = {colour for _, colour in rgb.getcolors(1 << 16) or []}
    assert shown == {background}, "nothing is drawn outside the boxes"
    return image


# ------------------------------------------------------------------ phone size


def test_text_shows_at_least_as_big_as_discords_own_on_a_phone() -> None:
    assert FONT * PHONE_CSS_PX / WIDTH >= 15
    picture = FieldPicture.of(play(8, 14, seed=1, moves=40))
    for box in layout(picture).of_kind("name", "total", "tag", "title"):
        assert box.height * PHONE_CSS_PX / WIDTH >= 15, box


# ------------------------------------------------------------------ the picture of a game


@settings(SETTINGS, max_examples=30)
@given(games(), st.sampled_from(THEMES), st.none() | st.integers(15, 600))
def test_a_game_picture_shows_the_state_every_seat_die_and_pile_at_a_fixed_width(
    state: StackState, theme: str, turn_seconds: int | None
) -> None:
    picture = FieldPicture.of(state, theme=theme, turn_seconds=turn_seconds)  # type: ignore[arg-type]
    assert picture.names == state.players
    for seat in range(state.n):
        assert Counter(picture.singles[seat]) == Counter(state.unstacked(seat))
        assert list(picture.captures[seat]) == state.captures[seat]
    assert sorted(picture.piles) == sorted(state.pile_compositions())
    assert picture.totals == tuple(state.totals)
    assert picture.round == max(state.round_number, 1)
    assert picture.target == state.rules.target_score
    assert picture.teams == state.team
    if not state.is_over:
        assert picture.current == state.current
        assert picture.points == tuple(state.field_scores())
    plan = assert_laid_out(picture)
    titles = [b.text for b in plan.of_kind("title")]
    assert titles[0] == "Stack"
    timers = [b for b in plan.of_kind("title") if b.style == "timer"]
    assert [b.text for b in timers] == (
        [f"{turn_seconds} s a turn"] if turn_seconds is not None and not state.is_over else []
    )
    image = assert_nothing_outside_boxes(picture)
    assert image.width == WIDTH
    assert image.convert("RGB").getpixel((0, 0)) == palette(picture.theme).background


@settings(SETTINGS, max_examples=80)
@given(any_pictures())
def test_any_field_gets_every_box_inside_the_picture_and_no_two_labels_overlap(
    picture: FieldPicture,
) -> None:
    assert_laid_out(picture)


@settings(SETTINGS, max_examples=15)
@given(any_pictures(max_dice=40))
def test_any_field_is_drawn_inside_its_boxes(picture: FieldPicture) -> None:
    assert_nothing_outside_boxes(picture)


@settings(SETTINGS, max_examples=15)
@given(st.integers(0, 2**32), st.sampled_from(THEMES))
def test_eight_seats_of_thirty_dice_fit_with_nothing_dropped(seed: int, theme: str) -> None:
    state = play(8, 30, seed, moves=random.Random(seed).randrange(0, 240))
    picture = FieldPicture.of(state, theme=theme)  # type: ignore[arg-type]
    assert_laid_out(picture)
    assert_nothing_outside_boxes(picture)


def test_the_last_move_is_framed_in_the_card_of_the_player_who_made_it() -> None:
    framed = 0
    for state in endless_game(4, RandomPlayer(), seed=4):
        if not state.history[-1]["turns"]:
            continue
        mover = state.history[-1]["turns"][-1][1]
        lit = [b for b in layout(FieldPicture.of(state)).boxes if b.highlight]
        if lit:
            assert len(lit) == 1
            assert lit[0].seat == mover
            framed += 1
            if framed == 150:
                break
        else:  # only a die rerolled back among the mover's dice and then played away
            assert state.history[-1]["turns"][-1][0] == "reroll"


def test_during_the_last_turns_who_is_out_and_who_still_moves_is_tagged() -> None:
    seen = 0
    for state in endless_game(6, GreedyPlayer(), seed=8):
        if not state.in_last_turns or state.chance_kind is not None:
            continue
        seen += 1
        plan = layout(FieldPicture.of(state))
        tags = {(b.seat, b.text) for b in plan.of_kind("tag")}
        assert "last turns" in [b.text for b in plan.of_kind("title")]
        for seat in range(state.n):
            if seat == state.current:
                assert (seat, "to move") in tags
            elif not state.single_total[seat]:
                assert (seat, "out") in tags
            elif seat in (state.last_turns or []):
                assert (seat, "last turn") in tags
            else:
                assert (seat, "done") in tags
        if seen == 20:
            break


def test_in_team_play_each_seat_shows_its_team_and_the_title_the_team_totals() -> None:
    names = ["a", "b", "c", "d", "e", "f"]
    rules = StackRules(teams=(("a", "d"), ("b", "e"), ("c", "f")))
    state = StackState(names, rules)
    state.totals = [10, 20, 30, 1, 2, 3]
    plan = layout(FieldPicture.of(state))
    tags = {(b.seat, b.text) for b in plan.of_kind("tag")}
    assert tags == {(0, "A"), (1, "B"), (2, "C"), (3, "A"), (4, "B"), (5, "C")}
    titles = [b.text for b in plan.of_kind("title")]
    assert {"A 11", "B 22", "C 33"} <= set(titles)


def test_a_finished_game_marks_its_winner_and_nobody_to_move() -> None:
    state = play(3, 5, seed=2, moves=10**6)
    assert state.is_over and state.winner
    picture = FieldPicture.of(state)
    plan = assert_laid_out(picture)
    assert {b.seat for b in plan.of_kind("tag") if b.text == "wins"} == set(state.winner)
    assert "game over" in [b.text for b in plan.of_kind("title")]


def test_of_works_with_its_defaults() -> None:
    state = play(2, 14, seed=3, moves=5)
    picture = FieldPicture.of(state)
    assert picture.theme == "dark" and picture.turn_seconds is None
    assert not any("⏱" in b.text for b in layout(picture).of_kind("title"))


def test_many_different_piles_wrap_onto_more_lines_never_past_the_edge() -> None:
    below = ((0, 1), (1, 0), (0,), (1,))
    piles = tuple((face, (*under, 2)) for face in range(1, 7) for under in below)
    few = FieldPicture(("a", "b", "c"), ((1,), (2,), (3,)), piles[:2])
    many = FieldPicture(("a", "b", "c"), ((1,), (2,), (3,)), piles)
    tops = {b.top for b in layout(many).of_kind("pile")}
    assert len(tops) >= 2, "the piles take two lines"
    assert layout(many).height > layout(few).height
    assert_laid_out(many)


def test_a_seats_piles_stand_apart_from_its_unstacked_dice() -> None:
    picture = FieldPicture(("a", "b"), ((2, 5), ()), ((4, (1, 0)), (6, (1, 0))))
    plan = layout(picture)
    dice = sorted(plan.of_kind("dice"), key=lambda b: b.left)
    piles = sorted(plan.of_kind("pile"), key=lambda b: b.left)
    between_dice = dice[1].left - dice[0].right
    assert piles[0].left - dice[-1].right > between_dice + 10, "a gap before the piles"


def test_a_long_name_is_shortened_with_an_ellipsis_to_leave_room_for_the_scores() -> None:
    picture = FieldPicture(("W" * 200, "Alice"), ((1,), (2,)), (), totals=(123, 4), round=1)
    plan = layout(picture)
    long, short = sorted(plan.of_kind("name"), key=lambda b: b.seat)
    assert long.text.endswith("…") and ("W" * 200).startswith(long.text[:-1])
    assert short.text == "Alice"
    total = next(b for b in plan.of_kind("total") if b.seat == 0)
    assert long.right < total.left


def test_long_names_starting_alike_are_cut_apart_on_the_table_picture() -> None:
    """Eight 32-character names alike but for their last characters, on a finished game's
    picture (totals, round points, the winner's tag) and a team game's (team letters, the
    seat to move): each seat's name, cut to fit beside its scores, is its own."""
    names = [f"Alexandra Konstantinopoulou-Li {seat}" for seat in range(1, 9)]
    rng = random.Random(4)
    over = StackState(names, StackRules(target_score=60))
    while not over.is_over:
        if over.decision is Decision.CHANCE:
            over.apply(over.sample_chance(rng))
        else:
            over.apply(RandomPlayer().choose(over, rng))
    teams = play(8, 14, seed=3, moves=200, names=names)
    assert teams.team is not None
    for state in (over, teams):
        plan = assert_laid_out(FieldPicture.of(state))
        shown = [box.text for box in sorted(plan.of_kind("name"), key=lambda b: b.seat)]
        assert len(set(shown)) == 8, shown
        for name, text in zip(names, shown, strict=True):
            assert assert_cut_apart(name, text)  # cut: they do not fit beside the scores


def test_a_name_with_line_breaks_or_control_characters_is_written_on_one_line() -> None:
    picture = FieldPicture(("Al\nice", "@everyone\r\n" * 5), ((1, 2), (3,)), ())
    plan = assert_laid_out(picture)
    assert next(b.text for b in plan.of_kind("name")) == "Al ice"
    assert_nothing_outside_boxes(picture)


@needs_debian_fonts
def test_every_name_in_the_pictures_is_drawn_with_glyphs_from_a_font() -> None:
    state = play(8, 14, seed=6, moves=30, names=HARD_NAMES)
    plan = layout(FieldPicture.of(state))
    for box in plan.of_kind("name"):
        assert fonts.missing(box.text, "bold") == set(), box.text
        assert all(face is not None for _, face in fonts.runs(box.text, "bold"))


# ------------------------------------------------------------------ colours and marks


def test_seat_colours_are_those_of_the_emoji_squares_in_the_texts_order() -> None:
    assert len(SEAT_COLOURS) == len(SQUARES) == len(COLOURS) == MAX_PLAYERS
    assert COLOURS == ("red", "blue", "green", "yellow", "purple", "orange", "brown", "white")
    red, blue, green, yellow, purple, orange, brown, white = SEAT_COLOURS
    assert red[0] > 200 > red[1] and blue[2] > 200 > blue[0] and green[1] > green[0]
    assert yellow[0] > 200 and yellow[1] > 180 and white == max(SEAT_COLOURS, key=sum)
    assert purple[2] > purple[1] and orange[0] > orange[1] > orange[2] and brown[0] > brown[2]
    assert len(set(SEAT_COLOURS)) == 8
    for theme in THEMES:
        assert [seat_colour(s, theme) for s in range(8)] == list(SEAT_COLOURS)
        assert len({seat_ink(s, theme) for s in range(8)}) == 8


def test_every_seat_has_its_own_mark_so_hue_never_carries_meaning_alone() -> None:
    assert len({seat_mark(s) for s in range(8)}) == 8
    assert len({seat_marker(s) for s in range(8)}) == 8
    for theme in THEMES:
        for face in (1, 4, 6):
            grey = [sprite(face, (s,), theme).convert("L").tobytes() for s in range(8)]
            assert len(set(grey)) == 8, "the dice of the eight seats differ in greyscale"


def test_the_themes_differ_and_dark_is_the_default() -> None:
    assert THEMES == ("dark", "light")
    dark, light = palette("dark"), palette("light")
    assert sum(dark.background) < 200 < sum(light.background)
    assert FieldPicture(("a", "b"), ((), ()), ()).theme == "dark"


# ------------------------------------------------------------------ parts, threads, processes


def test_each_face_has_its_own_sprite_and_a_sprite_is_built_once() -> None:
    sprites = [sprite(face, (0,)) for face in range(1, 7)]
    assert len({s.tobytes() for s in sprites}) == 6, "the six faces look different"
    assert sprite(3, (2, 5)) is sprite(3, (2, 5)), "cached, not drawn again"
    assert sprite(3, (2, 5, 1)).height > sprite(3, (2, 5)).height > sprite(3, (2,)).height


def test_pictures_drawn_on_many_threads_from_empty_caches_match_those_drawn_alone() -> None:
    pictures = sample_pictures(8, 30, 12, seed=5) + sample_pictures(3, 14, 12, seed=6)
    pictures += sample_pictures(4, 14, 12, seed=7, theme="light")
    forget_parts()
    with ThreadPoolExecutor(max_workers=8) as pool:
        together = list(pool.map(draw_field, pictures))
    forget_parts()
    alone = [draw_field(picture) for picture in pictures]
    assert together == alone


def test_a_field_picture_survives_pickling_for_the_painter_process() -> None:
    picture = FieldPicture.of(play(4, 14, seed=3, moves=60), theme="light", turn_seconds=45)
    again = pickle.loads(pickle.dumps(picture))
    assert again == picture
    assert draw_field(again) == draw_field(picture)


def test_the_same_field_always_gives_the_same_png() -> None:
    picture = FieldPicture.of(play(8, 30, seed=9, moves=200))
    first = draw_field(picture)
    forget_parts()
    assert draw_field(picture) == first


def test_the_docs_pictures_are_all_laid_out_well() -> None:
    for picture in showcase().values():
        assert_laid_out(picture)


# ------------------------------------------------------------------ the bench


def test_the_picture_bench_ends_with_the_8x14_figure() -> None:
    lines = bench(samples=3)
    assert lines[-1].startswith("picture 8x14: p50 ")
    assert lines[-1].endswith(" ms")
    assert any(line.startswith("picture 8x30: p50 ") for line in lines)
    assert any(line.startswith("picture 2x14: p50 ") for line in lines)
    assert any(line.startswith("picture 4x14: p50 ") for line in lines)


# ------------------------------------------------------------------ in every language


@pytest.mark.parametrize("language", catalog.LANGUAGES)
def test_the_docs_pictures_are_laid_out_well_in_every_language(language: str) -> None:
    with catalog.speaking(language):
        for picture in showcase().values():
            assert_laid_out(picture)


@settings(SETTINGS, max_examples=40)
@given(any_pictures(), st.sampled_from(catalog.LANGUAGES))
def test_any_field_gets_every_box_inside_the_picture_in_every_language(
    picture: FieldPicture, language: str
) -> None:
    with catalog.speaking(language):
        assert_laid_out(picture)


@settings(SETTINGS, max_examples=8)
@given(st.integers(0, 2**32), st.sampled_from(THEMES))
def test_eight_seats_of_thirty_dice_with_long_names_fit_in_japanese(seed: int, theme: str) -> None:
    names = [f"とても長い名前のプレイヤー{seat + 1}番さん" for seat in range(8)]
    state = play(8, 30, seed, moves=random.Random(seed).randrange(0, 240), names=names)
    with catalog.speaking("ja"):
        picture = FieldPicture.of(state, theme=theme, turn_seconds=600)  # type: ignore[arg-type]
        assert_laid_out(picture)
        assert_nothing_outside_boxes(picture)


def test_the_pictures_labels_are_said_in_the_language_spoken_where_it_is_drawn() -> None:
    for state in endless_game(4, GreedyPlayer(), seed=8):
        if state.in_last_turns and state.chance_kind is None:
            break
    picture = FieldPicture.of(state, turn_seconds=60)
    with catalog.speaking("ja"):
        plan = layout(picture)
    titles = [b.text for b in plan.of_kind("title")]
    tags = {b.text for b in plan.of_kind("tag")}
    assert titles[0] == "スタック" and "最後の手番" in titles and "1手60秒" in titles
    assert "手番" in tags and "to move" not in tags
    english = [b.text for b in layout(picture).of_kind("title")]
    assert english[0] == "Stack" and "last turns" in english


def test_a_draw_job_draws_the_picture_in_the_language_it_was_made_in() -> None:
    picture = FieldPicture.of(play(3, 6, seed=4, moves=12))
    with catalog.speaking("ja"):
        japanese = DrawJob("stack", (picture,))
    english = DrawJob("stack", (picture,))
    assert japanese.language == "ja" and english.language == "en"
    assert draw_job(japanese) != draw_job(english)
    with catalog.speaking("ja"):
        assert draw_job(japanese) == draw_field(picture)
