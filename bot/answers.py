"""How the bot answers an interaction: ephemerally, in time (deferred when slow), editing
the panel whose button was used; who is asking and what is logged of it."""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Any

import aiohttp
import discord

from bot.games.base import DiscordGame
from bot.text import fit_message
from bot.views import owns_panel
from catalog import t
from host.service import LiveTable, Player

log = logging.getLogger(__name__)
DEFER_AFTER = 2.5  # Discord wants an answer within 3 s; slower work is deferred first
DEFERRAL_ANSWERED = "stackbot.deferral_answered"  # interaction.extras: "thinking…" was edited
DEFERRED_PUBLIC = "stackbot.deferred_public"  # interaction.extras: "thinking…" is the channel's
NO_MENTIONS = discord.AllowedMentions.none()


def player(interaction: discord.Interaction) -> Player:
    user = interaction.user
    return Player(user.id, getattr(user, "display_name", None) or user.name)


async def say(interaction: discord.Interaction, text: str, **kwargs: Any) -> None:
    """Answer ephemerally: the answer itself; after a deferral (:func:`in_time`'s
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
    release_view(kwargs.get("view"))


def publicly_deferred(interaction: discord.Interaction) -> bool:
    """Whether the interaction's answer is a public "thinking…" not edited into an answer
    yet (:func:`say` would edit it, in public)."""
    return (
        interaction.response.type is discord.InteractionResponseType.deferred_channel_message
        and bool(interaction.extras.get(DEFERRED_PUBLIC))
        and not interaction.extras.get(DEFERRAL_ANSWERED)
    )


async def in_time(
    interaction: discord.Interaction,
    work: Any,
    *,
    update: bool = False,
    public: bool = False,
) -> Any:
    """Await ``work``; if it takes longer than Discord allows for an answer, defer the
    interaction first (the answer then comes as a follow-up or an edit; ``public``
    when that answer is for the channel, as the start of a game). The work runs in the
    caller's task; a timer starts the deferral beside it when it is late, and the
    answer waits for that deferral to be sent."""
    loop = asyncio.get_running_loop()
    deferral: asyncio.Task[None] | None = None

    def late() -> None:
        nonlocal deferral
        if not interaction.response.is_done():
            deferral = loop.create_task(_defer(interaction, update=update, public=public))

    timer = loop.call_later(DEFER_AFTER, late)
    try:
        return await work
    finally:
        timer.cancel()
        if deferral is not None:
            await deferral


async def _defer(interaction: discord.Interaction, *, update: bool, public: bool) -> None:
    # a deferral that fails (Discord's error, or the connection cut) leaves the work's
    # answer to be tried as it is: the work itself, maybe committed, goes on
    with contextlib.suppress(discord.HTTPException, OSError, aiohttp.ClientError):
        if interaction.response.is_done():
            return
        if update:
            await interaction.response.defer()
        else:
            await interaction.response.defer(ephemeral=not public, thinking=True)
            interaction.extras[DEFERRED_PUBLIC] = public


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
        await say(interaction, kwargs.get("content") or t("discord.done"), **extra)
        return
    if interaction.response.is_done():
        await interaction.edit_original_response(**kwargs)
    else:
        await interaction.response.edit_message(**kwargs)
    release_view(kwargs.get("view"))


def is_manager(interaction: discord.Interaction) -> bool:
    return bool(interaction.permissions.manage_guild)


def log_action(
    interaction: discord.Interaction, what: str, live: LiveTable[DiscordGame] | None
) -> None:
    log.info(
        "guild=%s channel=%s table=%s user=%s %s",
        interaction.guild_id,
        interaction.channel_id,
        live.id if live else "-",
        interaction.user.id,
        what,
    )


def release_view(view: discord.ui.View | None) -> None:
    """Stop tracking a view once it is sent: its buttons are dynamic items, found by their
    custom ids, so discord.py need not keep each panel (and a 15-minute timer) alive."""
    if view is not None:
        view.stop()
