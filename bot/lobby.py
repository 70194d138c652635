"""The lobby's interactions: opening a table, joining, leaving, seating an AI, kicking,
starting, ending and showing the table."""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Sequence
from typing import Any

import aiohttp
import discord

from bot import games
from bot.ai_levels import level_name
from bot.answers import (
    NO_MENTIONS,
    edit_panel,
    in_time,
    is_manager,
    log_action,
    player,
    publicly_deferred,
    release_view,
    say,
)
from bot.refusal_words import Refused
from bot.table_message import TablesHost
from bot.text import button_label, cut, escape_name, fit_message
from bot.views import end_view
from catalog import t
from host.outbox import Delivered
from host.refusals import Refusal, Why
from host.service import MoveOutcome
from persistence.records import SeatInfo

log = logging.getLogger(__name__)
THREADS = (
    discord.ChannelType.public_thread,
    discord.ChannelType.private_thread,
    discord.ChannelType.news_thread,
)


def seat_named(seats: Sequence[SeatInfo], name: str) -> SeatInfo | None:
    """The seat ``name`` names: as written (an autocomplete's choice), else whatever the
    case, without an ``@`` typed before it."""
    typed = name.strip().removeprefix("@")
    found = next((s for s in seats if s.name == name), None)
    return found or next((s for s in seats if s.name.casefold() == typed.casefold()), None)


def may_post(interaction: discord.Interaction) -> bool:
    """Whether the bot may post in the interaction's channel (View Channel, and Send
    Messages, or in a thread Send Messages in Threads), as Discord says in the interaction:
    a table re-posts its message to ping, and posts its rounds' and game's ends."""
    allowed = interaction.app_permissions
    if _in_thread(interaction):
        return allowed.view_channel and allowed.send_messages_in_threads
    return allowed.view_channel and allowed.send_messages


def _in_thread(interaction: discord.Interaction) -> bool:
    """The interaction's channel is a thread (cached or not: a partial channel has a type)."""
    return getattr(interaction.channel, "type", None) in THREADS


def _cannot_post(interaction: discord.Interaction) -> Refused:
    thread = _in_thread(interaction)
    return Refused("refusal.cannot_post.thread" if thread else "refusal.cannot_post")


async def _answer_start(interaction: discord.Interaction, outcome: MoveOutcome) -> Delivered | None:
    """Who begins, said in public as the answer to the start (a deferral's edited into it):
    delivered, with the id of its message; ``None`` if Discord failed (the outbox posts it)."""
    text = fit_message(outcome.note)
    try:
        if not interaction.response.is_done():
            answered = await interaction.response.send_message(text, allowed_mentions=NO_MENTIONS)
            post = answered.message_id
            if post is None:  # said all the same: delivered, its message not known
                with contextlib.suppress(discord.HTTPException, OSError, aiohttp.ClientError):
                    post = (await interaction.original_response()).id
        elif interaction.response.type is discord.InteractionResponseType.deferred_channel_message:
            post = (
                await interaction.edit_original_response(content=text, allowed_mentions=NO_MENTIONS)
            ).id
        else:
            post = (
                await interaction.followup.send(text, allowed_mentions=NO_MENTIONS, wait=True)
            ).id
    except (discord.HTTPException, OSError, aiohttp.ClientError) as err:
        log.warning("table %s: the start not answered (%s); posted instead", outcome.table.id, err)
        return None
    return Delivered(post)


class Lobby:
    """Answers the lobby's commands and buttons."""

    def __init__(self, tables: TablesHost) -> None:
        self.tables = tables

    async def new(
        self,
        interaction: discord.Interaction,
        options: dict[str, Any],
        game: str = games.DEFAULT,
    ) -> None:
        """Open a table of ``game``; ``options`` are ``/table new``'s options by their
        names there (each game says which it takes: :attr:`DiscordGame.table_options`)."""
        if interaction.guild_id is None or interaction.channel_id is None:
            raise Refused("refusal.in_dms")
        try:
            played = games.get(game)
        except games.UnknownGame:
            raise Refusal(Why.UNKNOWN_GAME, name=game, games=games.names()) from None
        settings: dict[str, Any] = {}
        for option, value in options.items():
            if value is None:
                continue
            field = played.table_options.get(option)
            if field is None:
                raise Refused("refusal.no_option", title=played.title, option=option)
            settings[field] = value
        if not may_post(interaction):  # the lobby would open, and the game go on unheard
            raise _cannot_post(interaction)
        live = await self.tables.service.new_table(
            interaction.guild_id,
            interaction.channel_id,
            player(interaction),
            settings,
            game=played.name,
        )
        log_action(interaction, "opened a table", live)
        payload = await self.tables.table_messages.payload(live)
        try:
            answered = await interaction.response.send_message(
                allowed_mentions=NO_MENTIONS, **payload
            )
        except (discord.HTTPException, OSError, aiohttp.ClientError):
            # the lobby is stored but its answer is lost (the interaction expired, Discord
            # failed, the connection was cut): it is posted in the channel instead, and its
            # clock runs as any lobby's, so that it is neither unseen nor holding the
            # channel for good
            self.tables.refresh(live)
            self.tables.arm_clock(live)
            raise
        finally:
            release_view(payload["view"])
        message_id = answered.message_id  # Discord names the message in its answer: no GET
        if message_id is None:
            message_id = (await interaction.original_response()).id
        record = self.tables.message(live)
        record.message_id, record.posted_at = message_id, discord.utils.utcnow()
        await self.tables.store.set_message(live.id, interaction.channel_id, message_id)
        self.tables.arm_clock(live)

    async def lobby_button(
        self, interaction: discord.Interaction, action: str, table_id: int, level: str = "greedy"
    ) -> None:
        live = self.tables.service.by_id.get(table_id)
        if live is None or live.channel_id != interaction.channel_id:
            raise Refusal(Why.TABLE_ENDED)
        if action == "ai":
            await self.add_ai(interaction, level)
            return
        handlers = {"join": self.join, "leave": self.leave, "start": self.start}
        await handlers[action](interaction)

    async def _lobby_change(self, interaction: discord.Interaction, action: Any, done: str) -> None:
        result = await action
        if isinstance(result, MoveOutcome):
            live, note = result.table, result.note
            if result.retold is not None:  # said to the asker alone: in their language
                note = result.retold()
            self.tables.committed(result)
        else:
            live, note = result, done
            self.tables.refresh(live)
            self.tables.arm_clock(live)
        log_action(interaction, note, live)
        with contextlib.suppress(discord.HTTPException):
            await say(interaction, note)
        if not live.info.is_active and live.info.status == "abandoned" and live.state is None:
            # a lobby left by its last player: no game was played, so no outbox
            self.tables.spawn(self.tables.final_edit(live.id), "lobby-closed")

    async def join(self, interaction: discord.Interaction) -> None:
        await self._lobby_change(
            interaction,
            self.tables.service.join(interaction.channel_id or 0, player(interaction)),
            t("discord.lobby.joined", start=button_label("discord.button.start")),
        )

    async def leave(self, interaction: discord.Interaction) -> None:
        await self._lobby_change(
            interaction,
            self.tables.service.leave(interaction.channel_id or 0, player(interaction)),
            "",
        )

    async def add_ai(self, interaction: discord.Interaction, level: str = "greedy") -> None:
        await self._lobby_change(
            interaction,
            self.tables.service.add_ai(interaction.channel_id or 0, player(interaction), level),
            t("discord.lobby.ai_sits", level=level_name(level)),
        )

    async def kick(self, interaction: discord.Interaction, target_id: int) -> None:
        await self._lobby_change(
            interaction,
            self.tables.service.kick(interaction.channel_id or 0, player(interaction), target_id),
            "",
        )

    async def kick_seat(self, interaction: discord.Interaction, name: str) -> None:
        """``/table kick seat:``: the host removes the seat named ``name`` (as the
        autocomplete offers it, or typed): a player's, as ``player:`` does, or an AI's,
        from the lobby only (an AI added by mistake; once the game has started it plays
        on)."""
        live = self.tables.service.table_in(interaction.channel_id or 0)
        seat = seat_named(live.info.seats, name)
        if seat is None:
            raise Refused("refusal.kick.no_seat", name=escape_name(cut(name.strip(), 40)))
        if not seat.is_ai:
            assert seat.user_id is not None
            await self.kick(interaction, seat.user_id)
            return
        shown = escape_name(seat.name)
        if live.info.host_id != interaction.user.id:
            raise Refusal(Why.HOST_ONLY, power="remove_ai")
        if live.info.status != "lobby":
            raise Refused("refusal.kick.ai_plays_on", name=shown)
        # (the host's own refusals, should the game start or the seat go meanwhile, are said
        # by the error handler as any other)
        removed = self.tables.service.remove_ai(
            interaction.channel_id or 0, player(interaction), seat.name
        )
        await self._lobby_change(
            interaction,
            removed,
            t("discord.lobby.ai_removed", name=shown, level=level_name(seat.ai_level)),
        )

    async def start(self, interaction: discord.Interaction) -> None:
        """Start the game. Who begins is owed to the channel (an outbox row, stored with
        the start): said as the public answer to the start, that answer is its delivery;
        an answer Discord fails leaves it to the outbox, which posts it in the channel (a
        crash before the answer too, after the restart)."""
        outcome = await in_time(
            interaction,
            self.tables.service.start(interaction.channel_id or 0, player(interaction)),
            public=True,
        )
        live = outcome.table
        log_action(interaction, "started the game", live)
        try:
            answered = not live.away and await self.tables.outbox.answer(
                live.id,
                live.info.guild_id,
                outcome.note,
                lambda: _answer_start(interaction, outcome),
            )
        finally:  # the table message and the outbox brought up to date, whatever happens
            self.tables.committed(outcome)
        if not answered:  # said in the channel by the outbox: to the starter alone
            with contextlib.suppress(discord.HTTPException, OSError, aiohttp.ClientError):
                if publicly_deferred(interaction):  # its public "thinking…" taken away
                    await interaction.delete_original_response()
                else:
                    await say(interaction, "✅ " + outcome.note)

    async def end(self, interaction: discord.Interaction) -> None:
        live = self.tables.service.table_in(interaction.channel_id or 0)
        if live.info.host_id != interaction.user.id and not is_manager(interaction):
            raise Refusal(Why.HOST_ONLY, power="end")
        await say(
            interaction,
            t("discord.lobby.end_confirm"),
            view=end_view(live.id, live.version),
        )

    async def end_confirmed(self, interaction: discord.Interaction, table_id: int) -> None:
        live = self.tables.service.by_id.get(table_id)
        if live is None:
            raise Refused("refusal.already_ended")
        outcome = await self.tables.service.end(
            live.channel_id, player(interaction), manager=is_manager(interaction)
        )
        self.tables.committed(outcome)
        log_action(interaction, "ended the table", live)
        await edit_panel(interaction, content=t("discord.lobby.closed"), view=None)

    async def show(self, interaction: discord.Interaction) -> None:
        live = self.tables.service.table_in(interaction.channel_id or 0)
        if not may_post(interaction):
            raise _cannot_post(interaction)
        await say(interaction, t("discord.lobby.below"))
        await self.tables.table_messages.bring_down(live)  # a ping posted is posted anew
