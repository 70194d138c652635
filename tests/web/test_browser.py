"""The pages in a real headless Chromium (Debian's, driven by Playwright), against the
demo's real host on SQLite: every game's live page drawn and updated on commits, on a
380-px phone with touch targets of 44 px at least, both themes, and a replay stepped by
its buttons and arrow keys. Skipped where /usr/bin/chromium (or Playwright) is absent.

Few and short (the CI machine is shared): one browser, one demo, no timed assertion —
the waits only bound how long a broken page may hang the test."""

from __future__ import annotations

import statistics
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from web.demo import in_thread
from web.shots import ARGS
from web.shots import CHROMIUM as CHROMIUM_PATH

CHROMIUM = Path(CHROMIUM_PATH)
WAIT_MS = 120_000  # how long a page may take to show what it must (not a measure)

pytestmark = pytest.mark.skipif(not CHROMIUM.exists(), reason="no /usr/bin/chromium")
sync_api = pytest.importorskip("playwright.sync_api")


@pytest.fixture(scope="module")
def browser() -> Iterator[Any]:
    with sync_api.sync_playwright() as playwright, tempfile.TemporaryDirectory() as profile:
        # a fresh profile: no state from another run; never `playwright install`
        context = playwright.chromium.launch_persistent_context(
            profile,
            executable_path=str(CHROMIUM),
            args=ARGS,
            headless=True,
            viewport={"width": 380, "height": 800},
            color_scheme="dark",
            has_touch=True,
        )
        yield context
        context.close()


@pytest.fixture(scope="module")
def demo() -> Iterator[tuple[str, Any]]:
    with in_thread(pace=0.3, seed=11, between=2.0) as running:
        yield running


def small_targets(page: Any) -> list[str]:
    """The links and buttons smaller than 44 px in height or width (a finger's size)."""
    found: list[str] = page.evaluate(
        """() => [...document.querySelectorAll('a, button, input')]
            .filter((e) => { const r = e.getBoundingClientRect();
                             return r.height < 44 || (e.tagName === 'BUTTON' && r.width < 44); })
            .map((e) => e.outerHTML.slice(0, 80))"""
    )
    return found


def index_page(browser: Any, base: str) -> tuple[Any, list[str]]:
    """A new page on the index, and the errors its scripts will raise."""
    page = browser.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(base + "/")
    return page, errors


def test_every_games_page_is_drawn_and_follows_the_commits_on_a_phone(
    browser: Any, demo: tuple[str, Any]
) -> None:
    base, _ = demo
    page, errors = index_page(browser, base)
    links = page.eval_on_selector_all("#live a", "(a) => a.map((e) => e.getAttribute('href'))")
    assert len(links) == 3
    assert small_targets(page) == []
    latencies: list[float] = []
    for link in links:
        page.goto(base + link)
        # three frames drawn: the table as it was, then two commits
        page.wait_for_function(
            "() => window.stackbotFrames >= 3 || location.pathname.startsWith('/games/')",
            timeout=WAIT_MS,
        )
        if page.url.endswith(link):
            assert page.locator("#board svg").count() >= 1
            assert page.locator("#recent li").count() >= 1
            assert page.evaluate("document.documentElement.scrollWidth") <= 380
            assert small_targets(page) == []
            latencies += page.evaluate("window.stackbotLatency")
    assert errors == []
    assert latencies
    p99 = statistics.quantiles(latencies, n=100)[98] if len(latencies) > 1 else latencies[0]
    print(
        f"\ncommit -> page updated (ms): n={len(latencies)} p50={statistics.median(latencies):.1f} p99={p99:.1f}"
    )
    page.close()


def test_the_pages_follow_the_systems_light_or_dark_theme(
    browser: Any, demo: tuple[str, Any]
) -> None:
    base, _ = demo
    page = browser.new_page()
    shades = {}
    for scheme in ("light", "dark"):
        page.emulate_media(color_scheme=scheme)
        page.goto(base + "/")
        rgb = page.evaluate("getComputedStyle(document.body).backgroundColor")
        shades[scheme] = sum(int(v) for v in rgb[rgb.index("(") + 1 : -1].split(",")[:3])
    assert shades["light"] > 600 > shades["dark"], shades
    page.close()


def test_a_finished_games_replay_steps_by_buttons_and_arrow_keys(
    browser: Any, demo: tuple[str, Any]
) -> None:
    base, running = demo
    deadline = time.monotonic() + WAIT_MS / 1000
    while not running.hub.finished and time.monotonic() < deadline:
        time.sleep(0.5)
    assert running.hub.finished, "no demo game finished"
    game_id = running.hub.finished[0]
    page = browser.new_page()
    page.goto(f"{base}/games/{game_id}")
    count = page.locator("#count")
    count.wait_for(timeout=WAIT_MS)
    last = int(count.inner_text().split(" / ")[1])
    assert count.inner_text() == f"{last} / {last}"
    page.keyboard.press("ArrowLeft")
    assert count.inner_text() == f"{last - 1} / {last}"
    page.get_by_role("button", name="first").click()
    assert count.inner_text() == f"0 / {last}"
    assert page.locator("#words").inner_text() == "The game begins."
    page.keyboard.press("ArrowRight")
    assert count.inner_text() == f"1 / {last}"
    assert page.locator("#board svg").count() >= 1
    assert small_targets(page) == []
    page.close()


@pytest.mark.parametrize("title", ["Stack", "Stack Up!", "Color Stack"])
def test_a_visitor_plays_a_game_against_the_ai_by_tapping_their_moves(
    browser: Any, demo: tuple[str, Any], title: str
) -> None:
    base, _ = demo
    page, errors = index_page(browser, base)
    page.get_by_role("button", name=f"Play {title} against the AI", exact=True).click()
    page.wait_for_url("**/tables/*", timeout=WAIT_MS)
    page.wait_for_function("() => window.stackbotFrames >= 1", timeout=WAIT_MS)
    for _ in range(3):
        if page.evaluate("document.querySelector('#moves') === null"):
            break  # the game ended
        assert small_targets(page) == []
        drawn = page.evaluate("window.stackbotFrames")
        move = page.locator("#moves button").last
        if page.locator("#picks button").count():  # a die or a piece, then where it goes
            page.locator("#picks button").first.tap()
            move = page.locator("#targets button").first
            move.wait_for(timeout=WAIT_MS)
            onto = [
                t
                for t in page.locator("#targets button").all_inner_texts()
                if " on " in t or "→" in t
            ]
            assert page.locator("#board .lit").count() >= len(onto)  # its targets lit
            assert small_targets(page) == []
        move.tap()
        # the host played it (and the AI seats' answers): a new frame, drawn
        page.wait_for_function(f"() => window.stackbotFrames > {drawn}", timeout=WAIT_MS)
        assert page.locator("#refusal").count() == 0 or page.locator("#refusal").inner_text() == ""
    assert page.locator("#recent li", has_text="Guest").count() >= 1
    assert errors == []
    page.close()
