"""Words for moves and turns: labels for the mover, and turns every player may read."""

from __future__ import annotations

import random
import re
from dataclasses import replace

from hypothesis import given, settings
from hypothesis import strategies as st

from engine.game import TurnEnded
from engine.stackup.cards import CRASH, FLIP, FREEZE, FULL_DECK, SNATCH, SWITCH, card_names
from engine.stackup.describe import direction_words, logged_turn_words, move_words, turn_words
from engine.stackup.moves import BLOCK, DOWN, DRAW, KEEP, PLAY_DRAWN, TAKE, UP, Deal, Play, Took
from engine.stackup.state import StackUpState
from tests.engine.situations import decisions

from .situations import ANN, BEN, CAT, NAMES, cards, table


def said(state: StackUpState, move: object) -> str:
    """What everyone reads about the turn ``move`` ends."""
    events = state.apply(move)  # type: ignore[arg-type]
    ended = [e for e in events if isinstance(e, TurnEnded)]
    assert len(ended) == 1
    return turn_words(state, ended[0])


def test_a_play_names_its_cards_and_its_bonus() -> None:
    state = table("R6 R7 R8 B1", "G1 G2", "Y1 Y2", stack="R5")
    assert said(state, Play(tuple(cards("R6 R7 R8")), "skip")) == (
        "ann played R6 R7 R8: ben is skipped (stacking bonus)."
    )


def test_a_snatch_says_how_many_cards_not_which() -> None:
    state = table("Snatch B1", "G1 G2 G3 G4", stack="R5")
    state.apply(Play((SNATCH,), target=BEN, count=2))
    words = said(state, Took(tuple(cards("G1 G3"))))
    assert words == "ann played Snatch and took 2 cards from ben."


def test_a_draw_says_a_card_was_drawn_not_which() -> None:
    state = table("B9 G2", "G1 G3", stack="R5", pile="Y11")
    state.apply(DRAW)
    assert said(state, KEEP) == "ann was stuck and drew a card."
    played = table("B9 G2", "G1 G3", stack="R5", pile="R11")
    played.apply(DRAW)
    assert said(played, PLAY_DRAWN) == "ann was stuck, drew a card and played it: R11."


def test_a_take_says_how_many_cards_were_drawn() -> None:
    state = table("R6 B2", "G1 G2", stack="R5", seat=BEN, crash=BEN, pile="B9 B10 B11")
    assert said(state, TAKE) == "ben took the Crash penalty and drew 3 cards."


def test_specials_say_what_they_did() -> None:
    state = table("Freeze Switch Flip B1", "G1 G2", "R6 Y2 Y9", stack="R5")
    assert said(state, Play((FREEZE,))) == "ann played Freeze: ben is skipped."
    assert said(state, Play(tuple(cards("R6")))) == "cat played R6."
    assert said(state, Play((SWITCH,), colour=3)) == "ann played Switch: the colour is now Green."
    assert said(state, Play(tuple(cards("G1")))) == "ben played G1."
    state.apply(Play(tuple(cards("Y2"))))  # cat resets to yellow
    assert said(state, Play((FLIP,))) == "ann played Flip: the stack now goes down."


def test_a_block_says_where_the_penalty_goes() -> None:
    three = table("Crash B1", "G1 Crash", "Y1 Y2", stack="R5")
    three.apply(Play((CRASH,)))
    assert said(three, BLOCK) == "ben blocked the Crash with a Crash: the penalty passes to cat."
    two = table("Crash B1", "G1 Crash", stack="R5")
    two.apply(Play((CRASH,)))
    assert said(two, BLOCK) == "ben blocked the Crash with a Crash: the penalty is cancelled."


def test_a_winning_turn_says_so() -> None:
    state = table("R6", "G1 G2", stack="R5")
    assert said(state, Play(tuple(cards("R6")))) == "ann played R6. ann has no cards left and wins!"


def test_move_words_label_every_kind_of_move() -> None:
    state = table("R6 R7 R8 B1 Flip Freeze Snatch Switch Crash", "G1 G2 G3 G4", "Y1", stack="R5")
    labels = {move_words(state, m) for m in state.legal_moves()}
    assert {
        "R6 R7 R8 + a draw pass",
        "R6 R7 R8 + skip ben",
        "Flip (the stack goes down)",
        "Freeze (skip ben)",
        "Snatch 2 cards from ben",
        "Switch to Blue",
        "Crash (ben must block or take 3)",
    } <= labels
    assert len(labels) == len(state.legal_moves())
    _ = (ANN, CAT)


@settings(max_examples=60, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(2, 6))
def test_turn_words_never_name_a_hidden_card(seed: int, n: int) -> None:
    rng = random.Random(seed)
    state = StackUpState(NAMES[:n])
    for _ in decisions(state, rng):
        legal = state.legal_moves()
        labels = [move_words(state, m) for m in legal]
        assert len(set(labels)) == len(labels), labels
        for event in state.apply(legal[rng.randrange(len(legal))]):
            if isinstance(event, TurnEnded):
                # the same words whatever the hidden cards were
                turn = state.log[-1]
                blank = replace(turn, drew=(0,) * len(turn.drew), took=(0,) * len(turn.took))
                words = turn_words(state, event)
                assert words.startswith(logged_turn_words(state, blank, len(state.log) - 1))
                named = set(re.findall(r"\b[RBYG][0-9]+\b", words))
                assert named <= set(card_names(turn.cards))


def test_a_winning_crash_announces_no_penalty() -> None:
    state = table("Crash", "G1 G2", "Y1 Y2", stack="R5")
    assert said(state, Play((CRASH,))) == "ann played Crash. ann has no cards left and wins!"


def test_a_winning_block_passes_nothing_on() -> None:
    three = table("R6 B1", "Crash", "Y1 Y2", stack="R5", seat=BEN, crash=BEN)
    assert (
        said(three, BLOCK) == "ben blocked the Crash with a Crash. ben has no cards left and wins!"
    )
    two = table("R6 B1", "Crash", stack="R5", seat=BEN, crash=BEN)
    assert said(two, BLOCK) == "ben blocked the Crash with a Crash. ben has no cards left and wins!"


def test_the_turn_the_limit_ends_announces_nothing_pending() -> None:
    skip = table("R6 R7 R8 B1", "G1 G2", "Y1 Y2", stack="R5", turn_limit=1)
    assert said(skip, Play(tuple(cards("R6 R7 R8")), "skip")) == "ann played R6 R7 R8."
    crash = table("Crash B1", "G1 G2", "Y1 Y2", stack="R5", turn_limit=1)
    assert said(crash, Play((CRASH,))) == "ann played Crash."


def test_the_two_player_bonus_skip_says_who_plays_again() -> None:
    state = table("R6 R7 R8 B1", "G1 G2", stack="R5")
    assert said(state, Play(tuple(cards("R6 R7 R8")), "skip")) == (
        "ann played R6 R7 R8: ann plays again."
    )
    freeze = table("Freeze B1", "G1 G2", stack="R5")
    assert said(freeze, Play((FREEZE,))) == "ann played Freeze: ann plays again."


def test_the_first_players_direction_is_told_to_everyone() -> None:
    state = StackUpState(NAMES[:3])
    assert direction_words(state) is None
    state.apply(Deal(tuple(FULL_DECK), BEN))
    assert direction_words(state) is None
    state.apply(UP)
    assert direction_words(state) == "ben chose to go up (1 → 15)."
    other = StackUpState(NAMES[:2])
    other.apply(Deal(tuple(FULL_DECK), ANN))
    other.apply(DOWN)
    assert direction_words(other) == "ann chose to go down (15 → 1)."
