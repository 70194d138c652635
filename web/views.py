"""What a page may show of a table: its public state as JSON, and a seat's own secrets.

The board of each game is the picture's own view of the state (:mod:`pictures`: the
dataclasses the table message draws, which hold only what every player may see — Stack
Up!'s hand *sizes*, never a hand), so the page shows what the picture shows. A seated
player's own hidden cards are :func:`private_view`, sent to that player only.

A finished game's replay (:func:`replay`) is its move log played again from the start,
a frame a decision; Stack Up!'s hands are in it, as ``/export`` shows them once the game
is over.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import asdict
from datetime import datetime
from typing import Any

from engine.game import Decision, Game, GameState
from engine.stackup.cards import card_names
from host.live import LiveTable
from persistence.records import TableInfo
from pictures.colorstack import BoardPicture
from pictures.stack import FieldPicture
from pictures.stackup import TablePicture

# the picture's public view of each game's state (a frozen dataclass of plain values)
PICTURES: dict[str, Callable[[Any], Any]] = {
    "stack": FieldPicture.of,
    "stackup": TablePicture.of,
    "colorstack": BoardPicture.of,
}
# fields of the pictures that are the picture's own (how it is drawn), not the table's
DRAWING_ONLY = ("theme", "turn_seconds", "selected", "destinations")
# games whose seats hold cards nobody else may see while the game runs
HIDDEN_HANDS = frozenset({"stackup"})
MAX_CHOICES = 400  # moves listed to a player at once (a Color Stack turn has about 100)


def board(game: str, state: GameState[Any]) -> dict[str, Any]:
    """The public board of ``state`` (a game of :data:`PICTURES`)."""
    view = asdict(PICTURES[game](state))
    for key in DRAWING_ONLY:
        view.pop(key, None)
    return view


def _ms(moment: datetime | None) -> float | None:
    return None if moment is None else moment.timestamp() * 1000


def scores(game: Game[Any], state: GameState[Any]) -> dict[str, Any]:
    """The score sheet: each round's points per seat, and the totals."""
    rounds = [list(r) for r in game.round_scores(state)]
    totals = [sum(r[seat] for r in rounds) for seat in range(len(state.players))]
    outcome = game.outcome(state)
    return {
        "rounds": rounds,
        "totals": totals if rounds else [],
        "winners": list(outcome.winners) if outcome is not None else [],
    }


def table_view(live: LiveTable[Any]) -> dict[str, Any]:
    """Everything a spectator of ``live`` may see (read it under the table's lock, or in
    the host's turn-changed call, which holds it)."""
    info = live.info
    state = live.state
    hosted = live.game
    view: dict[str, Any] = {
        "type": "table",
        "table": info.id,
        "game": info.game,
        "title": hosted.title,
        "version": live.version,
        "status": info.status,
        "players": [{"name": s.name, "ai": s.ai_level} for s in info.seats],
        "turn_started": _ms(live.turn_started),
        "turns": list(live.turns),
        "board": None,
        "current": None,
        "over": False,
        "scores": None,
    }
    if state is not None:
        view["board"] = board(info.game, state)
        view["current"] = None if state.is_over else state.current_player
        view["over"] = state.is_over
        view["scores"] = scores(hosted.game, state)
    return view


def hand(game: str, state: GameState[Any] | None, seat: int) -> list[str] | None:
    """The cards of ``seat``'s hand (a game of :data:`HIDDEN_HANDS` once dealt), else ``None``."""
    if game in HIDDEN_HANDS and state is not None and getattr(state, "deck", None) is not None:
        return card_names(state.hand(seat))  # type: ignore[attr-defined]
    return None


def private_view(live: LiveTable[Any], seat: int) -> dict[str, Any]:
    """What only the player of ``seat`` may see: their hand (Stack Up!), and on their turn
    the moves they may make, each with its words and its code (what a move frame sends
    back; the host checks it again when it comes)."""
    you: dict[str, Any] = {"seat": seat}
    state = live.state
    cards = hand(live.info.game, state, seat)
    if cards is not None:
        you["hand"] = cards
    if state is not None and not state.is_over and state.current_player == seat:
        hosted = live.game
        you["choices"] = [
            {"label": hosted.move_label(state, move), "move": hosted.game.encode_move(move)}
            for move in state.legal_moves()[:MAX_CHOICES]
        ]
    return you


def replay(
    info: TableInfo, game: Game[Any], start: GameState[Any], moves: Sequence[Any]
) -> dict[str, Any]:
    """The frames of a finished game: its board at the start and after each decision
    (chance outcomes are played into the frame of the move that led to them), with the
    words of the move that led to each. Stack Up!'s hands are in every frame: the game
    is over, and its record (``/export``) shows them all."""
    state = start
    frames: list[dict[str, Any]] = []
    words = "The game begins."
    for move in moves:
        if state.decision is not Decision.CHANCE:
            frames.append(_frame(info.game, game, state, words))
            words = game.move_words(state, move)
        state.apply(move)
    frames.append(_frame(info.game, game, state, words))
    return {
        "type": "replay",
        "game_id": info.id,
        "game": info.game,
        "title": game.title,
        "players": [{"name": s.name, "ai": s.ai_level} for s in info.seats],
        "finished_at": _ms(info.finished_at),
        "status": info.status,
        "frames": frames,
    }


def _frame(name: str, game: Game[Any], state: GameState[Any], words: str) -> dict[str, Any]:
    frame: dict[str, Any] = {
        "words": words,
        "board": board(name, state),
        "current": None if state.is_over else state.current_player,
        "scores": scores(game, state),
    }
    if name in HIDDEN_HANDS:
        frame["hands"] = [hand(name, state, seat) or [] for seat in range(len(state.players))]
    return frame
