"""The state of a game of Stack, following ``docs/stack-rules.md`` to the letter.

The field is kept as counts of piles by (top owner, face, height) — all that matters for
play and scoring — plus, for each pile of two or three dice, which colours it holds, so
that dice can be accounted for. Piles that agree on top owner, face and height are
interchangeable for the rest of a round.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from enum import Enum
from typing import Any, Self

from engine.errors import IllegalMoveError, IllegalReason, Target
from engine.game import NO_EVENTS, Decision, Event, GameEnded, Outcome, RoundEnded, TurnEnded
from engine.native import BLANK
from engine.stack.moves import (
    FACES,
    PLACES,
    REROLLS,
    ROLLS,
    STACKS_BY_FACE,
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


_TURN = Phase.TURN
_FACE_SET = frozenset(FACES)
_PLACE = Phase.PLACE
_CHANCE = Phase.CHANCE
_OVER = Phase.OVER
_GAME_ENDED = GameEnded()
_D_TURN = Decision.TURN
_D_CHANCE = Decision.CHANCE
_D_OVER = Decision.OVER
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
        "_chance",
        "_events",
        "_placing",
        "_turn_ended",
        "capture_counts",
        "captures",
        "contenders",
        "current",
        "decision",
        "first",
        "hand",
        "history",
        "history_offset",
        "last_turns",
        "n",
        "own_keys",
        "penalties",
        "phase",
        "piles",
        "players",
        "rolloffs",
        "round_scores",
        "rules",
        "single_total",
        "singles",
        "targets",
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
    singles: list[list[int]]
    single_total: list[int]
    piles: dict[tuple[int, int, int], list[Composition]]
    targets: list[dict[tuple[int, int], int]]
    own_keys: list[list[int]]
    captures: list[list[tuple[int, Composition]]]
    penalties: list[int]
    hand: int | None
    _placing: int | None
    last_turns: list[int] | None
    history: list[dict[str, Any]]
    history_offset: int
    capture_counts: list[int]
    winner: tuple[int, ...] | None

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
        self.n = len(players)
        self._events = NO_EVENTS
        self._turn_ended = tuple((TurnEnded(seat),) for seat in range(self.n))
        self.team = rules.team_of(players)
        self.totals = [0] * self.n
        self.round_scores = []
        self.rolloffs = []
        self.history = []
        self.history_offset = 0
        self.capture_counts = [0] * self.n
        self.winner = None
        self.current = None
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
        self.piles = {}
        self.targets = [{} for _ in range(7)]
        self.own_keys = [[0] * n for _ in range(7)]
        self.captures = [[] for _ in range(n)]
        self.penalties = [0] * n
        self.hand = None
        self._placing = None
        self.last_turns = None

    # ----------------------------------------------------------------- queries

    @property
    def current_player(self) -> int | None:
        """The seat that must decide now, or ``None`` at a chance node or after the game."""
        return self.current

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
        return [k for k in self.targets[face] if k[0] != seat]

    def team_members(self, seat: int) -> tuple[int, ...]:
        """The seats on ``seat``'s side: its team, or just itself."""
        if self.team is None:
            return (seat,)
        t = self.team[seat]
        return tuple(s for s in range(self.n) if self.team[s] == t)

    def field_scores(self) -> list[int]:
        """What each seat would score if the round ended now (penalties included)."""
        scores = list(self.penalties)
        for (owner, face, _), comps in self.piles.items():
            if comps:
                scores[owner] += face_value(face) * len(comps)
        double = 2 if self.rules.four_high_bonus else 1
        for seat, caught in enumerate(self.captures):
            for face, _ in caught:
                scores[seat] += face_value(face) * double
        return scores

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
            return [PLACES[k] for k in self.targets[face] if k[0] != p]
        moves: list[PlayerMove] = []
        row = self.singles[p]
        targets = self.targets
        append = moves.append
        for f in FACES:
            if row[f]:
                bucket = targets[f]
                if bucket:
                    by_target = STACKS_BY_FACE[f]
                    for k in bucket:
                        if k[0] != p:
                            append(by_target[k])
                append(REROLLS[f])
        return moves

    def count_legal_moves(self) -> int:
        """How many moves :meth:`legal_moves` would list, without listing them."""
        p = self.current
        if p is None:
            return 0
        targets = self.targets
        own = self.own_keys
        if self.phase is _PLACE:
            face = self._placing
            assert face is not None
            return len(targets[face]) - own[face][p]
        row = self.singles[p]
        total = 0
        for f in FACES:
            if row[f]:
                total += len(targets[f]) - own[f][p] + 1
        return total

    def nth_legal_move(self, index: int) -> PlayerMove:
        """``legal_moves()[index]``, found without listing every move.

        With :meth:`count_legal_moves` this lets a player pick a move at random cheaply.
        """
        p = self.current
        if p is None or index < 0:
            raise IndexError(index)
        targets = self.targets
        own = self.own_keys
        if self.phase is _PLACE:
            face = self._placing
            assert face is not None
            for k in targets[face]:
                if k[0] != p:
                    if not index:
                        return PLACES[k]
                    index -= 1
            raise IndexError(index)
        row = self.singles[p]
        for f in FACES:
            if row[f]:
                bucket = targets[f]
                stacks = len(bucket) - own[f][p]
                if index > stacks:
                    index -= stacks + 1
                    continue
                if index == stacks:
                    return REROLLS[f]
                by_target = STACKS_BY_FACE[f]
                for k in bucket:
                    if k[0] != p:
                        if not index:
                            return by_target[k]
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
        self._events = NO_EVENTS  # the mechanics below add what happens
        p = self.current
        decision = self.phase
        if type(move) is Stack:
            f, o, h = move.face, move.owner, move.height
            if (
                decision is _TURN
                and (by is None or by == p)
                and o != p
                and 1 <= f <= 6
                and p is not None
                and self.singles[p][f]
                and (o, h) in self.targets[f]
            ):
                self._take_single(p, f)
                self._place(p, f, o, h, ("stack", p, f))
                return self._events
        elif type(move) is Reroll:
            f = move.face
            if (
                decision is _TURN
                and (by is None or by == p)
                and 1 <= f <= 6
                and p is not None
                and self.singles[p][f]
            ):
                self._take_single(p, f)
                self.hand = f
                self.phase, self.decision = _CHANCE, _D_CHANCE
                self._chance = "roll"
                return self._events
        elif type(move) is Roll:
            if decision is _CHANCE and self._chance == "roll" and 1 <= move.face <= 6:
                self._rolled(move.face)
                return self._events
        elif type(move) is Place:
            placing = self._placing
            o, h = move.owner, move.height
            if (
                decision is _PLACE
                and (by is None or by == p)
                and o != p
                and placing is not None
                and p is not None
                and self.hand is not None
                and (o, h) in self.targets[placing]
            ):
                self._placing = None
                self.phase, self.decision = _TURN, _D_TURN
                self._place(p, placing, o, h, ("reroll", p, self.hand, placing))
                return self._events
        elif type(move) is RoundDice:
            self._check(move, by)
            self._start_round(move.dice)
            return self._events
        elif type(move) is RollOff:
            self._check(move, by)
            self._roll_off(move.rolls)
            return self._events
        # Not playable now: _check raises the error that says why.
        self._check(move, by)
        raise AssertionError(f"{move!r} passed the checks but was not applied")

    def sample_chance(self, rng: random.Random) -> Move:
        """Draw the pending chance outcome from ``rng`` (without applying it)."""
        kind = self.chance_kind
        rand = rng.random
        if kind == "roll":
            return ROLLS[int(rand() * 6) + 1]
        if kind == "dice":
            dpp = self.rules.dice_per_player
            faces = [int(rand() * 6) + 1 for _ in range(dpp * self.n)]
            return RoundDice(tuple(tuple(faces[i : i + dpp]) for i in range(0, len(faces), dpp)))
        if kind == "rolloff":
            assert self.contenders is not None
            return RollOff(tuple(int(rand() * 6) + 1 for _ in self.contenders))
        raise IllegalMoveError("No dice are waiting to be rolled.", IllegalReason.BAD_OUTCOME)

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
        if (owner, height) not in self.targets[face]:
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

    def _take_single(self, p: int, face: int) -> None:
        """Lift one of ``p``'s unstacked dice showing ``face`` off the field."""
        self.singles[p][face] -= 1
        self.single_total[p] -= 1
        bucket = self.targets[face]
        key = (p, 1)
        left = bucket[key] - 1
        if left:
            bucket[key] = left
        else:
            del bucket[key]
            self.own_keys[face][p] -= 1

    def _rolled(self, rolled: int) -> None:
        p = self.current
        face = self.hand
        assert p is not None and face is not None
        self._chance = None
        if rolled == 2 and self.rules.rolled_two_penalty:
            self.penalties[p] -= 1
        bucket = self.targets[rolled]
        options = len(bucket) - self.own_keys[rolled][p]
        if not options:
            self.singles[p][rolled] += 1
            self.single_total[p] += 1
            key = (p, 1)
            if key in bucket:
                bucket[key] += 1
            else:
                bucket[key] = 1
                self.own_keys[rolled][p] += 1
            self.phase, self.decision = _TURN, _D_TURN
            self.hand = None
            self.history[-1]["turns"].append(("reroll", p, face, rolled, None, None))
            self._end_turn(p, False)
        elif options == 1:
            self.phase, self.decision = _TURN, _D_TURN
            owner, height = next(k for k in bucket if k[0] != p)
            self._place(p, rolled, owner, height, ("reroll", p, face, rolled))
        else:
            self.phase, self.decision = _PLACE, _D_TURN
            self._placing = rolled

    def _place(self, p: int, face: int, owner: int, height: int, log: TurnLog) -> None:
        """Put ``p``'s die showing ``face`` on ``owner``'s pile of ``height``; end the turn."""
        self.hand = None
        bucket = self.targets[face]
        own = self.own_keys[face]
        key = (owner, height)
        left = bucket[key] - 1
        if left:
            bucket[key] = left
        else:
            del bucket[key]
            own[owner] -= 1
        if height == 1:
            self.singles[owner][face] -= 1
            self.single_total[owner] -= 1
            comp: Composition = (owner, p)
        else:
            comp = (*self.piles[(owner, face, height)].pop(), p)
        if height == 3:
            self.captures[p].append((face, comp))
            self.capture_counts[p] += 1
            if self.rules.capture_penalty:
                penalties = self.penalties
                for seat in range(self.n):
                    if seat != p:
                        penalties[seat] -= 1
        else:
            pile_key = (p, face, height + 1)
            piles = self.piles.get(pile_key)
            if piles is None:
                self.piles[pile_key] = [comp]
            else:
                piles.append(comp)
            key = (p, height + 1)
            if key in bucket:
                bucket[key] += 1
            else:
                bucket[key] = 1
                own[p] += 1
        self.history[-1]["turns"].append((*log, owner, height))
        self._end_turn(p, height == 1 and not self.single_total[owner])

    def _end_turn(self, p: int, covered_last: bool) -> None:
        self._events = self._turn_ended[p]
        n = self.n
        totals = self.single_total
        last = self.last_turns
        if last is None and (covered_last or totals[p] == 0):
            # Going out, or stacking on an opponent's last die: the player who moved is out
            # (and so is the covered opponent, who has no unstacked die); everyone else with
            # an unstacked die gets one more turn, clockwise from the player who moved.
            last = [(p + i) % n for i in range(1, n)]
            self.last_turns = last
        if last is not None:
            while last and not totals[last[0]]:
                last.pop(0)
            if not last:
                self._end_round()
                return
            self.current = last.pop(0)
            return
        nxt = (p + 1) % n
        while not totals[nxt]:
            nxt = (nxt + 1) % n
        self.current = nxt

    def _end_round(self) -> None:
        scores = self.field_scores()
        self.round_scores.append(scores)
        self._events = (*self._events, RoundEnded(len(self.round_scores)))
        for seat, pts in enumerate(scores):
            self.totals[seat] += pts
        self.current = None
        self.last_turns = None
        sides = self.side_totals()
        best = max(sides.values())
        if best >= self.rules.target_score:
            leaders = [side for side, total in sides.items() if total == best]
            if len(leaders) == 1 or self.rules.tie_break == "shared":
                self.winner = tuple(sorted(s for side in leaders for s in side))
                self.phase, self.decision = _OVER, _D_OVER
                self._chance = None
                self._events = (*self._events, _GAME_ENDED)
                return
        assert self.first is not None
        self.first = (self.first + 1) % self.n
        self.phase, self.decision = _CHANCE, _D_CHANCE
        self._chance = "dice"

    def _start_round(self, dice: tuple[tuple[int, ...], ...]) -> None:
        assert self.first is not None
        self._clear_field()
        targets = self.targets
        own = self.own_keys
        for seat, faces in enumerate(dice):
            row = self.singles[seat]
            for f in FACES:
                c = faces.count(f)
                if c:
                    row[f] = c
                    targets[f][(seat, 1)] = c
                    own[f][seat] = 1
            self.single_total[seat] = len(faces)
        self.history.append(
            {"first": self.first, "dice": tuple(tuple(d) for d in dice), "turns": []}
        )
        self.current = self.first
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
            "targets": [[[o, h, c] for (o, h), c in bucket.items()] for bucket in self.targets],
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
            check_setup(self.players, self.rules)
            self.n = len(self.players)
            self._events = NO_EVENTS
            self._turn_ended = tuple((TurnEnded(seat),) for seat in range(self.n))
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
            self.current = data["current"]
            self.singles = [list(row) for row in data["singles"]]
            self.single_total = [sum(row) for row in self.singles]
            self.piles = {(o, f, h): [tuple(c) for c in comps] for o, f, h, comps in data["piles"]}
            self.targets = [{(o, h): c for o, h, c in bucket} for bucket in data["targets"]]
            self.own_keys = [[0] * self.n for _ in range(7)]
            for f, bucket in enumerate(self.targets):
                for o, _ in bucket:
                    self.own_keys[f][o] += 1
            self.captures = [[(f, tuple(c)) for f, c in caught] for caught in data["captures"]]
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
