"""Stack behind the game interface (:class:`engine.game.Game`): what every host needs to
seat, start, play, store, export and show a game of Stack, in one object."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from pydantic import BaseModel

from engine.game import AIPlayer, Game, Goal, SetupError, TurnEnded
from engine.stack import describe, notation, record, render
from engine.stack.ai import GreedyPlayer, make_ai
from engine.stack.moves import FACES, Move, move_from_json, move_to_json
from engine.stack.rules import (
    MAX_PLAYERS,
    MIN_PLAYERS,
    HouseRules,
    StackRules,
    TeamSizeError,
    seat_teams,
)
from engine.stack.state import StackState

RULES_TEXT = f"""Stack: every player rolls all their dice; on your turn do one thing:
- stack one of your unstacked dice on another player's pile (1-3 high) showing the same
  face, never directly on your own colour;
- reroll one of your unstacked dice: if a pile can take the new face it must go on one
  (you choose which), else it stays unstacked.
A pile that reaches 4 is captured by whoever placed the 4th die. Piles of 2-3 score their
face for the owner of the top die (a 1 is worth 10); captured piles score for their captor.
The round ends when someone goes out (no unstacked dice left) or covers an opponent's last
die (both are out): everyone else still holding dice gets one last turn. First to the
target wins; ties play another round (or share the win).
{notation.SYNTAX}"""


class StackGame(Game[StackState]):
    """The dice game Stack (``docs/stack-rules.md``)."""

    name = "stack"
    title = "Stack"
    min_players = MIN_PLAYERS
    max_players = MAX_PLAYERS
    settings = HouseRules
    ai_levels = ("random", "greedy", "expert")
    thinking_levels = ("expert",)  # the search takes about a second a move
    record_format = record.FORMAT
    forced_moves = False  # every turn is the player's choice

    def __init__(self) -> None:
        self._hinter = GreedyPlayer()

    def seat_order(self, names: Sequence[str], settings: BaseModel) -> tuple[str, ...]:
        """With team play, the lobby's pairs sit apart (:func:`seat_teams`)."""
        assert isinstance(settings, HouseRules)
        seated = list(names)
        if settings.teams:
            try:
                seated = list(seat_teams(seated))
            except TeamSizeError as err:
                raise SetupError(str(err)) from None
        return super().seat_order(seated, settings)

    def new_state(self, players: Sequence[str], settings: BaseModel) -> StackState:
        """A game among ``players`` (in :meth:`seat_order`), opening with the roll-off."""
        assert isinstance(settings, HouseRules)
        names = tuple(players)
        return StackState(names, settings.for_players(names))

    def state_from_dict(self, data: dict[str, Any]) -> StackState:
        return StackState.from_dict(data)

    def snapshot(self, state: StackState) -> dict[str, Any]:
        """Only the current round's dice and turns: the move log holds the rest."""
        return state.to_dict(full_history=False)

    def holds_whole_game(self, state: StackState) -> bool:
        return state.has_full_history

    def encode_move(self, move: Any) -> Any:
        return move_to_json(move)

    def decode_move(self, data: Any) -> Move:
        return move_from_json(data)

    def parse_move(self, state: StackState, text: str, seat: int | None = None) -> Any:
        return notation.parse_move(state, text, seat)

    def move_notation(self, state: StackState, move: Any) -> str:
        return notation.move_notation(state, move)

    def move_words(self, state: StackState, move: Any) -> str:
        words = describe.move_words(state, move)
        return words[0].upper() + words[1:]

    def turn_words(self, state: StackState, event: TurnEnded) -> str:
        words = describe.last_turn_words(state)
        if words is None:
            raise ValueError("No turn has been played yet.")
        return words

    def make_ai(self, level: str) -> AIPlayer[StackState]:
        return make_ai(level)

    def hint(self, state: StackState) -> tuple[Any, str]:
        best = self._hinter.best(state)
        return best.move, best.reason

    def export_record(self, state: StackState, meta: Any = None) -> dict[str, Any]:
        """Stack's record format has no place for ``meta``: it is left out."""
        return record.export_record(state)

    def check_record(self, record_data: dict[str, Any]) -> dict[str, Any]:
        return record.check(record_data)

    def replay_record(self, record_data: dict[str, Any]) -> StackState:
        return record.replay(record_data)

    def render_text(self, state: StackState, viewer: int | None = None) -> str:
        """Stack hides nothing: every viewer sees the whole field."""
        return render.render_field(state, last_move=describe.last_turn_words(state))

    def rules_text(self) -> str:
        return RULES_TEXT

    def sides(self, state: StackState) -> tuple[tuple[int, ...], ...]:
        """With team play, each team's seats; else every seat alone."""
        return tuple(dict.fromkeys(state.team_members(s) for s in range(state.n)))

    def stats_figures(self, state: StackState, seat: int) -> dict[str, int]:
        """Rounds played, the best round, piles captured and dice placed per face. The
        state must hold the whole game (:attr:`StackState.has_full_history`)."""
        placed = [0] * len(FACES)
        for rnd in state.history:
            for turn in rnd["turns"]:
                if turn[1] != seat:
                    continue
                if turn[0] == "stack":
                    placed[turn[2] - 1] += 1
                elif turn[4] is not None:  # ("reroll", seat, face, rolled, owner, height)
                    placed[turn[3] - 1] += 1
        return {
            "rounds": len(state.round_scores),
            "best_round": max((r[seat] for r in state.round_scores), default=0),
            "captures": state.capture_counts[seat],
            **{f"placed_{face}": placed[face - 1] for face in FACES},
        }

    def rules_of(self, state: StackState) -> StackRules:
        return state.rules

    def round_scores(self, state: StackState) -> Sequence[Sequence[int]]:
        return state.round_scores

    def goal(self, state: StackState) -> Goal:
        """First to the rules' target score wins; there is no turn limit."""
        return Goal(target_score=state.rules.target_score)


GAME = StackGame()
