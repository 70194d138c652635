"""The text renderer of the field and the score sheet."""

from __future__ import annotations

import random

from engine.game import Decision
from engine.stack.ai import RandomPlayer
from engine.stack.render import DISCORD_LIMIT, SQUARES, plain, render_field, render_score_sheet
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
