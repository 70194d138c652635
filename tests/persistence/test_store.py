"""The storage API and its guarantees, on every backend."""

from __future__ import annotations

import asyncio
import random
from datetime import UTC, datetime, timedelta

import pytest
from sqlalchemy import select

import persistence
from engine.game import Decision
from engine.stack.moves import Roll
from engine.stack.record import check
from engine.stack.rules import HouseRules
from persistence import Store, schema
from tests.persistence.helpers import (
    GUILD,
    TABLE,
    count,
    next_step,
    play_moves,
    refusing_inserts,
    started_table,
    up_to_the_last_move,
)


async def stored_version(store: Store, table_id: int) -> int:
    async with store.engine.connect() as conn:
        return int(
            (
                await conn.execute(
                    select(schema.tables.c.version).where(schema.tables.c.id == table_id)
                )
            ).scalar_one()
        )


# ----------------------------------------------------------------- settings


async def test_house_rules_default_guild_and_channel_override(store: Store) -> None:
    settings = await store.guild_settings(GUILD)
    assert settings.rules == HouseRules() and settings.turn_seconds == 120
    await store.set_house_rules(GUILD, {"target_score": 150, "capture_penalty": True})
    await store.set_house_rules(GUILD, HouseRules(dice_per_player=10), channel_id=7)
    settings = await store.guild_settings(GUILD, channel_id=7)
    assert settings.rules.target_score == 150 and settings.rules.capture_penalty
    # the channel sets its dice alone: the server's other rules are in force there
    assert settings.channel_rules == HouseRules(
        target_score=150, capture_penalty=True, dice_per_player=10
    )
    assert settings.channel_keys == {"dice_per_player"}
    assert settings.effective.dice_per_player == 10
    assert (await store.guild_settings(GUILD, channel_id=8)).effective.target_score == 150
    await store.reset_house_rules(GUILD, channel_id=7)
    assert (await store.guild_settings(GUILD, channel_id=7)).channel_rules is None
    await store.set_turn_timer(GUILD, 90)
    await store.reset_house_rules(GUILD)
    assert (await store.guild_settings(GUILD)).rules == HouseRules()


async def test_a_server_reset_puts_its_turn_timer_back_as_a_channels_reset_does(
    store: Store,
) -> None:
    await store.set_turn_timer(GUILD, 90)
    await store.set_theme(GUILD, "light")
    await store.set_expiry(GUILD, lobby_timeout=600)
    await store.reset_house_rules(GUILD)
    settings = await store.guild_settings(GUILD)
    assert settings.turn_seconds == 120
    assert (settings.theme, settings.lobby_timeout) == ("light", 600)  # the server's own
    await store.reset_house_rules(GUILD + 1)  # a server with no settings row: nothing to do
    assert (await store.guild_settings(GUILD + 1)).turn_seconds == 120


@pytest.mark.parametrize(
    "bad",
    [{"target_score": 0}, {"dice_per_player": 99}, {"colour": "red"}, {"teams": "maybe"}, "x"],
)
async def test_malformed_settings_are_refused_and_nothing_is_written(
    store: Store, bad: object
) -> None:
    with pytest.raises(persistence.InvalidSettings):
        await store.set_house_rules(GUILD, bad)  # type: ignore[arg-type]
    with pytest.raises(persistence.InvalidSettings):
        await store.set_house_rules(GUILD, bad, channel_id=5)  # type: ignore[arg-type]
    assert (
        await count(store, schema.guild_settings)
        == await count(store, schema.channel_settings)
        == 0
    )


async def test_turn_timer(store: Store) -> None:
    await store.set_turn_timer(GUILD, 0)
    assert (await store.guild_settings(GUILD)).turn_seconds == 0
    await store.set_turn_timer(GUILD, 45)
    assert (await store.guild_settings(GUILD)).turn_seconds == 45
    for bad in (-1, 3601, 1.5):
        with pytest.raises(persistence.InvalidSettings):
            await store.set_turn_timer(GUILD, bad)  # type: ignore[arg-type]
    assert (await store.guild_settings(GUILD)).turn_seconds == 45


# ----------------------------------------------------------------- tables and seats


async def test_one_active_table_per_channel_enforced_by_the_database(store: Store) -> None:
    first = await store.create_table(GUILD, 42, 1, "alice")
    with pytest.raises(persistence.TableExists):
        await store.create_table(GUILD, 42, 2, "bob")
    assert await count(store, schema.tables) == 1
    await store.end_table(first.id)
    second = await store.create_table(GUILD, 42, 2, "bob")
    assert second.id != first.id and (await store.active_table(42)).id == second.id


async def test_lobby_join_leave_ai_and_their_refusals(store: Store) -> None:
    info = await store.create_table(GUILD, 1, 10, "host", {"target_score": 100})
    assert info.status == "lobby" and info.options == {"target_score": 100}
    assert [s.name for s in info.seats] == ["host"]
    info = await store.join_table(info.id, 11, "bob")
    with pytest.raises(persistence.AlreadySeated):
        await store.join_table(info.id, 11, "bob")
    info = await store.add_ai(info.id, "random")
    assert info.seats[2].is_ai and info.seats[2].name == "AI 1"
    with pytest.raises(persistence.InvalidSettings):
        await store.add_ai(info.id, "genius")
    for user in range(12, 17):
        info = await store.join_table(info.id, user, f"p{user}")
    with pytest.raises(persistence.TableFull):
        await store.join_table(info.id, 99, "late")
    with pytest.raises(persistence.NotSeated):
        await store.leave_lobby(info.id, 99)
    info = await store.leave_lobby(info.id, 10)  # the host leaves: bob hosts
    assert info.host_id == 11 and [s.position for s in info.seats] == list(range(7))
    info = await store.remove_ai(info.id, 1)
    assert not any(s.is_ai for s in info.seats)
    with pytest.raises(persistence.InvalidSettings):
        await store.create_table(GUILD, 2, 1, "x", {"speed": 3})
    with pytest.raises(persistence.InvalidSettings):
        await store.join_table(info.id, 50, "")


async def test_lobby_left_by_every_human_is_abandoned(store: Store) -> None:
    info = await store.create_table(GUILD, 3, 10, "solo")
    await store.add_ai(info.id)
    info = await store.leave_lobby(info.id, 10)
    assert info.status == "abandoned"
    with pytest.raises(persistence.TableNotFound):
        await store.active_table(3)


async def test_unknown_channel_or_table(store: Store) -> None:
    with pytest.raises(persistence.TableNotFound):
        await store.active_table(123456)
    with pytest.raises(persistence.TableNotFound):
        await store.table(987)
    with pytest.raises(persistence.TableNotFound):
        await store.join_table(987, 1, "x")
    with pytest.raises(persistence.TableNotFound):
        await store.set_message(987, 1, 2)


async def test_start_snapshots_rules_and_logs_the_opening(store: Store) -> None:
    info, _, _ = await started_table(
        store, 5, rules=HouseRules(target_score=50, four_high_bonus=True)
    )
    assert info.status == "playing"
    assert info.rules is not None and info.rules.target_score == 50 and info.rules.four_high_bonus
    assert info.version == await count(store, schema.moves) >= 2  # roll-off and round dice
    with pytest.raises(persistence.WrongTableStatus):
        await store.join_table(info.id, 77, "late")


async def test_message_ids_and_deadline_survive(store: Store) -> None:
    info, _, _ = await started_table(store, 6)
    when = datetime.now(UTC) + timedelta(seconds=120)
    await store.set_message(info.id, 6, 555)
    await store.set_deadline(info.id, when)
    loaded = await store.load_table(info.id)
    assert loaded.info.message_id == 555 and loaded.info.message_channel_id == 6
    assert loaded.info.deadline is not None
    assert abs((loaded.info.deadline - when).total_seconds()) < 1e-3
    with pytest.raises(persistence.InvalidSettings):
        await store.set_deadline(info.id, datetime.now())


# ----------------------------------------------------------------- moves


async def test_moves_rebuild_the_live_state(store: Store) -> None:
    info, state, rng = await started_table(store, 8)
    await play_moves(store, info, state, rng, 60)
    loaded = await store.load_table(info.id)
    assert loaded.state is not None and loaded.state.to_dict(full_history=False) == state.to_dict(
        full_history=False
    )
    assert (await store.replay_log(info.id)).to_dict() == state.to_dict()


async def test_stale_version_is_rejected_and_nothing_is_written(store: Store) -> None:
    info, state, rng = await started_table(store, 9)
    version = await play_moves(store, info, state, rng, 3)
    before = await count(store, schema.moves)
    probe = state.copy()
    step = next_step(probe, rng)
    with pytest.raises(persistence.StaleVersion) as err:
        await store.record_move(info.id, version - 1, step, probe)
    assert err.value.actual == version
    with pytest.raises(persistence.StaleVersion):
        await store.record_move(info.id, version + 5, step, probe)
    assert (
        await count(store, schema.moves) == before
        and await stored_version(store, info.id) == version
    )
    # the right version goes through, once; replaying it is stale
    result = await store.record_move(info.id, version, step, probe)
    assert result.version == version + len(step)
    with pytest.raises(persistence.StaleVersion):
        await store.record_move(info.id, version, step, probe)


async def test_same_interaction_twice_is_applied_once(store: Store) -> None:
    info, state, rng = await started_table(store, 10)
    version = info.version
    step = next_step(state, rng)
    first = await store.record_move(info.id, version, step, state, interaction_id=9001)
    again = await store.record_move(info.id, version, step, state, interaction_id=9001)
    assert not first.duplicate and again.duplicate
    assert again.version == first.version == await stored_version(store, info.id)
    # and delivered twice at once
    step = next_step(state, rng)
    both = await asyncio.gather(
        store.record_move(info.id, first.version, step, state, interaction_id="x-2"),
        store.record_move(info.id, first.version, step, state, interaction_id="x-2"),
    )
    assert sorted(r.duplicate for r in both) == [False, True]
    assert await stored_version(store, info.id) == first.version + len(step)


async def test_a_move_is_stored_whole_or_not_at_all(store: Store) -> None:
    info, state, rng = await started_table(store, 11, rules=HouseRules(target_score=1))
    # the move that ends the game writes round scores, the result and the stats
    version, step, probe = await up_to_the_last_move(store, info, state, rng)
    moves_before, rounds_before = (
        await count(store, schema.moves),
        await count(store, schema.round_scores),
    )
    # the database refuses the last statement of the move's transaction (the stats)
    async with refusing_inserts(store, "player_stats"):
        with pytest.raises(persistence.StorageError):
            await store.record_move(info.id, version, step, probe, announcements=[TABLE])
    assert await count(store, schema.moves) == moves_before
    assert await count(store, schema.round_scores) == rounds_before
    assert await count(store, schema.outbox) == 0
    assert await stored_version(store, info.id) == version
    assert (await store.table(info.id)).status == "playing"
    await store.record_move(info.id, version, step, probe)
    assert (await store.table(info.id)).status == "finished"


async def test_finished_table_refuses_moves(store: Store) -> None:
    info, state, rng = await started_table(store, 12, rules=HouseRules(target_score=1))
    version = await play_moves(store, info, state, rng, 10_000)
    assert state.decision is Decision.OVER
    assert (await store.table(info.id)).status == "finished"
    with pytest.raises(persistence.WrongTableStatus):
        await store.record_move(info.id, version, [Roll(3)], state)
    with pytest.raises(persistence.WrongTableStatus):
        await store.end_table(info.id)


async def test_concurrent_tables_are_committed_in_groups(store: Store) -> None:
    games = [await started_table(store, 100 + i, seed=i) for i in range(12)]
    before = store.writer.batches
    versions = await asyncio.gather(*(play_moves(store, *g, 15) for g in games))
    total_steps = sum(v - g[0].version for v, g in zip(versions, games, strict=True))
    assert total_steps > 0
    assert store.writer.batches - before < 12 * 15  # moves that arrived together shared a commit
    for (info, state, _), version in zip(games, versions, strict=True):
        loaded = await store.load_table(info.id)
        assert loaded.info.version == version and loaded.state is not None
        assert loaded.state.to_dict(full_history=False) == state.to_dict(full_history=False)


async def test_load_active_tables_after_a_restart(backend: object, store: Store) -> None:
    from tests.persistence.conftest import Backend

    assert isinstance(backend, Backend)
    lobby = await store.create_table(GUILD, 20, 1, "waiting")
    info, state, rng = await started_table(store, 21)
    await play_moves(store, info, state, rng, 40)
    done, dstate, drng = await started_table(store, 22, rules=HouseRules(target_score=1))
    await play_moves(store, done, dstate, drng, 10_000)
    await store.close()
    reopened = await backend.open()
    try:
        loaded = {t.info.id: t for t in await reopened.load_active_tables()}
        assert set(loaded) == {lobby.id, info.id}
        assert loaded[lobby.id].state is None
        live = loaded[info.id].state
        assert live is not None and live.to_dict(full_history=False) == state.to_dict(
            full_history=False
        )
    finally:
        await reopened.close()
        store.engine = reopened.engine  # closed twice is harmless


# ----------------------------------------------------------------- scores and stats


async def test_score_sheet_history_leaderboard_stats_and_export(store: Store) -> None:
    info, state, rng = await started_table(store, 30, rules=HouseRules(target_score=60), seed=4)
    await play_moves(store, info, state, rng, 10_000)
    assert state.is_over and state.winner is not None
    sheet = await store.score_sheet(info.id)
    assert sheet.finished and sheet.totals == tuple(state.totals)
    assert [list(r) for r in sheet.rounds] == state.round_scores
    assert sheet.winners == tuple(state.players[s] for s in state.winner)
    history = await store.history(30)
    assert [h.table_id for h in history] == [info.id]
    assert history[0].totals == tuple(state.totals) and history[0].rounds_played == len(
        state.round_scores
    )
    board = await store.leaderboard(GUILD, by="points")
    humans = [s for s in info.seats if s.user_id is not None]
    assert len(board) == len(humans)
    assert [row.stats.points for row in board] == sorted(
        (state.totals[s.position] for s in humans), reverse=True
    )
    assert [row.rank for row in board] == list(range(1, len(humans) + 1))
    mine = await store.stats(GUILD, 1)
    assert mine is not None and mine.games == 1
    assert mine.best_round == max(r[0] for r in state.round_scores)
    assert await store.stats(GUILD, 999) is None
    with pytest.raises(persistence.InvalidSettings):
        await store.leaderboard(GUILD, by="luck")  # type: ignore[arg-type]
    record = await store.export_record(info.id)
    result = check(record)
    assert (
        result["ok"]
        and result["finished"]
        and result["totals"] == dict(zip(state.players, state.totals, strict=True))
    )
    # a second game adds up
    info2, state2, rng2 = await started_table(store, 30, rules=HouseRules(target_score=60), seed=5)
    await play_moves(store, info2, state2, rng2, 10_000)
    again = await store.stats(GUILD, 1)
    assert again is not None and again.games == 2
    assert again.points == state.totals[0] + state2.totals[0]
    assert [h.table_id for h in await store.history(30)] == [info2.id, info.id]
    _ = random
