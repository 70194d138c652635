"""A move's data integrity (issue 18): a database cut in the middle of a move leaves
storage and memory agreeing (the move is kept only once its commit returned), the game
plays on once the database is back, and a restart reads it back; a table whose stored log
does not replay is closed on its own, never stopping the others from loading.

The cut is real on PostgreSQL (a TCP proxy between the bot and the server drops every
connection and refuses new ones) and a failing connection on SQLite (every call of the
driver raises SQLite's I/O error), on Stack and Stack Up!, played against the greedy AI
(whose answer is a step of its own, cut too).
"""

from __future__ import annotations

import asyncio
import contextlib
import sqlite3
from collections.abc import AsyncIterator, Callable
from typing import Any
from urllib.parse import urlsplit, urlunsplit

import aiosqlite
import pytest
from sqlalchemy import select, update

import host.expiry
from bot.front import DISCORD
from bot.refusal_words import NOT_SAVED as NOT_SAVED_KEY
from bot.refusal_words import refusal_text
from catalog import t
from engine.errors import MoveError
from host.refusals import Refusal
from host.service import RECENT_TURNS, LiveTable, Player, TableService
from persistence import StorageError, Store
from persistence.schema import moves, outbox, snapshots, tables
from tests.bot.conftest import World, make_bot, refused, table_text_of
from tests.bot.test_game import live_of, table_message, tap
from tests.bot.test_refusals import actor_of, started
from tests.persistence import conftest as persistence_tests
from tests.persistence.conftest import Backend

NOT_SAVED = t(NOT_SAVED_KEY)  # the sentence, in English

GUILD = 70
backend = persistence_tests.backend  # SQLite, and PostgreSQL when TEST_DATABASE_URL is set
ANN, BOB = Player(1, "ann"), Player(2, "bob")


class TcpCut:
    """A TCP proxy in front of PostgreSQL that can cut it: every open connection is
    dropped and new ones are closed at once, until :meth:`restore`."""

    def __init__(self, host: str, port: int) -> None:
        self.target = (host, port)
        self.down = False
        self.links: set[asyncio.StreamWriter] = set()
        self.server: asyncio.Server | None = None
        self.port = 0

    async def start(self) -> None:
        self.server = await asyncio.start_server(self._accept, "127.0.0.1", 0)
        self.port = self.server.sockets[0].getsockname()[1]

    async def _accept(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        if self.down:
            writer.close()
            return
        try:
            up_reader, up_writer = await asyncio.open_connection(*self.target)
        except OSError:
            writer.close()
            return
        self.links |= {writer, up_writer}

        async def pipe(src: asyncio.StreamReader, dst: asyncio.StreamWriter) -> None:
            with contextlib.suppress(OSError, asyncio.CancelledError):
                while data := await src.read(65536):
                    dst.write(data)
                    await dst.drain()
            dst.close()

        await asyncio.gather(pipe(reader, up_writer), pipe(up_reader, writer))
        self.links -= {writer, up_writer}

    def cut(self) -> None:
        self.down = True
        for link in list(self.links):
            transport = link.transport
            transport.abort()  # a reset, as a network cut or a server restart gives
        self.links.clear()

    def restore(self) -> None:
        self.down = False

    async def close(self) -> None:
        self.cut()
        if self.server is not None:
            self.server.close()
            await self.server.wait_closed()


class SqliteCut:
    """SQLite's connections fail while cut: every call of the driver raises the I/O error
    a failing disk gives."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.down = False
        real = aiosqlite.Connection._execute

        async def execute(conn: Any, fn: Callable[..., Any], *args: Any, **kwargs: Any) -> Any:
            if self.down:
                raise sqlite3.OperationalError("disk I/O error")
            return await real(conn, fn, *args, **kwargs)

        monkeypatch.setattr(aiosqlite.Connection, "_execute", execute)

    def cut(self) -> None:
        self.down = True

    def restore(self) -> None:
        self.down = False


class Database:
    """The test's database, reached through a cut that the test controls."""

    def __init__(self, backend: Backend, url: str, fault: TcpCut | SqliteCut) -> None:
        self.backend = backend
        self.url = url
        self.fault = fault

    async def open(self) -> Store:
        return await Store.open(self.url, **self.backend.engine_options)


@pytest.fixture
async def database(backend: Backend, monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[Database]:
    if backend.name == "sqlite":
        yield Database(backend, backend.url, SqliteCut(monkeypatch))
        return
    parts = urlsplit(backend.url)
    proxy = TcpCut(parts.hostname or "127.0.0.1", parts.port or 5432)
    await proxy.start()
    netloc = f"{parts.username}@127.0.0.1:{proxy.port}" if parts.username else ""
    netloc = netloc or f"127.0.0.1:{proxy.port}"
    try:
        yield Database(backend, urlunsplit(parts._replace(netloc=netloc)), proxy)
    finally:
        await proxy.close()


def snapshot(live: LiveTable) -> Any:
    """The table's state as storage keeps it (the same form in memory and read back)."""
    assert live.state is not None
    return live.game.game.snapshot(live.state)


async def stored(store: Store, live: LiveTable) -> tuple[int, Any]:
    loaded = await store.load_table(live.id)
    assert loaded.state is not None
    return loaded.info.version, live.game.game.snapshot(loaded.state)


async def a_game(service: TableService, game: str) -> LiveTable:
    """ann against the greedy AI, started (the AI's opening turns played)."""
    await service.new_table(GUILD, 1, ANN, {}, game=game)
    await service.add_ai(1, ANN, "greedy")
    return (await service.start(1, ANN)).table


async def play(service: TableService, live: LiveTable, turns: int = 1) -> None:
    """ann plays her first legal move ``turns`` times (the AI answers in between)."""
    for _ in range(turns):
        state = live.state
        assert state is not None and live.current_user() == ANN.id, "ann is to move"
        await service.move(
            1, ANN, move=state.legal_moves()[0], table_id=live.id, version=live.version
        )


def cut_at_next_commit(
    store: Store, fault: TcpCut | SqliteCut, monkeypatch: pytest.MonkeyPatch
) -> list[int]:
    """The database goes down once the next step has been played and its commit starts:
    the middle of a move. Returns the versions the cut commits were made at."""
    record = store.record_move
    cut_at: list[int] = []

    async def cutting(table_id: int, expected: int, *args: Any, **kwargs: Any) -> Any:
        if not cut_at:
            cut_at.append(expected)
            fault.cut()
        return await record(table_id, expected, *args, **kwargs)

    monkeypatch.setattr(store, "record_move", cutting)
    return cut_at


@pytest.mark.parametrize("game", ["stack", "stackup"])
async def test_a_database_cut_mid_move_leaves_storage_and_memory_agreeing(
    database: Database, game: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = await database.open()
    try:
        service = TableService(store, front=DISCORD, seed=11)
        live = await a_game(service, game)
        await play(service, live, 2)
        before = (live.version, snapshot(live))
        assert await stored(store, live) == before

        cut_at = cut_at_next_commit(store, database.fault, monkeypatch)
        state = live.state
        assert state is not None
        with pytest.raises(Refusal) as caught:
            await play(service, live)
        assert refusal_text(caught.value) == NOT_SAVED
        assert cut_at == [before[0]]
        # nothing of the move is in memory: the table shows what storage holds
        assert (live.version, snapshot(live)) == before and live.state is state
        # still down: a move is refused the same way, and changes nothing
        with refused(match=NOT_SAVED.replace("?", r"\?")):
            await play(service, live)
        assert (live.version, snapshot(live)) == before

        database.fault.restore()
        assert await stored(store, live) == before  # storage never saw the move
        await play(service, live, 3)  # the game plays on, the AI answering
        assert live.version > before[0]
        assert await stored(store, live) == (live.version, snapshot(live))
        # the whole log replays to the live state (no move missing, none twice)
        whole = await store.replay_log(live.id)
        assert live.game.game.snapshot(whole) == snapshot(live)
        version, state_now = live.version, snapshot(live)
    finally:
        await store.close()

    # a restart: a new store and host over the same database read the game back
    store = await database.open()
    try:
        service = TableService(store, front=DISCORD, seed=12)
        (resumed,) = await service.load()
        assert (resumed.version, snapshot(resumed)) == (version, state_now)
        await play(service, resumed)
        assert await stored(store, resumed) == (resumed.version, snapshot(resumed))
    finally:
        await store.close()


@pytest.mark.parametrize("game", ["stack", "stackup"])
async def test_a_commit_whose_answer_is_lost_is_read_back_before_the_next_move(
    database: Database, game: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The cut comes after the commit was made, before its answer: the move is stored
    while the host was told it failed. The host, told nothing was saved, keeps the table
    as it was and reads it back before its next step, so storage and memory agree again
    and nothing is stored twice or at a version already taken."""
    store = await database.open()
    try:
        service = TableService(store, front=DISCORD, seed=13)
        live = await a_game(service, game)
        await play(service, live)
        before = live.version
        record = store.record_move
        lost: list[int] = []

        async def answer_lost(*args: Any, **kwargs: Any) -> Any:
            result = await record(*args, **kwargs)
            if not lost:
                lost.append(result.version)
                database.fault.cut()
                raise StorageError("the connection was lost before the commit's answer")
            return result

        monkeypatch.setattr(store, "record_move", answer_lost)
        with refused(match="could not be saved"):
            await play(service, live)
        assert live.version == before and live.unsure  # storage went on, memory did not
        database.fault.restore()
        stored_version, _ = await stored(store, live)
        assert stored_version == lost[0] > before
        # the next step reads the table back first: the button was pressed on the table
        # as it was shown, which has moved on since, so it is refused as outdated
        with refused(match="older state of the table"):
            await play(service, live)
        assert not live.unsure and live.version == stored_version
        assert await stored(store, live) == (live.version, snapshot(live))
        await service.play_owed(live.id, live.version)  # the AI's answer the move left owed
        await play(service, live)  # and the game plays on
        assert await stored(store, live) == (live.version, snapshot(live))
        whole = await store.replay_log(live.id)
        assert live.game.game.snapshot(whole) == snapshot(live)
    finally:
        await store.close()


async def logged_after_the_snapshot(store: Store, live: LiveTable) -> bool:
    """Whether the log holds a move of ``live`` after its stored snapshot."""
    async with store.engine.connect() as conn:
        since = (
            await conn.execute(select(snapshots.c.version).where(snapshots.c.table_id == live.id))
        ).scalar_one()
    return bool(live.version > since)


async def corrupt_the_tail(store: Store, live: LiveTable) -> str:
    """Rewrite one move logged after the table's snapshot into one that its state at that
    point refuses (as a move lost from the log leaves the next one); returns the error the
    replay gives."""
    game = live.game.game
    async with store.engine.begin() as conn:
        since = (
            await conn.execute(select(snapshots.c.version).where(snapshots.c.table_id == live.id))
        ).scalar_one()
        rows = (
            await conn.execute(
                select(moves.c.seq, moves.c.move)
                .where(moves.c.table_id == live.id)
                .order_by(moves.c.seq)
            )
        ).all()
        assert rows[-1].seq > since, "no move is logged after the snapshot"
        # the state before the last move: the whole log but that move, played
        state, played, _ = (await store.game_logs([live.id]))[live.id]
        for move in played[:-1]:
            state.apply(move)
        for row in rows:
            candidate = game.decode_move(row.move)
            try:
                state.copy().apply(candidate)
            except MoveError as err:
                await conn.execute(
                    update(moves)
                    .where(moves.c.table_id == live.id, moves.c.seq == rows[-1].seq)
                    .values(move=row.move)
                )
                return str(err)
    raise AssertionError("every logged move is legal there")


async def test_a_table_whose_log_does_not_replay_is_closed_and_the_others_load(
    database: Database,
) -> None:
    store = await database.open()
    try:
        service = TableService(store, front=DISCORD, seed=21)
        stack = await a_game(service, "stack")
        await service.new_table(GUILD, 2, BOB, {}, game="stackup")
        await service.add_ai(2, BOB, "greedy")
        other = (await service.start(2, BOB)).table
        await play(service, stack)
        state = other.state
        assert state is not None and other.current_user() == BOB.id
        await service.move(2, BOB, move=state.legal_moves()[0])
        while not await logged_after_the_snapshot(store, stack):  # one, to be damaged
            await play(service, stack)
        error = await corrupt_the_tail(store, stack)
        async with store.engine.connect() as conn:
            logged = (
                await conn.execute(select(moves.c.seq).where(moves.c.table_id == stack.id))
            ).all()
        other_state = snapshot(other)
    finally:
        await store.close()

    store = await database.open()
    try:
        service = TableService(store, front=DISCORD, seed=22)
        loaded = await service.load()  # no IllegalMoveError: the bot starts
        assert [t.id for t in loaded] == [other.id]
        assert snapshot(loaded[0]) == other_state
        await play_as(service, loaded[0], BOB)  # the other table plays on
        assert stack.id not in service.by_id and 1 not in service.by_channel
        closed = await store.table(stack.id)
        assert closed.status == "abandoned"
        async with store.engine.connect() as conn:
            said = (
                await conn.execute(
                    select(outbox.c.kind, outbox.c.content).where(outbox.c.table_id == stack.id)
                )
            ).all()
            kept = (
                await conn.execute(select(moves.c.seq).where(moves.c.table_id == stack.id))
            ).all()
            status = (
                await conn.execute(select(tables.c.status).where(tables.c.id == stack.id))
            ).scalar_one()
        assert status == "abandoned"
        assert ("table", None) in [(k, c or None) for k, c in said]
        closing = [c for k, c in said if k == "message" and "could not be read back" in c]
        assert len(closing) == 1  # said once (besides who began, owed since the start)
        assert kept == logged  # the log is kept, not deleted
        assert error
        # a restart after that loads the other table alone, and says nothing again
        await store.close()
        store = await database.open()
        service = TableService(store, front=DISCORD, seed=23)
        assert [t.id for t in await service.load()] == [other.id]
    finally:
        await store.close()


async def play_as(service: TableService, live: LiveTable, player: Player) -> None:
    state = live.state
    assert state is not None and live.current_user() == player.id
    await service.move(
        live.channel_id,
        player,
        move=state.legal_moves()[0],
        table_id=live.id,
        version=live.version,
    )


# ---------------------------------------------------------------------------- restarts


@pytest.mark.parametrize("game", ["stack", "stackup", "colorstack"])
async def test_the_recent_turns_are_rebuilt_from_the_log_after_a_restart(
    tmp_path: Any, game: str
) -> None:
    """The turns a table message recalls are kept in memory only: a restart reads them
    back from the stored log, the same words."""
    url = f"sqlite+aiosqlite:///{tmp_path / 'turns.db'}"
    store = await Store.open(url)
    try:
        service = TableService(store, front=DISCORD, seed=31)
        live = await a_game(service, game)
        while live.version < 30:  # long enough for the replay to start from a kept state
            await play(service, live)
        turns = list(live.turns)
        assert len(turns) == RECENT_TURNS, turns
    finally:
        await store.close()
    store = await Store.open(url)
    try:
        (resumed,) = await TableService(store, front=DISCORD, seed=32).load()
        assert list(resumed.turns) == turns
    finally:
        await store.close()


async def test_the_table_message_shows_the_same_recent_turns_after_a_restart(
    world: World,
) -> None:
    live = await started(world, ai=True, target=60, dice=5)
    for _ in range(6):
        live = live_of(world)
        mover = actor_of(world, live.user_at(live.state.current))
        panel = await mover.click(table_message(world), label="My turn")
        await tap(mover, panel.response, live.state.legal_moves()[0])
    shown = table_text_of(table_message(world))
    turns = list(live_of(world).turns)
    assert len(turns) >= 3 and all(t in shown for t in turns[-3:]), shown
    new_bot = make_bot(world.db, seed=99)
    await world.env.restart_bot(new_bot)
    world.bot = new_bot
    assert list(live_of(world).turns) == turns
    assert table_text_of(table_message(world)) == shown


async def test_a_kill_while_the_ai_thinks_keeps_the_human_move_and_the_ai_plays_after(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    """alice against Color Stack's expert AI: her move is committed and answered without
    waiting for the expert's search; the process dies before the search ends (it never
    does here); after the restart her move is there and the expert plays its owed turn."""
    service = world.bot.tables.service
    opened = await world.alice.slash(world.channel, "table new", game="colorstack")
    await world.alice.slash(world.channel, "table addbot", level="expert")
    await world.alice.click(opened.response, label="Start")
    live = service.by_channel[world.channel.id]
    assert live.current_user() == world.alice.id  # after the expert's opening
    never = asyncio.Event()
    asked: list[str] = []

    async def stuck(game: Any, state: Any, level: str, seed: int) -> Any:
        asked.append(level)
        await world.env.external_wait(never.wait(), reason="a search that never ends")
        raise AssertionError("the search was never to end")

    monkeypatch.setattr(service.thinker, "choose", stuck)
    version = live.version
    state = live.state
    assert state is not None
    move = next(
        n for n in (live.game.game.move_notation(state, m) for m in state.legal_moves()) if "-" in n
    )
    moved = await world.alice.slash(world.channel, "move", move=move)
    assert moved.ephemeral and moved.response.content.startswith("✅"), moved.response.content
    await world.env.settle()
    assert asked == ["expert"]  # the expert is searching (for ever)
    assert live.version == version + 1
    loaded = await world.bot.store.load_table(live.id)
    assert loaded.info.version == version + 1  # her move is stored
    # the table message shows her move meanwhile (the search holds nothing of the table)
    said = moved.response.content.removeprefix("✅ ").rstrip(".")
    assert said in table_text_of(table_message(world))

    new_bot = make_bot(world.db, seed=99)
    await world.env.restart_bot(new_bot)  # the old process is gone, its search with it
    world.bot = new_bot
    resumed = live_of(world)
    assert resumed.version == version + 2  # the expert's owed turn, played at start-up
    assert resumed.current_user() == world.alice.id
    stored_moves = await new_bot.store.game_logs([resumed.id])
    assert len(stored_moves[resumed.id][1]) >= 2


# ---------------------------------------------------------------------------- on Discord


async def test_a_move_tapped_while_the_database_is_cut_is_refused_and_plays_after(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    """On simulated Discord (SQLite failing mid-move): the player is told the move was not
    saved, the table message still shows the stored table, and the same tap plays once the
    database is back."""
    fault = SqliteCut(monkeypatch)
    live = await started(world, ai=True, target=60, dice=5)
    mover = actor_of(world, live.user_at(live.state.current))
    panel = await mover.click(table_message(world), label="My turn")
    shown = table_text_of(table_message(world))
    before = (live.version, live.state.to_dict())
    store = world.bot.store
    assert store is not None
    cut_at_next_commit(store, fault, monkeypatch)
    move = live.state.legal_moves()[0]
    refused = await tap(mover, panel.response, move)
    assert refused.ephemeral and refused.response.content == NOT_SAVED
    assert (live_of(world).version, live_of(world).state.to_dict()) == before
    assert table_text_of(table_message(world)) == shown
    fault.restore()
    panel = await mover.click(table_message(world), label="My turn")
    played = await tap(mover, panel.response, move)
    content = played.response.content if played.response else ""
    assert content and content != NOT_SAVED, content
    now = live_of(world)
    assert now.version > before[0]
    assert await stored(store, now) == (now.version, snapshot(now))


async def test_a_table_whose_log_does_not_replay_is_closed_in_its_channel_at_restart(
    world: World,
) -> None:
    live = await started(world, ai=True, target=60, dice=5)
    other_channel = world.guild.create_text_channel("other")
    lobby = await world.carol.slash(other_channel, "table new")
    await world.carol.click(lobby.response, label="Add AI")
    await world.carol.click(lobby.response, label="Start")
    other = world.bot.tables.service.by_channel[other_channel.id]
    store = world.bot.store
    assert store is not None
    while not await logged_after_the_snapshot(store, live_of(world)):  # one, to be damaged
        live = live_of(world)
        mover = actor_of(world, live.user_at(live.state.current))
        panel = await mover.click(table_message(world), label="My turn")
        await tap(mover, panel.response, live.state.legal_moves()[0])
    await corrupt_the_tail(store, live_of(world))

    new_bot = make_bot(world.db, seed=99)
    await world.env.restart_bot(new_bot)  # the bot starts: no IllegalMoveError
    world.bot = new_bot
    service = new_bot.tables.service
    assert world.channel.id not in service.by_channel
    assert service.by_channel[other_channel.id].version == other.version  # loaded
    said = [table_text_of(m) for m in world.channel.history()]
    assert any("could not be read back" in t for t in said), said
    assert (await new_bot.store.table(live.id)).status == "abandoned"


async def test_the_human_move_stands_when_the_ai_answer_cannot_be_stored(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The database fails between the human's commit and the AI's: the human is answered
    (their move is stored), the AI's turn stays owed, and it is played once the database
    is back (the table's AI turn is tried again a little later)."""
    fault = SqliteCut(monkeypatch)
    live = await started(world, ai=True, target=60, dice=5)
    store = world.bot.store
    assert store is not None
    record = store.record_move
    cuts: list[int] = []  # the version the AI's answer was to be stored at

    async def cut_before_the_ais(*args: Any, **kwargs: Any) -> Any:
        if not kwargs.get("human") and len(cuts) < 1:  # the AI's answer, a step of its own
            cuts.append(args[1])
            fault.cut()
        return await record(*args, **kwargs)

    monkeypatch.setattr(store, "record_move", cut_before_the_ais)
    for _ in range(20):  # the human plays until their turn ends and the AI is owed a turn
        live = live_of(world)
        mover = actor_of(world, live.user_at(live.state.current))
        panel = await mover.click(table_message(world), label="My turn")
        answer = await tap(mover, panel.response, live.state.legal_moves()[0])
        assert answer.response.content != NOT_SAVED
        if fault.down:
            break
    assert fault.down, "the AI never had to answer"
    live = live_of(world)
    assert cuts and live.version == cuts[0]  # the human's move is kept, and shown
    assert live.info.seats[live.state.current_player].is_ai  # the AI's turn is owed
    fault.restore()
    assert await stored(store, live) == (live.version, snapshot(live))
    await world.env.advance_time(host.expiry.CLOCK_RETRY + 1)
    live = live_of(world)
    assert live.version > cuts[0] and not live.info.seats[live.state.current_player].is_ai
    assert await stored(store, live) == (live.version, snapshot(live))
