"""``python -m bot.coldstart --tables 10000``: how fast the bot serves again after a restart
with many live tables.

It creates ``--tables`` live tables in a temporary SQLite file (two members each, mostly
Stack, every game among them, a few moves played, each table's message posted, the player
to move pinged already), leaves a tenth of them with a message that no longer shows their
last move (a move committed just before the stop: its edit and its ping are owed), stops,
and starts again on the same file with a new process's
:class:`~bot.tables.Tables`, measuring:

* **first answer**: from the moment start-up hands over to the gateway (``resume()``
  returned: the bot connects and is served interactions from then) to the answer of a
  first interaction on a random table (what **My turn** answers: its private panel,
  the table's state read and its moves listed);
* **first move**: from the process's start (the database opened) to a first move on a
  random table committed and answered;
* **recovery**: from the process's start until the recovery queue is empty (stale table
  messages re-rendered, owed pings and outbox delivered);
* **KiB per table**: the process's resident memory grown from before the start to after
  the recovery, per table.

What it skips, plainly: Discord itself (the gateway, HTTP, discord.py's intake of the
interaction): the host is driven directly, as :mod:`bot.bench` does, and the channels are
stand-ins that answer at once (their history holds what the bot posted, so recovery can
tell a stale table message from a current one). Pictures are on (drawn in the picture
worker); the worker is started at start-up as in production.

Last line: ``cold start N tables: first answer A s, first move M s, recovery R s, K KiB per table``.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import random
import re
import shutil
import tempfile
import time
from pathlib import Path
from typing import Any

from sqlalchemy import text

from bot.bench import GUILD
from bot.bench_kit import BenchBot, BenchChannel, BenchMessage
from bot.tables import Tables
from host.refusals import Refusal
from host.service import Player
from persistence.schema import moves, round_scores, seats, snapshots
from persistence.schema import tables as tables_table
from persistence.store import Store
from pictures.painter import Painter

GAMES = ("stack",) * 8 + ("stackup", "colorstack")  # mostly Stack


class Shown:
    """A message as the stand-in channel keeps it: what discord.py's Message gives the
    bot's recovery (its id, author, components, attachments)."""

    def __init__(
        self, message_id: int, author: Any, kwargs: dict[str, Any], channel: Any = None
    ) -> None:
        self.id = message_id
        self.channel = channel
        self.author = author
        self.content = kwargs.get("content") or ""
        self.attachments: list[Any] = []
        self.components: list[Any] = []
        self.show(kwargs)

    def show(self, kwargs: dict[str, Any]) -> None:
        view = kwargs.get("view")
        if view is not None:
            self.components = list(_flat(view))
        if kwargs.get("file") is not None:
            self.attachments = [kwargs["file"]]
        elif "attachments" in kwargs:
            self.attachments = list(kwargs["attachments"])

    async def delete(self) -> None:
        if self.channel is not None:
            await KeptMessage(self.channel, self.id).delete()


def _flat(view: Any) -> Any:
    """Every component of ``view`` (a discord.py view, or a ready payload of
    :mod:`bot.views`), nested ones too, as a message read back gives them."""
    if hasattr(view, "walk_children"):
        yield from view.walk_children()
        return

    def walk(payloads: list[dict[str, Any]]) -> Any:
        for payload in payloads:
            yield Component(payload.get("custom_id"))
            yield from walk(payload.get("components") or [])
            if payload.get("accessory"):
                yield from walk([payload["accessory"]])

    yield from walk(view.to_components())


class Me:
    id = 1


class KeptMessage(BenchMessage):
    async def edit(self, **kwargs: Any) -> BenchMessage:
        shown = self.channel.kept.get(self.id)  # type: ignore[attr-defined]
        if shown is not None:
            shown.show(kwargs)
        return await super().edit(**kwargs)

    async def delete(self) -> None:
        self.channel.kept.pop(self.id, None)  # type: ignore[attr-defined]
        await super().delete()


class KeptChannel(BenchChannel):
    """A stand-in channel that keeps the bot's last messages (its history)."""

    def __init__(self, channel_id: int) -> None:
        super().__init__(channel_id)
        self.kept: dict[int, Shown] = {}

    async def send(self, content: str | None = None, **kwargs: Any) -> BenchMessage:
        sent = await super().send(content, **kwargs)
        self.kept[sent.id] = Shown(sent.id, Me, {"content": content, **kwargs}, self)
        return KeptMessage(self, sent.id)

    def get_partial_message(self, message_id: int) -> BenchMessage:
        return KeptMessage(self, message_id)

    def history(self, limit: int | None = 0, **_: Any) -> Any:
        self.calls += 1
        shown = sorted(self.kept.values(), key=lambda m: -m.id)[: limit or None]

        async def newest_first() -> Any:
            for message in shown:
                yield message

        return newest_first()


class KeptBot(BenchBot):
    channel_kind = KeptChannel

    def __init__(self, channels: dict[int, BenchChannel] | None = None) -> None:
        super().__init__()
        if channels is not None:
            self.channels = channels
        self.user = Me  # type: ignore[assignment]


CLONED = (tables_table, snapshots, seats, moves, round_scores)


async def clone(store: Store, base: int, copies: int) -> None:
    """Copy the ``base`` tables' rows ``copies`` times (each copy in its own channels):
    many tables created in seconds, each as real as the ones played through the host."""
    async with store.engine.begin() as conn:
        for k in range(1, copies + 1):
            for table in CLONED:
                names = [c.name for c in table.columns]
                shifted = {
                    "table_id": f"table_id + {k * base}",
                    "channel_id": f"channel_id + {k * base}",
                    "message_channel_id": f"message_channel_id + {k * base}",
                    "interaction_id": "NULL",
                }
                if table is tables_table:
                    shifted["id"] = f"id + {k * base}"
                cols = ", ".join(names)
                picked = ", ".join(shifted.get(n, n) for n in names)
                where = "id" if table is tables_table else "table_id"
                await conn.execute(
                    text(
                        f"INSERT INTO {table.name} ({cols}) SELECT {picked} "
                        f"FROM {table.name} WHERE {where} <= {base}"
                    )
                )


def copy_channels(channels: dict[int, BenchChannel], base: int, copies: int) -> None:
    """The copied tables' channels hold what the originals' hold."""
    originals = list(channels.items())
    for k in range(1, copies + 1):
        for channel_id, channel in originals:
            twin = KeptChannel(channel_id + k * base)
            for message_id, shown in channel.kept.items():  # type: ignore[attr-defined]
                kept = Shown(message_id, shown.author, {"content": shown.content}, twin)
                kept.components = [_moved(c, k * base) for c in shown.components]
                kept.attachments = shown.attachments
                twin.kept[message_id] = kept
            channels[twin.id] = twin


class Component:
    """A message's component as discord.py gives it (its custom id), for a copied table."""

    children = None

    def __init__(self, custom_id: str | None) -> None:
        self.custom_id = custom_id


def _moved(component: Any, shift: int) -> Component:
    """``component`` of a table's message, for the copy of the table ``shift`` ids on."""
    custom_id = getattr(component, "custom_id", None)
    if custom_id:
        custom_id = re.sub(r":(\d+):(\d+)$", lambda m: f":{int(m[1]) + shift}:{m[2]}", custom_id)
    return Component(custom_id)


def rss_kib() -> int:
    with open("/proc/self/statm") as f:
        return int(f.read().split()[1]) * 4


async def play_one(tables: Tables, channel: int, rng: random.Random, *, shown: bool = True) -> bool:
    """A random legal move by whoever is to move at the table in ``channel``; ``shown``:
    its table message is brought up to date (else the edit is lost: the process stops)."""
    service = tables.service
    live = service.by_channel.get(channel)
    if live is None or live.state is None or live.state.current_player is None:
        return False
    seat = live.state.current_player
    user = live.user_at(seat)
    if user is None:
        return False
    move = rng.choice(list(live.state.legal_moves()))
    try:
        outcome = await service.move(channel, Player(user, live.state.players[seat]), move=move)
    except Refusal:
        return False
    if shown:
        tables.committed(outcome)
    return True


BASE = 1000  # tables played through the host; the rest are copies of their rows


async def create(url: str, total: int, seed: int) -> dict[int, BenchChannel]:
    """``total`` live tables: ``BASE`` of them opened and played through the host (a few
    moves each, each message posted; a tenth then get one more move whose message edit is
    lost: the stop), and copies of their rows in other channels up to ``total``."""
    count = min(total, BASE)
    store = await Store.open(url)
    bot = KeptBot()
    tables = Tables(bot, store, seed=seed, painter=Painter("thread"))  # type: ignore[arg-type]
    tables.draw_pictures = False  # the pictures are not what is measured at creation
    rng = random.Random(seed)
    channels = list(range(10_000, 10_000 + count))
    service = tables.service

    async def open_one(channel: int) -> None:
        alice = Player(channel * 2, f"a{channel}")
        bob = Player(channel * 2 + 1, f"b{channel}")
        game = GAMES[channel % len(GAMES)]
        try:
            tables.refresh(await service.new_table(GUILD, channel, alice, {}, game=game))
            tables.refresh(await service.join(channel, bob))
            tables.committed(await service.start(channel, alice))
            for _ in range(rng.randrange(1, 4)):
                await play_one(tables, channel, rng)
        except Refusal:
            pass

    for i in range(0, len(channels), 200):
        await asyncio.gather(*(open_one(c) for c in channels[i : i + 200]))
        print(f"  {i + 200:,} tables created", end="\r", flush=True)
    print()
    while tables.tasks.busy():  # the messages posted
        await asyncio.sleep(0.2)
    stale = rng.sample(channels, count // 10)
    for channel in stale:  # a move committed, its edit lost with the stop
        await play_one(tables, channel, rng, shown=False)
    for live in list(service.by_id.values()):
        tables.expiry.stop(live.id)
    await tables.drain()
    service.forget_all()
    # the turns under way were pinged long ago (the players are slow to move), but for
    # the tables whose last move's message was lost: their ping is owed too
    async with store.engine.begin() as conn:
        await conn.execute(text("UPDATE tables SET pinged_version = version"))
        lost = ", ".join(str(c) for c in stale)
        await conn.execute(
            text(f"UPDATE tables SET pinged_version = NULL WHERE channel_id IN ({lost})")
        )
    copies = total // count - 1
    await clone(store, count, copies)
    await store.close()
    copy_channels(bot.channels, count, copies)
    return bot.channels


async def restart(url: str, channels: dict[int, BenchChannel], seed: int) -> tuple[float, ...]:
    gc.collect()
    before = rss_kib()
    started = time.perf_counter()
    store = await Store.open(url)
    bot = KeptBot(channels)
    tables = Tables(bot, store, seed=seed, painter=Painter("process"))  # type: ignore[arg-type]
    for channel in channels.values():
        channel.calls = 0
    await tables.resume()
    ready = time.perf_counter()
    service = tables.service
    rng = random.Random(seed + 1)
    ids = sorted(service.by_channel)
    # the first interaction: a My turn panel (the table's state read, its moves listed)
    live = service.by_channel[rng.choice(ids)]
    seat = live.state.current_player if live.state is not None else None
    if seat is not None:
        await live.game.panel(tables, live, seat)
    first_answer = time.perf_counter() - ready
    while not await play_one(tables, rng.choice(ids), rng):
        pass
    first_move = time.perf_counter() - started
    await tables.recovered()
    recovery = time.perf_counter() - started
    gc.collect()
    per_table = (rss_kib() - before) / max(len(ids), 1)
    calls = sum(c.calls for c in channels.values())
    print(
        f"  start-up handed over to the gateway after {ready - started:.2f} s; "
        f"{len(ids):,} tables live; {calls:,} channel calls in recovery",
        flush=True,
    )
    await tables.drain()
    await store.close()
    return first_answer, first_move, recovery, per_table


async def run(args: argparse.Namespace) -> None:
    folder = Path(tempfile.mkdtemp(prefix="stackbot-coldstart-", dir=args.dir))
    try:
        url = f"sqlite+aiosqlite:///{folder / 'coldstart.db'}"
        print(f"creating {args.tables:,} live tables ...", flush=True)
        made = time.perf_counter()
        channels = await create(url, args.tables, args.seed)
        print(f"  created in {time.perf_counter() - made:.0f} s; restarting", flush=True)
        answer, move, recovery, kib = await restart(url, channels, args.seed)
        print(
            f"cold start {args.tables} tables: first answer {answer:.2f} s, "
            f"first move {move:.2f} s, recovery {recovery:.2f} s, {kib:.1f} KiB per table"
        )
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def main(argv: list[str] | None = None) -> None:
    p = argparse.ArgumentParser(prog="python -m bot.coldstart", description=__doc__)
    p.add_argument("--tables", type=int, default=10_000)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--dir", default=None, help="where the temporary database goes")
    asyncio.run(run(p.parse_args(argv)))


if __name__ == "__main__":
    main()
