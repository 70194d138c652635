"""What each legal move achieves, for a player deciding: the **My turn** panel groups the
moves by it and marks the greedy AI's pick as the suggestion.

The groups follow the rule book (``docs/stack-rules.md``):

* **capture** — the move puts the fourth die on a pile (the target is 3 high): "A pile
  that reaches height 4 is captured by the player who placed the fourth die" and
  "every captured pile scores for its captor" (its face, doubled with the
  ``four_high_bonus`` house rule).
* **take** — the move stacks on another player's pile of 1 or 2 dice, so that its top,
  and with it the pile, becomes yours: "A pile belongs to the owner of its top die", and
  piles of 2 or 3 "score their face for the owner of the top die". A take is **safe**
  when no opponent holds an unstacked die of that face (nobody can stack straight back
  on it), and **exposed** otherwise.
* **reroll** — the die is rolled again: "If any pile is now a legal target for the rolled
  face, the die must be stacked on one of them".

A move also **ends the round** when it leaves the player without unstacked dice (going
out) or covers an opponent's last unstacked die, outside the last turns.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum

from engine.stack.ai import GreedyPlayer, NoMoveError
from engine.stack.moves import Place, PlayerMove, Reroll, Stack, face_value
from engine.stack.state import StackState

__all__ = ["Advice", "Group", "advise", "suggestion"]


class Group(Enum):
    """What a move achieves, in the order the panel lists the groups."""

    CAPTURE = "capture"
    SAFE = "safe"  # a take nobody can stack straight back on
    EXPOSED = "exposed"  # a take an opponent's unstacked die can take back
    REROLL = "reroll"

    @property
    def title(self) -> str:
        return GROUP_TITLES[self]


GROUP_TITLES = {
    Group.CAPTURE: "Captures",
    Group.SAFE: "Safe takes",
    Group.EXPOSED: "Takes (can be taken back)",
    Group.REROLL: "Rerolls",
}


@dataclass(frozen=True, slots=True)
class Advice:
    """One legal move and what it achieves.

    ``face`` is the die's face (the rerolled die's when placing it); ``owner`` and
    ``height`` the target pile's owner and height before the move (``None`` for a
    reroll); ``gain`` the points the pile is worth to the player at the round's end if
    it stays theirs (a capture always does); ``loss`` what the pile's owner loses by it
    (a 2-high pile was theirs); ``teammate`` whether the owner is on the player's side.
    """

    move: PlayerMove
    group: Group
    face: int
    owner: int | None = None
    height: int | None = None
    gain: int = 0
    loss: int = 0
    teammate: bool = False
    ends_round: bool = False
    suggested: bool = False


def suggestion(state: StackState) -> PlayerMove | None:
    """The greedy AI's pick (the first of equally rated moves), or ``None`` when there is
    no decision to make."""
    try:
        return GreedyPlayer().best(state).move
    except NoMoveError:
        return None


def advise(state: StackState) -> list[Advice]:
    """Every legal move of the player to act, grouped (captures, safe takes, exposed takes,
    rerolls) and, within a group, the most points first; the greedy AI's pick is marked
    ``suggested``."""
    seat = state.current
    if seat is None:
        return []
    side = set(state.team_members(seat))
    bonus = 2 if state.rules.four_high_bonus else 1
    pick = suggestion(state)
    out: list[Advice] = []
    for move in state.legal_moves():
        if isinstance(move, Reroll):
            out.append(Advice(move, Group.REROLL, move.face, suggested=move == pick))
            continue
        assert isinstance(move, Stack | Place)
        from_hand = isinstance(move, Place)
        face = move.face if isinstance(move, Stack) else state.placing
        assert face is not None
        owner, height = move.owner, move.height
        value = face_value(face)
        if height == 3:
            group, gain = Group.CAPTURE, value * bonus
        else:
            exposed = any(
                state.singles[o][face] - (1 if o == owner and height == 1 else 0) > 0
                for o in range(state.n)
                if o not in side
            )
            group, gain = (Group.EXPOSED if exposed else Group.SAFE), value
        left = state.single_total[seat] - (0 if from_hand else 1)
        covers_last = height == 1 and state.single_total[owner] == 1
        out.append(
            Advice(
                move,
                group,
                face,
                owner,
                height,
                gain=gain,
                loss=value if height >= 2 else 0,
                teammate=owner in side,
                ends_round=(left == 0 or covers_last) and not state.in_last_turns,
                suggested=move == pick,
            )
        )
    order = list(Group)
    out.sort(key=lambda a: (order.index(a.group), -a.gain - a.loss, a.face, a.owner or 0))
    return out
