"""Several bot processes over one PostgreSQL database and one Redis: each owns some of
Discord's shards — and so the tables of their guilds — and the others take over the
shards of one that dies.

Two well-kept engines, two jobs:

* **PostgreSQL holds ownership** (:mod:`persistence.leases`): a lease per shard, with a
  fencing token, checked in the same transaction as every write. Whatever Redis says, a
  process writes a table only while the database says it holds the table's shard.
* **Redis holds liveness**: every process writes a heartbeat (a counter, with what it
  holds and how it is doing) into one hash every second, and says on a channel when
  it joins, gives shards up or leaves. A process whose counter has not moved for
  ``dead_after`` seconds (6 by default) — by the observer's own clock, so no two
  machines' clocks are compared — is dead, and its leases may be taken over under their
  exact token.

Each process computes the same assignment from the live processes it sees
(:func:`assign`): a shard goes to the live process started with it in its ``--shards``
(its home; the lowest node id if several), and otherwise, by rendezvous hashing, to one
of the live processes — so a dead process's shards spread over the survivors, and come
back to it (handed over cleanly) when it is running again. A process that just started
takes only its home shards for its first ``boot_grace`` seconds, while the others of a
cluster booting together show up. Then it converges: it gives up
the shards assigned elsewhere (serving them no more, writing what it owes, releasing the
lease) and claims those assigned to it that are free, expired, or held by a dead process,
adopting each (its tables loaded, their timers and owed messages resumed) before serving
it. Heartbeats and convergence rounds are two loops of their own (:class:`Every`, on the
event loop's monotonic clock), so that a long adoption never delays a heartbeat and looks
like death.

Without Redis (down, or unreachable) a process keeps what it holds, renews its leases,
and claims only its own home shards when free and leases the database says expired (their
holder stopped renewing: fenced already): nobody is taken over on a guess.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import json
import logging
import os
import secrets
import socket
import time
from collections import deque
from collections.abc import Awaitable, Callable, Coroutine, Mapping
from dataclasses import KW_ONLY, dataclass, field
from datetime import UTC, datetime
from typing import Any, Protocol

import redis.asyncio as aioredis
from redis.exceptions import RedisError

from persistence import Store
from persistence.errors import StorageError
from persistence.fence import Fence

log = logging.getLogger(__name__)

HEARTBEAT = 1.0  # seconds between two heartbeats (and lease renewals)
DEAD_AFTER = 6.0  # a heartbeat that has not moved for this long: the process is dead
LEASE_TTL = 15.0  # a lease not renewed for this long expires (its holder is fenced)
FORGET_AFTER = 60.0  # a dead process's entry is removed from the registry after this
ADOPT_RETRY = 30.0  # seconds before a shard whose adoption failed is claimed again
DEFAULT_PREFIX = "stackbot"


class ShardHost(Protocol):
    """What a process does with its shards (the bot: :class:`bot.sharding.BotShards`;
    the load test's process: :class:`bot.tables.Tables` alone)."""

    async def adopt(self, shard_count: int, shards: frozenset[int]) -> None:
        """Load and serve the shards' tables (their leases are held)."""

    async def release(self, shard_count: int, shards: frozenset[int]) -> None:
        """Stop serving the shards and write everything owed (the leases are released
        next)."""

    async def drop(self, shard_count: int, shards: frozenset[int]) -> None:
        """The leases are lost: stop serving the shards at once (nothing more can be
        written)."""

    def health(self) -> dict[str, Any]:
        """Figures for the heartbeat and the health report (tables, latencies...)."""


def parse_shards(text: str, shard_count: int) -> frozenset[int]:
    """``0-3``, ``0,2,5-7`` or ``none`` (a process that only takes over): the shards,
    each checked against ``shard_count``. Raises ``ValueError`` naming what is wrong."""
    words = text.strip().lower()
    if words in ("", "none"):
        return frozenset()
    shards: set[int] = set()
    for part in words.split(","):
        part = part.strip()
        low, dash, high = part.partition("-")
        try:
            first = int(low)
            last = int(high) if dash else first
        except ValueError:
            raise ValueError(f"{part!r} is not a shard or a range like 0-3") from None
        if first > last:
            raise ValueError(f"{part!r} runs backwards")
        if first < 0 or last >= shard_count:
            raise ValueError(
                f"shard {last if last >= shard_count else first} is not one of the "
                f"{shard_count} shards (0 to {shard_count - 1})"
            )
        shards.update(range(first, last + 1))
    return frozenset(shards)


Sleep = Callable[[float], Awaitable[None]]


@dataclass
class Every:
    """Run ``body`` every ``period`` seconds, the first round at once, on a monotonic clock
    (``now``: the event loop's, by default): a step of the wall clock (an NTP step, a
    restored VM) neither holds a round back — long enough for the others to take this
    process for dead — nor runs the missed rounds back to back. No sleep is longer than
    one period, and a round already due runs once, with no catching up. ``body`` should
    not raise: an error ends the loop (logged). ``now`` and ``sleep`` are the clock a test
    steps (a simulated gateway's virtual time)."""

    body: Callable[[], Coroutine[Any, Any, None]]
    period: float  # seconds
    _: KW_ONLY
    now: Callable[[], float] | None = None
    sleep: Sleep = asyncio.sleep
    name: str = "every"
    _task: asyncio.Task[None] | None = field(default=None, init=False)

    def start(self) -> asyncio.Task[None]:
        if self._task is not None and not self._task.done():
            raise RuntimeError(f"{self.name} is running already")
        self._task = asyncio.get_running_loop().create_task(self._run(), name=self.name)
        return self._task

    def get_task(self) -> asyncio.Task[None] | None:
        return self._task

    def is_running(self) -> bool:
        return self._task is not None and not self._task.done()

    def cancel(self) -> None:
        if self._task is not None:
            self._task.cancel()

    async def _run(self) -> None:
        now = self.now or asyncio.get_running_loop().time
        due = now()
        while True:
            try:
                await self.body()
            except Exception:
                log.exception("%s: a round failed; the loop stops", self.name)
                return
            due += self.period
            at = now()
            if due < at:  # late (or the clock stepped forward): the next round at once
                due = at
            # never longer than a period (the clock stepped back)
            await self.sleep(min(due - at, self.period))


def shard_ranges(shards: frozenset[int] | set[int]) -> str:
    """``0-3,6`` (``none`` for no shard): shards as a person reads them."""
    ordered = sorted(shards)
    if not ordered:
        return "none"
    runs: list[str] = []
    start = prev = ordered[0]
    for s in [*ordered[1:], None]:
        if s is not None and s == prev + 1:
            prev = s
            continue
        runs.append(str(start) if start == prev else f"{start}-{prev}")
        if s is not None:
            start = prev = s
    return ",".join(runs)


def _rank(node: str, shard: int) -> bytes:
    return hashlib.blake2b(f"{node}/{shard}".encode(), digest_size=8).digest()


def assign(shard_count: int, homes: Mapping[str, frozenset[int]]) -> dict[int, str]:
    """Which live process each shard belongs to: its home (the live process started with
    it in ``--shards``; the lowest node id if several), else the live process ranking
    highest for it (rendezvous hashing: when a process dies only its shards move, and
    they spread over the others). ``homes``: every live process's home shards."""
    if not homes:
        return {}
    nodes = sorted(homes)
    owner: dict[int, str] = {}
    for shard in range(shard_count):
        pinned = [n for n in nodes if shard in homes[n]]
        owner[shard] = pinned[0] if pinned else max(nodes, key=lambda n: _rank(n, shard))
    return owner


@dataclass(frozen=True, slots=True)
class ClusterConfig:
    """How a process takes part: the shard count, its home shards, where Redis is, and
    the timings (seconds)."""

    shard_count: int
    home: frozenset[int]
    redis_url: str
    prefix: str = DEFAULT_PREFIX  # the Redis keys' prefix (one cluster per prefix)
    name: str = "stackbot"  # the readable start of the node id
    heartbeat: float = HEARTBEAT
    dead_after: float = DEAD_AFTER
    lease_ttl: float = LEASE_TTL
    forget_after: float = FORGET_AFTER
    boot_grace: float = DEAD_AFTER  # after its start, a process takes only home shards
    listen: bool = True  # react at once to the others' events (else at the next heartbeat)

    def __post_init__(self) -> None:
        if not self.dead_after > 2 * self.heartbeat:
            raise ValueError("dead_after must be more than two heartbeats")
        if not self.lease_ttl > 2 * self.heartbeat:
            raise ValueError("lease_ttl must be more than two heartbeats")


@dataclass(slots=True)
class Peer:
    """A process as seen in the registry, and when its heartbeat last moved (the
    observer's clock)."""

    node: str
    home: frozenset[int]
    held: frozenset[int]
    beat: int
    changed: float
    info: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class ShardEvent:
    """What happened to shards in this process, for the health report and the load
    test: ``adopted``, ``released``, ``lost`` or ``failed``; ``seconds``: how long it took."""

    at: float  # wall clock (time.time())
    what: str
    shards: frozenset[int]
    seconds: float = 0.0


def node_id(name: str) -> str:
    """A node id unique to this run of this process: name, host, pid and a random tail."""
    host = socket.gethostname().split(".")[0]
    return f"{name}-{host}-{os.getpid()}-{secrets.token_hex(3)}"[-63:]


class Cluster:
    """This process's part in the cluster: its heartbeat, its leases, and the shards it
    adopts and gives up through its :class:`ShardHost`."""

    def __init__(
        self,
        store: Store,
        config: ClusterConfig,
        *,
        redis: aioredis.Redis | None = None,
        node: str | None = None,
        sleep: Sleep = asyncio.sleep,
    ) -> None:
        self.store = store
        self.config = config
        self.node = node or node_id(config.name)
        self.fence = Fence(self.node, config.shard_count)
        self.redis = redis or aioredis.Redis.from_url(config.redis_url, socket_timeout=5)
        self.ready: set[int] = set()  # adopted and served
        self.peers: dict[str, Peer] = {}
        self.redis_ok = True
        self.beats = 0
        self.events: deque[ShardEvent] = deque(maxlen=256)
        self.lags: deque[float] = deque(maxlen=60)  # heartbeat lateness, s (event loop lag)
        self.started_at = datetime.now(UTC)
        self._host: ShardHost | None = None
        self._gone: set[str] = set()  # processes that said they left
        self._absent: dict[str, float] = {}  # lease owners missing from the registry, since
        self._tasks: list[asyncio.Task[None]] = []
        self._woken: asyncio.Task[None] | None = None
        self._halted = False
        self._listening = False
        self._observed: float | None = None  # when the registry was last read
        self._blind = False  # the last read of the registry failed
        self._retry_after: dict[int, float] = {}  # shard -> no adoption before (failed)
        self._closing: set[int] = set()  # shards being handed over (their tables go)
        self._drops: dict[int, asyncio.Task[None]] = {}  # shard -> its tables being dropped
        self._unreleased: dict[int, int] = {}  # shard -> token whose release failed
        self._last_beat: float | None = None
        # the heartbeat and the convergence rounds, kept steady when the wall clock steps
        # (``sleep``: how they wait, a test's virtual clock)
        self._beats = Every(self._beat, config.heartbeat, sleep=sleep, name="cluster-heartbeat")
        self._rounds = Every(
            self._converge_logged, config.heartbeat, sleep=sleep, name="cluster-rounds"
        )
        self._converging = asyncio.Lock()
        self._warned: set[str] = set()
        self._joined = time.monotonic()

    # ------------------------------------------------------------ keys

    @property
    def nodes_key(self) -> str:
        return f"{self.config.prefix}:nodes"

    @property
    def events_key(self) -> str:
        return f"{self.config.prefix}:events"

    @property
    def held(self) -> frozenset[int]:
        return frozenset(self.fence.tokens)

    def owns(self, guild_id: int) -> bool:
        """Whether this process holds the guild's shard and is not handing it over: its
        tables may be kept in memory here."""
        shard = self.fence.shard_of(guild_id)
        return shard in self.fence.tokens and shard not in self._closing

    def serves(self, shard: int) -> bool:
        """Whether this process serves the shard now (held and adopted)."""
        return shard in self.ready

    def shard_of(self, guild_id: int) -> int:
        return self.fence.shard_of(guild_id)

    def served_elsewhere(self, shard: int) -> str | None:
        """The live process that says it serves ``shard``, if another one does."""
        now = time.monotonic()
        for peer in self.peers.values():
            live = peer.node != self.node and self._live(peer, now)
            if live and shard in peer.info.get("ready", ()):
                return peer.node
        return None

    # ------------------------------------------------------------ life cycle

    async def start(self, host: ShardHost) -> None:
        """Join: the leases' rows ready (the shard count checked), the fence in force,
        the first heartbeat, the first convergence (free home shards adopted now), then
        the heartbeat and convergence loops."""
        self._host = host
        self._joined = time.monotonic()
        await self.store.prepare_leases(self.config.shard_count)
        self.store.use_fence(self.fence)
        await self.beat_once()
        await self._say("joined", frozenset())
        await self.converge_once()
        self._beats.start()
        self._rounds.start()
        if self.config.listen:
            self._listening = True
            self._tasks.append(
                asyncio.get_running_loop().create_task(self._listen(), name="cluster-events")
            )
        log.info(
            "cluster: %s joined with home shards %s of %d; serving %s",
            self.node,
            shard_ranges(self.config.home),
            self.config.shard_count,
            shard_ranges(self.ready),
        )

    async def stop(self) -> None:
        """Leave cleanly: every shard given up (its tables written, the lease released,
        so that the others take it over at once), the registry entry removed."""
        if self._halted:
            return  # killed (halt): it gives nothing up
        await self._halt()
        async with self._converging:
            if self.held:
                await self._give_up(self.held)
        with contextlib.suppress(RedisError, OSError):
            await self.redis.hdel(self.nodes_key, self.node)
        await self._say("left", frozenset())
        await self._close_redis()
        log.info("cluster: %s left", self.node)

    async def halt(self) -> None:
        """Stop every loop and say nothing, giving nothing up: what the others see of a
        process that was killed (tests and the load test's kill)."""
        self._halted = True
        await self._halt()
        await self._close_redis()

    async def _halt(self) -> None:
        """Stop the loops: the listener ends by itself within a heartbeat; the task loops
        are cancelled — again until they end, since a cancellation arriving inside a
        driver's call may be swallowed there."""
        self._listening = False
        stopping, self._tasks = self._tasks, []
        if stopping:
            await asyncio.wait(stopping, timeout=self.config.heartbeat + 1.0)
        for loop in (self._beats, self._rounds):
            running = loop.get_task()
            if running is not None:
                stopping.append(running)
        if self._woken is not None:
            stopping.append(self._woken)
        stopping.extend(self._drops.values())
        for task in stopping:
            while not task.done():
                task.cancel()
                await asyncio.wait({task}, timeout=0.5)

    async def _close_redis(self) -> None:
        with contextlib.suppress(RedisError, OSError):
            await self.redis.aclose()

    # ------------------------------------------------------------ heartbeat

    async def _beat(self) -> None:
        """The heartbeat loop's round (never raises: the loop goes on)."""
        now = time.monotonic()
        if self._last_beat is not None:
            late = max(0.0, now - self._last_beat - self.config.heartbeat)
            self.lags.append(late)
            if late > self.config.dead_after / 2:
                log.warning(
                    "cluster: heartbeat %.1f s late (the event loop was blocked): the others "
                    "take this process for dead after %.0f s",
                    late,
                    self.config.dead_after,
                )
        self._last_beat = now
        try:
            await self.beat_once()
        except Exception:
            log.exception("cluster: heartbeat failed")

    async def beat_once(self) -> None:
        """One heartbeat: this process's entry in the registry, then its leases renewed
        (any it lost are dropped at once)."""
        self.beats += 1
        entry = json.dumps(self._entry(), separators=(",", ":"))
        try:
            await self.redis.hset(self.nodes_key, self.node, entry)
            self._redis_back()
        except (RedisError, OSError) as err:
            self._redis_down(err)
        revoked = frozenset(s for s in self.fence.revoked if s in self.fence.tokens)
        if revoked:  # a write found them taken: no renewal can bring them back
            await self._lose(revoked)
        tokens = dict(self.fence.tokens)
        if not tokens:
            return
        try:
            kept = await self.store.renew_leases(self.node, tokens, self.config.lease_ttl)
        except (StorageError, OSError) as err:  # the database is unreachable: try again
            self._warn("renew", f"cluster: renewing leases failed ({err}); trying again")
            return
        except Exception as err:  # a driver's own error (connection reset...)
            self._warn("renew", f"cluster: renewing leases failed ({err!r}); trying again")
            return
        self._warned.discard("renew")
        lost = frozenset(
            s for s in tokens if s not in kept and self.fence.tokens.get(s) == tokens[s]
        )
        if lost:
            await self._lose(lost)

    def _entry(self) -> dict[str, Any]:
        health = self._host.health() if self._host is not None else {}
        return {
            "home": sorted(self.config.home),
            "held": sorted(self.held),
            "ready": sorted(self.ready),
            "beat": self.beats,
            "shard_count": self.config.shard_count,
            "host": socket.gethostname(),
            "pid": os.getpid(),
            "started": self.started_at.isoformat(timespec="seconds"),
            "lag_ms": self.lag_ms(),
            **health,
        }

    # ------------------------------------------------------------ observing

    async def observe(self) -> dict[str, Peer] | None:
        """Read the registry and note whose heartbeat moved; ``None`` without Redis."""
        now = time.monotonic()
        try:
            raw: dict[Any, Any] = await self.redis.hgetall(self.nodes_key)
            self._redis_back()
        except (RedisError, OSError) as err:
            self._redis_down(err)
            self._blind = True
            return None
        # After a gap in what this process could see — Redis was down, or its own loop
        # stalled for as long as it takes to call a process dead — nobody's heartbeat could
        # be seen moving: everyone starts afresh, so that no live process is taken for dead
        # on the first look back.
        late = self._observed is not None and now - self._observed >= self.config.dead_after
        gap = self._blind or late
        if gap:
            self._absent.clear()
        self._blind = False
        self._observed = now
        seen: dict[str, Peer] = {}
        for key, value in raw.items():
            node = key.decode() if isinstance(key, bytes) else str(key)
            try:
                entry = json.loads(value)
                beat = int(entry["beat"])
                home = frozenset(int(s) for s in entry.get("home", ()))
                held = frozenset(int(s) for s in entry.get("held", ()))
            except (ValueError, KeyError, TypeError):
                continue  # not a registry entry of this version: ignored
            before = self.peers.get(node)
            fresh = gap or before is None or before.beat != beat
            changed = now if fresh else before.changed  # type: ignore[union-attr]
            seen[node] = Peer(node, home, held, beat, changed, entry)
        self.peers = seen
        for node, peer in seen.items():
            if node != self.node and now - peer.changed >= self.config.forget_after:
                with contextlib.suppress(RedisError, OSError):
                    await self.redis.hdel(self.nodes_key, node)
        return seen

    def _live(self, peer: Peer, now: float) -> bool:
        if peer.node == self.node:
            return True
        if peer.node in self._gone:
            return False
        return now - peer.changed < self.config.dead_after

    def live_nodes(self) -> dict[str, frozenset[int]]:
        """The live processes (this one included) and their home shards."""
        now = time.monotonic()
        homes = {p.node: p.home for p in self.peers.values() if self._live(p, now)}
        homes[self.node] = self.config.home
        return homes

    def _dead(self, owner: str, now: float) -> bool:
        """Whether a lease's holder is known dead: its heartbeat stopped, or it said it
        left. A holder missing from the registry is not: its live lease says it renews it,
        so it meets its peers in another Redis (or under another prefix), or has not
        reached Redis since it started; taking its shards would have it take them back (each taking the other for
        dead), so they wait for its lease to expire, and the operator is told."""
        if owner in self._gone:
            return True
        peer = self.peers.get(owner)
        if peer is not None:
            self._absent.pop(owner, None)
            return not self._live(peer, now)
        since = self._absent.setdefault(owner, now)
        if now - since >= self.config.dead_after:
            self._warn(
                f"absent-{owner}",
                f"cluster: {owner} holds shards but is not in Redis ({self.nodes_key}): "
                "every process needs the same REDIS_URL and CLUSTER_PREFIX; its shards are "
                "taken over only once its leases expire",
            )
        return False

    # ------------------------------------------------------------ converging

    async def _converge_logged(self) -> None:
        try:
            await self.converge_once()
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("cluster: converging failed; trying again")

    def _wake(self) -> None:
        """Converge now (another process joined, gave shards up or left), besides the
        heartbeat's rounds; one extra round at a time."""
        if self._woken is None or self._woken.done():
            self._woken = asyncio.get_running_loop().create_task(
                self._converge_logged(), name="cluster-wake"
            )

    async def converge_once(self) -> None:
        """Give up the shards assigned elsewhere, claim and adopt those assigned here."""
        async with self._converging:
            peers = await self.observe()
            count = self.config.shard_count
            if peers is None:
                # no Redis: no process is taken for dead on a guess; only the home shards
                # and leases the database says expired (their holder stopped renewing:
                # fenced already) are claimed
                leases = await self.store.leases(count)
                expired = {x.shard for x in leases if x.owner is not None and not x.live}
                mine = set(self.config.home) | set(self.held) | expired
            else:
                desired = assign(count, self.live_nodes())
                mine = {s for s, node in desired.items() if node == self.node}
                give = frozenset(s for s in self.held if s not in mine)
                if give:
                    await self._give_up(give)
                if time.monotonic() - self._joined < self.config.boot_grace:
                    # just started: only home shards, while the others' processes (started
                    # together, as a cluster boots) show up
                    mine &= set(self.config.home) | set(self.held)
            await self._release_again()
            now = time.monotonic()
            want = sorted(
                s
                for s in mine
                if s not in self.fence.tokens
                and s not in self._drops  # its old tables are still going
                and self._retry_after.get(s, 0.0) <= now
            )
            if want:
                await self._take(want, redis=peers is not None)

    async def _take(self, want: list[int], *, redis: bool) -> None:
        """Claim every shard of ``want`` that can be claimed now, then adopt them together
        (one load of their tables)."""
        count, now = self.config.shard_count, time.monotonic()
        leases = {lease.shard: lease for lease in await self.store.leases(count)}
        claimed: set[int] = set()
        ended: set[str] = set()
        for shard in want:
            lease = leases.get(shard)
            replacing = None
            if lease is not None and not lease.free:
                if lease.owner is None or not redis or not self._dead(lease.owner, now):
                    continue  # held by a live process, which gives it up by itself
                replacing = (lease.owner, lease.token)
            try:
                token = await self.store.claim_shard(
                    shard, self.node, count, self.config.lease_ttl, replacing=replacing
                )
            except Exception as err:
                if replacing is None or replacing[0] in ended:
                    self._warn(
                        f"claim-{shard}", f"cluster: claiming shard {shard} failed ({err!r})"
                    )
                    continue
                # the row stayed locked: a transaction of the dead (or paused) holder is
                # open; its sessions are ended, so that none of them holds a lock or commits
                ended.add(replacing[0])
                with contextlib.suppress(Exception):
                    gone = await self.store.end_sessions_of(replacing[0])
                    log.warning("cluster: ended %d database sessions of %s", gone, replacing[0])
                try:
                    token = await self.store.claim_shard(
                        shard, self.node, count, self.config.lease_ttl, replacing=replacing
                    )
                except Exception as again:
                    self._warn(
                        f"claim-{shard}", f"cluster: claiming shard {shard} failed ({again!r})"
                    )
                    continue
            self._warned.discard(f"claim-{shard}")
            if token is None:
                continue
            self.fence.tokens[shard] = token
            self.fence.revoked.discard(shard)
            if replacing is not None:
                log.warning(
                    "cluster: took shard %d over from %s (its heartbeat stopped)",
                    shard,
                    replacing[0],
                )
            elif lease is not None and lease.owner not in (None, self.node):
                log.warning(
                    "cluster: took shard %d over from %s (its lease expired)", shard, lease.owner
                )
            claimed.add(shard)
        if claimed:
            await self._adopt(frozenset(claimed))

    async def _adopt(self, shards: frozenset[int]) -> None:
        assert self._host is not None
        count = self.config.shard_count
        started = time.perf_counter()
        self.store.forget_shards(count, shards)
        try:
            await self._host.adopt(count, shards)
        except Exception:
            log.exception(
                "cluster: adopting shard %s failed; giving it up for %.0f s",
                shard_ranges(shards),
                ADOPT_RETRY,
            )
            self.events.append(ShardEvent(time.time(), "failed", shards))
            with contextlib.suppress(Exception):
                await self._host.drop(count, shards)  # whatever was loaded goes
            tokens = {s: self.fence.tokens.pop(s) for s in shards if s in self.fence.tokens}
            await self._release(tokens)
            for s in shards:
                self._retry_after[s] = time.monotonic() + ADOPT_RETRY
            return
        kept = frozenset(s for s in shards if s in self.fence.tokens)
        if kept != shards:  # a lease was lost while its tables loaded: they go again
            with contextlib.suppress(Exception):
                await self._host.drop(count, shards - kept)
        self.ready |= kept
        took = time.perf_counter() - started
        self.events.append(ShardEvent(time.time(), "adopted", kept, took))
        log.info("cluster: serving shard %s (adopted in %.2f s)", shard_ranges(kept), took)
        await self._say("adopted", kept)

    async def _give_up(self, shards: frozenset[int]) -> None:
        """Hand shards over cleanly: no longer served, their tables' work finished and
        written, then the leases released (the next holder claims them at once)."""
        assert self._host is not None
        started = time.perf_counter()
        self.ready -= shards
        self._closing |= shards
        try:
            await self._host.release(self.config.shard_count, shards)
        finally:
            tokens = {s: self.fence.tokens[s] for s in shards if s in self.fence.tokens}
            await self._release(tokens)
            for s in tokens:
                self.fence.tokens.pop(s, None)
            self._closing -= shards
            self.store.forget_shards(self.config.shard_count, shards)
        took = time.perf_counter() - started
        self.events.append(ShardEvent(time.time(), "released", shards, took))
        log.info("cluster: gave shard %s up (in %.2f s)", shard_ranges(shards), took)
        await self._say("released", shards)

    async def _release(self, tokens: Mapping[int, int]) -> None:
        """Release leases given up; one that could not be released (the database did not
        answer) is released again at the next round, so that its shard is not left
        unserved until the lease expires."""
        if not tokens:
            return
        try:
            await self.store.release_shards(self.node, tokens)
        except Exception as err:  # said once until a release goes through, as renewals
            self._warn(
                "release",
                f"cluster: releasing shard {shard_ranges(set(tokens))} failed ({err!r}); "
                "trying again every round",
            )
            self._unreleased.update(tokens)
        else:
            self._warned.discard("release")
            for s in tokens:
                self._unreleased.pop(s, None)

    async def _release_again(self) -> None:
        pending = {s: token for s, token in self._unreleased.items() if s not in self.fence.tokens}
        self._unreleased = {}
        await self._release(pending)

    async def _lose(self, shards: frozenset[int]) -> None:
        """The leases were lost (expired, or taken over): no longer served, at once; the
        host forgets their tables in a task of its own (the heartbeat never waits on it)."""
        self.ready -= shards
        for s in shards:
            self.fence.tokens.pop(s, None)
            self.fence.revoked.discard(s)
        self.store.forget_shards(self.config.shard_count, shards)
        self.events.append(ShardEvent(time.time(), "lost", shards))
        log.error("cluster: lost the lease of shard %s; no longer serving it", shard_ranges(shards))
        if self._host is not None:
            task = asyncio.get_running_loop().create_task(
                self._host.drop(self.config.shard_count, shards), name="cluster-drop"
            )
            for s in shards:  # not claimed again before its old tables are gone
                self._drops[s] = task
            task.add_done_callback(lambda _: self._forget_drop(shards, task))
        self._wake()

    def _forget_drop(self, shards: frozenset[int], task: asyncio.Task[None]) -> None:
        for s in shards:
            if self._drops.get(s) is task:
                del self._drops[s]
        if self._beats.is_running():  # running: the shard may be claimed again now
            with contextlib.suppress(RuntimeError):  # the event loop is closing
                self._wake()

    # ------------------------------------------------------------ events

    async def _say(self, what: str, shards: frozenset[int]) -> None:
        message = json.dumps({"node": self.node, "event": what, "shards": sorted(shards)})
        with contextlib.suppress(RedisError, OSError):
            await self.redis.publish(self.events_key, message)

    async def _listen(self) -> None:
        """Wake the convergence at once when another process joins, gives shards up or
        leaves (a process that left is no longer waited for). Ends when ``_listening`` is
        cleared (redis-py's ``get_message`` may swallow a cancellation)."""
        while self._listening:
            pubsub = self.redis.pubsub(ignore_subscribe_messages=True)
            try:
                await pubsub.subscribe(self.events_key)
                while self._listening:
                    message = await pubsub.get_message(timeout=self.config.heartbeat)
                    if message is None:
                        continue
                    try:
                        event = json.loads(message["data"])
                    except (ValueError, TypeError):
                        continue
                    if not isinstance(event, dict):
                        continue  # not an event of this version: ignored
                    if event.get("node") == self.node:
                        continue
                    if event.get("event") == "left":
                        self._gone.add(str(event.get("node")))
                    self._wake()
            except asyncio.CancelledError:
                raise
            except (RedisError, OSError) as err:
                self._redis_down(err)
                await asyncio.sleep(self.config.heartbeat)
            finally:
                with contextlib.suppress(Exception):
                    await pubsub.aclose()  # type: ignore[no-untyped-call]

    # ------------------------------------------------------------ reporting

    def _redis_down(self, err: BaseException) -> None:
        if self.redis_ok:
            log.warning("cluster: Redis is unreachable (%s): keeping what is held", err)
        self.redis_ok = False

    def _redis_back(self) -> None:
        if not self.redis_ok:
            log.info("cluster: Redis is back")
        self.redis_ok = True

    def _warn(self, key: str, text: str) -> None:
        if key not in self._warned:
            self._warned.add(key)
            log.warning(text)

    def lag_ms(self) -> float:
        """The worst lateness of the last minute's heartbeats (the event loop's lag)."""
        return round(max(self.lags, default=0.0) * 1000, 1)

    def health(self) -> dict[str, Any]:
        """This process's part: node, shards (home, held, served), Redis, heartbeat lag."""
        return {
            "node": self.node,
            "shard_count": self.config.shard_count,
            "home": shard_ranges(self.config.home),
            "held": shard_ranges(set(self.held)),
            "serving": shard_ranges(self.ready),
            "redis": self.redis_ok,
            "peers": sorted(self.live_nodes()),
            "lag_ms": self.lag_ms(),
        }
