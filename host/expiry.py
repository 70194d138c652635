"""What a table's clock means, for any front end: when the human to move is nudged, warned
at half time and timed out (the host then plays for them), and when an idle table or lobby
expires (the host closes it). One :class:`~host.clocks.Timer` per table on the clocks'
timer heap, re-armed after every change; an AI seat to move is the table's next event
(its turn a step of its own).

The front end says how it nudges and warns (Discord: the table message posted anew,
pinging the player) and what a committed change owes its channel
(:class:`ClockFront`); it keeps no timer of its own. A nudge or a warning is sent only once
the database says this process still holds the table's shard; when the database fails to
say, it is tried again ``CLOCK_RETRY`` seconds later (not lost, and not sent twice); so is
one the front end got no answer to (:class:`NoAnswer`: it looks first whether it is out).
"""

from __future__ import annotations

import logging
from datetime import datetime, timedelta
from typing import Any, Literal, Protocol

from host.clocks import Clocks, Timer
from host.live import LiveTable, MoveOutcome
from host.refusals import Refusal, Why
from host.service import TableService, ai_to_move
from persistence import LeaseLost, StorageError

log = logging.getLogger(__name__)


class NotConfirmed(Exception):
    """The database could not say (it failed) whether this process still holds the
    table's shard: a ping or a warning is not sent now, but later."""


class NoAnswer(Exception):
    """The front end's nudge or warning got no answer (the connection cut, or the service
    failing): it may be out or not. It is tried again ``CLOCK_RETRY`` seconds later, and
    the front end then looks whether it is out before sending it again (never twice)."""


def moved_away(err: BaseException) -> bool:
    """Whether ``err`` says the table's shard went to another process (a write fenced)."""
    return isinstance(err, LeaseLost) or (isinstance(err, Refusal) and err.code is Why.MOVED_AWAY)


MID_TURN_SECONDS = 60  # a turn begun (Stack: a rerolled die to place), with the timer off
WARN_FROM = 20.0  # turns at least this long get a warning at half time
CLOCK_RETRY = 30.0  # seconds before a failed automatic move or expiry is tried again

Event = Literal["ping", "warn", "expire", "idle"]


class ClockFront(Protocol):
    """What the front end does when a table's clock fires."""

    def ping_after(self) -> float:
        """Seconds into a human's turn before they are nudged to move."""
        ...

    def pinged(self, live: LiveTable[Any], version: int) -> bool:
        """Whether the player to move at ``version`` was nudged already."""
        ...

    def warned(self, live: LiveTable[Any], version: int, warn_at: datetime) -> bool:
        """Whether the half-time warning of ``version``'s turn (due at ``warn_at``) is out."""
        ...

    async def ping(self, live: LiveTable[Any], user: int) -> None:
        """Nudge ``user``, whose turn it is (:class:`NoAnswer`: it may be out or not)."""
        ...

    async def warn(self, live: LiveTable[Any], user: int, seconds_left: int) -> None:
        """Tell ``user`` that half their time is gone (``seconds_left`` left);
        :class:`NoAnswer` as :meth:`ping`."""
        ...

    def committed(self, outcome: MoveOutcome) -> None:
        """What a change the clock committed (a move played, a table closed) owes."""
        ...


class Expiry:
    """Every live table's clock: armed after each change, stopped when the table closes
    or goes to another process."""

    def __init__(self, service: TableService[Any], clocks: Clocks, front: ClockFront) -> None:
        self.service = service
        self.clocks = clocks
        self.front = front
        self.timers: dict[int, Timer] = {}

    async def deadline(self, live: LiveTable[Any]) -> datetime | None:
        """When the current human's turn runs out (``None``: no timer); call it under the
        table's lock (it reads the state)."""
        state = live.state
        if state is None or live.current_user() is None or live.turn_started is None:
            return None
        seconds = (await self.service.settings(live.info)).turn_seconds
        if not seconds and live.game.mid_turn(state):
            seconds = MID_TURN_SECONDS
        return live.turn_started + timedelta(seconds=seconds) if seconds else None

    def stop(self, table_id: int) -> None:
        timer = self.timers.pop(table_id, None)
        if timer is not None:
            timer.cancel()  # not the step calling this (an event that re-arms)

    def arm(self, live: LiveTable[Any]) -> Timer | None:
        """Replace the table's clock, atomically (no await between cancel and start): one
        clock per table, and it reads nothing across an await that it does not re-check."""
        if not live.info.is_active or live.away:
            return None
        self.stop(live.id)
        timer = self.timers[live.id] = self.clocks.timer()
        if ai_to_move(live):  # an AI seat is to move: its turn is the table's next event
            timer.run(self._ai_turn(live, live.version, timer), "AI turn")
            return timer
        timer.run(self._plan(live, live.version, timer), "table clock")
        return timer

    def _retry(self, live: LiveTable[Any], timer: Timer) -> None:
        """Arm the table again ``CLOCK_RETRY`` seconds from now (a step that failed)."""

        async def again() -> None:
            if self.timers.get(live.id) is timer:
                self.arm(live)

        when = self.clocks.now() + timedelta(seconds=CLOCK_RETRY)
        self.clocks.at(timer, when, again, "clock retry")

    async def _ai_turn(self, live: LiveTable[Any], version: int, timer: Timer) -> None:
        """The turns AI seats owe, as a step of their own: those a move left for later (a
        thinking level's, so that the mover was answered first), or those whose commit
        failed (tried again a little later, until storage answers)."""
        try:
            outcome = await self.service.play_owed(live.id, version)
        except Exception as err:  # a refused commit (storage down), a search that broke
            log.warning("table=%s AI turn not played yet: %s", live.id, err)
            self._retry(live, timer)
            return
        timer.finish()
        if outcome is not None:
            self.front.committed(outcome)

    async def _plan(self, live: LiveTable[Any], version: int, timer: Timer) -> None:
        """Plan the table's next events — the ping, the half-time warning, the turn
        running out, the idle limit — on the timer heap; re-armed after every change."""
        settings = await self.service.settings(live.info)
        if self.timers.get(live.id) is not timer:
            return
        events: list[tuple[datetime, Event]] = []
        async with live.lock, live.speaking():  # the committed state, never a step half-played
            user = live.current_user()
            started = live.turn_started
            deadline = await self.deadline(live) if user is not None else None
        if user is not None and started is not None:
            if not self.front.pinged(live, version):
                events.append((started + timedelta(seconds=self.front.ping_after()), "ping"))
            if deadline is not None:
                span = (deadline - started).total_seconds()
                warn_at = started + timedelta(seconds=span / 2)
                if span >= WARN_FROM and not self.front.warned(live, version, warn_at):
                    events.append((warn_at, "warn"))
                events.append((deadline, "expire"))
        limit = settings.lobby_timeout if live.info.status == "lobby" else settings.idle_timeout
        events.append((self.service.idle_since(live) + timedelta(seconds=limit), "idle"))
        events.sort()
        self._next(live, version, timer, events, user)

    def _next(
        self,
        live: LiveTable[Any],
        version: int,
        timer: Timer,
        events: list[tuple[datetime, Event]],
        user: int | None,
    ) -> None:
        """Put the first of the table's ``events`` on the timer heap; when handled, the
        next one follows."""
        if not events:
            timer.finish()
            return
        when, what = events[0]
        rest = events[1:]

        async def fire() -> None:
            if live.version != version or not live.info.is_active:
                timer.finish()
                return
            try:
                if await self._event(live, version, what, user):
                    timer.finish()
                    return
            except (NotConfirmed, NoAnswer) as err:
                # sent only once the database says the shard is still this process's, and
                # one the front end got no answer to is looked for before it is sent again:
                # not lost, tried again a little later (what is due meanwhile comes first)
                log.warning(
                    "table=%s clock event %s not sent yet: %s (%s); tried again in %s s",
                    live.id,
                    what,
                    "the lease not confirmed" if isinstance(err, NotConfirmed) else "no answer",
                    err,
                    CLOCK_RETRY,
                )
                again = (self.clocks.now() + timedelta(seconds=CLOCK_RETRY), what)
                self._next(live, version, timer, sorted([*rest, again]), user)
                return
            except Exception as err:
                if moved_away(err):
                    # the table's shard went to another process, whose clock runs it now
                    # (this one drops the shard's tables): a hand-over, not a failure
                    log.warning(
                        "table=%s clock event %s not handled: the table's shard went to "
                        "another process",
                        live.id,
                        what,
                    )
                    timer.finish()
                    return
                # a refused ping or a failed commit must not stop the clock: the next
                # event (the expiry, the idle limit) still comes, and a failed one is
                # tried again a little later
                log.exception("table=%s clock event %s failed", live.id, what)
                if what in ("expire", "idle"):
                    self._retry(live, timer)
                    return
            self._next(live, version, timer, rest, user)

        self.clocks.at(timer, when, fire, f"clock {what}")

    async def _confirm_lease(self, live: LiveTable[Any]) -> None:
        """Whether this process still holds the table's shard, by the database:
        :class:`~persistence.LeaseLost` if not, :class:`NotConfirmed` if the database
        failed to say."""
        try:
            await self.service.store.confirm_lease(live.index.guild_id)
        except LeaseLost:
            raise
        except StorageError as err:
            raise NotConfirmed(str(err)) from err

    async def _half_time(self, live: LiveTable[Any]) -> tuple[datetime, datetime] | None:
        """The turn's half-time mark and deadline, when the turn has a warning (a
        deadline, ``WARN_FROM`` seconds or more after its start); ``None`` if not."""
        async with live.lock, live.speaking():
            deadline = await self.deadline(live)
            started = live.turn_started
        if deadline is None or started is None:
            return None
        if (deadline - started).total_seconds() < WARN_FROM:
            return None
        return started + (deadline - started) / 2, deadline

    def _seconds_left(self, deadline: datetime | None) -> int:
        return int((deadline - self.clocks.now()).total_seconds()) if deadline else 0

    async def _event(
        self, live: LiveTable[Any], version: int, what: Event, user: int | None
    ) -> bool:
        """Handle one event of the table's clock; ``True`` when the clock's work is done
        (the table changed, and a new clock was armed)."""
        if what == "ping":
            if not self.front.pinged(live, version) and user is not None:
                # a message no transaction takes back: sent only while this process holds
                # the table's shard by the database (one paused past its lease says nothing)
                await self._confirm_lease(live)
                half = await self._half_time(live)
                if half is not None and half[0] <= self.clocks.now() < half[1]:
                    # held back past the half-time mark (a retry): the ping is the warning,
                    # one post, not a ping and a warning on its heels (past the deadline
                    # too: a plain ping, the automatic move on its heels)
                    await self.front.warn(live, user, self._seconds_left(half[1]))
                else:
                    await self.front.ping(live, user)
        elif what == "warn" and user is not None:
            half = await self._half_time(live)
            if half is not None and self.front.warned(live, version, half[0]):
                return False  # out already (a retry, or a late ping that was the warning)
            await self._confirm_lease(live)
            await self.front.warn(live, user, self._seconds_left(half[1] if half else None))
        elif what == "expire":
            # the seat to move timed out: the host plays its automatic move
            outcome = await self.service.auto_move(live.id, version)
            if outcome is not None:
                log.info("table=%s turn timer ran out; moved automatically", live.id)
                self.front.committed(outcome)
            return True
        elif what == "idle":
            expired = await self.service.expire(live.id)
            if expired is not None:
                self.front.committed(expired)
                return True
            self.arm(live)  # a human acted meanwhile: look again
            return True
        return False
