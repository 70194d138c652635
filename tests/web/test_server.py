"""The web front end over the real host (SQLite): pages, the socket's frames on every
commit, who sees what, bad frames, Origin, rate limits, sessions, and replays."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import random
import re
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import orjson
import pytest
from aiohttp import WSCloseCode, WSMsgType, WSServerHandshakeError, web
from aiohttp.test_utils import TestClient, TestServer
from sqlalchemy import text as sql

from engine import games
from engine.stackup.cards import card_names
from host.live import Player
from web.activity import DiscordOAuth, NotIdentified, add_activity
from web.demo import Demo, DemoTable
from web.guard import SESSION_COOKIE, RateLimit, Sessions, origin_allowed, session_key
from web.server import MAX_FRAME, ORIGIN_WARNINGS, STATIC, make_app
from web.views import board

CARD = re.compile(r"\b[RBYG](?:1[0-5]|[1-9])\b")


class Site:
    """A demo host whose tables the test moves, and its pages on a test server."""

    def __init__(self, demo: Demo, client: TestClient[Any, Any], sessions: Sessions) -> None:
        self.demo = demo
        self.client = client
        self.sessions = sessions
        self.origin = f"http://{client.host}:{client.port}"

    def socket(self, table_id: int, token: str | None = None, **kw: Any) -> Any:
        headers = {"Origin": self.origin}
        if token:
            headers["Cookie"] = f"{SESSION_COOKIE}={token}"
        return self.client.ws_connect(f"/tables/{table_id}/ws", headers=headers, **kw)


async def _site(rate: RateLimit | None = None, clock: Any = None) -> tuple[Demo, Site]:
    demo = Demo(seed=7)
    service = await demo.start(play=False)
    sessions = Sessions(ttl=60, clock=clock) if clock else Sessions()
    app = make_app(service, demo.hub, sessions=sessions, rate=rate)
    client: TestClient[Any, Any] = TestClient(TestServer(app))
    await client.start_server()
    return demo, Site(demo, client, sessions)


@pytest.fixture
async def site() -> AsyncIterator[Site]:
    demo, made = await _site()
    yield made
    await made.client.close()
    await demo.close()


def json_board(name: str, state: Any) -> Any:
    """The board of ``state`` as the page reads it (JSON: tuples are lists)."""
    return orjson.loads(orjson.dumps(board(name, state)))


async def frame(ws: Any) -> dict[str, Any]:
    message = await ws.receive(timeout=30)
    assert message.type is WSMsgType.TEXT, message
    found: dict[str, Any] = orjson.loads(message.data)
    return found


async def table_frame(ws: Any, version: int) -> dict[str, Any]:
    """The next table frame of ``version`` (earlier ones skipped)."""
    while True:
        found = await frame(ws)
        if found["type"] == "table" and found["version"] >= version:
            return found


async def test_the_index_links_every_live_table(site: Site) -> None:
    tables = [await site.demo.open_table(c, n) for c, n in enumerate(games.names(), start=1)]
    page = await (await site.client.get("/")).text()
    for table in tables:
        assert f'href="/tables/{table.live.id}"' in page
        assert table.live.game.title in page
    assert (await site.client.get(f"/tables/{tables[0].live.id}")).status == 200


async def test_a_name_is_shown_as_text_never_as_html(site: Site) -> None:
    table = await site.demo.open_table(1, "colorstack")
    other = Player(999, "<script>alert(1)</script>")
    await site.demo.service.end(1, table.players[0], manager=True)  # type: ignore[union-attr]
    live = await site.demo.service.new_table(1, 1, other, {}, game="stack")  # type: ignore[union-attr]
    page = await (await site.client.get("/")).text()
    assert "<script>alert(1)</script>" not in page
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    assert f'href="/tables/{live.id}"' in page


@pytest.mark.parametrize("name", games.names())
async def test_every_commit_sends_the_watching_page_the_new_table(site: Site, name: str) -> None:
    table = await site.demo.open_table(1, name)
    rng = random.Random(1)
    async with site.socket(table.live.id) as ws:
        first = await frame(ws)
        assert first["type"] == "table" and first["game"] == name
        assert first["version"] == table.live.version
        assert first["board"] == json_board(name, table.live.state)
        for _ in range(3):
            assert await site.demo.step(table, rng)
            sent = await table_frame(ws, table.live.version)
            assert sent["version"] == table.live.version
            assert sent["board"] == json_board(name, table.live.state)
            assert sent["turns"] == list(table.live.turns)
            assert sent["current"] == table.live.state.current_player  # type: ignore[union-attr]


async def test_no_hidden_card_of_a_running_stack_up_game_reaches_anyone_but_its_holder(
    site: Site,
) -> None:
    """Every frame a spectator and a seated player get while a Stack Up! game runs, the
    pages and every asset: no card of a hand but the reader's own, ever."""
    table = await site.demo.open_table(1, "stackup")
    live = table.live
    holder = table.players[0]
    seat = live.info.seat_of(holder.id).position  # type: ignore[union-attr]
    token = site.sessions.issue(holder)
    # per version, each seat's hand (special cards are alike, and public when played: a
    # leak is seen by the numbered cards, each of which is one of a kind)
    hands_at: dict[int, list[list[str]]] = {}

    def note_hands() -> None:
        state: Any = live.state
        hands_at[live.version] = [card_names(state.hand(s)) for s in range(state.n)]

    note_hands()
    rng = random.Random(3)
    seen: list[tuple[str, str]] = []  # (who, frame text)
    async with site.socket(live.id) as spectator, site.socket(live.id, token) as player:
        for _ in range(40):
            if table.over:
                break
            assert await site.demo.step(table, rng)
            note_hands()
            for who, ws in (("spectator", spectator), ("player", player)):
                message = await ws.receive(timeout=30)
                seen.append((who, message.data))
                while orjson.loads(message.data)["version"] < live.version:
                    message = await ws.receive(timeout=30)
                    seen.append((who, message.data))
    assert len(seen) >= 20
    own_seen = 0
    for who, text in seen:
        sent = orjson.loads(text)
        hands = hands_at[sent["version"]]
        cards = set(CARD.findall(text))
        others = [s for s in range(len(hands)) if who == "spectator" or s != seat]
        for other in others:
            assert not cards & set(hands[other]), (who, other, cards & set(hands[other]))
        assert '"hand' not in text.replace('"hand_sizes"', "") or who == "player"
        if who == "spectator":
            assert "you" not in sent
        else:
            assert sent["you"]["seat"] == seat and sent["you"]["hand"] == hands[seat]
            assert set(sent["you"]) <= {"seat", "hand", "choices"}
            own_seen += bool(CARD.findall(" ".join(hands[seat])))
    assert own_seen, "the holder saw their own cards"
    # the pages and the assets hold no card at all
    running: Any = live.state
    every_hand = set(CARD.findall(str(hands_at[live.version]))) if not running.is_over else set()
    for path in ["/", f"/tables/{live.id}", f"/games/{live.id}?lang=en"] + [
        f"/static/{p.name}" for p in sorted(STATIC.iterdir())
    ]:
        body = await (await site.client.get(path, cookies={SESSION_COOKIE: token})).text()
        assert not set(CARD.findall(body)) & every_hand, path
    if not running.is_over:  # a running game has no replay: it would show the hands
        assert (await site.client.get(f"/games/{live.id}/replay.json")).status == 404


async def test_a_bad_frame_gets_a_typed_error_and_changes_nothing(site: Site) -> None:
    table = await site.demo.open_table(1, "colorstack")
    token = site.sessions.issue(table.players[0])
    version = table.live.version
    async with site.socket(table.live.id, token) as ws:
        await frame(ws)
        for bad in [
            "nope",
            "[]",
            '{"type": "dance"}',
            '{"type": "move"}',
            '{"type": "move", "text": 5}',
            '{"type": "move", "text": "a1", "extra": 1}',
        ]:
            await ws.send_str(bad)
            assert await frame(ws) == {"type": "error", "code": "bad_frame"}, bad
        await ws.send_bytes(b"\x00\x01")
        assert await frame(ws) == {"type": "error", "code": "bad_frame"}
        await ws.send_str('{"type": "ping"}')
        assert await frame(ws) == {"type": "pong"}
    assert table.live.version == version


async def test_a_page_that_asks_for_the_table_is_sent_it_as_it_is_now(site: Site) -> None:
    """``{"type": "table"}``: the table's frame as the page may see it now (a page whose
    move was refused as stale asks for it), its seat's own part for a seated player's."""
    table = await site.demo.open_table(1, "colorstack")
    token = site.sessions.issue(table.players[0])
    async with site.socket(table.live.id, token) as ws, site.socket(table.live.id) as watching:
        await frame(ws)
        await frame(watching)
        await site.demo.step(table, random.Random(1))
        await frame(ws)  # the commit's frame
        await ws.send_str('{"type": "table"}')
        now = await frame(ws)
        assert now["type"] == "table" and now["version"] == table.live.version
        assert now["you"]["seat"] == 0
        await frame(watching)
        await watching.send_str('{"type": "table"}')
        seen = await frame(watching)
        assert seen["version"] == table.live.version and "you" not in seen


async def test_a_frame_over_the_size_a_page_sends_closes_its_socket_and_changes_nothing(
    site: Site,
) -> None:
    """A frame over MAX_FRAME bytes is not read whole: the socket is closed (1009, too
    big), no move is played, and a new socket is sent the table as before."""
    table = await site.demo.open_table(1, "colorstack")
    token = site.sessions.issue(table.players[0])
    version = table.live.version
    async with site.socket(table.live.id, token) as ws:
        await frame(ws)
        padding = "x" * MAX_FRAME
        await ws.send_str(f'{{"type": "move", "text": "{padding}"}}')
        closed = await ws.receive(timeout=30)
        assert closed.type in (WSMsgType.CLOSE, WSMsgType.CLOSED, WSMsgType.CLOSING)
        assert ws.close_code == WSCloseCode.MESSAGE_TOO_BIG
    assert table.live.version == version
    async with site.socket(table.live.id, token) as ws:
        assert (await frame(ws))["version"] == version


async def test_a_spectator_cannot_move(site: Site) -> None:
    table = await site.demo.open_table(1, "colorstack")
    version = table.live.version
    async with site.socket(table.live.id) as ws:
        await frame(ws)
        await ws.send_str('{"type": "move", "text": "resign"}')
        assert await frame(ws) == {"type": "error", "code": "not_identified"}
    assert table.live.version == version


async def stack_turn(site: Site) -> tuple[Any, Any, Player, Player]:
    """A Stack table just started: the table, its state, the player to move and the next."""
    table = await site.demo.open_table(1, "stack")
    state: Any = table.live.state
    mover = table.player_at(state.current_player)
    waiting = table.player_at((state.current_player + 1) % len(table.players))
    return table.live, state, mover, waiting


async def test_a_seated_players_move_goes_through_the_hosts_checks(site: Site) -> None:
    live, state, mover, waiting = await stack_turn(site)
    game = games.get("stack")
    legal = game.move_notation(state, state.legal_moves()[0])
    version = live.version
    async with site.socket(live.id, site.sessions.issue(waiting)) as other:
        await frame(other)
        await other.send_str(orjson.dumps({"type": "move", "text": legal}).decode())
        assert await frame(other) == {"type": "refused", "why": "not_your_turn"}
    async with site.socket(live.id, site.sessions.issue(mover)) as ws:
        await frame(ws)
        await ws.send_str('{"type": "move", "text": "zz99"}')
        assert await frame(ws) == {"type": "refused", "why": "illegal_move"}
        assert live.version == version
        await ws.send_str(orjson.dumps({"type": "move", "text": legal}).decode())
        answers = [await frame(ws), await frame(ws)]
    kinds = sorted(a["type"] for a in answers)
    assert kinds == ["moved", "table"], answers
    assert live.version > version


async def test_a_socket_from_another_site_is_refused(site: Site) -> None:
    table = await site.demo.open_table(1, "stack")
    url = f"/tables/{table.live.id}/ws"
    for headers in ({"Origin": "https://evil.example"}, {}):
        answer = await site.client.get(
            url,
            headers={
                **headers,
                "Upgrade": "websocket",
                "Connection": "Upgrade",
                "Sec-WebSocket-Version": "13",
                "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ==",
            },
        )
        assert answer.status == 403


async def test_a_refused_origin_is_logged_once_naming_it_the_host_and_the_fix(
    site: Site, caplog: pytest.LogCaptureFixture
) -> None:
    """Behind a proxy that rewrites ``Host`` every socket is refused: the first refusal
    says in the log the Origin refused, the host expected and how to fix it; the next
    ones say nothing more. A page may ask whether its origin is taken (``POST /origin``)."""
    table = await site.demo.open_table(1, "stack")
    url = f"/tables/{table.live.id}/ws"
    upgrade = {
        "Upgrade": "websocket",
        "Connection": "Upgrade",
        "Sec-WebSocket-Version": "13",
        "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ==",
    }
    proxied = {"Origin": "https://stackbot.example.org"}
    with caplog.at_level(logging.WARNING, logger="web.server"):
        for _ in range(3):
            answer = await site.client.get(url, headers={**proxied, **upgrade})
            assert answer.status == 403
        checked = await site.client.post("/origin", headers=proxied)
        assert orjson.loads(await checked.read()) == {"allowed": False}
    warned = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    assert len(warned) == 1, warned
    host = f"{site.client.host}:{site.client.port}"
    assert "https://stackbot.example.org" in warned[0] and host in warned[0]
    assert "proxy_set_header Host $host" in warned[0] and "WEB_ORIGINS" in warned[0]
    mine = await site.client.post("/origin", headers={"Origin": site.origin})
    assert orjson.loads(await mine.read()) == {"allowed": True}


async def test_a_strangers_origin_does_not_use_up_the_warning_a_misconfiguration_needs(
    site: Site, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.WARNING, logger="web.server"):
        stranger = await site.client.post("/origin", headers={"Origin": "https://x.example"})
        assert orjson.loads(await stranger.read()) == {"allowed": False}
        proxied = await site.client.post("/origin", headers={"Origin": "https://stack.example"})
        assert orjson.loads(await proxied.read()) == {"allowed": False}
        for n in range(40):  # many more: the log names a few, not all
            await site.client.post("/origin", headers={"Origin": f"https://{n}.example"})
    warned = [r.getMessage() for r in caplog.records if r.levelno == logging.WARNING]
    assert "https://x.example" in warned[0] and "https://stack.example" in warned[1]
    assert len(warned) == ORIGIN_WARNINGS


def test_the_origin_is_the_servers_own_or_one_allowed() -> None:
    assert origin_allowed("http://example.org:8080", "example.org:8080")
    assert origin_allowed("https://example.org", "example.org")
    assert not origin_allowed("https://example.org.evil.example", "example.org")
    assert not origin_allowed(None, "example.org")
    assert not origin_allowed("null", "example.org")
    assert origin_allowed("https://1.discordsays.com", "example.org", {"https://1.discordsays.com"})


async def test_frames_over_the_users_rate_are_refused() -> None:
    demo, site = await _site(rate=RateLimit(rate=0.0, burst=2.0))
    try:
        table = await demo.open_table(1, "stack")
        async with site.socket(table.live.id) as ws:
            await frame(ws)
            answers = []
            for _ in range(3):
                await ws.send_str('{"type": "ping"}')
                answers.append(await frame(ws))
        assert answers == [
            {"type": "pong"},
            {"type": "pong"},
            {"type": "error", "code": "rate_limited"},
        ]
    finally:
        await site.client.close()
        await demo.close()


def test_the_rate_limit_refills_with_time() -> None:
    now = [0.0]
    rate = RateLimit(rate=1.0, burst=2.0, clock=lambda: now[0])
    assert [rate.allow("a") for _ in range(3)] == [True, True, False]
    assert rate.allow("b")  # each key its own bucket
    now[0] = 1.0
    assert rate.allow("a") and not rate.allow("a")


async def test_a_session_is_bound_to_its_user_and_expires() -> None:
    now = [0.0]
    demo, site = await _site(clock=lambda: now[0])
    try:
        table = await demo.open_table(1, "stackup")
        holder = table.players[0]
        token = site.sessions.issue(holder)
        found = site.sessions.session(token)
        assert found is not None and found.player == holder
        assert site.sessions.session("forged") is None
        async with site.socket(table.live.id, token) as ws:
            assert "hand" in (await frame(ws))["you"]
            now[0] = 61.0
            await ws.send_str('{"type": "ping"}')
            assert await frame(ws) == {"type": "error", "code": "session_expired"}
            assert (await ws.receive(timeout=30)).type in (
                WSMsgType.CLOSE,
                WSMsgType.CLOSED,
                WSMsgType.CLOSING,
            )
        assert site.sessions.session(token) is None
        async with site.socket(table.live.id, token) as ws:  # the expired cookie: a spectator
            assert "you" not in await frame(ws)
        # a page that says nothing: once its session expired, its frames are a spectator's
        now[0] = 0.0
        token = site.sessions.issue(holder)
        async with site.socket(table.live.id, token) as ws:
            assert "hand" in (await frame(ws))["you"]
            now[0] = 61.0
            assert await demo.step(table, random.Random(2))
            after = await table_frame(ws, table.live.version)
            assert "you" not in after
    finally:
        await site.client.close()
        await demo.close()


async def play_to_the_end(demo: Demo, table: DemoTable) -> None:
    rng = random.Random(5)
    for _ in range(2000):
        if table.over:
            return
        await demo.step(table, rng)
    raise AssertionError("the game did not end")


@pytest.mark.parametrize("name", ["colorstack", "stackup"])
async def test_a_finished_games_replay_steps_from_its_start_to_its_end(
    site: Site, name: str
) -> None:
    table = await site.demo.open_table(1, name)
    live = table.live
    final: Any = live.state
    await play_to_the_end(site.demo, table)
    final = live.state
    assert site.demo.hub.finished[-1] == live.id
    assert f'href="/games/{live.id}"' in await (await site.client.get("/")).text()
    answer = await site.client.get(f"/tables/{live.id}", allow_redirects=False)
    assert answer.status == 302 and answer.headers["Location"] == f"/games/{live.id}"
    assert (await site.client.get(f"/games/{live.id}")).status == 200
    replay = await (await site.client.get(f"/games/{live.id}/replay.json")).json()
    frames = replay["frames"]
    assert replay["game"] == name and len(frames) > 2
    assert frames[-1]["board"] == json_board(name, final)
    assert frames[-1]["scores"]["winners"] == list(games.get(name).outcome(final).winners)  # type: ignore[union-attr]
    assert frames[0]["words"].startswith("The game begins.")
    if name == "stackup":  # the game is over: every hand is in its record, and in its replay
        assert frames[-1]["hands"] == [card_names(final.hand(s)) for s in range(final.n)]
        assert any(any(hand) for hand in frames[0]["hands"])
    else:
        assert all("hands" not in f for f in frames)


async def test_a_game_that_never_was_has_no_replay(site: Site) -> None:
    assert (await site.client.get("/games/4242/replay.json")).status == 404
    assert (await site.client.get("/games/4242")).status == 404  # not an empty page
    huge = "9" * 30  # past any id a database keeps
    for path in (f"/games/{huge}", f"/games/{huge}/replay.json", f"/tables/{huge}"):
        assert (await site.client.get(path)).status == 404, path


async def test_the_page_of_a_game_that_never_was_says_so_in_the_sites_style_with_a_way_back(
    site: Site,
) -> None:
    huge = "9" * 30  # past any id a database keeps
    for game in ("4242", "0", huge):
        answer = await site.client.get(f"/games/{game}")
        assert answer.status == 404 and answer.content_type == "text/html", game
        page = await answer.text()
        assert html_lang(page) == "en" and "<h1>Page not found</h1>" in page
        assert "There is no such game." in page and 'href="/">Back to the tables</a>' in page
        assert 'href="/static/style.css"' in page
    ja = await site.client.get("/games/4242?lang=ja")
    page = await ja.text()
    assert ja.status == 404 and html_lang(page) == "ja" and "その対局はありません。" in page
    assert 'href="/?lang=ja">卓の一覧に戻る</a>' in page
    # a table that is not here (over, lost in a restart, or never was) goes to its replay's
    # page, which says why there is none
    gone = await site.client.get("/tables/4242?lang=ja")
    assert gone.status == 404 and "その対局はありません。" in await gone.text()
    lost = await site.demo.open_table(1, "stack")
    site.demo.service.by_id.pop(lost.live.id)  # type: ignore[union-attr]
    answer = await site.client.get(f"/tables/{lost.live.id}")
    assert str(answer.url).endswith(f"/games/{lost.live.id}")
    page = await answer.text()
    assert answer.status == 404 and "That game is not over yet." in page
    assert 'href="/">Back to the tables</a>' in page


async def test_a_replay_plays_the_rules_its_game_was_played_by(site: Site) -> None:
    """The house rules changed since (or its table's options are past what a table may
    set now): the replay still shows the game as it was played, from its stored start."""
    table = await site.demo.open_table(1, "colorstack")
    await play_to_the_end(site.demo, table)
    before = await (await site.client.get(f"/games/{table.live.id}/replay.json")).json()
    store = site.demo.service.store
    await store.set_house_rules(1, {"board": "heavy"}, game="colorstack")
    async with store.engine.begin() as conn:
        await conn.execute(
            sql("UPDATE tables SET options = :o WHERE id = :id"),
            {"o": '{"turn_limit": 50000}', "id": table.live.id},
        )
    answer = await site.client.get(f"/games/{table.live.id}/replay.json")
    assert answer.status == 200 and await answer.json() == before
    assert (await site.client.get("/tables/4242", allow_redirects=False)).status == 302


async def test_the_replay_page_of_a_game_still_running_is_its_live_page(site: Site) -> None:
    table = await site.demo.open_table(1, "colorstack")
    answer = await site.client.get(f"/games/{table.live.id}?lang=ja", allow_redirects=False)
    assert answer.status == 302 and answer.headers["Location"] == f"/tables/{table.live.id}?lang=ja"


def test_the_pages_modules_are_package_data() -> None:
    import tomllib

    root = Path(__file__).resolve().parents[2]
    data = tomllib.loads((root / "pyproject.toml").read_text())["tool"]["setuptools"][
        "package-data"
    ]
    shipped = {p.relative_to(STATIC).as_posix() for p in STATIC.rglob("*") if p.is_file()}
    packaged = {
        p.relative_to(STATIC).as_posix()
        for pattern in data["web"]
        for p in (root / "web").glob(pattern)
    }
    assert shipped == packaged
    assert {"table.js", "replay.js", "boards.js", "common.js", "style.css"} <= shipped
    assert {"activity.js", "vendor/discord-sdk.js", "vendor/LICENSES.md"} <= shipped


async def test_a_seated_player_is_sent_their_moves_on_their_turn_and_plays_one_by_its_code(
    site: Site,
) -> None:
    live, state, mover, waiting = await stack_turn(site)
    game = games.get("stack")
    async with (
        site.socket(live.id, site.sessions.issue(mover)) as ws,
        site.socket(live.id, site.sessions.issue(waiting)) as other,
    ):
        mine = await frame(ws)
        assert "choices" not in (await frame(other))["you"]
        choices = mine["you"]["choices"]
        legal = [orjson.loads(orjson.dumps(game.encode_move(m))) for m in state.legal_moves()]
        assert [c["move"] for c in choices] == legal
        assert all(c["label"] for c in choices)
        version = live.version
        pick = {"type": "move", "move": choices[-1]["move"], "version": version}
        await ws.send_str(orjson.dumps(pick).decode())
        answers = [await frame(ws), await frame(ws)]
        assert sorted(a["type"] for a in answers) == ["moved", "table"], answers
        assert live.version > version
        assert live.state is not None and live.state.to_dict() != state.to_dict()


async def test_a_forged_or_outdated_move_code_changes_nothing(site: Site) -> None:
    table = await site.demo.open_table(1, "stack")
    live = table.live
    state: Any = live.state
    mover = table.player_at(state.current_player)
    async with site.socket(live.id, site.sessions.issue(mover)) as ws:
        choice = (await frame(ws))["you"]["choices"][0]["move"]
        version = live.version
        for bad, answer in [
            ({"type": "move", "move": ["nonsense"], "version": version}, "error"),
            ({"type": "move", "move": choice, "version": "1"}, "error"),
            ({"type": "move", "move": choice, "version": version - 1}, "refused"),
        ]:
            await ws.send_str(orjson.dumps(bad).decode())
            got = await frame(ws)
            assert got["type"] == answer, (bad, got)
        assert got == {"type": "refused", "why": "stale_panel"}
    assert live.version == version


@contextlib.asynccontextmanager
async def visitors_site(burst: float) -> AsyncIterator[tuple[Demo, Any, TestClient[Any, Any], str]]:
    """The demo's pages with its play buttons (``burst`` new tables an address may ask
    for at once), and no table of its own: the demo, its host, a client and its origin."""
    from web.demo import demo_app

    demo = Demo(seed=3)
    service = await demo.start(play=False)
    app = demo_app(demo, service, RateLimit(rate=0.0, burst=burst))
    client: TestClient[Any, Any] = TestClient(TestServer(app))
    await client.start_server()
    try:
        yield demo, service, client, f"http://{client.host}:{client.port}"
    finally:
        await client.close()
        await demo.close()


async def test_a_visitor_gets_a_table_of_their_own_against_the_ai_and_a_session_for_it() -> None:
    async with visitors_site(4.0) as (demo, service, client, origin):
        assert "/demo/play/stackup" in await (await client.get("/")).text()
        refused = await client.post("/demo/play/stackup", allow_redirects=False)
        assert refused.status == 403  # no Origin: not from the site's own page
        answer = await client.post(
            "/demo/play/stackup", headers={"Origin": origin}, allow_redirects=False
        )
        assert answer.status == 303
        table_id = int(answer.headers["Location"].rsplit("/", 1)[1])
        live = service.by_id[table_id]
        assert [s.is_ai for s in live.info.seats].count(False) == 1
        token = answer.cookies[SESSION_COOKIE].value
        assert "httponly" in answer.headers["Set-Cookie"].lower()
        headers = {"Origin": origin, "Cookie": f"{SESSION_COOKIE}={token}"}
        async with client.ws_connect(f"/tables/{table_id}/ws", headers=headers) as ws:
            you = (await frame(ws))["you"]
        seat = next(s.position for s in live.info.seats if not s.is_ai)
        assert you["seat"] == seat
        assert you["hand"] == card_names(live.state.hand(seat))  # type: ignore[union-attr]
        for _ in range(5):  # an address asking for table after table is told to wait
            answer = await client.post(
                "/demo/play/stack", headers={"Origin": origin}, allow_redirects=False
            )
            if answer.status == 429:
                break
        assert answer.status == 429
        assert len(demo.visitors) <= 20


async def test_a_cookie_signed_with_another_key_is_told_apart_from_an_expired_one() -> None:
    """A cookie the server cannot read as its own (issued before its secret changed) is
    no longer valid, and the page is told so (``session_invalid``); one of its own whose
    12 hours are over is told it expired (``session_expired``): the page words them apart."""
    now = [0.0]
    demo, site = await _site(clock=lambda: now[0])
    try:
        table = await demo.open_table(1, "stack")
        holder = table.players[0]
        before = Sessions(ttl=60, clock=lambda: now[0], key=session_key("the old secret"))
        async with site.socket(table.live.id, before.issue(holder)) as ws:
            assert await frame(ws) == {"type": "error", "code": "session_invalid"}
            assert "you" not in await frame(ws)  # a spectator's table
        expired = site.sessions.issue(holder)
        now[0] = 61.0
        async with site.socket(table.live.id, expired) as ws:
            assert await frame(ws) == {"type": "error", "code": "session_expired"}
    finally:
        await site.client.close()
        await demo.close()


async def test_a_page_gone_before_it_is_told_its_session_ended_stops_watching(
    site: Site, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A page with a session cookie that is no longer one is told ``session_invalid`` as
    its socket opens; a page gone by then (the send fails) stops watching the table, as
    any page gone does (it was left among the table's watchers, its error unhandled)."""
    table = await site.demo.open_table(1, "stack")
    send_str = web.WebSocketResponse.send_str

    async def gone(self: web.WebSocketResponse, data: str, compress: Any = None) -> None:
        if "session_invalid" in data:
            raise ConnectionResetError("the page went away")
        await send_str(self, data, compress)

    monkeypatch.setattr(web.WebSocketResponse, "send_str", gone)
    async with site.socket(table.live.id, "no.longer") as ws:
        while (await ws.receive(timeout=30)).type not in (
            WSMsgType.CLOSE,
            WSMsgType.CLOSED,
            WSMsgType.ERROR,
        ):
            pass
    assert table.live.id not in site.demo.hub.watchers


async def test_a_silent_pages_socket_is_closed_when_its_session_expires() -> None:
    demo = Demo(seed=3)
    service = await demo.start(play=False)
    sessions = Sessions(ttl=0.2)
    client: TestClient[Any, Any] = TestClient(
        TestServer(make_app(service, demo.hub, sessions=sessions))
    )
    await client.start_server()
    try:
        table = await demo.open_table(1, "stackup")
        site = Site(demo, client, sessions)
        async with site.socket(table.live.id, sessions.issue(table.players[0])) as ws:
            assert "you" in await frame(ws)
            assert await frame(ws) == {"type": "error", "code": "session_expired"}
            assert (await ws.receive(timeout=30)).type in (WSMsgType.CLOSE, WSMsgType.CLOSED)
    finally:
        await client.close()
        await demo.close()


@pytest.mark.parametrize("name", ["stack", "stackup", "colorstack"])
async def test_a_replays_words_are_the_turns_the_live_table_told_naming_the_mover(
    site: Site, name: str
) -> None:
    table = await site.demo.open_table(1, name)
    live = table.live
    told: list[str] = []
    rng = random.Random(5)
    while not table.over:
        before = list(live.turns)
        await site.demo.step(table, rng)
        after = list(live.turns)
        told.extend(after[len(before) :] if len(before) < 8 else after[-1:])
    replay = await (await site.client.get(f"/games/{live.id}/replay.json")).json()
    words = [f["words"] for f in replay["frames"][1:]]
    names = [p["name"] for p in replay["players"]]
    assert all(any(n in w for n in names) for w in words), words
    assert not any("your" in w.split() or w.startswith("Set ") for w in words), words
    assert told and all(any(t in w for w in words) for t in told), (told, words)


@pytest.mark.parametrize("name", ["stack", "stackup", "colorstack"])
async def test_a_replay_numbers_its_steps_as_the_live_table_numbered_the_turns(
    site: Site, name: str
) -> None:
    """Step ``n`` of the replay is the board once turn ``n`` (as the live page numbered
    it) ended, told in that turn's words; step 0 the board as the first turn begins, with
    the choice made before it (Color Stack's colours, Stack Up!'s direction: no turn).
    Chance outcomes and decisions inside a turn (Stack's reroll and its pile, Stack Up!'s
    draw) are no steps of their own."""
    table = await site.demo.open_table(1, name)
    live = table.live
    told: dict[int, str] = {}  # each turn's number on the live page, and its words there
    rng = random.Random(5)
    async with site.socket(live.id) as ws:
        while not table.over:
            await site.demo.step(table, rng)
            shown = await table_frame(ws, live.version)
            for back, line in enumerate(reversed(shown["turns"])):
                told[shown["turn_number"] - back] = line
    replay = await (await site.client.get(f"/games/{live.id}/replay.json")).json()
    frames = replay["frames"]
    assert len(frames) - 1 == shown["turn_number"] == max(told)
    assert sorted(told) == list(range(1, len(frames)))
    for number, line in told.items():
        assert line in frames[number]["words"], (number, line, frames[number]["words"])
    if name != "stack":  # the board's own count of the turns taken
        assert [f["board"]["turns_taken"] for f in frames] == list(range(len(frames)))
    first = frames[0]
    assert first["words"].startswith("The game begins.")
    if name == "colorstack":  # the colours chosen: the board laid, every seat's colours
        assert all(len(c) == 2 for c in first["board"]["colours"]), first["words"]
        assert "(the other player: " in first["words"], first["words"]
    if name == "stackup":  # the direction chosen
        assert first["board"]["direction"] in ("up", "down")
        assert "→" in first["words"], first["words"]


async def test_a_colour_stack_set_button_says_the_die_it_is_and_the_die_it_becomes() -> None:
    from engine.colorstack.describe import die_words
    from terminal.hosting import TERMINAL
    from web.views import label

    game = games.get("colorstack")
    hosted = TERMINAL.game("colorstack")
    rng = random.Random(2)
    state: Any = game.new_state(["Ada", "Bo"], game.settings())
    while True:
        if state.decision.name == "CHANCE":
            state.apply(state.sample_chance(rng))
            continue
        sets = [m for m in state.legal_moves() if type(m).__name__ == "Set"]
        if sets:
            break
        state.apply(rng.choice(state.legal_moves()))
    move = sets[0]
    text = label(hosted, state, move)
    now, then = text.removesuffix(")").split(" (", 1)[1].split(" becomes ")
    assert now == die_words(state.top(move.square))
    state.apply(move)
    assert then == die_words(state.top(move.square)), text


def stack_up_buttons(seeds: range) -> list[tuple[Any, dict[str, str]]]:
    """Every kind of move Stack Up!'s games played at random from ``seeds`` offer (two and
    three seats): the move and its button's words in each language."""
    import catalog
    from terminal.hosting import TERMINAL
    from web.views import label

    game = games.get("stackup")
    hosted = TERMINAL.game("stackup")
    found: dict[tuple[Any, ...], tuple[Any, dict[str, str]]] = {}
    for seed in seeds:
        rng = random.Random(seed)
        state: Any = game.new_state(["Ada", "Bo", "Cy"][: 2 + seed % 2], game.settings())
        while not state.is_over:
            if state.decision.name == "CHANCE":
                state.apply(state.sample_chance(rng))
                continue
            for move in state.legal_moves():
                cards = getattr(move, "cards", ())
                kind = (type(move).__name__, getattr(move, "bonus", None), len(cards),
                        cards[:1], state.drawn, state.n)  # fmt: skip
                if kind not in found:
                    said = {}
                    for language in ("en", "ja"):
                        with catalog.speaking(language):
                            said[language] = label(hosted, state, move, "stackup")
                    found[kind] = (move, said)
            state.apply(rng.choice(state.legal_moves()))
    return list(found.values())


def test_stack_ups_move_buttons_read_their_cards_in_words_not_as_typed() -> None:
    """A web player reads each Stack Up! move in words: a play's number cards by their
    colour and number as the hand's cards are read ("Play red 3, red 4 and red 5 (bonus:
    skip Bo)", 「赤の3、赤の4、赤の5を出す（ボーナス：Boをスキップ）」), a drawn card and
    the card kept likewise; never the notation typed in Discord (``R3 R4 R5 + skip Bo``)."""
    from engine.stackup import moves
    from engine.stackup.cards import FLIP

    colours = {"en": {"R": "red", "B": "blue", "Y": "yellow", "G": "green"},
               "ja": {"R": "赤", "B": "青", "Y": "黄", "G": "緑"}}  # fmt: skip
    card = {"en": "{colour} {number}", "ja": "{colour}の{number}"}
    buttons = stack_up_buttons(range(30))
    kinds = {type(move).__name__ for move, _ in buttons}
    assert {"Play", "PlayDrawn", "Keep", "Draw", "Direction"} <= kinds, kinds
    for move, said in buttons:
        for language, words in said.items():
            assert not CARD.search(words), (move, words)
            if isinstance(move, moves.Play) and move.cards[0] < FLIP:
                names = card_names(move.cards)
                read = [
                    card[language].format(colour=colours[language][c[0]], number=c[1:])
                    for c in names
                ]
                at = [words.find(r) for r in read]
                assert -1 not in at and at == sorted(at), (move, words)
    bonus = [said["en"] for move, said in buttons if getattr(move, "bonus", None)]
    assert any(w.endswith("(bonus: a draw pass)") for w in bonus), bonus
    assert any(re.search(r"\(bonus: (skip \w+|play again)\)$", w) for w in bonus), bonus
    one_card = (
        said
        for move, said in buttons
        if isinstance(move, moves.Play) and len(move.cards) == 1 and move.cards[0] < FLIP
    )
    singles = [said for said in one_card if "last" not in said["en"]]  # not the last card
    assert singles
    assert all(re.fullmatch(r"Play (red|blue|yellow|green) \d+", s["en"]) for s in singles)
    assert all(re.fullmatch(r"(赤|青|黄|緑)の\d+を出す", s["ja"]) for s in singles)


DRAWN = {  # (seats, the card drawn): its play's button in each language
    (3, "R6"): ("Play the red 6 you drew", "引いた赤の6を出す"),
    (3, "Flip"): ("Play the Flip you drew (the stack goes down)", "引いたフリップを出す（下りになる）"),
    (3, "Freeze"): ("Play the Freeze you drew (skip Bo)", "引いたフリーズを出す（Boをスキップ）"),
    (2, "Freeze"): ("Play the Freeze you drew (play again)", "引いたフリーズを出す（もう一度自分の番）"),
    (3, "Switch"): ("Play the Switch you drew (to blue)", "引いたスイッチを出す（青に変える）"),
    (3, "Snatch"): ("Play the Snatch you drew (take 1 card from Bo)", "引いたスナッチを出す（Boから1枚取る）"),
    (2, "Snatch"): ("Play the Snatch you drew (take 2 cards from Bo)", "引いたスナッチを出す（Boから2枚取る）"),
    (3, "Crash"): ("Play the Crash you drew (Bo must block or take 3)", "引いたクラッシュを出す（Boはブロックするか3枚引く）"),
}  # fmt: skip


@pytest.mark.parametrize(("seats", "drawn"), list(DRAWN))
def test_a_drawn_cards_button_names_the_card_drawn_then_what_it_does(
    seats: int, drawn: str
) -> None:
    """The card a stuck player drew is played by a button that names it, then says what it
    does ("Play the Switch you drew (to blue)", 「引いたスイッチを出す（青に変える）」), not
    the Discord menu's "Play the drawn Switch to Blue", 「引いたスイッチ（青に変える）を出す」."""
    import catalog
    from engine.stackup import moves
    from terminal.hosting import TERMINAL
    from tests.engine.stackup.situations import play, table
    from web.views import label

    hands = ("B9 G2", "G1 G3 G5 G7", "Y1 Y2")[:seats]
    state = table(*hands, stack="R5", pile=drawn, players=("Ann", "Bo", "Cy"))
    play(state, moves.DRAW)
    plays = [m for m in state.legal_moves() if isinstance(m, moves.PlayDrawn)]
    if drawn == "Snatch":  # from Bo: one card at three seats, two at two
        plays = [moves.PlayDrawn(target=1, count=4 - seats)]
        assert state.is_legal(plays[0])
    said = []
    for language in ("en", "ja"):
        with catalog.speaking(language):
            said.append(label(TERMINAL.game("stackup"), state, plays[0], "stackup"))
    assert tuple(said) == DRAWN[seats, drawn]


async def test_a_finished_game_is_listed_by_the_name_of_its_game(site: Site) -> None:
    table = await site.demo.open_table(1, "colorstack")
    await play_to_the_end(site.demo, table)
    index = await (await site.client.get("/")).text()
    row = re.search(rf'<a class="row" href="/games/{table.live.id}">(.*?)</a>', index)
    assert row is not None and "Color Stack" in row.group(1), index


@pytest.mark.parametrize("name", ["stack", "stackup", "colorstack"])
async def test_recent_turns_are_numbered_by_their_real_turn_numbers(site: Site, name: str) -> None:
    from engine.game import TurnEnded

    table = await site.demo.open_table(1, name)
    live = table.live
    rng = random.Random(3)
    for _ in range(14):  # more turns than the page recalls
        if table.over:
            break
        await site.demo.step(table, rng)
    service = site.demo.service
    assert service is not None
    game = games.get(name)
    state: Any = game.new_state(
        [s.name for s in live.info.seats], await service.rules_of(live.info)
    )
    ended = 0  # the turns the logged moves ended, played again
    for move in await service.store.logged_moves(live.id):
        ended += sum(isinstance(e, TurnEnded) for e in state.apply(move))
    async with site.socket(live.id) as ws:
        shown = await frame(ws)
    assert shown["turn_number"] == ended > len(shown["turns"])


async def test_the_demos_own_tables_name_their_ai_players_and_level(site: Site) -> None:
    from web.demo import LEVEL

    table = await site.demo.open_table(1, "stackup")
    async with site.socket(table.live.id) as ws:
        shown = await frame(ws)
    assert shown["players"] and all(p["ai"] == LEVEL for p in shown["players"])
    await play_to_the_end(site.demo, table)
    replay = await (await site.client.get(f"/games/{table.live.id}/replay.json")).json()
    assert all(p["ai"] == LEVEL for p in replay["players"])


async def test_a_visitor_plays_on_at_their_own_open_table_and_an_idle_one_ends() -> None:
    from datetime import UTC, datetime

    from web.demo import VISITOR_IDLE

    async with visitors_site(10.0) as (demo, service, client, origin):
        headers = {"Origin": origin}
        first = await client.post("/demo/play/stack", headers=headers, allow_redirects=False)
        token = first.cookies[SESSION_COOKIE].value
        mine = {**headers, "Cookie": f"{SESSION_COOKIE}={token}"}
        again = await client.post("/demo/play/stack", headers=mine, allow_redirects=False)
        assert again.status == 303 and again.headers["Location"] == first.headers["Location"]
        other = await client.post("/demo/play/colorstack", headers=mine, allow_redirects=False)
        assert other.headers["Location"] != first.headers["Location"]
        assert len(service.by_id) == 2 and len(demo.visitors) == 2
        started = datetime.now(UTC)
        service.now = lambda: started + VISITOR_IDLE / 2
        await demo.sweep()
        assert len(service.by_id) == 2  # not idle long enough yet
        service.now = lambda: started + VISITOR_IDLE * 2
        await demo.sweep()
        assert not service.by_id and not demo.visitors
        index = await (await client.get("/")).text()
        assert "No table is playing." in index


# ------------------------------------------------------------------ the pages' language


def html_lang(page: str) -> str:
    found = re.search(r'<html lang="([a-z]+)">', page)
    assert found is not None, page[:200]
    return found.group(1)


async def test_a_page_speaks_the_language_its_address_or_its_browser_asks_for(
    site: Site,
) -> None:
    plain = await (await site.client.get("/")).text()
    assert html_lang(plain) == "en" and "<h1>Live tables</h1>" in plain
    asked = await (await site.client.get("/?lang=ja")).text()
    assert html_lang(asked) == "ja" and "<h1>対局中の卓</h1>" in asked
    assert '"language":"ja"' in asked  # the scripts' words, embedded
    browser = {"Accept-Language": "ja-JP,ja;q=0.9,en;q=0.8"}
    assert html_lang(await (await site.client.get("/", headers=browser)).text()) == "ja"
    both = await (await site.client.get("/?lang=en", headers=browser)).text()
    assert html_lang(both) == "en"  # the address first
    table = await site.demo.open_table(1, "colorstack")
    await play_to_the_end(site.demo, table)
    replay = await (await site.client.get(f"/games/{table.live.id}?lang=ja")).text()
    assert html_lang(replay) == "ja" and f"<h1>対局 {table.live.id}</h1>" in replay
    missing = await site.client.get("/games/4242?lang=ja")
    page = await missing.text()
    assert missing.status == 404 and html_lang(page) == "ja" and "その対局はありません。" in page


async def test_a_visitors_table_speaks_the_language_of_the_page_it_was_opened_from() -> None:
    async with visitors_site(4.0) as (demo, service, client, origin):
        answer = await client.post(
            "/demo/play/stack?lang=ja", headers={"Origin": origin}, allow_redirects=False
        )
        assert answer.status == 303 and answer.headers["Location"].endswith("?lang=ja")
        table_id = int(answer.headers["Location"].split("?")[0].rsplit("/", 1)[1])
        live = service.by_id[table_id]
        assert demo.front.language(live.info) == "ja"
        # no language asked for: the table's; a browser's own comes first
        assert html_lang(await (await client.get(f"/tables/{table_id}")).text()) == "ja"
        english = {"Accept-Language": "en-US,en;q=0.9"}
        page = await (await client.get(f"/tables/{table_id}", headers=english)).text()
        assert html_lang(page) == "en"
        index = await (await client.get("/?lang=ja")).text()
        assert 'action="/demo/play/stack?lang=ja"' in index and "自分で遊ぶ" in index


async def test_a_replay_and_its_refusals_are_worded_in_the_pages_language(site: Site) -> None:
    table = await site.demo.open_table(1, "stack")
    await play_to_the_end(site.demo, table)
    path = f"/games/{table.live.id}/replay.json"
    ja = await (await site.client.get(path + "?lang=ja")).json()
    en = await (await site.client.get(path)).json()
    assert ja["frames"][0]["words"] == "対局開始。"
    assert en["frames"][0]["words"] == "The game begins."
    assert len(ja["frames"]) == len(en["frames"])
    missing = await site.client.get("/games/4242/replay.json?lang=ja")
    assert missing.status == 404 and await missing.text() == "その対局はありません。"
    assert await (await site.client.get("/games/4242/replay.json")).text() == (
        "There is no such game."
    )


async def test_the_words_of_a_language_are_served_to_a_page_that_changes_language(
    site: Site,
) -> None:
    from web.words import dictionary

    words = await (await site.client.get("/words/ja.json")).json()
    assert words == dictionary("ja")
    assert (await site.client.get("/words/fr.json")).status == 404


async def test_a_seated_players_moves_are_worded_in_the_language_of_their_page(
    site: Site,
) -> None:
    table = await site.demo.open_table(1, "colorstack")
    rng = random.Random(3)
    live = table.live
    for _ in range(400):  # to a turn whose player may set a die (a button of ours)
        state = live.state
        assert state is not None and not state.is_over
        if any(type(m).__name__ == "Set" for m in state.legal_moves()):
            break
        assert await site.demo.step(table, rng)
    player = table.player_at(live.state.current_player)  # type: ignore[union-attr]
    token = site.sessions.issue(player)
    labels = {}
    for language in ("ja", "en"):
        headers = {"Origin": site.origin, "Cookie": f"{SESSION_COOKIE}={token}"}
        path = f"/tables/{live.id}/ws?lang={language}"
        async with site.client.ws_connect(path, headers=headers) as ws:
            choices = (await frame(ws))["you"]["choices"]
        labels[language] = [c["label"] for c in choices]
    assert any("の目を" in label and "→" in label for label in labels["ja"]), labels["ja"]
    assert any(" becomes " in label for label in labels["en"]), labels["en"]


async def test_color_stacks_first_player_chooses_colours_from_the_page_before_the_board(
    site: Site,
) -> None:
    """Set-up step 1 on a page: the first player is sent the twelve choices of their two
    colours, in words; the other player none; the choice sent back sets the board up."""
    table = await site.demo.open_table(1, "colorstack")
    live = table.live
    state: Any = live.state
    assert state.choosing_colours
    first = table.player_at(state.first)
    other = table.player_at(1 - state.first)
    async with (
        site.socket(live.id, site.sessions.issue(first)) as ws,
        site.socket(live.id, site.sessions.issue(other)) as watcher,
    ):
        choices = (await frame(ws))["you"]["choices"]
        assert "choices" not in (await frame(watcher))["you"]
        assert [c["move"] for c in choices[:2]] == [["c", "red", "yellow"], ["c", "red", "blue"]]
        assert len(choices) == 12
        assert choices[0]["label"] == "red, then yellow (the other player: blue, then green)"
        green_blue = next(c for c in choices if c["move"] == ["c", "green", "blue"])
        pick = {"type": "move", "move": green_blue["move"], "version": live.version}
        await ws.send_str(orjson.dumps(pick).decode())
        answers = [await frame(ws), await frame(ws)]
        assert sorted(a["type"] for a in answers) == ["moved", "table"], answers
    state = live.state
    assert state.setup is not None and state.colours[state.first] == (3, 1)


@pytest.mark.parametrize(
    ("name", "setting_up"), [("colorstack", True), ("stackup", True), ("stack", False)]
)
async def test_a_decision_taken_before_the_first_turn_is_sent_as_setting_up_not_as_a_turn(
    site: Site, name: str, setting_up: bool
) -> None:
    """Color Stack's colours and Stack Up!'s direction are chosen by the first player
    before the first turn and are no turn (the page says what is being chosen); once it
    is taken, the first turn is a turn. Stack has no such decision."""
    table = await site.demo.open_table(1, name)
    live = table.live
    async with site.socket(live.id) as ws:
        shown = await frame(ws)
        assert shown["setting_up"] is setting_up and shown["current"] is not None
        await site.demo.step(table, random.Random(1))
        assert (await table_frame(ws, live.version))["setting_up"] is False


# ------------------------------------------------------------------ the language kept


async def test_the_links_and_redirects_keep_the_language_the_address_asked_for(
    site: Site,
) -> None:
    over = await site.demo.open_table(2, "stack")
    await play_to_the_end(site.demo, over)
    table = await site.demo.open_table(1, "stack")
    ja = await (await site.client.get("/?lang=ja")).text()
    assert f'href="/tables/{table.live.id}?lang=ja"' in ja
    assert f'href="/games/{over.live.id}?lang=ja"' in ja
    assert 'class="home" href="/?lang=ja"' in ja  # the bar's link to the index
    for path in (f"/tables/{table.live.id}?lang=ja", f"/games/{over.live.id}?lang=ja"):
        assert 'class="home" href="/?lang=ja"' in await (await site.client.get(path)).text()
    # a table that is over (or never was) sends its page to its replay, in the same language
    for gone in (over.live.id, 999):
        answer = await site.client.get(f"/tables/{gone}?lang=ja", allow_redirects=False)
        assert answer.status == 302 and answer.headers["Location"] == f"/games/{gone}?lang=ja"
        plain = await site.client.get(f"/tables/{gone}", allow_redirects=False)
        assert plain.headers["Location"] == f"/games/{gone}"
    # no language in the address (or one we do not speak): the links are as they were
    browser = {"Accept-Language": "ja"}
    for path, headers in (("/", {}), ("/?lang=fr", {}), ("/", browser)):
        page = await (await site.client.get(path, headers=headers)).text()
        assert f'href="/tables/{table.live.id}"' in page
        assert f'href="/games/{over.live.id}"' in page
        assert 'class="home" href="/"' in page


async def test_an_unknown_address_is_a_short_page_in_its_readers_language(site: Site) -> None:
    ja = await site.client.get("/nowhere?lang=ja")
    assert ja.status == 404 and ja.content_type == "text/html"
    assert ja.headers["Content-Security-Policy"].startswith("default-src 'self'")
    page = await ja.text()
    assert html_lang(page) == "ja" and "<h1>ページが見つかりません</h1>" in page
    assert 'href="/?lang=ja">卓の一覧に戻る</a>' in page
    assert "Not Found" not in page
    en = await site.client.get("/tables/abc")
    assert en.status == 404
    page = await en.text()
    assert html_lang(page) == "en" and "<h1>Page not found</h1>" in page
    assert 'href="/">Back to the tables</a>' in page
    browser = await site.client.get("/a/b/c", headers={"Accept-Language": "ja-JP"})
    assert browser.status == 404 and html_lang(await browser.text()) == "ja"
    # what is not a page stays as it was: a missing file, a replay's frames
    assert (await site.client.get("/static/nowhere.js")).status == 404
    missing = await site.client.get("/games/4242/replay.json")
    assert await missing.text() == "There is no such game."


def japanese(words: str) -> bool:
    return re.search(r"[\u3040-\u30ff\u4e00-\u9fff]", words) is not None


async def test_the_demos_own_tables_say_their_turns_in_the_demos_language() -> None:
    for language in ("ja", "en"):
        demo = Demo(seed=7, language=language)
        await demo.start(play=False)
        try:
            table = await demo.open_table(1, "stack")
            rng = random.Random(2)
            for _ in range(6):
                assert await demo.step(table, rng)
            turns = list(table.live.turns)
            assert turns
            assert all(japanese(turn) == (language == "ja") for turn in turns), turns
        finally:
            await demo.close()


async def test_a_visitor_is_a_guest_in_the_language_of_their_page_and_so_is_their_table() -> None:
    from web.demo import demo_app

    demo = Demo(seed=3, language="ja")  # the demo's own tables in Japanese
    service = await demo.start(play=False)
    app = demo_app(demo, service, RateLimit(rate=0.0, burst=4.0))
    client: TestClient[Any, Any] = TestClient(TestServer(app))
    await client.start_server()
    origin = f"http://{client.host}:{client.port}"
    try:
        names = {}
        for language in ("ja", "en"):
            client.session.cookie_jar.clear()  # a new visitor (not back at their table)
            answer = await client.post(
                f"/demo/play/stack?lang={language}",
                headers={"Origin": origin},
                allow_redirects=False,
            )
            assert answer.status == 303
            assert answer.headers["Location"].endswith(f"?lang={language}")
            table_id = int(answer.headers["Location"].split("?")[0].rsplit("/", 1)[1])
            live = service.by_id[table_id]
            assert demo.front.language(live.info) == language
            visitor = demo.visitors[table_id]
            names[language] = visitor.name
            assert [s.name for s in live.info.seats if not s.is_ai] == [visitor.name]
            # the visitor's move and the AI's answers are told in the page's language
            for _ in range(600):  # the AI seats before the visitor's first turn
                state = live.state
                assert state is not None and state.current_player is not None
                if not live.info.seats[state.current_player].is_ai:
                    break
                await asyncio.sleep(0.05)
            assert state is not None
            move = state.legal_moves()[0]
            await service.move(live.channel_id, visitor, move=move, table_id=table_id)
            assert live.turns
            assert all(japanese(turn) == (language == "ja") for turn in live.turns), live.turns
        assert names == {"ja": "ゲスト", "en": "Guest"}
    finally:
        await client.close()
        await demo.close()


async def test_a_replay_names_the_player_who_resigned_not_the_one_to_move(site: Site) -> None:
    """A Color Stack player may resign at any time, on the other's turn too: the replay
    tells the resignation under the resigning player's name."""
    table = await site.demo.open_table(1, "colorstack")
    live = table.live
    rng = random.Random(3)
    while live.state.turns < 4:  # the colours chosen, a few turns played
        await site.demo.step(table, rng)
    waiting = table.player_at(1 - live.state.current_player)
    to_move = table.player_at(live.state.current_player)
    await site.demo.service.move(live.info.channel_id, waiting, text="resign", table_id=live.id)
    assert live.state.is_over
    replay = await (await site.client.get(f"/games/{live.id}/replay.json")).json()
    last = replay["frames"][-1]["words"]
    assert f"{waiting.name}: " in last and f"{to_move.name}: " not in last, last


class KnownCode(DiscordOAuth):
    """Discord's OAuth2 as a stand-in that knows one code: ``good`` is alice's."""

    async def identify_with_locale(self, code: str) -> tuple[Player, str | None]:
        if code != "good":
            raise NotIdentified
        return Player(42, "alice"), None


@pytest.mark.parametrize("channel", ["²", "١٢", "9" * 5000, "-1", "1.0", ""])
async def test_an_activity_session_for_a_channel_id_that_is_no_id_is_a_typed_bad_request(
    channel: str,
) -> None:
    """A forged ``channel_id`` (a superscript digit, digits of another script, more digits
    than an integer is read from, a sign) is refused as a bad request, typed, and no
    session is issued (not the server's error page)."""
    demo = Demo(seed=7)
    service = await demo.start(play=False)
    app = make_app(service, demo.hub)
    add_activity(app, KnownCode(client_id=1, client_secret="s"))
    client: TestClient[Any, Any] = TestClient(TestServer(app))
    await client.start_server()
    try:
        origin = f"http://{client.host}:{client.port}"
        answer = await client.post(
            "/activity/session",
            data=orjson.dumps({"code": "good", "channel_id": channel}),
            headers={"Origin": origin, "Content-Type": "application/json"},
        )
        assert answer.status == 400, await answer.text()
        assert await answer.json() == {"type": "error", "code": "bad_request"}
        assert SESSION_COOKIE not in answer.cookies
        fine = await client.post(
            "/activity/session",
            data=orjson.dumps({"code": "good", "channel_id": "12"}),
            headers={"Origin": origin, "Content-Type": "application/json"},
        )
        assert fine.status == 200 and (await fine.json())["table"] is None
    finally:
        await client.close()
        await demo.close()


async def test_activities_looking_for_their_channels_next_table_leave_launches_room() -> None:
    """Every Activity whose game is over asks for its channel's next table now and then,
    all from one address behind a proxy: those questions are not counted against the
    Activity's launches (its sessions were refused, rate limited, once enough pages had
    asked)."""
    demo = Demo(seed=7)
    service = await demo.start(play=False)
    app = make_app(service, demo.hub, rate=RateLimit(rate=0.0, burst=2.0))
    add_activity(app, KnownCode(client_id=1, client_secret="s"))
    client: TestClient[Any, Any] = TestClient(TestServer(app))
    await client.start_server()
    try:
        for _ in range(2):
            looked = await client.get("/activity/table", params={"channel": "12"})
            assert looked.status == 200 and await looked.json() == {"table": None}
        launched = await client.post(
            "/activity/session",
            data=orjson.dumps({"code": "good", "channel_id": "12"}),
            headers={"Origin": f"http://{client.host}:{client.port}"},
        )
        assert launched.status == 200, await launched.text()
    finally:
        await client.close()
        await demo.close()


async def test_an_activity_session_outlives_a_restart_of_the_server() -> None:
    """The bot restarted (a crash, an upgrade) while a player's Activity was open: its page
    reconnects with the cookie it was given and is still that player's (their hand, their
    moves), not a spectator's with no way to move but to launch the Activity again; a
    cookie altered or signed by another application's secret is nobody's."""
    demo = Demo(seed=7)
    service = await demo.start(play=False)
    table = await demo.open_table(1, "stackup")
    holder = table.players[0]

    class Holder(DiscordOAuth):
        async def identify_with_locale(self, code: str) -> tuple[Player, str | None]:
            return holder, None

    def served(secret: str = "s") -> TestClient[Any, Any]:  # the bot's web front, started
        app = make_app(service, demo.hub)
        add_activity(app, Holder(client_id=1, client_secret=secret))
        return TestClient(TestServer(app))

    async def seat_seen(client: TestClient[Any, Any], token: str) -> int | None:
        headers = {"Origin": f"http://{client.host}:{client.port}"}
        headers["Cookie"] = f"{SESSION_COOKIE}={token}"
        async with client.ws_connect(f"/tables/{table.live.id}/ws", headers=headers) as ws:
            you = (await frame(ws)).get("you")
            return None if you is None else int(you["seat"])

    before = served()
    await before.start_server()
    try:
        answer = await before.post(
            "/activity/session",
            data=orjson.dumps({"code": "good", "channel_id": "1"}),
            headers={"Origin": f"http://{before.host}:{before.port}"},
        )
        assert answer.status == 200, await answer.text()
        token = answer.cookies[SESSION_COOKIE].value
        seat = await seat_seen(before, token)
        assert seat is not None
    finally:
        await before.close()
    after, other = served(), served("another secret")  # the process started again
    await after.start_server()
    await other.start_server()
    try:
        assert await seat_seen(after, token) == seat
        assert await seat_seen(other, token) is None
        altered = ("B" if token[0] == "A" else "A") + token[1:]
        for forged in (altered, "\u00e9" + token[1:], token.partition(".")[0], "."):
            assert await seat_seen(after, forged) is None, forged
    finally:
        await after.close()
        await other.close()
        await demo.close()


async def test_an_id_of_more_digits_than_python_reads_or_of_another_script_is_not_found(
    site: Site,
) -> None:
    """An address whose id has more digits than Python turns into a number (5,000: past
    its 4,300) is the page of what is not found, as any id past what is stored is, not the
    server's error (and a traceback in its log for each such request); an id in digits
    of another script (Arabic-Indic, full-width) names no table either."""
    table = await site.demo.open_table(1, "stack")
    huge = "9" * 5000
    for path in (f"/tables/{huge}", f"/games/{huge}", f"/games/{huge}/replay.json"):
        answer = await site.client.get(path)
        assert answer.status == 404, path[:20]
    page = await (await site.client.get(f"/games/{huge}")).text()
    assert "There is no such game." in page
    with pytest.raises(WSServerHandshakeError) as refused:
        await site.client.ws_connect(f"/tables/{huge}/ws", headers={"Origin": site.origin})
    assert refused.value.status == 404
    for digits in ("\u0661", "\uff11"):  # a 1 in Arabic-Indic and in full-width digits
        assert table.live.id == 1
        for path in (f"/tables/{digits}", f"/games/{digits}", f"/tables/{digits}/ws"):
            answer = await site.client.get(path, headers={"Origin": site.origin})
            assert answer.status == 404, path


async def test_a_table_closed_in_its_lobby_is_said_to_have_closed_before_its_game_began(
    site: Site,
) -> None:
    """A table ended (or left empty) before its game started has no replay and never will:
    its address says it closed before its game began, in the reader's language, not that
    its game is not over yet."""
    demo = site.demo
    host = Player(1, "Ada")
    live = await demo.service.new_table(1, 1, host, {}, game="stack")  # type: ignore[union-attr]
    await demo.service.end(1, host, manager=True)  # type: ignore[union-attr]
    answer = await site.client.get(f"/tables/{live.id}")
    assert str(answer.url).endswith(f"/games/{live.id}")
    page = await answer.text()
    said = '<p class="status">That table closed before its game began.</p>'
    assert answer.status == 404 and said in page
    ja = await site.client.get(f"/games/{live.id}?lang=ja")
    assert ja.status == 404 and "その卓は対局が始まる前に閉じられました。" in await ja.text()
    frames = await site.client.get(f"/games/{live.id}/replay.json")
    assert frames.status == 404
    assert await frames.text() == "That table closed before its game began."


def test_a_seat_an_ai_took_over_after_timeouts_is_refused_apart_from_one_left() -> None:
    from host.refusals import Refusal, Why
    from web.server import refused

    timed_out = Refusal(Why.SEAT_LEFT, timed_out=True, count=3)
    left = Refusal(Why.SEAT_LEFT, timed_out=False, count=3)
    assert orjson.loads(refused(timed_out)) == {"type": "refused", "why": "seat_timed_out"}
    assert orjson.loads(refused(left)) == {"type": "refused", "why": "seat_left"}
