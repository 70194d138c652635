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
  after a game it holds the table, the round results and the result. A re-post Discord
  gave no answer to (the connection cut, or a 5xx) may be in the channel or not: the
  clock tries it again a little later, and the bot first looks for its own post there,
  keeping it if found (one table message, the player pinged once).
* Every message create and delete in a channel goes through
  :class:`~host.budget.ChannelBudget` (at most 5 per 5 s per channel, Discord's limit).
* Round ends, game ends and closings are committed with the move as outbox rows and
  delivered from there, also after a restart (then looked for among the bot's own
  messages in the channel since each row was written, so that nothing is posted twice).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Coroutine
from datetime import datetime
from typing import TYPE_CHECKING, Any, Literal

import discord
from discord.ext import commands

from bot import answers, games
from bot.channel_games import ChannelGames
from bot.front import DISCORD
from bot.games.base import DiscordGame
from bot.lobby import Lobby
from bot.moves import Moves
from bot.outbox import DiscordCourier
from bot.refusal_words import MOVED_AWAY
from bot.startup import Startup
from bot.table_message import TableMessage, TableMessages
from bot.timings import Timings
from bot.views import STOPPING
from catalog import t
from host.budget import ChannelBudget
from host.clocks import Clocks
from host.expiry import Expiry
from host.outbox import Outbox
from host.recovery import Recovery
from host.service import LiveTable, MoveOutcome, TableService
from host.tasks import Tasks
from host.thinking import Thinker
from persistence import Store
from persistence.records import ScoreSheet
from pictures.painter import Painter

if TYPE_CHECKING:
    from host.cluster import Cluster

log = logging.getLogger(__name__)
PING_AFTER = 5.0  # seconds into a human's turn before they are pinged


class Tables:
    """Every table's Discord presence, the facade the cogs and buttons call: each job is a
    collaborator's (:class:`~bot.table_message.TableMessages`, :class:`~bot.startup.Startup`,
    :class:`~bot.lobby.Lobby`, :class:`~bot.moves.Moves`, :mod:`bot.answers`); the clocks'
    side (:class:`~host.expiry.TurnClock`) is its own."""

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
        self.budget = ChannelBudget()
        self.tasks = Tasks()
        self.clocks = Clocks(self.tasks, discord.utils.utcnow)
        self.expiry = Expiry(self.service, self.clocks, self)
        self.recovery = Recovery(self.tasks)
        self.courier = DiscordCourier(self)
        self.outbox = Outbox(store, self.courier, self.tasks, self.owns_guild)
        self.accepting = True
        # tables whose channel (or server) is gone: nothing more is sent for them
        self.gone: set[int] = set()
        self.gone_channels: set[int] = set()  # channels Discord said are deleted
        # one process of several: the shards it serves (None: it serves every table)
        self.cluster: Cluster | None = None
        self.move_timings = Timings()  # answering a move, for the health report
        # each channel's last finished game, for /houserules' autocomplete (no query a key)
        self.channel_games = ChannelGames()
        # the collaborators, one job each (they reach the rest through this facade)
        self.table_messages = TableMessages(self)
        self.startup = Startup(self)
        self.lobby = Lobby(self)
        self.moves = Moves(self)

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

    def owns_guild(self, guild_id: int) -> bool:
        """Whether this process serves the server's tables (always, alone)."""
        return self.cluster is None or self.cluster.owns(guild_id)

    def use_cluster(self, cluster: Cluster) -> None:
        """This process is one of several: it serves, and keeps in memory, the tables of
        the shards ``cluster`` gives it only."""
        self.cluster = cluster
        self.service.owns = cluster.owns

    def admits(self, guild_id: int | None) -> str | None:
        """Whether an interaction from ``guild_id`` is taken here: ``None`` yes; else the
        refusal to say (the bot is stopping; the server's shard is being taken over), or
        ``""`` to say nothing (another process of the bot serves that server)."""
        if not self.accepting:
            return t(STOPPING)
        cluster = self.cluster
        if cluster is None or guild_id is None:
            return None
        shard = cluster.shard_of(guild_id)
        if cluster.serves(shard):
            return None
        if cluster.served_elsewhere(shard) is not None:
            return ""
        return t(MOVED_AWAY)

    def health(self) -> dict[str, Any]:
        """What this process serves, for its heartbeat and health report."""
        return {"tables": len(self.service.by_id), "clocks": self._clocks()}

    def _clocks(self) -> int:
        return self.clocks.armed

    # ------------------------------------------------------------ after a commit

    def committed(self, outcome: MoveOutcome) -> None:
        """What a committed change owes the channel; each step runs on its own, so one
        that fails (a refused message) never stops the others."""
        live = outcome.table
        if outcome.game_over:  # now the channel's last finished game
            self.channel_games.learnt(live.channel_id, live.info.game)
        if live.away:  # its shard went to another process, which says it all
            return
        if outcome.announced:
            self.spawn(self.outbox.deliver(live.id, live.info.guild_id), "deliver")
        self.refresh(live)

    # ------------------------------------------------------------ a channel gone

    def channel_gone(self, channel_id: int) -> None:
        """Discord says the channel is gone for good (deleted: the event, or 404 Unknown
        Channel on a call): the tables there end as abandoned, and nothing more is sent
        for them."""
        self.gone_channels.add(channel_id)
        for live in list(self.service.by_id.values()):
            record = self.messages.get(live.id)
            if live.index.channel_id == channel_id or (
                record is not None and record.channel_id == channel_id
            ):
                self._place_gone(live, "channel", channel_id)

    def server_gone(self, guild_id: int) -> None:
        """The bot was removed from the server (kicked, or the server deleted): its tables
        end as abandoned."""
        for live in list(self.service.by_id.values()):
            if live.index.guild_id == guild_id:
                self._place_gone(live, "server", guild_id)

    def is_gone(self, table_id: int) -> bool:
        return table_id in self.gone

    def is_channel_gone(self, channel_id: int) -> bool:
        return channel_id in self.gone_channels

    def _place_gone(
        self, live: LiveTable[DiscordGame], place: Literal["channel", "server"], place_id: int
    ) -> None:
        """End a table whose place is gone (once: its clock stopped at once, its ending
        a step of its own)."""
        if live.id in self.gone or live.away or not live.is_active:
            return
        self.gone.add(live.id)
        self.expiry.stop(live.id)
        self.spawn(self._end_gone(live, place, place_id), "place-gone")

    async def _end_gone(
        self, live: LiveTable[DiscordGame], place: Literal["channel", "server"], place_id: int
    ) -> None:
        try:
            outcome = await self.service.place_gone(live.id)
        except Exception as err:  # not ended yet: the next sign of it ends it
            self.gone.discard(live.id)
            log.warning(
                "table %s: its %s %s is gone, but the table could not be ended yet (%s)",
                live.id,
                place,
                place_id,
                err,
            )
            self.arm_clock(live)
            return
        if outcome is None:
            return
        if place == "channel":
            log.info("table %s ends as abandoned: its channel %s is gone", live.id, place_id)
        else:
            log.info(
                "table %s ends as abandoned: the bot is no longer in its server %s",
                live.id,
                place_id,
            )
        self.committed(outcome)
        # what it still owed the channel is dropped (nothing asked of Discord)
        await self.outbox.deliver(live.id, live.info.guild_id)

    async def deadline(self, live: LiveTable[DiscordGame]) -> datetime | None:
        """When the current human's turn runs out (:meth:`host.expiry.Expiry.deadline`);
        call it under the table's lock."""
        return await self.expiry.deadline(live)

    # ------------------------------------------------------------ the table messages

    @property
    def messages(self) -> dict[int, TableMessage]:
        return self.table_messages.messages

    @property
    def draw_pictures(self) -> bool:
        return self.table_messages.draw_pictures

    @draw_pictures.setter
    def draw_pictures(self, value: bool) -> None:
        self.table_messages.draw_pictures = value

    def message(self, live: LiveTable[DiscordGame]) -> TableMessage:
        return self.table_messages.message(live)

    def channel(self, channel_id: int) -> Any:
        return self.table_messages.channel(channel_id)

    def refresh(self, live: LiveTable[DiscordGame]) -> None:
        self.table_messages.refresh(live)

    async def repost(
        self, live: LiveTable[DiscordGame], *, ping: int | None, note: str | None = None
    ) -> None:
        await self.table_messages.repost(live, ping=ping, note=note)

    def message_seen(self, channel_id: int) -> None:
        self.table_messages.message_seen(channel_id)

    async def final_edit(self, table_id: int) -> None:
        await self.table_messages.final_edit(table_id)

    # ------------------------------------------------------------ start-up

    async def resume(self) -> None:
        await self.startup.resume()

    async def adopt(self, shard_count: int | None, shards: frozenset[int] | None) -> None:
        await self.startup.adopt(shard_count, shards)

    async def release(self, shard_count: int, shards: frozenset[int]) -> None:
        await self.startup.release(shard_count, shards)

    async def drop(self, shard_count: int, shards: frozenset[int]) -> None:
        await self.startup.drop(shard_count, shards)

    async def recovered(self) -> None:
        await self.startup.recovered()

    # ------------------------------------------------------------ answers

    player = staticmethod(answers.player)
    say = staticmethod(answers.say)
    in_time = staticmethod(answers.in_time)
    edit_panel = staticmethod(answers.edit_panel)
    is_manager = staticmethod(answers.is_manager)

    # ------------------------------------------------------------ lobby

    async def new(
        self, interaction: discord.Interaction, options: dict[str, Any], game: str = games.DEFAULT
    ) -> None:
        await self.lobby.new(interaction, options, game)

    async def lobby_button(
        self, interaction: discord.Interaction, action: str, table_id: int, level: str = "greedy"
    ) -> None:
        await self.lobby.lobby_button(interaction, action, table_id, level)

    async def join(self, interaction: discord.Interaction) -> None:
        await self.lobby.join(interaction)

    async def leave(self, interaction: discord.Interaction) -> None:
        await self.lobby.leave(interaction)

    async def add_ai(self, interaction: discord.Interaction, level: str = "greedy") -> None:
        await self.lobby.add_ai(interaction, level)

    async def kick(self, interaction: discord.Interaction, target_id: int) -> None:
        await self.lobby.kick(interaction, target_id)

    async def start(self, interaction: discord.Interaction) -> None:
        await self.lobby.start(interaction)

    async def end(self, interaction: discord.Interaction) -> None:
        await self.lobby.end(interaction)

    async def end_confirmed(self, interaction: discord.Interaction, table_id: int) -> None:
        await self.lobby.end_confirmed(interaction, table_id)

    async def show(self, interaction: discord.Interaction) -> None:
        await self.lobby.show(interaction)

    # ------------------------------------------------------------ moves

    async def play_move(self, interaction: discord.Interaction, **kwargs: Any) -> None:
        await self.moves.play_move(interaction, **kwargs)

    async def play(self, interaction: discord.Interaction, text: str) -> None:
        await self.moves.play(interaction, text)

    async def tapped(
        self, interaction: discord.Interaction, table_id: int, version: int, code: str
    ) -> None:
        await self.moves.tapped(interaction, table_id, version, code)

    async def open_panel(self, interaction: discord.Interaction, table_id: int) -> None:
        await self.moves.open_panel(interaction, table_id)

    async def hint(self, interaction: discord.Interaction) -> None:
        await self.moves.hint(interaction)

    async def score_text(self, sheet: ScoreSheet) -> str:
        return await self.moves.score_text(sheet)

    async def last_finished(self, channel_id: int) -> int | None:
        return await self.moves.last_finished(channel_id)

    async def export(self, interaction: discord.Interaction) -> None:
        await self.moves.export(interaction)

    # ------------------------------------------------------------ clocks (TurnClock)

    def turn_changed(self, live: LiveTable[DiscordGame]) -> None:
        self.arm_clock(live)

    def table_closed(self, live: LiveTable[DiscordGame]) -> None:
        """Free what the table held in memory; its last edit comes from the outbox."""
        self.expiry.stop(live.id)
        self.table_messages.closed(live)

    def arm_clock(self, live: LiveTable[DiscordGame]) -> None:
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
        if record.warning is not None and record.warning[0] == version:
            return record.warning[1]  # a ping posted late, past the mark, is no warning
        if record.message_id is None or record.pinged_version != version:
            return False
        return discord.utils.snowflake_time(record.message_id) >= warn_at

    async def ping(self, live: LiveTable[DiscordGame], user: int) -> None:
        # the turn not pinged yet: its warning (a ping with a note) is not out either
        self.message(live).warning = (live.version, False)
        await self.repost(live, ping=user)

    async def warn(self, live: LiveTable[DiscordGame], user: int, seconds_left: int) -> None:
        with DISCORD.speaking(live.info):  # public: in the server's language
            note = t("discord.table.half_time", seconds=seconds_left)
        version = live.version
        await self.repost(live, ping=user, note=note)  # (NoAnswer: may be out, looked for)
        self.message(live).warning = (version, True)
