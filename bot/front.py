"""The Discord bot as the host's front end (:class:`host.words.FrontEnd`): its games (the
registry of :mod:`bot.games`) and its words for what the host tells a table."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from contextlib import AbstractContextManager
from typing import Any

import catalog
from bot import games
from bot.games.base import DiscordGame
from bot.text import escape_name, unescape_text
from catalog import n, t
from host.words import Notice
from persistence.records import TableInfo


def duration(seconds: int) -> str:
    """``an hour``, ``5 minutes``, ``90 seconds`` in the language being spoken (the core
    domain's ``duration.*``)."""
    if seconds % 3600 == 0:
        return n("duration.hours", seconds // 3600)
    if seconds % 60 == 0:
        return n("duration.minutes", seconds // 60)
    return n("duration.seconds", seconds)


def _with_host(key: str, data: Mapping[str, Any]) -> str:
    """A notice naming the new host when there is one (``key`` + ``.host``)."""
    host = data["host"]
    if host is None:
        return t(key, why=data["why"])
    return t(key + ".host", why=data["why"], host=escape_name(host))


def _quarantined(data: Mapping[str, Any]) -> str:
    if data["title"]:
        return t("discord.notice.quarantined", title=data["title"])
    return t("discord.notice.quarantined.untitled")


# each notice in the words of the language being spoken (the host enters the table's)
NOTICES: dict[Notice, Callable[[Mapping[str, Any]], str]] = {
    Notice.QUARANTINED: _quarantined,
    Notice.NO_HUMAN_AT_START: lambda d: t("discord.notice.no_human_at_start"),
    Notice.LEFT: lambda d: t("discord.notice.left", name=escape_name(d["name"])),
    Notice.KICKED: lambda d: t("discord.notice.kicked", name=escape_name(d["name"])),
    Notice.LOBBY_LEFT: lambda d: _with_host("discord.notice.lobby_left", d),
    Notice.LOBBY_EMPTY: lambda d: t("discord.notice.lobby_empty", why=d["why"]),
    Notice.SEAT_TO_AI: lambda d: _with_host("discord.notice.seat_to_ai", d),
    Notice.NO_HUMAN_LEFT: lambda d: t("discord.notice.no_human_left", why=d["why"]),
    Notice.ENDED_BY: lambda d: t(
        "discord.notice.ended_by", title=d["title"], name=escape_name(d["name"])
    ),
    Notice.LOBBY_EXPIRED: lambda d: t(
        "discord.notice.lobby_expired", duration=duration(d["seconds"])
    ),
    Notice.GAME_EXPIRED: lambda d: t(
        "discord.notice.game_expired", duration=duration(d["seconds"])
    ),
    Notice.TIMED_OUT_TO_AI: lambda d: n(
        "discord.notice.timed_out_to_ai", d["count"], name=escape_name(d["name"])
    ),
    Notice.NO_HUMAN_PLAYING: lambda d: n(
        "discord.notice.no_human_playing", d["count"], name=escape_name(d["name"])
    ),
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
        return escape_name(t("discord.turn.automatic", turn=words) if automatic else words)

    def notice(self, notice: Notice, data: Mapping[str, Any]) -> str:
        return NOTICES[notice](data)

    def plain(self, line: str) -> str:
        return unescape_text(line)

    def language(self, guild_id: int | None) -> str:
        """The language of a server's public messages: its ``/houserules`` choice, else its
        preferred locale (when we speak it), else English."""
        if guild_id is None:
            return catalog.DEFAULT
        return self.languages.get(guild_id, catalog.DEFAULT)

    def speaking(self, info: TableInfo) -> AbstractContextManager[object]:
        return catalog.speaking(self.language(info.guild_id))


DISCORD = DiscordFront()
