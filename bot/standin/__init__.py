"""A small Discord on loopback, for running the real bot process (``stackbot run``: the
real discord.py client, its HTTP client and its gateway websocket) without Discord.

:class:`DiscordStandIn` is an aiohttp server on ``127.0.0.1`` serving

* the REST calls the bot makes: the login (``GET /users/@me``), the application
  (``GET /oauth2/applications/@me``, ``GET /applications/@me``), the gateway's address
  (``GET /gateway``, ``GET /gateway/bot``), the slash commands' sync (``GET``/``PUT``
  ``/applications/{app}/commands`` and ``.../guilds/{guild}/commands``), channel messages
  (post, edit, delete, fetch, history), interaction answers (``POST
  /interactions/{id}/{token}/callback``) and their follow-ups and edits
  (``/webhooks/{app}/{token}...``). Any other call is answered 404 the way Discord does and
  kept in :attr:`DiscordStandIn.unhandled`, so that a test can tell what is missing;
* a gateway websocket (``/gateway``): HELLO, IDENTIFY answered with READY and one
  GUILD_CREATE per guild of the session's shard, heartbeats acknowledged, RESUME refused
  (INVALID_SESSION, so that the client identifies again), and :meth:`DiscordStandIn.dispatch`
  for any event a test sends (e.g. ``INTERACTION_CREATE``, built by
  :meth:`DiscordStandIn.slash_command` for a slash command and
  :meth:`DiscordStandIn.component` for a button or select of a message). Frames are
  zlib-stream compressed when the client asks for it, plain text otherwise.

An interaction's answers are kept in :attr:`DiscordStandIn.responses` (a public one is a
message of its channel too, as on Discord; an UPDATE_MESSAGE or DEFERRED_UPDATE answer
edits the message whose component was used), and the time of its first answer in
:attr:`DiscordStandIn.answered`. Every request is recorded (:attr:`DiscordStandIn.requests`,
unless :attr:`DiscordStandIn.keep_requests` is off) with its JSON body (or the
``payload_json`` of a multipart body) and shown to :attr:`DiscordStandIn.observer` as it
comes; :meth:`DiscordStandIn.wait_for` waits, with a deadline, for any condition on what
was recorded.

It is a tool (the tests' and ``python -m bot.loadtest``'s): nothing the bot runs imports it.

A client is pointed at it from inside its own process (:func:`point_discord_py_at`, or
``python -m bot.standin.child URL run`` for ``stackbot run``)::

    async with DiscordStandIn() as discord_:
        guild = discord_.add_guild("Tables", channels=["stack"])
        ...  # start the child with discord_.url, then:
        await discord_.wait_for(lambda: discord_.ready_sessions, timeout=60)
"""

from __future__ import annotations

import asyncio
import itertools
import json
import re
import socket
import time
import zlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import unquote

from aiohttp import WSMsgType, web

API_PREFIX = "/api/v10"
DISCORD_EPOCH_MS = 1_420_070_400_000
BOT_TOKEN = "standin.bot.token"  # any token the client sends is taken; this is a handy one

# Gateway opcodes (https://discord.com/developers/docs/topics/opcodes-and-status-codes)
DISPATCH, HEARTBEAT, IDENTIFY, RESUME, INVALID_SESSION, HELLO, HEARTBEAT_ACK = 0, 1, 2, 6, 9, 10, 11
# Interaction callback types
CHANNEL_MESSAGE, DEFERRED_CHANNEL_MESSAGE, DEFERRED_UPDATE, UPDATE_MESSAGE = 4, 5, 6, 7
EPHEMERAL = 64  # a message flag
ALL_PERMISSIONS = str((1 << 53) - 1)


def _json(data: Any, *, status: int = 200) -> web.Response:
    """A JSON answer with Discord's exact ``Content-Type`` (discord.py parses a body as JSON
    only when the header is exactly ``application/json``, no charset)."""
    return web.Response(
        body=json.dumps(data).encode(), status=status, content_type="application/json", charset=None
    )


BOUNDARY = re.compile(r'boundary="?([^";]+)"?')
PART_NAME = re.compile(rb'(?:^|[;\s])name="([^"]*)"', re.IGNORECASE)
PART_FILENAME = re.compile(rb'filename="([^"]*)"', re.IGNORECASE)
PART_FILENAME_STAR = re.compile(rb"filename\*=[A-Za-z0-9-]*''([^;\r\n]*)", re.IGNORECASE)


def multipart_boundary(content_type: str) -> bytes | None:
    """A multipart body's boundary, from its ``Content-Type`` header."""
    found = BOUNDARY.search(content_type)
    return found[1].encode() if found else None


def read_multipart(body: bytes, boundary: bytes) -> tuple[Any, list[str]]:
    """A multipart/form-data body as discord.py sends one: its ``payload_json`` (read) and
    the names of its files (their bytes are not kept). Read directly, without aiohttp's
    reader and the e-mail header parser it runs for every part."""
    payload: Any = None
    files: list[str] = []
    for part in body.split(b"--" + boundary)[1:]:
        if part.startswith(b"--"):
            break  # the closing delimiter
        head, _, content = part.lstrip(b"\r\n").partition(b"\r\n\r\n")
        disposition = next(
            (
                line
                for line in head.split(b"\r\n")
                if line.lower().startswith(b"content-disposition:")
            ),
            b"",
        )
        name = PART_NAME.search(disposition)
        if name is not None and name[1] == b"payload_json":
            payload = json.loads(content.removesuffix(b"\r\n"))
            continue
        filename = PART_FILENAME_STAR.search(disposition)
        if filename is not None:
            files.append(unquote(filename[1].decode()))
        elif (filename := PART_FILENAME.search(disposition)) is not None:
            files.append(filename[1].decode())
        else:
            files.append(name[1].decode() if name is not None else "")
    return payload, files


def point_discord_py_at(url: str) -> None:
    """Make discord.py, in this process, talk to the stand-in at ``url`` (its
    :attr:`DiscordStandIn.url`) instead of Discord: REST and the gateway."""
    import discord.gateway
    import discord.http
    import yarl

    discord.http.Route.BASE = url.rstrip("/") + API_PREFIX
    ws = yarl.URL(url.replace("http://", "ws://", 1)).with_path("/gateway")
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = ws


@dataclass
class Recorded:
    """One REST request as the stand-in received it."""

    method: str
    path: str  # without the /api/v10 prefix, e.g. /channels/12/messages
    query: dict[str, str]
    body: Any  # the JSON body (a multipart body's payload_json), or None
    files: list[str] = field(default_factory=list)  # names of the files sent
    at: float = field(default_factory=time.monotonic)


@dataclass
class Session:
    """One gateway connection (one shard of the client)."""

    ws: web.WebSocketResponse
    compress: bool
    id: str
    shard: tuple[int, int] = (0, 1)
    identified: bool = False
    ready: bool = False  # READY and the shard's GUILD_CREATEs were sent
    heartbeats: int = 0
    sequence: int = 0
    identify: dict[str, Any] | None = None
    _zlib: Any = None
    _lock: asyncio.Lock = field(default_factory=asyncio.Lock)

    async def send(self, payload: dict[str, Any]) -> None:
        text = json.dumps(payload)
        async with self._lock:
            if self.ws.closed:
                return
            if self.compress:
                if self._zlib is None:
                    self._zlib = zlib.compressobj()
                data = self._zlib.compress(text.encode()) + self._zlib.flush(zlib.Z_SYNC_FLUSH)
                await self.ws.send_bytes(data)
            else:
                await self.ws.send_str(text)

    async def dispatch(self, event: str, data: Any) -> None:
        self.sequence += 1
        await self.send({"op": DISPATCH, "t": event, "s": self.sequence, "d": data})


class DiscordStandIn:
    """Discord on loopback, for one bot: its user, its application, the guilds added with
    :meth:`add_guild`, and what it posts. Use as ``async with DiscordStandIn() as d:``
    (or :meth:`start` and :meth:`stop`)."""

    def __init__(
        self,
        *,
        bot_name: str = "stackbot",
        shards: int = 1,
        heartbeat_interval_ms: int = 41_250,
    ) -> None:
        self._ids = itertools.count(1)
        self.application_id = self.snowflake()
        self.bot_user: dict[str, Any] = {
            "id": str(self.application_id),
            "username": bot_name,
            "discriminator": "0",
            "global_name": None,
            "avatar": None,
            "bot": True,
            "flags": 0,
            "verified": True,
            "mfa_enabled": False,
        }
        self.owner = self.user("owner")
        self.shards = shards  # what GET /gateway/bot recommends
        self.heartbeat_interval_ms = heartbeat_interval_ms
        self.guilds: dict[int, dict[str, Any]] = {}
        self.channels: dict[int, dict[str, Any]] = {}  # channel id -> channel (with guild_id)
        self.messages: dict[int, dict[int, dict[str, Any]]] = {}  # channel -> id -> message
        self.commands: dict[int | None, list[dict[str, Any]]] = {}  # guild (None: global)
        self.interactions: dict[str, dict[str, Any]] = {}  # token -> the interaction sent
        self.responses: dict[str, list[dict[str, Any]]] = {}  # token -> its answers' messages
        self._answered: dict[str, dict[str, Any]] = {}  # message id -> an answer's message
        self.requests: list[Recorded] = []
        self.answered: dict[str, float] = {}  # token -> when its first answer came
        # each request as it comes, to whoever watches (the load test); and whether they
        # are kept in :attr:`requests` (a long load test keeps none)
        self.observer: Callable[[Recorded], None] | None = None
        self.keep_requests = True
        self.unhandled: list[Recorded] = []
        self.sessions: list[Session] = []
        self._changed = asyncio.Condition()
        self._runner: web.AppRunner | None = None
        self.url = ""  # http://127.0.0.1:PORT once started

    # ------------------------------------------------------------------ set-up

    def snowflake(self) -> int:
        """A new id, as Discord makes them (its time in the top bits)."""
        now = int(time.time() * 1000) - DISCORD_EPOCH_MS
        return (now << 22) | (next(self._ids) & 0x3FFFFF)

    def user(self, name: str) -> dict[str, Any]:
        """A new (human) user's payload."""
        return {
            "id": str(self.snowflake()),
            "username": name,
            "discriminator": "0",
            "global_name": name,
            "avatar": None,
        }

    def add_guild(self, name: str, *, channels: Sequence[str] = ()) -> dict[str, Any]:
        """A guild the bot is in, with text channels named ``channels``; sent in
        GUILD_CREATE to the session of its shard (also to sessions already ready)."""
        gid = self.snowflake()
        guild: dict[str, Any] = {
            "id": str(gid),
            "name": name,
            "icon": None,
            "owner_id": self.owner["id"],
            "afk_timeout": 300,
            "verification_level": 0,
            "default_message_notifications": 0,
            "explicit_content_filter": 0,
            "mfa_level": 0,
            "nsfw_level": 0,
            "premium_tier": 0,
            "preferred_locale": "en-US",
            "features": [],
            "roles": [
                {
                    "id": str(gid),
                    "name": "@everyone",
                    "permissions": ALL_PERMISSIONS,
                    "position": 0,
                    "color": 0,
                    "hoist": False,
                    "managed": False,
                    "mentionable": False,
                    "flags": 0,
                }
            ],
            "emojis": [],
            "stickers": [],
            "channels": [],
            "threads": [],
            "members": [
                {
                    "user": self.bot_user,
                    "roles": [],
                    "joined_at": "2026-01-01T00:00:00+00:00",
                    "deaf": False,
                    "mute": False,
                    "flags": 0,
                }
            ],
            "voice_states": [],
            "presences": [],
            "stage_instances": [],
            "guild_scheduled_events": [],
            "member_count": 2,
            "large": False,
            "unavailable": False,
            "joined_at": "2026-01-01T00:00:00+00:00",
        }
        self.guilds[gid] = guild
        for position, channel_name in enumerate(channels):
            self.add_channel(guild, channel_name, position=position)
        return guild

    def add_channel(self, guild: dict[str, Any], name: str, *, position: int = 0) -> dict[str, Any]:
        """A text channel of ``guild`` (as added before the guild is sent)."""
        cid = self.snowflake()
        channel = {
            "id": str(cid),
            "type": 0,
            "name": name,
            "position": position,
            "permission_overwrites": [],
            "nsfw": False,
            "parent_id": None,
            "topic": None,
            "last_message_id": None,
            "rate_limit_per_user": 0,
        }
        guild["channels"].append(channel)
        self.channels[cid] = {**channel, "guild_id": guild["id"]}
        self.messages[cid] = {}
        return channel

    def shard_of(self, guild_id: int, shard_count: int) -> int:
        return (guild_id >> 22) % shard_count

    # ------------------------------------------------------------------ running

    async def start(self) -> None:
        app = web.Application(client_max_size=64 * 1024 * 1024)
        app.router.add_get("/gateway", self._gateway)
        app.router.add_route("*", API_PREFIX + "/{tail:.*}", self._rest)
        self._runner = web.AppRunner(app, handle_signals=False)
        await self._runner.setup()
        sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
        await web.SockSite(self._runner, sock).start()
        self.url = f"http://127.0.0.1:{port}"

    async def stop(self) -> None:
        for session in self.sessions:
            await session.ws.close()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def __aenter__(self) -> DiscordStandIn:
        await self.start()
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.stop()

    @property
    def ready_sessions(self) -> list[Session]:
        """The gateway sessions that were sent READY and their guilds."""
        return [s for s in self.sessions if s.ready and not s.ws.closed]

    async def wait_for(self, condition: Callable[[], Any], timeout: float) -> Any:
        """Wait until ``condition()`` (called after each request or gateway step) is true;
        its value. Raises ``TimeoutError`` after ``timeout`` seconds."""

        async def until() -> Any:
            async with self._changed:
                while not (value := condition()):
                    await self._changed.wait()
                return value

        return await asyncio.wait_for(until(), timeout)

    async def _note(self) -> None:
        async with self._changed:
            self._changed.notify_all()

    async def dispatch(self, event: str, data: Any, *, guild_id: int | None = None) -> None:
        """Send a DISPATCH event to the ready sessions (only to the shard of ``guild_id``
        when given)."""
        for session in self.ready_sessions:
            index, count = session.shard
            if guild_id is None or self.shard_of(guild_id, count) == index:
                await session.dispatch(event, data)

    def slash_command(
        self,
        guild: dict[str, Any],
        channel: dict[str, Any],
        user: dict[str, Any],
        name: str,
        options: list[dict[str, Any]] | None = None,
    ) -> dict[str, Any]:
        """An ``INTERACTION_CREATE`` payload: ``user`` runs the synced command ``name``
        (its id as synced, in the guild or globally) in ``channel``. Send it with
        ``await d.dispatch("INTERACTION_CREATE", payload, guild_id=...)``; its answers
        land in ``d.responses[payload["token"]]``."""
        gid = int(guild["id"])
        synced = self.commands.get(gid, []) + self.commands.get(None, [])
        command = next(c for c in synced if c["name"] == name)
        data = {"id": command["id"], "name": name, "type": 1, "options": options or []}
        if "guild_id" in command:  # a guild's command (a global one's data names no guild)
            data["guild_id"] = command["guild_id"]
        return self._interaction(2, guild, channel, user, data)

    def component(
        self,
        guild: dict[str, Any],
        channel: dict[str, Any],
        user: dict[str, Any],
        message: dict[str, Any],
        custom_id: str,
        values: list[str] | None = None,
    ) -> dict[str, Any]:
        """An ``INTERACTION_CREATE`` payload: ``user`` presses the button ``custom_id`` (or,
        with ``values``, picks them in the select ``custom_id``) of ``message`` (a message
        as the stand-in holds it: posted to the channel, or an answer of
        :attr:`responses`). An UPDATE_MESSAGE answer edits that message."""
        data: dict[str, Any] = {"custom_id": custom_id, "component_type": 2}
        if values is not None:
            data.update(component_type=3, values=values)
        return self._interaction(3, guild, channel, user, data, message=message)

    def _interaction(
        self,
        kind: int,
        guild: dict[str, Any],
        channel: dict[str, Any],
        user: dict[str, Any],
        data: dict[str, Any],
        **extra: Any,
    ) -> dict[str, Any]:
        token = f"interaction-{self.snowflake()}"
        payload = {
            "id": str(self.snowflake()),
            "application_id": str(self.application_id),
            "type": kind,
            "token": token,
            "version": 1,
            "guild_id": guild["id"],
            "channel_id": channel["id"],
            "channel": {**self.channels[int(channel["id"])]},
            "member": {
                "user": user,
                "roles": [],
                "joined_at": "2026-01-01T00:00:00+00:00",
                "deaf": False,
                "mute": False,
                "flags": 0,
                "permissions": ALL_PERMISSIONS,
            },
            "app_permissions": ALL_PERMISSIONS,
            "locale": "en-US",
            "guild_locale": "en-US",
            "entitlements": [],
            "attachment_size_limit": 10 * 1024 * 1024,
            "authorizing_integration_owners": {"0": guild["id"]},
            "context": 0,
            "data": data,
            **extra,
        }
        self.interactions[token] = payload
        self.responses[token] = []
        return payload

    # ------------------------------------------------------------------ gateway

    async def _gateway(self, request: web.Request) -> web.WebSocketResponse:
        ws = web.WebSocketResponse(max_msg_size=0)
        await ws.prepare(request)
        session = Session(
            ws=ws,
            compress=request.query.get("compress") == "zlib-stream",
            id=f"session-{self.snowflake()}",
        )
        self.sessions.append(session)
        await session.send({"op": HELLO, "d": {"heartbeat_interval": self.heartbeat_interval_ms}})
        await self._note()
        try:
            async for message in ws:
                if message.type != WSMsgType.TEXT:
                    if message.type == WSMsgType.ERROR:
                        break
                    continue
                await self._gateway_message(session, json.loads(message.data))
                await self._note()
        finally:
            await self._note()
        return ws

    async def _gateway_message(self, session: Session, payload: dict[str, Any]) -> None:
        op = payload.get("op")
        if op == HEARTBEAT:
            session.heartbeats += 1
            await session.send({"op": HEARTBEAT_ACK})
        elif op == IDENTIFY:
            data = payload.get("d") or {}
            session.identify = data
            session.identified = True
            shard = data.get("shard") or [0, 1]
            session.shard = (int(shard[0]), int(shard[1]))
            await self._ready(session)
        elif op == RESUME:  # no sessions are kept: identify again
            await session.send({"op": INVALID_SESSION, "d": False})

    async def _ready(self, session: Session) -> None:
        index, count = session.shard
        mine = [g for gid, g in self.guilds.items() if self.shard_of(gid, count) == index]
        await session.dispatch(
            "READY",
            {
                "v": 10,
                "user": self.bot_user,
                "session_id": session.id,
                "resume_gateway_url": self.url.replace("http://", "ws://", 1) + "/gateway",
                "guilds": [{"id": g["id"], "unavailable": True} for g in mine],
                "application": {"id": str(self.application_id), "flags": 0},
                "shard": [index, count],
                "private_channels": [],
                "relationships": [],
            },
        )
        for guild in mine:
            await session.dispatch("GUILD_CREATE", guild)
        session.ready = True

    # ------------------------------------------------------------------ REST

    async def _rest(self, request: web.Request) -> web.StreamResponse:
        path = "/" + request.match_info["tail"]
        body, files = await self._body(request)
        recorded = Recorded(request.method, path, dict(request.query), body, files)
        if self.keep_requests:
            self.requests.append(recorded)
        try:
            response = self._route(recorded)
            if self.observer is not None:
                self.observer(recorded)
        finally:
            await self._note()
        if response is None:
            self.unhandled.append(recorded)
            return _json({"message": "404: Not Found", "code": 0}, status=404)
        return response

    async def _body(self, request: web.Request) -> tuple[Any, list[str]]:
        if not request.can_read_body:
            return None, []
        if request.content_type.startswith("multipart/"):
            boundary = multipart_boundary(request.headers.get("Content-Type", ""))
            if boundary is None:
                return None, []
            return read_multipart(await request.read(), boundary)
        text = await request.text()
        return (json.loads(text) if text else None), []

    def _route(self, r: Recorded) -> web.StreamResponse | None:
        parts = r.path.strip("/").split("/")
        method = r.method
        app = str(self.application_id)
        match parts:
            case ["users", "@me"] if method == "GET":
                return _json(self.bot_user)
            case ["oauth2", "applications", "@me"] | ["applications", "@me"] if method == "GET":
                return _json(self._application())
            case ["gateway"] if method == "GET":
                return _json({"url": self._ws_url()})
            case ["gateway", "bot"] if method == "GET":
                return _json(
                    {
                        "url": self._ws_url(),
                        "shards": self.shards,
                        "session_start_limit": {
                            "total": 1000,
                            "remaining": 1000,
                            "reset_after": 0,
                            "max_concurrency": 1,
                        },
                    }
                )
            case ["applications", a, "commands"] if a == app:
                return self._commands(None, r)
            case ["applications", a, "guilds", guild, "commands"] if a == app:
                return self._commands(int(guild), r)
            case ["channels", channel, "messages"]:
                return self._channel_messages(int(channel), r)
            case ["channels", channel, "messages", message]:
                return self._channel_message(int(channel), int(message), r)
            case ["interactions", _, token, "callback"] if method == "POST":
                return self._callback(token, r)
            case ["webhooks", a, token] if a == app and method == "POST":
                return _json(self._answer(token, r.body or {}, r.files))
            case ["webhooks", a, token, "messages", which] if a == app:
                return self._webhook_message(token, which, r)
        return None

    def _ws_url(self) -> str:
        return self.url.replace("http://", "ws://", 1) + "/gateway"

    def _application(self) -> dict[str, Any]:
        return {
            "id": str(self.application_id),
            "name": self.bot_user["username"],
            "description": "",
            "icon": None,
            "bot_public": True,
            "bot_require_code_grant": False,
            "owner": self.owner,
            "verify_key": "0" * 64,
            "team": None,
            "flags": 0,
            "bot": self.bot_user,
            "summary": "",
            "rpc_origins": [],
            "interactions_endpoint_url": None,
        }

    def _commands(self, guild: int | None, r: Recorded) -> web.StreamResponse | None:
        if r.method == "GET":
            return _json(self.commands.get(guild, []))
        if r.method != "PUT":
            return None
        synced = []
        for command in r.body or []:
            synced.append(
                {
                    **command,
                    "id": str(self.snowflake()),
                    "application_id": str(self.application_id),
                    "version": str(self.snowflake()),
                    **({"guild_id": str(guild)} if guild is not None else {}),
                }
            )
        self.commands[guild] = synced
        return _json(synced)

    def message(
        self, channel_id: int, body: dict[str, Any], files: list[str], **extra: Any
    ) -> dict[str, Any]:
        """A message payload as Discord returns it, for what the bot sent."""
        mid = self.snowflake()
        return {
            "id": str(mid),
            "channel_id": str(channel_id),
            "author": self.bot_user,
            "content": body.get("content") or "",
            "timestamp": time.strftime("%Y-%m-%dT%H:%M:%S+00:00", time.gmtime()),
            "edited_timestamp": None,
            "tts": False,
            "mention_everyone": False,
            "mentions": [],
            "mention_roles": [],
            "attachments": [self._attachment(name) for name in files],
            "embeds": body.get("embeds") or [],
            "components": body.get("components") or [],
            "pinned": False,
            "type": 0,
            "flags": body.get("flags") or 0,
            **extra,
        }

    def _attachment(self, name: str) -> dict[str, Any]:
        aid = self.snowflake()
        url = f"{self.url}/attachments/{aid}/{name}"
        return {"id": str(aid), "filename": name, "size": 1, "url": url, "proxy_url": url}

    def _edit(self, message: dict[str, Any], body: dict[str, Any], files: list[str]) -> None:
        for key in ("content", "embeds", "components", "flags"):
            if key in body:
                message[key] = body[key] if body[key] is not None else message[key]
        if "attachments" in body or files:
            kept = {str(a.get("id")) for a in body.get("attachments") or []}
            message["attachments"] = [a for a in message["attachments"] if a["id"] in kept] + [
                self._attachment(name) for name in files
            ]
        message["edited_timestamp"] = time.strftime("%Y-%m-%dT%H:%M:%S+00:00", time.gmtime())

    def _channel_messages(self, channel: int, r: Recorded) -> web.StreamResponse | None:
        if channel not in self.messages:
            return _json({"message": "Unknown Channel", "code": 10003}, status=404)
        if r.method == "POST":
            message = self.message(channel, r.body or {}, r.files)
            self.messages[channel][int(message["id"])] = message
            return _json(message)
        if r.method == "GET":
            return _json(self._history(channel, r.query))
        return None

    def _history(self, channel: int, query: Mapping[str, str]) -> list[dict[str, Any]]:
        """A page of the channel's history as Discord gives it: at most ``limit`` (50)
        messages, newest first — the newest before ``before``, or the oldest after
        ``after`` (discord.py pages through a long history with them)."""
        limit = int(query.get("limit", "50"))
        newest = sorted(self.messages[channel].values(), key=lambda m: -int(m["id"]))
        if "before" in query:
            newest = [m for m in newest if int(m["id"]) < int(query["before"])]
        if "after" in query:
            later = [m for m in newest if int(m["id"]) > int(query["after"])]
            return later[-limit:] if limit else later
        return newest[:limit]

    def _channel_message(self, channel: int, mid: int, r: Recorded) -> web.StreamResponse | None:
        message = self.messages.get(channel, {}).get(mid)
        if message is None:
            return _json({"message": "Unknown Message", "code": 10008}, status=404)
        return self._on_message(message, r, lambda: self.messages[channel].pop(mid))

    def _on_message(
        self, message: dict[str, Any], r: Recorded, delete: Callable[[], object]
    ) -> web.StreamResponse | None:
        """A GET, PATCH or DELETE (by ``delete``) of a message that exists."""
        if r.method == "GET":
            return _json(message)
        if r.method == "PATCH":
            self._edit(message, r.body or {}, r.files)
            return _json(message)
        if r.method == "DELETE":
            delete()
            return web.Response(status=204)
        return None

    def _answer(self, token: str, body: dict[str, Any], files: list[str]) -> dict[str, Any]:
        """An interaction's answer (or follow-up): kept in :attr:`responses`; one that is not
        ephemeral is a message of the channel too, as on Discord."""
        interaction = self.interactions.get(token, {})
        channel = int(interaction.get("channel_id") or 0)
        user = (interaction.get("member") or {}).get("user") or interaction.get("user")
        meta = {"id": interaction.get("id"), "type": interaction.get("type"), "user": user}
        message = self.message(
            channel,
            body,
            files,
            webhook_id=str(self.application_id),
            **({"interaction_metadata": meta} if user is not None else {}),
        )
        self.responses.setdefault(token, []).append(message)
        self._answered[str(message["id"])] = message
        if not int(body.get("flags") or 0) & EPHEMERAL and channel in self.messages:
            self.messages[channel][int(message["id"])] = message
        return message

    def _updated(self, token: str, data: dict[str, Any] | None, files: list[str]) -> None:
        """An UPDATE_MESSAGE answer (``data``) or a DEFERRED_UPDATE one (``None``): the
        message whose component was used is the interaction's original response (edited
        now with ``data``, or later through the webhook's ``@original``)."""
        interaction = self.interactions.get(token, {})
        wanted = (interaction.get("message") or {}).get("id")
        if wanted is None:
            return
        channel = int(interaction.get("channel_id") or 0)
        found = self.messages.get(channel, {}).get(int(wanted))
        if found is None:
            found = self._answered.get(str(wanted))
        if found is None:
            return
        answers = self.responses.setdefault(token, [])
        if found not in answers:
            answers.insert(0, found)
        if data is not None:
            self._edit(found, data, files)

    def _callback(self, token: str, r: Recorded) -> web.StreamResponse:
        kind = int((r.body or {}).get("type", 0))
        data = (r.body or {}).get("data") or {}
        interaction = self.interactions.get(token, {})
        answer: dict[str, Any] = {
            "id": interaction.get("id", "0"),
            "type": interaction.get("type", 2),
            "response_message_loading": kind == DEFERRED_CHANNEL_MESSAGE,
            "response_message_ephemeral": bool(int(data.get("flags") or 0) & EPHEMERAL),
        }
        resource: dict[str, Any] = {"type": kind}
        self.answered.setdefault(token, r.at)
        if kind in (DEFERRED_UPDATE, UPDATE_MESSAGE):
            self._updated(token, data if kind == UPDATE_MESSAGE else None, r.files)
        if kind in (CHANNEL_MESSAGE, DEFERRED_CHANNEL_MESSAGE):
            message = self._answer(token, data, r.files)
            answer["response_message_id"] = message["id"]
            resource["message"] = message
        if "with_response" not in r.query:
            return web.Response(status=204)
        return _json({"interaction": answer, "resource": resource})

    def _webhook_message(self, token: str, which: str, r: Recorded) -> web.StreamResponse | None:
        answers = self.responses.get(token) or []
        if which == "@original":
            message = answers[0] if answers else None
        else:
            message = next((m for m in answers if m["id"] == which), None)
        if message is None:
            return _json({"message": "Unknown Message", "code": 10008}, status=404)
        found = message
        return self._on_message(found, r, lambda: answers.remove(found))
