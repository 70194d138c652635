"""The docs' screenshots of the pages: ``python -m web.shots docs/pictures``.

Runs the demo (:mod:`web.demo`), opens each game's live page and a finished game's replay
in Debian's headless Chromium (Playwright, ``/usr/bin/chromium``; never a downloaded
browser), on a 380-px phone in the dark theme and on a desktop in the light one, and saves
``web-<game>-phone.png``, ``web-stack-desktop.png``, ``web-replay-phone.png`` and
``web-play-stackup-phone.png`` (a visitor's own table, their hand and moves),
``web-play-stack-phone.png`` (a die picked on the board, its targets lit) and
``web-replay-stack-phone.png`` (a short Stack game's replay, its round-by-round chart); with
``--ja`` only ``web-ja.png``: a visitor's own Stack table opened from the Japanese page
(``?lang=ja``), a die picked. A tool for the docs (the dev extra's Playwright), not run by
the bot.
"""

from __future__ import annotations

import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from engine import games
from web.demo import Demo, in_thread

CHROMIUM = "/usr/bin/chromium"
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
PHONE: Any = {"width": 380, "height": 820}
DESKTOP: Any = {"width": 1200, "height": 820}


def _table(page: Any, base: str, demo: Demo, game: str, frames: int) -> None:
    """The live page of the demo's table of ``game``, once it has drawn ``frames``
    frames (a game that ends meanwhile: the next one's)."""
    while True:
        live = [t for t in list(demo.service.by_id.values()) if t.info.game == game]  # type: ignore[union-attr]
        if live and live[0].info.status != "lobby":
            page.goto(f"{base}/tables/{live[0].id}")
            page.wait_for_function(
                f"() => window.stackbotFrames >= {frames} || location.pathname.startsWith('/games/')",
                timeout=120_000,
            )
            if "/tables/" in page.url:
                return
        time.sleep(0.5)


def _visitor(page: Any, base: str, title: str) -> None:
    """A visitor's own new table of ``title`` against the AI, opened in ``page``."""
    page.goto(base + "/")
    page.get_by_role("button", name=f"Play {title} against the AI").click()
    page.wait_for_url("**/tables/*")


SHORT = {"stack": {"target_score": 30}}  # the visitor's Stack game: a few rounds


def shoot(folder: Path) -> list[Path]:
    from playwright.sync_api import sync_playwright

    saved: list[Path] = []
    with (
        in_thread(pace=0.8, seed=4, between=2.0, visitor_options=SHORT) as (base, demo),
        sync_playwright() as playwright,
        tempfile.TemporaryDirectory() as profile,
    ):
        context = playwright.chromium.launch_persistent_context(
            profile, executable_path=CHROMIUM, args=ARGS, headless=True, viewport=PHONE
        )
        page = context.new_page()
        for game in sorted(games.names()):
            page.emulate_media(color_scheme="dark")
            _table(page, base, demo, game, 6)
            saved.append(folder / f"web-{game}-phone.png")
            page.screenshot(path=str(saved[-1]), full_page=True)
        page.set_viewport_size(DESKTOP)
        page.emulate_media(color_scheme="light")
        _table(page, base, demo, "stack", 3)
        saved.append(folder / "web-stack-desktop.png")
        page.screenshot(path=str(saved[-1]))
        while not demo.hub.finished:
            time.sleep(0.5)
        page.set_viewport_size(PHONE)
        page.emulate_media(color_scheme="dark")
        page.goto(f"{base}/games/{demo.hub.finished[0]}")
        page.locator("#count").wait_for()
        page.keyboard.press("ArrowLeft")
        saved.append(folder / "web-replay-phone.png")
        page.screenshot(path=str(saved[-1]), full_page=True)
        page.emulate_media(color_scheme="light")
        _visitor(page, base, "Stack Up!")
        page.locator("#moves button").first.wait_for()
        saved.append(folder / "web-play-stackup-phone.png")
        page.screenshot(path=str(saved[-1]), full_page=True)
        # a visitor's short Stack game: a die picked on the board, its targets lit; then
        # played to its end (by the panel) for its replay's round-by-round chart
        _visitor(page, base, "Stack")
        page.locator("#board .can-pick").first.click()
        saved.append(folder / "web-play-stack-phone.png")
        page.screenshot(path=str(saved[-1]), full_page=True)
        page.emulate_media(color_scheme="dark")
        while not page.evaluate("window.stackbotOver"):
            drawn = page.evaluate("window.stackbotFrames")
            if page.locator("#picks button").count():  # a die, then its first choice
                page.locator("#picks button").first.click()
                page.locator("#targets button").first.click()
            else:
                page.locator("#moves button").first.click()
            page.wait_for_function(f"() => window.stackbotFrames > {drawn}")
            page.wait_for_function("() => window.stackbotOver || document.querySelector('#moves')")
        page.goto(page.url.replace("/tables/", "/games/"))
        page.locator("#chart").wait_for()
        saved.append(folder / "web-replay-stack-phone.png")
        page.screenshot(path=str(saved[-1]), full_page=True)
        context.close()
    return saved


def shoot_japanese(folder: Path) -> list[Path]:
    """``web-ja.png``: a visitor's Stack table in Japanese on a phone, a die picked."""
    from playwright.sync_api import sync_playwright

    with (
        in_thread(pace=0.8, seed=4, between=2.0, visitor_options=SHORT, language="ja") as (
            base,
            _demo,
        ),
        sync_playwright() as playwright,
        tempfile.TemporaryDirectory() as profile,
    ):
        context = playwright.chromium.launch_persistent_context(
            profile, executable_path=CHROMIUM, args=ARGS, headless=True, viewport=PHONE
        )
        page = context.new_page()
        page.emulate_media(color_scheme="dark")
        page.goto(base + "/?lang=ja")
        page.locator('form[action^="/demo/play/stack?"] button').click()
        page.wait_for_url("**/tables/*")
        page.locator("#board .can-pick").first.click()
        page.locator("#targets button").first.wait_for()
        saved = folder / "web-ja.png"
        page.screenshot(path=str(saved), full_page=True)
        context.close()
    return [saved]


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    japanese = "--ja" in args
    args = [a for a in args if a != "--ja"]
    folder = Path(args[0] if args else "docs/pictures")
    for path in shoot_japanese(folder) if japanese else shoot(folder):
        print(path)
    return 0


if __name__ == "__main__":
    sys.exit(main())
