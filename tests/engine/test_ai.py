"""AI players: legality, the random player's uniformity, and greedy beating random."""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

from engine.errors import IllegalMoveError, IllegalReason
from engine.simulate import win_rate
from engine.stack.ai import GreedyPlayer, NoMoveError, RandomPlayer, make_ai
from engine.stack.moves import Reroll, Roll, Stack
from tests.engine.situations import B, deal, stack


def test_random_player_is_uniform_over_distinct_legal_moves() -> None:
    state = deal([3, 4, 4], [3, 4, 5], [4, 6, 6])
    moves = state.legal_moves()
    assert len(moves) == len(set(moves))
    rng = random.Random(1)
    counts = Counter(RandomPlayer().choose(state, rng) for _ in range(6000))
    assert set(counts) == set(moves)
    expected = 6000 / len(moves)
    assert all(abs(c - expected) < expected * 0.2 for c in counts.values())


def test_count_and_nth_agree_with_legal_moves() -> None:
    state = deal([3, 4, 4], [3, 4, 5], [4, 6, 6])
    assert [
        state.nth_legal_move(i) for i in range(state.count_legal_moves())
    ] == state.legal_moves()
    with pytest.raises(IndexError):
        state.nth_legal_move(state.count_legal_moves())


def test_greedy_takes_a_capture() -> None:
    state = deal([6, 6, 2], [6, 6, 3], [6, 1, 4])
    stack(state, 6, B)
    stack(state, 6, 0, 2)
    move = GreedyPlayer().choose(state, random.Random(0))
    assert move == Stack(6, B, 3)
    assert "captures" in GreedyPlayer().best(state).reason


def test_ai_has_no_move_at_a_chance_node() -> None:
    state = deal([3], [3])
    stack(state, 3, B)
    with pytest.raises(NoMoveError):
        make_ai("greedy").choose(state, random.Random(0))
    with pytest.raises(ValueError, match="no AI level"):
        make_ai("genius")


def test_greedy_beats_random_clearly() -> None:
    # A small sample keeps the test quick; `python -m engine.simulate` runs 1,000 games.
    assert win_rate(games=40, seed=3) > 0.6


def test_random_move_draws_what_count_and_nth_draw_from_the_same_random_source() -> None:
    state = deal([3, 4, 4], [3, 4, 5], [4, 6, 6])
    for seed in range(40):
        drawn = state.random_move(random.Random(seed))
        rng = random.Random(seed)
        assert drawn == state.nth_legal_move(int(rng.random() * state.count_legal_moves()))


def test_random_move_while_placing_a_rerolled_die_draws_a_target() -> None:
    state = deal([3, 4], [3, 5], [3, 6])
    state.apply(Reroll(4))
    state.apply(Roll(3))  # two piles of 3 can take it: the player chooses
    for seed in range(20):
        assert state.random_move(random.Random(seed)) in state.legal_moves()


def test_a_move_the_state_offered_is_checked_again_once_the_state_changed() -> None:
    state = deal([3, 4], [3, 5])
    offered = state.nth_legal_move(0)
    assert offered == Stack(3, B, 1)
    state.apply(Reroll(4))  # another move: now a die must be rolled
    with pytest.raises(IllegalMoveError) as refused:
        state.apply(offered)
    assert refused.value.reason is IllegalReason.WRONG_DECISION


def test_a_move_the_state_offered_is_refused_to_a_seat_not_to_move() -> None:
    state = deal([3, 4], [3, 5])
    offered = state.random_move(random.Random(0))
    assert offered is not None
    with pytest.raises(IllegalMoveError) as refused:
        state.apply(offered, by=B)
    assert refused.value.reason is IllegalReason.NOT_YOUR_TURN


def test_a_move_listed_at_a_chance_node_is_not_taken_for_an_offer() -> None:
    state = deal([3, 4], [3, 5])
    state.apply(Reroll(4))
    listed = state.nth_legal_move(0)  # the die in the air is not rolled yet
    with pytest.raises(IllegalMoveError) as refused:
        state.apply(listed)
    assert refused.value.reason is IllegalReason.WRONG_DECISION


@pytest.mark.parametrize("players", [2, 3, 4, 6])
def test_play_random_and_play_chance_play_what_pick_random_and_sample_chance_draw(
    players: int,
) -> None:
    """The table loop plays the random AI's decisions by ``play_random`` and chance by
    ``play_chance``: at every point of whole games (house rules on), the same events,
    state and random draws as ``apply(pick_random(rng))`` and ``apply(sample_chance(rng))``."""
    from engine.stack.rules import StackRules
    from engine.stack.state import StackState

    names = ("a", "b", "c", "d", "e", "f")[:players]
    for seed in range(3):
        rules = StackRules(
            target_score=60,
            rolled_two_penalty=seed == 1,
            capture_penalty=seed == 2,
            four_high_bonus=seed == 2,
        )
        state = StackState(names, rules)
        assert state.direct_play(RandomPlayer.choose) == state.play_random
        assert state.direct_play(GreedyPlayer().choose) is None
        rng = random.Random(seed)
        while not state.is_over:
            fast, fast_rng = state.copy(), random.Random()
            fast_rng.setstate(rng.getstate())
            if state.phase.value == "chance":
                events = state.apply(state.sample_chance(rng))
                assert fast.play_chance(fast_rng) == events
            else:
                events = state.apply(RandomPlayer.choose(state, rng))
                assert fast.play_random(fast_rng) == events
            assert fast.to_dict() == state.to_dict()
            assert fast_rng.getstate() == rng.getstate()
    with pytest.raises(NoMoveError):
        state.play_random(random.Random(0))


def _rules(seed: int) -> Any:
    from engine.stack.rules import StackRules

    return StackRules(
        target_score=60,
        rolled_two_penalty=seed % 3 == 1,
        capture_penalty=seed % 3 == 2,
        four_high_bonus=seed % 3 == 2,
    )


def _step_by_step(state: Any, rng: random.Random, limit: int) -> int:
    """The table loop's way: one ``play_chance`` or ``play_random`` at a time, until the
    game is over or ``limit`` decisions are taken with another one due."""
    decisions = 0
    while not state.is_over:
        if state.phase.value == "chance":
            state.play_chance(rng)
        elif decisions == limit:
            break
        else:
            state.play_random(rng)
            decisions += 1
    return decisions


def _twin(state: Any, rng: random.Random) -> tuple[Any, random.Random]:
    twin_rng = random.Random()
    twin_rng.setstate(rng.getstate())
    return state.copy(), twin_rng


@pytest.mark.parametrize("players", [2, 3, 4, 6])
def test_play_out_random_plays_the_table_loops_steps_from_every_point_to_every_limit(
    players: int,
) -> None:
    """The table loop hands a game of random players to ``play_out_random`` (its
    ``direct_play_out``): from every point of whole games (a player's turn, a rerolled die
    to place, the round's last turns, a chance outcome; house rules on) and stopping after
    any number of decisions, the same decisions, state and random draws as playing
    ``play_chance`` and ``play_random`` one step at a time."""
    from engine.stack.state import StackState

    names = ("a", "b", "c", "d", "e", "f")[:players]
    for seed in range(3):
        state = StackState(names, _rules(seed))
        assert state.direct_play_out(RandomPlayer.choose) == state.play_out_random
        assert state.direct_play_out(GreedyPlayer().choose) is None
        rng = random.Random(seed)
        whole, whole_rng = _twin(state, rng)
        assert whole.play_out_random(whole_rng, 1_000_000) == _step_by_step(*_twin(state, rng), -1)
        point = 0
        while not state.is_over:
            for limit in (0, 1, 2, 7, 1_000_000) if point % 5 else (0, 1, 1_000_000):
                fast, fast_rng = _twin(state, rng)
                slow, slow_rng = _twin(state, rng)
                assert fast.play_out_random(fast_rng, limit) == _step_by_step(slow, slow_rng, limit)
                assert fast.to_dict() == slow.to_dict()
                assert fast_rng.getstate() == slow_rng.getstate()
                assert fast.play_out_random(fast_rng, 1_000_000) == _step_by_step(
                    slow, slow_rng, -1
                )
                assert fast.to_dict() == slow.to_dict() == whole.to_dict()
                assert fast_rng.getstate() == slow_rng.getstate() == whole_rng.getstate()
            _step_by_step(state, rng, 1)  # the next point: one decision on
            point += 1


@pytest.mark.parametrize("players", [2, 4, 5])
def test_piles_and_captures_read_at_any_point_are_the_ones_play_made(players: int) -> None:
    """Play keeps no pile's dice: ``piles`` and ``captures`` replay the round's turn log
    when read. Read after every move, read only at a round's end, or read from a copy
    restored mid-round, they agree; their counts are the field's (``targets``), and the
    field's scores are what the piles and captures are worth."""
    from engine.stack.moves import face_value
    from engine.stack.state import StackState

    names = ("a", "b", "c", "d", "e")[:players]
    for seed in range(3):
        rules = _rules(seed)
        watched, unwatched = StackState(names, rules), StackState(names, rules)
        rng, twin_rng = random.Random(seed), random.Random(seed)
        while not watched.is_over:
            _step_by_step(watched, rng, 1)
            _step_by_step(unwatched, twin_rng, 1)
            piles, captures = watched.piles, watched.captures
            restored = StackState.from_dict(watched.to_dict())
            assert restored.piles == piles and restored.captures == captures
            targets = watched.targets
            for (owner, face, height), comps in piles.items():
                assert len(comps) == targets[face].get((owner, height), 0)
                assert all(len(c) == height and c[-1] == owner for c in comps)
            assert sum(len(c) for c in piles.values()) == sum(
                count for by_key in targets for (_, h), count in by_key.items() if h > 1
            )
            scores = list(watched.penalties)
            for (owner, face, _), comps in piles.items():
                scores[owner] += face_value(face) * len(comps)
            for seat, caught in enumerate(captures):
                assert all(len(c) == 4 and c[-1] == seat for _, c in caught)
                for face, _ in caught:
                    scores[seat] += face_value(face) * (2 if rules.four_high_bonus else 1)
            assert watched.field_scores() == scores
            if unwatched.phase.value == "chance" and not unwatched.is_over:
                assert unwatched.to_dict() == watched.to_dict()  # read at the round's end
        assert unwatched.to_dict() == watched.to_dict()
