"""The Discord side of every table: answering interactions, the live table message (edits
coalesced, re-posted to ping), how the table's clock pings and warns, and the recovery of
the channels at start-up. The game-agnostic machinery is the host's: what a table's clock
means (:mod:`host.expiry`: the turn timer, the half-time warning, the idle limit), the
clocks' timer heap (:mod:`host.clocks`), the outbox's order and marks
(:mod:`host.outbox`; its Discord courier is :mod:`bot.outbox`), the recovery queue
(:mod:`host.recovery`), the background steps (:mod:`host.tasks`) and the channels' write
budget (:mod:`host.budget`).

Rules are not decided here: every request goes to :class:`~host.service.TableService`, and
what a table shows is its game's (:mod:`bot.games`): this module knows no game. A refused
request raises :class:`~host.refusals.Refusal`; the command tree's error handler and the
buttons' base class (:func:`bot.views.answer_error`) answer it, in one place.

How a table talks to its channel:

* The live table message always names whose turn it is (a mention that does not ping,
  since edits never notify) and when the turn runs out (a Discord timestamp that counts
  down by itself). It is edited in place, at most once per ``EDIT_GAP`` seconds.
* A human who has not moved ``PING_AFTER`` seconds into their turn is pinged by posting
  the table message anew at the bottom of the channel, with only that player allowed to
  be mentioned, and deleting the old one: the channel never holds a trail of pings, and
  after a game it holds the table, the round results and the result.
* Every message create and delete in a channel goes through
  :class:`~host.budget.ChannelBudget` (at most 5 per 5 s per channel, Discord's limit).
* Round ends, game ends and closings are committed with the move as outbox rows and
  delivered from there, also after a restart (then looked for among the bot's own
  messages in the channel since each row was written, so that nothing is posted twice).
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import json
import logging
import random
import time
from collections.abc import Coroutine
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from functools import partial
from typing import TYPE_CHECKING, Any

import discord
from discord.ext import commands

from bot import games
from bot.front import DISCORD
from bot.games.base import DiscordGame, Panel
from bot.outbox import DiscordCourier
from bot.refusal_words import MOVED_AWAY, Refused
from bot.render import lobby_text
from bot.story import attach_permission
from bot.text import escape_name, fit_message
from bot.timings import Timings
from bot.views import (
    PICTURE,
    STOPPING,
    TABLE_MESSAGE_ITEMS,
    TableLayout,
    closed_layout,
    end_view,
    lobby_layout,
    moves_view,
    owns_panel,
    table_layout,
    table_of_custom_id,
)
from host.budget import ChannelBudget
from host.clocks import Clocks
from host.expiry import Expiry
from host.outbox import REDELIVER_AFTER, Outbox
from host.recovery import Recovery, Slices
from host.refusals import Refusal, Why
from host.service import LiveTable, MoveOutcome, Player, TableService, ai_to_move, settle
from host.tasks import Tasks
from host.thinking import Thinker
from persistence import Store
from persistence.fence import shard_of
from persistence.records import MAX_SEATS, OutboxItem, ScoreSheet, TableInfo
from pictures.painter import DrawJob, Painter

if TYPE_CHECKING:
    from host.cluster import Cluster

log = logging.getLogger(__name__)
REPOST_AFTER_MESSAGES = 25
REPOST_AFTER = timedelta(minutes=50)  # Discord refuses edits of old messages after an hour
DEFER_AFTER = 2.5  # Discord wants an answer within 3 s; slower work is deferred first
DEFERRAL_ANSWERED = "stackbot.deferral_answered"  # interaction.extras: "thinking…" was edited
EDIT_GAP = 1.5  # seconds between two edits of one table message (Discord: ~5 per 5 s)
PING_AFTER = 5.0  # seconds into a human's turn before they are pinged
RECENT_HISTORY = 30  # messages read at start-up to find table messages left behind
OUTBOX_KEPT = timedelta(days=1)  # delivered outbox rows are deleted at start-up after this
NO_MENTIONS = discord.AllowedMentions.none()


def closed_text(game: DiscordGame) -> str:
    return f"This {game.title} table is closed. `/table new` opens another."


def only(user_id: int) -> discord.AllowedMentions:
    """Allow exactly one user to be pinged."""
    return discord.AllowedMentions(
        everyone=False, roles=False, replied_user=False, users=[discord.Object(user_id)]
    )


@dataclass(slots=True)
class TableMessage:
    """The live message of one table and its pending edit."""

    channel_id: int
    message_id: int | None = None
    posted_at: datetime | None = None
    messages_since: int = 0
    pinged_version: int | None = None
    editing: bool = False
    dirty: bool = False
    last_edit: float = float("-inf")
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    picture: tuple[DrawJob, bytes] | None = None  # the last picture drawn, and of what
    # whether the message as Discord has it shows a picture (None: not known yet)
    had_picture: bool | None = None


class Tables:
    """Every table's Discord presence; the cogs and buttons call its methods."""

    def __init__(
        self,
        bot: commands.Bot,
        store: Store,
        *,
        seed: int | None = None,
        painter: Painter | None = None,
        thinker: Thinker | None = None,
    ) -> None:
        self.bot = bot
        self.painter = painter or Painter("process")
        self.store = store
        self.service = TableService(
            store, front=DISCORD, seed=seed, clock=self, now=discord.utils.utcnow, thinker=thinker
        )
        self.messages: dict[int, TableMessage] = {}
        self.budget = ChannelBudget()
        self.draw_pictures = True
        self.tasks = Tasks()
        self.clocks = Clocks(self.tasks, discord.utils.utcnow)
        self.expiry = Expiry(self.service, self.clocks, self)
        self.recovery = Recovery(self.tasks)
        self.courier = DiscordCourier(self)
        self.outbox = Outbox(store, self.courier, self.tasks, self.owns_guild)
        self.accepting = True
        # one process of several: the shards it serves (None: it serves every table)
        self.cluster: Cluster | None = None
        self.move_timings = Timings()  # answering a move, for the health report

    def spawn(self, coro: Coroutine[Any, Any, Any], name: str = "") -> asyncio.Task[Any]:
        """Run ``coro`` in the background; an error is logged, never lost or fatal."""
        return self.tasks.spawn(coro, name)

    async def drain(self) -> None:
        """Wait for the background steps under way (the bot is stopping)."""
        for live in list(self.service.by_id.values()):
            self.expiry.stop(live.id)
        await self.clocks.close()
        await self.tasks.drain(timeout=3)
        await self.painter.close()
        await self.service.thinker.close()

    # ------------------------------------------------------------ start-up

    async def resume(self) -> None:
        """Load every active table (playing the turns AI seats owe), then bring every
        channel up to date from storage: table messages re-rendered, pings owed, the outbox
        delivered (what a crash left unsaid), stray table messages removed."""
        await self.store.purge_delivered(discord.utils.utcnow() - OUTBOX_KEPT)
        await self.adopt(None, None)

    async def adopt(self, shard_count: int | None, shards: frozenset[int] | None) -> None:
        """As :meth:`resume`, for the tables of guilds on ``shards`` (of ``shard_count``)
        only: this process (one of several) takes them over, from what is stored; ``None``
        for every table."""
        if shard_count is not None and shards is not None:
            self.store.forget_shards(shard_count, shards)
        # the worker warms up in the background; pictures asked before it is warm are
        # drawn on threads meanwhile: the first interaction never waits for it
        self.painter.start(warm_up_jobs())
        tables = await self.service.load(shard_count=shard_count, shards=shards, lazy=True)
        for live in tables:
            self.messages[live.id] = TableMessage(
                live.info.message_channel_id or live.channel_id,
                live.info.message_id,
                pinged_version=live.info.pinged_version,
            )
        pending = await self.store.pending_outbox(shard_count=shard_count, shards=shards)
        channels: dict[int, tuple[list[LiveTable[DiscordGame]], list[OutboxItem]]] = {}
        for live in tables:
            channels.setdefault(self.message(live).channel_id, ([], []))[0].append(live)
        for item in pending:
            channels.setdefault(item.channel_id, ([], []))[1].append(item)
        # behind the live interactions: every table's state built and the AI turns owed
        # played, every clock armed (the timers that ran out while the bot was down then
        # fire as one catch-up, in the order they ran out), then each channel brought up
        # to date, then the recent turns of the rest recalled
        self.clocks.hold()
        # every table's settings in a few queries, not one each as clocks and renders ask
        self.recovery.put(
            lambda: self.store.prefetch_settings(
                (live.info.guild_id, live.info.channel_id, live.info.game) for live in tables
            ),
            "read settings",
        )
        self.recovery.put(lambda: self._ready_all(tables), "build states")
        self.recovery.put(lambda: self._arm_all(tables), "arm clocks")
        self.recovery.put_all(
            [partial(self._recover, channel_id, *work) for channel_id, work in channels.items()],
            "recover channel",
        )
        self.recovery.put(self.service.recall_all, "recall turns")
        where = "" if shards is None else f" of shard {','.join(map(str, sorted(shards)))}"
        log.info("resumed %d active tables%s", len(tables), where)

    def owns_guild(self, guild_id: int) -> bool:
        """Whether this process serves the server's tables (always, alone)."""
        return self.cluster is None or self.cluster.owns(guild_id)

    def use_cluster(self, cluster: Cluster) -> None:
        """This process is one of several: it serves, and keeps in memory, the tables of
        the shards ``cluster`` gives it only."""
        self.cluster = cluster
        self.service.owns = cluster.owns

    def _on_shards(self, shard_count: int, shards: frozenset[int]) -> list[LiveTable[DiscordGame]]:
        return [
            live
            for live in self.service.by_id.values()
            if shard_of(live.info.guild_id, shard_count) in shards
        ]

    async def release(self, shard_count: int, shards: frozenset[int]) -> None:
        """Hand the tables of ``shards`` over to another process: their clocks stopped,
        requests queued for them refused, the steps and deliveries under way finished (so
        that everything they owe is written), then forgotten here."""
        lives = self._on_shards(shard_count, shards)
        records = [r for live in lives if (r := self.messages.get(live.id)) is not None]
        busy = []
        for live in lives:
            self.expiry.stop(live.id)
            if live.lock.locked():
                busy.append(live)
            else:  # no step under way: let go at once (nothing awaited in between)
                self.service.let_go(live)

        async def after_its_step(live: LiveTable[DiscordGame]) -> None:
            async with live.lock:  # the step under way ends (and is committed) first
                self.service.let_go(live)

        async def after_its_post(record: TableMessage) -> None:
            async with record.lock:  # a re-post under way records where it went
                pass

        await asyncio.gather(
            *(after_its_step(live) for live in busy),
            *(after_its_post(r) for r in records if r.lock.locked()),
        )
        await self.outbox.finish(lambda guild: shard_of(guild, shard_count) in shards)
        self.store.forget_shards(shard_count, shards)

    async def drop(self, shard_count: int, shards: frozenset[int]) -> None:
        """The leases of ``shards`` were lost: their tables are forgotten at once (any
        write of them would be refused now)."""
        for live in self._on_shards(shard_count, shards):
            self.expiry.stop(live.id)
            self.service.let_go(live)
        self.store.forget_shards(shard_count, shards)

    def admits(self, guild_id: int | None) -> str | None:
        """Whether an interaction from ``guild_id`` is taken here: ``None`` yes; else the
        refusal to say (the bot is stopping; the server's shard is being taken over), or
        ``""`` to say nothing (another process of the bot serves that server)."""
        if not self.accepting:
            return STOPPING
        cluster = self.cluster
        if cluster is None or guild_id is None:
            return None
        shard = cluster.shard_of(guild_id)
        if cluster.serves(shard):
            return None
        if cluster.served_elsewhere(shard) is not None:
            return ""
        return MOVED_AWAY

    def health(self) -> dict[str, Any]:
        """What this process serves, for its heartbeat and health report."""
        return {"tables": len(self.service.by_id), "clocks": self._clocks()}

    def _clocks(self) -> int:
        return self.clocks.armed

    async def recovered(self) -> None:
        """Until the start-up's recovery is done (every channel brought up to date)."""
        await self.recovery.wait()

    async def _ready_all(self, tables: list[LiveTable[DiscordGame]]) -> None:
        """Every loaded table made ready (:meth:`~host.service.TableService.ready`), a
        slice at a time; what that changed is owed to the channels as after any step."""
        slices = Slices()
        for live in tables:
            if live.away:
                continue
            version = live.version
            outcome = await self.service.ready(live)
            if outcome is None:  # closed: its stored game does not read back
                self.spawn(self.outbox.deliver(live.id, live.info.guild_id), "deliver")
            elif outcome.announced or live.version != version or not live.info.is_active:
                self.committed(outcome)
            await slices.tick()

    async def _arm_all(self, tables: list[LiveTable[DiscordGame]]) -> None:
        """Arm every loaded table's clock (the clocks held meanwhile), a slice at a time."""
        slices = Slices()
        try:
            plans = []
            for live in tables:
                self._arm(live)
                clock = self.expiry.timers.get(live.id)
                if clock is not None and clock.task is not None and not ai_to_move(live):
                    plans.append(clock.task)  # its events planned (an AI turn is not one)
                await slices.tick()
            if plans:
                await asyncio.wait(plans)
        finally:
            self.clocks.release()

    async def _recover(
        self, channel_id: int, lives: list[LiveTable[DiscordGame]], items: list[OutboxItem]
    ) -> None:
        channel = self.channel(channel_id)
        recent: list[discord.Message] = []
        me = self.bot.user
        with contextlib.suppress(discord.HTTPException, AttributeError):
            recent = [
                m
                async for m in channel.history(limit=RECENT_HISTORY)
                if me is not None and m.author.id == me.id
            ]
        done = await self.courier.already_posted(channel, items, recent)
        for live in lives:
            stored = self.message(live).message_id
            shown = next((m for m in recent if m.id == stored), None)
            if shown is not None:  # what it shows now, before the server is cached
                self.message(live).had_picture = bool(shown.attachments)
            for m in recent:  # table messages a crash left behind (a ping mid-repost)
                if m.id != stored and _belongs_to(m, live.id):
                    with contextlib.suppress(discord.HTTPException):
                        await self.budget.acquire(channel_id)
                        await m.delete()
            if not _current(shown, live):  # stale (or not seen): re-rendered, awaited
                record = self._claim_edit(live)  # (the queue goes at the edits' pace)
                if record is not None:
                    await self._edit_loop(live, record)
        await self._deliver_owed(channel, items, done)

    async def _deliver_owed(
        self, channel: Any, items: list[OutboxItem], done: list[int] | None
    ) -> None:
        """Deliver the ``items`` not found posted (``done``); if the channel could not be
        searched (``None``), search it again a little later first: never post blind."""
        while done is None:
            await asyncio.sleep(REDELIVER_AFTER)
            done = await self.courier.already_posted(channel, items)
        owed = {i.table_id: i.guild_id for i in items if i.id not in done}
        for table_id, guild_id in owed.items():
            await self.outbox.deliver(table_id, guild_id)

    # ------------------------------------------------------------ helpers

    @staticmethod
    def player(interaction: discord.Interaction) -> Player:
        user = interaction.user
        return Player(user.id, getattr(user, "display_name", None) or user.name)

    @staticmethod
    async def say(interaction: discord.Interaction, text: str, **kwargs: Any) -> None:
        """Answer ephemerally: the answer itself; after a deferral (:meth:`in_time`'s
        "thinking…"), that deferred message edited into the answer (a follow-up in its place
        is deprecated); after an answer, a follow-up."""
        kwargs.setdefault("ephemeral", True)
        kwargs.setdefault("allowed_mentions", NO_MENTIONS)
        text = fit_message(text)
        if not interaction.response.is_done():
            await interaction.response.send_message(text, **kwargs)
        elif (
            interaction.response.type is discord.InteractionResponseType.deferred_channel_message
            and not interaction.extras.get(DEFERRAL_ANSWERED)
        ):
            del kwargs["ephemeral"]  # the deferral chose it; a message's cannot change
            if "file" in kwargs or "files" in kwargs:
                one = kwargs.pop("file", None)
                kwargs["attachments"] = [*kwargs.pop("files", ()), *([one] if one else [])]
            await interaction.edit_original_response(content=text, **kwargs)
            interaction.extras[DEFERRAL_ANSWERED] = True
        else:
            await interaction.followup.send(text, **kwargs)
        _release(kwargs.get("view"))

    async def in_time(
        self,
        interaction: discord.Interaction,
        work: Any,
        *,
        update: bool = False,
        public: bool = False,
    ) -> Any:
        """Await ``work``; if it takes longer than Discord allows for an answer, defer the
        interaction first (the answer then comes as a follow-up or an edit; ``public``
        when that answer is for the channel, as the start of a game)."""
        task = asyncio.ensure_future(work)
        done, _ = await asyncio.wait({task}, timeout=DEFER_AFTER)
        if not done and not interaction.response.is_done():
            with contextlib.suppress(discord.HTTPException):
                if update:
                    await interaction.response.defer()
                else:
                    await interaction.response.defer(ephemeral=not public, thinking=True)
        return await task

    @staticmethod
    async def edit_panel(interaction: discord.Interaction, **kwargs: Any) -> None:
        """Edit the message whose component was used (after a deferral too) when it is
        the user's own; anyone else's press is answered in a new private message (a panel
        answers its owner only: it never shows another member's hand, nor loses its
        buttons)."""
        if "content" in kwargs:
            kwargs["content"] = fit_message(kwargs["content"])
        if not owns_panel(interaction):
            extra: dict[str, Any] = {}
            if kwargs.get("view") is not None:
                extra["view"] = kwargs["view"]
            if kwargs.get("attachments"):
                extra["files"] = kwargs["attachments"]
            await Tables.say(interaction, kwargs.get("content") or "Done.", **extra)
            return
        if interaction.response.is_done():
            await interaction.edit_original_response(**kwargs)
        else:
            await interaction.response.edit_message(**kwargs)
        _release(kwargs.get("view"))

    @staticmethod
    def is_manager(interaction: discord.Interaction) -> bool:
        return bool(interaction.permissions.manage_guild)

    def _log(
        self, interaction: discord.Interaction, what: str, live: LiveTable[DiscordGame] | None
    ) -> None:
        log.info(
            "guild=%s channel=%s table=%s user=%s %s",
            interaction.guild_id,
            interaction.channel_id,
            live.id if live else "-",
            interaction.user.id,
            what,
        )

    def message(self, live: LiveTable[DiscordGame]) -> TableMessage:
        record = self.messages.get(live.id)
        if record is None:
            record = self.messages[live.id] = TableMessage(
                live.info.message_channel_id or live.channel_id, live.info.message_id
            )
        return record

    def channel(self, channel_id: int) -> Any:
        """The channel to send to (a partial one when it is not cached)."""
        return self.bot.get_channel(channel_id) or self.bot.get_partial_messageable(channel_id)

    async def _settings(self, info: TableInfo) -> Any:
        return await self.service.settings(info)

    async def deadline(self, live: LiveTable[DiscordGame]) -> datetime | None:
        """When the current human's turn runs out (:meth:`host.expiry.Expiry.deadline`);
        call it under the table's lock."""
        return await self.expiry.deadline(live)

    async def _payload(
        self, live: LiveTable[DiscordGame], *, note: str | None = None, picture: bool = False
    ) -> dict[str, Any]:
        """The table message (components V2: a message that has them keeps them, so the
        lobby, the game and the closed table are all V2); ``picture``: with a gallery
        showing the attached picture."""
        game = live.game
        if live.state is None:
            if not live.info.is_active:
                return {"view": closed_layout(closed_text(game))}
            rules = await self.service.rules_of(live.info)
            seats = min(MAX_SEATS, game.game.max_players)
            text = fit_message(lobby_text(live.info, game.title, game.lobby_summary(rules), seats))
            return {"view": lobby_layout(live.id, live.version, text)}
        over = live.state.is_over or not live.info.is_active
        parts = game.table_parts(
            live.state,
            current_user=None if over else live.current_user(),
            turns=list(live.turns) or None,
            deadline=None if over else await self.deadline(live),
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
        committed is never shown); the picture is drawn after, off the event loop."""
        await self.service.recall(live)  # its recent turns, if not recalled yet
        record = self.messages.get(live.id)
        attach = False
        if self.draw_pictures and live.state is not None:
            attach = await self._may_attach(channel, record.message_id if record else None, record)
        async with live.lock:
            job = None
            if attach and live.state is not None:
                job = await self._picture(live.game, live.state, live.info)
            payload = await self._payload(live, note=note, picture=job is not None)
            description = live.game.alt_text(live.state) if job is not None else ""
        if job is None:
            return payload, None
        if record is not None and record.picture is not None and record.picture[0] == job:
            png = record.picture[1]  # a re-post (a ping) shows the same position and theme
        else:
            png = await self.painter.draw(job)
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

    # ------------------------------------------------------------ the table message

    def refresh(self, live: LiveTable[DiscordGame]) -> None:
        """Bring the table message up to date. Edits are coalesced: while one is under way
        or the last was under ``EDIT_GAP`` ago, changes mark it dirty, and one more edit
        then carries all of them."""
        record = self._claim_edit(live)
        if record is not None:
            self.spawn(self._edit_loop(live, record), "table edit")

    def _claim_edit(self, live: LiveTable[DiscordGame]) -> TableMessage | None:
        """The table's message record, marked as being edited by the caller; ``None`` if
        an edit under way will carry the change (or the table is closed: its last edit
        comes from the outbox)."""
        if not live.info.is_active or live.away:
            return None
        record = self.message(live)
        if record.editing:
            record.dirty = True
            return None
        record.editing = True
        return record

    async def _edit_loop(self, live: LiveTable[DiscordGame], record: TableMessage) -> None:
        loop = asyncio.get_running_loop()
        try:
            while True:
                wait = record.last_edit + EDIT_GAP - loop.time()
                if wait > 0:
                    await asyncio.sleep(wait)
                record.dirty = False
                if not live.info.is_active or self.messages.get(live.id) is not record:
                    return
                async with record.lock:
                    await self._edit(live, record)
                record.last_edit = loop.time()
                if not record.dirty:
                    return
        finally:
            record.editing = False

    async def _edit(self, live: LiveTable[DiscordGame], record: TableMessage) -> None:
        channel = self.channel(record.channel_id)
        now = discord.utils.utcnow()
        stale = record.posted_at is not None and now - record.posted_at > REPOST_AFTER
        if record.message_id is None or stale or record.messages_since >= REPOST_AFTER_MESSAGES:
            await self._post(live, record, ping=None)
            return
        payload, picture = await self._render(live, channel)
        try:
            await channel.get_partial_message(record.message_id).edit(
                content=None,  # a message from before components V2 loses its text
                attachments=[picture] if picture else [],
                allowed_mentions=NO_MENTIONS,
                **payload,
            )
            record.had_picture = picture is not None
            _release(payload["view"])
        except discord.NotFound:
            log.info("table %s: its message is gone; posting anew", live.id)
            record.message_id = None
            await self._post(live, record, ping=None)
        except discord.HTTPException as err:
            log.info("table %s: editing its message failed (%s); posting anew", live.id, err)
            await self._post(live, record, ping=None)

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
        await self.budget.acquire(record.channel_id, 2 if old is not None else 1)
        message = await channel.send(**kwargs)
        _release(kwargs["view"])
        record.message_id = message.id
        record.had_picture = picture is not None
        record.posted_at = discord.utils.utcnow()
        record.messages_since = 0
        pinged = version if ping is not None else record.pinged_version
        record.pinged_version = pinged
        if live.info.is_active:
            await self.store.set_message(
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
        for the re-post, then brings the new message up to date.)"""
        record = self.message(live)
        loop = asyncio.get_running_loop()

        async def whole() -> None:
            async with record.lock:
                await self._post(live, record, ping=ping, note=note)
                record.last_edit = loop.time()

        task = loop.create_task(whole())
        self.tasks.keep(task)
        try:
            await asyncio.shield(task)
        except asyncio.CancelledError:
            task.add_done_callback(_log_failed_repost)  # nobody awaits it any more
            raise

    def message_seen(self, channel_id: int) -> None:
        """Another message in a channel with a table: the table message scrolls up."""
        live = self.service.by_channel.get(channel_id)
        if live is not None:
            self.message(live).messages_since += 1

    async def final_edit(self, table_id: int) -> None:
        """The last edit of a closed table's message: the final position (its picture drawn
        anew), no buttons."""
        loaded = await self.store.load_table(table_id)
        info = loaded.info
        if info.message_id is None:
            return
        channel = self.channel(info.message_channel_id or info.channel_id)
        picture: discord.File | None = None
        state = loaded.state
        game = games.get(info.game)
        if state is None:
            view: TableLayout = closed_layout(closed_text(game))
        else:
            closed = None if state.is_over else "**This table is closed.**"
            parts = game.table_parts(state, current_user=None, turns=None, note=closed)
            job = None
            if self.draw_pictures and await self._may_attach(channel, info.message_id):
                job = await self._picture(game, state, info)
            if job is not None:
                png = await self.painter.draw(job)
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

    # ------------------------------------------------------------ after a commit

    def committed(self, outcome: MoveOutcome) -> None:
        """What a committed change owes the channel; each step runs on its own, so one
        that fails (a refused message) never stops the others."""
        live = outcome.table
        if live.away:  # its shard went to another process, which says it all
            return
        if outcome.announced:
            self.spawn(self.outbox.deliver(live.id, live.info.guild_id), "deliver")
        self.refresh(live)

    # ------------------------------------------------------------ lobby

    async def new(
        self,
        interaction: discord.Interaction,
        options: dict[str, Any],
        game: str = games.DEFAULT,
    ) -> None:
        """Open a table of ``game``; ``options`` are ``/table new``'s options by their
        names there (each game says which it takes: :attr:`DiscordGame.table_options`)."""
        if interaction.guild_id is None or interaction.channel_id is None:
            raise Refused("Tables live in server channels, not in DMs.")
        try:
            played = games.get(game)
        except games.UnknownGame as err:
            raise Refused(str(err)) from None
        settings: dict[str, Any] = {}
        for option, value in options.items():
            if value is None:
                continue
            field = played.table_options.get(option)
            if field is None:
                raise Refused(f"{played.title} has no `{option}:` option.")
            settings[field] = value
        live = await self.service.new_table(
            interaction.guild_id,
            interaction.channel_id,
            self.player(interaction),
            settings,
            game=played.name,
        )
        self._log(interaction, "opened a table", live)
        payload = await self._payload(live)
        answered = await interaction.response.send_message(allowed_mentions=NO_MENTIONS, **payload)
        _release(payload["view"])
        message_id = answered.message_id  # Discord names the message in its answer: no GET
        if message_id is None:
            message_id = (await interaction.original_response()).id
        record = self.message(live)
        record.message_id, record.posted_at = message_id, discord.utils.utcnow()
        await self.store.set_message(live.id, interaction.channel_id, message_id)
        self._arm(live)

    async def lobby_button(
        self, interaction: discord.Interaction, action: str, table_id: int
    ) -> None:
        live = self.service.by_id.get(table_id)
        if live is None or live.channel_id != interaction.channel_id:
            raise Refusal(Why.TABLE_ENDED)
        handlers = {"join": self.join, "leave": self.leave, "ai": self.add_ai, "start": self.start}
        await handlers[action](interaction)

    async def _lobby_change(self, interaction: discord.Interaction, action: Any, done: str) -> None:
        result = await action
        if isinstance(result, MoveOutcome):
            live, note = result.table, result.note
            self.committed(result)
        else:
            live, note = result, done
            self.refresh(live)
            self._arm(live)
        self._log(interaction, note, live)
        with contextlib.suppress(discord.HTTPException):
            await self.say(interaction, note)
        if not live.info.is_active and live.info.status == "abandoned" and live.state is None:
            # a lobby left by its last player: no game was played, so no outbox
            self.spawn(self.final_edit(live.id), "lobby closed")

    async def join(self, interaction: discord.Interaction) -> None:
        await self._lobby_change(
            interaction,
            self.service.join(interaction.channel_id or 0, self.player(interaction)),
            "You're in. The host presses **Start** when everyone is seated.",
        )

    async def leave(self, interaction: discord.Interaction) -> None:
        await self._lobby_change(
            interaction,
            self.service.leave(interaction.channel_id or 0, self.player(interaction)),
            "",
        )

    async def add_ai(self, interaction: discord.Interaction, level: str = "greedy") -> None:
        await self._lobby_change(
            interaction,
            self.service.add_ai(interaction.channel_id or 0, self.player(interaction), level),
            f"An AI player ({level}) sits down.",
        )

    async def kick(self, interaction: discord.Interaction, target_id: int) -> None:
        await self._lobby_change(
            interaction,
            self.service.kick(interaction.channel_id or 0, self.player(interaction), target_id),
            "",
        )

    async def start(self, interaction: discord.Interaction) -> None:
        outcome = await self.in_time(
            interaction,
            self.service.start(interaction.channel_id or 0, self.player(interaction)),
            public=True,
        )
        self.committed(outcome)
        self._log(interaction, "started the game", outcome.table)
        await self.say(interaction, outcome.note, ephemeral=False)  # who begins

    async def end(self, interaction: discord.Interaction) -> None:
        live = self.service.table_in(interaction.channel_id or 0)
        if live.info.host_id != interaction.user.id and not self.is_manager(interaction):
            raise Refusal(Why.HOST_ONLY, power="end")
        await self.say(
            interaction,
            "End this table for everyone? The game so far is kept in the history.",
            view=end_view(live.id, live.version),
        )

    async def end_confirmed(self, interaction: discord.Interaction, table_id: int) -> None:
        live = self.service.by_id.get(table_id)
        if live is None:
            raise Refused("This table has already ended.")
        outcome = await self.service.end(
            live.channel_id, self.player(interaction), manager=self.is_manager(interaction)
        )
        self.committed(outcome)
        self._log(interaction, "ended the table", live)
        await self.edit_panel(interaction, content="The table is closed.", view=None)

    async def show(self, interaction: discord.Interaction) -> None:
        live = self.service.table_in(interaction.channel_id or 0)
        await self.say(interaction, "The table is below.")
        await self.repost(live, ping=None)

    # ------------------------------------------------------------ moves

    async def play_move(
        self,
        interaction: discord.Interaction,
        *,
        text: str | None = None,
        move: Any = None,
        table_id: int | None = None,
        version: int | None = None,
        edit: bool = False,
    ) -> None:
        """Play a move for the user — typed (``text``, in the channel's table) or given
        (``move``, from a button of table ``table_id`` at ``version``) — and answer them:
        the channel first (it is owed whatever happens to this answer), then the player,
        ``edit``-ing the panel whose button was used or answering anew."""
        channel_id = interaction.channel_id or 0
        if table_id is not None:
            channel_id = self.service.table_by_id(table_id).channel_id
        started = time.perf_counter()
        outcome = await self.in_time(
            interaction,
            self.service.move(
                channel_id,
                self.player(interaction),
                text=text,
                move=move,
                table_id=table_id,
                version=version,
                interaction_id=str(interaction.id),
            ),
            update=edit,
        )
        self.move_timings.add(time.perf_counter() - started)
        what = f"typed {text[:100]!r}" if text is not None else f"played {move!r}"
        self._log(interaction, what, outcome.table)
        await self._answer_move(interaction, outcome, edit=edit)

    async def play(self, interaction: discord.Interaction, text: str) -> None:
        """A move typed in a command."""
        await self.play_move(interaction, text=text)

    async def tapped(
        self, interaction: discord.Interaction, table_id: int, version: int, code: str
    ) -> None:
        """A move button or select: ``code`` is the table's game's move code (read back
        against the committed state, under the lock; the service checks it again)."""
        live = self.service.table_by_id(table_id)
        move = None
        async with live.lock:
            if live.state is not None:
                move = live.game.move_from_code(live.state, code)
        if move is None:
            raise Refused("That isn't a move this table knows.")
        await self.play_move(interaction, move=move, table_id=table_id, version=version, edit=True)

    async def _answer_move(
        self, interaction: discord.Interaction, outcome: MoveOutcome, *, edit: bool
    ) -> None:
        live = outcome.table
        if outcome.duplicate:
            await self.say(interaction, "That was already played.")
            return
        self.committed(outcome)
        if outcome.chooser is not None:
            view, _ = moves_view(live.game, live.id, live.version, outcome.chooser)
            await self._answer(interaction, Panel(outcome.chooser_text, view), edit=edit)
            return
        if outcome.continues and outcome.seat is not None:
            panel = await self._panel_again(live, outcome.seat, interaction.user.id)
            if panel is not None:
                await self._answer(interaction, panel, edit=edit)
                return
        # a move that ends no turn but the game (a resignation) is answered with the end
        text = "✅ " + (outcome.turns[0] if outcome.turns else outcome.note or "Done.")
        await self._answer(interaction, Panel(text), edit=edit)

    async def _panel_again(
        self, live: LiveTable[DiscordGame], seat: int, user_id: int
    ) -> Panel | None:
        """The mover's panel after a move that left their turn going on, built under the
        lock from the committed state; ``None`` when the table moved on meanwhile (another
        move committed: a typed one, the turn timer's), so that the mover is never shown
        another seat's panel — their hand, in a game of hidden hands."""
        async with live.lock:
            state = live.state
            if (
                not live.info.is_active
                or state is None
                or state.is_over
                or state.current_player != seat
                or live.user_at(seat) != user_id
            ):
                return None
            return await live.game.panel(self, live, seat)

    async def _answer(self, interaction: discord.Interaction, panel: Panel, *, edit: bool) -> None:
        """Answer with ``panel``: editing the message whose component was used, or anew."""
        if edit:
            extra: dict[str, Any] = {"attachments": panel.files} if panel.files else {}
            await self.edit_panel(interaction, content=panel.text, view=panel.view, **extra)
        else:
            extra = {"files": panel.files} if panel.files else {}
            if panel.view is not None:
                extra["view"] = panel.view
            await self.say(interaction, panel.text, **extra)

    async def open_panel(self, interaction: discord.Interaction, table_id: int) -> None:
        """The private button (**My turn**, **My hand**): the game's panel for the
        clicker, answered privately and freshly on every click."""
        live = self.service.table_by_id(table_id)

        async def build() -> Panel:
            seat = await self.service.seat_of(live, self.player(interaction))
            async with live.lock:
                return await live.game.panel(self, live, seat)

        # deferred when the table's lock is held long (a move waiting on a stalled database)
        panel = await self.in_time(interaction, build())
        await self._answer(interaction, panel, edit=False)

    async def hint(self, interaction: discord.Interaction) -> None:
        text = await self.service.hint(interaction.channel_id or 0, self.player(interaction))
        await self.say(interaction, f"💡 The greedy AI would play: {escape_name(text)}")

    async def score_text(self, sheet: ScoreSheet) -> str:
        """``/scores``: the sheet in its game's words, with the table's committed state
        (read under its lock) while its game runs here, e.g. Stack Up!'s hand sizes."""
        game = games.get(sheet.game)
        live = self.service.by_id.get(sheet.table_id)
        if live is None:
            return game.score_text(sheet)
        async with live.lock:
            return game.score_text(sheet, live.state)

    async def last_finished(self, channel_id: int) -> int | None:
        """The table of the channel's last finished game, of any game."""
        newest: tuple[datetime, int] | None = None
        for name in games.names():
            finished = await self.store.history(channel_id, limit=1, game=name)
            if finished and (newest is None or finished[0].finished_at > newest[0]):
                newest = (finished[0].finished_at, finished[0].table_id)
        return newest[1] if newest is not None else None

    async def export(self, interaction: discord.Interaction) -> None:
        """The record of the channel's game (a running one, unless its game hides
        information: then only once it is over), else of its last finished game."""
        live = self.service.by_channel.get(interaction.channel_id or 0)
        table_id = live.id if live else None
        if table_id is None:
            table_id = await self.last_finished(interaction.channel_id or 0)
        if table_id is None or (live is not None and live.state is None):
            raise Refused("There's no game in this channel to export yet.")
        info = live.info if live is not None else await self.store.table(table_id)
        game = games.get(info.game)
        if live is not None and game.hidden_information:
            raise Refused(
                f"A running {game.title} game's record holds the cards nobody may see yet: "
                "`/export` it once the game is over."
            )
        record = await self.in_time(interaction, self.store.export_record(table_id))
        data = json.dumps(record, indent=1).encode()
        await self.say(
            interaction,
            f"The game record (`{game.game.record_format}`); check it with "
            "`python -m engine.record check`.",
            file=discord.File(io.BytesIO(data), filename=f"{game.name}-table-{table_id}.json"),
        )

    # ------------------------------------------------------------ clocks (TurnClock)

    def turn_changed(self, live: LiveTable[DiscordGame]) -> None:
        self._arm(live)

    def table_closed(self, live: LiveTable[DiscordGame]) -> None:
        """Free what the table held in memory; its last edit comes from the outbox."""
        self.expiry.stop(live.id)
        self.messages.pop(live.id, None)

    def _arm(self, live: LiveTable[DiscordGame]) -> None:
        """Arm the table's clock (:meth:`host.expiry.Expiry.arm`); its message's record
        kept for what the clock posts."""
        if self.expiry.arm(live) is not None:
            self.message(live)

    # ------------------------------------------------------------ what a clock posts

    def ping_after(self) -> float:
        return PING_AFTER

    def pinged(self, live: LiveTable[DiscordGame], version: int) -> bool:
        return self.message(live).pinged_version == version

    def warned(self, live: LiveTable[DiscordGame], version: int, warn_at: datetime) -> bool:
        """Whether this turn's half-time warning is in the channel already: the warning
        posts the table message anew, pinging, so a message posted for this version at or
        after the half-time mark carries it (after a restart too: read from the message
        id's time)."""
        record = self.message(live)
        if record.message_id is None or record.pinged_version != version:
            return False
        return discord.utils.snowflake_time(record.message_id) >= warn_at

    async def ping(self, live: LiveTable[DiscordGame], user: int) -> None:
        await self.repost(live, ping=user)

    async def warn(self, live: LiveTable[DiscordGame], user: int, seconds_left: int) -> None:
        await self.repost(
            live, ping=user, note=f"⏳ Half your time is gone: {seconds_left} s left."
        )


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
            settle(played, state, random.Random(0), lambda event, seat: None)
            job = game.picture(state, theme="dark", turn_seconds=None)
        except Exception:  # a game that cannot show a sample: its first picture is cold
            log.exception("no warm-up picture for %s", game.name)
            continue
        if job is not None:
            jobs.append(job)
    return jobs


def _release(view: discord.ui.View | None) -> None:
    """Stop tracking a view once it is sent: its buttons are dynamic items, found by their
    custom ids, so discord.py need not keep each panel (and a 15-minute timer) alive."""
    if view is not None:
        view.stop()


def _log_failed_repost(task: asyncio.Task[None]) -> None:
    if not task.cancelled() and (error := task.exception()) is not None:
        log.warning("a re-post of a table message failed: %r", error)


def _components(components: Any) -> Any:
    """Every component of a message, nested ones (in containers, rows, sections) too."""
    for component in components:
        yield component
        yield from _components(getattr(component, "children", None) or [])
        accessory = getattr(component, "accessory", None)
        if accessory is not None:
            yield from _components([accessory])


def _current(shown: discord.Message | None, live: LiveTable[DiscordGame]) -> bool:
    """Whether ``shown``, the table's message as the channel has it, is up to date: a
    game's message (a lobby's shows who sits, which its version does not count) in the
    present layout (no text content: an older bot's message is replaced), showing the
    table's present version."""
    return (
        shown is not None
        and live.state is not None
        and not shown.content
        and _version_shown(shown, live.id) == live.version
    )


def _version_shown(message: Any, table_id: int) -> int | None:
    """The table version ``message`` shows (by its buttons' custom ids), if it is a table
    message of ``table_id`` with buttons."""
    for item in _components(message.components):
        custom_id = getattr(item, "custom_id", None) or ""
        for kind in TABLE_MESSAGE_ITEMS:
            match = kind.__discord_ui_compiled_template__.fullmatch(custom_id)
            if match is not None and int(match["table"]) == table_id:
                return int(match["version"])
    return None


def _belongs_to(message: discord.Message, table_id: int) -> bool:
    """Whether ``message`` is a table message of ``table_id`` (by its buttons)."""
    for item in _components(message.components):
        custom_id = getattr(item, "custom_id", None) or ""
        if table_of_custom_id(custom_id) == table_id:
            return True
    return False
