"""The group-commit writer: every durable write goes through it, a refusal or a failing
write in a shared commit harms no other write, its memory follows the tables in play, and
a commit of moves costs one thread hop on SQLite."""

from __future__ import annotations

import asyncio
import collections
from datetime import UTC, datetime, timedelta
from typing import Any

import pytest
from sqlalchemy import func, select
from sqlalchemy.ext.asyncio import AsyncEngine

from engine.stack.rules import HouseRules
from persistence import AlreadySeated, StorageError, Store, TableFull
from persistence.records import Announcement
from persistence.schema import moves, outbox, seats
from tests.persistence import helpers
from tests.persistence.helpers import GUILD, TABLE


async def test_no_write_commits_on_its_own(store: Store, monkeypatch: pytest.MonkeyPatch) -> None:
    """Every write method goes through the writer's shared transactions: none opens a
    transaction of its own on the engine."""

    def own_transaction(self: AsyncEngine) -> Any:
        raise AssertionError("a write committed outside the group-commit writer")

    monkeypatch.setattr(AsyncEngine, "begin", own_transaction)
    await store.set_house_rules(GUILD, {"target_score": 40})
    await store.set_house_rules(GUILD, {"target_score": 40}, channel_id=1)
    await store.set_turn_timer(GUILD, 30)
    await store.set_turn_timer(GUILD, 30, channel_id=1)
    await store.set_expiry(GUILD, lobby_timeout=600, idle_timeout=7200)
    await store.reset_house_rules(GUILD, channel_id=1)
    await store.reset_house_rules(GUILD)
    lobby = await store.create_table(GUILD, 2, 10, "host")
    await store.join_table(lobby.id, 11, "bob")
    await store.add_ai(lobby.id)
    await store.remove_ai(lobby.id, 2)
    await store.leave_lobby(lobby.id, 11)
    info, state, rng = await helpers.started_table(store, 3)
    await store.set_message(info.id, 3, 99, pinged_version=info.version)
    await store.set_deadline(info.id, datetime.now(UTC))
    await store.set_timeouts(info.id, 0, 1)
    result = await store.record_move(
        info.id, info.version, helpers.next_step(state, rng), state, announcements=[TABLE]
    )
    await store.mark_delivered(result.outbox_ids)
    await store.purge_delivered(datetime.now(UTC))
    await store.set_seat_ai(info.id, 1, left=True)
    await store.end_table(info.id)
    await store.end_table(lobby.id)


async def test_a_refusal_in_a_shared_commit_leaves_the_other_writes_stored(store: Store) -> None:
    lobby = await store.create_table(GUILD, 4, 10, "host")
    for user in range(11, 17):
        lobby = await store.join_table(lobby.id, user, f"p{user}")
    before = store.writer.batches
    outcomes = await asyncio.gather(
        store.join_table(lobby.id, 11, "p11"),  # already seated
        store.join_table(lobby.id, 20, "seventh"),  # takes the last seat
        store.join_table(lobby.id, 21, "too late"),  # full by then
        store.set_house_rules(GUILD, {"target_score": 40}),
        return_exceptions=True,
    )
    assert store.writer.batches - before == 1  # one commit for all four
    assert isinstance(outcomes[0], AlreadySeated)
    assert not isinstance(outcomes[1], BaseException) and len(outcomes[1].seats) == 8
    assert isinstance(outcomes[2], TableFull)
    assert (await store.guild_settings(GUILD)).rules.target_score == 40
    info = await store.table(lobby.id)
    assert [s.user_id for s in info.seats][-1] == 20 and len(info.seats) == 8


async def test_a_write_the_database_refuses_fails_alone(store: Store) -> None:
    """An SQL error in a shared commit: the batch is retried one write at a time, and
    only the failing write fails (writing nothing)."""
    doomed, _, _ = await helpers.started_table(store, 5)
    info, state, rng = await helpers.started_table(store, 6)
    lobby = await store.create_table(GUILD, 7, 10, "host")
    step = helpers.next_step(state, rng)
    async with helpers.refusing_inserts(store, "outbox"):
        ended, moved, joined = await asyncio.gather(
            store.end_table(doomed.id, announcements=[Announcement("message", "bye")]),
            store.record_move(info.id, info.version, step, state),
            store.join_table(lobby.id, 11, "bob"),
            return_exceptions=True,
        )
    assert isinstance(ended, StorageError)
    assert (await store.table(doomed.id)).status == "playing"
    assert not isinstance(moved, BaseException) and moved.version == info.version + len(step)
    assert not isinstance(joined, BaseException) and len(joined.seats) == 2
    assert await helpers.count(store, outbox) == 0
    await store.end_table(doomed.id)  # and the writer goes on


async def test_the_writer_keeps_a_cursor_only_for_tables_being_played(store: Store) -> None:
    """Item 11: no cursor is kept for a table that finished or was ended."""
    for game in range(6):
        info, state, rng = await helpers.started_table(
            store, 500 + game, seed=game, rules=HouseRules(target_score=20)
        )
        await helpers.play_moves(store, info, state, rng, 10_000)
    ended, estate, erng = await helpers.started_table(store, 510)
    await helpers.play_moves(store, ended, estate, erng, 5)
    await store.end_table(ended.id)
    live = [await helpers.started_table(store, 520 + i, seed=i) for i in range(3)]
    for info, state, rng in live:
        await helpers.play_moves(store, info, state, rng, 5)
    assert set(store.writer.cursors) == {info.id for info, _, _ in live}
    # a late write on a finished table is refused and leaves nothing behind
    with pytest.raises(StorageError):
        await store.record_move(ended.id, 5, helpers.next_step(estate, erng), estate)
    assert set(store.writer.cursors) == {info.id for info, _, _ in live}


async def test_a_commit_of_moves_is_one_thread_hop_on_sqlite(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    if store.engine.dialect.name != "sqlite":
        pytest.skip("aiosqlite's thread")
    import aiosqlite.core

    info, state, rng = await helpers.started_table(store, 8)
    await helpers.play_moves(store, info, state, rng, 2)  # the writer's connection is open
    version = (await store.table(info.id)).version
    calls: collections.Counter[str] = collections.Counter()
    original: Any = aiosqlite.core.Connection._execute

    async def counted(self: Any, fn: Any, *args: Any, **kwargs: Any) -> Any:
        calls[getattr(fn, "__name__", "?")] += 1
        return await original(self, fn, *args, **kwargs)

    monkeypatch.setattr(aiosqlite.core.Connection, "_execute", counted)
    for _ in range(10):
        step = helpers.next_step(state, rng)
        result = await store.record_move(
            info.id, version, step, state, human=True, announcements=[TABLE]
        )
        version = result.version
    assert sum(calls.values()) == 10, calls


async def test_move_times_and_human_activity_are_kept_with_the_move(store: Store) -> None:
    info, state, rng = await helpers.started_table(store, 9)
    assert info.last_active_at is not None and info.moved_at is not None
    started = info.last_active_at
    ai_move = await store.record_move(info.id, info.version, helpers.next_step(state, rng), state)
    after_ai = await store.table(info.id)
    assert after_ai.last_active_at == started  # not a human's move
    await store.record_move(
        info.id, ai_move.version, helpers.next_step(state, rng), state, human=True
    )
    after_human = await store.table(info.id)
    assert after_human.last_active_at is not None and after_human.last_active_at > started
    async with store.engine.connect() as conn:
        newest = (
            await conn.execute(
                select(func.max(moves.c.created_at)).where(moves.c.table_id == info.id)
            )
        ).scalar_one()
    assert after_human.moved_at is not None and newest is not None
    assert after_human.moved_at == newest.replace(tzinfo=UTC)
    assert after_human.moved_at > after_ai.moved_at  # type: ignore[operator]


async def test_lobby_activity_counts_creation_joins_and_the_start(store: Store) -> None:
    lobby = await store.create_table(GUILD, 10, 10, "host")
    assert lobby.last_active_at == lobby.created_at
    joined = await store.join_table(lobby.id, 11, "bob")
    assert joined.last_active_at is not None and joined.last_active_at > lobby.created_at
    with_ai = await store.add_ai(lobby.id)
    assert with_ai.last_active_at == joined.last_active_at  # an AI is no human action
    assert (await store.table(lobby.id)) == with_ai


async def test_seat_counts_ping_version_and_deadline_survive_a_restart(
    backend: Any, store: Store
) -> None:
    info, state, rng = await helpers.started_table(store, 11)
    step = helpers.next_step(state, rng)
    result = await store.record_move(
        info.id, info.version, step, state, timeouts={0: 2}, to_ai={1: "random"}
    )
    await store.set_message(info.id, 11, 1234, pinged_version=result.version)
    await store.set_message(info.id, 11, 1235)  # a new message keeps the ping version
    when = datetime.now(UTC) + timedelta(minutes=2)
    await store.set_deadline(info.id, when)
    await store.close()
    reopened = await backend.open()
    try:
        (loaded,) = await reopened.load_active_tables()
        table = loaded.info
        assert (table.message_id, table.pinged_version) == (1235, result.version)
        assert table.seats[0].timeouts == 2 and not table.seats[0].is_ai
        assert table.seats[1].ai_level == "random" and not table.seats[1].left_game
        assert table.moved_at is not None and table.last_active_at is not None
        assert table.deadline is not None and abs((table.deadline - when).total_seconds()) < 1e-3
        assert loaded.state is not None
        assert loaded.state.to_dict(full_history=False) == state.to_dict(full_history=False)
        assert (await reopened.load_table(info.id)).info == table
    finally:
        await reopened.close()
        store.engine = reopened.engine


async def test_move_side_writes_are_checked_before_anything_is_queued(store: Store) -> None:
    info, state, rng = await helpers.started_table(store, 12)
    step = helpers.next_step(state, rng)
    for bad in ({"timeouts": {9: 1}}, {"to_ai": {0: "genius"}}, {"timeouts": {0: -1}}):
        with pytest.raises(StorageError):
            await store.record_move(info.id, info.version, step, state, **bad)
    assert await helpers.count(store, moves) == info.version
    async with store.engine.connect() as conn:
        rows = (await conn.execute(select(seats.c.timeouts, seats.c.ai_level))).all()
    assert all(r.timeouts == 0 for r in rows)


async def test_an_interaction_already_logged_makes_a_later_write_a_duplicate(
    store: Store,
) -> None:
    """The log's unique index refuses the repeat inside a shared commit (on the hot
    path); the batch is retried one write at a time and the repeat answered as a
    duplicate, while the other moves of that commit are stored."""
    info, state, rng = await helpers.started_table(store, 13)
    other, ostate, orng = await helpers.started_table(store, 14)
    first = await store.record_move(
        info.id, info.version, helpers.next_step(state, rng), state, interaction_id="i-1"
    )
    before = await helpers.count(store, moves)
    step = helpers.next_step(state, rng)
    ostep = helpers.next_step(ostate, orng)
    repeat, moved = await asyncio.gather(
        store.record_move(info.id, first.version, step, state, interaction_id="i-1"),
        store.record_move(other.id, other.version, ostep, ostate, interaction_id="i-2"),
    )
    assert repeat.duplicate and repeat.version == first.version
    assert not moved.duplicate and moved.version == other.version + len(ostep)
    assert await helpers.count(store, moves) == before + len(ostep)
    assert (await store.table(info.id)).version == first.version
