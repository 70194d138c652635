"""Every player can be named (issue 7.15): exact names first, then unique case-blind ones;
``@`` prefixes; names with spaces, digits and markdown; a final number as a height."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.errors import (
    AmbiguousMoveError,
    IllegalMoveError,
    IllegalReason,
    InvalidMoveError,
    InvalidReason,
)
from engine.game import Decision
from engine.stack.moves import Reroll, Roll, RoundDice, Stack
from engine.stack.names import find_players, target_notation
from engine.stack.notation import move_notation, parse_move
from engine.stack.rules import StackRules
from engine.stack.state import StackState
from tests.engine.situations import random_steps


def table(names: list[str], dice: list[list[int]], first: int = 0) -> StackState:
    """A game whose first round has just been rolled: seat i rolled ``dice[i]``."""
    state = StackState(names, StackRules(dice_per_player=len(dice[0])), first=first)
    state.apply(RoundDice(tuple(tuple(d) for d in dice)))
    return state


def test_an_exact_name_wins_over_one_that_differs_only_in_case() -> None:
    state = table(["Bob", "bob", "carl"], [[3, 4], [3, 5], [3, 6]], first=1)
    assert parse_move(state, "stack 3 on Bob", seat=1) == Stack(3, 0, 1)
    state = table(["Bob", "bob", "carl"], [[3, 4], [3, 5], [3, 6]], first=0)
    assert parse_move(state, "stack 3 on bob", seat=0) == Stack(3, 1, 1)


def test_naming_yourself_exactly_is_refused_and_points_at_the_other_spelling() -> None:
    state = table(["Bob", "bob"], [[3, 4], [3, 5]], first=1)
    with pytest.raises(IllegalMoveError) as err:
        parse_move(state, "stack 3 on bob", seat=1)
    assert err.value.reason is IllegalReason.OWN_COLOUR
    assert "Did you mean Bob?" in str(err.value)


def test_a_case_blind_name_is_used_only_when_it_fits_one_player() -> None:
    state = table(["Alice", "bob"], [[3, 4], [3, 5]])
    assert parse_move(state, "stack 3 on BOB") == Stack(3, 1, 1)
    state = table(["carl", "Bob", "BOB"], [[3, 4], [3, 5], [3, 6]])
    with pytest.raises(AmbiguousMoveError) as err:
        parse_move(state, "stack 3 on bob")
    assert set(err.value.candidates) == {Stack(3, 1, 1), Stack(3, 2, 1)}
    assert "'bob' could mean Bob or BOB" in str(err.value)
    assert err.value.choices == ("Bob's single 3", "BOB's single 3")


def test_an_unclear_name_that_fits_no_legal_move_lists_the_players_it_could_mean() -> None:
    state = table(["carl", "Bob", "BOB"], [[3, 4], [5, 5], [6, 6]])
    with pytest.raises(InvalidMoveError) as err:
        parse_move(state, "stack 3 on bob")
    assert err.value.reason is InvalidReason.UNCLEAR_NAME
    assert err.value.names == ("Bob", "BOB")
    assert "'bob' could mean Bob or BOB" in str(err.value)


def test_a_name_that_could_mean_the_mover_too_lists_only_the_others() -> None:
    state = table(["Bob", "bob", "bOB"], [[3, 4], [3, 5], [3, 6]])  # Bob to move
    with pytest.raises(AmbiguousMoveError) as err:
        parse_move(state, "stack 3 on BOB")
    assert str(err.value).startswith("'BOB' could mean bob or bOB. Which one: ")
    with pytest.raises(InvalidMoveError) as unclear:
        parse_move(state, "stack 4 on BOB")
    assert unclear.value.names == ("bob", "bOB")
    assert str(unclear.value) == "'BOB' could mean bob or bOB, and none of them works here."


def test_a_name_that_could_mean_the_mover_and_one_other_asks_about_the_other_alone() -> None:
    state = table(["Bob", "bob", "carl"], [[3, 4, 5], [3, 3, 5], [3, 6, 6]], first=1)
    state.apply(Stack(3, 2, 1))  # bob: a 3 on carl's 3, and a single 3 left
    state.apply(Reroll(6))  # carl: a 6 that has nowhere to go
    state.apply(Roll(6))
    assert state.current == 0  # Bob
    said = {}
    for typed in ("stack 5 on BOB", "stack 3 on BOB", "stack 4 on BOB"):
        with pytest.raises((AmbiguousMoveError, IllegalMoveError)) as err:
            parse_move(state, typed)
        said[typed] = str(err.value)
    assert said["stack 5 on BOB"] == "Did you mean bob's single 5? Type `stack 5 on bob 1`."
    assert said["stack 3 on BOB"] == (  # the height alone would not do: BOB is Bob too
        "Which one: bob's single 3, or bob's 2-high pile of 3s? "
        "Type `stack 3 on bob 1` or `stack 3 on bob 2`."
    )
    assert said["stack 4 on BOB"] == "bob has no pile showing 4."  # bob's own refusal


@pytest.mark.parametrize("text", ["stack 3 on @bob", "stack 3 on @BOB", "stack 3 @bob 1"])
def test_a_leading_at_sign_is_ignored(text: str) -> None:
    state = table(["alice", "bob"], [[3, 4], [3, 5]])
    assert parse_move(state, text) == Stack(3, 1, 1)


@pytest.mark.parametrize(
    "text", ["stack 3 on \u2068שלום עולם\u2069 1", 'stack 3 on "\u2068שלום עולם\u2069"']
)
def test_a_name_copied_with_the_isolates_it_is_shown_in_can_be_named(text: str) -> None:
    """The front ends show a right-to-left name between FSI and PDI; copied from the screen
    with them, it still names its player."""
    state = table(["alice", "שלום עולם"], [[3, 4], [3, 5]])
    assert parse_move(state, text) == Stack(3, 1, 1)


def test_a_player_whose_name_starts_with_an_at_sign_can_be_named() -> None:
    state = table(["alice", "@bob"], [[3, 4], [3, 5]])
    assert parse_move(state, "stack 3 on @bob") == Stack(3, 1, 1)
    assert parse_move(state, "stack 3 on @@bob") == Stack(3, 1, 1)
    state = table(["alice", "@bob", "bob"], [[3, 4], [3, 5], [3, 6]])
    assert parse_move(state, "stack 3 on @bob") == Stack(3, 1, 1)
    assert parse_move(state, "stack 3 on @@bob") == Stack(3, 1, 1)
    assert parse_move(state, "stack 3 on bob") == Stack(3, 2, 1)


def test_an_unknown_name_is_echoed_as_typed() -> None:
    state = table(["alice", "bob"], [[3, 4], [3, 5]])
    with pytest.raises(InvalidMoveError, match="There's no player called 'Zed' at this table"):
        parse_move(state, "stack 3 on Zed")
    with pytest.raises(InvalidMoveError, match="There's no player called 'ZeD' at this table"):
        parse_move(state, "stack 3 on @ZeD")
    with pytest.raises(InvalidMoveError, match="There's no player called 'Zed 2' at this table"):
        parse_move(state, 'stack 3 on "Zed 2"')


@pytest.mark.parametrize(
    "name", ["AI 1", "Bartholomew_the_Great", "*star*", "`tick`", "Zoë Ñ", "名前", "7", "a  b"]
)
def test_names_with_spaces_digits_and_markdown_can_be_named(name: str) -> None:
    state = table(["alice", name], [[3, 4], [3, 5]])
    assert parse_move(state, f"stack 3 on {name}") == Stack(3, 1, 1)
    assert parse_move(state, f"stack 3 on {name} 1") == Stack(3, 1, 1)
    assert parse_move(state, f'stack 3 on "{name}" 1') == Stack(3, 1, 1)


def test_a_final_number_is_a_height_when_the_words_before_it_name_a_player() -> None:
    state = table(["alice", "bob", "bob 2"], [[3, 3], [3, 5], [3, 6]])
    assert parse_move(state, "stack 3 on bob 1") == Stack(3, 1, 1)
    assert parse_move(state, "stack 3 on bob 2 1") == Stack(3, 2, 1)
    assert parse_move(state, 'stack 3 on "bob 2"') == Stack(3, 2, 1)
    assert parse_move(state, 'stack 3 on "bob" 1') == Stack(3, 1, 1)


def bob_and_bob_2(bob_2_dice: list[int]) -> StackState:
    """alice to move with a 2 and a 3; bob owns a 2-high pile of 2s (his 2 on carl's);
    the player called "bob 2" rolled ``bob_2_dice`` (and rerolled a 6 that stayed)."""
    state = table(["alice", "bob", "bob 2", "carl"], [[2, 3], [2, 5], bob_2_dice, [2, 4]], first=1)
    state.apply(Stack(2, 3, 1))  # bob: his 2 on carl's 2
    state.apply(Reroll(6))  # bob 2: a 6 that has nowhere to go
    state.apply(Roll(6))
    state.apply(Reroll(4))  # carl: a 4 that has nowhere to go
    state.apply(Roll(4))
    assert state.current == 0 and state.decision is Decision.TURN
    return state


def test_a_text_that_is_a_name_and_also_a_name_with_a_height_is_never_guessed() -> None:
    state = bob_and_bob_2([2, 6])
    with pytest.raises(AmbiguousMoveError) as err:
        parse_move(state, "stack 2 on bob 2")
    assert set(err.value.candidates) == {Stack(2, 2, 1), Stack(2, 1, 2)}
    assert parse_move(state, "stack 2 on bob 2 1") == Stack(2, 2, 1)
    assert parse_move(state, 'stack 2 on "bob" 2') == Stack(2, 1, 2)
    assert parse_move(state, 'stack 2 on "bob 2"') == Stack(2, 2, 1)


def test_when_only_one_reading_is_legal_the_player_is_asked_to_confirm_it() -> None:
    state = bob_and_bob_2([6, 6])
    with pytest.raises(AmbiguousMoveError) as err:
        parse_move(state, "stack 2 on bob 2")
    assert err.value.candidates == (Stack(2, 1, 2),)
    assert 'Did you mean bob\'s 2-high pile of 2s? Type `stack 2 on "bob" 2`.' in str(err.value)


def test_move_notation_quotes_a_name_only_when_it_would_be_read_otherwise() -> None:
    players = ("alice", "bob", "bob 2", "carl")
    assert target_notation(players, 1, 2) == '"bob" 2'
    assert target_notation(players, 1, 3) == "bob 3"
    assert target_notation(players, 2, 1) == "bob 2 1"
    assert target_notation(players, 3, 1) == "carl 1"
    assert find_players(players, "BOB 2") == [2]


# ---------------------------------------------------------------- every name, every move

TRICKY = [
    "Bob", "bob", "BOB", "@bob", "@@bob", "bob 2", "bob 2 1", "AI 1", "AI 2", "a  b", "a b",
    " spaced ", "Bartholomew_the_Great", "*star*", "`tick`", '"quoted"', "quoted", "on",
    "on fire", "s", "r", "stack", "place", "3", "1 2", "ß", "SS", "ss", "İ", "Zoë", "名前",
]  # fmt: skip
NAMES = st.one_of(
    st.sampled_from(TRICKY),
    st.text(
        st.characters(categories=("L", "N", "P", "S", "Zs"), exclude_characters="\n\r"),
        min_size=1,
        max_size=32,
    ),
).filter(lambda name: bool(name.strip()))


@st.composite
def tables(draw: st.DrawFn) -> StackState:
    """A game between players with awkward, often alike names, some way into a round."""
    base = draw(NAMES)
    family = [base, base.upper(), base.lower(), base.swapcase(), "@" + base, f'"{base}"']
    family += [f"{base} {height}" for height in (1, 2, 3)]
    names = draw(
        st.lists(st.one_of(st.sampled_from(family), NAMES), min_size=2, max_size=8, unique=True)
    )
    rules = StackRules(dice_per_player=draw(st.integers(1, 8)), target_score=30)
    state = StackState(names, rules)
    rng = random.Random(draw(st.integers(0, 2**32)))
    random_steps(state, rng, draw(st.integers(0, 60)))
    if state.decision is Decision.CHANCE:
        state.resolve_chance(rng)
    return state


@settings(max_examples=300, deadline=None)
@given(tables())
def test_every_legal_move_written_in_notation_reads_back_as_that_move(state: StackState) -> None:
    p = state.current
    for move in state.legal_moves():
        assert parse_move(state, move_notation(state, move), seat=p) == move
