"""The interface through which the rest of the project talks to any game.

Each game is a package of :mod:`engine` with one :class:`Game` object (found by name in
:mod:`engine.games`) and a state class of the :class:`GameState` shape. The host (the bot,
the terminal, the benches, storage) only ever uses these two, so adding a game is one
package plus one Discord module; every hook a host reads is here, typed (the round scores
of the score sheet, the goal of the table's head, the forced moves), and every host
advances a game through the one table loop, :mod:`engine.flow`.

Learned from OpenSpiel's Python games (a chance node is an explicit decision, drawn from
an injected RNG, so a history of actions replays exactly) and boardgame.io (one reducer
applies any game's move and refuses with a typed reason; storage keeps an opaque state and
a log of moves).

A state is mutable, like python-chess's ``Board``: ``apply`` changes it in place and
returns what happened (:class:`Event` values), or raises
:class:`~engine.errors.IllegalMoveError` and changes nothing.
"""

from __future__ import annotations

import random
from collections.abc import Hashable, Sequence
from dataclasses import dataclass
from enum import Enum
from typing import Any, Generic, Protocol, Self, TypeVar

from pydantic import BaseModel

MoveT = TypeVar("MoveT", bound=Hashable)


class Decision(Enum):
    """What the game is waiting for."""

    TURN = "turn"  # the current player chooses a move
    CHANCE = "chance"  # a chance outcome is due (an RNG draws it, or a replay gives it)
    OVER = "over"  # the game has ended


# ---------------------------------------------------------------------------- events


@dataclass(frozen=True, slots=True)
class TurnEnded:
    """A player's turn is complete (``seat`` played it); the game's ``turn_words`` says
    what happened in words every player may see."""

    seat: int


@dataclass(frozen=True, slots=True)
class RoundEnded:
    """A round was scored (games played in rounds): ``round_no`` counts from 1."""

    round_no: int


@dataclass(frozen=True, slots=True)
class GameEnded:
    """The game is over: ``state.outcome()`` says who won."""


Event = TurnEnded | RoundEnded | GameEnded
NO_EVENTS: tuple[Event, ...] = ()


@dataclass(frozen=True, slots=True)
class Outcome:
    """How a finished game ended.

    ``winners`` are seats (several when they share the win; none for a draw); ``scores``
    is one figure per seat as the game's score sheet ends (Stack: the totals; Stack Up!:
    cards left in hand); ``higher_wins`` says which way the figure counts; ``ended_by`` is
    the game's word for how it ended (``"target"``, ``"empty_hand"``, ``"turn_limit"``, ``"repetition"``,
    ``"resignation"``…).
    """

    winners: tuple[int, ...]
    scores: tuple[int, ...]
    ended_by: str
    higher_wins: bool = True


@dataclass(frozen=True, slots=True)
class Goal:
    """What ends a game besides its play, for a table's header and its end: the score a
    player must reach (Stack's target) and the number of turns after which the game ends
    (Stack Up!'s and Color Stack's turn limit); ``None`` where the game has none."""

    target_score: int | None = None
    turn_limit: int | None = None


class SetupError(ValueError):
    """A table cannot start this way (seat count, names, teams); the message says why."""


# ---------------------------------------------------------------------------- state


class GameState(Protocol[MoveT]):
    """A game in progress: whose turn, what is legal, and how to move."""

    @property
    def players(self) -> tuple[str, ...]: ...

    @property
    def current_player(self) -> int | None: ...

    @property
    def decision(self) -> Decision: ...

    @property
    def is_over(self) -> bool: ...

    def legal_moves(self) -> Sequence[MoveT]: ...

    def is_legal(self, move: MoveT) -> bool: ...

    def check(self, move: MoveT, *, by: int | None = None) -> None:
        """Raise the :class:`~engine.errors.IllegalMoveError` that says why ``move`` (asked
        by seat ``by``) cannot be applied now; return when it can."""
        ...

    def apply(self, move: MoveT, *, by: int | None = None) -> Sequence[Event]:
        """Play a player's move or a chance outcome; returns what happened."""
        ...

    def sample_chance(self, rng: random.Random) -> MoveT:
        """The pending chance outcome, drawn from ``rng`` (not applied)."""
        ...

    def outcome(self) -> Outcome | None: ...

    def to_dict(self) -> dict[str, Any]: ...

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Self: ...

    def copy(self) -> Self:
        """An independent copy (a host plays a step on one, and keeps it once stored)."""
        ...


StateT = TypeVar("StateT", bound=GameState[Any])
StateT_contra = TypeVar("StateT_contra", bound=GameState[Any], contravariant=True)


class AIPlayer(Protocol[StateT_contra]):
    """Chooses a move for the seat to act."""

    level: str

    def choose(self, state: StateT_contra, rng: random.Random) -> Any: ...


# ---------------------------------------------------------------------------- game


class Game(Generic[StateT]):
    """One game, as every host sees it. A game subclasses this and fills every method.

    ``settings`` is the game's pydantic model of its table options (house rules): every
    field has a default, so ``settings()`` is a valid setting.
    """

    name: str  # registry key, stored with every table: "stack", "stackup"
    title: str  # what players read: "Stack", "Stack Up!"
    min_players: int
    max_players: int
    settings: type[BaseModel]
    ai_levels: tuple[str, ...] = ("random", "greedy")
    record_format: str  # the "format" of its game records
    # True: the game has forced moves (:meth:`automatic`); False: ``automatic`` is always
    # ``None`` and the table loop (:mod:`engine.flow`) does not ask
    forced_moves: bool = False
    higher_wins: bool = True  # how its outcome's scores count (Stack Up!: cards left, fewer)
    # True: a seat not to move may still make some moves (Color Stack's resignation), so a
    # host asks ``state.check(move, by=seat)`` instead of refusing whoever is not to move
    off_turn_moves: bool = False
    # AI levels that search for a while (Color Stack's ``expert``: about a second a move):
    # a host runs them off its event loop
    thinking_levels: tuple[str, ...] = ()

    # -- setting up
    def seat_order(self, names: Sequence[str], settings: BaseModel) -> tuple[str, ...]:
        """The seats in play order for players who sat down as ``names`` (teams may
        reorder them); raises :class:`SetupError` when they cannot play so."""
        names = tuple(names)
        if not self.min_players <= len(names) <= self.max_players:
            raise SetupError(
                f"{self.title} needs {self.min_players} to {self.max_players} players."
            )
        if len(set(names)) != len(names):
            raise SetupError("Two players share a name; one of them should change nickname.")
        return names

    def new_state(self, players: Sequence[str], settings: BaseModel) -> StateT:
        raise NotImplementedError

    def state_from_dict(self, data: dict[str, Any]) -> StateT:
        raise NotImplementedError

    def snapshot(self, state: StateT) -> dict[str, Any]:
        """The state as storage keeps it after every step (``state_from_dict`` restores a
        state that plays on identically); a game may leave out what its move log holds."""
        return state.to_dict()

    def holds_whole_game(self, state: StateT) -> bool:
        """Whether ``state`` holds everything :meth:`export_record` and
        :meth:`stats_figures` need (a restored compact snapshot may not: then the host
        replays the move log from the initial state)."""
        return True

    def automatic(self, state: StateT) -> Any | None:
        """The move the table plays now for the seat to act without asking (a forced turn:
        Stack Up!'s stuck turn or a take with no Crash in hand), else ``None``. The table
        loop (:mod:`engine.flow`) plays these, like chance outcomes, until a player must
        decide; it asks only a game with :attr:`forced_moves`. By default: none."""
        return None

    def mover(self, state: StateT, move: Any) -> int | None:
        """The seat that makes ``move`` now (``None``: a chance outcome): the seat to act,
        unless the game lets another make it (Color Stack's resignation, by either
        player at any time). What a log replayed names as a move's player."""
        return None if state.decision is Decision.CHANCE else state.current_player

    def before_turns(self, move: Any) -> bool:
        """Whether ``move`` is a decision taken once before the first turn and no turn of
        its own (Stack Up!'s direction, Color Stack's colours): a turn timer running out
        plays it alone, and the first turn gets its own clock. By default: none is."""
        return False

    # -- the score sheet and the header
    def round_scores(self, state: StateT) -> Sequence[Sequence[int]]:
        """The scores of every round ``state`` has finished, a figure per seat (Stack's
        score sheet): one row per :class:`RoundEnded` the game has returned; a game not
        played in rounds returns ``()``. Storage keeps them round by round."""
        raise NotImplementedError

    def goal(self, state: StateT) -> Goal:
        """The target score or turn limit of ``state``'s game (its rules and settings), for
        the table's header and the words of a draw at the turn limit."""
        raise NotImplementedError

    # -- moves
    def encode_move(self, move: Any) -> Any:
        """A move (or chance outcome) as a JSON value, for storage and button ids."""
        raise NotImplementedError

    def decode_move(self, data: Any) -> Any:
        raise NotImplementedError

    def parse_move(self, state: StateT, text: str, seat: int | None = None) -> Any:
        """The move typed as ``text`` by ``seat``; raises only
        :class:`~engine.errors.InvalidMoveError`, :class:`~engine.errors.IllegalMoveError`
        or :class:`~engine.errors.AmbiguousMoveError`."""
        raise NotImplementedError

    def move_notation(self, state: StateT, move: Any) -> str:
        """How a player would type ``move`` (``parse_move`` reads it back)."""
        raise NotImplementedError

    def move_words(self, state: StateT, move: Any) -> str:
        """A legal move in a player's words, for a button or a menu."""
        raise NotImplementedError

    def turn_words(self, state: StateT, event: TurnEnded) -> str:
        """The turn that just ended, in words every player may see (no hidden cards)."""
        raise NotImplementedError

    # -- players
    def make_ai(self, level: str) -> AIPlayer[StateT]:
        raise NotImplementedError

    def hint(self, state: StateT) -> tuple[Any, str]:
        """The greedy AI's move for the seat to act, and its reason."""
        raise NotImplementedError

    # -- records
    def export_record(self, state: StateT, meta: Any = None) -> dict[str, Any]:
        """The game as its record format writes it; ``meta`` (the table id, dates…) goes
        where the format has a place for it, else it is left out."""
        raise NotImplementedError

    def check_record(self, record: dict[str, Any]) -> dict[str, Any]:
        """The checker's JSON result, exactly as the game's record page specifies."""
        raise NotImplementedError

    def replay_record(self, record: dict[str, Any]) -> StateT:
        """The state a legal record leads to (raises ``ValueError`` for a wrong one)."""
        raise NotImplementedError

    # -- showing
    def render_text(self, state: StateT, viewer: int | None = None) -> str:
        """The table in plain text as seat ``viewer`` may see it (``None``: a spectator)."""
        raise NotImplementedError

    def rules_text(self) -> str:
        """The rules and the notation, briefly, in plain text."""
        raise NotImplementedError

    def outcome(self, state: StateT) -> Outcome | None:
        return state.outcome()

    def stats_figures(self, state: StateT, seat: int) -> dict[str, int]:
        """Game-specific figures of a finished game for one seat, added to the player's
        stats for this game: a key starting with ``best_`` keeps the highest value seen,
        every other key is summed."""
        return {}

    def sides(self, state: StateT) -> tuple[tuple[int, ...], ...]:
        """The seats that win or lose together (teams, as the state's rules set them),
        each side's seats in seat order, sides in the order of their first seat. By
        default every seat is a side of its own."""
        return tuple((seat,) for seat in range(len(state.players)))

    def __repr__(self) -> str:
        return f"<Game {self.name}>"
