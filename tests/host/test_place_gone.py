"""A table whose place is gone (the front end says so: its Discord channel deleted, the bot
removed from its server) ends as an abandoned table does, owing that place nothing."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from bot.front import DISCORD
from host.service import Player, Refusal, TableService
from host.thinking import Thinker
from persistence import Store

GUILD, CHANNEL = 1, 10
ANN, BOB = Player(1, "ann"), Player(2, "bob")


@pytest.fixture
async def service(tmp_path: Path) -> AsyncIterator[TableService]:
    store = await Store.open(f"sqlite+aiosqlite:///{tmp_path / 'gone.db'}")
    try:
        yield TableService(store, front=DISCORD, seed=5, thinker=Thinker("thread"))
    finally:
        await store.close()


async def test_a_table_whose_place_is_gone_ends_as_abandoned_owing_it_nothing(
    service: TableService,
) -> None:
    await service.new_table(GUILD, CHANNEL, ANN, {})
    await service.join(CHANNEL, BOB)
    live = (await service.start(CHANNEL, ANN)).table
    await service.store.mark_delivered([i.id for i in await service.store.pending_outbox(live.id)])
    outcome = await service.place_gone(live.id)
    assert outcome is not None and outcome.closed and not outcome.announced
    assert (await service.store.table(live.id)).status == "abandoned"
    assert await service.store.pending_outbox(live.id) == []  # nowhere to say anything
    with pytest.raises(Refusal):
        service.table_in(CHANNEL)
    assert await service.place_gone(live.id) is None  # once
