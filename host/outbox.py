"""What committed moves owe their channels: the outbox rows (who begins a game, round
ends, game ends, closing messages, a closed table's last edit), delivered in order, once
each; who begins as the public answer to the start when it can be (:meth:`Outbox.answer`).

A row is written in the same transaction as the move that owes it, so a crash between the
commit and the message loses nothing: :meth:`Outbox.deliver` sends it later. The sending
itself is the front end's (a :class:`Courier`); this module decides what is owed, in which
order, whether this process may still send it (its shard's lease), and marks it delivered.
A row the front end could not send now is tried again after ``REDELIVER_AFTER`` seconds;
one it refused for good is dropped, and the rows after it still go out. A row posted but
not marked delivered (the database cut at that moment) is remembered as posted, warned of
once, and marked later, never posted again. A delivered row keeps the front end's id of the
message it posted (:attr:`Delivered.post`), so that after a crash the rows owed are looked
for only among the channel's later posts (:meth:`persistence.Store.last_post`).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Protocol

from host.tasks import Tasks
from persistence import LeaseLost, StorageError, Store
from persistence.records import OutboxItem

log = logging.getLogger(__name__)
REDELIVER_AFTER = 30.0  # seconds before a failed outbox delivery is tried again


@dataclass(frozen=True, slots=True)
class Delivered:
    """A row the front end is done with (sent, or refused for good and dropped); ``post``:
    the front end's id of the message it posted, if it posted one."""

    post: int | None = None


class Courier(Protocol):
    """How a front end delivers one outbox row."""

    async def send(self, item: OutboxItem) -> Delivered | None:
        """Deliver ``item``: :class:`Delivered` once done with it, ``None`` when it should
        be tried again later."""
        ...


class Outbox:
    """The outbox of every table this process serves."""

    def __init__(
        self, store: Store, courier: Courier, tasks: Tasks, owns: Callable[[int], bool]
    ) -> None:
        self.store = store
        self.courier = courier
        self.tasks = tasks
        self.owns = owns  # whether this process serves a server's tables now
        self._delivering: dict[int, asyncio.Lock] = {}
        self._users: dict[int, int] = {}  # table -> the deliveries holding or awaiting its lock
        self._guild_of: dict[int, int] = {}  # table -> server, of the deliveries under way
        # rows posted, not marked delivered yet (a cut): row id -> its post, if known
        self._unmarked: dict[int, int | None] = {}

    async def deliver(self, table_id: int, guild_id: int | None = None) -> None:
        """Send the table's undelivered outbox rows, in order, once each — unless the
        table's server (``guild_id``) is served by another process now: that one
        delivers them."""
        if guild_id is not None and not self.owns(guild_id):
            return
        if guild_id is not None:
            self._guild_of[table_id] = guild_id
        async with self._turn(table_id):
            if not await self._deliver_pending(table_id, guild_id):
                self.tasks.spawn(self._redeliver(table_id, guild_id), "redeliver")

    @contextlib.asynccontextmanager
    async def _turn(self, table_id: int) -> AsyncIterator[None]:
        """The table's deliveries one at a time: its lock, kept while any delivery holds
        or awaits it (a delivery woken as the lock is released has not taken it yet: a
        lock made anew then would let a later one send the same rows beside it)."""
        lock = self._delivering.setdefault(table_id, asyncio.Lock())
        self._users[table_id] = self._users.get(table_id, 0) + 1
        try:
            async with lock:
                yield
        finally:
            users = self._users[table_id] - 1
            if users:
                self._users[table_id] = users
            else:
                del self._users[table_id], self._delivering[table_id]
                self._guild_of.pop(table_id, None)

    async def answer(
        self,
        table_id: int,
        guild_id: int | None,
        content: str,
        send: Callable[[], Awaitable[Delivered | None]],
    ) -> bool:
        """Deliver the table's first undelivered row by ``send`` — the front end's public
        answer to whoever made the change that owes it (a game's start, answered with who
        begins) — when that row is a message saying ``content``, and this process may
        still send the server's announcements. Marked delivered (with the post ``send``
        returns) as the courier's deliveries are, under the same per-table lock, so that a
        delivery under way never posts it too. ``False`` when it was not delivered so
        (another row is first, the row went out already, the database failed, ``send``
        returned ``None``): :meth:`deliver` then sends what is still owed."""
        if guild_id is not None and not self.owns(guild_id):
            return False
        async with self._turn(table_id):
            try:
                pending = await self.store.pending_outbox(table_id)
                first = pending[0] if pending else None
                if (
                    first is None
                    or first.id in self._unmarked
                    or first.kind != "message"
                    or first.content != content
                    or (guild_id is not None and not await self._still_ours(guild_id))
                ):
                    return False
            except StorageError as err:
                log.warning("outbox of table %s: not read (%s); delivered later", table_id, err)
                return False
            done = await send()
            if done is None:
                return False
            await self._mark(first, done.post)  # failing, it is remembered as posted
            return True

    async def _deliver_pending(self, table_id: int, guild_id: int | None) -> bool:
        """Deliver the table's pending rows; ``False`` if some must be tried again later."""
        try:
            pending = await self.store.pending_outbox(table_id)
        except StorageError as err:  # the database is unreachable: later
            log.warning("outbox of table %s: not read (%s); will retry", table_id, err)
            return False
        for item in pending:
            if item.id in self._unmarked:  # posted already: only its mark is owed
                if not await self._mark(item, self._unmarked[item.id]):
                    return False
                continue
            guild_id = item.guild_id if item.guild_id is not None else guild_id
            try:
                ours = guild_id is None or await self._still_ours(guild_id)
            except StorageError as err:  # the database is unreachable: later
                log.warning("outbox %s: lease not confirmed (%s); will retry", item.id, err)
                return False
            if not ours:
                return True  # the shard went to another process meanwhile
            done = await self.courier.send(item)
            if done is None or not await self._mark(item, done.post):
                return False
        return True

    async def _still_ours(self, guild_id: int) -> bool:
        """Whether this process may send the server's announcements now: it holds the
        shard here and, by the database, still holds its lease (a process paused or cut
        off while its shard was taken over learns it here, before posting anything)."""
        if not self.owns(guild_id):
            return False
        try:
            await self.store.confirm_lease(guild_id)
        except LeaseLost:
            return False
        return True

    async def finish(self, belongs: Callable[[int], bool]) -> None:
        """Wait for the deliveries under way of tables whose server ``belongs`` (their
        shard is handed over: what was sent is marked delivered before the next process
        looks; a delivery that starts now sees the shard is no longer this process's and
        sends nothing)."""
        waiting = [
            lock
            for table_id, lock in list(self._delivering.items())
            if (guild := self._guild_of.get(table_id)) is None or belongs(guild)
        ]
        await asyncio.gather(*(_after(lock) for lock in waiting))

    async def _redeliver(self, table_id: int, guild_id: int | None) -> None:
        await asyncio.sleep(REDELIVER_AFTER)
        await self.deliver(table_id, guild_id)

    async def _mark(self, item: OutboxItem, post: int | None) -> bool:
        """Mark a posted row delivered (with its ``post``); ``False`` if the database
        failed: the row is then remembered as posted (warned of once), and only its mark
        is tried again."""
        try:
            await self.store.mark_delivered(
                [item.id], posts=None if post is None else {item.id: post}
            )
        except StorageError as err:
            if item.id not in self._unmarked:
                self._unmarked[item.id] = post
                log.warning(
                    "outbox %s: posted, but not marked delivered (%s); will mark it later",
                    item.id,
                    err,
                )
            else:
                log.debug("outbox %s: still not marked delivered (%s)", item.id, err)
            return False
        if item.id in self._unmarked:
            del self._unmarked[item.id]
            log.info("outbox %s: marked delivered", item.id)
        return True

    def unmarked(self, items: Iterable[OutboxItem]) -> dict[int, int | None]:
        """Of ``items``, those known posted already (their mark is owed), with their
        posts if known."""
        return {i.id: self._unmarked[i.id] for i in items if i.id in self._unmarked}

    async def posted(self, found: Mapping[int, int | None]) -> None:
        """Rows found posted (a crash before their mark), each with its post if known:
        marked delivered (remembered as posted, if the database fails)."""
        if not found:
            return
        posts = {row: post for row, post in found.items() if post is not None}
        try:
            await self.store.mark_delivered(list(found), posts=posts)
        except StorageError as err:
            log.warning("outbox %s: posted, not marked delivered (%s); later", list(found), err)
            self._unmarked.update(found)
        else:
            for row in found:
                self._unmarked.pop(row, None)


async def _after(lock: asyncio.Lock) -> None:
    async with lock:
        pass
