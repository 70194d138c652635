"""``GET /metrics`` (issue 20, item 5): the real ``stackbot run`` process, played through
the Discord stand-in, counts what it did — interactions by kind and outcome, refusals by
reason, move and interaction latencies — and shows what it holds when scraped: live
tables by game, shards, the painter's queue, the clock lag."""

from __future__ import annotations

import json
import random
import re
import socket
from pathlib import Path

import aiohttp
from prometheus_client.parser import text_string_to_metric_families

from bot import loadtest
from bot.standin import DiscordStandIn


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


async def scrape(port: int) -> dict[tuple[str, tuple[tuple[str, str], ...]], float]:
    """``GET /metrics``: every sample by name and labels."""
    async with (
        aiohttp.ClientSession() as session,
        session.get(f"http://127.0.0.1:{port}/metrics") as answer,
    ):
        assert answer.status == 200
        assert answer.headers["Content-Type"].startswith("text/plain; version=0.0.4")
        text = await answer.text()
    return {
        (s.name, tuple(sorted(s.labels.items()))): s.value
        for family in text_string_to_metric_families(text)
        for s in family.samples
    }


async def test_metrics_count_the_interactions_moves_and_refusals_a_real_bot_served(
    tmp_path: Path,
) -> None:
    port = free_port()
    async with DiscordStandIn() as discord_:
        discord_.keep_requests = False
        members = loadtest.Members(discord_, random.Random(3), typed=0.0)
        guild = discord_.add_guild("Tables")
        table = members.add_table("stack", guild, "stack")
        bot = await loadtest.launch(
            discord_, tmp_path, HEALTH_PORT=str(port), HEALTH_HOST="127.0.0.1"
        )
        try:
            before = await scrape(port)
            await members.open(table)  # /table new, /table join, /table start
            await discord_.wait_for(lambda: table.message is not None, timeout=60)
            assert table.message is not None
            to_move = loadtest.TURN.search(loadtest.texts(table.message))
            assert to_move is not None
            waiting = next(u for uid, u in table.members.items() if uid != to_move[1])
            assert not await members.tapped_move(table, waiting, table.message)  # not theirs
            assert await members.tapped_move(  # My turn, then a move: played
                table, table.members[to_move[1]], table.message
            )
            after = await scrape(port)
        finally:
            await loadtest.stop(bot)

    def moved(name: str, **labels: str) -> float:
        key = (name, tuple(sorted(labels.items())))
        return after.get(key, 0.0) - before.get(key, 0.0)

    assert moved("stackbot_interactions_total", kind="command", outcome="ok") == 3
    assert moved("stackbot_interactions_total", kind="component", outcome="ok") == 2
    assert moved("stackbot_interactions_total", kind="component", outcome="refused") == 1
    assert moved("stackbot_refusals_total", reason="not_your_turn") == 1
    assert moved("stackbot_interaction_seconds_count", kind="command") == 3
    assert moved("stackbot_interaction_seconds_count", kind="component") == 3
    assert moved("stackbot_move_commit_seconds_count") == 1
    assert moved("stackbot_picture_draw_seconds_count") >= 1  # the started table's picture
    assert after[("stackbot_live_tables", (("game", "stack"),))] == 1
    assert after[("stackbot_shards_held", ())] == after[("stackbot_shards_serving", ())] == 1
    assert after[("stackbot_serving", ())] == 1
    assert after[("stackbot_table_clocks", ())] == 1
    assert after[("stackbot_database_errors_total", ())] == 0
    for gauge in ("stackbot_painter_queue", "stackbot_outbox_deliveries"):
        assert after[(gauge, ())] >= 0
    assert after[("stackbot_clock_lag_seconds", ())] >= 0


def test_the_readme_and_the_dashboard_name_only_metrics_the_bot_serves_and_each_one() -> None:
    root = Path(__file__).resolve().parents[2]
    source = (root / "bot/metrics.py").read_text()
    defined = set(re.findall(r'"(stackbot_[a-z_]+)"', source)) - {"stackbot_received"}

    def named(text: str) -> set[str]:
        names = re.findall(r"stackbot_[a-z_]+", text)
        return {re.sub(r"_(bucket|count|sum|total)$", "", n) for n in names}

    dashboard = json.loads((root / "docs/grafana-dashboard.json").read_text())
    exprs = " ".join(t["expr"] for p in dashboard["panels"] for t in p["targets"])
    assert named(exprs) and named(exprs) <= defined, named(exprs) - defined
    readme = (root / "README.md").read_text()
    section = readme.split("### Metrics: `GET /metrics`")[1].split("\n### ")[0]
    assert named(section) == defined, named(section) ^ defined
