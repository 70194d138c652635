"""The ``greedy`` player's choice without its words: the play-out policy of the expert.

:class:`~engine.stackup.ai.GreedyPlayer` rates every legal move and says why in a sentence;
the sentences cost more than the rating. :func:`greedy_values` computes the same values
(the same arithmetic, in the same order, so equal moves stay equal) and
:func:`greedy_choice` picks among them exactly as :meth:`RatingPlayer.choose` does — the
same move for the same random source — so play-outs model a ``greedy`` table faithfully,
at about half the cost. Like the greedy player it reads only the mover's hand and public
facts.
"""

from __future__ import annotations

import random

from engine.rating import NoMoveError
from engine.stackup.ai import (
    CARD,
    DRAW_PASS,
    EXTRA_TURN,
    LIKELY_TAKE,
    RESERVE,
    SKIP_OTHERS,
    WIN,
    _threat,
    best_run,
)
from engine.stackup.cards import COLOUR_OF, CRASH, FLIP, FREEZE, SNATCH, SWITCH, Card
from engine.stackup.moves import Block, Direction, Keep, Play, PlayDrawn, PlayerMove
from engine.stackup.rules import PENALTY_CARDS
from engine.stackup.state import StackUpState

_BLOCK_VALUE = CARD + PENALTY_CARDS * CARD


def _play_value(
    state: StackUpState,
    p: int,
    hand: list[Card],
    cards: tuple[Card, ...],
    bonus: str | None,
    colour: int | None,
    target: int | None,
    count: int | None,
) -> float:
    """The greedy value of playing ``cards`` (``ai._Rater._play``, without its words)."""
    left = list(hand)
    for c in cards:
        if c in left:
            left.remove(c)
    if not left:
        return WIN
    first = cards[0]
    value = CARD * len(cards)
    n = state.n
    nxt = (p + 1) % n
    if first >= FLIP:
        value -= RESERVE[first]
        if first == FREEZE:
            value += EXTRA_TURN if n == 2 else SKIP_OTHERS * (1 + _threat(state, nxt))
        elif first == CRASH:
            value += LIKELY_TAKE * PENALTY_CARDS * CARD * (0.5 + _threat(state, nxt))
        elif first == SNATCH:
            assert target is not None and count is not None
            value += CARD * count * (0.4 + _threat(state, target) - 1.0)
        elif first == SWITCH:
            assert colour is not None
            value += 0.5 * sum(1 for c in hand if c < FLIP and COLOUR_OF[c] == colour)
        else:
            value += 0.0
    if bonus == "skip":
        value += EXTRA_TURN if n == 2 else SKIP_OTHERS * (1 + _threat(state, nxt))
    elif bonus == "pass":
        specials = sum(1 for c in left if c >= FLIP)
        value += DRAW_PASS / (1 + specials)
    return value


def greedy_values(state: StackUpState, moves: list[PlayerMove]) -> list[float]:
    """The greedy player's value of each of ``moves`` (legal moves of the seat to act)."""
    p = state.current_player
    assert p is not None
    hand = state.hands[p]
    out: list[float] = []
    for move in moves:
        kind = type(move)
        if kind is Play:
            assert isinstance(move, Play)
            out.append(
                _play_value(
                    state, p, hand, move.cards, move.bonus, move.colour, move.target, move.count
                )
            )
        elif kind is PlayDrawn:
            assert isinstance(move, PlayDrawn) and state.drawn is not None
            out.append(
                _play_value(
                    state, p, hand, (state.drawn,), None, move.colour, move.target, move.count
                )
            )
        elif kind is Keep:
            drawn = state.drawn
            out.append(0.0 if drawn is None else RESERVE.get(drawn, 0.0))
        elif kind is Block:
            out.append(_BLOCK_VALUE)
        elif kind is Direction:
            assert isinstance(move, Direction)
            mine = best_run(list(hand), state.colour, state.number, move.up)
            other = best_run(list(hand), state.colour, state.number, not move.up)
            out.append(float(mine - other))
        else:  # Take, UsePass, Draw
            out.append(0.0)
    return out


def greedy_choice(state: StackUpState, rng: random.Random) -> PlayerMove:
    """The move :class:`~engine.stackup.ai.GreedyPlayer` chooses here with ``rng`` (the
    same move, and the same use of ``rng``)."""
    moves = state.legal_moves()
    if not moves:
        raise NoMoveError("There is no move to choose.")
    if len(moves) == 1:
        return moves[0]
    values = greedy_values(state, moves)
    best = max(values)
    top = [m for m, v in zip(moves, values, strict=True) if v >= best - 1e-9]
    return top[int(rng.random() * len(top))] if len(top) > 1 else top[0]
