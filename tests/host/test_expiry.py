"""What a table's clock means, decided by the host (host/expiry.py) for any front end: the
human to move is nudged, warned at half time, then timed out and their turn played by the
host; an idle lobby is closed. The front end here only records what it is asked to say."""

from __future__ import annotations

import logging
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from host.clocks import Clocks
from host.expiry import CLOCK_RETRY, Expiry
from host.live import LiveTable, MoveOutcome, Player
from host.service import TableService
from host.tasks import Tasks
from host.thinking import Thinker
from persistence import LeaseLost, StorageError, Store
from tests.host.plain import PlainFront
from tests.services import until

ANN, BOB = Player(1, "ann"), Player(2, "bob")
GUILD, CHANNEL = 7, 10


class Recorder:
    """A front end's side of the clock: what it was asked to say, and what it was told
    the clock committed; also the service's turn clock (every change re-arms)."""

    def __init__(self) -> None:
        self.now = datetime(2026, 1, 1, tzinfo=UTC)
        self.said: list[tuple[str, int, int]] = []  # (what, user, version or seconds left)
        self.outcomes: list[MoveOutcome] = []
        self.expiry: Expiry | None = None

    def clock(self) -> datetime:
        return self.now

    def turn_changed(self, live: LiveTable[Any]) -> None:
        assert self.expiry is not None
        self.expiry.arm(live)

    def table_closed(self, live: LiveTable[Any]) -> None:
        assert self.expiry is not None
        self.expiry.stop(live.id)

    def ping_after(self) -> float:
        return 5.0

    def pinged(self, live: LiveTable[Any], version: int) -> bool:
        return ("ping", live.current_user() or 0, version) in self.said

    def warned(self, live: LiveTable[Any], version: int, warn_at: datetime) -> bool:
        return False

    async def ping(self, live: LiveTable[Any], user: int) -> None:
        self.said.append(("ping", user, live.version))

    async def warn(self, live: LiveTable[Any], user: int, seconds_left: int) -> None:
        self.said.append(("warn", user, seconds_left))

    def committed(self, outcome: MoveOutcome) -> None:
        self.outcomes.append(outcome)


async def hosted(
    tmp_path: Path, front: Recorder | None = None
) -> tuple[Store, TableService[Any], Recorder, Clocks]:
    """A host on a store of its own, its clock ``front``'s (a :class:`Recorder` unless
    given)."""
    store = await Store.open(f"sqlite+aiosqlite:///{tmp_path / 'host.db'}")
    front = front or Recorder()
    service = TableService(
        store, front=PlainFront(), seed=3, clock=front, now=front.clock, thinker=Thinker("thread")
    )
    clocks = Clocks(Tasks(), front.clock)
    front.expiry = Expiry(service, clocks, front)
    return store, service, front, clocks


async def ann_and_bob_playing(service: Any) -> Any:
    """A game of Stack started by ann, bob seated: its live table."""
    await service.new_table(GUILD, CHANNEL, ANN, {}, game="stack")
    await service.join(CHANNEL, BOB)
    return (await service.start(CHANNEL, ANN)).table


async def test_a_human_whose_turn_runs_out_is_nudged_warned_then_played_for_by_the_host(
    tmp_path: Path,
) -> None:
    store, service, front, clocks = await hosted(tmp_path)
    try:
        live = await ann_and_bob_playing(service)
        version, mover = live.version, live.current_user()
        assert mover in (ANN.id, BOB.id) and live.turn_started == front.now
        seat = live.state.current_player if live.state is not None else None
        # the turn timer is the server's default, 120 s: the process was away past it
        front.now += timedelta(seconds=121)
        front.turn_changed(live)
        await until(lambda: bool(front.outcomes))
        assert front.said == [("ping", mover, version), ("warn", mover, -1)]
        (outcome,) = front.outcomes
        assert outcome.table is live and live.version > version
        # the timed-out seat's turn, played by the host and marked as the timer's
        assert outcome.turns and outcome.turns[0].endswith(" (timer)"), outcome.turns
        assert live.state is not None and (live.state.current_player != seat or live.state.is_over)
    finally:
        await clocks.close()
        await store.close()


async def test_an_idle_lobby_is_closed_by_the_host_once_its_time_is_up(tmp_path: Path) -> None:
    store, service, front, clocks = await hosted(tmp_path)
    try:
        live = await service.new_table(GUILD, CHANNEL, ANN, {}, game="stack")
        limit = (await service.settings(live.info)).lobby_timeout
        front.now += timedelta(seconds=limit - 1)
        front.turn_changed(live)
        assert front.expiry is not None
        timer = front.expiry.timers[live.id]
        await until(lambda: timer.task is not None and timer.task.done())  # planned
        assert front.outcomes == [] and live.info.is_active  # not yet: nothing closes it
        front.now += timedelta(seconds=2)
        front.turn_changed(live)
        await until(lambda: bool(front.outcomes))
        (outcome,) = front.outcomes
        assert outcome.table is live and not live.info.is_active and outcome.announced
        assert front.said == []  # a lobby has nobody to move: no nudge, no warning
    finally:
        await clocks.close()
        await store.close()


class Remembers(Recorder):
    """A front end that knows what it said, as Discord's does: a warning pings (the turn
    is pinged then) and is out."""

    def __init__(self) -> None:
        super().__init__()
        self.warned_versions: set[int] = set()
        self.asked = 0  # whether warned: as the clock is planned, and as the warning is due

    def pinged(self, live: LiveTable[Any], version: int) -> bool:
        return super().pinged(live, version) or version in self.warned_versions

    def warned(self, live: LiveTable[Any], version: int, warn_at: datetime) -> bool:
        self.asked += 1
        return version in self.warned_versions

    async def warn(self, live: LiveTable[Any], user: int, seconds_left: int) -> None:
        await super().warn(live, user, seconds_left)
        self.warned_versions.add(live.version)


async def test_a_ping_held_back_past_half_time_is_the_warning_one_message_not_two(
    tmp_path: Path,
) -> None:
    """The process away (or its database) from the turn's start until past the half-time
    mark, before the deadline: the ping due is said as the half-time warning, and the
    warning then due is out already: the player hears one thing, once."""
    front = Remembers()
    store, service, _, clocks = await hosted(tmp_path, front)
    try:
        live = await ann_and_bob_playing(service)
        mover = live.current_user()
        assert mover is not None
        front.now += timedelta(seconds=61)  # 120 s to move: past the ping and half time
        front.turn_changed(live)
        await until(lambda: bool(front.said) and front.asked >= 2)  # the warning's turn came
        assert front.said == [("warn", mover, 59)]
    finally:
        await clocks.close()
        await store.close()


class MovedAway(Recorder):
    """A front end whose ping finds the table's shard taken over by another process (the
    table message's write is fenced)."""

    async def ping(self, live: LiveTable[Any], user: int) -> None:
        raise LeaseLost([0])


async def test_a_clock_whose_table_went_to_another_process_stops_without_an_error(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    """A clock event that finds the table's shard taken over (a process paused, then woken
    after another took its shards) stops the clock quietly: the new holder's clock nudges,
    warns and plays; here nothing more is said or played, and no error is logged (it is a
    hand-over, not a failure)."""
    front = MovedAway()
    store, service, _, clocks = await hosted(tmp_path, front)
    try:
        live = await ann_and_bob_playing(service)
        front.now += timedelta(seconds=121)  # past the ping, the warning and the deadline
        front.turn_changed(live)
        assert front.expiry is not None
        timer = front.expiry.timers[live.id]
        await until(timer.done)
        assert front.said == [] and front.outcomes == []
        assert not [r for r in caplog.records if r.levelno >= logging.ERROR], caplog.text
        assert "another process" in caplog.text
    finally:
        await clocks.close()
        await store.close()


async def test_a_process_that_lost_its_lease_pings_and_warns_nobody(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A ping or a half-time warning posts a message no transaction can take back: like an
    announcement, it is sent only once the database says this process still holds the
    table's shard. A process paused past its lease (its shards taken over), woken with
    its clocks overdue, says nothing: the new holder's clock nudges and warns (found
    with SIGSTOP of one of two real ``stackbot run`` processes)."""
    store, service, front, clocks = await hosted(tmp_path)
    try:
        live = await ann_and_bob_playing(service)

        async def taken_over(guild_id: int) -> None:
            raise LeaseLost([0])

        monkeypatch.setattr(store, "confirm_lease", taken_over)
        front.now += timedelta(seconds=61)  # past the ping and the warning
        front.turn_changed(live)
        assert front.expiry is not None
        timer = front.expiry.timers[live.id]
        await until(lambda: timer.done() or bool(front.said))
        assert front.said == [] and front.outcomes == [] and timer.done()
    finally:
        await clocks.close()
        await store.close()


async def test_a_ping_and_a_warning_whose_lease_check_failed_are_sent_later_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The database fails as a ping (then the half-time warning) asks whether this process
    still holds the table's shard: nothing is sent then, nor lost — each is tried again
    ``CLOCK_RETRY`` seconds later, and sent once."""
    store, service, front, clocks = await hosted(tmp_path)
    try:
        live = await ann_and_bob_playing(service)
        version, mover = live.version, live.current_user()
        assert mover is not None
        confirm = store.confirm_lease
        calls: list[int] = []

        async def cut_at_first_asking(guild_id: int) -> None:
            calls.append(guild_id)
            if len(calls) in (1, 3):  # the ping's first try, the warning's first try
                raise StorageError("the database is unreachable")
            await confirm(guild_id)

        monkeypatch.setattr(store, "confirm_lease", cut_at_first_asking)
        assert front.expiry is not None

        async def at(seconds: float) -> None:
            """The clock reads ``seconds`` into the turn; the scheduler looks again."""
            front.now = live.turn_started + timedelta(seconds=seconds)
            clocks.hold()
            clocks.release()

        front.now += timedelta(seconds=6)  # past the ping (5 s), before the warning (60 s)
        front.turn_changed(live)
        timer = front.expiry.timers[live.id]
        await until(lambda: len(calls) == 1 and timer.task is not None and timer.task.done())
        assert front.said == []
        await at(6 + CLOCK_RETRY + 1)  # the ping tried again
        await until(lambda: bool(front.said))
        assert front.said == [("ping", mover, version)]
        await at(61)  # the warning, whose lease check fails
        await until(lambda: len(calls) == 3 and timer.task is not None and timer.task.done())
        assert front.said == [("ping", mover, version)]
        await at(61 + CLOCK_RETRY + 1)  # tried again, before the turn runs out
        await until(lambda: len(front.said) == 2)
        left = 120 - (61 + int(CLOCK_RETRY) + 1)
        assert front.said == [("ping", mover, version), ("warn", mover, left)]
        await at(121)  # the turn runs out: played for them, nothing said twice
        await until(lambda: bool(front.outcomes))
        assert front.said == [("ping", mover, version), ("warn", mover, left)]
    finally:
        await clocks.close()
        await store.close()
