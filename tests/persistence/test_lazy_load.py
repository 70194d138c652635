"""Issue 20 item 3, a restart in under a second: a lazy load keeps each table's rows as
read and builds its parts on first use (its info, the move writer's cursor, its random
source, its turn times, its state), each exactly as the eager load builds them, on
SQLite and on PostgreSQL."""

from __future__ import annotations

import shutil
from datetime import UTC, datetime
from pathlib import Path

import pytest

from bot.front import DISCORD
from host.service import LiveTable, TableService
from tests.bot.test_move_integrity import ANN, a_game, play
from tests.persistence.conftest import Backend

NOW = datetime(2030, 1, 1, tzinfo=UTC)  # the restarted services' clock: after every time stored


def fixed_now() -> datetime:
    return NOW


async def a_game_played(backend: Backend, which: str) -> None:
    """A game of ``which`` against the AI, with a snapshot and moves logged after it."""
    async with backend.opened() as store:
        service = TableService(store, front=DISCORD, seed=31)
        live = await a_game(service, which)
        while live.version < 28:
            await play(service, live)


@pytest.mark.parametrize("which", ["stack", "stackup", "colorstack"])
async def test_a_table_loaded_lazily_builds_each_part_as_the_eager_load(
    backend: Backend, which: str
) -> None:
    """Before its first use a table loaded lazily has built nothing (no info, no state,
    no random source, no writer cursor); built, each part is the eager load's."""
    await a_game_played(backend, which)
    async with backend.opened() as store:
        (eager,) = await TableService(store, front=DISCORD, seed=32, now=fixed_now).load()
        eager_cursor = await store.writer.cursor(eager.id)
    async with backend.opened() as store:
        (lazy,) = await TableService(store, front=DISCORD, seed=32, now=fixed_now).load(lazy=True)
        assert lazy.rows is not None and lazy.thaw is not None
        assert isinstance(lazy._rng, int) and store.writer.cursors == {}
        assert (lazy.id, lazy.channel_id, lazy.version) == (
            eager.id,
            eager.channel_id,
            eager.version,
        )
        assert lazy.index.game == which and lazy.is_active
        assert lazy.info == eager.info and lazy.rows is None
        assert (lazy.turn_started, lazy.idle_since) == (eager.turn_started, eager.idle_since)
        assert lazy.rng.getstate() == eager.rng.getstate()
        game = DISCORD.game(which).game
        assert eager.state is not None and lazy.state is not None
        assert game.snapshot(lazy.state) == game.snapshot(eager.state)
        assert await store.writer.cursor(lazy.id) == eager_cursor
        assert store.writer.cursors == {lazy.id: eager_cursor}


@pytest.mark.parametrize("which", ["stack", "stackup", "colorstack"])
async def test_a_move_on_a_table_not_built_yet_is_played_and_stored(
    backend: Backend, which: str
) -> None:
    """The first use of a table loaded lazily may be a move: it is played (its info,
    state and cursor built on the way) and stored as any move is."""
    await a_game_played(backend, which)
    async with backend.opened() as store:
        service = TableService(store, front=DISCORD, seed=32)
        (live,) = await service.load(lazy=True)
        assert live.rows is not None and live.thaw is not None
        before = live.version
        await play(service, live)
        assert live.version > before and live.current_user() == ANN.id
        game = DISCORD.game(which).game
        played = game.snapshot(live.state)
    async with backend.opened() as store:
        (again,) = await store.load_active_tables()
        assert again.info.version == live.version
        assert game.snapshot(again.state) == played


@pytest.mark.parametrize("which", ["stack", "stackup", "colorstack"])
async def test_a_table_loaded_lazily_plays_as_the_table_loaded_eagerly(
    tmp_path: Path, which: str
) -> None:
    """Twin databases, one loaded eagerly and one lazily by services of the same seed:
    the same moves played on both (the lazy table's first use a move, the AI answering
    with its random source) leave the same games stored."""
    first = Backend("sqlite", f"sqlite+aiosqlite:///{tmp_path / 'eager.db'}", {})
    await a_game_played(first, which)
    shutil.copy(tmp_path / "eager.db", tmp_path / "lazy.db")
    twin = Backend("sqlite", f"sqlite+aiosqlite:///{tmp_path / 'lazy.db'}", {})
    game = DISCORD.game(which).game
    stored = []
    for backend, lazy in ((first, False), (twin, True)):
        async with backend.opened() as store:
            service = TableService(store, front=DISCORD, seed=32, now=fixed_now)
            (live,) = await service.load(lazy=lazy)
            await play(service, live, turns=3)
            assert live.state is not None
            stored.append((live.version, game.snapshot(live.state), live.rng.getstate()))
        async with backend.opened() as store:
            (again,) = await store.load_active_tables()
            assert game.snapshot(again.state) == stored[-1][1]
    eager, lazily = stored
    assert lazily == eager


async def test_a_lazy_load_leaves_no_cursor_of_a_table_written_meanwhile(
    backend: Backend,
) -> None:
    """A table written after a lazy load kept its rows: the writer keeps the cursor of
    that write, and once it is forgotten reads it again from storage, never building the
    one of the rows read at start-up."""
    await a_game_played(backend, "stack")
    async with backend.opened() as store:
        service = TableService(store, front=DISCORD, seed=32)
        (live,) = await service.load(lazy=True)
        loaded: LiveTable = live
        await play(service, loaded)
        assert store.writer.cursors[loaded.id].version == loaded.version
        store.writer.forget(loaded.id)
        assert await store.writer.cursor(loaded.id) == (await store.load_table(loaded.id)).cursor
