"""The Discord bot as the host's front end (:class:`host.words.FrontEnd`): its games (the
registry of :mod:`bot.games`) and its words for what the host tells a table."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from contextlib import AbstractContextManager
from typing import Any

import catalog
from bot import games
from bot.games.base import DiscordGame
from bot.text import escape_name
from host.words import Notice
from persistence.records import TableInfo

AUTOMATIC = " (automatic: the turn timer ran out)"


def duration(seconds: int) -> str:
    """``an hour``, ``5 minutes``, ``90 seconds``."""
    if seconds % 3600 == 0:
        hours = seconds // 3600
        return "an hour" if hours == 1 else f"{hours} hours"
    if seconds % 60 == 0:
        minutes = seconds // 60
        return "a minute" if minutes == 1 else f"{minutes} minutes"
    return f"{seconds} seconds"


def _new_host(host: str | None) -> str:
    return f" {escape_name(host)} is the host now." if host is not None else ""


NOTICES: dict[Notice, Callable[[Mapping[str, Any]], str]] = {
    Notice.QUARANTINED: lambda d: (
        f"This {d['title'] or 'game'} table's saved game could not be read back after a "
        "restart, so the table is closed (its record is kept for the bot's operators). "
        "`/table new` opens another."
    ),
    Notice.NO_HUMAN_AT_START: lambda d: "No human is left at the table, so it is closed.",
    Notice.LEFT: lambda d: f"{escape_name(d['name'])} left",
    Notice.KICKED: lambda d: f"{escape_name(d['name'])} was removed by the host",
    Notice.LOBBY_LEFT: lambda d: f"{d['why']}." + _new_host(d["host"]),
    Notice.LOBBY_EMPTY: lambda d: f"{d['why']}; with nobody left, the table is closed.",
    Notice.SEAT_TO_AI: lambda d: (
        f"{d['why']}; an AI plays their seat from now on." + _new_host(d["host"])
    ),
    Notice.NO_HUMAN_LEFT: lambda d: f"{d['why']}; with no human left, the table is closed.",
    Notice.ENDED_BY: lambda d: f"The {d['title']} table was ended by {escape_name(d['name'])}.",
    Notice.LOBBY_EXPIRED: lambda d: (
        f"The lobby closed: no game started within {duration(d['seconds'])}."
    ),
    Notice.GAME_EXPIRED: lambda d: (
        f"The game ended as abandoned: no player moved for {duration(d['seconds'])}. "
        "`/table new` opens another."
    ),
    Notice.TIMED_OUT_TO_AI: lambda d: (
        f"{escape_name(d['name'])} let {d['count']} turns in a row run "
        "out: an AI plays their seat from now on."
    ),
    Notice.NO_HUMAN_PLAYING: lambda d: "No human is left playing, so the table is closed.",
}


class DiscordFront:
    """The bot's games and words, handed to :class:`host.service.TableService`.

    ``languages`` holds each server's language (guild id -> a :data:`catalog.LANGUAGES`
    code), as the bot learns it (the stored setting, else the server's preferred locale);
    a server not in it reads English."""

    def __init__(self) -> None:
        self.languages: dict[int, str] = {}

    @property
    def default_game(self) -> str:
        return games.DEFAULT

    def game_names(self) -> tuple[str, ...]:
        return games.names()

    def game(self, name: str) -> DiscordGame:
        return games.get(name)

    def turn_line(self, words: str, *, automatic: bool) -> str:
        return escape_name(words + AUTOMATIC if automatic else words)

    def notice(self, notice: Notice, data: Mapping[str, Any]) -> str:
        return NOTICES[notice](data)

    def language(self, guild_id: int | None) -> str:
        """The language of a server's public messages: its ``/houserules`` choice, else its
        preferred locale (when we speak it), else English."""
        if guild_id is None:
            return catalog.DEFAULT
        return self.languages.get(guild_id, catalog.DEFAULT)

    def speaking(self, info: TableInfo) -> AbstractContextManager[object]:
        return catalog.speaking(self.language(info.guild_id))


DISCORD = DiscordFront()
