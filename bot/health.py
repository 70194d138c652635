"""How a bot process is doing, for whoever watches it: a log line every minute and, with
``HEALTH_PORT`` set, an HTTP endpoint (``GET /health``: JSON, status 200 when the process
serves what it holds, 503 while it starts, stops, or has lost Redis).

Both say the same: the process's node id and shards (home, held, served; one process of
several), its active tables, how late its event loop runs (the lateness of a timer due
every second with shards, every minute without: the loop lag), the time it takes to
answer a move (p50 and p99 over the last minute), the gateway's heartbeat latency, and
whether Redis answers.

It also starts and stops the tables' web pages (:mod:`bot.webfront`, with ``WEB_PORT``),
as the process's other HTTP server.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections import deque
from typing import TYPE_CHECKING, Any, Protocol

import discord
from aiohttp import web
from discord.ext import tasks

from bot.metrics import CONTENT_TYPE, MOVE_COMMIT_SECONDS, Metrics, timed_drawing
from bot.sharding import gateway_latencies
from bot.webfront import WebFront, listen
from host.cluster import shard_ranges

if TYPE_CHECKING:
    from bot.tables import Tables

log = logging.getLogger(__name__)
LOG_EVERY = 60.0  # seconds between two health lines in the log


class Watched(Protocol):
    """What the report reads of its bot (:class:`bot.client.StackBot` is it): its tables
    (``None`` until they are loaded) and its gateway latency; also, where the bot has them,
    ``cluster`` (one process of several) and ``serving`` (start-up is over)."""

    _tables: Tables | None

    @property
    def latency(self) -> float: ...


class LoopLag:
    """The event loop's lateness: how late a periodic timer ran, over its last rounds."""

    def __init__(self, every: float) -> None:
        self.every = every
        self.lags: deque[float] = deque(maxlen=60)
        self._last: float | None = None

    def tick(self) -> None:
        now = time.monotonic()
        if self._last is not None:
            self.lags.append(max(0.0, now - self._last - self.every))
        self._last = now

    def worst_ms(self) -> float:
        return round(max(self.lags, default=0.0) * 1000, 1)


class Health:
    """The health report of a bot process, logged every minute and served over HTTP."""

    def __init__(self, bot: Watched, port: int | None, host: str = "0.0.0.0") -> None:
        self.bot = bot
        self.port = port
        self.host = host
        self.lag = LoopLag(LOG_EVERY)  # the log line's timer (the heartbeat's, with shards)
        self._runner: web.AppRunner | None = None
        self._logger = tasks.loop(seconds=LOG_EVERY, reconnect=False)(self._log_line)
        self.metrics = Metrics(self)
        settings = getattr(bot, "settings", None)  # the bot's pages, started with the report
        self.web = WebFront(settings) if settings is not None else None

    def report(self) -> dict[str, Any]:
        bot = self.bot
        tables = bot._tables
        cluster = getattr(bot, "cluster", None)
        out: dict[str, Any] = {"status": self.status()}
        config = getattr(bot, "cluster_config", None)
        if cluster is not None:
            out.update(cluster.health())
        elif config is not None:  # one process of several, not joined yet: nothing held
            out.update(
                node=getattr(bot, "node", None),
                shard_count=config.shard_count,
                home=shard_ranges(config.home),
                held="none",
                serving="none",
            )
        else:
            out["shards"] = "all (one process)"
        out["tables"] = len(tables.service.by_id) if tables is not None else 0
        out["loop_lag_ms"] = cluster.lag_ms() if cluster is not None else self.lag.worst_ms()
        out["moves"] = tables.move_timings.summary() if tables is not None else {"count": 0}
        if isinstance(bot, discord.AutoShardedClient):
            connected = [x for _, x in gateway_latencies(bot)]
            latency = sum(connected) / len(connected) if connected else float("nan")
        else:
            latency = bot.latency
        finite = latency == latency and latency != float("inf")
        out["gateway_ms"] = round(latency * 1000, 1) if finite else None
        return out

    def status(self) -> str:
        bot = self.bot
        tables = bot._tables
        cluster = getattr(bot, "cluster", None)
        if tables is None or not getattr(bot, "serving", True):
            return "starting"
        if not tables.accepting:
            return "stopping"
        if cluster is not None:
            if not cluster.redis_ok:
                return "degraded"
            if cluster.held - cluster.ready:
                return "starting"
        return "ok"

    def line(self) -> str:
        r = self.report()
        moves = r["moves"]
        p99 = f"{moves['p99_ms']:.0f} ms" if "p99_ms" in moves else "-"
        shards = (
            f"shards={r['serving']}/{r['shard_count']} (home {r['home']}) node={r['node']}"
            if "node" in r
            else "shards=all"
        )
        gateway = f"{r['gateway_ms']:.0f} ms" if r.get("gateway_ms") is not None else "-"
        return (
            f"health: {r['status']} {shards} tables={r['tables']} "
            f"moves/min={moves['count']} move_p99={p99} loop_lag={r['loop_lag_ms']:.0f} ms "
            f"gateway={gateway}" + ("" if r.get("redis", True) else " redis=DOWN")
        )

    async def start(self) -> None:
        """The log line every minute, the endpoint (with a port), and the tables' web
        pages (with ``WEB_PORT``); once."""
        if self._logger.is_running():
            return
        self.watch()
        self._logger.start()
        if self.web is not None and self.bot._tables is not None:
            await self.web.start(self.bot._tables)
        if self.port is None:
            return
        app = web.Application()
        app.router.add_get("/health", self._handle)
        app.router.add_get("/metrics", self._metrics)
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        await listen(self._runner, "HEALTH_PORT", self.host, self.port)
        log.info("health: serving http://%s:%d/health", self.host, self.port)

    async def stop(self) -> None:
        running = self._logger.get_task()
        self._logger.cancel()
        if running is not None:
            with contextlib.suppress(asyncio.CancelledError):
                await running
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None
        if self.web is not None:
            await self.web.stop()

    async def _handle(self, _request: web.Request) -> web.Response:
        report = self.report()
        return web.json_response(report, status=200 if report["status"] == "ok" else 503)

    async def _metrics(self, _request: web.Request) -> web.Response:
        self.watch()
        return web.Response(body=self.metrics.text(), headers={"Content-Type": CONTENT_TYPE})

    def watch(self) -> None:
        """Time the bot's moves and pictures into the metrics, once its tables exist."""
        tables = self.bot._tables
        if tables is None or getattr(tables, "_metrics_watched", False):
            return
        tables._metrics_watched = True  # type: ignore[attr-defined]
        tables.move_timings.observe = MOVE_COMMIT_SECONDS.observe
        tables.painter.draw = timed_drawing(tables.painter.draw)  # type: ignore[method-assign]

    async def _log_line(self) -> None:
        self.lag.tick()
        try:
            log.info(self.line())
        except Exception:  # a report that cannot be made must not stop the loop
            log.exception("health: no report")
