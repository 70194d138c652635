"""AI players for Color Stack: AI seats, moves for absent players, and hints.

* ``random`` chooses uniformly among the legal sets and moves of its turn (never resigns).
* ``greedy`` plays by three rules it can explain, in order:

  1. win now when a move makes a stack of all four colours;
  2. never hand the opponent a win next turn when any action avoids it (when none does,
     leave them the fewest winning moves);
  3. among those, make the most threats: the most winning moves for itself next turn
     (the opponent can stop one, rarely all), then build toward four colours — its piece
     on top of the stack with the most colours — and otherwise vary at random.

  The rule book's simulation calls this the threat-making player: it wins almost every
  game against the plain random player.
* ``expert`` searches (:mod:`engine.colorstack.search`, alpha-beta with iterative
  deepening), imported on first use.

Moving first, every level chooses the rule book's default colours, red then yellow
(:func:`colours_choice`): the rules treat the four colours alike, so the choice never
changes the game.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any

from engine.colorstack.board import square_name
from engine.colorstack.colours import DEFAULT_CHOICE, colours_choice
from engine.colorstack.moves import Decided, Move, Set, TurnMove
from engine.colorstack.record import action_text
from engine.colorstack.state import ColorStackState

# Points of rule 3: a threat outweighs any amount of building.
THREAT = 100
COLOUR = 3


class NoMoveError(ValueError):
    """The AI was asked for a move when there is none to choose."""


def _turn(state: ColorStackState) -> int:
    if state.is_over or state.current_player is None:
        raise NoMoveError("There is no move to choose: the game is not being played.")
    return state.current_player


class RandomPlayer:
    """Uniform over the legal sets and moves (the default colours, moving first)."""

    level = "random"

    def choose(self, state: ColorStackState, rng: random.Random) -> Decided:
        chosen = colours_choice(state)
        if chosen is not None:
            return chosen[0]
        # rng.choice(state.turn_moves()), the same draw and move, without the list
        mv = state.random_move(rng)
        if mv is None:
            _turn(state)  # raises NoMoveError
            raise NoMoveError("There is no move to choose.")
        return mv


@dataclass(frozen=True, slots=True)
class Rated:
    """A legal action and what the greedy rules see in it."""

    move: TurnMove
    wins: bool  # makes four colours now
    gives: int  # winning moves it leaves the opponent next turn
    threats: int  # winning moves it leaves the mover for their next turn
    colours: int  # the most colours in a stack the mover tops afterwards


def rate(state: ColorStackState, mv: TurnMove) -> Rated:
    """What the greedy rules see in ``mv`` for the player to move."""
    me = state.to_move
    st = state.copy()
    st.push(mv)
    if st.winner == me:
        return Rated(mv, True, 0, 0, 4)
    if st.is_over:  # a draw (repetition or the turn limit): nothing to give or take
        return Rated(mv, False, 0, 0, 0)
    gives = len(st.winning_moves(1 - me)) if st.to_move != me else 0
    threats = len(st.winning_moves(me))
    colours = max((bin(st.colour_masks[sq]).count("1") for sq in st.pieces(me)), default=0)
    return Rated(mv, False, gives, threats, colours)


class GreedyPlayer:
    """Wins at once when it can, never hands the opponent a win when it can avoid it,
    and otherwise makes threats and builds colours (see the module's description)."""

    level = "greedy"

    def choose(self, state: ColorStackState, rng: random.Random) -> Decided:
        chosen = colours_choice(state)
        if chosen is not None:
            return chosen[0]
        return self._decide(state, rng)[0]

    def hint(self, state: ColorStackState) -> tuple[Decided, str]:
        """The move it would play for the seat to act, and why (no randomness: the first
        of equally good moves)."""
        return colours_choice(state) or self._decide(state, None)

    def _decide(self, state: ColorStackState, rng: random.Random | None) -> tuple[TurnMove, str]:
        me = _turn(state)
        wins = state.winning_moves()
        if wins:
            mv = wins[0] if rng is None else rng.choice(wins)
            return mv, (
                f"{action_text(mv)} wins now: it makes a stack of all four colours on "
                f"{square_name(mv.to)}."
            )
        rated = [rate(state, mv) for mv in state.turn_moves()]
        fewest = min(r.gives for r in rated)
        pool = [r for r in rated if r.gives == fewest]
        best_score = max(_score(r) for r in pool)
        best = [r for r in pool if _score(r) == best_score]
        pick = best[0] if rng is None else rng.choice(best)
        opponent = state.name(1 - me)
        return pick.move, _reason(pick, fewest, opponent, len(pool) < len(rated))


def _score(r: Rated) -> int:
    return THREAT * r.threats + COLOUR * r.colours


def _reason(pick: Rated, fewest: int, opponent: str, avoided: bool) -> str:
    text = action_text(pick.move)
    if fewest:
        return (
            f"Every action leaves {opponent} a winning move; {text} leaves the fewest ({fewest})."
        )
    safety = f"it hands {opponent} no win" if avoided else "nothing hands a win either way"
    if pick.threats:
        threats = "a winning move" if pick.threats == 1 else f"{pick.threats} winning moves"
        return f"{text}: {safety}, and it sets up {threats} for your next turn."
    kind = "set" if isinstance(pick.move, Set) else "move"
    build = (
        f"builds toward four colours (a stack of {pick.colours} under your piece)"
        if pick.colours >= 2
        else f"is a safe {kind}"
    )
    return f"{text}: {safety}, and it {build}."


def make_ai(level: str) -> Any:
    """The AI player of ``level``: ``random``, ``greedy`` or ``expert`` (the search)."""
    if level == "random":
        return RandomPlayer()
    if level == "greedy":
        return GreedyPlayer()
    if level == "expert":
        from engine.colorstack.search import make_expert  # the search loads on first use

        return make_expert()
    raise ValueError(f"There is no {level!r} player; the levels are random, greedy, expert.")


__all__ = [
    "DEFAULT_CHOICE",
    "GreedyPlayer",
    "Move",
    "NoMoveError",
    "RandomPlayer",
    "colours_choice",
    "make_ai",
    "rate",
]
