"""House rules (per game), turn timers, expiry times, the theme and the language: reading them (through a
cache, since they are read on every turn), validating them, and writing them (as
move-writer operations).

A game's house rules are its settings model (:attr:`engine.game.Game.settings`) stored as
JSON for a server, or for one channel of it, in ``house_rules``: the server's row holds
every rule, a channel's only the rules set for that channel (its override), so that every
other rule follows the server's, now and after the server's next change. The turn timer,
expiry times, theme and language are the server's (the timer may be a channel's),
whatever the game.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from pydantic import BaseModel
from sqlalchemy import and_, delete, or_, select, update
from sqlalchemy.ext.asyncio import AsyncConnection

from engine.errors import settings_from
from engine.game import Game
from persistence.errors import InvalidSettings
from persistence.records import GuildSettings
from persistence.schema import SERVER_WIDE, channel_settings, guild_settings, house_rules
from persistence.writer import WriteContext

DEFAULT_TURN_SECONDS = 120
MAX_TURN_SECONDS = 3600
LOBBY_TIMEOUT = (60, 7 * 86400)  # seconds: one minute to a week
IDLE_TIMEOUT = (3600, 30 * 86400)  # seconds: one hour to thirty days
CACHE_LIMIT = 10_000  # (guild, channel, game) keys kept
LANGUAGE_CODE = re.compile(r"^[a-z]{2,3}(-[a-z0-9]{2,8})?$")  # "ja", "en", "pt-br"

CacheKey = tuple[int, int | None, str]


class SettingsCache:
    """Settings read before, by (guild, channel, game). Every settings write of this
    process empties it; a read that overlapped a write is not kept (``generation`` tells)."""

    def __init__(self) -> None:
        self._entries: dict[CacheKey, GuildSettings] = {}
        self.generation = 0

    def get(self, guild_id: int, channel_id: int | None, game: str) -> GuildSettings | None:
        return self._entries.get((guild_id, channel_id, game))

    def put(self, settings: GuildSettings, channel_id: int | None, generation: int) -> None:
        if generation != self.generation:
            return
        if len(self._entries) >= CACHE_LIMIT:
            self._entries.clear()
        self._entries[(settings.guild_id, channel_id, settings.game)] = settings

    def invalidate(self) -> None:
        self.generation += 1
        self._entries.clear()

    def __len__(self) -> int:
        return len(self._entries)


async def read_settings(
    conn: AsyncConnection, guild_id: int, channel_id: int | None, game: Game[Any]
) -> GuildSettings:
    """The server's settings for ``game``, with ``channel_id``'s overrides if any."""
    found = await read_many_settings(conn, [(guild_id, channel_id)], game)
    return found[(guild_id, channel_id)]


async def read_many_settings(
    conn: AsyncConnection, keys: Sequence[tuple[int, int | None]], game: Game[Any]
) -> dict[tuple[int, int | None], GuildSettings]:
    """:func:`read_settings` for many (server, channel) pairs of one game, in three
    queries (a process adopting a shard's tables reads them all at once)."""
    guilds = sorted({g for g, _ in keys})
    channels = sorted({c for _, c in keys if c is not None})
    servers = {
        r.guild_id: r
        for r in await conn.execute(
            select(guild_settings).where(guild_settings.c.guild_id.in_(guilds))
        )
    }
    scope = and_(house_rules.c.guild_id.in_(guilds), house_rules.c.channel_id == SERVER_WIDE)
    if channels:
        scope = or_(scope, house_rules.c.channel_id.in_(channels))
    server_rules: dict[int, Any] = {}
    channel_rules: dict[int, Any] = {}
    for r in await conn.execute(
        select(house_rules.c.guild_id, house_rules.c.channel_id, house_rules.c.rules).where(
            house_rules.c.game == game.name, scope
        )
    ):
        if r.channel_id == SERVER_WIDE:
            server_rules[r.guild_id] = r.rules
        else:
            channel_rules[r.channel_id] = r.rules
    timers: dict[int, int] = {}
    if channels:
        timers = {
            r.channel_id: r.turn_seconds
            for r in await conn.execute(
                select(channel_settings.c.channel_id, channel_settings.c.turn_seconds).where(
                    channel_settings.c.channel_id.in_(channels)
                )
            )
        }
    out: dict[tuple[int, int | None], GuildSettings] = {}
    for guild_id, channel_id in keys:
        row = servers.get(guild_id)
        rules = game.settings.model_validate(server_rules.get(guild_id) or {})
        here = channel_rules.get(channel_id) if channel_id is not None else None
        in_force = None
        if here is not None:
            in_force = game.settings.model_validate({**rules.model_dump(mode="json"), **here})
        channel_seconds = timers.get(channel_id) if channel_id is not None else None
        server_seconds = DEFAULT_TURN_SECONDS if row is None else row.turn_seconds
        common: dict[str, Any] = {}
        if row is not None:
            common = {
                "lobby_timeout": row.lobby_timeout,
                "idle_timeout": row.idle_timeout,
                "theme": row.theme,
                "language": row.language,
            }
        out[(guild_id, channel_id)] = GuildSettings(
            guild_id,
            rules,
            in_force,
            server_seconds if channel_seconds is None else channel_seconds,
            channel_seconds,
            game=game.name,
            channel_keys=frozenset(here or ()),
            **common,
        )
    return out


def validate_rules(rules: object, game: Game[Any]) -> BaseModel:
    """``rules`` (the game's settings model, another model or a dict of its keys) as the
    game's settings model; :class:`InvalidSettings` saying what is wrong otherwise."""
    model = game.settings
    if isinstance(rules, model):
        return rules
    if isinstance(rules, BaseModel):
        rules = rules.model_dump()
    return settings_from(
        rules, model, InvalidSettings, "House rules must be a mapping of rule names to values."
    )


def check_options(options: dict[str, Any], game: Game[Any]) -> None:
    """A table's own options: keys of the game's settings, valid over its defaults."""
    unknown = set(options) - set(game.settings.model_fields)
    if unknown:
        raise InvalidSettings(f"Unknown table option {sorted(unknown)[0]!r}.")
    validate_rules(options, game)


def check_turn_seconds(seconds: object) -> int:
    if type(seconds) is not int or not 0 <= seconds <= MAX_TURN_SECONDS:
        raise InvalidSettings(f"The turn timer must be 0 (off) to {MAX_TURN_SECONDS} seconds.")
    return seconds


def check_language(language: object) -> str | None:
    """A server's language: ``None`` (not chosen) or a lower-case language code."""
    if language is None:
        return None
    if not isinstance(language, str) or LANGUAGE_CODE.match(language) is None:
        raise InvalidSettings(
            f"A server's language is a language code such as 'ja', not {language!r}."
        )
    return language


async def read_languages(conn: AsyncConnection) -> dict[int, str]:
    """Every server's chosen language (guild id -> code), for the servers that chose one."""
    rows = await conn.execute(
        select(guild_settings.c.guild_id, guild_settings.c.language).where(
            guild_settings.c.language.is_not(None)
        )
    )
    return {r.guild_id: r.language for r in rows}


def check_timeout(seconds: object, bounds: tuple[int, int], what: str) -> int:
    low, high = bounds
    if type(seconds) is not int or not low <= seconds <= high:
        raise InvalidSettings(
            f"The {what} must be {_duration(low)} to {_duration(high)} ({low} to {high} seconds)."
        )
    return seconds


def _duration(seconds: int) -> str:
    for unit, size in (("day", 86400), ("hour", 3600), ("minute", 60)):
        if seconds % size == 0:
            count = seconds // size
            return f"{count} {unit}{'' if count == 1 else 's'}"
    return f"{seconds} seconds"  # pragma: no cover - every bound is whole minutes


# ---------------------------------------------------------------------- operations


async def upsert_guild(ctx: WriteContext, /, guild_id: int, **values: Any) -> None:
    await ctx.check_lease(guild_id)
    changed = await ctx.write(
        update(guild_settings)
        .where(guild_settings.c.guild_id == guild_id)
        .values(updated_at=ctx.now, **values)
    )
    if not changed.rowcount:
        await ctx.write(
            guild_settings.insert().values(guild_id=guild_id, updated_at=ctx.now, **values)
        )


async def set_channel_timer(
    ctx: WriteContext, /, guild_id: int, channel_id: int, seconds: int | None
) -> None:
    """A channel's own turn timer; ``None`` removes it (and so the channel's row)."""
    await ctx.check_lease(guild_id)
    if seconds is None:
        await ctx.write(delete(channel_settings).where(channel_settings.c.channel_id == channel_id))
        return
    changed = await ctx.write(
        update(channel_settings)
        .where(channel_settings.c.channel_id == channel_id)
        .values(updated_at=ctx.now, turn_seconds=seconds)
    )
    if not changed.rowcount:
        await ctx.write(
            channel_settings.insert().values(
                channel_id=channel_id, guild_id=guild_id, updated_at=ctx.now, turn_seconds=seconds
            )
        )


async def put_rules(
    ctx: WriteContext, /, guild_id: int, channel_id: int | None, game: str, rules: dict[str, Any]
) -> None:
    """A game's house rules for the server (``channel_id`` ``None``: every rule), or the
    rules ``rules`` sets for a channel, added to the rules its override set before (read
    in the same transaction, so that two rules set at once both stay)."""
    await ctx.check_lease(guild_id)
    if channel_id is not None:
        before = await ctx.conn.scalar(
            select(house_rules.c.rules).where(*_rules_of(guild_id, channel_id, game))
        )
        if isinstance(before, dict):
            rules = {**before, **rules}
    changed = await ctx.write(
        update(house_rules)
        .where(*_rules_of(guild_id, channel_id, game))
        .values(rules=rules, updated_at=ctx.now)
    )
    if not changed.rowcount:
        await ctx.write(
            house_rules.insert().values(
                guild_id=guild_id,
                channel_id=SERVER_WIDE if channel_id is None else channel_id,
                game=game,
                rules=rules,
                updated_at=ctx.now,
            )
        )


async def reset_rules(
    ctx: WriteContext, /, guild_id: int, channel_id: int | None, game: str
) -> None:
    """Back to the defaults: the server's rules of ``game`` and its turn timer (every
    game's), or a channel's whole override (its rules of ``game`` and its turn timer,
    every game's there): a reset treats the timer, which ``/houserules show`` lists
    among a game's rules, alike on both levels."""
    await ctx.check_lease(guild_id)
    await ctx.write(delete(house_rules).where(*_rules_of(guild_id, channel_id, game)))
    if channel_id is not None:
        await ctx.write(delete(channel_settings).where(channel_settings.c.channel_id == channel_id))
        return
    await ctx.write(
        update(guild_settings)
        .where(guild_settings.c.guild_id == guild_id)
        .values(updated_at=ctx.now, turn_seconds=DEFAULT_TURN_SECONDS)
    )


def _rules_of(guild_id: int, channel_id: int | None, game: str) -> tuple[Any, ...]:
    """The row of a server's rules of ``game``, or of a channel's (the channel's alone:
    whichever server asks)."""
    if channel_id is None:
        return (
            house_rules.c.guild_id == guild_id,
            house_rules.c.channel_id == SERVER_WIDE,
            house_rules.c.game == game,
        )
    return (house_rules.c.channel_id == channel_id, house_rules.c.game == game)
