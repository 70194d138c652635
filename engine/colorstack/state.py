"""The state of a game of Color Stack, following ``docs/colorstack-rules.md`` to
the letter.

A game is set up as the rule book orders it: a chance outcome draws the first player
(:class:`~engine.colorstack.moves.FirstPlayer`), who chooses their colours
(:class:`~engine.colorstack.moves.Colours`: a decision, not a turn), then a chance outcome
lays the cards and rolls the dice (:class:`~engine.colorstack.moves.Setup`, OpenSpiel's
chance node: it names the first player and their colours too, and alone sets up a game
replayed from a record or stored before colours were a choice). Then come
turns: each a :class:`~engine.colorstack.moves.Move` or a
:class:`~engine.colorstack.moves.Set` of the player to move. A player with no piece is
skipped inside the state (a skip is no decision and no turn). A
:class:`~engine.colorstack.moves.Resign` by either seat ends the game at any time.

Squares are integers (:mod:`engine.colorstack.board`: ``(row - 1) * 9 + column``), dice
integers ``colour << 3 | face`` (colours 0–3: red, blue, yellow, green), a stack a tuple of
dice bottom to top.

**Public API** (stable; the search, the Discord picture and the tap UI use it):

Game flow (the :class:`~engine.game.GameState` protocol): :attr:`players`,
:attr:`settings`, :attr:`current_player` (``None`` at a chance outcome and once over),
:attr:`decision`, :attr:`is_over`, :attr:`choosing_colours`, :meth:`legal_moves` (the
colour choices, then turn actions only: sets and moves, never a resignation), :meth:`turn_moves`
(a turn's sets and moves: a fresh list of interned moves, cached per position),
:meth:`random_move` (``rng.choice(legal_moves())`` without the list: the random player),
:meth:`is_legal`, :meth:`check` (``by=`` any seat: resignation is allowed off turn),
:meth:`refusal`, :meth:`apply` (validates; returns ``TurnEnded(seat)`` per turn and
``GameEnded()``), :meth:`sample_chance`, :meth:`sample_setup` and :meth:`set_up` (the
whole set-up at once, for tools and tests), :meth:`outcome`, :meth:`to_dict` /
:meth:`from_dict` (exact: the set-up and every action, replayed), ``__eq__``.

For search (no validation, no events, nothing allocated but the undo entry):
:meth:`push` (a legal move from :meth:`turn_moves`, or a ``Resign``), :meth:`pop`
(undoes the last push or apply; returns its move), :meth:`copy` (cheap, independent),
:meth:`position_key` (a 64-bit Zobrist hash of every square's stack and the player to
move: the repetition rule's position), :meth:`repetitions` (how often the current position
has occurred, the start counting once), :attr:`to_move` (the seat to act, also readable
when over), :attr:`winner`, :attr:`ended_by`, :attr:`turns` (turns played),
:attr:`turns_left`, :attr:`first_turn` (the stacking ban is on), :meth:`has_piece`,
:meth:`pieces` (a seat's squares), :meth:`winning_moves` (a seat's moves that make four
colours now), :attr:`cells` (list: each square's stack, ``()`` when empty — read only),
:attr:`colour_masks` (list: each square's colours as bits ``1 << colour``), :attr:`occupied`
(bit mask of squares holding a stack), :attr:`black` (bit mask of black squares).

For pictures and taps: :attr:`rows` (6 light, 9 heavy), :attr:`columns` (9),
:attr:`squares` (``rows * 9``), :meth:`is_black`, :attr:`black_squares`, :meth:`stack`
(a square's dice bottom to top), :meth:`top` (its top die or ``None``), :meth:`face` /
:meth:`owner` (of a square's piece, ``None`` when empty), :attr:`cards` (as they lie),
:attr:`first` (the first player's seat), :attr:`colours` (per seat: first and second
colour), :meth:`seat_of_colour`, :attr:`log` (every action as ``(seat, move)``),
:attr:`last_turn` (the last set or move and its seat), :meth:`moved_dice`, :meth:`last_path` (the squares of a
path the last move could have taken, start to end, for an arrow), :meth:`destinations`
(legal end squares of a piece), :meth:`set_faces` (legal new faces of a piece),
:meth:`path` (a legal path for a move now), :attr:`turn_limit`, :meth:`name`.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any, Self, cast

from pydantic import ValidationError

from engine.colorstack.board import (
    ALL_COLOURS,
    COLOUR_NAMES,
    DEFAULT_COLOURS,
    DICE_FACES,
    WIDTH,
    all_start_squares,
    black_mask,
    cards_problem,
    deal_cards,
    die_name,
    other_colours,
    path_table,
    reach,
    rows_of,
    square_name,
    start_colours,
)
from engine.colorstack.moves import (
    COLOUR_CHOICES,
    AnyMove,
    Colours,
    Decided,
    FirstPlayer,
    Move,
    PlayerMove,
    Resign,
    Set,
    Setup,
    TurnMove,
    move_from_json,
    move_to_json,
    moves_table,
    sets_table,
)
from engine.colorstack.rules import PLAYERS, REPETITIONS, ColorStackSettings, settings_error
from engine.errors import IllegalMoveError, IllegalReason
from engine.game import Decision, Event, GameEnded, Outcome, SetupError, TurnEnded
from engine.native import BLANK

STATE_FORMAT = 1
FOUR_COLOURS, RESIGNATION, REPETITION, TURN_LIMIT = (
    "four_colours",
    "resignation",
    "repetition",
    "turn_limit",
)
ENDINGS = (FOUR_COLOURS, RESIGNATION, REPETITION, TURN_LIMIT)

# STRONGER[m][t]: a piece showing m may stack on one showing t (smaller is stronger,
# equal stacks, and 6 beats 1 — only that)
STRONGER: tuple[tuple[bool, ...], ...] = tuple(
    tuple(m != 0 and t != 0 and (m <= t or (m, t) == (6, 1)) and (m, t) != (1, 6) for t in range(7))
    for m in range(7)
)

_zrng = random.Random(0xC0105AC)
# ZOBRIST[square][level][die]: levels 0–5 (a winning stack may join two of three dice)
ZOBRIST: tuple[tuple[tuple[int, ...], ...], ...] = tuple(
    tuple(tuple(_zrng.getrandbits(64) for _ in range(32)) for _ in range(6)) for _ in range(81)
)
SIDE = _zrng.getrandbits(64)  # the second seat (seat 1) to move
del _zrng

_MOVES = moves_table()
_SETS = sets_table()
# _OTHER_FACES[square][face]: the sets of a piece showing ``face``, to the other five
_OTHER_FACES = [
    [tuple(row[f] for f in DICE_FACES if f != face) for face in range(7)] for row in _SETS
]
_NO_MOVES: list[TurnMove] = []

# A piece's move table: its :data:`~engine.colorstack.board.PathTable` with each endpoint's
# interned move, ``(region, keep, full, ends, paths_to, targets, last, low, top)``: ``ends``
# in square order as ``(1 << end, its paths, the move)``, ``paths_to`` an endpoint's paths
# by its square. For counting the open endpoints without a loop over them: ``targets`` is
# the mask of the endpoints, ``top`` the mask of the last path of each endpoint (the paths
# of an endpoint are consecutive bits), ``last[sq]`` that bit of the endpoint ``sq`` (0 for
# any other square) and ``low`` every path bit but those: ``((alive & low) + low | alive)
# & top`` holds the last bit of exactly the endpoints with an open path (the sum carries
# into an endpoint's last bit when any of its other paths is open, and never further);
# ``by_last`` maps an endpoint's last bit to its move.
MoveTable = tuple[
    int,
    tuple[int, ...],
    int,
    tuple[tuple[int, int, Move], ...],
    dict[int, int],
    int,
    tuple[int, ...],
    int,
    int,
    dict[int, Move],
]
# A piece's move table in one game (its black squares known): ``(region, keep, alive,
# low, top, targets, last, by_last)`` of its :data:`MoveTable`, less what the game's black
# squares close: ``region`` and ``targets`` without them, ``alive`` the paths through none
# of them, ``top`` without the last bits of black endpoints.
Base = tuple[int, tuple[int, ...], int, int, int, int, tuple[int, ...], dict[int, Move]]
# per board (rows): the table of a piece on ``square`` showing ``n`` at ``square * 7 + n``
_move_tables: dict[int, list[MoveTable | None]] = {}


def move_tables(rows: int) -> list[MoveTable | None]:
    """The board's move tables (``None`` until :func:`move_table` makes one)."""
    tables = _move_tables.get(rows)
    if tables is None:
        tables = [None] * (rows * WIDTH * 7)
        _move_tables[rows] = tables
    return tables


def move_table(rows: int, sq: int, n: int) -> MoveTable:
    """The :data:`MoveTable` of a piece on ``sq`` showing ``n``, kept in its board's list."""
    tables = move_tables(rows)
    table = tables[sq * 7 + n]
    if table is None:
        region, keep, full, ends = path_table(rows, sq, n)
        row = _MOVES[sq]
        moves = tuple((bit, paths, row[end]) for end, bit, paths in ends)
        targets = top = 0
        last = [0] * (rows * WIDTH)
        by_last: dict[int, Move] = {}
        for end, bit, paths in ends:
            targets |= bit
            high = 1 << (paths.bit_length() - 1)
            last[end] = high
            top |= high
            by_last[high] = row[end]
        paths_to = {end: paths for end, _, paths in ends}
        lows = full ^ top
        table = (region, keep, full, moves, paths_to, targets, tuple(last), lows, top, by_last)
        tables[sq * 7 + n] = table
    return table


# the events of a turn: values, so that one of each serves every game
_TURN_ENDED = (TurnEnded(0), TurnEnded(1))
_GAME_ENDED = GameEnded()


def check_players(players: Sequence[str]) -> None:
    if len(players) != PLAYERS:
        raise SetupError(f"Color Stack is for {PLAYERS} players, not {len(players)}.")
    if len(set(players)) != len(players):
        raise SetupError("Two players share a name; one of them should change nickname.")


def stack_text(stack: Sequence[int]) -> str:
    """``B5G2``: a stack's dice bottom to top, as the record's board writes it."""
    return "".join(die_name(d) for d in stack)


def _a(face: int) -> str:
    return "an" if face == 8 else "a"


class ColorStackState:
    """A game of Color Stack: the board's stacks, whose turn, what is legal and how it ends.

    ``apply`` takes player moves and the set-up chance outcome and returns the events they
    caused; a refused move raises :class:`~engine.errors.IllegalMoveError` and changes
    nothing. See the module's description for the whole public API.
    """

    __slots__ = (
        "_bases",
        "_bases_black",
        "_counts",
        "_dests",
        "_dests_key",
        "_entries",
        "_hash",
        "_legal",
        "_legal_key",
        "_owner",
        "_picked",
        "_picked_key",
        "_tops",
        "black",
        "cards",
        "cells",
        "chosen",
        "colour_masks",
        "colours",
        "ended_by",
        "first",
        "occupied",
        "players",
        "rows",
        "settings",
        "setup",
        "squares",
        "to_move",
        "turns",
        "winner",
    )

    players: tuple[str, ...]
    settings: ColorStackSettings
    rows: int
    squares: int
    setup: Setup | None
    first: int | None
    chosen: Colours | None  # the first player's colours, once chosen
    colours: tuple[tuple[int, int], ...]  # per seat (empty before set-up)
    cards: tuple[str, ...]
    black: int  # bit mask
    cells: list[tuple[int, ...]]
    colour_masks: list[int]
    occupied: int  # bit mask
    to_move: int
    turns: int
    winner: int | None
    ended_by: str | None
    _owner: list[int]  # colour -> seat
    _tops: list[int]  # per seat: the mask of the squares of its pieces
    _counts: dict[int, int]  # position key -> occurrences
    _hash: int
    # (seat, move, undo datum, previous to_move, previous hash, key counted or None)
    _entries: list[tuple[int, PlayerMove, int, int, int, int | None]]
    _legal: list[TurnMove]
    _dests: dict[int, int]  # of the listed position: each own piece's open paths
    _dests_key: int  # the position key _dests is of (-1: none)
    # random_move's move tables of this game (of its black squares), at square * 7 + face
    _bases: list[Base | None]
    _bases_black: int  # the black mask _bases is of
    # random_move's last move and the position key it is legal in (-1: none; never on the
    # first turn, where a position's key does not say that stacking is banned)
    _picked: TurnMove | None
    _picked_key: int
    _legal_key: tuple[int, int] | None

    columns = WIDTH

    def __init__(self, players: Sequence[str], settings: ColorStackSettings | None = None) -> None:
        """Seat ``players`` under ``settings``; the game waits for its ``Setup`` (chance)."""
        if players is BLANK:
            return  # copy() and from_dict() fill it in
        players = tuple(players)
        check_players(players)
        self.players = players
        self.settings = settings or ColorStackSettings()
        self.rows = rows_of(self.settings.board)
        self.squares = self.rows * WIDTH
        self.setup = None
        self.first = None
        self.chosen = None
        self.colours = ()
        self.cards = ()
        self.black = 0
        self.cells = [()] * self.squares
        self.colour_masks = [0] * self.squares
        self.occupied = 0
        self.to_move = 0
        self.turns = 0
        self.winner = None
        self.ended_by = None
        self._owner = [0, 0, 0, 0]
        self._tops = [0, 0]
        self._counts = {}
        self._hash = 0
        self._entries = []
        self._legal = _NO_MOVES
        self._dests = {}
        self._dests_key = -1
        self._legal_key = None
        self._bases = []
        self._bases_black = 0
        self._picked = None
        self._picked_key = -1

    # ----------------------------------------------------------------- game flow

    @property
    def decision(self) -> Decision:
        """Chance (the first player; the cards and dice), the first player's choice of
        colours, then turns until it is over."""
        if self.ended_by is not None:
            return Decision.OVER
        if self.setup is None and not self.choosing_colours:
            return Decision.CHANCE
        return Decision.TURN

    @property
    def choosing_colours(self) -> bool:
        """Whether the first player, drawn, is to choose their colours (set-up step 1)."""
        return self.setup is None and self.first is not None and self.chosen is None

    @property
    def current_player(self) -> int | None:
        """The seat that must decide now (the first player choosing colours, then the
        player to move); ``None`` at the set-up's chance outcomes and after the end."""
        if self.ended_by is not None:
            return None
        if self.setup is None:
            return self.first if self.chosen is None else None
        return self.to_move

    @property
    def is_over(self) -> bool:
        return self.ended_by is not None

    @property
    def turn_limit(self) -> int:
        return self.settings.turn_limit

    @property
    def turns_left(self) -> int:
        """Turns still to be played before the turn limit draws the game."""
        return max(0, self.settings.turn_limit - self.turns)

    @property
    def first_turn(self) -> bool:
        """Whether this is the first player's very first turn (no move may stack)."""
        return self.turns == 0

    def name(self, seat: int) -> str:
        return self.players[seat]

    def outcome(self) -> Outcome | None:
        """Who won and how, once over: scores are 1 for the winner, 0 otherwise (a draw:
        no winner, both 0)."""
        if self.ended_by is None:
            return None
        if self.winner is None:
            return Outcome((), (0, 0), self.ended_by)
        scores = (1, 0) if self.winner == 0 else (0, 1)
        return Outcome((self.winner,), scores, self.ended_by)

    # ----------------------------------------------------------------- board queries

    @property
    def black_squares(self) -> frozenset[int]:
        return frozenset(sq for sq in range(self.squares) if self.black >> sq & 1)

    def is_black(self, sq: int) -> bool:
        return bool(self.black >> sq & 1)

    def stack(self, sq: int) -> tuple[int, ...]:
        """The dice on ``sq``, bottom to top (``()``: empty)."""
        return self.cells[sq]

    def top(self, sq: int) -> int | None:
        cell = self.cells[sq]
        return cell[-1] if cell else None

    def face(self, sq: int) -> int | None:
        """The number of the piece on ``sq`` (its top die's face), or ``None``."""
        cell = self.cells[sq]
        return cell[-1] & 7 if cell else None

    def owner(self, sq: int) -> int | None:
        """The seat whose piece stands on ``sq`` (its top die's owner), or ``None``."""
        cell = self.cells[sq]
        return self._owner[cell[-1] >> 3] if cell else None

    def seat_of_colour(self, colour: int) -> int:
        return self._owner[colour]

    def pieces(self, seat: int) -> list[int]:
        """The squares of ``seat``'s pieces, in square order."""
        out = []
        tops = self._tops[seat]
        while tops:
            low = tops & -tops
            tops ^= low
            out.append(low.bit_length() - 1)
        return out

    def has_piece(self, seat: int) -> bool:
        return self._tops[seat] != 0

    def position_key(self) -> int:
        """The current position (every square's stack and the player to move) as a 64-bit
        Zobrist hash, kept up to date incrementally."""
        return self._hash

    def repetitions(self) -> int:
        """How many times the current position has occurred (the start counting once)."""
        return self._counts.get(self._hash, 0)

    @property
    def log(self) -> list[tuple[int, PlayerMove]]:
        """Every action after the set-up, in order, as ``(seat, move)`` (resignations too)."""
        return [(e[0], e[1]) for e in self._entries]

    def moved_dice(self, index: int = -1) -> int:
        """How many dice the action at ``index`` of :attr:`log` moved (0 for a set or a
        resignation): the top so many dice of its end square's stack, while nothing has
        moved since."""
        seat, mv, datum = self._entries[index][:3]
        del seat
        return datum if isinstance(mv, Move) else 0

    @property
    def last_turn(self) -> tuple[int, TurnMove] | None:
        """The last set or move and the seat that played it (``None`` before any)."""
        for entry in reversed(self._entries):
            mv = entry[1]
            if isinstance(mv, Move | Set):
                return entry[0], mv
        return None

    def last_path(self) -> tuple[int, ...] | None:
        """When the last turn was a move: the squares of a path it could have taken, start
        to end (for an arrow), else ``None``. The path passes only squares that were empty
        then and still are (nothing else has moved since)."""
        last = self.last_turn
        if last is None or not isinstance(last[1], Move):
            return None
        mv = last[1]
        n = self.cells[mv.to][-1] & 7  # nothing has been set since: the last turn moved
        return self._find_path(mv.frm, mv.to, n, self.occupied | self.black)

    def path(self, mv: Move) -> tuple[int, ...] | None:
        """A path the legal move ``mv`` may take now (start to end, fewest turns), else
        ``None``."""
        cell = self.cells[mv.frm] if 0 <= mv.frm < self.squares else ()
        if not cell or not 0 <= mv.to < self.squares:
            return None
        blocked = (self.occupied | self.black) & ~(1 << mv.frm)
        return self._find_path(mv.frm, mv.to, cell[-1] & 7, blocked)

    def _find_path(self, frm: int, to: int, n: int, blocked: int) -> tuple[int, ...] | None:
        best: tuple[int, ...] | None = None
        best_turns = 99
        from engine.colorstack.board import neighbours

        near = neighbours(self.rows)

        def walk(path: list[int], visited: int, turns: int) -> None:
            nonlocal best, best_turns
            sq = path[-1]
            left = n + 1 - len(path)
            for q in near[sq]:
                bit = 1 << q
                if visited & bit or turns >= best_turns:
                    continue
                bend = turns
                if len(path) >= 2 and q - sq != sq - path[-2]:
                    bend += 1
                if left == 1:
                    if q == to and bend < best_turns:
                        best, best_turns = (*path, q), bend
                    continue
                if blocked & bit:
                    continue
                path.append(q)
                walk(path, visited | bit, bend)
                path.pop()

        if n >= 1 and not self.black >> to & 1:
            walk([frm], 1 << frm, 0)
        return best

    # ----------------------------------------------------------------- the rules

    def may_stack(self, frm: int, to: int) -> bool:
        """Whether the piece on ``frm`` may stack on the stack on ``to`` (strength, colour,
        the first-turn ban), paths aside."""
        if self.turns == 0:
            return False
        mover, below = self.cells[frm], self.cells[to]
        if not STRONGER[mover[-1] & 7][below[-1] & 7]:
            return False
        a, b = self.colour_masks[frm], self.colour_masks[to]
        return not a & b or a | b == ALL_COLOURS

    def destinations(self, sq: int) -> list[int]:
        """The legal end squares of the piece on ``sq`` for the player to move now (empty
        when it is not theirs, or the game is not being played)."""
        return [m.to for m in self.turn_moves() if isinstance(m, Move) and m.frm == sq]

    def set_faces(self, sq: int) -> list[int]:
        """The faces the piece on ``sq`` may be set to now (the other five, when it is the
        player to move's piece)."""
        return [m.face for m in self.turn_moves() if isinstance(m, Set) and m.square == sq]

    def legal_moves(self) -> list[Decided]:
        """Every legal decision now: the first player's choices of colours before the
        board is set up (:data:`~engine.colorstack.moves.COLOUR_CHOICES`), then the sets
        and moves of the player to move (:meth:`turn_moves`). Empty at a chance outcome
        and once over. Never a resignation (always allowed; not a turn)."""
        if self.choosing_colours:
            return list(COLOUR_CHOICES)
        return cast("list[Decided]", self.turn_moves())  # a new list of its own

    def turn_moves(self) -> list[TurnMove]:
        """Every legal set and move of the player to move, distinct, in a fixed order (by
        square; a piece's moves by end square, then its sets by face). Empty before the
        board is set up and once over."""
        if self.ended_by is not None or self.setup is None:
            return []
        key = (self._hash, self.turns == 0)
        if key == self._legal_key:
            return list(self._legal)
        out: list[TurnMove] = []
        append = out.append
        dests: dict[int, int] = {}
        cells = self.cells
        rows = self.rows
        tables = move_tables(rows)
        occ = self.occupied
        blocked = occ | self.black
        first = self.turns == 0
        scan = self._tops[self.to_move]
        while scan:
            low = scan & -scan
            scan ^= low
            sq = low.bit_length() - 1
            n = cells[sq][-1] & 7
            table = tables[sq * 7 + n]
            if table is None:
                table = move_table(rows, sq, n)
            region, keep, alive, ends = table[0], table[1], table[2], table[3]
            b = blocked & region
            while b:  # close every path through a blocked square
                low = b & -b
                b ^= low
                alive &= keep[low.bit_length() - 1]
            for bit, paths, mv in ends:
                if alive & paths:
                    if blocked & bit and (first or not occ & bit or not self.may_stack(sq, mv.to)):
                        continue  # black, the first-turn ban, too weak or a shared colour
                    append(mv)
            dests[sq] = alive
            out.extend(_OTHER_FACES[sq][n])
        self._legal = out
        self._dests = dests
        self._dests_key = self._hash
        self._legal_key = key
        return list(out)

    def _base(self, sq: int, n: int) -> Base:
        """:data:`Base` of a piece on ``sq`` showing ``n`` in this game, kept in _bases."""
        region, keep, alive, _, _, targets, last, lows, top, by_last = move_table(self.rows, sq, n)
        black = self.black
        b = black & region
        while b:
            low = b & -b
            b ^= low
            alive &= keep[low.bit_length() - 1]
        b = black & targets
        while b:
            low = b & -b
            b ^= low
            top &= ~last[low.bit_length() - 1]
        base = (region & ~black, keep, alive, lows, top, targets & ~black, last, by_last)
        self._bases[sq * 7 + n] = base
        return base

    def random_move(self, rng: random.Random) -> TurnMove | None:
        """``rng.choice(self.legal_moves())`` — the same draw from ``rng`` and the same
        move — without making the list: it counts each piece's legal moves (its open
        endpoints by a sum on the path bits, see :data:`MoveTable`; a loop only over the
        endpoints holding a stack), draws the index as ``rng.choice`` does (``randrange``
        of the count: one ``_randbelow``) and finds that move alone. ``None`` when there
        is no move (the set-up chance, or over). :meth:`apply` accepts the move it
        returns, in this position, without checking it again."""
        if self.ended_by is not None or self.setup is None:
            return None
        if self._legal_key is not None and self._legal_key == (self._hash, self.turns == 0):
            return rng.choice(self._legal)
        cells, masks = self.cells, self.colour_masks
        occ = self.occupied
        black = self.black
        first = self.turns == 0
        bases = self._bases
        if self._bases_black != black or not bases:
            bases = self._bases = [None] * (self.squares * 7)
            self._bases_black = black
        # per piece in square order: its square, face, legal moves, their endpoints' last
        # bits and the table's moves by last bit
        found: list[tuple[int, int, int, int, dict[int, Move]]] = []
        total = 0
        scan = self._tops[self.to_move]
        while scan:
            low = scan & -scan
            scan ^= low
            sq = low.bit_length() - 1
            n = cells[sq][-1] & 7
            base = bases[sq * 7 + n]
            if base is None:
                base = self._base(sq, n)
            region, keep, alive, lows, top, targets, last, by_last = base
            b = occ & region
            while b:  # close every path through a stack
                low = b & -b
                b ^= low
                alive &= keep[low.bit_length() - 1]
            # the last bit of each open endpoint neither black nor ...
            legal = ((alive & lows) + lows | alive) & top
            b = occ & targets
            while b:  # ... holding a stack the piece may not stack on
                low = b & -b
                b ^= low
                end = low.bit_length() - 1
                bit = last[end]
                if legal & bit:
                    if first:
                        legal ^= bit
                    else:
                        theirs = masks[end]
                        mine = masks[sq]
                        if not STRONGER[n][cells[end][-1] & 7] or (
                            mine & theirs and mine | theirs != ALL_COLOURS
                        ):
                            legal ^= bit
            moves = legal.bit_count()
            found.append((sq, n, moves, legal, by_last))
            total += moves + 5
        i = rng.randrange(total)  # rng.choice's draw: _randbelow(len(the list))
        for sq, n, moves, legal, by_last in found:
            if i < moves:  # the i-th legal endpoint, in square order
                while i:
                    legal &= legal - 1
                    i -= 1
                mv: TurnMove = by_last[legal & -legal]
                break
            i -= moves
            if i < 5:
                mv = _OTHER_FACES[sq][n][i]
                break
            i -= 5
        else:
            raise AssertionError("the draw was past the moves counted")
        self._picked = mv
        self._picked_key = -1 if first else self._hash
        return mv

    def _listed(self, move: AnyMove) -> bool:
        """Whether ``move`` is among the moves :meth:`legal_moves` listed for the position
        it last listed (the caller checks that this is still the position)."""
        if type(move) is Move:
            frm, to = move.frm, move.to
            alive = self._dests.get(frm)  # the open paths of an own piece
            if alive is None or not 0 <= to < self.squares:
                return False
            table = move_tables(self.rows)[frm * 7 + (self.cells[frm][-1] & 7)]
            paths = 0 if table is None else table[4].get(to, 0)
            if not alive & paths:
                return False
            bit = 1 << to
            if not (self.occupied | self.black) & bit:
                return True
            return bool(self.occupied & bit) and self.may_stack(frm, to)
        if type(move) is Set:
            sq = move.square
            return sq in self._dests and 1 <= move.face <= 6 and move.face != self.cells[sq][-1] & 7
        return False

    def winning_moves(self, seat: int | None = None) -> list[Move]:
        """The moves of ``seat`` (default: the player to move) that make a stack of all
        four colours now, as if ``seat`` were to move."""
        if self.ended_by is not None or self.setup is None:
            return []
        seat = self.to_move if seat is None else seat
        cells, masks, owner = self.cells, self.colour_masks, self._owner
        occ = self.occupied
        blocked = occ | self.black
        if self.turns == 0:
            return []
        out = []
        for sq in self.pieces(seat):
            n = cells[sq][-1] & 7
            mine = masks[sq]
            for end, paths in reach(self.rows, sq, n):
                if not occ >> end & 1 or mine | masks[end] != ALL_COLOURS:
                    continue
                if not STRONGER[n][cells[end][-1] & 7]:
                    continue
                if any(not m & blocked for m in paths):
                    out.append(_MOVES[sq][end])
        del owner
        return out

    def is_legal(self, move: AnyMove) -> bool:
        return self.refusal(move) is None

    def check(self, move: AnyMove, *, by: int | None = None) -> None:
        """Raise the :class:`IllegalMoveError` that says why ``move`` (asked by seat ``by``)
        cannot be applied now; return when it can. Either seat may resign at any time."""
        err = self.refusal(move, by)
        if err is not None:
            raise err

    def refusal(
        self, move: AnyMove, by: int | None = None, *, named: bool = False
    ) -> IllegalMoveError | None:
        """Why ``move`` cannot be applied now, or ``None`` when it can.

        The message speaks to the player (``your 5 cannot stack on a 2``), or with
        ``named`` about them (``ann's 5 …``, for a record checker).
        """
        if self.ended_by is not None:
            return IllegalMoveError("The game is over.", IllegalReason.GAME_OVER)
        if isinstance(move, FirstPlayer | Colours | Setup):
            return self._setup_refusal(move, by)
        if self.setup is None and isinstance(move, Resign) and self.first is not None:
            # at any time, the rule book says: while the first player chooses colours too
            return self._resign_refusal(move, by)
        if self.setup is None:
            if self.choosing_colours:
                assert self.first is not None
                return IllegalMoveError(
                    f"{self.players[self.first]} chooses colours first: nobody can move "
                    "before the board is set up.",
                    IllegalReason.WRONG_DECISION,
                )
            return IllegalMoveError(
                "Nobody can move before the board is set up.", IllegalReason.WRONG_DECISION
            )
        if isinstance(move, Resign):
            return self._resign_refusal(move, by)
        if not isinstance(move, Move | Set):
            return IllegalMoveError(
                f"{move!r} is not a Color Stack move.", IllegalReason.WRONG_DECISION
            )
        p = self.to_move
        if by is not None and by != p:
            return IllegalMoveError(f"It's {self.players[p]}'s turn.", IllegalReason.NOT_YOUR_TURN)
        whose = f"{self.players[p]}'s" if named else "your"
        frm = move.frm if isinstance(move, Move) else move.square
        if not 0 <= frm < self.squares:
            return self._off_board(frm)
        cell = self.cells[frm]
        here = square_name(frm)
        if not cell:
            if self.black >> frm & 1:
                return IllegalMoveError(
                    f"{here} is black: no piece stands there.", IllegalReason.EMPTY_SQUARE
                )
            return IllegalMoveError(f"There is no piece on {here}.", IllegalReason.EMPTY_SQUARE)
        top = cell[-1]
        n = top & 7
        if self._owner[top >> 3] != p:
            colour = COLOUR_NAMES[top >> 3]
            return IllegalMoveError(
                f"{here} is not {whose} piece: its top die is {self.players[1 - p]}'s "
                f"{colour} {n}.",
                IllegalReason.NOT_YOUR_PIECE,
            )
        if isinstance(move, Set):
            if not 1 <= move.face <= 6:
                return IllegalMoveError(
                    f"A die shows 1 to 6, not {move.face}.", IllegalReason.NO_SUCH_FACE
                )
            if move.face == n:
                return IllegalMoveError(
                    f"{here} already shows {n}: set it to another number.",
                    IllegalReason.SAME_FACE,
                )
            return None
        to = move.to
        if not 0 <= to < self.squares:
            return self._off_board(to)
        there = square_name(to)
        if to == frm:
            return IllegalMoveError(
                f"A move must end elsewhere: {here}-{there} goes nowhere.",
                IllegalReason.NO_PATH,
            )
        if self.black >> to & 1:
            return IllegalMoveError(f"{there} is black.", IllegalReason.BLACK_SQUARE)
        blocked = self.occupied | self.black
        if not any(
            end == to and any(not m & blocked for m in paths)
            for end, paths in reach(self.rows, frm, n)
        ):
            steps = "step" if n == 1 else "steps"
            return IllegalMoveError(
                f"No path of exactly {n} {steps} leads from {here} to {there}.",
                IllegalReason.NO_PATH,
            )
        below = self.cells[to]
        if not below:
            return None
        if self.turns == 0:
            return IllegalMoveError(
                "Nothing may stack on the first player's first turn: choose an empty square.",
                IllegalReason.FIRST_TURN_STACK,
            )
        t = below[-1] & 7
        if not STRONGER[n][t]:
            rule = " (6 beats 1, but 1 not 6)" if n == 1 and t == 6 else ""
            return IllegalMoveError(
                f"{'Your' if not named else whose} {n} cannot stack on {_a(t)} "
                f"{t}: a piece stacks only on one as strong or weaker{rule}.",
                IllegalReason.TOO_WEAK,
            )
        mine, theirs = self.colour_masks[frm], self.colour_masks[to]
        shared = mine & theirs
        if shared and mine | theirs != ALL_COLOURS:
            colours = " and ".join(COLOUR_NAMES[c] for c in range(4) if shared >> c & 1)
            return IllegalMoveError(
                f"The stacks on {here} and {there} both hold {colours}: a stack never "
                "holds a colour twice (unless it completes all four).",
                IllegalReason.SHARED_COLOUR,
            )
        return None

    def _resign_refusal(self, move: Resign, by: int | None) -> IllegalMoveError | None:
        """Why ``by`` cannot resign for ``move.seat`` (either seat, at any time)."""
        if move.seat not in (0, 1):
            return IllegalMoveError(
                f"There is no seat {move.seat} at this table.", IllegalReason.NOT_YOUR_TURN
            )
        if by is not None and by != move.seat:
            return IllegalMoveError(
                f"Only {self.players[move.seat]} can resign for themselves.",
                IllegalReason.NOT_YOUR_TURN,
            )
        return None

    def _setup_refusal(
        self, move: FirstPlayer | Colours | Setup, by: int | None
    ) -> IllegalMoveError | None:
        """Why a step of the set-up cannot be applied now: the first player drawn, their
        colours, the cards and dice (which may also come alone, naming both)."""
        if self.setup is not None and not isinstance(move, Colours):
            return IllegalMoveError("The game is already set up.", IllegalReason.WRONG_DECISION)
        if isinstance(move, FirstPlayer):
            if self.first is not None:
                return IllegalMoveError(
                    "The first player is already chosen.", IllegalReason.WRONG_DECISION
                )
            if move.seat not in (0, 1):
                return IllegalMoveError(
                    f"the first player must be seat 0 or 1, not {move.seat!r}",
                    IllegalReason.BAD_OUTCOME,
                )
            return None
        if isinstance(move, Colours):
            if not self.choosing_colours:
                return IllegalMoveError(
                    "Colours are chosen once, by the first player, before the board is set up.",
                    IllegalReason.WRONG_DECISION,
                )
            assert self.first is not None
            if by is not None and by != self.first:
                return IllegalMoveError(
                    f"{self.players[self.first]} moves first and chooses the colours.",
                    IllegalReason.NOT_YOUR_TURN,
                )
            if move not in COLOUR_CHOICES:
                return IllegalMoveError(
                    "Choose two different colours of red, blue, yellow and green.",
                    IllegalReason.BAD_CHOICE,
                )
            return None
        if self.first is not None:  # drawn: the set-up follows the colours chosen
            if self.chosen is None:
                return IllegalMoveError(
                    f"{self.players[self.first]} chooses colours first.",
                    IllegalReason.WRONG_DECISION,
                )
            if move.first != self.first or move.colours != self.chosen.pair:
                return IllegalMoveError(
                    "the set-up must keep the first player drawn and the colours chosen",
                    IllegalReason.BAD_OUTCOME,
                )
        problem = self.setup_problem(move)
        return None if problem is None else IllegalMoveError(problem, IllegalReason.BAD_OUTCOME)

    def _off_board(self, sq: int) -> IllegalMoveError:
        where = square_name(sq) if 0 <= sq < 81 else str(sq)
        return IllegalMoveError(
            f"{where} is off the board ({self.settings.board}: a1 to i{self.rows}).",
            IllegalReason.NO_SUCH_SQUARE,
        )

    def setup_problem(self, setup: Setup) -> str | None:
        """Why ``setup`` cannot set this game up, else ``None``."""
        if setup.first not in (0, 1):
            return f"the first player must be seat 0 or 1, not {setup.first!r}"
        colours = setup.colours
        if (
            len(colours) != 2
            or colours[0] == colours[1]
            or not all(isinstance(c, int) and 0 <= c < 4 for c in colours)
        ):
            return "the first player's colours must be two different of red, blue, yellow, green"
        problem = cards_problem(setup.cards, self.rows)
        if problem is not None:
            return problem
        if len(setup.dice) != 12 or not all(type(d) is int and 1 <= d <= 6 for d in setup.dice):
            return "the dice must be 12 faces from 1 to 6"
        return None

    # ----------------------------------------------------------------- playing

    def sample_chance(self, rng: random.Random) -> FirstPlayer | Setup:
        """The chance outcome due, drawn from ``rng``: the first player at random (who
        then chooses colours), or, once the colours are chosen, the cards shuffled and
        laid and the dice rolled."""
        if self.first is None:
            return FirstPlayer(rng.randrange(PLAYERS))
        return self._laid(rng, self.first, self.chosen)

    def sample_setup(self, rng: random.Random, colours: Colours | None = None) -> Setup:
        """The whole set-up in one outcome, for tools and tests (a table draws it in
        steps, the first player choosing colours): the first player drawn from ``rng``,
        ``colours`` as theirs (default red and yellow), the cards and the dice — the same
        draws from ``rng`` as the steps make."""
        return self._laid(rng, rng.randrange(PLAYERS), colours)

    def _laid(self, rng: random.Random, first: int, colours: Colours | None) -> Setup:
        """The cards shuffled and laid and the dice rolled, from ``rng``, for ``first`` and
        their ``colours`` (default red and yellow)."""
        chosen = colours or Colours(*DEFAULT_COLOURS)
        cards = deal_cards(rng, self.rows)
        dice = tuple(rng.randint(1, 6) for _ in range(12))
        return Setup(first, chosen.pair, cards, dice)

    def set_up(self, rng: random.Random, colours: Colours | None = None) -> None:
        """Apply :meth:`sample_setup` (tools and tests)."""
        self.apply(self.sample_setup(rng, colours))

    def apply(self, move: AnyMove, *, by: int | None = None) -> list[Event]:
        """Play ``move`` (a set, a move, a resignation, or the set-up chance outcome);
        returns ``TurnEnded(seat)`` for a turn and ``GameEnded()`` when the game ends."""
        # A move legal_moves listed (or random_move picked) for this very position is
        # legal: only the seat asking is checked (kept by position key, see legal_moves).
        if not (
            self.ended_by is None
            and (by is None or by == self.to_move)
            and (
                (move is self._picked and self._picked_key == self._hash)
                or (self._dests_key == self._hash and self._listed(move))
            )
        ):
            err = self.refusal(move, by)
            if err is not None:
                raise err
            if isinstance(move, Setup):
                self._set_up(move)
                return []
            if isinstance(move, FirstPlayer):
                self.first = move.seat
                return []
            if isinstance(move, Colours):
                self.chosen = move
                return []
        seat = self.to_move
        self.push(move)  # type: ignore[arg-type]  # a set-up returned above
        if self.ended_by is None:
            return [_TURN_ENDED[seat]]
        if isinstance(move, Resign):
            return [_GAME_ENDED]
        return [_TURN_ENDED[seat], _GAME_ENDED]

    def _set_up(self, setup: Setup) -> None:
        self.setup = setup
        self.first = setup.first
        self.chosen = Colours(*setup.colours)
        second = other_colours(setup.colours)
        colours = [setup.colours, second] if setup.first == 0 else [second, setup.colours]
        self.colours = (colours[0], colours[1])
        for seat, pair in enumerate(self.colours):
            for c in pair:
                self._owner[c] = seat
        self.cards = tuple(setup.cards)
        self.black = black_mask(self.cards)
        rows = self.rows
        starts = all_start_squares(rows)
        die_colours = start_colours(setup.colours, True) + start_colours(second, False)
        h = 0
        for sq, colour, face in zip(starts, die_colours, setup.dice, strict=True):
            d = colour << 3 | face
            self.cells[sq] = (d,)
            self.colour_masks[sq] = 1 << colour
            self.occupied |= 1 << sq
            self._tops[self._owner[colour]] |= 1 << sq
            h ^= ZOBRIST[sq][0][d]
        self.to_move = setup.first
        if setup.first == 1:
            h ^= SIDE
        self._hash = h
        self._counts = {h: 1}

    def _recount(self) -> None:
        """Recompute what follows from :attr:`cells` and :attr:`to_move` (colour masks,
        occupancy, the position key) and count the position as a first occurrence: for
        tests and puzzles that arrange a position by hand (the log then no longer
        replays to it)."""
        self.occupied = 0
        self._tops = [0, 0]
        h = SIDE if self.to_move == 1 else 0
        for sq, cell in enumerate(self.cells):
            mask = 0
            for level, d in enumerate(cell):
                mask |= 1 << (d >> 3)
                h ^= ZOBRIST[sq][level][d]
            self.colour_masks[sq] = mask
            if cell:
                self.occupied |= 1 << sq
                self._tops[self._owner[cell[-1] >> 3]] |= 1 << sq
        self._hash = h
        self._counts = {h: 1}
        self._legal_key = None
        self._dests_key = -1
        self._picked_key = -1

    def push(self, move: PlayerMove) -> None:
        """Play a legal set, move or resignation without checking it and without events
        (for search: ``move`` from :meth:`legal_moves`); :meth:`pop` undoes it."""
        seat = self.to_move
        prev_hash = self._hash
        if isinstance(move, Resign):
            self._entries.append((move.seat, move, 0, seat, prev_hash, None))
            self.winner = 1 - move.seat
            self.ended_by = RESIGNATION
            return
        cells, masks = self.cells, self.colour_masks
        h = prev_hash
        won = False
        if isinstance(move, Move):
            frm, to = move.frm, move.to
            moving, below = cells[frm], cells[to]
            base = len(below)
            zf, zt = ZOBRIST[frm], ZOBRIST[to]
            for i, d in enumerate(moving):
                h ^= zf[i][d] ^ zt[base + i][d]
            cells[frm] = ()
            cells[to] = below + moving
            joined = masks[to] | masks[frm]
            masks[to] = joined
            masks[frm] = 0
            fbit, tbit = 1 << frm, 1 << to
            self.occupied = (self.occupied & ~fbit) | tbit
            tops, owner = self._tops, self._owner
            if below:  # its top is covered
                tops[owner[below[-1] >> 3]] &= ~tbit
            w = owner[moving[-1] >> 3]
            tops[w] = (tops[w] & ~fbit) | tbit
            datum = len(moving)
            won = joined == ALL_COLOURS
        else:
            sq = move.square
            cell = cells[sq]
            old = cell[-1]
            new = (old & ~7) | move.face
            level = ZOBRIST[sq][len(cell) - 1]
            h ^= level[old] ^ level[new]
            cells[sq] = (*cell[:-1], new)
            datum = old & 7
        self.turns += 1
        if won:
            self._hash = h
            self._entries.append((seat, move, datum, seat, prev_hash, None))
            self.winner = seat
            self.ended_by = FOUR_COLOURS
            return
        other = 1 - seat
        if self._tops[other]:
            self.to_move = other
            h ^= SIDE
        self._hash = h
        count = self._counts.get(h, 0) + 1
        self._counts[h] = count
        self._entries.append((seat, move, datum, seat, prev_hash, h))
        if count >= REPETITIONS:
            self.ended_by = REPETITION
        elif self.turns >= self.settings.turn_limit:
            self.ended_by = TURN_LIMIT

    def pop(self) -> PlayerMove:
        """Undo the last action (a push or an applied turn or resignation); returns it."""
        seat, move, datum, prev_to_move, prev_hash, counted = self._entries.pop()
        self.winner = None
        self.ended_by = None
        self.to_move = prev_to_move
        self._hash = prev_hash
        if isinstance(move, Resign):
            return move
        if counted is not None:
            left = self._counts[counted] - 1
            if left:
                self._counts[counted] = left
            else:
                del self._counts[counted]
        cells, masks = self.cells, self.colour_masks
        if isinstance(move, Move):
            frm, to = move.frm, move.to
            cell = cells[to]
            split = len(cell) - datum
            moving = cell[split:]
            cells[frm] = moving
            cells[to] = cell[:split]
            mask = below = 0
            for d in moving:
                mask |= 1 << (d >> 3)
            for d in cells[to]:
                below |= 1 << (d >> 3)
            masks[frm] = mask
            masks[to] = below  # recounted: a winning stack may repeat a colour
            fbit, tbit = 1 << frm, 1 << to
            self.occupied |= fbit
            tops, owner = self._tops, self._owner
            w = owner[moving[-1] >> 3]
            tops[w] = (tops[w] & ~tbit) | fbit
            if split == 0:
                self.occupied &= ~tbit
            else:  # its top uncovered
                tops[owner[cell[split - 1] >> 3]] |= tbit
        else:
            cell = cells[move.square]
            cells[move.square] = (*cell[:-1], (cell[-1] & ~7) | datum)
        self.turns -= 1
        del seat
        return move

    def copy(self) -> ColorStackState:
        """An independent copy (the board, the repetition counts and the log)."""
        new = ColorStackState(BLANK)
        new.players = self.players
        new.settings = self.settings
        new.rows = self.rows
        new.squares = self.squares
        new.setup = self.setup
        new.first = self.first
        new.chosen = self.chosen
        new.colours = self.colours
        new.cards = self.cards
        new.black = self.black
        new.cells = self.cells.copy()
        new.colour_masks = self.colour_masks.copy()
        new.occupied = self.occupied
        new.to_move = self.to_move
        new.turns = self.turns
        new.winner = self.winner
        new.ended_by = self.ended_by
        new._owner = self._owner.copy()
        new._tops = self._tops.copy()
        new._counts = self._counts.copy()
        new._hash = self._hash
        new._entries = self._entries.copy()
        new._legal = self._legal
        new._dests = self._dests
        new._dests_key = self._dests_key
        new._bases = self._bases
        new._bases_black = self._bases_black
        new._picked = self._picked
        new._picked_key = self._picked_key
        new._legal_key = self._legal_key
        return new

    def __copy__(self) -> ColorStackState:
        return self.copy()

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, ColorStackState):
            return NotImplemented
        return self.to_dict() == other.to_dict()

    __hash__ = None  # type: ignore[assignment]  # mutable

    def __repr__(self) -> str:
        return (
            f"<ColorStackState {self.settings.board} turns={self.turns} "
            f"to_move={self.to_move} ended_by={self.ended_by}>"
        )

    # ----------------------------------------------------------------- storage

    def to_dict(self) -> dict[str, Any]:
        """The game as plain JSON data: players, rules, the set-up and every action
        (:meth:`from_dict` replays them, so a restored game is exactly this one); before
        the board is set up, the first player drawn and the colours chosen so far."""
        data: dict[str, Any] = {
            "format": STATE_FORMAT,
            "players": list(self.players),
            "rules": self.settings.to_record(),
            "setup": None if self.setup is None else move_to_json(self.setup),
            "actions": [[seat, move_to_json(mv)] for seat, mv in self.log],
        }
        if self.setup is None and self.first is not None:
            before: list[AnyMove] = [FirstPlayer(self.first)]
            if self.chosen is not None:
                before.append(self.chosen)
            data["before"] = [move_to_json(mv) for mv in before]
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Self:
        """The game :meth:`to_dict` wrote; ``ValueError`` for anything else."""
        if not isinstance(data, dict) or data.get("format") != STATE_FORMAT:
            raise ValueError("not a stored Color Stack state")
        try:
            settings = ColorStackSettings.model_validate(data.get("rules") or {})
        except ValidationError as err:
            raise ValueError(settings_error(err)) from None
        players = data.get("players")
        if not isinstance(players, list) or not all(isinstance(p, str) for p in players):
            raise ValueError("players must be a list of names")
        try:
            state = cls(players, settings)
        except SetupError as err:
            raise ValueError(str(err)) from None
        before = data.get("before", [])
        if not isinstance(before, list) or len(before) > 2:
            raise ValueError("before must be the first player and the colours chosen")
        for raw, kind in zip(before, (FirstPlayer, Colours), strict=False):
            step = move_from_json(raw)
            if not isinstance(step, kind):
                raise ValueError(f"not a stored step of the set-up: {raw!r}")
            state.apply(step)
        setup = data.get("setup")
        if setup is not None:
            step = move_from_json(setup)
            if not isinstance(step, Setup):
                raise ValueError(f"not a stored set-up: {setup!r}")
            state.apply(step)
        actions = data.get("actions", [])
        if not isinstance(actions, list):
            raise ValueError("actions must be a list")
        for entry in actions:
            if not isinstance(entry, list) or len(entry) != 2:
                raise ValueError(f"not a stored action: {entry!r}")
            seat, raw = entry
            mv = move_from_json(raw)
            if isinstance(mv, Setup | FirstPlayer | Colours):
                raise ValueError("a set-up among the actions")
            state.apply(mv, by=seat)
        return state

    def board_rows(self) -> list[str]:
        """The position as the record checker prints it: one string per row from the top,
        each square ``#``, ``.`` or its stack (``B5G2``), separated by one space."""
        out = []
        for r in range(self.rows - 1, -1, -1):
            row = []
            for c in range(WIDTH):
                sq = r * WIDTH + c
                if self.black >> sq & 1:
                    row.append("#")
                else:
                    row.append(stack_text(self.cells[sq]) or ".")
            out.append(" ".join(row))
        return out
