"""The harness itself: what a test's simulated crashes leave behind is closed once the
test is over, as the operating system closes what a crashed process held."""

from __future__ import annotations

import threading

from tests.bot.conftest import World, close_made_bots, make_bot


def sqlite_connections() -> set[threading.Thread]:
    """The open SQLite connections: aiosqlite runs each on a thread of its own."""
    return {t for t in threading.enumerate() if "_connection_worker" in t.name}


async def test_the_bots_a_test_crashed_close_their_database_connections(world: World) -> None:
    before = sqlite_connections()  # the live bot's (and any other test left)
    for _ in range(3):
        crashed_into = make_bot(world.db, seed=99)
        await world.env.restart_bot(crashed_into)
        world.bot = crashed_into
    opened = sqlite_connections() - before
    assert len(opened) >= 3  # at least the kept connection of each bot started here
    await close_made_bots()
    for thread in opened:  # a closed connection's thread ends just after
        thread.join(timeout=60)
    assert not opened & sqlite_connections()
