"""Words for Stack Up! moves and finished turns, shared by the parser, renderers and AI.

:func:`move_words` is a label for the player about to move (a button or a menu entry);
:func:`turn_words` tells everyone at the table what a finished turn did. The second never
names a card that stays hidden: cards played are public, cards drawn or snatched are not
(a Snatch says how many cards it took, a draw says "drew a card").
"""

from __future__ import annotations

from engine.game import TurnEnded
from engine.stackup import moves
from engine.stackup.cards import (
    COLOUR_NAMES,
    CRASH,
    FLIP,
    FREEZE,
    SNATCH,
    SWITCH,
    Card,
    card_name,
    card_names,
)
from engine.stackup.rules import PENALTY_CARDS
from engine.stackup.state import LoggedTurn, StackUpState


def cards_words(cards: tuple[Card, ...] | list[Card]) -> str:
    """``R6 R7 R8``."""
    return " ".join(card_names(cards))


def count_words(count: int, thing: str = "card") -> str:
    """``1 card``, ``3 cards``, ``no card``."""
    if count == 0:
        return f"no {thing}"
    return f"{count} {thing}" + ("" if count == 1 else "s")


def _next(state: StackUpState, seat: int) -> int:
    return (seat + 1) % state.n


def _skip_words(state: StackUpState, seat: int) -> str:
    """What a skip of the next player means: ``skip ben`` or, with 2 players, another turn."""
    if state.n == 2:
        return "play again"
    return f"skip {state.name(_next(state, seat))}"


def _special_words(
    state: StackUpState, seat: int, card: Card, colour: int | None, target: int | None,
    count: int | None,
) -> str:  # fmt: skip
    if card == FLIP:
        way = "down" if state.up else "up"
        return f"Flip (the stack goes {way})"
    if card == FREEZE:
        return f"Freeze ({_skip_words(state, seat)})"
    if card == SWITCH:
        return f"Switch to {COLOUR_NAMES[colour] if colour is not None else '…'}"
    if card == SNATCH:
        who = state.name(target) if target is not None else "…"
        return f"Snatch {count_words(count or 0)} from {who}"
    if card == CRASH:
        return f"Crash ({state.name(_next(state, seat))} must block or take {PENALTY_CARDS})"
    return card_name(card)


def move_words(state: StackUpState, move: moves.PlayerMove) -> str:
    """``move`` in the mover's words, for a button or a menu entry."""
    seat = state.seat if state.seat is not None else 0
    if isinstance(move, moves.Play):
        cards = move.cards
        if cards and cards[0] >= FLIP:
            return _special_words(state, seat, cards[0], move.colour, move.target, move.count)
        text = cards_words(cards)
        if len(cards) == state.hand_size(seat):
            return f"{text} (your last cards: you win)"
        if move.bonus == "pass":
            return f"{text} + a draw pass"
        if move.bonus == "skip":
            return f"{text} + {_skip_words(state, seat)}"
        return text
    if isinstance(move, moves.PlayDrawn):
        card = state.drawn
        if card is None:
            return "Play the drawn card"
        if card >= FLIP:
            label = _special_words(state, seat, card, move.colour, move.target, move.count)
            return f"Play the drawn {label}"
        return f"Play the drawn {card_name(card)}"
    if isinstance(move, moves.Direction):
        return "Up (1 → 15)" if move.up else "Down (15 → 1)"
    if isinstance(move, moves.Block):
        if state.n == 2:
            return "Block with a Crash (cancels the penalty)"
        return f"Block with a Crash (passes it to {state.name(_next(state, seat))})"
    if isinstance(move, moves.Take):
        return f"Take {PENALTY_CARDS} cards"
    if isinstance(move, moves.UsePass):
        return "Use a draw pass"
    if isinstance(move, moves.Draw):
        return "Draw a card"
    assert isinstance(move, moves.Keep)
    return "End the turn" if state.drawn is None else "Keep the card"


def logged_turn_words(state: StackUpState, turn: LoggedTurn, index: int | None = None) -> str:
    """A finished turn (``state.log[index]``, by default the latest) in words every
    player may see. It depends only on what is public: never on ``drew`` or ``took``
    beyond how many cards they hold."""
    who = state.name(turn.seat)
    nxt = state.name(_next(state, turn.seat))
    rebuilt = " (the draw pile was rebuilt)" if turn.reshuffle is not None else ""
    final = _ended_the_game(state, index)
    if turn.kind == "block":
        if final:
            return f"{who} blocked the Crash with a Crash."
        if state.n == 2:
            return f"{who} blocked the Crash with a Crash: the penalty is cancelled."
        return f"{who} blocked the Crash with a Crash: the penalty passes to {nxt}."
    if turn.kind == "take":
        return f"{who} took the Crash penalty and drew {count_words(len(turn.drew))}{rebuilt}."
    if turn.kind == "pass":
        return f"{who} was stuck and used a draw pass."
    if turn.kind == "draw":
        if not turn.drew:
            return f"{who} was stuck, but no card could be drawn."
        if not turn.cards:
            return f"{who} was stuck and drew a card{rebuilt}."
        return f"{who} was stuck, drew a card{rebuilt} and played it: " + _effect(
            state, turn, index, who, nxt, final=final
        )
    return f"{who} played " + _effect(state, turn, index, who, nxt, final=final)


def _ended_the_game(state: StackUpState, index: int | None) -> bool:
    """Whether the turn ``state.log[index]`` (``None``: the latest) was the game's last.

    The game ends at once, on an empty hand or at the turn limit, and nothing pending is
    resolved: such a turn's words announce no skip, penalty or bonus to come."""
    last = len(state.log) - 1
    return state.is_over and (index is None or index == last)


def _effect(
    state: StackUpState,
    turn: LoggedTurn,
    index: int | None,
    who: str,
    nxt: str,
    *,
    final: bool = False,
) -> str:
    """The cards of a play and what they did (on the game's last turn, only to the stack)."""
    cards = turn.cards
    card = cards[0]
    skipped = f"{who} plays again" if state.n == 2 else f"{nxt} is skipped"
    if card < FLIP:
        text = cards_words(cards)
        if final:
            return f"{text}."
        if turn.bonus == "pass":
            return f"{text} and gains a draw pass."
        if turn.bonus == "skip":
            return f"{text}: {skipped}" + (" (stacking bonus)." if state.n > 2 else ".")
        return f"{text}."
    if card == FLIP:
        return "Flip: the stack now goes " + ("up." if _up_after(state, index) else "down.")
    if card == FREEZE:
        return "Freeze." if final else f"Freeze: {skipped}."
    if card == SWITCH:
        assert turn.colour is not None
        return f"Switch: the colour is now {COLOUR_NAMES[turn.colour]}."
    if card == SNATCH:
        assert turn.target is not None
        return f"Snatch and took {count_words(len(turn.took))} from {state.name(turn.target)}."
    if final:
        return "Crash."
    return f"Crash: {nxt} must block it or take {PENALTY_CARDS} cards."


def _up_after(state: StackUpState, index: int | None) -> bool:
    """The direction right after the turn ``state.log[index]``: undo the Flips since."""
    up = bool(state.up)
    start = len(state.log) if index is None else index + 1
    for later in state.log[start:]:
        if later.cards == (FLIP,):
            up = not up
    return up


def turn_words(state: StackUpState, event: TurnEnded) -> str:
    """The turn ``event`` reports (the latest turn of its seat), in words for everyone."""
    for index in range(len(state.log) - 1, -1, -1):
        turn = state.log[index]
        if turn.seat == event.seat:
            text = logged_turn_words(state, turn, index)
            if state.is_over and turn is state.log[-1] and state.hand_size(turn.seat) == 0:
                text += f" {state.name(turn.seat)} has no cards left and wins!"
            return text
    return f"{state.name(event.seat)} has not taken a turn yet."


def direction_words(state: StackUpState) -> str | None:
    """The first player's choice of direction in words for everyone (``ann chose to go up
    (1 → 15).``), or ``None`` before it is made. It is not a turn, so no turn's words say it."""
    if state.first is None or state.first_up is None:
        return None
    way = "up (1 → 15)" if state.first_up else "down (15 → 1)"
    return f"{state.name(state.first)} chose to go {way}."


def last_turn_words(state: StackUpState) -> str | None:
    """The most recent finished turn in words, or ``None`` before the first."""
    if not state.log:
        return None
    return logged_turn_words(state, state.log[-1])
