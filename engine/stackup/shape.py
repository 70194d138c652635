"""The structure of a Stack Up! hand, as the expert's evaluation reads it.

A number play sheds a run: cards of one colour with consecutive numbers (played up or
down). So a hand's number cards need at least as many plays as they make maximal runs
(:func:`hand_shape`: its minimum partition into runs), however the stack turns; the rest
of the shape (the colours held, the most cards of one colour, the longest run) says how
often a stack will let it play, and how much at once.
"""

from __future__ import annotations

from engine.stackup.cards import FLIP, Card


def hand_shape(hand: list[Card]) -> tuple[int, int, int, int]:
    """A sorted hand's number cards as ``(runs, colours, most of a colour, longest run)``:
    the fewest runs of one colour and consecutive numbers they split into (the fewest
    number plays that shed them), the colours they hold, the most cards any one colour
    holds, and the longest run. Special cards (sorted last) are not counted."""
    runs = colours = most = longest = 0
    colour = -1
    in_colour = run = 0
    prev = -2
    for c in hand:
        if c >= FLIP:
            break
        col = c // 15
        if col != colour:
            colour = col
            colours += 1
            in_colour = 0
        in_colour += 1
        if in_colour > most:
            most = in_colour
        if c == prev + 1 and c % 15:
            run += 1
        else:
            run = 1
            runs += 1
        if run > longest:
            longest = run
        prev = c
    return runs, colours, most, longest
