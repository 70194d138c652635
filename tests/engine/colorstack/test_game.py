"""Color Stack through the game interface (:mod:`engine.games`)."""

from __future__ import annotations

import json
import random

import pytest

from engine import games
from engine.colorstack.board import BLUE, GREEN, RED, YELLOW, parse_square
from engine.colorstack.game import GAME, ColorStackGame
from engine.colorstack.moves import COLOUR_CHOICES, Colours, FirstPlayer, Resign, Setup
from engine.colorstack.rules import (
    MAX_HOUSE_TURN_LIMIT,
    ColorStackHouseRules,
    ColorStackSettings,
)
from engine.colorstack.state import ColorStackState
from engine.errors import IllegalMoveError, InvalidMoveError, NoRecord
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


def test_a_new_table_waits_for_its_first_player_then_their_colours_then_the_board() -> None:
    state = GAME.new_state(["ann", "ben"], ColorStackSettings(board="heavy"))
    assert state.decision is Decision.CHANCE and state.current_player is None
    drawn = state.sample_chance(random.Random(4))
    assert isinstance(drawn, FirstPlayer)
    state.apply(drawn)
    assert state.decision is Decision.TURN and state.current_player == drawn.seat
    state.apply(Colours(GREEN, RED), by=drawn.seat)
    assert state.decision is Decision.CHANCE and state.current_player is None
    setup = state.sample_chance(random.Random(4))
    assert isinstance(setup, Setup) and len(setup.cards) == 9
    assert setup.colours == (GREEN, RED)
    for step in (drawn, Colours(GREEN, RED), setup):
        assert GAME.decode_move(json.loads(json.dumps(GAME.encode_move(step)))) == step
    state.apply(setup)
    assert state.current_player == setup.first  # the first player moves first


def test_the_first_player_chooses_two_colours_in_order_and_the_other_takes_the_rest() -> None:
    """Set-up step 1 and Players: the first player chooses two colours, in an order; the
    second player takes the other two in the order red, blue, yellow, green; the dice are
    placed alternating first and second colour from each player's own left."""
    state = GAME.new_state(["ann", "ben"], ColorStackSettings())
    state.apply(FirstPlayer(1))
    assert state.legal_moves() == list(COLOUR_CHOICES) and len(COLOUR_CHOICES) == 12
    state.apply(Colours(GREEN, BLUE), by=1)
    state.apply(state.sample_chance(random.Random(2)))
    assert state.colours == ((RED, YELLOW), (GREEN, BLUE))
    assert state.to_move == 1 and state.turns == 0  # the choice is no turn
    # each player's dice from their own left: the first player's a1 c1 d1 f1 g1 i1 (row 1
    # is the first player's side, whatever their seat), the second's i6 g6 f6 d6 c6 a6
    assert [colour_on(state, c + "1") for c in "acdfgi"] == [GREEN, BLUE] * 3
    assert [colour_on(state, c + "6") for c in "igfdca"] == [RED, YELLOW] * 3


def colour_on(state: ColorStackState, name: str) -> int:
    top = state.top(parse_square(name, state.rows) or 0)
    assert top is not None
    return top >> 3


def test_only_the_first_player_chooses_colours_once_two_different_before_any_move() -> None:
    state = GAME.new_state(["ann", "ben"], ColorStackSettings())
    state.apply(FirstPlayer(0))
    with pytest.raises(IllegalMoveError, match="ann moves first and chooses the colours"):
        state.apply(Colours(RED, BLUE), by=1)
    with pytest.raises(IllegalMoveError, match="two different colours"):
        state.apply(Colours(RED, RED), by=0)
    with pytest.raises(IllegalMoveError, match="ann chooses colours first"):
        state.apply(state.sample_setup(random.Random(1)))
    with pytest.raises(IllegalMoveError, match="ann chooses colours first"):
        GAME.parse_move(state, "a1-a2", 0)
    assert GAME.parse_move(state, "colours blue, green", 0) == Colours(BLUE, GREEN)
    assert GAME.parse_move(state, "Yellow red", 0) == Colours(YELLOW, RED)
    assert GAME.move_notation(state, Colours(YELLOW, RED)) == "colours yellow red"
    with pytest.raises(InvalidMoveError, match="“pink” is not a colour"):
        GAME.parse_move(state, "colours pink red", 0)
    with pytest.raises(InvalidMoveError, match="Name your two colours"):
        GAME.parse_move(state, "colours red", 0)
    state.apply(Colours(BLUE, GREEN), by=0)
    with pytest.raises(IllegalMoveError, match="Colours are chosen once"):
        state.apply(Colours(RED, YELLOW), by=0)
    state.apply(state.sample_chance(random.Random(3)))
    assert state.colours[0] == (BLUE, GREEN) and state.colours[1] == (RED, YELLOW)
    with pytest.raises(IllegalMoveError, match="Colours are chosen once"):
        GAME.parse_move(state, "colours red yellow", 0)


def test_either_player_may_resign_while_colours_are_chosen_and_that_game_has_no_record() -> None:
    """A player may resign at any time (the rule book), before the board is set up too;
    a record needs the board (cards, dice), so that game has none."""
    state = GAME.new_state(["ann", "ben"], ColorStackSettings())
    state.apply(FirstPlayer(0))
    with pytest.raises(IllegalMoveError, match="Only ann can resign for themselves"):
        state.apply(Resign(0), by=1)
    assert GAME.parse_move(state, "resign", 1) == Resign(1)
    state.apply(Resign(1), by=1)
    outcome = state.outcome()
    assert outcome is not None and outcome.winners == (0,) and outcome.ended_by == "resignation"
    back = GAME.state_from_dict(json.loads(json.dumps(state.to_dict())))
    assert back == state and back.is_over
    with pytest.raises(NoRecord):
        GAME.export_record(state)


def test_a_game_stored_while_colours_are_chosen_comes_back_as_it_was() -> None:
    state = GAME.new_state(["ann", "ben"], ColorStackSettings())
    for step in (FirstPlayer(1), Colours(YELLOW, GREEN)):
        back = GAME.state_from_dict(json.loads(json.dumps(state.to_dict())))
        assert back == state and back.decision is state.decision
        state.apply(step)
    back = GAME.state_from_dict(json.loads(json.dumps(state.to_dict())))
    assert back.chosen == Colours(YELLOW, GREEN) and back.decision is Decision.CHANCE
    state.apply(state.sample_chance(random.Random(5)))
    back = GAME.state_from_dict(json.loads(json.dumps(state.to_dict())))
    assert back == state and back.colours[1] == (YELLOW, GREEN)


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


@pytest.mark.parametrize("typed", ["garbage", "", "x" * 41, "c1 c2 c3"])
def test_an_unreadable_answer_to_the_colour_choice_says_how_to_name_the_colours(
    typed: str,
) -> None:
    """While the first player chooses colours, what is not a move at all is answered
    with how to name the colours, not with how to type a move (which is not allowed
    then)."""
    state = GAME.new_state(["ann", "ben"], ColorStackSettings())
    state.apply(FirstPlayer(0))
    with pytest.raises(InvalidMoveError) as caught:
        GAME.parse_move(state, typed, 0)
    assert str(caught.value).endswith(
        "Name your two colours, first and second: colours red yellow."
    )
    state.apply(Colours(BLUE, GREEN), by=0)
    state.apply(state.sample_chance(random.Random(3)))
    with pytest.raises(InvalidMoveError) as caught:
        GAME.parse_move(state, typed, state.current_player)
    assert str(caught.value).endswith("Type a move as c1-e3, a set as set c1 4, or resign.")
