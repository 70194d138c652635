"""One step of a table: a move and what follows it without anyone choosing, played on a
copy of the table's committed state, with the words it owes the table."""

from __future__ import annotations

import contextvars
import logging
import random
from collections.abc import Callable
from typing import Any

from engine import flow
from engine.game import Event, Game, GameEnded, GameState, RoundEnded, TurnEnded
from host.live import TABLE, LiveTable, TurnLine
from host.thinking import Thinker
from persistence.records import Announcement

log = logging.getLogger(__name__)
STEP_LIMIT = 100_000  # moves one step may play without a human (a game that never waits)


def settle(
    game: Game[Any],
    state: GameState[Any],
    rng: random.Random,
    happened: Callable[[Event, int | None], None],
) -> list[Any]:
    """Play what the table plays without asking — chance outcomes (drawn from ``rng``) and
    the game's forced moves — through the table loop (:func:`engine.flow.settle`) until a
    player must decide or the game is over; each event goes to ``happened`` with the seat
    that played the move (``None`` for chance), as it happens. Returns the moves played."""

    def told(step: flow.Played) -> None:
        for event in step.events:
            happened(event, step.seat)

    return [step.move for step in flow.settle(game, state, rng, on_step=told, limit=STEP_LIMIT)]


class Step:
    """A player's move and what follows it, played under the table's lock on a copy of its
    committed state: the table shows it only once it is committed (a step that fails, or
    whose commit fails, leaves the table as it was)."""

    def __init__(
        self,
        live: LiveTable[Any],
        thinker: Thinker | None = None,
        *,
        state: Any = None,
        asker: contextvars.Context | None = None,
    ) -> None:
        if state is None:
            assert live.state is not None
            state = live.state.copy()
        self.live = live
        self.game = live.game
        self.state = state
        self.seats = live.info.seats  # as the step leaves them (a seat handed to an AI)
        self.thinker = thinker or Thinker("thread")
        self.moves: list[Any] = []
        self.turns: list[str] = []
        self.announcements: list[Announcement] = []
        self.ended: set[int] = set()  # seats whose turn ended in this step
        self.ending: str | None = None  # the game's end in words, when this step ended it
        self._auto: int | None = None  # the seat whose move the turn timer is playing
        # indices in ``moves`` of the timer's move and what the table played after it
        self.automatic: set[int] = set()
        self.owed = False  # an AI seat of a thinking level is to move: left for later
        # the context (the language) of the player who asked for the step, where it was
        # asked; with it, the first line the step says (else the game's end) is said again
        # in their language (``told_asker``): the answer only they read
        self.asker = asker
        self.told_asker: str | None = None

    def play(self, seat: int, move: Any, *, auto: bool = False) -> None:
        """Play ``seat``'s ``move`` (``auto``: the turn timer played it for them), then
        what the table plays without asking."""
        with self.live.speaking():
            self._play(seat, move, auto)

    def _play(self, seat: int, move: Any, auto: bool) -> None:
        self._auto = seat if auto else None
        first = len(self.moves)
        events = self.state.apply(move, by=seat)
        self.moves.append(move)
        said = self.game.decision_text(self.state, seat, move)
        if said is not None:
            self.turns.append(self._line(said, seat))
            self._tell_asker(lambda: self.game.decision_text(self.state, seat, move), seat)
        for event in events:
            self._happened(event, seat)
        self.moves += settle(self.game.game, self.state, self.live.rng, self._happened)
        if auto:  # stored with the moves, so that a replay words them alike
            self.automatic.update(range(first, len(self.moves)))
        self._auto = None

    def replay(self, move: Any, *, automatic: bool = False) -> None:
        """A logged move played again for its words (as loading plays it: the game says
        whose it is; ``automatic``: the turn timer played it, or the table played it after
        such a move); what it owes the channel was delivered when it was first played."""
        state = self.state
        seat = self.game.game.mover(state, move)
        if not automatic:
            self._auto = None
        elif seat is not None:
            self._auto = seat
        events = state.apply(move)
        if seat is not None:
            said = self.game.decision_text(state, seat, move)
            if said is not None:
                self.turns.append(self._line(said, seat))
        for event in events:
            self._happened(event, seat)

    def _happened(self, event: Event, by: int | None) -> None:
        """What an event owes the table message and the channel."""
        state, game = self.state, self.game
        if isinstance(event, TurnEnded):
            self.ended.add(event.seat)
            self.turns.append(TurnLine(self._line(game.turn_text(state, event), event.seat)))
            self._tell_asker(lambda: game.turn_text(state, event), event.seat)
        elif isinstance(event, RoundEnded):
            # one short message, before the next round's chance outcomes change the table
            text = game.round_text(state, event)
            if text is not None:
                self.announcements.append(Announcement("round", text, round_no=event.round_no))
        elif isinstance(event, GameEnded):  # the result, delivered with the game's chart
            texts = game.game_end_texts(state)
            for text in texts:
                self.announcements.append(Announcement("game", text))
            self.announcements.append(TABLE)
            self.ending = texts[0] if texts else None
            if not self.turns:  # a game ended by no turn (a resignation): told its end
                self._tell_asker(lambda: next(iter(game.game_end_texts(state)), None), line=False)

    def _tell_asker(
        self, words: Callable[[], str | None], seat: int | None = None, *, line: bool = True
    ) -> None:
        """The first thing the step says, said again in the asker's language (now: the
        state moves on); ``line``: a line of the turns, by ``seat`` (see :meth:`_line`)."""
        if self.asker is None or self.told_asker is not None:
            return
        said = self.asker.run(words)
        if said is not None:
            self.told_asker = self.asker.run(self._line, said, seat) if line else said

    def _line(self, words: str, seat: int | None) -> str:
        """A turn's ``words`` as the table shows them (the turn timer's, when it played
        ``seat``'s move)."""
        automatic = self._auto is not None and seat == self._auto
        return self.live.front.turn_line(words, automatic=automatic)

    async def run_ai(self, *, think: bool = True) -> None:
        """AI seats take their turns until a human is to move or the game ends. A level
        that searches for a while (the game's ``thinking_levels``) chooses in the
        thinker's worker, off the event loop (unless ``think`` is false: then the step
        stops before such a seat's turn, and notes it as ``owed``); the others choose
        here, at once. Call it under the table's lock (the step's state is uncommitted
        across the wait)."""
        state, seats, game = self.state, self.seats, self.game.game
        players: dict[str, Any] = {}
        while not state.is_over and (seat := state.current_player) is not None:
            if not seats[seat].is_ai:
                return
            level = seats[seat].ai_level or "greedy"
            if level in game.thinking_levels:
                if not think:
                    self.owed = True
                    return
                seed = self.live.rng.getrandbits(64)
                move, why = await self.thinker.choose(game, state, level, seed)
                if why is not None:
                    log.warning("table %s: seat %s played the hint: %s", self.live.id, seat, why)
            else:
                ai = players.get(level) or players.setdefault(level, game.make_ai(level))
                move = ai.choose(state, self.live.rng)
            self.play(seat, move)
