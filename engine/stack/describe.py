"""Words for piles, moves and finished turns, shared by the parser, renderers and AI."""

from __future__ import annotations

from engine.stack.moves import Place, PlayerMove, Reroll, Stack
from engine.stack.state import StackState, TurnLog


def faces(face: int) -> str:
    """``3`` -> ``3s``: the plural used for a pile's face."""
    return f"{face}s"


def pile_words(owner_name: str, face: int, height: int, *, yours: bool = False) -> str:
    """``bob's single 3`` or ``bob's 3-high pile of 3s``; ``your single 3`` when
    ``yours`` (said to the pile's owner)."""
    whose = "your" if yours else f"{owner_name}'s"
    if height == 1:
        return f"{whose} single {face}"
    return f"{whose} {height}-high pile of {faces(face)}"


def move_words(state: StackState, move: PlayerMove) -> str:
    """A move in a player's words: ``stack a 3 on bob's single 3``."""
    if isinstance(move, Stack):
        return (
            f"stack a {move.face} on {pile_words(state.name(move.owner), move.face, move.height)}"
        )
    if isinstance(move, Reroll):
        return f"reroll a {move.face}"
    assert isinstance(move, Place) and state.placing is not None
    pile = pile_words(state.name(move.owner), state.placing, move.height)
    return f"put the {state.placing} on {pile}"


def turn_words(state: StackState, turn: TurnLog, *, you: int | None = None) -> str:
    """A finished turn from the state's history, in words; the piles of seat ``you`` (the
    reader's own, at a terminal) are "your" piles."""
    kind, player = turn[0], state.name(turn[1])
    if kind == "stack":
        _, _, face, owner, height = turn
        pile = pile_words(state.name(owner), face, height, yours=owner == you)
        text = f"{player} stacked a {face} on {pile}"
        rolled = face
    else:
        _, _, face, rolled, owner, height = turn
        text = f"{player} rerolled a {face} and rolled a {rolled}"
        if owner is None:
            return text + ": no pile to go on, so it stays unstacked"
        pile = pile_words(state.name(owner), rolled, height, yours=owner == you)
        text += f", which had to go on {pile}"
    if height == 3:
        text += f" and captured the pile ({rolled}s)"
    return text


def last_turn_words(state: StackState, *, you: int | None = None) -> str | None:
    """The most recent finished turn in words (seat ``you``'s piles as "your"), or
    ``None`` before the first."""
    for rnd in reversed(state.history):
        if rnd["turns"]:
            return turn_words(state, rnd["turns"][-1], you=you)
    return None
