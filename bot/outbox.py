"""Sending what committed moves owe their channels to Discord (the rows, their order and
their marks are the host's: :mod:`host.outbox`).

A round's end goes out with the buttons its game puts under it
(:meth:`bot.games.base.DiscordGame.round_view`: Stack's **Full scoring** of
:mod:`bot.games.stack.story`), a game's end with the game's chart
(:meth:`bot.games.base.DiscordGame.game_chart`: Stack's running totals; the text alone if
the chart cannot be drawn or attached). A row Discord fails on (5xx, 429, no connection:
an ``OSError`` or any aiohttp error) is tried again later; one it refuses (4xx) is
dropped. A row's text was worded when its move was committed, in the table's language;
what is added on delivery (the buttons, the chart) is said in the language of the table's
server too.

At start-up :meth:`DiscordCourier.already_posted` first looks for the bot's own posts in
the channel since each undelivered row was written (page after page, however many
members' messages came since), so that nothing is posted twice; and only after the last
post of a row delivered before them (its message id is stored with it), so that an
earlier post of the same words is never taken for an owed one.
"""

from __future__ import annotations

import logging
import secrets
from collections.abc import Sequence
from datetime import timedelta
from typing import Any, Protocol

import aiohttp
import discord
from discord.ext import commands

import catalog
from bot import games
from bot.front import DISCORD
from bot.games.base import Host
from bot.story import may_attach
from bot.text import fit_message
from bot.views import Components
from host.outbox import Delivered, Outbox
from persistence import StorageError, TableNotFound, WrongTableStatus
from persistence.records import OutboxItem

log = logging.getLogger(__name__)
# how far before a row's time (the database's clock) its post is looked for (Discord's)
CLOCK_SKEW = timedelta(minutes=2)
NO_MENTIONS = discord.AllowedMentions.none()
UNKNOWN_CHANNEL = 10003  # Discord's code: the channel is no more (deleted), for good


def post_nonce(item_id: int | None = None) -> str:
    """The nonce a post is sent with (discord.py then asks Discord to enforce it: a second
    message create of the bot's with the same nonce, within minutes, gets the first message
    back instead of a new one). discord.py itself sends a message create again on a 5xx
    or a reset connection, and Discord may have posted it the first time: without a nonce
    that is a second post, pinging twice. An outbox row's is its id (``item_id``): its
    retries after Discord failed are the same post; any other post's is drawn for it."""
    return f"o{item_id}" if item_id is not None else f"p{secrets.randbits(64)}"


def channel_unknown(err: BaseException) -> bool:
    """Whether ``err`` is Discord saying the channel is gone (404, Unknown Channel): unlike
    a refusal for want of permission (403), which may be lifted, it is for good."""
    return isinstance(err, discord.NotFound) and err.code == UNKNOWN_CHANNEL


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
    def outbox(self) -> Outbox:
        """What is owed, in order (the rows found posted are marked there)."""
        ...

    @property
    def budget(self) -> Budget:
        """The channels' message budget."""
        ...

    def channel(self, channel_id: int) -> Any:
        """The channel to send to."""
        ...

    async def final_edit(self, table_id: int) -> None:
        """The last edit of a closed table's message."""
        ...

    def channel_gone(self, channel_id: int) -> None:
        """Discord says the channel is gone: its table ends, nothing more is sent there."""
        ...

    def is_gone(self, table_id: int) -> bool:
        """Whether the table's channel is known to be gone (nothing is sent for it)."""
        ...

    def is_channel_gone(self, channel_id: int) -> bool:
        """Whether Discord said the channel is gone (nothing is sent there, for any table,
        an ended one included)."""
        ...


class DiscordCourier:
    """Sends the outbox rows of every table to Discord (for :class:`host.outbox.Outbox`),
    and finds those a crash left posted but not marked."""

    def __init__(self, tables: OutboxHost) -> None:
        self.tables = tables
        self.unread: set[int | None] = set()  # channels whose messages could not be read
        self.refusing: set[int | None] = set()  # of those, the ones that refuse the bot (403)

    async def send(self, item: OutboxItem) -> Delivered | None:
        """Deliver one outbox row (with the id of the message it posted); ``None`` if
        Discord failed and it should be retried."""
        with catalog.speaking(DISCORD.language(item.guild_id)):  # public: the server's
            return await self._send(item)

    async def _send(self, item: OutboxItem) -> Delivered | None:
        tables = self.tables
        if tables.is_gone(item.table_id) or tables.is_channel_gone(item.channel_id):
            # nowhere to say it: dropped, nothing asked
            log.debug("outbox %s: its channel is gone; dropped", item.id)
            return Delivered()
        try:
            if item.kind == "table":
                await tables.final_edit(item.table_id)
                return Delivered()
            if item.kind == "game":
                return Delivered(await self._send_game(item))
            view = None
            if item.kind == "round" and item.round_no is not None:
                view = await self._round_view(item)
            await tables.budget.acquire(item.channel_id)
            posted = await tables.channel(item.channel_id).send(
                fit_message(item.content),
                view=view,
                allowed_mentions=NO_MENTIONS,
                nonce=post_nonce(item.id),
            )
            if view is not None:
                view.stop()  # a dynamic item: found by its custom id, not tracked
            return Delivered(posted.id)
        except discord.HTTPException as err:
            if err.status >= 500 or err.status == 429:
                log.warning("outbox %s: Discord failed (%s); will retry", item.id, err)
                return None
            if channel_unknown(err):  # said once, as its table ends
                tables.channel_gone(item.channel_id)
                return Delivered()
            log.warning("outbox %s: refused by Discord (%s); dropped", item.id, err)
        except (OSError, aiohttp.ClientError) as err:  # (aiohttp's are not all OSErrors)
            log.warning("outbox %s: no connection (%s); will retry", item.id, err)
            return None
        return Delivered()

    async def _round_view(self, item: OutboxItem) -> Components | None:
        """The buttons the table's game puts under a round's end (Stack's **Full
        scoring**), or ``None`` (another game's, or a table no longer stored)."""
        assert item.round_no is not None
        try:
            info = await self.tables.store.table(item.table_id)
        except (StorageError, TableNotFound, WrongTableStatus) as err:
            log.warning("outbox %s: the table's game unknown (%s); no buttons", item.id, err)
            return None
        return games.get(info.game).round_view(item.table_id, item.round_no)

    async def _send_game(self, item: OutboxItem) -> int:
        """A game's end: its text with the chart of the game attached; the text alone when
        the chart cannot be drawn, or the bot may not attach files there. The id of the
        message posted."""
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
                posted = await channel.send(
                    content, file=chart, allowed_mentions=NO_MENTIONS, nonce=post_nonce(item.id)
                )
                return int(posted.id)
            except discord.HTTPException as err:
                if err.status >= 500 or err.status == 429:
                    raise
                log.warning("outbox %s: chart refused (%s); the text alone", item.id, err)
                await tables.budget.acquire(item.channel_id)
        posted = await channel.send(
            content, allowed_mentions=NO_MENTIONS, nonce=post_nonce(item.id)
        )
        return int(posted.id)

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
        was written, and after the last post of a row of the channel delivered before
        them: an earlier post of the same words is not theirs); ``recent``, the bot's last
        messages there, are looked at first. Found rows are marked delivered (remembered
        as posted, if the database fails); returns their ids, or ``None`` if the channel
        or the database could not be read (then nothing is known: the caller asks again
        later rather than post anything twice)."""
        known = self.tables.outbox.unmarked(items)
        wanted = [i for i in items if i.kind != "table" and i.id not in known]
        found = dict(known)
        me = self.tables.bot.user
        seen: set[int] = set()
        texts = {item.id: fit_message(item.content) for item in wanted}  # as posted
        last: dict[int, int] = {}  # row -> the last post known to come before its own
        try:
            for item in wanted:
                post = await self.tables.store.last_post(item.channel_id, item.id)
                if post is not None:
                    last[item.id] = post
        except StorageError as err:
            log.warning("channel %s: last post not read (%s); later", wanted[0].channel_id, err)
            return None

        def match(message: discord.Message, after_row: bool) -> None:
            if message.id in seen or me is None or message.author.id != me.id:
                return
            for item in wanted:
                if message.id <= last.get(item.id, 0):
                    continue  # posted before a row delivered before it: not its own
                if message.content == texts[item.id] and (
                    not after_row or message.created_at >= item.created_at - CLOCK_SKEW
                ):
                    seen.add(message.id)
                    wanted.remove(item)
                    found[item.id] = message.id
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
            except (discord.HTTPException, OSError, aiohttp.ClientError) as err:
                if not channel_unknown(err):
                    channel_id = getattr(channel, "id", None)
                    if isinstance(err, discord.Forbidden):  # may last: looked at less often
                        self.refusing.add(channel_id)
                    else:
                        self.refusing.discard(channel_id)
                    if channel_id not in self.unread:  # said once, until it is read
                        self.unread.add(channel_id)
                        log.warning(
                            "channel %s: its messages not read (%s); will look again",
                            channel_id,
                            err,
                        )
                    return None
                # gone: what was not found there is dropped (its table ends), not looked
                # for again
                self.tables.channel_gone(wanted[0].channel_id)
        self.refusing.discard(getattr(channel, "id", None))
        if getattr(channel, "id", None) in self.unread:
            self.unread.discard(channel.id)
            log.info("channel %s: its messages read again", channel.id)
        await self.tables.outbox.posted(found)
        return list(found)
