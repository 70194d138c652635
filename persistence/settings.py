"""House rules, turn timers and expiry times: reading them (through a cache, since they are
read on every turn) and writing them (as move-writer operations)."""

from __future__ import annotations

from typing import Any

from pydantic import ValidationError
from sqlalchemy import delete, null, select, update
from sqlalchemy.ext.asyncio import AsyncConnection

from engine.stack.rules import HouseRules, rules_error
from persistence.errors import InvalidSettings
from persistence.records import GuildSettings
from persistence.schema import channel_settings, guild_settings
from persistence.writer import WriteContext

DEFAULT_TURN_SECONDS = 120
MAX_TURN_SECONDS = 3600
LOBBY_TIMEOUT = (60, 7 * 86400)  # seconds: one minute to a week
IDLE_TIMEOUT = (3600, 30 * 86400)  # seconds: one hour to thirty days
CACHE_LIMIT = 10_000  # (guild, channel) pairs kept


class SettingsCache:
    """Settings read before, by (guild, channel). Every settings write of this process
    empties it; a read that overlapped a write is not kept (``generation`` tells)."""

    def __init__(self) -> None:
        self._entries: dict[tuple[int, int | None], GuildSettings] = {}
        self.generation = 0

    def get(self, guild_id: int, channel_id: int | None) -> GuildSettings | None:
        return self._entries.get((guild_id, channel_id))

    def put(self, settings: GuildSettings, channel_id: int | None, generation: int) -> None:
        if generation != self.generation:
            return
        if len(self._entries) >= CACHE_LIMIT:
            self._entries.clear()
        self._entries[(settings.guild_id, channel_id)] = settings

    def invalidate(self) -> None:
        self.generation += 1
        self._entries.clear()

    def __len__(self) -> int:
        return len(self._entries)


async def read_settings(
    conn: AsyncConnection, guild_id: int, channel_id: int | None
) -> GuildSettings:
    row = (
        await conn.execute(select(guild_settings).where(guild_settings.c.guild_id == guild_id))
    ).first()
    channel_rules = None
    channel_seconds = None
    if channel_id is not None:
        crow = (
            await conn.execute(
                select(channel_settings.c.rules, channel_settings.c.turn_seconds).where(
                    channel_settings.c.channel_id == channel_id
                )
            )
        ).first()
        if crow is not None:
            if crow.rules is not None:
                channel_rules = HouseRules.model_validate(crow.rules)
            channel_seconds = crow.turn_seconds
    if row is None:
        return GuildSettings(
            guild_id,
            HouseRules(),
            channel_rules,
            DEFAULT_TURN_SECONDS if channel_seconds is None else channel_seconds,
            channel_seconds,
        )
    rules = HouseRules.model_validate(row.rules) if row.rules else HouseRules()
    return GuildSettings(
        guild_id,
        rules,
        channel_rules,
        row.turn_seconds if channel_seconds is None else channel_seconds,
        channel_seconds,
        row.lobby_timeout,
        row.idle_timeout,
        row.theme,
    )


def validate_rules(rules: HouseRules | dict[str, Any]) -> HouseRules:
    if isinstance(rules, HouseRules):
        return rules
    if not isinstance(rules, dict):
        raise InvalidSettings("House rules must be a mapping of rule names to values.")
    try:
        return HouseRules.model_validate(rules)
    except ValidationError as err:
        raise InvalidSettings(rules_error(err)) from None


def check_turn_seconds(seconds: object) -> int:
    if type(seconds) is not int or not 0 <= seconds <= MAX_TURN_SECONDS:
        raise InvalidSettings(f"The turn timer must be 0 (off) to {MAX_TURN_SECONDS} seconds.")
    return seconds


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
    changed = await ctx.write(
        update(guild_settings)
        .where(guild_settings.c.guild_id == guild_id)
        .values(updated_at=ctx.now, **values)
    )
    if not changed.rowcount:
        await ctx.write(
            guild_settings.insert().values(guild_id=guild_id, updated_at=ctx.now, **values)
        )


async def upsert_channel(
    ctx: WriteContext, /, guild_id: int, channel_id: int, **values: Any
) -> None:
    """Set some of a channel's overrides, keeping the others; a channel left with no
    override at all loses its row."""
    current = (
        await ctx.conn.execute(
            select(channel_settings.c.rules, channel_settings.c.turn_seconds).where(
                channel_settings.c.channel_id == channel_id
            )
        )
    ).first()
    merged = {
        "rules": None if current is None else current.rules,
        "turn_seconds": None if current is None else current.turn_seconds,
        **values,
    }
    if merged["rules"] is None and merged["turn_seconds"] is None:
        await ctx.write(delete(channel_settings).where(channel_settings.c.channel_id == channel_id))
    elif current is None:
        rules = null() if merged["rules"] is None else merged["rules"]  # SQL NULL, not 'null'
        await ctx.write(
            channel_settings.insert().values(
                channel_id=channel_id,
                guild_id=guild_id,
                updated_at=ctx.now,
                rules=rules,
                turn_seconds=merged["turn_seconds"],
            )
        )
    else:
        await ctx.write(
            update(channel_settings)
            .where(channel_settings.c.channel_id == channel_id)
            .values(updated_at=ctx.now, **values)
        )


async def reset_rules(ctx: WriteContext, /, guild_id: int, channel_id: int | None) -> None:
    if channel_id is None:
        await ctx.write(
            update(guild_settings).where(guild_settings.c.guild_id == guild_id).values(rules=null())
        )
    else:
        await ctx.write(delete(channel_settings).where(channel_settings.c.channel_id == channel_id))
