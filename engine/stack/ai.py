"""AI players: one small interface for AI seats, AFK auto-moves and hints.

* ``random`` chooses uniformly among the distinct legal moves of its turn (each face it can
  stack times each distinct target, and each face it can reroll) and, placing a rerolled
  die, uniformly among the distinct targets.
* ``greedy`` rates every legal move with a heuristic it can explain and plays the best:
  captures, taking over valuable opponent piles, going out when it is ahead in the round,
  and not leaving a pile that an opponent's unstacked die can take straight back.
"""

from __future__ import annotations

import random
from typing import Protocol

from engine.rating import NoMoveError as NoMoveError  # the games' error, named here too
from engine.rating import RatedMove, RatingPlayer, make_player
from engine.stack.describe import pile_words
from engine.stack.moves import FACES, Place, PlayerMove, Reroll, Stack, face_value
from engine.stack.notation import move_notation
from engine.stack.state import StackState

# How much an opponent's loss is worth to us next to our own gain (there are several
# opponents, so hurting one helps us less than scoring ourselves).
OPPONENT_LOSS_WEIGHT = 0.6
# Chance-weighted loss when an opponent holds an unstacked die that can take our pile.
EXPOSED_THREE_HIGH = 1.0
EXPOSED_TWO_HIGH = 0.7
ROUND_END_BONUS = 3.0
REROLL_BASE = -0.5


class AIPlayer(Protocol):
    """Chooses a move for the seat to act in ``state``."""

    level: str

    def choose(self, state: StackState, rng: random.Random) -> PlayerMove: ...


class RandomPlayer:
    """Uniform over the distinct legal moves."""

    level = "random"
    # the state's own method, called as it is (compiled with it, when it is)
    choose = staticmethod(StackState.pick_random)


class GreedyPlayer(RatingPlayer[StackState, PlayerMove]):
    """Plays the move with the best immediate value; ties are broken at random."""

    level = "greedy"

    def rate(self, state: StackState) -> list[RatedMove[PlayerMove]]:
        """Every legal move with its value and a reason in a player's words."""
        p = state.current
        if p is None:
            return []
        ctx = _Context(state, p)
        out: list[RatedMove[PlayerMove]] = []
        for move in state.legal_moves():
            if isinstance(move, Stack):
                value, why = ctx.place_value(move.face, move.owner, move.height, from_hand=False)
            elif isinstance(move, Place):
                assert state.placing is not None
                value, why = ctx.place_value(state.placing, move.owner, move.height, from_hand=True)
            else:
                value, why = ctx.reroll_value(move)
            out.append(RatedMove(move, value, f"{move_notation(state, move)}: {why}"))
        return out


class _Context:
    """What the heuristic needs to know about one decision."""

    def __init__(self, state: StackState, seat: int) -> None:
        self.state = state
        self.seat = seat
        self.side = set(state.team_members(seat))
        self.opponents = [s for s in range(state.n) if s not in self.side]
        self.field = state.field_scores()
        self.bonus = 2 if state.rules.four_high_bonus else 1

    def place_value(
        self, face: int, owner: int, height: int, *, from_hand: bool
    ) -> tuple[float, str]:
        state, p = self.state, self.seat
        fv = face_value(face)
        name = state.name(owner)
        pile = pile_words(name, face, height)
        value = 0.0
        reasons: list[str] = []
        gain = 0.0
        if height == 3:
            gain = fv * self.bonus
            reasons.append(f"captures {pile} (+{fv * self.bonus})")
            if state.rules.capture_penalty:
                value += OPPONENT_LOSS_WEIGHT * len(self.opponents) - (len(self.side) - 1)
        else:
            gain = fv
            reasons.append(f"makes a {height + 1}-high pile of {face}s yours (+{fv})")
        value += gain
        loss = 0.0
        if height >= 2:
            if owner in self.side:
                value -= fv
                reasons.append(f"but takes {fv} from your teammate {name}")
            else:
                loss = fv
                value += OPPONENT_LOSS_WEIGHT * fv
                reasons.append(f"and takes {fv} from {name}")
        if height < 3 and self._exposed(face, owner, height):
            risk = fv * (EXPOSED_THREE_HIGH if height == 2 else EXPOSED_TWO_HIGH)
            value -= risk
            reasons.append(f"though an opponent can take it back with a {face}")
        my_left = state.single_total[p] - (0 if from_hand else 1)
        covers_last = height == 1 and state.single_total[owner] == 1
        if (my_left == 0 or covers_last) and not state.in_last_turns:
            mine = sum(self.field[s] for s in self.side) + gain
            theirs = max(
                (self.field[o] - (loss if o == owner else 0) for o in self.opponents),
                default=0,
            )
            swing = ROUND_END_BONUS + 0.3 * abs(mine - theirs)
            if mine > theirs:
                value += swing
                reasons.append("and ends the round while you lead it")
            else:
                value -= swing
                reasons.append("but ends the round while you trail in it")
        return value, ", ".join(reasons)

    def _exposed(self, face: int, owner: int, height: int) -> bool:
        """Whether an opponent could put a die on the pile we are about to top."""
        singles = self.state.singles
        for o in self.opponents:
            have = singles[o][face] - (1 if o == owner and height == 1 else 0)
            if have > 0:
                return True
        return False

    def reroll_value(self, move: Reroll) -> tuple[float, str]:
        state, p = self.state, self.seat
        total = 0.0
        for rolled in FACES:
            options = state.targets_for(p, rolled)
            if options:
                total += max(self.place_value(rolled, o, h, from_hand=True)[0] for o, h in options)
        value = REROLL_BASE + total / 6
        if state.rules.rolled_two_penalty:
            value -= 1 / 6
        return value, f"rerolls a {move.face} (worth about {total / 6:+.1f} on average)"


AI_LEVELS: dict[str, type[RandomPlayer] | type[GreedyPlayer]] = {
    "random": RandomPlayer,
    "greedy": GreedyPlayer,
}


def make_ai(level: str) -> AIPlayer:
    """The AI player called ``level``: ``random``, ``greedy`` or ``expert`` (a search,
    :mod:`engine.stack.expert`, loaded on first use)."""
    player: AIPlayer = make_player(level, AI_LEVELS, "engine.stack.expert")
    return player
