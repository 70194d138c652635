"""Which moves the turn timer played (``moves.automatic``, revision 0011): stored with the
moves in their transaction, read back with the game's log, and false for every move
logged before the revision."""

from __future__ import annotations

import pytest
from sqlalchemy import select

from persistence import Store
from persistence.database import make_engine
from persistence.schema import moves
from tests.persistence.conftest import Backend
from tests.persistence.helpers import (
    column_names,
    downgrade_to,
    migrate,
    next_step,
    started_table,
)


async def test_the_moves_the_timer_played_are_read_back_with_the_log(store: Store) -> None:
    info, state, rng = await started_table(store, 1)
    opening = info.version
    version = info.version
    flagged: list[int] = []
    for turn in range(4):
        step = next_step(state, rng)
        automatic = range(len(step)) if turn == 2 else ()
        flagged += [version - opening + i for i in automatic]
        version = (
            await store.record_move(info.id, version, step, state, automatic=automatic)
        ).version
    log = (await store.game_logs([info.id]))[info.id]
    assert flagged and log.automatic == frozenset(flagged)
    assert len(log.moves) == version - opening


async def test_an_automatic_move_is_one_of_the_moves_recorded(store: Store) -> None:
    info, state, rng = await started_table(store, 1)
    step = next_step(state, rng)
    with pytest.raises(ValueError, match="one of the moves made"):
        await store.record_move(info.id, info.version, step, state, automatic=[len(step)])
    assert (await store.game_logs([info.id]))[info.id].moves == []


async def test_0011_marks_no_logged_move_and_its_downgrade_drops_the_column(
    backend: Backend,
) -> None:
    async with backend.opened() as store:
        info, state, rng = await started_table(store, 1)
        step = next_step(state, rng)
        await store.record_move(info.id, info.version, step, state, automatic=[0])
        logged = info.version + len(step)  # the opening's moves too
    engine = make_engine(backend.url, **backend.engine_options)
    try:
        async with engine.begin() as conn:
            await conn.run_sync(downgrade_to, "0010")
            columns = await conn.run_sync(column_names, "moves")
            assert "automatic" not in columns and "move" in columns
        async with engine.begin() as conn:
            await conn.run_sync(migrate, "0011")
            rows = (await conn.execute(select(moves.c.seq, moves.c.automatic))).all()
            # the moves are kept, none of them marked: which the timer played was not kept
            assert len(rows) == logged and not any(r.automatic for r in rows)
    finally:
        await engine.dispose()
    async with backend.opened() as store:
        assert (await store.game_logs([info.id]))[info.id].automatic == frozenset()
        step = next_step(state, rng)  # the log takes moves again, the trigger kept
        result = await store.record_move(info.id, info.version + 1, step, state, automatic=[0])
        assert result.version == info.version + 1 + len(step)
