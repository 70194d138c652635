"""Color Stack as every host sees it: the :class:`~engine.game.Game` the registry loads."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from pydantic import BaseModel

from engine.colorstack import ai, describe, notation, record, render
from engine.colorstack.moves import (
    AnyMove,
    Colours,
    Move,
    PlayerChoice,
    Resign,
    Set,
    move_from_json,
    move_to_json,
)
from engine.colorstack.rules import PLAYERS, ColorStackHouseRules, ColorStackSettings
from engine.colorstack.state import FOUR_COLOURS, ColorStackState
from engine.game import Game, Goal, Outcome, TurnEnded


def _settings(settings: BaseModel) -> ColorStackSettings:
    """The rules a game is played and recorded by (house rules are validated already)."""
    if type(settings) is ColorStackSettings:
        return settings
    return ColorStackSettings.model_validate(settings.model_dump())


class ColorStackGame(Game[ColorStackState]):
    """The board game Color Stack (``docs/colorstack-rules.md``)."""

    name = "colorstack"
    title = "Color Stack"
    min_players = PLAYERS
    max_players = PLAYERS
    settings = ColorStackHouseRules  # a record's rules are ColorStackSettings (no upper bound)
    ai_levels = ("random", "greedy", "expert")
    thinking_levels = ("expert",)  # the search takes about a second a move
    off_turn_moves = True  # either player may resign at any time
    forced_moves = False  # a skip is no decision: the state applies it
    record_format = record.FORMAT

    def new_state(self, players: Sequence[str], settings: BaseModel) -> ColorStackState:
        """A table waiting for its set-up (a chance outcome: ``sample_chance`` draws it)."""
        return ColorStackState(self.seat_order(players, settings), _settings(settings))

    def state_from_dict(self, data: dict[str, Any]) -> ColorStackState:
        return ColorStackState.from_dict(data)

    def round_scores(self, state: ColorStackState) -> Sequence[Sequence[int]]:
        """Color Stack is not played in rounds."""
        return ()

    def goal(self, state: ColorStackState) -> Goal:
        """The game is drawn at its turn limit (a house rule)."""
        return Goal(turn_limit=state.turn_limit)

    def encode_move(self, move: Any) -> Any:
        return move_to_json(move)

    def decode_move(self, data: Any) -> AnyMove:
        return move_from_json(data)

    def parse_move(
        self, state: ColorStackState, text: str, seat: int | None = None
    ) -> PlayerChoice:
        return notation.parse_move(state, text, seat)

    def move_notation(self, state: ColorStackState, move: Any) -> str:
        return notation.move_notation(state, move)

    def move_words(self, state: ColorStackState, move: Any) -> str:
        return describe.move_words(state, move)

    def turn_words(self, state: ColorStackState, event: TurnEnded) -> str:
        return describe.turn_words(state, event)

    def make_ai(self, level: str) -> Any:
        return ai.make_ai(level)

    def mover(self, state: ColorStackState, move: AnyMove) -> int | None:
        """A resignation is its seat's, whoever is to move."""
        if isinstance(move, Resign):
            return move.seat
        return super().mover(state, move)

    def before_turns(self, move: Any) -> bool:
        """The first player's choice of colours (set-up step 1) is no turn."""
        return isinstance(move, Colours)

    def hint(self, state: ColorStackState) -> tuple[PlayerChoice, str]:
        return ai.GreedyPlayer().hint(state)

    def export_record(self, state: ColorStackState, meta: Any = None) -> dict[str, Any]:
        return record.export_record(state, meta)

    def check_record(self, data: dict[str, Any]) -> dict[str, Any]:
        return record.check(data)

    def replay_record(self, data: dict[str, Any]) -> ColorStackState:
        return record.replay(data)

    def render_text(self, state: ColorStackState, viewer: int | None = None) -> str:
        return render.render_text(state, viewer)

    def rules_text(self) -> str:
        return render.rules_text()

    def outcome(self, state: ColorStackState) -> Outcome | None:
        return state.outcome()

    def stats_figures(self, state: ColorStackState, seat: int) -> dict[str, int]:
        """A seat's figures of a game: moves, sets, stacks made (moves onto a stack), and
        wins by four colours (1 or 0)."""
        moves = sets = stacks = 0
        cells: dict[int, int] = {}  # square -> dice on it, replayed from the set-up
        setup = state.setup
        if setup is not None:
            from engine.colorstack.board import all_start_squares

            cells = dict.fromkeys(all_start_squares(state.rows), 1)
        for who, mv in state.log:
            if isinstance(mv, Move):
                moved = cells.pop(mv.frm, 1)
                below = cells.get(mv.to, 0)
                cells[mv.to] = below + moved
                if who == seat:
                    moves += 1
                    stacks += below > 0
            elif isinstance(mv, Set) and who == seat:
                sets += 1
        won = state.ended_by == FOUR_COLOURS and state.winner == seat
        return {"moves": moves, "sets": sets, "stacks_made": stacks, "four_colour_wins": int(won)}


GAME = ColorStackGame()
