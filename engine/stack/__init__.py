"""Stack, the dice game: rules, moves, state, notation, records, rendering and AI players."""

from engine.stack.moves import Move, Place, Reroll, Roll, RollOff, RoundDice, Stack
from engine.stack.rules import HouseRules, StackRules
from engine.stack.state import StackState

__all__ = [
    "HouseRules",
    "Move",
    "Place",
    "Reroll",
    "Roll",
    "RollOff",
    "RoundDice",
    "Stack",
    "StackRules",
    "StackState",
]
