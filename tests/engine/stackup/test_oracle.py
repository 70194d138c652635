"""The oracles, upper bounds on the expert kept as evidence: no level of the game; the
omniscient searcher plays out from the true hands and pile, the hand reader from the true
hands and the pile's cards shuffled, with the sampling search or the level's own tree."""

from __future__ import annotations

import random

import pytest

from engine.stackup.expert import unseen_cards
from engine.stackup.game import GAME
from engine.stackup.inference import read_history
from engine.stackup.ismcts import IsmctsPlayer
from engine.stackup.oracle import HandReader, OmniscientPlayer, main, make_oracle

from .test_expert import _hidden_cards_dealt_again, _midgame


def test_the_oracles_are_no_level_of_the_game() -> None:
    assert "omniscient" not in GAME.ai_levels
    assert OmniscientPlayer.level not in GAME.ai_levels
    assert HandReader.level not in GAME.ai_levels


def test_the_omniscient_player_plays_out_from_the_true_hands_and_pile() -> None:
    state = _midgame(4)
    me = state.current_player
    assert me is not None
    lacks, runs = read_history(state, me)
    dealt = OmniscientPlayer(nodes=100).deal(
        state, me, unseen_cards(state, me), random.Random(1), lacks, runs
    )
    assert dealt.hands == state.hands and dealt.pile == state.pile
    assert dealt is not state


def test_the_omniscient_player_decides_on_the_cards_the_expert_cannot_see() -> None:
    differing = 0
    for seed in range(4):
        state = _midgame(seed, players=2, turns=(6, 30))
        other = _hidden_cards_dealt_again(state, random.Random(seed + 99))
        mine = OmniscientPlayer(nodes=300, horizon=1).scores(state, random.Random(seed))
        theirs = OmniscientPlayer(nodes=300, horizon=1).scores(other, random.Random(seed))
        differing += mine != theirs
    assert differing >= 3


def test_the_oracle_command_prints_a_share_of_wins(capsys: pytest.CaptureFixture[str]) -> None:
    main(["--players", "2", "--games", "2", "--nodes", "50", "--horizon", "1"])
    assert "won" in capsys.readouterr().out


def test_the_hand_reader_plays_out_from_the_true_hands_and_the_piles_cards_shuffled() -> None:
    state = _midgame(4)
    me = state.current_player
    assert me is not None
    lacks, runs = read_history(state, me)
    unseen = unseen_cards(state, me)
    orders = set()
    for seed in range(4):
        dealt = HandReader(nodes=100).deal(state, me, unseen, random.Random(seed), lacks, runs)
        assert dealt.hands == [sorted(h) for h in state.hands]
        assert sorted(dealt.pile) == sorted(state.pile)
        orders.add(tuple(dealt.pile))
    assert len(orders) > 1  # shuffled anew by each deal's random source


def test_the_tree_oracle_is_the_levels_search_dealing_from_its_reader() -> None:
    """``--search tree``: the expert level's own search, every deal the reader's, so it
    decides on the hands the fair expert cannot see."""
    oracle = make_oracle("hands", "tree", 300, None)
    assert isinstance(oracle, IsmctsPlayer) and isinstance(oracle._dealer, HandReader)
    differing = 0
    for seed in range(4):
        state = _midgame(seed, players=2, turns=(6, 30))
        other = _hidden_cards_dealt_again(state, random.Random(seed + 99))
        mine = make_oracle("hands", "tree", 300, None).scores(state, random.Random(seed))
        theirs = make_oracle("hands", "tree", 300, None).scores(other, random.Random(seed))
        differing += mine != theirs
    assert differing >= 3


def test_an_oracle_of_unknown_reading_or_search_is_refused() -> None:
    with pytest.raises(ValueError, match="reads 'all' or 'hands'"):
        make_oracle("pile", "flat", 100, None)
    with pytest.raises(ValueError, match="'flat' or 'tree'"):
        make_oracle("all", "deep", 100, None)


def test_the_oracle_command_reads_the_hands_with_the_tree(
    capsys: pytest.CaptureFixture[str],
) -> None:
    main(
        ["--players", "2", "--games", "2", "--nodes", "50", "--reads", "hands", "--search", "tree"]
    )
    out = capsys.readouterr().out
    assert "oracle reading the hands (tree search, nodes 50, horizon 1)" in out and "won" in out
