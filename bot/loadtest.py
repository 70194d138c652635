"""``python -m bot.loadtest``: what a move costs the real bot, measured where it is spent.

The real ``stackbot run`` (the discord.py client, its command tree, the views, the painter
worker; timers and pictures on, a SQLite file) runs in a process of its own against the
Discord stand-in of :mod:`bot.standin` on loopback: interactions reach the bot through the
gateway (zlib-stream), the bot answers them and edits its table messages over HTTP, as on
Discord. This process plays the members, open loop: over ``--tables`` tables of all three
games (mostly Stack; two members each), moves arrive at random at the offered rate, whatever
happened before. A member who moves reads whose turn it is off the table message, then

* taps: presses **My turn**, then one of the moves of the private panel it answers (a select
  is answered with its first options; a chooser leads to a further step, pressed too); or
* types (``--typed``, Stack tables): ``/reroll`` of one of the faces the table message shows
  them holding.

For each offered rate (``--rates``) it reports the achieved human moves/s; p50 and p99 from an
interaction's dispatch to its answer (every interaction: My turn, the taps and the typed
moves), and from a move's dispatch to the table message's edit showing it (the bot coalesces
a table's edits, so this includes that wait); the CPU time per human move of the bot process
and of its picture worker (``/proc``), and of this driver; the bot's REST calls per move.
Its last line, for the highest offered rate whose p99 (dispatch to answer) stays within
100 ms: ``real path: N moves/s, p99 X ms, Y ms CPU/move`` (Y: the bot process).

Members here cost the bot what members cost it on Discord, except the network: loopback
answers in well under a millisecond, and the stand-in never rate-limits. The driver shares
the machine's cores with the bot; its own CPU is printed beside the bot's.

``--quick`` runs it small (a few tables of each game, one short low rate): it checks that the
whole path works, not how fast. A tool: nothing at run time imports it.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import random
import re
import resource
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bot.bench_kit import arrive
from bot.standin import BOT_TOKEN, DiscordStandIn, Recorded
from engine import games

TARGET_P99_MS = 100.0
CHANNELS_PER_GUILD = 25
EDIT_WAIT = 5.0  # seconds a member waits to see the table message show the last move
ANSWER_WAIT = 15.0  # seconds an interaction may wait for its answer before it counts lost
TURN = re.compile(r"<@(\d+)>, it's your turn")
PANEL_ID = re.compile(r"^(?:stack:turn|panel):(\d+):(\d+)$")
MOVE_ID = re.compile(r"^(?:(?:stack:)?(?:move|pick):|stackup:\d+:\d+:m:)")
STEP_ID = re.compile(r"^(?:stackup|colorstack):\d+:\d+:s:")
MAX_STEPS = 6  # interactions a tapped move may take (My turn, steps, the move)
MESSAGE, DEFERRED_MESSAGE, DEFERRED_UPDATE, UPDATE = 4, 5, 6, 7  # interaction answers
EPHEMERAL = 64
CLK_TCK = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100


def walk(components: list[dict[str, Any]]) -> Iterator[dict[str, Any]]:
    """Every component of a message's tree (containers, rows, their items)."""
    for c in components:
        yield c
        yield from walk(c.get("components") or [])
        accessory = c.get("accessory")
        if accessory:
            yield accessory


def panel_version(body: Any) -> int | None:
    """The state version on a table message's **My turn** button (``None``: none on it)."""
    if not isinstance(body, dict):
        return None
    for c in walk(body.get("components") or []):
        m = PANEL_ID.match(str(c.get("custom_id") or ""))
        if m:
            return int(m[2])
    return None


def texts(message: dict[str, Any]) -> str:
    parts = [message.get("content") or ""]
    parts += [c.get("content") or "" for c in walk(message.get("components") or [])]
    return "\n".join(parts)


def pct(values: list[float], q: int) -> float:
    """The ``q``-th percentile of ``values`` (seconds), in ms."""
    if len(values) < 2:
        return values[0] * 1000 if values else float("nan")
    return statistics.quantiles(values, n=100)[q - 1] * 1000


def cpu_seconds(pid: int) -> float:
    """User and system CPU time of process ``pid`` so far (``/proc/PID/stat``)."""
    try:
        raw = Path(f"/proc/{pid}/stat").read_text()
    except OSError:
        return 0.0
    fields = raw[raw.rindex(")") + 2 :].split()
    return (int(fields[11]) + int(fields[12])) / CLK_TCK


def children_of(pid: int) -> list[int]:
    """The live child processes of ``pid`` (the picture worker of the bot)."""
    found: list[int] = []
    with contextlib.suppress(OSError):
        for task in os.listdir(f"/proc/{pid}/task"):
            with contextlib.suppress(OSError):
                text = Path(f"/proc/{pid}/task/{task}/children").read_text()
                found += [int(x) for x in text.split()]
    return found


@dataclass
class Table:
    game: str
    guild: dict[str, Any]
    channel: dict[str, Any]
    members: dict[str, dict[str, Any]]  # user id -> user
    message: dict[str, Any] | None = None  # the table message as last posted or edited
    version: int = -1  # the version on its My turn button
    waiting: list[tuple[int, float]] = field(default_factory=list)  # (version before, sent)
    edited: asyncio.Event = field(default_factory=asyncio.Event)  # set: nothing waits an edit
    games: int = 0


@dataclass
class Step:
    """What one offered rate measured."""

    answers: list[float] = field(default_factory=list)  # every interaction, s
    move_answers: list[float] = field(default_factory=list)  # taps and typed moves, s
    edits: list[float] = field(default_factory=list)  # move's dispatch -> table edit, s
    moves: int = 0  # human moves played
    by_game: dict[str, int] = field(default_factory=dict)  # of which, per game
    refused: int = 0
    lost: int = 0  # interactions not answered in time
    skipped: int = 0  # arrivals on a table where no member could move
    rest: int = 0  # REST calls the bot made
    channel_rest: int = 0  # of which on channel messages (posts, edits)
    routes: dict[str, int] = field(default_factory=dict)  # REST calls by method and route


class Members:
    """The simulated members of every table, and the stand-in they reach the bot through."""

    def __init__(self, discord_: DiscordStandIn, rng: random.Random, typed: float) -> None:
        self.d = discord_
        self.rng = rng
        self.typed = typed
        self.verbose = False
        self.tables: dict[int, Table] = {}  # channel id -> table
        self.answers: dict[str, asyncio.Future[Recorded]] = {}  # token -> its callback
        self.followups: dict[str, asyncio.Future[Recorded]] = {}  # token -> webhook call
        self.step = Step()
        discord_.observer = self.observe

    # ----------------------------------------------------------- what the bot sends

    def observe(self, r: Recorded) -> None:
        step = self.step
        step.rest += 1
        parts = r.path.strip("/").split("/")
        route = r.method + " " + "/".join(p if p.isalpha() else "#" for p in parts[:5])
        step.routes[route] = step.routes.get(route, 0) + 1
        if parts[0] == "interactions" and len(parts) >= 3:
            waiter = self.answers.pop(parts[2], None)
            if waiter is not None and not waiter.done():
                waiter.set_result(r)
            return
        if parts[0] == "webhooks" and len(parts) >= 3:
            token = parts[2]
            waiter = self.followups.get(token)
            if waiter is not None and not waiter.done():
                waiter.set_result(r)
            return
        if parts[0] != "channels" or len(parts) < 3 or parts[2] != "messages":
            return
        step.channel_rest += 1
        table = self.tables.get(int(parts[1]))
        if table is None or r.method not in ("POST", "PATCH"):
            return
        messages = self.d.messages.get(int(parts[1]), {})
        if r.method == "PATCH":
            message = messages.get(int(parts[3])) if len(parts) > 3 else None
        else:
            message = messages[max(messages)] if messages else None
        version = panel_version(r.body)
        if version is None:  # the table message offers no turn any more: the game is over
            shown = table.message
            if message is not None and shown is not None and message["id"] == shown["id"]:
                table.message, table.version, table.waiting = None, -1, []
                table.edited.set()
            return
        if message is None or version < table.version:
            return
        table.message, table.version = message, version
        kept = []
        for before, sent in table.waiting:
            if version > before:
                step.edits.append(r.at - sent)
            else:
                kept.append((before, sent))
        table.waiting = kept
        if not kept:
            table.edited.set()

    def add_table(self, game: str, guild: dict[str, Any], name: str, i: int = 0) -> Table:
        """A channel of ``guild`` where two members (``h<i>``, ``g<i>``) will play
        ``game`` (added before the guild is sent to the bot)."""
        channel = self.d.add_channel(guild, name, position=i)
        host, guest = self.d.user(f"h{i}"), self.d.user(f"g{i}")
        table = Table(game, guild, channel, {host["id"]: host, guest["id"]: guest})
        self.tables[int(channel["id"])] = table
        return table

    def said(self, answer: Recorded | None) -> None:
        """A refusal's words, with ``--verbose``."""
        if self.verbose and answer is not None:
            data = (answer.body or {}).get("data") or {}
            print(f"refused: {data.get('content')!r}", file=sys.stderr)

    # ----------------------------------------------------------- interactions

    async def send(self, table: Table, payload: dict[str, Any], *, move: bool) -> Recorded | None:
        """Dispatch one interaction and wait for its answer (the callback; a deferred one's
        follow-up is not waited for). ``None`` if none came in time."""
        loop = asyncio.get_running_loop()
        waiter: asyncio.Future[Recorded] = loop.create_future()
        self.answers[payload["token"]] = waiter
        self.followups[payload["token"]] = loop.create_future()  # a deferred answer's rest
        sent = time.monotonic()
        await self.d.dispatch("INTERACTION_CREATE", payload, guild_id=int(table.guild["id"]))
        try:
            async with asyncio.timeout(ANSWER_WAIT):  # no task per wait, as wait_for makes
                answer = await waiter
        except TimeoutError:
            self.answers.pop(payload["token"], None)
            self.step.lost += 1
            return None
        latency = answer.at - sent
        self.step.answers.append(latency)
        if move:
            self.step.move_answers.append(latency)
        return answer

    async def command(
        self, table: Table, user: dict[str, Any], name: str, options: list[dict[str, Any]]
    ) -> Recorded | None:
        payload = self.d.slash_command(table.guild, table.channel, user, name, options)
        return await self.send(table, payload, move=False)

    async def open(self, table: Table) -> None:
        """A new game at ``table``: the first member opens it, the second joins, the first
        starts it."""
        host, guest = list(table.members.values())
        options = [{"type": 3, "name": "game", "value": table.game}]
        await self.command(table, host, "table", [{"type": 1, "name": "new", "options": options}])
        await self.command(table, guest, "table", [{"type": 1, "name": "join", "options": []}])
        await self.command(table, host, "table", [{"type": 1, "name": "start", "options": []}])
        table.games += 1
        if table.message is None:  # the members wait to see the game on the table message
            table.edited.clear()
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(EDIT_WAIT):
                    await table.edited.wait()

    async def one_move(self, table: Table) -> None:
        if table.waiting:  # the member waits to see the last move on the table message
            with contextlib.suppress(TimeoutError):
                async with asyncio.timeout(EDIT_WAIT):
                    await table.edited.wait()
        message = table.message
        if message is None:
            await self.open(table)
            return
        m = TURN.search(texts(message))
        user = table.members.get(m[1]) if m else None
        if user is None:  # an AI's or nobody's turn (the game is over: a new one opens)
            if panel_version(message) is None or m is None:
                self.step.skipped += 1
            return
        version = table.version
        sent = time.monotonic()
        if table.game == "stack" and self.rng.random() < self.typed:
            played = await self.typed_move(table, user, message)
        else:
            played = await self.tapped_move(table, user, message)
        if played:
            self.step.moves += 1
            self.step.by_game[table.game] = self.step.by_game.get(table.game, 0) + 1
            table.waiting.append((version, sent))
            table.edited.clear()
        else:
            self.step.refused += 1

    async def typed_move(self, table: Table, user: dict[str, Any], message: dict[str, Any]) -> bool:
        """``/reroll`` of a face the table message shows the member holding."""
        lines = texts(message).splitlines()
        name = user["username"]
        faces: list[int] = []
        for i, line in enumerate(lines):
            if f"**{name}**" in line and i + 1 < len(lines) and "dice" in lines[i + 1]:
                held = lines[i + 1].split("dice", 1)[1].split("·")[0]
                faces = [int(x[0]) for x in held.split() if x[:1].isdigit()]
                break
        if not faces:
            return await self.tapped_move(table, user, message)
        options = [{"type": 4, "name": "die", "value": self.rng.choice(faces)}]
        payload = self.d.slash_command(table.guild, table.channel, user, "reroll", options)
        answer = await self.send(table, payload, move=True)
        if answer is None or not played(answer.body):
            self.said(answer)
            return False
        return True

    async def tapped_move(
        self, table: Table, user: dict[str, Any], message: dict[str, Any]
    ) -> bool:
        """**My turn**, then a move of the private panel it answers (through any steps the
        panel has: a chooser, a card, a piece)."""
        current = message
        panel = next((c for c in walk(message["components"]) if PANEL_ID.match(cid(c))), None)
        if panel is None:
            return False
        choice: dict[str, Any] = panel
        for step in range(MAX_STEPS):
            values = None
            if choice.get("type") == 3:  # a select: its first options
                wanted = max(1, int(choice.get("min_values") or 1))
                values = [o["value"] for o in choice.get("options", [])[:wanted]]
            payload = self.d.component(
                table.guild, table.channel, user, current, cid(choice), values
            )
            token = payload["token"]
            answer = await self.send(table, payload, move=step > 0)
            if answer is None:
                return False
            kind = int((answer.body or {}).get("type") or 0)
            data = (answer.body or {}).get("data") or {}
            if kind in (DEFERRED_MESSAGE, DEFERRED_UPDATE):  # the answer follows
                later = await self.later(token)
                if later is None:
                    return False
                data = later.body or {}
            if step > 0 and played({"data": data}):
                return True
            if step > 0 and int(data.get("flags") or 0) & EPHEMERAL and kind != UPDATE:
                self.said(answer)
                return False  # refused
            shown = self.d.responses.get(token) or []
            if not shown:
                return False
            current = shown[-1] if kind in (MESSAGE, DEFERRED_MESSAGE) else shown[0]
            choices = [c for c in walk(current.get("components") or []) if is_choice(c)]
            final = [c for c in choices if MOVE_ID.match(cid(c))]
            if not choices:
                if step == 0:
                    self.said(answer)
                return step > 0  # played: the panel says so and offers nothing more
            choice = self.rng.choice(final or choices)
        return False

    async def later(self, token: str) -> Recorded | None:
        """The follow-up (or edit of ``@original``) of a deferred answer."""
        waiter = self.followups.get(token)
        if waiter is None:
            return None
        try:
            async with asyncio.timeout(ANSWER_WAIT):
                return await waiter
        except TimeoutError:
            self.step.lost += 1
            return None
        finally:
            self.followups.pop(token, None)


def cid(component: dict[str, Any]) -> str:
    return str(component.get("custom_id") or "")


def is_choice(component: dict[str, Any]) -> bool:
    """A button or select of a private panel a member would use to move (not Back, not
    Resign: members here play their games out)."""
    if component.get("type") not in (2, 3) or component.get("disabled"):
        return False
    label = str(component.get("label") or component.get("placeholder") or "").lower()
    if "back" in label or "resign" in label:
        return False
    return bool(MOVE_ID.match(cid(component)) or STEP_ID.match(cid(component)))


def played(body: Any) -> bool:
    """Whether an interaction's answer says a move was played (its ✅ line)."""
    data = (body or {}).get("data") or {}
    return str(data.get("content") or "").startswith("✅")


def games_mix(spec: str, tables: int) -> list[str]:
    """``stack=0.8,stackup=0.1,colorstack=0.1`` over ``tables`` tables (at least one of each
    game named)."""
    shares = {k: float(v) for k, v in (p.split("=") for p in spec.split(","))}
    total = sum(shares.values())
    out = list(shares)[:tables]  # one of each game first
    for game, share in shares.items():
        out += [game] * max(0, round(tables * share / total) - 1)
    return (out + [out[0]] * tables)[:tables]


async def run(args: argparse.Namespace) -> list[dict[str, Any]]:
    rng = random.Random(args.seed)
    folder = Path(args.dir or tempfile.mkdtemp(prefix="stackbot-load-"))
    folder.mkdir(parents=True, exist_ok=True)
    results: list[dict[str, Any]] = []
    async with DiscordStandIn() as d:
        d.keep_requests = False
        members = Members(d, rng, args.typed)
        members.verbose = args.verbose
        mix = games_mix(args.mix, args.tables)
        guild = d.add_guild("Load 0")
        for i, game in enumerate(mix):
            if i and i % CHANNELS_PER_GUILD == 0:
                guild = d.add_guild(f"Load {i // CHANNELS_PER_GUILD}")
            members.add_table(game, guild, f"{game}-{i}", i)
        bot = await launch(d, folder)
        try:
            started = time.monotonic()
            gate = asyncio.Semaphore(16)

            async def opened(table: Table) -> None:
                async with gate:
                    await members.open(table)

            await asyncio.gather(*(opened(t) for t in members.tables.values()))
            print(
                f"{len(members.tables)} tables opened in {time.monotonic() - started:.1f} s "
                f"({', '.join(f'{mix.count(g)} {g}' for g in dict.fromkeys(mix))}); "
                f"bot pid {bot.pid}",
                flush=True,
            )
            if args.warmup > 0:
                await open_loop(members, args.rates[0], args.warmup, rng)
            for rate in args.rates:
                result = await measured(members, bot.pid, rate, args.seconds, rng)
                results.append(result)
                print(line(result), flush=True)
                if args.verbose:
                    routes = ", ".join(f"{k} {v:.2f}" for k, v in result["routes"].items())
                    print(f"  REST calls/move by route: {routes}", flush=True)
                if result["moves_s"] < 0.8 * rate or result["p99_ms"] > 10 * TARGET_P99_MS:
                    break  # saturated: higher rates only queue
        finally:
            await stop(bot)
    if args.dir is None:
        shutil.rmtree(folder, ignore_errors=True)
    return results


async def launch(d: DiscordStandIn, folder: Path, **settings: str) -> asyncio.subprocess.Process:
    """``stackbot run`` in a process of its own against the stand-in ``d`` (a SQLite file in
    ``folder``; ``settings``: more of its environment), once it is ready: connected, its
    commands synced (to the first guild, and seen by every guild as global ones)."""
    dev = next(iter(d.guilds))
    env = {k: v for k, v in os.environ.items() if k not in ("REDIS_URL", "HEALTH_PORT")}
    env.pop("NODE_NAME", None)
    env.update(
        DISCORD_TOKEN=BOT_TOKEN,
        DATABASE_URL=f"sqlite:///{folder / 'load.sqlite'}",
        DEV_GUILD_ID=str(dev),
        LOG_LEVEL="WARNING",
        PYTHONPATH=str(Path(__file__).resolve().parents[1]),
        **settings,
    )
    bot = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot.standin.child", d.url, "run", env=env, cwd=folder
    )
    try:
        await d.wait_for(
            lambda: (d.ready_sessions and d.commands.get(dev)) or bot.returncode is not None,
            timeout=120,
        )
        if bot.returncode is not None:
            raise RuntimeError(f"stackbot run ended at start-up (status {bot.returncode})")
    except BaseException:
        await stop(bot)
        raise
    d.commands[None] = [{k: v for k, v in c.items() if k != "guild_id"} for c in d.commands[dev]]
    return bot


async def stop(bot: asyncio.subprocess.Process) -> None:
    """SIGTERM to the bot (it stops cleanly), SIGKILL if it has not within 30 s."""
    if bot.returncode is None:
        bot.terminate()
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(bot.wait(), 30)
        if bot.returncode is None:
            bot.kill()
            await bot.wait()


async def open_loop(members: Members, rate: float, seconds: float, rng: random.Random) -> float:
    """Moves arrive at ``rate`` per second over every table (exponential gaps each); one at
    a time per table (a member answers the table as it is). The run's wall time."""
    tables = list(members.tables.values())
    mean_gap = len(tables) / rate
    stop = time.perf_counter() + seconds

    async def play(table: Table) -> None:
        arrivals: asyncio.Queue[float] = asyncio.Queue()

        async def worker() -> None:
            while await arrivals.get() >= 0:
                try:
                    await members.one_move(table)
                except Exception as err:  # a broken answer is counted, the run goes on
                    members.step.lost += 1
                    print(f"table {table.channel['name']}: {err!r}", file=sys.stderr)

        task = asyncio.create_task(worker())
        await arrive(arrivals, random.Random(rng.random()), mean_gap, stop)
        await task

    start = time.perf_counter()
    await asyncio.gather(*(play(t) for t in tables))
    return time.perf_counter() - start


async def measured(
    members: Members, pid: int, rate: float, seconds: float, rng: random.Random
) -> dict[str, Any]:
    step = members.step = Step()
    members.followups.clear()  # the last run's that were never deferred
    worker_pids = children_of(pid)
    bot0 = cpu_seconds(pid)
    workers0 = {w: cpu_seconds(w) for w in worker_pids}
    me0 = resource.getrusage(resource.RUSAGE_SELF)
    wall = await open_loop(members, rate, seconds, rng)
    bot1 = cpu_seconds(pid)
    workers1 = {w: cpu_seconds(w) for w in children_of(pid)}
    me1 = resource.getrusage(resource.RUSAGE_SELF)
    worker_cpu = sum(workers1[w] - workers0.get(w, 0.0) for w in workers1)
    me = (me1.ru_utime - me0.ru_utime) + (me1.ru_stime - me0.ru_stime)
    moves = max(step.moves, 1)
    return {
        "offered": rate,
        "moves_s": step.moves / wall,
        "moves": step.moves,
        "by_game": dict(step.by_game),
        "p50_ms": pct(step.answers, 50),
        "p99_ms": pct(step.answers, 99),
        "move_p99_ms": pct(step.move_answers, 99),
        "edit_p50_ms": pct(step.edits, 50),
        "edit_p99_ms": pct(step.edits, 99),
        "bot_ms": (bot1 - bot0) * 1000 / moves,
        "bot_busy": (bot1 - bot0) / wall,  # of one core
        "worker_ms": worker_cpu * 1000 / moves,
        "driver_ms": me * 1000 / moves,
        "rest": step.rest / moves,
        "channel_rest": step.channel_rest / moves,
        "routes": {k: v / moves for k, v in sorted(step.routes.items(), key=lambda kv: -kv[1])},
        "interactions": len(step.answers),
        "refused": step.refused,
        "lost": step.lost,
        "skipped": step.skipped,
    }


def line(r: dict[str, Any]) -> str:
    return (
        f"offered {r['offered']:,.0f}/s: {r['moves_s']:,.1f} moves/s ({r['moves']} moves, "
        f"{r['interactions']} interactions, {r['refused']} refused, {r['lost']} lost); "
        f"dispatch->answer p50 {r['p50_ms']:.1f} ms p99 {r['p99_ms']:.1f} ms (moves' p99 "
        f"{r['move_p99_ms']:.1f} ms); dispatch->table edit p50 {r['edit_p50_ms']:.0f} ms "
        f"p99 {r['edit_p99_ms']:.0f} ms; CPU/move: bot {r['bot_ms']:.2f} ms, picture worker "
        f"{r['worker_ms']:.2f} ms, driver {r['driver_ms']:.2f} ms (the bot used "
        f"{r['bot_busy']:.0%} of a core); REST calls/move "
        f"{r['rest']:.2f} ({r['channel_rest']:.2f} on channel messages)"
    )


def summary(results: list[dict[str, Any]]) -> str:
    held = [r for r in results if r["p99_ms"] <= TARGET_P99_MS and r["lost"] == 0]
    if not held:
        return f"real path: no offered rate held p99 <= {TARGET_P99_MS:.0f} ms"
    best = max(held, key=lambda r: r["offered"])
    return (
        f"real path: {best['moves_s']:,.0f} moves/s, p99 {best['p99_ms']:.1f} ms, "
        f"{best['bot_ms']:.2f} ms CPU/move"
    )


def _rates(text: str) -> list[float]:
    """``25,50,100``: the offered rates, each a positive number of moves a second."""
    try:
        rates = [float(x) for x in text.split(",")]
    except ValueError:
        rates = []
    if not rates or not all(0 < r < float("inf") for r in rates):
        raise argparse.ArgumentTypeError(f"positive moves a second, comma-separated, not {text!r}")
    return rates


def _refusal(args: argparse.Namespace) -> str | None:
    """What is wrong with the options, or None."""
    if args.tables < 1:
        return f"--tables is at least 1, not {args.tables}"
    if not 0 < args.seconds < float("inf") or not 0 <= args.warmup < float("inf"):
        return "--seconds is a positive number, --warmup one of at least 0"
    if not 0 <= args.typed <= 1:
        return f"--typed is a share of Stack moves, from 0 to 1, not {args.typed}"
    try:
        shares = dict(part.split("=") for part in args.mix.split(","))
        known = all(game in games.names() for game in shares)
        counted = all(0 <= float(share) < float("inf") for share in shares.values())
        # a total of no share, or too big a one to divide by (1e308 twice), weighs nothing
        weighed = 0 < sum(float(share) for share in shares.values()) < float("inf")
    except ValueError:
        known = counted = weighed = False
    if not (known and counted and weighed):
        return (
            f"--mix is game=share pairs, comma-separated, of {', '.join(games.names())}, "
            f"not {args.mix!r}"
        )
    return None


def main(argv: list[str] | None = None) -> list[dict[str, Any]]:
    parser = argparse.ArgumentParser(
        prog="python -m bot.loadtest", description="the real bot's interaction path under load"
    )
    parser.add_argument("--tables", type=int, default=1000)
    parser.add_argument(
        "--rates",
        type=_rates,
        default=[25.0, 50.0, 100.0, 200.0, 300.0, 400.0, 500.0],
        help="offered human moves/s, stepped up (comma-separated)",
    )
    parser.add_argument("--seconds", type=float, default=15.0, help="each offered rate's run")
    parser.add_argument("--warmup", type=float, default=5.0, help="seconds played unmeasured")
    parser.add_argument("--mix", default="stack=0.8,stackup=0.1,colorstack=0.1")
    parser.add_argument("--typed", type=float, default=0.2, help="share of Stack moves typed")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--dir", default=None, help="where the SQLite file goes (default: temp)")
    parser.add_argument("--verbose", action="store_true", help="print what was refused")
    parser.add_argument(
        "--quick", action="store_true", help="a few tables, one low rate: checks the path works"
    )
    args = parser.parse_args(argv)
    refusal = _refusal(args)
    if refusal:
        parser.error(refusal)
    if args.quick:
        args.tables, args.rates, args.seconds, args.warmup = 6, [4.0], 6.0, 0.0
    print(
        f"python -m bot.loadtest {' '.join(argv if argv is not None else sys.argv[1:])}".rstrip(),
        flush=True,
    )
    results = asyncio.run(run(args))
    print(summary(results))
    return results


if __name__ == "__main__":
    main()
