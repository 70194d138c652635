"""The text renderer of the field and the score sheet."""

from __future__ import annotations

import random

from engine.game import Decision
from engine.stack.ai import RandomPlayer
from engine.stack.render import (
    DISCORD_LIMIT,
    SQUARES,
    plain,
    render_field,
    render_round_scoring,
    render_score_sheet,
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
    assert "dice 1 4" in text  # alice's unstacked dice
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


def test_compact_field_counts_equal_dice_and_captures_and_fits_thirty_dice_by_eight() -> None:
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
    state = deal([4, 4, 4, 4], [1, 2, 3, 5])
    assert "dice 4×4" in render_field(state, compact=True)
    assert "dice 4 4 4 4" in render_field(state)
