"""Stack Up!'s expert (SO-ISMCTS, paired or not): it decides only from what its seat sees,
the same way under a node budget, and finds a winning move by search alone."""

from __future__ import annotations

import random

import pytest

from engine.stackup.expert import ExpertPlayer
from engine.stackup.ismcts import IsmctsPlayer
from engine.stackup.moves import Play

from .situations import cards, table
from .test_expert import _midgame, assert_it_decides_only_from_what_its_seat_sees


@pytest.mark.parametrize("paired", [False, True])
def test_positions_differing_only_in_cards_it_cannot_see_get_the_same_decision(
    paired: bool,
) -> None:
    assert_it_decides_only_from_what_its_seat_sees(lambda: IsmctsPlayer(nodes=600, paired=paired))


@pytest.mark.parametrize("paired", [False, True])
def test_under_a_node_budget_the_same_position_and_seed_give_the_same_move(paired: bool) -> None:
    state = _midgame(7)
    before = state.to_dict()
    player = IsmctsPlayer(nodes=600, paired=paired)
    found = {str(player.scores(state, random.Random(2))) for _ in range(3)}
    assert len(found) == 1
    moves = {player.choose(state, random.Random(2)) for _ in range(3)}
    assert len(moves) == 1 and state.is_legal(moves.pop())
    assert state.to_dict() == before


@pytest.mark.parametrize("paired", [False, True])
def test_the_search_alone_plays_a_winning_move(paired: bool) -> None:
    state = table("R6 R7", "G1 G2", stack="R5")
    player = IsmctsPlayer(nodes=300, confidence=None, paired=paired)
    assert player.choose(state, random.Random(0)) == Play(tuple(cards("R6 R7")))


def test_paired_at_depth_one_is_the_current_expert() -> None:
    for seed in range(3):
        state = _midgame(seed, players=2 + seed % 3, turns=(6, 30))
        expert = ExpertPlayer(nodes=400).scores(state, random.Random(seed))
        tree = IsmctsPlayer(nodes=400, depth=1, paired=True).scores(state, random.Random(seed))
        assert expert == tree


def test_a_search_that_is_not_one_is_refused() -> None:
    with pytest.raises(ValueError, match="node budget"):
        IsmctsPlayer(nodes=0)
    with pytest.raises(ValueError, match="depth"):
        IsmctsPlayer(nodes=10, depth=0)
    with pytest.raises(ValueError, match="final"):
        IsmctsPlayer(nodes=10, final="best")


def test_the_expert_level_is_the_paired_search_that_plans_its_own_turns() -> None:
    from engine.stackup.ai import make_ai

    player = make_ai("expert")
    assert isinstance(player, IsmctsPlayer)
    assert player.paired and player.depth == 3 and player.level == "expert"
