"""Issue 20 item 3, a restart in under a second: the tables are loaded lazily (each state
built on first use or in the background) and give the same tables as an eager load; the
recovery after a restart runs behind the live interactions and touches only the tables
whose message is stale."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

import pytest

import bot.tables as tables_module
from bot.front import DISCORD
from host.service import RECENT_TURNS, TableService
from persistence import Store
from tests.bot.conftest import World, make_bot, table_text_of
from tests.bot.test_game import live_of, table_message
from tests.bot.test_lifecycle import game, move_once
from tests.bot.test_move_integrity import a_game, play


@pytest.mark.parametrize("which", ["stack", "stackup", "colorstack"])
async def test_a_lazily_loaded_table_is_the_table_loaded_eagerly(
    tmp_path: Path, which: str
) -> None:
    """The lazy load (rows read as text, each state built on first use) gives the same
    info, writer cursor, state and recent turns as the eager load."""
    url = f"sqlite+aiosqlite:///{tmp_path / 'lazy.db'}"
    store = await Store.open(url)
    try:
        service = TableService(store, front=DISCORD, seed=31)
        live = await a_game(service, which)
        while live.version < 30:  # a snapshot and a tail of logged moves after it
            await play(service, live)
    finally:
        await store.close()
    store = await Store.open(url)
    try:
        (eager,) = await store.load_active_tables()
        (lazy,) = await store.load_active_tables(lazy=True)
        assert lazy.state is None and lazy.thaw is not None
        assert lazy.info == eager.info and lazy.cursor == eager.cursor
        game = DISCORD.game(which).game
        assert game.snapshot(lazy.thaw()) == game.snapshot(eager.state)
        (eager_live,) = await TableService(store, front=DISCORD, seed=32).load()
        lazily = TableService(store, front=DISCORD, seed=32)
        (lazy_live,) = await lazily.load(lazy=True)
        assert lazy_live.thaw is not None and not lazy_live.turns
        assert await lazily.ready(lazy_live) is not None
        await lazily.recall_all()
        assert game.snapshot(lazy_live.state) == game.snapshot(eager_live.state)
        assert list(lazy_live.turns) == list(eager_live.turns)
        assert len(lazy_live.turns) == RECENT_TURNS
    finally:
        await store.close()


async def test_turns_said_before_the_recall_come_after_the_recalled_ones(tmp_path: Path) -> None:
    """A move played on a table before its recent turns were recalled (the first
    interaction after a restart): the table recalls the turns before it, then its own,
    as a table loaded eagerly does."""
    url = f"sqlite+aiosqlite:///{tmp_path / 'recall.db'}"
    store = await Store.open(url)
    try:
        service = TableService(store, front=DISCORD, seed=31)
        live = await a_game(service, "stack")
        while live.version < 20:
            await play(service, live)
    finally:
        await store.close()
    shutil.copy(tmp_path / "recall.db", tmp_path / "twin.db")
    turns = []
    for name, lazy in (("recall.db", False), ("twin.db", True)):
        store = await Store.open(f"sqlite+aiosqlite:///{tmp_path / name}")
        try:
            service = TableService(store, front=DISCORD, seed=32)
            (loaded,) = await service.load(lazy=lazy)
            if lazy:
                await service.ready(loaded)
            await play(service, loaded)  # the first move after the restart
            await service.recall(loaded)  # its message about to be shown
            turns.append(list(loaded.turns))
        finally:
            await store.close()
    eager, lazily = turns
    assert lazily == eager and len(eager) == RECENT_TURNS


def spy_edits(world: World, monkeypatch: pytest.MonkeyPatch, message_id: int) -> list[Any]:
    edits: list[Any] = []
    http = type(world.bot.http)
    edit_message = http.edit_message

    def spying(self: Any, channel_id: int, edited: int, **kwargs: Any) -> Any:
        if edited == message_id:
            edits.append(kwargs)
        return edit_message(self, channel_id, edited, **kwargs)

    monkeypatch.setattr(http, "edit_message", spying)
    return edits


async def test_recovery_touches_only_tables_whose_message_is_stale(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    """After a restart, a table message that shows the table as it is stored is left
    alone (no edit, no picture drawn again); one that misses a move committed just
    before the stop is re-rendered."""
    live = await game(world, target=100, dice=5)
    await move_once(world)
    await world.env.advance_time(3)
    shown = world.bot.tables.messages[live.id].message_id
    assert shown is not None
    edits = spy_edits(world, monkeypatch, shown)
    new_bot = make_bot(world.db, seed=99)
    await world.env.restart_bot(new_bot)
    world.bot = new_bot
    await world.env.advance_time(3)
    await new_bot.tables.recovered()
    assert edits == [], "a current table message was edited at the restart"
    # a move committed, its edit lost with the stop: the message is stale
    before = table_text_of(table_message(world))
    monkeypatch.setattr(tables_module.Tables, "committed", lambda self, outcome: None)
    await move_once(world)
    version = live_of(world).version
    monkeypatch.setattr(tables_module.Tables, "committed", tables_module.Tables.committed)
    monkeypatch.undo()
    edits = spy_edits(world, monkeypatch, shown)
    assert table_text_of(table_message(world)) == before
    new_bot = make_bot(world.db, seed=98)
    await world.env.restart_bot(new_bot)
    world.bot = new_bot
    await world.env.advance_time(3)
    await new_bot.tables.recovered()
    assert len(edits) == 1, "the stale table message was not re-rendered once"
    assert f":{version}" in str(edits[0]), "the re-rendered message shows the last move"


@pytest.mark.parametrize("which", ["stack", "stackup", "colorstack"])
@pytest.mark.parametrize("lazy", [False, True], ids=["eager", "lazy"])
async def test_a_turn_the_timer_played_is_still_said_so_after_a_restart(
    tmp_path: Path, which: str, lazy: bool
) -> None:
    """The turn timer's move is stored as such: the recent turns recalled from the log
    after a restart (or a take-over) mark it "(automatic: …)" as the table did."""
    url = f"sqlite+aiosqlite:///{tmp_path / 'timer.db'}"
    marked = DISCORD.turn_line("", automatic=True)[len(DISCORD.turn_line("", automatic=False)) :]
    store = await Store.open(url)
    try:
        service = TableService(store, front=DISCORD, seed=41)
        live = await a_game(service, which)
        await play(service, live, 2)
        assert await service.auto_move(live.id, live.version) is not None
        await play(service, live)
        before = list(live.turns)
    finally:
        await store.close()
    assert any(marked in turn for turn in before[-RECENT_TURNS:])
    store = await Store.open(url)
    try:
        service = TableService(store, front=DISCORD, seed=42)
        (loaded,) = await service.load(lazy=lazy)
        if lazy:
            await service.ready(loaded)
            await service.recall_all()
        assert list(loaded.turns) == before[-RECENT_TURNS:]
    finally:
        await store.close()
