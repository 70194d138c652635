"""The commit → page latency of the web front end, measured: ``python -m web.bench``.

The demo's host (SQLite in a temporary folder) with one table of each game; ``--pages``
spectator sockets (aiohttp clients, on this machine) watch each table; the tables are
played ``--moves`` moves each, through the host, one every ``--pace`` seconds. Printed:
from the host's call after a commit (:meth:`web.hub.Hub.turn_changed`) to the frame handed
to a page's socket, and to the frame received by the page's socket (the same clock);
with ``--browser``, to the page drawn in Debian's headless Chromium (a page a table).
Figures only, never a verdict: the machine's load is in them.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import statistics
import sys
import threading
import time
from typing import Any

import orjson
from aiohttp import ClientSession, web

from engine import games
from web.demo import Demo
from web.server import make_app


def _figures(name: str, values: list[float]) -> str:
    if not values:
        return f"{name}: no sample"
    ordered = sorted(values)
    p99 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]
    return (
        f"{name}: n={len(values)} p50={statistics.median(values):.2f} ms "
        f"p99={p99:.2f} ms max={ordered[-1]:.2f} ms"
    )


async def _watch(session: ClientSession, url: str, origin: str, got: list[float]) -> None:
    async with session.ws_connect(url, headers={"Origin": origin}) as ws:
        async for message in ws:
            frame: dict[str, Any] = orjson.loads(message.data)
            if frame.get("type") == "table":
                got.append(time.time() * 1000 - frame["sent_at"])


def _browser(urls: list[str], opened: threading.Event, done: threading.Event) -> list[float]:
    """A page of each URL in Debian's headless Chromium, kept open until ``done``: the
    pages' own figures, commit -> page drawn (``window.stackbotLatency``)."""
    from playwright.sync_api import sync_playwright

    from web.shots import ARGS, CHROMIUM

    with sync_playwright() as playwright:
        # a fresh profile (Playwright's own temporary one); a context (a window) a page,
        # so that every page is visible and draws (a background tab's frames wait)
        browser = playwright.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        pages = []
        for url in urls:
            page = browser.new_context().new_page()
            page.goto(url)
            page.wait_for_function("() => window.stackbotFrames >= 1")
            pages.append(page)
        opened.set()
        done.wait()
        found: list[float] = []
        for page in pages:
            found += page.evaluate("window.stackbotLatency.slice(1)")  # after the first
        browser.close()
    return found


async def bench(pages: int, moves: int, pace: float, seed: int, browser: bool) -> None:
    demo = Demo(seed=seed)
    service = await demo.start(play=False)
    runner = web.AppRunner(make_app(service, demo.hub))
    await runner.setup()
    await web.TCPSite(runner, "127.0.0.1", 0).start()
    port = runner.addresses[0][1]
    origin = f"http://127.0.0.1:{port}"
    received: list[float] = []
    try:
        tables = [await demo.open_table(c, n) for c, n in enumerate(games.names(), start=1)]
        async with ClientSession() as session:
            watchers = [
                asyncio.create_task(
                    _watch(session, f"{origin}/tables/{t.live.id}/ws", origin, received)
                )
                for t in tables
                for _ in range(pages)
            ]
            opened, done = threading.Event(), threading.Event()
            drawn: asyncio.Future[list[float]] | None = None
            if browser:
                urls = [f"{origin}/tables/{t.live.id}" for t in tables]
                drawn = asyncio.ensure_future(asyncio.to_thread(_browser, urls, opened, done))
                await asyncio.to_thread(opened.wait)
            while len(received) < len(watchers):  # every page has the table
                await asyncio.sleep(0.05)
            demo.hub.sent_ms.clear()
            received.clear()
            rng = random.Random(seed)
            for _ in range(moves):
                for table in tables:
                    if table.over:  # its game ended: no more commits there
                        continue
                    await demo.step(table, rng)
                await asyncio.sleep(pace)
            await asyncio.sleep(0.5)
            done.set()
            in_browser = await drawn if drawn is not None else []
            for task in watchers:
                task.cancel()
            await asyncio.gather(*watchers, return_exceptions=True)
        sent = list(demo.hub.sent_ms)
        print(f"{len(tables)} tables x {pages} spectator pages, {moves} moves each, pace {pace}s")
        print(_figures("commit -> frame sent", sent))
        print(_figures("commit -> frame received", received))
        if browser:
            print(_figures("commit -> page drawn in Chromium", in_browser))
    finally:
        await runner.cleanup()
        await demo.close()


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m web.bench", description=__doc__)
    parser.add_argument("--pages", type=int, default=20, help="spectator pages per table")
    parser.add_argument("--moves", type=int, default=100, help="moves per table")
    parser.add_argument("--pace", type=float, default=0.05, help="seconds between moves")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--browser",
        action="store_true",
        help="also a page of each table in /usr/bin/chromium (Playwright): commit -> drawn",
    )
    args = parser.parse_args(argv)
    print("command: python -m web.bench " + " ".join(sys.argv[1:] if argv is None else argv))
    asyncio.run(bench(args.pages, args.moves, args.pace, args.seed, args.browser))
    return 0


if __name__ == "__main__":
    sys.exit(main())
