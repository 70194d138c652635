"""Stack, naively, from ``docs/stack-rules.md`` (a bench yardstick; see the package).

The play area is a list of piles, each ``[face, [owner, …]]`` bottom to top; a move is a
tuple: ``("stack", face, owner, height)``, ``("reroll", face)``, ``("place", owner,
height)``. Chance outcomes: ``("rolloff", rolls)``, ``("dice", per-seat faces)``,
``("roll", face)``.
"""

from __future__ import annotations

import random
from typing import Any


def value(face: int) -> int:
    return 10 if face == 1 else face


RULES = {
    "dice_per_player": 14,
    "target_score": 200,
    "four_high_bonus": False,
    "capture_penalty": False,
    "rolled_two_penalty": False,
    "tie_break": "extra_round",
}


class Game:
    def __init__(
        self, players: int, teams: list[tuple[int, int]] | None = None, **rules: Any
    ) -> None:
        """``rules``: the house rules of :data:`RULES` that differ from their defaults;
        ``teams``: pairs of seats."""
        self.n = players
        self.rules = {**RULES, **rules}
        self.dice = self.rules["dice_per_player"]
        self.teams = teams
        self.totals = [0] * players
        self.piles: list[list[Any]] = []
        self.captured: list[list[int]] = [[] for _ in range(players)]  # faces
        self.penalty = [0] * players
        self.seat: int | None = None
        self.first: int | None = None
        self.contenders = list(range(players))
        self.chance: str | None = "rolloff"
        self.last_turns: list[int] | None = None
        self.hand: int | None = None  # the rerolled die's face, waiting to be placed
        self.over = False
        self.winners: list[int] = []

    # ---------------------------------------------------------------- queries

    def unstacked(self, seat: int) -> list[int]:
        return [pile[0] for pile in self.piles if len(pile[1]) == 1 and pile[1][0] == seat]

    def targets(self, seat: int, face: int) -> list[tuple[int, int]]:
        found = []
        for pile in self.piles:
            owner = pile[1][-1]
            if pile[0] == face and owner != seat and (owner, len(pile[1])) not in found:
                found.append((owner, len(pile[1])))
        return sorted(found)

    def moves(self) -> list[tuple[Any, ...]]:
        p = self.seat
        if p is None:
            return []
        if self.hand is not None:
            return [("place", o, h) for o, h in self.targets(p, self.hand)]
        out: list[tuple[Any, ...]] = []
        for face in sorted(set(self.unstacked(p))):
            for o, h in self.targets(p, face):
                out.append(("stack", face, o, h))
            out.append(("reroll", face))
        return out

    def result(self) -> tuple[list[int], list[int]]:
        return self.winners, self.totals

    # ---------------------------------------------------------------- chance

    def sample(self, rng: random.Random) -> tuple[Any, ...]:
        def roll() -> int:
            return int(rng.random() * 6) + 1

        if self.chance == "rolloff":
            return ("rolloff", [roll() for _ in self.contenders])
        if self.chance == "dice":
            return ("dice", [[roll() for _ in range(self.dice)] for _ in range(self.n)])
        return ("roll", roll())

    def resolve(self, outcome: tuple[Any, ...]) -> None:
        kind = outcome[0]
        if kind == "rolloff":
            best = max(value(f) for f in outcome[1])
            self.contenders = [
                s for s, f in zip(self.contenders, outcome[1], strict=True) if value(f) == best
            ]
            if len(self.contenders) == 1:
                self.first = self.contenders[0]
                self.chance = "dice"
        elif kind == "dice":
            self.piles = [[f, [seat]] for seat in range(self.n) for f in outcome[1][seat]]
            self.captured = [[] for _ in range(self.n)]
            self.penalty = [0] * self.n
            self.last_turns = None
            self.seat = self.first
            self.chance = None
        else:
            face = outcome[1]
            p = self.seat
            assert p is not None
            self.chance = None
            if face == 2 and self.rules["rolled_two_penalty"]:
                self.penalty[p] -= 1
            options = self.targets(p, face)
            if not options:
                self.piles.append([face, [p]])
                self.end_turn(p, False)
            elif len(options) == 1:
                self.put(p, face, *options[0])
            else:
                self.hand = face

    # ---------------------------------------------------------------- moves

    def play(self, move: tuple[Any, ...]) -> None:
        p = self.seat
        assert p is not None
        if move[0] == "place":
            face, self.hand = self.hand, None
            assert face is not None
            self.put(p, face, move[1], move[2])
            return
        face = move[1]
        for i, pile in enumerate(self.piles):
            if pile[0] == face and pile[1] == [p]:
                del self.piles[i]
                break
        if move[0] == "stack":
            self.put(p, face, move[2], move[3])
        else:
            self.chance = "roll"

    def put(self, p: int, face: int, owner: int, height: int) -> None:
        for i, pile in enumerate(self.piles):
            if pile[0] == face and pile[1][-1] == owner and len(pile[1]) == height:
                pile[1].append(p)
                if len(pile[1]) == 4:
                    del self.piles[i]
                    self.captured[p].append(face)
                    if self.rules["capture_penalty"]:
                        for seat in range(self.n):
                            if seat != p:
                                self.penalty[seat] -= 1
                break
        covered_last = height == 1 and not self.unstacked(owner)
        self.end_turn(p, covered_last)

    def end_turn(self, p: int, covered_last: bool) -> None:
        if self.last_turns is None and (covered_last or not self.unstacked(p)):
            self.last_turns = [(p + i) % self.n for i in range(1, self.n)]
        if self.last_turns is not None:
            while self.last_turns and not self.unstacked(self.last_turns[0]):
                self.last_turns.pop(0)
            if not self.last_turns:
                self.end_round()
            else:
                self.seat = self.last_turns.pop(0)
            return
        nxt = (p + 1) % self.n
        while not self.unstacked(nxt):
            nxt = (nxt + 1) % self.n
        self.seat = nxt

    def end_round(self) -> None:
        scores = list(self.penalty)
        for pile in self.piles:
            if len(pile[1]) >= 2:
                scores[pile[1][-1]] += value(pile[0])
        for seat in range(self.n):
            for face in self.captured[seat]:
                scores[seat] += value(face) * (2 if self.rules["four_high_bonus"] else 1)
        for seat in range(self.n):
            self.totals[seat] += scores[seat]
        self.seat = None
        sides: list[tuple[int, ...]] = [(seat,) for seat in range(self.n)]
        if self.teams is not None:
            sides = list(self.teams)
        side_totals = [sum(self.totals[s] for s in side) for side in sides]
        best = max(side_totals)
        if best >= self.rules["target_score"]:
            leaders = [side for side, t in zip(sides, side_totals, strict=True) if t == best]
            if len(leaders) == 1 or self.rules["tie_break"] == "shared":
                self.winners = sorted(s for side in leaders for s in side)
                self.over = True
                return
        assert self.first is not None
        self.first = (self.first + 1) % self.n
        self.chance = "dice"


def self_play(players: int, rng: random.Random) -> int:
    """One game of ``players`` uniformly random players to 200; returns the decisions."""
    game = Game(players)
    decisions = 0
    while not game.over:
        if game.chance is not None:
            game.resolve(game.sample(rng))
        else:
            moves = game.moves()
            game.play(moves[int(rng.random() * len(moves))])
            decisions += 1
    return decisions
