"""Color Stack's ``expert`` AI: a game-tree search within a per-move budget.

Color Stack is deterministic with perfect information, so the classic applies: negamax
alpha-beta with iterative deepening and a transposition table (python-chess engines,
Chess Programming Wiki). The search plays on a private :meth:`copy` of the state with
:meth:`push` / :meth:`pop`, so the rule book's endings come from the state itself: a move
that makes four colours wins for its mover, a third occurrence of a position (the game's
earlier positions and those on the search path both count) or the turn limit is a draw,
scored 0. A player with no piece is skipped, so a child node may have the same player to
move; the score is then not negated.

**Order of business at every node**: a winning move of the player to move is found first
(:meth:`winning_moves`, before any move is generated), so a win in one is never missed and
a depth-``d`` search sees the opponent's immediate reply too. At the root, moves after
which the opponent can win at once are set aside whenever a move that avoids it exists
(they can only lose), so even an interrupted first iteration blocks a win in one.

**Move ordering**: the transposition table's move, then killer moves (two per ply), then
stacks onto an opponent's piece, stacks onto one's own, then the history heuristic; sets
last among equals. Equal moves are first shuffled by the caller's ``rng``, so the player
varies its play yet is reproducible for a given ``rng`` and node budget.

**Evaluation, in one sentence**: each side's winning chances — its winning moves as if it
were to move, its wins one set away (a piece that could reach and stack on a stack with
the missing colours after turning its die), its four-colour pairs still to be brought
together — and its pieces in play, the player to move's minus the opponent's.

**Budget**: ``budget`` seconds a move (default 1), checked at every node against a hard
deadline at 95 % of it, and no new iteration once 45 % is spent (the next would not
finish: each costs several times the one before); or
``nodes``, a node budget, for reproducible play and tests (it then ignores the clock).

The player holds only numbers, so it pickles; :func:`think` is a plain function of a
stored state (``to_dict()``) for a worker process.
"""

from __future__ import annotations

import random
import time
from dataclasses import dataclass, field
from typing import Any

from engine.budget import check_budget, limit_words
from engine.colorstack.board import ALL_COLOURS, WIDTH, reach
from engine.colorstack.moves import Move, Set, TurnMove, move_to_json
from engine.colorstack.state import STRONGER, ColorStackState

DEFAULT_BUDGET = 1.0  # seconds a move
WIN = 1_000_000  # a win at the root; a win k plies later scores WIN - k
MATE_BOUND = WIN - 10_000  # scores beyond this are forced wins or losses
INFINITY = WIN + 1
MAX_DEPTH = 64
SOFT_SHARE = 0.45  # start no new iteration after this share of the budget
HARD_SHARE = 0.95  # stop searching here: the rest is for the answer's own work
TT_LIMIT = 1_000_000  # entries before the table is cleared

# evaluation weights (points; a win is WIN)
W_THREAT = 400  # an opponent's winning move, which the player to move must stop
W_SOON = 90  # a win one set away
W_PAIR = 12  # a four-colour pair still to be brought together
W_PIECE = 30  # a piece in play (a die on top: movable, and not covered)
W_DICE = 4  # a die carried in one's own stacks

EXACT, LOWER, UPPER = 0, 1, 2

_REACH: dict[tuple[int, int, int], dict[int, tuple[int, ...]]] = {}


def _reach_map(rows: int, start: int, n: int) -> dict[int, tuple[int, ...]]:
    """:func:`~engine.colorstack.board.reach` as a dict from end square to path masks."""
    key = (rows, start, n)
    known = _REACH.get(key)
    if known is None:
        known = dict(reach(rows, start, n))
        _REACH[key] = known
    return known


class NoMoveError(ValueError):
    """There is no decision to make: the board is not set up, or the game is over."""


class _OutOfBudget(Exception):
    """The search's time or node budget ran out (unwinds to the root)."""


@dataclass(frozen=True, slots=True)
class SideFigures:
    """What one side could do on the board as it stands (the evaluation's terms)."""

    threats: int  # winning moves as if it were to move
    soon: int  # stack pairs it could win with after one set
    pairs: int  # (its piece, another stack) pairs that together hold all four colours
    pieces: int  # its pieces (stacks topped by its dice)
    dice: int  # dice in its stacks


def side_figures(state: ColorStackState, seat: int) -> SideFigures:
    """The evaluation's terms for ``seat``: see the module's sentence."""
    cells, masks, rows = state.cells, state.colour_masks, state.rows
    occ = state.occupied
    blocked = occ | state.black
    no_stacking = state.turns == 0
    stacks = []
    scan = occ
    while scan:
        low = scan & -scan
        scan ^= low
        stacks.append(low.bit_length() - 1)
    threats = soon = pairs = dice = 0
    pieces = state.pieces(seat)
    for a in pieces:
        mine = masks[a]
        dice += len(cells[a])
        n = cells[a][-1] & 7
        ac, ar = a % WIDTH, a // WIDTH
        for b in stacks:
            if mine | masks[b] != ALL_COLOURS or b == a:
                continue
            pairs += 1
            if no_stacking:
                continue
            t = cells[b][-1] & 7
            dist = abs(b % WIDTH - ac) + abs(b // WIDTH - ar)
            if STRONGER[n][t] and dist <= n and (n - dist) % 2 == 0:
                paths = _reach_map(rows, a, n).get(b)
                if paths is not None and any(not m & blocked for m in paths):
                    threats += 1
                    continue
            for f in range(dist, 7, 2):
                if f == n or not STRONGER[f][t]:
                    continue
                paths = _reach_map(rows, a, f).get(b)
                if paths is not None and any(not m & blocked for m in paths):
                    soon += 1
                    break
    return SideFigures(threats, soon, pairs, len(pieces), dice)


def evaluate(state: ColorStackState) -> int:
    """The position's value for the player to move, who has no winning move (the search
    checks that first): each side's winning chances and pieces, its minus the other's."""
    p = state.to_move
    me, them = side_figures(state, p), side_figures(state, 1 - p)
    return (
        W_THREAT * (me.threats - them.threats)
        + W_SOON * (me.soon - them.soon)
        + W_PAIR * (me.pairs - them.pairs)
        + W_PIECE * (me.pieces - them.pieces)
        + W_DICE * (me.dice - them.dice)
    )


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
    """One search of one position: the state copy, the limits, the tables."""

    def __init__(
        self,
        state: ColorStackState,
        deadline: float | None,
        soft: float | None,
        node_limit: int | None,
        max_depth: int,
    ) -> None:
        self.state = state
        self.deadline = deadline
        self.soft = soft
        self.node_limit = node_limit
        self.max_depth = max_depth
        self.nodes = 0
        self.tt: dict[int, tuple[int, int, int, TurnMove | None]] = {}
        self.killers: list[list[TurnMove | None]] = [[None, None] for _ in range(MAX_DEPTH + 2)]
        self.history: dict[TurnMove, int] = {}

    # ------------------------------------------------------------------ limits

    def _tick(self) -> None:
        self.nodes += 1
        if self.node_limit is not None:
            if self.nodes > self.node_limit:
                raise _OutOfBudget
        elif self.deadline is not None and time.perf_counter() >= self.deadline:
            raise _OutOfBudget

    # ------------------------------------------------------------------ ordering

    def _order(self, moves: list[TurnMove], ply: int, first: TurnMove | None) -> list[TurnMove]:
        st = self.state
        cells, owner_of = st.cells, st.seat_of_colour
        me = st.to_move
        killers = self.killers[ply]
        history = self.history

        def priority(mv: TurnMove) -> int:
            if mv is first:
                return 1 << 40
            if mv is killers[0] or mv is killers[1]:
                return 1 << 36
            score = history.get(mv, 0)
            if isinstance(mv, Move):
                below = cells[mv.to]
                if below:
                    score += 1 << 38 if owner_of(below[-1] >> 3) != me else 1 << 34
            return score

        return sorted(moves, key=priority, reverse=True)

    # ------------------------------------------------------------------ search

    def negamax(self, depth: int, alpha: int, beta: int, ply: int) -> int:
        """The value of the position for the player to move (not over), searched
        ``depth`` plies ahead."""
        self._tick()
        st = self.state
        if st.winning_moves():
            return WIN - ply - 1
        if depth <= 0:
            return evaluate(st)
        key = st.position_key()
        cacheable = st.repetitions() < 2 and st.turns_left > depth
        tt_move: TurnMove | None = None
        if cacheable:
            hit = self.tt.get(key)
            if hit is not None:
                h_depth, h_score, h_flag, tt_move = hit
                if h_depth >= depth:
                    score = _from_tt(h_score, ply)
                    if h_flag == EXACT:
                        return score
                    if h_flag == LOWER and score >= beta:
                        return score
                    if h_flag == UPPER and score <= alpha:
                        return score
        moves = self._order(st.legal_moves(), ply, tt_move)
        alpha0 = alpha
        best = -INFINITY
        best_move: TurnMove | None = None
        for mv in moves:
            mover = st.to_move
            st.push(mv)
            if st.ended_by is not None:
                score = 0  # no win was possible here: a draw (repetition, turn limit)
            elif st.to_move == mover:  # the opponent has no piece: skipped
                score = self.negamax(depth - 1, alpha, beta, ply + 1)
            else:
                score = -self.negamax(depth - 1, -beta, -alpha, ply + 1)
            st.pop()
            if score > best:
                best, best_move = score, mv
                if score > alpha:
                    alpha = score
                    if alpha >= beta:
                        if not (isinstance(mv, Move) and st.cells[mv.to]):
                            k = self.killers[ply]
                            if k[0] is not mv:
                                k[1], k[0] = k[0], mv
                        self.history[mv] = self.history.get(mv, 0) + depth * depth
                        break
        if cacheable:
            flag = UPPER if best <= alpha0 else LOWER if best >= beta else EXACT
            if len(self.tt) >= TT_LIMIT:
                self.tt.clear()
            self.tt[key] = (depth, _to_tt(best, ply), flag, best_move)
        return best

    def score_move(self, mv: TurnMove, depth: int, alpha: int, beta: int) -> int:
        """The value of root move ``mv`` for the player to move, searched ``depth`` plies
        deep (itself the first) within the window."""
        st = self.state
        mover = st.to_move
        st.push(mv)
        if st.ended_by is not None:
            score = WIN - 1 if st.winner == mover else 0
        elif st.to_move == mover:  # the opponent has no piece: skipped
            score = self.negamax(depth - 1, alpha, beta, 1)
        else:
            score = -self.negamax(depth - 1, -beta, -alpha, 1)
        st.pop()
        return score

    def root(self, moves: list[TurnMove]) -> tuple[TurnMove, int, int]:
        """Iterative deepening over the root ``moves`` (ordered, at least one): the best
        move, its score and the depth of the last complete iteration."""
        st = self.state
        root_turns = st.turns
        best_move, best_score, done_depth = moves[0], 0, 0
        order = list(moves)
        for depth in range(1, self.max_depth + 1):
            iter_best: TurnMove | None = None
            iter_score = -INFINITY
            alpha, beta = -INFINITY, INFINITY
            scores: dict[TurnMove, int] = {}
            try:
                for mv in order:
                    score = self.score_move(mv, depth, alpha, beta)
                    scores[mv] = score
                    if score > iter_score:
                        iter_best, iter_score = mv, score
                        alpha = max(alpha, score)
            except _OutOfBudget:
                while st.turns > root_turns:  # the interrupted line, taken back
                    st.pop()
                # moves searched in this iteration are proven; the previous best was first
                if iter_best is not None:
                    best_move, best_score = iter_best, iter_score
                break
            assert iter_best is not None
            best_move, best_score, done_depth = iter_best, iter_score, depth
            # the best first next time, the rest by this iteration's scores (stable)
            order.sort(key=lambda m: scores.get(m, -INFINITY), reverse=True)
            if abs(best_score) > MATE_BOUND:
                break  # a forced result: looking deeper changes nothing
            if self.soft is not None and time.perf_counter() >= self.soft:
                break
            if st.turns_left <= depth:
                break  # the turn limit ends every line within this depth
        return best_move, best_score, done_depth

    def principal_variation(self, first: TurnMove, limit: int) -> list[TurnMove]:
        """The expected line after ``first``, from the transposition table."""
        st = self.state
        line = [first]
        st.push(first)
        pushed = 1
        while pushed < limit and st.ended_by is None:
            hit = self.tt.get(st.position_key())
            if hit is None or hit[3] is None or hit[3] not in st.legal_moves():
                break
            line.append(hit[3])
            st.push(hit[3])
            pushed += 1
        for _ in range(pushed):
            st.pop()
        return line


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


class ExpertPlayer:
    """Searches for its move within ``budget`` seconds (or exactly ``nodes`` nodes)."""

    level = "expert"

    def __init__(
        self, budget: float = DEFAULT_BUDGET, nodes: int | None = None, max_depth: int = MAX_DEPTH
    ) -> None:
        check_budget(budget, nodes)
        if not 1 <= max_depth <= MAX_DEPTH:
            raise ValueError(f"the expert's depth is 1 to {MAX_DEPTH}, not {max_depth!r}")
        self.budget = budget
        self.nodes = nodes
        self.max_depth = max_depth

    def __repr__(self) -> str:
        return f"ExpertPlayer({limit_words(self.budget, self.nodes)})"

    def choose(self, state: ColorStackState, rng: random.Random) -> TurnMove:
        return self.search(state, rng).move

    def hint(self, state: ColorStackState) -> tuple[TurnMove, str]:
        """The move it would play for the seat to act, and why, in a sentence."""
        result = self.search(state)
        return result.move, explain(state, result)

    def search(self, state: ColorStackState, rng: random.Random | None = None) -> SearchResult:
        """Search ``state`` (unchanged) for the player to move; ``rng`` shuffles equal
        moves (none: the legal order)."""
        start = time.perf_counter()
        if state.is_over or state.current_player is None:
            raise NoMoveError("There is no move to choose: the game is not being played.")
        st = state.copy()
        legal = st.legal_moves()
        if rng is not None:
            rng.shuffle(legal)
        me = st.to_move
        threatened = len(st.winning_moves(1 - me))
        wins = st.winning_moves()
        if wins:
            win = wins[0] if rng is None or len(wins) == 1 else wins[rng.randrange(len(wins))]
            return SearchResult(win, WIN - 1, 1, 0, time.perf_counter() - start, threatened)
        if self.nodes is not None:
            deadline = soft = None
        else:
            deadline = start + self.budget * HARD_SHARE
            soft = start + self.budget * SOFT_SHARE
        search = _Search(st, deadline, soft, self.nodes, self.max_depth)
        safe, unsafe = _split_safe(st, legal)
        moves = search._order(safe or unsafe, 0, None)
        if len(moves) == 1:
            move, score, depth = moves[0], 0, 0
        else:
            move, score, depth = search.root(moves)
        pv = search.principal_variation(move, max(1, depth))
        return SearchResult(
            move,
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
    with no budget (for tests and analysis: it can take long)."""
    if state.is_over or state.current_player is None:
        raise NoMoveError("There is no move to score: the game is not being played.")
    if depth < 1:
        raise ValueError(f"a search looks at least 1 ply deep, not {depth}")
    search = _Search(state.copy(), None, None, None, depth)
    return {
        mv: search.score_move(mv, depth, -INFINITY, INFINITY) for mv in search.state.legal_moves()
    }


def _split_safe(
    state: ColorStackState, moves: list[TurnMove]
) -> tuple[list[TurnMove], list[TurnMove]]:
    """``moves`` split into those after which the opponent cannot win at once and the
    rest (each in the given order)."""
    safe: list[TurnMove] = []
    unsafe: list[TurnMove] = []
    other = 1 - state.to_move
    for mv in moves:
        state.push(mv)
        lost = state.ended_by is None and state.to_move == other and state.winning_moves()
        state.pop()
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
