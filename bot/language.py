"""Which language the bot speaks, and where it says so for every interaction.

Two languages are in play (:mod:`catalog`):

* **A server's language**, for its public messages (the table, round and game ends,
  pings): the one it chose with ``/houserules set key:language`` (stored,
  ``GuildSettings.language``), else its preferred locale (``guild.preferred_locale``) when
  the bot speaks it, else English. :class:`ServerLanguages` keeps
  :attr:`bot.front.DiscordFront.languages` (guild id -> language) true: the stored choices
  are read at start-up, a server's locale is learnt as the gateway shows the server (at
  start-up and on joining it) and from each interaction's ``guild_locale``; a choice made
  with ``/houserules`` replaces it at once. The host enters a table's language itself
  (:meth:`bot.front.DiscordFront.speaking`) around what it says to the table.
* **A user's language**, for what only they read (refusals, panels, hints, ``/stats``…):
  their client's ``interaction.locale``. A button of a table message that such words name
  is named as it shows, in its server's language (:func:`bot.text.button_label`).

The user's language is made ambient in one place for every interaction (slash commands,
autocompletes, buttons and selects, dynamic items, modals): around discord.py's parser of
the gateway's ``INTERACTION_CREATE`` (:func:`speak_to_each_user`). That parser runs
synchronously and creates, while it runs, the task that calls the command or item
(the tree's ``CommandTree-invoker``, the view store's item and modal tasks), and an
asyncio task starts with a copy of the context it was created in: each interaction's task
so keeps its user's language, whatever other interactions do meanwhile, and the gateway's
own task is left as it was. The language the server's table buttons are drawn in is made
ambient there too (:func:`bot.text.buttons_in`).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from contextlib import AbstractContextManager
from typing import Any

import discord

import catalog
from bot.front import DISCORD, DiscordFront
from bot.text import buttons_in

__all__ = [
    "ServerLanguages",
    "chosen_language",
    "server_language",
    "speak_to_each_user",
    "to_the_server",
]

Parser = Callable[[Any], None]


def server_language(chosen: str | None, preferred_locale: object | None) -> str:
    """A server's language: its choice if we speak it, else its preferred locale's if we
    speak that, else English."""
    if chosen in catalog.LANGUAGES:
        return chosen
    return catalog.language_of(preferred_locale)


def chosen_language(typed: str) -> str | None:
    """The catalog language an admin typed (``ja``, ``JA``, ``日本語``, ``English``,
    ``ja-JP``), ``None`` if the bot does not speak it."""
    text = typed.strip()
    for code, name in catalog.NAMES.items():
        if text.lower() in (code, name.lower()):
            return code
    head = text.lower().replace("_", "-").split("-")[0]
    return head if head in catalog.LANGUAGES and head != "" else None


def to_the_server(guild_id: int | None) -> AbstractContextManager[str]:
    """Speak the server's language in the code inside: for a public message an interaction
    sends itself (its ambient language is its user's), e.g. a lobby opened as the answer
    to ``/table new``. What the host tells a table is in it already."""
    return catalog.speaking(DISCORD.language(guild_id))


class ServerLanguages:
    """Keeps ``front.languages`` (guild id -> language) true: the servers' stored choices
    first, their preferred locales for the others."""

    def __init__(self, front: DiscordFront = DISCORD) -> None:
        self.front = front
        self.chosen: dict[int, str] = {}  # the servers that chose their language

    def load(self, chosen: Mapping[int, str]) -> None:
        """The choices stored (read at start-up)."""
        for guild_id, language in chosen.items():
            if language in catalog.LANGUAGES:
                self.chosen[guild_id] = language
                self.front.languages[guild_id] = language

    def seen(self, guild_id: int, preferred_locale: object | None) -> None:
        """A server's locale, as Discord shows it: its language unless it chose one."""
        if guild_id not in self.chosen:
            self.front.languages[guild_id] = server_language(None, preferred_locale)

    def seen_guild(self, guild: discord.Guild) -> None:
        self.seen(guild.id, guild.preferred_locale)

    def choose(self, guild_id: int, language: str | None, preferred_locale: object) -> str:
        """A server's choice (``None``: back to its locale's); its language now."""
        if language is None:
            self.chosen.pop(guild_id, None)
        else:
            self.chosen[guild_id] = language
        spoken = server_language(language, preferred_locale)
        self.front.languages[guild_id] = spoken
        return spoken

    def forget(self, guild_id: int) -> None:
        """A server the bot left."""
        self.chosen.pop(guild_id, None)
        self.front.languages.pop(guild_id, None)

    def interaction(self, data: Mapping[str, Any]) -> str:
        """An interaction's payload: its server's locale noted; its user's language."""
        guild_id = data.get("guild_id")
        if guild_id is not None and data.get("guild_locale"):
            self.seen(int(guild_id), data["guild_locale"])
        return catalog.language_of(data.get("locale"))


def speak_to_each_user(state: Any, languages: ServerLanguages) -> None:
    """Wrap ``state``'s (discord.py's ``ConnectionState``) parser of interactions so that
    everything an interaction starts runs in its user's language (see the module's text)."""
    parsers: dict[str, Parser] = state.parsers
    parse = parsers["INTERACTION_CREATE"]
    if getattr(parse, "speaks", False):
        return  # installed already

    def parse_interaction_create(data: Any) -> None:
        language = languages.interaction(data)
        guild_id = data.get("guild_id")
        buttons = None if guild_id is None else languages.front.language(int(guild_id))
        with catalog.speaking(language), buttons_in(buttons):
            parse(data)

    parse_interaction_create.speaks = True  # type: ignore[attr-defined]
    parsers["INTERACTION_CREATE"] = parse_interaction_create
