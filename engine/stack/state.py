"""The state of a game of Stack, following ``docs/stack-rules.md`` to the letter.

The field is kept as counts of piles by (top owner, face, height) — all that matters for
play and scoring — plus, for each pile of two or three dice, which colours it holds, so
that dice can be accounted for. Piles that agree on top owner, face and height are
interchangeable for the rest of a round.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from enum import Enum
from math import floor
from typing import Any, Final, Self

from engine.errors import IllegalMoveError, IllegalReason, Target
from engine.game import NO_EVENTS, Decision, Event, GameEnded, Outcome, RoundEnded, TurnEnded
from engine.native import BLANK
from engine.rating import NoMoveError
from engine.stack.moves import (
    FACES,
    PLACES,
    REROLLS,
    ROLLS,
    STACKS,
    Move,
    Place,
    PlayerMove,
    Reroll,
    Roll,
    RollOff,
    RoundDice,
    Stack,
    face_value,
    rolloff_rank,
)
from engine.stack.rules import MAX_PLAYERS, MIN_PLAYERS, StackRules, teams_adjacent

STATE_FORMAT = 1


class Phase(Enum):
    """Where a game of Stack stands. Placing a rerolled die is Stack's own step: to every
    host it is an ordinary turn (:attr:`Decision.TURN`) whose legal moves are placements."""

    TURN = "turn"
    PLACE = "place"  # the player to act places a rerolled die that has several targets
    CHANCE = "chance"
    OVER = "over"


# The field's piles by (face, top owner, height) are numbered ``face << 5 | owner << 2 |
# height``: a pile's number within its face (``owner << 2 | height``) is its *key*.
_STACK_AT: Final[list[Stack]] = [
    STACKS.get((i >> 5, (i >> 2) & 7, i & 3)) or Stack(i >> 5, (i >> 2) & 7, i & 3)
    for i in range(7 << 5)
]  # the interned Stack onto pile i (those of height 0 and face 0 are never legal)
_PLACE_AT: Final[list[Place]] = [
    PLACES.get((k >> 2, k & 3)) or Place(k >> 2, k & 3) for k in range(32)
]  # the interned Place onto the pile of key k
# a stack's turn log ("stack", player, face, owner, height) by player << 8 | the number of
# the pile it went on (made at import: a turn logs a shared tuple, not a new one)
_STACK_LOG: Final[list[tuple[Any, ...]]] = [
    ("stack", i >> 8, (i >> 5) & 7, (i >> 2) & 7, i & 3) for i in range(8 << 8)
]
# the same by player, then by the number of the pile it went on (a list a seat)
_STACK_LOG_OF: Final[list[list[tuple[Any, ...]]]] = [
    _STACK_LOG[p << 8 : (p + 1) << 8] for p in range(8)
]
_OWNER_OF: Final[list[int]] = [k >> 2 for k in range(32)]  # a pile's top owner by its key
_HEIGHT_OF: Final[list[int]] = [k & 3 for k in range(32)]  # and its height
# the dice of a pile of two, bottom to top, by owner << 3 | player (made at import)
_PAIR: Final[list[tuple[int, int]]] = [(i >> 3, i & 7) for i in range(64)]
_REROLL_AT: Final[list[Reroll]] = [REROLLS.get(f) or Reroll(f) for f in range(7)]
_ROLL_AT: Final[list[Roll]] = [ROLLS.get(f) or Roll(f) for f in range(7)]
_VALUE: Final[tuple[int, ...]] = tuple([face_value(f) for f in range(7)])  # by face
_ROUNDS_MADE: Final = 100  # games rarely last 10 rounds; later ones are made as they end
_ROUND_ENDED: Final[tuple[RoundEnded, ...]] = tuple([RoundEnded(k) for k in range(_ROUNDS_MADE)])
# random.Random's draw, called as a function: compiled, quicker than rng.random() (a
# method looked up on each call); a subclass of Random gets its own random() as ever
_RANDOM_CLASS: Final = random.Random
_RANDOM: Final = random.Random.random
# Final: compiled, the module's constants are read as such, not looked up by name
_NO_EVENTS: Final[tuple[Event, ...]] = NO_EVENTS
_TURN: Final = Phase.TURN
_FACE_SET: Final = frozenset(FACES)
_PLACE: Final = Phase.PLACE
_CHANCE: Final = Phase.CHANCE
_OVER: Final = Phase.OVER
_GAME_ENDED: Final = GameEnded()
_D_TURN: Final = Decision.TURN
_D_CHANCE: Final = Decision.CHANCE
_D_OVER: Final = Decision.OVER
_DECISION = {
    Phase.TURN: Decision.TURN,
    Phase.PLACE: Decision.TURN,
    Phase.CHANCE: Decision.CHANCE,
    Phase.OVER: Decision.OVER,
}

# A finished turn as the state's history keeps it (seat numbers, not names):
#   ("stack", player, face, owner, height)
#   ("reroll", player, face, rolled, owner | None, height | None)
TurnLog = tuple[Any, ...]
Composition = tuple[int, ...]  # a pile's dice, bottom to top, by owner seat


class SetupError(ValueError):
    """The players or rules cannot make a game."""


class StackState:
    """A game of Stack: the field, whose turn, the pending decision and the score sheet.

    ``apply`` takes both player moves and chance outcomes; ``resolve_chance`` draws the
    chance outcomes from an injected RNG. A refused move raises
    :class:`~engine.errors.IllegalMoveError` and changes nothing.
    """

    __slots__ = (
        "_after",
        "_capture_penalty",
        "_captures",
        "_caught_points",
        "_chance",
        "_cnt",
        "_comps",
        "_made",
        "_offer",
        "_order",
        "_own",
        "_pile_keys",
        "_placing",
        "_rolled_two_penalty",
        "_turn_ended",
        "_turns",
        "capture_counts",
        "contenders",
        "current",
        "current_player",
        "decision",
        "first",
        "hand",
        "history",
        "history_offset",
        "last_turns",
        "n",
        "penalties",
        "phase",
        "players",
        "rolloffs",
        "round_scores",
        "rules",
        "single_total",
        "singles",
        "team",
        "totals",
        "winner",
    )

    players: tuple[str, ...]
    rules: StackRules
    n: int
    team: tuple[int, ...] | None
    totals: list[int]
    round_scores: list[list[int]]
    first: int | None
    contenders: tuple[int, ...] | None
    rolloffs: list[list[int]]
    _chance: str | None
    phase: Phase
    decision: Decision  # what a host sees: placing a rerolled die is a Decision.TURN
    current: int | None
    current_player: int | None  # the same seat (the interface's name), read without a call
    singles: list[list[int]]
    single_total: list[int]
    # The piles a die may go on (:attr:`targets`): _cnt[face << 5 | key] counts the piles
    # of each key of two or three dice (a seat's unstacked dice, its 1-high piles, are
    # counted by singles alone: _cnt's entries of height 1 are not used), _order[face]
    # lists the keys of a face that have piles, in the order they came (a key that empties
    # leaves it, and comes back at its end), _own[seat][face] counts those of seat's keys
    # (the heights of its piles).
    _cnt: list[int]
    _order: list[list[int]]
    _own: list[list[int]]
    # The piles of two or three dice (:attr:`piles`): the dice of each (bottom to top) by
    # its number, and the numbers in the order the round first made them; and each
    # seat's captured piles (:attr:`captures`). Play does not keep them: they are brought
    # up to the round's turn log when read (_sync replays _turns[_made:] into them).
    _comps: list[list[Composition] | None]
    _pile_keys: list[int]
    _captures: list[list[tuple[int, Composition]]]
    _made: int  # how many of the round's turns _comps, _pile_keys and _captures hold
    _caught_points: list[int]  # by seat: the faces' values of its captured piles, summed
    penalties: list[int]
    hand: int | None
    _placing: int | None
    last_turns: list[int] | None
    history: list[dict[str, Any]]
    _turns: list[TurnLog]  # the turns of the round under way: history[-1]["turns"]
    history_offset: int
    capture_counts: list[int]
    winner: tuple[int, ...] | None
    # The move this state itself last offered (random_move, nth_legal_move) or the chance
    # outcome it last drew: applied unchanged before anything else, it is legal by
    # construction and is not checked again. Every change of the state clears it.
    _offer: Move | None
    _turn_ended: tuple[tuple[Event, ...], ...]  # by seat: the events of its turn's end
    _after: tuple[tuple[int, ...], ...]  # by seat: the other seats, clockwise from it
    _capture_penalty: bool  # rules.capture_penalty, read without the rules' lookup
    _rolled_two_penalty: bool  # rules.rolled_two_penalty, the same

    def __init__(
        self,
        players: Sequence[str],
        rules: StackRules | None = None,
        *,
        first: int | None = None,
    ) -> None:
        """Seat ``players`` (clockwise) under ``rules``.

        Without ``first`` the game opens with the roll-off for first player; with it, that
        seat starts round 1 (as when replaying a record, which names the roll-off's winner).
        """
        if players is BLANK:
            return  # from_dict() fills it in
        players = tuple(players)
        rules = rules or StackRules()
        check_setup(players, rules)
        self.players = players
        self.rules = rules
        self._capture_penalty = rules.capture_penalty
        self._rolled_two_penalty = rules.rolled_two_penalty
        self.n = len(players)
        self._turn_ended = tuple((TurnEnded(seat),) for seat in range(self.n))
        self._after = tuple(
            tuple((p + i) % self.n for i in range(1, self.n)) for p in range(self.n)
        )
        self.team = rules.team_of(players)
        self.totals = [0] * self.n
        self.round_scores = []
        self.rolloffs = []
        self.history = []
        self._turns = []
        self.history_offset = 0
        self.capture_counts = [0] * self.n
        self.winner = None
        self._offer = None
        self.current = self.current_player = None
        self.phase, self.decision = _CHANCE, _D_CHANCE
        self._clear_field()
        if first is None:
            self.first = None
            self.contenders = tuple(range(self.n))
            self._chance = "rolloff"
        else:
            if not 0 <= first < self.n:
                raise SetupError(f"There is no seat {first}.")
            self.first = first
            self.contenders = None
            self._chance = "dice"

    def _clear_field(self) -> None:
        n = self.n
        self.singles = [[0] * 7 for _ in range(n)]
        self.single_total = [0] * n
        self._cnt = [0] * (7 << 5)
        self._order = [[] for _ in range(7)]
        self._own = [[0] * 7 for _ in range(n)]
        self._comps = [None] * (7 << 5)
        self._pile_keys = []
        self._captures = [[] for _ in range(n)]
        self._made = 0
        self._caught_points = [0] * n
        self.penalties = [0] * n
        self.hand = None
        self._placing = None
        self.last_turns = None

    # ----------------------------------------------------------------- queries

    @property
    def is_over(self) -> bool:
        """Whether the game has ended."""
        return self.phase is _OVER

    @property
    def chance_kind(self) -> str | None:
        """At a chance node, what must be rolled: ``rolloff``, ``dice`` or ``roll``."""
        return self._chance if self.phase is _CHANCE else None

    @property
    def placing(self) -> int | None:
        """The face of the rerolled die waiting to be placed (decision ``PLACE``)."""
        return self._placing

    @property
    def round_number(self) -> int:
        """The round being played, from 1 (0 before the first round's dice are rolled)."""
        return self.history_offset + len(self.history)

    @property
    def has_full_history(self) -> bool:
        """Whether every round's dice and turns are here (not so in a compact snapshot)."""
        return self.history_offset == 0

    @property
    def in_last_turns(self) -> bool:
        """Whether the round is in its last turns (someone went out)."""
        return self.last_turns is not None

    def name(self, seat: int) -> str:
        """The name of the player in ``seat``."""
        return self.players[seat]

    def seat_of(self, name: str) -> int:
        """The seat of the player called ``name``; ``KeyError`` if nobody is."""
        if name not in self.players:
            raise KeyError(name)
        return self.players.index(name)

    def unstacked(self, seat: int) -> dict[int, int]:
        """The faces of ``seat``'s unstacked dice and how many show each."""
        row = self.singles[seat]
        return {f: row[f] for f in FACES if row[f]}

    @property
    def targets(self) -> list[dict[tuple[int, int], int]]:
        """By face, the piles a die showing it may go on: ``{(owner, height): count}``, in
        the order they came (a read-only view, built on each call)."""
        count = self._pile_count
        return [{(k >> 2, k & 3): count(f, k) for k in keys} for f, keys in enumerate(self._order)]

    def _pile_count(self, face: int, key: int) -> int:
        """How many piles of ``key`` (``owner << 2 | height``) show ``face``."""
        if key & 3 == 1:
            return self.singles[key >> 2][face]
        return self._cnt[face << 5 | key]

    @property
    def piles(self) -> dict[tuple[int, int, int], list[Composition]]:
        """Every pile of two or three dice the round has made, by ``(owner, face, height)``:
        its dice bottom to top, by owner (a read-only view, built on each call)."""
        self._sync()
        comps = self._comps
        out: dict[tuple[int, int, int], list[Composition]] = {}
        for i in self._pile_keys:
            made = comps[i]
            assert made is not None
            out[((i >> 2) & 7, i >> 5, i & 3)] = made
        return out

    def pile_counts(self) -> list[tuple[int, int, int, int]]:
        """Every pile of two or three dice as ``(owner, face, height, count)``."""
        out = []
        for (owner, face, height), comps in self.piles.items():
            if comps:
                out.append((owner, face, height, len(comps)))
        return sorted(out)

    def pile_compositions(self) -> list[tuple[int, Composition]]:
        """Every pile of two or three dice as ``(face, owners bottom to top)``."""
        return [(face, c) for (_, face, _), comps in self.piles.items() for c in comps]

    def targets_for(self, seat: int, face: int) -> list[tuple[int, int]]:
        """The distinct piles ``(owner, height)`` that ``seat`` may put a ``face`` on."""
        return [(k >> 2, k & 3) for k in self._order[face] if k >> 2 != seat]

    def team_members(self, seat: int) -> tuple[int, ...]:
        """The seats on ``seat``'s side: its team, or just itself."""
        if self.team is None:
            return (seat,)
        t = self.team[seat]
        return tuple(s for s in range(self.n) if self.team[s] == t)

    def field_scores(self) -> list[int]:
        """What each seat would score if the round ended now (penalties included)."""
        scores = list(self.penalties)
        cnt = self._cnt
        order = self._order
        height_of, owner_of = _HEIGHT_OF, _OWNER_OF
        for face in range(1, 7):
            value = _VALUE[face]
            base = face * 32
            for k in order[face]:
                if height_of[k] != 1:  # a pile of two or three: its count, by its top's owner
                    top = owner_of[k]
                    scores[top] = scores[top] + value * cnt[base + k]
        double = 2 if self.rules.four_high_bonus else 1
        caught = self._caught_points
        for seat in range(self.n):
            scores[seat] = scores[seat] + caught[seat] * double
        return scores

    @property
    def captures(self) -> list[list[tuple[int, Composition]]]:
        """By seat, the piles it captured this round: ``(face, dice bottom to top)``."""
        self._sync()
        return self._captures

    def _sync(self) -> None:
        """Bring the piles' dice (_comps, _pile_keys, _captures) up to the round's turn
        log: each logged stack or placement replayed as it was played (the die goes on
        the last pile of its kind made, as play took it; a 4th die captures)."""
        turns = self._turns
        made = self._made
        if made == len(turns):
            return
        comps = self._comps
        for turn in turns[made:]:
            if turn[0] == "stack":
                p, face, owner, height = turn[1], turn[2], turn[3], turn[4]
            else:  # ("reroll", p, face, rolled, owner | None, height | None)
                if turn[4] is None:
                    continue
                p, face, owner, height = turn[1], turn[3], turn[4], turn[5]
            comp: Composition
            if height == 1:
                comp = _PAIR[owner << 3 | p]
            else:
                under = comps[face << 5 | owner << 2 | height]
                assert under is not None
                comp = under.pop() + (p,)  # noqa: RUF005
            if height == 3:
                self._captures[p].append((face, comp))
            else:
                j = face << 5 | p << 2 | (height + 1)
                piles = comps[j]
                if piles is None:
                    comps[j] = [comp]
                    self._pile_keys.append(j)
                else:
                    piles.append(comp)
        self._made = len(turns)

    def side_totals(self) -> dict[tuple[int, ...], int]:
        """Running totals by side: each team's combined total, or each player's."""
        sides: dict[tuple[int, ...], int] = {}
        for seat in range(self.n):
            side = self.team_members(seat)
            sides[side] = sides.get(side, 0) + self.totals[seat]
        return sides

    # ----------------------------------------------------------------- legal moves

    def legal_moves(self) -> list[PlayerMove]:
        """The distinct legal moves of the seat to act (empty at chance nodes and at the end).

        On a turn: every face the player can stack times every distinct target, then a
        reroll of each face they hold. When placing a rerolled die: each distinct target.
        """
        p = self.current
        if p is None:
            return []
        if self.phase is _PLACE:
            face = self._placing
            assert face is not None
            return [_PLACE_AT[k] for k in self._order[face] if k >> 2 != p]
        moves: list[PlayerMove] = []
        row = self.singles[p]
        order = self._order
        append = moves.append
        for f in range(1, 7):
            if row[f]:
                base = f << 5
                for k in order[f]:
                    if k >> 2 != p:
                        append(_STACK_AT[base | k])
                append(_REROLL_AT[f])
        return moves

    def count_legal_moves(self) -> int:
        """How many moves :meth:`legal_moves` would list, without listing them."""
        p = self.current
        if p is None:
            return 0
        order = self._order
        mine = self._own[p]
        if self.phase is _PLACE:
            face = self._placing
            assert face is not None
            return len(order[face]) - mine[face]
        row = self.singles[p]
        total = 0
        for f in range(1, 7):
            if row[f]:
                total += len(order[f]) - mine[f] + 1
        return total

    def nth_legal_move(self, index: int) -> PlayerMove:
        """``legal_moves()[index]``, found without listing every move.

        With :meth:`count_legal_moves` this lets a player pick a move at random cheaply
        (:meth:`random_move` does both at once).
        """
        p = self.current
        if p is None or index < 0:
            raise IndexError(index)
        move = self._nth(p, index)
        if self.decision is _D_TURN:
            self._offer = move
        return move

    def random_move(self, rng: random.Random) -> PlayerMove | None:
        """A legal move drawn uniformly from ``rng``: ``nth_legal_move(int(rng.random() *
        count_legal_moves()))`` in one step, drawing nothing when there is no move (``None``)."""
        try:
            return self.pick_random(rng)
        except NoMoveError:
            return None

    def pick_random(self, rng: random.Random) -> PlayerMove:
        """The ``random`` AI's choice: :meth:`random_move`, but
        :class:`~engine.rating.NoMoveError` (drawing nothing) when there is no move."""
        p = self.current
        if p is None:
            raise NoMoveError("There is no move to choose.")
        order = self._order
        mine = self._own[p]
        if self.phase is _PLACE:
            face = self._placing
            assert face is not None
            keys = order[face]
            total = len(keys) - mine[face]
            if not total:
                raise NoMoveError("There is no move to choose.")
            index = floor((_RANDOM(rng) if type(rng) is _RANDOM_CLASS else rng.random()) * total)
            for k in keys:
                if k >> 2 != p:
                    if not index:
                        move: PlayerMove = _PLACE_AT[k]
                        self._offer = move  # placing is a Decision.TURN
                        return move
                    index -= 1
            raise AssertionError("a placement beyond the count")
        # the moves of each face held: a stack on each other seat's pile key, a reroll
        # (written out face by face: this is the random player's whole work)
        row = self.singles[p]
        m1 = row[1] and len(order[1]) - mine[1] + 1
        m2 = row[2] and len(order[2]) - mine[2] + 1
        m3 = row[3] and len(order[3]) - mine[3] + 1
        m4 = row[4] and len(order[4]) - mine[4] + 1
        m5 = row[5] and len(order[5]) - mine[5] + 1
        m6 = row[6] and len(order[6]) - mine[6] + 1
        total = m1 + m2 + m3 + m4 + m5 + m6
        if not total:
            raise NoMoveError("There is no move to choose.")
        index = floor((_RANDOM(rng) if type(rng) is _RANDOM_CLASS else rng.random()) * total)
        # the face whose moves hold the index (a face not held has none)
        f, moves = 1, m1
        if index >= moves:
            index -= moves
            f, moves = 2, m2
            if index >= moves:
                index -= moves
                f, moves = 3, m3
                if index >= moves:
                    index -= moves
                    f, moves = 4, m4
                    if index >= moves:
                        index -= moves
                        f, moves = 5, m5
                        if index >= moves:
                            index -= moves
                            f, moves = 6, m6
        if index == moves - 1:
            move = _REROLL_AT[f]
        else:
            for k in order[f]:
                if k >> 2 != p:
                    if not index:
                        move = _STACK_AT[f << 5 | k]
                        break
                    index -= 1
        if self.decision is _D_TURN:
            self._offer = move
        return move

    def play_random(self, rng: random.Random) -> tuple[Event, ...]:
        """``self.apply(self.pick_random(rng))`` in one step: the ``random`` AI's move, drawn
        exactly as :meth:`pick_random` draws it, played as :meth:`apply` plays it (the same
        state, events and random draws after it); :class:`~engine.rating.NoMoveError`,
        drawing nothing and changing nothing, when there is no move. The table loop plays
        the ``random`` AI's decisions so (:meth:`direct_play`)."""
        seat = self.current
        if seat is None:
            raise NoMoveError("There is no move to choose.")
        p: int = seat  # compiled: unboxed once
        order = self._order
        mine = self._own[p]
        if self.phase is _PLACE:
            face = self._placing
            hand = self.hand
            assert face is not None and hand is not None
            keys = order[face]
            total = len(keys) - mine[face]
            if not total:
                raise NoMoveError("There is no move to choose.")
            index = floor((_RANDOM(rng) if type(rng) is _RANDOM_CLASS else rng.random()) * total)
            for k in keys:
                if k >> 2 != p:
                    if not index:
                        self._placing = None
                        self.phase, self.decision = _TURN, _D_TURN
                        self.hand = None
                        return self._put(p, face, k >> 2, k & 3, hand)
                    index -= 1
            raise AssertionError("a placement beyond the count")
        if self.phase is not _TURN:  # not the player's decision: what apply says of it
            return self.apply(self.pick_random(rng))
        # pick_random's count and draw, written out the same
        row = self.singles[p]
        m1 = row[1] and len(order[1]) - mine[1] + 1
        m2 = row[2] and len(order[2]) - mine[2] + 1
        m3 = row[3] and len(order[3]) - mine[3] + 1
        m4 = row[4] and len(order[4]) - mine[4] + 1
        m5 = row[5] and len(order[5]) - mine[5] + 1
        m6 = row[6] and len(order[6]) - mine[6] + 1
        total = m1 + m2 + m3 + m4 + m5 + m6
        if not total:
            raise NoMoveError("There is no move to choose.")
        index = floor((_RANDOM(rng) if type(rng) is _RANDOM_CLASS else rng.random()) * total)
        f, moves = 1, m1
        if index >= moves:
            index -= moves
            f, moves = 2, m2
            if index >= moves:
                index -= moves
                f, moves = 3, m3
                if index >= moves:
                    index -= moves
                    f, moves = 4, m4
                    if index >= moves:
                        index -= moves
                        f, moves = 5, m5
                        if index >= moves:
                            index -= moves
                            f, moves = 6, m6
        # lift the die off the field (its own 1-high pile), as apply does for both moves
        left = row[f] - 1
        row[f] = left
        totals = self.single_total
        totals[p] = totals[p] - 1
        if not left:
            order[f].remove(p << 2 | 1)
            mine[f] = mine[f] - 1
        if index == moves - 1:  # a reroll
            self._offer = None
            self.hand = f
            self.phase, self.decision = _CHANCE, _D_CHANCE
            self._chance = "roll"
            return _NO_EVENTS
        # a stack: the index-th key of the face that is not the player's (a key the lift
        # just emptied was the player's own, so the count is unchanged)
        keys = order[f]
        if not mine[f]:  # the player has no pile of the face left: the index-th key
            k = keys[index]
            return self._put(p, f, k >> 2, k & 3, 0)
        for k in keys:
            if k >> 2 != p:
                if not index:
                    return self._put(p, f, k >> 2, k & 3, 0)
                index -= 1
        raise AssertionError("a stack beyond the count")

    def play_chance(self, rng: random.Random) -> tuple[Event, ...]:
        """``self.apply(self.sample_chance(rng))`` in one step (the same draws, the same
        outcome applied): a rerolled die's roll, and a round's dice, are played without
        their move made."""
        if self.phase is _CHANCE:
            kind = self._chance
            if kind == "roll":
                r = _RANDOM(rng) if type(rng) is _RANDOM_CLASS else rng.random()
                return self._rolled(floor(r * 6.0) + 1)
            if kind == "dice":
                rand = rng.random
                dpp = self.rules.dice_per_player
                # sample_chance's draw, as it draws it
                dice = tuple(
                    [tuple([floor(rand() * 6.0) + 1 for _ in range(dpp)]) for _ in range(self.n)]
                )
                self._offer = None
                self._start_round(dice)
                return _NO_EVENTS
        return self.apply(self.sample_chance(rng))

    def direct_play(self, chooser: Any) -> Callable[[random.Random], object] | None:
        """For the table loop: this state's method that plays ``chooser``'s pick itself,
        in one step and with the same random draws, when it has one (the ``random`` AI's:
        :meth:`play_random`); else ``None``."""
        return self.play_random if chooser is _PICK_RANDOM else None

    def direct_play_out(self, chooser: Any) -> Callable[[random.Random, int], int] | None:
        """For the table loop: this state's method that plays a whole game of ``chooser``
        at every seat itself (:meth:`play_out_random` for the ``random`` AI's chooser),
        with the same random draws, moves and state as the table loop; else ``None``."""
        return self.play_out_random if chooser is _PICK_RANDOM else None

    def play_out_random(self, rng: random.Random, limit: int) -> int:
        """Play the ``random`` AI at every seat, and the chance outcomes, until the game is
        over or ``limit`` decisions are taken with another one due; returns the decisions
        taken. Exactly what the table loop plays by :meth:`play_random` and
        :meth:`play_chance` one step at a time (the same draws in the same order, the same
        moves and state); the ordinary turns of a round are played by one loop that keeps
        the round's tables at hand (:meth:`_play_turns`)."""
        decisions = 0
        while True:
            phase = self.phase
            if phase is _CHANCE:
                self.play_chance(rng)
                continue
            if phase is _OVER or self.current is None or decisions == limit:
                return decisions
            if phase is _TURN:
                decisions = self._play_turns(rng, decisions, limit)
            else:  # a placement (only where the game was handed over): the long way
                decisions += 1
                self.play_random(rng)

    def _play_turns(self, rng: random.Random, decisions: int, limit: int) -> int:
        """:meth:`play_out_random`'s run of a round's turns, from a player's turn until the
        round ends or the ``limit``-th decision is taken; returns the decisions taken so
        far. :meth:`play_random`, the reroll's roll (:meth:`_rolled`) and :meth:`_put`
        written out in one loop, their draws the same (a turn that ends otherwise than
        by passing to the next seat is ended by :meth:`_end_turn`)."""
        seat = self.current
        assert seat is not None
        p: int = seat
        rand = rng.random  # the same draw as _RANDOM(rng) for a plain Random
        n = self.n
        cnt = self._cnt
        order = self._order
        own = self._own
        singles = self.singles
        totals = self.single_total
        log = self._turns.append
        stack_log = _STACK_LOG_OF
        owner_of = _OWNER_OF
        height_of = _HEIGHT_OF
        succ = [after[0] for after in self._after]  # the next seat clockwise
        last = self.last_turns
        # by face, len(order[face]) + 1 (kept here as the keys come and go)
        lens = [len(order[0]) + 1, len(order[1]) + 1, len(order[2]) + 1, len(order[3]) + 1]
        lens += [len(order[4]) + 1, len(order[5]) + 1, len(order[6]) + 1]
        self._offer = None
        placing = 0  # the face of a rerolled die with several targets (0: none)
        hand = 0  # the face it showed before it was rerolled
        for decisions in range(decisions + 1, limit + 1):  # noqa: B020 (counts on)
            mine = own[p]
            p4 = p * 4  # (arithmetic, not bits: Python's int + and * are the quicker)
            if placing:  # placing the rerolled die: the index-th pile that is not p's
                face = placing
                keys = order[face]
                index = floor(rand() * (lens[face] - 1 - mine[face]))
                k = 0
                for k in keys:
                    if owner_of[k] != p:
                        if not index:
                            break
                        index -= 1
                rerolled = hand
                placing = 0
            else:
                # play_random's count and draw
                row = singles[p]
                m1 = row[1] and lens[1] - mine[1]
                m2 = row[2] and lens[2] - mine[2]
                m3 = row[3] and lens[3] - mine[3]
                m4 = row[4] and lens[4] - mine[4]
                m5 = row[5] and lens[5] - mine[5]
                m6 = row[6] and lens[6] - mine[6]
                index = floor(rand() * (m1 + m2 + m3 + m4 + m5 + m6))
                f, moves = 1, m1
                if index >= moves:
                    index -= moves
                    f, moves = 2, m2
                    if index >= moves:
                        index -= moves
                        f, moves = 3, m3
                        if index >= moves:
                            index -= moves
                            f, moves = 4, m4
                            if index >= moves:
                                index -= moves
                                f, moves = 5, m5
                                if index >= moves:
                                    index -= moves
                                    f, moves = 6, m6
                # lift the die off the field (its own 1-high pile)
                left = row[f] - 1
                row[f] = left
                totals[p] = totals[p] - 1
                if not left:
                    order[f].remove(p4 + 1)
                    lens[f] = lens[f] - 1
                    mine[f] = mine[f] - 1
                if index == moves - 1:  # a reroll, and its roll (play_chance's draw)
                    face = floor(rand() * 6.0) + 1
                    if face == 2 and self._rolled_two_penalty:
                        penalties = self.penalties
                        penalties[p] = penalties[p] - 1
                    keys = order[face]
                    options = lens[face] - 1 - mine[face]
                    if not options:  # back on the field; the next seat's turn
                        count = row[face]
                        row[face] = count + 1
                        totals[p] = totals[p] + 1
                        if not count:
                            keys.append(p4 + 1)
                            lens[face] = lens[face] + 1
                            mine[face] = mine[face] + 1
                        log(("reroll", p, f, face, None, None))
                        if last is None:
                            p = succ[p]
                            while not totals[p]:
                                p = succ[p]
                            continue
                        self._end_turn(p, False)  # in the round's last turns
                        if self.phase is not _TURN:
                            return decisions
                        seat = self.current
                        assert seat is not None
                        p = seat
                        continue
                    if options > 1:  # the player chooses where: the next decision
                        placing = face
                        hand = f
                        continue
                    k = 0
                    for k in keys:
                        if owner_of[k] != p:
                            break
                    rerolled = f
                else:  # a stack: the index-th key of the face that is not p's
                    face = f
                    keys = order[f]
                    if not mine[f]:
                        k = keys[index]
                    else:
                        for k in keys:
                            if owner_of[k] != p:
                                if not index:
                                    break
                                index -= 1
                    rerolled = 0
            # _put's work
            owner = owner_of[k]
            height = height_of[k]
            i = face * 32 + k  # the pile's number
            if height == 1:
                theirs = singles[owner]
                left = theirs[face] - 1
                theirs[face] = left
                totals[owner] = totals[owner] - 1
            else:
                left = cnt[i] - 1
                cnt[i] = left
            if not left:
                keys.remove(k)
                lens[face] = lens[face] - 1
                theirs = own[owner]
                theirs[face] = theirs[face] - 1
            if height == 3:  # (the piles' dice are the turn log's: _sync)
                caught = self.capture_counts
                caught[p] = caught[p] + 1
                caught = self._caught_points
                caught[p] = caught[p] + _VALUE[face]
                if self._capture_penalty:
                    penalties = self.penalties
                    for seat in range(n):
                        if seat != p:
                            penalties[seat] = penalties[seat] - 1
            else:
                up = p4 + height + 1  # the key of the pile p makes
                j = i - k + up
                count = cnt[j]
                cnt[j] = count + 1
                if not count:
                    keys.append(up)
                    lens[face] = lens[face] + 1
                    mine[face] = mine[face] + 1
            if rerolled:
                log(("reroll", p, rerolled, face, owner, height))
            else:
                log(stack_log[p][i])
            if last is None and totals[p] and (height != 1 or totals[owner]):
                p = succ[p]
                while not totals[p]:
                    p = succ[p]
                continue
            # p went out, or covered an opponent's last die, or the round is in its last
            # turns: _end_turn says who is next, if anyone
            self._end_turn(p, height == 1 and not totals[owner])
            if self.phase is not _TURN:
                return decisions
            seat = self.current
            assert seat is not None
            p = seat
            last = self.last_turns
        self.current = self.current_player = p
        if placing:
            self.phase = _PLACE  # a Decision.TURN, as it was
            self._placing = placing
            self.hand = hand
        return decisions

    def _nth(self, p: int, index: int) -> PlayerMove:
        order = self._order
        if self.phase is _PLACE:
            face = self._placing
            assert face is not None
            for k in order[face]:
                if k >> 2 != p:
                    if not index:
                        return _PLACE_AT[k]
                    index -= 1
            raise IndexError(index)
        row = self.singles[p]
        mine = self._own[p]
        for f in range(1, 7):
            if row[f]:
                keys = order[f]
                stacks = len(keys) - mine[f]
                if index > stacks:
                    index -= stacks + 1
                    continue
                if index == stacks:
                    return _REROLL_AT[f]
                for k in keys:
                    if k >> 2 != p:
                        if not index:
                            return _STACK_AT[f << 5 | k]
                        index -= 1
        raise IndexError(index)

    def is_legal(self, move: Move) -> bool:
        """Whether ``move`` may be applied now."""
        try:
            self._check(move, None)
        except IllegalMoveError:
            return False
        return True

    # ----------------------------------------------------------------- applying moves

    def check(self, move: Move, *, by: int | None = None) -> None:
        """Raise the :class:`IllegalMoveError` that says why ``move`` cannot be played now
        (asked by seat ``by``); return when it can."""
        self._check(move, by)

    def outcome(self) -> Outcome | None:
        """Who won and the final totals, once the game is over."""
        if self.winner is None:
            return None
        return Outcome(self.winner, tuple(self.totals), "target")

    def apply(self, move: Move, *, by: int | None = None) -> tuple[Event, ...]:
        """Play ``move`` (a player's move or a chance outcome); returns what happened: a
        turn ended, then the round was scored, then the game ended (each when it did).

        ``by``, when given, is the seat that asks to play it; anyone else's request is
        refused as not their turn. Raises :class:`IllegalMoveError` and changes nothing
        when the move is not legal now.
        """
        p = self.current
        trusted = move is self._offer and (by is None or by == p)
        if type(move) is Stack:
            f, o, h = move.face, move.owner, move.height
            if p is not None and (
                trusted
                or (
                    self.phase is _TURN
                    and (by is None or by == p)
                    and o != p
                    and 1 <= f <= 6
                    and 0 <= o < self.n
                    and 1 <= h <= 3
                    and self.singles[p][f]
                    and self._pile_count(f, o << 2 | h)
                )
            ):
                # lift the die off the field (its own 1-high pile), then put it down
                # (x[i] = x[i] - 1, not x[i] -= 1: compiled, the latter is a generic op)
                row = self.singles[p]
                left = row[f] - 1
                row[f] = left
                totals = self.single_total
                totals[p] = totals[p] - 1
                if not left:
                    self._order[f].remove(p << 2 | 1)
                    mine = self._own[p]
                    mine[f] = mine[f] - 1
                return self._put(p, f, o, h, 0)
        elif type(move) is Roll:
            if self.phase is _CHANCE and self._chance == "roll" and 1 <= move.face <= 6:
                return self._rolled(move.face)
        elif type(move) is Reroll:
            f = move.face
            if p is not None and (
                trusted
                or (
                    self.phase is _TURN
                    and (by is None or by == p)
                    and 1 <= f <= 6
                    and self.singles[p][f]
                )
            ):
                self._offer = None
                row = self.singles[p]
                left = row[f] - 1
                row[f] = left
                totals = self.single_total
                totals[p] = totals[p] - 1
                if not left:
                    self._order[f].remove(p << 2 | 1)
                    mine = self._own[p]
                    mine[f] = mine[f] - 1
                self.hand = f
                self.phase, self.decision = _CHANCE, _D_CHANCE
                self._chance = "roll"
                return _NO_EVENTS
        elif type(move) is Place:
            placing = self._placing
            o, h = move.owner, move.height
            if (
                p is not None
                and placing is not None
                and self.hand is not None
                and (
                    trusted
                    or (
                        self.phase is _PLACE
                        and (by is None or by == p)
                        and o != p
                        and 0 <= o < self.n
                        and 1 <= h <= 3
                        and self._pile_count(placing, o << 2 | h)
                    )
                )
            ):
                self._placing = None
                self.phase, self.decision = _TURN, _D_TURN
                rerolled, self.hand = self.hand, None
                return self._put(p, placing, o, h, rerolled)
        elif type(move) is RoundDice:
            if not trusted:
                self._check(move, by)
            self._offer = None
            # the dice are kept as they came when this state drew them (tuples), else copied
            self._start_round(move.dice if trusted else tuple([tuple(d) for d in move.dice]))
            return _NO_EVENTS
        elif type(move) is RollOff:
            if not trusted:
                self._check(move, by)
            self._offer = None
            self._roll_off(move.rolls)
            return _NO_EVENTS
        # Not playable now: _check raises the error that says why.
        self._check(move, by)
        raise AssertionError(f"{move!r} passed the checks but was not applied")

    def sample_chance(self, rng: random.Random) -> Move:
        """Draw the pending chance outcome from ``rng`` (without applying it)."""
        kind = self._chance if self.phase is _CHANCE else None
        if kind == "roll":
            r = _RANDOM(rng) if type(rng) is _RANDOM_CLASS else rng.random()
            return _ROLL_AT[floor(r * 6.0) + 1]
        rand = rng.random
        outcome: Move
        if kind == "dice":
            dpp = self.rules.dice_per_player
            # seat by seat, each die as int(rand() * 6) + 1 (floor and a float 6: the same,
            # faster)
            outcome = RoundDice(
                tuple([tuple([floor(rand() * 6.0) + 1 for _ in range(dpp)]) for _ in range(self.n)])
            )
        elif kind == "rolloff":
            assert self.contenders is not None
            outcome = RollOff(tuple([floor(rand() * 6.0) + 1 for _ in self.contenders]))
        else:
            raise IllegalMoveError("No dice are waiting to be rolled.", IllegalReason.BAD_OUTCOME)
        self._offer = outcome
        return outcome

    def resolve_chance(self, rng: random.Random) -> list[Move]:
        """Roll every pending chance outcome from ``rng`` until a player must decide."""
        drawn: list[Move] = []
        while self.phase is _CHANCE:
            outcome = self.sample_chance(rng)
            self.apply(outcome)
            drawn.append(outcome)
        return drawn

    # ----------------------------------------------------------------- checks

    def _check(self, move: Move, by: int | None) -> None:
        decision = self.phase
        if decision is _OVER:
            raise IllegalMoveError("The game is over.", IllegalReason.GAME_OVER)
        t = type(move)
        if t is Roll or t is RoundDice or t is RollOff:
            self._check_chance(move)
            return
        if decision is _CHANCE:
            raise IllegalMoveError(
                "The dice must be rolled before anyone moves.", IllegalReason.WRONG_DECISION
            )
        p = self.current
        assert p is not None
        if by is not None and by != p:
            raise IllegalMoveError(f"It's {self.players[p]}'s turn.", IllegalReason.NOT_YOUR_TURN)
        if decision is _PLACE:
            if t is not Place:
                face = self._placing
                assert face is not None
                raise IllegalMoveError(
                    f"First place your rerolled {face}: choose which pile it goes on.",
                    IllegalReason.PLACEMENT_PENDING,
                    face=face,
                    asked=move.face if isinstance(move, Stack | Reroll) else None,
                    targets=tuple(
                        Target(o, self.players[o], h) for o, h in sorted(self.targets_for(p, face))
                    ),
                )
            assert isinstance(move, Place) and self._placing is not None
            self._check_target(p, self._placing, move.owner, move.height)
            return
        if t is Place:
            raise IllegalMoveError(
                "There is no rerolled die to place.", IllegalReason.NOTHING_TO_PLACE
            )
        assert isinstance(move, Stack | Reroll)
        face = move.face
        if face not in FACES:
            raise IllegalMoveError(f"A die shows 1 to 6, not {face}.", IllegalReason.NO_SUCH_DIE)
        if not self.singles[p][face]:
            raise IllegalMoveError(f"You have no unstacked {face}.", IllegalReason.NO_SUCH_DIE)
        if t is Stack:
            assert isinstance(move, Stack)
            self._check_target(p, face, move.owner, move.height)

    def _check_target(self, p: int, face: int, owner: int, height: int) -> None:
        if not 0 <= owner < self.n:
            raise IllegalMoveError(f"There is no seat {owner}.", IllegalReason.NO_SUCH_PILE)
        if owner == p:
            raise IllegalMoveError(
                "You may never stack directly on your own colour.", IllegalReason.OWN_COLOUR
            )
        if height not in (1, 2, 3):
            raise IllegalMoveError(
                "You can only stack on a pile 1 to 3 dice high.", IllegalReason.NO_SUCH_PILE
            )
        if not self._pile_count(face, owner << 2 | height):
            who = self.players[owner]
            if height == 1:
                msg = f"{who} has no unstacked {face}."
            else:
                msg = f"{who} has no {height}-high pile of {face}s."
            raise IllegalMoveError(msg, IllegalReason.NO_SUCH_PILE)

    def _check_chance(self, move: Move) -> None:
        kind = self.chance_kind
        bad = IllegalReason.BAD_OUTCOME
        if isinstance(move, Roll):
            if kind != "roll":
                raise IllegalMoveError("No rerolled die is waiting to be rolled.", bad)
            if move.face not in FACES:
                raise IllegalMoveError(f"A die shows 1 to 6, not {move.face}.", bad)
        elif isinstance(move, RoundDice):
            if kind != "dice":
                raise IllegalMoveError("No round is waiting for its dice.", bad)
            if len(move.dice) != self.n:
                raise IllegalMoveError(f"Dice are needed for all {self.n} players.", bad)
            dpp = self.rules.dice_per_player
            for seat, faces in enumerate(move.dice):
                if len(faces) != dpp:
                    raise IllegalMoveError(
                        f"{self.players[seat]} must roll exactly {dpp} dice, not {len(faces)}.",
                        bad,
                    )
                if not _FACE_SET.issuperset(faces):
                    raise IllegalMoveError(f"{self.players[seat]}'s dice must show 1 to 6.", bad)
        else:
            assert isinstance(move, RollOff)
            if kind != "rolloff":
                raise IllegalMoveError("No roll-off is under way.", bad)
            assert self.contenders is not None
            if len(move.rolls) != len(self.contenders) or any(f not in FACES for f in move.rolls):
                raise IllegalMoveError(
                    f"The roll-off needs one die (1 to 6) for each of {len(self.contenders)}"
                    " players.",
                    bad,
                )

    # ----------------------------------------------------------------- mechanics

    def _rolled(self, rolled: int) -> tuple[Event, ...]:
        p = self.current
        face = self.hand
        assert p is not None and face is not None
        self._offer = None
        self._chance = None
        if rolled == 2 and self._rolled_two_penalty:
            penalties = self.penalties
            penalties[p] = penalties[p] - 1
        keys = self._order[rolled]
        options = len(keys) - self._own[p][rolled]
        if not options:
            row = self.singles[p]
            count = row[rolled]
            row[rolled] = count + 1
            totals = self.single_total
            totals[p] = totals[p] + 1
            if not count:
                keys.append(p << 2 | 1)
                mine = self._own[p]
                mine[rolled] = mine[rolled] + 1
            self.phase, self.decision = _TURN, _D_TURN
            self.hand = None
            self._turns.append(("reroll", p, face, rolled, None, None))
            return self._end_turn(p, False)
        if options == 1:
            self.phase, self.decision = _TURN, _D_TURN
            self.hand = None
            for k in keys:
                if k >> 2 != p:
                    return self._put(p, rolled, k >> 2, k & 3, face)
        self.phase, self.decision = _PLACE, _D_TURN
        self._placing = rolled
        return _NO_EVENTS

    def _put(self, p: int, face: int, owner: int, height: int, rerolled: int) -> tuple[Event, ...]:
        """Put ``p``'s die showing ``face`` on ``owner``'s pile of ``height`` and end the
        turn; ``rerolled`` is the face the die showed before it was rerolled (0: not)."""
        self._offer = None
        cnt = self._cnt
        i = face << 5 | owner << 2 | height
        totals = self.single_total
        if height == 1:
            row = self.singles[owner]
            left = row[face] - 1
            row[face] = left
            totals[owner] = totals[owner] - 1
        else:
            left = cnt[i] - 1
            cnt[i] = left
        if not left:
            self._order[face].remove(owner << 2 | height)
            theirs = self._own[owner]
            theirs[face] = theirs[face] - 1
        if height == 3:  # (the piles' dice are the turn log's: _sync)
            caught = self.capture_counts
            caught[p] = caught[p] + 1
            caught = self._caught_points
            caught[p] = caught[p] + _VALUE[face]
            if self._capture_penalty:
                penalties = self.penalties
                for seat in range(self.n):
                    if seat != p:
                        penalties[seat] = penalties[seat] - 1
        else:
            j = face << 5 | p << 2 | (height + 1)
            count = cnt[j]
            cnt[j] = count + 1
            if not count:
                self._order[face].append(j & 31)
                mine = self._own[p]
                mine[face] = mine[face] + 1
        if rerolled:
            self._turns.append(("reroll", p, rerolled, face, owner, height))
        else:
            self._turns.append(_STACK_LOG[p << 8 | i])
        if self.last_turns is None and totals[p] and (height != 1 or totals[owner]):
            # the usual turn: the next seat clockwise that holds an unstacked die
            nxt = self._after[p][0]
            if not totals[nxt]:
                n = self.n
                while not totals[nxt]:
                    nxt = nxt + 1 if nxt + 1 < n else 0
            self.current = self.current_player = nxt
            return self._turn_ended[p]
        return self._end_turn(p, height == 1 and not totals[owner])

    def _end_turn(self, p: int, covered_last: bool) -> tuple[Event, ...]:
        events = self._turn_ended[p]
        n = self.n
        totals = self.single_total
        last = self.last_turns
        if last is None and (covered_last or totals[p] == 0):
            # Going out, or stacking on an opponent's last die: the player who moved is out
            # (and so is the covered opponent, who has no unstacked die); everyone else with
            # an unstacked die gets one more turn, clockwise from the player who moved.
            last = list(self._after[p])
            self.last_turns = last
        if last is not None:
            while last and not totals[last[0]]:
                last.pop(0)
            if not last:
                return self._end_round(events)
            self.current = self.current_player = last.pop(0)
            return events
        nxt = (p + 1) % n
        while not totals[nxt]:
            nxt = (nxt + 1) % n
        self.current = self.current_player = nxt
        return events

    def _end_round(self, events: tuple[Event, ...]) -> tuple[Event, ...]:
        scores = self.field_scores()
        self.round_scores.append(scores)
        events = (*events, _round_ended(len(self.round_scores)))
        totals = self.totals
        for seat, pts in enumerate(scores):
            totals[seat] = totals[seat] + pts
        self.current = self.current_player = None
        self.last_turns = None
        rules = self.rules
        winner: tuple[int, ...] | None = None
        if self.team is None:  # each player a side of their own (side_totals, quicker)
            totals = self.totals
            best = max(totals)
            if best >= rules.target_score:
                leading = [seat for seat, total in enumerate(totals) if total == best]
                if len(leading) == 1 or rules.tie_break == "shared":
                    winner = tuple(leading)
        else:
            sides = self.side_totals()
            best = max(sides.values())
            if best >= rules.target_score:
                leaders = [side for side, total in sides.items() if total == best]
                if len(leaders) == 1 or rules.tie_break == "shared":
                    winner = tuple(sorted(s for side in leaders for s in side))
        if winner is not None:
            self.winner = winner
            self.phase, self.decision = _OVER, _D_OVER
            self._chance = None
            return (*events, _GAME_ENDED)
        assert self.first is not None
        self.first = (self.first + 1) % self.n
        self.phase, self.decision = _CHANCE, _D_CHANCE
        self._chance = "dice"
        return events

    def _start_round(self, dice: tuple[tuple[int, ...], ...]) -> None:
        assert self.first is not None
        n = self.n
        # the new round's field, in new tables (quicker than emptying the old ones)
        self._cnt = [0] * (7 << 5)
        order: list[list[int]] = [[], [], [], [], [], [], []]
        self._order = order
        self._comps = [None] * (7 << 5)
        self._pile_keys = []
        self._own = own = []
        self.singles = singles = []
        self.single_total = [len(faces) for faces in dice]
        self._captures = [[] for _ in range(n)]
        self._made = 0
        self._caught_points = [0] * n
        self.penalties = [0] * n
        self.hand = None
        self._placing = None
        self.last_turns = None
        for seat, faces in enumerate(dice):
            row = [0, 0, 0, 0, 0, 0, 0]
            for f in faces:
                row[f] = row[f] + 1
            singles.append(row)
            mine = [0, 0, 0, 0, 0, 0, 0]
            own.append(mine)
            key = seat << 2 | 1  # the key of the seat's unstacked dice (counted by row)
            for f in range(1, 7):
                if row[f]:
                    order[f].append(key)
                    mine[f] = 1
        self._turns = []
        self.history.append({"first": self.first, "dice": dice, "turns": self._turns})
        self.current = self.current_player = self.first
        self.phase, self.decision = _TURN, _D_TURN
        self._chance = None

    def _roll_off(self, rolls: tuple[int, ...]) -> None:
        contenders = self.contenders
        assert contenders is not None
        self.rolloffs.append(list(rolls))
        best = max(rolloff_rank(f) for f in rolls)
        left = tuple(s for s, f in zip(contenders, rolls, strict=True) if rolloff_rank(f) == best)
        if len(left) == 1:
            self.first = left[0]
            self.contenders = None
            self._chance = "dice"
        else:
            self.contenders = left

    # ----------------------------------------------------------------- serialisation

    def to_dict(self, *, full_history: bool = True) -> dict[str, Any]:
        """The whole state as a JSON-compatible dict; :meth:`from_dict` restores it exactly.

        With ``full_history=False`` only the current round's dice and turns are kept (the
        earlier rounds' scores stay): a compact snapshot for storage, whose move log holds
        the rest. Play goes on identically from it; only :func:`export_record` needs more.
        """
        kept = self.history if full_history else self.history[-1:]
        offset = self.history_offset + len(self.history) - len(kept)
        return {
            "format": STATE_FORMAT,
            "players": list(self.players),
            "rules": self.rules.to_record(),
            "totals": list(self.totals),
            "round_scores": [list(r) for r in self.round_scores],
            "first": self.first,
            "contenders": None if self.contenders is None else list(self.contenders),
            "rolloffs": [list(r) for r in self.rolloffs],
            "chance": self._chance,
            "decision": self.phase.value,
            "current": self.current,
            "singles": [list(row) for row in self.singles],
            "piles": [
                [o, f, h, [list(c) for c in comps]] for (o, f, h), comps in self.piles.items()
            ],
            "targets": [
                [[k >> 2, k & 3, self._pile_count(f, k)] for k in keys]
                for f, keys in enumerate(self._order)
            ],
            "captures": [[[f, list(c)] for f, c in caught] for caught in self.captures],
            "penalties": list(self.penalties),
            "hand": self.hand,
            "placing": self._placing,
            "last_turns": None if self.last_turns is None else list(self.last_turns),
            "history_offset": offset,
            "capture_counts": list(self.capture_counts),
            "history": [
                {
                    "first": r["first"],
                    "dice": [list(d) for d in r["dice"]],
                    "turns": [list(t) for t in r["turns"]],
                }
                for r in kept
            ],
            "winner": None if self.winner is None else list(self.winner),
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Self:
        """Restore a state written by :meth:`to_dict`; ``ValueError`` if it is not one."""
        try:
            if data["format"] != STATE_FORMAT:
                raise ValueError(f"unknown state format {data['format']!r}")
            self = cls(BLANK)
            self.players = tuple(data["players"])
            self.rules = StackRules.model_validate(data["rules"])
            self._capture_penalty = self.rules.capture_penalty
            self._rolled_two_penalty = self.rules.rolled_two_penalty
            check_setup(self.players, self.rules)
            self.n = len(self.players)
            self._turn_ended = tuple((TurnEnded(seat),) for seat in range(self.n))
            self._after = tuple(
                tuple((p + i) % self.n for i in range(1, self.n)) for p in range(self.n)
            )
            self.team = self.rules.team_of(self.players)
            self.totals = list(data["totals"])
            self.round_scores = [list(r) for r in data["round_scores"]]
            self.first = data["first"]
            c = data["contenders"]
            self.contenders = None if c is None else tuple(c)
            self.rolloffs = [list(r) for r in data["rolloffs"]]
            self._chance = data["chance"]
            self.phase = Phase(data["decision"])
            self.decision = _DECISION[self.phase]
            self.current = self.current_player = data["current"]
            self.singles = [list(row) for row in data["singles"]]
            self.single_total = [sum(row) for row in self.singles]
            n = self.n
            self._comps = [None] * (7 << 5)
            self._pile_keys = []
            for o, f, h, comps in data["piles"]:
                i = _number(n, f, o, h)
                self._comps[i] = [tuple(c) for c in comps]
                self._pile_keys.append(i)
            self._cnt = [0] * (7 << 5)
            self._order = [[] for _ in range(7)]
            self._own = [[0] * 7 for _ in range(n)]
            if len(data["targets"]) != 7:
                raise ValueError("not a saved Stack state: targets for faces 0 to 6 needed")
            for f, bucket in enumerate(data["targets"]):
                for o, h, c in bucket:
                    i = _number(n, f, o, h)
                    if h != 1:  # (unstacked dice are counted by singles)
                        self._cnt[i] = c
                    self._order[f].append(i & 31)
                    self._own[o][f] += 1
            self._captures = [[(f, tuple(c)) for f, c in caught] for caught in data["captures"]]
            self._caught_points = [sum(_VALUE[f] for f, _ in caught) for caught in self._captures]
            self.penalties = list(data["penalties"])
            self.hand = data["hand"]
            self._placing = data["placing"]
            lt = data["last_turns"]
            self.last_turns = None if lt is None else list(lt)
            self.history = [
                {
                    "first": r["first"],
                    "dice": tuple(tuple(d) for d in r["dice"]),
                    "turns": [tuple(t) for t in r["turns"]],
                }
                for r in data["history"]
            ]
            self._turns = self.history[-1]["turns"] if self.history else []
            self._made = len(self._turns)  # the piles' dice above are up to the log
            self._offer = None
            self.history_offset = int(data["history_offset"])
            self.capture_counts = list(data["capture_counts"])
            w = data["winner"]
            self.winner = None if w is None else tuple(w)
        except (KeyError, TypeError, IndexError) as exc:
            raise ValueError(f"not a saved Stack state: {exc!r}") from exc
        return self

    def copy(self) -> Self:
        """An independent copy of this state."""
        return type(self).from_dict(self.to_dict())

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, StackState):
            return NotImplemented
        return self.to_dict() == other.to_dict()

    __hash__ = None  # type: ignore[assignment]


# the random AI's chooser (engine.stack.ai.RandomPlayer.choose), which direct_play knows
_PICK_RANDOM: Final = StackState.pick_random


def _round_ended(number: int) -> RoundEnded:
    """The event of round ``number``'s end (made at import for the first rounds)."""
    return _ROUND_ENDED[number] if number < _ROUNDS_MADE else RoundEnded(number)


def _number(n: int, face: int, owner: int, height: int) -> int:
    """The number of the pile (``face``, top ``owner``, ``height``) among ``n`` seats;
    ``ValueError`` when there is no such pile."""
    if not (0 <= face <= 6 and 0 <= owner < n and 1 <= height <= 3):
        raise ValueError(f"not a saved Stack state: no pile {(owner, face, height)!r}")
    return face << 5 | owner << 2 | height


def check_setup(players: tuple[str, ...], rules: StackRules) -> None:
    """Raise :class:`SetupError` unless ``players`` and ``rules`` make a game."""
    if not MIN_PLAYERS <= len(players) <= MAX_PLAYERS:
        raise SetupError(f"Stack needs {MIN_PLAYERS} to {MAX_PLAYERS} players, not {len(players)}.")
    if any(not isinstance(p, str) or not p.strip() for p in players):
        raise SetupError("Every player needs a name.")
    if len(set(players)) != len(players):
        raise SetupError("Every player needs a different name.")
    if rules.teams is not None:
        named = [name for pair in rules.teams for name in pair]
        if sorted(named) != sorted(players):
            raise SetupError("The teams must name every player exactly once.")
        if len(players) < 4 or len(players) % 2:
            raise SetupError("Team play needs an even number of players, at least 4.")
        if teams_adjacent(players, rules.teams):
            raise SetupError("Teammates may not sit next to each other.")
