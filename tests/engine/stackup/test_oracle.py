"""The omniscient searcher, an upper bound on the expert kept as evidence: it is no level
of the game, and it plays out from the true hands and pile."""

from __future__ import annotations

import random

import pytest

from engine.stackup.expert import unseen_cards
from engine.stackup.game import GAME
from engine.stackup.inference import read_history
from engine.stackup.oracle import OmniscientPlayer, main

from .test_expert import _hidden_cards_dealt_again, _midgame


def test_the_omniscient_player_is_no_level_of_the_game() -> None:
    assert "omniscient" not in GAME.ai_levels
    assert OmniscientPlayer.level not in GAME.ai_levels


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
