"""The text renderer of the field and the score sheet."""

from __future__ import annotations

import random

from engine.game import Decision
from engine.stack.ai import RandomPlayer
from engine.stack.moves import RoundDice
from engine.stack.render import (
    DISCORD_LIMIT,
    INDENT,
    LEGEND,
    LINE_WIDTH,
    SQUARES,
    dice_words,
    plain,
    render_field,
    render_round_scoring,
    render_score_sheet,
    wrap_parts,
)
from engine.stack.rules import StackRules
from engine.stack.state import StackState
from tests.engine.situations import deal, reroll, stack


def test_field_shows_colours_names_dice_piles_turn_round_and_totals() -> None:
    state = deal([3, 4, 1], [3, 5, 1], [6, 6, 2])
    stack(state, 3, 1)
    text = render_field(state)
    assert "round 1" in text and "first to 200" in text
    assert SQUARES[0] in text and "**alice**" in text
    assert "dice 1 4" in text  # alice's unstacked dice (grouped by face: one 1, one 4)
    assert "piles 3²" in text  # alice's 2-high pile of 3s
    assert "**bob** to move" in text
    assert "Last: alice stacked a 3 on bob's single 3" in text


def test_field_fits_discord_with_eight_players_of_fourteen_dice() -> None:
    rng = random.Random(8)
    names = [f"{'Ridiculously Long Name'[:20]} {i}{'x' * 10}" for i in range(8)]
    player = RandomPlayer()
    longest = 0
    for _ in range(3):
        state = StackState(names)
        while not state.is_over:
            if state.decision is Decision.CHANCE:
                state.resolve_chance(rng)
                continue
            longest = max(longest, len(render_field(state)))
            state.apply(player.choose(state, rng))
        longest = max(longest, len(render_field(state)))
    assert longest <= DISCORD_LIMIT


def test_score_sheet_has_a_row_per_player_a_column_per_round_and_totals() -> None:
    state = deal([3], [3], [5])
    stack(state, 3, 1)
    reroll(state, 5, 6)  # carol's last turn
    sheet = render_score_sheet(state)
    lines = plain(sheet).splitlines()
    assert lines[0].split() == ["R1", "Total"]
    assert lines[1].split() == ["alice", "3", "3"]
    assert len(lines) == 1 + 3 + 1


def test_plain_strips_discord_markdown() -> None:
    assert plain("**bold**\n```\ncode\n```\n-# small") == "bold\ncode\nsmall"


def marked(name: str) -> str:
    return f"<{name}>"


def test_field_writes_every_name_through_the_name_format() -> None:
    state = deal([3, 4, 1], [3, 5, 1], [6, 6, 2])
    stack(state, 3, 1)
    text = render_field(state, name=marked)
    assert "**<alice>**" in text and "**<bob>**" in text and "**<carol>**" in text
    assert "▶ 🟦 **<bob>** to move" in text
    # only names change: the plain rendering is the same text without the marks
    assert text.replace("<", "").replace(">", "") == render_field(state)


def test_a_finished_game_names_its_winner_through_the_name_format() -> None:
    state = deal([3], [3], [5], target_score=1)
    stack(state, 3, 1)
    reroll(state, 5, 6)
    assert state.is_over
    assert "<alice>" in render_field(state, name=marked)


def test_round_scoring_and_score_sheet_write_names_through_the_name_format() -> None:
    state = deal([3, 4], [3, 5], [5, 6])
    stack(state, 3, 1)
    scoring = render_round_scoring(state, name=marked)
    assert scoring == ["🟥 <alice>'s 2-high pile of 3s: 3 for <alice>"]
    sheet = render_score_sheet(state, name=marked)
    assert "<alice>" in sheet and "alice" not in sheet.replace("<alice>", "")


def test_score_sheet_columns_line_up_on_the_names_as_written_before_formatting() -> None:
    state = deal([3], [3], [5])
    stack(state, 3, 1)
    reroll(state, 5, 6)
    rows = render_score_sheet(state, name=lambda n: n.upper()).splitlines()[1:4]
    assert rows[0].startswith("       ") and rows[1].startswith("ALICE ")
    assert len({len(row) for row in rows[1:]}) == 1


def test_compact_field_shortens_names_and_fits_thirty_dice_by_eight() -> None:
    rng = random.Random(30)
    names = [f"{'N' * 31}{i}" for i in range(8)]
    state = StackState(names, StackRules(dice_per_player=30))
    player = RandomPlayer()
    longest = 0
    for _ in range(400):
        if state.decision is Decision.CHANCE:
            state.resolve_chance(rng)
            continue
        compact = render_field(state, compact=True)
        longest = max(longest, len(compact))
        assert len(compact) <= len(render_field(state))
        state.apply(player.choose(state, rng))
    assert longest <= DISCORD_LIMIT


def test_dice_piles_and_captures_are_grouped_by_face() -> None:
    state = deal([4, 4, 4, 1, 1, 6], [4, 4, 4, 2, 3, 5])
    assert "dice 1×2 4×3 6" in render_field(state)
    stack(state, 4, 1)  # alice: a 4 on one of bob's single 4s
    stack(state, 4, 0)  # bob: a 4 on one of alice's single 4s
    stack(state, 4, 1)  # alice: a 4 on bob's last single 4
    text = render_field(state)
    assert "piles 4²×2" in text  # alice's two 2-high piles of 4s, grouped
    assert "piles 4²" in text.split("**bob**")[1]


def _phone_lines(text: str) -> list[str]:
    """The lines a phone shows for dice and piles (not names, the last move or legend)."""
    return [line for line in text.splitlines() if line.startswith(INDENT)]


def test_rows_of_dice_and_piles_fit_a_phone_line_with_fourteen_and_thirty_dice() -> None:
    """A phone shows about 40 characters a line: a seat's dice, piles and captures wrap
    between groups, never inside one; with 14 dice the dice always fit one line."""
    for dice, seed in ((14, 1), (30, 2)):
        rng = random.Random(seed)
        state = StackState([f"p{i}" for i in range(8)], StackRules(dice_per_player=dice))
        player = RandomPlayer()
        for _ in range(600):
            if state.is_over:
                break
            if state.decision is Decision.CHANCE:
                state.resolve_chance(rng)
                continue
            lines = _phone_lines(render_field(state))
            assert lines and all(len(line) <= LINE_WIDTH for line in lines), lines
            for row in state.singles:
                assert len(INDENT + "dice " + dice_words(row)) <= LINE_WIDTH
            state.apply(player.choose(state, rng))


def test_wrap_parts_breaks_between_parts_then_between_groups() -> None:
    assert wrap_parts(["dice 1×2", "piles 5²"], width=40) == [INDENT + "dice 1×2 · piles 5²"]
    long = "piles " + " ".join(f"{f}²×2" for f in range(1, 7)) + " " + "1³ 2³ 3³ 4³"
    lines = wrap_parts(["dice 1×20 2×3", long], width=24)
    assert lines[0] == INDENT + "dice 1×20 2×3"
    assert all(len(line) <= 24 for line in lines)
    assert " ".join(line.strip() for line in lines[1:]) == long


def test_the_legend_is_shown_in_the_first_round_only_unless_asked() -> None:
    state = deal([3], [3])
    assert LEGEND in render_field(state)
    assert LEGEND not in render_field(state, legend=False)
    stack(state, 3, 1)  # covers bob's last die: both out, the round is over
    state.apply(RoundDice(((1,), (3,))))
    assert state.round_number == 2
    assert LEGEND not in render_field(state)
    assert LEGEND in render_field(state, legend=True)


def test_the_status_line_can_be_left_to_the_caller() -> None:
    state = deal([3, 4], [3, 5])
    assert "to move" in render_field(state)
    assert "to move" not in render_field(state, status=False)
