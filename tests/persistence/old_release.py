"""A database as the release before issue 9 built it, and what that release read from it.

Run by the upgrade tests (:mod:`tests.persistence.test_upgrade`) with that release's
``engine`` and ``persistence`` (``git archive 6006dbb``) first on ``sys.path``, so it uses
only that release's API::

    python old_release.py build URL SCHEMA OUT.json   # play the games, then read
    python old_release.py read URL SCHEMA IDS.json OUT.json   # read again (ids from build)

``SCHEMA`` is the PostgreSQL schema to work in (``-`` for none). The reads are written as
JSON: dataclasses as objects, datetimes in ISO format, settings models as their dumps.
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import random
import sys
from datetime import datetime
from pathlib import Path
from typing import Any

from pydantic import BaseModel

from engine.game import Decision
from engine.stack.ai import RandomPlayer
from engine.stack.rules import HouseRules, seat_teams
from engine.stack.state import StackState
from persistence import Store
from persistence.records import Announcement

GUILD = 1000
OTHER_GUILD = 2000
USERS = (1, 2, 3, 4)


def encode(value: Any) -> Any:
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return {f.name: getattr(value, f.name) for f in dataclasses.fields(value)}
    if isinstance(value, datetime):
        return value.isoformat()
    if isinstance(value, BaseModel):
        return value.model_dump(mode="json")
    raise TypeError(f"cannot encode {value!r}")


def step(state: StackState, rng: random.Random) -> list[Any]:
    move = RandomPlayer().choose(state, rng)
    state.apply(move)
    return [move, *state.resolve_chance(rng)]


async def start(
    store: Store,
    guild: int,
    channel: int,
    users: tuple[int, ...],
    ais: int,
    house: HouseRules,
    seed: int,
) -> tuple[Any, StackState, random.Random]:
    info = await store.create_table(guild, channel, users[0], f"user{users[0]}")
    for user in users[1:]:
        info = await store.join_table(info.id, user, f"user{user}")
    for _ in range(ais):
        info = await store.add_ai(info.id)
    lobby = [s.name for s in info.seats]
    names = seat_teams(lobby) if house.teams else tuple(lobby)
    state = StackState(names, house.for_players(names))
    rng = random.Random(seed)
    opening = state.resolve_chance(rng)
    info = await store.start_table(info.id, [lobby.index(n) for n in names], state, opening)
    return info, state, rng


async def play(
    store: Store, info: Any, state: StackState, rng: random.Random, until: Any = None
) -> int:
    version = info.version
    while state.decision is not Decision.OVER and (until is None or not until(state)):
        version = (await store.record_move(info.id, version, step(state, rng), state)).version
    return version


async def build(store: Store) -> dict[str, Any]:
    await store.set_house_rules(GUILD, {"target_score": 60})
    await store.set_house_rules(GUILD, {"dice_per_player": 10}, channel_id=71)
    await store.set_turn_timer(GUILD, 45)
    await store.set_turn_timer(GUILD, 30, channel_id=72)  # a channel with a timer alone
    await store.set_turn_timer(GUILD, 20, channel_id=71)  # rules and a timer
    await store.set_expiry(GUILD, lobby_timeout=600)
    await store.set_theme(GUILD, "light")
    await store.set_house_rules(OTHER_GUILD, {"capture_penalty": True, "target_score": 80})
    finished = []
    for seed in (4, 6):
        info, state, rng = await start(
            store, GUILD, 70, (1, 2), 1, HouseRules(target_score=60), seed
        )
        await play(store, info, state, rng)
        finished.append(info.id)
    info, state, rng = await start(
        store, GUILD, 74, USERS, 0, HouseRules(teams=True, target_score=40), 9
    )
    await play(store, info, state, rng)
    finished.append(info.id)
    info, state, rng = await start(store, GUILD, 75, (1, 2, 3), 0, HouseRules(target_score=150), 5)
    version = await play(store, info, state, rng, until=lambda s: len(s.round_scores) >= 1)
    leaver = next(s for s in info.seats if s.user_id == 3)
    await store.set_seat_ai(info.id, leaver.position, left=True)
    info = await store.table(info.id)
    assert info.version == version
    await play(store, info, state, rng)
    finished.append(info.id)
    info, state, rng = await start(
        store, OTHER_GUILD, 80, (1, 4), 1, HouseRules(target_score=80), 11
    )
    await play(store, info, state, rng)
    finished.append(info.id)
    # a game in progress, two rounds in (its snapshot compact), owing its channel a message
    live, state, rng = await start(
        store, GUILD, 71, (1, 2), 1, HouseRules(target_score=500, dice_per_player=10), 5
    )
    version = await play(store, live, state, rng, until=lambda s: len(s.round_scores) >= 2)
    live = await store.table(live.id)
    version = (
        await store.record_move(
            live.id,
            version,
            step(state, rng),
            state,
            human=True,
            announcements=[Announcement("message", "the round is on"), Announcement("table")],
        )
    ).version
    assert not state.is_over
    lobby = await store.create_table(GUILD, 72, 7, "waiting")
    ended, estate, erng = await start(store, GUILD, 73, (5, 6), 0, HouseRules(), 3)
    await play(store, ended, estate, erng, until=lambda s: s.round_number >= 1)
    await store.end_table(ended.id)
    return {
        "finished": finished,
        "live": live.id,
        "live_version": version,
        "lobby": lobby.id,
        "ended": ended.id,
    }


async def read(store: Store, ids: dict[str, Any]) -> dict[str, Any]:
    live = await store.load_table(ids["live"])
    assert live.state is not None
    return {
        "ids": ids,
        "history": {str(c): await store.history(c) for c in (70, 71, 74, 75, 80)},
        "leaderboard": {
            f"{guild}/{by}": await store.leaderboard(guild, by=by)
            for guild in (GUILD, OTHER_GUILD)
            for by in ("wins", "points")
        },
        "stats": {
            f"{guild}/{user}": await store.stats(guild, user)
            for guild in (GUILD, OTHER_GUILD)
            for user in (*USERS, 5, 6, 7)
        },
        "sheets": {str(t): await store.score_sheet(t) for t in (*ids["finished"], ids["live"])},
        "settings": {  # each server's own channels (a channel's override is its server's)
            f"{guild}/{channel}": await store.guild_settings(guild, channel)
            for guild, channels in ((GUILD, (None, 70, 71, 72)), (OTHER_GUILD, (None, 80)))
            for channel in channels
        },
        "records": {
            str(t): await store.export_record(t) for t in (ids["finished"][0], ids["live"])
        },
        "live_state": live.state.to_dict(full_history=False),
        "live_info": live.info,
        "outbox": await store.pending_outbox(),
        "active": sorted(t.info.id for t in await store.load_active_tables()),
    }


async def main(argv: list[str]) -> None:
    mode, url, schema = argv[:3]
    options = {}
    if schema != "-":
        options = {"connect_args": {"server_settings": {"search_path": schema}}}
    store = await Store.open(url, **options)
    try:
        if mode == "build":
            out = Path(argv[3])
            result = await read(store, await build(store))
        else:
            ids = json.loads(Path(argv[3]).read_text())
            out = Path(argv[4])
            result = await read(store, ids)
    finally:
        await store.close()
    out.write_text(json.dumps(result, default=encode, sort_keys=True))


if __name__ == "__main__":
    import persistence

    where = Path(persistence.__file__).resolve().parents[1]
    if where != Path(__file__).resolve().parent:
        raise SystemExit(f"old_release.py must run beside the release's code, not {where}")
    asyncio.run(main(sys.argv[1:]))
