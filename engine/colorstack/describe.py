"""Words for Color Stack moves, finished turns and endings, for every front end.

:func:`move_words` labels a legal move for the player about to make it (a button or a
menu); :func:`turn_words` tells everyone what a finished turn did (and a skip or the end
it brought); :func:`end_words` says how the game ended, resignations and draws included.
Everything on the board is public, so nothing here is hidden from anyone.
"""

from __future__ import annotations

from engine.colorstack.board import COLOUR_NAMES, other_colours, square_name
from engine.colorstack.moves import Colours, Move, PlayerChoice, PlayerMove, Resign, Set
from engine.colorstack.state import (
    FOUR_COLOURS,
    REPETITION,
    RESIGNATION,
    TURN_LIMIT,
    ColorStackState,
)
from engine.game import TurnEnded


def die_words(d: int) -> str:
    """``yellow 4``: a die's colour and face."""
    return f"{COLOUR_NAMES[d >> 3]} {d & 7}"


def stack_words(stack: tuple[int, ...]) -> str:
    """``blue 5, green 2`` bottom to top (``yellow 4`` for a lone die)."""
    return ", ".join(die_words(d) for d in stack)


def piece_words(state: ColorStackState, sq: int) -> str:
    """``yellow 4 on c1`` or ``green 2 on c6 (on blue 5)``: a piece in words."""
    stack = state.stack(sq)
    if not stack:
        return f"nothing on {square_name(sq)}"
    text = f"{die_words(stack[-1])} on {square_name(sq)}"
    if len(stack) > 1:
        text += f" (on {stack_words(stack[:-1])})"
    return text


def move_words(state: ColorStackState, mv: PlayerChoice) -> str:
    """A legal move in the mover's words, for a button: ``Move yellow 4 c1 → c5``,
    ``Stack yellow 1 c5 → c6 onto blue 5, green 2 (wins: four colours)``, ``Set c1 to 6
    (yellow 4)``, ``Resign``, ``Red, then yellow (the other player: blue, then green)``."""
    if isinstance(mv, Colours):
        return colours_words(mv)
    if isinstance(mv, Resign):
        return "Resign (the other player wins)"
    if isinstance(mv, Set):
        top = state.top(mv.square)
        was = f" (now {die_words(top)})" if top is not None else ""
        return f"Set {square_name(mv.square)} to {mv.face}{was}"
    stack = state.stack(mv.frm)
    what = die_words(stack[-1]) if stack else "piece"
    if len(stack) > 1:
        what += f" with {len(stack) - 1} below"
    below = state.stack(mv.to)
    route = f"{square_name(mv.frm)} → {square_name(mv.to)}"
    if not below:
        return f"Move {what} {route}"
    text = f"Stack {what} {route} onto {stack_words(below)}"
    if state.colour_masks[mv.frm] | state.colour_masks[mv.to] == 0b1111:
        text += " (wins: four colours)"
    return text


def colours_words(mv: Colours) -> str:
    """The first player's colours and what that leaves the other player."""
    first, second = (COLOUR_NAMES[c] for c in mv.pair)
    other = " then ".join(COLOUR_NAMES[c] for c in other_colours(mv.pair))
    return f"{first.capitalize()}, then {second} (the other player: {other})"


def _board_as_left(state: ColorStackState, entry: int) -> bool:
    """Whether the board is as the turn at ``entry`` of the log left it: no set or move
    after it (a resignation changes nothing on the board)."""
    return all(isinstance(mv, Resign) for _, mv in state.log[entry + 1 :])


def _turn_text(state: ColorStackState, seat: int, mv: PlayerMove, entry: int) -> str:
    """The turn at ``entry`` of the log (the position after it is the current one when it
    is the last)."""
    who = state.name(seat)
    if isinstance(mv, Set):
        top = state.top(mv.square) if _board_as_left(state, entry) else None
        if top is None:
            return f"{who} set {square_name(mv.square)} to {mv.face}."
        return (
            f"{who} set the {COLOUR_NAMES[top >> 3]} die on {square_name(mv.square)} to {mv.face}."
        )
    if isinstance(mv, Move):
        last = _board_as_left(state, entry)
        stack = state.stack(mv.to) if last else ()
        route = f"{square_name(mv.frm)}-{square_name(mv.to)}"
        if not last or not stack:
            return f"{who} moved {route}."
        moved = state.moved_dice(entry)
        mover, below = stack[-moved:], stack[:-moved]
        if not below:
            return f"{who} moved {die_words(mover[-1])} {route}."
        return (
            f"{who} moved {die_words(mover[-1])} {route}, stacking onto "
            f"{stack_words(below)}: {square_name(mv.to)} is now {stack_words(stack)}."
        )
    return f"{who} resigned."


def turn_words(state: ColorStackState, event: TurnEnded) -> str:
    """The turn ``event`` reports (the latest turn of its seat), in words for everyone,
    with what followed it: a skip, a win, a draw."""
    log = state.log
    for index in range(len(log) - 1, -1, -1):
        seat, mv = log[index]
        if seat != event.seat or isinstance(mv, Resign):
            continue
        text = _turn_text(state, seat, mv, index)
        if index == len(log) - 1:
            if state.is_over:
                text += " " + end_words(state)
            elif state.to_move == seat:
                other = state.name(1 - seat)
                text += f" {other} has no piece and is skipped: {state.name(seat)} plays again."
        return text
    return f"{state.name(event.seat)} has not taken a turn yet."


def end_words(state: ColorStackState) -> str:
    """How the game ended, in words (empty while it goes on)."""
    ended, winner = state.ended_by, state.winner
    if ended == FOUR_COLOURS and winner is not None:
        return f"{state.name(winner)} made a stack of all four colours and wins!"
    if ended == RESIGNATION and winner is not None:
        return f"{state.name(1 - winner)} resigned: {state.name(winner)} wins."
    if ended == REPETITION:
        return "The same position occurred a third time: the game is drawn by repetition."
    if ended == TURN_LIMIT:
        limit = state.turn_limit
        turns = "1 turn" if limit == 1 else f"{limit} turns"
        return f"The turn limit of {turns} was reached without a winner: the game is drawn."
    return ""


def last_turn_words(state: ColorStackState) -> str | None:
    """The most recent set or move in words, or ``None`` before the first."""
    log = state.log
    for index in range(len(log) - 1, -1, -1):
        seat, mv = log[index]
        if not isinstance(mv, Resign):
            return _turn_text(state, seat, mv, index)
    return None
