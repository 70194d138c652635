"""``python -m bot.bench --processes N``: N bot processes sharing PostgreSQL and Redis,
4,000 tables, open loop; then one process SIGKILLed under load.

Each process is the production host of one process of several — :class:`~host.cluster.
Cluster` (leases in PostgreSQL, heartbeats in Redis), :class:`~bot.tables.Tables` and
:class:`~host.service.TableService` (the handlers, the group-commit writer with its lease
check, the table messages edited and coalesced, pictures drawn in its painter process,
one turn clock per table, the outbox) — with Discord replaced by a stand-in: the gateway
is this driver, which sends each table's moves, as interactions would arrive, to the
process serving the table's shard (found in the cluster's registry in Redis, as Discord
routes a guild's events to the session that identified its shard), and channels answer at
once (:class:`bot.bench_kit.BenchBot`). A move is a random legal move of the player to move,
chosen by the process and played through ``TableService.move`` with a unique interaction
id; the driver counts it acknowledged when the answer comes back (after its commit).

Runs, on a fresh PostgreSQL schema and Redis key prefix (dropped afterwards):

1. every table opened (lobby, join, start) through the processes serving it;
2. the steady run: ``--rate`` moves/s offered for ``--seconds`` (exponential gaps per
   table, a table's moves one at a time): moves/s achieved and p50/p99 from a move's
   arrival to its answer;
3. with ``--max``: the highest offered rate of ``--rates`` whose p99 stays within 250 ms;
4. the pause (two processes or more): the same load, the first process paused (SIGSTOP)
   after ``--kill-after`` seconds, as a stalled or cut-off process would be; once the
   others serve its shards it runs again (SIGCONT) with the moves sent to it meanwhile:
   each must be refused by the fence (none written), and its home shards come back to it;
5. the kill: the same load, the last process SIGKILLed after ``--kill-after`` seconds.
   Moves sent to it that got no answer are sent again, with the same interaction id, to
   whichever process serves the shard next. Take-over: from the kill until every shard it
   served is served again (by the cluster's registry: tables loaded, timers and owed
   messages resumed; a real bot then also connects each gateway shard). With one process,
   a fresh process is started after the kill (as a restart policy would) and takes over;
6. the check: lost — acknowledged moves missing from the log; doubled — interactions
   logged twice, logs with gaps or repeats, tables whose log does not replay to their
   stored state; announcements (outbox rows) left undelivered.

The last line: ``N processes: M moves/s, p99 X ms; take-over Y s, L lost, D doubled`` (M
and X from the steady run).

What it skips, plainly: Discord (no network latency, no rate limits, no interaction
tokens), discord.py's client with the command and button handlers (the driver calls the
table service, as those handlers do), the gateway connections (the driver routes moves
itself; a real process connects each gateway shard it takes over, 5 s apart) and the
SIGTERM hand-over; its driver runs on the same machine, taking CPU the processes would
otherwise have.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import itertools
import json
import logging
import os
import random
import secrets
import signal
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

DEFAULT_DATABASE = "postgresql+asyncpg://postgres@127.0.0.1:5432/test"
DEFAULT_REDIS = "redis://127.0.0.1:6379/0"
TARGET_P99_MS = 250.0
PROCESS_RATES = [500.0, 1000.0, 1500.0, 2000.0, 2500.0, 3000.0, 4000.0]
log = logging.getLogger("bench")


# ====================================================================== the process


class NodeHost:
    """A bench process's shard host: its tables, and the port its stand-in gateway
    listens on (published with its heartbeat, where the driver finds it)."""

    def __init__(self, tables: Any, port: int) -> None:
        self.tables = tables
        self.port = port
        self.moves = 0  # moves committed here
        self.fenced = 0  # moves refused at their commit: the shard is another's now

    async def adopt(self, shard_count: int, shards: frozenset[int]) -> None:
        await self.tables.adopt(shard_count, shards)

    async def release(self, shard_count: int, shards: frozenset[int]) -> None:
        await self.tables.release(shard_count, shards)

    async def drop(self, shard_count: int, shards: frozenset[int]) -> None:
        await self.tables.drop(shard_count, shards)

    def health(self) -> dict[str, Any]:
        return {**self.tables.health(), "port": self.port, "moves": self.moves}


class Node:
    """One bot process of the bench: the production host behind a stand-in gateway."""

    def __init__(self, args: argparse.Namespace) -> None:
        self.args = args
        self.rng = random.Random(args.seed)

    async def run(self) -> None:
        from bot.bench_kit import BenchBot
        from bot.tables import Tables
        from engine.stack.ai import RandomPlayer
        from host.cluster import Cluster, ClusterConfig, node_id, parse_shards
        from persistence import Store
        from pictures.painter import Painter

        args = self.args
        node = node_id(args.name)
        store = await Store.open(
            args.database_url,
            application_name=node,
            connect_args={"server_settings": {"search_path": args.schema}},
        )
        self.tables = Tables(
            BenchBot(),  # type: ignore[arg-type]
            store,
            seed=args.seed,
            painter=Painter("process"),
        )
        self.tables.draw_pictures = args.pictures
        self.service = self.tables.service
        self.player = RandomPlayer()
        config = ClusterConfig(
            args.shard_count,
            parse_shards(args.shards, args.shard_count),
            args.redis_url,
            prefix=args.prefix,
            name=args.name,
            heartbeat=args.heartbeat,
            dead_after=args.dead_after,
            lease_ttl=args.lease_ttl,
            boot_grace=args.boot_grace,
        )
        self.cluster = Cluster(store, config, node=node)
        self.tables.use_cluster(self.cluster)
        server = await asyncio.start_server(self._serve, "127.0.0.1", 0)
        port = server.sockets[0].getsockname()[1]
        self.host = NodeHost(self.tables, port)
        await self.cluster.start(self.host)
        stop = asyncio.Event()
        loop = asyncio.get_running_loop()
        for sig in (signal.SIGTERM, signal.SIGINT):
            loop.add_signal_handler(sig, stop.set)
        print(f"ready {self.cluster.node} port {port}", flush=True)
        await stop.wait()
        server.close()
        self.tables.accepting = False
        await self.cluster.stop()
        await self.tables.drain()
        await store.close()

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        tasks: set[asyncio.Task[None]] = set()

        async def answer(request: dict[str, Any]) -> None:
            try:
                reply = await self.handle(request)
            except Exception as err:  # reported to the driver, which counts it
                log.exception("request %s failed", request)
                reply = {"s": "error", "why": repr(err)[:200]}
            reply["id"] = request["id"]
            writer.write(json.dumps(reply).encode() + b"\n")

        with contextlib.suppress(ConnectionError, asyncio.IncompleteReadError):
            while line := await reader.readline():
                task = asyncio.get_running_loop().create_task(answer(json.loads(line)))
                tasks.add(task)
                task.add_done_callback(tasks.discard)
                if len(tasks) % 64 == 0:
                    await writer.drain()
        writer.close()

    async def handle(self, request: dict[str, Any]) -> dict[str, Any]:
        """``open`` a table in a channel, or ``move``: the player to move plays a random
        legal move, with the request's interaction id."""
        from host.refusals import Refusal, Why
        from host.service import Player

        if request["op"] == "stats":
            return {"s": "ok", "moves": self.host.moves, "fenced": self.host.fenced}
        if request["op"] == "settle":  # the tables are open: long-lived, as after a start
            gc.collect()
            gc.freeze()
            return {"s": "ok"}
        channel, guild = int(request["c"]), int(request["g"])
        if self.tables.admits(guild) is not None:
            return {"s": "moved", "by": "process"}
        try:
            live = self.service.by_channel.get(channel)
            if request["op"] == "open" or live is None or live.state is None:
                await self.open_table(guild, channel, request.get("o") or {})
                return {"s": "opened"}
            async with live.lock:
                state = live.state
                seat = None if state is None or state.is_over else state.current_player
                user = None if seat is None else live.user_at(seat)
                move = None if user is None else self.player.choose(state, self.rng)  # type: ignore[arg-type]
                name = "" if seat is None or state is None else state.players[seat]
            if user is None or move is None:
                return {"s": "busy"}
            outcome = await self.service.move(
                channel, Player(user, name), move=move, interaction_id=str(request["i"])
            )
        except Refusal as refusal:
            if refusal.code is Why.MOVED_AWAY:  # at its commit, or queued behind a hand-over
                self.host.fenced += 1
                return {"s": "moved", "by": "fence"}
            return {"s": "refused", "why": str(refusal)}
        self.tables.committed(outcome)
        if outcome.duplicate:
            return {"s": "dup", "v": outcome.table.version}
        self.host.moves += 1
        return {"s": "ok", "v": outcome.table.version}

    async def open_table(self, guild: int, channel: int, options: dict[str, Any]) -> None:
        from host.service import Player

        alice, bob = Player(channel * 2, f"a{channel}"), Player(channel * 2 + 1, f"b{channel}")
        if channel not in self.service.by_channel:
            self.tables.refresh(await self.service.new_table(guild, channel, alice, options))
        live = self.service.by_channel[channel]
        if live.info.seat_of(bob.id) is None:
            self.tables.refresh(await self.service.join(channel, bob))
        self.tables.committed(await self.service.start(channel, alice))


# ====================================================================== the driver


@dataclass
class Link:
    """The driver's connection to one process (its stand-in gateway session)."""

    node: str
    port: int
    reader: asyncio.StreamReader
    writer: asyncio.StreamWriter
    pending: dict[int, asyncio.Future[dict[str, Any]]] = field(default_factory=dict)
    ids: itertools.count[int] = field(default_factory=itertools.count)
    alive: bool = True
    task: asyncio.Task[None] | None = None
    # requests given up on (sent at); with ``watch``, every answer (sent at, status),
    # late ones (to requests given up on) too
    abandoned: dict[int, float] = field(default_factory=dict)
    watch: bool = False
    answers: list[tuple[float, str]] = field(default_factory=list)  # "ok", "moved/fence"...

    async def request(self, body: dict[str, Any], timeout: float | None = None) -> dict[str, Any]:
        """The process's answer; ``TimeoutError`` when none comes in ``timeout`` seconds
        (a paused process: the request is sent again elsewhere, under the same id)."""
        if not self.alive:
            raise ConnectionError(f"{self.node} is gone")
        rid = next(self.ids)
        future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self.pending[rid] = future
        sent = time.perf_counter()
        self.writer.write(json.dumps({**body, "id": rid}).encode() + b"\n")
        try:
            reply = await asyncio.wait_for(future, timeout)
        except TimeoutError:
            self.abandoned[rid] = sent
            raise
        finally:
            self.pending.pop(rid, None)
        if self.watch:
            self.answers.append((sent, answer_of(reply)))
        return reply

    async def read(self) -> None:
        try:
            while line := await self.reader.readline():
                reply = json.loads(line)
                future = self.pending.pop(reply["id"], None)
                if future is not None and not future.done():
                    future.set_result(reply)
                elif reply["id"] in self.abandoned:
                    sent = self.abandoned.pop(reply["id"])
                    if self.watch:
                        self.answers.append((sent, answer_of(reply)))
        except (ConnectionError, asyncio.IncompleteReadError):
            pass
        finally:
            self.alive = False
            for future in self.pending.values():
                if not future.done():
                    future.set_exception(ConnectionError(f"{self.node} is gone"))
            self.pending.clear()


def answer_of(reply: dict[str, Any]) -> str:
    """``ok``, ``dup``, ``moved/fence`` (refused at its commit: the lease is another's),
    ``moved/process`` (refused first: the process saw the shard go), ``refused``..."""
    by = reply.get("by")
    return f"{reply['s']}/{by}" if by else str(reply["s"])


class Router:
    """Which process serves which shard, from the cluster's registry in Redis (the
    processes' heartbeats), and a connection to each."""

    def __init__(self, redis: Any, prefix: str, shard_count: int) -> None:
        self.redis = redis
        self.key = f"{prefix}:nodes"
        self.shard_count = shard_count
        self.routes: dict[int, Link] = {}
        self.links: dict[str, Link] = {}
        self.dead: set[str] = set()
        self.ready: dict[str, set[int]] = {}
        self.beats: dict[str, tuple[int, float]] = {}  # node -> (beat, when it last moved)
        self._refreshing: asyncio.Task[None] | None = None
        self._last = 0.0

    async def refresh(self) -> None:
        raw = await self.redis.hgetall(self.key)
        now = time.perf_counter()
        routes: dict[int, Link] = {}
        fresh: dict[int, float] = {}  # shard -> when its process's heartbeat last moved
        ready: dict[str, set[int]] = {}
        for key, value in raw.items():
            node = key.decode()
            entry = json.loads(value)
            if node in self.dead or "port" not in entry:
                continue
            beat = int(entry.get("beat", 0))
            before = self.beats.get(node)
            moved = now if before is None or before[0] != beat else before[1]
            self.beats[node] = (beat, moved)
            ready[node] = {int(s) for s in entry.get("ready", ())}
            link = self.links.get(node)
            if link is None or not link.alive:
                try:
                    reader, writer = await asyncio.open_connection("127.0.0.1", int(entry["port"]))
                except OSError:
                    continue
                if link is not None and link.task is not None:  # the one it replaces
                    link.task.cancel()
                link = Link(node, int(entry["port"]), reader, writer)
                link.task = asyncio.get_running_loop().create_task(link.read())
                self.links[node] = link
            for shard in ready[node]:
                # a process that stopped (paused) still says it serves its shards: the one
                # whose heartbeat moved last gets them, as Discord's newest session would
                if shard not in routes or moved > fresh[shard]:
                    routes[shard] = link
                    fresh[shard] = moved
        self.routes = routes
        self.ready = ready
        self._last = time.perf_counter()

    async def link_for(self, shard: int, deadline: float) -> Link:
        while True:
            link = self.routes.get(shard)
            if link is not None and link.alive:
                return link
            if time.perf_counter() > deadline:
                raise TimeoutError(f"no process serves shard {shard}")
            await self.refresh_soon()
            await asyncio.sleep(0.02)

    async def refresh_soon(self) -> None:
        """One registry read for everyone waiting (at most every 50 ms)."""
        if self._refreshing is None or self._refreshing.done():
            wait = max(0.0, 0.05 - (time.perf_counter() - self._last))

            async def again() -> None:
                await asyncio.sleep(wait)
                await self.refresh()

            self._refreshing = asyncio.get_running_loop().create_task(again())
        await asyncio.shield(self._refreshing)

    def forget(self, link: Link) -> None:
        link.alive = False
        for shard in [s for s, lk in self.routes.items() if lk is link]:
            del self.routes[shard]

    async def close(self) -> None:
        for link in self.links.values():
            link.writer.close()
            if link.task is not None:
                link.task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await link.task
        if self._refreshing is not None and not self._refreshing.done():
            self._refreshing.cancel()


@dataclass
class BenchResult:
    """What ``python -m bot.bench --processes N`` measured (the kill's figures are NaN
    and ``None`` without a kill)."""

    processes: int
    rate: float  # moves/s achieved in the steady run
    p99_ms: float
    takeover_s: float = float("nan")
    lost: int | None = None
    doubled: int | None = None
    acknowledged: int = 0
    undelivered: int | None = None  # announcements owed and not delivered at the end
    paused_stale: int | None = None  # moves a paused process wrote after its take-over
    paused_sent: int = 0  # moves sent to the paused process while it slept

    def line(self) -> str:
        label = "process" if self.processes == 1 else "processes"
        head = f"{self.processes} {label}: {self.rate:,.0f} moves/s, p99 {self.p99_ms:.0f} ms"
        if self.lost is None:
            return head
        return (
            f"{head}; take-over {self.takeover_s:.1f} s, {self.lost} lost, {self.doubled} doubled"
        )


@dataclass
class RunFigures:
    seconds: float
    moves: int
    latencies: list[float]
    refused: int
    errors: int
    opened: int

    @property
    def rate(self) -> float:
        return self.moves / self.seconds if self.seconds else 0.0

    def pct(self, q: int) -> float:
        v = self.latencies
        return statistics.quantiles(v, n=100)[q - 1] * 1000 if len(v) > 1 else 0.0


class Driver:
    """The load: tables, their moves, the processes, the kill."""

    def __init__(self, args: argparse.Namespace) -> None:
        self.args = args
        self.rng = random.Random(args.seed)
        self.tag = secrets.token_hex(4)
        self.schema = f"bench_{self.tag}"
        self.prefix = f"stackbot-bench-{self.tag}"
        self.folder = Path(tempfile.mkdtemp(prefix="stackbot-clusterbench-"))
        self.procs: list[tuple[str, subprocess.Popen[bytes]]] = []
        count = args.shard_count
        guilds = max(count, args.tables // 10)
        self.guild_of = {t: ((t % guilds) << 22) | 1 for t in range(args.tables)}
        self.shard_of = {t: (self.guild_of[t] >> 22) % count for t in range(args.tables)}
        self.channel_of = {t: 100_000 + t for t in range(args.tables)}
        self.acked: dict[str, str] = {}  # interaction id -> "ok" or "dup"
        self.served_at: dict[int, float] = {}  # shard -> first move answered after a kill
        self.iids = itertools.count()
        self.killed_at: float | None = None
        self.options: dict[str, int] = {"dice_per_player": args.dice, "target_score": args.target}
        # a move unanswered this long is sent again (to whoever serves its shard then)
        self.request_timeout = max(5.0, 2 * args.dead_after)

    # ------------------------------------------------------------ processes

    def homes(self, processes: int) -> list[str]:
        count = self.args.shard_count
        per, extra = divmod(count, processes)
        out, start = [], 0
        for i in range(processes):
            n = per + (1 if i < extra else 0)
            out.append(f"{start}-{start + n - 1}" if n else "none")
            start += n
        return out

    def spawn(self, name: str, shards: str) -> subprocess.Popen[bytes]:
        a = self.args
        cmd = [
            sys.executable,
            "-m",
            "bot.cluster_bench",
            "node",
            "--database-url",
            a.database_url,
            "--schema",
            self.schema,
            "--redis-url",
            a.redis_url,
            "--prefix",
            self.prefix,
            "--shard-count",
            str(a.shard_count),
            "--shards",
            shards,
            "--name",
            name,
            "--seed",
            str(a.seed + len(self.procs)),
            "--heartbeat",
            str(a.heartbeat),
            "--dead-after",
            str(a.dead_after),
            "--lease-ttl",
            str(a.lease_ttl),
            "--boot-grace",
            str(a.boot_grace),
        ]
        if a.cluster_pictures:
            cmd.append("--pictures")
        out = open(self.folder / f"{name}.log", "wb")  # noqa: SIM115 - kept open for the child
        proc = subprocess.Popen(cmd, stdout=out, stderr=subprocess.STDOUT)
        self.procs.append((name, proc))
        return proc

    async def wait_ready(self, router: Router, shards: set[int], seconds: float = 120.0) -> None:
        deadline = time.perf_counter() + seconds
        while True:
            await router.refresh()
            if shards <= set(router.routes):
                return
            for name, proc in self.procs:
                if proc.poll() is not None and proc.returncode not in (-9, 0):
                    raise RuntimeError(f"process {name} exited: see {self.folder / name}.log")
            if time.perf_counter() > deadline:
                raise TimeoutError(f"shards not served: {sorted(shards - set(router.routes))}")
            await asyncio.sleep(0.1)

    async def heartbeat_lag(self, router: Router) -> float:
        """The worst lateness of the processes' heartbeats over the last minute, ms."""
        raw = await router.redis.hgetall(router.key)
        return max((float(json.loads(v).get("lag_ms", 0.0)) for v in raw.values()), default=0.0)

    def cpu_seconds(self) -> float:
        """CPU time of the processes so far (Linux /proc), or 0 elsewhere."""
        total = 0.0
        tick = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100
        for _name, proc in self.procs:
            with contextlib.suppress(OSError, ValueError, IndexError):
                fields = Path(f"/proc/{proc.pid}/stat").read_text().rsplit(")", 1)[1].split()
                total += (int(fields[11]) + int(fields[12])) / tick
        return total

    # ------------------------------------------------------------ load

    async def send(
        self, router: Router, table: int, op: str, iid: str | None, deadline: float
    ) -> dict[str, Any]:
        """Send a table's request to the process serving its shard, again (same id)
        wherever it is served next if the process is gone or gave the shard up."""
        body = {
            "op": op,
            "c": self.channel_of[table],
            "g": self.guild_of[table],
            "i": iid,
            "o": self.options,
        }
        shard = self.shard_of[table]
        while True:
            link = await router.link_for(shard, deadline)
            try:
                reply = await link.request(body, self.request_timeout)
            except ConnectionError:
                router.forget(link)
                continue
            except TimeoutError:  # no answer (a paused process): ask the registry again
                router.routes.pop(shard, None)
                await router.refresh_soon()
                continue
            if reply["s"] == "moved":  # given up, or not yet adopted: look again
                router.routes.pop(shard, None)
                await asyncio.sleep(0.02)
                continue
            return reply

    async def open_all(self, router: Router) -> None:
        deadline = time.perf_counter() + 600
        gate = asyncio.Semaphore(200)

        async def one(table: int) -> None:
            async with gate:
                await self.send(router, table, "open", None, deadline)

        await asyncio.gather(*(one(t) for t in range(self.args.tables)))

    async def open_loop(
        self, router: Router, rate: float, seconds: float, *, during: Any = None
    ) -> RunFigures:
        """Moves arrive at ``rate`` per second in all (exponential gaps per table), for
        ``seconds``; then the moves still under way are waited for."""
        from bot.bench_kit import arrive

        tables = self.args.tables
        mean_gap = tables / rate
        latencies: list[float] = []
        counts: defaultdict[str, int] = defaultdict(int)
        start = time.perf_counter()
        stop = start + seconds

        async def table(t: int) -> None:
            arrivals: asyncio.Queue[float] = asyncio.Queue()

            async def worker() -> None:
                while (at := await arrivals.get()) >= 0:
                    iid = f"{self.tag[:4]}{next(self.iids):x}"
                    sent = time.perf_counter()
                    try:
                        reply = await self.send(router, t, "move", iid, stop + 120)
                    except TimeoutError:
                        counts["errors"] += 1
                        continue
                    status = reply["s"]
                    if status in ("ok", "dup"):
                        self.acked[iid] = status
                        latencies.append(time.perf_counter() - at)
                        counts["moves"] += 1
                        shard = self.shard_of[t]
                        after_kill = self.killed_at is not None and sent > self.killed_at
                        if after_kill and shard not in self.served_at:
                            self.served_at[shard] = time.perf_counter()
                    elif status == "opened":
                        counts["opened"] += 1
                    elif status == "error":
                        counts["errors"] += 1
                    else:
                        counts["refused"] += 1

            task = asyncio.get_running_loop().create_task(worker())
            await arrive(arrivals, self.rng, mean_gap, stop)
            await task

        work = [table(t) for t in range(tables)]
        if during is not None:
            work.append(during)
        await asyncio.gather(*work)
        elapsed = min(time.perf_counter(), stop + 1e-9) - start
        return RunFigures(
            max(elapsed, seconds),
            counts["moves"],
            latencies,
            counts["refused"],
            counts["errors"],
            counts["opened"],
        )

    # ------------------------------------------------------------ checking

    async def check(self, store: Any) -> tuple[int, int, dict[str, int]]:
        """Lost acknowledged moves, and doubled ones (interactions logged twice, logs
        with gaps or repeats, tables whose log does not replay to their stored state)."""
        from sqlalchemy import func, select

        from engine import games
        from persistence.schema import moves, tables

        acked = list(self.acked)
        found: set[str] = set()
        async with store.engine.connect() as conn:
            for i in range(0, len(acked), 5000):
                rows = await conn.execute(
                    select(moves.c.interaction_id).where(
                        moves.c.interaction_id.in_(acked[i : i + 5000])
                    )
                )
                found.update(r[0] for r in rows)
            twice = (
                await conn.execute(
                    select(func.count()).select_from(
                        select(moves.c.interaction_id)
                        .where(moves.c.interaction_id.is_not(None))
                        .group_by(moves.c.interaction_id)
                        .having(func.count() > 1)
                        .subquery()
                    )
                )
            ).scalar_one()
            logs = await conn.execute(
                select(
                    tables.c.id,
                    tables.c.version,
                    func.count(moves.c.seq),
                    func.coalesce(func.max(moves.c.seq), 0),
                )
                .select_from(tables.outerjoin(moves, moves.c.table_id == tables.c.id))
                .group_by(tables.c.id, tables.c.version)
            )
            broken = [r[0] for r in logs if not (r[1] == r[2] == r[3])]
            ids = [
                r[0]
                for r in await conn.execute(
                    select(tables.c.id).where(tables.c.initial.is_not(None))
                )
            ]
        mismatched = 0
        for table_id in ids:
            loaded = await store.load_table(table_id)
            if loaded.state is None:
                continue
            game = games.get(loaded.info.game)
            replayed = await store.replay_log(table_id)
            if game.snapshot(replayed) != game.snapshot(loaded.state):
                mismatched += 1
        lost = len(acked) - len(found)
        doubled = int(twice) + len(broken) + mismatched
        return lost, doubled, {"twice": int(twice), "gaps": len(broken), "replay": mismatched}

    # ------------------------------------------------------------ the runs

    async def run(self) -> BenchResult:
        import redis.asyncio as aioredis
        from sqlalchemy import text
        from sqlalchemy.ext.asyncio import create_async_engine

        from persistence import Store

        a = self.args
        admin = create_async_engine(a.database_url)
        async with admin.begin() as conn:
            await conn.execute(text(f'CREATE SCHEMA "{self.schema}"'))
        redis = aioredis.Redis.from_url(a.redis_url)
        store = await Store.open(
            a.database_url, connect_args={"server_settings": {"search_path": self.schema}}
        )
        router = Router(redis, self.prefix, a.shard_count)
        try:
            return await self._runs(store, router)
        finally:
            await router.close()
            for _name, proc in self.procs:
                if proc.poll() is None:
                    proc.send_signal(signal.SIGTERM)
            for _name, proc in self.procs:
                try:
                    proc.wait(timeout=15)
                except subprocess.TimeoutExpired:
                    proc.kill()
            await store.close()
            async with admin.begin() as conn:
                await conn.execute(text(f'DROP SCHEMA "{self.schema}" CASCADE'))
            await admin.dispose()
            keys = [k async for k in redis.scan_iter(match=f"{self.prefix}:*")]
            if keys:
                await redis.delete(*keys)
            await redis.aclose()
            if not a.keep_logs:
                for f in self.folder.iterdir():
                    f.unlink()
                self.folder.rmdir()

    async def _runs(self, store: Any, router: Router) -> BenchResult:
        a = self.args
        n = a.processes
        label = "process" if n == 1 else "processes"
        print(
            f"{n} {label}, {a.shard_count} shards, {a.tables:,} tables, pictures "
            f"{'on' if a.cluster_pictures else 'off'} (logs: {self.folder})",
            flush=True,
        )
        homes = self.homes(n)
        for i, shards in enumerate(homes):
            self.spawn(f"p{i}", shards)
        everything = set(range(a.shard_count))
        await self.wait_ready(router, everything)
        started = time.perf_counter()
        await self.open_all(router)
        print(f"  {a.tables:,} tables opened in {time.perf_counter() - started:.1f} s", flush=True)
        # the tables are long-lived, as after a start-up (which freezes what it loaded out of
        # the cyclic collector's way): the same in every process, and in this driver
        for link in list(router.links.values()):
            await link.request({"op": "settle"})
        gc.collect()
        gc.freeze()
        await self.open_loop(router, a.rate, 2.0)  # warm-up: caches, compiled statements
        self.acked.clear()
        cpu = self.cpu_seconds()
        steady = await self.open_loop(router, a.rate, a.seconds)
        cpu = self.cpu_seconds() - cpu
        lag = await self.heartbeat_lag(router)
        print(
            f"  offered {a.rate:,.0f}/s: {steady.rate:,.0f} moves/s, p50 {steady.pct(50):.1f} ms, "
            f"p99 {steady.pct(99):.1f} ms ({steady.moves:,} moves, {steady.opened} new games, "
            f"{steady.refused} refused, {steady.errors} errors; processes' CPU "
            f"{cpu / steady.seconds:.2f} cores; heartbeats late by {lag:.0f} ms at worst)",
            flush=True,
        )
        if a.max:
            best = 0.0
            for rate in a.rates or PROCESS_RATES:
                run = await self.open_loop(router, rate, a.seconds)
                ok = run.pct(99) <= TARGET_P99_MS and run.rate >= 0.95 * rate
                print(
                    f"  offered {rate:,.0f}/s: {run.rate:,.0f} moves/s, p99 {run.pct(99):.1f} ms",
                    flush=True,
                )
                if not ok:
                    break
                best = rate
            print(f"  highest offered rate with p99 <= {TARGET_P99_MS:.0f} ms: {best:,.0f}/s")
        result = BenchResult(n, steady.rate, steady.pct(99))
        self.acked.clear()
        if n > 1 and not a.no_kill:
            await self._pause_run(store, router, result)
        if not a.no_kill:
            await self._kill_run(router, result)
            await self._final_check(store, router, result)
        return result

    async def _node_of(self, router: Router, name: str) -> str:
        await router.refresh()
        for node in router.ready:
            if node.startswith(f"{name}-"):
                return node
        raise RuntimeError(f"process {name} is not in the cluster's registry")

    async def _served_elsewhere(
        self, router: Router, shards: set[int], since: float, *, without: str | None = None
    ) -> float:
        """Seconds from ``since`` until every one of ``shards`` is served (by the registry;
        by a process other than ``without``)."""
        while True:
            await router.refresh()
            others = set().union(*(r for n, r in router.ready.items() if n != without))
            if shards <= others and shards <= set(router.routes):
                return time.perf_counter() - since
            await asyncio.sleep(0.05)

    async def _pause_run(self, store: Any, router: Router, result: BenchResult) -> None:
        """A process paused (SIGSTOP) under load, as a stalled or partitioned process would
        be: the others take its shards over; when it runs again (SIGCONT) with the moves
        sent to it meanwhile, the fence refuses every one of them, and its home shards are
        handed back to it."""
        a = self.args
        name, proc = self.procs[0]
        node = await self._node_of(router, name)
        home = set(router.ready.get(node, set()))
        if not home:
            raise RuntimeError(f"process {name} serves no shard: nothing to take over")
        link = router.links[node]
        link.watch = True
        took: dict[str, float] = {}

        async def pause() -> None:
            await asyncio.sleep(a.kill_after)
            proc.send_signal(signal.SIGSTOP)
            took["stopped"] = stopped = time.perf_counter()
            took["served"] = await self._served_elsewhere(router, home, stopped, without=node)
            proc.send_signal(signal.SIGCONT)
            took["woke"] = woke = time.perf_counter()
            while True:  # its home shards come back to it: claimed anew, and served
                await router.refresh()
                leases = {x.shard: x for x in await store.leases(a.shard_count)}
                claimed = all(leases[s].owner == node and leases[s].live for s in home)
                if claimed and router.ready.get(node, set()) >= home:
                    took["back"] = time.perf_counter() - woke
                    return
                if time.perf_counter() - woke > 60:
                    return
                await asyncio.sleep(0.05)

        run = await self.open_loop(router, a.rate, a.kill_seconds, during=pause())
        await asyncio.sleep(1.0)  # the late answers of the woken process come in
        link.watch = False
        asleep = [status for sent, status in link.answers if took["stopped"] <= sent < took["woke"]]
        stale = asleep.count("ok")
        fenced = asleep.count("moved/fence")
        seen_gone = asleep.count("moved/process")
        others = Counter(x for x in asleep if x not in ("ok", "moved/fence", "moved/process"))
        result.paused_stale = stale
        result.paused_sent = len(asleep)
        print(
            f"  pause: {name} SIGSTOPped {a.kill_after:g} s into {a.kill_seconds:g} s; its shards "
            f"{sorted(home)} served by the others after {took['served']:.2f} s; woken then, "
            f"with {len(asleep)} moves sent to it while it slept: {fenced} refused at their "
            f"commit by the fence, {seen_gone} refused once it saw its leases gone, "
            f"{', '.join(f'{n} {k}' for k, n in sorted(others.items())) or 'no other answer'}, "
            f"{stale} written; its shards back to it "
            f"{took.get('back', float('nan')):.2f} s after it woke; {run.rate:,.0f} moves/s, "
            f"p99 {run.pct(99):.0f} ms over the run",
            flush=True,
        )

    async def _kill_run(self, router: Router, result: BenchResult) -> None:
        a = self.args
        n = a.processes
        name, victim = self.procs[-1]
        node = await self._node_of(router, name)
        orphaned = set(router.ready.get(node, set()))
        if not orphaned:
            raise RuntimeError(f"process {name} serves no shard: nothing to take over")
        took: dict[str, float] = {}

        async def kill() -> None:
            await asyncio.sleep(a.kill_after)
            victim.send_signal(signal.SIGKILL)
            killed = self.killed_at = took["killed"] = time.perf_counter()
            router.dead.add(node)
            self.served_at.clear()
            if n == 1:  # nobody else: a restart policy starts a fresh process
                self.spawn("p0-restarted", self.homes(1)[0])
            took["served"] = await self._served_elsewhere(router, orphaned, killed)

        run = await self.open_loop(router, a.rate, a.kill_seconds, during=kill())
        takeover = took.get("served", float("nan"))
        first = [self.served_at[s] - took["killed"] for s in orphaned if s in self.served_at]
        moves_back = max(first) if len(first) == len(orphaned) else float("nan")
        who = "a restarted process" if n == 1 else "the others"
        print(
            f"  kill: {name} SIGKILLed {a.kill_after:g} s into {a.kill_seconds:g} s at "
            f"{a.rate:,.0f}/s; its shards {sorted(orphaned)} served by {who} after "
            f"{takeover:.2f} s (their tables loaded, timers and owed messages resumed; a real "
            f"bot also connects each gateway shard, 5 s apart), first moves "
            f"answered there {moves_back:.2f} s after the kill; "
            f"{run.rate:,.0f} moves/s, p99 {run.pct(99):.0f} ms over the run",
            flush=True,
        )
        result.takeover_s = takeover

    async def _final_check(self, store: Any, router: Router, result: BenchResult) -> None:
        """Every acknowledged move in the log once; every table's log replaying to its
        stored state; every announcement owed delivered."""
        from sqlalchemy import func, select

        from persistence.schema import outbox

        # what the processes owe the channels goes out: at once on a quiet machine, but a
        # loaded one (CI beside other work) may take a while; the wait ends when it is out
        deadline = time.perf_counter() + 120
        while True:
            async with store.engine.connect() as conn:
                undelivered = (
                    await conn.execute(
                        select(func.count())
                        .select_from(outbox)
                        .where(outbox.c.delivered_at.is_(None))
                    )
                ).scalar_one()
            if not undelivered or time.perf_counter() > deadline:
                break
            await asyncio.sleep(0.5)
        lost, doubled, why = await self.check(store)
        result.lost, result.doubled = lost, doubled
        result.acknowledged = len(self.acked)
        result.undelivered = int(undelivered)
        print(
            f"  check: {len(self.acked):,} acknowledged moves, {lost} lost, {doubled} doubled "
            f"(logged twice {why['twice']}, logs with gaps {why['gaps']}, replays differing "
            f"{why['replay']}); {undelivered} announcements left undelivered",
            flush=True,
        )


# ====================================================================== command line


def node_parser() -> argparse.ArgumentParser:
    p = argparse.ArgumentParser(prog="python -m bot.cluster_bench node")
    p.add_argument("--database-url", required=True)
    p.add_argument("--schema", required=True)
    p.add_argument("--redis-url", required=True)
    p.add_argument("--prefix", required=True)
    p.add_argument("--shard-count", type=int, required=True)
    p.add_argument("--shards", required=True)
    p.add_argument("--name", default="bench")
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--pictures", action="store_true")
    timings(p)
    return p


def timings(p: argparse.ArgumentParser) -> None:
    from host.cluster import DEAD_AFTER, HEARTBEAT, LEASE_TTL

    p.add_argument("--heartbeat", type=float, default=HEARTBEAT)
    p.add_argument("--dead-after", type=float, default=DEAD_AFTER)
    p.add_argument("--lease-ttl", type=float, default=LEASE_TTL)
    p.add_argument("--boot-grace", type=float, default=DEAD_AFTER)


def add_driver_options(p: argparse.ArgumentParser) -> None:
    """The options of ``python -m bot.bench --processes N``."""
    p.add_argument(
        "--database-url",
        default=os.environ.get("DATABASE_URL", DEFAULT_DATABASE),
        help="PostgreSQL (a fresh schema is made there and dropped)",
    )
    p.add_argument("--redis-url", default=os.environ.get("REDIS_URL", DEFAULT_REDIS))
    p.add_argument("--shard-count", type=int, default=8)
    p.add_argument("--rate", type=float, default=400.0, help="offered moves/s (steady, kill)")
    p.add_argument("--kill-seconds", type=float, default=20.0, help="the kill run's length")
    p.add_argument("--kill-after", type=float, default=5.0, help="seconds into it")
    p.add_argument("--no-kill", action="store_true", help="skip the pause and kill runs")
    p.add_argument("--dice", type=int, default=14, help="Stack's dice per player at the tables")
    p.add_argument("--target", type=int, default=200, help="Stack's target score")
    p.add_argument(
        "--max",
        action="store_true",
        help="also find the highest rate with p99 <= 250 ms (--rates; with --processes "
        "500,1000,1500,2000,2500,3000,4000 unless given)",
    )
    p.add_argument(
        "--no-pictures",
        dest="cluster_pictures",
        action="store_false",
        help="the processes draw no table picture",
    )
    p.add_argument("--keep-logs", action="store_true", help="keep the processes' logs")
    timings(p)


async def drive(args: argparse.Namespace) -> BenchResult:
    """Run the bench (``python -m bot.bench --processes N``); it prints its figures, the
    last line :meth:`BenchResult.line`."""
    if not args.database_url.startswith("postgresql"):
        raise SystemExit("bot.bench --processes needs PostgreSQL (--database-url)")
    result = await Driver(args).run()
    print(result.line(), flush=True)
    return result


def main(argv: list[str] | None = None) -> None:
    argv = sys.argv[1:] if argv is None else argv
    if not argv or argv[0] != "node":
        raise SystemExit(
            "usage: python -m bot.bench --processes N (this module runs its processes)"
        )
    args = node_parser().parse_args(argv[1:])
    logging.basicConfig(
        level=logging.INFO, format="%(asctime)s %(levelname)s %(name)s: %(message)s"
    )
    asyncio.run(Node(args).run())


if __name__ == "__main__":
    main()
