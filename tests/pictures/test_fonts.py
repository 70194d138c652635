"""Fonts for the pictures (pictures/fonts.py): each character drawn by the first font that has
it, names in any script found in the Debian fonts, and something legible (never an empty
box) for a character that no font has."""

from __future__ import annotations

import itertools
import unicodedata
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from PIL import Image, ImageChops, ImageDraw, ImageFont, features

from pictures import fonts

DEJAVU = Path("/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf")
NOTO_CJK = Path("/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc")
SYMBOLA = [
    Path("/usr/share/fonts/truetype/ancient-scripts/Symbola_hint.ttf"),
    Path("/usr/share/fonts/truetype/ancient-scripts/Symbola.ttf"),
]
NO_FONT = "\u0378"  # unassigned in Unicode: no font has it

needs_debian_fonts = pytest.mark.skipif(
    not (DEJAVU.is_file() and NOTO_CJK.is_file() and any(p.is_file() for p in SYMBOLA)),
    reason="the Debian fonts (system-packages.txt: fonts-dejavu-core fonts-noto-cjk "
    "fonts-symbola) are not installed on this machine",
)


@pytest.fixture
def only_bundled_font(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Iterator[None]:
    """A machine without the Debian fonts: only matplotlib's DejaVu Sans is found."""
    monkeypatch.setattr(fonts, "FONT_DIRS", (tmp_path,))
    fonts.forget()
    yield
    monkeypatch.undo()
    fonts.forget()


def masks_equal(a: str, b: str) -> bool:
    left = fonts.text_mask(a, 30, 40)
    right = fonts.text_mask(b, 30, 40)
    return left.size == right.size and ImageChops.difference(left, right).getbbox() is None


# ------------------------------------------------------------------ always


def test_matplotlibs_dejavu_sans_is_always_found_last_as_the_fallback() -> None:
    for weight in ("regular", "bold"):
        found = fonts.faces(weight)
        assert found, "at least the fallback"
        assert "matplotlib" in found[-1].name
        assert found[-1].path.is_file()


def test_a_character_no_font_has_is_drawn_as_the_substitute_never_as_an_empty_box() -> None:
    assert all(not fonts.has_glyph(face, NO_FONT) for face in fonts.faces())
    assert fonts.missing(f"a{NO_FONT}b") == {NO_FONT}
    assert "".join(run for run, _ in fonts.runs(f"a{NO_FONT}b")) == f"a{fonts.SUBSTITUTE}b"
    assert masks_equal(f"a{NO_FONT}b", f"a{fonts.SUBSTITUTE}b"), "drawn as a?b"
    assert masks_equal(NO_FONT, fonts.SUBSTITUTE)


def test_without_the_debian_fonts_latin_still_draws_and_the_rest_becomes_the_substitute(
    only_bundled_font: None,
) -> None:
    (face,) = fonts.faces()
    assert "matplotlib" in face.name
    assert fonts.missing("Ālīce") == set(), "matplotlib's DejaVu has Latin with accents"
    assert fonts.missing("ボブ") == {"ボ", "ブ"}
    assert masks_equal("ボブ", "??"), "a name in a missing script draws as ?, not as boxes"
    assert fonts.text_mask("ボブ", 30, 40).getbbox() is not None, "something is drawn"


def test_invisible_modifiers_are_left_out_and_control_characters_become_spaces() -> None:
    assert fonts.clean("Al\nice\x00\t!") == "Al ice  !"
    assert fonts.clean("👍🏽") == "👍", "skin tone left out"
    assert fonts.clean("❤\ufe0f") == "❤", "variation selector left out"
    assert fonts.clean("a\u200db") == "ab", "zero-width joiner left out (but between emoji)"
    assert fonts.clean("e\u0301") == "é", "composed"


def test_each_character_is_drawn_by_the_first_font_that_has_it() -> None:
    for char in "Aé€ボ字😀✨⏱●■▲◆★✚▼⬟?":
        face = fonts.face_for(char)
        first = next((f for f in fonts.faces() if fonts.has_glyph(f, char)), None)
        assert face == first, char


@settings(max_examples=100, deadline=None)
@given(st.text(max_size=40))
def test_runs_draw_every_kept_character_once_in_a_font_that_has_it(text: str) -> None:
    drawn = "".join(run for run, _ in fonts.runs(text))
    assert "\n" not in drawn and "\r" not in drawn
    for run, face in fonts.runs(text):
        assert run
        if face is not None:
            assert all(fonts.has_glyph(face, char) for char in run), (run, face)
    assert len(drawn) <= len(fonts.clean(text))


@settings(max_examples=60, deadline=None)
@given(st.text(min_size=1, max_size=80), st.integers(40, 700))
def test_a_fitted_text_is_no_wider_than_asked_and_ends_with_an_ellipsis_when_cut(
    text: str, width: int
) -> None:
    shown = fonts.fit(text, width, 30, "bold")
    whole = fonts.clean(text)
    if shown == whole:
        assert fonts.text_width(whole, 30, "bold") <= width
    else:
        assert shown.endswith("…")
        assert whole.startswith(shown[:-1])
        assert fonts.text_width(shown, 30, "bold") <= width


ALIKE = tuple(f"Alexandra Konstantinopoulou-Li {seat}" for seat in range(1, 9))  # 32 characters


def test_long_names_starting_alike_are_cut_apart_keeping_their_ends() -> None:
    # each alone is cut to the same beginning, which could be any of them
    assert len({fonts.fit(name, 380, 30, "bold") for name in ALIKE}) == 1
    shown = fonts.fit_apart(ALIKE, (380,) * 8, 30, "bold")
    assert len(set(shown)) == 8, shown
    for name, text in zip(ALIKE, shown, strict=True):
        head, tail = text.split("…")
        assert name.startswith(head) and len(head) >= len("Alexandra")
        assert tail == name[-4:]  # "Li 1": the end that tells it apart, from its word
        assert fonts.text_width(text, 30, "bold") <= 380


def test_a_cut_name_that_begins_no_other_keeps_its_plain_cut() -> None:
    names = ("Player 1 with a very long name", "Player 2 with a very long name", "W" * 40)
    assert fonts.fit_apart(names, (300,) * 3, 30, "bold") == tuple(
        fonts.fit(name, 300, 30, "bold") for name in names
    )
    # the same name twice stays the same; a short name is not cut
    twice = ("Alexandra Konstantinopoulou-Li 1",) * 2 + ("Al",)
    shown = fonts.fit_apart(twice, (300,) * 3, 30, "bold")
    assert shown[0] == shown[1] == fonts.fit(twice[0], 300, 30, "bold") and shown[2] == "Al"


@settings(max_examples=60, deadline=None)
@given(
    st.lists(st.text(min_size=1, max_size=40), min_size=2, max_size=8),
    st.integers(40, 700),
    st.text(min_size=0, max_size=30),
)
def test_names_cut_apart_fit_and_show_their_beginning_and_their_end(
    ends: list[str], width: int, start: str
) -> None:
    names = tuple(start + end for end in ends)  # names that often start alike
    shown = fonts.fit_apart(names, (width,) * len(names), 30, "bold")
    for name, text in zip(names, shown, strict=True):
        whole = fonts.clean(name)
        if text == fonts.fit(name, width, 30, "bold"):
            continue
        head, _, tail = text.partition("…")
        assert whole.startswith(head) and whole.endswith(tail) and tail
        assert len(head) + len(tail) < len(whole)
        assert fonts.text_width(text, 30, "bold") <= width
    # two names cut to the same text are the same name, or no end of theirs fit
    cleaned = [fonts.clean(name) for name in names]
    for i, j in itertools.combinations(range(len(names)), 2):
        if shown[i] == shown[j] and cleaned[i] != cleaned[j]:
            assert shown[i] == fonts.fit(names[i], width, 30, "bold"), (names[i], names[j])


# ------------------------------------------------------------------ with the Debian fonts


@needs_debian_fonts
def test_latin_japanese_and_emoji_names_are_found_in_the_debian_fonts() -> None:
    for name in ("Ālīce ✨", "ボブ", "😀", "李小龍", "Zoë", "Ωmega Жук", "**__@everyone__**"):
        assert fonts.missing(name) == set(), name
        assert fonts.missing(name, "bold") == set(), name
    chosen = {char: getattr(fonts.face_for(char), "name", None) for char in "Āボ✨⏱"}
    assert chosen == {
        "Ā": "DejaVu Sans",
        "ボ": "Noto Sans CJK JP",
        "✨": "Symbola",
        "⏱": "Symbola",
    }


@needs_debian_fonts
def test_a_name_in_several_scripts_is_drawn_in_runs_of_one_font_each() -> None:
    runs = fonts.runs("Ālīce ✨ ボブ")
    assert [face.name if face else None for _, face in runs] == [
        "DejaVu Sans",
        "Symbola",  # "✨ ": a space stays in the run before it
        "Noto Sans CJK JP",
    ]
    assert "".join(run for run, _ in runs) == "Ālīce ✨ ボブ"


# ------------------------------------------------------------------ emoji sequences

FAMILY = "👨\u200d👩\u200d👧\u200d👦"
RAINBOW_FLAG = "🏳\ufe0f\u200d🌈"
ASTRONAUT = "🧑🏿\u200d🚀"  # with a skin tone
SEQUENCES = {  # as typed: as drawn with one-colour fonts
    FAMILY: "👪",
    "👩\u200d❤\ufe0f\u200d👨": "💑",
    "👩\u200d❤\ufe0f\u200d💋\u200d👨": "💏",
    "👨\u200d👧": "👪",
    "🇯🇵": "🅹\u200d🅿",
    "🇯🇵🇫🇷": "🅹\u200d🅿\u2009🅵\u200d🆁",  # two flags apart
    "1\ufe0f\u20e3": "❶",
    "0\ufe0f\u20e3": "⓿",
    "👍🏽": "👍",
    "🏃\u200d♀\ufe0f": "🏃",  # the woman's sign: only says who
    "👨\u200d🦰": "👨",  # red hair: no font has it, never a "?"
    RAINBOW_FLAG: "🏳\u200d🌈",  # its members, joined: never cut apart
    ASTRONAUT: "🧑\u200d🚀",
    "🏴\U000e0067\U000e0062\U000e0073\U000e0063\U000e0074\U000e007f": "🏴",  # Scotland
}


@needs_debian_fonts
@pytest.mark.parametrize("typed", list(SEQUENCES))
def test_an_emoji_sequence_is_drawn_whole_as_one_colour_fonts_allow(typed: str) -> None:
    drawn = fonts.clean(f"a{typed}b")
    assert drawn == f"a{SEQUENCES[typed]}b"
    assert fonts.clean(drawn) == drawn, "cleaned once is cleaned"
    assert fonts.missing(typed) == set(), "no '?' and no empty box"
    shown = "".join(run for run, _ in fonts.runs(typed))
    assert "\u200d" not in shown, "the joiner is not drawn"
    for char in shown:  # a flag's letters are not Symbola's dotted boxes
        assert not 0x1F1E6 <= ord(char) <= 0x1F1FF
        assert "REGIONAL INDICATOR" not in unicodedata.name(char, "")


@needs_debian_fonts
@pytest.mark.parametrize("weight", ["regular", "bold"])
@pytest.mark.parametrize("typed", list(SEQUENCES))
def test_an_emoji_sequences_ink_stays_within_its_measured_width(typed: str, weight: str) -> None:
    name = f"W{typed}W{typed}"
    image = Image.new("L", (400, 60), 0)
    width = fonts.draw_text(ImageDraw.Draw(image), (100, 44), name, 30, 255, weight)  # type: ignore[arg-type]
    assert width == pytest.approx(fonts.text_width(name, 30, weight))  # type: ignore[arg-type]
    box = image.getbbox()
    assert box is not None
    assert box[0] >= 99 and box[2] <= 100 + width + 1, (box, width)


@needs_debian_fonts
@pytest.mark.parametrize("typed", [FAMILY, "🇯🇵", RAINBOW_FLAG, ASTRONAUT, "e\u0301"])
def test_a_name_is_never_cut_inside_an_emoji_sequence(typed: str) -> None:
    name = "Bo " + typed * 12
    whole = fonts.clean(name)
    for width in range(30, int(fonts.text_width(name, 30)) + 10, 7):
        shown = fonts.fit(name, width, 30)
        assert fonts.text_width(shown, 30) <= width or shown == "…"
        head = shown.removesuffix("…")
        assert whole.startswith(head) and len(head) in fonts.cuts(whole), (width, shown)
        assert not head.endswith("\u200d")
    # the end kept to tell names apart is whole too
    names = (f"Alexandra Konstantinopoulou {typed}", f"Alexandra Konstantinopoulou {typed}x")
    for name, shown in zip(names, fonts.fit_apart(names, (300.0, 300.0), 30), strict=True):
        cleaned = fonts.clean(name)
        head, _, tail = shown.partition("…")
        assert cleaned.startswith(head) and len(head) in fonts.cuts(cleaned), shown
        assert tail, "cut apart, its end kept"
        assert cleaned.endswith(tail) and len(cleaned) - len(tail) in fonts.cuts(cleaned), shown


# ------------------------------------------------------------------ right to left

HEBREW = "שלום"  # shalom: ש first, drawn rightmost
ARABIC = "محمد"  # Muhammad: four letters joined, م first, drawn rightmost


def letters_from_the_left(text: str) -> Image.Image:
    """``text``'s characters drawn one after the other from the left, as they come (the
    font's own layout, no reordering), in the mask :func:`fonts.text_mask` makes."""
    mask = Image.new("L", fonts.text_mask(text, 30, 40).size, 0)
    face = fonts.face_for(text[0])
    ImageDraw.Draw(mask).text(
        (0, fonts.baseline(30, 40)), text, font=fonts.font(face, 30), fill=255, anchor="ls"
    )
    return mask


def same(left: Image.Image, right: Image.Image) -> bool:
    return left.size == right.size and ImageChops.difference(left, right).getbbox() is None


def test_a_hebrew_name_is_drawn_from_the_right() -> None:
    drawn = fonts.text_mask(HEBREW, 30, 40)
    assert same(drawn, letters_from_the_left(HEBREW[::-1])), "its first letter rightmost"
    assert not same(drawn, letters_from_the_left(HEBREW)), "not in the order typed"


def test_without_raqm_a_hebrew_name_is_still_drawn_from_the_right(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(fonts, "_raqm", lambda: False)
    fonts.visual_runs.cache_clear()
    assert same(fonts.text_mask(HEBREW, 30, 40), letters_from_the_left(HEBREW[::-1]))
    assert fonts.visual(f"{HEBREW} (2)") == "(2) " + HEBREW[::-1], "brackets mirrored"


@pytest.mark.skipif(not features.check_feature("raqm"), reason="Pillow without Raqm")
def test_an_arabic_name_is_drawn_joined_from_the_right() -> None:
    shaped = ImageFont.truetype(
        str(fonts.face_for(ARABIC[0]).path), 30, layout_engine=ImageFont.Layout.RAQM
    )
    drawn = fonts.text_mask(ARABIC, 30, 40)
    expected = Image.new("L", drawn.size, 0)
    ImageDraw.Draw(expected).text(
        (0, fonts.baseline(30, 40)), ARABIC, font=shaped, fill=255, anchor="ls", direction="rtl"
    )
    assert same(drawn, expected)
    assert fonts.text_width(ARABIC, 30) < fonts.text_width(" ".join(ARABIC), 30) - 3 * 8


def test_words_around_a_right_to_left_name_keep_their_places() -> None:
    def order(text: str) -> list[tuple[str, bool]]:
        return [(run, rtl) for run, _, rtl in fonts.visual_runs(text)]

    # a name isolated in a sentence (catalog.isolate) stays where the sentence puts it
    assert order(f"took 2 from \u2068{HEBREW}\u2069 ok") == [
        ("took 2 from ", False),
        (HEBREW, True),
        (" ok", False),
    ]
    # a right-to-left name reads from the right, its numbers from the left
    assert order(f"{HEBREW} 123 עולם") == [(" עולם", True), ("123", False), (f"{HEBREW} ", True)]
    assert order(f"abc {HEBREW} def") == [("abc ", False), (HEBREW, True), (" def", False)]
    assert fonts.levels("Ālīce ✨ ボブ 12") is None, "left to right only: drawn as before"


@settings(max_examples=100, deadline=None)
@given(st.text(max_size=40))
def test_any_text_is_drawn_with_the_same_characters_in_some_order(text: str) -> None:
    laid_out = fonts.visual_runs(text)
    drawn = "".join(run for run, _, _ in laid_out)
    assert sorted(drawn) == sorted("".join(run for run, _ in fonts.runs(text)))
    if fonts.levels(fonts.clean(text)) is None:
        assert [(run, face) for run, face, _ in laid_out] == list(fonts.runs(text))
    assert fonts.text_width(text, 30) >= 0


def test_without_raqm_arabic_letters_are_still_joined(monkeypatch: pytest.MonkeyPatch) -> None:
    # meem, hah, meem, dal in their initial, medial, medial and final forms, from the right
    assert fonts.visual(ARABIC) == "\ufeaa\ufee4\ufea4\ufee3"
    assert fonts.visual("لا") == "\ufefb", "lam-alef: one ligature"
    assert fonts.visual("د ر") == "\ufead \ufea9", "letters apart stay apart"
    shaped = fonts.text_width(ARABIC, 30)
    monkeypatch.setattr(fonts, "_raqm", lambda: False)
    assert abs(fonts.text_width(ARABIC, 30) - shaped) < 2, "as wide as Raqm draws it"


def test_an_isolated_name_stays_isolated_when_its_sentence_is_cut() -> None:
    sentence = f"\u2068{HEBREW}\u2069から2枚取った"  # catalog.isolate's marks around the name
    assert fonts.clean(sentence) == sentence, "the isolates are kept: they say the direction"
    assert fonts.missing(sentence) == set(), "and are never drawn as a missing character"
    assert "".join(run for run, _ in fonts.runs(sentence)) == f"{HEBREW}から2枚取った"
    cut = fonts.fit(sentence, fonts.text_width(sentence, 30) - 10, 30)
    assert cut.startswith(f"\u2068{HEBREW}\u2069") and cut.endswith("…"), cut
    assert fonts.visual_runs(cut)[0] == (HEBREW, fonts.face_for(HEBREW[0]), True), "leftmost"


@needs_debian_fonts
def test_bold_text_draws_every_character_the_regular_fonts_have() -> None:
    regular: set[int] = set()
    for face in fonts.faces("regular"):
        regular |= fonts._cmap(face)
    bold: set[int] = set()
    for face in fonts.faces("bold"):
        bold |= fonts._cmap(face)
    assert regular <= bold, sorted(regular - bold)[:10]
    assert fonts.missing("\U0001ee00\U0001ee01", "bold") == set()  # Arabic mathematical letters


def test_two_flags_stay_apart_when_drawn_as_plain_letters(monkeypatch: pytest.MonkeyPatch) -> None:
    """Without a font of squared letters (no Noto CJK) a flag is drawn as its two plain
    letters: two flags in a row are still set apart (JP US), not run into one code."""
    real = fonts.face_for

    def no_squared_letters(char: str, *args: Any, **kwargs: Any) -> Any:
        if 0x1F170 <= ord(char) <= 0x1F189:
            return None
        return real(char, *args, **kwargs)

    monkeypatch.setattr(fonts, "face_for", no_squared_letters)
    assert fonts.clean("🇯🇵🇫🇷") == "J\u200dP\u2009F\u200dR"
    assert fonts.clean("a🇯🇵b") == "aJ\u200dPb"
