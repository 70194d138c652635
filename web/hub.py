"""The live tables' watchers, told of every commit: the host's turn clock of the web.

The host calls :meth:`Hub.turn_changed` after each step it committed (and
:meth:`Hub.table_closed` when a table ends), holding the table's lock: the hub reads the
table's public view there, once, and hands it to every page watching the table; a seated
player's page gets its own view with the seat's secrets added (:func:`web.views.private_view`),
and nobody else's. Each watcher sends from a task of its own, the newest view only (a
slow page skips views it had no time for: each is the whole table), so that no commit
waits on a page.

Each page reads the table in its own language (the watcher's): the views are worded in
each language a watching page speaks (:func:`catalog.speaking`), once per language.
The table's recent turns are the host's words, said once in the table's language.

It measures the time from the host's call to the frame handed to the socket
(:attr:`Hub.sent_ms`): the commit → frame-sent latency.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections import deque
from collections.abc import Awaitable, Callable
from typing import Any

import orjson

import catalog
from host.live import LiveTable, TurnClock
from web.views import private_view, table_view

log = logging.getLogger(__name__)
LATENCY_SAMPLES = 10_000
FINISHED_KEPT = 50

Send = Callable[[str], Awaitable[None]]


class Watcher:
    """One page watching one table: the user it is bound to (``None``: a spectator), the
    language it reads and the newest frame it has yet to send."""

    def __init__(
        self,
        table_id: int,
        user_id: int | None,
        send: Send,
        hub: Hub,
        bound: Callable[[], bool] = lambda: True,
        language: str = catalog.DEFAULT,
    ) -> None:
        self.table_id, self._user_id, self._bound = table_id, user_id, bound
        self.language = language
        self._send, self._hub = send, hub
        self._pending: tuple[str, float] | None = None
        self._ready = asyncio.Event()
        self._task = asyncio.get_running_loop().create_task(self._run())

    @property
    def user_id(self) -> int | None:
        """The user the page is bound to while its session lasts; then ``None`` (a
        spectator's frames from then on)."""
        return self._user_id if self._user_id is not None and self._bound() else None

    def push(self, frame: str, since: float) -> None:
        self._pending = (frame, since)
        self._ready.set()

    async def _run(self) -> None:
        while True:
            await self._ready.wait()
            self._ready.clear()
            pending, self._pending = self._pending, None
            if pending is None:
                continue
            frame, since = pending
            try:
                await self._send(frame)
            except (ConnectionError, RuntimeError) as err:  # the page went away
                log.debug("table %s: a page went away (%s)", self.table_id, err)
                return
            self._hub.sent_ms.append((time.perf_counter() - since) * 1000)

    async def close(self) -> None:
        self._task.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await self._task


class Hub(TurnClock):
    """Every page watching a live table, by table id; also the host's turn clock (pass
    it as ``clock``, or call it from the front end's own)."""

    def __init__(self, then: TurnClock | None = None) -> None:
        self.watchers: dict[int, set[Watcher]] = {}
        self.sent_ms: deque[float] = deque(maxlen=LATENCY_SAMPLES)
        self.finished: deque[int] = deque(maxlen=FINISHED_KEPT)  # newest last
        self.games: dict[int, str] = {}  # the game (its name) of each of ``finished``, by id
        # users an AI plays though the host seated them as people (the demo's), its level
        self.ai_users: dict[int, str] = {}
        self.then = then  # the front end's own clock, told after the hub

    def watch(
        self,
        live: LiveTable[Any],
        user_id: int | None,
        send: Send,
        bound: Callable[[], bool] = lambda: True,
        language: str = catalog.DEFAULT,
    ) -> Watcher:
        """A page now watches ``live``, as ``user_id`` while ``bound()`` (its session
        lasts), in ``language``; it is sent the table as it is at once."""
        watcher = Watcher(live.id, user_id, send, self, bound, language)
        self.watchers.setdefault(live.id, set()).add(watcher)
        with catalog.speaking(language):
            frame = self.frame(live, watcher.user_id)
        watcher.push(frame, time.perf_counter())
        return watcher

    async def unwatch(self, watcher: Watcher) -> None:
        watching = self.watchers.get(watcher.table_id)
        if watching is not None:
            watching.discard(watcher)
            if not watching:
                del self.watchers[watcher.table_id]
        await watcher.close()

    def frame(
        self, live: LiveTable[Any], user_id: int | None, public: dict[str, Any] | None = None
    ) -> str:
        """The table as ``user_id`` may see it, as a JSON text frame, in the language
        spoken (``public``: the table's public view in it)."""
        view = public if public is not None else table_view(live, self.ai_users)
        seat = _seat_of(live, user_id)
        if seat is not None:
            view = {**view, "you": private_view(live, seat)}
        view["sent_at"] = time.time() * 1000
        return orjson.dumps(view).decode()

    def publish(self, live: LiveTable[Any]) -> None:
        """Send the table's view to every page watching it."""
        since = time.perf_counter()
        watching = self.watchers.get(live.id)
        if not watching:
            return
        languages = sorted({w.language for w in watching})
        for language in languages:
            with catalog.speaking(language):
                public = table_view(live, self.ai_users)
                public["sent_at"] = time.time() * 1000
                spectators = orjson.dumps(public).decode()
                for watcher in watching:
                    if watcher.language != language:
                        continue
                    user = watcher.user_id
                    if _seat_of(live, user) is None:
                        watcher.push(spectators, since)
                    else:
                        watcher.push(self.frame(live, user, public), since)

    # ------------------------------------------------------------ TurnClock

    def turn_changed(self, live: LiveTable[Any]) -> None:
        self.publish(live)
        if self.then is not None:
            self.then.turn_changed(live)

    def table_closed(self, live: LiveTable[Any]) -> None:
        if live.state is not None and live.state.is_over and live.id not in self.finished:
            if len(self.finished) == self.finished.maxlen:
                self.games.pop(self.finished[0], None)
            self.finished.append(live.id)
            self.games[live.id] = live.info.game
        self.publish(live)
        if self.then is not None:
            self.then.table_closed(live)


def _seat_of(live: LiveTable[Any], user_id: int | None) -> int | None:
    """The seat ``user_id`` plays at ``live`` (``None``: none, or an AI plays it now)."""
    if user_id is None:
        return None
    seat = live.info.seat_of(user_id)
    return None if seat is None or seat.is_ai else seat.position
