"""Building and playing tables through the storage API."""

from __future__ import annotations

import random
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from typing import Any

from alembic.runtime.environment import EnvironmentContext
from sqlalchemy import Connection, func, inspect, select, text

from engine.game import Decision
from engine.stack.ai import RandomPlayer
from engine.stack.moves import Move
from engine.stack.record import export_record
from engine.stack.rules import HouseRules
from engine.stack.state import StackState
from persistence import Store
from persistence.migrate import alembic_config, script_directory
from persistence.records import Announcement, TableInfo
from persistence.schema import metadata

GUILD = 1000
TABLE = Announcement("table")


async def started_table(
    store: Store,
    channel: int,
    *,
    humans: int = 2,
    ais: int = 1,
    levels: Sequence[str] | None = None,
    seed: int = 1,
    rules: HouseRules | None = None,
    guild: int = GUILD,
) -> tuple[TableInfo, StackState, random.Random]:
    """A table in ``channel`` (of ``guild``) with users 1..humans and AI seats (``ais`` of
    the default level, or one of each of ``levels``), started."""
    info = await store.create_table(guild, channel, 1, "user1")
    for user in range(2, humans + 1):
        info = await store.join_table(info.id, user, f"user{user}")
    if levels is None:
        for _ in range(ais):
            info = await store.add_ai(info.id)
    for level in levels or ():
        info = await store.add_ai(info.id, level)
    names = tuple(s.name for s in info.seats)
    game_rules = (rules or HouseRules()).for_players(names)
    state = StackState(names, game_rules)
    rng = random.Random(seed)
    opening = state.resolve_chance(rng)
    info = await store.start_table(info.id, range(len(names)), state, opening)
    return info, state, rng


def next_step(state: StackState, rng: random.Random) -> list[Move]:
    """Play one decision (random) and the dice it leads to, on ``state``."""
    move = RandomPlayer().choose(state, rng)
    state.apply(move)
    return [move, *state.resolve_chance(rng)]


def placed_counts(state: StackState) -> list[list[int]]:
    """Per seat, the dice it placed on a pile in the game, per face:
    ``counts[seat][face - 1]``, read from the game's record (an oracle apart from the
    storage's own count): a stack places the die's face; a reroll places the rolled face
    when the record names a pile for it (not when the die came back unstacked)."""
    record = export_record(state)
    seat_of = {name: seat for seat, name in enumerate(record["players"])}
    counts = [[0] * 6 for _ in record["players"]]
    for rnd in record["rounds"]:
        for turn in rnd["turns"]:
            if "stack" in turn:
                counts[seat_of[turn["player"]]][turn["stack"] - 1] += 1
            elif "on" in turn:
                counts[seat_of[turn["player"]]][turn["rolled"] - 1] += 1
    return counts


async def play_moves(
    store: Store, info: TableInfo, state: StackState, rng: random.Random, count: int
) -> int:
    """Record up to ``count`` steps; returns the table's version."""
    version = info.version
    for _ in range(count):
        if state.decision is Decision.OVER:
            break
        step = next_step(state, rng)
        version = (await store.record_move(info.id, version, step, state)).version
    return version


async def up_to_the_last_move(
    store: Store, info: TableInfo, state: StackState, rng: random.Random
) -> tuple[int, list[Move], StackState]:
    """Record every step of the game but the one that ends it; returns the table's version,
    that last step, and the state after it (recorded: nothing of it)."""
    version = info.version
    while True:
        probe = state.copy()
        step = next_step(probe, rng)
        if probe.is_over:
            return version, step, probe
        version = (await store.record_move(info.id, version, step, probe)).version
        state = probe


async def count(store: Store, table: object) -> int:
    """How many rows ``table`` holds."""
    async with store.engine.connect() as conn:
        query = select(func.count()).select_from(table)  # type: ignore[arg-type]
        return int((await conn.execute(query)).scalar_one())


@asynccontextmanager
async def refusing_inserts(store: Store, table: str) -> AsyncIterator[None]:
    """While inside, the database itself refuses every insert into ``table`` (a trigger
    that raises): a write failing in the middle of its transaction."""
    trigger = f"refuse_{table}"
    async with store.engine.begin() as conn:
        if store.engine.dialect.name == "sqlite":
            await conn.execute(
                text(
                    f"CREATE TRIGGER {trigger} BEFORE INSERT ON {table} "
                    "BEGIN SELECT RAISE(ABORT, 'disk on fire'); END"
                )
            )
        else:
            await conn.execute(
                text(
                    "CREATE OR REPLACE FUNCTION refuse_insert() RETURNS trigger AS $$ "
                    "BEGIN RAISE EXCEPTION 'disk on fire'; END $$ LANGUAGE plpgsql"
                )
            )
            await conn.execute(
                text(
                    f"CREATE TRIGGER {trigger} BEFORE INSERT ON {table} "
                    "FOR EACH ROW EXECUTE FUNCTION refuse_insert()"
                )
            )
    try:
        yield
    finally:
        on = "" if store.engine.dialect.name == "sqlite" else f" ON {table}"
        async with store.engine.begin() as conn:
            await conn.execute(text(f"DROP TRIGGER {trigger}{on}"))


def downgrade_to(connection: Connection, target: str) -> None:
    """Take the database down to revision ``target`` (its migrations' downgrades)."""
    migrate(connection, target, down=True)


def migrate(connection: Connection, target: str, *, down: bool = False) -> None:
    """Run the migrations from the database's revision up (or ``down``) to ``target``."""
    script = script_directory()

    def steps(rev: Any, context: Any) -> Any:
        if down:
            return script._downgrade_revs(target, rev)
        return script._upgrade_revs(target, rev)

    with EnvironmentContext(alembic_config(), script, fn=steps, destination_rev=target) as env:
        env.configure(connection=connection, target_metadata=metadata)
        with env.begin_transaction():
            env.run_migrations()


def column_names(connection: Connection, table: str) -> set[str]:
    """The names of ``table``'s columns as the database has them."""
    return {column["name"] for column in inspect(connection).get_columns(table)}
