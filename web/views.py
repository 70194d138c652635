"""What a page may show of a table: its public state as JSON, and a seat's own secrets.

The board of each game is the picture's own view of the state (:mod:`pictures`: the
dataclasses the table message draws, which hold only what every player may see — Stack
Up!'s hand *sizes*, never a hand), so the page shows what the picture shows. A seated
player's own hidden cards are :func:`private_view`, sent to that player only.

A finished game's replay (:func:`replay`) is its move log played again from the start,
a frame a turn, numbered as the live table numbered them; Stack Up!'s hands are in it, as
``/export`` shows them once the game is over.

Every word here is said in the language spoken where it is asked for (the page's:
:func:`catalog.speaking`): a game's name and a move's words are the game's
(:func:`catalog.games.words`), the replay's own from the catalog's ``web`` domain.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import asdict
from datetime import datetime
from functools import cache
from typing import Any

import catalog
import catalog.games
from catalog.stackup import skip_words
from engine.colorstack.board import COLOUR_LETTERS, square_name
from engine.colorstack.moves import Set
from engine.colorstack.state import ColorStackState
from engine.game import Decision, Game, GameState, TurnEnded
from engine.stackup import moves as stackup_moves
from engine.stackup.cards import (
    CRASH,
    FLIP,
    FREEZE,
    SNATCH,
    SPECIAL_NAMES,
    SWITCH,
    Card,
    card_name,
    card_names,
    colour_letter,
)
from engine.stackup.rules import PENALTY_CARDS
from engine.stackup.state import StackUpState
from host.live import LiveTable, TurnLine
from host.words import HostedGame
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
    view["names"] = [catalog.isolate(name) for name in view["names"]]
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


def turns_played(state: GameState[Any]) -> int | None:
    """How many turns the game has had (the number of its latest turn), when the state
    counts them: Stack Up! and Color Stack count theirs, Stack keeps each round's turns
    (``None`` when its early rounds were let go)."""
    taken = getattr(state, "turns", None)
    if isinstance(taken, int):
        return taken
    history = getattr(state, "history", None)
    if isinstance(history, list) and getattr(state, "history_offset", None) == 0:
        return sum(len(r["turns"]) for r in history)
    return None


def setting_up(game: Game[Any], state: GameState[Any]) -> bool:
    """Whether the decision due now is one taken once before the first turn and no turn
    of its own (:meth:`~engine.game.Game.before_turns`: Color Stack's colours, Stack Up!'s
    direction): the page says the player is choosing it, not that it is their turn."""
    if state.is_over or state.decision is not Decision.TURN or turns_played(state):
        return False  # (a turn played: the set-up is behind; its moves not listed again)
    legal = state.legal_moves()
    return bool(legal) and game.before_turns(legal[0])


def players(seats: Sequence[Any], ai_users: Mapping[int, str]) -> list[dict[str, Any]]:
    """The seats as the page names them: each name, and the AI level playing it (the
    host's AI seats, and the users ``ai_users`` says an AI plays: the demo's own). A name
    is isolated (:func:`catalog.isolate`): whatever direction it reads in, or leaves open,
    the page's sentences around it read as they are written."""
    return [
        {"name": catalog.isolate(s.name), "ai": s.ai_level or ai_users.get(s.user_id)}
        for s in seats
    ]


def table_view(live: LiveTable[Any], ai_users: Mapping[int, str] | None = None) -> dict[str, Any]:
    """Everything a spectator of ``live`` may see (read it under the table's lock, or in
    the host's turn-changed call, which holds it); ``ai_users``: the users an AI plays
    (with its level) though the host seated them as people."""
    info = live.info
    state = live.state
    hosted = live.game
    view: dict[str, Any] = {
        "type": "table",
        "table": info.id,
        "game": info.game,
        "title": catalog.games.words(info.game).title(),
        "version": live.version,
        "status": info.status,
        "players": players(info.seats, ai_users or {}),
        "turn_started": _ms(live.turn_started),
        "turns": [live.front.plain(line) for line in live.turns],  # as text, not markup
        # which of them tell a turn (numbered on the page); the others (a decision taken
        # before the first turn, a seat handed to an AI) have no number
        "numbered": [isinstance(line, TurnLine) for line in live.turns],
        "turn_number": None,
        "board": None,
        "current": None,
        "setting_up": False,
        "over": False,
        "scores": None,
    }
    if state is not None:
        view["board"] = board(info.game, state)
        view["current"] = None if state.is_over else state.current_player
        if not info.is_active:  # closed before its game was over: nobody is to move
            view["current"] = view["board"]["current"] = None
        view["setting_up"] = setting_up(hosted.game, state)
        view["over"] = state.is_over
        view["scores"] = scores(hosted.game, state)
        view["turn_number"] = turns_played(state)
    return view


def hand(game: str, state: GameState[Any] | None, seat: int) -> list[str] | None:
    """The cards of ``seat``'s hand (a game of :data:`HIDDEN_HANDS` once dealt), else ``None``."""
    if game in HIDDEN_HANDS and state is not None and getattr(state, "deck", None) is not None:
        return card_names(state.hand(seat))  # type: ignore[attr-defined]
    return None


def private_view(live: LiveTable[Any], seat: int) -> dict[str, Any]:
    """What only the player of ``seat`` may see: their hand (Stack Up!), and on their turn
    (while the table plays: a table closed mid-game offers none) the moves they may
    make, each with its words and its code (what a move frame sends back; the host
    checks it again when it comes)."""
    you: dict[str, Any] = {"seat": seat}
    state = live.state
    cards = hand(live.info.game, state, seat)
    if cards is not None:
        you["hand"] = cards
    playing = live.info.is_active  # a table closed mid-game offers no move
    if playing and state is not None and not state.is_over and state.current_player == seat:
        hosted = live.game
        you["choices"] = [
            {
                "label": label(hosted, state, move, live.info.game),
                "move": hosted.game.encode_move(move),
            }
            for move in state.legal_moves()[:MAX_CHOICES]
        ]
    return you


@cache
def _die_words() -> Callable[[int], str] | None:
    """Color Stack's own words of a die, once the catalog has that game's words."""
    try:
        module = importlib.import_module("catalog.colorstack")
    except ModuleNotFoundError as err:
        if err.name != "catalog.colorstack":
            raise
        return None
    words: Callable[[int], str] = module.WORDS.die_words
    return words


def die_words(die: int) -> str:
    """``yellow 4``: a Color Stack die's colour and face, in the language spoken."""
    own = _die_words()
    if own is not None:
        return own(die)
    colour = catalog.t(f"web.colour.{COLOUR_LETTERS[die >> 3]}")
    return catalog.t("web.colorstack.die", colour=colour, face=die & 7)


def card_words(card: Card) -> str:
    """A Stack Up! card as the page reads it: a number card by its colour's word and its
    number (``red 7``, 「赤の7」: the words its hand's cards are read by, never the
    notation ``R7``), a special card by its name (``Freeze``)."""
    name = card_name(card)
    if name in SPECIAL_NAMES:
        return catalog.t(f"web.card.{name}")
    return catalog.t("web.card.number", colour=catalog.t(f"web.colour.{name[0]}"), number=name[1:])


def _drawn_words(state: StackUpState, seat: int, move: stackup_moves.PlayDrawn) -> str | None:
    """The play of the card ``seat`` drew: the card named first, then what it does
    ("Play the Switch you drew (to red)", 「引いたスイッチを出す（赤に変える）」)."""
    drawn = state.drawn
    if drawn is None:
        return None
    card = card_words(drawn)
    if drawn < FLIP:
        return catalog.t("web.stackup.play_drawn", card=card)
    if drawn == FLIP:
        effect = catalog.t(
            "web.stackup.effect.flip_down" if state.up else "web.stackup.effect.flip_up"
        )
    elif drawn == FREEZE:
        effect = skip_words(state, seat)
    elif drawn == SWITCH and move.colour is not None:
        colour = catalog.t(f"web.colour.{colour_letter(move.colour)}")
        effect = catalog.t("web.stackup.effect.switch", colour=colour)
    elif drawn == SNATCH and move.target is not None and move.count is not None:
        player = catalog.isolate(state.name(move.target))
        effect = catalog.n("web.stackup.effect.snatch", move.count, player=player)
    elif drawn == CRASH:
        player = catalog.isolate(state.name((seat + 1) % state.n))
        effect = catalog.t("web.stackup.effect.crash", player=player, count=PENALTY_CARDS)
    else:  # a choice the move lacks (the rules refuse it): the game's words
        return None
    return catalog.t("web.stackup.play_drawn_special", card=card, effect=effect)


def stackup_label(state: StackUpState, move: Any) -> str | None:
    """The words of a Stack Up! move's button where the game's own (shared with Discord,
    where the cards read as typed: ``R3 R4 R5 + a draw pass``) name number cards: each
    card read as the page reads it (``Play red 3, red 4 and red 5 (bonus: a draw
    pass)``), and a drawn card's play names the card, then what it does
    (:func:`_drawn_words`); ``None`` for a move that names none (its words are the game's)."""
    seat = state.seat if state.seat is not None else 0
    if isinstance(move, stackup_moves.Play) and move.cards and move.cards[0] < FLIP:
        cards = catalog.join([card_words(c) for c in move.cards])
        play = catalog.t("stackup.label.play", cards=cards)
        if len(move.cards) == state.hand_size(seat):
            return catalog.t("stackup.move.last_cards", cards=play)
        if move.bonus == "pass":
            return catalog.t("web.stackup.play_pass", play=play)
        if move.bonus == "skip":
            return catalog.t("web.stackup.play_skip", play=play, skip=skip_words(state, seat))
        return play
    if isinstance(move, stackup_moves.PlayDrawn):
        return _drawn_words(state, seat, move)
    drawn = state.drawn
    if isinstance(move, stackup_moves.Keep) and drawn is not None:
        return catalog.t("stackup.panel.keep_card", card=card_words(drawn))
    return None


def label(hosted: HostedGame, state: GameState[Any], move: Any, game: str | None = None) -> str:
    """The words of ``move``'s button: the game's (``game``: its name; else the front
    end's), but a Color Stack die set to a face says the die it was and the die it
    becomes (its own words say only one of them), and a Stack Up! move's cards are
    read in words (:func:`stackup_label`), not as typed."""
    if isinstance(move, Set) and isinstance(state, ColorStackState):
        top = state.top(move.square)
        if top is not None:
            after = (top & ~7) | move.face
            return catalog.t(
                "web.colorstack.set",
                square=square_name(move.square),
                face=move.face,
                was=die_words(top),
                becomes=die_words(after),
            )
    if isinstance(state, StackUpState):
        worded = stackup_label(state, move)
        if worded is not None:
            return worded
    if game is None:
        return hosted.move_label(state, move)
    return catalog.games.words(game).move_words(state, move)


def replay(
    info: TableInfo,
    hosted: HostedGame,
    start: GameState[Any],
    moves: Sequence[Any],
    ai_users: Mapping[int, str] | None = None,
) -> dict[str, Any]:
    """The frames of a finished game, numbered as the live table numbered its turns: frame
    0 the board as the first turn begins (the decisions taken before it, Color Stack's
    colours and Stack Up!'s direction, are told there: they are no turn), then frame ``n``
    the board once turn ``n`` ended. What happens inside a turn (a chance outcome, Stack's
    reroll and the pile it goes on, Stack Up!'s draw and what follows it) is in the frame
    of the turn it belongs to, with the words of what it led to, in the language spoken
    (the game's words of each turn, as the live table told it; the front end's of a
    decision that is no turn). A move after the last turn (a resignation) is told in the
    last frame, which shows the game's end. Stack Up!'s hands are in every frame: the game
    is over, and its record (``/export``) shows them all."""
    game = hosted.game
    words = catalog.games.words(info.game)
    state = start
    frames: list[dict[str, Any]] = []
    said: list[str] = [catalog.t("web.replay.begins")]  # the words of the frame to come
    for move in moves:
        seat = game.mover(state, move)
        if seat is not None and not frames and not game.before_turns(move):
            frames.append(_frame(info.game, game, state, " ".join(said)))  # the first turn
            said = []
        if seat is not None:  # its words, before it is played
            plain = catalog.t(
                "web.replay.move",
                player=catalog.isolate(state.players[seat]),
                move=words.move_words(state, move),
            )
        events = state.apply(move)
        if seat is not None:
            decided = hosted.decision_text(state, seat, move)
            if decided is not None:
                said.append(decided)
            elif not any(isinstance(e, TurnEnded) for e in events) and (
                game.before_turns(move) or state.is_over
            ):  # no turn, and no turn's words to come tell it (a resignation)
                said.append(plain)
        for event in events:
            if isinstance(event, TurnEnded):
                said.append(words.turn_words(state, event))
                frames.append(_frame(info.game, game, state, " ".join(said)))
                said = []
    if not frames:  # over before its first turn
        frames.append(_frame(info.game, game, state, " ".join(said)))
    elif said:  # after its last turn: told with it
        frames[-1] = _frame(info.game, game, state, " ".join([frames[-1]["words"], *said]))
    return {
        "type": "replay",
        "game_id": info.id,
        "game": info.game,
        "title": catalog.games.words(info.game).title(),
        "players": players(info.seats, ai_users or {}),
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
