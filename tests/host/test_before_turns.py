"""A decision taken once before the first turn and no turn of its own — Stack Up!'s
direction, Color Stack's colours — is played alone when the turn timer runs out: the first
turn then gets its own clock (it was played at once, automatically, by the same timeout)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.front import DISCORD
from host.service import Player, TableService
from host.thinking import Thinker
from persistence import Store

GUILD = 1
ANN, BOB = Player(1, "ann"), Player(2, "bob")


@pytest.fixture
async def service(tmp_path: Path) -> AsyncIterator[TableService]:
    store = await Store.open(f"sqlite+aiosqlite:///{tmp_path / 'before.db'}")
    try:
        yield TableService(store, front=DISCORD, seed=5, thinker=Thinker("thread"))
    finally:
        await store.close()


@pytest.mark.parametrize(("game", "decided"), [("colorstack", "Colours"), ("stackup", "Direction")])
async def test_a_timeout_before_the_first_turn_plays_that_decision_alone(
    service: TableService, game: str, decided: str
) -> None:
    await service.new_table(GUILD, 1, ANN, {}, game=game)
    await service.join(1, BOB)
    live = (await service.start(1, ANN)).table
    state = live.state
    assert state is not None and state.current_player is not None
    first = state.current_player
    assert type(state.legal_moves()[0]).__name__ == decided  # the decision before the turns
    outcome = await service.auto_move(live.id, live.version)
    assert outcome is not None
    state = live.state
    assert state.current_player == first  # their first turn is theirs, on a clock of its own
    assert type(state.legal_moves()[0]).__name__ != decided
    assert len(outcome.turns) == 1 and "automatic" in outcome.turns[0], outcome.turns
