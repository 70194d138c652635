"""One test per rule of docs/stack-rules.md, on hand-built situations.

Test names follow the rule book's sections: table, first player, a round, ending the
round, scoring, winning, team play, house rules, and what a screen makes moot.
"""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from engine.errors import IllegalMoveError, IllegalReason
from engine.game import Decision
from engine.stack.moves import Place, Reroll, Roll, RollOff, RoundDice, Stack, face_value
from engine.stack.rules import HouseRules, StackRules, TeamSizeError, seat_teams, teams_adjacent
from engine.stack.state import SetupError, StackState
from tests.engine.situations import NAMES, A, B, C, D, deal, reroll, stack

# ---------------------------------------------------------------- table


def test_table_seats_two_to_eight_players() -> None:
    StackState(NAMES[:2])
    StackState(NAMES[:8])
    with pytest.raises(SetupError, match="2 to 8 players"):
        StackState(NAMES[:1])
    with pytest.raises(SetupError, match="2 to 8 players"):
        StackState([*NAMES, "ivan"])


def test_table_each_player_owns_dice_per_player_dice_of_one_colour() -> None:
    state = StackState(NAMES[:3], StackRules(dice_per_player=5), first=0)
    state.apply(RoundDice(((1, 2, 3, 4, 5), (6, 6, 6, 6, 6), (1, 1, 2, 2, 3))))
    assert [state.single_total[s] for s in range(3)] == [5, 5, 5]
    with pytest.raises(IllegalMoveError, match="exactly 5 dice"):
        fresh = StackState(NAMES[:2], StackRules(dice_per_player=5), first=0)
        fresh.apply(RoundDice(((1, 2, 3, 4), (1, 2, 3, 4, 5))))


def test_table_dice_per_player_defaults_to_fourteen() -> None:
    assert StackRules().dice_per_player == 14


def test_pile_of_one_die_is_an_unstacked_die_of_its_owner() -> None:
    state = deal([3, 4], [3, 5])
    assert state.unstacked(A) == {3: 1, 4: 1}
    assert (A, 1) in state.targets[3]


def test_pile_belongs_to_the_owner_of_its_top_die() -> None:
    state = deal([3, 4], [3, 5])
    stack(state, 3, B)
    assert state.pile_counts() == [(A, 3, 2, 1)]
    assert state.pile_compositions() == [(3, (B, A))]


# ---------------------------------------------------------------- first player


def test_first_player_highest_roll_wins_the_roll_off() -> None:
    state = StackState(NAMES[:3])
    assert state.chance_kind == "rolloff"
    state.apply(RollOff((2, 5, 4)))
    assert state.first == B


def test_first_player_roll_off_one_ranks_highest() -> None:
    state = StackState(NAMES[:3])
    state.apply(RollOff((6, 1, 5)))
    assert state.first == B


def test_first_player_ties_roll_again_among_themselves() -> None:
    state = StackState(NAMES[:4])
    state.apply(RollOff((1, 3, 1, 6)))
    assert state.contenders == (A, C)
    assert state.first is None
    with pytest.raises(IllegalMoveError):
        state.apply(RollOff((2, 3, 4, 5)))  # only the tied players roll again
    state.apply(RollOff((4, 4)))
    assert state.contenders == (A, C)
    state.apply(RollOff((2, 5)))
    assert state.first == C
    assert state.chance_kind == "dice"


def test_later_rounds_start_with_the_next_seat_clockwise() -> None:
    state = deal([3], [3], [5], first=C)
    assert state.current == C
    reroll(state, 5, 6)  # no target
    stack(state, 3, B)  # alice goes out and covers bob's last die
    reroll(state, 6, 4)  # carol's last turn
    assert state.chance_kind == "dice"
    state.apply(RoundDice(((1,), (2,), (3,))))
    assert state.first == A and state.current == A
    assert state.history[1]["first"] == A


# ---------------------------------------------------------------- a round


def test_round_every_player_rolls_all_their_dice() -> None:
    state = deal([1, 1, 6], [2, 3, 4], [5, 5, 5])
    assert state.unstacked(A) == {1: 2, 6: 1}
    assert state.unstacked(B) == {2: 1, 3: 1, 4: 1}
    assert state.unstacked(C) == {5: 3}
    assert state.pile_counts() == [] and all(not c for c in state.captures)


def test_round_turns_go_clockwise_from_the_first_player() -> None:
    state = deal([1, 2], [3, 4], [5, 6], first=B)
    order = []
    for _ in range(3):
        order.append(state.current)
        p = state.current
        assert p is not None
        face = next(iter(state.unstacked(p)))
        reroll(state, face, face)  # rolls the same face: no other player holds it
    assert order == [B, C, A]


def test_stack_puts_own_die_on_another_players_pile_showing_the_same_face() -> None:
    state = deal([3, 4], [3, 5], [6, 6])
    assert Stack(3, B, 1) in state.legal_moves()
    stack(state, 3, B)
    assert state.unstacked(A) == {4: 1}
    assert state.unstacked(B) == {5: 1}
    assert state.pile_counts() == [(A, 3, 2, 1)]


def test_stack_needs_the_same_face() -> None:
    state = deal([3, 4], [5, 5])
    with pytest.raises(IllegalMoveError, match="bob has no unstacked 3"):
        state.apply(Stack(3, B, 1))


def test_stack_only_on_piles_one_to_three_high() -> None:
    state = deal([3, 4], [3, 5])
    with pytest.raises(IllegalMoveError, match="1 to 3 dice high"):
        state.apply(Stack(3, B, 4))


def test_stack_never_directly_on_own_colour() -> None:
    state = deal([3, 3], [3, 5])
    with pytest.raises(IllegalMoveError, match="own colour") as err:
        state.apply(Stack(3, A, 1))
    assert err.value.reason is IllegalReason.OWN_COLOUR
    assert all(not (isinstance(m, Stack) and m.owner == A) for m in state.legal_moves())


def test_stack_several_own_dice_in_one_pile_if_not_directly_on_each_other() -> None:
    state = deal([3, 3, 6], [3, 3, 5], [1, 2, 4])
    stack(state, 3, B)  # (bob, alice)
    stack(state, 3, A, 2)  # (bob, alice, bob): bob's second die, not on his own
    reroll(state, 4, 4)  # carol: no 4 elsewhere, stays
    stack(state, 3, B, 3)  # alice captures (bob, alice, bob, alice)
    assert state.captures[A] == [(3, (B, A, B, A))]


def test_reroll_rolls_one_of_your_unstacked_dice() -> None:
    state = deal([3, 4], [5, 6])
    state.apply(Reroll(4))
    assert state.chance_kind == "roll"
    assert state.unstacked(A) == {3: 1}
    state.apply(Roll(1))  # no 1 on the field: stays unstacked with the new face
    assert state.unstacked(A) == {1: 1, 3: 1}
    assert state.history[-1]["turns"][-1] == ("reroll", A, 4, 1, None, None)


def test_reroll_must_stack_when_a_target_exists() -> None:
    state = deal([3, 4], [5, 6])
    reroll(state, 4, 6)  # bob's 6 is the only target: the die must go there
    assert state.pile_counts() == [(A, 6, 2, 1)]
    assert state.unstacked(A) == {3: 1}
    assert state.current == B


def test_reroll_player_chooses_among_several_targets() -> None:
    state = deal([3, 4], [5, 6], [6, 1])
    state.apply(Reroll(4))
    state.apply(Roll(6))
    assert state.placing is not None
    assert state.placing == 6
    assert set(state.legal_moves()) == {Place(B, 1), Place(C, 1)}
    with pytest.raises(IllegalMoveError):
        state.apply(Stack(3, B, 1))  # the rerolled die must be placed first
    state.apply(Place(C, 1))
    assert state.pile_counts() == [(A, 6, 2, 1)]
    assert state.unstacked(C) == {1: 1}


def test_reroll_without_target_stays_unstacked() -> None:
    state = deal([3, 4], [5, 6])
    reroll(state, 4, 2)
    assert state.unstacked(A) == {2: 1, 3: 1}
    assert state.pile_counts() == []


def test_there_is_no_passing() -> None:
    state = deal([3, 4], [5, 6])
    moves = state.legal_moves()
    assert moves and {Reroll(3), Reroll(4)} <= set(moves)


def test_player_with_no_unstacked_dice_is_skipped() -> None:
    # bob covers alice's last die; in the last turns carol covers dave's last die, so
    # dave (and alice) are skipped and the round ends after carol's turn.
    state = deal([1, 5], [5, 2], [3, 4], [1, 3])
    stack(state, 1, D)
    stack(state, 5, A)
    assert state.current == C
    stack(state, 3, D)
    assert state.round_scores == [[10, 5, 3, 0]]


def test_capture_a_pile_that_reaches_four() -> None:
    state = deal([6, 6], [6, 6], [6, 1])
    stack(state, 6, B)  # (b, a)
    stack(state, 6, A, 2)  # (b, a, b)
    stack(state, 6, B, 3)  # (b, a, b, c): carol captures
    assert state.captures[C] == [(6, (B, A, B, C))]
    assert state.pile_counts() == []


def test_stack_on_a_teammates_die_is_allowed() -> None:
    players = seat_teams(["alice", "carol", "bob", "dave"])  # alice & carol vs bob & dave
    rules = StackRules(dice_per_player=2, teams=(("alice", "carol"), ("bob", "dave")))
    state = StackState(players, rules, first=0)
    state.apply(RoundDice(((3, 4), (5, 6), (3, 1), (2, 2))))
    assert Stack(3, 2, 1) in state.legal_moves()  # seat 2 is carol, alice's teammate
    stack(state, 3, 2)


# ---------------------------------------------------------------- ending the round


def test_going_out_gives_every_other_player_one_more_turn() -> None:
    state = deal([3, 5], [3, 4], [5, 6])
    stack(state, 3, B)
    reroll(state, 4, 6)  # forced onto carol's 6: bob has no unstacked die: out
    assert state.in_last_turns and state.current == C
    reroll(state, 5, 1)  # carol's last turn
    assert state.current == A
    reroll(state, 5, 2)  # alice's last turn
    assert state.round_scores == [[3, 6, 0]]


def test_last_turns_go_clockwise_from_the_player_who_moved() -> None:
    state = deal([3], [2], [4], [5], first=B)
    reroll(state, 2, 6)  # bob: no 6 anywhere, stays
    reroll(state, 4, 1)  # carol: stays
    reroll(state, 5, 6)  # dave's last die goes on bob's last die: both out
    owed = [s for s in (state.last_turns or []) if state.single_total[s]]
    assert [state.current, *owed] == [A, C]


def test_stacking_on_an_opponents_last_die_puts_both_out() -> None:
    state = deal([1, 5], [5, 2], [3, 4], [1, 3])
    stack(state, 1, D)
    stack(state, 5, A)  # bob covers alice's last die while he still has a 2
    assert state.in_last_turns
    assert state.current == C  # clockwise from bob
    assert B not in (state.last_turns or [])  # bob is out although he has a die
    assert state.unstacked(B) == {2: 1}


def test_when_both_endings_apply_the_second_applies() -> None:
    state = deal([4], [4], [5])
    stack(state, 4, B)  # alice goes out AND covers bob's last die
    assert state.current == C and state.in_last_turns
    reroll(state, 5, 6)
    assert state.round_scores == [[4, 0, 0]]


def test_last_turns_nothing_ends_the_round_early() -> None:
    state = deal([3, 5], [3, 4], [5, 6])
    stack(state, 3, B)
    reroll(state, 4, 6)  # bob out
    stack(state, 5, A)  # carol covers alice's last die: does not end the round again
    assert state.round_scores == [[3, 6, 5]]  # alice, covered, is skipped: round over


def test_last_turns_player_covered_before_their_turn_is_skipped() -> None:
    state = deal([1, 5], [5, 2], [3, 4], [1, 3])
    stack(state, 1, D)
    stack(state, 5, A)
    stack(state, 3, D)  # dave was owed a turn but has no die left
    assert state.decision is Decision.CHANCE and len(state.round_scores) == 1


def test_round_is_over_when_nobody_is_owed_a_turn() -> None:
    state = deal([3], [3])
    stack(state, 3, B)
    assert state.round_scores == [[3, 0]]
    assert state.chance_kind == "dice"


# ---------------------------------------------------------------- scoring


def test_scoring_piles_of_two_or_three_score_for_the_top_owner() -> None:
    state = deal([5, 5, 2], [5, 6, 6], [6, 6, 3])
    stack(state, 5, B)  # (b, a) 5s: alice
    stack(state, 6, C)  # (c, b) 6s: bob
    stack(state, 6, B, 2)  # (c, b, c) 6s: carol
    assert state.field_scores() == [5, 0, 6]


def test_scoring_captured_pile_scores_for_its_captor() -> None:
    state = deal([6, 6], [6, 6], [6, 1])
    stack(state, 6, B)
    stack(state, 6, A, 2)
    stack(state, 6, B, 3)
    assert state.field_scores() == [0, 0, 6]


def test_scoring_unstacked_dice_score_nothing() -> None:
    state = deal([1, 1, 1], [6, 6, 6])
    assert state.field_scores() == [0, 0]


def test_scoring_a_pile_is_worth_its_face_and_a_one_is_worth_ten() -> None:
    assert [face_value(f) for f in range(1, 7)] == [10, 2, 3, 4, 5, 6]
    state = deal([1], [1])
    stack(state, 1, B)
    assert state.round_scores == [[10, 0]]


def test_scoring_round_scores_add_to_running_totals_which_may_go_below_zero() -> None:
    state = deal([4], [5], rolled_two_penalty=True)
    reroll(state, 4, 2)  # alice rolls a 2: -1, stays unstacked
    reroll(state, 5, 2)  # bob rolls a 2: -1, must go on alice's last die
    assert state.round_scores == [[-1, 1]]
    assert state.totals == [-1, 1]
    state.apply(RoundDice(((3,), (3,))))
    state.apply(Stack(3, A, 1))  # bob starts round 2
    assert state.totals == [-1, 4]


# ---------------------------------------------------------------- winning


def test_winning_a_total_at_target_ends_the_game_highest_wins() -> None:
    state = deal([3], [3], target_score=3)
    stack(state, 3, B)
    assert state.is_over and state.winner == (A,)
    with pytest.raises(IllegalMoveError, match="over") as err:
        state.apply(RoundDice(((1,), (1,))))
    assert err.value.reason is IllegalReason.GAME_OVER


def test_winning_below_target_the_game_goes_on() -> None:
    state = deal([3], [3], target_score=4)
    stack(state, 3, B)
    assert not state.is_over and state.chance_kind == "dice"


def test_winning_tie_break_extra_round_plays_on_until_broken() -> None:
    state = deal([3], [3], target_score=3)
    state.totals = [0, 3]
    stack(state, 3, B)  # 3 - 3 at the target: tied
    assert not state.is_over and state.chance_kind == "dice"
    state.apply(RoundDice(((2,), (2,))))
    state.apply(Stack(2, A, 1))  # bob starts round 2 and scores 2
    assert state.is_over and state.winner == (B,)


def test_winning_tie_break_shared_is_a_joint_victory() -> None:
    state = deal([3], [3], target_score=3, tie_break="shared")
    state.totals = [0, 3]
    stack(state, 3, B)
    assert state.is_over and state.winner == (A, B)


# ---------------------------------------------------------------- team play


def test_team_play_seats_teammates_apart() -> None:
    for k in range(2, 5):
        players = [f"p{i}" for i in range(2 * k)]
        seated = seat_teams(players)
        pairs = tuple((players[2 * t], players[2 * t + 1]) for t in range(k))
        assert not teams_adjacent(seated, pairs)


def test_team_play_needs_an_even_number_of_players_at_least_four() -> None:
    with pytest.raises(TeamSizeError):
        seat_teams(["a", "b"])
    with pytest.raises(TeamSizeError):
        seat_teams(["a", "b", "c", "d", "e"])
    with pytest.raises(SetupError, match="next to each other"):
        StackState(["a", "b", "c", "d"], StackRules(teams=(("a", "b"), ("c", "d"))))


def test_team_play_score_is_the_sum_of_members_and_both_win() -> None:
    players = seat_teams(["alice", "carol", "bob", "dave"])
    assert players == ("alice", "bob", "carol", "dave")
    rules = StackRules(
        dice_per_player=1, target_score=10, teams=(("alice", "carol"), ("bob", "dave"))
    )
    state = StackState(players, rules, first=0)
    state.totals = [2, 5, 4, 0]  # alice & carol 6, bob & dave 5
    state.apply(RoundDice(((3,), (3,), (6,), (2,))))
    stack(state, 3, B)  # alice +3, covers bob's last die: carol and dave get a turn
    reroll(state, 6, 5)
    reroll(state, 2, 4)
    assert state.side_totals() == {(A, C): 9, (B, D): 5}
    assert not state.is_over
    state.apply(RoundDice(((4,), (4,), (1,), (1,))))
    stack(state, 4, A)  # bob +4: bob & dave 9
    reroll(state, 1, 1)  # carol's 1 lands on dave's 1: carol +10
    assert state.is_over and state.winner == (A, C)


# ---------------------------------------------------------------- house rules


def test_house_rules_defaults_and_ranges() -> None:
    rules = HouseRules()
    assert (rules.target_score, rules.dice_per_player, rules.tie_break) == (200, 14, "extra_round")
    assert not (rules.four_high_bonus or rules.capture_penalty or rules.rolled_two_penalty)
    assert not rules.teams
    for bad in (
        {"dice_per_player": 0},
        {"dice_per_player": 31},
        {"target_score": 0},
        {"tie_break": "coin"},
        {"four_high_bonus": "yes"},
        {"colour": "red"},
    ):
        with pytest.raises(ValidationError):
            HouseRules.model_validate(bad)


def test_house_rules_teams_switch_makes_non_adjacent_pairs() -> None:
    seated = seat_teams(["a1", "a2", "b1", "b2", "c1", "c2"])
    rules = HouseRules(teams=True).for_players(seated)
    assert rules.teams == (("a1", "a2"), ("b1", "b2"), ("c1", "c2"))
    StackState(seated, rules)


def test_four_high_bonus_doubles_a_captured_pile() -> None:
    state = deal([6, 6], [6, 6], [6, 1], four_high_bonus=True)
    stack(state, 6, B)
    stack(state, 6, A, 2)
    stack(state, 6, B, 3)
    assert state.field_scores() == [0, 0, 12]


def test_capture_penalty_every_other_player_loses_one_point() -> None:
    state = deal([6, 6], [6, 6], [6, 1], capture_penalty=True)
    stack(state, 6, B)
    stack(state, 6, A, 2)
    stack(state, 6, B, 3)
    assert state.field_scores() == [-1, -1, 6]


def test_rolled_two_penalty_counts_in_the_round_it_happens() -> None:
    state = deal([4, 3], [5, 6], rolled_two_penalty=True)
    reroll(state, 4, 2)
    assert state.field_scores() == [-1, 0]
    off = deal([4, 3], [5, 6])
    reroll(off, 4, 2)
    assert off.field_scores() == [0, 0]


# ---------------------------------------------------------------- moot on a screen


def test_out_of_turn_move_is_refused_and_changes_nothing() -> None:
    state = deal([3, 4], [3, 5])
    before = state.to_dict()
    with pytest.raises(IllegalMoveError, match="It's alice's turn") as err:
        state.apply(Stack(3, A, 1), by=B)
    assert err.value.reason is IllegalReason.NOT_YOUR_TURN
    assert state.to_dict() == before


def test_illegal_moves_are_refused_and_change_nothing() -> None:
    state = deal([3, 4], [3, 5])
    before = state.to_dict()
    for move in (Stack(6, B, 1), Stack(3, B, 2), Reroll(6), Place(B, 1), Roll(3), Stack(3, 7, 1)):
        with pytest.raises(IllegalMoveError):
            state.apply(move)
        assert not state.is_legal(move)
        assert state.to_dict() == before


def test_moves_round_trip_through_json() -> None:
    import json

    from engine.stack.moves import move_from_json, move_to_json

    moves = [
        Stack(3, 1, 2),
        Reroll(4),
        Place(2, 1),
        Roll(6),
        RoundDice(((1, 2), (3, 4))),
        RollOff((1, 6, 6)),
    ]
    for move in moves:
        assert move_from_json(json.loads(json.dumps(move_to_json(move)))) == move
    for bad in (None, [], ["stack", 9, 9, 9], ["jump", 1], "stack"):
        with pytest.raises(ValueError):
            move_from_json(bad)
