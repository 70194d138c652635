"""Issue 9's upgrade: a database built by the release before it (its schema and data:
finished games, one of them in teams and one a player left, a game in progress two rounds
in, a lobby, an ended game, house rules and timers, stats in two servers, the outbox) is
upgraded in place by this code. Everything reads as the release read it; the game in
progress resumes and ends with this code, crediting its players on top of their stats of
before; and the migration goes back down to what the release reads the same again.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import text

from engine.stack.record import check
from engine.stack.rules import HouseRules
from persistence.database import make_engine
from persistence.migrate import head_revision
from persistence.schema import metadata
from tests.persistence.conftest import Backend
from tests.persistence.helpers import downgrade_to, placed_counts, play_moves, started_table
from tests.persistence.old_release import GUILD, read
from tests.persistence.release import Where, as_before, as_json, run_release, shared_places

# what the release read, compared field by field (the records and states: whole)
READS = ("history", "leaderboard", "stats", "sheets", "settings", "live_info", "outbox", "active")


async def revision(backend: Backend) -> str:
    engine = make_engine(backend.url, **backend.engine_options)
    try:
        async with engine.connect() as conn:
            return str(
                (await conn.execute(text("SELECT version_num FROM alembic_version"))).scalar_one()
            )
    finally:
        await engine.dispose()


def built_by_the_release(backend: Backend, release_code: Path, tmp_path: Path) -> Any:
    return run_release(
        release_code, Where.of(backend.url, backend.engine_options), tmp_path / "before.json"
    )


async def test_the_releases_database_upgrades_in_place_and_reads_as_before(
    backend: Backend, release_code: Path, tmp_path: Path
) -> None:
    before = built_by_the_release(backend, release_code, tmp_path)
    assert await revision(backend) == "0004"
    async with backend.opened() as store:
        assert await revision(backend) == head_revision()
        async with store.engine.connect() as conn:
            diff = await conn.run_sync(
                lambda c: list(compare_metadata(MigrationContext.configure(c), metadata))
            )
        assert diff == []  # exactly the schema of this code
        now = await read(store, before["ids"])  # what the release read, read by this code
        # (a tie shares its place now, where the release numbered tied lines apart)
        boards = before["leaderboard"]
        before["leaderboard"] = {key: shared_places(board) for key, board in boards.items()}
        for key in READS:
            assert as_before(before[key], now[key]) == before[key], key
        assert as_json(now["records"]) == before["records"]
        assert as_json(now["live_state"]) == before["live_state"]
        # and what the generic fields say of the Stack data of before
        info = now["live_info"]
        assert info.game == "stack" and info.rules_record == before["live_info"]["rules"]
        mine = now["stats"][f"{GUILD}/1"]
        assert mine.game == "stack" and mine.figures["captures"] == mine.captures
        assert {g.ended_by for g in now["history"]["70"]} == {"target"}


async def test_the_game_in_progress_resumes_and_ends_with_this_code(
    backend: Backend, release_code: Path, tmp_path: Path
) -> None:
    before = built_by_the_release(backend, release_code, tmp_path)
    live_id = before["ids"]["live"]
    async with backend.opened() as store:
        loaded = await store.load_table(live_id)
        state = loaded.state
        assert state is not None and not state.has_full_history  # its snapshot is compact
        assert loaded.info.version == before["ids"]["live_version"]
        await play_moves(store, loaded.info, state, random.Random(17), 100_000)
        assert state.is_over and (await store.table(live_id)).status == "finished"
        # the whole game replays from the initial state the migration stored
        whole = await store.replay_log(live_id)
        assert whole.has_full_history
        assert whole.to_dict(full_history=False) == state.to_dict(full_history=False)
        result = check(await store.export_record(live_id))
        assert result["ok"] and result["finished"]
        # its players are credited on top of their stats of before
        assert whole.winner is not None
        for user in (1, 2):
            old = before["stats"][f"{GUILD}/{user}"]
            seat = whole.players.index(f"user{user}")
            new = await store.stats(GUILD, user)
            assert new is not None
            assert new.games == old["games"] + 1
            assert new.wins == old["wins"] + (seat in whole.winner)
            assert new.points == old["points"] + whole.totals[seat]
            assert new.rounds == old["rounds"] + len(whole.round_scores)
            assert new.captures == old["captures"] + whole.capture_counts[seat]
            best = max(r[seat] for r in whole.round_scores)
            assert new.best_round == max(old["best_round"], best)
            gained = placed_counts(whole)[seat]
            assert list(new.placed) == [a + b for a, b in zip(old["placed"], gained, strict=True)]
            assert new.recent[0].table_id == live_id and len(new.recent) == len(old["recent"]) + 1
        assert [g.table_id for g in await store.history(71)] == [live_id]
        sheet = await store.score_sheet(live_id)
        assert sheet.finished and sheet.totals == tuple(whole.totals)
        assert [list(r) for r in sheet.rounds] == whole.round_scores
        # a new game in the upgraded database counts the same way
        info, fresh, rng = await started_table(store, 76, seed=2, rules=HouseRules(target_score=40))
        await play_moves(store, info, fresh, rng, 100_000)
        stats = await store.stats(GUILD, 1)
        assert stats is not None and stats.games == before["stats"][f"{GUILD}/1"]["games"] + 2


async def test_the_upgrade_goes_back_down_to_what_the_release_reads_the_same(
    backend: Backend, release_code: Path, tmp_path: Path
) -> None:
    before = built_by_the_release(backend, release_code, tmp_path)
    store = await backend.open()  # upgraded
    await store.close()
    engine = make_engine(backend.url, **backend.engine_options)
    try:
        async with engine.begin() as conn:
            await conn.run_sync(downgrade_to, "0004")
    finally:
        await engine.dispose()
    assert await revision(backend) == "0004"
    where = Where.of(backend.url, backend.engine_options)
    again = run_release(release_code, where, tmp_path / "again.json", before["ids"])
    assert again == before
