"""The outbox: what a committed write owes the channel is stored in the same transaction,
comes back in order, and is delivered once."""

from __future__ import annotations

import asyncio
import random
from datetime import timedelta

import pytest

from persistence import StaleVersion, Store, WrongTableStatus
from persistence.records import Announcement, MoveResult
from persistence.rows import now
from persistence.schema import outbox
from tests.persistence.helpers import TABLE, count, next_step, started_table


def say(text: str) -> Announcement:
    return Announcement("message", text)


async def test_announcements_are_stored_with_the_move_in_order(store: Store) -> None:
    info, state, rng = await started_table(store, 60)
    step = next_step(state, rng)
    result = await store.record_move(
        info.id, info.version, step, state, announcements=[say("round 1 ends"), TABLE]
    )
    assert len(result.outbox_ids) == 2 and list(result.outbox_ids) == sorted(result.outbox_ids)
    items = await store.pending_outbox(info.id)
    assert [(i.id, i.kind, i.content) for i in items] == [
        (result.outbox_ids[0], "message", "round 1 ends"),
        (result.outbox_ids[1], "table", ""),
    ]
    assert {(i.table_id, i.channel_id) for i in items} == {(info.id, 60)}
    assert all(i.created_at.tzinfo is not None for i in items)
    assert (await store.pending_outbox()) == items


async def test_a_move_without_announcements_writes_no_outbox_row(store: Store) -> None:
    info, state, rng = await started_table(store, 61)
    result = await store.record_move(info.id, info.version, next_step(state, rng), state)
    assert result.outbox_ids == () and await count(store, outbox) == 0


async def test_a_refused_or_repeated_move_writes_no_outbox_row(store: Store) -> None:
    info, state, rng = await started_table(store, 62)
    step = next_step(state, rng)
    first = await store.record_move(
        info.id, info.version, step, state, interaction_id=77, announcements=[TABLE]
    )
    again = await store.record_move(
        info.id, info.version, step, state, interaction_id=77, announcements=[TABLE]
    )
    assert again.duplicate and again.outbox_ids == ()
    with pytest.raises(StaleVersion):
        await store.record_move(info.id, info.version, step, state, announcements=[TABLE])
    assert [i.id for i in await store.pending_outbox()] == list(first.outbox_ids)


async def test_delivered_rows_are_no_longer_pending_and_marking_twice_is_harmless(
    store: Store,
) -> None:
    info, state, rng = await started_table(store, 63)
    step = next_step(state, rng)
    result = await store.record_move(
        info.id, info.version, step, state, announcements=[say("a"), say("b"), say("c")]
    )
    a, b, c = result.outbox_ids
    await store.mark_delivered([a, c])
    await store.mark_delivered([a])
    await store.mark_delivered([])
    assert [i.id for i in await store.pending_outbox(info.id)] == [b]
    await store.mark_delivered([b])
    assert await store.pending_outbox() == []
    assert await store.purge_delivered(now() - timedelta(hours=1)) == 0
    assert await store.purge_delivered(now() + timedelta(seconds=1)) == 3
    assert await count(store, outbox) == 0


async def test_pending_rows_of_one_table_or_all_oldest_first(store: Store) -> None:
    one, s1, r1 = await started_table(store, 64)
    two, s2, r2 = await started_table(store, 65)
    x = await store.record_move(
        one.id, one.version, next_step(s1, r1), s1, announcements=[say("1")]
    )
    y = await store.record_move(
        two.id, two.version, next_step(s2, r2), s2, announcements=[say("2")]
    )
    z = await store.record_move(one.id, x.version, next_step(s1, r1), s1, announcements=[say("3")])
    assert [i.content for i in await store.pending_outbox()] == ["1", "2", "3"]
    assert [i.id for i in await store.pending_outbox(one.id)] == [*x.outbox_ids, *z.outbox_ids]
    assert [i.channel_id for i in await store.pending_outbox(two.id)] == [65]
    assert y.outbox_ids


async def test_outbox_ids_match_their_announcements_when_moves_share_a_commit(
    store: Store,
) -> None:
    """Many tables' moves in one group commit, each with 0 to 4 announcements: every
    write gets back exactly its own rows' ids, in its order."""
    games = [await started_table(store, 200 + i, seed=i) for i in range(16)]
    rng = random.Random(5)
    for _ in range(3):
        wants = [
            [say(f"t{info.id} v{info.version} #{k}") for k in range(rng.randrange(5))]
            for info, _, _ in games
        ]
        steps = [next_step(state, r) for _, state, r in games]
        before = store.writer.batches
        results = await asyncio.gather(
            *(
                store.record_move(info.id, info.version, step, state, announcements=want)
                for (info, state, _), step, want in zip(games, steps, wants, strict=True)
            )
        )
        assert store.writer.batches - before < len(games)  # they shared commits
        by_id = {i.id: i.content for i in await store.pending_outbox()}
        for result, want in zip(results, wants, strict=True):
            assert [by_id[i] for i in result.outbox_ids] == [a.content for a in want]
        games = [(await store.table(info.id), state, r) for (info, state, r) in games]


async def test_outbox_ids_match_when_moves_share_a_commit_with_other_writes(
    store: Store,
) -> None:
    """The same in a transaction that also holds lobby writes (the general path)."""
    games = [await started_table(store, 300 + i, seed=i) for i in range(6)]
    lobby = await store.create_table(1000, 399, 50, "host")
    steps = [next_step(state, r) for _, state, r in games]
    writes = [
        store.record_move(info.id, info.version, step, state, announcements=[say(str(i)), TABLE])
        for i, ((info, state, _), step) in enumerate(zip(games, steps, strict=True))
    ]
    joins = [store.join_table(lobby.id, 60 + i, f"p{i}") for i in range(3)]
    before = store.writer.batches
    done = await asyncio.gather(*writes[:3], *joins, *writes[3:])
    assert store.writer.batches - before < len(done)
    by_id = {i.id: (i.kind, i.content) for i in await store.pending_outbox()}
    results = [*done[:3], *done[6:]]
    for i, result in enumerate(results):
        assert isinstance(result, MoveResult)
        assert [by_id[o] for o in result.outbox_ids] == [("message", str(i)), ("table", "")]


async def test_ending_a_table_stores_its_announcements_in_the_same_transaction(
    store: Store,
) -> None:
    info, _, _ = await started_table(store, 66)
    ended = await store.end_table(info.id, announcements=[say("The table was closed."), TABLE])
    assert ended.status == "abandoned"
    assert [(i.kind, i.content) for i in await store.pending_outbox(info.id)] == [
        ("message", "The table was closed."),
        ("table", ""),
    ]
    with pytest.raises(WrongTableStatus):
        await store.end_table(info.id, announcements=[say("again")])
    assert await count(store, outbox) == 2


async def test_an_announcement_must_be_one(store: Store) -> None:
    info, state, rng = await started_table(store, 67)
    bad = Announcement("shout", "hi")  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        await store.record_move(
            info.id, info.version, next_step(state, rng), state, announcements=[bad]
        )
    with pytest.raises(ValueError):
        await store.end_table(info.id, announcements=[bad])
    assert await count(store, outbox) == 0


async def test_the_last_post_of_a_channel_is_that_of_its_rows_delivered_before_the_owed_one(
    store: Store,
) -> None:
    """A delivered row keeps the message it posted; ``last_post`` is the latest of those
    of the channel's rows written before the given row (a row of another channel, one not
    delivered, one after it and one delivered without a post do not count)."""
    info, state, rng = await started_table(store, 65)
    other, other_state, other_rng = await started_table(store, 66)
    first = await store.record_move(
        info.id, info.version, next_step(state, rng), state, announcements=[say("a"), say("b")]
    )
    a, b = first.outbox_ids
    elsewhere = await store.record_move(
        other.id, other.version, next_step(other_state, other_rng), other_state,
        announcements=[say("a")],
    )  # fmt: skip
    then = await store.record_move(
        info.id, info.version + 1, next_step(state, rng), state,
        announcements=[say("c"), say("d"), say("e")],
    )  # fmt: skip
    c, d, e = then.outbox_ids
    assert await store.last_post(65, c) is None  # nothing delivered yet
    await store.mark_delivered([a, b], posts={a: 1001, b: 1002})
    await store.mark_delivered(list(elsewhere.outbox_ids), posts={elsewhere.outbox_ids[0]: 5000})
    await store.mark_delivered([c])  # delivered, its post not known
    await store.mark_delivered([e], posts={e: 1009})
    assert await store.last_post(65, d) == 1002
    assert await store.last_post(65, b) == 1001
    assert await store.last_post(65, a) is None
    assert [i.id for i in await store.pending_outbox(info.id)] == [d]


async def test_another_tables_row_counts_for_the_last_post_only_if_delivered_before_the_owed_one_was_written(
    store: Store,
) -> None:
    """The tables of a channel go out at their own pace: the end of a closed table, its
    post awaiting a retry, may be posted after the first row of the next table opened in
    the channel. Its post is not a bound for that owed row (the row's own post, made
    before it, would be taken for an earlier one and posted twice); a row delivered before
    the owed row was written is."""
    first, _, _ = await started_table(store, 65)
    await store.end_table(first.id, announcements=[say("a")])
    (late,) = [i.id for i in await store.pending_outbox(first.id)]
    second, state, rng = await started_table(store, 65, seed=2)
    moved = await store.record_move(
        second.id, second.version, next_step(state, rng), state, announcements=[say("b")]
    )
    (owed,) = moved.outbox_ids
    # owed posted as message 1001 (its mark cut by a crash); late posted after it, marked
    await store.mark_delivered([late], posts={late: 1002})
    assert await store.last_post(65, owed) is None
    then = await store.record_move(
        second.id, moved.version, next_step(state, rng), state, announcements=[say("c")]
    )
    (after,) = then.outbox_ids
    assert await store.last_post(65, after) == 1002  # delivered before it was written


async def test_round_and_game_ends_are_stored_with_the_round_they_are_about(store: Store) -> None:
    info, state, rng = await started_table(store, 63)
    result = await store.record_move(
        info.id,
        info.version,
        next_step(state, rng),
        state,
        announcements=[Announcement("round", "round 3 ends", round_no=3), Announcement("game", "")],
    )
    items = await store.pending_outbox(info.id)
    assert [(i.id, i.kind, i.content, i.round_no) for i in items] == [
        (result.outbox_ids[0], "round", "round 3 ends", 3),
        (result.outbox_ids[1], "game", "", None),
    ]


@pytest.mark.parametrize(
    "wrong", [Announcement("round", "no round"), Announcement("message", "x", round_no=2)]
)
async def test_only_a_round_announcement_names_a_round(store: Store, wrong: Announcement) -> None:
    info, state, rng = await started_table(store, 64)
    with pytest.raises(ValueError, match="names its round"):
        await store.record_move(
            info.id, info.version, next_step(state, rng), state, announcements=[wrong]
        )
    assert await count(store, outbox) == 0
