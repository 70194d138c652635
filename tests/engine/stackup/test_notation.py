"""The typed notation: every form, its errors, and the round trip of every legal move."""

from __future__ import annotations

import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine import errors
from engine.echo import cut
from engine.stackup import moves
from engine.stackup.cards import CRASH, FLIP, FREEZE, FULL_DECK, SNATCH, SWITCH
from engine.stackup.notation import move_notation, parse_move
from engine.stackup.state import StackUpState
from tests.engine.situations import decisions

from .situations import ANN, BEN, CAT, NAMES, p, play, table


@pytest.mark.parametrize(
    ("text", "move"),
    [
        ("r6", p("R6")),
        ("R6 r7", p("R6 R7")),
        ("  r6   R7  r8 skip ", p("R6 R7 R8", "skip")),
        ("R6, R7, R8 PASS", p("R6 R7 R8", "pass")),
        ("play r6", p("R6")),
        ("flip", moves.Play((FLIP,))),
        ("FREEZE", moves.Play((FREEZE,))),
        ("crash", moves.Play((CRASH,))),
        ("switch blue", moves.Play((SWITCH,), colour=1)),
        ("switch B", moves.Play((SWITCH,), colour=1)),
        ("Switch green", moves.Play((SWITCH,), colour=3)),
        ("snatch ben 2", moves.Play((SNATCH,), target=BEN, count=2)),
        ("snatch @Ben 3", moves.Play((SNATCH,), target=BEN, count=3)),
        ("snatch be 1", moves.Play((SNATCH,), target=BEN, count=1)),
        ("snatch cat", moves.Play((SNATCH,), target=CAT, count=1)),  # cat holds 3: only 1 allowed
        ('snatch "cat" 1', moves.Play((SNATCH,), target=CAT, count=1)),
    ],
)
def test_a_turns_plays_are_typed_by_name(text: str, move: moves.Play) -> None:
    state = table(
        "R6 R7 R8 R9 Flip Freeze Crash Switch Snatch", "G1 G2 G3 G4", "Y1 Y2 Y3", stack="R5"
    )
    assert parse_move(state, text, ANN) == move


def test_a_combo_of_three_without_its_bonus_lists_both() -> None:
    state = table("R6 R7 R8 B1", "G1 G2", stack="R5")
    with pytest.raises(errors.AmbiguousMoveError) as err:
        parse_move(state, "r6 r7 r8", ANN)
    assert err.value.candidates == (p("R6 R7 R8", "pass"), p("R6 R7 R8", "skip"))
    assert "`R6 R7 R8 pass` or `R6 R7 R8 skip`" in str(err.value)
    assert parse_move(state, "r6 r7 r8 pass") == p("R6 R7 R8", "pass")


def test_a_winning_combo_needs_no_bonus() -> None:
    state = table("R6 R7 R8", "G1 G2", stack="R5")
    assert parse_move(state, "r6 r7 r8", ANN) == p("R6 R7 R8")
    with pytest.raises(errors.IllegalMoveError) as err:
        parse_move(state, "r6 r7 r8 skip", ANN)
    assert err.value.reason is errors.IllegalReason.EXTRA_CHOICE


def test_switch_and_snatch_without_their_choices_list_the_options() -> None:
    state = table("Switch Snatch R9", "G1 G2 G3 G4", "Y1", stack="R5")
    with pytest.raises(errors.AmbiguousMoveError) as err:
        parse_move(state, "switch", ANN)
    assert [m.colour for m in err.value.candidates] == [1, 2, 3]  # type: ignore[attr-defined]
    with pytest.raises(errors.AmbiguousMoveError) as err:
        parse_move(state, "snatch ben", ANN)
    assert [m.count for m in err.value.candidates] == [1, 2, 3]  # type: ignore[attr-defined]
    with pytest.raises(errors.AmbiguousMoveError):
        parse_move(state, "snatch", ANN)
    with pytest.raises(errors.IllegalMoveError) as illegal:
        parse_move(state, "snatch cat 1", ANN)
    assert illegal.value.reason is errors.IllegalReason.BAD_CHOICE
    with pytest.raises(errors.IllegalMoveError):
        parse_move(state, "switch red", ANN)


def test_an_unclear_or_unknown_name_is_not_guessed() -> None:
    state = table("G1 G2", "Y1 Y2", "Snatch R9", seat=2, players=("bob", "bobby", "al"))
    assert parse_move(state, "snatch bob 1") == moves.Play((SNATCH,), target=0, count=1)
    assert parse_move(state, "snatch bobb 1") == moves.Play((SNATCH,), target=1, count=1)
    with pytest.raises(errors.AmbiguousMoveError):
        parse_move(state, "snatch bo 1")
    with pytest.raises(errors.InvalidMoveError) as err:
        parse_move(state, "snatch zed 1")
    assert err.value.reason is errors.InvalidReason.UNKNOWN_PLAYER


@pytest.mark.parametrize("typed", ["snatch zed 2", "snatch @zed 2", 'snatch "zed" 2'])
def test_an_unknown_name_is_echoed_without_the_count_typed_after_it(typed: str) -> None:
    state = table("G1 G2", "Y1 Y2", "Snatch R9", seat=2, players=("bob", "bobby", "al"))
    with pytest.raises(errors.InvalidMoveError) as err:
        parse_move(state, typed)
    assert "no player called 'zed' at this table" in str(err.value), str(err.value)


LOOK_ALIKES = ("bob", "Bob", "al")


def test_a_name_typed_exactly_names_that_player_beside_a_look_alike() -> None:
    state = table("G1 G2", "Y1 Y2 Y3 Y4", "Snatch R9", seat=2, players=LOOK_ALIKES)
    assert parse_move(state, 'snatch "Bob" 1') == moves.Play((SNATCH,), target=1, count=1)
    assert parse_move(state, "snatch Bob 2") == moves.Play((SNATCH,), target=1, count=2)
    assert parse_move(state, "snatch bob 1") == moves.Play((SNATCH,), target=0, count=1)
    assert parse_move(state, "snatch @bob") == moves.Play((SNATCH,), target=0, count=1)


def test_a_name_that_fits_look_alikes_asks_with_commands_that_read_back() -> None:
    state = table("G1 G2", "Y1 Y2", "Snatch R9", seat=2, players=LOOK_ALIKES)
    with pytest.raises(errors.AmbiguousMoveError) as err:
        parse_move(state, "snatch BOB 1")
    assert "Type `snatch bob 1` or `snatch Bob 1`." in str(err.value)
    for move in err.value.candidates:
        assert parse_move(state, move_notation(state, move)) == move


def test_a_name_that_fits_look_alikes_is_read_when_only_one_of_them_is_legal() -> None:
    state = table("G1 G2", "Y1", "Snatch R9", seat=2, players=LOOK_ALIKES)  # Bob holds 1
    assert parse_move(state, "snatch BOB 1") == moves.Play((SNATCH,), target=0, count=1)
    assert parse_move(state, 'snatch "BOB"') == moves.Play((SNATCH,), target=0, count=1)


def test_a_name_and_count_that_is_also_a_name_asks_which_player_is_meant() -> None:
    """With bob and "bob 2" at the table, ``snatch bob 2`` is two cards from bob, or a
    Snatch from "bob 2" with its count left out: both are legal, so the player is asked
    (it was read as bob's two cards without a word)."""
    state = table("G1 G2 G3 G4", "Y1 Y2 Y3 Y4", "Snatch R9", seat=2, players=("bob", "bob 2", "al"))
    with pytest.raises(errors.AmbiguousMoveError) as err:
        parse_move(state, "snatch bob 2")
    assert "could mean bob 2 or bob" in str(err.value)
    assert moves.Play((SNATCH,), target=0, count=2) in err.value.candidates
    assert moves.Play((SNATCH,), target=1, count=1) in err.value.candidates
    for move in err.value.candidates:
        assert parse_move(state, move_notation(state, move)) == move
    # a count for "bob 2" too: one reading only
    assert parse_move(state, "snatch bob 2 1") == moves.Play((SNATCH,), target=1, count=1)


def test_a_name_whose_count_is_left_out_asks_how_many_when_it_is_the_only_reading() -> None:
    state = table("G1 G2", "Y1 Y2 Y3 Y4", "Snatch R9", seat=2, players=("bob", "bob 2", "al"))
    with pytest.raises(errors.AmbiguousMoveError) as err:  # bob holds 2: not 2 from him
        parse_move(state, "snatch bob 2")
    assert "How many cards" in str(err.value)
    assert {m.target for m in err.value.candidates} == {1}  # type: ignore[attr-defined]


def test_a_name_that_holds_quotes_is_named_as_it_is() -> None:
    """A display name may hold double quotes (``"x"``): ``snatch "x" 1`` names that
    player (it was read as a quoted ``x``, which nobody is called, and refused)."""
    state = table("G1 G2", "Y1 Y2 Y3 Y4", "Snatch R9", seat=2, players=('"x"', "bob", "al"))
    assert parse_move(state, 'snatch "x" 1') == moves.Play((SNATCH,), target=0, count=1)
    assert move_notation(state, moves.Play((SNATCH,), target=0, count=1)) == 'snatch "x" 1'


def test_a_snatch_nobody_could_play_says_why_before_weighing_the_names() -> None:
    players = ("bot1", "bot2", "al")
    state = table("G1 G2", "Y1 Y2", "R9 B7", seat=2, players=players)
    with pytest.raises(errors.IllegalMoveError) as err:
        parse_move(state, "snatch bot 1")
    assert str(err.value) == "You hold no Snatch."
    crashed = table("G1 G2", "Y1 Y2", "Snatch B7", seat=2, crash=2, players=players)
    with pytest.raises(errors.IllegalMoveError) as err:
        parse_move(crashed, "snatch bot 1")
    assert str(err.value).startswith("A Crash penalty is on you")


@pytest.mark.parametrize(
    ("text", "words"),
    [
        ("up down", "`up` takes nothing after it."),
        ("block now", "`block` takes nothing after it."),
        ("take 3", "`take` takes nothing after it."),
        ("keep it", "`keep` takes nothing after it."),
        ("draw 1", "`draw` takes nothing after it."),
        ("flip now", "`flip` takes nothing after it."),
        ("r6 up", "`up` is said alone, never with cards."),
        ("r6 play", "`play` comes first, as in `play r7`."),
        (
            "G10 G9 G8 skip skip",
            "`skip` can only be said once, at the end of a play of 3 or more cards "
            "(as in `r7 r8 r9 skip`).",
        ),
        (
            "r6 pass r7",
            "`pass` can only be said once, at the end of a play of 3 or more cards "
            "(as in `r7 r8 r9 pass`).",
        ),
    ],
)
def test_a_command_word_with_words_it_does_not_take_is_named_not_suggested(
    text: str, words: str
) -> None:
    state = table("R6 R7 Flip", "G1 G2", stack="R5")
    with pytest.raises(errors.InvalidMoveError) as err:
        parse_move(state, text, ANN)
    assert str(err.value) == words
    assert err.value.reason is errors.InvalidReason.NOT_A_MOVE


def test_play_under_a_crash_penalty_answers_with_the_penalty() -> None:
    state = table("R6 Crash", "G1 G2", stack="R5", crash=ANN)
    with pytest.raises(errors.IllegalMoveError) as err:
        parse_move(state, "play", ANN)
    assert str(err.value) == (
        "A Crash penalty is on you: block it with a Crash or take 3 cards, and nothing else."
    )
    free = table("R6 Crash", "G1 G2", stack="R5")
    with pytest.raises(errors.IllegalMoveError) as err:
        parse_move(free, "play", ANN)
    assert "name the cards to play" in str(err.value)


def test_a_drawn_card_is_refused_in_one_phrasing() -> None:
    state = table("B9 G2", "G1 G3", stack="R5", pile="R6")
    play(state, moves.DRAW)
    said = "You were stuck and drew a card: `play` plays it alone, `keep` keeps it."
    for text in ("b9", "play b9", "flip"):
        with pytest.raises(errors.IllegalMoveError) as err:
            parse_move(state, text)
        assert str(err.value) == said, text
    refusal = state.refusal(p("B9"))
    assert refusal is not None
    assert str(refusal) == "You were stuck and drew a card: play it alone, or keep it."


def test_under_a_crash_block_or_take() -> None:
    state = table("R6 Crash", "G1 G2", stack="R5", crash=ANN)
    assert parse_move(state, "block", ANN) == moves.BLOCK
    assert parse_move(state, "crash", ANN) == moves.BLOCK
    assert parse_move(state, "Take", ANN) == moves.TAKE
    with pytest.raises(errors.IllegalMoveError) as err:
        parse_move(state, "r6", ANN)
    assert err.value.reason is errors.IllegalReason.WRONG_DECISION


def test_stuck_turns_are_typed_pass_and_draw() -> None:
    state = table("B9 G2", "G1 G3", stack="R5", passes=[1, 0])
    assert parse_move(state, "pass") == moves.USE_PASS
    with pytest.raises(errors.IllegalMoveError):
        parse_move(state, "draw")
    state = table("B9 G2", "G1 G3", stack="R5")
    assert parse_move(state, "draw") == moves.DRAW


def test_a_drawn_card_is_played_or_kept() -> None:
    state = table("B9 G2", "G1 G3", stack="R5", pile="R6")
    play(state, moves.DRAW)
    assert parse_move(state, "play") == moves.PLAY_DRAWN
    assert parse_move(state, "R6") == moves.PLAY_DRAWN
    assert parse_move(state, "keep") == moves.KEEP
    with pytest.raises(errors.IllegalMoveError) as err:
        parse_move(state, "b9")
    assert err.value.reason is errors.IllegalReason.WRONG_DECISION


def test_a_drawn_special_takes_its_choice() -> None:
    state = table("B9 G2", "G1 G3", stack="R5", pile="Switch")
    play(state, moves.DRAW)
    with pytest.raises(errors.IllegalMoveError) as err:
        parse_move(state, "play switch red")
    assert err.value.reason is errors.IllegalReason.BAD_CHOICE
    assert parse_move(state, "play switch blue") == moves.PlayDrawn(colour=1)
    assert parse_move(state, "play yellow") == moves.PlayDrawn(colour=2)
    assert parse_move(state, "switch g") == moves.PlayDrawn(colour=3)
    with pytest.raises(errors.AmbiguousMoveError) as asked:
        parse_move(state, "play")
    assert str(asked.value).startswith("Which colour: play the drawn Switch to Blue, or play")
    assert asked.value.choices[0] == "Play the drawn Switch to Blue"  # a button's words
    snatch = table("B9 G2", "G1 G3", stack="R5", pile="Snatch")
    play(snatch, moves.DRAW)
    assert parse_move(snatch, "play snatch ben 1") == moves.PlayDrawn(target=BEN, count=1)
    assert parse_move(snatch, "play ben") == moves.PlayDrawn(target=BEN, count=1)


def test_the_first_player_types_up_or_down() -> None:
    state = StackUpState(NAMES[:2])
    state.apply(moves.Deal(tuple(FULL_DECK), 0))
    assert parse_move(state, "UP", ANN) == moves.UP and parse_move(state, "down") == moves.DOWN
    with pytest.raises(errors.IllegalMoveError) as err:
        parse_move(state, "flip", ANN)
    assert "`up`" in str(err.value)


def test_a_question_the_moment_refuses_every_answer_to_is_not_asked() -> None:
    """A bare `snatch` or `switch` before the direction (or under a Crash penalty) gets
    the moment's refusal, not a list of Snatches or colours that would all be refused."""
    state = StackUpState(NAMES[:3])
    state.apply(moves.Deal(tuple(FULL_DECK), 0))
    for text in ("snatch", "switch", "play snatch"):
        with pytest.raises(errors.IllegalMoveError) as err:
            parse_move(state, text, ANN)
        assert str(err.value).startswith("First choose the direction"), text
    crashed = table("R6 Crash Snatch Switch", "G1 G2 G3", "B1 B2", stack="R5", crash=ANN)
    for text in ("snatch", "switch"):
        with pytest.raises(errors.IllegalMoveError) as err:
            parse_move(crashed, text, ANN)
        assert str(err.value).startswith("A Crash penalty is on you"), text
    free = table("R6 Crash Snatch Switch", "G1 G2 G3", "B1 B2", stack="R5")
    with pytest.raises(errors.AmbiguousMoveError):  # a real question: asked
        parse_move(free, "snatch", ANN)


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("", errors.InvalidReason.EMPTY),
        ("   ", errors.InvalidReason.EMPTY),
        ("r6 " * 60, errors.InvalidReason.TOO_LONG),
        ("r16", errors.InvalidReason.BAD_CARD),
        ("x7 r6", errors.InvalidReason.NOT_A_MOVE),
        ("flpi", errors.InvalidReason.UNKNOWN_WORD),
        ("hello there", errors.InvalidReason.NOT_A_MOVE),
        ("switch purple", errors.InvalidReason.NOT_A_MOVE),
        ("snatch nobody 1", errors.InvalidReason.UNKNOWN_PLAYER),
    ],
)
def test_text_that_is_no_move_says_how_to_type_one(text: str, reason: errors.InvalidReason) -> None:
    state = table("R6 R7 Flip Snatch", "G1 G2", stack="R5")
    with pytest.raises(errors.InvalidMoveError) as err:
        parse_move(state, text, ANN)
    assert err.value.reason is reason
    if reason is errors.InvalidReason.UNKNOWN_WORD:
        assert err.value.suggestion == "flip"


def test_moves_the_rules_refuse_say_why() -> None:
    state = table("R6 B7 Flip", "G1 G2", stack="R5")
    for text, reason in (
        ("g1", errors.IllegalReason.CARD_NOT_HELD),
        ("b7", errors.IllegalReason.NOT_ON_STACK),
        ("r6 flip", errors.IllegalReason.BAD_COMBO),
        ("take", errors.IllegalReason.WRONG_DECISION),
        ("up", errors.IllegalReason.WRONG_DECISION),
    ):
        with pytest.raises(errors.IllegalMoveError) as err:
            parse_move(state, text, ANN)
        assert err.value.reason is reason, text
    with pytest.raises(errors.IllegalMoveError) as err:
        parse_move(state, "r6", BEN)
    assert err.value.reason is errors.IllegalReason.NOT_YOUR_TURN


# ------------------------------------------------------------------------ round trips


def random_position(seed: int, n: int, names: tuple[str, ...] = NAMES) -> StackUpState:
    """A random game stopped at a random decision of a player."""
    rng = random.Random(seed)
    state = StackUpState(names[:n])
    stop = rng.randrange(120)
    for decided, _ in enumerate(decisions(state, rng)):
        if decided >= stop:
            break
        legal = state.legal_moves()
        state.apply(legal[rng.randrange(len(legal))])
    return state


@settings(max_examples=150, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(2, 6))
def test_every_legal_move_reads_back_from_its_notation(seed: int, n: int) -> None:
    state = random_position(seed, n)
    for move in state.legal_moves():
        text = move_notation(state, move)
        assert parse_move(state, text, state.current_player) == move, text


TRICKY = ("bob", "bob 2", "Bobby", "@al", "al", "Zoë Ann")
CASE_ALIKE = ("bob", "Bob", "BOB 2", "bob  2", "@Al", "al")  # equal but for case or spacing
# names that hold quotes, which also mark a quoted name in a move
QUOTED = ('"x"', "x", '"bob" 2', "bob", "“al”", "al 1")


@settings(max_examples=150, deadline=None)
@given(st.integers(0, 2**32 - 1), st.integers(2, 6), st.sampled_from([TRICKY, CASE_ALIKE, QUOTED]))
def test_notation_reads_back_with_names_that_look_alike(
    seed: int, n: int, names: tuple[str, ...]
) -> None:
    state = random_position(seed, n, names)
    for move in state.legal_moves():
        text = move_notation(state, move)
        assert parse_move(state, text, state.current_player) == move, text


# ------------------------------------------------------------------------ anything typed

WORDS = st.sampled_from(
    ["r7", "R8", "g15", "r16", "flip", "switch", "snatch", "crash", "block", "take", "pass",
     "skip", "play", "keep", "draw", "up", "down", "blue", "b", "ben", "@ann", '"cat"', "2",
     "0", "99999999999", "3", ",", "²", "\n"]
)  # fmt: skip


@settings(max_examples=400, deadline=None)
@given(
    st.integers(0, 2**16),
    st.integers(2, 6),
    st.text(max_size=60) | st.lists(WORDS, max_size=6).map(" ".join),
)
def test_anything_typed_raises_only_the_three_errors(seed: int, n: int, text: str) -> None:
    state = random_position(seed, n)
    before = state.to_dict()
    try:
        move = parse_move(state, text, state.current_player)
    except (errors.InvalidMoveError, errors.IllegalMoveError, errors.AmbiguousMoveError):
        pass
    else:
        assert state.is_legal(move)
    assert state.to_dict() == before


def test_a_snatch_count_too_big_is_refused_as_typed_not_as_a_cap() -> None:
    """``snatch ben 99999999999999`` was refused as "…not 1000.", a count the player never
    typed; the refusal names the count typed, cut short as any echo is when very long."""
    state = table("Snatch R9", "G1 G2 G3 G4", "Y1 Y2 Y3", stack="R5")
    with pytest.raises(errors.IllegalMoveError) as err:
        parse_move(state, "snatch ben 99999999999999", ANN)
    assert str(err.value) == (
        "From ben (4 cards) a Snatch takes 1, 2 or 3 cards, not 99999999999999."
    )
    with pytest.raises(errors.IllegalMoveError) as err:
        parse_move(state, "snatch ben 1001", ANN)
    assert str(err.value).endswith(", not 1001.")
    with pytest.raises(errors.IllegalMoveError) as err:
        parse_move(state, "snatch ben " + "12345" * 16, ANN)
    assert str(err.value).endswith(f", not {cut('12345' * 16)}.")


def isolated(name: str) -> str:
    """A right-to-left name as a front end shows it (catalog.isolate's form)."""
    return "\u2068" + name + "\u2069"


def test_a_snatch_names_its_target_as_the_front_end_shows_it_and_reads_back() -> None:
    players = ("שלום", "bob", "al")
    state = table("G1 G2", "Y1 Y2 Y3 Y4", "Snatch R9", seat=2, players=players)
    for target in (0, 1):
        move = moves.Play((SNATCH,), target=target, count=1)
        shown = move_notation(state, move, isolated)
        assert shown == f"snatch {isolated(players[target])} 1"
        assert parse_move(state, shown) == move
    assert move_notation(state, moves.Play((SNATCH,), target=0, count=1)) == "snatch שלום 1"
