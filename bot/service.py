"""Tables as the bot runs them, without Discord: the handlers every front end calls.

The Discord cogs and ``python -m bot.bench`` call these. Each checks who may act, asks the
engine to decide and change the state, commits through persistence, and returns what
happened. A refused request raises :class:`Refusal` with a message for the user and
changes nothing. One lock per table serialises everything done to it.
"""

from __future__ import annotations

import asyncio
import logging
import random
import secrets
from collections import deque
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol

from pydantic import ValidationError

from engine.errors import AmbiguousMoveError, IllegalMoveError, MoveError
from engine.game import Decision
from engine.stack.ai import GreedyPlayer, make_ai
from engine.stack.describe import move_words, turn_words
from engine.stack.moves import Move, Place, PlayerMove, Stack
from engine.stack.notation import parse_move
from engine.stack.render import render_round_scoring
from engine.stack.rules import HouseRules, TeamSizeError, rules_error, seat_teams
from engine.stack.state import StackState
from persistence import (
    AlreadySeated,
    InvalidSettings,
    StaleVersion,
    StorageError,
    Store,
    TableExists,
    TableFull,
    TableNotFound,
    WrongTableStatus,
)
from persistence.records import MAX_SEATS, TableInfo

log = logging.getLogger(__name__)
RECENT_INTERACTIONS = 256
TIMEOUTS_BEFORE_AI = 3


class Refusal(Exception):
    """A request refused with a message for the user; nothing was changed."""


@dataclass(frozen=True, slots=True)
class Player:
    """A Discord user as the service sees one."""

    id: int
    name: str


@dataclass(slots=True)
class LiveTable:
    """An active table in memory: its stored info, live state, lock and dice."""

    info: TableInfo
    state: StackState | None
    rng: random.Random
    version: int = 0  # the stored state version (the move log's length)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    recent: deque[str] = field(default_factory=lambda: deque(maxlen=RECENT_INTERACTIONS))
    last_move: str | None = None
    timer: Any = None  # the turn timer's handles, owned by the Discord layer

    @property
    def id(self) -> int:
        return self.info.id

    @property
    def channel_id(self) -> int:
        return self.info.channel_id

    def current_seat(self) -> int | None:
        return None if self.state is None else self.state.current

    def user_at(self, seat: int) -> int | None:
        """The Discord user of a seat still played by its human, else ``None``."""
        s = self.info.seats[seat]
        return None if s.is_ai else s.user_id


@dataclass(frozen=True, slots=True)
class Choice:
    """One option of a chooser: the move and its words."""

    move: PlayerMove
    label: str


@dataclass(slots=True)
class MoveOutcome:
    """What a move led to: the turns taken (the player's, then AI seats'), the rounds
    that ended, whether the game is over, and a chooser when the player must pick."""

    table: LiveTable
    turns: list[str] = field(default_factory=list)
    rounds_ended: list[int] = field(default_factory=list)
    round_scoring: dict[int, list[str]] = field(default_factory=dict)
    game_over: bool = False
    chooser: list[Choice] | None = None
    chooser_kind: Literal["ambiguous", "place"] | None = None
    duplicate: bool = False


class TurnClock(Protocol):
    """Told whenever a table's turn may have changed (the Discord layer runs timers)."""

    def turn_changed(self, live: LiveTable) -> None: ...

    def table_closed(self, live: LiveTable) -> None: ...


class NoClock:
    def turn_changed(self, live: LiveTable) -> None:
        return None

    def table_closed(self, live: LiveTable) -> None:
        return None


class TableService:
    """Every table the bot runs, by channel."""

    def __init__(self, store: Store, *, seed: int | None = None, clock: TurnClock | None = None):
        self.store = store
        self.clock: TurnClock = clock or NoClock()
        self.by_channel: dict[int, LiveTable] = {}
        self.by_id: dict[int, LiveTable] = {}
        self._seeds = random.Random(seed) if seed is not None else None
        self.hinter = GreedyPlayer()

    # ------------------------------------------------------------ registry

    def _rng(self) -> random.Random:
        if self._seeds is not None:
            return random.Random(self._seeds.getrandbits(64))
        return random.Random(secrets.randbits(64))

    def _track(self, info: TableInfo, state: StackState | None) -> LiveTable:
        live = self.by_id.get(info.id)
        if live is None:
            live = LiveTable(info, state, self._rng(), info.version)
        else:
            live.info, live.state, live.version = info, state, info.version
        if info.is_active:
            self.by_channel[info.channel_id] = live
            self.by_id[info.id] = live
        else:
            self._forget(live)
        return live

    def _forget(self, live: LiveTable) -> None:
        if self.by_channel.get(live.channel_id) is live:
            del self.by_channel[live.channel_id]
        self.by_id.pop(live.id, None)
        self.clock.table_closed(live)

    async def load(self) -> list[LiveTable]:
        """Load every active table from storage (at start-up)."""
        loaded = await self.store.load_active_tables()
        return [self._track(t.info, t.state) for t in loaded]

    def table_in(self, channel_id: int) -> LiveTable:
        live = self.by_channel.get(channel_id)
        if live is None:
            raise Refusal("There's no table in this channel. Start one with `/table new`.")
        return live

    def table_by_id(self, table_id: int) -> LiveTable:
        live = self.by_id.get(table_id)
        if live is None:
            raise Refusal("This table has ended. Start a new one with `/table new`.")
        return live

    # ------------------------------------------------------------ lobby

    async def new_table(
        self, guild_id: int, channel_id: int, host: Player, options: dict[str, Any]
    ) -> LiveTable:
        """Open a lobby with ``host`` seated; ``options`` override the house rules."""
        if channel_id in self.by_channel:
            raise Refusal("This channel already has a table. `/table show` brings it back.")
        settings = await self.store.guild_settings(guild_id, channel_id)
        chosen = {k: v for k, v in options.items() if v is not None}
        try:
            HouseRules.model_validate({**settings.effective.model_dump(), **chosen})
        except ValidationError as err:
            raise Refusal(f"That table can't be set up: {rules_error(err)}.") from None
        try:
            info = await self.store.create_table(guild_id, channel_id, host.id, host.name, chosen)
        except TableExists:
            raise Refusal(
                "This channel already has a table. `/table show` brings it back."
            ) from None
        except InvalidSettings as err:
            raise Refusal(str(err)) from None
        return self._track(info, None)

    def _lobby(self, channel_id: int) -> LiveTable:
        live = self.table_in(channel_id)
        if live.info.status != "lobby":
            raise Refusal("The game has already started; wait for the next one.")
        return live

    async def join(self, channel_id: int, player: Player) -> LiveTable:
        live = self.table_in(channel_id)
        async with live.lock:
            if live.info.seat_of(player.id) is not None:
                raise Refusal("You're already at this table.")
            self._lobby(channel_id)
            try:
                info = await self.store.join_table(live.id, player.id, player.name)
            except AlreadySeated:
                raise Refusal("You're already at this table.") from None
            except TableFull:
                raise Refusal(f"The table is full ({MAX_SEATS} players).") from None
            return self._track(info, None)

    async def add_ai(self, channel_id: int, player: Player, level: str = "greedy") -> LiveTable:
        live = self.table_in(channel_id)
        async with live.lock:
            self._lobby(channel_id)
            self._seated(live, player)
            try:
                info = await self.store.add_ai(live.id, level)
            except TableFull:
                raise Refusal(f"The table is full ({MAX_SEATS} players).") from None
            except InvalidSettings as err:
                raise Refusal(str(err)) from None
            return self._track(info, None)

    async def leave(self, channel_id: int, player: Player) -> tuple[LiveTable, str]:
        """Leave the table: from a lobby, or mid-game (an AI takes the seat)."""
        live = self.table_in(channel_id)
        async with live.lock:
            seat = self._seated(live, player)
            return await self._remove(live, seat, f"{player.name} left")

    async def kick(self, channel_id: int, actor: Player, target_id: int) -> tuple[LiveTable, str]:
        live = self.table_in(channel_id)
        async with live.lock:
            if actor.id != live.info.host_id:
                raise Refusal("Only the host can kick a player.")
            seat = live.info.seat_of(target_id)
            if seat is None or seat.is_ai:
                raise Refusal("That player isn't at this table.")
            if target_id == actor.id:
                raise Refusal("You can't kick yourself; use `/table leave`.")
            return await self._remove(live, seat.position, f"{seat.name} was removed by the host")

    async def _remove(self, live: LiveTable, position: int, why: str) -> tuple[LiveTable, str]:
        seat = live.info.seats[position]
        if live.info.status == "lobby":
            assert seat.user_id is not None
            info = await self.store.leave_lobby(live.id, seat.user_id)
            live = self._track(info, None)
            if info.status == "abandoned":
                return live, f"{why}; with nobody left, the table is closed."
            return live, f"{why}."
        info = await self.store.set_seat_ai(live.id, position, "greedy", left=True)
        live.info = info
        if not info.humans:
            await self._close(live, "abandoned")
            return live, f"{why}; with no human left, the table is closed."
        note = f"{why}; an AI plays their seat from now on."
        outcome = MoveOutcome(live)
        await self._run_ai(live, outcome)
        live.last_move = outcome.turns[-1] if outcome.turns else live.last_move
        return live, note

    async def start(self, channel_id: int, actor: Player) -> MoveOutcome:
        live = self.table_in(channel_id)
        async with live.lock:
            self._lobby(channel_id)
            if actor.id != live.info.host_id:
                raise Refusal("Only the host can start the game.")
            seats = live.info.seats
            if len(seats) < 2:
                raise Refusal(
                    "Stack needs at least 2 players: wait for someone to Join, or Add AI."
                )
            settings = await self.store.guild_settings(live.info.guild_id, live.channel_id)
            house = HouseRules.model_validate(
                {**settings.effective.model_dump(), **live.info.options}
            )
            lobby_names = [s.name for s in seats]
            try:
                names = seat_teams(lobby_names) if house.teams else tuple(lobby_names)
            except TeamSizeError as err:
                raise Refusal(str(err)) from None
            if len(set(names)) != len(names):
                raise Refusal("Two players share a name; one of them should change nickname.")
            order = [lobby_names.index(n) for n in names]
            rules = house.for_players(names)
            state = StackState(names, rules)
            opening = state.resolve_chance(live.rng)
            info = await self.store.start_table(live.id, order, state, opening)
            live = self._track(info, state)
            outcome = MoveOutcome(live)
            await self._run_ai(live, outcome)
            self.clock.turn_changed(live)
            return outcome

    async def end(self, channel_id: int, actor: Player, *, manager: bool) -> LiveTable:
        live = self.table_in(channel_id)
        async with live.lock:
            if actor.id != live.info.host_id and not manager:
                raise Refusal("Only the host or a server manager can end the table.")
            await self._close(live, "abandoned")
            return live

    async def _close(self, live: LiveTable, status: Literal["abandoned", "finished"]) -> None:
        try:
            live.info = await self.store.end_table(live.id, status)
        except WrongTableStatus:
            live.info = await self.store.table(live.id)
        self._forget(live)

    def _seated(self, live: LiveTable, player: Player) -> int:
        seat = live.info.seat_of(player.id)
        if seat is None:
            raise Refusal("You're not at this table. Press **Join** to sit down.")
        if seat.is_ai:
            raise Refusal("You left this game; an AI plays your seat now.")
        return seat.position

    # ------------------------------------------------------------ moves

    async def move(
        self,
        channel_id: int,
        player: Player,
        *,
        text: str | None = None,
        move: PlayerMove | None = None,
        table_id: int | None = None,
        version: int | None = None,
        interaction_id: str | None = None,
    ) -> MoveOutcome:
        """Play a move typed as ``text`` or given as ``move`` (from a button).

        ``table_id``/``version`` come from a button: a click on an outdated message is
        refused. A repeated ``interaction_id`` is applied once.
        """
        live = self.table_in(channel_id) if table_id is None else self.table_by_id(table_id)
        async with live.lock:
            if interaction_id is not None and interaction_id in live.recent:
                return MoveOutcome(live, duplicate=True)
            state = live.state
            if state is None:
                raise Refusal("The game hasn't started yet. The host presses **Start**.")
            seat = self._seated(live, player)
            if version is not None and version != live.version:
                raise Refusal(
                    "That button is from an older state of the table, so nothing was played. "
                    "Use the newest table message (or `/table show`)."
                )
            if state.is_over:
                raise Refusal("The game is over.")
            current = state.current
            if current is None:
                raise Refusal("The dice are rolling; try again in a moment.")
            if current != seat:
                raise Refusal(f"It's {state.name(current)}'s turn.")
            if move is None:
                try:
                    move = parse_move(state, text or "", seat)
                except AmbiguousMoveError as err:
                    outcome = MoveOutcome(live, chooser_kind="ambiguous")
                    outcome.chooser = [
                        Choice(m, _choice_label(state, m))
                        for m in err.candidates
                        if isinstance(m, Stack | Place)
                    ]
                    return outcome
                except MoveError as err:
                    raise Refusal(str(err)) from None
            elif not state.is_legal(move):
                try:
                    state.apply(move, by=seat)
                except IllegalMoveError as err:
                    raise Refusal(str(err)) from None
            if interaction_id is not None:
                live.recent.append(interaction_id)
            outcome = MoveOutcome(live)
            await self._play(live, seat, move, outcome, interaction_id=interaction_id)
            if state.decision is Decision.PLACE and state.current == seat:
                outcome.chooser_kind = "place"
                outcome.chooser = [Choice(m, _choice_label(state, m)) for m in state.legal_moves()]
                return outcome
            await self._run_ai(live, outcome)
            self.clock.turn_changed(live)
            return outcome

    async def auto_move(self, table_id: int, version: int) -> MoveOutcome | None:
        """The turn timer ran out: the greedy AI moves for the player (if nothing moved
        since ``version``). After too many timeouts in a row the seat becomes an AI seat."""
        live = self.by_id.get(table_id)
        if live is None:
            return None
        async with live.lock:
            state = live.state
            if state is None or state.is_over or live.version != version:
                return None
            seat = state.current
            if seat is None:
                return None
            outcome = MoveOutcome(live)
            info_seat = live.info.seats[seat]
            count = info_seat.timeouts + 1
            # one turn for the player: their move, and its placement if a reroll asks for one
            await self._play(live, seat, self.hinter.choose(state, live.rng), outcome, auto=True)
            if state.decision is Decision.PLACE and state.current == seat:
                move = self.hinter.choose(state, live.rng)
                await self._play(live, seat, move, outcome, auto=True)
            if count >= TIMEOUTS_BEFORE_AI:
                live.info = await self.store.set_seat_ai(live.id, seat, "greedy")
                outcome.turns.append(
                    f"{info_seat.name} let {TIMEOUTS_BEFORE_AI} turns in a row run out: "
                    "an AI plays their seat from now on."
                )
                if not live.info.humans:
                    await self._close(live, "abandoned")
                    outcome.turns.append("No human is left playing, so the table is closed.")
                    return outcome
            else:
                await self.store.set_timeouts(live.id, seat, count)
                live.info = await self.store.table(live.id)
            await self._run_ai(live, outcome)
            self.clock.turn_changed(live)
            return outcome

    async def _play(
        self,
        live: LiveTable,
        seat: int,
        move: PlayerMove,
        outcome: MoveOutcome,
        *,
        interaction_id: str | None = None,
        auto: bool = False,
    ) -> None:
        state = live.state
        assert state is not None
        rounds_before = len(state.round_scores)
        turns_before = _turn_count(state)
        state.apply(move, by=seat)
        if state.chance_kind == "roll":  # a reroll: its die is rolled before anything else
            step: list[Move] = [move, *_roll_one(state, live)]
        else:
            step = [move]
        if len(state.round_scores) > rounds_before:  # the field before the next round's dice
            outcome.round_scoring[len(state.round_scores)] = render_round_scoring(state)
        step += state.resolve_chance(live.rng)
        try:
            result = await self.store.record_move(
                live.id, live.version, step, state, interaction_id
            )
        except (StaleVersion, StorageError) as err:
            log.warning("table %s: move not stored (%s); reloading", live.id, err)
            await self._reload(live)
            raise Refusal(
                "That move could not be saved, so the table was reloaded; try again."
            ) from None
        if result.duplicate:
            await self._reload(live)
            outcome.duplicate = True
            return
        live.version = result.version
        if seat < len(live.info.seats) and live.info.seats[seat].timeouts and not auto:
            await self.store.set_timeouts(live.id, seat, 0)
            live.info = await self.store.table(live.id)
        if _turn_count(state) > turns_before:
            words = turn_words(state, _last_turn(state))
            if auto:
                words += " (automatic: the turn timer ran out)"
            outcome.turns.append(words)
            live.last_move = words
        outcome.rounds_ended.extend(range(rounds_before + 1, len(state.round_scores) + 1))
        if state.is_over:
            outcome.game_over = True
            live.info = await self.store.table(live.id)
            self._forget(live)

    async def _run_ai(self, live: LiveTable, outcome: MoveOutcome) -> None:
        """Let AI seats take their turns until a human is to move or the game ends."""
        state = live.state
        while state is not None and not state.is_over and state.current is not None:
            seat = live.info.seats[state.current]
            if not seat.is_ai:
                return
            ai = make_ai(seat.ai_level or "greedy")
            await self._play(live, state.current, ai.choose(state, live.rng), outcome)

    async def _reload(self, live: LiveTable) -> None:
        try:
            loaded = await self.store.load_table(live.id)
        except TableNotFound:
            self._forget(live)
            return
        self._track(loaded.info, loaded.state)

    # ------------------------------------------------------------ reading

    def hint(self, channel_id: int, player: Player) -> str:
        live = self.table_in(channel_id)
        state = live.state
        if state is None:
            raise Refusal("The game hasn't started yet.")
        seat = self._seated(live, player)
        if state.current != seat:
            current = state.current
            who = state.name(current) if current is not None else "nobody"
            raise Refusal(f"It's {who}'s turn; a hint waits for yours.")
        return self.hinter.best(state).reason

    def legal_choices(self, live: LiveTable, player: Player) -> list[Choice]:
        """The moves of the player to act, with their words (for the My turn panel)."""
        state = live.state
        if state is None:
            raise Refusal("The game hasn't started yet. The host presses **Start**.")
        seat = self._seated(live, player)
        if state.current != seat:
            current = state.current
            who = state.name(current) if current is not None else "nobody"
            raise Refusal(f"It's {who}'s turn.")
        return [Choice(m, _choice_label(state, m)) for m in state.legal_moves()]


def _roll_one(state: StackState, live: LiveTable) -> list[Move]:
    outcome = state.sample_chance(live.rng)
    state.apply(outcome)
    return [outcome]


def _turn_count(state: StackState) -> int:
    return sum(len(r["turns"]) for r in state.history)


def _last_turn(state: StackState) -> tuple[Any, ...]:
    for rnd in reversed(state.history):
        if rnd["turns"]:
            return tuple(rnd["turns"][-1])
    raise ValueError("no turn yet")


def _choice_label(state: StackState, move: PlayerMove) -> str:
    words = move_words(state, move)
    return words[0].upper() + words[1:]
