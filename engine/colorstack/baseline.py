"""A plain, independent alpha-beta player for Color Stack: the yardstick the ``expert`` is
measured against (issue 22; ``python -m engine.colorstack.match``). A tool, not an AI
level: no table offers it.

**Independent**: it keeps its own position (stacks, colour masks, occupancy, its own
Zobrist keys, its own repetition counts), makes and unmakes its own moves, and generates
them with **its own move generator** — a depth-first walk of the self-avoiding paths of
exactly ``n`` steps over the open squares, memoised by the squares near the piece, read
straight from ``docs/colorstack-rules.md`` — never the engine's ``legal_moves``,
``winning_moves``, ``pieces`` or ``reach`` tables. From the engine's state it reads only
the position (stacks, black squares, whose turn, turns played, the turn limit, each
colour's owner) and, for the repetition rule, the game's earlier positions (undoing the
game's own log on a copy). Its moves are handed back as the engine's interned
:class:`~engine.colorstack.moves.Move` / :class:`~engine.colorstack.moves.Set`.

**Plain**: negamax alpha-beta with iterative deepening, a transposition table (its move
tried first), a win-in-one check at every node (a side to move with a four-colour move has
won), and nothing else clever — moves ordered stacks, then moves, then sets; no killers,
history, extensions or pruning. Its evaluation, for the side to move, is its minus the
opponent's: 100 per winning move it would have if it were to move, 10 per piece, and the
square of each own stack's colour count. With ``soon`` (``--baseline-soon``) it also
counts, at 30, each four-colour stacking one set away (a piece that could reach and stack
on a stack holding the missing colours after turning its die) — the one domain term that
lets a depth-2 search see threats coming; off by default, the plain baseline. With
``whole_first`` (``--baseline-whole-first``) the first iteration (depth 1) always
finishes, whatever the clock: a plain searcher's usual guard against playing a move it
has not looked at (the expert's guard is another: it sets aside moves that hand the
opponent a win in one). It may then overrun a tiny budget; the match tool shows by how
much.

**Budget**, managed like the expert's so that "equal time" means equal: ``budget``
seconds of wall clock a move, a hard stop at 95 % of it, no new iteration once 45 % is
spent, the interrupted iteration's fully searched moves kept; or ``nodes``, a node budget
(reproducible; it then ignores the clock).
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass

from engine.colorstack.moves import TurnMove, move, set_face
from engine.colorstack.state import ColorStackState

WIN = 1_000_000
MATE_BOUND = WIN - 10_000
INFINITY = WIN + 1
MAX_DEPTH = 64
HARD_SHARE = 0.95
SOFT_SHARE = 0.45
TT_LIMIT = 500_000
ENDS_LIMIT = 200_000
FOUR = 0b1111

W_THREAT = 100
W_PIECE = 10
W_BUILD = 1
W_SOON = 30  # with ``soon``: a four-colour stacking one set away

EXACT, LOWER, UPPER = 0, 1, 2
SET_FLAG = 1 << 15  # a set is SET_FLAG | square << 3 | face; a move is frm << 8 | to

# CAN_STACK[m][t]: a piece showing m may go on one showing t — the rule book's table:
# smaller is stronger, equal may stack, 6 beats 1, and 1 does not beat 6.
CAN_STACK: tuple[tuple[bool, ...], ...] = tuple(
    tuple(
        1 <= m <= 6
        and 1 <= t <= 6
        and ((m <= t and not (m == 1 and t == 6)) or (m == 6 and t == 1))
        for t in range(7)
    )
    for m in range(7)
)

_zr = random.Random(0xBA5E11E)
_Z: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
    tuple(tuple(_zr.getrandbits(64) for _ in range(32)) for _ in range(6)) for _ in range(81)
)
_Z_SIDE = _zr.getrandbits(64)
del _zr


class _OutOfBudget(Exception):
    pass


def _geometry(rows: int) -> tuple[list[tuple[int, ...]], list[list[int]]]:
    """Each square's orthogonal neighbours, and ``near[sq][n]``: the mask of squares within
    ``n`` steps of ``sq`` (the only ones a path of ``n`` steps can touch)."""
    size = rows * 9
    neighbours: list[tuple[int, ...]] = []
    for sq in range(size):
        r, c = divmod(sq, 9)
        out = []
        for dr, dc in ((1, 0), (0, 1), (-1, 0), (0, -1)):
            rr, cc = r + dr, c + dc
            if 0 <= rr < rows and 0 <= cc < 9:
                out.append(rr * 9 + cc)
        neighbours.append(tuple(out))
    near = []
    for sq in range(size):
        r, c = divmod(sq, 9)
        row = []
        for n in range(7):
            mask = 0
            for q in range(size):
                if abs(q // 9 - r) + abs(q % 9 - c) <= n:
                    mask |= 1 << q
            row.append(mask)
        near.append(row)
    return neighbours, near


_GEOMETRY: dict[int, tuple[list[tuple[int, ...]], list[list[int]]]] = {}
# (rows, black squares) -> (square, steps, blocked squares near it) -> end squares
_ENDS: dict[tuple[int, int], dict[tuple[int, int, int], int]] = {}


def _bits(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


class Position:
    """The baseline's own copy of a position, with make/unmake and move generation."""

    def __init__(self, state: ColorStackState, soon: bool = False) -> None:
        self.soon = soon
        self.rows = state.rows
        if self.rows not in _GEOMETRY:
            _GEOMETRY[self.rows] = _geometry(self.rows)
        self.neighbours, self.near = _GEOMETRY[self.rows]
        self.black = state.black
        self.cells: list[tuple[int, ...]] = list(state.cells)
        self.masks = [0] * len(self.cells)
        self.occ = 0
        for sq, cell in enumerate(self.cells):
            for d in cell:
                self.masks[sq] |= 1 << (d >> 3)
            if cell:
                self.occ |= 1 << sq
        self.owner = [state.seat_of_colour(c) for c in range(4)]
        self.to_move = state.to_move
        self.turns = state.turns
        self.limit = state.turn_limit
        self.hash = full_hash(self.cells, self.to_move)
        self.counts = history_counts(state)
        # shared by every search of a board of these rows and black squares
        if (self.rows, self.black) not in _ENDS and len(_ENDS) >= 4:
            _ENDS.clear()  # a few boards at a time: a match plays many
        self.ends_cache = _ENDS.setdefault((self.rows, self.black), {})
        # (move, datum, previous to_move, previous hash, hash counted or 0)
        self.undo: list[tuple[int, int, int, int, int]] = []
        self.over = False  # the last make ended the game (a win or a draw)
        self.won = False  # ... by making four colours

    # ------------------------------------------------------------ move generation

    def ends(self, sq: int, n: int) -> int:
        """The mask of squares a path of exactly ``n`` steps from ``sq`` may end on: every
        step orthogonal, on the board, onto no black square, never onto a square already
        passed (the start included), and onto no stack but at the last step. The end may
        hold a stack (whether the piece may stack there is the caller's question)."""
        area = self.near[sq][n]
        blocked = (self.occ | self.black) & area
        key = (sq, n, blocked)
        hit = self.ends_cache.get(key)
        if hit is not None:
            return hit
        neighbours, black = self.neighbours, self.black
        found = 0

        def walk(at: int, left: int, visited: int) -> None:
            nonlocal found
            for q in neighbours[at]:
                bit = 1 << q
                if visited & bit:
                    continue
                if left == 1:
                    if not black & bit:
                        found |= bit
                elif not blocked & bit:
                    walk(q, left - 1, visited | bit)

        walk(sq, n, 1 << sq)
        if len(self.ends_cache) >= ENDS_LIMIT:
            self.ends_cache.clear()
        self.ends_cache[key] = found
        return found

    def pieces(self, seat: int) -> list[int]:
        cells, owner = self.cells, self.owner
        return [sq for sq in _bits(self.occ) if owner[cells[sq][-1] >> 3] == seat]

    def generate(self, seat: int) -> tuple[list[int], list[int], list[int], bool]:
        """``seat``'s stacking moves, plain moves and sets (as if to move), and whether one
        of its moves makes four colours."""
        cells, masks, occ = self.cells, self.masks, self.occ
        first = self.turns == 0
        stacks: list[int] = []
        plain: list[int] = []
        sets: list[int] = []
        wins = False
        for sq in self.pieces(seat):
            n = cells[sq][-1] & 7
            mine = masks[sq]
            strong = CAN_STACK[n]
            ends = self.ends(sq, n)
            while ends:
                low = ends & -ends
                ends ^= low
                to = low.bit_length() - 1
                if occ & low:
                    if first or not strong[cells[to][-1] & 7]:
                        continue
                    theirs = masks[to]
                    joined = mine | theirs
                    if joined == FOUR:
                        wins = True
                    elif mine & theirs:
                        continue
                    stacks.append(sq << 8 | to)
                else:
                    plain.append(sq << 8 | to)
            base = SET_FLAG | sq << 3
            sets.extend(base | f for f in range(1, 7) if f != n)
        return stacks, plain, sets, wins

    def legal(self) -> list[int]:
        """Every legal action of the side to move, as the baseline's ints."""
        stacks, plain, sets, _ = self.generate(self.to_move)
        return stacks + plain + sets

    def threats(self, seat: int) -> int:
        """How many four-colour moves ``seat`` would have if it were to move."""
        if self.turns == 0:
            return 0
        cells, masks, occ = self.cells, self.masks, self.occ
        count = 0
        for sq in self.pieces(seat):
            mine = masks[sq]
            n = cells[sq][-1] & 7
            strong = CAN_STACK[n]
            for to in _bits(occ):
                if (
                    to != sq
                    and mine | masks[to] == FOUR
                    and strong[cells[to][-1] & 7]
                    and self.ends(sq, n) >> to & 1
                ):
                    count += 1
        return count

    def has_piece(self, seat: int) -> bool:
        cells, owner = self.cells, self.owner
        return any(owner[cells[sq][-1] >> 3] == seat for sq in _bits(self.occ))

    # ------------------------------------------------------------ make / unmake

    def make(self, mv: int) -> None:
        seat = self.to_move
        prev_hash = h = self.hash
        cells, masks = self.cells, self.masks
        won = False
        if mv & SET_FLAG:
            sq, face = (mv >> 3) & 0x7F, mv & 7
            cell = cells[sq]
            old = cell[-1]
            new = (old & ~7) | face
            z = _Z[sq][len(cell) - 1]
            h ^= z[old] ^ z[new]
            cells[sq] = (*cell[:-1], new)
            datum = old & 7
        else:
            frm, to = mv >> 8, mv & 0xFF
            moving, below = cells[frm], cells[to]
            zf, zt, base = _Z[frm], _Z[to], len(below)
            for i, d in enumerate(moving):
                h ^= zf[i][d] ^ zt[base + i][d]
            cells[frm] = ()
            cells[to] = below + moving
            joined = masks[frm] | masks[to]
            masks[to] = joined
            masks[frm] = 0
            self.occ = (self.occ & ~(1 << frm)) | 1 << to
            datum = len(moving)
            won = joined == FOUR
        self.turns += 1
        counted = 0
        if won:
            self.over = self.won = True
        else:
            if self.has_piece(1 - seat):
                self.to_move = 1 - seat
                h ^= _Z_SIDE
            counted = h
            count = self.counts.get(h, 0) + 1
            self.counts[h] = count
            self.over = count >= 3 or self.turns >= self.limit
            self.won = False
        self.hash = h
        self.undo.append((mv, datum, seat, prev_hash, counted))

    def unmake(self) -> None:
        mv, datum, seat, prev_hash, counted = self.undo.pop()
        self.to_move = seat
        self.hash = prev_hash
        self.over = self.won = False
        self.turns -= 1
        if counted:
            left = self.counts[counted] - 1
            if left:
                self.counts[counted] = left
            else:
                del self.counts[counted]
        cells, masks = self.cells, self.masks
        if mv & SET_FLAG:
            sq = (mv >> 3) & 0x7F
            cell = cells[sq]
            cells[sq] = (*cell[:-1], (cell[-1] & ~7) | datum)
            return
        frm, to = mv >> 8, mv & 0xFF
        cell = cells[to]
        split = len(cell) - datum
        cells[frm], cells[to] = cell[split:], cell[:split]
        masks[frm] = _mask(cells[frm])
        masks[to] = _mask(cells[to])
        self.occ |= 1 << frm
        if split == 0:
            self.occ &= ~(1 << to)

    # ------------------------------------------------------------ evaluation

    def evaluate(self) -> int:
        """The side to move's figures minus the opponent's (see the module's text)."""
        me = self.to_move
        total = 0
        for seat, sign in ((me, 1), (1 - me, -1)):
            pieces = self.pieces(seat)
            build = sum(bin(self.masks[sq]).count("1") ** 2 for sq in pieces)
            total += sign * (
                W_THREAT * self.threats(seat) + W_PIECE * len(pieces) + W_BUILD * build
            )
            if self.soon:
                total += sign * W_SOON * self.one_set_away(seat)
        return total

    def one_set_away(self, seat: int) -> int:
        """How many (piece, stack) pairs of ``seat`` make four colours after the piece is
        set to another face, and not with the face it shows."""
        if self.turns == 0:
            return 0
        cells, masks = self.cells, self.masks
        count = 0
        for sq in self.pieces(seat):
            mine = masks[sq]
            n = cells[sq][-1] & 7
            r, c = divmod(sq, 9)
            for to in _bits(self.occ):
                if to == sq or mine | masks[to] != FOUR:
                    continue
                t = cells[to][-1] & 7
                if CAN_STACK[n][t] and self.ends(sq, n) >> to & 1:
                    continue  # a threat already
                dist = abs(to // 9 - r) + abs(to % 9 - c)
                for f in range(dist, 7, 2):  # a path's length has the distance's parity
                    if f != n and CAN_STACK[f][t] and self.ends(sq, f) >> to & 1:
                        count += 1
                        break
        return count


def _mask(cell: tuple[int, ...]) -> int:
    m = 0
    for d in cell:
        m |= 1 << (d >> 3)
    return m


def full_hash(cells: list[tuple[int, ...]], to_move: int) -> int:
    """The baseline's own Zobrist key of a position (every stack and the side to move)."""
    h = _Z_SIDE if to_move == 1 else 0
    for sq, cell in enumerate(cells):
        for level, d in enumerate(cell):
            h ^= _Z[sq][level][d]
    return h


def history_counts(state: ColorStackState) -> dict[int, int]:
    """How often each earlier position of the game occurred, by the baseline's own keys:
    the game's log undone on a copy, back to the start or to the last move that stacked
    (stacks never split, so no position before it can come again)."""
    st = state.copy()
    counts: dict[int, int] = {}
    stacks = bin(st.occupied).count("1")
    while True:
        key = full_hash(st.cells, st.to_move)
        counts[key] = counts.get(key, 0) + 1
        if st.turns == 0 or not st.log:
            break
        st.pop()
        if bin(st.occupied).count("1") != stacks:
            break
    return counts


def to_engine(mv: int) -> TurnMove:
    """The baseline's int as the engine's interned move."""
    if mv & SET_FLAG:
        return set_face((mv >> 3) & 0x7F, mv & 7)
    return move(mv >> 8, mv & 0xFF)


def generated_moves(state: ColorStackState) -> set[TurnMove]:
    """The baseline generator's moves for the side to move (for the cross-check with the
    engine's ``legal_moves``)."""
    if state.is_over or state.setup is None:
        return set()
    return {to_engine(mv) for mv in Position(state).legal()}


@dataclass(slots=True)
class BaselineResult:
    move: TurnMove
    score: int
    depth: int
    nodes: int
    seconds: float


class BaselinePlayer:
    """Plain alpha-beta within ``budget`` seconds (or ``nodes`` nodes) a move."""

    level = "baseline"

    def __init__(
        self,
        budget: float = 1.0,
        nodes: int | None = None,
        soon: bool = False,
        whole_first: bool = False,
    ) -> None:
        if not budget > 0 or (nodes is not None and nodes < 1):
            raise ValueError("the baseline's budget is positive seconds or at least 1 node")
        self.budget = budget
        self.nodes = nodes
        self.soon = soon
        self.whole_first = whole_first

    def __repr__(self) -> str:
        limit = f"nodes={self.nodes}" if self.nodes is not None else f"budget={self.budget}"
        return f"BaselinePlayer({limit}{', soon=True' if self.soon else ''})"

    def choose(self, state: ColorStackState, rng: random.Random) -> TurnMove:
        return self.search(state, rng).move

    def search(self, state: ColorStackState, rng: random.Random | None = None) -> BaselineResult:
        start = time.perf_counter()
        if state.is_over or state.setup is None:
            raise ValueError("There is no move to choose: the game is not being played.")
        pos = Position(state, self.soon)
        stacks, plain, sets, wins = pos.generate(pos.to_move)
        if wins:
            win = [m for m in stacks if pos.masks[m >> 8] | pos.masks[m & 0xFF] == FOUR]
            pick = win[0] if rng is None else rng.choice(win)
            return BaselineResult(to_engine(pick), WIN - 1, 1, 0, time.perf_counter() - start)
        moves = stacks + plain + sets
        if rng is not None:
            rng.shuffle(moves)
            moves.sort(key=_kind)  # stacks, moves, sets; shuffled within each
        if self.nodes is None:
            deadline: float | None = start + self.budget * HARD_SHARE
            soft: float | None = start + self.budget * SOFT_SHARE
        else:
            deadline = soft = None
        search = _Search(pos, deadline, self.nodes, self.whole_first)
        best, score, depth = moves[0], 0, 0
        if len(moves) > 1:
            best, score, depth = search.root(moves, soft)
        return BaselineResult(
            to_engine(best), score, depth, search.nodes, time.perf_counter() - start
        )


def _kind(mv: int) -> int:
    return 2 if mv & SET_FLAG else 0


class _Search:
    def __init__(
        self,
        pos: Position,
        deadline: float | None,
        node_limit: int | None,
        first_iteration_whole: bool = False,
    ) -> None:
        self.pos = pos
        self.deadline = deadline
        self.node_limit = node_limit
        self.nodes = 0
        self.tt: dict[int, tuple[int, int, int, int]] = {}
        # the clock is not looked at until the first iteration (depth 1) is complete
        self.clock = not first_iteration_whole

    def tick(self) -> None:
        self.nodes += 1
        if self.node_limit is not None:
            if self.nodes > self.node_limit:
                raise _OutOfBudget
        elif self.clock and self.deadline is not None and time.perf_counter() >= self.deadline:
            raise _OutOfBudget

    def child(self, mv: int, depth: int, alpha: int, beta: int, ply: int) -> int:
        """The value of ``mv`` for the side to move, searched ``depth`` plies (itself one)."""
        pos = self.pos
        mover = pos.to_move
        pos.make(mv)
        if pos.over:
            score = WIN - ply - 1 if pos.won else 0
        elif pos.to_move == mover:  # the opponent has no piece: skipped
            score = self.negamax(depth - 1, alpha, beta, ply + 1)
        else:
            score = -self.negamax(depth - 1, -beta, -alpha, ply + 1)
        pos.unmake()
        return score

    def negamax(self, depth: int, alpha: int, beta: int, ply: int) -> int:
        self.tick()
        pos = self.pos
        if depth <= 0:  # the win-in-one check without generating every move
            return WIN - ply - 1 if pos.threats(pos.to_move) else pos.evaluate()
        stacks, plain, sets, wins = pos.generate(pos.to_move)
        if wins:
            return WIN - ply - 1
        key = pos.hash
        cacheable = pos.counts.get(key, 0) < 2 and pos.limit - pos.turns > depth
        tt_move = -1
        if cacheable:
            hit = self.tt.get(key)
            if hit is not None:
                h_depth, h_score, h_flag, tt_move = hit
                if h_depth >= depth:
                    score = _from_tt(h_score, ply)
                    if (
                        h_flag == EXACT
                        or (h_flag == LOWER and score >= beta)
                        or (h_flag == UPPER and score <= alpha)
                    ):
                        return score
        moves = stacks + plain + sets
        if tt_move in moves:
            moves.remove(tt_move)
            moves.insert(0, tt_move)
        alpha0 = alpha
        best, best_move = -INFINITY, -1
        for mv in moves:
            score = self.child(mv, depth, alpha, beta, ply)
            if score > best:
                best, best_move = score, mv
                if score > alpha:
                    alpha = score
                    if alpha >= beta:
                        break
        if cacheable:
            flag = UPPER if best <= alpha0 else LOWER if best >= beta else EXACT
            if len(self.tt) >= TT_LIMIT:
                self.tt.clear()
            self.tt[key] = (depth, _to_tt(best, ply), flag, best_move)
        return best

    def root(self, moves: list[int], soft: float | None) -> tuple[int, int, int]:
        pos = self.pos
        root_turns = pos.turns
        best, best_score, done = moves[0], 0, 0
        order = list(moves)
        for depth in range(1, MAX_DEPTH + 1):
            it_best, it_score = -1, -INFINITY
            alpha = -INFINITY
            scores: dict[int, int] = {}
            try:
                for mv in order:
                    score = self.child(mv, depth, alpha, INFINITY, 0)
                    scores[mv] = score
                    if score > it_score:
                        it_best, it_score = mv, score
                        alpha = max(alpha, score)
            except _OutOfBudget:
                while pos.turns > root_turns:
                    pos.unmake()
                if it_best >= 0:
                    best, best_score = it_best, it_score
                break
            best, best_score, done = it_best, it_score, depth
            self.clock = True
            order.sort(key=lambda m: scores.get(m, -INFINITY), reverse=True)
            if abs(best_score) > MATE_BOUND or pos.limit - pos.turns <= depth:
                break
            if soft is not None and time.perf_counter() >= soft:
                break
        return best, best_score, done


def _to_tt(score: int, ply: int) -> int:
    if score > MATE_BOUND:
        return score + ply
    if score < -MATE_BOUND:
        return score - ply
    return score


def _from_tt(score: int, ply: int) -> int:
    if score > MATE_BOUND:
        return score - ply
    if score < -MATE_BOUND:
        return score + ply
    return score
