"""One host conformance suite for every registered game, as the engine's is for the rules.

Random tables are played through :class:`host.service.TableService` for a front end that is
not Discord (:mod:`tests.host.plain`), on SQLite: a lobby (joins, AI seats of every level
that chooses at once, and the refusals of a lobby: the channel taken, a full table, a
player seated twice, a name taken, an unknown AI level, a start by another than the host
or with too few players), a start, random legal moves of the humans — by button (a move
and the table's version) and typed (the engine's notation), each with an interaction id —
interleaved with moves out of turn, illegal moves, stale buttons, unknown players and
repeated interaction ids, a player leaving mid-game, a restart from storage at a random
step (the store closed, a new service loading the table: it must be the table that was
live), and the game's end (or the host's).

After every request: nothing but a typed :class:`~host.refusals.Refusal` is raised; a
refusal changes nothing, live or stored; an accepted move advances the version, and
storage agrees with the live table — its info and seats, the state its snapshot loads and
the state its whole move log replays to, the outbox rows the step owed (each round's end,
the game's end, the host's notices), and once the game is over its result.
"""

from __future__ import annotations

import asyncio
import os
import random
import tempfile
from collections.abc import Awaitable
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from engine import games
from engine.game import Game, GameState
from host.live import LiveTable
from host.refusals import Refusal, Why
from host.service import TIMEOUTS_BEFORE_AI, MoveOutcome, Player, TableService
from host.thinking import Thinker
from host.words import Notice
from persistence import Store
from tests.host.plain import PlainFront, PlainGame

GUILD, CHANNEL = 11, 500
PLAYERS = tuple(Player(100 + i, f"p{i}") for i in range(8))
OUTSIDER = Player(999, "stranger")
# options that keep a game short (each move is a commit to a SQLite file)
SHORT: dict[str, dict[str, Any]] = {
    "stack": {"target_score": 25, "dice_per_player": 3},
    "stackup": {"turn_limit": 40},
    "colorstack": {"turn_limit": 40},
}
MAX_REQUESTS = 400  # then the host ends the table
NONSENSE = ("", "xyzzy", "0 0 0 0 0", "?!", "99 99")
FRONT = PlainFront()
Row = tuple[str, str, int | None]  # an outbox row: kind, words, round
# rolls of :meth:`Table.request`: a button, typed, a button pressed again, moves out of
# turn, an old button and nonsense, a restart, then again, and a player leaving
SCRIPT = (0.1, 0.5, 0.77, 0.82, 0.86, 0.99, 0.975, 0.96, 0.94, 0.1, 0.77, 0.82, 0.86, 0.89)
EVERY_REFUSAL = {
    Why.NO_TABLE,
    Why.TABLE_ENDED,
    Why.TABLE_EXISTS,
    Why.UNKNOWN_GAME,
    Why.BAD_SETTINGS,
    Why.ALREADY_STARTED,
    Why.ALREADY_SEATED,
    Why.NAME_TAKEN,
    Why.NO_SUCH_AI,
    Why.HOST_ONLY,
    Why.NOT_SEATED,
    Why.SEAT_LEFT,
    Why.TOO_FEW_PLAYERS,
    Why.NOT_YOUR_TURN,
    Why.STALE_PANEL,
    Why.KICK_SELF,
    Why.NOT_AT_TABLE,
}
# derandomized: CI plays the same 12 tables of each game every run (a new random table
# found three gaps in this suite's own expectations in one day; exploring is done by hand:
# HYPOTHESIS_EXPLORE=1 draws new ones)
EXAMPLES = settings(
    max_examples=12,
    deadline=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture],
    derandomize=not os.environ.get("HYPOTHESIS_EXPLORE"),
)


class QuickThinker(Thinker):
    """The seats of a thinking level (Color Stack's ``expert``, a search of a second a
    move) choose as the game's hint does, at once: what is tested is the host's path for
    them (their turn left owed after a player's move, then played off the table's lock
    by :meth:`~host.service.TableService.play_owed`, or at once at a start, a leave and a
    restart), not the search."""

    def __init__(self) -> None:
        super().__init__("thread")
        self.asked = 0

    async def choose(
        self, game: Game[Any], state: GameState[Any], level: str, seed: int
    ) -> tuple[Any, str | None]:
        assert level in game.thinking_levels
        self.asked += 1
        await asyncio.sleep(0)  # as the worker's answer: the loop runs meanwhile
        return game.hint(state)[0], None


class Table:
    """One table played through the host, checked after every request against what the
    host shows and what storage holds."""

    def __init__(
        self,
        url: str,
        name: str,
        rng: random.Random,
        *,
        humans: int | None = None,
        ais: tuple[str, ...] | None = None,
        script: tuple[float, ...] = (),
    ) -> None:
        self.humans_wanted = humans  # else drawn
        self.ais_wanted = ais  # the AI seats' levels, else drawn
        self.script = list(script)  # the first requests' rolls (see :meth:`request`)
        self.url = url
        self.name = name
        self.rng = rng
        self.front = FRONT.game(name)
        self.game: Game[Any] = self.front.game
        self.store: Store | None = None
        self.service: TableService[PlainGame] | None = None
        self.table_id: int | None = None
        self.rows: list[Row] = []  # the outbox as checked so far
        self.interactions: list[str] = []
        self.seen_moves: list[Any] = []  # legal once: some are not legal any more
        self.refusals: set[Why] = set()
        self.restarted = False
        self.left = False  # a player left mid-game
        self.owed = 0  # requests after which a thinking seat's turns were owed
        self.timeouts = 0  # turns the timer played
        self.to_ai = False  # a seat handed to an AI after too many timeouts
        self.ended = False  # the game's end was checked
        self._last: LiveTable[PlainGame] | None = None

    # ---------------------------------------------------------------- plumbing

    async def open(self) -> None:
        self.store = await Store.open(self.url)
        self.service = TableService(
            self.store, front=FRONT, seed=self.rng.getrandbits(32), thinker=QuickThinker()
        )

    async def close(self) -> None:
        if self.store is not None:
            await self.store.close()
            self.store = None

    @property
    def live(self) -> LiveTable[PlainGame]:
        assert self.service is not None and self.table_id is not None
        live = self.service.by_id.get(self.table_id) or self._last
        assert live is not None  # over or closed: forgotten by the host, kept by the test
        self._last = live
        return live

    @property
    def state(self) -> GameState[Any] | None:
        return self.live.state

    # ---------------------------------------------------------------- the checks

    async def picture(self) -> tuple[Any, ...]:
        """What the table is, live and stored, for a refusal to leave as it was."""
        assert self.store is not None
        live = self.live
        # as storage keeps it (a table read back from storage holds a compact state)
        state = None if live.state is None else self.game.snapshot(live.state)
        stored = await self.store.table(live.id)
        outbox = await self.store.pending_outbox(live.id)
        return (
            live.info.status,
            live.info.seats,
            live.info.host_id,
            live.version,
            state,
            list(live.turns),
            stored.status,
            stored.seats,
            stored.version,
            len(outbox),
        )

    async def refused(self, work: Awaitable[Any], *codes: Why) -> Refusal:
        """``work`` is refused with one of ``codes``, and nothing changed."""
        before = await self.picture() if self.table_id is not None else None
        try:
            await work
        except Refusal as refusal:
            assert refusal.code in codes, (refusal, codes)
            self.refusals.add(refusal.code)
            if before is not None:
                assert await self.picture() == before, refusal
            return refusal
        raise AssertionError(f"not refused (expected {codes})")

    async def check(
        self,
        *owed: tuple[str, str],
        then: tuple[tuple[str, str], ...] = (),
        interleaved: bool = False,
    ) -> None:
        """Storage holds what the host shows; the outbox rows added since the last check
        are ``owed`` (the host's notices), then those of the rounds and the game that
        ended meanwhile, then ``then`` (a table closed after them). ``interleaved``: the
        requests answered since ran at once, so their rows come in the order their commits
        took the table's lock: the same rows, each kind in its own order."""
        assert self.store is not None
        live, store = self.live, self.store
        stored = await store.table(live.id)
        assert stored.status == live.info.status
        assert stored.seats == live.info.seats
        assert stored.host_id == live.info.host_id
        assert stored.version == live.version == live.info.version
        state = live.state
        rounds: list[Row] = []
        over = False
        if state is not None:
            snapshot = self.game.snapshot(state)
            whole = await store.replay_log(live.id)  # the whole log, replayed
            assert self.game.snapshot(whole) == snapshot
            if self.game.holds_whole_game(state):
                assert whole.to_dict() == state.to_dict()
            if live.info.is_active:
                loaded = await store.load_table(live.id)  # the snapshot and the log after it
                assert self.game.snapshot(loaded.state) == snapshot
                assert loaded.info.version == live.version
            rows = self.game.round_scores(state)
            rounds = [("round", f"round {n}", n) for n in range(1, len(rows) + 1)]
            over = state.is_over
        outbox: list[Row] = [
            (i.kind, i.content, i.round_no) for i in await store.pending_outbox(live.id)
        ]
        assert outbox[: len(self.rows)] == self.rows, "an outbox row changed"
        added = outbox[len(self.rows) :]
        expected: list[Row] = [(kind, text, None) for kind, text in owed]
        expected += [r for r in rounds if r not in self.rows]
        if over and not self.ended:
            assert live.info.status == "finished"
            expected += [("game", "over", None), ("table", "", None)]
        expected += [(kind, text, None) for kind, text in then]
        if interleaved:
            assert sorted(added) == sorted(expected), (added, expected)
            for kind in {row[0] for row in expected}:
                mine = [row for row in added if row[0] == kind]
                assert mine == [row for row in expected if row[0] == kind], (added, expected)
        else:
            assert added == expected, (added, expected)
        self.rows = outbox
        if over and not self.ended:
            self.ended = True
            await self.check_result()

    async def check_result(self) -> None:
        """A finished game's result is stored: its score sheet and the channel's history."""
        assert self.store is not None
        state = self.live.state
        assert state is not None and state.is_over
        outcome = state.outcome()
        assert outcome is not None
        winners = tuple(state.players[s] for s in outcome.winners)
        sheet = await self.store.score_sheet(self.live.id)
        assert sheet.finished and sheet.names == state.players
        assert (sheet.winners or ()) == winners
        assert sheet.totals == outcome.scores
        history = await self.store.history(CHANNEL, game=self.name)
        assert [g.table_id for g in history] == [self.live.id]
        assert history[0].winners == winners and history[0].ended_by == outcome.ended_by

    # ---------------------------------------------------------------- the lobby

    async def lobby(self) -> None:
        """Open the table, seat humans and AI seats (with the lobby's refusals), start."""
        service, rng, game = self.service, self.rng, self.game
        assert service is not None
        host = PLAYERS[0]
        await self.refused(service.start(CHANNEL, host), Why.NO_TABLE)
        await self.refused(service.new_table(GUILD, CHANNEL, host, {}, game="go"), Why.UNKNOWN_GAME)
        whole = next(k for k, v in self.game.settings().model_dump().items() if type(v) is int)
        bad = {whole: "many"}
        await self.refused(
            service.new_table(GUILD, CHANNEL, host, bad, game=self.name), Why.BAD_SETTINGS
        )
        if rng.random() < 0.2:  # a lobby its only player leaves: closed, the channel free
            assert self.store is not None
            first = await service.new_table(GUILD, CHANNEL, host, {}, game=self.name)
            out = await service.leave(CHANNEL, host)
            assert out.closed and first.info.status == "abandoned"
            assert CHANNEL not in service.by_channel
            assert (await self.store.table(first.id)).status == "abandoned"
            assert await self.store.pending_outbox(first.id) == []
        options = {k: rng.randint(1, v) for k, v in SHORT[self.name].items()}
        live = await service.new_table(GUILD, CHANNEL, host, options, game=self.name)
        self.table_id = live.id
        assert live.info.status == "lobby" and live.state is None
        await self.check()
        await self.refused(service.new_table(GUILD, CHANNEL, PLAYERS[1], {}), Why.TABLE_EXISTS)
        await self.refused(service.join(CHANNEL, Player(1, host.name)), Why.NAME_TAKEN)
        most = game.max_players
        seats = rng.randint(game.min_players, min(most, 5))
        humans = self.humans_wanted or rng.randint(1, seats)
        if self.ais_wanted is not None:
            seats = humans + len(self.ais_wanted)
        levels = list(game.ai_levels)
        ais = [rng.choice(levels) for _ in range(seats - humans)]
        if rng.random() < 0.5:  # every level, as far as the seats go
            rng.shuffle(levels)
            ais[: len(levels)] = levels[: len(ais)]
        ais = list(self.ais_wanted) if self.ais_wanted is not None else ais
        await self.refused(service.start(CHANNEL, host), Why.TOO_FEW_PLAYERS)
        await self.refused(service.add_ai(CHANNEL, OUTSIDER, levels[0]), Why.NOT_SEATED)
        await self.refused(service.add_ai(CHANNEL, host, "grandmaster"), Why.NO_SUCH_AI)
        joiners = list(PLAYERS[1:humans])
        order: list[str | Player] = [*joiners, *ais]
        rng.shuffle(order)
        for who in order:
            if isinstance(who, Player):
                await service.join(CHANNEL, who)
                await self.refused(service.join(CHANNEL, who), Why.ALREADY_SEATED)
                taken = Player(who.id + 50, who.name)
                full = len(self.live.info.seats) >= most  # said before the name
                await self.refused(
                    service.join(CHANNEL, taken), Why.TABLE_FULL if full else Why.NAME_TAKEN
                )
                if rng.random() < 0.3:  # leaves the lobby, and comes back
                    out = await service.leave(CHANNEL, who)
                    assert not out.closed and not out.announced
                    await self.check()
                    await service.join(CHANNEL, who)
                await self.refused(service.start(CHANNEL, who), Why.HOST_ONLY)
            else:
                await service.add_ai(CHANNEL, rng.choice(self.humans()), who)
            await self.check()
        guests = [p for p in self.humans() if p != host]
        if guests and rng.random() < 0.3:  # the host leaves (their powers move on), and back
            out = await service.leave(CHANNEL, host)
            assert not out.closed and self.live.info.host_id != host.id
            await self.check()
            await self.refused(service.start(CHANNEL, host), Why.HOST_ONLY)
            await service.join(CHANNEL, host)
            host = self.player_of(self.live.info.host_id)
            await self.check()
        guests = [p for p in self.humans() if p != host]
        if guests and rng.random() < 0.3:  # the host kicks a guest, who comes back
            guest = rng.choice(guests)
            await self.refused(service.kick(CHANNEL, guest, host.id), Why.HOST_ONLY)
            out = await service.kick(CHANNEL, host, guest.id)
            assert not out.closed and self.live.info.seat_of(guest.id) is None
            await self.check()
            await service.join(CHANNEL, guest)
            await self.check()
        assert len(self.live.info.seats) == seats
        if seats == most:
            await self.refused(service.join(CHANNEL, OUTSIDER), Why.TABLE_FULL)
            await self.refused(service.add_ai(CHANNEL, host, levels[0]), Why.TABLE_FULL)
        elif seats < game.min_players:  # pragma: no cover - seats are drawn from the range
            raise AssertionError(seats)
        started = await service.start(CHANNEL, host)
        assert started.note.startswith("start: ") and started.announced
        assert self.state is not None
        await self.check(("message", started.note))  # who begins: owed to the channel
        if self.live.info.status == "finished":  # the AI seats' first turns ended it
            return
        assert self.live.info.status == "playing"
        await self.refused(service.join(CHANNEL, OUTSIDER), Why.ALREADY_STARTED)
        await self.refused(service.add_ai(CHANNEL, host, levels[0]), Why.ALREADY_STARTED)
        await self.refused(service.start(CHANNEL, host), Why.ALREADY_STARTED)

    # ---------------------------------------------------------------- the game

    def humans(self) -> list[Player]:
        seated = {s.user_id for s in self.live.info.humans}
        return [p for p in PLAYERS if p.id in seated]

    def player_of(self, user: int) -> Player:
        return next(p for p in PLAYERS if p.id == user)

    async def accepted(self, outcome: MoveOutcome, version: int) -> None:
        """A move the host took: the version moved on, and storage agrees. The turns of
        a thinking AI seat are left owed, and played (:meth:`TableService.play_owed`)
        once the player is answered, each committed on its own."""
        assert not outcome.duplicate
        assert self.live.version > version
        await self.check()
        await self.play_owed(outcome)

    async def play_owed(self, outcome: MoveOutcome, *, raced: bool = False) -> None:
        """What the front end does once it answered: the thinking seats' owed turns
        (``raced``: a request answered meanwhile, a leave, may have played them first)."""
        if outcome.ai_owed:
            assert self.service is not None
            assert any(s.ai_level in self.game.thinking_levels for s in self.live.info.seats)
            if not self.restarted and self.rng.random() < 0.3:  # a crash before they played
                await self.restart(owed=True)
                return
            version = self.live.version
            owed = await self.service.play_owed(self.live.id, version)
            if owed is None and raced:  # played by the leave's step: a human is to move
                assert self.live.current_user() is not None or not self.live.info.is_active
                await self.check()
                return
            self.owed += 1
            assert owed is not None and self.live.version > version
            await self.check()

    async def request(self) -> None:
        """One random request of a player, or of the host's; checked."""
        service, rng, live = self.service, self.rng, self.live
        assert service is not None
        state = live.state
        assert state is not None and live.info.is_active
        user = live.current_user()
        assert user is not None, "a table between requests waits for a human"
        mover = self.player_of(user)
        others = [p for p in self.humans() if p != mover]
        version = live.version
        legal = list(state.legal_moves())
        self.seen_moves += legal
        roll = self.script.pop(0) if self.script else rng.random()
        if roll < 0.45:  # a button: the move and the table's version
            move = rng.choice(legal)
            interaction = f"i{len(self.interactions)}"
            self.interactions.append(interaction)
            out = await service.move(
                CHANNEL,
                mover,
                move=move,
                table_id=live.id,
                version=version,
                interaction_id=interaction,
            )
            await self.accepted(out, version)
        elif roll < 0.75:  # typed, in the engine's notation (perhaps ambiguous)
            move = rng.choice(legal)
            text = self.game.move_notation(state, move)
            before = await self.picture()
            out = await service.move(CHANNEL, mover, text=text)
            if out.chooser is not None:  # the player picks among the moves it may mean
                assert await self.picture() == before
                assert move in out.chooser.moves and out.chooser.version == version
                assert all(state.is_legal(m) for m in out.chooser.moves)
                out = await service.move(CHANNEL, mover, move=move, version=version)
            await self.accepted(out, version)
        elif roll < 0.80 and self.interactions:  # a button pressed twice: played once
            before = await self.picture()
            again = rng.choice(self.interactions)
            out = await service.move(CHANNEL, mover, move=legal[0], interaction_id=again)
            assert out.duplicate
            assert await self.picture() == before
        elif roll < 0.84 and others:  # out of turn
            offturn = (Why.NOT_YOUR_TURN, Why.ILLEGAL_MOVE)
            await self.refused(service.move(CHANNEL, rng.choice(others), move=legal[0]), *offturn)
            text = self.game.move_notation(state, legal[0])
            await self.refused(service.move(CHANNEL, rng.choice(others), text=text), *offturn)
            await self.refused(service.hint(CHANNEL, rng.choice(others)), Why.NOT_YOUR_TURN)
        elif roll < 0.88:  # an old button, nonsense typed, a stranger, a hint
            stale = service.move(CHANNEL, mover, move=legal[0], version=version - 1)
            await self.refused(stale, Why.STALE_PANEL)
            old = [m for m in self.seen_moves if not state.is_legal(m)]
            if old:
                bad = service.move(CHANNEL, mover, move=rng.choice(old), version=version)
                await self.refused(bad, Why.NOT_NOW, Why.ILLEGAL_MOVE)
            before = await self.picture()
            try:
                out = await service.move(CHANNEL, mover, text=rng.choice(NONSENSE))
            except Refusal as refusal:
                assert refusal.code is Why.ILLEGAL_MOVE, refusal
            else:  # nonsense that reads as several moves: a chooser, nothing played
                assert out.chooser is not None and not out.turns
            assert await self.picture() == before
            await self.refused(service.move(CHANNEL, OUTSIDER, move=legal[0]), Why.NOT_SEATED)
            assert await service.hint(CHANNEL, mover)
            assert await self.picture() == before
        elif roll < 0.90 and others:  # a player leaves mid-game: an AI takes the seat
            leaver = rng.choice([mover, *others])
            humans_left = len(self.humans()) - 1
            out = await service.leave(CHANNEL, leaver)
            self.left = True
            assert live.info.seats[live.info.seat_of(leaver.id).position].is_ai  # type: ignore[union-attr]
            assert humans_left > 0 and not out.closed
            await self.check(("message", out.note))
            if live.info.is_active:
                await self.refused(service.move(CHANNEL, leaver, move=legal[0]), Why.SEAT_LEFT)
            else:  # the AI seats' turns that followed ended the game
                await self.refused(service.move(CHANNEL, leaver, move=legal[0]), Why.NO_TABLE)
        elif roll < 0.91 and not others:  # the last human leaves: the table closes
            out = await service.leave(CHANNEL, mover)
            assert out.closed and live.info.status == "abandoned"
            await self.check(("message", out.note), ("table", ""))
        elif roll < 0.915:  # the host ends the table (another may not)
            host = self.player_of(live.info.host_id)
            guest = next((p for p in self.humans() if p != host), OUTSIDER)
            await self.refused(service.end(CHANNEL, guest, manager=False), Why.HOST_ONLY)
            out = await service.end(CHANNEL, host, manager=False)
            assert out.closed and live.info.status == "abandoned"
            await self.check(("message", out.note), ("table", ""))
        elif roll < 0.95:
            if not self.restarted:
                await self.restart()
            elif others:  # the mover's button twice at once, and a leave meanwhile
                await self.at_once(mover, others[0], legal)
        elif roll < 0.97:  # the turn timer runs out (perhaps until an AI takes the seat)
            await self.timer(user, until_ai=roll < 0.955)
        elif roll < 0.98:  # the host's kick (and the refused ones)
            await self.kick(mover)
        elif roll < 0.985:  # the game goes idle: it expires
            assert await service.expire(live.id, service.now()) is None  # not idle yet
            expired = await service.expire(live.id, service.now() + timedelta(days=400))
            assert expired is not None and expired.closed and live.info.status == "abandoned"
            await self.check(("message", expired.note), ("table", ""))
        else:  # what the panels read: the choices, the seat
            before = await self.picture()
            choices = await service.legal_choices(live, mover)
            assert [c.move for c in choices] == legal and all(c.label for c in choices)
            assert await service.seat_of(live, mover) == state.current_player
            for other in others:
                await self.refused(service.legal_choices(live, other), Why.NOT_YOUR_TURN)
            await self.refused(service.seat_of(live, OUTSIDER), Why.NOT_SEATED)
            assert await self.picture() == before

    async def at_once(self, mover: Player, other: Player, legal: list[Any]) -> None:
        """Requests at the same time: two presses of the mover's buttons of one version
        (one is played, the other refused as stale), the other player's move out of turn,
        and the other leaving; each is answered as it would be alone, in some order."""
        service, live = self.service, self.live
        assert service is not None
        version = live.version
        presses = [
            service.move(CHANNEL, mover, move=self.rng.choice(legal), version=version)
            for _ in range(2)
        ]
        late = service.move(CHANNEL, other, move=legal[0], version=version)
        done = await asyncio.gather(
            *presses, late, service.leave(CHANNEL, other), return_exceptions=True
        )
        for result in done:
            if isinstance(result, BaseException) and not isinstance(result, Refusal):
                raise result
        first, second, third, left = done
        moved = [r for r in (first, second) if isinstance(r, MoveOutcome)]
        assert len(moved) == 1, done
        refused = first if isinstance(second, MoveOutcome) else second
        assert isinstance(refused, Refusal) and refused.code in (
            Why.STALE_PANEL,
            Why.TABLE_ENDED,
        ), done
        assert isinstance(third, Refusal) and third.code in (
            Why.NOT_YOUR_TURN,
            Why.ILLEGAL_MOVE,
            Why.STALE_PANEL,
            Why.SEAT_LEFT,
            Why.TABLE_ENDED,
        ), done
        if isinstance(left, Refusal):
            # the press that was played ended the game first: there is no seat to leave
            assert moved[0].game_over and left.code is Why.TABLE_ENDED, done
            await self.check()
            return
        self.left = True
        assert isinstance(left, MoveOutcome), done
        await self.check(("message", left.note), interleaved=True)
        await self.play_owed(moved[0], raced=True)

    async def timer(self, user: int, *, until_ai: bool) -> None:
        """The turn timer plays the hint for the player (``auto_move``); after
        ``TIMEOUTS_BEFORE_AI`` in a row an AI takes the seat, and with no human left the
        table closes."""
        service, live = self.service, self.live
        assert service is not None
        player = self.player_of(user)
        for _ in range(TIMEOUTS_BEFORE_AI):
            version = live.version
            seat = live.info.seat_of(user)
            assert seat is not None
            humans = len(live.info.humans)
            assert await service.auto_move(live.id, version - 1) is None  # an old timer
            out = await service.auto_move(live.id, version)
            assert out is not None and live.version > version
            assert live.info.seats[seat.position].timeouts == seat.timeouts + 1
            self.timeouts += 1
            if seat.timeouts + 1 < TIMEOUTS_BEFORE_AI:
                assert not live.info.seats[seat.position].is_ai
                await self.check()
                await self.play_owed(out)
            else:
                self.to_ai = True
                assert live.info.seats[seat.position].ai_level == "greedy"
                said = {"name": player.name, "count": TIMEOUTS_BEFORE_AI}
                words = FRONT.notice(Notice.TIMED_OUT_TO_AI, said)
                if humans == 1 and live.info.status == "abandoned":
                    # the last human's: one message says it and the table's closing
                    gone = FRONT.notice(Notice.NO_HUMAN_PLAYING, said)
                    assert out.closed and words not in out.turns and gone in out.turns
                    await self.check(then=(("message", gone), ("table", "")))
                else:
                    assert words in out.turns
                    await self.check(("message", words))
                    await self.play_owed(out)
                return
            if not until_ai or not live.info.is_active or live.current_user() != user:
                return

    async def kick(self, mover: Player) -> None:
        """The host removes a player mid-game (an AI takes the seat); nobody else may, nor
        kick themself or someone not seated."""
        service, live = self.service, self.live
        assert service is not None
        host = self.player_of(live.info.host_id)
        guests = [p for p in self.humans() if p != host]
        await self.refused(
            service.kick(CHANNEL, guests[0] if guests else OUTSIDER, host.id), Why.HOST_ONLY
        )
        await self.refused(service.kick(CHANNEL, host, host.id), Why.KICK_SELF)
        await self.refused(service.kick(CHANNEL, host, OUTSIDER.id), Why.NOT_AT_TABLE)
        if guests and self.rng.random() < 0.5:
            target = self.rng.choice(guests)
            out = await service.kick(CHANNEL, host, target.id)
            self.left = True
            seat = live.info.seat_of(target.id)
            assert seat is not None and seat.is_ai and not out.closed
            await self.check(("message", out.note))
            if live.info.is_active:
                await self.refused(service.kick(CHANNEL, host, target.id), Why.NOT_AT_TABLE)

    async def restart(self, *, owed: bool = False) -> None:
        """The store is closed and a new service loads the table: the table it was (and,
        when AI seats ``owed`` turns, which loading plays, that table moved on)."""
        self.restarted = True
        old = self.live
        await self.close()
        await self.open()
        assert self.service is not None and self.store is not None
        loaded = await self.service.load()
        if owed:
            stored = await self.store.load_table(old.id)
            assert stored.info.version > old.version  # the AI seats played at start-up
            if not loaded:  # and ended the game
                assert stored.info.status == "finished"
                self._last = LiveTable(
                    stored.info, stored.state, random.Random(0), FRONT, stored.info.version
                )
            else:
                self._last = loaded[0]
                assert self._last.current_user() is not None
            await self.check()
            return
        assert [t.id for t in loaded] == [old.id]
        live = loaded[0]
        assert live.state is not None and old.state is not None
        assert live.info.seats == old.info.seats and live.info.host_id == old.info.host_id
        assert live.version == old.version and live.info.status == old.info.status
        assert self.game.snapshot(live.state) == self.game.snapshot(old.state)
        if self.game.holds_whole_game(live.state):
            assert live.state.to_dict() == old.state.to_dict()
        # the recent turns, rebuilt from the log: the same, the turn timer's moves marked
        # as such (the log says which they were), but for the notice of a seat handed to
        # an AI after its timeouts
        mine, theirs = list(live.turns), recalled(old.turns)
        n = min(len(mine), len(theirs))
        assert mine[len(mine) - n :] == theirs[len(theirs) - n :] and (n > 0) == bool(theirs)
        if not self.timeouts:
            assert list(live.turns) == list(old.turns)
        assert live.current_user() == old.current_user()
        self._last = live
        await self.check()
        if self.interactions:  # an interaction from before the restart: played once
            before = await self.picture()
            state = live.state
            user = live.current_user()
            assert user is not None
            move = state.legal_moves()[0]
            again = self.service.move(
                CHANNEL, self.player_of(user), move=move, interaction_id=self.interactions[0]
            )
            assert (await again).duplicate
            assert await self.picture() == before

    async def play(self) -> None:
        await self.lobby()
        for _ in range(MAX_REQUESTS):
            if not self.live.info.is_active:
                break
            await self.request()
        service = self.service  # a new one after a restart
        assert service is not None
        if self.live.info.is_active:  # a long game: the host ends it
            host = self.player_of(self.live.info.host_id)
            out = await service.end(CHANNEL, host, manager=False)
            await self.check(("message", out.note), ("table", ""))
        live = self.live
        assert live.id not in service.by_id and CHANNEL not in service.by_channel
        assert live.info.status in ("finished", "abandoned")
        await self.refused(service.move(CHANNEL, PLAYERS[0], text="x"), Why.NO_TABLE)
        await self.refused(
            service.move(CHANNEL, PLAYERS[0], move=None, table_id=live.id), Why.TABLE_ENDED
        )


def recalled(turns: Any) -> list[str]:
    """Recent turns as a restart recalls them: the plain front end's turn lines (with the
    turn timer's mark), without the notices."""
    return [t for t in turns if t.startswith("[")]


async def play_table(name: str, seed: int, **how: Any) -> Table:
    with tempfile.TemporaryDirectory() as tmp:
        url = f"sqlite+aiosqlite:///{Path(tmp) / 'host.db'}"
        table = Table(url, name, random.Random(seed), **how)
        await table.open()
        try:
            await table.play()
        finally:
            await table.close()
    return table


@pytest.mark.parametrize("name", games.names())
@EXAMPLES
@given(seed=st.integers(0, 2**32))
def test_random_tables_through_the_host_refuse_only_by_code_and_store_what_they_show(
    name: str, seed: int
) -> None:
    asyncio.run(play_table(name, seed))


@pytest.mark.parametrize("name", games.names())
def test_a_long_table_meets_every_refusal_and_a_restart(name: str) -> None:
    """One table played with more of every request, so that each kind is met at least
    once for every game (the random examples may miss some)."""
    table = asyncio.run(play_table(name, 20261126, humans=2, script=SCRIPT))
    assert table.restarted and table.left
    assert table.refusals >= EVERY_REFUSAL, EVERY_REFUSAL - table.refusals


@pytest.mark.parametrize("name", [n for n in games.names() if games.get(n).thinking_levels])
def test_a_thinking_seat_s_turns_are_owed_then_played_and_stored(name: str) -> None:
    """A seat of a level that searches: its turns after a player's move are left owed and
    played by ``play_owed`` (each commit checked as every other), and at a restart."""
    game = games.get(name)
    level = game.thinking_levels[0]
    ais = (level,) * (game.min_players - 1)
    script = (0.1, 0.5, 0.94, 0.1, 0.5)
    table = asyncio.run(play_table(name, 7, humans=1, ais=ais, script=script))
    assert table.restarted and table.owed >= 2
