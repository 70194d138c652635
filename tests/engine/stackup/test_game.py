"""The Game object the registry loads, the table as text, and the bench's driver."""

from __future__ import annotations

import random
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import games
from engine.bench import play_one
from engine.game import Decision, GameEnded, SetupError, TurnEnded
from engine.stackup.cards import card_names
from engine.stackup.game import GAME
from engine.stackup.moves import Move
from engine.stackup.render import render_text, rules_text
from engine.stackup.rules import MAX_HOUSE_TURN_LIMIT, StackUpHouseRules, StackUpSettings
from engine.stackup.state import StackUpState

from .situations import ANN, BEN, NAMES, table


def test_the_registry_finds_stack_up() -> None:
    game = games.get("stackup")
    assert game is GAME and games.by_record_format("stackup-record/1") is GAME
    assert (game.name, game.title, game.min_players, game.max_players) == (
        "stackup", "Stack Up!", 2, 6,
    )  # fmt: skip
    assert game.ai_levels == ("random", "greedy", "expert") and game.settings is StackUpHouseRules


def test_a_house_rule_sets_at_most_ten_thousand_turns_and_a_record_any() -> None:
    """A table's turn limit is at most MAX_HOUSE_TURN_LIMIT; a record's rules (the rule
    book's) take any whole number of at least 1; a game is played by the record's."""
    assert StackUpHouseRules(turn_limit=MAX_HOUSE_TURN_LIMIT).turn_limit == 10_000
    with pytest.raises(ValueError):
        StackUpHouseRules(turn_limit=MAX_HOUSE_TURN_LIMIT + 1)
    assert StackUpSettings(turn_limit=10**25).turn_limit == 10**25
    state = GAME.new_state(["ann", "ben"], StackUpHouseRules(turn_limit=7))
    assert type(state.settings) is StackUpSettings and state.settings.turn_limit == 7


def test_seats_and_settings_are_checked() -> None:
    with pytest.raises(SetupError):
        GAME.new_state(["solo"], StackUpSettings())
    with pytest.raises(SetupError):
        GAME.new_state([f"p{i}" for i in range(7)], StackUpSettings())
    with pytest.raises(SetupError):
        GAME.new_state(["ann", "ann"], StackUpSettings())
    with pytest.raises(ValueError):
        StackUpSettings(turn_limit=0)
    with pytest.raises(ValueError):
        StackUpSettings.model_validate({"turn_limit": 5, "hand_size": 7})
    assert StackUpSettings().turn_limit == 500
    assert StackUpSettings.model_fields["turn_limit"].description


def test_a_whole_game_through_the_game_object() -> None:
    rng = random.Random(9)
    state = GAME.new_state(NAMES[:3], StackUpSettings(turn_limit=200))
    players = [GAME.make_ai("greedy"), GAME.make_ai("random"), GAME.make_ai("greedy")]
    said: list[str] = []
    while not state.is_over:
        move: Move | None = state.automatic()
        if state.decision is Decision.CHANCE:
            move = state.sample_chance(rng)  # a chance outcome may end a turn too
        elif move is None:
            seat = state.current_player
            assert seat is not None
            hinted, reason = GAME.hint(state)
            assert state.is_legal(hinted) and reason
            move = players[seat].choose(state, rng)
            assert GAME.parse_move(state, GAME.move_notation(state, move), seat) == move
            assert GAME.move_words(state, move)
        for event in state.apply(GAME.decode_move(GAME.encode_move(move))):
            if isinstance(event, TurnEnded):
                said.append(GAME.turn_words(state, event))
            else:
                assert isinstance(event, GameEnded)
    outcome = GAME.outcome(state)
    assert outcome is not None and len(said) == state.turns_taken
    assert GAME.state_from_dict(state.to_dict()) == state
    record = GAME.export_record(state, meta={"table": 1})
    assert GAME.check_record(record)["ok"] is True and GAME.replay_record(record) == state
    figures = [GAME.stats_figures(state, s) for s in range(3)]
    assert sum(f["cards_left"] for f in figures) == sum(state.hand_sizes)
    assert all(f["crashes"] <= f["specials_played"] <= f["cards_played"] for f in figures)
    assert "Stack Up!" in GAME.rules_text() and "snatch bob 2" in rules_text()


def test_stats_figures_count_cards_specials_and_crashes() -> None:
    state = table("R6 R7 Crash B1", "G1 Crash G2", "Y1 Y2", stack="R5")
    from engine.stackup.moves import BLOCK, TAKE, Play

    state.apply(Play((64,)))
    state.apply(BLOCK)
    state.apply(TAKE)
    assert GAME.stats_figures(state, ANN) == {
        "cards_played": 1, "specials_played": 1, "crashes": 1, "cards_drawn": 0, "cards_left": 3,
    }  # fmt: skip
    assert GAME.stats_figures(state, BEN)["crashes"] == 1
    assert GAME.stats_figures(state, 2)["cards_drawn"] == 3


def test_render_shows_the_table_and_only_the_viewers_hand() -> None:
    state = table("R6 R7 B1", "G1 G2", stack="R5", passes=[0, 2], crash=None)
    mine = render_text(state, ANN)
    assert "Red 5, going up" in mine and "Your hand: R6 R7 B1" in mine
    assert "G1" not in mine and "ben: 2 cards · 2 draw passes" in mine
    assert "500 left" in mine and "Draw pile:" in mine
    spectator = render_text(state, None)
    assert "Your hand" not in spectator and "R6" not in spectator


def test_render_shows_a_pending_crash_and_a_drawn_card_to_its_owner_only() -> None:
    state = table("R6 B1", "G1 G2", stack="R5", seat=BEN, crash=BEN)
    assert "Crash penalty" in render_text(state, ANN)
    stuck = table("B9 G2", "G1 G3", stack="R5", pile="Y11")
    from engine.stackup.moves import DRAW

    stuck.apply(DRAW)
    assert "You drew Y11." in render_text(stuck, ANN)
    assert "Y11" not in render_text(stuck, BEN) and "Y11" not in render_text(stuck, None)


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(2, 6), st.integers(0, 150))
def test_render_never_shows_another_players_cards(seed: int, n: int, stop: int) -> None:
    rng = random.Random(seed)
    state = StackUpState(NAMES[:n])
    while not state.is_over and stop:
        if state.decision is Decision.CHANCE:
            state.apply(state.sample_chance(rng))
            continue
        legal = state.legal_moves()
        state.apply(legal[rng.randrange(len(legal))])
        stop -= 1
    public = set(card_names(state.stack_cards)) | {
        name for turn in state.log for name in card_names(turn.cards)
    }
    for viewer in [None, *range(n)]:
        text = render_text(state, viewer)
        own = set(card_names(state.hand(viewer))) if viewer is not None else set()
        if viewer is not None and state.current_player == viewer and state.drawn is not None:
            own.add(card_names((state.drawn,))[0])
        assert set(re.findall(r"\b[RBYG][0-9]+\b", text)) <= own | public


def test_bench_plays_one_game_like_a_host() -> None:
    rng = random.Random(1)
    choose = GAME.make_ai("random").choose
    assert all(play_one(GAME, n, rng, choose) > 0 for n in range(2, 7))
    assert play_one(GAME, 4, random.Random(5), choose) == play_one(
        GAME, 4, random.Random(5), choose
    )
