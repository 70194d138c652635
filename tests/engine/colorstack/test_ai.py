"""Color Stack's AI players: random (uniform over legal actions) and greedy (win now,
never hand the opponent a win, then threats and colours), with hints."""

from __future__ import annotations

import random

import pytest

from engine.colorstack.ai import GreedyPlayer, NoMoveError, RandomPlayer, make_ai
from engine.colorstack.moves import Move, Resign

from .situations import arrange, mv, new_game

CORRIDOR = tuple(f"{c}2" for c in "abcdefghi")


def test_random_plays_uniformly_among_legal_sets_and_moves() -> None:
    state = new_game()
    legal = state.legal_moves()
    rng = random.Random(1)
    seen = {RandomPlayer().choose(state, rng) for _ in range(3000)}
    assert seen == set(legal)  # every legal action, never a resignation
    assert not any(isinstance(m, Resign) for m in seen)


@pytest.mark.parametrize("board", ["light", "heavy"])
def test_random_draws_as_a_choice_from_the_legal_moves(board: str) -> None:
    # the random player counts the legal moves instead of listing them: the same draws
    # from the RNG and the same move as rng.choice(legal_moves()), in every position met
    from engine.colorstack.rules import ColorStackSettings
    from engine.colorstack.state import ColorStackState

    for seed in range(12):
        rng = random.Random(seed)
        state = ColorStackState(("ann", "ben"), ColorStackSettings(board=board))
        state.set_up(rng)
        while not state.is_over:
            fresh = state.copy()  # nothing listed in it yet
            fresh._legal_key = None
            mine, theirs = random.Random(seed), random.Random(seed)
            choice = RandomPlayer().choose(fresh, mine)
            assert choice == theirs.choice(state.legal_moves())
            assert mine.getstate() == theirs.getstate()
            fresh.apply(choice, by=fresh.to_move)  # accepted as legal
            state.apply(choice, by=state.to_move)
            assert fresh.position_key() == state.position_key()


def test_greedy_wins_when_it_can() -> None:
    state = arrange({"a1": "R2", "c1": "B5G3Y4", "i6": "B1"}, black=CORRIDOR)
    move, reason = GreedyPlayer().hint(state)
    assert move == mv("a1-c1")
    assert reason == "a1-c1 wins now: it makes a stack of all four colours on c1."


def test_greedy_never_hands_the_opponent_a_win_when_it_can_avoid_it() -> None:
    # ben's green 2 on e5 would win on c5 (blue, yellow, red) if nothing changed
    state = arrange({"c5": "B5Y4R3", "e5": "G2", "a1": "R6", "i1": "Y2"}, to_move=0)
    assert state.winning_moves(1) == [mv("e5-c5")]
    for seed in range(5):
        choice = GreedyPlayer().choose(state, random.Random(seed))
        after = state.copy()
        after.push(choice)
        assert after.winning_moves(1) == []


def test_greedy_leaves_the_fewest_wins_when_it_cannot_avoid_them() -> None:
    # two separate threats; ann can stop at most one
    state = arrange({"a6": "B5Y4R3", "b6": "G1", "i6": "B5Y4R3", "h6": "G1", "e1": "R2"}, to_move=0)
    move, reason = GreedyPlayer().hint(state)
    assert "leaves the fewest" in reason
    after = state.copy()
    after.push(move)
    assert len(after.winning_moves(1)) == 1


def test_greedy_makes_threats() -> None:
    # ann's red 3 can move next to a three-colour stack ben cannot reach
    state = arrange({"e3": "B5G4Y3", "a1": "R6", "i6": "G2"}, black=("e2",), to_move=0)
    move, reason = GreedyPlayer().hint(state)
    after = state.copy()
    after.push(move)
    assert after.winning_moves(0), reason
    assert "winning move" in reason


def test_greedy_beats_random() -> None:
    rng = random.Random(3)
    wins = 0
    for game in range(20):
        state = new_game(first=game % 2)
        players: list[GreedyPlayer | RandomPlayer] = [GreedyPlayer(), RandomPlayer()]
        while not state.is_over:
            state.apply(players[state.to_move].choose(state, rng))
        wins += state.winner == 0
    assert wins >= 18


def test_no_move_once_the_game_is_over() -> None:
    state = new_game()
    state.apply(Resign(0))
    for player in (RandomPlayer(), GreedyPlayer()):
        with pytest.raises(NoMoveError):
            player.choose(state, random.Random(0))


def test_make_ai_levels() -> None:
    assert isinstance(make_ai("random"), RandomPlayer)
    assert isinstance(make_ai("greedy"), GreedyPlayer)
    assert make_ai("expert").level == "expert"
    with pytest.raises(ValueError, match="levels are random, greedy, expert"):
        make_ai("genius")


def test_hint_is_a_legal_move_with_a_reason() -> None:
    state = new_game()
    move, reason = GreedyPlayer().hint(state)
    assert move in state.legal_moves() and reason
    assert isinstance(move, Move) or reason
