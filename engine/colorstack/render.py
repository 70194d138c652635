"""The Color Stack board as text, as the rule book draws it, and the rules in brief.

:func:`render_text` draws the board from the first player's side (row 1 at the bottom,
as the notation names squares) with coordinates and a gap between cards: each square is
``#`` (black), ``.`` (empty) or its piece — the top die's colour letter and number, and
a superscript height for a stack of several dice (``G2²``). Stacks of several dice are
spelled out below, bottom to top. Then whose turn it is, each player's colours, the
last turn, the turns left and a repeated position. Everything is public: every viewer
sees the same text.
"""

from __future__ import annotations

from engine.colorstack.board import COLOUR_LETTERS, COLOUR_NAMES, COLUMNS, WIDTH, square_name
from engine.colorstack.describe import end_words, last_turn_words
from engine.colorstack.rules import DEFAULT_TURN_LIMIT, REPETITIONS
from engine.colorstack.state import ColorStackState, stack_text

HEIGHTS = "  ²³⁴⁵⁶"
CELL = 4  # characters per square: letter, number, height mark, space


def square_text(state: ColorStackState, sq: int) -> str:
    """A square as the board drawing shows it: ``#``, ``.``, ``R3`` or ``G2²``."""
    if state.is_black(sq):
        return "#"
    stack = state.stack(sq)
    if not stack:
        return "."
    top = stack[-1]
    mark = HEIGHTS[len(stack)] if len(stack) > 1 else ""
    return f"{COLOUR_LETTERS[top >> 3]}{top & 7}{mark}"


def board_lines(state: ColorStackState) -> list[str]:
    """The board drawing: rows from the top, coordinates on the left and below."""
    lines = []
    label = len(str(state.rows))
    for r in range(state.rows, 0, -1):
        cells = []
        for c in range(WIDTH):
            text = square_text(state, (r - 1) * WIDTH + c).ljust(CELL - 1)
            cells.append(text + ("  " if c % 3 == 2 and c < WIDTH - 1 else " "))
        lines.append(f"{str(r).rjust(label)}  {''.join(cells).rstrip()}")
        if r % 3 == 1 and r > 1:
            lines.append("")
    footer = "".join(
        col.ljust(CELL - 1) + ("  " if i % 3 == 2 and i < WIDTH - 1 else " ")
        for i, col in enumerate(COLUMNS)
    )
    lines.append(" " * (label + 2) + footer.rstrip())
    return lines


def status_line(state: ColorStackState) -> str:
    """Whose turn it is, or how the game ended."""
    if state.is_over:
        return f"🏁 {end_words(state)}"
    if state.choosing_colours:
        assert state.first is not None
        return (
            f"▶ {state.name(state.first)} moves first and chooses two colours, first and "
            "second (colours red yellow); the other player takes the other two."
        )
    if state.setup is None:
        return "Setting up…"
    return f"▶ {state.name(state.to_move)} to move."


def player_line(state: ColorStackState, seat: int) -> str:
    mark = "▶" if not state.is_over and state.current_player == seat else " "
    first, second = state.colours[seat]
    colours = f"{COLOUR_NAMES[first]} ({COLOUR_LETTERS[first]}) and {COLOUR_NAMES[second]} ({COLOUR_LETTERS[second]})"
    opener = ", moved first" if state.first == seat else ""
    return f"{mark} {state.name(seat)}: {colours}{opener}"


def render_text(state: ColorStackState, viewer: int | None = None) -> str:
    """The board in plain text (the same for every ``viewer``: nothing is hidden)."""
    lines = [f"Color Stack ({state.settings.board}) — {status_line(state)}"]
    if state.setup is None:
        return "\n".join(lines)
    lines.extend(player_line(state, seat) for seat in (0, 1))
    lines.append("")
    lines.extend(board_lines(state))
    tall = [sq for sq in range(state.squares) if len(state.stack(sq)) > 1]
    if tall:
        lines.append("")
        lines.append(
            "Stacks, bottom to top: "
            + " · ".join(f"{square_name(sq)} {stack_text(state.stack(sq))}" for sq in tall)
        )
    lines.append("")
    recent = last_turn_words(state)
    if recent is not None:
        lines.append(f"Last turn: {recent}")
    if state.is_over:  # no limit ahead to count down to
        lines.append(f"Turns: {state.turns} played.")
    else:
        lines.append(
            f"Turns: {state.turns} played, {state.turns_left} left before the limit of "
            f"{state.turn_limit} (a draw)."
        )
    seen = state.repetitions()
    if not state.is_over and seen >= 2:
        lines.append(
            f"This position has occurred {seen} times; a {_ordinal(REPETITIONS)} time draws."
        )
    if viewer is not None and viewer == state.current_player:
        lines.append("Your move: c1-e3 moves a piece, set c1 4 changes its number.")
    return "\n".join(lines)


def _ordinal(n: int) -> str:
    return {1: "first", 2: "second", 3: "third"}.get(n, f"{n}th")


def rules_text() -> str:
    """The rules in brief, and how to type a move."""
    return f"""Color Stack — 2 players, 6 dice each (two colours of red, blue, yellow, green) on a board
of cards with black squares. Win by making a stack that holds all four colours.
A stack is 1 or more dice; its number is its top die's face, and it is the piece of the
player owning its top die. Stacks never split.
On your turn do one of:
  Set — turn the top die of one of your pieces to another number (1–6).
  Move — move one of your pieces, whole, along a path of exactly as many steps as its
    number: orthogonal steps that may turn, never entering a square twice (nor the start),
    never a black square; only the last step may enter a stack.
Stacking on a stack showing t with your piece showing m needs: m at least as strong as t
(smaller is stronger, equal is fine, and 6 beats 1), no colour in both stacks (unless
together they hold all four: the winning move), and not the first player's first turn.
A player with no piece is skipped. The game is drawn when a position occurs a third time,
or after {DEFAULT_TURN_LIMIT} turns (a table may change the limit). You may resign at any time.

How to type a move:
  c1-e3        move the piece on c1 to e3 (any path that fits)
  set c1 4     turn the piece on c1 to show 4
  resign       give up: the other player wins
  colours red yellow   moving first, before the board is set up: your two colours,
               first then second (the other player takes the other two)
Board: columns a–i from the first player's left, rows 1–6 (light) or 1–9 (heavy) from
the first player's side. R3 is a red 3; G2² a stack of 2 dice topped by a green 2."""
