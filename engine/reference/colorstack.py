"""Color Stack, naively, from ``docs/colorstack-rules.md`` (a bench yardstick; see the
package).

Squares are ``(column, row)`` pairs (column 0–8, row 1–6 or 1–9), named ``"c1"`` in moves;
a stack is a list of dice ``(colour, face)`` bottom to top, colours 0–3 (red, blue,
yellow, green). A move is ``("move", from, to)`` or ``("set", square, face)``. The set-up
is the rule book's step 1, then the rest: the chance outcome ``("first", seat)``, that
player's choice ``("colours", first colour, second colour)``, then the chance outcome
``("setup", first seat, first player's colours, cards as they lie, the 12 faces)``.
"""

from __future__ import annotations

import random
from typing import Any

DESIGNS = {
    "A": ("...", "...", "..."),
    "B": ("...", ".#.", "..."),
    "C": ("#..", "...", "..."),
    "D": ("...", "##.", "..."),
    "E": (".#.", "...", ".#."),
}
CARDS = ["A"] * 2 + ["B"] * 4 + ["C"] * 4 + ["D"] * 4 + ["E"] * 4
START_COLUMNS = (0, 2, 3, 5, 6, 8)
STEPS = ((1, 0), (-1, 0), (0, 1), (0, -1))


def name(sq: tuple[int, int]) -> str:
    return "abcdefghi"[sq[0]] + str(sq[1])


def square(text: str) -> tuple[int, int]:
    return ("abcdefghi".index(text[0]), int(text[1:]))


def stronger(m: int, t: int) -> bool:
    """Whether a piece showing ``m`` may stack on one showing ``t`` (strength alone)."""
    if m == t or (m == 6 and t == 1):
        return True
    return m < t and not (m == 1 and t == 6)


def black_of(cards: list[str]) -> set[tuple[int, int]]:
    black = set()
    for slot, card in enumerate(cards):
        card_row, card_col = divmod(slot, 3)
        turned = card.endswith("'")
        for dr, line in enumerate(DESIGNS[card[0]]):
            for dc, mark in enumerate(line):
                if mark == "#":
                    r, c = (2 - dr, 2 - dc) if turned else (dr, dc)
                    black.add((3 * card_col + c, 3 * card_row + 3 - r))
    return black


class Game:
    def __init__(self, *, board: str = "light", turn_limit: int = 300) -> None:
        self.rows = 6 if board == "light" else 9
        self.turn_limit = turn_limit
        self.board: dict[tuple[int, int], list[tuple[int, int]]] = {}
        self.black: set[tuple[int, int]] = set()
        self.owner: dict[int, int] = {}  # colour -> seat
        self.seat: int | None = None
        self.chance: str | None = "first"
        self.first: int | None = None
        self.colours: list[int] | None = None
        self.turns = 0
        self.seen: dict[Any, int] = {}
        self.over = False
        self.winners: list[int] = []

    # ---------------------------------------------------------------- chance

    def sample(self, rng: random.Random) -> tuple[Any, ...]:
        if self.chance == "first":
            return ("first", rng.randrange(2))
        assert self.first is not None and self.colours is not None
        deck = list(CARDS)
        rng.shuffle(deck)
        count = self.rows // 3 * 3
        cards = [c + ("'" if rng.random() < 0.5 else "") for c in deck[:count]]
        starts = {(c, r) for c in START_COLUMNS for r in (1, self.rows)}
        last = count - 3
        for slot in (0, 1, 2, last, last + 1, last + 2):
            if self.black_start(cards, slot, starts):
                cards[slot] = cards[slot][:-1] if cards[slot].endswith("'") else cards[slot] + "'"
        dice = [rng.randint(1, 6) for _ in range(12)]
        return ("setup", self.first, list(self.colours), cards, dice)

    def black_start(self, cards: list[str], slot: int, starts: set[tuple[int, int]]) -> bool:
        only = ["A"] * len(cards)
        only[slot] = cards[slot]
        return bool(black_of(only) & starts)

    def resolve(self, outcome: tuple[Any, ...]) -> None:
        if outcome[0] == "first":  # the first player chooses colours next
            self.first = self.seat = outcome[1]
            self.chance = None
            return
        _, first, colours, cards, dice = outcome
        second = [c for c in range(4) if c not in colours]
        for c in colours:
            self.owner[c] = first
        for c in second:
            self.owner[c] = 1 - first
        self.black = black_of(cards)
        squares = [(c, 1) for c in START_COLUMNS] + [(c, self.rows) for c in START_COLUMNS]
        a, b = colours
        x, y = second
        die_colours = [a, b, a, b, a, b, y, x, y, x, y, x]
        for sq, colour, face in zip(squares, die_colours, dice, strict=True):
            self.board[sq] = [(colour, face)]
        self.seat = first
        self.chance = None
        self.seen[self.position()] = 1

    # ---------------------------------------------------------------- the rules

    def position(self) -> Any:
        return (tuple(sorted((sq, tuple(s)) for sq, s in self.board.items() if s)), self.seat)

    def pieces(self, seat: int) -> list[tuple[int, int]]:
        return [sq for sq, s in self.board.items() if s and self.owner[s[-1][0]] == seat]

    def may_stack(self, frm: tuple[int, int], to: tuple[int, int]) -> bool:
        mover, below = self.board[frm], self.board[to]
        if self.turns == 0 or not stronger(mover[-1][1], below[-1][1]):
            return False
        mine, theirs = {d[0] for d in mover}, {d[0] for d in below}
        return not mine & theirs or len(mine | theirs) == 4

    def ends(self, frm: tuple[int, int]) -> set[tuple[int, int]]:
        """Every square a path of exactly the piece's number of steps can end on."""
        n = self.board[frm][-1][1]
        found = set()

        visited = {frm}

        def walk(sq: tuple[int, int], left: int) -> None:
            for dc, dr in STEPS:
                nxt = (sq[0] + dc, sq[1] + dr)
                if not (0 <= nxt[0] < 9 and 1 <= nxt[1] <= self.rows):
                    continue
                if nxt in self.black or nxt in visited:
                    continue
                occupied = bool(self.board.get(nxt))
                if left == 1:
                    if not occupied or self.may_stack(frm, nxt):
                        found.add(nxt)
                elif not occupied:
                    visited.add(nxt)
                    walk(nxt, left - 1)
                    visited.discard(nxt)

        walk(frm, n)
        return found

    def moves(self) -> list[tuple[Any, ...]]:
        if self.over or self.chance is not None or self.seat is None:
            return []
        if self.colours is None:  # the first player's two colours, in order
            return [("colours", a, b) for a in range(4) for b in range(4) if a != b]
        out: list[tuple[Any, ...]] = []
        for sq in self.pieces(self.seat):
            for end in sorted(self.ends(sq)):
                out.append(("move", name(sq), name(end)))
            face = self.board[sq][-1][1]
            out.extend(("set", name(sq), f) for f in range(1, 7) if f != face)
        return out

    def result(self) -> tuple[list[int], list[int]]:
        return self.winners, [self.turns]

    # ---------------------------------------------------------------- moves

    def play(self, move: tuple[Any, ...]) -> None:
        p = self.seat
        assert p is not None
        if move[0] == "colours":
            self.colours = [move[1], move[2]]
            self.seat = None
            self.chance = "setup"
            return
        if move[0] == "move":
            frm, to = square(move[1]), square(move[2])
            stack = self.board.get(to, []) + self.board[frm]
            self.board[frm] = []
            self.board[to] = stack
            self.turns += 1
            if len({d[0] for d in stack}) == 4:
                self.winners = [p]
                self.over = True
                return
        else:
            sq = square(move[1])
            self.board[sq][-1] = (self.board[sq][-1][0], move[2])
            self.turns += 1
        if self.pieces(1 - p):
            self.seat = 1 - p
        key = self.position()
        self.seen[key] = self.seen.get(key, 0) + 1
        if self.seen[key] >= 3 or self.turns >= self.turn_limit:
            self.over = True


def self_play(rng: random.Random, board: str = "light") -> int:
    """One game between two uniformly random players; returns the decisions taken."""
    game = Game(board=board)
    game.resolve(game.sample(rng))
    game.play(("colours", 0, 2))  # the default colours: the engine's players choose them
    game.resolve(game.sample(rng))
    decisions = 0
    while not game.over:
        moves = game.moves()
        game.play(moves[int(rng.random() * len(moves))])
        decisions += 1
    return decisions
