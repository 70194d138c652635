"""Color Stack's board: the card designs, squares, start squares and the chance of set-up.

A square is an integer ``(row - 1) * 9 + column`` (column 0–8 for ``a``–``i``, row 1–6
light or 1–9 heavy, both from the first player's side), named like ``c1``. The board is
always 9 columns wide, so a square's number does not depend on the board's size.

A card lies in a slot in printed orientation or turned a half turn; a lying card is
written as its design letter, followed by ``'`` when turned (``"C"``, ``"C'"``), as the
game record writes it. Dice are integers ``colour << 3 | face`` (colours 0–3: red, blue,
yellow, green; faces 1–6), so ``die & 7`` is its face and ``die >> 3`` its colour.
"""

from __future__ import annotations

import random
from collections.abc import Sequence
from functools import cache

from engine.errors import as_json

COLUMNS = "abcdefghi"
WIDTH = 9
LIGHT_ROWS, HEAVY_ROWS = 6, 9
BOARDS = {"light": LIGHT_ROWS, "heavy": HEAVY_ROWS}

RED, BLUE, YELLOW, GREEN = 0, 1, 2, 3
COLOURS = (RED, BLUE, YELLOW, GREEN)
COLOUR_NAMES = ("red", "blue", "yellow", "green")
COLOUR_LETTERS = "RBYG"
DICE_FACES = (1, 2, 3, 4, 5, 6)
ALL_COLOURS = 0b1111  # a colour mask holding all four: the winning stack
DEFAULT_COLOURS = (RED, YELLOW)  # the first player's colours unless chosen

# The five designs as the rule book draws them, printed top row first ("#" black).
DESIGNS: dict[str, tuple[str, str, str]] = {
    "A": ("...", "...", "..."),
    "B": ("...", ".#.", "..."),
    "C": ("#..", "...", "..."),
    "D": ("...", "##.", "..."),
    "E": (".#.", "...", ".#."),
}
COPIES = {"A": 2, "B": 4, "C": 4, "D": 4, "E": 4}
DECK: tuple[str, ...] = tuple(d for d, k in COPIES.items() for _ in range(k))  # 18 cards
TURNED = "'"


def die(colour: int, face: int) -> int:
    """The die of ``colour`` showing ``face``."""
    return colour << 3 | face


def die_face(d: int) -> int:
    return d & 7


def die_colour(d: int) -> int:
    return d >> 3


def die_name(d: int) -> str:
    """``R3``: a die's colour letter and face, as the record's board writes it."""
    return f"{COLOUR_LETTERS[d >> 3]}{d & 7}"


def rows_of(board: str) -> int:
    """How many rows the board called ``board`` (``light``/``heavy``) has."""
    return BOARDS[board]


def square(column: int, row: int) -> int:
    """The square in ``column`` (0–8) and ``row`` (1 up)."""
    return (row - 1) * WIDTH + column


def column_of(sq: int) -> int:
    return sq % WIDTH


def row_of(sq: int) -> int:
    return sq // WIDTH + 1


def square_name(sq: int) -> str:
    """``c1``: the square's name."""
    return f"{COLUMNS[sq % WIDTH]}{sq // WIDTH + 1}"


def ascii_number(text: str) -> bool:
    """``text`` is a number as players type one: ASCII digits only."""
    return text.isascii() and text.isdigit()


def parse_square(text: str, rows: int) -> int | None:
    """The square named ``text`` (``c1``) on a board of ``rows`` rows, else ``None``."""
    row_typed = text[1:]  # ASCII digits only: '²' and '٣' are digits to isdigit(), not to int()
    if len(text) < 2 or text[0] not in COLUMNS or not ascii_number(row_typed) or text[1] == "0":
        return None
    row = int(row_typed)
    return square(COLUMNS.index(text[0]), row) if 1 <= row <= rows else None


def on_board(sq: int, rows: int) -> bool:
    return 0 <= sq < rows * WIDTH


def start_squares(seat_first: bool, rows: int) -> tuple[int, ...]:
    """A player's six start squares from the first player's left (``a1 c1 d1 f1 g1 i1``;
    the second player the same columns on the top row)."""
    row = 1 if seat_first else rows
    return tuple(square(c, row) for c in (0, 2, 3, 5, 6, 8))


def start_colours(colours: tuple[int, int], seat_first: bool) -> tuple[int, ...]:
    """The colour of the die on each of :func:`start_squares` (same order): placed from
    their owner's own left, alternating first and second colour. For the first player
    ``a1 d1 g1`` get the first colour; for the second ``i6 f6 c6`` (their left)."""
    first, second = colours
    if seat_first:
        return (first, second, first, second, first, second)
    return (second, first, second, first, second, first)


def all_start_squares(rows: int) -> tuple[int, ...]:
    """The 12 start squares in the order a :class:`~engine.colorstack.moves.Setup` lists
    the dice: the first player's ``a1 c1 d1 f1 g1 i1``, then ``a6 c6 d6 f6 g6 i6``."""
    return start_squares(True, rows) + start_squares(False, rows)


def other_colours(colours: tuple[int, int]) -> tuple[int, int]:
    """The second player's colours: the two the first did not take, in the order red,
    blue, yellow, green."""
    rest = tuple(c for c in COLOURS if c not in colours)
    return (rest[0], rest[1])


# ---------------------------------------------------------------------------- cards


def parse_card(text: str) -> tuple[str, bool] | None:
    """``("C", True)`` for ``"C'"``: a lying card's design and whether it is turned."""
    if text in DESIGNS:
        return text, False
    if len(text) == 2 and text[0] in DESIGNS and text[1] == TURNED:
        return text[0], True
    return None


def card_black(card: str, slot: int) -> tuple[int, ...]:
    """The black squares of the lying ``card`` (``"C'"``) in ``slot`` (0 up, in slot order:
    card row 1 from column a, then card row 2 …)."""
    parsed = parse_card(card)
    if parsed is None:
        raise ValueError(f"not a card: {card!r}")
    design, turned = parsed
    card_row, card_col = divmod(slot, 3)
    top = 3 * card_row + 3  # the board row of the card's printed top row (row 3r)
    out = []
    for dr, line in enumerate(DESIGNS[design]):
        for dc, mark in enumerate(line):
            if mark != "#":
                continue
            r, c = (2 - dr, 2 - dc) if turned else (dr, dc)
            out.append(square(3 * card_col + c, top - r))
    return tuple(sorted(out))


def black_squares(cards: Sequence[str]) -> frozenset[int]:
    """Every black square of a board whose cards lie as ``cards`` (slot order)."""
    return frozenset(sq for slot, card in enumerate(cards) for sq in card_black(card, slot))


def black_mask(cards: Sequence[str]) -> int:
    """:func:`black_squares` as a bit mask (bit ``sq``)."""
    mask = 0
    for sq in black_squares(cards):
        mask |= 1 << sq
    return mask


def home_slots(rows: int) -> tuple[int, ...]:
    """The slots of both players' home cards: card row 1 and the last card row."""
    last = rows // 3 - 1
    return (0, 1, 2, 3 * last, 3 * last + 1, 3 * last + 2)


def cards_problem(cards: Sequence[str], rows: int) -> str | None:
    """Why ``cards`` cannot be a board of ``rows`` rows as it lies once set up is done,
    else ``None`` (count, designs, copies, a black start square)."""
    want = rows // 3 * 3
    if len(cards) != want:
        board = "light" if rows == LIGHT_ROWS else "heavy"
        return f"a {board} board has {want} cards, not {len(cards)}"
    used: dict[str, int] = {}
    for card in cards:
        parsed = parse_card(card) if isinstance(card, str) else None
        if parsed is None:
            return f"{as_json(card)} is not a card: a design letter A to E, then ' when turned"
        used[parsed[0]] = used.get(parsed[0], 0) + 1
    for design, count in used.items():
        if count > COPIES[design]:
            return f"there are only {COPIES[design]} cards of design {design}, not {count}"
    black = black_squares(cards)
    for sq in all_start_squares(rows):
        if sq in black:
            return f"the start square {square_name(sq)} is black (its card should be turned)"
    return None


def deal_cards(rng: random.Random, rows: int) -> tuple[str, ...]:
    """Set-up steps 2 and 3 from ``rng``: shuffle the 18 cards, lay the first 6 (light) or
    9 (heavy) in slot order, each printed or turned at random; then turn a home card with
    a black start square. Returns the cards as they lie."""
    deck = list(DECK)
    rng.shuffle(deck)
    count = rows // 3 * 3
    lying = [card + (TURNED if rng.random() < 0.5 else "") for card in deck[:count]]
    starts = set(all_start_squares(rows))
    for slot in home_slots(rows):
        if starts.intersection(card_black(lying[slot], slot)):
            lying[slot] = turn_card(lying[slot])
    return tuple(lying)


def turn_card(card: str) -> str:
    """The card turned a half turn (``"C"`` ↔ ``"C'"``)."""
    return card[:-1] if card.endswith(TURNED) else card + TURNED


# ---------------------------------------------------------------------------- geometry


@cache
def neighbours(rows: int) -> tuple[tuple[int, ...], ...]:
    """Each square's orthogonal neighbours on the board (black squares included: the
    paths exclude them with the black mask)."""
    out = []
    for sq in range(rows * WIDTH):
        c, r = sq % WIDTH, sq // WIDTH
        near = []
        if r + 1 < rows:
            near.append(sq + WIDTH)
        if c + 1 < WIDTH:
            near.append(sq + 1)
        if r > 0:
            near.append(sq - WIDTH)
        if c > 0:
            near.append(sq - 1)
        out.append(tuple(near))
    return tuple(out)


# (endpoint, masks): the squares a path of exactly n steps from a start may end on, each
# with the distinct sets (bit masks) of squares its paths pass between start and end
Reach = tuple[tuple[int, tuple[int, ...]], ...]
_reach_cache: dict[tuple[int, int, int], Reach] = {}


def reach(rows: int, start: int, n: int) -> Reach:
    """The self-avoiding paths of exactly ``n`` steps from ``start`` on the open board,
    grouped by endpoint: a path is possible in a position exactly when none of the squares
    it passes (its mask) is black or holds a stack. Computed once per (board, square, n)
    and shared by every game, whatever its cards: move generation only tests masks."""
    key = (rows, start, n)
    known = _reach_cache.get(key)
    if known is not None:
        return known
    near = neighbours(rows)
    by_end: dict[int, set[int]] = {}

    def walk(sq: int, left: int, visited: int, between: int) -> None:
        for q in near[sq]:
            bit = 1 << q
            if visited & bit:
                continue
            if left == 1:
                by_end.setdefault(q, set()).add(between)
            else:
                walk(q, left - 1, visited | bit, between | bit)

    walk(start, n, 1 << start, 0)
    # fewest squares passed first (all have n - 1), then by mask for a fixed order
    result = tuple((end, tuple(sorted(masks))) for end, masks in sorted(by_end.items()))
    _reach_cache[key] = result
    return result


def diamond(rows: int, start: int, n: int) -> int:
    """The mask of squares within ``n`` orthogonal steps of ``start``."""
    c0, r0 = start % WIDTH, start // WIDTH
    mask = 0
    for sq in range(rows * WIDTH):
        if abs(sq % WIDTH - c0) + abs(sq // WIDTH - r0) <= n:
            mask |= 1 << sq
    return mask


# A path table of a start and a number of steps: :func:`reach` turned sideways, so that
# move generation tests every path at once with a few operations on big integers.
# ``(region, keep, full, ends)``: the paths are numbered (by endpoint, then mask), bit i
# of an integer standing for path i; ``region`` is the mask of every square a path passes
# between start and end, ``keep[sq]`` the paths that do not pass ``sq`` (all outside the
# region), ``full`` all the paths, and ``ends`` each endpoint in square order as
# ``(end, 1 << end, its paths)``. The paths still open in a position are ``full`` and the
# ``keep`` of every blocked square of the region.
PathTable = tuple[int, tuple[int, ...], int, tuple[tuple[int, int, int], ...]]
_path_cache: dict[tuple[int, int, int], PathTable] = {}


def path_table(rows: int, start: int, n: int) -> PathTable:
    """The :data:`PathTable` of the paths of exactly ``n`` steps from ``start`` on a board
    of ``rows`` rows (made once, shared by every game)."""
    key = (rows, start, n)
    known = _path_cache.get(key)
    if known is not None:
        return known
    kill = [0] * (rows * WIDTH)
    ends = []
    region = 0
    index = 0
    for end, masks in reach(rows, start, n):
        first = index
        for mask in masks:
            region |= mask
            bit = 1 << index
            m = mask
            while m:
                low = m & -m
                m ^= low
                kill[low.bit_length() - 1] |= bit
            index += 1
        ends.append((end, 1 << end, (1 << index) - (1 << first)))
    full = (1 << index) - 1
    table = (region, tuple(full ^ k for k in kill), full, tuple(ends))
    _path_cache[key] = table
    return table
