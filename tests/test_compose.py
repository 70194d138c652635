"""``docker-compose.yml`` (issue 11): PostgreSQL, Redis and two bot processes whose
``stackbot run`` commands the real command line accepts, whose shards cover every shard of
one shard count exactly once, which reach the database and Redis by the services' names,
wait for them to be healthy, and are checked through their health endpoint. (No Docker
daemon here: the file is read, not run.)"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import yaml

from bot.cli import _parser, cluster_config
from bot.config import Settings
from host.cluster import parse_shards

ROOT = Path(__file__).resolve().parents[1]


def compose() -> dict[str, Any]:
    loaded: dict[str, Any] = yaml.safe_load((ROOT / "docker-compose.yml").read_text())
    return loaded


def bot_services() -> dict[str, dict[str, Any]]:
    return {
        name: service
        for name, service in compose()["services"].items()
        if service.get("command", [None])[0] == "run"
    }


def test_postgresql_redis_and_two_bot_processes() -> None:
    services = compose()["services"]
    assert services["postgres"]["image"].startswith("postgres:")
    assert services["redis"]["image"].startswith("redis:")
    assert len(bot_services()) == 2
    assert services["sync"]["command"] == ["sync"]  # the commands published once, by hand
    assert services["sync"]["profiles"] == ["tools"]


def test_the_processes_shards_cover_every_shard_exactly_once() -> None:
    counts, covered = set(), []
    for service in bot_services().values():
        args = _parser().parse_args(service["command"])
        counts.add(args.shard_count)
        covered += sorted(parse_shards(args.shards, args.shard_count))
    assert len(counts) == 1, "every process must say the same --shard-count"
    assert sorted(covered) == list(range(counts.pop()))


def test_each_process_is_configured_for_the_cluster_and_checked_by_its_health() -> None:
    for name, service in bot_services().items():
        env = service["environment"]
        assert env["DATABASE_URL"].startswith("postgresql+asyncpg://")
        assert "@postgres:5432/" in env["DATABASE_URL"]
        assert env["REDIS_URL"] == "redis://redis:6379/0"
        assert env["NODE_NAME"] == name
        settings = Settings(
            _env_file=None,
            database_url=env["DATABASE_URL"],
            redis_url=env["REDIS_URL"],
            health_port=int(env["HEALTH_PORT"]),
        )
        args = _parser().parse_args(service["command"])
        config = cluster_config(settings, args.shards, args.shard_count)
        assert config is not None and config.redis_url == env["REDIS_URL"]
        probe = " ".join(service["healthcheck"]["test"])
        port = re.search(r"127\.0\.0\.1:(\d+)/health", probe)
        assert port is not None and port.group(1) == env["HEALTH_PORT"]
        for needed in ("postgres", "redis"):
            assert service["depends_on"][needed]["condition"] == "service_healthy"
        assert service["restart"] == "unless-stopped"
        assert service["build"] == "." and service["image"] == "stackbot"
