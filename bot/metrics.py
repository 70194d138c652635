"""The bot's Prometheus metrics, all defined here: served as ``GET /metrics`` on the health
port (:mod:`bot.health`, ``HEALTH_PORT``) in Prometheus' text format.

What the bot counts as it works (one set per process):

``stackbot_interaction_seconds{kind}`` (histogram)
    An interaction's time in the bot: from discord.py handing it over (the gateway event
    read) to the end of its handling, its answer sent. ``kind``: ``command`` (slash
    commands, typed moves, their options' autocompletion) or ``component`` (buttons and
    selects: My turn, taps).
``stackbot_interactions_total{kind,outcome}``
    Interactions handled, by ``outcome``: ``ok``, ``refused`` (answered with a refusal:
    nothing changed) or ``error`` (a failure answered with the short note).
``stackbot_refusals_total{reason}``
    Refusals, by ``reason``: the host's (``Why``, lower case: ``not_your_turn``,
    ``stale``...), ``words`` (the bot's own, e.g. a stale panel), ``input`` (what a
    modified client sent), ``moved`` (the table's shard went to another process).
``stackbot_move_commit_seconds`` (histogram)
    A move's step: from its handler asking the host to its commit returned (the table's
    lock, the engine, the group commit to the database).
``stackbot_picture_draw_seconds`` (histogram)
    A picture (table picture or chart) from being asked of the painter to its PNG (queue
    wait in the picture worker included).
``stackbot_database_errors_total``
    Interactions answered "the database did not answer".

What it reads of the bot when scraped (a snapshot, nothing kept):

``stackbot_live_tables{game}``, ``stackbot_table_clocks`` (running turn clocks),
``stackbot_outbox_deliveries`` (tables whose outbox rows are being delivered: the
backlog), ``stackbot_painter_queue`` (pictures waiting for the picture worker),
``stackbot_clock_lag_seconds`` (how late the event loop ran a periodic timer, worst of the
last rounds: every clock of the process is that late too), ``stackbot_shards_held`` and
``stackbot_shards_serving`` (one process of several; one process alone holds and serves
its one shard), ``stackbot_serving`` (1 when the health status is ``ok``).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Coroutine, Iterator
from typing import Any, Protocol

from prometheus_client import CollectorRegistry, Counter, Histogram, generate_latest
from prometheus_client.core import GaugeMetricFamily, Metric
from prometheus_client.registry import Collector

CONTENT_TYPE = "text/plain; version=0.0.4; charset=utf-8"
LATENCY_BUCKETS = (0.005, 0.01, 0.025, 0.05, 0.075, 0.1, 0.15, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0)
RECEIVED = "stackbot_received"  # interaction.extras key: when the bot got it (perf_counter)

INTERACTION_SECONDS = Histogram(
    "stackbot_interaction_seconds",
    "An interaction's time in the bot, from the gateway event read to its answer sent",
    ["kind"],
    buckets=LATENCY_BUCKETS,
    registry=None,
)
INTERACTIONS = Counter(
    "stackbot_interactions",
    "Interactions handled, by kind and outcome (ok, refused, error)",
    ["kind", "outcome"],
    registry=None,
)
REFUSALS = Counter("stackbot_refusals", "Refusals answered, by reason", ["reason"], registry=None)
MOVE_COMMIT_SECONDS = Histogram(
    "stackbot_move_commit_seconds",
    "A move's step, from its handler to its commit returned (lock, engine, group commit)",
    buckets=LATENCY_BUCKETS,
    registry=None,
)
PICTURE_SECONDS = Histogram(
    "stackbot_picture_draw_seconds",
    "A picture from being asked of the painter to its PNG (waiting included)",
    buckets=LATENCY_BUCKETS,
    registry=None,
)
DATABASE_ERRORS = Counter(
    "stackbot_database_errors",
    "Interactions answered that the database did not answer",
    registry=None,
)
COUNTED = (
    INTERACTION_SECONDS,
    INTERACTIONS,
    REFUSALS,
    MOVE_COMMIT_SECONDS,
    PICTURE_SECONDS,
    DATABASE_ERRORS,
)


def received(extras: dict[str, Any]) -> None:
    """Note when the bot got an interaction (its ``extras``)."""
    extras.setdefault(RECEIVED, time.perf_counter())


def handled(extras: dict[str, Any], kind: str, outcome: str) -> None:
    """An interaction of ``kind`` was handled with ``outcome``: counted, and timed from
    :func:`received`."""
    INTERACTIONS.labels(kind, outcome).inc()
    started = extras.get(RECEIVED)
    if started is not None:
        INTERACTION_SECONDS.labels(kind).observe(time.perf_counter() - started)


Drawing = Callable[..., Coroutine[Any, Any, bytes]]


def timed_drawing(draw: Drawing) -> Drawing:
    """``draw`` (a painter's), each call timed into ``stackbot_picture_draw_seconds``."""

    async def timed(*args: Any, **kwargs: Any) -> bytes:
        with PICTURE_SECONDS.time():
            return await draw(*args, **kwargs)

    return timed


class Watching(Protocol):
    """What the snapshot reads: a bot's health report (:class:`bot.health.Health`)."""

    bot: Any

    def report(self) -> dict[str, Any]: ...


class _Counted(Collector):
    """What the bot counts (the module's metrics, kept out of prometheus_client's global
    registry so that every bot of a process may serve them)."""

    def collect(self) -> Iterator[Metric]:
        for metric in COUNTED:
            yield from metric.collect()


class _Snapshot(Collector):
    """What the bot holds, read when scraped."""

    def __init__(self, health: Watching) -> None:
        self.health = health

    def collect(self) -> Iterator[Metric]:
        bot: Any = self.health.bot
        tables = bot._tables
        games = GaugeMetricFamily("stackbot_live_tables", "Live tables, by game", labels=["game"])
        clocks = 0
        deliveries = 0
        queue = 0
        if tables is not None:
            by_game: dict[str, int] = {}
            for live in list(tables.service.by_id.values()):
                by_game[live.index.game] = by_game.get(live.index.game, 0) + 1
            for game, count in sorted(by_game.items()):
                games.add_metric([game], count)
            clocks = tables.health()["clocks"]
            deliveries = len(getattr(tables.outbox, "_delivering", ()))
            queue = len(getattr(tables.painter, "_waiting", ()))
        yield games
        yield GaugeMetricFamily("stackbot_table_clocks", "Running turn clocks", value=clocks)
        yield GaugeMetricFamily(
            "stackbot_outbox_deliveries",
            "Tables whose outbox rows are being delivered (the outbox backlog)",
            value=deliveries,
        )
        yield GaugeMetricFamily(
            "stackbot_painter_queue", "Pictures waiting for the picture worker", value=queue
        )
        report = self.health.report()
        yield GaugeMetricFamily(
            "stackbot_clock_lag_seconds",
            "How late the event loop ran a periodic timer (worst of the last rounds)",
            value=report["loop_lag_ms"] / 1000,
        )
        cluster = getattr(bot, "cluster", None)
        held = len(cluster.held) if cluster is not None else 1
        ready = len(cluster.ready) if cluster is not None else int(tables is not None)
        yield GaugeMetricFamily("stackbot_shards_held", "Shards this process holds", value=held)
        yield GaugeMetricFamily(
            "stackbot_shards_serving", "Shards this process serves (held and ready)", value=ready
        )
        yield GaugeMetricFamily(
            "stackbot_serving",
            "1 when the health status is ok",
            value=int(report["status"] == "ok"),
        )


class Metrics:
    """The metrics one bot serves: what it counts and what it holds."""

    def __init__(self, health: Watching) -> None:
        self.registry = CollectorRegistry(auto_describe=False)
        self.registry.register(_Counted())
        self.registry.register(_Snapshot(health))

    def text(self) -> bytes:
        return generate_latest(self.registry)
