"""The expert's own Color Stack position: incremental bitboards with push/pop, for search.

The engine's :class:`~engine.colorstack.state.ColorStackState` is the referee (validation,
events, the record); this is the search's scratch board, kept lean for the two questions a
game-tree search asks millions of times — *what may the side to move do* and *can this
side win at once* — and for an evaluation that sees threats.

**Kept up to date by push/pop** (no recomputation per node): each square's dice (for the
position key and undo), colour mask and top die; bitboards of the occupied squares, of
each seat's pieces, of the stacks showing each face and of the stacks holding each set of
colours; the 64-bit Zobrist key (the engine's own keys, so it equals
:meth:`~engine.colorstack.state.ColorStackState.position_key`), the repetition counts
(the game's earlier positions included), whose turn (a seat with no piece is skipped) and
the turn count.

**Paths**: the squares a piece showing ``n`` on ``sq`` may end on depend only on which
squares within ``n - 1`` steps hold a stack (black squares are fixed per board), so
:meth:`ends` memoises a depth-first walk of the self-avoiding paths by that local
occupancy, shared by every search on the same board.

**Threats without paths**: a seat wins at once when a piece reaches and may stack on a
stack holding the missing colours. The candidate targets are one bitboard expression
(colours needed ∧ faces it is strong enough for ∧ squares within ``n`` steps of the
right parity), so a path walk is needed only when a candidate exists — rarely.

Moves are ints: a move ``frm << 8 | to``, a set ``SET_FLAG | square << 3 | face``;
:func:`to_engine` / :func:`from_engine` convert to the engine's interned moves. The tests
(``tests/engine/colorstack/test_position.py``) hold it equal to the engine on random
positions: legal moves, winning moves, endings, whose turn, keys and repetitions.
"""

from __future__ import annotations

from engine.colorstack.board import ALL_COLOURS, WIDTH
from engine.colorstack.moves import Move, Set, TurnMove, move, set_face
from engine.colorstack.rules import REPETITIONS
from engine.colorstack.state import SIDE, STRONGER, ZOBRIST, ColorStackState

SET_FLAG = 1 << 15
ENDS_LIMIT = 150_000  # memoised path ends kept per board (about 15 MB) before clearing
BOARDS_KEPT = 4  # boards whose memo is kept at a time (a match plays many)

# the faces a piece showing n may stack on
STRONG_FACES: tuple[tuple[int, ...], ...] = tuple(
    tuple(t for t in range(1, 7) if STRONGER[n][t]) for n in range(7)
)
# SUPERSETS[need]: the colour masks holding every colour of ``need``
SUPERSETS: tuple[tuple[int, ...], ...] = tuple(
    tuple(m for m in range(1, 16) if m & need == need) for need in range(16)
)
# LANDABLE[mine]: colour masks a stack of colours ``mine`` may go on, colours aside from
# strength: no shared colour, or all four together
LANDABLE: tuple[tuple[int, ...], ...] = tuple(
    tuple(m for m in range(1, 16) if not m & mine or m | mine == ALL_COLOURS) for mine in range(16)
)


# _SETS[square][face]: the sets of a piece there showing ``face``, to the other five
_SETS: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
    tuple(tuple(SET_FLAG | sq << 3 | f for f in range(1, 7) if f != n) for n in range(7))
    for sq in range(81)
)


class Geometry:
    """A board's fixed shapes: neighbours, and for each square and number of steps ``n``
    the squares within ``n`` steps (``near``) and those a path of exactly ``n`` steps can
    end on, ignoring obstacles (``area``: within ``n``, of ``n``'s parity)."""

    __slots__ = ("area", "near", "neighbours", "rows")

    def __init__(self, rows: int) -> None:
        self.rows = rows
        size = rows * WIDTH
        self.neighbours: list[tuple[int, ...]] = []
        self.near: list[list[int]] = []
        self.area: list[list[int]] = []
        for sq in range(size):
            r, c = divmod(sq, WIDTH)
            out = []
            for dr, dc in ((1, 0), (0, 1), (-1, 0), (0, -1)):
                rr, cc = r + dr, c + dc
                if 0 <= rr < rows and 0 <= cc < WIDTH:
                    out.append(rr * WIDTH + cc)
            self.neighbours.append(tuple(out))
            near_row, area_row = [], []
            for n in range(7):
                near = area = 0
                for q in range(size):
                    dist = abs(q // WIDTH - r) + abs(q % WIDTH - c)
                    if dist <= n:
                        near |= 1 << q
                        if (n - dist) % 2 == 0 and q != sq:
                            area |= 1 << q
                near_row.append(near)
                area_row.append(area)
            self.near.append(near_row)
            self.area.append(area_row)


_GEOMETRY: dict[int, Geometry] = {}
_ENDS: dict[tuple[int, int], dict[int, int]] = {}


def geometry(rows: int) -> Geometry:
    known = _GEOMETRY.get(rows)
    if known is None:
        known = _GEOMETRY[rows] = Geometry(rows)
    return known


def to_engine(mv: int) -> TurnMove:
    """The engine's interned move for the int ``mv``."""
    if mv & SET_FLAG:
        return set_face((mv >> 3) & 0x7F, mv & 7)
    return move(mv >> 8, mv & 0xFF)


def from_engine(mv: TurnMove) -> int:
    """The int for the engine's move ``mv``."""
    if isinstance(mv, Set):
        return SET_FLAG | mv.square << 3 | mv.face
    return mv.frm << 8 | mv.to


def _mask_of(cell: tuple[int, ...]) -> int:
    m = 0
    for d in cell:
        m |= 1 << (d >> 3)
    return m


def history_counts(state: ColorStackState) -> dict[int, int]:
    """How often each position of the game so far has occurred (the start once), from the
    state's public API: its keys, taking the game back on a copy."""
    copy = state.copy()
    counts: dict[int, int] = {}
    while True:
        key = copy.position_key()
        counts[key] = counts.get(key, 0) + 1
        if not copy.log:
            break
        copy.pop()
    return counts


class Position:
    """A searchable copy of a game's position (see the module's description)."""

    __slots__ = (
        "black",
        "cells",
        "counts",
        "ends_memo",
        "face_bb",
        "geo",
        "hash",
        "limit",
        "mask_bb",
        "masks",
        "occ",
        "over",
        "owner",
        "seat_bb",
        "to_move",
        "turns",
        "undo",
        "winner",
    )

    def __init__(self, state: ColorStackState) -> None:
        rows = state.rows
        self.geo = geometry(rows)
        self.black = state.black
        board = (rows, state.black)
        if board not in _ENDS and len(_ENDS) >= BOARDS_KEPT:
            _ENDS.clear()
        self.ends_memo = _ENDS.setdefault(board, {})
        self.cells: list[tuple[int, ...]] = list(state.cells)
        self.owner = [state.seat_of_colour(c) for c in range(4)]
        self.masks = [0] * len(self.cells)
        self.occ = 0
        self.seat_bb = [0, 0]
        self.face_bb = [0] * 7
        self.mask_bb = [0] * 16
        for sq, cell in enumerate(self.cells):
            if not cell:
                continue
            bit = 1 << sq
            mask = _mask_of(cell)
            self.masks[sq] = mask
            self.occ |= bit
            self.seat_bb[self.owner[cell[-1] >> 3]] |= bit
            self.face_bb[cell[-1] & 7] |= bit
            self.mask_bb[mask] |= bit
        self.to_move = state.to_move
        self.turns = state.turns
        self.limit = state.turn_limit
        self.hash = state.position_key()
        self.counts = history_counts(state)
        # (move, datum, seat that moved, previous to_move, previous hash, key counted or 0)
        self.undo: list[tuple[int, int, int, int, int]] = []
        self.over = state.is_over
        self.winner: int | None = state.winner

    # ------------------------------------------------------------------ paths

    def ends(self, sq: int, n: int) -> int:
        """The squares a path of exactly ``n`` steps from ``sq`` may end on now: no black
        square, no square twice (nor the start), no stack but at the last step. The end may
        hold a stack (whether the piece may stack there is another question)."""
        geo = self.geo
        local = self.occ & geo.near[sq][n - 1]
        key = local << 10 | sq << 3 | n
        memo = self.ends_memo
        hit = memo.get(key)
        if hit is not None:
            return hit
        neighbours = geo.neighbours
        blocked = local | self.black
        black = self.black
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
        if len(memo) >= ENDS_LIMIT:
            memo.clear()
        memo[key] = found
        return found

    # ------------------------------------------------------------------ bitboard unions

    def strong_bb(self, n: int) -> int:
        """Stacks a piece showing ``n`` is strong enough to stack on."""
        fb = self.face_bb
        out = 0
        for t in STRONG_FACES[n]:
            out |= fb[t]
        return out

    def strong_all(self) -> list[int]:
        """:meth:`strong_bb` of every number 0–6 (0: none), in one pass."""
        fb = self.face_bb
        s5 = fb[5] | fb[6]
        s4 = fb[4] | s5
        s3 = fb[3] | s4
        s2 = fb[2] | s3
        return [0, fb[1] | (s2 ^ fb[6]), s2, s3, s4, s5, fb[6] | fb[1]]

    def complete_bb(self, mine: int) -> int:
        """Stacks that together with colours ``mine`` hold all four."""
        mb = self.mask_bb
        out = 0
        for m in SUPERSETS[ALL_COLOURS & ~mine]:
            out |= mb[m]
        return out

    def landable_bb(self, mine: int) -> int:
        """Stacks whose colours allow a stack of colours ``mine`` on them."""
        mb = self.mask_bb
        out = 0
        for m in LANDABLE[mine]:
            out |= mb[m]
        return out

    # ------------------------------------------------------------------ moves

    def pieces(self, seat: int) -> list[int]:
        out = []
        scan = self.seat_bb[seat]
        while scan:
            low = scan & -scan
            scan ^= low
            out.append(low.bit_length() - 1)
        return out

    def win_targets(self, sq: int) -> int:
        """The stacks the piece on ``sq`` may make four colours on now."""
        if self.turns == 0:
            return 0
        n = self.cells[sq][-1] & 7
        cand = self.complete_bb(self.masks[sq]) & self.geo.area[sq][n]
        if not cand:
            return 0
        cand &= self.strong_bb(n)
        if not cand:
            return 0
        return self.ends(sq, n) & cand

    def winning_moves(self, seat: int) -> list[int]:
        """``seat``'s moves that make four colours now, as if it were to move."""
        out = []
        for sq in self.pieces(seat):
            targets = self.win_targets(sq)
            while targets:
                low = targets & -targets
                targets ^= low
                out.append(sq << 8 | (low.bit_length() - 1))
        return out

    def can_win(self, seat: int) -> bool:
        """Whether ``seat`` has a move making four colours, as if it were to move."""
        if self.turns == 0:
            return False
        cells, masks, area = self.cells, self.masks, self.geo.area
        mb = self.mask_bb
        scan = self.seat_bb[seat]
        while scan:
            low = scan & -scan
            scan ^= low
            sq = low.bit_length() - 1
            n = cells[sq][-1] & 7
            cand = 0
            for m in SUPERSETS[ALL_COLOURS & ~masks[sq]]:
                cand |= mb[m]
            cand &= area[sq][n]
            if cand:
                cand &= self.strong_bb(n)
                if cand and self.ends(sq, n) & cand:
                    return True
        return False

    def legal(self) -> tuple[list[int], list[int], list[int], list[int]]:
        """The side to move's moves: stacks on an opponent's piece, stacks on its own,
        moves to an empty square, and sets (each in square order)."""
        seat = self.to_move
        cells, masks = self.cells, self.masks
        occ = self.occ
        theirs = self.seat_bb[1 - seat]
        first = self.turns == 0
        onto_them: list[int] = []
        onto_own: list[int] = []
        plain: list[int] = []
        sets: list[int] = []
        scan = self.seat_bb[seat]
        while scan:
            low = scan & -scan
            scan ^= low
            sq = low.bit_length() - 1
            n = cells[sq][-1] & 7
            ends = self.ends(sq, n)
            base = sq << 8
            free = ends & ~occ
            while free:
                b = free & -free
                free ^= b
                plain.append(base | (b.bit_length() - 1))
            if not first:
                stack = ends & occ
                if stack:
                    stack &= self.strong_bb(n) & self.landable_bb(masks[sq])
                while stack:
                    b = stack & -stack
                    stack ^= b
                    (onto_them if theirs & b else onto_own).append(base | (b.bit_length() - 1))
            sets.extend(_SETS[sq][n])
        return onto_them, onto_own, plain, sets

    def legal_moves(self) -> list[int]:
        """Every legal action of the side to move, as ints."""
        if self.over:
            return []
        a, b, c, d = self.legal()
        return a + b + c + d

    # ------------------------------------------------------------------ push / pop

    def push(self, mv: int) -> None:
        """Play the legal action ``mv`` of the side to move (unchecked)."""
        seat = self.to_move
        prev_hash = h = self.hash
        cells, masks = self.cells, self.masks
        won = False
        if mv & SET_FLAG:
            sq, face = (mv >> 3) & 0x7F, mv & 7
            cell = cells[sq]
            old = cell[-1]
            new = (old & ~7) | face
            z = ZOBRIST[sq][len(cell) - 1]
            h ^= z[old] ^ z[new]
            cells[sq] = (*cell[:-1], new)
            bit = 1 << sq
            self.face_bb[old & 7] ^= bit
            self.face_bb[face] |= bit
            datum = old & 7
        else:
            frm, to = mv >> 8, mv & 0xFF
            moving, below = cells[frm], cells[to]
            zf, zt, base = ZOBRIST[frm], ZOBRIST[to], len(below)
            for i, d in enumerate(moving):
                h ^= zf[i][d] ^ zt[base + i][d]
            fbit, tbit = 1 << frm, 1 << to
            top = moving[-1]
            mine = masks[frm]
            face_bb, mask_bb, seat_bb = self.face_bb, self.mask_bb, self.seat_bb
            face_bb[top & 7] ^= fbit
            mask_bb[mine] ^= fbit
            seat_bb[seat] ^= fbit
            joined = mine
            if below:
                theirs = masks[to]
                joined |= theirs
                face_bb[below[-1] & 7] ^= tbit
                mask_bb[theirs] ^= tbit
                seat_bb[self.owner[below[-1] >> 3]] ^= tbit
            face_bb[top & 7] |= tbit
            mask_bb[joined] |= tbit
            seat_bb[seat] |= tbit
            cells[frm] = ()
            cells[to] = below + moving
            masks[to] = joined
            masks[frm] = 0
            self.occ = (self.occ ^ fbit) | tbit
            datum = len(moving)
            won = joined == ALL_COLOURS
        self.turns += 1
        counted = 0
        if won:
            self.over = True
            self.winner = seat
        else:
            if self.seat_bb[1 - seat]:
                self.to_move = 1 - seat
                h ^= SIDE
            counted = h
            count = self.counts.get(h, 0) + 1
            self.counts[h] = count
            self.over = count >= REPETITIONS or self.turns >= self.limit
        self.hash = h
        self.undo.append((mv, datum, seat, prev_hash, counted))

    def pop(self) -> None:
        """Undo the last :meth:`push`."""
        mv, datum, seat, prev_hash, counted = self.undo.pop()
        self.to_move = seat
        self.hash = prev_hash
        self.over = False
        self.winner = None
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
            bit = 1 << sq
            self.face_bb[cell[-1] & 7] ^= bit
            self.face_bb[datum] |= bit
            cells[sq] = (*cell[:-1], (cell[-1] & ~7) | datum)
            return
        frm, to = mv >> 8, mv & 0xFF
        cell = cells[to]
        split = len(cell) - datum
        moving, below = cell[split:], cell[:split]
        fbit, tbit = 1 << frm, 1 << to
        face_bb, mask_bb, seat_bb = self.face_bb, self.mask_bb, self.seat_bb
        top = moving[-1]
        face_bb[top & 7] ^= tbit
        mask_bb[masks[to]] ^= tbit
        seat_bb[seat] ^= tbit
        mine = _mask_of(moving)
        cells[frm] = moving
        masks[frm] = mine
        face_bb[top & 7] |= fbit
        mask_bb[mine] |= fbit
        seat_bb[seat] |= fbit
        cells[to] = below
        if below:
            theirs = _mask_of(below)
            masks[to] = theirs
            face_bb[below[-1] & 7] |= tbit
            mask_bb[theirs] |= tbit
            seat_bb[self.owner[below[-1] >> 3]] |= tbit
            self.occ |= fbit
        else:
            masks[to] = 0
            self.occ = (self.occ | fbit) ^ tbit

    def repetitions(self) -> int:
        return self.counts.get(self.hash, 0)


__all__ = [
    "SET_FLAG",
    "Move",
    "Position",
    "Set",
    "from_engine",
    "geometry",
    "history_counts",
    "to_engine",
]
