"""The Discord Activity: the table page inside Discord, its user identified through OAuth2.

The Activity's page (``GET /activity``) loads Discord's Embedded App SDK (vendored in
``static/vendor/``), calls ``ready()``, then ``authorize`` for the ``identify`` scope, and
POSTs the code it is given, with the SDK's channel id, to ``POST /activity/session``.
The server exchanges the code at Discord's OAuth2 token endpoint (the client id and
secret are the server's: the secret is never sent to a page, nor is the token), asks
``GET /users/@me`` with the token who the user is, and binds a web session
(:class:`web.guard.Sessions`, a cookie) to that user. The answer names the table playing
in the channel, whose page the Activity then shows: that user's moves there go through the
host's checks as a move in chat does. Once that table's game is over or the table closed
(or the channel had none), the page asks ``GET /activity/table?channel=`` now and then
for the channel's table, and shows the next one (``/table new``) when there is one.

The page speaks its reader's language: the address's ``?lang=`` (or ``?locale=``) or the
browser's, until Discord says the user's locale — ``/users/@me`` does, for the
``identify`` scope: the session's answer names its ``language`` (when we speak it); else
the SDK's ``userSettingsGetLocale`` — the page then takes the words of that language
(``/words/{lang}.json``), and its table's frames are worded in it.

The API's base URL is a setting, so that tests point it at a stand-in of Discord.
"""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass
from typing import Any

import aiohttp
import orjson
from aiohttp import web

import catalog
from host.live import Player
from web.guard import SESSION_COOKIE, session_key
from web.markup import BRAND, tag, text
from web.server import ORIGINS, RATE, SERVICE, SESSIONS, from_here, kept, page
from web.words import choose

log = logging.getLogger(__name__)
DISCORD_API = "https://discord.com/api/v10"
MAX_CODE = 200  # characters: an OAuth2 code is about 30
CHANNEL_ID = re.compile(r"[0-9]{1,20}")  # a snowflake: ASCII digits, 64 bits at most
TIMEOUT = aiohttp.ClientTimeout(total=10)


class NotIdentified(Exception):
    """Discord did not say who the user is (a bad or used code, or Discord unreachable)."""


@dataclass(frozen=True)
class DiscordOAuth:
    """The Activity's application, as Discord's OAuth2 knows it."""

    client_id: int
    client_secret: str
    api_base: str = DISCORD_API

    @property
    def activity_origin(self) -> str:
        """Where Discord serves the Activity's page from (its proxy of this server)."""
        return f"https://{self.client_id}.discordsays.com"

    async def identify(self, code: str) -> Player:
        """The user who authorized ``code``: the code exchanged for a token, and the token
        asked who it belongs to; raises :class:`NotIdentified`."""
        player, _ = await self.identify_with_locale(code)
        return player

    async def identify_with_locale(self, code: str) -> tuple[Player, str | None]:
        """The user who authorized ``code`` (:meth:`identify`) and their Discord locale
        (``"ja"``, ``"en-US"``…; ``None``: not said)."""
        base = self.api_base.rstrip("/")
        form = {
            "client_id": str(self.client_id),
            "client_secret": self.client_secret,
            "grant_type": "authorization_code",
            "code": code,
        }
        try:
            async with aiohttp.ClientSession(timeout=TIMEOUT) as http:
                async with http.post(f"{base}/oauth2/token", data=form) as answer:
                    if answer.status != 200:
                        log.info("activity: the token endpoint answered HTTP %s", answer.status)
                        raise NotIdentified
                    token = (await answer.json()).get("access_token")
                if not isinstance(token, str) or not token:
                    log.info("activity: the token endpoint gave no access token")
                    raise NotIdentified
                me = f"{base}/users/@me"
                async with http.get(me, headers={"Authorization": f"Bearer {token}"}) as answer:
                    if answer.status != 200:
                        log.info("activity: users/@me answered HTTP %s", answer.status)
                        raise NotIdentified
                    user: Any = await answer.json()
        except (aiohttp.ClientError, TimeoutError, ValueError) as err:
            log.info("activity: Discord not reached (%s)", type(err).__name__)
            raise NotIdentified from None
        try:
            user_id = int(user["id"])
        except (KeyError, TypeError, ValueError):
            log.info("activity: users/@me named no user id")
            raise NotIdentified from None
        name = user.get("global_name") or user.get("username") or str(user_id)
        locale = user.get("locale")
        return Player(user_id, str(name)), locale if isinstance(locale, str) else None


OAUTH: web.AppKey[DiscordOAuth] = web.AppKey("oauth", DiscordOAuth)
MOCK: web.AppKey[bool] = web.AppKey("mock", bool)


def add_activity(app: web.Application, oauth: DiscordOAuth, *, mock: bool = False) -> None:
    """Serve the Activity on ``app`` (made by :func:`web.server.make_app`); its socket
    accepts the Activity's origin (Discord's proxy) from now on. ``mock``: the page uses
    the SDK's mock (outside Discord: the browser tests; its channel from ``?channel=``)."""
    app[OAUTH] = oauth
    app[MOCK] = mock
    # its sessions signed by a key of the application's secret: a page open through a
    # restart of the bot (or served by another of its processes) is its player's still
    app[SESSIONS].key = session_key(oauth.client_secret)
    app[ORIGINS] = app[ORIGINS] | {oauth.activity_origin}
    app.router.add_get("/activity", activity_page)
    app.router.add_post("/activity/session", activity_session)
    app.router.add_get("/activity/table", activity_table)


def _typed(code: str, status: int = 400) -> web.Response:
    return web.Response(
        status=status,
        body=orjson.dumps({"type": "error", "code": code}),
        content_type="application/json",
    )


async def activity_page(request: web.Request) -> web.Response:
    client = request.app[OAUTH].client_id
    asked = request.query.get("lang") or request.query.get("locale")
    with catalog.speaking(choose(asked, request.headers.get("Accept-Language"))) as spoken:
        attrs = {"id": "table", "class": "table", "data-client": client}
        body = tag(
            "main",
            {**attrs, "data-mock": "1" if request.app[MOCK] else None},
            tag("h1", None, BRAND),
            tag(
                "p",
                {"class": "status", "id": "status", "aria-live": "polite"},
                text(catalog.t("web.activity.connecting")),
            ),
        )
        return page(catalog.t("web.activity.title"), body, "activity.js", spoken, kept(request))


async def activity_session(request: web.Request) -> web.Response:
    """The Activity's code exchanged for the user it names, a session bound to them (the
    cookie), and the table of the channel the Activity was launched in (``null``: none)."""
    app = request.app
    if not from_here(request):
        return _typed("bad_origin", 403)
    if not app[RATE].allow(("activity", request.remote)):
        return _typed("rate_limited", 429)
    try:
        asked = orjson.loads(await request.read())
    except orjson.JSONDecodeError:
        return _typed("bad_request")
    code = asked.get("code") if isinstance(asked, dict) else None
    channel = asked.get("channel_id") if isinstance(asked, dict) else None
    if not isinstance(code, str) or not 0 < len(code) <= MAX_CODE:
        return _typed("bad_request")
    if channel is not None and not (isinstance(channel, str) and CHANNEL_ID.fullmatch(channel)):
        return _typed("bad_request")
    try:
        player, locale = await app[OAUTH].identify_with_locale(code)
    except NotIdentified:
        log.info("activity: a user was not identified")
        return _typed("not_identified", 401)
    live = app[SERVICE].by_channel.get(int(channel)) if channel else None
    sessions = app[SESSIONS]
    said: dict[str, object] = {
        "type": "identified",
        "user": {"id": str(player.id), "name": catalog.isolate(player.name)},
        "table": live.id if live is not None else None,
    }
    spoken = catalog.language_of(locale, default="")
    if spoken:  # the user's language in Discord (one we speak): the page's from now on
        said["language"] = spoken
    answer = web.Response(body=orjson.dumps(said), content_type="application/json")
    # the Activity runs in Discord's frame (another site): the cookie must say so
    answer.set_cookie(
        SESSION_COOKIE,
        sessions.issue(player),
        max_age=int(sessions.ttl),
        httponly=True,
        secure=True,
        samesite="None",
        path="/",
    )
    return answer


async def activity_table(request: web.Request) -> web.Response:
    """The table playing now in the channel ``?channel=`` (``null``: none): the Activity
    asks again once its table's game is over or closed (or it found none), and follows
    the channel's next table (``/table new``) without being launched again. The live
    tables are no secret (the index lists them)."""
    channel = request.query.get("channel", "")
    if not CHANNEL_ID.fullmatch(channel):
        return _typed("bad_request")
    # a bucket of its own: the pages that look now and then (every Activity whose game is
    # over, all from one address behind a proxy) do not use up the launches' sessions
    if not request.app[RATE].allow(("activity_table", request.remote)):
        return _typed("rate_limited", 429)
    live = request.app[SERVICE].by_channel.get(int(channel))
    table = live.id if live is not None and live.info.is_active else None
    return web.Response(body=orjson.dumps({"table": table}), content_type="application/json")
