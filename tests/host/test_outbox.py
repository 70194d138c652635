"""The outbox sends each row once, however its deliveries of a table overlap."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime

from host.outbox import Delivered, Outbox
from host.tasks import Tasks
from persistence.records import OutboxItem

TABLE, CHANNEL = 1, 10


class Rows:
    """The store's part the outbox reads and writes: a table's undelivered rows."""

    def __init__(self) -> None:
        self.rows: list[OutboxItem] = []
        self.marked: list[int] = []

    def add(self, row_id: int) -> None:
        when = datetime(2026, 11, 29, tzinfo=UTC)
        self.rows.append(OutboxItem(row_id, TABLE, CHANNEL, "message", f"row {row_id}", when))

    async def pending_outbox(self, table_id: int) -> list[OutboxItem]:
        return [r for r in self.rows if r.table_id == table_id and r.id not in self.marked]

    async def mark_delivered(self, ids: list[int], posts: dict[int, int] | None = None) -> None:
        self.marked.extend(ids)


class HeldCourier:
    """Sends a row once ``go`` is set for it, and keeps what it sent."""

    def __init__(self) -> None:
        self.sent: list[int] = []
        self.go: dict[int, asyncio.Event] = {}

    async def send(self, item: OutboxItem) -> Delivered | None:
        await self.go.setdefault(item.id, asyncio.Event()).wait()
        self.sent.append(item.id)
        return Delivered(1000 + item.id)


async def test_a_delivery_woken_as_another_ends_is_not_overtaken_by_a_later_one() -> None:
    """A delivery waits on the table's lock while another sends; as the lock is released
    it is woken, but has not taken it yet. A third delivery starting then waited on a
    lock made anew, and sent the same row beside it."""
    rows, courier = Rows(), HeldCourier()
    outbox = Outbox(rows, courier, Tasks(), owns=lambda guild: True)  # type: ignore[arg-type]
    rows.add(1)
    first = asyncio.create_task(outbox.deliver(TABLE))
    await asyncio.sleep(0)  # sending row 1, the lock held
    rows.add(2)  # a move meanwhile owes a second row
    waiting = asyncio.create_task(outbox.deliver(TABLE))
    await asyncio.sleep(0)
    courier.go[1].set()
    await first  # row 1 sent; the waiting delivery woken, sending row 2 (held)
    later = asyncio.create_task(outbox.deliver(TABLE))
    for _ in range(5):
        await asyncio.sleep(0)
    courier.go.setdefault(2, asyncio.Event()).set()
    await asyncio.gather(waiting, later)
    assert courier.sent == [1, 2]
    assert rows.marked == [1, 2]
    assert not outbox._delivering and not outbox._users
