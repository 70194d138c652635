"""A process's health (issue 11): the report every minute's log line and ``GET /health``
give — status, shards, tables, move latencies, loop lag, gateway latency — served over
HTTP with 200 when the process serves what it holds and 503 otherwise."""

from __future__ import annotations

import json
import socket
from pathlib import Path
from typing import Any

import aiohttp
import pytest

from bot.health import Health
from bot.timings import Timings
from bot.webfront import ListenRefused
from tests.bot.conftest import make_bot


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


async def get(port: int) -> tuple[int, dict[str, Any]]:
    """``GET /health``: the status and the JSON report."""
    async with (
        aiohttp.ClientSession() as session,
        session.get(f"http://127.0.0.1:{port}/health") as answer,
    ):
        return answer.status, json.loads(await answer.text())


def test_timings_give_the_last_minutes_p50_and_p99() -> None:
    timings = Timings()
    assert timings.summary() == {"count": 0}
    for ms in range(1, 101):
        timings.add(ms / 1000)
    summary = timings.summary()
    assert summary["count"] == 100
    assert 49 <= summary["p50_ms"] <= 51 and 98 <= summary["p99_ms"] <= 100


class FakeCluster:
    """What the report reads of a cluster."""

    def __init__(self, held: set[int], ready: set[int], redis_ok: bool = True) -> None:
        self.held, self.ready, self.redis_ok = frozenset(held), set(ready), redis_ok

    def lag_ms(self) -> float:
        return 12.5

    def health(self) -> dict[str, Any]:
        return {
            "node": "n1",
            "shard_count": 8,
            "home": "0-3",
            "serving": "0-3",
            "redis": self.redis_ok,
        }


async def test_a_health_port_in_use_is_said_by_its_setting_not_as_discord(tmp_path: Path) -> None:
    bot = make_bot(tmp_path / "bot.db")
    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        port = taken.getsockname()[1]
        health = Health(bot, port, "127.0.0.1")
        try:
            with pytest.raises(ListenRefused, match=f"cannot listen on HEALTH_PORT={port} "):
                await health.start()
        finally:
            await health.stop()
            await bot.close()


async def test_the_endpoint_says_ok_or_why_not(tmp_path: Path) -> None:
    bot = make_bot(tmp_path / "bot.db")
    port = free_port()
    health = Health(bot, port, "127.0.0.1")
    assert health.status() == "starting"  # no tables yet
    await health.start()
    try:
        status, report = await get(port)
        assert status == 503
        assert report["status"] == "starting" and report["shards"] == "all (one process)"
        await bot.setup_hook()  # the database opened, the tables loaded
        status, report = await get(port)
        assert status == 200
        assert report["status"] == "ok" and report["tables"] == 0
        assert report["moves"] == {"count": 0}
        line = health.line()
        assert line.startswith("health: ok shards=all tables=0 moves/min=0 move_p99=-")
        bot.cluster = FakeCluster({0, 1, 2, 3}, {0, 1})  # type: ignore[assignment]
        assert health.status() == "starting"  # two shards held are not served yet
        bot.cluster = FakeCluster({0, 1, 2, 3}, {0, 1, 2, 3}, redis_ok=False)  # type: ignore[assignment]
        assert health.status() == "degraded"
        bot.cluster = FakeCluster({0, 1, 2, 3}, {0, 1, 2, 3})  # type: ignore[assignment]
        assert health.status() == "ok"
        assert "shards=0-3/8 (home 0-3) node=n1" in health.line()
        assert health.report()["loop_lag_ms"] == 12.5
        bot.tables.accepting = False
        assert health.status() == "stopping"
    finally:
        await health.stop()
        await bot.close()


async def test_a_process_of_several_names_its_home_shards_before_it_has_joined(
    tmp_path: Path,
) -> None:
    """Before a process of several has joined (its database opening, no lease claimed
    yet), its report and log line name its node and home shards, serving none: not
    ``shards=all``, which says a process alone (its first line at start-up said so)."""
    from bot.client import StackBot
    from bot.config import Settings
    from host.cluster import ClusterConfig

    config = ClusterConfig(8, frozenset({0, 1, 2, 3}), "redis://127.0.0.1:1/0", name="s0")
    bot = StackBot(  # what the report reads of a ShardedStackBot: its cluster's settings
        Settings(database_url=f"sqlite+aiosqlite:///{tmp_path / 'bot.db'}", discord_token=None),
        cluster=config,
        handle_signals=False,
        pictures="thread",
    )
    health = Health(bot, None)
    try:
        report = health.report()
        assert report["status"] == "starting" and "shards" not in report
        assert (report["shard_count"], report["home"], report["serving"]) == (8, "0-3", "none")
        assert health.line().startswith(
            f"health: starting shards=none/8 (home 0-3) node={bot.node} "
        )
    finally:
        await bot.close()
