"""``stackbot web --demo``: the pages of one table of each game, played by AI players at
a human pace, with no Discord and no token — to see the web front end, and to check it.

Each table is a real table of the host (:class:`host.service.TableService`, over a SQLite
store in a temporary folder, in the terminal's plain words): its players are seated
through the lobby as people are, and each move is chosen by the game's AI level and
played through :meth:`TableService.move` (the host checks it, commits it, and tells the
pages), one every ``pace`` seconds. A finished game's replay stays linked from the index;
a new game of the same kind starts at that table's place.

Each table speaks a language of its own (:class:`DemoFront`): the demo's own tables the
demo's, a visitor's the language of the page its visitor opened it from.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging
import os
import random
import signal
import socket
import sys
import tempfile
import threading
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager
from dataclasses import dataclass, field
from datetime import timedelta
from typing import Any

from aiohttp import web

import catalog
import catalog.games
from engine import games
from engine.game import AIPlayer
from host.live import LiveTable, Player
from host.refusals import Refusal
from host.service import TableService
from host.thinking import Thinker
from persistence import Store
from persistence.records import TableInfo
from terminal.hosting import TerminalFront, TerminalHostedGame
from web.activity import DiscordOAuth, add_activity
from web.guard import SESSION_COOKIE, RateLimit, Sessions, origin_allowed
from web.hub import Hub
from web.markup import tag, text
from web.server import RATE, kept, language, make_app

log = logging.getLogger(__name__)
GUILD = 1
PACE = 1.5  # seconds between two moves of a table: about a person's
BETWEEN_GAMES = 8.0  # seconds a finished game stays on its page before the next starts
# how SIGTERM stops the served demo: (its event loop, what to call) -> None
StopOn = Callable[[asyncio.AbstractEventLoop, Callable[[signal.Signals], object]], None]
LEVEL = "greedy"
PLAYERS = {"stack": 3, "stackup": 4, "colorstack": 2}
NAMES = ("Ada", "Bo", "Cy", "Di", "Eve", "Fay")
VISITOR_TABLES = 20  # tables of visitors playing at once (beyond it, the oldest ends)
VISITOR_CHANNELS = 1000  # a visitor's table is in a channel numbered from here
VISITOR_IDLE = timedelta(minutes=10)  # a visitor's table left this long untouched ends
SWEEP_SECONDS = 60.0  # how often the visitors' tables left idle are looked for
THREAD = "web-demo"  # the name of the thread that serves the demo (in_thread)


class DemoFront(TerminalFront):
    """The terminal's words, each table in its language (by channel: a visitor's table
    speaks the language of the page that opened it; the others ``language``)."""

    def __init__(self, language: str = catalog.DEFAULT) -> None:
        self.default = language
        self.languages: dict[int, str] = {}  # channel id -> a catalog language

    def language(self, info: TableInfo) -> str:
        return self.languages.get(info.channel_id, self.default)

    def speaking(self, info: TableInfo) -> AbstractContextManager[object]:
        return catalog.speaking(self.language(info))


@dataclass
class DemoTable:
    """A demo table: the host's table, its players, and the AI that chooses their moves."""

    live: LiveTable[TerminalHostedGame]
    players: list[Player]
    ai: AIPlayer[Any]

    def player_at(self, seat: int) -> Player:
        """The player of ``seat`` (the game may seat them in another order than they came)."""
        user = self.live.info.seats[seat].user_id
        return next(p for p in self.players if p.id == user)

    @property
    def over(self) -> bool:
        state = self.live.state
        return state is None or state.is_over or not self.live.info.is_active


@dataclass
class Demo:
    """The demo's host, its tables' players and the tasks that play them."""

    pace: float = PACE
    seed: int | None = None
    between: float = BETWEEN_GAMES
    language: str = catalog.DEFAULT  # the language of the demo's own tables
    hub: Hub = field(default_factory=Hub)
    folder: tempfile.TemporaryDirectory[str] = field(
        default_factory=lambda: tempfile.TemporaryDirectory(prefix="stackbot-web-")
    )
    store: Store | None = None
    service: TableService[TerminalHostedGame] | None = None
    tasks: list[asyncio.Task[None]] = field(default_factory=list)
    visitors: dict[int, Player] = field(default_factory=dict)  # by table id, oldest first
    sessions: Sessions = field(default_factory=Sessions)
    # each game's options (settings fields) for the visitors' tables: none, the house rules
    visitor_options: dict[str, dict[str, Any]] = field(default_factory=dict)
    _numbers: Iterator[int] = field(default_factory=lambda: itertools.count(1))
    front: DemoFront = field(init=False)

    def __post_init__(self) -> None:
        self.front = DemoFront(self.language)

    async def start(self, *, play: bool = True) -> TableService[TerminalHostedGame]:
        """Open the store and the host, and (``play``) start one table of each game."""
        self.store = await Store.open(f"sqlite+aiosqlite:///{self.folder.name}/demo.db")
        self.service = TableService(
            self.store, front=self.front, clock=self.hub, thinker=Thinker("thread"), seed=self.seed
        )
        self.tasks.append(asyncio.create_task(self._sweeping()))
        if not play:
            return self.service
        rng = random.Random(self.seed)
        for channel, name in enumerate(games.names(), start=1):
            table_rng = random.Random(rng.getrandbits(64))
            self.tasks.append(asyncio.create_task(self._table(channel, name, table_rng)))
        while sum(t.info.status == "playing" for t in self.service.by_id.values()) < len(
            games.names()
        ):  # every table is open and started
            await asyncio.sleep(0.01)
        return self.service

    async def _table(self, channel: int, name: str, rng: random.Random) -> None:
        while True:
            try:
                await self.play_one(channel, name, rng)
            except asyncio.CancelledError:
                raise
            except Exception:  # a demo table that broke starts again
                log.exception("demo table of %s broke; it starts again", name)
            await asyncio.sleep(self.between)

    async def open_table(self, channel: int, name: str) -> DemoTable:
        """A table of ``name`` at ``channel``, its players seated through the lobby, started."""
        service = self.service
        assert service is not None
        players = [Player(channel * 100 + i, NAMES[i]) for i in range(PLAYERS[name])]
        for player in players:  # seated as people are, played by the AI
            self.hub.ai_users[player.id] = LEVEL
        host, *others = players
        live = await service.new_table(GUILD, channel, host, {}, game=name)
        for player in others:
            await service.join(channel, player)
        await service.start(channel, host)
        return DemoTable(live, players, games.get(name).make_ai(LEVEL))

    async def play_one(self, channel: int, name: str, rng: random.Random) -> int:
        """Play one game of ``name`` at ``channel`` to its end, a move every ``pace``
        seconds; its table's id."""
        table = await self.open_table(channel, name)
        while not table.over:
            await asyncio.sleep(self.pace)
            await self.step(table, rng)
        return table.live.id

    async def step(self, table: DemoTable, rng: random.Random) -> bool:
        """The move of the player to move at ``table``, chosen by the AI and played
        through the host; whether one was played (``False``: the game is over, or the
        table moved on while the move was chosen)."""
        service = self.service
        assert service is not None
        live = table.live
        state, version = live.state, live.version
        if table.over or state is None:
            return False
        seat = state.current_player
        if seat is None:
            return False
        move = await asyncio.to_thread(table.ai.choose, state.copy(), rng)
        try:
            await service.move(
                live.channel_id, table.player_at(seat), move=move, table_id=live.id, version=version
            )
        except Refusal as refusal:  # the table moved on meanwhile: choose again
            log.info("demo move at table %s refused: %r", live.id, refusal)
            return False
        return True

    async def sweep(self) -> None:
        """Forget the visitors' tables that are over, and end those left idle for
        :data:`VISITOR_IDLE` (by the host's clock: the last move of their visitor)."""
        service = self.service
        assert service is not None
        for table_id, player in list(self.visitors.items()):
            live = service.by_id.get(table_id)
            if live is None:  # over: forgotten by the host
                del self.visitors[table_id]
            elif service.now() - service.idle_since(live) >= VISITOR_IDLE:
                await self._end_visitor(table_id, player)

    async def _end_visitor(self, table_id: int, player: Player) -> None:
        service = self.service
        assert service is not None
        del self.visitors[table_id]
        with contextlib.suppress(Refusal, KeyError):
            live = service.by_id[table_id]
            await service.end(live.channel_id, player, manager=True)

    async def _sweeping(self) -> None:
        while True:
            await asyncio.sleep(SWEEP_SECONDS)
            try:
                await self.sweep()
            except Exception:  # the next sweep tries again
                log.exception("visitor tables not swept")

    def visitor_table(self, player: Player, name: str) -> int | None:
        """The open table of ``name`` the visitor ``player`` plays already, if any."""
        service = self.service
        assert service is not None
        for table_id, seated in self.visitors.items():
            live = service.by_id.get(table_id)
            state = None if live is None or live.info.game != name else live.state
            if seated == player and state is not None and not state.is_over:
                return table_id
        return None

    async def seat_visitor(self, name: str, language: str = catalog.DEFAULT) -> tuple[int, Player]:
        """A new table of ``name`` for a visitor to play against the game's AI seats
        (the host plays them, as in chat), speaking ``language``: its id and the visitor
        as a player."""
        service = self.service
        assert service is not None
        await self.sweep()
        while len(self.visitors) >= VISITOR_TABLES:
            await self._end_visitor(*next(iter(self.visitors.items())))
        number = next(self._numbers)
        with catalog.speaking(language):  # the visitor's name, in their page's language
            player = Player(VISITOR_CHANNELS * 1000 + number, catalog.t("web.demo.guest"))
        channel = VISITOR_CHANNELS + number
        self.front.languages[channel] = language
        live = await service.new_table(
            GUILD, channel, player, dict(self.visitor_options.get(name, {})), game=name
        )
        for _ in range(PLAYERS[name] - 1):
            await service.add_ai(channel, player, LEVEL)
        await service.start(channel, player)
        self.visitors[live.id] = player
        return live.id, player

    async def close(self) -> None:
        for task in self.tasks:
            task.cancel()
        for task in self.tasks:
            with contextlib.suppress(asyncio.CancelledError):
                await task
        if self.service is not None:
            await self.service.thinker.close()
        if self.store is not None:
            await self.store.close()
        self.folder.cleanup()


def play_forms() -> str:
    """The index's buttons that open a table of the visitor's own, in the language
    spoken (the table will speak it too)."""
    spoken = catalog.current()
    forms = [
        tag(
            "form",
            {"method": "post", "action": f"/demo/play/{name}?lang={spoken}"},
            tag(
                "button",
                {"type": "submit"},
                text(catalog.t("web.demo.play", game=catalog.games.words(name).title())),
            ),
        )
        for name in games.names()
    ]
    heading = tag("h2", None, text(catalog.t("web.demo.play_yourself")))
    return heading + tag("div", {"class": "play"}, *forms)


def demo_app(
    demo: Demo, service: TableService[TerminalHostedGame], rate: RateLimit | None = None
) -> web.Application:
    """The pages of ``demo``, and a table of the visitor's own against the AI (``rate``:
    each address's, for new tables as for frames)."""
    app = make_app(
        service,
        demo.hub,
        sessions=demo.sessions,
        rate=rate,
        index_extra=play_forms,
        table_language=demo.front.language,
    )

    async def play(request: web.Request) -> web.Response:
        spoken = language(request)
        keep = kept(request)  # the page's language, when its address said it
        with catalog.speaking(spoken):
            if not origin_allowed(request.headers.get("Origin"), request.host):
                raise web.HTTPForbidden(text=catalog.t("web.error.not_from_here"))
            if not request.app[RATE].allow(("play", request.remote)):
                raise web.HTTPTooManyRequests(text=catalog.t("web.error.too_many_games"))
            name = request.match_info["game"]
            if name not in PLAYERS:
                raise web.HTTPNotFound(text=catalog.t("web.error.no_such_game"))
        known = demo.sessions.session(request.cookies.get(SESSION_COOKIE))
        if known is not None:  # a visitor plays on at their own open table
            table_id = demo.visitor_table(known.player, name)
            if table_id is not None:
                raise web.HTTPSeeOther(f"/tables/{table_id}{keep}")
        table_id, player = await demo.seat_visitor(name, spoken)
        token = demo.sessions.issue(player)
        answer = web.HTTPSeeOther(f"/tables/{table_id}{keep}")
        answer.set_cookie(
            SESSION_COOKIE,
            token,
            max_age=int(demo.sessions.ttl),
            httponly=True,
            samesite="Strict",
            path="/",
        )
        raise answer

    app.router.add_post("/demo/play/{game}", play)
    return app


async def _open_site(
    demo: Demo, host: str, port: int, activity: DiscordOAuth | None = None
) -> tuple[web.AppRunner, int]:
    service = await demo.start()
    app = demo_app(demo, service)
    if activity is not None:  # the Activity's page with the SDK's mock (no Discord)
        add_activity(app, activity, mock=True)
    runner = web.AppRunner(app)
    await runner.setup()
    await web.TCPSite(runner, host, port).start()
    return runner, int(runner.addresses[0][1])  # the port bound (port 0: a free one)


@contextlib.contextmanager
def in_thread(
    pace: float = PACE,
    seed: int | None = None,
    between: float = BETWEEN_GAMES,
    activity: DiscordOAuth | None = None,
    visitor_options: dict[str, dict[str, Any]] | None = None,
    language: str = catalog.DEFAULT,
) -> Iterator[tuple[str, Demo]]:
    """The demo served on a free port of 127.0.0.1 by an event loop in a thread of its
    own, for a caller that is not async (a browser driven synchronously): its base URL
    and the demo (read it through :func:`call`); with ``activity``, the Activity's page
    too, on the SDK's mock; ``visitor_options``: each game's options for the visitors'
    tables (a short game for the checks); ``language``: the demo's own tables'."""
    demo = Demo(
        pace=pace,
        seed=seed,
        between=between,
        language=language,
        visitor_options=visitor_options or {},
    )
    loop = asyncio.new_event_loop()
    thread = threading.Thread(target=loop.run_forever, name=THREAD, daemon=True)
    thread.start()
    runner, port = asyncio.run_coroutine_threadsafe(
        _open_site(demo, "127.0.0.1", 0, activity), loop
    ).result()
    try:
        yield f"http://127.0.0.1:{port}", demo
    finally:

        async def stop() -> None:
            await runner.cleanup()
            await demo.close()

        asyncio.run_coroutine_threadsafe(stop(), loop).result()
        loop.call_soon_threadsafe(loop.stop)
        thread.join()
        loop.close()


def stop_on_sigterm(
    loop: asyncio.AbstractEventLoop, stop: Callable[[signal.Signals], object]
) -> None:
    """SIGTERM calls ``stop(signal)`` on ``loop`` (none on Windows' loops)."""
    with contextlib.suppress(NotImplementedError):
        loop.add_signal_handler(signal.SIGTERM, stop, signal.SIGTERM)


async def serve(
    port: int,
    host: str = "127.0.0.1",
    pace: float = PACE,
    language: str = catalog.DEFAULT,
    stop_on: StopOn = stop_on_sigterm,
) -> None:
    """Run the demo and its pages on ``host:port`` until cancelled or SIGTERM (``docker
    stop``, ``kill``; ``stop_on`` sets what it does on the loop), its own tables speaking
    ``language`` (a visitor's: their page's)."""
    stopped = asyncio.Event()
    stop_on(asyncio.get_running_loop(), lambda _: stopped.set())
    if stopped.is_set():  # (a SIGTERM before the loop ran: stop_on says so at once)
        return
    demo = Demo(pace=pace, language=language)
    try:
        runner, port = await _open_site(demo, host, port)
    except OSError as err:  # the port in use, a host that is none
        await demo.close()
        raise CannotListen(host, port, err) from err
    try:
        where = f"[{host}]" if ":" in host else host  # an IPv6 address, as a URL writes it
        print(catalog.t("web.demo.serving", address=f"http://{where}:{port}/"), flush=True)
        await stopped.wait()
    finally:
        await runner.cleanup()
        await demo.close()


class CannotListen(Exception):
    """The demo's address could not be listened on: ``address`` and ``reason`` say why."""

    def __init__(self, host: str, port: int, err: OSError) -> None:
        super().__init__(f"{host}:{port}")
        self.address = f"[{host}]:{port}" if ":" in host else f"{host}:{port}"  # IPv6: [::1]
        # the system's words for the error (asyncio's bind error wraps them in its own)
        if err.errno is not None and not isinstance(err, socket.gaierror):
            self.reason = os.strerror(err.errno)
        else:
            self.reason = err.strerror or str(err)


def run(
    port: int,
    host: str = "127.0.0.1",
    pace: float = PACE,
    language: str = catalog.DEFAULT,
    stop_on: StopOn = stop_on_sigterm,
) -> int:
    """Serve the demo (:func:`serve`) until Ctrl-C or SIGTERM: exit status 0; 1: the
    address could not be listened on (said in one line)."""
    try:
        asyncio.run(serve(port, host, pace, language, stop_on))
    except KeyboardInterrupt:
        return 0
    except CannotListen as err:
        said = catalog.t("web.demo.cannot_listen", address=err.address, reason=err.reason)
        print(said, file=sys.stderr)
        return 1
    return 0
