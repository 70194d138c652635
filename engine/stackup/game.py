"""Stack Up! as every host sees it: the :class:`~engine.game.Game` the registry loads."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from pydantic import BaseModel

from engine.game import AIPlayer, Game, Goal, Outcome, TurnEnded
from engine.stackup import ai, describe, notation, record, render
from engine.stackup.cards import CRASH, FLIP
from engine.stackup.moves import Direction, Move, PlayerMove, move_from_json, move_to_json
from engine.stackup.rules import MAX_PLAYERS, MIN_PLAYERS, StackUpHouseRules, StackUpSettings
from engine.stackup.state import StackUpState


def _settings(settings: BaseModel) -> StackUpSettings:
    """The rules a game is played and recorded by (house rules are validated already)."""
    if type(settings) is StackUpSettings:
        return settings
    return StackUpSettings.model_validate(settings.model_dump())


class StackUpGame(Game[StackUpState]):
    """The card game Stack Up! (``docs/stackup-rules.md``)."""

    name = "stackup"
    title = "Stack Up!"
    min_players = MIN_PLAYERS
    max_players = MAX_PLAYERS
    settings = StackUpHouseRules  # a record's rules are StackUpSettings (no upper bound)
    ai_levels = ("random", "greedy", "expert")
    thinking_levels = ("expert",)  # the search takes about a second a move
    record_format = record.FORMAT
    higher_wins = False  # the outcome's scores are the cards left in hand
    forced_moves = True  # a stuck turn, a take with no Crash in hand

    def new_state(self, players: Sequence[str], settings: BaseModel) -> StackUpState:
        """A table waiting for its deal (a chance outcome: ``sample_chance`` draws it)."""
        return StackUpState(self.seat_order(players, settings), _settings(settings))

    def state_from_dict(self, data: dict[str, Any]) -> StackUpState:
        return StackUpState.from_dict(data)

    # The state's forced move (:meth:`StackUpState.automatic`), if any: the state's own
    # method, called straight (the table loop asks it before every decision).
    # (mypy reads the static method as a method of one argument short: it is not)
    automatic = staticmethod(StackUpState.automatic)  # type: ignore[assignment]

    def round_scores(self, state: StackUpState) -> Sequence[Sequence[int]]:
        """Stack Up! is one hand, not played in rounds."""
        return ()

    def goal(self, state: StackUpState) -> Goal:
        """The game ends at its turn limit (a house rule) if no hand empties first."""
        return Goal(turn_limit=state.turn_limit)

    def encode_move(self, move: Any) -> Any:
        return move_to_json(move)

    def decode_move(self, data: Any) -> Move:
        return move_from_json(data)

    def parse_move(self, state: StackUpState, text: str, seat: int | None = None) -> PlayerMove:
        return notation.parse_move(state, text, seat)

    def move_notation(self, state: StackUpState, move: Any) -> str:
        return notation.move_notation(state, move)

    def move_words(self, state: StackUpState, move: Any) -> str:
        return describe.move_words(state, move)

    def turn_words(self, state: StackUpState, event: TurnEnded) -> str:
        return describe.turn_words(state, event)

    def make_ai(self, level: str) -> AIPlayer[StackUpState]:
        return ai.make_ai(level)

    def before_turns(self, move: Any) -> bool:
        """The first player's choice of direction is no turn (set-up step 5)."""
        return isinstance(move, Direction)

    def hint(self, state: StackUpState) -> tuple[PlayerMove, str]:
        return ai.GreedyPlayer().hint(state)

    def export_record(self, state: StackUpState, meta: Any = None) -> dict[str, Any]:
        return record.export_record(state, meta)

    def check_record(self, data: dict[str, Any]) -> dict[str, Any]:
        return record.check(data)

    def replay_record(self, data: dict[str, Any]) -> StackUpState:
        return record.replay(data)

    def render_text(self, state: StackUpState, viewer: int | None = None) -> str:
        return render.render_text(state, viewer)

    def rules_text(self) -> str:
        return render.rules_text()

    def outcome(self, state: StackUpState) -> Outcome | None:
        return state.outcome()

    def stats_figures(self, state: StackUpState, seat: int) -> dict[str, int]:
        """A seat's figures of a finished game: cards played (number and special, drawn
        cards played included), special cards played, Crashes played (blocks included),
        cards drawn, and cards left in hand."""
        played = specials = crashes = drawn = 0
        for turn in state.log:
            if turn.seat != seat:
                continue
            played += len(turn.cards)
            specials += sum(1 for c in turn.cards if c >= FLIP)
            crashes += sum(1 for c in turn.cards if c == CRASH)
            drawn += len(turn.drew)
        return {
            "cards_played": played,
            "specials_played": specials,
            "crashes": crashes,
            "cards_drawn": drawn,
            "cards_left": state.hand_size(seat),
        }


GAME = StackUpGame()
