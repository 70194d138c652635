"""The Discord side of every table: answering interactions, the live table message
(edits coalesced, re-posted when needed), round and game messages, and turn timers.

Rules are not decided here: every request goes to :class:`~bot.service.TableService`.
"""

from __future__ import annotations

import asyncio
import contextlib
import io
import json
import logging
from dataclasses import dataclass, field
from datetime import datetime, timedelta
from typing import Any

import discord
from discord.ext import commands

from bot.image import FieldPicture, draw_field
from bot.render import game_end_text, lobby_text, round_end_text, table_text
from bot.service import LiveTable, MoveOutcome, Player, Refusal, TableService
from bot.views import end_view, lobby_view, move_from_code, moves_view, table_view
from engine.game import Decision
from engine.stack.rules import HouseRules
from persistence import Store

log = logging.getLogger(__name__)
REPOST_AFTER_MESSAGES = 25
REPOST_AFTER = timedelta(minutes=50)  # Discord refuses edits of old messages after an hour
PLACE_FALLBACK_SECONDS = 60
DEFER_AFTER = 2.5  # Discord wants an answer within 3 s; slower work is deferred first


@dataclass(slots=True)
class Board:
    """The table message of one table and its pending edit."""

    channel_id: int
    message_id: int | None = None
    posted_at: datetime | None = None
    messages_since: int = 0
    editing: bool = False
    dirty: bool = False
    timers: list[asyncio.TimerHandle] = field(default_factory=list)
    ping_id: int | None = None


class Tables:
    """Every table's Discord presence; the cogs and buttons call its methods."""

    def __init__(self, bot: commands.Bot, store: Store, *, seed: int | None = None) -> None:
        self.bot = bot
        self.store = store
        self.service = TableService(store, seed=seed, clock=self)
        self.boards: dict[int, Board] = {}
        self.draw_pictures = True
        self._tasks: set[asyncio.Task[Any]] = set()

    def _spawn(self, coro: Any) -> None:
        """Run ``coro`` in the background, keeping a reference until it is done."""
        task = asyncio.get_running_loop().create_task(coro)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    # ------------------------------------------------------------ start-up

    async def resume(self) -> None:
        """Load every active table, re-attach its message and resume its timer."""
        for live in await self.service.load():
            self.boards[live.id] = Board(
                live.info.message_channel_id or live.channel_id, live.info.message_id
            )
            if live.state is not None and not live.state.is_over:
                self._schedule(live, live.info.deadline, ping=False)
        log.info("resumed %d active tables", len(self.service.by_id))

    # ------------------------------------------------------------ helpers

    @staticmethod
    def player(interaction: discord.Interaction) -> Player:
        user = interaction.user
        return Player(user.id, getattr(user, "display_name", None) or user.name)

    @staticmethod
    async def say(interaction: discord.Interaction, text: str, **kwargs: Any) -> None:
        """Answer ephemerally (as a follow-up if the interaction was already answered)."""
        kwargs.setdefault("ephemeral", True)
        if interaction.response.is_done():
            await interaction.followup.send(text, **kwargs)
        else:
            await interaction.response.send_message(text, **kwargs)

    async def in_time(
        self, interaction: discord.Interaction, work: Any, *, update: bool = False
    ) -> Any:
        """Await ``work``; if it takes longer than Discord allows for an answer, defer the
        interaction first (the answer then comes as a follow-up or an edit)."""
        task = asyncio.ensure_future(work)
        done, _ = await asyncio.wait({task}, timeout=DEFER_AFTER)
        if not done and not interaction.response.is_done():
            if update:
                await interaction.response.defer()
            else:
                await interaction.response.defer(ephemeral=True, thinking=True)
        return await task

    @staticmethod
    async def edit_panel(interaction: discord.Interaction, **kwargs: Any) -> None:
        """Edit the message whose component was used (after a deferral too)."""
        if interaction.response.is_done():
            await interaction.edit_original_response(**kwargs)
        else:
            await interaction.response.edit_message(**kwargs)

    @staticmethod
    def is_manager(interaction: discord.Interaction) -> bool:
        return bool(interaction.permissions.manage_guild)

    def _log(self, interaction: discord.Interaction, what: str, live: LiveTable | None) -> None:
        log.info(
            "guild=%s channel=%s table=%s user=%s %s",
            interaction.guild_id,
            interaction.channel_id,
            live.id if live else "-",
            interaction.user.id,
            what,
        )

    def board(self, live: LiveTable) -> Board:
        board = self.boards.get(live.id)
        if board is None:
            board = self.boards[live.id] = Board(live.channel_id, live.info.message_id)
        return board

    def _channel(self, channel_id: int) -> Any:
        return self.bot.get_channel(channel_id) or self.bot.get_partial_messageable(channel_id)

    async def _rules_of(self, live: LiveTable) -> HouseRules:
        settings = await self.store.guild_settings(live.info.guild_id, live.channel_id)
        return HouseRules.model_validate({**settings.effective.model_dump(), **live.info.options})

    async def _payload(self, live: LiveTable) -> dict[str, Any]:
        if live.state is None and not live.info.is_active:
            return {
                "content": "This Stack table is closed. `/table new` opens another.",
                "view": None,
            }
        if live.state is None:
            rules = await self._rules_of(live)
            return {"content": lobby_text(live, rules), "view": lobby_view(live.id, live.version)}
        content = table_text(live)
        over = live.state.is_over or not live.info.is_active
        view = discord.ui.View() if over else table_view(live.id, live.version)
        return {"content": content, "view": view}

    async def _picture(self, live: LiveTable, channel: Any) -> discord.File | None:
        if not self.draw_pictures or live.state is None:
            return None
        me = getattr(getattr(channel, "guild", None), "me", None)
        if me is None or not channel.permissions_for(me).attach_files:
            return None
        picture = FieldPicture.of(live.state)
        png = await asyncio.get_running_loop().run_in_executor(None, draw_field, picture)
        return discord.File(io.BytesIO(png), filename="table.png")

    # ------------------------------------------------------------ the table message

    def refresh(self, live: LiveTable) -> None:
        """Bring the table message up to date. Edits are coalesced: while one is under way
        further changes mark it dirty, and one more edit then carries all of them."""
        board = self.board(live)
        if board.editing:
            board.dirty = True
            return
        board.editing = True
        self._spawn(self._edit_loop(live, board))

    async def _edit_loop(self, live: LiveTable, board: Board) -> None:
        try:
            while True:
                board.dirty = False
                await self._edit(live, board)
                if not board.dirty:
                    return
        finally:
            board.editing = False

    async def _edit(self, live: LiveTable, board: Board) -> None:
        channel = self._channel(board.channel_id)
        payload = await self._payload(live)
        picture = await self._picture(live, channel)
        now = discord.utils.utcnow()
        stale = board.posted_at is not None and now - board.posted_at > REPOST_AFTER
        if (
            board.message_id is not None
            and not stale
            and board.messages_since < REPOST_AFTER_MESSAGES
        ):
            try:
                await channel.get_partial_message(board.message_id).edit(
                    attachments=[picture] if picture else [], **payload
                )
                return
            except discord.HTTPException as err:
                log.info("table %s: editing its message failed (%s); posting anew", live.id, err)
        await self._post(live, board, payload, picture)

    async def _post(
        self, live: LiveTable, board: Board, payload: dict[str, Any], picture: discord.File | None
    ) -> None:
        channel = self._channel(board.channel_id)
        old = board.message_id
        kwargs = dict(payload)
        if picture is not None:
            kwargs["file"] = picture
        message = await channel.send(**kwargs)
        board.message_id = message.id
        board.posted_at = discord.utils.utcnow()
        board.messages_since = 0
        if live.info.is_active:
            await self.store.set_message(live.id, board.channel_id, message.id)
        if old is not None:
            with contextlib.suppress(discord.HTTPException):
                await channel.get_partial_message(old).delete()

    def message_seen(self, channel_id: int) -> None:
        """Another message in a channel with a table: the table message scrolls up."""
        live = self.service.by_channel.get(channel_id)
        if live is not None:
            self.board(live).messages_since += 1

    # ------------------------------------------------------------ lobby

    async def new(self, interaction: discord.Interaction, options: dict[str, Any]) -> None:
        if interaction.guild_id is None or interaction.channel_id is None:
            await self.say(interaction, "Stack tables live in server channels, not in DMs.")
            return
        try:
            live = await self.service.new_table(
                interaction.guild_id, interaction.channel_id, self.player(interaction), options
            )
        except Refusal as refusal:
            await self.say(interaction, str(refusal))
            return
        self._log(interaction, "opened a table", live)
        payload = await self._payload(live)
        await interaction.response.send_message(**payload)
        message = await interaction.original_response()
        board = self.board(live)
        board.message_id, board.posted_at = message.id, discord.utils.utcnow()
        await self.store.set_message(live.id, interaction.channel_id, message.id)

    async def lobby_button(
        self, interaction: discord.Interaction, action: str, table_id: int
    ) -> None:
        live = self.service.by_id.get(table_id)
        if live is None or live.channel_id != interaction.channel_id:
            await self.say(interaction, "This table has ended. Start a new one with `/table new`.")
            return
        handlers = {"join": self.join, "leave": self.leave, "ai": self.add_ai, "start": self.start}
        await handlers[action](interaction)

    async def _lobby_change(self, interaction: discord.Interaction, action: Any, done: str) -> None:
        try:
            result = await action
        except Refusal as refusal:
            await self.say(interaction, str(refusal))
            return
        live, note = result if isinstance(result, tuple) else (result, done)
        self._log(interaction, note, live)
        await self.say(interaction, note)
        if not live.info.is_active:
            self._cancel_timers(live)
            await self._channel(live.channel_id).send(f"The Stack table is closed: {note}")
        self.refresh(live)

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
        try:
            outcome = await self.in_time(
                interaction,
                self.service.start(interaction.channel_id or 0, self.player(interaction)),
            )
        except Refusal as refusal:
            await self.say(interaction, str(refusal))
            return
        live = outcome.table
        self._log(interaction, "started the game", live)
        state = live.state
        assert state is not None and state.first is not None
        await self.say(
            interaction,
            f"The game is on! {state.name(state.first)} won the roll-off and starts.",
            ephemeral=False,
        )
        await self.after(outcome)

    async def end(self, interaction: discord.Interaction) -> None:
        try:
            live = self.service.table_in(interaction.channel_id or 0)
            if live.info.host_id != interaction.user.id and not self.is_manager(interaction):
                raise Refusal("Only the host or a server manager can end the table.")
        except Refusal as refusal:
            await self.say(interaction, str(refusal))
            return
        await self.say(
            interaction,
            "End this table for everyone? The game so far is kept in the history.",
            view=end_view(live.id, live.version),
        )

    async def end_confirmed(self, interaction: discord.Interaction, table_id: int) -> None:
        live = self.service.by_id.get(table_id)
        if live is None:
            await self.say(interaction, "This table has already ended.")
            return
        try:
            await self.service.end(
                live.channel_id, self.player(interaction), manager=self.is_manager(interaction)
            )
        except Refusal as refusal:
            await self.say(interaction, str(refusal))
            return
        self._log(interaction, "ended the table", live)
        await interaction.response.edit_message(content="The table is closed.", view=None)
        await self._channel(live.channel_id).send(
            f"The Stack table was ended by {interaction.user.mention}."
        )
        self.refresh(live)

    async def show(self, interaction: discord.Interaction) -> None:
        try:
            live = self.service.table_in(interaction.channel_id or 0)
        except Refusal as refusal:
            await self.say(interaction, str(refusal))
            return
        board = self.board(live)
        await interaction.response.send_message("The table is below.", ephemeral=True)
        payload = await self._payload(live)
        await self._post(
            live, board, payload, await self._picture(live, self._channel(board.channel_id))
        )

    # ------------------------------------------------------------ moves

    async def play(self, interaction: discord.Interaction, text: str) -> None:
        try:
            outcome = await self.in_time(
                interaction,
                self.service.move(
                    interaction.channel_id or 0,
                    self.player(interaction),
                    text=text,
                    interaction_id=str(interaction.id),
                ),
            )
        except Refusal as refusal:
            await self.say(interaction, str(refusal))
            return
        self._log(interaction, f"typed {text!r}", outcome.table)
        await self._answer_move(interaction, outcome, edit=False)

    async def tapped(
        self, interaction: discord.Interaction, table_id: int, version: int, code: str
    ) -> None:
        move = move_from_code(code)
        if move is None:
            await self.say(interaction, "That isn't a move this table knows.")
            return
        live = self.service.by_id.get(table_id)
        try:
            outcome = await self.in_time(
                interaction,
                self.service.move(
                    live.channel_id if live else 0,
                    self.player(interaction),
                    move=move,
                    table_id=table_id,
                    version=version,
                    interaction_id=str(interaction.id),
                ),
                update=True,
            )
        except Refusal as refusal:
            await self.say(interaction, str(refusal))
            return
        self._log(interaction, f"tapped {code}", outcome.table)
        await self._answer_move(interaction, outcome, edit=True)

    async def _answer_move(
        self, interaction: discord.Interaction, outcome: MoveOutcome, *, edit: bool
    ) -> None:
        live = outcome.table
        if outcome.duplicate:
            await self.say(interaction, "That was already played.")
            return
        if outcome.chooser is not None:
            if outcome.chooser_kind == "ambiguous":
                text = "Which pile do you mean?"
            else:
                state = live.state
                assert state is not None
                text = f"You rolled a {state.placing}: it must go on a pile. Which one?"
            view, _ = moves_view(live.id, live.version, outcome.chooser)
            if edit:
                await self.edit_panel(interaction, content=text, view=view)
            else:
                await self.say(interaction, text, view=view)
            if outcome.turns or outcome.chooser_kind == "place":
                self.refresh(live)
            return
        text = "✅ " + (outcome.turns[0] if outcome.turns else "Done.")
        if edit:
            await self.edit_panel(interaction, content=text, view=None)
        else:
            await self.say(interaction, text)
        await self.after(outcome)

    async def after(self, outcome: MoveOutcome) -> None:
        """Round and game messages, then the table message."""
        live = outcome.table
        state = live.state
        channel = self._channel(self.board(live).channel_id)
        if state is not None:
            for round_no in outcome.rounds_ended:
                scoring = outcome.round_scoring.get(round_no, [])
                await channel.send(round_end_text(state, round_no, scoring))
            if outcome.game_over:
                await channel.send(game_end_text(state))
                self._cancel_timers(live)
        if not live.info.is_active and not outcome.game_over:
            await channel.send("No human is left at the table, so it is closed.")
        self.refresh(live)

    async def open_panel(self, interaction: discord.Interaction, table_id: int) -> None:
        live = self.service.by_id.get(table_id)
        if live is None:
            await self.say(interaction, "This table has ended. Start a new one with `/table new`.")
            return
        try:
            choices = self.service.legal_choices(live, self.player(interaction))
        except Refusal as refusal:
            await self.say(interaction, str(refusal))
            return
        state = live.state
        assert state is not None
        view, hidden = moves_view(live.id, live.version, choices)
        text = (
            "Your move:"
            if state.decision is Decision.TURN
            else f"Your rolled {state.placing} must go on a pile:"
        )
        if hidden:
            text += f" ({hidden} more can be typed with `/stack`)"
        await self.say(interaction, text, view=view)

    async def hint(self, interaction: discord.Interaction) -> None:
        try:
            text = self.service.hint(interaction.channel_id or 0, self.player(interaction))
        except Refusal as refusal:
            await self.say(interaction, str(refusal))
            return
        await self.say(interaction, f"💡 The greedy AI would play `{text}`")

    async def export(self, interaction: discord.Interaction) -> None:
        live = self.service.by_channel.get(interaction.channel_id or 0)
        table_id = live.id if live else None
        if table_id is None:
            games = await self.store.history(interaction.channel_id or 0, limit=1)
            table_id = games[0].table_id if games else None
        if table_id is None or (live is not None and live.state is None):
            await self.say(interaction, "There's no game in this channel to export yet.")
            return
        record = await self.store.export_record(table_id)
        data = json.dumps(record, indent=1).encode()
        await interaction.response.send_message(
            "The game record (`stack-record/1`); check it with `python -m engine.record check`.",
            file=discord.File(io.BytesIO(data), filename=f"stack-table-{table_id}.json"),
            ephemeral=True,
        )

    # ------------------------------------------------------------ timers (TurnClock)

    def turn_changed(self, live: LiveTable) -> None:
        self._spawn(self._arm(live))

    def table_closed(self, live: LiveTable) -> None:
        self._cancel_timers(live)

    def _cancel_timers(self, live: LiveTable) -> None:
        board = self.boards.get(live.id)
        if board is not None:
            for handle in board.timers:
                handle.cancel()
            board.timers.clear()

    async def _arm(self, live: LiveTable) -> None:
        self._cancel_timers(live)
        state = live.state
        if state is None or state.is_over or state.current is None or not live.info.is_active:
            return
        settings = await self.store.guild_settings(live.info.guild_id)
        seconds = settings.turn_seconds
        if state.decision is Decision.PLACE and not seconds:
            seconds = PLACE_FALLBACK_SECONDS
        if not seconds or live.user_at(state.current) is None:
            await self.store.set_deadline(live.id, None)
            return
        deadline = discord.utils.utcnow() + timedelta(seconds=seconds)
        await self.store.set_deadline(live.id, deadline)
        self._schedule(live, deadline, ping=True)

    def _schedule(self, live: LiveTable, deadline: datetime | None, *, ping: bool) -> None:
        state = live.state
        if deadline is None or state is None or state.current is None:
            return
        user = live.user_at(state.current)
        loop = asyncio.get_running_loop()
        board = self.board(live)
        remaining = (deadline - discord.utils.utcnow()).total_seconds()
        version = live.version
        board.timers.append(
            loop.call_later(max(remaining, 0), lambda: self._spawn(self._expired(live.id, version)))
        )
        if user is None:
            return
        total = remaining
        if ping:
            self._spawn(
                self._ping(
                    live, user, f"<@{user}>, it's your turn at the Stack table ({int(total)} s)."
                )
            )
        if remaining > 2:
            half = remaining / 2
            board.timers.append(
                loop.call_later(
                    half,
                    lambda: self._spawn(
                        self._ping(
                            live, user, f"⏳ <@{user}>, half your time is gone: {int(half)} s left."
                        )
                    ),
                )
            )

    async def _ping(self, live: LiveTable, user: int, text: str) -> None:
        board = self.board(live)
        channel = self._channel(board.channel_id)
        old = board.ping_id
        message = await channel.send(text, allowed_mentions=discord.AllowedMentions(users=True))
        board.ping_id = message.id
        if old is not None:
            with contextlib.suppress(discord.HTTPException):
                await channel.get_partial_message(old).delete()

    async def _expired(self, table_id: int, version: int) -> None:
        live = self.service.by_id.get(table_id)
        outcome = await self.service.auto_move(table_id, version)
        if outcome is None or live is None:
            return
        log.info("table=%s turn timer ran out; moved automatically", table_id)
        channel = self._channel(self.board(live).channel_id)
        await channel.send("⏱ " + "\n".join(outcome.turns))
        await self.after(outcome)
