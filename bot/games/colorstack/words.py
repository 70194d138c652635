"""Color Stack in the words and text grid of the public table message, and the facts the
picture shows — everything built from a :class:`~engine.colorstack.state.ColorStackState`,
without Discord.

The text grid is the board in a code block, nine cells of three characters each from
``a`` to ``i`` with the cards' columns separated by ``|`` and their rows by a line, row 1
at the bottom (the first player's side), 31 characters wide so a phone shows it unwrapped::

      a  b  c  d  e  f  g  h  i
    6 G2 ·  B5²|G4 ## B3 |G2 ## B1
    …
    1 R3 ·  Y4 |R6 ·  Y2 |R5 ·  Y1

A cell is ``·`` (empty), ``##`` (black) or the stack's top die (colour letter and number)
with its height as a superscript when it holds more than one die; the line under the grid
spells out every stack of two dice or more, bottom to top.
"""

from __future__ import annotations

from collections.abc import Sequence

from bot.games.base import draw_words, seat_mark
from bot.text import escape_name
from catalog import colorstack as words
from catalog import n, t
from engine.colorstack.board import COLOUR_LETTERS, square_name
from engine.colorstack.moves import Move, Set
from engine.colorstack.state import ColorStackState, stack_text

__all__ = [
    "ENDED_BY",
    "SQUARES",
    "colours_words",
    "die_words",
    "end_words",
    "field_text",
    "grid",
    "last_line",
    "piece_words",
    "seat_line",
    "stacks_line",
]

SQUARES = ("🟥", "🟦", "🟨", "🟩")  # a colour as the text shows it (red, blue, yellow, green)
HEIGHTS = {1: " ", 2: "²", 3: "³", 4: "⁴"}
RECENT_TURNS = 3  # the turns' words the table message recalls
ENDED_BY = {  # how a game was won (the outcome's ended_by) -> its words' key; a
    # resignation and the draws are said in every game's words (bot.sheets)
    "four_colours": "colorstack.ended_by.four_colours",
    "resignation": "info.history.by_resignation",
}


def _name(state: ColorStackState, seat: int) -> str:
    return escape_name(state.players[seat])


def die_words(die: int) -> str:
    """``🟨 yellow 4``."""
    return f"{SQUARES[die >> 3]} {words.die_words(die)}"


def colours_words(state: ColorStackState, seat: int) -> str:
    """``🟥 red & 🟨 yellow``: a seat's two colours."""
    if not state.colours:
        return t("colorstack.table.colours_not_dealt")
    return pair_words(state.colours[seat])


def pair_words(pair: tuple[int, int]) -> str:
    """``🟥 red & 🟨 yellow``: two colours, first and second."""
    first, second = (f"{SQUARES[c]} {words.colour_name(c)}" for c in pair)
    return t("colorstack.table.colour_pair", first=first, second=second)


def piece_words(state: ColorStackState, sq: int) -> str:
    """``🟨 yellow 4 on c1``, and for a stack the dice it carries:
    ``🟨 yellow 1 on c6 (over 🟩 green 2, 🟦 blue 5)``."""
    stack = state.stack(sq)
    square = square_name(sq)
    if not stack:
        return t("colorstack.piece.nothing", square=square)
    if len(stack) > 1:
        under = t("colorstack.stack.separator").join(die_words(d) for d in reversed(stack[:-1]))
        return t(
            "colorstack.table.piece_over", die=die_words(stack[-1]), square=square, under=under
        )
    return t("colorstack.table.piece", die=die_words(stack[-1]), square=square)


# ------------------------------------------------------------------ the grid


def _cell(state: ColorStackState, sq: int) -> str:
    stack = state.stack(sq)
    if stack:
        top = stack[-1]
        return f"{COLOUR_LETTERS[top >> 3]}{top & 7}{HEIGHTS.get(len(stack), '+')}"
    return "## " if state.is_black(sq) else "·  "


def grid(state: ColorStackState) -> str:
    """The board as a code block (see the module's description)."""
    lines = ["  " + "|".join("".join(f"{c}  " for c in "abcdefghi"[k : k + 3]) for k in (0, 3, 6))]
    rule = "  " + "+".join("-" * 9 for _ in range(3))
    for row in range(state.rows, 0, -1):
        cells = [_cell(state, (row - 1) * 9 + column) for column in range(9)]
        cards = ["".join(cells[k : k + 3]) for k in (0, 3, 6)]
        lines.append(f"{row} " + "|".join(cards).rstrip())
        if row % 3 == 1 and row > 1:
            lines.append(rule)
    lines[0] = lines[0].rstrip()
    return "```\n" + "\n".join(lines) + "\n```"


def stacks_line(state: ColorStackState) -> str | None:
    """``Stacks (bottom to top): c6 B5 G2 Y1 · e3 R6 B2``, or ``None`` when every die
    stands alone."""
    stacks = [
        f"{square_name(sq)} {' '.join(stack_text((d,)) for d in state.stack(sq))}"
        for sq in range(state.squares)
        if len(state.stack(sq)) > 1
    ]
    return t("colorstack.table.stacks", stacks=" · ".join(stacks)) if stacks else None


# ------------------------------------------------------------------ the table's words


def seat_line(state: ColorStackState, seat: int) -> str:
    """``▶ 🟥🟨 **alice** · red & yellow · moved first``."""
    mark = seat_mark(state, seat)
    squares = "".join(SQUARES[c] for c in state.colours[seat]) if state.colours else ""
    parts = [f"{mark} {squares} **{_name(state, seat)}**"]
    if state.colours:
        first, second = state.colours[seat]
        parts.append(
            t(
                "colorstack.table.colour_pair",
                first=words.colour_name(first),
                second=words.colour_name(second),
            )
        )
    if state.first == seat and state.setup is not None:  # choosing colours: no move yet
        parts.append(t("colorstack.table.moved_first"))
    if state.setup is not None and not state.is_over and not state.has_piece(seat):
        parts.append(t("colorstack.table.skipped"))
    return " · ".join(parts)


def last_line(state: ColorStackState) -> str | None:
    """``Last: **bob** a6-c6 (🟩 green 2 stacks on 🟦 blue 5)`` or ``Last: **ann** set c5 1``."""
    last = state.last_turn
    if last is None:
        return None
    seat, move = last
    name = _name(state, seat)
    if isinstance(move, Set):
        return t(
            "colorstack.table.last_set", name=name, square=square_name(move.square), face=move.face
        )
    assert isinstance(move, Move)
    frm, to = square_name(move.frm), square_name(move.to)
    below = stacked_on(state)
    if below is None:
        return t("colorstack.table.last_move", name=name, frm=frm, to=to)
    return t("colorstack.table.last_stacked", name=name, frm=frm, to=to, die=die_words(below))


def stacked_on(state: ColorStackState) -> int | None:
    """The top die of the stack the last move landed on, or ``None`` (the last turn was a
    set, or a move to an empty square): the state is undone to before that move to see."""
    last = state.last_turn
    if last is None or not isinstance(last[1], Move):
        return None
    before = state.copy()
    while before.log:
        if before.pop() == last[1]:
            break
    return before.top(last[1].to)


def end_words(state: ColorStackState) -> str:
    """How the game ended, in a line (markdown, names escaped), in the host's forms
    (:meth:`~bot.games.base.DiscordGame.end_line`) with Color Stack's facts: where the
    four colours stand, and after how many turns."""
    outcome = state.outcome()
    if outcome is None:
        return t("colorstack.table.on")
    turns = state.turns
    if outcome.ended_by == "resignation" and outcome.winners:
        winner = outcome.winners[0]
        return n(
            "colorstack.table.end.resigned",
            turns,
            loser=_name(state, 1 - winner),
            winner=_name(state, winner),
        )
    if not outcome.winners:
        draw = draw_words(outcome.ended_by, state.turn_limit)
        if outcome.ended_by == "turn_limit":
            return t("colorstack.table.end.draw", draw=draw)
        return n("colorstack.table.end.draw_after", turns, draw=draw)
    name = _name(state, outcome.winners[0])
    last = state.last_turn
    if last and isinstance(last[1], Move):
        return n("colorstack.table.end.won_on", turns, winner=name, square=square_name(last[1].to))
    return n("colorstack.table.end.won", turns, winner=name)


def field_text(state: ColorStackState, turns: Sequence[str] | None) -> str:
    """The table as text: the turn, each player's colours, the last move, the grid, the
    stacks spelled out and the recent turns' words (``turns``: the host's, escaped)."""
    title = words.WORDS.title()
    if state.is_over:
        top = n("colorstack.table.over", state.turns, title=title)
    else:
        top = n("colorstack.table.turn", state.turns_left, title=title, turn=state.turns + 1)
    lines = [top, *(seat_line(state, seat) for seat in range(2))]
    last = last_line(state)
    if last:
        lines.append(last)
    lines.append(grid(state))
    stacks = stacks_line(state)
    if stacks:
        lines.append(stacks)
    recent = list(turns or ())[-RECENT_TURNS:]
    if recent:
        lines.append("-# " + " · ".join(recent))
    return "\n".join(lines)
