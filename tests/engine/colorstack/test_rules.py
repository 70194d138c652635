"""One test per rule of ``colorstack-rules.md`` (A turn, Moving, Stacking, Winning and
ending), each on a position arranged by hand (:mod:`.situations`)."""

from __future__ import annotations

import pytest

from engine.colorstack.moves import Move, Resign, Set
from engine.colorstack.state import ColorStackState
from engine.errors import IllegalMoveError, IllegalReason
from engine.game import Decision, GameEnded, TurnEnded

from .situations import arrange, mv, names, new_game, setf, sq

ROW_2_BLACK = tuple(f"{c}2" for c in "abcdefghi")  # row 1 becomes a corridor

# The rule book's strength table, row: the moving piece m, column: the stack below t.
TABLE = """
1 ✓ ✓ ✓ ✓ ✓ ✗
2 ✗ ✓ ✓ ✓ ✓ ✓
3 ✗ ✗ ✓ ✓ ✓ ✓
4 ✗ ✗ ✗ ✓ ✓ ✓
5 ✗ ✗ ✗ ✗ ✓ ✓
6 ✓ ✗ ✗ ✗ ✗ ✓
"""
CELLS = [
    (int(line[0]), t, mark == "✓")
    for line in TABLE.strip().splitlines()
    for t, mark in enumerate(line.split()[1:], start=1)
]


def reason(state: ColorStackState, move: object, by: int | None = None) -> IllegalReason:
    err = state.refusal(move, by)  # type: ignore[arg-type]
    assert err is not None, f"{move} is legal"
    return err.reason


# ---------------------------------------------------------------------------- stacking


@pytest.mark.parametrize(("m", "t", "allowed"), CELLS, ids=[f"{m}on{t}" for m, t, _ in CELLS])
def test_strength_table_cell_by_cell(m: int, t: int, allowed: bool) -> None:
    # ann's red m on a1 walks m squares along row 1 to ben's blue t
    target = "abcdefghi"[m] + "1"
    state = arrange({"a1": f"R{m}", target: f"B{t}"})
    move = mv(f"a1-{target}")
    assert (move in state.legal_moves()) is allowed
    if not allowed:
        assert reason(state, move) is IllegalReason.TOO_WEAK


def test_six_beats_one_and_only_that() -> None:
    assert mv("a1-g1") in arrange({"a1": "R6", "g1": "B1"}).legal_moves()
    assert mv("a1-b1") not in arrange({"a1": "R1", "b1": "B6"}).legal_moves()
    for t in (2, 3, 4, 5):
        assert mv("a1-g1") not in arrange({"a1": "R6", "g1": f"B{t}"}).legal_moves()


def test_equal_numbers_stack() -> None:
    state = arrange({"a1": "R4", "e1": "B4"})
    state.apply(mv("a1-e1"))
    assert state.stack(sq("e1")) == (1 << 3 | 4, 0 << 3 | 4)
    assert state.owner(sq("e1")) == 0  # the new stack belongs to the mover


def test_colour_rule_no_colour_in_both_stacks() -> None:
    state = arrange({"a1": "Y2", "c1": "B5Y4"}, black=ROW_2_BLACK)
    # yellow onto a stack holding yellow, although yellow is not its top colour
    assert reason(state, mv("a1-c1")) is IllegalReason.SHARED_COLOUR
    err = state.refusal(mv("a1-c1"))
    assert err is not None and "both hold yellow" in str(err)


def test_colour_rule_looks_at_every_die_of_the_moving_stack_too() -> None:
    state = arrange({"a1": "G3R2", "c1": "B5G4"}, black=ROW_2_BLACK)
    assert reason(state, mv("a1-c1")) is IllegalReason.SHARED_COLOUR  # green twice


def test_four_colour_exception_lets_shared_colours_stack_and_win() -> None:
    # red-yellow 2 onto blue-green-red 5: red twice, but all four colours together
    state = arrange({"a1": "R6Y2", "c1": "B3G4R5"}, black=ROW_2_BLACK)
    assert mv("a1-c1") in state.legal_moves()
    events = state.apply(mv("a1-c1"))
    assert events == [TurnEnded(0), GameEnded()]
    outcome = state.outcome()
    assert outcome is not None and outcome.winners == (0,) and outcome.ended_by == "four_colours"
    assert len(state.stack(sq("c1"))) == 5


def test_a_player_may_stack_on_their_own_other_colour() -> None:
    state = arrange({"a1": "R2", "c1": "Y3"}, black=ROW_2_BLACK)
    assert mv("a1-c1") in state.legal_moves()


def test_a_player_may_stack_on_a_stack_holding_both_players_dice() -> None:
    state = arrange({"a1": "R2", "c1": "B5Y3"}, black=ROW_2_BLACK)
    assert mv("a1-c1") in state.legal_moves()


def test_first_turn_stacking_ban_includes_stacking_on_own_dice() -> None:
    state = arrange({"a1": "R2", "c1": "Y3", "e1": "B4"}, turns=0, black=ROW_2_BLACK)
    assert reason(state, mv("a1-c1")) is IllegalReason.FIRST_TURN_STACK  # own yellow
    state2 = arrange({"a1": "R4", "e1": "B4"}, turns=0, black=ROW_2_BLACK)
    assert reason(state2, mv("a1-e1")) is IllegalReason.FIRST_TURN_STACK
    start = new_game()  # the rule book's board: a6-c6 would stack, but not on turn 1
    moves = [m for m in start.legal_moves() if isinstance(m, Move)]
    assert moves and not [m for m in moves if start.stack(m.to)]
    assert reason(start, mv("f1-d1")) is IllegalReason.FIRST_TURN_STACK  # yellow 2 on red 6


def test_first_turn_allows_a_move_to_an_empty_square_and_a_set() -> None:
    state = new_game()
    assert mv("c1-c5") in state.legal_moves()  # the record page's first turn
    assert setf("c1", 1) in state.legal_moves()
    state.apply(mv("c1-c5"))
    assert mv("a6-c6") in state.legal_moves()  # the ban is over on the second turn


def test_the_moving_dice_go_on_top_in_their_order_faces_unchanged() -> None:
    state = arrange({"a1": "G3R2", "c1": "B5"}, black=ROW_2_BLACK, to_move=0)
    state.apply(mv("a1-c1"))
    assert state.stack(sq("c1")) == (1 << 3 | 5, 3 << 3 | 3, 0 << 3 | 2)
    assert state.stack(sq("a1")) == ()


# ---------------------------------------------------------------------------- moving


def test_a_path_has_exactly_n_steps() -> None:
    state = arrange({"e3": "R2"})
    ends = sorted(names(state.destinations(sq("e3"))))
    # two steps: every square at distance 2, never one at distance 1 or 3
    assert ends == sorted(["e5", "e1", "c3", "g3", "d4", "f4", "d2", "f2"])


def test_a_path_may_turn() -> None:
    state = arrange({"a1": "R2"})
    assert mv("a1-b2") in state.legal_moves()  # up then right


def test_a_longer_number_may_wander_to_a_nearer_square() -> None:
    state = arrange({"e3": "R4"})
    assert mv("e3-e5") in state.legal_moves()  # four steps to a square two away


def test_no_square_is_entered_twice() -> None:
    # row 1 a corridor: c1's 4 could reach e1 only by stepping back over a square
    state = arrange({"c1": "R4"}, black=ROW_2_BLACK)
    assert names(state.destinations(sq("c1"))) == ["g1"]
    assert reason(state, mv("c1-e1")) is IllegalReason.NO_PATH


def test_the_start_square_counts_as_passed() -> None:
    # b1-a1-b1-c1 would reach c1 in three steps, through the start: not allowed
    state = arrange({"b1": "R3"}, black=ROW_2_BLACK)
    assert names(state.destinations(sq("b1"))) == ["e1"]
    err = state.refusal(mv("b1-c1"))
    assert err is not None and str(err) == "No path of exactly 3 steps leads from b1 to c1."


def test_a_move_must_end_elsewhere() -> None:
    state = arrange({"e3": "R4"})
    assert reason(state, mv("e3-e3")) is IllegalReason.NO_PATH


def test_no_step_enters_a_black_square() -> None:
    state = arrange({"a1": "R2"}, black=("b1", "a2"))
    assert state.destinations(sq("a1")) == []
    state = new_game()  # the rule book's board: e2 is black
    err = state.refusal(mv("f1-e2"))
    assert err is not None and err.reason is IllegalReason.BLACK_SQUARE
    assert str(err) == "e2 is black."


def test_off_the_board_counts_as_black() -> None:
    state = arrange({"a1": "R1"})
    assert names(state.destinations(sq("a1"))) == ["b1", "a2"]  # in square order


def test_only_the_last_step_may_enter_a_stack() -> None:
    state = arrange({"a1": "R2", "b1": "Y5"}, black=("a2",))
    # a1-b1-c1 would pass over ann's own yellow; a1-a2 is black
    assert reason(state, mv("a1-c1")) is IllegalReason.NO_PATH
    state = arrange({"a1": "R2", "b1": "B5"}, black=("a2",))
    assert reason(state, mv("a1-c1")) is IllegalReason.NO_PATH


def test_a_stack_moves_whole_by_its_top_number() -> None:
    state = arrange({"a1": "B5R1"}, black=ROW_2_BLACK)  # red 1 on ben's blue 5
    assert names(state.destinations(sq("a1"))) == ["b1"]
    state.apply(mv("a1-b1"))
    assert state.stack(sq("b1")) == (1 << 3 | 5, 0 << 3 | 1)


def test_a_stack_belongs_to_its_top_dies_owner() -> None:
    state = arrange({"a1": "R5B1", "e5": "Y3", "h5": "G3"})
    assert state.owner(sq("a1")) == 1
    err = state.refusal(mv("a1-b1"))  # ann to move, ben's blue on top
    assert err is not None and err.reason is IllegalReason.NOT_YOUR_PIECE
    assert str(err) == "a1 is not your piece: its top die is ben's blue 1."
    assert reason(state, setf("a1", 3)) is IllegalReason.NOT_YOUR_PIECE


# ---------------------------------------------------------------------------- a turn


def test_set_turns_a_top_die_to_any_other_number() -> None:
    state = arrange({"a1": "B5R1", "e5": "G3"})
    sets = [m for m in state.legal_moves() if isinstance(m, Set)]
    assert sets == [setf("a1", f) for f in (2, 3, 4, 5, 6)]
    assert reason(state, setf("a1", 1)) is IllegalReason.SAME_FACE
    assert reason(state, setf("a1", 7)) is IllegalReason.NO_SUCH_FACE
    state.apply(setf("a1", 6))
    assert state.stack(sq("a1")) == (1 << 3 | 5, 0 << 3 | 6)  # the die below unchanged


def test_there_is_no_passing_a_player_with_a_piece_always_has_a_set() -> None:
    state = arrange({"a1": "R2", "e5": "G3"}, black=("a2", "b1"))
    assert state.legal_moves() == [setf("a1", f) for f in (1, 3, 4, 5, 6)]


def test_only_the_player_to_move_acts() -> None:
    state = new_game()
    assert reason(state, mv("c1-c5"), by=1) is IllegalReason.NOT_YOUR_TURN


def test_a_player_with_no_piece_is_skipped() -> None:
    # ben's only die is blue 3 on e5; ann's red 2 covers it
    state = arrange({"e3": "R2", "e5": "B3", "a1": "Y4"})
    events = state.apply(mv("e3-e5"))
    assert events == [TurnEnded(0)]
    assert state.current_player == 0 and state.turns == 2  # a skip is not a turn
    assert not state.has_piece(1)
    from engine.colorstack.describe import turn_words

    assert "ben has no piece and is skipped" in turn_words(state, TurnEnded(0))


def test_the_skip_lasts_since_stacks_never_split() -> None:
    # stacks never split, so the skip lasts: ann plays on alone
    state = arrange({"e3": "R2", "e5": "B3", "a1": "Y4"})
    state.apply(mv("e3-e5"))
    state.apply(setf("a1", 5))
    assert state.current_player == 0


# ---------------------------------------------------------------------------- ending


def test_win_on_a_stack_of_all_four_colours() -> None:
    state = arrange({"a1": "R2", "c1": "B5G3Y4"}, black=ROW_2_BLACK)
    state.apply(mv("a1-c1"))
    assert state.decision is Decision.OVER and state.winner == 0
    assert state.legal_moves() == []
    assert reason(state, setf("c1", 3)) is IllegalReason.GAME_OVER


def shuffle_back_and_forth(state: ColorStackState, times: int) -> None:
    """Both players turn a die away and back: the start position recurs every 4 turns."""
    for _ in range(times):
        for action in (setf("a1", 6), setf("a6", 6), setf("a1", 3), setf("a6", 2)):
            state.apply(action)


def test_repetition_a_third_occurrence_draws_the_start_counting_once() -> None:
    state = new_game()
    assert state.repetitions() == 1  # the set-up position, first player to move
    shuffle_back_and_forth(state, 1)
    assert state.repetitions() == 2 and not state.is_over
    for action in (setf("a1", 6), setf("a6", 6), setf("a1", 3)):
        state.apply(action)
    assert not state.is_over
    events = state.apply(setf("a6", 2))  # the start position a third time
    assert events == [TurnEnded(1), GameEnded()]
    outcome = state.outcome()
    assert outcome is not None and outcome.winners == () and outcome.ended_by == "repetition"
    assert state.turns == 8


def test_repetition_counts_the_player_to_move() -> None:
    # the same stacks with the other player to move is another position
    state = new_game()
    state.apply(setf("a1", 6))
    key = state.position_key()
    state.apply(setf("a6", 6))
    state.apply(setf("a1", 3))
    state.apply(setf("a6", 2))
    state.apply(setf("a1", 6))
    assert state.position_key() == key and state.repetitions() == 2


def test_turn_limit_draws_the_game() -> None:
    state = new_game(turn_limit=3)
    state.apply(setf("a1", 6))
    state.apply(setf("a6", 6))
    assert state.turns_left == 1
    events = state.apply(setf("c1", 6))
    assert events == [TurnEnded(0), GameEnded()]
    outcome = state.outcome()
    assert outcome is not None and outcome.winners == () and outcome.ended_by == "turn_limit"


def test_a_win_on_the_last_turn_the_limit_allows_wins() -> None:
    state = arrange({"a1": "R2", "c1": "B5G3Y4"}, black=ROW_2_BLACK, turns=9, turn_limit=10)
    state.apply(mv("a1-c1"))
    assert state.ended_by == "four_colours" and state.winner == 0


def test_repetition_and_the_limit_on_one_turn_is_a_draw_by_repetition() -> None:
    state = new_game(turn_limit=8)
    shuffle_back_and_forth(state, 2)
    assert state.turns == 8 and state.ended_by == "repetition"


def test_either_player_may_resign_at_any_time() -> None:
    for seat in (0, 1):
        state = new_game()
        state.check(Resign(seat), by=seat)  # whoever is to move
        events = state.apply(Resign(seat), by=seat)
        assert events == [GameEnded()]  # resigning is not a turn
        assert state.turns == 0
        outcome = state.outcome()
        assert outcome is not None
        assert outcome.winners == (1 - seat,) and outcome.ended_by == "resignation"


def test_a_player_cannot_resign_for_the_other() -> None:
    state = new_game()
    assert reason(state, Resign(1), by=0) is IllegalReason.NOT_YOUR_TURN
    state.apply(Resign(1), by=1)
    assert reason(state, Resign(0), by=0) is IllegalReason.GAME_OVER


def test_a_refused_action_changes_nothing() -> None:
    state = new_game()
    before = (state.to_dict(), list(state.cells), state.position_key())
    for action in (mv("f1-e2"), mv("a6-a5"), setf("c1", 4), mv("c1-c1")):
        with pytest.raises(IllegalMoveError):
            state.apply(action, by=0)
    assert before == (state.to_dict(), list(state.cells), state.position_key())


def test_nothing_moves_before_the_set_up() -> None:
    state = ColorStackState(("ann", "ben"))
    assert state.decision is Decision.CHANCE and state.current_player is None
    assert state.legal_moves() == []
    assert reason(state, mv("a1-b1")) is IllegalReason.WRONG_DECISION
