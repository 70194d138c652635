"""A database that stalls or is cut (issue 18, items 3 and 5): every wait on it is
bounded, a move that cannot be saved in time is answered (deferred first when it takes
long) with "That move could not be saved, so nothing was played; try again", other actions
with a clear "could not be saved or read", logged once at WARNING without a traceback; and
once the database is back the next move works (the writer reconnects)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import sqlite3
import subprocess
import sys
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import exc, text
from sqlalchemy.engine import make_url

import persistence.database
import persistence.writer
from bot.views import STORAGE_NOTE
from catalog import t
from persistence import StorageError, Store
from persistence.errors import DatabaseUnavailable
from tests.bot.conftest import World, buttons_of
from tests.bot.test_game import live_of, table_message
from tests.bot.test_refusals import started
from tests.persistence.helpers import next_step, started_table
from tests.services import POSTGRES_URL, fresh_schema, in_schema

NOT_SAVED = "That move could not be saved, so nothing was played; try again."
ROOT = Path(__file__).resolve().parents[2]
BOUND = 60.0  # far above every limit the tests set: only a wait without limit reaches it


class StallingProxy:
    """A TCP proxy to PostgreSQL (:mod:`tests.bot.stall_proxy`, a process of its own) that
    can stop forwarding (``stall``), be cut (``cut``) and ``heal``."""

    def __init__(self, host: str, port: int) -> None:
        self.target = (host, port)
        self.child: subprocess.Popen[str] | None = None
        self.port = 0

    async def start(self) -> None:
        self.child = subprocess.Popen(
            [sys.executable, "-m", "tests.bot.stall_proxy", self.target[0], str(self.target[1])],
            cwd=ROOT,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
            env={**os.environ, "PYTHONPATH": str(ROOT)},
        )
        assert self.child.stdout is not None
        self.port = int(self.child.stdout.readline())

    def _say(self, word: str) -> None:
        assert self.child is not None and self.child.stdin and self.child.stdout
        self.child.stdin.write(word + "\n")
        self.child.stdin.flush()
        assert self.child.stdout.readline().strip() == "ok"

    def stall(self) -> None:
        self._say("stall")

    def cut(self) -> None:
        self._say("cut")

    def heal(self) -> None:
        self._say("heal")

    async def close(self) -> None:
        if self.child is not None:
            assert self.child.stdin is not None
            self.child.stdin.close()
            try:
                self.child.wait(BOUND)
            except subprocess.TimeoutExpired:
                self.child.kill()
                self.child.wait()
            if self.child.stdout is not None:
                self.child.stdout.close()


@pytest.fixture
def short_limits(monkeypatch: pytest.MonkeyPatch) -> None:
    """The production limits, made short so that the tests run fast (the code under test
    reads them where it uses them)."""
    monkeypatch.setattr(persistence.database, "CONNECT_SECONDS", 2)
    monkeypatch.setattr(persistence.database, "STATEMENT_SECONDS", 1)
    monkeypatch.setattr(persistence.database, "POOL_SECONDS", 2)
    monkeypatch.setattr(persistence.database, "SQLITE_BUSY_SECONDS", 1)
    monkeypatch.setattr(persistence.writer, "BATCH_SECONDS", 3)


@pytest.fixture
async def proxied_store(short_limits: None) -> AsyncIterator[tuple[Store, StallingProxy]]:
    if not POSTGRES_URL:
        pytest.skip("TEST_DATABASE_URL is not set")
    url = make_url(POSTGRES_URL)
    async with fresh_schema(POSTGRES_URL) as schema:
        proxy = StallingProxy(url.host or "127.0.0.1", url.port or 5432)
        await proxy.start()
        proxied = url.set(host="127.0.0.1", port=proxy.port).render_as_string(hide_password=False)
        store = await Store.open(proxied, **in_schema(schema))
        try:
            yield store, proxy
        finally:
            proxy.heal()
            with contextlib.suppress(Exception):
                await asyncio.wait_for(store.close(), BOUND)
            await proxy.close()


async def test_a_stalled_postgresql_fails_a_move_in_bounded_time_and_the_next_move_works(
    proxied_store: tuple[Store, StallingProxy],
) -> None:
    store, proxy = proxied_store
    info, state, rng = await started_table(store, 10)
    moves = next_step(state, rng)
    version = (await store.record_move(info.id, info.version, moves, state)).version

    proxy.stall()
    stalled_moves = next_step(state, rng)
    # the move is refused as "not saved" (a StorageError, as the move path expects), and
    # reads fail too, each within its limits: nothing waits for the stall to end
    with pytest.raises(DatabaseUnavailable):
        await asyncio.wait_for(store.record_move(info.id, version, stalled_moves, state), BOUND)
    with pytest.raises(Exception) as read_error:
        await asyncio.wait_for(store.load_table(info.id), BOUND)
    assert persistence.database.is_database_fault(read_error.value), read_error.value

    proxy.heal()
    # back: the writer opens a new connection; the table is as last committed
    loaded = await asyncio.wait_for(store.load_table(info.id), BOUND)
    assert loaded.info.version == version
    state = loaded.state
    moves = next_step(state, rng)
    result = await asyncio.wait_for(store.record_move(info.id, version, moves, state), BOUND)
    assert result.version == version + len(moves)
    assert (await store.load_table(info.id)).info.version == result.version


# ---------------------------------------------------------------- through Discord


def mover_of(world: World, live: Any) -> Any:
    return {world.alice.id: world.alice, world.bob.id: world.bob}[live.current_user()]


async def a_move(world: World, *, whole: bool = False) -> Any:
    """The player to move rerolls a die they hold (Stack), answered; ``whole``: and, if
    the rerolled die must then go on a pile, puts it on the first pile offered."""
    live = live_of(world)
    state = live.state
    die = next(f for f in range(1, 7) if state.singles[state.current][f])
    player = mover_of(world, live)
    result = await player.slash(world.channel, "reroll", die=die)
    chooser = buttons_of(result.response) if result.response is not None else []
    if whole and chooser:
        result = await player.click(result.response, custom_id=chooser[0]["custom_id"])
    return result


def loud(caplog: pytest.LogCaptureFixture) -> list[tuple[str, str]]:
    return [
        (r.levelname, r.getMessage())
        for r in caplog.records
        if r.levelno >= logging.ERROR or r.exc_info
    ]


@contextlib.contextmanager
def sqlite_locked(db: Path) -> Any:
    """Another program holds the SQLite file's write lock."""
    other = sqlite3.connect(db, isolation_level=None, timeout=30)
    try:
        other.execute("BEGIN EXCLUSIVE")
        yield
        other.execute("ROLLBACK")
    finally:
        other.close()


async def test_a_locked_sqlite_database_answers_not_saved_and_the_next_move_works(
    short_limits: None, world: World, caplog: pytest.LogCaptureFixture
) -> None:
    live = await started(world, target=10_000, dice=20)
    before = live.state.to_dict()
    version = live.version
    caplog.set_level(logging.INFO)
    with sqlite_locked(world.db):
        result = await a_move(world)
    assert result.ephemeral and result.response.content == NOT_SAVED
    assert live_of(world).version == version and live_of(world).state.to_dict() == before
    assert not loud(caplog), loud(caplog)
    again = await a_move(world, whole=True)
    assert again.response.content.startswith("✅"), again.response.content
    assert live_of(world).version > version


async def test_a_move_whose_save_stalls_is_deferred_then_answered_not_saved(
    world: World, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    live = await started(world, target=10_000, dice=20)
    version = live.version
    store = world.bot.tables.store

    async def stalled(*args: Any, **kwargs: Any) -> Any:
        await asyncio.sleep(persistence.writer.BATCH_SECONDS)  # as long as the writer waits
        raise DatabaseUnavailable("storing failed: the database did not answer in time")

    monkeypatch.setattr(store, "record_move", stalled)
    caplog.set_level(logging.INFO)
    result = await a_move(world)
    # still saving after DEFER_AFTER (2.5 s): answered within Discord's 3 s, "thinking…"
    assert result.deferred and result.response.content == ""
    await world.env.advance_time(persistence.writer.BATCH_SECONDS)
    assert result.response is not None and result.ephemeral
    assert result.response.content == NOT_SAVED  # the deferred answer, edited
    assert not result.followups
    assert live_of(world).version == version
    assert not loud(caplog), loud(caplog)
    monkeypatch.undo()
    again = await a_move(world, whole=True)
    assert again.response.content.startswith("✅"), again.response.content


def cut_connection() -> exc.OperationalError:
    """What SQLAlchemy raises when PostgreSQL's connection is cut mid-statement."""
    return exc.OperationalError(
        "SELECT ...", {}, ConnectionResetError(104, "Connection reset by peer")
    )


async def test_a_database_cut_answers_other_actions_clearly_and_warns_once(
    world: World, caplog: pytest.LogCaptureFixture, monkeypatch: pytest.MonkeyPatch
) -> None:
    import bot.views

    monkeypatch.setattr(bot.views, "_fault_warned_at", -bot.views.FAULT_WARN_EVERY)
    live = await started(world, target=10_000, dice=20)
    store = world.bot.tables.store

    async def unreachable(*args: Any, **kwargs: Any) -> Any:
        raise cut_connection()

    for name in ("leaderboard", "stats", "join_table"):
        monkeypatch.setattr(store, name, unreachable)
    caplog.set_level(logging.INFO)
    answers = [
        await world.alice.slash(world.channel, "leaderboard"),
        await world.bob.slash(world.channel, "stats"),
        await world.carol.slash(world.channel, "leaderboard", by="points"),
    ]
    for result in answers:
        assert result.ephemeral and result.response.content == t(STORAGE_NOTE)
    warnings = [r for r in caplog.records if r.levelno == logging.WARNING]
    assert len(warnings) == 1, [r.getMessage() for r in warnings]
    assert "database is unavailable" in warnings[0].getMessage()
    assert not loud(caplog), loud(caplog)
    assert live_of(world).version == live.version


def test_a_storage_error_of_the_writer_is_a_storage_error() -> None:
    # the move path turns every StorageError into "could not be saved": a timeout too
    assert issubclass(DatabaseUnavailable, StorageError)
    assert persistence.database.is_database_fault(DatabaseUnavailable("timed out"))
    assert not persistence.database.is_database_fault(StorageError("a refusal"))
    # an OSError or a timeout of something else (a drawing, Discord) is no database fault
    assert not persistence.database.is_database_fault(TimeoutError())
    assert not persistence.database.is_database_fault(FileNotFoundError(2, "font.ttf"))


async def test_my_turn_while_the_table_waits_on_a_stalled_database_is_answered_in_time(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    live = await started(world, target=10_000, dice=20)
    waiting = mover_of(world, live)
    other = world.bob if waiting == world.alice else world.alice
    service = world.bot.tables.service
    seat_of = service.seat_of

    async def held(*args: Any, **kwargs: Any) -> Any:
        # the table's lock is held as long as a move waits on a stalled database
        await asyncio.sleep(persistence.writer.BATCH_SECONDS)
        return await seat_of(*args, **kwargs)

    monkeypatch.setattr(service, "seat_of", held)
    panel = await other.click(table_message(world), label="My turn")
    assert panel.deferred and not panel.followups  # answered in time while it waits
    await world.env.advance_time(persistence.writer.BATCH_SECONDS)
    shown = panel.followups[0] if panel.followups else panel.response
    assert shown is not None and shown.content.startswith("It's "), shown


async def test_postgresql_sessions_are_time_limited_but_the_start_up_migration_is_not() -> None:
    if not POSTGRES_URL:
        pytest.skip("TEST_DATABASE_URL is not set")
    from persistence.database import make_engine, migration_options

    for options, statement, command in [
        ({}, "12s", persistence.database.STATEMENT_SECONDS),
        (migration_options({}), "0", None),
    ]:
        engine = make_engine(POSTGRES_URL, **options)
        try:
            async with engine.connect() as conn:
                shown = (await conn.execute(text("SHOW statement_timeout"))).scalar_one()
                raw = (await conn.get_raw_connection()).driver_connection
                assert shown == statement
                assert raw._config.command_timeout == command
        finally:
            await engine.dispose()
