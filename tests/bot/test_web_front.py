"""The bot serves its tables' web pages over the host its Discord side uses (a move made
in chat is pushed to a page, a move made in a page is on the table chat shows), and the
Discord Activity identifies its user through OAuth2 against a stand-in of Discord."""

from __future__ import annotations

import asyncio
import socket
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any

import aiohttp
import discord
import orjson
import pytest
from aiohttp import web
from aiohttp.test_utils import TestClient, TestServer
from pydantic import SecretStr

from bot.config import Settings
from bot.games.stack.game import move_code
from bot.health import Health
from bot.webfront import NOT_LAUNCHED, NOT_SET_UP, WebFront, web_app
from catalog import t
from tests.bot.conftest import World, buttons_of, table_message, table_text_of
from tests.web.test_server import frame, table_frame
from web.guard import SESSION_COOKIE

CLIENT_ID = 1234567890
SECRET = "the-apps-own-secret-never-to-be-sent"
TOKEN = "a-users-access-token"


@dataclass
class StandIn:
    """Discord's token and users/@me endpoints, on loopback: a code per user."""

    users: dict[str, dict[str, Any]]  # by code
    asked: list[dict[str, str]]

    def app(self) -> web.Application:
        tokens: dict[str, dict[str, Any]] = {}

        async def token(request: web.Request) -> web.Response:
            form = dict(await request.post())
            self.asked.append({k: str(v) for k, v in form.items()})
            user = self.users.get(str(form.get("code")))
            if (
                form.get("client_id") != str(CLIENT_ID)
                or form.get("client_secret") != SECRET
                or form.get("grant_type") != "authorization_code"
                or user is None
            ):
                return web.json_response({"error": "invalid_grant"}, status=400)
            issued = f"{TOKEN}-{user['id']}"
            tokens[issued] = user
            return web.json_response({"access_token": issued, "token_type": "Bearer"})

        async def me(request: web.Request) -> web.Response:
            bearer = request.headers.get("Authorization", "").removeprefix("Bearer ")
            user = tokens.get(bearer)
            if user is None:
                return web.json_response({"message": "401: Unauthorized"}, status=401)
            return web.json_response(user)

        app = web.Application()
        app.router.add_post("/oauth2/token", token)
        app.router.add_get("/users/@me", me)
        return app


@dataclass
class Pages:
    client: TestClient[Any, Any]
    origin: str
    standin: StandIn

    def socket(self, table_id: int, token: str | None = None) -> Any:
        headers = {"Origin": self.origin}
        if token:
            headers["Cookie"] = f"{SESSION_COOKIE}={token}"
        return self.client.ws_connect(f"/tables/{table_id}/ws", headers=headers)

    async def identify(self, code: str, channel: int | None, origin: str | None = None) -> Any:
        body = {"code": code, "channel_id": str(channel) if channel else None}
        return await self.client.post(
            "/activity/session",
            data=orjson.dumps(body),
            headers={"Origin": origin or self.origin, "Content-Type": "application/json"},
        )


@pytest.fixture
async def pages(world: World) -> AsyncIterator[Pages]:
    users = {
        f"code-{m.name}": {"id": str(m.id), "username": m.name, "global_name": m.name.title()}
        for m in (world.alice, world.bob, world.carol)
    }
    standin = StandIn(users, [])
    discord_side: TestClient[Any, Any] = TestClient(TestServer(standin.app()))
    await discord_side.start_server()
    settings = Settings(
        discord_token=None,
        discord_client_id=CLIENT_ID,
        discord_client_secret=SecretStr(SECRET),
        discord_api_base=str(discord_side.make_url("")).rstrip("/"),
    )
    app, _hub = web_app(world.bot.tables, settings)
    client: TestClient[Any, Any] = TestClient(TestServer(app))
    await client.start_server()
    yield Pages(client, f"http://{client.host}:{client.port}", standin)
    await client.close()
    await discord_side.close()


async def started_table(world: World) -> Any:
    """A Stack table in the world's channel: alice and bob seated, started."""
    lobby = (await world.alice.slash(world.channel, "table new", target=30, dice=3)).response
    await world.bob.click(lobby, label="Join")
    await world.alice.click(lobby, label="Start")
    return world.bot.tables.service.by_channel[world.channel.id]


def mover_of(world: World, live: Any) -> Any:
    user = live.user_at(live.state.current)
    return world.alice if user == world.alice.id else world.bob


async def session_of(pages: Pages, world: World, member: Any) -> str:
    answer = await pages.identify(f"code-{member.name}", world.channel.id)
    assert answer.status == 200, await answer.text()
    return answer.cookies[SESSION_COOKIE].value


async def test_a_move_made_in_chat_is_pushed_to_a_watching_page(world: World, pages: Pages) -> None:
    live = await started_table(world)
    async with pages.socket(live.id) as ws:
        first = await table_frame(ws, live.version)
        mover = mover_of(world, live)
        move = live.state.legal_moves()[0]
        panel = await mover.click(table_message(world, live.id), label="My turn")
        code = move_code(move)
        button = next(
            c for c in buttons_of(panel.response) if c.get("custom_id", "").endswith(":" + code)
        )
        await mover.click(panel.response, custom_id=button["custom_id"])
        pushed = await table_frame(ws, first["version"] + 1)
    assert pushed["version"] == live.version > first["version"]


async def test_a_move_made_in_the_page_is_on_the_table_chat_shows(
    world: World, pages: Pages
) -> None:
    live = await started_table(world)
    mover = mover_of(world, live)
    before_text = table_text_of(table_message(world, live.id))
    version = live.version
    async with pages.socket(live.id, await session_of(pages, world, mover)) as ws:
        mine = await table_frame(ws, version)
        choice = mine["you"]["choices"][0]
        await ws.send_str(
            orjson.dumps({"type": "move", "move": choice["move"], "version": version}).decode()
        )
        answers = [await frame(ws), await frame(ws)]
    assert sorted(a["type"] for a in answers) == ["moved", "table"], answers
    assert world.bot.tables.service.by_channel[world.channel.id].version > version
    # the message is edited from a task of its own (its picture drawn on a thread): wait
    # for it, a generous while on a loaded machine
    for _ in range(600):
        if table_text_of(table_message(world, live.id)) != before_text:
            break
        await asyncio.sleep(0.05)
    assert table_text_of(table_message(world, live.id)) != before_text


async def test_the_activity_identifies_its_user_through_discords_oauth2(
    world: World, pages: Pages
) -> None:
    live = await started_table(world)
    answer = await pages.identify("code-alice", world.channel.id)
    assert answer.status == 200
    text = await answer.text()
    assert orjson.loads(text) == {
        "type": "identified",
        "user": {"id": str(world.alice.id), "name": "Alice"},
        "table": live.id,
    }
    assert pages.standin.asked == [
        {
            "client_id": str(CLIENT_ID),
            "client_secret": SECRET,
            "grant_type": "authorization_code",
            "code": "code-alice",
        }
    ]
    cookie = answer.cookies[SESSION_COOKIE]
    assert cookie["secure"] and cookie["httponly"] and cookie["samesite"] == "None"
    page = await pages.client.get("/activity")
    for shown in (text, str(answer.headers), await page.text(), str(page.headers)):
        assert SECRET not in shown and TOKEN not in shown
    assert str(CLIENT_ID) in await page.text()


async def test_a_code_discord_does_not_know_identifies_nobody(world: World, pages: Pages) -> None:
    answer = await pages.identify("code-mallory", world.channel.id)
    assert answer.status == 401
    assert await answer.json() == {"type": "error", "code": "not_identified"}
    assert SESSION_COOKIE not in answer.cookies
    assert SECRET not in await answer.text()


async def test_the_activity_session_is_asked_from_the_pages_own_origin_or_discords(
    world: World, pages: Pages
) -> None:
    refused = await pages.identify("code-alice", None, origin="https://evil.example")
    assert refused.status == 403 and pages.standin.asked == []
    proxied = await pages.identify(
        "code-alice", None, origin=f"https://{CLIENT_ID}.discordsays.com"
    )
    assert proxied.status == 200
    assert (await proxied.json())["table"] is None  # no table in that channel


async def test_a_user_not_seated_is_refused_typed_and_nothing_changes(
    world: World, pages: Pages
) -> None:
    live = await started_table(world)
    version, state = live.version, live.state.to_dict()
    async with pages.socket(live.id, await session_of(pages, world, world.carol)) as ws:
        seen = await table_frame(ws, version)
        assert "you" not in seen
        legal = live.game.game.encode_move(live.state.legal_moves()[0])
        await ws.send_str(
            orjson.dumps({"type": "move", "move": legal, "version": version}).decode()
        )
        answer = await frame(ws)
    assert answer["type"] == "refused", answer
    assert live.version == version and live.state.to_dict() == state


async def test_the_bot_serves_its_pages_on_web_port_while_it_runs(world: World) -> None:
    front = world.bot.health.web
    assert isinstance(front, WebFront)
    assert front.app is None  # no WEB_PORT in the tests' settings: nothing served
    with pytest.raises(ValueError, match="WEB_PORT must be a port number"):
        Settings(discord_token=None, web_port=70000)
    with socket.socket() as probe:  # a free port
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]

    @dataclass
    class Process:  # what the health report reads of a bot, with WEB_PORT set
        settings: Settings
        _tables: Any
        latency: float = 0.05

    live = await started_table(world)
    health = Health(Process(Settings(discord_token=None, web_port=port), world.bot.tables), None)
    await health.start()
    try:
        async with (
            aiohttp.ClientSession() as http,
            http.get(f"http://127.0.0.1:{port}/") as page,
        ):
            assert page.status == 200
            assert f'href="/tables/{live.id}"' in await page.text()
    finally:
        await health.stop()
    with pytest.raises(aiohttp.ClientConnectionError):  # stopped with the process
        async with aiohttp.ClientSession() as http:
            await http.get(f"http://127.0.0.1:{port}/")


async def test_the_activity_page_loads_the_vendored_sdk_and_names_only_the_client_id(
    world: World, pages: Pages
) -> None:
    page = await pages.client.get("/activity")
    text = await page.text()
    assert page.status == 200 and '<script type="module" src="/static/activity.js">' in text
    assert f'data-client="{CLIENT_ID}"' in text and "data-mock" not in text  # Discord's SDK
    module = await pages.client.get("/static/activity.js")
    assert 'from "./vendor/discord-sdk.js"' in await module.text()
    sdk = await pages.client.get("/static/vendor/discord-sdk.js")
    assert sdk.status == 200 and "DiscordSDK" in await sdk.text()


async def test_without_the_apps_client_id_and_secret_there_is_no_activity(world: World) -> None:
    app, _hub = web_app(world.bot.tables, Settings(discord_token=None))
    client: TestClient[Any, Any] = TestClient(TestServer(app))
    await client.start_server()
    try:
        assert (await client.get("/activity")).status == 404
        assert (await client.get("/")).status == 200
    finally:
        await client.close()


async def test_table_activity_says_when_the_bot_does_not_serve_the_activity(world: World) -> None:
    answer = await world.alice.slash(world.channel, "table activity")
    assert answer.ephemeral and answer.response.content == t(NOT_SET_UP)


async def test_table_activity_asks_discord_to_launch_it(
    world: World, pages: Pages, monkeypatch: pytest.MonkeyPatch
) -> None:
    """simcord knows no LAUNCH_ACTIVITY callback (type 12) and refuses it, as Discord does
    for an app whose Activities are not enabled: the bot asked for it, and says it failed."""
    front = world.bot.health.web
    assert front is not None
    front.app = pages.client.app  # the bot serves the Activity (a test server's port)
    asked: list[int] = []
    launch = discord.InteractionResponse.launch_activity

    async def spied(self: discord.InteractionResponse[Any]) -> Any:
        asked.append(self._parent.id)
        return await launch(self)

    monkeypatch.setattr(discord.InteractionResponse, "launch_activity", spied)
    answer = await world.alice.slash(world.channel, "table activity")
    assert len(asked) == 1
    assert answer.ephemeral and answer.response.content == t(NOT_LAUNCHED)


async def test_a_page_shows_the_turns_chat_escapes_as_their_plain_text(world: World) -> None:
    """The recent turns the bot keeps are Discord markdown (``cool\\_guy``); the page shows
    text as it is, so it is given them as plain text."""
    from web.views import table_view

    live = await started_table(world)
    words = "cool_guy stacked *3* on [pile 2] <@1> @everyone"
    line = live.front.turn_line(words, automatic=False)
    assert line != words  # escaped for chat
    live.turns.append(line)
    assert table_view(live)["turns"][-1] == words
