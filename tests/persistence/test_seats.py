"""Seats handed to the AI: whose results the game credits, and who hosts after a leaver."""

from __future__ import annotations

import random

import pytest

from engine.stack.rules import HouseRules
from engine.stack.state import StackState
from persistence import Store, WrongTableStatus
from persistence.records import Announcement
from persistence.schema import outbox
from tests.persistence.helpers import GUILD, count, next_step, play_moves, started_table


async def test_a_seat_whose_player_left_credits_nobody_with_the_game(store: Store) -> None:
    """The bug: a player who left right after the start was credited with the AI's
    results (12 games left at once gave "12 games, 11 wins, rank 1")."""
    for game in range(3):
        info, state, rng = await started_table(
            store, 40 + game, humans=2, ais=1, seed=game, rules=HouseRules(target_score=30)
        )
        leaver = next(s for s in info.seats if s.user_id == 2)
        await store.set_seat_ai(info.id, leaver.position, left=True)
        await play_moves(store, info, state, rng, 10_000)
        assert state.is_over
    assert await store.stats(GUILD, 2) is None
    board = await store.leaderboard(GUILD)
    assert [row.stats.user_id for row in board] == [1]
    stayed = await store.stats(GUILD, 1)
    assert stayed is not None and stayed.games == 3


async def test_a_seat_kicked_in_the_middle_of_a_game_credits_nobody(store: Store) -> None:
    info, state, rng = await started_table(store, 45, humans=3, ais=0, seed=7)
    version = await play_moves(store, info, state, rng, 12)
    kicked = next(s for s in info.seats if s.user_id == 3)
    await store.set_seat_ai(info.id, kicked.position, left=True)
    info = await store.table(info.id)
    await play_moves(store, info, state, rng, 10_000)
    assert state.is_over and version > 0
    assert await store.stats(GUILD, 3) is None
    assert {r.stats.user_id for r in await store.leaderboard(GUILD)} == {1, 2}


@pytest.mark.parametrize("how", ["record_move", "set_seat_ai"])
async def test_a_seat_that_timed_out_into_the_ai_keeps_its_players_result(
    store: Store, how: str
) -> None:
    info, state, rng = await started_table(
        store, 46, humans=2, ais=1, seed=3, rules=HouseRules(target_score=30)
    )
    seat = next(s for s in info.seats if s.user_id == 2)
    if how == "set_seat_ai":
        await store.set_seat_ai(info.id, seat.position, "greedy")
    else:  # the third timeout, stored with the move the timer played
        step = next_step(state, rng)
        await store.record_move(
            info.id,
            info.version,
            step,
            state,
            timeouts={seat.position: 3},
            to_ai={seat.position: "greedy"},
        )
        info = await store.table(info.id)
    handed = info.seats[seat.position] if how == "record_move" else None
    if handed is not None:
        assert handed.ai_level == "greedy" and handed.timeouts == 3 and not handed.left_game
    await play_moves(store, info, state, rng, 10_000)
    assert state.is_over and state.winner is not None
    mine = await store.stats(GUILD, 2)
    assert mine is not None and mine.games == 1
    assert mine.points == state.totals[seat.position]
    assert mine.wins == (1 if seat.position in state.winner else 0)


async def four_seats(
    store: Store, channel: int, lobby: list[int | None], order: list[int] | None = None
) -> tuple[int, list[int | None]]:
    """A started table of four seats: ``lobby`` in join order (users; ``None`` for an AI;
    the first creates the table and hosts), seated in ``order`` of lobby positions.
    Returns its id and each playing position's user."""
    host = lobby[0]
    assert host is not None
    info = await store.create_table(GUILD, channel, host, f"user{host}")
    for user in lobby[1:]:
        if user is None:
            info = await store.add_ai(info.id)
        else:
            info = await store.join_table(info.id, user, f"user{user}")
    seat_order = order or list(range(len(lobby)))
    names = tuple(info.seats[p].name for p in seat_order)
    state = StackState(names, HouseRules().for_players(names))
    opening = state.resolve_chance(random.Random(channel))
    info = await store.start_table(info.id, seat_order, state, opening)
    return info.id, [s.user_id for s in info.seats]


async def test_the_host_who_leaves_mid_game_passes_to_the_next_human_seat(store: Store) -> None:
    table_id, users = await four_seats(store, 50, [1, None, 2, 3])
    assert users == [1, None, 2, 3]
    note = Announcement("message", "user1 left; user2 is the host now.")
    info = await store.set_seat_ai(table_id, 0, left=True, announcements=[note])
    assert info.host_id == 2 and (await store.table(table_id)).host_id == 2
    assert [o.content for o in await store.pending_outbox(table_id)] == [note.content]
    info = await store.set_seat_ai(table_id, 3, left=True)  # not the host: nothing passes
    assert info.host_id == 2
    info = await store.set_seat_ai(table_id, 2, left=True)  # no human left: the host stays
    assert info.host_id == 2 and (await store.table(table_id)).host_id == 2


async def test_the_next_host_is_found_by_wrapping_round_the_seats(store: Store) -> None:
    # the host (user1) sits third: after them come an AI, then (wrapping) user2
    table_id, users = await four_seats(store, 51, [1, 2, 3, None], order=[1, 2, 0, 3])
    assert users == [2, 3, 1, None]
    info = await store.set_seat_ai(table_id, 2, left=True)
    assert info.host_id == 2 and (await store.table(table_id)).host_id == 2


async def test_a_seat_timing_out_does_not_pass_the_host_on(store: Store) -> None:
    table_id, _ = await four_seats(store, 52, [1, None, 2, 3])
    info = await store.set_seat_ai(table_id, 0, "greedy")
    assert info.host_id == 1 and info.seats[0].is_ai and not info.seats[0].left_game


async def test_handing_a_seat_over_on_a_closed_table_writes_nothing(store: Store) -> None:
    table_id, _ = await four_seats(store, 53, [1, None, 2, 3])
    await store.end_table(table_id)
    with pytest.raises(WrongTableStatus):
        await store.set_seat_ai(
            table_id, 0, left=True, announcements=[Announcement("message", "gone")]
        )
    assert await count(store, outbox) == 0
    assert (await store.table(table_id)).host_id == 1
