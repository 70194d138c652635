"""The store's settings: each game's house rules per server and channel, and the
server's turn timer (or a channel's), expiry times, picture theme and language."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from pydantic import BaseModel

from persistence.core import StoreCore, bind
from persistence.errors import InvalidSettings
from persistence.gamebook import game_named
from persistence.records import DEFAULT_GAME, THEMES, GuildSettings
from persistence.settings import (
    IDLE_TIMEOUT,
    LOBBY_TIMEOUT,
    check_language,
    check_timeout,
    check_turn_seconds,
    put_rules,
    read_languages,
    read_many_settings,
    read_settings,
    reset_rules,
    set_channel_timer,
    upsert_guild,
    validate_rules,
)
from persistence.writer import Operation

PREFETCH_CHUNK = 1000  # (server, channel) pairs per read


class SettingsAPI(StoreCore):
    async def guild_settings(
        self, guild_id: int, channel_id: int | None = None, game: str = DEFAULT_GAME
    ) -> GuildSettings:
        """The server's house rules of ``game``, turn timer, expiry times and theme, and
        the channel's overrides if any. Cached: no query in the steady state; every
        settings write of this process empties the cache."""
        cached = self.settings_cache.get(guild_id, channel_id, game)
        if cached is not None:
            return cached
        the_game = game_named(game)
        generation = self.settings_cache.generation
        async with self.engine.connect() as conn:
            settings = await read_settings(conn, guild_id, channel_id, the_game)
        self.settings_cache.put(settings, channel_id, generation)
        return settings

    async def prefetch_settings(self, keys: Iterable[tuple[int, int | None, str]]) -> None:
        """Read into the cache, all at once, the settings of these (server, channel, game)
        keys not cached yet: a process adopting many tables reads them in a few queries
        rather than one each as their timers and messages ask."""
        missing: dict[str, list[tuple[int, int | None]]] = {}
        for guild_id, channel_id, game in dict.fromkeys(keys):
            if self.settings_cache.get(guild_id, channel_id, game) is None:
                missing.setdefault(game, []).append((guild_id, channel_id))
        generation = self.settings_cache.generation
        for game, pairs in missing.items():
            the_game = game_named(game)
            for start in range(0, len(pairs), PREFETCH_CHUNK):
                chunk = pairs[start : start + PREFETCH_CHUNK]
                async with self.engine.connect() as conn:
                    found = await read_many_settings(conn, chunk, the_game)
                for (_guild_id, channel_id), settings in found.items():
                    self.settings_cache.put(settings, channel_id, generation)

    async def set_house_rules(
        self,
        guild_id: int,
        rules: BaseModel | dict[str, Any],
        channel_id: int | None = None,
        game: str = DEFAULT_GAME,
    ) -> Any:
        """Store the server's house rules of ``game`` (every rule: those not given take
        their defaults), or with ``channel_id`` set the given rules for that channel only:
        added to its override (the rules set for it before stay, and so does its timer
        override), every other rule following the server's. ``rules`` is a dict of rule
        names to values or the game's settings model (for a channel, the rules it was
        given: its ``model_fields_set``). Returns the rules given as the game's settings
        model (over the defaults); :class:`InvalidSettings` if they do not validate
        against it."""
        checked = validate_rules(rules, game_named(game))
        stored = checked.model_dump(mode="json")
        if channel_id is not None:
            given = rules.model_fields_set if isinstance(rules, BaseModel) else set(rules)
            stored = {k: v for k, v in stored.items() if k in given}
        await self._settings_write(bind(put_rules, guild_id, channel_id, game, stored))
        return checked

    async def reset_house_rules(
        self, guild_id: int, channel_id: int | None = None, game: str = DEFAULT_GAME
    ) -> None:
        """Back to the defaults: the server's rules of ``game`` and its turn timer (every
        game's), or the channel's whole override (its rules of ``game`` and its timer)."""
        game_named(game)
        await self._settings_write(bind(reset_rules, guild_id, channel_id, game))

    async def set_turn_timer(
        self, guild_id: int, seconds: int | None, channel_id: int | None = None
    ) -> None:
        """The turn timer in seconds (0 = off, at most an hour): the server's, or with
        ``channel_id`` that channel's override (its rules override is kept). ``None`` with
        a channel removes the channel's timer override."""
        if seconds is None and channel_id is not None:
            await self._settings_write(bind(set_channel_timer, guild_id, channel_id, None))
            return
        checked = check_turn_seconds(seconds)
        if channel_id is None:
            await self._settings_write(bind(upsert_guild, guild_id, turn_seconds=checked))
        else:
            await self._settings_write(bind(set_channel_timer, guild_id, channel_id, checked))

    async def set_expiry(
        self, guild_id: int, *, lobby_timeout: int | None = None, idle_timeout: int | None = None
    ) -> None:
        """How long an idle lobby stays open (60 s to 7 days) and a game may go without a
        human move (1 hour to 30 days), in seconds; :class:`InvalidSettings` otherwise."""
        values: dict[str, int] = {}
        if lobby_timeout is not None:
            values["lobby_timeout"] = check_timeout(lobby_timeout, LOBBY_TIMEOUT, "lobby timeout")
        if idle_timeout is not None:
            values["idle_timeout"] = check_timeout(idle_timeout, IDLE_TIMEOUT, "idle timeout")
        if values:
            await self._settings_write(bind(upsert_guild, guild_id, **values))

    async def set_theme(self, guild_id: int, theme: str) -> None:
        """The theme of the pictures drawn for the server: one of :data:`THEMES`
        (``dark``, the default, or ``light``); :class:`InvalidSettings` otherwise."""
        if theme not in THEMES:
            raise InvalidSettings(f"The theme is one of {', '.join(THEMES)}, not {theme!r}.")
        await self._settings_write(bind(upsert_guild, guild_id, theme=theme))

    async def set_language(self, guild_id: int, language: str | None) -> None:
        """The language of the server's public messages (a language code such as ``ja``;
        which ones the bot speaks is the front end's to check), or ``None``: not chosen
        (the bot then speaks the server's own locale); :class:`InvalidSettings` for what
        is not a language code."""
        await self._settings_write(bind(upsert_guild, guild_id, language=check_language(language)))

    async def guild_languages(self) -> dict[int, str]:
        """Every server's chosen language (the servers that chose one), read at start-up."""
        async with self.engine.connect() as conn:
            return await read_languages(conn)

    async def _settings_write(self, operation: Operation[None]) -> None:
        """A settings write, through the writer; the cache is emptied once it committed."""
        await self.writer.run(operation, after_commit=self.settings_cache.invalidate)
