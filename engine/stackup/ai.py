"""AI players for Stack Up!: AI seats, moves for absent players, and hints.

* ``random`` chooses uniformly among the complete decisions of its turn
  (:meth:`~engine.stackup.state.StackUpState.legal_moves`).
* ``greedy`` rates every legal move with a heuristic it can explain and plays the best:
  shed as many cards as it can, keep its special cards for when it is stuck (they are a
  play on any stack, and a Crash blocks), take the extra turn a skip gives, hit the next
  player with a Crash, skip or Snatch from a player about to go out, block rather than
  take, and choose the direction that gives it the longest play.

Both decide from what their seat may see: their own hand and the table's public facts
(hand sizes, the stack, passes). No reason they give names a card of another hand.
"""

from __future__ import annotations

from engine.game import AIPlayer
from engine.rating import NoMoveError as NoMoveError  # the games' error, named here too
from engine.rating import RatedMove, RatingPlayer, make_player
from engine.stackup.cards import (
    COLOUR_NAMES,
    COLOUR_OF,
    CRASH,
    FLIP,
    FREEZE,
    HIGHEST,
    LOWEST,
    NUMBER_OF,
    SNATCH,
    SWITCH,
    Card,
)
from engine.stackup.moves import (
    Block,
    Direction,
    Draw,
    Keep,
    Play,
    PlayDrawn,
    PlayerMove,
    Take,
    UsePass,
)
from engine.stackup.notation import move_notation
from engine.stackup.rules import PENALTY_CARDS
from engine.stackup.state import StackUpState, cards_count

CARD = 10.0  # one card out of hand
WIN = 1000.0
# What keeping a special card is worth: it is a play on any stack (never stuck), and a
# Crash can block a penalty.
RESERVE = {FLIP: 8.0, FREEZE: 8.0, SNATCH: 2.0, SWITCH: 12.0, CRASH: 14.0}
EXTRA_TURN = 9.0  # a skip or Freeze with 2 players: another turn at once
SKIP_OTHERS = 3.0  # a skip with 3+ players, before threat
DRAW_PASS = 4.0
LIKELY_TAKE = 0.7  # chance that a Crash's victim holds no Crash and must take
THREAT_HAND = 3  # an opponent with this few cards is about to go out


class RandomPlayer:
    """Uniform over the complete legal decisions (:meth:`StackUpState.random_move`)."""

    level = "random"

    # the state's own method, called straight (the table loop's hottest call)
    choose = staticmethod(StackUpState.random_move)


def _threat(state: StackUpState, seat: int) -> float:
    """How urgently ``seat`` should be slowed down: 1 for a hand of ``THREAT_HAND``, more
    for fewer cards, 0 for a big hand."""
    size = state.hand_size(seat)
    return max(0.0, (THREAT_HAND + 1 - size) / THREAT_HAND) * 1.5


def best_run(hand: list[Card], colour: int, number: int, up: bool) -> int:
    """The most number cards of ``hand`` one play could hold on this stack state."""
    step = 1 if up else -1
    wanted = number + step
    held = set(hand)
    best = 0
    for c in held:
        if c >= FLIP or (COLOUR_OF[c] != colour and NUMBER_OF[c] != wanted):
            continue
        length, card, num = 1, c, NUMBER_OF[c]
        while LOWEST <= num + step <= HIGHEST and card + step in held:
            card += step
            num += step
            length += 1
        best = max(best, length)
    return best


class GreedyPlayer(RatingPlayer[StackUpState, PlayerMove]):
    """Plays the move with the best immediate value; ties are broken at random."""

    level = "greedy"

    def hint(self, state: StackUpState) -> tuple[PlayerMove, str]:
        """The move it would play for the seat to act, and why, in a sentence."""
        best = self.best(state)
        return best.move, best.reason

    def rate(self, state: StackUpState) -> list[RatedMove[PlayerMove]]:
        """Every legal move with its value and a reason in the mover's words."""
        p = state.current_player
        if p is None:
            return []
        out = []
        for move in state.legal_moves():
            value, why = _Rater(state, p).rate(move)
            out.append(RatedMove(move, value, f"{move_notation(state, move)}: {why}."))
        return out


class _Rater:
    """The heuristic for one decision of seat ``p``."""

    def __init__(self, state: StackUpState, p: int) -> None:
        self.state = state
        self.p = p
        self.hand = list(state.hands[p])
        self.next = (p + 1) % state.n

    def rate(self, move: PlayerMove) -> tuple[float, str]:
        state = self.state
        if isinstance(move, Play):
            return self._play(move.cards, move.bonus, move.colour, move.target, move.count)
        if isinstance(move, PlayDrawn):
            card = state.drawn
            assert card is not None
            value, why = self._play((card,), None, move.colour, move.target, move.count)
            return value, f"plays the card you drew: {why}"
        if isinstance(move, Keep):
            card = state.drawn
            if card is None:
                return 0.0, "no card could be drawn"
            return RESERVE.get(card, 0.0), "keeps the card you drew"
        if isinstance(move, Block):
            return (
                CARD + PENALTY_CARDS * CARD,
                f"blocks the Crash instead of drawing {PENALTY_CARDS}",
            )
        if isinstance(move, Take):
            return 0.0, f"draws the {PENALTY_CARDS} penalty cards"
        if isinstance(move, UsePass):
            return 0.0, "you are stuck: a draw pass saves you a card"
        if isinstance(move, Draw):
            return 0.0, "you are stuck and must draw"
        assert isinstance(move, Direction)
        runs = [
            best_run(self.hand, state.colour, state.number, up) for up in (move.up, not move.up)
        ]
        way = "up" if move.up else "down"
        if not runs[0]:
            return float(runs[0] - runs[1]), f"going {way} gives you no play"
        return float(runs[0] - runs[1]), f"going {way} gives you a play of {cards_count(runs[0])}"

    def _play(
        self,
        cards: tuple[Card, ...],
        bonus: str | None,
        colour: int | None,
        target: int | None,
        count: int | None,
    ) -> tuple[float, str]:
        state = self.state
        left = list(self.hand)
        for c in cards:
            if c in left:
                left.remove(c)
        if not left:
            return WIN, "empties your hand: you win"
        first = cards[0]
        value = CARD * len(cards)
        reasons: list[str] = []
        if first < FLIP:
            reasons.append(f"plays {len(cards)} card{'s' if len(cards) > 1 else ''}")
        else:
            value -= RESERVE[first]
            value += self._special(first, colour, target, count, reasons)
        if bonus == "skip":
            if state.n == 2:
                value += EXTRA_TURN
                reasons.append("and takes another turn at once")
            else:
                value += SKIP_OTHERS * (1 + _threat(state, self.next))
                reasons.append(f"and skips {state.name(self.next)}")
        elif bonus == "pass":
            specials = sum(1 for c in left if c >= FLIP)
            value += DRAW_PASS / (1 + specials)
            reasons.append("and gains a draw pass")
        if first < FLIP and any(c >= FLIP for c in left):
            reasons.append("and keeps your special cards for when you are stuck")
        return value, " ".join(reasons)

    def _special(
        self, card: Card, colour: int | None, target: int | None, count: int | None,
        reasons: list[str],
    ) -> float:  # fmt: skip
        state, nxt = self.state, self.next
        if card == FREEZE:
            if state.n == 2:
                reasons.append("Freeze gives you another turn at once")
                return EXTRA_TURN
            reasons.append(f"Freeze skips {state.name(nxt)}")
            return SKIP_OTHERS * (1 + _threat(state, nxt))
        if card == CRASH:
            reasons.append(f"Crash makes {state.name(nxt)} block or draw {PENALTY_CARDS}")
            return LIKELY_TAKE * PENALTY_CARDS * CARD * (0.5 + _threat(state, nxt))
        if card == SNATCH:
            assert target is not None and count is not None
            hurt = 0.4 + _threat(state, target)
            reasons.append(
                f"Snatch takes {count} card{'s' if count > 1 else ''} from "
                f"{state.name(target)} ({state.hand_size(target)} in hand) into yours"
            )
            return CARD * count * (hurt - 1.0)
        if card == SWITCH:
            assert colour is not None
            same = sum(1 for c in self.hand if c < FLIP and COLOUR_OF[c] == colour)
            held = cards_count(same) if same else "no card"
            reasons.append(f"Switch to {COLOUR_NAMES[colour]}, a colour you hold {held} of")
            return 0.5 * same
        reasons.append("Flip reverses the direction")
        return 0.0


AI_LEVELS: dict[str, type[RandomPlayer] | type[GreedyPlayer]] = {
    "random": RandomPlayer,
    "greedy": GreedyPlayer,
}


def make_ai(level: str) -> AIPlayer[StackUpState]:
    """The AI player called ``level``: ``random``, ``greedy`` or ``expert`` (a search,
    :mod:`engine.stackup.ismcts`, loaded on first use)."""
    player: AIPlayer[StackUpState] = make_player(level, AI_LEVELS, "engine.stackup.ismcts")
    return player
