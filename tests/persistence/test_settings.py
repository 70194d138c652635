"""Settings: cached (read on every turn), refreshed by every settings write; channel timer
and rules overrides (a channel's holding only the rules set for it); expiry times."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from typing import Any

import pytest
from sqlalchemy import select, update

from engine.stack.rules import HouseRules
from persistence import InvalidSettings, Store
from persistence.database import make_engine
from persistence.schema import channel_settings, guild_settings, house_rules
from tests.persistence.conftest import Backend
from tests.persistence.helpers import GUILD, count, downgrade_to, migrate


async def change_behind_the_stores_back(store: Store, seconds: int) -> None:
    async with store.engine.begin() as conn:
        await conn.execute(
            update(guild_settings)
            .where(guild_settings.c.guild_id == GUILD)
            .values(turn_seconds=seconds)
        )


async def test_settings_are_read_from_the_cache_in_the_steady_state(store: Store) -> None:
    await store.set_turn_timer(GUILD, 45)
    assert (await store.guild_settings(GUILD, 7)).turn_seconds == 45
    # a change the store did not make is not seen: no query was made
    await change_behind_the_stores_back(store, 90)
    assert (await store.guild_settings(GUILD, 7)).turn_seconds == 45
    # the first read of another key does query
    assert (await store.guild_settings(GUILD)).turn_seconds == 90


@pytest.mark.parametrize(
    "write",
    [
        "set_turn_timer",
        "set_channel_timer",
        "set_house_rules",
        "set_channel_rules",
        "reset_house_rules",
        "reset_channel",
        "set_expiry",
    ],
)
async def test_every_settings_write_refreshes_the_cached_settings(store: Store, write: str) -> None:
    await store.set_turn_timer(GUILD, 45)
    assert (await store.guild_settings(GUILD, 7)).turn_seconds == 45
    await change_behind_the_stores_back(store, 90)
    writes: dict[str, Callable[[], Awaitable[object]]] = {
        "set_turn_timer": lambda: store.set_turn_timer(GUILD + 1, 30),
        "set_channel_timer": lambda: store.set_turn_timer(GUILD + 1, 30, channel_id=8),
        "set_house_rules": lambda: store.set_house_rules(GUILD + 1, {"target_score": 50}),
        "set_channel_rules": lambda: store.set_house_rules(GUILD, {"target_score": 50}, 8),
        "reset_house_rules": lambda: store.reset_house_rules(GUILD + 1),
        "reset_channel": lambda: store.reset_house_rules(GUILD, channel_id=8),
        "set_expiry": lambda: store.set_expiry(GUILD + 1, lobby_timeout=600),
    }
    await writes[write]()
    assert (await store.guild_settings(GUILD, 7)).turn_seconds == 90


async def test_a_refused_settings_write_changes_nothing(store: Store) -> None:
    await store.set_turn_timer(GUILD, 45)
    cached = await store.guild_settings(GUILD)
    with pytest.raises(InvalidSettings):
        await store.set_turn_timer(GUILD, 4000)
    with pytest.raises(InvalidSettings):
        await store.set_expiry(GUILD, idle_timeout=60)
    assert await store.guild_settings(GUILD) == cached


async def test_a_channel_timer_overrides_the_servers_and_keeps_the_channels_rules(
    store: Store,
) -> None:
    await store.set_turn_timer(GUILD, 60)
    await store.set_house_rules(GUILD, {"target_score": 150}, channel_id=7)
    await store.set_turn_timer(GUILD, 20, channel_id=7)
    here = await store.guild_settings(GUILD, 7)
    assert here.turn_seconds == 20 and here.channel_turn_seconds == 20
    assert here.channel_rules == HouseRules(target_score=150)
    elsewhere = await store.guild_settings(GUILD, 8)
    assert elsewhere.turn_seconds == 60 and elsewhere.channel_turn_seconds is None
    # the server's timer changes: the channel keeps its own
    await store.set_turn_timer(GUILD, 90)
    assert (await store.guild_settings(GUILD, 7)).turn_seconds == 20
    assert (await store.guild_settings(GUILD, 8)).turn_seconds == 90
    # new rules for the channel keep its timer
    await store.set_house_rules(GUILD, {"target_score": 80}, channel_id=7)
    here = await store.guild_settings(GUILD, 7)
    assert here.turn_seconds == 20 and here.effective.target_score == 80
    # the channel's timer alone goes: its rules stay
    await store.set_turn_timer(GUILD, None, channel_id=7)
    here = await store.guild_settings(GUILD, 7)
    assert here.turn_seconds == 90 and here.channel_rules == HouseRules(target_score=80)
    with pytest.raises(InvalidSettings):
        await store.set_turn_timer(GUILD, None)


async def test_a_channel_may_override_only_its_timer_and_a_reset_removes_the_whole_override(
    store: Store,
) -> None:
    await store.set_house_rules(GUILD, {"target_score": 150})
    await store.set_turn_timer(GUILD, 0, channel_id=9)  # timer off in this channel only
    here = await store.guild_settings(GUILD, 9)
    assert here.turn_seconds == 0 and here.channel_rules is None
    assert here.effective.target_score == 150
    await store.set_house_rules(GUILD, {"dice_per_player": 10}, channel_id=9)
    await store.reset_house_rules(GUILD, channel_id=9)
    here = await store.guild_settings(GUILD, 9)
    assert here.channel_rules is None and here.channel_turn_seconds is None
    assert here.turn_seconds == 120 and here.effective.target_score == 150
    assert await count(store, channel_settings) == 0
    # removing a timer override that is the channel's only one removes its row
    await store.set_turn_timer(GUILD, 30, channel_id=9)
    await store.set_turn_timer(GUILD, None, channel_id=9)
    assert await count(store, channel_settings) == 0


async def test_expiry_times_default_to_an_hour_and_a_day_and_are_validated(
    store: Store,
) -> None:
    fresh = await store.guild_settings(GUILD)
    assert (fresh.lobby_timeout, fresh.idle_timeout) == (3600, 86400)
    await store.set_turn_timer(GUILD, 30)  # a row with the defaults
    assert (await store.guild_settings(GUILD)).lobby_timeout == 3600
    await store.set_expiry(GUILD, lobby_timeout=60)
    await store.set_expiry(GUILD, idle_timeout=30 * 86400)
    settings = await store.guild_settings(GUILD, 5)
    assert (settings.lobby_timeout, settings.idle_timeout) == (60, 30 * 86400)
    await store.set_expiry(GUILD, lobby_timeout=7 * 86400, idle_timeout=3600)
    settings = await store.guild_settings(GUILD)
    assert (settings.lobby_timeout, settings.idle_timeout) == (7 * 86400, 3600)
    for bad in (
        {"lobby_timeout": 59},
        {"lobby_timeout": 7 * 86400 + 1},
        {"idle_timeout": 3599},
        {"idle_timeout": 30 * 86400 + 1},
        {"idle_timeout": 7200.0},
        {"lobby_timeout": True},
        {"lobby_timeout": 600, "idle_timeout": 10},  # one bad value: neither is stored
    ):
        with pytest.raises(InvalidSettings):
            await store.set_expiry(GUILD, **bad)
    assert await store.guild_settings(GUILD) == settings
    assert (await store.guild_settings(GUILD + 1)).lobby_timeout == 3600


async def test_a_server_chooses_a_dark_or_light_theme_dark_by_default(store: Store) -> None:
    assert (await store.guild_settings(GUILD)).theme == "dark"
    await store.set_theme(GUILD, "light")
    assert (await store.guild_settings(GUILD, 5)).theme == "light"
    assert (await store.guild_settings(GUILD + 1)).theme == "dark"
    for bad in ("blue", "", "Light", None):
        with pytest.raises(InvalidSettings, match="theme"):
            await store.set_theme(GUILD, bad)  # type: ignore[arg-type]
    assert (await store.guild_settings(GUILD)).theme == "light"
    await store.set_turn_timer(GUILD, 30)  # other settings keep the theme
    assert (await store.guild_settings(GUILD)).theme == "light"


async def test_prefetched_settings_are_exactly_those_read_one_by_one(store: Store) -> None:
    """A process adopting a shard reads every table's settings at once: server rules, a
    channel's own rules and timer, a server without a row, a game without house rules."""
    other = GUILD + 1
    await store.set_house_rules(GUILD, HouseRules(target_score=150))
    await store.set_house_rules(GUILD, HouseRules(target_score=90), channel_id=7)
    await store.set_turn_timer(GUILD, 45, channel_id=8)
    await store.set_expiry(GUILD, lobby_timeout=600)
    await store.set_theme(GUILD, "light")
    await store.set_house_rules(other, {"turn_limit": 60}, game="stackup")
    keys = [
        (GUILD, 7, "stack"),
        (GUILD, 8, "stack"),
        (GUILD, None, "stack"),
        (GUILD, 9, "stackup"),
        (other, 3, "stackup"),
        (other + 1, 4, "stack"),  # a server that never set anything
    ]
    one_by_one = {}
    for key in keys:
        one_by_one[key] = await store.guild_settings(*key)
    store.settings_cache.invalidate()
    async with CountedQueries(store) as queries:
        await store.prefetch_settings(keys)
    assert queries.count <= 3 * 2  # three per game, whatever the number of keys
    async with CountedQueries(store) as queries:
        prefetched = {key: await store.guild_settings(*key) for key in keys}
    assert queries.count == 0
    assert prefetched == one_by_one


class CountedQueries:
    """Counts the statements sent to the store's database while inside."""

    def __init__(self, store: Store) -> None:
        self.engine = store.engine.sync_engine
        self.count = 0

    def _seen(self, *_args: object) -> None:
        self.count += 1

    async def __aenter__(self) -> CountedQueries:
        from sqlalchemy import event

        event.listen(self.engine, "before_cursor_execute", self._seen)
        return self

    async def __aexit__(self, *_exc: object) -> None:
        from sqlalchemy import event

        event.remove(self.engine, "before_cursor_execute", self._seen)


async def test_a_channel_override_stored_as_a_full_copy_keeps_only_what_differs(
    backend: Backend,
) -> None:
    """0012: a channel's row written before it held every rule (a copy of the server's
    with the rule set here); it is narrowed to the rules that differ from the server's
    (or the defaults), so the channel plays what it played and then follows the server's
    changes of the others; the downgrade writes the copy out in full again."""
    async with backend.opened() as store:
        await store.set_house_rules(GUILD, {"target_score": 60, "dice_per_player": 10})
    stack = HouseRules(target_score=60, dice_per_player=10).model_dump(mode="json")
    copies = {  # (guild, channel, game): the row the release before wrote
        (GUILD, 91, "stack"): {**stack, "capture_penalty": True},
        (GUILD, 92, "stackup"): {"turn_limit": 500},  # the default, no server row
        (GUILD + 1, 93, "stack"): {**HouseRules().model_dump(mode="json"), "target_score": 30},
    }
    engine = make_engine(backend.url, **backend.engine_options)
    async with engine.begin() as conn:
        await conn.run_sync(downgrade_to, "0011")
        for (guild, channel, game), rules in copies.items():
            await conn.execute(
                house_rules.insert().values(
                    guild_id=guild, channel_id=channel, game=game, rules=rules,
                    updated_at=datetime(2026, 1, 1, tzinfo=UTC),
                )
            )  # fmt: skip
        await conn.run_sync(migrate, "head")
        rows = await stored_channel_rules(conn)
    await engine.dispose()
    assert rows == {
        (GUILD, 91, "stack"): {"capture_penalty": True},
        (GUILD, 92, "stackup"): {},
        (GUILD + 1, 93, "stack"): {"target_score": 30},
    }
    async with backend.opened() as store:
        here = await store.guild_settings(GUILD, 91)
        assert here.effective == HouseRules(**copies[(GUILD, 91, "stack")])  # as before
        assert here.channel_keys == {"capture_penalty"}
        await store.set_house_rules(GUILD, {"target_score": 60, "dice_per_player": 3})
        here = await store.guild_settings(GUILD, 91)
        assert (here.effective.dice_per_player, here.effective.capture_penalty) == (3, True)
    engine = make_engine(backend.url, **backend.engine_options)
    async with engine.begin() as conn:
        await conn.run_sync(downgrade_to, "0011")
        rows = await stored_channel_rules(conn)
    await engine.dispose()
    assert rows[(GUILD, 91, "stack")] == {**stack, "dice_per_player": 3, "capture_penalty": True}
    assert rows[(GUILD, 92, "stackup")] == {"turn_limit": 500}
    assert rows[(GUILD + 1, 93, "stack")] == copies[(GUILD + 1, 93, "stack")]


async def stored_channel_rules(conn: Any) -> dict[tuple[int, int, str], Any]:
    found = await conn.execute(select(house_rules).where(house_rules.c.channel_id != 0))
    return {(r.guild_id, r.channel_id, r.game): r.rules for r in found}
