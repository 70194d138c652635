"""Display widths (:mod:`catalog.columns`): the one measure of Discord's and the terminal's
score sheets, and the terminal's score sheet lined up by it."""

from __future__ import annotations

import re

import pytest

import catalog
from catalog.stack import WORDS
from engine.stack.render import NAME_WIDTH
from engine.stack.state import StackState

FAMILY = "\U0001f468\u200d\U0001f469\u200d\U0001f467\u200d\U0001f466"
FLAG = "\U0001f3f4\U000e0067\U000e0062\U000e0073\U000e0063\U000e0074\U000e007f"


def test_wide_characters_take_two_columns_marks_and_invisible_ones_none() -> None:
    for terminal in (False, True):
        widths = [
            catalog.width(text, terminal=terminal)
            for text in ("abc", "先手", "ａｂ", "😀", "Ālīce ✨", "a\u200bb", "e\u0301", "ก\u0e31")
        ]
        assert widths == [3, 4, 4, 2, 8, 2, 1, 1], terminal
    assert catalog.ljust("先手", 6) == "先手  "
    assert catalog.rjust("ab", 4) == "  ab"


def test_discord_draws_an_emoji_sequence_as_one_glyph_a_terminal_each_character() -> None:
    """A family emoji is four wide emoji joined by zero-width joiners: Discord draws it
    in 2 columns, a terminal (as wcwidth counts) in 8 (counted 11 once, a name holding
    one pushed its score-sheet row 3 columns out of line); a flag's tags are invisible
    to both; a soft hyphen shows in a terminal only."""
    cases = {  # text: (Discord, terminal)
        FAMILY: (2, 8),
        FLAG: (2, 2),
        "\U0001f44d\U0001f3fd": (2, 4),  # a skin tone
        "\u2764\ufe0f": (2, 1),  # a heart asked for as an emoji
        "a\u00adb": (2, 3),
        "\u2067عمر\u2069": (3, 3),  # direction marks: none
    }
    for text, (discord, terminal) in cases.items():
        assert catalog.width(text) == discord, text
        assert catalog.width(text, terminal=True) == terminal, text


def test_a_name_is_cut_to_columns_between_glyphs() -> None:
    """A name is cut by display width, never inside a glyph: an accent, a skin tone, a
    family's members stay with what they mark, "…" in the last column."""
    family = "\U0001f468\u200d\U0001f469\u200d\U0001f467"
    cases = {
        ("李小龍李", 5): "李小…",  # a wide character does not half fit
        ("ab李", 3): "ab…",
        ("ab李", 4): "ab李",  # it fits: as it is
        ("e\u0301e\u0301e\u0301e\u0301", 3): "e\u0301e\u0301…",
        (f"{family}{family}x", 4): f"{family}…",
        ("x\U0001f44d\U0001f3fdyz", 4): "x\U0001f44d\U0001f3fd…",
        ("ボブ Bob", 6): "ボブ…",  # no space before the mark
        ("李", 1): "…",
    }
    for (text, columns), cut in cases.items():
        assert catalog.cut_columns(text, columns) == cut, (text, columns)
        assert catalog.width(cut) <= columns
    # a terminal's columns: the family takes 6 of them before its last member
    assert catalog.cut_columns(f"{family}x", 5, terminal=True) == "…"
    assert catalog.cut_columns(f"ab{family}", 7, terminal=True) == "ab…"
    with pytest.raises(ValueError):
        catalog.cut_columns("abc", 0)


# ---------------------------------------------------------------- the terminal's sheet

LONG_LATIN = "Émile_le_très_long_nom_de_joueur"  # 32 characters, one column each
WIDE = (
    "李小龍李小龍李小龍李小龍李小龍李小龍李小龍李小龍李小龍李小龍李",  # 31 wide characters
    "ボブ Bob ボブ Bob ボブ Bob ボブ Bob",
    "山田taro山田taro山田taro山田taro",
    "ａｂｃｄｅｆｇｈｉｊｋ",  # full-width Latin: 11 characters, 22 columns
    f"{FAMILY} famille 👍🏽 e\u0301e\u0301 李小龍",
)


def sheet(names: list[str]) -> list[str]:
    """The terminal's score sheet of a 12-round game of ``names``: the rows inside its
    code block (header first)."""
    state = StackState(names)
    state.round_scores = [[7 * (seat + 1) + r for seat in range(len(names))] for r in range(12)]
    state.totals = [sum(r[seat] for r in state.round_scores) for seat in range(len(names))]
    lines = WORDS.render_score_sheet(state).splitlines()
    start = lines.index("```")
    return lines[start + 1 : lines.index("```", start + 1)]


def ends(row: str) -> list[int]:
    """Where each cell of ``row`` ends, in the columns a terminal gives it."""
    return [catalog.width(row[: m.end()], terminal=True) for m in re.finditer(r"\S+", row)]


@pytest.mark.parametrize("language", catalog.LANGUAGES)
def test_the_terminals_sheet_cuts_wide_names_by_columns_and_lines_them_up(language: str) -> None:
    # a name is cut to NAME_WIDTH columns (a Japanese character two), so a 32-character
    # Japanese name takes no more room than a Latin one, and every row lines up
    with catalog.speaking(language):
        latin = sheet([LONG_LATIN, *(f"{i}" + "x" * 31 for i in range(len(WIDE)))])
        mixed = sheet([LONG_LATIN, *WIDE])
    widest = max(catalog.width(row, terminal=True) for row in latin)
    header, *rows = mixed
    columns = ends(header)  # R1 … R12 Total
    assert len(columns) == 13
    for name, row in zip([LONG_LATIN, *WIDE], rows, strict=True):
        label = row.rsplit(maxsplit=len(columns))[0]  # the row without its cells
        assert catalog.width(label, terminal=True) <= NAME_WIDTH, (name, label)
        if catalog.width(name, terminal=True) > NAME_WIDTH:
            assert label.endswith("…") and name.startswith(label.removesuffix("…").rstrip())
        else:
            assert label == name
        assert ends(row)[-len(columns) :] == columns, (language, row)
        assert catalog.width(row, terminal=True) <= widest, (name, row)
    assert max(catalog.width(row, terminal=True) for row in mixed) == widest
