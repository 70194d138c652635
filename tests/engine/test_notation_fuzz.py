"""The parser never raises anything but its three errors (issue 7.12), on any text at any
point of any game; a refusal changes nothing, fits a Discord message, and echoes at most
40 characters of what was typed."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine.errors import AmbiguousMoveError, IllegalMoveError, InvalidMoveError
from engine.game import Decision
from engine.stack.notation import parse_move
from engine.stack.state import StackState
from tests.engine.situations import any_rules, random_steps

DISCORD_LIMIT = 2_000
ECHO_LIMIT = 40
MAX_NAME = 32  # Discord display names are at most 32 characters

NAMES = st.one_of(
    st.sampled_from(["Bob", "bob", "@bob", "bob 2", "AI 1", "Bartholomew_the_Great", "ß", "SS"]),
    st.text(st.characters(exclude_categories=("Cs", "Cc")), min_size=1, max_size=MAX_NAME),
).filter(lambda name: bool(name.strip()))


@st.composite
def tables(draw: st.DrawFn) -> StackState:
    """Any game: 2-8 players with awkward names, any rules, stopped at a random point."""
    names = draw(st.lists(NAMES, min_size=2, max_size=8, unique=True))
    state = StackState(names, any_rules(draw, most_dice=30, highest_target=60))
    rng = random.Random(draw(st.integers(0, 2**32)))
    random_steps(state, rng, draw(st.integers(0, 150)))
    if draw(st.booleans()) and state.decision is Decision.CHANCE:
        state.resolve_chance(rng)
    return state


FACES = st.one_of(
    st.sampled_from(["3", "03", "0", "7", "-1", "²", "٣", "³", "3.0", "x", "", "on", "1" * 4301]),
    st.integers(-10, 10**6).map(str),
    st.text(max_size=6),
)
WORDS = st.sampled_from(
    ["stack", "s", "reroll", "r", "roll", "place", "on", "STACK", "Reroll", "stak", "rerol",
     "plase", "", "@", "help", "stack3", "s3"]
)  # fmt: skip
JUNK = st.text(max_size=8)


@st.composite
def moves_typed(draw: st.DrawFn, state: StackState) -> str:
    """Text that looks like a move: a command word, a face, ``on``, a name, a height."""
    name = draw(st.one_of(st.sampled_from(state.players), NAMES, JUNK))
    name = draw(
        st.sampled_from(
            [name, name.upper(), name.lower(), "@" + name, "@@" + name, f'"{name}"', name * 3]
        )
    )
    parts = [
        draw(WORDS),
        draw(FACES),
        draw(st.sampled_from(["on", "ON", "", "on on"])),
        name,
        draw(st.one_of(st.just(""), FACES)),
    ]
    spaces = st.sampled_from([" ", "  ", "\t", "", "\x00", "\u00a0", "\n"])
    return "".join(part + draw(spaces) for part in parts) + draw(JUNK)


def check_parse(state: StackState, text: str, seat: int | None) -> None:
    """The move is legal for the seat, or one of the three errors; the state is unchanged."""
    before = state.to_dict()
    try:
        move = parse_move(state, text, seat)
    except (InvalidMoveError, IllegalMoveError, AmbiguousMoveError) as err:
        message = str(err)
        assert 0 < len(message) <= DISCORD_LIMIT
        typed = text.strip()
        for i in range(len(typed) - ECHO_LIMIT):
            assert typed[i : i + ECHO_LIMIT + 1] not in message
        if isinstance(err, AmbiguousMoveError):
            assert err.candidates and all(state.is_legal(m) for m in err.candidates)
            assert len(err.choices) == len(err.candidates)
    else:
        assert seat is None or seat == state.current
        assert move in state.legal_moves()
    assert state.to_dict() == before


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(tables(), st.text(), st.data())
def test_any_text_is_a_legal_move_or_one_of_three_refusals(
    state: StackState, text: str, data: st.DataObject
) -> None:
    seat = data.draw(st.one_of(st.none(), st.integers(0, state.n - 1)))
    check_parse(state, text, seat)


@settings(max_examples=600, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(tables(), st.data())
def test_any_move_like_text_is_a_legal_move_or_one_of_three_refusals(
    state: StackState, data: st.DataObject
) -> None:
    text = data.draw(moves_typed(state))
    check_parse(state, text, data.draw(st.one_of(st.none(), st.just(state.current))))


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(tables(), st.text(min_size=1, max_size=10), st.integers(1, 20_000), st.data())
def test_huge_input_is_refused_within_a_message(
    state: StackState, piece: str, times: int, data: st.DataObject
) -> None:
    head = data.draw(st.sampled_from(["", "stack 3 on ", "reroll ", "place on ", "s"]))
    check_parse(state, head + piece * times, state.current)
