"""Start-up and hand-over: the tables of this process's shards adopted from storage, each
channel brought up to date (stale table messages re-rendered, strays removed, the outbox
delivered), and the tables of shards handed over or lost let go."""

from __future__ import annotations

import asyncio
import gc
import logging
import random
from datetime import timedelta
from functools import partial
from typing import Any

import aiohttp
import discord

from bot import games
from bot.games.base import DiscordGame
from bot.outbox import channel_unknown
from bot.table_message import TableMessage, TablesHost, belongs_to, version_shown
from host.expiry import NoAnswer
from host.outbox import REDELIVER_AFTER
from host.recovery import Slices
from host.service import LiveTable, ai_to_move, settle
from persistence.fence import shard_of
from persistence.records import OutboxItem
from pictures.painter import DrawJob

log = logging.getLogger(__name__)
RECENT_HISTORY = 30  # messages read at start-up to find table messages left behind
# the longest wait between looks for what a channel that could not be read was owed
LOOK_AGAIN_AT_MOST = 15 * 60.0
OUTBOX_KEPT = timedelta(days=1)  # delivered outbox rows are deleted at start-up after this


class Startup:
    """Adopting, recovering and releasing the tables of this process."""

    def __init__(self, tables: TablesHost) -> None:
        self.tables = tables

    async def resume(self) -> None:
        """Load every active table (playing the turns AI seats owe), then bring every
        channel up to date from storage: table messages re-rendered, pings owed, the outbox
        delivered (what a crash left unsaid), stray table messages removed."""
        await self.tables.store.purge_delivered(discord.utils.utcnow() - OUTBOX_KEPT)
        await self.adopt(None, None)

    async def adopt(self, shard_count: int | None, shards: frozenset[int] | None) -> None:
        """As :meth:`resume`, for the tables of guilds on ``shards`` (of ``shard_count``)
        only: this process (one of several) takes them over, from what is stored; ``None``
        for every table."""
        if shard_count is not None and shards is not None:
            self.tables.store.forget_shards(shard_count, shards)
        # the worker warms up in the background; pictures asked before it is warm are
        # drawn on threads meanwhile: the first interaction never waits for it
        self.tables.painter.start(warm_up_jobs())
        # the cyclic collector is paused while every table's objects are made (each pass
        # would scan all those made so far), and the start-up's are then frozen out of its
        # way: they live as long as their tables (a shard's, adopted later, may be given
        # up again: they are not frozen)
        collecting = gc.isenabled()
        gc.disable()
        try:
            await self._index(shard_count, shards)
        finally:
            if collecting:
                gc.enable()
        if shards is None:
            gc.freeze()

    async def _index(self, shard_count: int | None, shards: frozenset[int] | None) -> None:
        """:meth:`adopt`'s part in the hand-over: every table kept by its index (nothing of
        one built yet), the rest queued behind the live interactions."""
        tables = await self.tables.service.load(shard_count=shard_count, shards=shards, lazy=True)
        # what each table needs here is in its index: no table's info is built before the
        # hand-over (each is built on first use, or in the background below)
        messages = self.tables.messages
        channels: dict[int, tuple[list[LiveTable[DiscordGame]], list[OutboxItem]]] = {}
        for live in tables:
            index = live.index
            channel_id = index.message_channel_id or index.channel_id
            messages[index.id] = TableMessage(
                channel_id, index.message_id, pinged_version=index.pinged_version
            )
            work = channels.get(channel_id)
            if work is None:
                work = channels[channel_id] = ([], [])
            work[0].append(live)
        pending = await self.tables.store.pending_outbox(shard_count=shard_count, shards=shards)
        for item in pending:
            channels.setdefault(item.channel_id, ([], []))[1].append(item)
        # behind the live interactions: every table's state built and the AI turns owed
        # played, every clock armed (the timers that ran out while the bot was down then
        # fire as one catch-up, in the order they ran out), then each channel brought up
        # to date, then the recent turns of the rest recalled
        self.tables.clocks.hold()
        # every table's settings in a few queries, not one each as clocks and renders ask
        self.tables.recovery.put(
            lambda: self.tables.store.prefetch_settings(
                (live.index.guild_id, live.index.channel_id, live.index.game) for live in tables
            ),
            "read-settings",
        )
        self.tables.recovery.put(lambda: self._ready_all(tables), "build-states")
        self.tables.recovery.put(lambda: self._arm_all(tables), "arm-clocks")
        self.tables.recovery.put_all(
            [partial(self._recover, channel_id, *work) for channel_id, work in channels.items()],
            "recover-channel",
        )
        self.tables.recovery.put(self.tables.service.recall_all, "recall-turns")
        if shards is None:
            log.info("resumed %d active tables", len(tables))
        else:
            log.info(
                "resumed %d active tables of shard %s",
                len(tables),
                ",".join(map(str, sorted(shards))),
            )

    def _on_shards(self, shard_count: int, shards: frozenset[int]) -> list[LiveTable[DiscordGame]]:
        return [
            live
            for live in self.tables.service.by_id.values()
            if shard_of(live.index.guild_id, shard_count) in shards
        ]

    async def release(self, shard_count: int, shards: frozenset[int]) -> None:
        """Hand the tables of ``shards`` over to another process: their clocks stopped,
        requests queued for them refused, the steps and deliveries under way finished (so
        that everything they owe is written), then forgotten here."""
        lives = self._on_shards(shard_count, shards)
        records = [r for live in lives if (r := self.tables.messages.get(live.id)) is not None]
        busy = []
        for live in lives:
            self.tables.expiry.stop(live.id)
            if live.lock.locked():
                busy.append(live)
            else:  # no step under way: let go at once (nothing awaited in between)
                self.tables.service.let_go(live)

        async def after_its_step(live: LiveTable[DiscordGame]) -> None:
            async with live.lock:  # the step under way ends (and is committed) first
                self.tables.service.let_go(live)

        async def after_its_post(record: TableMessage) -> None:
            async with record.lock:  # a re-post under way records where it went
                pass

        await asyncio.gather(
            *(after_its_step(live) for live in busy),
            *(after_its_post(r) for r in records if r.lock.locked()),
        )
        await self.tables.outbox.finish(lambda guild: shard_of(guild, shard_count) in shards)
        self.tables.store.forget_shards(shard_count, shards)

    async def drop(self, shard_count: int, shards: frozenset[int]) -> None:
        """The leases of ``shards`` were lost: their tables are forgotten at once (any
        write of them would be refused now)."""
        for live in self._on_shards(shard_count, shards):
            self.tables.expiry.stop(live.id)
            self.tables.service.let_go(live)
        self.tables.store.forget_shards(shard_count, shards)

    async def recovered(self) -> None:
        """Until the start-up's recovery is done (every channel brought up to date)."""
        await self.tables.recovery.wait()

    async def _ready_all(self, tables: list[LiveTable[DiscordGame]]) -> None:
        """Every loaded table made ready (:meth:`~host.service.TableService.ready`), a
        slice at a time; what that changed is owed to the channels as after any step."""
        slices = Slices()
        for live in tables:
            if live.away:
                continue
            version = live.version
            outcome = await self.tables.service.ready(live)
            if outcome is None:  # closed: its stored game does not read back
                self.tables.spawn(
                    self.tables.outbox.deliver(live.id, live.info.guild_id), "deliver"
                )
            elif outcome.announced or live.version != version or not live.info.is_active:
                self.tables.committed(outcome)
            await slices.tick()

    async def _arm_all(self, tables: list[LiveTable[DiscordGame]]) -> None:
        """Arm every loaded table's clock (the clocks held meanwhile), a slice at a time."""
        slices = Slices()
        try:
            plans = []
            for live in tables:
                self.tables.arm_clock(live)
                clock = self.tables.expiry.timers.get(live.id)
                if clock is not None and clock.task is not None and not ai_to_move(live):
                    plans.append(clock.task)  # its events planned (an AI turn is not one)
                await slices.tick()
            if plans:
                await asyncio.wait(plans)
        finally:
            self.tables.clocks.release()

    async def _recover(
        self, channel_id: int, lives: list[LiveTable[DiscordGame]], items: list[OutboxItem]
    ) -> None:
        channel = self.tables.channel(channel_id)
        recent: list[discord.Message] = []
        me = self.tables.bot.user
        try:
            recent = [
                m
                async for m in channel.history(limit=RECENT_HISTORY)
                if me is not None and m.author.id == me.id
            ]
        except discord.HTTPException as err:
            if channel_unknown(err):  # its tables end; what was owed there is dropped
                self.tables.channel_gone(channel_id)
                await self._deliver_owed(channel, items, [])  # (nothing asked of Discord)
                return
        except (OSError, aiohttp.ClientError):
            pass  # not read (the connection cut): as a Discord error, nothing is known of it
        except AttributeError:
            pass
        done = await self.tables.courier.already_posted(channel, items, recent)
        for live in lives:
            if self.tables.is_gone(live.id):
                continue
            await self._finish_repost(live, recent)
            stored = self.tables.message(live).message_id
            shown = next((m for m in recent if m.id == stored), None)
            if shown is not None:  # what it shows now, before the server is cached
                self.tables.message(live).had_picture = bool(shown.attachments)
            if not _current(shown, live):  # stale (or not seen): re-rendered, awaited
                record = self.tables.table_messages.claim_edit(
                    live
                )  # (the queue goes at the edits' pace)
                if record is not None:
                    await self.tables.table_messages.edit_loop(live, record)
        await self._deliver_owed(channel, items, done)

    async def _finish_repost(
        self, live: LiveTable[DiscordGame], recent: list[discord.Message]
    ) -> None:
        """A re-post the crash cut short, after its new message was posted and before it
        was stored (a ping, a warning, a lobby brought down): the table messages of the
        table in the channel (among ``recent``) newer than the stored one are adopted as
        a post Discord gave no answer to is (:meth:`~bot.table_message.TableMessages.adopt`:
        the newest becomes its message, with the ping it carried, so the player is not
        pinged a second time; the message it replaced goes), and the other table messages
        of the table a crash left behind go too."""
        record = self.tables.message(live)
        table_messages = self.tables.table_messages
        ours = [m for m in recent if belongs_to(m, live.id)]
        # under the record's lock: a re-post under way (an overdue ping, fired as the clocks
        # were armed) has read which message it replaces; it finishes first, and the one it
        # posted is then newer than the messages found here, which go with the strays
        async with record.lock:
            old = record.message_id
            newer = [m for m in ours if old is None or m.id > old]
            try:  # the newest kept (the message it replaced deleted), the other newer ones
                await table_messages.adopt(live, record, newer)  # deleted
            except NoAnswer as err:  # not stored: looked for again by the table's next edit
                log.warning("table %s: its re-post cut by the stop not kept yet (%s)", live.id, err)
        strays = [m.id for m in ours if m not in newer and m.id != old]
        await table_messages.delete(record.channel_id, strays)

    async def _deliver_owed(
        self, channel: Any, items: list[OutboxItem], done: list[int] | None
    ) -> None:
        """Deliver the ``items`` not found posted (``done``); if the channel could not be
        searched (``None``), search it again a little later first: never post blind."""
        wait = REDELIVER_AFTER
        while done is None:
            if self.tables.courier.refusing & {getattr(channel, "id", None)}:
                wait = min(2 * wait, LOOK_AGAIN_AT_MOST)  # a refusal may last for days
            else:
                wait = REDELIVER_AFTER  # Discord or the database failed: soon again
            await asyncio.sleep(wait)
            if self.tables.is_channel_gone(getattr(channel, "id", 0)):
                done = []  # deleted meanwhile: what was owed there is dropped
                break
            done = await self.tables.courier.already_posted(channel, items)
        owed = {i.table_id: i.guild_id for i in items if i.id not in done}
        for table_id, guild_id in owed.items():
            await self.tables.outbox.deliver(table_id, guild_id)


def warm_up_jobs() -> list[DrawJob]:
    """A picture of a new two-player game of each game, for the picture worker to draw at
    start-up: every game's drawing code and fonts are loaded before a table asks."""
    jobs = []
    for game in games.all_games():
        played = game.game
        try:
            settings = played.settings()
            names = played.seat_order(
                [f"player {n + 1}" for n in range(max(2, played.min_players))], settings
            )
            state = played.new_state(names, settings)
            rng = random.Random(0)
            settle(played, state, rng, lambda event, seat: None)
            job = game.picture(state, theme="dark", turn_seconds=None)
            for _ in range(3):  # a game that asks a player first (Color Stack's colours)
                if job is not None or state.current_player is None:
                    break
                state.apply(played.make_ai("greedy").choose(state, rng))
                settle(played, state, rng, lambda event, seat: None)
                job = game.picture(state, theme="dark", turn_seconds=None)
        except Exception:  # a game that cannot show a sample: its first picture is cold
            log.exception("no warm-up picture for %s", game.name)
            continue
        if job is not None:
            jobs.append(job)
    return jobs


def _current(shown: discord.Message | None, live: LiveTable[DiscordGame]) -> bool:
    """Whether ``shown``, the table's message as the channel has it, is up to date: a
    game's message (a lobby's shows who sits, which its version does not count) in the
    present layout (no text content: an older bot's message is replaced), showing the
    table's present version."""
    return (
        shown is not None
        and live.state is not None
        and not shown.content
        and version_shown(shown, live.id) == live.version
    )
