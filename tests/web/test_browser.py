"""The pages in a real headless Chromium (Debian's, driven by Playwright), against the
demo's real host on SQLite: every game's live page drawn and updated on commits, on a
380-px phone with touch targets of 44 px at least, both themes, and a replay stepped by
its buttons and arrow keys. Skipped where /usr/bin/chromium (or Playwright) is absent.

Few and short (the CI machine is shared): one browser, one demo, no timed assertion —
the waits only bound how long a broken page may hang the test."""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import random
import re
import statistics
import tempfile
import threading
import time
from collections.abc import Coroutine, Iterator
from pathlib import Path
from typing import Any

import orjson
import pytest
from aiohttp import web

from engine import games
from engine.stackup.cards import NUMBER_CARDS
from engine.stackup.moves import Play
from host.live import Player
from web.activity import DiscordOAuth
from web.demo import VISITOR_CHANNELS, Demo, DemoTable, in_thread
from web.shots import ARGS
from web.shots import CHROMIUM as CHROMIUM_PATH
from web.views import setting_up
from web.views import turns_played as turns_taken

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


# the visitors' games kept short (the CPU is shared): a low target, few turns
SHORT = {
    "stack": {"target_score": 10},
    "stackup": {"turn_limit": 10},
    "colorstack": {"turn_limit": 8},
}


@pytest.fixture(scope="module")
def demo() -> Iterator[tuple[str, Any]]:
    with in_thread(pace=0.3, seed=11, between=2.0, visitor_options=SHORT) as running:
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


def visitor_table(browser: Any, base: str, title: str) -> tuple[Any, list[str]]:
    """A visitor's own new table of ``title`` against the AI (the index's Play button):
    its page, and the errors its scripts will raise."""
    page, errors = index_page(browser, base)
    page.get_by_role("button", name=f"Play {title} against the AI", exact=True).click()
    page.wait_for_url("**/tables/*", timeout=WAIT_MS)
    return page, errors


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
    assert page.locator("#words").inner_text().startswith("The game begins.")
    page.keyboard.press("ArrowRight")
    assert count.inner_text() == f"1 / {last}"
    assert page.locator("#board svg").count() >= 1
    assert small_targets(page) == []
    page.close()


@pytest.mark.parametrize("title", ["Stack", "Stack Up!", "Color Stack"])
def test_a_visitor_plays_a_game_against_the_ai_by_tapping_their_moves(
    browser: Any, demo: tuple[str, Any], title: str
) -> None:
    page, errors = visitor_table(browser, demo[0], title)
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


def own_targets_under_44px(page: Any) -> list[str]:
    """The player's own dice (Stack) and hand cards (Stack Up!) drawn under 44 px."""
    found: list[str] = page.evaluate(
        """() => [...document.querySelectorAll('#board [data-pick^="die:"], #hand .tap')]
            .map((e) => e.getBoundingClientRect())
            .filter((r) => r.width < 43.5 || r.height < 43.5)
            .map((r) => `${r.width}x${r.height}`)"""
    )
    return found


def choose_colours_if_asked(page: Any) -> None:
    """Color Stack, the guest moving first: their colours, the first of the twelve (the
    rule book's default), before the board is set up; then their pieces are there."""
    if not page.locator("#moves p", has_text="choose your two colours").count():
        return
    choices = page.locator("#moves button")
    assert choices.count() == 12
    assert choices.first.inner_text() == "red, then yellow (the other player: blue, then green)"
    choices.first.click()
    page.locator("#board .can-pick").first.wait_for(timeout=WAIT_MS)


def tap_the_board(page: Any, game: str) -> bool:
    """One move of the seated player made on the board itself: Stack, one of their dice
    (picked by the keyboard: focus, Enter) then a lit pile or die; Color Stack, a piece
    then a lit square; Stack Up!, hand cards one by one until a play button appears. The
    panel only where the board has nothing to tap (a reroll, a face, a draw, a pass).
    Whether the move was the board's."""
    picks = page.locator("#board .can-pick")
    if game in ("Stack", "Color Stack") and picks.count():
        if game == "Stack":
            picks.first.focus()
            page.keyboard.press("Enter")
        else:
            picks.first.tap()
        page.locator("#board .picked").first.wait_for(timeout=WAIT_MS)
        lit = page.locator("#board .lit.tap")
        # the lit places are the live buttons; the others say they are not (for now)
        assert page.locator("#board .lit.tap[aria-disabled=true]").count() == 0
        assert (
            page.locator("#board .tap:not(.lit):not(.can-pick)[aria-disabled=false]").count() == 0
        )
        (lit.first if lit.count() else page.locator("#targets button").first).tap()
        return bool(lit.count())
    if game == "Stack Up!" and page.locator("#hand .tap").count():
        for _ in range(page.locator("#hand .tap").count()):
            if page.locator("#combo button").count():
                break
            page.locator("#hand .tap:not(.off):not(.picked)").first.tap()
        if page.locator("#combo button").count():
            page.locator("#combo button").first.tap()
            return True
    page.locator("#moves button").first.tap()
    return False


def turns_played(page: Any) -> int:
    """The turns played as the board says it (Stack Up!, Color Stack: "3 of 10 turns
    played", a limit of 10)."""
    said = re.search(r"(\d+) of \d+ turns played", page.locator("#board").inner_text())
    assert said is not None, page.locator("#board").inner_text()
    return int(said.group(1))


@pytest.mark.parametrize("title", ["Stack", "Stack Up!", "Color Stack"])
def test_a_whole_game_is_played_by_tapping_the_board_itself(
    browser: Any, demo: tuple[str, Any], title: str
) -> None:
    page, errors = visitor_table(browser, demo[0], title)
    moves = on_board = 0
    for _ in range(300):  # a bound for a broken page, far above a short game's turns
        page.wait_for_function(
            "() => window.stackbotOver || document.querySelector('#moves') !== null",
            timeout=WAIT_MS,
        )
        if page.evaluate("window.stackbotOver"):
            break
        drawn = page.evaluate("window.stackbotFrames")
        if title != "Color Stack":  # your own dice and cards: a finger's size on a phone
            assert own_targets_under_44px(page) == []
        if page.locator("#moves button", has_text="Put the").count():  # a reroll to place
            assert page.locator("#moves p", has_text="choose the pile it goes on").count() == 1
        if page.locator("#moves button", has_text="the other player:").count():  # colours
            assert page.locator("#moves p", has_text="choose your two colours").count() == 1
        if title != "Stack":  # the board's count of turns played: the latest recent turn's number
            recent = page.locator("#recent ol")
            latest = int(recent.get_attribute("start") or 0) if recent.count() else 0
            assert turns_played(page) == latest
        on_board += tap_the_board(page, title)
        moves += 1
        page.wait_for_function(
            f"() => window.stackbotFrames > {drawn} || "
            "(document.querySelector('#refusal') || {}).textContent",
            timeout=WAIT_MS,
        )
        assert page.locator("#refusal").count() == 0 or page.locator("#refusal").inner_text() == ""
    assert page.evaluate("window.stackbotOver")  # played to its end
    assert on_board >= 1, f"{moves} moves, none on the board"
    print(f"{title}: {moves} moves, {on_board} on the board")
    assert page.locator("#recent li", has_text="Guest").count() >= 1
    # its replay: Stack's round-by-round chart, a line per player and the target; the
    # other games are not played in rounds (no chart)
    players = page.locator("#board .seat").count()
    page.goto(page.url.replace("/tables/", "/games/"))
    page.locator("#count").wait_for(timeout=WAIT_MS)
    if title == "Stack":
        assert page.locator("#chart polyline").count() == players
        assert page.locator("#chart line.target").count() == 1
        assert "target 10" in page.locator("#chart").get_attribute("aria-label")
        page.get_by_role("button", name="first").click()  # before round 1: all shaded
        assert page.locator("#chart rect.later").count() == 1
    else:
        assert page.locator("#chart").count() == 0
        # its steps are the live table's turns: the last is the board's count of turns taken
        last = int(page.locator("#count").inner_text().split(" / ")[1])
        assert turns_played(page) == last
        page.keyboard.press("ArrowLeft")
        assert page.locator("#status").inner_text() == f"Turn {last - 1} of {last}"
        assert turns_played(page) == last - 1
    assert errors == []
    page.close()


def english_of_the_pages() -> list[str]:
    """The English of every ``web.*`` key that Japanese says otherwise, in fragments (the
    text between its placeholders) of a word of three letters or more; a fragment that is
    a game's English name too is left out (the games' names are the games' catalogs')."""
    import catalog
    from engine import games as all_games

    titles = " ".join(all_games.get(name).title for name in all_games.names())
    fragments: set[str] = set()
    english, japanese = catalog.catalog("en").texts, catalog.catalog("ja").texts
    for key, text in english.items():
        if not key.startswith("web.") or japanese.get(key) == text:
            continue
        for form in text if isinstance(text, tuple) else (text,):
            for part in re.split(r"\{\w+\}", form):
                part = part.strip(" ·:;,.()—+'\n")
                if re.search(r"[A-Za-z]{3,}", part) and part not in titles:
                    fragments.add(part)
    return sorted(fragments)


# the page's own words: its text and what it reads aloud, but the game's words (the recent
# turns the table told, the moves' buttons, the replay's words of each step: the games'
# catalogs) and the players' names
PAGE_WORDS = """() => {
  const skip = (e) => e.closest("#recent li, #moves button, #combo button, #words");
  const out = [];
  const walk = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  while (walk.nextNode()) {
    const node = walk.currentNode;
    if (!skip(node.parentElement) && node.textContent.trim()) out.push(node.textContent);
  }
  for (const e of document.querySelectorAll("[aria-label], [title]")) {
    if (!skip(e)) out.push(e.getAttribute("aria-label") || "", e.getAttribute("title") || "");
  }
  out.push(document.title);
  return out.join("\\n");
}"""


def english_found(page: Any, english: list[str], names: list[str]) -> list[str]:
    shown = page.evaluate(PAGE_WORDS)
    for name in names:
        shown = shown.replace(name, " ")
    return [e for e in english if re.search(rf"(?<![A-Za-z]){re.escape(e)}(?![A-Za-z])", shown)]


def test_a_live_table_and_a_replay_read_japanese_on_a_phone_with_lang_ja(
    browser: Any, demo: tuple[str, Any], tmp_path: Path
) -> None:
    base, running = demo
    english = english_of_the_pages()
    assert "Recent turns" in english and "Score sheet" in english  # the check can fail
    page = browser.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(base + "/?lang=ja")
    assert page.evaluate("document.documentElement.lang") == "ja"
    assert "対局中の卓" in page.locator("h1").inner_text()
    # the seats' names are names (a visitor who came from an English page is "Guest")
    seated = page.locator("#live .row span").all_inner_texts()
    assert english_found(page, english, seated) == []
    # a visitor's own Stack Up! table, opened from the Japanese page: it speaks Japanese
    page.locator('form[action^="/demo/play/stackup"] button').click()
    page.wait_for_url("**/tables/*?lang=ja", timeout=WAIT_MS)
    page.wait_for_function("() => document.querySelector('#moves') !== null", timeout=WAIT_MS)
    assert page.evaluate("document.documentElement.lang") == "ja"
    names = page.locator("#board .who b").all_inner_texts()
    assert names and "あなたの番" in page.locator("#moves h2").inner_text()
    assert english_found(page, english, names) == []
    assert page.evaluate("document.documentElement.scrollWidth") <= 380
    assert small_targets(page) == []
    page.screenshot(path=str(tmp_path / "web-ja-table.png"), full_page=True)
    # a finished game's replay
    deadline = time.monotonic() + WAIT_MS / 1000
    while not running.hub.finished and time.monotonic() < deadline:
        time.sleep(0.5)
    assert running.hub.finished, "no demo game finished"
    page.goto(f"{base}/games/{running.hub.finished[0]}?lang=ja")
    page.locator("#count").wait_for(timeout=WAIT_MS)
    assert page.evaluate("document.documentElement.lang") == "ja"
    page.get_by_role("button", name="最初へ").click()
    assert page.locator("#words").inner_text().startswith("対局開始。")
    page.get_by_role("button", name="次へ").click()
    assert "手目" in page.locator("#status").inner_text()
    names = page.locator("#board .who b").all_inner_texts()
    assert english_found(page, english, names) == []
    assert page.evaluate("document.documentElement.scrollWidth") <= 380
    page.screenshot(path=str(tmp_path / "web-ja-replay.png"), full_page=True)
    assert errors == []
    page.close()


def test_following_the_links_of_a_japanese_page_keeps_it_japanese(
    browser: Any, demo: tuple[str, Any]
) -> None:
    base, running = demo
    deadline = time.monotonic() + WAIT_MS / 1000
    while not running.hub.finished and time.monotonic() < deadline:
        time.sleep(0.5)
    assert running.hub.finished, "no demo game finished"
    page = browser.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(base + "/?lang=ja")
    page.locator("#live a.row").first.click()  # a live table
    page.wait_for_url("**/tables/*?lang=ja", timeout=WAIT_MS)
    assert page.evaluate("document.documentElement.lang") == "ja"
    page.locator("#recent h2").wait_for(timeout=WAIT_MS)
    assert page.locator("#recent h2").inner_text() == "直近の手番"
    page.locator("a.home").click()  # the bar's link back to the index
    page.wait_for_url(re.compile(r"/\?lang=ja$"), timeout=WAIT_MS)
    assert "対局中の卓" in page.locator("h1").inner_text()
    page.locator("#finished a.row").first.click()  # a finished game's replay
    page.wait_for_url("**/games/*?lang=ja", timeout=WAIT_MS)
    page.locator("#count").wait_for(timeout=WAIT_MS)
    assert page.evaluate("document.documentElement.lang") == "ja"
    page.goto(f"{base}/tables/{running.hub.finished[0]}?lang=ja")  # over: to its replay
    page.wait_for_url(f"**/games/{running.hub.finished[0]}?lang=ja", timeout=WAIT_MS)
    page.goto(base + "/nowhere?lang=ja")  # no such page: said in Japanese, with a way back
    assert page.locator("h1").inner_text() == "ページが見つかりません"
    page.get_by_role("link", name="卓の一覧に戻る").click()
    page.wait_for_url(re.compile(r"/\?lang=ja$"), timeout=WAIT_MS)
    assert page.evaluate("document.documentElement.lang") == "ja"
    assert errors == []
    page.close()


@contextlib.contextmanager
def served_in_thread(app: web.Application, name: str) -> Iterator[int]:
    """``app`` served on loopback from a thread (and event loop) of its own, named
    ``name``, while inside: its port."""
    loop = asyncio.new_event_loop()
    thread = threading.Thread(target=loop.run_forever, name=name, daemon=True)
    thread.start()
    runner = web.AppRunner(app)

    async def start() -> int:
        await runner.setup()
        site = web.TCPSite(runner, "127.0.0.1", 0)
        await site.start()
        return int(runner.addresses[0][1])

    port = asyncio.run_coroutine_threadsafe(start(), loop).result()
    try:
        yield port
    finally:
        asyncio.run_coroutine_threadsafe(runner.cleanup(), loop).result()
        loop.call_soon_threadsafe(loop.stop)
        thread.join()
        loop.close()


@contextlib.contextmanager
def discord_standin(users: dict[str, dict[str, str]]) -> Iterator[str]:
    """Discord's OAuth2 token and users/@me endpoints on loopback (a thread of its own):
    its base URL; ``users``: the user each code names."""

    async def token(request: web.Request) -> web.Response:
        form = await request.post()
        user = users.get(str(form.get("code")))
        if user is None or form.get("client_secret") != SECRET:
            return web.json_response({"error": "invalid_grant"}, status=400)
        return web.json_response({"access_token": "token-" + user["id"]})

    async def me(request: web.Request) -> web.Response:
        bearer = request.headers.get("Authorization", "").removeprefix("Bearer token-")
        found = [u for u in users.values() if u["id"] == bearer]
        return web.json_response(found[0]) if found else web.json_response({}, status=401)

    app = web.Application()
    app.router.add_post("/oauth2/token", token)
    app.router.add_get("/users/@me", me)
    with served_in_thread(app, "discord-standin") as port:
        yield f"http://127.0.0.1:{port}"


SECRET = "the-apps-secret"


def test_the_activity_identifies_its_user_with_the_sdks_mock_and_they_move_by_tapping(
    browser: Any,
) -> None:
    """The Activity's page on the SDK's mock (its code ``mock_code``), the code exchanged
    by the server at a stand-in of Discord: the user it names plays the table of the
    channel given to the SDK, by tapping, through the host's checks; the page speaks the
    user's Discord locale (Japanese) once Discord said it."""
    guest = VISITOR_CHANNELS * 1000 + 1  # the first visitor's table and player
    users = {
        "mock_code": {"id": str(guest), "username": "guest", "global_name": "Guest", "locale": "ja"}
    }
    with discord_standin(users) as api:
        oauth = DiscordOAuth(42, SECRET, api)
        with in_thread(pace=3600.0, seed=5, activity=oauth) as (base, _demo):
            page, errors = index_page(browser, base)
            page.get_by_role("button", name="Play Stack against the AI", exact=True).click()
            page.wait_for_url("**/tables/*", timeout=WAIT_MS)
            browser.clear_cookies()  # the demo's session gone: only the Activity's now
            page.goto(f"{base}/activity?channel={VISITOR_CHANNELS + 1}")
            page.wait_for_function("() => window.stackbotFrames >= 1", timeout=WAIT_MS)
            page.locator("#moves button").last.wait_for(timeout=WAIT_MS)
            assert SECRET not in page.content()
            assert page.evaluate("document.documentElement.lang") == "ja"
            assert page.locator("#moves h2").inner_text() == "あなたの番"
            drawn = page.evaluate("window.stackbotFrames")
            if page.locator("#picks button").count():
                page.locator("#picks button").first.tap()
                page.locator("#targets button").first.wait_for(timeout=WAIT_MS)
                page.locator("#targets button").first.tap()
            else:
                page.locator("#moves button").last.tap()
            page.wait_for_function(f"() => window.stackbotFrames > {drawn}", timeout=WAIT_MS)
            assert page.locator("#recent li", has_text="Guest").count() >= 1
            assert errors == []
            page.close()


# what of a drawing lies outside its picture: a frame's stroke, a card's name, a word
OUTSIDE = """async ([views, hands]) => {
  const boards = await import("/static/boards.js");
  document.body.replaceChildren(boards.drawStack(views.stack),
                                boards.drawStackUp(views.stackup, hands));
  const out = [];
  for (const pic of document.querySelectorAll("svg.board")) {
    const box = pic.getBoundingClientRect();
    const scale = box.width / pic.viewBox.baseVal.width;
    for (const edge of pic.querySelectorAll("rect.edge")) {
      const r = edge.getBoundingClientRect();
      const half = parseFloat(getComputedStyle(edge).strokeWidth) * scale / 2;
      if (r.left - half < box.left - 0.5 || r.right + half > box.right + 0.5 ||
          r.top - half < box.top - 0.5 || r.bottom + half > box.bottom + 0.5) out.push("edge");
    }
    for (const text of pic.querySelectorAll("text")) {  // a board's words: inside it
      const t = text.getBoundingClientRect();
      if (t.left < box.left - 0.5 || t.right > box.right + 0.5) out.push(text.textContent);
    }
    for (const card of pic.querySelectorAll("g[role=img]")) {
      const face = card.querySelector("rect").getBoundingClientRect();
      for (const text of card.querySelectorAll("text")) {
        const t = text.getBoundingClientRect();
        if (t.left < face.left - 0.5 || t.right > face.right + 0.5) {
          out.push(card.getAttribute("aria-label"));
        }
      }
    }
  }
  return out;
}"""


def _stack_view_framing_the_first_pile() -> dict[str, Any]:
    """A Stack table whose last move went on its leftmost pile."""
    import random

    from engine import games as all_games
    from web.views import board

    game = all_games.get("stack")
    rng = random.Random(0)
    while True:
        state: Any = game.new_state(["Ada", "Bo", "Cy"], game.settings())
        while not state.is_over:
            if state.decision.name == "CHANCE":
                state.apply(state.sample_chance(rng))
            else:
                state.apply(rng.choice(list(state.legal_moves())))
            shown = board("stack", state)
            last = shown["last"]
            if last and last["kind"] == "pile" and last["index"] == 0 and not state.is_over:
                players = [{"name": n, "ai": None} for n in state.players]
                return {"board": shown, "players": players, "current": state.current_player}


@pytest.mark.parametrize(("width", "language"), [(380, "en"), (1280, "en"), (380, "ja")])
def test_the_last_piles_frame_and_the_special_cards_names_stay_inside_their_pictures(
    browser: Any, demo: tuple[str, Any], width: int, language: str
) -> None:
    import random

    from engine import games as all_games
    from web.views import board

    base, _ = demo
    game = all_games.get("stackup")
    state: Any = game.new_state(["Ada", "Bo", "Cy", "Di"], game.settings())
    rng = random.Random(1)
    while state.decision.name == "CHANCE":
        state.apply(state.sample_chance(rng))
    stackup = {"board": board("stackup", state), "players": [{"name": n, "ai": None} for n in
               state.players], "current": state.current_player}  # fmt: skip
    specials = ["Freeze", "Switch", "Snatch", "Crash", "Flip"]
    views = {"stack": _stack_view_framing_the_first_pile(), "stackup": stackup}
    page = browser.new_page()
    page.set_viewport_size({"width": width, "height": 800})
    page.goto(f"{base}/?lang={language}")  # the cards' names in the page's language
    found = page.evaluate(OUTSIDE, [views, [specials] * 4])
    assert found == []
    assert page.locator("rect.edge").count() == 1
    page.close()


def on_the_demos_loop(demo: Demo, work: Coroutine[Any, Any, Any]) -> Any:
    """``work`` run on the event loop that serves ``demo`` (its thread): its result."""
    loop = demo.tasks[0].get_loop()
    return asyncio.run_coroutine_threadsafe(work, loop).result()


async def stack_game_played_to(demo: Demo, table: DemoTable | None, rounds: int) -> DemoTable:
    """A Stack game of the demo's (``table``, else a new one to its default 200 points: 8
    rounds or so) played by its AI until it has scored ``rounds`` rounds, or to its end."""
    if table is None:
        table = await demo.open_table(500, "stack")
    rng = random.Random(5)
    while not table.over and len(table.live.game.game.round_scores(table.live.state)) < rounds:
        await demo.step(table, rng)
    return table


# how the score sheet sits: whether its box is inside its panel, and the cells of its
# headings and names that take more than one line
SHEET = """() => {
  const box = document.querySelector("table.sheet").parentElement;  // what shows it
  const panel = box.closest(".panel").getBoundingClientRect();
  const shown = box.getBoundingClientRect();
  const wrapped = [...box.querySelectorAll("th, td:first-child")].filter((cell) => {
    const style = getComputedStyle(cell);
    const inner = cell.clientHeight - parseFloat(style.paddingTop) - parseFloat(style.paddingBottom);
    return inner > 1.5 * parseFloat(style.lineHeight);
  }).map((cell) => cell.textContent);
  return { inside: shown.left >= panel.left && shown.right <= panel.right,
           scrolls: getComputedStyle(box).overflowX, wrapped,
           rounds: box.querySelectorAll("thead th").length - 2 };
}"""


def test_a_long_stack_games_pages_fit_a_phone_and_its_sheet_stays_in_its_panel(
    browser: Any, demo: tuple[str, Any]
) -> None:
    base, running = demo
    table = on_the_demos_loop(running, stack_game_played_to(running, None, 6))
    assert not table.over, "the game ended before its sixth round"
    page = browser.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.set_viewport_size({"width": 390, "height": 800})
    for language in ("en", "ja"):  # its live page: six rounds on the sheet, many piles
        page.goto(f"{base}/tables/{table.live.id}?lang={language}")
        page.locator("table.sheet").wait_for(timeout=WAIT_MS)
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
        sheet = page.evaluate(SHEET)
        assert sheet["rounds"] >= 6 and sheet["inside"] and sheet["wrapped"] == []
    on_the_demos_loop(running, stack_game_played_to(running, table, 1000))
    assert table.over
    for width in (390, 1280):  # its replay, every round on the sheet
        page.set_viewport_size({"width": width, "height": 800})
        for language in ("en", "ja"):
            page.goto(f"{base}/games/{table.live.id}?lang={language}")
            page.locator("#count").wait_for(timeout=WAIT_MS)
            assert page.evaluate("document.documentElement.scrollWidth") <= width
            sheet = page.evaluate(SHEET)
            assert sheet["rounds"] >= 7, sheet
            assert sheet == {**sheet, "inside": True, "scrolls": "auto", "wrapped": []}
            piles = page.locator("#board svg.board").last.bounding_box()
            assert piles is not None and piles["x"] + piles["width"] <= width
    assert errors == []
    page.close()


# every text the status line shows, from now on
STATUS_SHOWN = """() => {
  window.statusShown = [];
  const status = document.getElementById("status");
  new MutationObserver(() => window.statusShown.push(status.textContent))
    .observe(status, { childList: true, characterData: true, subtree: true });
}"""


def test_while_its_socket_is_down_a_table_says_it_reconnects_and_sends_no_move(
    browser: Any, demo: tuple[str, Any]
) -> None:
    """The socket closed under the page, and each new one refused while the "server" is
    down (Playwright's route of the page's sockets); then let through again."""
    page = browser.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    down = False
    opened: list[Any] = []  # the page's sockets, the routes that passed them on
    sent: list[str] = []  # the frames the page sent the server

    def route(socket: Any) -> None:
        opened.append(socket)
        if down:
            socket.close()
            return
        server = socket.connect_to_server()
        socket.on_message(lambda message: (sent.append(message), server.send(message)))

    page.route_web_socket(re.compile(r"/tables/\d+/ws"), route)
    page.goto(demo[0] + "/")
    page.get_by_role("button", name="Play Color Stack against the AI", exact=True).click()
    page.wait_for_url("**/tables/*", timeout=WAIT_MS)
    page.locator("#moves button").first.wait_for(timeout=WAIT_MS)
    choose_colours_if_asked(page)
    sent.clear()  # the colours chosen, if the guest moves first: not what is checked here
    assert page.locator("#moves button:disabled").count() == 0
    down = True
    page.evaluate(STATUS_SHOWN)
    opened[-1].close()
    tries = len(opened)
    # two sockets refused since: the page has been down for longer than its clock's second
    page.wait_for_function(
        "() => document.getElementById('status').textContent === 'Reconnecting…'", timeout=WAIT_MS
    )
    for _ in range(WAIT_MS // 100):  # Playwright answers the page's sockets meanwhile
        if len(opened) >= tries + 2:
            break
        page.wait_for_timeout(100)
    assert set(page.evaluate("window.statusShown")) == {"Reconnecting…"}
    assert page.locator("#status").inner_text() == "Reconnecting…"
    assert page.locator("#moves button:enabled").count() == 0
    # a piece tapped on the board: its move is not sent, and the page says so
    page.locator("#board .can-pick").first.tap(force=True)  # it says it is disabled
    assert "Not sent" in page.locator("#refusal").inner_text()
    assert page.locator("#board .picked").count() == 0
    assert sent == []
    down = False
    # back: the table drawn again, and a move made on the board is played
    page.locator("#moves button:enabled").first.wait_for(timeout=WAIT_MS)
    assert "to move" in page.locator("#status").inner_text()
    drawn = page.evaluate("window.stackbotFrames")
    tap_the_board(page, "Color Stack")  # on the board, or its panel
    page.wait_for_function(f"() => window.stackbotFrames > {drawn}", timeout=WAIT_MS)
    assert [orjson.loads(frame)["type"] for frame in sent] == ["move"]
    assert errors == []
    page.close()


async def game_played_to_its_end(demo: Demo, table: DemoTable) -> None:
    rng = random.Random(3)
    while not table.over:
        await demo.step(table, rng)


def test_a_live_table_whose_game_is_over_links_its_replay(
    browser: Any, demo: tuple[str, Any]
) -> None:
    base, running = demo
    table = on_the_demos_loop(running, running.open_table(501, "colorstack"))
    page = browser.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(f"{base}/tables/{table.live.id}?lang=ja")
    page.wait_for_function("() => window.stackbotFrames >= 1", timeout=WAIT_MS)
    assert page.locator("#replay-link a").count() == 0  # not while the game runs
    assert small_targets(page) == []
    on_the_demos_loop(running, game_played_to_its_end(running, table))
    link = page.get_by_role("link", name="この対局のリプレイを見る")
    link.wait_for(timeout=WAIT_MS)  # once its last frame is drawn
    assert small_targets(page) == []
    link.click()
    page.wait_for_url(f"**/games/{table.live.id}?lang=ja", timeout=WAIT_MS)
    page.locator("#count").wait_for(timeout=WAIT_MS)
    assert errors == []
    page.close()


async def short_colorstack_table(demo: Demo, channel: int, turn_limit: int) -> DemoTable:
    """A Color Stack table of two played by the AI, its game drawn after ``turn_limit``
    turns unless someone wins before."""
    service = demo.service
    assert service is not None
    host, other = Player(channel * 100, "Ada"), Player(channel * 100 + 1, "Bo")
    options = {"turn_limit": turn_limit}
    live = await service.new_table(1, channel, host, options, game="colorstack")
    await service.join(channel, other)
    await service.start(channel, host)
    return DemoTable(live, [host, other], games.get("colorstack").make_ai("greedy"))


def test_a_drawn_games_status_says_it_was_drawn_as_a_won_games_says_who_won(
    browser: Any, demo: tuple[str, Any]
) -> None:
    """A Color Stack game that reached its turn limit without a winner: its live page's
    status line, once the game is over, and its replay's last step say it was drawn (in
    English and Japanese), as a won game's say who won."""
    base, running = demo
    table = on_the_demos_loop(running, short_colorstack_table(running, 540, 4))
    pages = {}
    for language in ("en", "ja"):
        pages[language] = page = browser.new_page()
        page.goto(f"{base}/tables/{table.live.id}?lang={language}")
        page.wait_for_function("() => window.stackbotFrames >= 1", timeout=WAIT_MS)
    on_the_demos_loop(running, game_played_to_its_end(running, table))
    outcome = table.live.game.game.outcome(table.live.state)
    assert outcome is not None and outcome.winners == (), outcome  # drawn
    said = {"en": "The game is over: it was drawn.", "ja": "対局終了：引き分け。"}
    for language, page in pages.items():
        page.wait_for_function("() => window.stackbotOver", timeout=WAIT_MS)
        assert page.locator("#status").inner_text() == said[language]
        page.goto(f"{base}/games/{table.live.id}?lang={language}")
        page.locator("#count").wait_for(timeout=WAIT_MS)  # at its last step
        assert page.locator("#status").inner_text() == said[language]
        page.close()


def test_a_move_refused_as_stale_asks_for_the_table_as_it_is_now(
    browser: Any, demo: tuple[str, Any]
) -> None:
    """The page missed a commit (its frame lost on the way: Playwright's route of the
    socket drops it) and its player's move, of the table as it was, is refused as stale:
    the page asks for the table as it is now and draws it at once (not waiting for the
    next commit), still saying why the move was not played."""
    base, running = demo
    table = on_the_demos_loop(running, running.open_table(541, "colorstack"))
    state: Any = table.live.state
    mover = table.player_at(state.current_player)
    dropping, dropped = False, []

    def route(socket: Any) -> None:
        server = socket.connect_to_server()

        def from_server(message: Any) -> None:
            if dropping and orjson.loads(message)["type"] == "table":
                dropped.append(message)
            else:
                socket.send(message)

        server.on_message(from_server)

    url = f"{base}/tables/{table.live.id}"
    page, errors = seated_page(browser, url, running.sessions.issue(mover), route)
    browser.clear_cookies()
    assert page.locator("#moves p", has_text="choose your two colours").count() == 1
    dropping = True
    on_the_demos_loop(running, running.step(table, random.Random(1)))  # the colours chosen
    for _ in range(WAIT_MS // 100):
        if dropped:
            break
        page.wait_for_timeout(100)
    assert dropped, "the commit's frame never came"
    dropping = False
    drawn = page.evaluate("window.stackbotFrames")
    page.locator("#moves button").first.click()  # colours, chosen on the page missed
    page.wait_for_function(f"() => window.stackbotFrames > {drawn}", timeout=WAIT_MS)
    assert page.locator("#board svg.board").count() == 1  # the board, laid
    assert page.locator("#moves p", has_text="choose your two colours").count() == 0
    if page.locator("#refusal").count():  # their turn again: the panel says why
        assert page.locator("#refusal").inner_text() == "The table moved on: choose again."
    assert errors == []
    page.close()


def test_a_socket_closed_for_a_frame_too_big_says_so_and_the_page_reconnects(
    browser: Any, demo: tuple[str, Any]
) -> None:
    """The server closes a socket whose frame is over its size (1009; the page sends none
    such, Playwright's route closes it so): the page says its move was not played, in its
    move panel once it has reconnected and drawn the table again."""
    base, running = demo
    table = on_the_demos_loop(running, running.open_table(542, "colorstack"))
    state: Any = table.live.state
    mover = table.player_at(state.current_player)
    opened: list[Any] = []

    def route(socket: Any) -> None:
        opened.append(socket)
        socket.connect_to_server()

    url = f"{base}/tables/{table.live.id}"
    page, errors = seated_page(browser, url, running.sessions.issue(mover), route)
    drawn = page.evaluate("window.stackbotFrames")
    opened[-1].close(code=1009, reason="Message size exceeds limit")
    page.wait_for_function(f"() => window.stackbotFrames > {drawn}", timeout=WAIT_MS)
    browser.clear_cookies()
    assert page.locator("#refusal").inner_text() == (
        "Not played: the page sent the table more than it takes at once, and was "
        "disconnected. Choose again."
    )
    assert page.locator("#moves button:enabled").count() >= 1
    assert errors == []
    page.close()


def seated_page(
    browser: Any, url: str, token: str | None, route: Any = None
) -> tuple[Any, list[str]]:
    """A page of ``url`` whose socket is the session ``token``'s (``None``: a spectator's),
    drawn once, and the errors its scripts will raise; with ``route``, its sockets go
    through it (Playwright's ``route_web_socket``). The pages share the browser's
    cookies: each page's socket keeps the session it opened with."""
    from web.guard import SESSION_COOKIE

    browser.clear_cookies()
    if token is not None:
        browser.add_cookies([{"name": SESSION_COOKIE, "value": token, "url": url}])
    page = browser.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.set_viewport_size({"width": 390, "height": 800})
    if route is not None:
        page.route_web_socket(re.compile(r"/tables/\d+/ws"), route)
    page.goto(url)
    page.wait_for_function("() => window.stackbotFrames >= 1", timeout=WAIT_MS)
    return page, errors


def test_while_color_stacks_first_player_chooses_colours_every_page_says_so_and_draws_no_board(
    browser: Any, demo: tuple[str, Any]
) -> None:
    """Set-up step 1: no card is laid yet. The chooser's page, the other player's (in
    Japanese) and a spectator's say who is choosing colours, not whose turn it is, and
    show where the board will be instead of an empty grid; once the colours are chosen,
    each draws the board laid."""
    base, running = demo
    table = on_the_demos_loop(running, running.open_table(502, "colorstack"))
    state: Any = table.live.state
    assert state.choosing_colours
    first, other = table.player_at(state.first), table.player_at(1 - state.first)
    url = f"{base}/tables/{table.live.id}"
    chooser, errors = seated_page(browser, url, running.sessions.issue(first))
    watcher, watcher_errors = seated_page(browser, url + "?lang=ja", running.sessions.issue(other))
    spectator, spectator_errors = seated_page(browser, url, None)
    browser.clear_cookies()
    expected = {
        chooser: (
            f"{first.name} (you): choose your two colours",
            "once you have chosen your colours",
        ),
        watcher: (f"先手の{first.name}が色を選んでいます", f"{first.name}が色を選ぶと盤が並びます"),
        spectator: (
            f"{first.name} moves first and is choosing colours",
            f"once {first.name} has chosen",
        ),
    }
    for page, (status, board) in expected.items():
        assert page.locator("#status").inner_text().startswith(status)
        assert board in page.locator("#not-laid").inner_text()
        assert page.locator("#board svg").count() == 0  # no grid of a board not laid
        assert page.locator("#board .seat.to-move .tag.move").inner_text() in (
            "choosing colours",
            "色を選択中",
        )
        assert page.evaluate("document.documentElement.scrollWidth") <= 390
    assert chooser.locator("#moves button").count() == 12
    assert watcher.locator("#moves").count() == spectator.locator("#moves").count() == 0
    drawn = [page.evaluate("window.stackbotFrames") for page in expected]
    chooser.locator("#moves button").first.click()  # red, then yellow
    for page, before in zip(expected, drawn, strict=True):
        page.wait_for_function(f"() => window.stackbotFrames > {before}", timeout=WAIT_MS)
        assert page.locator("#not-laid").count() == 0
        assert page.locator("#board svg.board").count() == 1  # the board, laid
        assert "colours" not in page.locator("#status").inner_text()
        assert "色を選んで" not in page.locator("#status").inner_text()
    assert chooser.locator("#board .can-pick").count() == 6  # their six dice, each alone
    assert errors == watcher_errors == spectator_errors == []
    for page in expected:
        page.close()


# each recent turn's number as the page shows it ("" where it shows none), newest first
# (a reversed list: from its start down, but where an item says its own value)
RECENT_NUMBERS = """() => {
  const list = document.querySelector("#recent ol");
  let number = list.start + 1;
  return [...list.children].map((li) => {
    number = li.hasAttribute("value") ? Number(li.getAttribute("value")) : number - 1;
    return getComputedStyle(li).listStyleType === "none" ? "" : String(number);
  });
}"""


def test_a_decision_told_before_the_first_turn_takes_no_turn_number(
    browser: Any, demo: tuple[str, Any], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Where the table tells the colours chosen as a line of its recent turns (the bot's
    front does, :meth:`DiscordGame.decision_text`), that line has no number and the turns
    after it keep theirs: turn 1 is the first move on the board."""
    from terminal.hosting import TerminalHostedGame

    def told(self: Any, state: Any, seat: int, move: Any) -> str | None:
        return (
            f"{state.players[seat]} chose the colours."
            if type(move).__name__ == "Colours"
            else None
        )

    monkeypatch.setattr(TerminalHostedGame, "decision_text", told)
    base, running = demo
    table = on_the_demos_loop(running, running.open_table(503, "colorstack"))
    rng = random.Random(1)
    for _ in range(3):  # the colours, then two turns
        on_the_demos_loop(running, running.step(table, rng))
    page = browser.new_page()
    page.goto(f"{base}/tables/{table.live.id}")
    page.wait_for_function("() => window.stackbotFrames >= 1", timeout=WAIT_MS)
    lines = page.locator("#recent li").all_inner_texts()
    assert len(lines) == 3 and lines[-1].endswith("chose the colours."), lines
    assert page.evaluate(RECENT_NUMBERS) == ["2", "1", ""]
    assert turns_played(page) == 2
    page.close()


def test_a_notice_among_the_recent_turns_takes_no_turn_number(
    browser: Any, demo: tuple[str, Any]
) -> None:
    """A line of the recent turns that tells no turn (a seat handed to an AI after its
    timeouts: the host's notice) has no number, and the turns before it keep theirs."""
    base, running = demo
    table = on_the_demos_loop(running, running.open_table(504, "colorstack"))
    rng = random.Random(1)
    for _ in range(3):  # the colours, then two turns
        on_the_demos_loop(running, running.step(table, rng))

    async def notice() -> None:
        table.live.turns.append("Bo timed out 3 turns in a row: an AI plays the seat.")

    on_the_demos_loop(running, notice())
    page = browser.new_page()
    page.goto(f"{base}/tables/{table.live.id}")
    page.wait_for_function("() => window.stackbotFrames >= 1", timeout=WAIT_MS)
    lines = page.locator("#recent li").all_inner_texts()
    assert len(lines) == 3 and lines[0].startswith("Bo timed out"), lines
    assert page.evaluate(RECENT_NUMBERS) == ["", "2", "1"]
    page.close()


# eight names of Discord's 32 characters at most: one word wider than a phone, markup
# that must stay text, a mention, a name in Japanese
LONG_NAMES = (
    "W" * 32,
    "<script>alert(1)</script>&amp;<b",
    "**bold** __u__ ~~s~~ @everyone 🎲",
    "<@123456789> <#42> `code` ||x||",
    "ニックネーム日本語の名前です<b>太字</b>&amp;ニックネ",
    "&lt;i&gt;not italic&lt;/i&gt; 🃏",
    "M" * 32,
    "[link](http://x) > quote 🙂🙂🙂🙂🙂",
)


async def full_stack_table(demo: Demo, channel: int) -> DemoTable:
    """A Stack table of eight people (the most the game seats), named :data:`LONG_NAMES`,
    its first round played by the AI."""
    service = demo.service
    assert service is not None
    players = [Player(channel * 100 + i, name) for i, name in enumerate(LONG_NAMES)]
    host, *others = players
    live = await service.new_table(1, channel, host, {"target_score": 500}, game="stack")
    for player in others:
        await service.join(channel, player)
    await service.start(channel, host)
    table = DemoTable(live, players, games.get("stack").make_ai("greedy"))
    return await stack_game_played_to(demo, table, 1)


def test_eight_long_names_fit_a_phone_and_every_score_on_the_sheet_can_be_read(
    browser: Any, demo: tuple[str, Any]
) -> None:
    """Names of 32 characters, one a single word wider than a 360-px phone: the page is
    no wider than the phone (a name breaks where it must), each name is shown as text,
    and the score sheet's names leave room for the scores beside them (the names' column
    stays put while the rounds scroll under it: a name as wide as the box would hide them
    all)."""
    base, running = demo
    table = on_the_demos_loop(running, full_stack_table(running, 510))
    page = browser.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.set_viewport_size({"width": 360, "height": 800})
    for language in ("en", "ja"):
        page.goto(f"{base}/tables/{table.live.id}?lang={language}")
        page.locator("table.sheet").wait_for(timeout=WAIT_MS)
        assert page.evaluate("document.documentElement.scrollWidth") <= 360
        assert page.locator("#board .seat .who b").all_inner_texts() == list(LONG_NAMES)
        # every score cell can be scrolled out from under the names' column
        hidden = page.evaluate(
            """() => {
              const box = document.querySelector(".sheet-box");
              box.scrollLeft = box.scrollWidth;
              const names = box.querySelector("td:first-child").getBoundingClientRect();
              const last = box.getBoundingClientRect();
              return [...box.querySelectorAll("tbody td:last-child")]
                .map((cell) => cell.getBoundingClientRect())
                .filter((r) => r.left < names.right || r.right > last.right + 0.5).length;
            }"""
        )
        assert hidden == 0
    assert errors == []
    page.close()


def test_every_seat_of_a_full_stack_table_has_a_colour_of_its_own(
    browser: Any, demo: tuple[str, Any]
) -> None:
    """Stack seats eight: each seat's dice and chip are drawn in a colour no other seat's
    has (the picture's eight: red, blue, green, yellow, purple, orange, brown, white),
    so a pile's dice tell their owners apart on the page as in the picture."""
    base, running = demo
    table = on_the_demos_loop(running, full_stack_table(running, 511))
    page = browser.new_page()
    page.goto(f"{base}/tables/{table.live.id}")
    page.locator("#board .seat").first.wait_for(timeout=WAIT_MS)
    colours = page.evaluate(
        """() => [...document.querySelectorAll("#board .seat")].map((seat) => [
              getComputedStyle(seat.querySelector(".chip")).backgroundColor,
              getComputedStyle(seat.querySelector("svg rect")).fill])"""
    )
    chips, dice = zip(*colours, strict=True)
    assert len(set(chips)) == len(set(dice)) == 8, colours
    assert chips == dice
    page.close()


# where each seat's chip is drawn beside the first character of its name: whether the
# chip is left of it and within its line (a chip alone on a line above its name is not);
# and how many names take more than one line
CHIP_BESIDE_NAME = """() => [...document.querySelectorAll("#board .seat .who")].map((who) => {
  const chip = who.querySelector(".chip").getBoundingClientRect();
  const name = who.querySelector("b");
  const range = document.createRange();
  range.setStart(name.firstChild, 0);
  range.setEnd(name.firstChild, 1);
  const first = range.getBoundingClientRect();
  const lines = name.getBoundingClientRect().height / parseFloat(getComputedStyle(name).lineHeight);
  return { beside: chip.right <= first.left && chip.top >= first.top - 1 &&
                   chip.bottom <= first.bottom + 1,
           lines: Math.round(lines) };
})"""


def test_a_name_longer_than_its_line_wraps_beside_its_chip_not_below_it(
    browser: Any, demo: tuple[str, Any]
) -> None:
    """A seat's name too long for its line on a 360-px phone wraps in its own box: its
    colour chip stays beside the name's first line (not alone on a line above it)."""
    base, running = demo
    table = on_the_demos_loop(running, full_stack_table(running, 512))
    page = browser.new_page()
    page.set_viewport_size({"width": 360, "height": 800})
    page.goto(f"{base}/tables/{table.live.id}")
    page.locator("#board .seat").first.wait_for(timeout=WAIT_MS)
    seats = page.evaluate(CHIP_BESIDE_NAME)
    assert len(seats) == 8
    assert sum(seat["lines"] > 1 for seat in seats) >= 2, seats  # the check can fail
    assert all(seat["beside"] for seat in seats), seats
    page.close()


# Color Stack's board drawn by the page's module, each stack's count ("×2") measured
# against its piece and its square: [the count's text, whether it is clear of the piece's
# disc, inside its square, and the colour it is drawn in, the square's]
STACK_COUNTS = """async ([view]) => {
  const boards = await import("/static/boards.js");
  document.body.replaceChildren(boards.drawColorStack(view));
  const out = [];
  for (const square of document.querySelectorAll("svg.board g[data-target]")) {
    const count = [...square.querySelectorAll("text")].find((e) => e.textContent.startsWith("×"));
    if (!count) continue;
    const disc = square.querySelector("circle").getBoundingClientRect();
    const r = disc.width / 2, cx = disc.left + r, cy = disc.top + r;
    const t = count.getBoundingClientRect();
    // the point of the count's box nearest the disc's centre, and its distance
    const nx = Math.max(t.left, Math.min(cx, t.right)), ny = Math.max(t.top, Math.min(cy, t.bottom));
    const cell = square.querySelector("rect");
    const q = cell.getBoundingClientRect();
    out.push([count.textContent, Math.hypot(nx - cx, ny - cy) >= r,
              t.left >= q.left && t.right <= q.right && t.top >= q.top && t.bottom <= q.bottom,
              getComputedStyle(count).fill, getComputedStyle(cell).fill]);
  }
  return out;
}"""


def _colorstack_view_with_a_stack() -> dict[str, Any]:
    """A Color Stack game played at random until a square holds a stack of two dice."""
    from engine import games as all_games
    from web.views import board

    game = all_games.get("colorstack")
    state: Any = game.new_state(["Ada", "Bo"], game.settings())
    rng = random.Random(0)
    while not any(len(state.stack(sq)) > 1 for sq in range(state.squares)):
        if state.decision.name == "CHANCE":
            state.apply(state.sample_chance(rng))
        else:
            state.apply(rng.choice(list(state.legal_moves())))
    players = [{"name": n, "ai": None} for n in state.players]
    return {
        "board": board("colorstack", state),
        "players": players,
        "current": state.current_player,
    }


@pytest.mark.parametrize("scheme", ["light", "dark"])
@pytest.mark.parametrize("width", [360, 1280])
def test_a_color_stack_stacks_count_is_clear_of_its_piece(
    browser: Any, demo: tuple[str, Any], width: int, scheme: str
) -> None:
    """A stacked piece's count ("×2") is drawn inside its square and off the piece's
    disc, in a colour of its own against the square, on a phone and a desktop, both
    themes."""
    base, _ = demo
    page = browser.new_page()
    page.emulate_media(color_scheme=scheme)
    page.set_viewport_size({"width": width, "height": 800})
    page.goto(f"{base}/")
    counts = page.evaluate(STACK_COUNTS, [_colorstack_view_with_a_stack()])
    assert counts, "no stack drawn"
    for text, clear, inside, ink, square in counts:
        assert text == "×2" and clear and inside and ink != square, counts
    page.close()


@pytest.mark.parametrize("name", ["stack", "colorstack"])
def test_a_table_closed_mid_game_offers_its_player_no_move_and_links_its_replay(
    browser: Any, demo: tuple[str, Any], name: str
) -> None:
    """A table ended before its game was over (its host ended it; a visitor's left idle):
    the page of the player whose turn it was says the table closed, and nothing else
    says it goes on: no move panel, no seat "to move", Color Stack's board not "set up
    once you have chosen" (it never will be); its replay is linked, as a finished game's."""
    base, running = demo
    table = on_the_demos_loop(running, running.open_table(520 + len(name), name))
    state: Any = table.live.state
    mover = table.player_at(state.current_player)
    page, errors = seated_page(
        browser, f"{base}/tables/{table.live.id}", running.sessions.issue(mover)
    )
    browser.clear_cookies()
    assert page.locator("#moves button").count() >= 1  # their turn
    drawn = page.evaluate("window.stackbotFrames")
    service = running.service
    on_the_demos_loop(running, service.end(table.live.channel_id, mover, manager=True))
    page.wait_for_function(f"() => window.stackbotFrames > {drawn}", timeout=WAIT_MS)
    assert page.locator("#status").inner_text() == "The table closed."
    assert page.locator("#moves").count() == 0
    assert page.locator("#board .to-move, #board .tag.move").count() == 0
    if name == "colorstack":  # ended while its first player chose colours
        assert page.locator("#not-laid").inner_text() == (
            "The game ended before the board was set up."
        )
    page.get_by_role("link", name="Watch this game's replay").click()
    page.wait_for_url(f"**/games/{table.live.id}*", timeout=WAIT_MS)
    page.locator("#count").wait_for(timeout=WAIT_MS)
    assert errors == []
    page.close()


# a name that leaves a right-to-left override open (U+202E): everything after it in its
# paragraph would read backwards, unless the name is isolated where it is put
OVERRIDE = "evil\u202ename"
# the characters of each text node of ``selector`` holding ``marker``, from ``skip`` code
# units into it to the node's end, as drawn: [line's top, left edge, character]
DRAWN = """([selector, marker, skip]) => {
  const out = [];
  for (const element of document.querySelectorAll(selector)) {
    const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const at = node.data.indexOf(marker);
      if (at < 0) continue;
      const drawn = [];
      for (let i = at + skip; i < node.data.length; i++) {
        const range = document.createRange();
        range.setStart(node, i);
        range.setEnd(node, i + 1);
        const box = range.getBoundingClientRect();
        if (box.width > 0) drawn.push([Math.round(box.top), box.left, node.data[i]]);
      }
      out.push(drawn);
    }
  }
  return out;
}"""


def backwards(page: Any, selector: str, marker: str, skip: int = 0) -> list[str]:
    """The texts of ``selector`` (from ``marker``, ``skip`` characters in) whose
    characters are drawn right to left anywhere on a line; asserts there are some."""
    found = page.evaluate(DRAWN, [selector, marker, skip])
    assert found and all(found), (selector, marker, found)
    return [
        "".join(c for _, _, c in drawn)
        for drawn in found
        if any(a[0] == b[0] and b[1] < a[1] for a, b in itertools.pairwise(drawn))
    ]


async def table_with_an_override(demo: Demo, channel: int) -> DemoTable:
    """A Stack table of ``OVERRIDE`` and "Normal", played until a turn is told and it is
    ``OVERRIDE``'s turn."""
    service = demo.service
    assert service is not None
    players = [Player(channel * 100, OVERRIDE), Player(channel * 100 + 1, "Normal")]
    live = await service.new_table(1, channel, players[0], {"target_score": 500}, game="stack")
    await service.join(channel, players[1])
    await service.start(channel, players[0])
    table = DemoTable(live, players, games.get("stack").make_ai("greedy"))
    rng = random.Random(3)
    for _ in range(40):
        state: Any = live.state
        if live.turns and state.players[state.current_player] == OVERRIDE:
            break
        await demo.step(table, rng)
    return table


def test_a_name_with_a_right_to_left_override_reverses_no_word_around_it(
    browser: Any, demo: tuple[str, Any]
) -> None:
    """A name may hold any bidirectional formatting character (Discord's do): one that
    leaves an override open ("evil\u202ename") changes how nothing around it reads, on
    the index (the other player's name does not read "lamroN"), in the status line,
    the recent turns and the board: each name is isolated where it is put."""
    base, running = demo
    table = on_the_demos_loop(running, table_with_an_override(running, 530))
    page, errors = index_page(browser, base)
    assert backwards(page, "#live", "Normal") == []
    page.goto(f"{base}/tables/{table.live.id}")
    page.wait_for_function("() => window.stackbotFrames >= 1", timeout=WAIT_MS)
    after = len(OVERRIDE)
    assert "to move" in page.locator("#status").inner_text()
    assert backwards(page, "#status", OVERRIDE, after) == []
    assert backwards(page, "#recent li", OVERRIDE, after) == []
    assert backwards(page, "#board", "Normal") == []
    assert errors == []
    page.close()


# a device whose clock is an hour ahead of the server's (the page's Date.now)
CLOCK_AHEAD = "(() => { const real = Date.now; Date.now = () => real() + 3600 * 1000; })();"


def test_the_turn_clock_counts_from_the_turns_start_on_a_device_whose_clock_is_off(
    browser: Any, demo: tuple[str, Any]
) -> None:
    """The status line's turn clock counts from the moment the turn began by the server's
    clock: a phone or computer whose own clock is an hour ahead shows the turn just begun,
    not one an hour old (and one behind would show 0:00 for as long as it is behind)."""
    base, running = demo
    table = on_the_demos_loop(running, running.open_table(550, "stack"))
    page = browser.new_page()
    page.add_init_script(CLOCK_AHEAD)
    page.goto(f"{base}/tables/{table.live.id}")
    page.wait_for_function("() => window.stackbotFrames >= 1", timeout=WAIT_MS)
    shown = re.search(r"(\d+):\d\d$", page.inner_text("#status"))
    assert shown is not None, page.inner_text("#status")
    assert int(shown.group(1)) < 30, page.inner_text("#status")  # minutes: not 60
    page.close()


# the text of every live region of the page (what a screen reader announces when it changes)
LIVE_REGIONS = """() => [...document.querySelectorAll('[aria-live], [role=status], [role=alert]')]
  .map((e) => e.textContent)"""


def test_a_screen_reader_is_told_whose_turn_it_is_not_every_tick_of_the_clock(
    browser: Any, demo: tuple[str, Any]
) -> None:
    """The status line's turn clock ticks every second; no live region ticks with it (a
    screen reader would announce the line anew each second), and one of them says whose
    turn it is, changing when the turn does."""
    base, running = demo
    table = on_the_demos_loop(running, running.open_table(551, "stack"))
    page = browser.new_page()
    page.clock.install()
    page.goto(f"{base}/tables/{table.live.id}")
    page.wait_for_function("() => window.stackbotFrames >= 1", timeout=WAIT_MS)
    before, shown = page.evaluate(LIVE_REGIONS), page.inner_text("#status")
    page.clock.run_for(5000)
    assert page.inner_text("#status") != shown  # the clock ticked
    assert page.evaluate(LIVE_REGIONS) == before
    assert any(f"{to_move(table)} to move" in region for region in before), before
    on_the_demos_loop(running, running.step(table, random.Random(3)))
    page.wait_for_function("() => window.stackbotFrames >= 2", timeout=WAIT_MS)
    after = page.evaluate(LIVE_REGIONS)
    assert any(f"{to_move(table)} to move" in region for region in after), after
    page.close()


def to_move(table: DemoTable) -> str:
    """The name of the player to move at ``table``."""
    state = table.live.state
    assert state is not None and state.current_player is not None
    return table.live.info.seats[state.current_player].name


def test_a_player_leaving_mid_game_is_told_among_the_recent_turns_and_their_seat_marked_ai(
    browser: Any, demo: tuple[str, Any]
) -> None:
    """A player who leaves a game under way (an AI takes their seat, as the host says in
    chat) is told on the page: a line of the recent turns, with no number, and their
    seat marked as played by an AI from then on, in the page's language."""
    import catalog

    base, running = demo
    table = on_the_demos_loop(running, running.open_table(552, "stack"))
    people = [p for p in table.players if p.name in ("Ada", "Bo")]
    for person in people:  # people, not the demo's AI: only Cy is an AI's
        running.hub.ai_users.pop(person.id, None)
    page = browser.new_page()
    page.goto(f"{base}/tables/{table.live.id}")
    page.wait_for_function("() => window.stackbotFrames >= 1", timeout=WAIT_MS)
    assert page.locator(".seat", has_text="Bo").locator(".tag.ai").count() == 0
    drawn = page.evaluate("window.stackbotFrames")
    bo = next(p for p in people if p.name == "Bo")
    on_the_demos_loop(running, running.service.leave(table.live.channel_id, bo))
    page.wait_for_function(f"() => window.stackbotFrames > {drawn}", timeout=WAIT_MS)
    page.locator("#recent li", has_text="Bo").first.wait_for(timeout=WAIT_MS)
    lines = page.locator("#recent li").all_inner_texts()
    told = [line for line in lines if "Bo" in line and "AI" in line]
    assert told, lines
    assert page.locator(".seat", has_text="Bo").locator(".tag.ai").count() == 1
    assert page.locator(".seat", has_text="Ada").locator(".tag.ai").count() == 0
    page.goto(f"{base}/tables/{table.live.id}?lang=ja")
    page.wait_for_function("() => window.stackbotFrames >= 1", timeout=WAIT_MS)
    with catalog.speaking("ja"):
        mark = catalog.t("web.board.ai")
    assert page.locator(".seat", has_text="Bo").locator(".tag.ai").inner_text() == mark
    assert any("Bo" in line for line in page.locator("#recent li").all_inner_texts())
    page.close()


def test_the_activity_follows_its_channels_next_table_once_its_game_is_over(
    browser: Any,
) -> None:
    """The Activity shows the table of its channel; once that game is over and another
    table opens in the channel (``/table new``), the Activity shows the new table, without
    being launched again."""
    guest = 777
    users = {"mock_code": {"id": str(guest), "username": "guest", "global_name": "Guest"}}
    channel = 701
    with discord_standin(users) as api:
        oauth = DiscordOAuth(42, SECRET, api)
        with in_thread(pace=3600.0, seed=5, activity=oauth) as (base, running):
            first = on_the_demos_loop(running, short_colorstack_table(running, channel, 4))
            browser.clear_cookies()
            page = browser.new_page()
            errors: list[str] = []
            page.on("pageerror", lambda error: errors.append(str(error)))
            page.goto(f"{base}/activity?channel={channel}")
            page.wait_for_function("() => window.stackbotFrames >= 1", timeout=WAIT_MS)
            assert page.locator("#table").get_attribute("data-table") == str(first.live.id)
            on_the_demos_loop(running, game_played_to_its_end(running, first))
            page.wait_for_function("() => window.stackbotOver === true", timeout=WAIT_MS)
            second = on_the_demos_loop(running, running.open_table(channel, "stack"))
            assert second.live.id != first.live.id
            page.wait_for_function(
                f"() => document.getElementById('table').dataset.table === '{second.live.id}'"
                " && window.stackbotFrames >= 1 && !window.stackbotOver",
                timeout=60_000,  # not a measure: the old page would stay for ever
            )
            page.locator("#board svg").first.wait_for(timeout=WAIT_MS)
            assert page.locator(".seat").count() == 3  # Stack's three, not Color Stack's two
            assert page.locator("#announced").count() == 1  # the old table's page is gone
            assert errors == []
            page.close()


def test_a_page_whose_session_ended_says_so_and_that_it_watches_as_a_spectator(
    browser: Any, demo: tuple[str, Any]
) -> None:
    """A page opened with a session that has ended (it lasts 12 hours: the page was away,
    or reloaded, when it ended) says its session ended and that it is a spectator's now,
    in the page's language, rather than silently offer its player no move."""
    import catalog

    base, running = demo
    table = on_the_demos_loop(running, running.open_table(553, "stack"))
    mover = table.player_at(table.live.state.current_player)
    sessions = running.sessions
    clock = sessions.clock
    sessions.clock = lambda: clock() - 13 * 3600  # issued 13 hours ago: ended an hour ago
    try:
        token = sessions.issue(mover)
    finally:
        sessions.clock = clock
    url = f"{base}/tables/{table.live.id}?lang=ja"
    page, errors = seated_page(browser, url, token)
    page.locator("#session-ended").wait_for(timeout=WAIT_MS)
    with catalog.speaking("ja"):
        assert page.inner_text("#session-ended") == catalog.t("web.session.ended")
    assert page.locator("#moves").count() == 0
    assert errors == []
    page.close()


def test_a_page_whose_cookie_the_server_no_longer_reads_says_it_is_no_longer_valid(
    browser: Any, demo: tuple[str, Any]
) -> None:
    """A page opened with a session cookie signed by another key (the server's secret
    changed since) says its session is no longer valid and to open the page again, not
    that it ended after its 12 hours; it watches as a spectator."""
    import catalog
    from web.guard import Sessions, session_key

    base, running = demo
    table = on_the_demos_loop(running, running.open_table(555, "stack"))
    mover = table.player_at(table.live.state.current_player)
    token = Sessions(key=session_key("the secret before")).issue(mover)
    url = f"{base}/tables/{table.live.id}?lang=ja"
    page, errors = seated_page(browser, url, token)
    page.locator("#session-ended").wait_for(timeout=WAIT_MS)
    with catalog.speaking("ja"):
        said = catalog.t("web.session.invalid")
    assert page.inner_text("#session-ended") == said
    assert "12" not in said and "開き直して" in said
    with catalog.speaking("en"):
        assert "open the page again" in catalog.t("web.session.invalid")
    assert page.locator("#moves").count() == 0
    assert errors == []
    page.close()


def test_the_activity_says_when_its_session_ends_and_to_launch_it_again(browser: Any) -> None:
    """The Activity's session ends while its page is open (the session's lifetime, made a
    few seconds here): the page says so, and that the Activity launched again plays
    again; it shows the table as a spectator's meanwhile."""
    import catalog

    users = {"mock_code": {"id": "778", "username": "guest", "global_name": "Guest"}}
    channel = 702
    with discord_standin(users) as api:
        oauth = DiscordOAuth(42, SECRET, api)
        with in_thread(pace=3600.0, seed=5, activity=oauth) as (base, running):
            on_the_demos_loop(running, running.open_table(channel, "stack"))
            running.sessions.ttl = 3.0
            browser.clear_cookies()
            page = browser.new_page()
            errors: list[str] = []
            page.on("pageerror", lambda error: errors.append(str(error)))
            page.goto(f"{base}/activity?channel={channel}")
            page.wait_for_function("() => window.stackbotFrames >= 1", timeout=WAIT_MS)
            page.locator("#session-ended").wait_for(timeout=WAIT_MS)
            with catalog.speaking("en"):
                said = catalog.t("web.session.ended_activity")
            assert page.inner_text("#session-ended") == said
            assert "launch it again" in said
            assert errors == []
            page.close()


@contextlib.contextmanager
def host_rewriting_proxy(upstream: str) -> Iterator[str]:
    """A reverse proxy on loopback (a thread of its own) in front of ``upstream`` that
    sends every request on with ``Host`` rewritten to the upstream's own address, as
    nginx does by default (``proxy_pass``, no ``proxy_set_header Host``); a socket's
    handshake answered as the upstream answers it (its status). Its base URL."""
    import aiohttp

    async def forward(request: web.Request) -> web.StreamResponse:
        headers = {
            k: v
            for k, v in request.headers.items()
            if k.lower() not in ("host", "connection", "upgrade", "content-length")
            and not k.lower().startswith("sec-websocket")
        }
        async with aiohttp.ClientSession() as http:
            if request.headers.get("Upgrade", "").lower() == "websocket":
                try:
                    async with http.ws_connect(upstream + request.path_qs, headers=headers):
                        return web.Response(status=502)  # not what this proxy is for
                except aiohttp.WSServerHandshakeError as refused:
                    return web.Response(status=refused.status)
            async with http.request(
                request.method,
                upstream + request.path_qs,
                headers=headers,
                data=await request.read(),
                allow_redirects=False,
            ) as answer:
                body = await answer.read()
                kept = {
                    k: v
                    for k, v in answer.headers.items()
                    if k.lower() not in ("content-length", "content-encoding", "transfer-encoding")
                }
                return web.Response(status=answer.status, body=body, headers=kept)

    app = web.Application()
    app.router.add_route("*", "/{path:.*}", forward)
    with served_in_thread(app, "host-proxy") as port:
        yield f"http://localhost:{port}"


def test_behind_a_proxy_that_rewrites_host_the_page_says_its_socket_is_refused(
    browser: Any, demo: tuple[str, Any]
) -> None:
    """Behind a reverse proxy that rewrites ``Host`` (nginx's default) the server refuses
    every socket (its Origin is not the host it is told): the page says the server refused
    it and what its operator must do, in the page's language, not "Reconnecting…" for
    ever."""
    import catalog

    base, running = demo
    table = on_the_demos_loop(running, running.open_table(554, "stack"))
    with host_rewriting_proxy(base) as proxied:
        page = browser.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda error: errors.append(str(error)))
        page.goto(f"{proxied}/tables/{table.live.id}?lang=ja")
        with catalog.speaking("ja"):
            said = catalog.t("web.turn.origin_refused")
        page.wait_for_function(
            "(said) => document.getElementById('status').textContent === said",
            arg=said,
            timeout=WAIT_MS,
        )
        assert "Host" in said
        assert errors == []
        page.close()


async def table_at_its_first_turn(demo: Demo, channel: int, name: str) -> DemoTable:
    """A table of ``name`` at its first turn on the board (Color Stack: its colours chosen)."""
    table = await demo.open_table(channel, name)
    if getattr(table.live.state, "choosing_colours", False):
        await demo.step(table, random.Random(1))
    return table


# the arrow keys from the Color Stack square focused to the one tabbed to (null: not both
# squares)
ARROWS = """() => {
  const [from, to] = [document.activeElement, window.tabbedTo].map((e) => e.dataset.pick || "");
  if (!from.startsWith("sq:") || !to.startsWith("sq:")) return null;
  const across = "abcdefghi".indexOf(to[3]) - "abcdefghi".indexOf(from[3]);
  const up = Number(to.slice(4)) - Number(from.slice(4));
  return [...Array(Math.abs(across)).fill(across > 0 ? "ArrowRight" : "ArrowLeft"),
          ...Array(Math.abs(up)).fill(up > 0 ? "ArrowUp" : "ArrowDown")];
}"""


def tab_to(page: Any, target: str) -> None:
    """Focus moved by the keyboard to the element the script ``target`` names
    (``window.tabbedTo`` from then on): Tab, and in Color Stack's board the arrow keys."""
    page.evaluate(f"() => {{ window.tabbedTo = {target}; }}")
    for _ in range(200):  # a bound for a broken page: Tab goes round the page and back
        page.keyboard.press("Tab")
        for key in page.evaluate(ARROWS) or []:
            page.keyboard.press(key)
        if page.evaluate("() => document.activeElement === window.tabbedTo"):
            return
    raise AssertionError(f"the keyboard never reached {target}")


# what is focused, among the elements ``selector`` finds: its place among them and what it
# names; whether the element tabbed to has been drawn anew since (removed from the page)
FOCUSED = """(selector) => {
  const e = document.activeElement;
  return { redrawn: !window.tabbedTo.isConnected, index: [...document.querySelectorAll(selector)].indexOf(e),
           names: e.dataset.pick || e.getAttribute("aria-label") || e.textContent };
}"""

# the focusable things of each game's board a player tabs to on their turn: Stack's own
# dice, Color Stack's pieces, Stack Up!'s hand
ON_THE_BOARD = {
    "stack": "#board .can-pick",
    "stackup": "#hand .tap",
    "colorstack": "#board .can-pick",
}


@pytest.mark.parametrize(
    ("name", "channel"), [("stack", 560), ("stackup", 561), ("colorstack", 562)]
)
def test_focus_stays_on_the_same_die_card_square_or_button_when_another_player_changes_the_table(
    browser: Any, demo: tuple[str, Any], name: str, channel: int
) -> None:
    """A keyboard player on their turn has tabbed to the last of their dice, cards or
    pieces, then to the last button of the move panel; another player leaves meanwhile,
    or the table is sent anew: the page draws the whole table again, and focus is on the
    same die, card, piece or button as before, not on the page's body."""
    base, running = demo
    table = on_the_demos_loop(running, table_at_its_first_play(running, channel, name))
    mover = table.player_at(table.live.state.current_player)
    others = [p for p in table.players if p.id != mover.id]
    url = f"{base}/tables/{table.live.id}"
    page, errors = seated_page(browser, url, running.sessions.issue(mover))
    browser.clear_cookies()

    async def leaves(player: Player) -> None:
        await running.service.leave(table.live.channel_id, player)

    async def sent_anew() -> None:
        running.hub.publish(table.live)

    updates = [leaves(others[0]), leaves(others[1]) if len(others) > 1 else sent_anew()]
    for selector in (ON_THE_BOARD[name], "#moves button"):  # the last of them
        assert page.locator(selector).count() >= 1
        tab_to(page, f"[...document.querySelectorAll({selector!r})].at(-1)")
        before = page.evaluate(FOCUSED, selector)
        drawn = page.evaluate("window.stackbotFrames")
        on_the_demos_loop(running, updates.pop(0))
        page.wait_for_function(f"() => window.stackbotFrames > {drawn}", timeout=WAIT_MS)
        assert page.locator("#moves").count() == 1  # still their turn
        assert page.evaluate(FOCUSED, selector) == {**before, "redrawn": True}
    assert errors == []
    page.close()


IN_THE_TABLE = """() => document.activeElement !== document.body
  && document.getElementById("table").contains(document.activeElement)"""


def test_after_a_move_made_by_the_keyboard_focus_stays_in_the_table(
    browser: Any, demo: tuple[str, Any]
) -> None:
    """A Color Stack player moves by the keyboard, on the board (Enter on a piece, Enter
    on a square lit for it), then through the move panel (Enter on a piece's button, Enter
    on one of its moves: the panel's buttons are disabled while it is sent). What they
    were on is not drawn again once the move is played (not their turn): focus goes to
    what holds it in the table, never to the page's body."""
    base, running = demo
    table = on_the_demos_loop(running, table_at_its_first_turn(running, 563, "colorstack"))
    mover = table.player_at(table.live.state.current_player)
    url = f"{base}/tables/{table.live.id}"
    page, errors = seated_page(browser, url, running.sessions.issue(mover))
    browser.clear_cookies()
    for piece in range(page.locator("#board .can-pick").count()):  # one that may go somewhere
        tab_to(page, f"document.querySelectorAll('#board .can-pick')[{piece}]")
        page.keyboard.press("Enter")
        if page.locator("#board .lit.tap").count():
            break
    tab_to(page, "document.querySelector('#board .lit.tap')")
    drawn = page.evaluate("window.stackbotFrames")
    page.keyboard.press("Enter")
    page.wait_for_function(f"() => window.stackbotFrames > {drawn}", timeout=WAIT_MS)
    assert page.locator("#moves").count() == 0  # the other player's turn
    assert page.evaluate(IN_THE_TABLE)
    assert page.evaluate("document.activeElement.id") == "board"
    drawn = page.evaluate("window.stackbotFrames")
    on_the_demos_loop(running, running.step(table, random.Random(2)))  # the other's move
    page.wait_for_function(f"() => window.stackbotFrames > {drawn}", timeout=WAIT_MS)
    assert page.evaluate("document.activeElement.id") == "board"
    tab_to(page, "document.querySelector('#picks button')")
    page.keyboard.press("Enter")
    tab_to(page, "document.querySelector('#targets button')")
    drawn = page.evaluate("window.stackbotFrames")
    page.keyboard.press("Enter")
    page.wait_for_function(f"() => window.stackbotFrames > {drawn}", timeout=WAIT_MS)
    assert page.locator("#moves").count() == 0
    assert page.evaluate(IN_THE_TABLE)
    assert errors == []
    page.close()


def test_a_redraw_takes_no_focus_from_outside_the_table(
    browser: Any, demo: tuple[str, Any]
) -> None:
    """Focus on nothing (the page's body), or on the page's bar above the table, stays
    there when the table is drawn anew on another player's move."""
    base, running = demo
    table = on_the_demos_loop(running, running.open_table(564, "stack"))
    page = browser.new_page()
    page.goto(f"{base}/tables/{table.live.id}")
    page.wait_for_function("() => window.stackbotFrames >= 1", timeout=WAIT_MS)
    for focus in ("document.body", "document.querySelector('header a')"):
        if focus != "document.body":
            tab_to(page, focus)
        drawn = page.evaluate("window.stackbotFrames")
        on_the_demos_loop(running, running.step(table, random.Random(4)))
        page.wait_for_function(f"() => window.stackbotFrames > {drawn}", timeout=WAIT_MS)
        assert page.evaluate(f"() => document.activeElement === {focus}")
    page.close()


# the Color Stack board's Tab stops, and the square focused
GRID = """() => ({ stops: [...document.querySelectorAll("#board [tabindex='0']")].map((e) => e.dataset.pick),
                  focused: document.activeElement.dataset.pick || null })"""


def test_color_stacks_board_is_one_tab_stop_its_squares_reached_by_the_arrow_keys(
    browser: Any, demo: tuple[str, Any]
) -> None:
    """On a Color Stack player's turn the board is one Tab stop (WAI-ARIA's roving
    tabindex), not one per piece and square: it starts on their first piece, the arrow
    keys move square by square, Home and End to the row's ends, and the square moved to is
    the stop from then on, drawn anew or not; a square not to be tapped now is a disabled
    button. Tab goes from the board to the move panel."""
    base, running = demo
    table = on_the_demos_loop(running, table_at_its_first_turn(running, 565, "colorstack"))
    mover = table.player_at(table.live.state.current_player)
    page, errors = seated_page(
        browser, f"{base}/tables/{table.live.id}", running.sessions.issue(mover)
    )
    browser.clear_cookies()
    first = page.locator("#board .can-pick").first.get_attribute("data-pick")
    assert page.evaluate(GRID)["stops"] == [first]
    tab_to(page, "document.querySelector('#board [tabindex=\"0\"]')")
    page.keyboard.press("Home")
    page.keyboard.press("ArrowUp")
    page.keyboard.press("ArrowRight")
    assert page.evaluate(GRID) == {"stops": ["sq:b2"], "focused": "sq:b2"}
    page.keyboard.press("End")
    page.keyboard.press("ArrowRight")  # the board's edge: it stays
    assert page.evaluate(GRID) == {"stops": ["sq:i2"], "focused": "sq:i2"}
    assert page.locator("#board [data-pick='sq:i2']").get_attribute("role") == "button"
    drawn = page.evaluate("window.stackbotFrames")

    async def sent_anew() -> None:
        running.hub.publish(table.live)

    on_the_demos_loop(running, sent_anew())
    page.wait_for_function(f"() => window.stackbotFrames > {drawn}", timeout=WAIT_MS)
    assert page.evaluate(GRID) == {"stops": ["sq:i2"], "focused": "sq:i2"}
    page.keyboard.press("Tab")
    assert page.evaluate("document.activeElement.closest('#moves') !== null")
    assert errors == []
    page.close()


async def table_at_its_first_play(demo: Demo, channel: int, name: str) -> DemoTable:
    """A table of ``name`` whose decisions taken before its first turn (Color Stack's
    colours, Stack Up!'s direction) are taken: its player to move plays its first turn."""
    table = await demo.open_table(channel, name)
    rng = random.Random(1)
    while setting_up(table.live.game.game, table.live.state):
        await demo.step(table, rng)
    return table


# a move half made as the page shows it: what is picked (a die, a piece: its data-pick; a
# card: its place in the hand), the places lit for it and the move panel's buttons for it
HALF_MADE = """() => ({
  picked: [...document.querySelectorAll("#board .picked, #hand .picked")]
    .map((e) => e.dataset.pick || e.dataset.card),
  lit: [...document.querySelectorAll("#board .lit")].map((e) => e.dataset.target),
  offered: [...document.querySelectorAll("#targets button, #combo button")].map((e) => e.textContent),
})"""

# whether what is focused may be used (not a disabled button, nor one that says it is)
ENABLED = """() => !document.activeElement.disabled
  && document.activeElement.getAttribute("aria-disabled") !== "true\""""


async def turns_of(table: DemoTable) -> int | None:
    """The turns the game at ``table`` has had (read on the demo's loop)."""
    assert table.live.state is not None
    return turns_taken(table.live.state)


@pytest.mark.parametrize(
    ("name", "channel"), [("stack", 570), ("stackup", 571), ("colorstack", 572)]
)
def test_a_die_piece_or_cards_picked_stay_picked_when_another_player_changes_the_table(
    browser: Any, demo: tuple[str, Any], name: str, channel: int
) -> None:
    """A player on their turn has picked one of their dice (Stack) or pieces (Color
    Stack), and tabbed to a place lit for it, or chosen Stack Up! cards and tabbed to
    the play they make; another player leaves meanwhile, then the table is sent anew:
    each frame draws the whole table again, and the pick is still made (the same die,
    piece or cards picked, the same places lit, the same buttons offered), focus on the
    same place or play, which may be used; one more tap on it plays the move."""
    base, running = demo
    table = on_the_demos_loop(running, table_at_its_first_play(running, channel, name))
    mover = table.player_at(table.live.state.current_player)
    others = [p for p in table.players if p.id != mover.id]
    url = f"{base}/tables/{table.live.id}"
    page, errors = seated_page(browser, url, running.sessions.issue(mover))
    browser.clear_cookies()
    if name == "stackup":  # cards one by one until they make a play
        for _ in range(page.locator("#hand .tap").count()):
            if page.locator("#combo button").count():
                break
            page.locator("#hand .tap:not(.off):not(.picked)").first.tap()
        then = "#combo button"
    else:  # a die or a piece that may go somewhere on the board
        for pick in range(page.locator("#board .can-pick").count()):
            page.locator("#board .can-pick").nth(pick).tap()
            if page.locator("#board .lit.tap").count():
                break
        then = "#board .lit.tap"
    assert page.locator(then).count() >= 1
    tab_to(page, f"document.querySelector({then!r})")
    half = page.evaluate(HALF_MADE)
    assert half["picked"] and half["offered"], half
    focused = page.evaluate(FOCUSED, then)

    async def leaves(player: Player) -> None:
        await running.service.leave(table.live.channel_id, player)

    async def sent_anew() -> None:
        running.hub.publish(table.live)

    for update in (leaves(others[0]), sent_anew()):
        drawn = page.evaluate("window.stackbotFrames")
        on_the_demos_loop(running, update)
        page.wait_for_function(f"() => window.stackbotFrames > {drawn}", timeout=WAIT_MS)
        assert page.locator("#moves").count() == 1  # still their turn
        assert page.evaluate(HALF_MADE) == half
        assert page.evaluate(FOCUSED, then) == {**focused, "redrawn": True}
        assert page.evaluate(ENABLED)
        page.evaluate("() => { window.tabbedTo = document.activeElement; }")
    played = on_the_demos_loop(running, turns_of(table))
    drawn = page.evaluate("window.stackbotFrames")
    page.locator(":focus").tap()
    page.wait_for_function(f"() => window.stackbotFrames > {drawn}", timeout=WAIT_MS)
    assert page.locator("#refusal").count() == 0 or page.locator("#refusal").inner_text() == ""
    assert on_the_demos_loop(running, turns_of(table)) > played  # the move was played
    assert errors == []
    page.close()


async def played_round_to(table: DemoTable, demo: Demo, seat: int, face: int) -> int | None:
    """The Stack game at ``table`` played from its player to move round to ``seat``
    again, each of them stacking a die of another face than ``face`` (``seat``'s die of
    ``face``, and the others' it may go onto, left as they were); the turns it has had."""
    service = demo.service
    assert service is not None
    live = table.live
    game = live.game.game
    while True:
        state = live.state
        assert state is not None
        moves = [game.encode_move(m) for m in state.legal_moves()]
        move = next(m for m in moves if m[0] == "stack" and m[1] != face)
        mover = table.player_at(state.current_player)
        await service.move(
            live.channel_id,
            mover,
            move=game.decode_move(move),
            table_id=live.id,
            version=live.version,
        )
        if live.state.current_player == seat:
            return turns_taken(live.state)


def test_a_die_picked_is_dropped_once_the_turn_has_moved_on(
    browser: Any, demo: tuple[str, Any]
) -> None:
    """A Stack player has picked one of their dice; their move is made elsewhere (another
    device of theirs), the other players play, and it is their turn again, that die still
    one they may pick. The page was away meanwhile (Playwright's route of the socket holds
    its frames: a phone asleep, a slow network), and is sent the newest frame only, as the
    hub sends a slow page: it shows a new decision with nothing picked or lit, not the pick
    of the turn gone by."""
    base, running = demo
    table = on_the_demos_loop(running, table_at_its_first_play(running, 573, "stack"))
    seat = table.live.state.current_player
    holding, held, routes = False, [], []

    def route(socket: Any) -> None:
        server = socket.connect_to_server()
        routes.append(socket)

        def from_server(message: Any) -> None:
            if holding and orjson.loads(message)["type"] == "table":
                held.append(message)
            else:
                socket.send(message)

        server.on_message(from_server)

    url = f"{base}/tables/{table.live.id}"
    page, errors = seated_page(browser, url, running.sessions.issue(table.player_at(seat)), route)
    browser.clear_cookies()
    die = page.locator("#board .can-pick").first
    pick = die.get_attribute("data-pick")
    die.tap()
    assert set(page.evaluate(HALF_MADE)["picked"]) == {pick}  # (each of their dice of its face)
    assert page.locator("#board .lit").count() >= 1
    face = int(pick.removeprefix("die:"))
    holding = True
    turns = on_the_demos_loop(running, played_round_to(table, running, seat, face))
    version = table.live.version
    for _ in range(WAIT_MS // 100):
        if held and orjson.loads(held[-1])["version"] == version:
            break
        page.wait_for_timeout(100)
    assert held and orjson.loads(held[-1])["version"] == version, "the round's frames never came"
    holding = False
    routes[-1].send(held[-1])
    page.wait_for_function(
        "() => document.querySelector('#moves') !== null && "
        f"document.querySelector('#recent ol').getAttribute('start') === '{turns}'",
        timeout=WAIT_MS,
    )
    assert page.locator(f"#board .can-pick[data-pick='{pick}']").count() >= 1  # pickable still
    assert page.evaluate(HALF_MADE) == {"picked": [], "lit": [], "offered": []}
    assert page.locator("#board .tap:not(.can-pick)[aria-disabled=false]").count() == 0
    assert errors == []
    page.close()


# the colours a picked die or piece is framed in, on the board and in the move panel, and
# the one the board frames the last move in (Stack's last pile, Color Stack's path): a
# frame of the last move's is drawn where the board has none yet
PICKED_AND_LAST = """() => {
  const picture = document.querySelector("#board svg");
  let last = picture.querySelector(".edge, .sq.path");
  if (!last) {
    last = document.createElementNS("http://www.w3.org/2000/svg", "rect");
    last.setAttribute("class", "sq path");
    picture.append(last);
  }
  return {
    board: getComputedStyle(document.querySelector("#board .picked rect")).stroke,
    panel: getComputedStyle(document.querySelector("#picks button.picked")).borderTopColor,
    last: getComputedStyle(last).stroke,
  };
}"""


@pytest.mark.parametrize(("scheme", "shift"), [("light", 0), ("dark", 2)])
@pytest.mark.parametrize(("name", "channel"), [("stack", 580), ("colorstack", 581)])
def test_a_picked_die_or_piece_is_framed_apart_from_the_last_move(
    browser: Any, demo: tuple[str, Any], name: str, channel: int, scheme: str, shift: int
) -> None:
    """The die or piece a player has picked is framed in another colour than the last
    move's pile or squares: a piece picked beside the path the other player's piece just
    took (Color Stack), or a die beside the pile just made (Stack), is not read as part of
    that move, nor that move as a pick of the player's."""
    base, running = demo
    table = on_the_demos_loop(running, table_at_its_first_play(running, channel + shift, name))
    mover = table.player_at(table.live.state.current_player)
    url = f"{base}/tables/{table.live.id}"
    page, errors = seated_page(browser, url, running.sessions.issue(mover))
    browser.clear_cookies()
    page.emulate_media(color_scheme=scheme)
    page.locator("#board .can-pick").first.tap()
    colours = page.evaluate(PICKED_AND_LAST)
    assert colours["board"] != colours["last"], colours
    assert colours["panel"] != colours["last"], colours
    assert errors == []
    page.close()


# how the focused thing of the board is marked, and the colours it must be told apart from:
# its ring (outline), the colour behind it, its own frame before and while focused, the
# opacity it is drawn with (its own and its containers'), whether the whole ring is in
# sight (inside its picture, or the picture lets it out), and the pick's and the last
# move's colours (a frame of the last move's is drawn where the board has none yet)
FOCUS_RING = """(node) => {
  const style = getComputedStyle(node);
  const frame = node.querySelector("rect");
  const framed = getComputedStyle(frame).stroke;
  let behind = node.parentElement;
  while (getComputedStyle(behind).backgroundColor === "rgba(0, 0, 0, 0)") behind = behind.parentElement;
  let opacity = 1;
  for (let up = node; up; up = up.parentElement) opacity *= Number(getComputedStyle(up).opacity);
  const picture = node.closest("svg");
  const out = parseFloat(style.outlineOffset) + parseFloat(style.outlineWidth);
  const ring = node.getBoundingClientRect(), box = picture.getBoundingClientRect();
  const inSight = getComputedStyle(picture).overflow === "visible"
    || (ring.left - out >= box.left && ring.right + out <= box.right
        && ring.top - out >= box.top && ring.bottom + out <= box.bottom);
  let last = picture.querySelector(".edge, .sq.path");
  if (!last) {
    last = document.createElementNS("http://www.w3.org/2000/svg", "rect");
    last.setAttribute("class", "sq path");
    picture.append(last);
  }
  const wasPicked = node.classList.contains("picked");
  node.classList.add("picked");
  const picked = getComputedStyle(frame).stroke;
  node.classList.toggle("picked", wasPicked);
  return { style: style.outlineStyle, width: parseFloat(style.outlineWidth), colour: style.outlineColor,
           behind: getComputedStyle(behind).backgroundColor, framed, opacity, inSight,
           picked, last: getComputedStyle(last).stroke };
}"""


def ring_in_sight(page: Any, node: Any, colour: str) -> list[str]:
    """The sides of ``node``'s focus ring whose middle is not seen on the screen in
    ``colour``: covered by what is drawn over it, cut off, or not drawn. Each side is
    looked along, from inside the piece to outside it, for two pixels of that colour in a
    row (an outline's place follows the piece's frame, which a pick makes wider)."""
    from io import BytesIO

    from PIL import Image

    node.evaluate("(n) => n.scrollIntoView({ block: 'center', inline: 'center' })")
    box = node.evaluate("(n) => JSON.parse(JSON.stringify(n.getBoundingClientRect()))")
    shot = Image.open(BytesIO(page.screenshot())).convert("RGB")
    scale = shot.width / page.evaluate("innerWidth")
    x, y, w, h = (box[k] for k in ("x", "y", "width", "height"))
    sides = {  # a side's middle, and the way out of the piece
        "left": ((x, y + h / 2), (-1, 0)),
        "right": ((x + w, y + h / 2), (1, 0)),
        "top": ((x + w / 2, y), (0, -1)),
        "bottom": ((x + w / 2, y + h), (0, 1)),
    }
    want = [int(v) for v in re.findall(r"\d+", colour)[:3]]
    unseen = []
    for side, ((across, down), (dx, dy)) in sides.items():
        seen = []
        for step in range(-8, 12):
            pixel = (int((across + dx * step) * scale), int((down + dy * step) * scale))
            seen.append(
                max(abs(a - b) for a, b in zip(shot.getpixel(pixel), want, strict=True)) <= 24
            )
        if not any(a and b for a, b in itertools.pairwise(seen)):
            unseen.append(f"{side} of {box}")
    return unseen


def contrast(one: str, other: str) -> float:
    """WCAG's contrast ratio of two CSS colours ``rgb(r, g, b)``."""

    def luminance(colour: str) -> float:
        red, green, blue = (int(v) / 255 for v in re.findall(r"\d+", colour)[:3])
        lin = [
            c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4 for c in (red, green, blue)
        ]
        return 0.2126 * lin[0] + 0.7152 * lin[1] + 0.0722 * lin[2]

    light, dark = sorted((luminance(one), luminance(other)), reverse=True)
    return (light + 0.05) / (dark + 0.05)


@pytest.mark.parametrize(("scheme", "shift"), [("light", 0), ("dark", 3)])
@pytest.mark.parametrize(
    ("name", "channel"), [("stack", 590), ("stackup", 591), ("colorstack", 592)]
)
def test_the_focused_die_card_or_piece_has_a_ring_of_its_own_apart_from_the_last_move_and_a_pick(
    browser: Any, demo: tuple[str, Any], name: str, channel: int, scheme: str, shift: int
) -> None:
    """A keyboard player tabs over their dice, cards or pieces: the one focused has a ring
    of its own, in neither the gold that marks the last move nor the blue of a pick, at
    3:1 at least against the board behind it (WCAG's non-text contrast), drawn whole and
    at full strength (a Stack Up! card that cannot be played now, drawn faint, too) and
    seen on its four sides (not under the next square of Color Stack's board); its own frame (the last move's square, a pick) stays as it is under the ring."""
    base, running = demo
    table = on_the_demos_loop(running, table_at_its_first_play(running, channel + shift, name))
    mover = table.player_at(table.live.state.current_player)
    url = f"{base}/tables/{table.live.id}"
    page, errors = seated_page(browser, url, running.sessions.issue(mover))
    browser.clear_cookies()
    page.emulate_media(color_scheme=scheme)
    selector = ON_THE_BOARD[name]
    if name == "stackup":  # a card picked: the cards that no longer make a play are faint
        page.locator("#hand .tap:not(.off)").first.tap()
    count = page.locator(selector).count()
    assert count >= 1
    tab_to(page, f"document.querySelector({selector!r})")
    for nth in range(count):
        node = page.locator(selector).nth(nth)
        before = node.evaluate("(n) => getComputedStyle(n.querySelector('rect')).stroke")
        node.focus()  # the keyboard's focus (Tab pressed last): the ring is shown
        ring = node.evaluate(FOCUS_RING)
        assert ring["style"] != "none" and ring["width"] >= 2, ring
        assert ring["colour"] not in (ring["last"], ring["picked"]), ring
        assert contrast(ring["colour"], ring["behind"]) >= 3, ring
        assert ring["opacity"] == 1 and ring["inSight"], ring
        assert ring["framed"] == before, ring
        assert ring_in_sight(page, node, ring["colour"]) == []
    assert errors == []
    page.close()


# the focused button of the move panel: its ring, the colour behind it, and the frame of
# a picked button of the panel
BUTTON_RING = """(node) => {
  const style = getComputedStyle(node);
  let behind = node.parentElement;
  while (getComputedStyle(behind).backgroundColor === "rgba(0, 0, 0, 0)") behind = behind.parentElement;
  const picked = document.querySelector("#picks button.picked");
  return { style: style.outlineStyle, colour: style.outlineColor, behind: getComputedStyle(behind).backgroundColor,
           picked: getComputedStyle(picked).borderTopColor };
}"""


@pytest.mark.parametrize(("scheme", "shift"), [("light", 0), ("dark", 1)])
def test_a_focused_button_of_the_move_panel_is_ringed_apart_from_a_picked_one(
    browser: Any, demo: tuple[str, Any], scheme: str, shift: int
) -> None:
    """A Stack player has picked one of their dice in the move panel and tabs on over the
    panel's other dice: the button focused is ringed in another colour than the frame of
    the die picked (both blue, a keyboard player could not tell which one Enter acts on),
    at 3:1 at least against the panel."""
    base, running = demo
    table = on_the_demos_loop(running, table_at_its_first_play(running, 596 + shift, "stack"))
    mover = table.player_at(table.live.state.current_player)
    url = f"{base}/tables/{table.live.id}"
    page, errors = seated_page(browser, url, running.sessions.issue(mover))
    browser.clear_cookies()
    page.emulate_media(color_scheme=scheme)
    page.locator("#picks button").first.tap()
    tab_to(
        page,
        "document.querySelector('#picks button:not(.picked)') || document.querySelector('#targets button')",
    )
    ring = page.locator(":focus").evaluate(BUTTON_RING)
    assert ring["style"] != "none", ring
    assert ring["colour"] != ring["picked"], ring
    assert contrast(ring["colour"], ring["behind"]) >= 3, ring
    assert errors == []
    page.close()


async def table_played_a_little(demo: Demo, channel: int, name: str) -> DemoTable:
    """A table of ``name`` a few turns into its game (Stack: piles made)."""
    table = await table_at_its_first_play(demo, channel, name)
    rng = random.Random(2)
    for _ in range(4):
        await demo.step(table, rng)
    return table


# what of the board a screen reader is not read: each thing that names itself (a die, a
# pile, a card, a piece) and each word written, drawn inside a picture that is an image
# as a whole (ARIA's img: its parts are presentational, a screen reader reads its name
# only — "the piles", "the stack: blue 2")
UNREAD = """() => [...document.querySelectorAll("#board svg[role=img]")].flatMap((picture) =>
  [...picture.querySelectorAll("[aria-label], text")].map((e) =>
    `${picture.getAttribute("aria-label")}: ${e.getAttribute("aria-label") || e.textContent}`))"""


@pytest.mark.parametrize(
    ("name", "channel"), [("stack", 600), ("stackup", 601), ("colorstack", 602)]
)
def test_a_screen_reader_reads_every_die_pile_card_and_word_the_board_shows(
    browser: Any, demo: tuple[str, Any], name: str, channel: int
) -> None:
    """A spectator's screen reader is read the board as it is drawn: each seat's dice and
    each pile (Stack), the stack's card, the direction, the draw pile and the turns
    (Stack Up!), each piece on its square (Color Stack) — not only a picture's name
    ("the piles", "the stack: blue 2"), its parts being hidden inside an image."""
    base, running = demo
    table = on_the_demos_loop(running, table_played_a_little(running, channel, name))
    page, errors = seated_page(browser, f"{base}/tables/{table.live.id}", None)
    assert page.evaluate(UNREAD) == []
    assert errors == []
    page.close()


def test_while_stack_ups_direction_is_chosen_tab_skips_the_hand_no_card_of_which_can_be_played(
    browser: Any, demo: tuple[str, Any]
) -> None:
    """Stack Up!'s first player chooses the direction: no card of their hand can be played
    then, and the keyboard goes from the page's top straight to the direction's buttons,
    not through ten cards that each say they cannot be used; the hand is still read."""
    base, running = demo
    table = on_the_demos_loop(running, running.open_table(603, "stackup"))
    assert setting_up(table.live.game.game, table.live.state)
    mover = table.player_at(table.live.state.current_player)
    url = f"{base}/tables/{table.live.id}"
    page, errors = seated_page(browser, url, running.sessions.issue(mover))
    browser.clear_cookies()
    assert page.locator("#hand [data-card]").count() >= 1
    page.evaluate("() => document.querySelector('header a').focus()")
    page.keyboard.press("Tab")
    assert page.evaluate("() => document.activeElement.closest('#moves') !== null")
    assert page.locator("#hand [tabindex], #hand [role=button]").count() == 0
    assert errors == []
    page.close()


async def short_stack_game(demo: Demo, channel: int) -> DemoTable:
    """A Stack game of three to 10 points played to its end by the AI."""
    service = demo.service
    assert service is not None
    players = [Player(channel * 100 + i, name) for i, name in enumerate(("Ada", "Bo", "Cy"))]
    host, *others = players
    live = await service.new_table(1, channel, host, {"target_score": 10}, game="stack")
    for player in others:
        await service.join(channel, player)
    await service.start(channel, host)
    table = DemoTable(live, players, games.get("stack").make_ai("greedy"))
    await game_played_to_its_end(demo, table)
    return table


# what of the round-by-round chart's lines and points lies under its target's words: the
# places along each line (a point every 0.5 of the picture's units) and the points whose
# stroke or disc comes within the words' box
UNDER_THE_TARGETS_WORDS = """(words) => {
  const chart = document.querySelector("#chart");
  const label = [...chart.querySelectorAll("text")].find((e) => e.textContent === words);
  const box = label.getBBox();
  const within = (x, y, pad) => x >= box.x - pad && x <= box.x + box.width + pad
    && y >= box.y - pad && y <= box.y + box.height + pad;
  const under = [];
  for (const line of chart.querySelectorAll("polyline")) {
    const pad = parseFloat(getComputedStyle(line).strokeWidth) / 2;
    const points = line.getAttribute("points").split(" ").map((p) => p.split(",").map(Number));
    points.slice(1).forEach(([x, y], i) => {
      const [x0, y0] = points[i];
      const steps = Math.ceil(Math.hypot(x - x0, y - y0) * 2);
      for (let s = 0; s <= steps; s++) {
        if (within(x0 + ((x - x0) * s) / steps, y0 + ((y - y0) * s) / steps, pad)) {
          under.push(`line ${line.style.stroke} near ${x},${y}`);
          break;
        }
      }
    });
  }
  for (const dot of chart.querySelectorAll("circle")) {
    const r = Number(dot.getAttribute("r"));
    if (within(Number(dot.getAttribute("cx")), Number(dot.getAttribute("cy")), r)) {
      under.push(`point ${dot.getAttribute("cx")},${dot.getAttribute("cy")}`);
    }
  }
  return under;
}"""


def test_the_round_by_round_charts_target_is_named_clear_of_the_players_lines(
    browser: Any, demo: tuple[str, Any]
) -> None:
    """A Stack game ends in the round someone reaches the target: the players' lines end
    near it, at the chart's right. The target's words ("target 10") are written where no
    line or point runs over them: here the totals end just over the target (11, 12, 10
    after two rounds), where words at the right end of its line would lie under them."""
    base, running = demo
    table = on_the_demos_loop(running, short_stack_game(running, 584))
    page = browser.new_page()
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))

    def near_the_target(route: Any) -> None:
        replay = route.fetch().json()
        last = replay["frames"][-1]
        last["board"]["target"] = 10
        last["scores"] = {**last["scores"], "rounds": [[6, 3, 0], [5, 9, 10]], "winners": [1]}
        route.fulfill(json=replay)

    page.route(re.compile(r"/games/\d+/replay\.json"), near_the_target)
    page.goto(f"{base}/games/{table.live.id}")
    page.locator("#chart").wait_for(timeout=WAIT_MS)
    assert page.locator("#chart polyline").count() == 3
    assert page.evaluate(UNDER_THE_TARGETS_WORDS, "target 10") == []
    assert errors == []
    page.close()


async def full_stack_table_at_a_later_seats_turn(demo: Demo, channel: int) -> DemoTable:
    """:func:`full_stack_table` played on by its AI to a turn of a seat after the first,
    whose player may stack a die (not the placing of a die just rerolled)."""
    from engine.stack.moves import Stack

    table = await full_stack_table(demo, channel)
    rng = random.Random(3)
    while True:
        state: Any = table.live.state
        moves = state.legal_moves() if state.current_player not in (None, 0) else []
        if any(isinstance(m, Stack) for m in moves):
            return table
        if not await demo.step(table, rng) and table.over:
            raise AssertionError("the game ended before a later seat could stack")


# what is focused: null (nothing: the page's body), else whether it is on the board, the
# die or pile it is (its data-pick, else its data-target), whether it is one of the
# player's dice, whether it is lit for the die picked and whether it says it may be used
TAB_STOP = """() => {
  const e = document.activeElement;
  if (!e || e === document.body) return null;
  return { board: e.closest("#board") !== null, names: e.dataset.pick || e.dataset.target || null,
           own: e.classList.contains("can-pick"), lit: e.classList.contains("lit"),
           usable: !e.disabled && e.getAttribute("aria-disabled") !== "true" };
}"""


LIT_PLACES = "#board .lit.tap:not(.can-pick)"  # the places the die picked may go


def tab_stops(page: Any) -> list[dict[str, Any]]:
    """The page's Tab stops after its first link, in order, round to it (or to nothing)."""
    page.evaluate("() => document.querySelector('header a').focus()")
    stops: list[dict[str, Any]] = []
    for _ in range(400):  # a bound for a broken page
        page.keyboard.press("Tab")
        if page.evaluate("() => document.activeElement === document.querySelector('header a')"):
            return stops
        stop = page.evaluate(TAB_STOP)
        if stop is None:
            return stops
        stops.append(stop)
    raise AssertionError("Tab never came round")


def test_a_stack_player_at_a_full_table_tabs_past_no_die_they_cannot_use_and_moves_by_keyboard(
    browser: Any, demo: tuple[str, Any]
) -> None:
    """Eight seats of Stack, a later seat's turn: before a die is picked, the board's only
    Tab stops are the player's own dice (another seat's die or a pile cannot be used yet:
    not a Tab stop each, some hundred before their own dice). Enter on one of their dice
    picks it, and the places it may go are usable from then on, one Tab stop together (the
    arrow keys move among them); Enter on one of them plays the move, and focus stays in
    the table once it is drawn anew."""
    base, running = demo
    table = on_the_demos_loop(running, full_stack_table_at_a_later_seats_turn(running, 610))
    mover = table.player_at(table.live.state.current_player)
    url = f"{base}/tables/{table.live.id}"
    page, errors = seated_page(browser, url, running.sessions.issue(mover))
    browser.clear_cookies()
    own = page.eval_on_selector_all("#board .can-pick", "(dice) => dice.map((d) => d.dataset.pick)")
    assert own
    on_board = [s for s in tab_stops(page) if s["board"]]
    assert [s["names"] for s in on_board] == own
    assert all(s["usable"] for s in on_board)
    for die in range(len(own)):  # one of their dice that may go onto a die or a pile
        tab_to(page, f"document.querySelectorAll('#board .can-pick')[{die}]")
        page.keyboard.press("Enter")
        if page.locator("#board .lit.tap").count():
            break
    lit = page.eval_on_selector_all(LIT_PLACES, "(places) => places.map((p) => p.dataset.target)")
    assert lit
    on_board = [s for s in tab_stops(page) if s["board"]]
    assert [s["names"] for s in on_board if s["own"]] == own
    assert [s["names"] for s in on_board if not s["own"]] == lit[:1]  # one stop: the first
    assert all((s["own"] or s["lit"]) and s["usable"] for s in on_board)
    tab_to(page, "document.querySelector('#board .lit.tap')")
    version = table.live.version
    drawn = page.evaluate("window.stackbotFrames")
    page.keyboard.press("Enter")
    page.wait_for_function(f"() => window.stackbotFrames > {drawn}", timeout=WAIT_MS)
    assert table.live.version > version  # the move was played
    assert page.evaluate(IN_THE_TABLE)
    assert errors == []
    page.close()


# the places lit on the board, each with its tabindex
LIT = f"""() => [...document.querySelectorAll("{LIT_PLACES}")]
  .map((e) => [e.dataset.target, e.getAttribute("tabindex")])"""
# which of them is focused (-1: none); a seat's dice of the same face are places each
PLACE = f"""() => [...document.querySelectorAll("{LIT_PLACES}")].indexOf(document.activeElement)"""
# the moves the page sends from now on (window.sent)
SENT = """() => { window.sent = []; const send = WebSocket.prototype.send;
  WebSocket.prototype.send = function (data) { window.sent.push(JSON.parse(data)); return send.call(this, data); }; }"""


def test_a_stack_players_lit_places_are_one_tab_stop_moved_along_by_the_arrow_keys(
    browser: Any, demo: tuple[str, Any]
) -> None:
    """A Stack player picks a die that may go to several places: the places lit are one
    Tab stop (WAI-ARIA's roving tabindex), the first of them; Right/Down focus the next,
    Left/Up the one before, round from the last to the first and back, Home/End the first
    and the last. The place focused last is the group's Tab stop: Tab leaves the group and
    Shift+Tab comes back to it; Enter plays the move onto it."""
    base, running = demo
    table = on_the_demos_loop(running, full_stack_table_at_a_later_seats_turn(running, 617))
    mover = table.player_at(table.live.state.current_player)
    url = f"{base}/tables/{table.live.id}"
    page, errors = seated_page(browser, url, running.sessions.issue(mover))
    browser.clear_cookies()
    dice = page.locator("#board .can-pick")
    for die in range(dice.count()):  # one of their dice that may go to several places
        tab_to(page, f"document.querySelectorAll('#board .can-pick')[{die}]")
        page.keyboard.press("Enter")
        if page.locator(LIT_PLACES).count() >= 3:
            break
    lit = [place for place, _ in page.evaluate(LIT)]
    assert len(lit) >= 3
    assert [stop for _, stop in page.evaluate(LIT)] == ["0"] + ["-1"] * (len(lit) - 1)
    assert [s["names"] for s in tab_stops(page) if s["lit"]] == lit[:1]
    tab_to(page, f"document.querySelector('{LIT_PLACES}')")
    visited = [page.evaluate(PLACE)]
    for _ in lit:
        page.keyboard.press("ArrowRight")
        visited.append(page.evaluate(PLACE))
    last = len(lit) - 1
    assert visited == [*range(len(lit)), 0]  # round from the last to the first
    keys = ["ArrowLeft", "ArrowUp", "ArrowDown", "ArrowDown", "End", "Home", "ArrowUp"]
    reached = []
    for key in keys:
        page.keyboard.press(key)
        reached.append(page.evaluate(PLACE))
    assert reached == [last, last - 1, last, 0, last, 0, last]
    page.keyboard.press("ArrowLeft")
    assert [stop for _, stop in page.evaluate(LIT)] == ["-1"] * (len(lit) - 2) + ["0", "-1"]
    page.keyboard.press("Tab")  # out of the group, and back to the place focused last
    assert page.evaluate(PLACE) == -1
    page.keyboard.press("Shift+Tab")
    assert page.evaluate(PLACE) == last - 1
    page.evaluate(SENT)
    drawn = page.evaluate("window.stackbotFrames")
    page.keyboard.press("Enter")
    page.wait_for_function(f"() => window.stackbotFrames > {drawn}", timeout=WAIT_MS)
    [sent] = page.evaluate("window.sent")
    _, face, seat, size = sent["move"]
    assert f"{seat}:{size}:{face}" == lit[-2]  # the move onto the place focused
    assert page.evaluate(IN_THE_TABLE)
    assert errors == []
    page.close()


# the words of each card of the hand a screen reader reads, and the card's colour and
# number as drawn on it (a special card: none)
HAND_READ = """() => [...document.querySelectorAll("#hand [data-card]")].map((card) => {
  const texts = [...card.querySelectorAll("text")].map((t) => t.textContent);
  return [card.getAttribute("aria-label"), texts.length === 2 ? texts[1] + texts[0] : null];
})"""

COLOUR_WORDS = {
    "en": ({"R": "red", "B": "blue", "Y": "yellow", "G": "green"}, "{colour} {number}"),
    "ja": ({"R": "赤", "B": "青", "Y": "黄", "G": "緑"}, "{colour}の{number}"),
}


@pytest.mark.parametrize("language", ["en", "ja"])
def test_a_screen_reader_reads_stack_ups_cards_as_words_not_notation(
    browser: Any, demo: tuple[str, Any], language: str
) -> None:
    """A Stack Up! player's cards are read by their colour's word and their number ("red
    10", 「赤の10」), not the notation drawn on them ("R10"); so is the stack's card; no
    name read on the page is notation. The player's page shows their own cards only."""
    base, running = demo
    channel = 611 if language == "en" else 612
    table = on_the_demos_loop(running, table_at_its_first_play(running, channel, "stackup"))
    mover = table.player_at(table.live.state.current_player)
    url = f"{base}/tables/{table.live.id}?lang={language}"
    page, errors = seated_page(browser, url, running.sessions.issue(mover))
    browser.clear_cookies()
    words, pattern = COLOUR_WORDS[language]
    read = page.evaluate(HAND_READ)
    numbers = [(label, drawn) for label, drawn in read if drawn is not None]
    assert numbers
    for label, drawn in numbers:
        assert label == pattern.format(colour=words[drawn[0]], number=drawn[1:])
    names = page.eval_on_selector_all(
        "[aria-label]", "(all) => all.map((e) => e.getAttribute('aria-label'))"
    )
    assert [name for name in names if re.search(NOTATION, name)] == []
    # the other seats' cards are face down: the page holds the player's hand and no other
    assert page.locator("#board .seat [data-card]").count() == 0
    assert errors == []
    page.close()


NOTATION = r"(?<![A-Za-z])[RBYG]\d+\b"  # a card as typed: R7

# the move panel's buttons: their words and the name a screen reader reads for each
MOVE_BUTTONS = """() => [...document.querySelectorAll("#moves button")]
  .map((b) => [b.textContent, b.getAttribute("aria-label")])"""

PLAY_WORDS = {"en": "Play {cards}", "ja": "{cards}を出す"}


def plays_one_number_card(state: Any) -> bool:
    """Whether Stack Up!'s player to move may play a number card alone."""
    return any(
        isinstance(move, Play) and len(move.cards) == 1 and move.cards[0] in NUMBER_CARDS
        for move in state.legal_moves()
    )


@pytest.mark.parametrize("language", ["en", "ja"])
def test_stack_ups_move_buttons_say_each_move_in_words_and_are_read_as_shown(
    browser: Any, demo: tuple[str, Any], language: str
) -> None:
    """A Stack Up! player's move buttons say each move in words, its cards read as the
    hand's cards are ("Play red 7", 「赤の7を出す」), never the notation typed in Discord
    ("R7"); a card picked in the hand offers the play of it in the same words. A screen
    reader reads each button by the words it shows (no aria-label of its own)."""
    base, running = demo
    # a table whose player to move may play one number card alone (the deal decides: the
    # demo's tables are dealt from its own source, whose draws depend on the tests before)
    for channel in range(6150 if language == "en" else 6250, 6250 if language == "en" else 6350):
        table = on_the_demos_loop(running, table_at_its_first_play(running, channel, "stackup"))
        if plays_one_number_card(table.live.state):
            break
    else:
        raise AssertionError("no deal of 100 lets a player play one number card")
    mover = table.player_at(table.live.state.current_player)
    url = f"{base}/tables/{table.live.id}?lang={language}"
    page, errors = seated_page(browser, url, running.sessions.issue(mover))
    browser.clear_cookies()
    shown = page.evaluate(MOVE_BUTTONS)
    assert shown
    assert [words for words, _ in shown if re.search(NOTATION, words)] == []
    assert [words for words, name in shown if name is not None] == []
    # a number card tapped that makes a play alone: the play offered is that card's, in words
    for card in page.locator("#hand [data-card]:not(.off)").all():
        if card.locator("text").count() != 2:  # a special card (its name, not a number)
            continue
        card.tap()
        if page.locator("#combo button").count():
            break
        card.tap()  # not a play alone: put back
    play = page.locator("#combo button").first
    read = page.locator("#hand .picked").get_attribute("aria-label")
    assert play.inner_text() == PLAY_WORDS[language].format(cards=read)
    assert page.get_by_role("button", name=play.inner_text(), exact=True).count() >= 1
    assert errors == []
    page.close()


@pytest.mark.parametrize("language", ["en", "ja"])
def test_a_stack_players_own_dice_are_read_as_theirs(
    browser: Any, demo: tuple[str, Any], language: str
) -> None:
    """A Stack player's own dice are a group a screen reader names as theirs ("your
    dice", 「あなたのダイス」), the other seats' by their players' names; a spectator's
    page says no dice are theirs."""
    base, running = demo
    channel = 613 if language == "en" else 614
    table = on_the_demos_loop(running, table_at_its_first_play(running, channel, "stack"))
    mover = table.player_at(table.live.state.current_player)
    url = f"{base}/tables/{table.live.id}?lang={language}"
    yours = {"en": "your dice", "ja": "あなたのダイス"}[language]
    dice_groups = """() => [...document.querySelectorAll("#board .seat svg[role=group]")]
      .map((g) => [g.getAttribute("aria-label"), g.querySelectorAll(".can-pick").length > 0])"""
    page, errors = seated_page(browser, url, running.sessions.issue(mover))
    browser.clear_cookies()
    groups = page.evaluate(dice_groups)
    assert [label for label, _ in groups].count(yours) == 1
    assert [mine for label, mine in groups if label == yours] == [True]
    page.close()
    page, more = seated_page(browser, url, None)
    assert yours not in [label for label, _ in page.evaluate(dice_groups)]
    assert errors == more == []
    page.close()
