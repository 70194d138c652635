"""Stack Up!, naively, from ``docs/stackup-rules.md`` (a bench yardstick; see the package).

Cards are their names (``"R7"``, ``"Flip"``); hands, the draw pile (top last) and the
stack (top last) are lists of names. A move is a tuple: ``("up",)``/``("down",)``,
``("play", cards, bonus, colour letter, target, count)``, ``("block",)``, ``("take",)``,
``("pass",)``, ``("draw",)``, ``("play drawn", colour letter, target, count)``,
``("keep",)``. Chance outcomes: ``("deal", deck top first, first seat)``, ``("took",
cards)``, ``("reshuffle", new draw pile top first)``.
"""

from __future__ import annotations

import random
from typing import Any

COLOURS = "RBYG"
SPECIALS = ("Flip", "Freeze", "Snatch", "Switch", "Crash")
DECK = [f"{c}{n}" for c in COLOURS for n in range(1, 16)] + [s for s in SPECIALS for _ in range(4)]
HAND = 10


def is_number(card: str) -> bool:
    return card not in SPECIALS


def number(card: str) -> int:
    return int(card[1:])


class Game:
    def __init__(self, players: int, *, turn_limit: int = 500) -> None:
        self.n = players
        self.turn_limit = turn_limit
        self.hands: list[list[str]] = [[] for _ in range(players)]
        self.pile: list[str] = []
        self.stack: list[str] = []
        self.colour = ""
        self.number = 0
        self.up = True
        self.passes = [0] * players
        self.crash: int | None = None  # the seat a Crash penalty is pending on
        self.seat: int | None = None
        self.phase = "deal"  # deal, direction, turn, drawn, over
        self.chance: str | None = "deal"
        self.drawn: str | None = None
        self.snatch: tuple[int, int] | None = None
        self.after_draw: str | None = None  # what a draw interrupted by a reshuffle finishes
        self.to_draw = 0
        self.reshuffled = False  # the pile was rebuilt during this turn's draw
        self.turns = 0
        self.over = False
        self.winners: list[int] = []

    # ---------------------------------------------------------------- the rules

    def on_stack(self, card: str) -> bool:
        if card[0] == self.colour:
            return True
        return number(card) == self.number + (1 if self.up else -1)

    def snatch_targets(self, p: int) -> list[int]:
        return [t for t in range(self.n) if t != p and len(self.hands[t]) >= 2]

    def snatch_counts(self, t: int) -> list[int]:
        return [1, 2, 3] if len(self.hands[t]) >= 4 else [1]

    def plays(self, p: int) -> list[tuple[Any, ...]]:
        hand = self.hands[p]
        out: list[tuple[Any, ...]] = []
        for card in hand:
            if is_number(card):
                if not self.on_stack(card):
                    continue
                run = [card]
                while True:
                    if len(run) >= 3 and len(run) < len(hand):
                        out.append(("play", tuple(run), "pass", None, None, None))
                        out.append(("play", tuple(run), "skip", None, None, None))
                    else:
                        out.append(("play", tuple(run), None, None, None, None))
                    nxt = number(run[-1]) + (1 if self.up else -1)
                    if f"{card[0]}{nxt}" not in hand or not 1 <= nxt <= 15:
                        break
                    run.append(f"{card[0]}{nxt}")
            elif card == "Switch":
                for c in COLOURS:
                    if c != self.colour:
                        out.append(("play", ("Switch",), None, c, None, None))
            elif card == "Crash":
                out.append(("play", ("Crash",), None, None, None, None))
            elif len(hand) > 1:
                if card == "Snatch":
                    for t in self.snatch_targets(p):
                        for k in self.snatch_counts(t):
                            out.append(("play", ("Snatch",), None, None, t, k))
                else:
                    out.append(("play", (card,), None, None, None, None))
        unique: list[tuple[Any, ...]] = []
        for play in out:
            if play not in unique:
                unique.append(play)
        return unique

    def drawn_plays(self, p: int) -> list[tuple[Any, ...]]:
        card = self.drawn
        if card is None:
            return []
        if is_number(card):
            return [("play drawn", None, None, None)] if self.on_stack(card) else []
        if card == "Switch":
            return [("play drawn", c, None, None) for c in COLOURS if c != self.colour]
        if card == "Snatch":
            return [
                ("play drawn", None, t, k)
                for t in self.snatch_targets(p)
                for k in self.snatch_counts(t)
            ]
        return [("play drawn", None, None, None)]

    def moves(self) -> list[tuple[Any, ...]]:
        p = self.seat
        if p is None or self.chance is not None:
            return []
        if self.phase == "direction":
            return [("up",), ("down",)]
        if self.phase == "drawn":
            return [*self.drawn_plays(p), ("keep",)]
        if self.crash == p:
            return [("block",), ("take",)] if "Crash" in self.hands[p] else [("take",)]
        plays = self.plays(p)
        if plays:
            return plays
        return [("pass",)] if self.passes[p] else [("draw",)]

    def result(self) -> tuple[list[int], list[int]]:
        return self.winners, [len(h) for h in self.hands]

    # ---------------------------------------------------------------- chance

    def sample(self, rng: random.Random) -> tuple[Any, ...]:
        if self.chance == "deal":
            first = rng.randrange(self.n)
            deck = list(DECK)
            while True:
                rng.shuffle(deck)
                if any(is_number(c) for c in deck[HAND * self.n :]):
                    return ("deal", deck, first)
        if self.chance == "took":
            assert self.snatch is not None
            return ("took", rng.sample(self.hands[self.snatch[0]], self.snatch[1]))
        cards = self.stack[: self.base()]
        rng.shuffle(cards)
        return ("reshuffle", cards)

    def base(self) -> int:
        """The index of the stack's most recent number card."""
        i = len(self.stack) - 1
        while not is_number(self.stack[i]):
            i -= 1
        return i

    def resolve(self, outcome: tuple[Any, ...]) -> None:
        kind = outcome[0]
        self.chance = None
        if kind == "deal":
            deck, first = list(outcome[1]), outcome[2]
            for k in range(HAND * self.n):
                self.hands[(first + k) % self.n].append(deck[k])
            rest = deck[HAND * self.n :]
            buried = []
            while not is_number(rest[0]):
                buried.append(rest.pop(0))
            start = rest.pop(0)
            self.pile = list(reversed(rest + buried))
            self.stack = [start]
            self.colour, self.number = start[0], number(start)
            self.seat = first
            self.phase = "direction"
        elif kind == "took":
            assert self.seat is not None and self.snatch is not None
            for card in outcome[1]:
                self.hands[self.snatch[0]].remove(card)
                self.hands[self.seat].append(card)
            self.snatch = None
            self.end_turn(self.seat)
        else:
            del self.stack[: self.base()]
            self.pile = list(reversed(outcome[1]))
            self.reshuffled = True
            self.draw(self.to_draw)

    def draw(self, count: int) -> None:
        """Draw ``count`` cards for the seat to act, then finish what the draw was for."""
        p = self.seat
        assert p is not None
        while count:
            if not self.pile:
                if self.base() > 0 and not self.reshuffled:
                    self.to_draw = count
                    self.chance = "reshuffle"
                    return
                break
            card = self.pile.pop()
            self.hands[p].append(card)
            self.drawn = card
            count -= 1
        if self.after_draw == "take":
            self.drawn = None
            self.end_turn(p)
        else:
            self.phase = "drawn"

    # ---------------------------------------------------------------- moves

    def play(self, move: tuple[Any, ...]) -> None:
        p = self.seat
        assert p is not None
        kind = move[0]
        if kind in ("up", "down"):
            self.up = kind == "up"
            self.phase = "turn"
        elif kind == "play":
            for card in move[1]:
                self.hands[p].remove(card)
            self.put(p, list(move[1]), *move[2:])
        elif kind == "play drawn":
            card, self.drawn = self.drawn, None
            assert card is not None
            self.hands[p].remove(card)
            self.phase = "turn"
            self.put(p, [card], None, *move[1:])
        elif kind == "block":
            self.hands[p].remove("Crash")
            self.stack.append("Crash")
            self.end_turn(p, "block")
        elif kind == "take":
            self.after_draw, self.reshuffled = "take", False
            self.draw(3)
        elif kind == "pass":
            self.passes[p] -= 1
            self.end_turn(p)
        elif kind == "draw":
            self.after_draw, self.reshuffled, self.drawn = "draw", False, None
            self.draw(1)
        else:  # keep
            self.drawn = None
            self.phase = "turn"
            self.end_turn(p)

    def put(
        self,
        p: int,
        cards: list[str],
        bonus: str | None,
        colour: str | None,
        target: int | None,
        count: int | None,
    ) -> None:
        self.stack.extend(cards)
        card = cards[0]
        if is_number(card):
            self.colour, self.number = cards[-1][0], number(cards[-1])
            self.end_turn(p, bonus or "")
        elif card == "Flip":
            self.up = not self.up
            self.end_turn(p)
        elif card == "Switch":
            assert colour is not None
            self.colour = colour
            self.end_turn(p)
        elif card == "Snatch":
            assert target is not None and count is not None
            self.snatch = (target, count)
            self.chance = "took"
        else:
            self.end_turn(p, {"Freeze": "skip", "Crash": "crash"}.get(card, ""))

    def end_turn(self, p: int, effect: str = "") -> None:
        """``p``'s turn is over; ``effect``: ``skip`` (a Freeze or the bonus), ``crash``,
        ``block`` or ``pass`` (the bonus draw pass)."""
        self.turns += 1
        self.crash = None
        if effect == "pass":
            self.passes[p] += 1
        if not self.hands[p]:
            self.finish([p])
            return
        if self.turns >= self.turn_limit:
            fewest = min(len(h) for h in self.hands)
            self.finish([s for s in range(self.n) if len(self.hands[s]) == fewest])
            return
        nxt = (p + (2 if effect == "skip" else 1)) % self.n
        if effect == "crash" or (effect == "block" and self.n > 2):
            self.crash = nxt
        self.seat = nxt
        self.phase = "turn"

    def finish(self, winners: list[int]) -> None:
        self.winners = winners
        self.over = True
        self.seat = None
        self.phase = "over"


def self_play(players: int, rng: random.Random) -> int:
    """One game of ``players`` uniformly random players; returns the decisions taken (a
    forced move, the only one legal, is played without asking)."""
    game = Game(players)
    decisions = 0
    while not game.over:
        if game.chance is not None:
            game.resolve(game.sample(rng))
            continue
        moves = game.moves()
        if len(moves) == 1:
            game.play(moves[0])
        else:
            game.play(moves[int(rng.random() * len(moves))])
            decisions += 1
    return decisions
