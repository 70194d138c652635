"""The live table message of every table (:class:`TableMessages`): rendered under the
table's lock, its picture drawn off the event loop, edits coalesced (at most one per
``EDIT_GAP`` seconds), posted anew to ping, and its last edit once the table is closed.

A table message is public: every word of it (the head, the countdown, the lobby, the
field, the picture's words and description, its buttons) is said in the language of the
table's server (:meth:`bot.front.DiscordFront.speaking`), whoever's click or command
caused it. The picture's job carries that language, so its cache keys on it too."""

from __future__ import annotations

import asyncio
import contextlib
import io
import logging
from collections.abc import Callable, Coroutine
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any, Protocol

import aiohttp
import discord
from discord.http import handle_message_parameters

from bot import games
from bot.answers import (
    NO_MENTIONS,
    release_view,
)
from bot.front import DISCORD
from bot.games.base import DiscordGame, as_closed, nobody_to_move
from bot.outbox import CLOCK_SKEW, DiscordCourier, OutboxHost, channel_unknown, post_nonce
from bot.render import lobby_text
from bot.story import attach_permission
from bot.text import fit_message
from bot.timings import Timings
from bot.views import (
    PICTURE,
    TABLE_MESSAGE_ITEMS,
    TableLayout,
    closed_layout,
    lobby_layout,
    table_layout,
    table_of_custom_id,
)
from catalog import t
from host.clocks import Clocks
from host.expiry import Expiry, NoAnswer
from host.recovery import Recovery
from host.service import LiveTable, MoveOutcome, TableService
from host.tasks import Tasks
from persistence import LeaseLost, StorageError
from persistence.records import MAX_SEATS, LoadedTable, TableInfo
from pictures.painter import DrawJob

log = logging.getLogger(__name__)
REPOST_AFTER_MESSAGES = 25
REPOST_AFTER = timedelta(minutes=50)  # Discord refuses edits of old messages after an hour
EDIT_GAP = 1.5  # seconds between two edits of one table message (Discord: ~5 per 5 s)
EDIT_RETRY = 30.0  # seconds before an edit the database could not allow is tried again
CUT_LOOK_BACK = 300  # messages read (pages of 100), after a post got no answer, to find it
CLOSED_LOOKS = 10  # looks for a closed table's post without answer (EDIT_RETRY apart)


def closed_text(game: DiscordGame) -> str:
    """A closed table's message (no game was played), in the language being spoken."""
    return t("discord.table.closed", title=game.title)


def only(user_id: int) -> discord.AllowedMentions:
    """Allow exactly one user to be pinged."""
    return discord.AllowedMentions(
        everyone=False, roles=False, replied_user=False, users=[discord.Object(user_id)]
    )


@dataclass(frozen=True, slots=True)
class UnansweredPost:
    """A post of the table message that got no answer from Discord (the connection cut,
    or a 5xx): it may be in the channel or not. What it was posted for: the table's
    ``version``, the user it pinged (``ping``), and whether it was the half-time warning
    (``noted``: it carried a note)."""

    version: int
    ping: int | None
    noted: bool
    # when it was sent (this process's clock; the error may come minutes later): it is
    # looked for from then on
    at: datetime = field(default_factory=discord.utils.utcnow)

    def carries(self, version: int, ping: int | None, note: str | None) -> bool:
        """Whether a post for ``version`` pinging ``ping`` with ``note`` is this one again."""
        return (self.version, self.ping, self.noted) == (version, ping, note is not None)


def no_answer(err: BaseException) -> bool:
    """Whether ``err`` says Discord gave no answer to a request it may have carried out:
    the connection cut (``OSError``, ``aiohttp.ClientError``), or Discord failing (5xx)."""
    if isinstance(err, discord.HTTPException):
        return err.status >= 500
    return isinstance(err, (OSError, aiohttp.ClientError))


@dataclass(slots=True)
class TableMessage:
    """The live message of one table and its pending edit."""

    channel_id: int
    message_id: int | None = None
    posted_at: datetime | None = None
    messages_since: int = 0
    pinged_version: int | None = None
    # what this process knows of a version's half-time warning: (version, whether it is
    # out); None, or another version: not known (after a restart), read from the message
    warning: tuple[int, bool] | None = None
    editing: bool = False
    dirty: bool = False
    last_edit: float = float("-inf")
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    picture: tuple[DrawJob, bytes] | None = None  # the last picture drawn, and of what
    # whether the message as Discord has it shows a picture (None: not known yet)
    had_picture: bool | None = None
    # Discord refuses the bot its channel (403: no access, or no permission to post):
    # said once, until it posts there again
    refused: bool = False
    # a post of it that got no answer: looked for in the channel before the next edit or
    # post, so that the channel never keeps two live table messages nor pings twice
    unanswered: UnansweredPost | None = None


class TablesHost(OutboxHost, Protocol):
    """What the collaborators of :class:`bot.tables.Tables` use of it (it is their host):
    the service and storage, the background steps and clocks, and each other."""

    service: TableService[DiscordGame]
    table_messages: TableMessages
    courier: DiscordCourier
    tasks: Tasks
    clocks: Clocks
    expiry: Expiry
    recovery: Recovery
    move_timings: Timings

    @property
    def messages(self) -> dict[int, TableMessage]: ...

    def spawn(self, coro: Coroutine[Any, Any, Any], name: str = "") -> asyncio.Task[Any]: ...
    async def deadline(self, live: LiveTable[DiscordGame]) -> datetime | None: ...
    def message(self, live: LiveTable[DiscordGame]) -> TableMessage: ...
    def refresh(self, live: LiveTable[DiscordGame]) -> None: ...
    async def repost(
        self, live: LiveTable[DiscordGame], *, ping: int | None, note: str | None = None
    ) -> None: ...
    def committed(self, outcome: MoveOutcome) -> None: ...
    def arm_clock(self, live: LiveTable[DiscordGame]) -> None: ...


class TableMessages:
    """Every table's live message (the records of :class:`TableMessage`)."""

    def __init__(self, tables: TablesHost) -> None:
        self.tables = tables
        self.messages: dict[int, TableMessage] = {}
        self.draw_pictures = True

    def message(self, live: LiveTable[DiscordGame]) -> TableMessage:
        record = self.messages.get(live.id)
        if record is None:
            record = self.messages[live.id] = TableMessage(
                live.info.message_channel_id or live.channel_id, live.info.message_id
            )
        return record

    def channel(self, channel_id: int) -> Any:
        """The channel to send to (a partial one when it is not cached)."""
        return self.tables.bot.get_channel(channel_id) or self.tables.bot.get_partial_messageable(
            channel_id
        )

    async def _settings(self, info: TableInfo) -> Any:
        return await self.tables.service.settings(info)

    async def payload(
        self, live: LiveTable[DiscordGame], *, note: str | None = None, picture: bool = False
    ) -> dict[str, Any]:
        """The table message (components V2: a message that has them keeps them, so the
        lobby, the game and the closed table are all V2), in the table's server's language;
        ``picture``: with a gallery showing the attached picture."""
        with DISCORD.speaking(live.info):
            return await self._payload(live, note=note, picture=picture)

    async def _payload(
        self, live: LiveTable[DiscordGame], *, note: str | None, picture: bool
    ) -> dict[str, Any]:
        game = live.game
        if live.state is None:
            if not live.info.is_active:
                return {"view": closed_layout(closed_text(game))}
            rules = await self.tables.service.rules_of(live.info)
            seats = min(MAX_SEATS, game.game.max_players)
            text = fit_message(lobby_text(live.info, game.title, game.lobby_summary(rules), seats))
            levels = game.game.ai_levels
            return {"view": lobby_layout(live.id, live.version, text, levels)}
        over = live.state.is_over or not live.info.is_active
        parts = game.table_parts(
            live.state,
            current_user=None if over else live.current_user(),
            turns=list(live.turns) or None,
            deadline=None if over else await self.tables.deadline(live),
            note=note,
        )
        view = table_layout(
            live.id,
            live.version,
            head=parts.head,
            field=parts.field,
            accent=parts.accent,
            picture=parts.alt_text if picture else None,
            playing=not over,
            private=game.private_button,
        )
        return {"view": view}

    async def _render(
        self, live: LiveTable[DiscordGame], channel: Any, *, note: str | None = None
    ) -> tuple[dict[str, Any], discord.File | None]:
        """The table message and its picture, read under the table's lock (so a move being
        committed is never shown), in the server's language; the picture is drawn after,
        off the event loop (in its job's language)."""
        with DISCORD.speaking(live.info):
            return await self._render_spoken(live, channel, note=note)

    async def _render_spoken(
        self, live: LiveTable[DiscordGame], channel: Any, *, note: str | None
    ) -> tuple[dict[str, Any], discord.File | None]:
        await self.tables.service.recall(live)  # its recent turns, if not recalled yet
        record = self.messages.get(live.id)
        attach = False
        if self.draw_pictures and live.state is not None:
            attach = await self._may_attach(channel, record.message_id if record else None, record)
        async with live.lock:
            job = None
            if attach and live.state is not None:
                job = await self._picture(live.game, live.state, live.info)
            payload = await self.payload(live, note=note, picture=job is not None)
            description = live.game.alt_text(live.state) if job is not None else ""
        if job is None:
            return payload, None
        if record is not None and record.picture is not None and record.picture[0] == job:
            png = record.picture[1]  # a re-post (a ping) shows the same position and theme
        else:
            png = await self.tables.painter.draw(job)
            if record is not None:
                record.picture = (job, png)
        return payload, discord.File(io.BytesIO(png), filename=PICTURE, description=description)

    async def _may_attach(
        self, channel: Any, message_id: int | None, record: TableMessage | None = None
    ) -> bool:
        """Whether the table message (``message_id`` in ``channel``) gets a picture: the
        bot's permission to attach files there once the server is cached; before that (a
        restart: the gateway has not delivered the servers yet, the channel is a partial
        one) whether the message has a picture now — as recovery found it, else as
        Discord says — so that a cold cache never strips a picture."""
        allowed = attach_permission(channel)
        if allowed is not None:
            return allowed
        if record is not None and record.had_picture is not None:
            return record.had_picture
        if message_id is None:
            return False  # a new message, permission unknown: the next edit adds it
        try:
            message = await channel.fetch_message(message_id)
        except discord.NotFound:
            return False
        except discord.HTTPException as err:  # Discord failing: never strip a picture
            log.info("message %s: not read (%s); keeping its picture", message_id, err)
            return True
        had = bool(message.attachments)
        if record is not None:
            record.had_picture = had
        return had

    async def _picture(self, game: DiscordGame, state: Any, info: TableInfo) -> DrawJob | None:
        """What the picture of ``state`` shows, in the server's theme, with the turn timer
        in force in the table's channel (``None``: the game draws none)."""
        settings = await self._settings(info)
        theme = "light" if settings.theme == "light" else "dark"
        return game.picture(state, theme=theme, turn_seconds=settings.turn_seconds or None)

    def refresh(self, live: LiveTable[DiscordGame]) -> None:
        """Bring the table message up to date. Edits are coalesced: while one is under way
        or the last was under ``EDIT_GAP`` ago, changes mark it dirty, and one more edit
        then carries all of them."""
        record = self.claim_edit(live)
        if record is not None:
            self.tables.spawn(self.edit_loop(live, record), "table-edit")

    def claim_edit(self, live: LiveTable[DiscordGame]) -> TableMessage | None:
        """The table's message record, marked as being edited by the caller; ``None`` if
        an edit under way will carry the change (or the table is closed: its last edit
        comes from the outbox)."""
        if not live.info.is_active or live.away or self.tables.is_gone(live.id):
            return None
        record = self.message(live)
        if record.editing:
            record.dirty = True
            return None
        record.editing = True
        return record

    async def edit_loop(self, live: LiveTable[DiscordGame], record: TableMessage) -> None:
        loop = asyncio.get_running_loop()
        try:
            while True:
                wait = record.last_edit + EDIT_GAP - loop.time()
                if wait > 0:
                    await asyncio.sleep(wait)
                record.dirty = False
                if (
                    not live.info.is_active
                    or self.tables.is_gone(live.id)
                    or self.messages.get(live.id) is not record
                ):
                    return
                async with record.lock:
                    if not live.info.is_active or self.messages.get(live.id) is not record:
                        return  # closed while it waited: its last edit is the outbox's
                    await self._edit(live, record)
                record.last_edit = loop.time()
                if not record.dirty:
                    return
        finally:
            record.editing = False

    async def _edit(self, live: LiveTable[DiscordGame], record: TableMessage) -> None:
        try:
            # an edit no transaction takes back: only while this process holds the table's
            # shard by the database (one paused past its lease would show an old turn)
            await self.tables.store.confirm_lease(live.index.guild_id)
        except LeaseLost:
            log.info("table %s: its shard went to another process; not edited", live.id)
            return
        except StorageError as err:  # out of reach: neither edited blind nor forgotten
            log.warning("table %s: lease not confirmed (%s); edited later", live.id, err)
            self.tables.spawn(self._edit_later(live), "table-edit-retry")
            return
        try:
            await self._find_unanswered(live, record)
            await self._edit_now(live, record)
        except NoAnswer as err:  # a post without answer (Discord may have it), or its search
            log.warning("table %s: no answer from Discord (%s); edited later", live.id, err)
            self.tables.spawn(self._edit_later(live), "table-edit-retry")

    async def _edit_now(self, live: LiveTable[DiscordGame], record: TableMessage) -> None:
        channel = self.channel(record.channel_id)
        now = discord.utils.utcnow()
        stale = record.posted_at is not None and now - record.posted_at > REPOST_AFTER
        if record.message_id is None or stale or record.messages_since >= REPOST_AFTER_MESSAGES:
            await self._post(live, record, ping=None)
            return
        payload, picture = await self._render(live, channel)
        try:
            await self._edit_message(record.channel_id, record.message_id, payload, picture)
            record.had_picture = picture is not None
            release_view(payload["view"])
        except discord.NotFound as err:
            if channel_unknown(err):
                self.tables.channel_gone(record.channel_id)
                return
            log.info("table %s: its message is gone; posting anew", live.id)
            record.message_id = None
            await self._post(live, record, ping=None)
        except discord.Forbidden as err:  # posting anew would be refused as well
            self._refused(live, record, err)
        except discord.HTTPException as err:
            log.info("table %s: editing its message failed (%s); posting anew", live.id, err)
            await self._post(live, record, ping=None)
        except (OSError, aiohttp.ClientError) as err:  # no answer: Discord may have it
            release_view(payload["view"])
            log.warning("table %s: its edit cut (%s); edited later", live.id, err)
            self.tables.spawn(self._edit_later(live), "table-edit-retry")
        else:
            self._allowed(live, record)

    async def _edit_later(self, live: LiveTable[DiscordGame]) -> None:
        """Bring the table message up to date ``EDIT_RETRY`` seconds from now (an edit
        whose lease the database could not confirm, or cut by a connection error; a change
        meanwhile is carried too)."""
        await asyncio.sleep(EDIT_RETRY)
        self.refresh(live)

    def _refused(
        self, live: LiveTable[DiscordGame], record: TableMessage, err: discord.HTTPException
    ) -> None:
        """Discord refuses the bot the table's channel (403): the table plays on (its
        access may be given back), and this is said once, not at every edit or ping."""
        if not record.refused:
            record.refused = True
            log.warning(
                "table %s: Discord refuses the bot channel %s (%s); the table plays on, "
                "its message not brought up to date until the bot may post there",
                live.id,
                record.channel_id,
                err,
            )

    @staticmethod
    def _allowed(live: LiveTable[DiscordGame], record: TableMessage) -> None:
        if record.refused:
            record.refused = False
            log.info("table %s: the bot may post in channel %s again", live.id, record.channel_id)

    async def _edit_message(
        self,
        channel_id: int,
        message_id: int,
        payload: dict[str, Any],
        picture: discord.File | None,
    ) -> None:
        """Edit the table message into ``payload`` with ``picture`` (or none): the request
        discord.py's ``PartialMessage.edit`` makes, without reading Discord's answer into a
        :class:`discord.Message` nobody uses."""
        bot = self.tables.bot
        with handle_message_parameters(
            content=None,  # a message from before components V2 loses its text
            attachments=[picture] if picture else [],
            view=payload["view"],
            allowed_mentions=NO_MENTIONS,
            previous_allowed_mentions=bot.allowed_mentions,
        ) as params:
            await bot.http.edit_message(channel_id, message_id, params=params)

    async def _post(
        self,
        live: LiveTable[DiscordGame],
        record: TableMessage,
        *,
        ping: int | None,
        note: str | None = None,
    ) -> None:
        """Post the table message anew at the bottom of the channel (pinging ``ping`` only)
        and delete the old one. Call with ``record.lock`` held."""
        channel = self.channel(record.channel_id)
        old = record.message_id
        version = live.version  # what is shown (a move committed meanwhile is pinged anew)
        payload, picture = await self._render(live, channel, note=note)
        kwargs = dict(payload)
        if picture is not None:
            kwargs["file"] = picture
        kwargs["allowed_mentions"] = only(ping) if ping is not None else NO_MENTIONS
        kwargs["nonce"] = post_nonce()  # discord.py's own retries of it post it once
        await self.tables.budget.acquire(record.channel_id, 2 if old is not None else 1)
        sent = discord.utils.utcnow()  # (an answer may come minutes after the post)
        try:
            message = await channel.send(**kwargs)
        except discord.NotFound as err:
            if not channel_unknown(err):
                raise
            self.tables.channel_gone(record.channel_id)
            return
        except discord.Forbidden as err:
            self._refused(live, record, err)
            return
        except (discord.HTTPException, OSError, aiohttp.ClientError) as err:
            if not no_answer(err):
                raise
            # Discord may have posted it: looked for before anything is posted or edited
            record.unanswered = UnansweredPost(version, ping, note is not None, at=sent)
            log.warning("table %s: its post got no answer (%s); looked for later", live.id, err)
            raise NoAnswer(repr(err)) from err
        finally:
            release_view(kwargs["view"])
        self._allowed(live, record)
        if not live.info.is_active:  # closed meanwhile: its last edit went to the stored one
            log.info(
                "table %s: closed as its message was posted anew; the new one deleted", live.id
            )
            with contextlib.suppress(discord.HTTPException, OSError, aiohttp.ClientError):
                await message.delete()
            return
        record.message_id = message.id
        record.had_picture = picture is not None
        record.posted_at = discord.utils.utcnow()
        record.messages_since = 0
        pinged = version if ping is not None else record.pinged_version
        record.pinged_version = pinged
        await self.tables.store.set_message(
            live.id, record.channel_id, message.id, pinged_version=pinged
        )
        if old is not None:
            with contextlib.suppress(discord.HTTPException):
                await channel.get_partial_message(old).delete()

    async def repost(
        self, live: LiveTable[DiscordGame], *, ping: int | None, note: str | None = None
    ) -> None:
        """Post the table message anew (pinging ``ping`` only) and delete the old one, as
        one unit: once begun, a re-post finishes even if its caller is cancelled — a move
        stops the clock that is pinging, maybe while Discord's answer to the new message
        is on its way — so the new message's id is stored and the old one deleted, and
        the channel never keeps a second live table message. (The move's own edit waits
        for the re-post, then brings the new message up to date.) A post Discord gave no
        answer to raises :class:`~host.expiry.NoAnswer`; the next edit or re-post looks
        for it in the channel first (:meth:`_find_unanswered`), and one that is this
        re-post again is not posted a second time (nor a ping, once one of the turn — its
        warning — is found)."""

        async def step(record: TableMessage) -> None:
            found = await self._find_unanswered(live, record)
            if found is not None and (
                found.carries(live.version, ping, note)  # this post again, in the channel
                # a plain ping, and the post found pinged this turn (its warning): pinged
                or (note is None and ping is not None and record.pinged_version == live.version)
            ):
                return
            await self._post(live, record, ping=ping, note=note)
            record.last_edit = asyncio.get_running_loop().time()

        await self._as_one(live, step)

    async def bring_down(self, live: LiveTable[DiscordGame]) -> None:
        """Post the table message anew at the bottom of the channel (``/table show``), as
        :meth:`repost` does; a ping already posted for this turn — a post without answer
        found in the channel first included — is posted anew with it: deleting it would
        take its mention (the player's unread badge) away."""

        async def step(record: TableMessage) -> None:
            await self._find_unanswered(live, record)
            pinged = record.pinged_version == live.version
            await self._post(live, record, ping=live.current_user() if pinged else None)
            record.last_edit = asyncio.get_running_loop().time()

        await self._as_one(live, step)

    async def _as_one(
        self,
        live: LiveTable[DiscordGame],
        step: Callable[[TableMessage], Coroutine[Any, Any, None]],
    ) -> None:
        """Run ``step`` (a re-post) under the record's lock, as one unit (:meth:`repost`)."""
        if self.tables.is_gone(live.id):
            return  # its channel is gone: the table is ending
        record = self.message(live)
        loop = asyncio.get_running_loop()

        async def whole() -> None:
            async with record.lock:
                if live.info.is_active and self.messages.get(live.id) is record:
                    await step(record)  # (not for a table closed while it waited)

        task = loop.create_task(whole())
        self.tables.tasks.keep(task)
        try:
            await asyncio.shield(task)
        except asyncio.CancelledError:
            task.add_done_callback(_log_failed_repost)  # nobody awaits it any more
            raise

    async def _find_unanswered(
        self, live: LiveTable[DiscordGame], record: TableMessage
    ) -> UnansweredPost | None:
        """Settle a post of the table message that got no answer (call with ``record.lock``
        held): the bot's table messages of the table newer than the stored one are read
        from the channel and the newest adopted (:meth:`adopt`, as start-up recovery
        adopts a re-post a crash cut short). Returns the post if it was found in the
        channel; ``None`` if there was none, or it was not (then a post goes out as
        usual). :class:`NoAnswer` if the channel cannot be read now (it is looked for
        again later)."""
        unanswered = record.unanswered
        if unanswered is None:
            return None
        found = await self._newer(live, record)
        if found is None:
            return None
        adopted = await self.adopt(live, record, found)  # (NoAnswer: looked for again)
        record.unanswered = None
        if adopted is None:
            return None
        if unanswered.noted and unanswered.version == record.pinged_version == live.version:
            record.warning = (live.version, True)  # the warning it carried is out
        return unanswered

    async def _newer(
        self, live: LiveTable[DiscordGame], record: TableMessage
    ) -> list[discord.Message] | None:
        """The bot's table messages of the table in the channel newer than its stored one
        (``CUT_LOOK_BACK`` messages from the unanswered post's time, less Discord's clock
        skew, or the stored one's, whichever is later): none if Discord refuses the bot the
        channel's history (as at start-up), ``None`` if the channel is gone;
        :class:`NoAnswer` if the channel cannot be read now."""
        channel = self.channel(record.channel_id)
        me = self.tables.bot.user
        # read from the post's time on (a busy channel's talk since the stored message
        # skipped), oldest first: the post is among the first messages read
        since = record.message_id or 0
        if record.unanswered is not None:
            tried = discord.utils.time_snowflake(record.unanswered.at - CLOCK_SKEW)
            since = max(since, tried)
        after = discord.Object(since) if since else None
        try:
            return [
                m
                async for m in channel.history(
                    limit=CUT_LOOK_BACK, after=after, oldest_first=after is not None
                )
                if me is not None and m.author.id == me.id and belongs_to(m, live.id)
            ]
        except (discord.HTTPException, OSError, aiohttp.ClientError) as err:
            if channel_unknown(err):
                self.tables.channel_gone(record.channel_id)
                return None
            if no_answer(err):
                raise NoAnswer(repr(err)) from err  # looked for again later
            # refused (403: it may not read the channel's history): not there, as at start-up
            log.warning("table %s: its post without answer not looked for (%s)", live.id, err)
            return []

    def closed(self, live: LiveTable[DiscordGame]) -> None:
        """Forget the table's message record (its last edit comes from the outbox, to the
        stored message). A closed table's post Discord gave no answer to — maybe in the
        channel, with live buttons and the ping — is looked for and removed."""
        record = self.messages.pop(live.id, None)
        if record is None or live.away:  # handed over: the next process adopts the post
            return
        if record.unanswered is not None or record.lock.locked():  # (a post under way)
            self.tables.spawn(self._remove_unanswered(live, record), "table-closed-post")

    async def _remove_unanswered(self, live: LiveTable[DiscordGame], record: TableMessage) -> None:
        """:meth:`closed`'s search: a post under way ends first; the channel that cannot be
        read now is read again ``EDIT_RETRY`` seconds later (``CLOSED_LOOKS`` times at
        most: no start-up looks for a closed table's messages)."""
        for _ in range(CLOSED_LOOKS):
            async with record.lock:
                if record.unanswered is None:
                    return
                try:
                    found = await self._newer(live, record)
                except NoAnswer as err:
                    log.warning("table %s: its closed post not looked for (%s)", live.id, err)
                else:
                    record.unanswered = None
                    if found:
                        log.info("table %s: closed; its post without answer removed", live.id)
                        await self.delete(record.channel_id, [m.id for m in found])
                    return
            await asyncio.sleep(EDIT_RETRY)

    async def adopt(
        self,
        live: LiveTable[DiscordGame],
        record: TableMessage,
        found: list[discord.Message],
    ) -> discord.Message | None:
        """Make the newest of ``found`` — the bot's table messages of ``live`` in the channel
        newer than its stored one: a post Discord gave no answer to, or a re-post a crash
        cut short before its id was stored — its table message, with the ping it carried
        (the player is not pinged again), and delete the message it replaced and the rest
        of ``found``. Call with ``record.lock`` held. A closed table's posts found are
        deleted (its last edit goes to the stored message). The database failing as the
        id is stored leaves the record as it was and the post where it is, to be looked
        for again (``record.unanswered``): :class:`NoAnswer`, as a channel that cannot be
        read. A connection cut as a message is deleted stops nothing (a message left is a
        stray the next start-up removes). Returns the message adopted (``None``: none
        was)."""
        newest = max(found, key=lambda m: m.id, default=None)
        if newest is None:
            return None
        if not live.info.is_active:
            await self.delete(record.channel_id, [m.id for m in found])
            return None
        # the record first (a clock reading it meanwhile sees the ping it carried), then
        # storage; back as it was if storage fails
        shown = ("message_id", "pinged_version", "posted_at", "messages_since", "had_picture")
        before = [getattr(record, name) for name in shown]
        old = record.message_id
        if version_shown(newest, live.id) == live.version and pings(newest, live.current_user()):
            record.pinged_version = live.version
        record.message_id = newest.id
        record.posted_at = newest.created_at
        record.messages_since = 0
        record.had_picture = bool(newest.attachments)
        try:
            await self.tables.store.set_message(
                live.id, record.channel_id, newest.id, pinged_version=record.pinged_version
            )
        except StorageError as err:
            # left where it is, looked for again (its ping not repeated): not deleted, nor
            # kept as the table's message storage does not know (a last edit would miss it)
            for name, value in zip(shown, before, strict=True):
                setattr(record, name, value)
            if record.unanswered is None:  # (start-up's: a re-post a crash cut short)
                record.unanswered = UnansweredPost(
                    version_shown(newest, live.id) or live.version,
                    live.current_user() if pings(newest, live.current_user()) else None,
                    False,
                    at=newest.created_at,
                )
            raise NoAnswer(repr(err)) from err  # (the database's error: not stored)
        log.info("table %s: its message posted but not stored is in the channel; kept", live.id)
        strays = [m.id for m in found if m.id != newest.id]
        await self.delete(record.channel_id, ([old] if old is not None else []) + strays)
        return newest

    async def delete(self, channel_id: int, message_ids: list[int]) -> None:
        """Delete the messages ``message_ids`` of the channel (old table messages), each
        within the channel's budget; one Discord refuses, or whose delete gets no answer,
        is left (a stray the next start-up removes)."""
        channel = self.channel(channel_id)
        for gone in message_ids:
            with contextlib.suppress(discord.HTTPException, OSError, aiohttp.ClientError):
                await self.tables.budget.acquire(channel_id)
                await channel.get_partial_message(gone).delete()

    def message_seen(self, channel_id: int) -> None:
        """Another message in a channel with a table: the table message scrolls up."""
        live = self.tables.service.by_channel.get(channel_id)
        if live is not None:
            self.message(live).messages_since += 1

    async def final_edit(self, table_id: int) -> None:
        """The last edit of a closed table's message: the final position (its picture drawn
        anew), no buttons, in the server's language."""
        loaded = await self.tables.store.load_table(table_id)
        info = loaded.info
        if info.message_id is None:
            return
        with DISCORD.speaking(info):
            await self._final_edit(table_id, loaded)

    async def _final_edit(self, table_id: int, loaded: LoadedTable) -> None:
        info = loaded.info
        assert info.message_id is not None
        channel = self.channel(info.message_channel_id or info.channel_id)
        picture: discord.File | None = None
        state = loaded.state
        game = games.get(info.game)
        if state is None:
            view: TableLayout = closed_layout(closed_text(game))
        else:
            closed = not state.is_over  # closed before its game ended: nobody is to move
            parts = game.table_parts(state, current_user=None, turns=None, closed=closed)
            job = None
            if self.draw_pictures and await self._may_attach(channel, info.message_id):
                with nobody_to_move(closed):
                    job = as_closed(await self._picture(game, state, info))
            if job is not None:
                png = await self.tables.painter.draw(job)
                picture = discord.File(
                    io.BytesIO(png), filename=PICTURE, description=parts.alt_text
                )
            view = table_layout(
                table_id,
                0,
                head=parts.head,
                field=parts.field,
                accent=parts.accent,
                picture=parts.alt_text if job is not None else None,
                playing=False,
            )
        with contextlib.suppress(discord.NotFound):
            await channel.get_partial_message(info.message_id).edit(
                content=None,
                view=view,
                attachments=[picture] if picture else [],
                allowed_mentions=NO_MENTIONS,
            )


def _components(components: Any) -> Any:
    """Every component of a message, nested ones (in containers, rows, sections) too."""
    for component in components:
        yield component
        yield from _components(getattr(component, "children", None) or [])
        accessory = getattr(component, "accessory", None)
        if accessory is not None:
            yield from _components([accessory])


def version_shown(message: Any, table_id: int) -> int | None:
    """The table version ``message`` (as the channel has it) shows (by its buttons' custom ids), if it is a table
    message of ``table_id`` with buttons."""
    for item in _components(message.components):
        custom_id = getattr(item, "custom_id", None) or ""
        for kind in TABLE_MESSAGE_ITEMS:
            match = kind.__discord_ui_compiled_template__.fullmatch(custom_id)
            if match is not None and int(match["table"]) == table_id:
                return int(match["version"])
    return None


def pings(message: discord.Message, user: int | None) -> bool:
    """Whether ``message`` mentions ``user`` (a table message's ping: the only mention it
    holds)."""
    if user is None:
        return False
    if any(m.id == user for m in message.mentions):
        return True
    mention = f"<@{user}>"
    return any(
        mention in (getattr(c, "content", None) or "") for c in _components(message.components)
    )


def belongs_to(message: discord.Message, table_id: int) -> bool:
    """Whether ``message`` is a table message of ``table_id`` (by its buttons)."""
    for item in _components(message.components):
        custom_id = getattr(item, "custom_id", None) or ""
        if table_of_custom_id(custom_id) == table_id:
            return True
    return False


def _log_failed_repost(task: asyncio.Task[None]) -> None:
    if not task.cancelled() and (error := task.exception()) is not None:
        log.warning("a re-post of a table message failed: %r", error)
