"""A thinker given node budgets (``Thinker(nodes=...)``: ``stackbot play --seed``) has a
game's thinking AI search that many nodes a move, whatever the clock says: the same
position and seed give the same move on a machine however slow, and the search is awaited
past the clock's bound (budget + margin), which would have played the hint instead."""

from __future__ import annotations

import itertools
import random
import time
from typing import Any

import pytest

from engine import games
from engine.budget import limit_search
from engine.flow import settle
from host.thinking import Thinker


def midgame(name: str, moves: int = 6) -> Any:
    """A position of ``name`` after a few greedy moves (seed 2), a thinking AI to move."""
    game = games.get(name)
    rng = random.Random(2)
    greedy = game.make_ai("greedy")
    state = game.new_state(["ann", "bob"], game.settings())
    for _ in range(moves):
        settle(game, state, rng)
        state.apply(greedy.choose(state, rng))
    settle(game, state, rng)
    assert not state.is_over and len(state.legal_moves()) > 1
    return state


@pytest.mark.parametrize("name", ["stack", "stackup", "colorstack"])
async def test_a_node_budget_gives_the_same_move_on_a_slow_machine(
    name: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    game, state = games.get(name), midgame(name)
    thinker = Thinker("thread", nodes={name: 300})
    move, why = await thinker.choose(game, state, "expert", 11)
    assert why is None
    expected = limit_search(game.make_ai("expert"), None, 300).choose(state, random.Random(11))
    assert move == expected
    ticks = itertools.count()  # a clock that runs fast: a machine hundreds of times slower
    monkeypatch.setattr(time, "perf_counter", lambda: next(ticks) * 0.05)
    assert await thinker.choose(game, state, "expert", 11) == (move, None)


async def test_a_node_budget_search_is_awaited_past_the_clocks_bound() -> None:
    """A bound of a millisecond (budget + margin), which a search of the clock's would
    overrun (the hint then plays): a node budget's search is awaited to its end."""
    game, state = games.get("colorstack"), midgame("colorstack")
    thinker = Thinker("thread", budget=0.001, margin=0.0, nodes={"colorstack": 2000})
    move, why = await thinker.choose(game, state, "expert", 5)
    assert why is None
    expected = limit_search(game.make_ai("expert"), None, 2000).choose(state, random.Random(5))
    assert move == expected
