"""The web server: the index of live tables, each table's live page and its socket, the
replay page of each finished game, and the pages' static ES modules.

Routes (:func:`make_app`):

- ``GET /``: every live table and the games that finished while the server ran.
- ``GET /tables/{id}``: the live table page; ``GET /tables/{id}/ws``: its socket, sent
  the table's view at once and on every commit (:mod:`web.hub`). A frame the page sends
  is JSON: ``{"type": "ping"}``; ``{"type": "table"}``, answered with the table's view
  as it is now (a page whose move was refused as stale asks for it: it may have missed a
  commit); or from a seated, identified player a move:
  ``{"type": "move", "text": ...}`` (typed, as in chat) or ``{"type": "move", "move":
  <code>, "version": <the table's version>}`` (one of the choices their frames list); the
  host checks and plays it as it does a move in chat.
  A frame that is not one of these, or is over the sender's rate, is answered
  ``{"type": "error", "code": ...}`` and changes nothing; one over :data:`MAX_FRAME`
  bytes (no page sends such) closes the socket (code 1009, too big: it is never read
  whole) and changes nothing, the page says so and reconnects; a refused move
  ``{"type": "refused", "why": <the host's code>}``.
- ``GET /games/{id}``: the replay page of a finished game (a game running here: its live
  page; one that never was or is not over: the page of what is not found, status 404);
  ``GET /games/{id}/replay.json`` its frames (:func:`web.views.replay`).
- ``GET /static/...``: the pages' modules and style (package data of :mod:`web`).
- ``GET /words/{lang}.json``: the words the pages' scripts say (:mod:`web.words`).
- ``POST /origin``: whether the page's origin may open a socket (:func:`origin_check`).

Each page speaks its reader's language (:func:`web.words.choose`: ``?lang=``, else the
browser's ``Accept-Language``, else the table's language when the server was given
``table_language``, else English); a page's socket and its replay's frames are asked
for in the page's language (``?lang=``), and said in it. A page whose language came from
its address keeps it: its links and the server's redirects carry its ``?lang=``
(:func:`kept`). An address that is none of these is answered with a short page in its
reader's language (status 404).

The socket checks ``Origin`` (:func:`web.guard.origin_allowed`); a session cookie
(:class:`web.guard.Sessions`) binds it to a user, and it is closed when the session
expires, the page told ``session_expired`` (as is a socket opened with a session cookie
that expired; one opened with a cookie that is no session, as after the server's secret
changed, is told ``session_invalid``: either page watches as a spectator, and says so).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import Awaitable, Callable, Iterable
from pathlib import Path
from typing import Any

import orjson
from aiohttp import WSCloseCode, WSMsgType, web

import catalog
import catalog.games
from host.live import LiveTable
from host.refusals import Refusal, Why
from host.service import MoveOutcome, TableService
from persistence import TableNotFound
from persistence.records import TableInfo
from web.guard import SESSION_COOKIE, RateLimit, Session, Sessions, origin_allowed
from web.hub import Hub
from web.markup import page_html, tag, text
from web.views import label, replay
from web.words import TableLanguage, choose, dictionary

log = logging.getLogger(__name__)
STATIC = Path(__file__).parent / "static"
MAX_FRAME = 4096  # bytes: a page's frame is a few words
MAX_ID = 2**63 - 1  # the largest id a database keeps (a 64-bit integer)
SECURITY_HEADERS = {
    "Content-Security-Policy": "default-src 'self'; connect-src 'self'; img-src 'self' data:; "
    "style-src 'self'; script-src 'self'; base-uri 'none'; form-action 'self'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "same-origin",
}

SERVICE: web.AppKey[TableService[Any]] = web.AppKey("service", TableService)
HUB: web.AppKey[Hub] = web.AppKey("hub", Hub)
SESSIONS: web.AppKey[Sessions] = web.AppKey("sessions", Sessions)
RATE: web.AppKey[RateLimit] = web.AppKey("rate", RateLimit)
ORIGINS: web.AppKey[frozenset[str]] = web.AppKey("origins")
INDEX_EXTRA: web.AppKey[Callable[[], str]] = web.AppKey("index_extra")
COMMITTED: web.AppKey[Callable[[MoveOutcome], None]] = web.AppKey("committed")
TABLE_LANGUAGE: web.AppKey[TableLanguage] = web.AppKey("table_language")
# whether a request from another origin was refused and said in the log (once a process)
ORIGIN_WARNED: web.AppKey[set[tuple[str, str]]] = web.AppKey("origin_warned")
ORIGIN_WARNINGS = 16  # the (Origin, Host) pairs refused that the log names, each once
STATUSES = frozenset({"lobby", "playing", "finished", "abandoned"})  # web.status.*


def make_app(
    service: TableService[Any],
    hub: Hub,
    *,
    sessions: Sessions | None = None,
    rate: RateLimit | None = None,
    origins: Iterable[str] = (),
    index_extra: Callable[[], str] = lambda: "",
    committed: Callable[[MoveOutcome], None] = lambda outcome: None,
    table_language: TableLanguage = lambda info: None,
) -> web.Application:
    """The web front end of ``service`` (whose turn clock tells ``hub``); ``index_extra``
    makes the HTML (escaped already) the index shows below its lists, called where the
    index is worded (in its reader's language); ``committed`` is told of every move a page
    made (another front end of the same host shows it: the bot's chat);
    ``table_language`` says the language a table speaks (the Discord bot's: its server's),
    its page's language when the reader's browser asks for none we speak."""
    app = web.Application(middlewares=[_headers, _missing])
    app[SERVICE] = service
    app[HUB] = hub
    app[SESSIONS] = sessions or Sessions()
    app[RATE] = rate or RateLimit()
    app[ORIGINS] = frozenset(origins)
    app[INDEX_EXTRA] = index_extra
    app[TABLE_LANGUAGE] = table_language
    app[COMMITTED] = committed
    app[ORIGIN_WARNED] = set()
    app.router.add_get("/", index)
    # an id in ASCII digits (a regular expression's \d is any script's)
    app.router.add_get("/tables/{table_id:[0-9]+}", table_page)
    app.router.add_get("/tables/{table_id:[0-9]+}/ws", table_socket)
    app.router.add_get("/games/{game_id:[0-9]+}", replay_page)
    app.router.add_get("/games/{game_id:[0-9]+}/replay.json", replay_json)
    app.router.add_get("/words/{language:[a-z]{2}}.json", words_json)
    app.router.add_post("/origin", origin_check)
    app.router.add_static("/static", STATIC, append_version=False)
    app.router.add_get("/favicon.ico", no_icon)
    return app


@web.middleware
async def _headers(
    request: web.Request, handler: Callable[[web.Request], Awaitable[web.StreamResponse]]
) -> web.StreamResponse:
    response = await handler(request)
    if not response.prepared:
        response.headers.update(SECURITY_HEADERS)
    return response


@web.middleware
async def _missing(
    request: web.Request, handler: Callable[[web.Request], Awaitable[web.StreamResponse]]
) -> web.StreamResponse:
    """An address no route serves: a page that says so, in its reader's language (not
    aiohttp's plain ``404: Not Found``)."""
    if isinstance(request.match_info.http_exception, web.HTTPNotFound):
        return missing_page(request)
    return await handler(request)


# ------------------------------------------------------------------ pages


def language(request: web.Request, default: str | None = None) -> str:
    """The language of the page ``request`` asks for (:func:`web.words.choose`)."""
    return choose(request.query.get("lang"), request.headers.get("Accept-Language"), default)


def kept(request: web.Request) -> str:
    """What the links and redirects of the page ``request`` asks for keep of its address:
    ``?lang=ja`` when its language came from the address's ``?lang=`` (one we speak),
    else nothing (the next page chooses its own, as this one did)."""
    asked = request.query.get("lang")
    spoken = catalog.language_of(asked, default="") if asked else ""
    return f"?lang={spoken}" if spoken else ""


def page(
    title: str,
    body: str,
    script: str | None = None,
    language: str = catalog.DEFAULT,
    keep: str = "",
    status: int = 200,
) -> web.Response:
    """An HTML page in ``language`` (``title`` is escaped here; ``body`` must be escaped
    already), with the words its scripts say; ``keep``: the ``?lang=`` its link to the
    index keeps (:func:`kept`)."""
    return web.Response(
        text=page_html(title, body, script, language, home="/" + keep),
        content_type="text/html",
        status=status,
    )


def missing_page(request: web.Request, says: str = "web.missing.text") -> web.Response:
    """The page of an address that is none of ours (status 404), in its reader's language:
    what it ``says`` (a key of the catalog: why there is nothing here), and a way back."""
    keep = kept(request)
    with catalog.speaking(language(request)) as spoken:
        title = catalog.t("web.missing.title")
        body = tag(
            "main",
            {"class": "index", "id": "missing"},
            tag("h1", None, text(title)),
            tag("p", {"class": "status"}, text(catalog.t(says))),
            tag(
                "p",
                None,
                tag(
                    "a", {"class": "back", "href": "/" + keep}, text(catalog.t("web.missing.home"))
                ),
            ),
        )
        return page(title, body, None, spoken, keep, status=404)


async def no_icon(request: web.Request) -> web.Response:
    return web.Response(status=204)


async def words_json(request: web.Request) -> web.Response:
    """The words of the pages' scripts in a language (a page whose language changed)."""
    asked = request.match_info["language"]
    if asked not in catalog.LANGUAGES:
        raise web.HTTPNotFound()
    return web.Response(body=orjson.dumps(dictionary(asked)), content_type="application/json")


def _names(seats: Iterable[Any]) -> str:
    return text(catalog.t("web.list.comma").join(catalog.isolate(s.name) for s in seats)) or text(
        catalog.t("web.index.nobody")
    )


def _status(status: str) -> str:
    return catalog.t(f"web.status.{status}") if status in STATUSES else status


def _title(game: str) -> str:
    """A game's name as players read it, in the language spoken."""
    return catalog.games.words(game).title()


def _row(href: str, title: str, middle: str, last: str) -> str:
    link = tag(
        "a",
        {"class": "row", "href": href},
        tag("b", None, text(title)),
        " ",
        tag("span", None, middle),
        " ",
        tag("i", None, text(last)),
    )
    return tag("li", None, link)


def _list(key: str, rows: list[str], empty: str) -> str:
    return tag("ul", {"class": "list", "id": key}, "".join(rows) or tag("li", None, text(empty)))


async def index(request: web.Request) -> web.Response:
    service = request.app[SERVICE]
    hub = request.app[HUB]
    live = sorted(service.by_id.values(), key=lambda t: t.id)
    keep = kept(request)
    with catalog.speaking(language(request)) as spoken:
        rows = [
            _row(
                f"/tables/{t.id}{keep}",
                _title(t.info.game),
                _names(t.info.seats),
                _status(t.info.status),
            )
            for t in live
        ]
        done = [
            _row(
                f"/games/{game_id}{keep}",
                _title(hub.games[game_id]),
                text(catalog.t("web.index.game", game=game_id)),
                catalog.t("web.index.replay"),
            )
            for game_id in reversed(hub.finished)
        ]
        body = tag(
            "main",
            {"class": "index"},
            tag("h1", None, text(catalog.t("web.index.live"))),
            _list("live", rows, catalog.t("web.index.no_live")),
            tag("h2", None, text(catalog.t("web.index.finished"))),
            _list("finished", done, catalog.t("web.index.no_finished")),
            request.app[INDEX_EXTRA](),
        )
        return page(catalog.t("web.index.title"), body, language=spoken, keep=keep)


def _id(request: web.Request, key: str) -> int:
    """The id the address names (``key``: its part); more digits than any id a database
    keeps (or Python reads: 4,300) is one past them: no such table or game."""
    digits = request.match_info[key]
    return int(digits) if len(digits) <= len(str(MAX_ID)) else MAX_ID + 1


def _live(request: web.Request) -> LiveTable[Any] | None:
    return request.app[SERVICE].by_id.get(_id(request, "table_id"))


async def table_page(request: web.Request) -> web.Response:
    live = _live(request)
    if live is None:  # finished (or never was): its replay says which
        raise web.HTTPFound(f"/games/{request.match_info['table_id']}{kept(request)}")
    with catalog.speaking(language(request, request.app[TABLE_LANGUAGE](live.info))) as spoken:
        title = _title(live.info.game)
        body = tag(
            "main",
            {"id": "table", "class": "table", "data-table": live.id},
            tag("h1", None, text(title)),
            _status_line(catalog.t("web.table.connecting"), polite=True),
        )
        return page(title, body, "table.js", spoken, kept(request))


def _status_line(words: str, *, polite: bool = False) -> str:
    attrs = {"class": "status", "id": "status", "aria-live": "polite" if polite else None}
    return tag("p", attrs, text(words))


async def _stored_table(service: TableService[Any], table_id: int) -> TableInfo:
    """The stored table ``table_id``; a table that never was (an id past what is stored
    too) is not found, in the language spoken."""
    info: TableInfo | None = None
    if table_id <= MAX_ID:
        with contextlib.suppress(TableNotFound):
            info = await service.store.table(table_id)
    if info is None:
        raise web.HTTPNotFound(text=catalog.t("web.error.no_such_game"))
    return info


def _replayed(info: TableInfo) -> bool:
    """Whether the stored table ``info`` has a replay: its game over (or closed once begun)."""
    return not info.is_active and info.rules_record is not None


def _no_replay(info: TableInfo) -> str:
    """Why the stored table ``info`` has no replay (a key of the catalog): its game is not
    over (running elsewhere, or its table lost), or its table closed in its lobby."""
    if not info.is_active and info.started_at is None:
        return "web.error.never_began"
    return "web.error.not_over"


async def replay_page(request: web.Request) -> web.Response:
    """A finished game's replay page; a game still running here goes to its live page;
    one that never was, or has no replay (not over: running elsewhere, or its table lost),
    is the page of what is not found, saying so."""
    service = request.app[SERVICE]
    game_id = _id(request, "game_id")
    if game_id in service.by_id:
        raise web.HTTPFound(f"/tables/{game_id}{kept(request)}")
    with catalog.speaking(language(request)) as spoken:
        try:
            info = await _stored_table(service, game_id)
        except web.HTTPNotFound:
            return missing_page(request, "web.error.no_such_game")
        if not _replayed(info):
            return missing_page(request, _no_replay(info))
        title = catalog.t("web.replay.title", game=game_id)
        body = tag(
            "main",
            {"id": "replay", "class": "table", "data-game": game_id},
            tag("h1", None, text(title)),
            _status_line(catalog.t("web.replay.loading")),
        )
        return page(title, body, "replay.js", spoken, kept(request))


async def replay_json(request: web.Request) -> web.Response:
    """A finished game's frames, worded in the page's language (``?lang=``); a game still
    running has none (its replay would show what is hidden still, and its live page shows
    the rest)."""
    service = request.app[SERVICE]
    game_id = _id(request, "game_id")
    with catalog.speaking(language(request)):
        info = await _stored_table(service, game_id)
        if not _replayed(info):
            raise web.HTTPNotFound(text=catalog.t(_no_replay(info)))
        hosted = service.front.game(info.game)
        # from its state at the start, as stored (its rules as it was played, whatever the
        # house rules are now), and the moves after it
        start, moves, _ = (await service.store.game_logs([game_id]))[game_id]
        ai_users = request.app[HUB].ai_users
        # the thread runs in a copy of this context: it speaks the page's language
        frames = await asyncio.to_thread(replay, info, hosted, start, moves, ai_users)
    return web.Response(body=orjson.dumps(frames), content_type="application/json")


# ------------------------------------------------------------------ the socket


def from_here(request: web.Request) -> bool:
    """Whether ``request`` comes from the server's own pages or an origin allowed
    (:func:`web.guard.origin_allowed`). A request refused that names an Origin is said in
    the log, once for each Origin and host (up to :data:`ORIGIN_WARNINGS` of them, so that
    a stranger's requests neither fill the log nor use up the one a real misconfiguration
    needs): behind a reverse proxy that rewrites ``Host`` (nginx's default) every socket
    is refused, and the operator is told why."""
    origin = request.headers.get("Origin")
    allowed: frozenset[str] = request.app[ORIGINS]
    if origin_allowed(origin, request.host, allowed):
        return True
    warned = request.app[ORIGIN_WARNED]
    pair = (origin or "", request.host)
    if origin and pair not in warned and len(warned) < ORIGIN_WARNINGS:
        warned.add(pair)
        log.warning(
            "web: refused a request from Origin %r: this server expects its own host %r "
            "(http:// or https://) or an origin of WEB_ORIGINS %s; behind a reverse proxy, "
            "pass Host through (nginx: proxy_set_header Host $host;) or add the pages' "
            "origin to WEB_ORIGINS (said once for this Origin and host)",
            origin,
            request.host,
            sorted(allowed) or "(none)",
        )
    return False


async def origin_check(request: web.Request) -> web.Response:
    """Whether this page's origin may open a socket (``{"allowed": …}``): a page whose
    socket closed before it opened asks (a refused socket's status is hidden from it),
    and says the server refuses it rather than reconnect for ever."""
    allowed = from_here(request)
    return web.Response(body=orjson.dumps({"allowed": allowed}), content_type="application/json")


def _error(code: str) -> str:
    return orjson.dumps({"type": "error", "code": code}).decode()


def refused(refusal: Refusal) -> str:
    """The frame of a move the host refused: its code (a key of the page's words,
    ``web.refusal.<why>``), told apart where the page says it apart: a seat an AI plays
    because its player let their turns run out, not because they left."""
    why = refusal.code.value
    if refusal.code is Why.SEAT_LEFT and refusal.data.get("timed_out"):
        why = "seat_timed_out"
    return orjson.dumps({"type": "refused", "why": why}).decode()


async def table_socket(request: web.Request) -> web.StreamResponse:
    live = _live(request)
    spoken = language(request, None if live is None else request.app[TABLE_LANGUAGE](live.info))
    with catalog.speaking(spoken):
        if not from_here(request):
            raise web.HTTPForbidden(text=catalog.t("web.error.not_from_here"))
        if live is None:
            raise web.HTTPNotFound(text=catalog.t("web.error.not_playing"))
    sessions = request.app[SESSIONS]
    session = sessions.session(request.cookies.get(SESSION_COOKIE))
    hub = request.app[HUB]
    ws = web.WebSocketResponse(heartbeat=30.0, max_msg_size=MAX_FRAME)
    await ws.prepare(request)
    lock = asyncio.Lock()

    async def send(text: str) -> None:  # one writer at a time: the hub's and the replies
        async with lock:
            await ws.send_str(text)

    if session is None:
        watcher = hub.watch(live, None, send, language=spoken)
    else:  # its frames are a spectator's once the session expired, and it is closed
        watcher = hub.watch(
            live, session.player.id, send, lambda: sessions.alive(session), language=spoken
        )
        expiry = asyncio.create_task(
            _expired(ws, send, after=max(0.0, session.expires - sessions.clock()))
        )
    key: object = session.player.id if session else ("address", request.remote)

    def current() -> str:  # the table as the page may see it now, in its language
        with catalog.speaking(spoken):
            return hub.frame(live, watcher.user_id)

    try:
        cookie = request.cookies.get(SESSION_COOKIE)
        if session is None and cookie:
            # a page whose session ended (expired) while it was away, or whose cookie is no
            # longer one (the server's secret changed): told which, not silently made a
            # spectator's (a page already gone stops watching, below)
            ended = "session_expired" if sessions.expired(cookie) else "session_invalid"
            await send(_error(ended))
        async for message in ws:
            if session is not None and not sessions.alive(session):
                await _expired(ws, send)
                break
            if not request.app[RATE].allow(key):
                await send(_error("rate_limited"))
                continue
            if message.type is not WSMsgType.TEXT:
                await send(_error("bad_frame"))
                continue
            await send(await _answer(request, live, session, message.data, current, spoken))
    except ConnectionError:  # the page went away mid-answer
        log.debug("table %s: a page went away", live.id)
    finally:
        if session is not None:
            expiry.cancel()
        await hub.unwatch(watcher)
    return ws


async def _expired(
    ws: web.WebSocketResponse, send: Callable[[str], Awaitable[None]], after: float = 0.0
) -> None:
    """Tell the page its session expired (``after`` seconds from now), and close its socket."""
    await asyncio.sleep(after)
    if ws.closed:
        return
    with contextlib.suppress(ConnectionError):
        await send(_error("session_expired"))
        await ws.close(code=WSCloseCode.POLICY_VIOLATION, message=b"session expired")


async def _answer(
    request: web.Request,
    live: LiveTable[Any],
    session: Session | None,
    data: str,
    current: Callable[[], str],
    spoken: str,
) -> str:
    """The answer to one frame of a page (see the module's doc); ``current()``: the table's
    frame as the page may see it now; ``spoken``: the page's language, a chooser's words'."""
    try:
        frame = orjson.loads(data)
    except orjson.JSONDecodeError:
        return _error("bad_frame")
    kind = frame.get("type") if isinstance(frame, dict) else None
    if kind == "ping":
        return orjson.dumps({"type": "pong"}).decode()
    if kind == "table":
        return current()
    if kind != "move":
        return _error("bad_frame")
    typed = set(frame) == {"type", "text"} and isinstance(frame["text"], str)
    chosen = set(frame) == {"type", "move", "version"} and type(frame["version"]) is int
    if not typed and not chosen:
        return _error("bad_frame")
    if session is None:
        return _error("not_identified")
    service = request.app[SERVICE]
    try:
        if typed:
            outcome = await service.move(
                live.channel_id, session.player, text=frame["text"], table_id=live.id
            )
        else:  # one of the choices it was sent; the host checks it is one now
            try:
                move = live.game.game.decode_move(frame["move"])
            except Exception:  # whatever a forged code makes the decoder raise
                return _error("bad_frame")
            outcome = await service.move(
                live.channel_id,
                session.player,
                move=move,
                table_id=live.id,
                version=frame["version"],
            )
    except Refusal as refusal:
        return refused(refusal)
    request.app[COMMITTED](outcome)
    chooser = outcome.chooser
    if chooser is not None:  # the moves a typed move may mean, worded in the page's language
        game = live.game  # each as its move button reads (Stack Up!'s cards in words)
        with catalog.speaking(spoken):
            text = game.chooser_text(chooser.state, chooser.error)
            choices = [label(game, chooser.state, m, live.info.game) for m in chooser.moves]
        return orjson.dumps({"type": "choose", "text": text, "choices": choices}).decode()
    return orjson.dumps({"type": "moved", "version": outcome.table.version}).decode()
