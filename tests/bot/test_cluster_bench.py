"""Real bot processes, one SIGKILLed under load (issue 11): ``python -m bot.bench
--processes N`` on a small scale, against the local PostgreSQL and Redis. Each process is
the production host (cluster, tables, service, writer with its lease check); the driver
sends every table's moves to whichever process serves its shard. After the kill the
others (or, alone, a restarted process) take the dead one's shards over, and every
acknowledged move is in the log, none twice, and every table's log replays to its stored
state. Timings are shortened (heartbeat 0.2 s, dead after 1 s) so that the test is quick;
no figure is asserted, only that nothing was lost or doubled and that the take-over
happened. With two processes, one is first paused (SIGSTOP) until the other serves its
shards, then woken with the moves sent to it meanwhile: the fence refuses every one."""

from __future__ import annotations

import argparse
import math
from collections.abc import Iterator

import pytest

from bot import cluster_bench
from tests.services import need_services


@pytest.fixture
def services() -> Iterator[tuple[str, str]]:
    yield need_services()


def bench_args(database: str, redis: str, processes: int) -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    parser.add_argument("--processes", type=int)
    parser.add_argument("--tables", type=int)
    parser.add_argument("--seconds", type=float, default=2.0)
    parser.add_argument("--seed", type=int, default=5)
    parser.add_argument("--rates", default=None)
    cluster_bench.add_driver_options(parser)
    return parser.parse_args(
        [
            f"--processes={processes}",
            "--tables=60",
            f"--database-url={database}",
            f"--redis-url={redis}",
            "--shard-count=4",
            "--rate=60",
            "--kill-seconds=7",
            "--kill-after=1.5",
            "--heartbeat=0.2",
            "--dead-after=1.0",
            "--lease-ttl=4",
            "--boot-grace=1.0",
            "--no-pictures",
            "--dice=2",  # short rounds and games: round and game ends owed, and delivered
            "--target=15",
        ]
    )


@pytest.mark.parametrize("processes", [2, 1])
async def test_a_killed_process_loses_and_doubles_nothing(
    services: tuple[str, str], processes: int, capsys: pytest.CaptureFixture[str]
) -> None:
    result = await cluster_bench.drive(bench_args(*services, processes))
    printed = capsys.readouterr().out
    assert result.acknowledged > 0 and result.rate > 0
    assert result.lost == 0
    assert result.doubled == 0
    assert result.undelivered == 0
    assert math.isfinite(result.takeover_s), printed
    if processes > 1:  # a paused process, woken after its take-over, wrote nothing
        assert result.paused_sent > 0, printed  # it was sent moves while it slept
        assert result.paused_stale == 0, printed
    assert printed.splitlines()[-1] == result.line()
    assert result.line().endswith(f"{result.takeover_s:.1f} s, 0 lost, 0 doubled")
