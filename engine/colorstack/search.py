"""Color Stack's ``expert`` AI: a game-tree search within a per-move budget.

Color Stack is deterministic with perfect information, so the classic applies: negamax
alpha-beta with iterative deepening, a transposition table and principal-variation search
(python-chess engines, Chess Programming Wiki). It searches its own
:class:`~engine.colorstack.position.Position` — incremental bitboards with push/pop, held
equal to the engine by tests — so the rule book's endings come from there: a move that
makes four colours wins for its mover, a third occurrence of a position (the game's
earlier positions and those on the search path both count) or the turn limit is a draw,
scored 0. A player with no piece is skipped, so a child node may have the same player to
move; the score is then not negated.

**Order of business at every node**: a winning move of the player to move is looked for
first (a bitboard test; paths only when a target is in reach), so a win in one is never
missed. Then the opponent's: if they could win at once the player to move is *threatened*
and must parry. At the search's horizon a threatened player is not scored by the
evaluation until a parry is found — one of its moves after which the opponent has no win
— and has lost when there is none (a double threat). Inside the tree a threatened node is
searched one ply deeper (a threat extension, at most ``MAX_EXTENSIONS`` on a line). At
the root, moves after which the opponent can win at once are set aside whenever a move
that avoids it exists (they can only lose), so even an interrupted first iteration blocks
a win in one.

**Move ordering**: the transposition table's move, then stacks onto an opponent's piece,
the two killer moves of the ply, stacks onto one's own, then moves and sets by the
history heuristic. Late quiet moves of a deep, unthreatened node are searched one ply
shallower first (late move reductions) and again in full if they look better. At a deep,
unthreatened node searched with a null window a **null move** is tried first: the
opponent moves twice, ``NULL_R`` plies shallower; if this player still reaches beta the
node is cut (Color Stack has no zugzwang to speak of: a set is nearly a pass, and a
threatened player never passes). The horizon's values are kept by position key. Equal moves
are first shuffled by the caller's ``rng``, so the player varies its play yet is
reproducible for a given ``rng`` and node budget.

**Evaluation, in one sentence**: each side's pieces in play (its three-colour pieces worth
about twice a lone die), its winning moves as if it were to move (for the opponent of the
player to move: threats to parry), its wins one set away (a piece that could reach and
stack on a stack with the missing colours after turning its die) and, counted against it,
its four-colour pairs still to be brought together — the player to move's minus the
opponent's. The weights come from a logistic fit of game results (Texel's method) on
positions of expert–baseline games and expert self-play: material predicts the result;
wins a set away and pairs, the old evaluation's mainstays, barely do. That is the light
board's; the heavy board's come from the same fit on heavy-board positions alone (material
again; the earlier hand weights, which counted wins a set away and pairs for, a tempo bonus,
pieces and dice, lost to them head to head).

**Budget**: ``budget`` seconds a move (default 1), checked at every node against a hard
deadline at 95 % of it, and no new iteration once 70 % is spent; an iteration the clock
cuts is not lost: the last best move is searched first, and a move proven better (even
one whose exact re-search is cut) is played. Or ``nodes``, a node budget, for
reproducible play and tests (it then ignores the clock). A timed search lends its
transposition table, history and horizon values to the next search of the same game (a
later turn on the same board; in the bot, within one worker process), so that the next
move's first iterations cost little; a node budget starts afresh (``keep`` overrides).

The player holds only numbers, so it pickles; :func:`think` is a plain function of a
stored state (``to_dict()``) for a worker process.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass, field
from typing import Any

from engine.budget import check_budget, limit_words
from engine.colorstack.colours import colours_choice
from engine.colorstack.moves import Decided, Move, Set, TurnMove, move_to_json
from engine.colorstack.position import (
    SET_FLAG,
    SUPERSETS,
    Position,
    from_engine,
    to_engine,
)
from engine.colorstack.state import SIDE, ColorStackState

DEFAULT_BUDGET = 1.0  # seconds a move
WIN = 1_000_000  # a win at the root; a win k plies later scores WIN - k
MATE_BOUND = WIN - 10_000  # scores beyond this are forced wins or losses
INFINITY = WIN + 1
MAX_DEPTH = 64
MAX_EXTENSIONS = 4  # threat extensions on one line
SOFT_SHARE = 0.7  # start no new iteration after this share of the budget (a partial one
# still re-searches the best move deeper first and adopts any move proven better)
HARD_SHARE = 0.95  # stop searching here: the rest is for the answer's own work
TT_LIMIT = 1_000_000  # entries before the table is cleared
LMR_DEPTH = 3  # reduce late quiet moves at this depth and deeper
LMR_AFTER = 6  # ... after so many moves
NULL_DEPTH = 3  # try a null move (the opponent moves twice) at this depth and deeper
NULL_R = 2  # ... searched this much shallower than the moves
KEEP_LIMIT = 300_000  # table entries kept from one move's search to the next
LEAF_LIMIT = 300_000  # horizon values kept (by position key) before clearing
LEAF_WIN = 1 << 40  # a kept horizon value: the player to move wins at once

# evaluation weights (points; a win is WIN), by board: (an opponent's winning move the
# player to move can parry, a win one set away, tempo: the player to move has one, a
# four-colour pair still to be brought together, a piece in play, a die carried, a piece of
# three colours besides its piece). Light: a logistic fit of game results on positions of
# expert-baseline games and expert self-play (about 200 points a logit; tempo fitted below
# zero, the dice are in the pieces by size). Heavy: the same fit on heavy-board positions
# only (29,495 of 191 decisive games at 400-1,500 nodes a move): material again, the opponent's
# threats, wins a set away and pairs near zero; 0.863 over 80 games at 1 s against the
# baseline (the hand weights (400, 90, 60, 12, 30, 4, 0): 0.759 over 58)
WEIGHTS_LIGHT = (100, 20, 0, -70, 200, 0, 250)
WEIGHTS_HEAVY = (0, -15, -25, -20, 230, 0, 200)

EXACT, LOWER, UPPER = 0, 1, 2
NO_MOVE = -1
FOUR = 0b1111


class NoMoveError(ValueError):
    """There is no decision to make: the board is not set up, or the game is over."""


class _OutOfBudget(Exception):
    """The search's time or node budget ran out (unwinds to the root)."""


@dataclass(frozen=True, slots=True)
class SideFigures:
    """What one side could do on the board as it stands (the evaluation's terms)."""

    threats: int  # winning moves as if it were to move
    soon: int  # stacks it could win on after one set
    pairs: int  # (its piece, another stack) pairs that together hold all four colours
    pieces: int  # its pieces (stacks topped by its dice)
    dice: int  # dice in its stacks
    three: int  # its pieces of three colours


def figures(
    pos: Position, seat: int, strong: list[int] | None = None
) -> tuple[int, int, int, int, int, int]:
    """The evaluation's terms for ``seat`` (see the module's sentence), in the order of
    :class:`SideFigures`; ``strong`` is :meth:`Position.strong_all` when known."""
    cells, masks = pos.cells, pos.masks
    area, near6 = pos.geo.area, pos.geo.near
    mask_bb = pos.mask_bb
    no_stacking = pos.turns == 0
    threats = soon = pairs = dice = count = three = 0
    scan = pos.seat_bb[seat]
    while scan:
        low = scan & -scan
        scan ^= low
        count += 1
        sq = low.bit_length() - 1
        mine = masks[sq]
        size = mine.bit_count()  # a stack in play holds distinct colours
        dice += size
        if size == 3:
            three += 1
        comp = 0
        for m in SUPERSETS[FOUR & ~mine]:
            comp |= mask_bb[m]
        if not comp:
            continue
        pairs += comp.bit_count()
        if no_stacking or not comp & near6[sq][6]:
            continue
        if strong is None:
            strong = pos.strong_all()
        n = cells[sq][-1] & 7
        hit = near = 0
        for f in range(1, 7):
            cand = comp & area[sq][f]
            if not cand:
                continue
            cand &= strong[f]
            if not cand:
                continue
            found = pos.ends(sq, f) & cand
            if f == n:
                hit = found
            else:
                near |= found
        if hit:
            threats += hit.bit_count()
        if near:
            soon += (near & ~hit).bit_count()
    return threats, soon, pairs, count, dice, three


def side_figures(state: ColorStackState, seat: int) -> SideFigures:
    """The evaluation's terms for ``seat`` in the engine's ``state``."""
    return SideFigures(*figures(Position(state), seat))


def evaluate_position(pos: Position) -> int:
    """The position's value for the player to move, who has no winning move (the search
    checks that first): each side's winning chances and pieces, its minus the other's."""
    p = pos.to_move
    strong = pos.strong_all()
    return _value(figures(pos, p, strong), figures(pos, 1 - p, strong), weights(pos))


def weights(pos: Position) -> tuple[int, ...]:
    """The evaluation's weights for ``pos``'s board (see ``WEIGHTS_LIGHT``)."""
    return WEIGHTS_LIGHT if pos.geo.rows <= 6 else WEIGHTS_HEAVY


def _value(
    me: tuple[int, int, int, int, int, int],
    them: tuple[int, int, int, int, int, int],
    w: tuple[int, ...],
) -> int:
    return (
        w[0] * (me[0] - them[0])
        + w[1] * (me[1] - them[1])
        + (w[2] if me[1] else 0)
        + w[3] * (me[2] - them[2])
        + w[4] * (me[3] - them[3])
        + w[5] * (me[4] - them[4])
        + w[6] * (me[5] - them[5])
    )


def evaluate(state: ColorStackState) -> int:
    """:func:`evaluate_position` of the engine's ``state``."""
    return evaluate_position(Position(state))


@dataclass(slots=True)
class SearchResult:
    """A finished search: the move, its score for the player to move (``WIN - k``: a win
    on ply ``k``; ``-(WIN - k)``: a loss; 0 a draw or balance), how deep the last complete
    iteration looked, and what it cost."""

    move: TurnMove
    score: int
    depth: int
    nodes: int
    seconds: float
    threatened: int = 0  # the opponent's winning moves before this move
    safe: bool = True  # the move leaves the opponent no win in one
    pv: list[TurnMove] = field(default_factory=list)


class _Search:
    """One search of one position: the position, the limits, the tables."""

    def __init__(
        self,
        pos: Position,
        deadline: float | None,
        soft: float | None,
        node_limit: int | None,
        max_depth: int,
    ) -> None:
        self.pos = pos
        self.deadline = deadline
        self.soft = soft
        self.node_limit = node_limit
        self.max_depth = max_depth
        self.nodes = 0
        self.tt: dict[int, tuple[int, int, int, int]] = {}
        self.killers: list[list[int]] = [[NO_MOVE, NO_MOVE] for _ in range(2 * MAX_DEPTH + 8)]
        self.history: dict[int, int] = {}
        self.leaves: dict[int, int] = {}  # horizon values by position key
        self.weights = weights(pos)

    # ------------------------------------------------------------------ limits

    def _tick(self) -> None:
        self.nodes += 1
        if self.node_limit is not None:
            if self.nodes > self.node_limit:
                raise _OutOfBudget
        elif self.deadline is not None and time.perf_counter() >= self.deadline:
            raise _OutOfBudget

    # ------------------------------------------------------------------ horizon

    def parry(self) -> int | None:
        """The threatened player to move at the horizon: ``None`` when a move leaves the
        opponent no win (the position is then scored by the evaluation), 0 when only a
        draw does, 1 when nothing does (the opponent wins next)."""
        pos = self.pos
        me = pos.to_move
        other = 1 - me
        # likeliest parries first: moves of the stacks the threats aim at, captures of the
        # threatening pieces, then the rest
        wins = pos.winning_moves(other)
        hot = 0
        for w in wins:
            hot |= 1 << (w >> 8) | 1 << (w & 0xFF)
        onto_them, onto_own, plain, sets = pos.legal()
        first: list[int] = []
        rest: list[int] = []
        for mv in onto_them + onto_own + plain:
            (first if hot >> (mv >> 8) & 1 or hot >> (mv & 0xFF) & 1 else rest).append(mv)
        for mv in sets:
            (first if hot >> ((mv >> 3) & 0x7F) & 1 else rest).append(mv)
        drawn = False
        for mv in first + rest:
            self._tick()
            pos.push(mv)
            if pos.over:
                drawn = drawn or pos.winner is None
                safe = pos.winner == me
            else:
                safe = pos.to_move == me or not pos.can_win(other)
            pos.pop()
            if safe:
                return None
        return 0 if drawn else 1

    # ------------------------------------------------------------------ search

    def negamax(
        self, depth: int, alpha: int, beta: int, ply: int, ext: int, null: bool = True
    ) -> int:
        """The value of the position for the player to move (not over), searched
        ``depth`` plies ahead (and past threats); ``null``: a null move may be tried."""
        self._tick()
        pos = self.pos
        me = pos.to_move
        if depth <= 0:  # the horizon: the evaluation's figures show the threats
            key = pos.hash
            value = self.leaves.get(key)
            if value is not None:
                return WIN - ply - 1 if value == LEAF_WIN else value
            strong = pos.strong_all()
            mine = figures(pos, me, strong)
            if mine[0]:
                value = LEAF_WIN
            else:
                theirs = figures(pos, 1 - me, strong)
                if theirs[0]:
                    verdict = self.parry()
                    if verdict is not None:  # (not kept: a draw depends on the path)
                        return -(WIN - ply - 2) if verdict else 0
                value = _value(mine, theirs, self.weights)
            if len(self.leaves) >= LEAF_LIMIT:
                self.leaves.clear()
            self.leaves[key] = value
            return WIN - ply - 1 if value == LEAF_WIN else value
        if pos.can_win(me):
            return WIN - ply - 1
        threatened = pos.can_win(1 - me)
        if threatened and ext < MAX_EXTENSIONS:
            depth += 1
            ext += 1
        key = pos.hash
        cacheable = pos.counts.get(key, 0) < 2 and pos.limit - pos.turns > depth
        tt_move = NO_MOVE
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
        if (
            null
            and depth >= NULL_DEPTH
            and not threatened
            and beta - alpha == 1
            and -MATE_BOUND < beta < MATE_BOUND
            and pos.seat_bb[1 - me]
        ):
            # the null move: the opponent moves twice. If even that leaves this player at
            # or above beta, a real move would too (no zugzwang to speak of: a set is
            # nearly a pass), so the node is cut without searching its moves
            pos.to_move = 1 - me
            pos.hash ^= SIDE
            try:
                score = -self.negamax(depth - 1 - NULL_R, -beta, 1 - beta, ply + 1, ext, False)
            finally:
                pos.to_move = me
                pos.hash ^= SIDE
            if score >= beta:
                return beta
        onto_them, onto_own, plain, sets = pos.legal()
        quiet = plain + sets
        if depth >= 2 and self.history:
            history = self.history
            quiet.sort(key=lambda m: history.get(m, 0), reverse=True)
        if tt_move != NO_MOVE:
            for group in (onto_them, onto_own, quiet):
                if tt_move in group:
                    group.remove(tt_move)
                    break
            else:
                tt_move = NO_MOVE  # not legal here (another position's key)
        front = [tt_move] if tt_move != NO_MOVE else []
        killers: list[int] = []
        for k in self.killers[ply]:
            if k != NO_MOVE and k in quiet:
                quiet.remove(k)
                killers.append(k)
        moves = front + onto_them + killers + onto_own + quiet
        quiet_from = len(moves) - len(quiet) + LMR_AFTER
        alpha0 = alpha
        best = -INFINITY
        best_move = NO_MOVE
        reduce_ok = depth >= LMR_DEPTH and not threatened
        for i, mv in enumerate(moves):
            pos.push(mv)
            if pos.over:
                score = WIN - ply - 1 if pos.winner == me else 0
            else:
                same = pos.to_move == me  # the opponent has no piece: skipped
                if i == 0:
                    score = self._child(same, depth - 1, alpha, beta, ply, ext)
                else:
                    d = depth - 1
                    if reduce_ok and i >= quiet_from:
                        d -= 1
                    score = self._child(same, d, alpha, alpha + 1, ply, ext)
                    if d < depth - 1 and score > alpha:
                        score = self._child(same, depth - 1, alpha, alpha + 1, ply, ext)
                    if alpha < score < beta:
                        score = self._child(same, depth - 1, alpha, beta, ply, ext)
            pos.pop()
            if score > best:
                best, best_move = score, mv
                if score > alpha:
                    alpha = score
                    if alpha >= beta:
                        if mv & SET_FLAG or not pos.occ >> (mv & 0xFF) & 1:
                            killers = self.killers[ply]
                            if killers[0] != mv:
                                killers[1], killers[0] = killers[0], mv
                            self.history[mv] = self.history.get(mv, 0) + depth * depth
                        break
        if cacheable:
            flag = UPPER if best <= alpha0 else LOWER if best >= beta else EXACT
            if len(self.tt) >= TT_LIMIT:
                self.tt.clear()
            self.tt[key] = (depth, _to_tt(best, ply), flag, best_move)
        return best

    def _child(self, same: bool, depth: int, alpha: int, beta: int, ply: int, ext: int) -> int:
        """The value of the child just pushed for the parent's player to move."""
        if same:  # the opponent has no piece: skipped, the same player moves again
            return self.negamax(depth, alpha, beta, ply + 1, ext)
        return -self.negamax(depth, -beta, -alpha, ply + 1, ext)

    def score_move(self, mv: int, depth: int, alpha: int, beta: int) -> int:
        """The value of root move ``mv`` for the player to move, searched ``depth`` plies
        deep (itself the first) within the window."""
        pos = self.pos
        mover = pos.to_move
        pos.push(mv)
        if pos.over:
            score = WIN - 1 if pos.winner == mover else 0
        else:
            score = self._child(pos.to_move == mover, depth - 1, alpha, beta, 0, 0)
        pos.pop()
        return score

    def root(self, moves: list[int]) -> tuple[int, int, int]:
        """Iterative deepening over the root ``moves`` (ordered, at least one): the best
        move, its score and the depth of the last complete iteration."""
        pos = self.pos
        root_turns = pos.turns
        best_move, best_score, done_depth = moves[0], 0, 0
        order = list(moves)
        for depth in range(1, self.max_depth + 1):
            iter_best = NO_MOVE
            iter_score = -INFINITY
            alpha = -INFINITY
            scores: dict[int, int] = {}
            try:
                for i, mv in enumerate(order):
                    if i == 0:
                        score = self.score_move(mv, depth, alpha, INFINITY)
                    else:  # principal variation search: prove it worse, else search it
                        score = self.score_move(mv, depth, alpha, alpha + 1)
                        if score > alpha:
                            # proven better than the best so far: it is the best even if
                            # the clock stops its exact search
                            iter_best, iter_score = mv, score
                            score = max(score, self.score_move(mv, depth, alpha, INFINITY))
                    scores[mv] = score
                    if score > iter_score or iter_best == mv:
                        iter_best, iter_score = mv, score
                        alpha = max(alpha, score)
            except _OutOfBudget:
                while pos.turns > root_turns:  # the interrupted line, taken back
                    pos.pop()
                # moves searched in this iteration are proven; the previous best was first
                if iter_best != NO_MOVE:
                    best_move, best_score = iter_best, iter_score
                break
            best_move, best_score, done_depth = iter_best, iter_score, depth
            # the best first next time, the rest by this iteration's scores (stable)
            order.sort(key=lambda m: scores.get(m, -INFINITY), reverse=True)
            if abs(best_score) > MATE_BOUND:
                break  # a forced result: looking deeper changes nothing
            if self.soft is not None and time.perf_counter() >= self.soft:
                break
            if pos.limit - pos.turns <= depth:
                break  # the turn limit ends every line within this depth
        return best_move, best_score, done_depth

    def principal_variation(self, first: int, limit: int) -> list[TurnMove]:
        """The expected line after ``first``, from the transposition table."""
        pos = self.pos
        line = [first]
        pos.push(first)
        pushed = 1
        while pushed < limit and not pos.over:
            hit = self.tt.get(pos.hash)
            if hit is None or hit[3] == NO_MOVE or hit[3] not in pos.legal_moves():
                break
            line.append(hit[3])
            pos.push(hit[3])
            pushed += 1
        for _ in range(pushed):
            pos.pop()
        return [to_engine(mv) for mv in line]


class _Kept:
    """The transposition table and history of the last timed search, lent to the next
    search of the same game (the same board and turn limit, a later turn), whose first
    iterations then cost little and whose ordering starts informed. A node budget always
    starts afresh, so that it stays reproducible."""

    __slots__ = ("board", "history", "leaves", "tt", "turns")

    def __init__(self) -> None:
        self.board: tuple[int, int, int] = (0, 0, 0)
        self.turns = 0
        self.tt: dict[int, tuple[int, int, int, int]] = {}
        self.history: dict[int, int] = {}
        self.leaves: dict[int, int] = {}

    def lend(self, search: _Search, state: ColorStackState) -> None:
        board = (state.rows, state.black, state.turn_limit)
        if board != self.board or state.turns <= self.turns or len(self.tt) > KEEP_LIMIT:
            self.tt, self.history, self.leaves = {}, {}, {}  # another game, or too many
        search.tt = self.tt
        search.leaves = self.leaves
        search.history = {m: h >> 1 for m, h in self.history.items()}

    def keep(self, search: _Search, state: ColorStackState) -> None:
        self.board = (state.rows, state.black, state.turn_limit)
        self.turns = state.turns
        self.tt = search.tt
        self.history = search.history
        self.leaves = search.leaves


_KEPT = _Kept()


def _to_tt(score: int, ply: int) -> int:
    """A score stored relative to its node (a win's distance counted from there)."""
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


def _root_order(pos: Position, moves: list[int]) -> list[int]:
    """The root's first order: stacks onto an opponent's piece, onto one's own, then the
    rest (each kind in the given order)."""
    theirs = pos.seat_bb[1 - pos.to_move]

    def kind(mv: int) -> int:
        if mv & SET_FLAG or not pos.occ >> (mv & 0xFF) & 1:
            return 2
        return 0 if theirs >> (mv & 0xFF) & 1 else 1

    return sorted(moves, key=kind)


class ExpertPlayer:
    """Searches for its move within ``budget`` seconds (or exactly ``nodes`` nodes)."""

    level = "expert"

    def __init__(
        self,
        budget: float = DEFAULT_BUDGET,
        nodes: int | None = None,
        max_depth: int = MAX_DEPTH,
        keep: bool | None = None,
    ) -> None:
        check_budget(budget, nodes)
        if not 1 <= max_depth <= MAX_DEPTH:
            raise ValueError(f"the expert's depth is 1 to {MAX_DEPTH}, not {max_depth!r}")
        self.budget = budget
        self.nodes = nodes
        self.max_depth = max_depth
        self._keep = keep

    @property
    def keep(self) -> bool:
        """Whether the last search's tables are lent to the next search of the same game:
        as asked, else only when timed (a node budget, given now or later, stays
        reproducible move by move)."""
        return self.nodes is None if self._keep is None else self._keep

    def __repr__(self) -> str:
        return f"ExpertPlayer({limit_words(self.budget, self.nodes)})"

    def choose(self, state: ColorStackState, rng: random.Random) -> Decided:
        chosen = colours_choice(state)
        if chosen is not None:  # moving first: the default colours, as every level
            return chosen[0]
        return self.search(state, rng).move

    def hint(self, state: ColorStackState) -> tuple[Decided, str]:
        """The move it would play for the seat to act, and why, in a sentence."""
        chosen = colours_choice(state)
        if chosen is not None:
            return chosen
        result = self.search(state)
        return result.move, explain(state, result)

    def search(self, state: ColorStackState, rng: random.Random | None = None) -> SearchResult:
        """Search ``state`` (unchanged) for the player to move; ``rng`` shuffles equal
        moves (none: the legal order)."""
        start = time.perf_counter()
        if state.is_over or state.setup is None or state.current_player is None:
            raise NoMoveError("There is no move to choose: the game is not being played.")
        pos = Position(state)
        legal = [from_engine(m) for m in state.turn_moves()]
        if rng is not None:
            rng.shuffle(legal)
        me = pos.to_move
        threatened = len(pos.winning_moves(1 - me))
        wins = [
            mv
            for mv in legal
            if not mv & SET_FLAG and pos.masks[mv >> 8] | pos.masks[mv & 0xFF] == FOUR
        ]
        if wins:
            return SearchResult(
                to_engine(wins[0]), WIN - 1, 1, 0, time.perf_counter() - start, threatened
            )
        if self.nodes is not None:
            deadline = soft = None
        else:
            deadline = start + self.budget * HARD_SHARE
            soft = start + self.budget * SOFT_SHARE
        search = _Search(pos, deadline, soft, self.nodes, self.max_depth)
        kept = _KEPT if self.keep else None
        if kept is not None:
            kept.lend(search, state)
        safe, unsafe = _split_safe(pos, legal)
        moves = _root_order(pos, safe or unsafe)
        if len(moves) == 1:
            best, score, depth = moves[0], 0, 0
        else:
            best, score, depth = search.root(moves)
        pv = search.principal_variation(best, max(1, depth))
        if kept is not None:
            kept.keep(search, state)
        return SearchResult(
            to_engine(best),
            score,
            depth,
            search.nodes,
            time.perf_counter() - start,
            threatened,
            bool(safe),
            pv,
        )


def move_scores(state: ColorStackState, depth: int) -> dict[TurnMove, int]:
    """Every legal move's exact value for the player to move, searched ``depth`` plies deep
    (and past threats) with no budget (for tests and analysis: it can take long)."""
    if state.is_over or state.setup is None or state.current_player is None:
        raise NoMoveError("There is no move to score: the game is not being played.")
    if depth < 1:
        raise ValueError(f"a search looks at least 1 ply deep, not {depth}")
    search = _Search(Position(state), None, None, None, depth)
    return {
        mv: search.score_move(from_engine(mv), depth, -INFINITY, INFINITY)
        for mv in state.turn_moves()
    }


def _split_safe(pos: Position, moves: list[int]) -> tuple[list[int], list[int]]:
    """``moves`` split into those after which the opponent cannot win at once and the
    rest (each in the given order)."""
    safe: list[int] = []
    unsafe: list[int] = []
    other = 1 - pos.to_move
    for mv in moves:
        pos.push(mv)
        lost = not pos.over and pos.to_move == other and pos.can_win(other)
        pos.pop()
        (unsafe if lost else safe).append(mv)
    return safe, unsafe


def explain(state: ColorStackState, result: SearchResult) -> str:
    """Why the search chose its move, in a sentence for the player to move."""
    move, score = result.move, result.score
    what = str(move)
    if score >= WIN - 1 and isinstance(move, Move) and result.nodes == 0:
        return f"{what}: it makes a stack of all four colours and wins."
    if result.threatened and not result.safe:
        return f"{what}: nothing stops every winning move of your opponent; this is the best try."
    turns = (WIN - abs(score) + 1) // 2 if abs(score) > MATE_BOUND else 0
    blocks = "it stops your opponent's win next turn" if result.threatened else ""
    if score > MATE_BOUND:
        wins = f"it forces a win within {turns} of your turns, whatever the reply"
        return f"{what}: {blocks} and {wins}." if blocks else f"{what}: {wins}."
    if score < -MATE_BOUND:
        loses = "every move loses against best play; this one holds out longest"
        return f"{what}: {blocks}, but {loses}." if blocks else f"{what}: {loses}."
    lead = f"{what}: {blocks}; looking" if blocks else f"{what}: looking"
    lead = f"{lead} {result.depth} turns ahead"
    if score > 0:
        return f"{lead}, it leaves you more winning chances than your opponent."
    if score < 0:
        return f"{lead}, it is the best defence: your opponent has more winning chances."
    kind = "a set" if isinstance(move, Set) else "a move"
    return f"{lead}, it is {kind} that keeps the balance."


def make_expert(budget: float = DEFAULT_BUDGET, nodes: int | None = None) -> ExpertPlayer:
    """The ``expert`` AI: a search of ``budget`` seconds a move (or ``nodes`` nodes)."""
    return ExpertPlayer(budget=budget, nodes=nodes)


def think(
    data: dict[str, Any], seed: int, budget: float = DEFAULT_BUDGET, nodes: int | None = None
) -> list[Any]:
    """The expert's move for a stored state (``to_dict()``), as
    :func:`~engine.colorstack.moves.move_to_json` writes it: a plain function of plain
    data, for a worker process."""
    state = ColorStackState.from_dict(data)
    move = ExpertPlayer(budget=budget, nodes=nodes).choose(state, random.Random(seed))
    return move_to_json(move)
