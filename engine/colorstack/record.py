"""Color Stack game records (``colorstack-record/1``): export a game, replay one, check one.

The format and the checker's output are specified in ``docs/colorstack-record.md``.
:func:`check` returns exactly the checker's JSON object: ``{"ok": true, "turns",
"finished", "winner", "ended_by", "to_move", "board"}`` for a legal record, ``{"ok":
false, "turn", "error"}`` for a wrong one, ``turn`` counting the entries of ``turns`` from 1
(a resignation included) and pointing at the first wrong one, ``null`` when the record is
wrong outside ``turns``.
"""

from __future__ import annotations

import re
from typing import Any

from engine.colorstack.board import (
    COLOUR_NAMES,
    all_start_squares,
    cards_problem,
    parse_square,
    square_name,
)
from engine.colorstack.moves import Move, PlayerMove, Resign, Set, Setup, move, set_face
from engine.colorstack.rules import ColorStackSettings, settings_error
from engine.colorstack.state import ColorStackState
from engine.errors import NoRecord, RecordError, as_json, settings_from

FORMAT = "colorstack-record/1"
_REQUIRED = ("format", "players", "first", "colours", "cards", "dice", "turns")
_KEYS = frozenset((*_REQUIRED, "rules", "info"))


def action_text(mv: PlayerMove) -> str:
    """A turn's ``action`` as the record writes it: ``c1-e3``, ``set c1 4``, ``resign``."""
    if isinstance(mv, Move):
        return f"{square_name(mv.frm)}-{square_name(mv.to)}"
    if isinstance(mv, Set):
        return f"set {square_name(mv.square)} {mv.face}"
    return "resign"


def export_record(state: ColorStackState, meta: Any = None) -> dict[str, Any]:
    """The game as a ``colorstack-record/1`` record (``meta`` goes under ``info``)."""
    setup = state.setup
    if setup is None:  # being set up, or resigned before the board was: no cards, no dice
        raise NoRecord("the game's board is not set up: there is nothing to record")
    names = state.players
    starts = all_start_squares(state.rows)
    record: dict[str, Any] = {
        "format": FORMAT,
        "rules": state.settings.to_record(),
        "players": list(names),
        "first": names[setup.first],
        "colours": [COLOUR_NAMES[c] for c in setup.colours],
        "cards": list(setup.cards),
        "dice": {square_name(sq): face for sq, face in zip(starts, setup.dice, strict=True)},
        "turns": [{"player": names[seat], "action": action_text(mv)} for seat, mv in state.log],
    }
    if meta is not None:
        record["info"] = meta
    return record


def replay(record: object) -> ColorStackState:
    """The state a legal record leads to; :class:`RecordError` says what is wrong."""
    return _Replay(record).run()


def check(record: object) -> dict[str, Any]:
    """The checker's result for ``record`` (already parsed from JSON)."""
    try:
        state = replay(record)
    except RecordError as err:
        return {"ok": False, "turn": err.turn, "error": str(err)}
    outcome = state.outcome()
    names = state.players
    return {
        "ok": True,
        "turns": state.turns,
        "finished": state.is_over,
        "winner": [names[s] for s in outcome.winners] if outcome and outcome.winners else None,
        "ended_by": state.ended_by,
        "to_move": None if state.is_over else names[state.to_move],
        "board": state.board_rows(),
    }


def _is_int(value: object) -> bool:
    return type(value) is int


# The two forms of an action besides ``resign`` (:func:`parse_action`).
_SET = re.compile(r"set ([a-i][1-9]) ([0-9]+)")
_MOVE = re.compile(r"([a-i][1-9])-([a-i][1-9])")


def parse_action(text: str, rows: int, seat: int) -> PlayerMove | None:
    """The action a record's entry writes, for ``seat``, on a board of ``rows`` rows
    (``None`` when it is not exactly one of the three forms)."""
    if text == "resign":
        return Resign(seat)
    found = _SET.fullmatch(text)
    if found is not None:
        sq = parse_square(found.group(1), rows)
        face = found.group(2)
        if sq is None or face not in "123456" or len(face) != 1:
            return None
        return set_face(sq, int(face))
    found = _MOVE.fullmatch(text)
    if found is not None:
        frm, to = parse_square(found.group(1), rows), parse_square(found.group(2), rows)
        if frm is None or to is None:
            return None
        return move(frm, to)
    return None


class _Replay:
    def __init__(self, record: object) -> None:
        self.record = record

    def run(self) -> ColorStackState:
        record = self.record
        if not isinstance(record, dict):
            raise RecordError("The record must be a JSON object.")
        if record.get("format") != FORMAT:
            raise RecordError(f'"format" must be "{FORMAT}", not {as_json(record.get("format"))}.')
        for key in record:
            if key not in _KEYS:
                known = ", ".join(sorted(_KEYS))
                raise RecordError(f"Unknown key {key!r} in the record (the keys are {known}).")
        for key in _REQUIRED:
            if key not in record:
                raise RecordError(f"The record has no {key!r}; every record needs one.")
        settings = self._settings(record.get("rules"))
        players = self._players(record["players"])
        first = self._first(record["first"], players)
        colours = self._colours(record["colours"])
        rows = 6 if settings.board == "light" else 9
        cards = self._cards(record["cards"], rows, settings.board)
        dice = self._dice(record["dice"], rows)
        turns = record["turns"]
        if not isinstance(turns, list):
            raise RecordError('"turns" must be a list of entries (it may be empty).')
        state = ColorStackState(players, settings)
        state.apply(Setup(first, colours, cards, dice))
        for t, entry in enumerate(turns, start=1):
            self._entry(state, entry, t)
        return state

    def _settings(self, raw: object) -> ColorStackSettings:
        if raw is None:
            return ColorStackSettings()
        return settings_from(
            raw,
            ColorStackSettings,
            RecordError,
            '"rules" must be an object (or null for every default).',
            lambda err: f"The rules are wrong: {settings_error(err)}.",
        )

    def _players(self, raw: object) -> tuple[str, str]:
        if (
            not isinstance(raw, list)
            or len(raw) != 2
            or not all(isinstance(p, str) and p for p in raw)
        ):
            raise RecordError('"players" must be a list of exactly two non-empty names.')
        if raw[0] == raw[1]:
            raise RecordError(
                f"The two players are both called {as_json(raw[0])}; names must differ."
            )
        return raw[0], raw[1]

    def _first(self, raw: object, players: tuple[str, str]) -> int:
        if not isinstance(raw, str) or raw not in players:
            raise RecordError(
                f'"first" must name one of the players ({players[0]} or {players[1]}), '
                f"not {as_json(raw)}."
            )
        return players.index(raw)

    def _colours(self, raw: object) -> tuple[int, int]:
        if (
            not isinstance(raw, list)
            or len(raw) != 2
            or not all(isinstance(c, str) and c in COLOUR_NAMES for c in raw)
            or raw[0] == raw[1]
        ):
            raise RecordError(
                f'"colours" must be two different of "red", "blue", "yellow", "green", '
                f"not {as_json(raw)}."
            )
        return COLOUR_NAMES.index(raw[0]), COLOUR_NAMES.index(raw[1])

    def _cards(self, raw: object, rows: int, board: str) -> tuple[str, ...]:
        if not isinstance(raw, list) or not all(isinstance(c, str) for c in raw):
            raise RecordError('"cards" must be a list of cards such as "C" or "C\'".')
        problem = cards_problem(raw, rows)
        if problem is not None:
            raise RecordError(f"The cards are wrong for a {board} board: {problem}.")
        return tuple(raw)

    def _dice(self, raw: object, rows: int) -> tuple[int, ...]:
        starts = [square_name(sq) for sq in all_start_squares(rows)]
        if not isinstance(raw, dict) or set(raw) != set(starts):
            raise RecordError(
                f'"dice" must be an object with exactly the start squares {" ".join(starts)} '
                "as keys."
            )
        faces = []
        for name in starts:
            face = raw[name]
            if not _is_int(face) or not 1 <= face <= 6:
                raise RecordError(
                    f"The die on {name} must show a face from 1 to 6, not {as_json(face)}."
                )
            faces.append(face)
        return tuple(faces)

    def _entry(self, state: ColorStackState, entry: object, t: int) -> None:
        names = state.players
        if not isinstance(entry, dict) or set(entry) != {"player", "action"}:
            raise RecordError(
                f'Entry {t} must be an object with exactly the keys "player" and "action".', t
            )
        player, action = entry["player"], entry["action"]
        if not isinstance(player, str) or player not in names:
            raise RecordError(
                f"Entry {t} names {as_json(player)}, who is not a player "
                f"({names[0]} or {names[1]}).",
                t,
            )
        seat = names.index(player)
        if not isinstance(action, str):
            raise RecordError(f'Entry {t}: "action" must be a string, not {as_json(action)}.', t)
        mv = parse_action(action, state.rows, seat)
        if mv is None:
            raise RecordError(
                f"Entry {t}: {as_json(action)} is not an action: write 'set SQ N' (N from 1 to 6), "
                f"'SQ-SQ' or 'resign', with squares from a1 to i{state.rows}.",
                t,
            )
        if state.is_over:
            raise RecordError(
                f"Entry {t} follows the end of the game ({_ending(state)}): remove it.", t
            )
        if not isinstance(mv, Resign) and seat != state.to_move:
            raise RecordError(
                f"Entry {t} is {player}'s {action}, but it is {names[state.to_move]}'s turn.", t
            )
        err = state.refusal(mv, named=True)
        if err is not None:
            why = str(err)
            raise RecordError(
                f"Entry {t}, {player}'s {action}, is illegal: {why[:1].lower()}{why[1:]}", t
            )
        state.apply(mv)


def _ending(state: ColorStackState) -> str:
    winner = state.winner
    return {
        "four_colours": f"{state.players[winner or 0]} made four colours",
        "resignation": f"{state.players[1 - (winner or 0)]} resigned",
        "repetition": "drawn by repetition",
        "turn_limit": "drawn at the turn limit",
    }.get(state.ended_by or "", "over")
