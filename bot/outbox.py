"""Delivering what committed moves owe their channels: the outbox rows (round ends, game
ends, closing messages, a closed table's last edit), in order, once each.

A round's end goes out with the buttons its game puts under it
(:meth:`bot.games.base.DiscordGame.round_view`: Stack's **Full scoring** of
:mod:`bot.games.stack.story`), a game's end with the game's chart (:meth:`bot.games.base.DiscordGame.game_chart`: Stack's running
totals; the text alone if the chart cannot be drawn or attached).

A row is written in the same transaction as the move that owes it, so a crash between the
commit and the message loses nothing: :meth:`Outbox.deliver` sends it later, and at
start-up :meth:`Outbox.already_posted` first looks for the bot's own posts in the channel
since the row was written (page after page, however many members' messages came since),
so that nothing is posted twice. A row Discord fails on (5xx, 429, no connection) is tried
again after ``REDELIVER_AFTER`` seconds; one it refuses (4xx) is dropped, and the rows
after it still go out. A row posted but not marked delivered (the database cut at that
moment) is remembered as posted, warned of once, and marked later, never posted again.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Coroutine, Sequence
from datetime import timedelta
from typing import Any, Protocol

import discord
from discord.ext import commands

from bot import games
from bot.games.base import Host
from bot.story import may_attach
from bot.text import fit_message
from persistence import LeaseLost, StorageError, TableNotFound, WrongTableStatus
from persistence.records import OutboxItem

log = logging.getLogger(__name__)
REDELIVER_AFTER = 30.0  # seconds before a failed outbox delivery is tried again
# how far before a row's time (the database's clock) its post is looked for (Discord's)
CLOCK_SKEW = timedelta(minutes=2)
NO_MENTIONS = discord.AllowedMentions.none()


class Budget(Protocol):
    """Message creates per channel, kept within Discord's rate limit."""

    async def acquire(self, channel_id: int, count: int = 1) -> None: ...


class OutboxHost(Host, Protocol):
    """What the outbox uses of its host (:class:`bot.tables.Tables` is it), besides what
    a game may use (:class:`~bot.games.base.Host`: a game's end chart is drawn for it)."""

    @property
    def bot(self) -> commands.Bot:
        """The bot (its own user: its posts are looked for)."""
        ...

    @property
    def budget(self) -> Budget:
        """The channels' message budget."""
        ...

    def owns_guild(self, guild_id: int) -> bool:
        """Whether this process serves the server's tables now."""
        ...

    def channel(self, channel_id: int) -> Any:
        """The channel to send to."""
        ...

    def spawn(self, coro: Coroutine[Any, Any, Any], name: str = "") -> asyncio.Task[Any]:
        """Run ``coro`` in the background (a delivery tried again later)."""
        ...

    async def final_edit(self, table_id: int) -> None:
        """The last edit of a closed table's message."""
        ...


class Outbox:
    """The outbox delivery of every table, for its host (:class:`~bot.tables.Tables`)."""

    def __init__(self, tables: OutboxHost) -> None:
        self.tables = tables
        self._delivering: dict[int, asyncio.Lock] = {}
        self._guild_of: dict[int, int] = {}  # table -> server, of the deliveries under way
        self._unmarked: set[int] = set()  # rows posted, not marked delivered yet (a cut)

    async def deliver(self, table_id: int, guild_id: int | None = None) -> None:
        """Send the table's undelivered outbox rows, in order, once each — unless the
        table's server (``guild_id``) is served by another process of the bot now: that
        one delivers them."""
        if guild_id is not None and not self.tables.owns_guild(guild_id):
            return
        lock = self._delivering.setdefault(table_id, asyncio.Lock())
        if guild_id is not None:
            self._guild_of[table_id] = guild_id
        try:
            async with lock:
                try:
                    pending = await self.tables.store.pending_outbox(table_id)
                except StorageError as err:  # the database is unreachable: later
                    log.warning("outbox of table %s: not read (%s); will retry", table_id, err)
                    self.tables.spawn(self._redeliver(table_id, guild_id), "redeliver")
                    return
                for item in pending:
                    if item.id in self._unmarked:  # posted already: only its mark is owed
                        if not await self._mark(item):
                            self.tables.spawn(self._redeliver(table_id, guild_id), "redeliver")
                            return
                        continue
                    guild_id = item.guild_id if item.guild_id is not None else guild_id
                    try:
                        ours = guild_id is None or await self._still_ours(guild_id)
                    except StorageError as err:  # the database is unreachable: later
                        log.warning("outbox %s: lease not confirmed (%s); will retry", item.id, err)
                        self.tables.spawn(self._redeliver(table_id, guild_id), "redeliver")
                        return
                    if not ours:
                        return  # the shard went to another process meanwhile
                    if not await self._deliver_one(item):
                        self.tables.spawn(self._redeliver(table_id, guild_id), "redeliver")
                        return
        finally:
            if not lock.locked() and self._delivering.get(table_id) is lock:
                del self._delivering[table_id]
                self._guild_of.pop(table_id, None)

    async def _still_ours(self, guild_id: int) -> bool:
        """Whether this process may send the server's announcements now: it holds the
        shard here and, by the database, still holds its lease (a process paused or cut
        off while its shard was taken over learns it here, before posting anything)."""
        if not self.tables.owns_guild(guild_id):
            return False
        try:
            await self.tables.store.confirm_lease(guild_id)
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

    async def _deliver_one(self, item: OutboxItem) -> bool:
        """Deliver one outbox row; ``False`` if Discord failed and it should be retried."""
        tables = self.tables
        try:
            if item.kind == "table":
                await tables.final_edit(item.table_id)
            elif item.kind == "game":
                await self._send_game(item)
            else:
                view = None
                if item.kind == "round" and item.round_no is not None:
                    view = await self._round_view(item)
                await tables.budget.acquire(item.channel_id)
                await tables.channel(item.channel_id).send(
                    fit_message(item.content), view=view, allowed_mentions=NO_MENTIONS
                )
                if view is not None:
                    view.stop()  # a dynamic item: found by its custom id, not tracked
        except discord.HTTPException as err:
            if err.status >= 500 or err.status == 429:
                log.warning("outbox %s: Discord failed (%s); will retry", item.id, err)
                return False
            log.warning("outbox %s: refused by Discord (%s); dropped", item.id, err)
        except OSError as err:
            log.warning("outbox %s: no connection (%s); will retry", item.id, err)
            return False
        return await self._mark(item)

    async def _mark(self, item: OutboxItem) -> bool:
        """Mark a posted row delivered; ``False`` if the database failed: the row is then
        remembered as posted (warned of once), and only its mark is tried again."""
        try:
            await self.tables.store.mark_delivered([item.id])
        except StorageError as err:
            if item.id not in self._unmarked:
                self._unmarked.add(item.id)
                log.warning(
                    "outbox %s: posted, but not marked delivered (%s); will mark it later",
                    item.id,
                    err,
                )
            else:
                log.debug("outbox %s: still not marked delivered (%s)", item.id, err)
            return False
        if item.id in self._unmarked:
            self._unmarked.discard(item.id)
            log.info("outbox %s: marked delivered", item.id)
        return True

    async def _round_view(self, item: OutboxItem) -> discord.ui.View | None:
        """The buttons the table's game puts under a round's end (Stack's **Full
        scoring**), or ``None`` (another game's, or a table no longer stored)."""
        assert item.round_no is not None
        try:
            info = await self.tables.store.table(item.table_id)
        except (StorageError, TableNotFound, WrongTableStatus) as err:
            log.warning("outbox %s: the table's game unknown (%s); no buttons", item.id, err)
            return None
        return games.get(info.game).round_view(item.table_id, item.round_no)

    async def _send_game(self, item: OutboxItem) -> None:
        """A game's end: its text with the chart of the game attached; the text alone when
        the chart cannot be drawn, or the bot may not attach files there."""
        tables = self.tables
        channel = tables.channel(item.channel_id)
        content = fit_message(item.content)
        chart = None
        if may_attach(channel):
            try:
                info = await tables.store.table(item.table_id)
                chart = await games.get(info.game).game_chart(tables, item.table_id)
            except (StorageError, TableNotFound, WrongTableStatus) as err:
                log.warning("outbox %s: no chart (%s); the text alone", item.id, err)
        await tables.budget.acquire(item.channel_id)
        if chart is not None:
            try:
                await channel.send(content, file=chart, allowed_mentions=NO_MENTIONS)
                return
            except discord.HTTPException as err:
                if err.status >= 500 or err.status == 429:
                    raise
                log.warning("outbox %s: chart refused (%s); the text alone", item.id, err)
                await tables.budget.acquire(item.channel_id)
        await channel.send(content, allowed_mentions=NO_MENTIONS)

    async def already_posted(
        self,
        channel: Any,
        items: list[OutboxItem],
        recent: Sequence[discord.Message] = (),
    ) -> list[int] | None:
        """Of a channel's undelivered ``items``, those the bot posted before a crash (or
        before a failed mark): its own messages in the channel since the earliest row was
        written (less ``CLOCK_SKEW``), read oldest first, page after page, until each row
        is found or the channel's end is reached, so that no amount of members' chatter
        hides a post. Each message stands for one row (same text, posted after the row
        was written); ``recent``, the bot's last messages there, are looked at first.
        Found rows are marked delivered (remembered as posted, if the database fails);
        returns their ids, or ``None`` if the channel could not be read (then nothing is
        known: the caller asks again later rather than post anything twice)."""
        wanted = [i for i in items if i.kind != "table" and i.id not in self._unmarked]
        found = [i.id for i in items if i.id in self._unmarked]
        me = self.tables.bot.user
        seen: set[int] = set()
        texts = {item.id: fit_message(item.content) for item in wanted}  # as posted

        def match(message: discord.Message, after_row: bool) -> None:
            if message.id in seen or me is None or message.author.id != me.id:
                return
            for item in wanted:
                if message.content == texts[item.id] and (
                    not after_row or message.created_at >= item.created_at - CLOCK_SKEW
                ):
                    seen.add(message.id)
                    wanted.remove(item)
                    found.append(item.id)
                    return

        for message in reversed(recent):  # oldest first
            match(message, after_row=False)
        if wanted and me is not None:
            since = min(i.created_at for i in wanted) - CLOCK_SKEW
            try:
                async for message in channel.history(limit=None, after=since, oldest_first=True):
                    match(message, after_row=True)
                    if not wanted:
                        break
            except (discord.HTTPException, OSError) as err:
                log.warning(
                    "channel %s: its messages not read (%s); will look again",
                    getattr(channel, "id", "?"),
                    err,
                )
                return None
        if found:
            try:
                await self.tables.store.mark_delivered(found)
            except StorageError as err:
                log.warning("outbox %s: posted, not marked delivered (%s); later", found, err)
                self._unmarked.update(found)
            else:
                self._unmarked.difference_update(found)
        return found


async def _after(lock: asyncio.Lock) -> None:
    async with lock:
        pass
