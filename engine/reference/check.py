"""``python -m engine.reference.check``: the engines and the naive references agree.

Plays random games of each engine and feeds every chance outcome and every move to the
game's naive reference (:mod:`engine.reference`) in lockstep; at every decision both must
name the same seat and the same *set* of legal moves, and at the end the same winners
and scores. (The references list moves in their own order and draw their own chance
outcomes in self-play, so the same seed does not give the same game; in lockstep the
engine's outcomes are given to them.) Prints one line per game and exits non-zero on the
first disagreement.
"""

from __future__ import annotations

import argparse
import random
import sys
from collections.abc import Callable
from typing import Any

from engine import games
from engine.game import Decision
from engine.reference import colorstack as ref_colorstack
from engine.reference import stack as ref_stack
from engine.reference import stackup as ref_stackup

NAMES = ("north", "east", "south", "west", "nw", "ne", "se", "sw")


class Disagreement(AssertionError):
    """The engine and the reference differ."""


# ---------------------------------------------------------------- Stack


def _stack_pair(players: int, settings: dict[str, Any]) -> tuple[Any, Any]:
    from engine.stack.rules import StackRules
    from engine.stack.state import StackState

    names = NAMES[:players]
    teams = settings.get("teams")
    rules = StackRules(**settings)
    seats = None if teams is None else [(names.index(a), names.index(b)) for a, b in teams]
    plain = {k: v for k, v in settings.items() if k != "teams"}
    return StackState(names, rules), ref_stack.Game(players, teams=seats, **plain)


def _stack_move(move: Any) -> tuple[Any, ...]:
    from engine.stack import moves as m

    if isinstance(move, m.Stack):
        return ("stack", move.face, move.owner, move.height)
    if isinstance(move, m.Reroll):
        return ("reroll", move.face)
    if isinstance(move, m.Place):
        return ("place", move.owner, move.height)
    if isinstance(move, m.Roll):
        return ("roll", move.face)
    if isinstance(move, m.RoundDice):
        return ("dice", [list(d) for d in move.dice])
    assert isinstance(move, m.RollOff)
    return ("rolloff", list(move.rolls))


def _stack_result(state: Any) -> tuple[list[int], list[int]]:
    outcome = state.outcome()
    return list(outcome.winners), list(outcome.scores)


# ---------------------------------------------------------------- Stack Up!


def _stackup_pair(players: int, settings: dict[str, Any]) -> tuple[Any, Any]:
    from engine.stackup.rules import StackUpSettings
    from engine.stackup.state import StackUpState

    state = StackUpState(NAMES[:players], StackUpSettings(**settings))
    return state, ref_stackup.Game(players, **settings)


def _stackup_move(move: Any) -> tuple[Any, ...]:
    from engine.stackup import moves as m
    from engine.stackup.cards import COLOUR_LETTERS, card_name

    def letter(colour: int | None) -> str | None:
        return None if colour is None else COLOUR_LETTERS[colour]

    if isinstance(move, m.Play):
        cards = tuple(card_name(c) for c in move.cards)
        return ("play", cards, move.bonus, letter(move.colour), move.target, move.count)
    if isinstance(move, m.PlayDrawn):
        return ("play drawn", letter(move.colour), move.target, move.count)
    if isinstance(move, m.Direction):
        return ("up",) if move.up else ("down",)
    for kind, name in (
        (m.Block, "block"),
        (m.Take, "take"),
        (m.UsePass, "pass"),
        (m.Draw, "draw"),
        (m.Keep, "keep"),
    ):
        if isinstance(move, kind):
            return (name,)
    if isinstance(move, m.Deal):
        return ("deal", [card_name(c) for c in move.deck], move.first)
    if isinstance(move, m.Took):
        return ("took", [card_name(c) for c in move.cards])
    assert isinstance(move, m.Reshuffle)
    return ("reshuffle", [card_name(c) for c in move.cards])


def _stackup_result(state: Any) -> tuple[list[int], list[int]]:
    outcome = state.outcome()
    return list(outcome.winners), list(outcome.scores)


# ---------------------------------------------------------------- Color Stack


def _colorstack_pair(players: int, settings: dict[str, Any]) -> tuple[Any, Any]:
    from engine.colorstack.rules import ColorStackSettings
    from engine.colorstack.state import ColorStackState

    state = ColorStackState(NAMES[:players], ColorStackSettings(**settings))
    return state, ref_colorstack.Game(**settings)


def _colorstack_move(move: Any) -> tuple[Any, ...]:
    from engine.colorstack import moves as m
    from engine.colorstack.board import square_name

    if isinstance(move, m.Move):
        return ("move", square_name(move.frm), square_name(move.to))
    if isinstance(move, m.Colours):
        return ("colours", move.first, move.second)
    if isinstance(move, m.FirstPlayer):
        return ("first", move.seat)
    if isinstance(move, m.Set):
        return ("set", square_name(move.square), move.face)
    assert isinstance(move, m.Setup)
    return ("setup", move.first, list(move.colours), list(move.cards), list(move.dice))


def _colorstack_result(state: Any) -> tuple[list[int], list[int]]:
    outcome = state.outcome()
    return list(outcome.winners), [state.turns]


PAIRS: dict[str, tuple[Callable[..., Any], Callable[[Any], Any], Callable[[Any], Any]]] = {
    "stack": (_stack_pair, _stack_move, _stack_result),
    "stackup": (_stackup_pair, _stackup_move, _stackup_result),
    "colorstack": (_colorstack_pair, _colorstack_move, _colorstack_result),
}


def lockstep(game_name: str, players: int, settings: dict[str, Any], rng: random.Random) -> int:
    """Play one random game of the engine with its reference in lockstep; returns the
    number of decisions compared. Raises :class:`Disagreement`."""
    make, convert, result = PAIRS[game_name]
    state, ref = make(players, settings)
    decisions = 0
    while state.decision is not Decision.OVER:
        if ref.over:
            raise Disagreement("the reference ended the game, the engine did not")
        if state.decision is Decision.CHANCE:
            if ref.chance is None:
                raise Disagreement(f"the engine waits for chance, the reference for {ref.seat}")
            outcome = state.sample_chance(rng)
            ref.resolve(convert(outcome))
            state.apply(outcome)
            continue
        if ref.chance is not None:
            raise Disagreement(f"the reference waits for chance ({ref.chance})")
        if ref.seat != state.current_player:
            raise Disagreement(f"seat to act: engine {state.current_player}, ref {ref.seat}")
        legal = state.legal_moves()
        mine = sorted(map(repr, map(convert, legal)))
        theirs = sorted(map(repr, ref.moves()))
        if mine != theirs:
            only_engine = sorted(set(mine) - set(theirs))[:5]
            only_ref = sorted(set(theirs) - set(mine))[:5]
            raise Disagreement(
                f"legal moves differ after {decisions} decisions: engine only {only_engine},"
                f" reference only {only_ref}"
            )
        move = legal[int(rng.random() * len(legal))]
        ref.play(convert(move))
        state.apply(move)
        decisions += 1
    if not ref.over:
        raise Disagreement("the engine ended the game, the reference did not")
    mine_result, theirs_result = result(state), ref.result()
    if mine_result != (list(theirs_result[0]), list(theirs_result[1])):
        raise Disagreement(f"results differ: engine {mine_result}, reference {theirs_result}")
    return decisions


# (game, players, settings) played by default
CASES: tuple[tuple[str, int, dict[str, Any]], ...] = (
    ("stack", 4, {}),
    ("stack", 2, {"dice_per_player": 5, "target_score": 60}),
    (
        "stack",
        6,
        {
            "dice_per_player": 4,
            "target_score": 60,
            "four_high_bonus": True,
            "capture_penalty": True,
            "rolled_two_penalty": True,
            "tie_break": "shared",
        },
    ),
    ("stack", 4, {"target_score": 80, "teams": (("north", "south"), ("east", "west"))}),
    ("stackup", 2, {}),
    ("stackup", 4, {}),
    ("stackup", 6, {"turn_limit": 40}),
    ("colorstack", 2, {}),
    ("colorstack", 2, {"board": "heavy"}),
    ("colorstack", 2, {"turn_limit": 30}),
)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m engine.reference.check",
        description=__doc__.splitlines()[0] if __doc__ else None,
    )
    parser.add_argument("--games", type=int, default=20, help="games per case")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--game", choices=games.names(), help="only this game")
    args = parser.parse_args(argv)
    rng = random.Random(args.seed)
    for game_name, players, settings in CASES:
        if args.game and game_name != args.game:
            continue
        decisions = 0
        for _ in range(args.games):
            try:
                decisions += lockstep(game_name, players, settings, rng)
            except Disagreement as exc:
                print(f"{game_name} {players} {settings}: DISAGREE: {exc}")
                return 1
        print(
            f"{game_name} {players} players {settings}: {args.games} games agree"
            f" ({decisions} decisions compared)"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
