"""The bot: thin cogs loaded in ``setup_hook`` (the host's, then each hosted game's own),
persistent buttons registered at start-up (the host's, the story's and each game's), and
the one place where a slash command's refusal or failure is answered
(:meth:`StackBot.on_tree_error`). Every interaction runs in its user's language, and each
server's language is kept (:mod:`bot.language`); the slash commands' descriptions are
translated as they are synced (:mod:`bot.translator`).

:class:`StackBot` is one process serving every table. :class:`ShardedStackBot` is one
process of several (``stackbot run --shards 0-3 --shard-count 8``): discord.py's
:class:`~discord.AutoShardedClient`, connected to the shards it holds in the cluster
(:mod:`host.cluster`, :mod:`bot.sharding`), and serving their guilds' tables only."""

from __future__ import annotations

import asyncio
import contextlib
import gc
import logging
import signal
from typing import Any

import discord
from discord import app_commands
from discord.app_commands import AppCommand
from discord.ext import commands

import catalog
from bot import games, stop_signal
from bot.config import Settings
from bot.front import DISCORD
from bot.health import Health
from bot.language import ServerLanguages, speak_to_each_user
from bot.metrics import handled, received
from bot.sharding import BotShards
from bot.startup import OUTBOX_KEPT
from bot.story import STORY_ITEMS
from bot.tables import Tables
from bot.translator import CommandTranslator
from bot.views import DYNAMIC_ITEMS, ItemRouter, UnreadableOptions, admitted, answer_error
from host.cluster import Cluster, ClusterConfig, Sleep, node_id, shard_ranges
from persistence import DatabaseRefused, Store
from persistence.config import database_url
from persistence.database import (
    check_writable,
    database_problem,
    make_engine,
    migration_options,
)
from persistence.errors import DatabaseUnavailable
from persistence.migrate import upgrade_database
from pictures.painter import Mode, Painter

log = logging.getLogger(__name__)
COGS = ("bot.cogs.table", "bot.cogs.play", "bot.cogs.info")


STOP_HANDOVER = 8.0  # seconds a stopping process of several spends handing its shards over


class StackTree(app_commands.CommandTree["StackBot"]):
    """Refuses commands while the bot is stopping (or, one process of several, while the
    server's shard is not served here: :func:`bot.views.admitted`)."""

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        if self.client._tables is None:
            return True
        return await admitted(interaction)

    async def sync(self, *, guild: discord.abc.Snowflake | None = None) -> list[AppCommand]:
        """discord.py's sync, each command sent as Discord documents it today: where it may
        be used in ``contexts`` only, without the deprecated ``dm_permission`` (discord.py
        still sends it beside ``contexts``)."""
        if self.client.application_id is None:
            raise app_commands.MissingApplicationID
        commands = self._get_all_commands(guild=guild)
        translator = self.translator
        payload = [
            without_dm_permission(
                await command.get_translated_payload(self, translator)
                if translator is not None
                else command.to_dict(self)
            )
            for command in commands
        ]
        http = self.client.http
        try:
            if guild is None:
                data = await http.bulk_upsert_global_commands(
                    self.client.application_id, payload=payload
                )
            else:
                data = await http.bulk_upsert_guild_commands(
                    self.client.application_id, guild.id, payload=payload
                )
        except discord.HTTPException as err:
            if err.status == 400 and err.code == 50035:
                raise app_commands.CommandSyncFailure(err, commands) from None
            raise
        return [AppCommand(data=d, state=self.client._connection) for d in data]

    async def _call(self, interaction: discord.Interaction[StackBot]) -> None:
        """discord.py reads a command's options before it calls the command: one it cannot
        read (a modified client's: "abc" for a user) goes to :meth:`on_error` as
        :class:`~bot.views.UnreadableOptions`, answered as a refusal, not left unanswered."""
        try:
            await super()._call(interaction)
        except app_commands.AppCommandError:
            raise
        except (ValueError, TypeError, KeyError, AttributeError) as err:
            raise UnreadableOptions(str(err)) from err
        handled(interaction.extras, "command", "ok")  # a failure: counted as it is answered


GC_YOUNG = 10_000  # allocations between two collections of the youngest generation


def settle_garbage_collector() -> None:
    """Once start-up is over: what it left (the modules, the tables loaded, discord.py's
    caches) is collected once and frozen, so that no later collection scans it again,
    and the youngest generation is collected every :data:`GC_YOUNG` allocations instead
    of 700. A move makes short-lived cycles by the thousand (discord.py's and aiohttp's
    objects, futures); with the defaults the collector took a tenth of the bot's CPU
    under load (``python -m bot.loadtest``), most of it scanning the same survivors."""
    gc.collect()
    gc.freeze()
    _, middle, old = gc.get_threshold()
    gc.set_threshold(GC_YOUNG, middle, old)


def without_dm_permission(payload: dict[str, Any]) -> dict[str, Any]:
    """A command's payload without ``dm_permission``: ``contexts`` says where it runs."""
    return {k: v for k, v in payload.items() if k != "dm_permission"}


class StackBot(commands.Bot):
    """Opens the database (migrating it), loads every active table, resumes timers and
    buttons, then serves the slash commands."""

    def __init__(
        self,
        settings: Settings,
        *,
        seed: int | None = None,
        sync_only: bool = False,
        handle_signals: bool = True,
        pictures: Mode = "process",
        cluster: ClusterConfig | None = None,
        cluster_sleep: Sleep = asyncio.sleep,
        database_options: dict[str, Any] | None = None,
        **client_options: Any,
    ) -> None:
        intents = discord.Intents.default()
        super().__init__(
            command_prefix=commands.when_mentioned,
            intents=intents,
            help_command=None,
            tree_cls=StackTree,
            # nobody is pinged unless a message names exactly whom it may ping
            allowed_mentions=discord.AllowedMentions.none(),
            **client_options,
        )
        self.settings = settings
        self.seed = seed
        self.sync_only = sync_only  # `stackbot sync`: commands only, no database
        self.handle_signals = handle_signals  # SIGTERM/SIGINT stop the bot cleanly
        self.pictures: Mode = pictures  # where table pictures are drawn
        self.store: Store | None = None
        self._tables: Tables | None = None
        # the stop (shutdown steps, then discord.py's close), run once whoever asks: a
        # signal, discord.py itself, or the caller. Not ``_closing_task``: that is
        # discord.py's own (``Client.close`` awaits it), and ``is_closed()`` reads it.
        self._stopping: asyncio.Task[None] | None = None
        self._catalog_read: asyncio.Future[None] | None = None
        self.cluster_config = cluster
        self.cluster_sleep = cluster_sleep  # how the cluster's loops wait (a test's clock)
        # one process of several: its node id, also its database sessions' name
        self.node = node_id(cluster.name) if cluster is not None else None
        self.database_options = database_options or {}  # engine options (a test's schema)
        self.cluster: Cluster | None = None  # one process of several: its part
        self.shards_host: BotShards | None = None
        self.health = Health(self, settings.health_port, settings.health_host)
        self.serving = False  # the tables are loaded (start-up is over)
        # a stop signal received before (the bot stops once start-up is at a step it can
        # stop at: before the database, before logging in, once the tables are loaded)
        self._stop_asked: signal.Signals | None = None
        self._signals_on = False  # SIGTERM and SIGINT are the bot's (_stop_on_signals)
        # start()'s task while it starts the bot (a second stop signal cancels it), and
        # whether one did
        self._starting: asyncio.Task[Any] | None = None
        self._cut_short = False
        # each server's language, and each interaction run in its user's (bot.language)
        self.languages = ServerLanguages(DISCORD)
        speak_to_each_user(self._connection, self.languages)
        self.item_router = ItemRouter()  # the clicks on the bot's own buttons and selects

    async def _join_cluster(self, config: ClusterConfig) -> None:
        """Take part in the cluster: its home shards adopted (their tables loaded) before
        the gateway connects to them; the others as they are assigned here."""
        assert self.store is not None and self._tables is not None
        await self.store.purge_delivered(discord.utils.utcnow() - OUTBOX_KEPT)
        self.cluster = Cluster(self.store, config, node=self.node, sleep=self.cluster_sleep)
        self._tables.use_cluster(self.cluster)
        self.shards_host = BotShards(self, self._tables, self.cluster)  # type: ignore[arg-type]
        await self.cluster.start(self.shards_host)
        log.info(
            "serving shards %s of %d as %s",
            shard_ranges(self.cluster.ready),
            config.shard_count,
            self.cluster.node,
        )

    @property
    def tables(self) -> Tables:
        assert self._tables is not None, "the bot has not started"
        return self._tables

    async def _load_commands(self) -> None:
        """The host's cogs, then each hosted game's own commands."""
        for name in COGS:
            await self.load_extension(name)
        for game in games.all_games():
            cog = game.cog(self)
            if cog is not None:
                await self.add_cog(cog)

    async def start(self, token: str, *, reconnect: bool = True) -> None:
        """Open the database before logging in to Discord: a database that cannot be used
        stops the start with :class:`~persistence.errors.DatabaseUnavailable` (naming the
        problem) before anything is asked of Discord.

        SIGTERM or SIGINT at any moment of it (or one since the command started:
        :mod:`bot.stop_signal`) stops the bot at the next step it can stop at: before the
        database, before logging in, before loading the tables, once they are loaded;
        never connected, it returns, and ``bot.run()`` closes it (the shutdown steps of
        what was started). A second signal before that cuts the step under way short
        (one that hangs: a migration waiting on a lock, a database that does not answer):
        it returns at once, and is closed the same way."""
        self._starting = starting = asyncio.current_task()
        assert starting is not None
        try:
            if self.handle_signals:
                self._stop_on_signals()
            if not self.sync_only and self._stop_asked is None:
                await self.open_database()
            if self._stop_asked is None:
                await self.login(token)  # discord.py's start(): setup_hook, then connect
        except asyncio.CancelledError:
            if not self._cut_short:
                raise
            starting.uncancel()  # (the cancel was ours: the stop goes on as asked)
            log.info("stopping: start-up was cut short")
            return
        finally:
            self._starting = None
        if self._stop_asked is not None:  # (the shutdown is run by bot.run's close)
            log.info("stopping: start-up ends before connecting to Discord")
            return
        await self.connect(reconnect=reconnect)

    async def open_database(self) -> None:
        """Connect, migrate, and check that the database takes writes (once)."""
        if self.store is not None:
            return
        url = self.settings.database_url
        store = None
        try:
            if database_url(url).startswith("postgresql"):  # migrated without a time limit
                await upgrade_database_at(url, migration_options(self.database_options))
            store = await Store.open(url, application_name=self.node, **self.database_options)
            await check_writable(store.engine)
            if not self.sync_only:
                sharded = self.cluster_config is not None
                if not sharded:
                    await store.refuse_if_sharded()  # one process serves all: no cluster there
                await store.hold_serving(sharded=sharded)  # nor a process without shards
        except BaseException as err:  # (a start-up cut short too: CancelledError)
            if store is not None:
                with contextlib.suppress(Exception):
                    await store.close()
            if not isinstance(err, Exception):
                raise
            problem = None if isinstance(err, DatabaseRefused) else database_problem(err, url)
            if problem is None:
                raise
            raise DatabaseUnavailable(problem) from err
        self.store = store

    async def setup_hook(self) -> None:
        await self.tree.set_translator(CommandTranslator())  # before any sync
        if self.sync_only:
            await self._load_commands()
            return
        if self.handle_signals:  # (done by start() too; not by a test's login)
            self._stop_on_signals()
        if self._stop_asked is not None:  # asked while logging in: no table is loaded
            log.info("stopping: start-up ends before loading the tables")
            return
        await self.open_database()  # done already by start(); not by a test's login
        # the words of every language are read off the loop while the tables load, so the
        # first interaction that speaks does not pay for reading the catalog's files
        self._catalog_read = asyncio.ensure_future(asyncio.to_thread(catalog.warm))
        assert self.store is not None
        self.languages.load(await self.store.guild_languages())  # before any table speaks
        self._tables = Tables(self, self.store, seed=self.seed, painter=Painter(self.pictures))
        # the bot's own buttons and selects, routed by their custom ids (bot.views.ItemRouter)
        self.item_router.add(*DYNAMIC_ITEMS, *STORY_ITEMS)
        for game in games.all_games():
            self.item_router.add(*game.dynamic_items)
        await self._load_commands()
        self.tree.error(self.on_tree_error)
        await self.health.start()  # says "starting" (503) until the tables are loaded
        if self.cluster_config is None:
            await self._tables.resume()
        else:
            await self._join_cluster(self.cluster_config)
        self.serving = True
        if self._stop_asked is not None:  # asked while the tables were loaded: stop now
            self._start_stopping()
            return
        if self.handle_signals:  # the process is the bot's own (tests run many in one)
            settle_garbage_collector()
        # one process syncs: the one alone, or the one serving shard 0 as it starts
        if self.settings.dev_guild_id and (self.cluster is None or self.cluster.serves(0)):
            guild = discord.Object(self.settings.dev_guild_id)
            self.tree.copy_global_to(guild=guild)
            await self.tree.sync(guild=guild)
            log.info("commands synced to the dev guild %s", self.settings.dev_guild_id)

    async def on_app_command_completion(
        self, interaction: discord.Interaction, command: app_commands.Command[Any, Any, Any]
    ) -> None:
        live = self.tables.service.by_channel.get(interaction.channel_id or 0)
        log.info(
            "guild=%s channel=%s table=%s user=%s /%s",
            interaction.guild_id,
            interaction.channel_id,
            live.id if live else "-",
            interaction.user.id,
            command.qualified_name,
        )

    async def on_tree_error(
        self, interaction: discord.Interaction, error: app_commands.AppCommandError
    ) -> None:
        """The one answer to a command that did not go through: a refusal is said as it is
        (nothing changed); anything unexpected is logged with where it happened and the
        user gets a short note (never "nothing was changed": the error may come after a
        move was committed)."""
        original = getattr(error, "original", error)
        if isinstance(error, app_commands.CheckFailure):
            with contextlib.suppress(discord.HTTPException):
                text = catalog.t("setup.refusal.not_here")
                if interaction.response.is_done():
                    await interaction.followup.send(text, ephemeral=True)
                else:
                    await interaction.response.send_message(text, ephemeral=True)
            handled(interaction.extras, "command", "refused")
            return
        name = interaction.command.qualified_name if interaction.command else "?"
        outcome = await answer_error(interaction, original, f"command /{name}")
        handled(interaction.extras, "command", outcome)

    async def on_guild_available(self, guild: discord.Guild) -> None:
        self.languages.seen_guild(guild)  # a server held, as the gateway shows it

    async def on_guild_join(self, guild: discord.Guild) -> None:
        self.languages.seen_guild(guild)

    async def on_guild_update(self, before: discord.Guild, after: discord.Guild) -> None:
        self.languages.seen_guild(after)  # its preferred locale may have changed

    async def on_guild_remove(self, guild: discord.Guild) -> None:
        self.languages.forget(guild.id)
        if self._tables is not None:  # kicked, or the server deleted: its tables end
            self._tables.server_gone(guild.id)

    async def on_guild_channel_delete(self, channel: discord.abc.GuildChannel) -> None:
        if self._tables is not None:  # its table ends (there is nowhere to play it)
            self._tables.channel_gone(channel.id)

    async def on_raw_thread_delete(self, payload: discord.RawThreadDeleteEvent) -> None:
        if self._tables is not None:  # a thread cached or not
            self._tables.channel_gone(payload.thread_id)

    def dispatch(self, event_name: str, /, *args: Any, **kwargs: Any) -> None:
        if event_name == "interaction":  # as it is read: timed from here (bot.metrics)
            received(args[0].extras)
            self.item_router.route(args[0])  # a click on one of the bot's own items
        super().dispatch(event_name, *args, **kwargs)

    async def on_message(self, message: discord.Message) -> None:
        if self._tables is not None and message.channel.id in self._tables.service.by_channel:
            self._tables.message_seen(message.channel.id)

    def _stop_on_signals(self) -> None:
        """SIGTERM (``docker stop``) and SIGINT stop the bot cleanly: no new interaction
        is taken, the moves already acknowledged are flushed, the database is closed."""
        if self._signals_on:
            return
        self._signals_on = True
        loop = asyncio.get_running_loop()
        with contextlib.suppress(NotImplementedError, RuntimeError, ValueError):
            loop.add_signal_handler(signal.SIGINT, self._signalled, signal.SIGINT)
            # SIGTERM: one received since the command started (bot.stop_signal) too
            stop_signal.stop_on(loop, self._signalled)

    def _signalled(self, sig: signal.Signals) -> None:
        starting = self._starting
        if starting is not None and self._stop_asked is not None and not self._cut_short:
            # a second one while start-up goes on: the step under way is cut short
            log.info("%s received again: stopping at once", sig.name)
            self._cut_short = True
            starting.cancel()  # (start() returns; the shutdown follows)
            return
        if self._stopping is not None or self._stop_asked is not None:
            log.info("%s received: already stopping", sig.name)
            return
        log.info("%s received: stopping", sig.name)
        self._stop_asked = sig
        if self.serving:  # else start-up stops at its next step (start, setup_hook)
            self._start_stopping()

    def _start_stopping(self) -> asyncio.Task[None]:
        if self._stopping is None:
            self._stopping = asyncio.get_running_loop().create_task(self._stop(), name="stop")
        return self._stopping

    async def close(self) -> None:
        """Stop taking interactions, hand the shards over (one process of several), let the
        steps under way finish, flush the move writer and close the database; then
        disconnect (discord.py's own close, which ends ``bot.run()``). It all runs once,
        however many ask (a signal, discord.py itself, ``async with``), in a task of its
        own: a caller cancelled while it waits does not cut the steps short."""
        await asyncio.shield(self._start_stopping())

    async def _stop(self) -> None:
        try:
            await self._shut_down()
        finally:
            await super().close()
            if self._tables is not None:
                log.info("stopped: disconnected from Discord")

    async def _shut_down(self) -> None:
        """The bot's own shutdown steps, before discord.py closes the connection."""
        if self._tables is None and self.store is None:
            return  # never started (``stackbot sync``, or start-up failed early)
        if self._tables is not None:
            self._tables.accepting = False
        log.info("stopping: no new interactions are taken")
        if self.cluster is not None:  # shards handed over at once, not after a time-out
            try:
                await asyncio.wait_for(self.cluster.stop(), STOP_HANDOVER)
            except Exception:  # the others take the rest over once the heartbeat stops
                log.exception("cluster: the hand-over did not end in %.0f s", STOP_HANDOVER)
                with contextlib.suppress(Exception):
                    await self.cluster.halt()  # no heartbeat any more; Redis closed
            else:
                log.info("stopping: the shards are handed over")
        try:
            if self._tables is not None:
                await self._tables.drain()
            log.info("stopping: the steps under way are finished")
        finally:
            await self.health.stop()
            if self.store is not None:
                await self.store.close()
                self.store = None
                log.info("stopping: the database is closed")


async def upgrade_database_at(url: str | None, options: dict[str, Any]) -> None:
    """Migrate the database at ``url`` on an engine of its own (``options``)."""
    engine = make_engine(url, **options)
    try:
        await upgrade_database(engine)
    finally:
        await engine.dispose()


class ShardedStackBot(StackBot, commands.AutoShardedBot):
    """One process of several: an :class:`~discord.AutoShardedClient` with
    ``shard_count`` shards, connected to those its cluster gives it (``shard_ids`` are
    the shards the client is built with: its home shards by default)."""

    def __init__(
        self,
        settings: Settings,
        *,
        cluster: ClusterConfig,
        shard_ids: list[int] | None = None,
        **kwargs: Any,
    ) -> None:
        super().__init__(
            settings,
            cluster=cluster,
            shard_count=cluster.shard_count,
            shard_ids=sorted(cluster.home) if shard_ids is None else shard_ids,
            **kwargs,
        )

    async def launch_shard(self, gateway: Any, shard_id: int, *, initial: bool = False) -> None:
        """discord.py's, which tries a failed connection again every 5 s through this
        method, forever, even once the client is closed (a process stopped while its
        shards were still connecting never exited): none is tried once closed."""
        if self.is_closed():
            return
        await super().launch_shard(gateway, shard_id, initial=initial)

    async def launch_shards(self) -> None:
        """Connect the shards held when the client starts (the others as they are
        adopted: :class:`~bot.sharding.BotShards`)."""
        if self.is_closed():
            return
        assert self.shards_host is not None
        await self.shards_host.launch()

    async def on_shard_connect(self, shard_id: int) -> None:
        if self.shards_host is not None:
            await self.shards_host.keep_only_held(shard_id)

    async def on_shard_resumed(self, shard_id: int) -> None:
        if self.shards_host is not None:
            await self.shards_host.keep_only_held(shard_id)
