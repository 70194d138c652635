"""Stack's expert: a sampled search over the dice, deterministic under a node budget."""

from __future__ import annotations

import random

import pytest

from engine.budget import Budget, Sampled, pick
from engine.stack.ai import NoMoveError, make_ai
from engine.stack.expert import WON, ExpertPlayer, evaluate
from engine.stack.game import StackGame
from engine.stack.moves import Stack
from tests.engine.situations import A, B, C, deal, random_steps, stack


def _midgame(seed: int) -> object:
    state = deal([1, 2, 3, 4, 5], [2, 3, 4, 5, 6], [1, 3, 5, 6, 6], [2, 2, 4, 4, 1])
    random_steps(state, random.Random(seed), 6)
    state.resolve_chance(random.Random(seed))
    return state


def test_the_expert_is_a_thinking_level_of_stack() -> None:
    game = StackGame()
    assert game.ai_levels == ("random", "greedy", "expert")
    assert game.thinking_levels == ("expert",)
    assert make_ai("expert").level == "expert"


def test_under_a_node_budget_the_same_position_and_seed_give_the_same_move() -> None:
    for seed in range(3):
        state = _midgame(seed)
        moves = {ExpertPlayer(nodes=300).choose(state, random.Random(seed)) for _ in range(3)}
        assert len(moves) == 1
        assert state.is_legal(moves.pop())


def test_the_search_leaves_the_position_unchanged() -> None:
    state = _midgame(4)
    before = state.to_dict()
    ExpertPlayer(nodes=200).choose(state, random.Random(1))
    assert state.to_dict() == before


def test_the_expert_takes_a_capture() -> None:
    state = deal([6, 6, 2], [6, 6, 3], [6, 1, 4])
    stack(state, 6, B)
    stack(state, 6, A, 2)
    assert ExpertPlayer(nodes=400).choose(state, random.Random(0)) == Stack(6, B, 3)


def test_the_evaluation_counts_the_race_and_a_won_game_beyond_any_field() -> None:
    state = deal([6, 6, 2], [6, 6, 3], [6, 1, 4])
    stack(state, 6, B)  # A tops a pile of two sixes (+6)
    assert evaluate(state, A) > 0 > evaluate(state, C)
    over = deal([1, 2, 3], [4, 5, 6], [1, 3, 5], target_score=5)
    random_steps(over, random.Random(2), 10_000)
    assert over.is_over and over.winner is not None
    for seat in range(3):
        assert evaluate(over, seat) == (WON if seat in over.winner else -WON)


def test_a_node_budget_is_a_count_of_moves_not_a_time() -> None:
    budget = Budget(nodes=10)
    budget.spend(9)
    assert not budget.spent
    budget.spend(1)
    assert budget.spent
    with pytest.raises(ValueError, match="node budget"):
        ExpertPlayer(nodes=0)
    with pytest.raises(ValueError, match="seconds"):
        ExpertPlayer(budget=0)


def test_the_expert_has_no_move_at_a_chance_node() -> None:
    state = deal([3], [3])
    stack(state, 3, B)
    with pytest.raises(NoMoveError):
        ExpertPlayer(nodes=10).choose(state, random.Random(0))


def test_a_sampled_move_overrules_the_greedy_one_only_by_a_clear_lead() -> None:
    ranked = [Sampled("bold", 0.9, 0.4), Sampled("greedy", 0.8, 0.0)]
    assert pick(ranked, "greedy", 0.5) == "greedy"
    assert pick([Sampled("bold", 0.9, 2.0), *ranked[1:]], "greedy", 0.5) == "bold"


def test_even_the_smallest_node_budget_compares_the_moves_over_two_rounds() -> None:
    state = _midgame(2)
    sampled, _ = ExpertPlayer(nodes=1).scores(state, random.Random(3))
    assert len(sampled) == len(state.legal_moves())
    assert any(s.lead != 0 for s in sampled)  # a spread: two rounds were played
