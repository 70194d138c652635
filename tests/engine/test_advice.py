"""What each legal move achieves (engine.stack.advice), each test naming the rule of
docs/stack-rules.md it follows from."""

from __future__ import annotations

import random

from engine.game import Decision
from engine.stack.advice import Advice, Group, advise, suggestion
from engine.stack.ai import GreedyPlayer, RandomPlayer
from engine.stack.moves import Place, PlayerMove, Reroll, Stack
from engine.stack.rules import StackRules
from engine.stack.state import StackState
from tests.engine.situations import deal, stack


def by_move(state: StackState) -> dict[PlayerMove, Advice]:
    return {a.move: a for a in advise(state)}


def test_a_move_onto_a_three_high_pile_is_a_capture() -> None:
    """Rules, "A round" 4: a pile that reaches height 4 is captured by the player who
    placed the fourth die; "Scoring": a captured pile scores its face for its captor."""
    state = deal([6, 6, 1, 2], [6, 6, 3, 3], [6, 4, 4, 5])
    stack(state, 6, 1)  # alice: a 6 on bob's single 6 (2 high, alice's)
    stack(state, 6, 0, 2)  # bob: a 6 on alice's 2-high pile (3 high, bob's)
    advice = by_move(state)  # carol to move
    capture = advice[Stack(6, 1, 3)]
    assert capture.group is Group.CAPTURE and capture.gain == 6 and capture.loss == 6


def test_a_capture_counts_double_with_the_four_high_bonus() -> None:
    """House rules: ``four_high_bonus`` — a captured pile scores double its face."""
    state = deal([6, 6, 1, 2], [6, 6, 3, 3], [6, 4, 4, 5], four_high_bonus=True)
    stack(state, 6, 1)
    stack(state, 6, 0, 2)
    assert by_move(state)[Stack(6, 1, 3)].gain == 12


def test_a_take_nobody_can_stack_straight_back_on_is_safe() -> None:
    """Rules, "Table": a pile belongs to the owner of its top die; "A round" 3: only a die
    of the same face may go on it — with no such die left to the opponents, the take is
    safe."""
    state = deal([3, 1], [3, 2])
    advice = by_move(state)
    take = advice[Stack(3, 1, 1)]  # bob's only 3 is the one covered
    assert take.group is Group.SAFE and take.gain == 3 and take.loss == 0


def test_a_take_an_opponent_can_stack_back_on_is_exposed() -> None:
    """Rules, "A round" 3: an opponent holding an unstacked die of the same face may stack
    it on the pile and take it back."""
    state = deal([3, 1, 1], [3, 3, 2])
    take = by_move(state)[Stack(3, 1, 1)]  # bob keeps another 3
    assert take.group is Group.EXPOSED


def test_taking_a_two_high_pile_takes_its_points_from_its_owner() -> None:
    """Rules, "Scoring": piles of 2 or 3 score their face for the owner of the top die."""
    state = deal([5, 1, 1], [5, 5, 2])
    stack(state, 5, 1)  # alice: bob's single 5 becomes a 2-high pile of 5s, alice's
    # bob: a 5 on it makes it 3 high and his; alice loses its 5 points, and with no 5
    # left to alice the take is safe
    take = by_move(state)[Stack(5, 0, 2)]
    assert take.gain == 5 and take.loss == 5 and take.group is Group.SAFE


def test_rerolls_are_their_own_group() -> None:
    """Rules, "A round" 3: reroll one of your unstacked dice."""
    state = deal([3, 1], [3, 2])
    rerolls = [a for a in advise(state) if isinstance(a.move, Reroll)]
    assert {a.move for a in rerolls} == {Reroll(3), Reroll(1)}
    assert all(a.group is Group.REROLL for a in rerolls)


def test_covering_an_opponents_last_die_or_going_out_ends_the_round() -> None:
    """Rules, "Two ways to end the round": going out, and stacking on an opponent's last
    unstacked die."""
    state = deal([3, 1], [3, 5])
    assert not by_move(state)[Stack(3, 1, 1)].ends_round  # bob keeps his 5, alice her 1
    out = deal([3], [3])
    assert by_move(out)[Stack(3, 1, 1)].ends_round  # alice goes out and covers bob's last
    cover_last = deal([3, 1], [3, 1])
    stack(cover_last, 1, 1)  # alice: a 1 on bob's single 1 (bob keeps his 3)
    assert by_move(cover_last)[Stack(3, 0, 1)].ends_round  # bob covers alice's last die


def test_the_groups_come_in_order_and_the_greedy_pick_is_suggested_once() -> None:
    """The panel's order (captures, safe takes, exposed takes, rerolls) over random games,
    the placing of a rerolled die too (Rules, "A round" 3: it must go on a pile)."""
    rng = random.Random(4)
    order = list(Group)
    seen: set[Group] = set()
    for _ in range(20):
        state = StackState(["a", "b", "c", "d"], StackRules(dice_per_player=8))
        player = RandomPlayer()
        while not state.is_over:
            if state.decision is Decision.CHANCE:
                state.resolve_chance(rng)
                continue
            advice = advise(state)
            assert [a.move for a in advice] and {a.move for a in advice} == set(state.legal_moves())
            groups = [order.index(a.group) for a in advice]
            assert groups == sorted(groups)
            assert [a.move for a in advice if a.suggested] == [GreedyPlayer().best(state).move]
            assert suggestion(state) == GreedyPlayer().best(state).move
            if state.placing is not None:
                assert all(isinstance(a.move, Place) for a in advice)
            seen.update(a.group for a in advice)
            state.apply(player.choose(state, rng))
    assert seen == set(Group)
