"""Color Stack through the game interface (:mod:`engine.games`)."""

from __future__ import annotations

import json
import random

import pytest

from engine import games
from engine.colorstack.game import GAME, ColorStackGame
from engine.colorstack.moves import Resign, Setup
from engine.colorstack.rules import (
    MAX_HOUSE_TURN_LIMIT,
    ColorStackHouseRules,
    ColorStackSettings,
)
from engine.errors import IllegalMoveError
from engine.game import Decision, SetupError

from .test_words import example_after


def test_registered_by_name_and_record_format() -> None:
    assert games.get("colorstack") is GAME
    assert games.by_record_format("colorstack-record/1") is GAME
    assert isinstance(GAME, ColorStackGame)


def test_the_games_attributes() -> None:
    assert (GAME.title, GAME.min_players, GAME.max_players) == ("Color Stack", 2, 2)
    assert GAME.ai_levels == ("random", "greedy", "expert")
    assert GAME.thinking_levels == ("expert",)
    assert GAME.off_turn_moves is True and GAME.forced_moves is False
    assert GAME.settings is ColorStackHouseRules


def test_a_house_rule_sets_at_most_ten_thousand_turns_and_a_record_any() -> None:
    """A table's turn limit is at most MAX_HOUSE_TURN_LIMIT; a record's rules (the rule
    book's) take any whole number of at least 1; a game is played by the record's."""
    assert ColorStackHouseRules(turn_limit=MAX_HOUSE_TURN_LIMIT).turn_limit == 10_000
    with pytest.raises(ValueError):
        ColorStackHouseRules(turn_limit=MAX_HOUSE_TURN_LIMIT + 1)
    assert ColorStackSettings(turn_limit=10**25).turn_limit == 10**25
    state = GAME.new_state(["ann", "ben"], ColorStackHouseRules(board="heavy", turn_limit=9))
    assert type(state.settings) is ColorStackSettings
    assert state.settings == ColorStackSettings(board="heavy", turn_limit=9)


def test_settings_are_strict_with_defaults() -> None:
    assert ColorStackSettings() == ColorStackSettings(board="light", turn_limit=300)
    for bad in ({"board": "huge"}, {"turn_limit": 0}, {"turn_limit": "5"}, {"colour": 1}):
        with pytest.raises(ValueError):
            ColorStackSettings.model_validate(bad)
    fields = ColorStackSettings.model_fields
    assert fields["board"].description and fields["turn_limit"].description


def test_a_table_is_two_players() -> None:
    with pytest.raises(SetupError):
        GAME.new_state(["a", "b", "c"], ColorStackSettings())


def test_a_new_table_waits_for_its_setup_chance() -> None:
    state = GAME.new_state(["ann", "ben"], ColorStackSettings(board="heavy"))
    assert state.decision is Decision.CHANCE
    setup = state.sample_chance(random.Random(4))
    assert isinstance(setup, Setup) and len(setup.cards) == 9
    assert GAME.decode_move(json.loads(json.dumps(GAME.encode_move(setup)))) == setup
    state.apply(setup)
    assert state.current_player == setup.first  # the first player decides now


def test_moves_encode_short_for_button_ids() -> None:
    state = example_after(2)
    for move in [*state.legal_moves(), Resign(1)]:
        code = json.dumps(GAME.encode_move(move))
        assert len(code) <= 100
        assert GAME.decode_move(json.loads(code)) == move
    with pytest.raises(ValueError):
        GAME.decode_move(["m", "z1", "a1"])


def test_resignation_off_turn_through_the_interface() -> None:
    state = example_after(1)  # bob to move
    GAME.parse_move(state, "resign", 0)
    state.check(Resign(0), by=0)
    with pytest.raises(IllegalMoveError):
        state.check(Resign(0), by=1)


def test_stats_figures_of_a_finished_game() -> None:
    state = example_after(7)
    assert GAME.stats_figures(state, 0) == {
        "moves": 3,
        "sets": 1,
        "stacks_made": 2,
        "four_colour_wins": 1,
    }
    assert GAME.stats_figures(state, 1) == {
        "moves": 1,
        "sets": 2,
        "stacks_made": 1,
        "four_colour_wins": 0,
    }


def test_hint_through_the_interface() -> None:
    move, reason = GAME.hint(example_after(6))
    assert GAME.move_notation(example_after(6), move) == "d1-c6"
    assert "wins now" in reason
