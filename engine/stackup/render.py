"""The Stack Up! table as text, as one seat may see it, and the rules in brief.

:func:`render_text` shows what everyone sees (the stack's colour, number and direction,
the last play, each hand's size, draw passes, the draw pile, a pending Crash, whose turn,
the turns left before the limit) and the viewer's own hand, sorted. It never shows
another player's cards: a spectator (``viewer=None``) sees no hand at all.
"""

from __future__ import annotations

from engine.game import Decision
from engine.stackup.cards import COLOUR_NAMES, card_name
from engine.stackup.describe import cards_words, count_words, last_turn_words
from engine.stackup.rules import HAND_SIZE, MAX_PLAYERS, MIN_PLAYERS, PENALTY_CARDS
from engine.stackup.state import DIRECTION, DRAWN, StackUpState

SQUARES = ("🟥", "🟦", "🟨", "🟩")


def stack_line(state: StackUpState) -> str:
    """``Stack: 🟥 Red 5, going up ↑ (top card: Freeze)``."""
    if not state.stack:
        return "Stack: not dealt yet"
    way = {"up": ", going up ↑", "down": ", going down ↓", None: " (direction not chosen)"}[
        state.direction
    ]
    text = f"Stack: {SQUARES[state.colour]} {COLOUR_NAMES[state.colour]} {state.number}{way}"
    top = state.top_card
    if top is not None and top >= 60:
        text += f" (top card: {card_name(top)})"
    return text


def status_line(state: StackUpState) -> str:
    """Whose turn it is and what they must decide, or how the game ended."""
    if state.decision is Decision.OVER:
        outcome = state.outcome()
        assert outcome is not None
        names = " & ".join(state.name(s) for s in outcome.winners)
        if outcome.ended_by == "empty_hand":
            return f"🏆 {names} played their last card and wins!"
        verb = "share the win" if len(outcome.winners) > 1 else "wins"
        return f"🏆 Turn limit reached: {names} {verb} with the fewest cards."
    seat = state.seat
    if seat is None:
        return "Dealing…"
    who = state.name(seat)
    if state.phase == DIRECTION:
        return f"▶ {who} chooses the direction: up (1 → 15) or down (15 → 1)."
    if state.decision is Decision.CHANCE:
        return f"▶ {who}'s turn: the table is shuffling or snatching…"
    if state.pending_crash == seat:
        return f"▶ {who}: a Crash penalty! Block with a Crash or take {PENALTY_CARDS} cards."
    if state.phase == DRAWN:
        return f"▶ {who} was stuck and drew a card: play it alone, or keep it."
    return f"▶ {who} to play."


def render_text(state: StackUpState, viewer: int | None = None) -> str:
    """The table in plain text as seat ``viewer`` may see it (``None``: a spectator)."""
    lines = [f"Stack Up! — {status_line(state)}", stack_line(state)]
    last = state.last_play
    if last is not None:
        lines.append(f"Last play: {state.name(last.seat)} — {cards_words(last.cards)}")
    recent = last_turn_words(state)
    if recent is not None:
        lines.append(f"Last turn: {recent}")
    if state.deck is not None:
        lines.append(f"Draw pile: {count_words(state.pile_size)}")
        left = state.turns_left
        lines.append(
            f"Turns: {state.turns_taken} taken, {left} left before the limit of {state.turn_limit}"
        )
    for seat in range(state.n):
        mark = "▶" if seat == state.seat and not state.is_over else " "
        parts = [f"{mark} {state.name(seat)}: {count_words(state.hand_size(seat))}"]
        if state.passes[seat]:
            passes = state.passes[seat]
            parts.append(f"{passes} draw pass" + ("es" if passes > 1 else ""))
        if state.pending_crash == seat:
            parts.append("⚠ Crash penalty")
        lines.append(" · ".join(parts))
    if viewer is not None and 0 <= viewer < state.n and state.deck is not None:
        lines.append(f"Your hand: {cards_words(state.hand(viewer)) or '(empty)'}")
        if state.phase == DRAWN and state.seat == viewer:
            drawn = state.drawn
            lines.append(
                "You drew nothing: the draw pile and stack had no card to give."
                if drawn is None
                else f"You drew {card_name(drawn)}."
            )
    return "\n".join(lines)


def rules_text() -> str:
    """The rules in brief, and how to type a move."""
    return f"""Stack Up! — {MIN_PLAYERS} to {MAX_PLAYERS} players, {HAND_SIZE} cards each; empty your hand to win.
Cards: R, B, Y, G 1–15 and four each of Flip, Freeze, Snatch, Switch, Crash.
The stack has a colour, a number and a direction (the first player picks up or down).
A number card is legal on the stack if it has the stack's colour (any number) or the next
number in the direction (any colour); numbers never wrap past 15 or 1.
A play is number cards of one colour, each one step further in the direction
(R6 R7 R8 going up), or one special card. If you can play, you must.
3+ cards that keep cards in your hand earn a bonus: a draw pass or skip the next player.
Flip reverses the direction; Switch names a new colour; Freeze skips the next player
(with 2 players you play again); Snatch takes 1–3 random cards from a player holding
2+ cards (only 1 from 2–3 cards); Crash makes the next player block with a Crash (with 3+
players the penalty passes on) or take {PENALTY_CARDS} cards. Flip, Freeze and Snatch may not be your last card.
Stuck? A draw pass is used, or you draw one card and may play it alone.
The game also ends at the turn limit: the fewest cards win.

How to type a move:
  r7 · r6 r7 r8 skip · r6 r7 r8 pass   cards by name, a 3+ play with its bonus
  flip · freeze · crash                 special cards
  switch blue · snatch bob 2            a Switch's colour; a Snatch's player and count
  block · take                          under a Crash penalty
  play · keep · play switch red         a card you drew when stuck
  up · down                             the first player's direction"""
