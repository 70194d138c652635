"""Game records (``stack-record/1``): export any game, replay one, and check one.

The format and the checker's output are specified in ``docs/record-format.md``.
"""

from __future__ import annotations

from typing import Any, TypeGuard

from engine.errors import IllegalMoveError, RecordError, as_json
from engine.game import Decision
from engine.record_header import read_players, read_rules
from engine.stack.describe import pile_words
from engine.stack.moves import PLACES, REROLLS, ROLLS, STACKS, RoundDice
from engine.stack.rules import MAX_PLAYERS, MIN_PLAYERS, StackRules, settings_error
from engine.stack.state import SetupError, StackState, TurnLog

FORMAT = "stack-record/1"
TOP_KEYS = frozenset(
    {"format", "rules", "players", "rounds"}
)  # a record with others is not Stack's
_ROUND_KEYS = {"first", "dice", "turns"}
_STACK_KEYS = {"player", "stack", "on", "height"}
_REROLL_KEYS = {"player", "reroll", "rolled", "on", "height"}


# ------------------------------------------------------------------------- export


def export_record(state: StackState) -> dict[str, Any]:
    """The game so far as a record: every round's dice and every finished turn.

    A die rerolled but not yet placed (a decision still pending) is not part of it.
    ``ValueError`` for a state restored from a compact snapshot, which lacks the earlier
    rounds (rebuild it from the whole move log first).
    """
    if not state.has_full_history:
        raise ValueError("This state holds only its latest round; replay the full game first.")
    names = state.players
    rounds = []
    for rnd in state.history:
        rounds.append(
            {
                "first": names[rnd["first"]],
                "dice": {names[s]: list(d) for s, d in enumerate(rnd["dice"])},
                "turns": [_turn_to_record(names, t) for t in rnd["turns"]],
            }
        )
    return {
        "format": FORMAT,
        "rules": state.rules.to_record(),
        "players": list(names),
        "rounds": rounds,
    }


def _turn_to_record(names: tuple[str, ...], turn: TurnLog) -> dict[str, Any]:
    if turn[0] == "stack":
        _, p, face, owner, height = turn
        return {"player": names[p], "stack": face, "on": names[owner], "height": height}
    _, p, face, rolled, owner, height = turn
    out: dict[str, Any] = {"player": names[p], "reroll": face, "rolled": rolled}
    if owner is not None:
        out["on"] = names[owner]
        out["height"] = height
    return out


# ------------------------------------------------------------------------- replay


def replay(record: object) -> StackState:
    """Replay ``record`` with the engine; :class:`RecordError` at the first thing wrong.

    Returns the state after the record's last turn (the first round's first player is
    the record's, since the roll-off is not recorded).
    """
    return _Replay(record).run()


def check(record: object) -> dict[str, Any]:
    """The checker's JSON result for ``record`` (see the record page)."""
    replayer = _Replay(record)
    try:
        state = replayer.run()
    except RecordError as err:
        return {"ok": False, "round": err.round, "turn": err.turn, "error": err.message}
    names = state.players
    rounds = []
    for i in range(len(state.history)):
        if i < len(state.round_scores):
            scores = {names[s]: pts for s, pts in enumerate(state.round_scores[i])}
            rounds.append({"scores": scores, "complete": True})
        else:
            rounds.append({"scores": None, "complete": False})
    return {
        "ok": True,
        "rounds": rounds,
        "totals": {names[s]: total for s, total in enumerate(state.totals)},
        "finished": state.is_over,
        "winner": None if state.winner is None else [names[s] for s in state.winner],
    }


def _is_int(value: object) -> TypeGuard[int]:
    return type(value) is int


class _Replay:
    def __init__(self, record: object) -> None:
        self.record = record

    def run(self) -> StackState:
        rec = self.record
        if not isinstance(rec, dict):
            raise RecordError("A game record must be a JSON object.")
        unknown = sorted(set(rec) - TOP_KEYS)
        if unknown:
            raise RecordError(f"The record has an unknown key {unknown[0]!r}.")
        if rec.get("format") != FORMAT:
            raise RecordError(f'The record\'s "format" must be "{FORMAT}".')
        rules = self._rules(rec.get("rules", {}))
        players = self._players(rec.get("players"))
        try:
            StackState(players, rules, first=0)
        except SetupError as err:
            raise RecordError(str(err)) from None
        rounds = rec.get("rounds")
        if not isinstance(rounds, list):
            raise RecordError('The record needs "rounds": a list of rounds.')
        if not rounds:
            return StackState(players, rules)
        first_round = rounds[0]
        if not isinstance(first_round, dict) or "first" not in first_round:
            raise RecordError(
                'Round 1 must name its "first" player (the roll-off\'s winner).', round=1
            )
        first = self._player(first_round["first"], 1, None, "first player")
        state = StackState(players, rules, first=first)
        for index, rnd in enumerate(rounds, start=1):
            if state.is_over:
                raise RecordError(
                    f"The game ended in round {index - 1}; no round may follow it.", round=index
                )
            self._round(state, rnd, index, last=index == len(rounds))
        return state

    def _rules(self, raw: object) -> StackRules:
        return read_rules(
            raw, StackRules, lambda err: f"The record's rules: {settings_error(err)}."
        )

    def _players(self, raw: object) -> tuple[str, ...]:
        names = read_players(raw, MIN_PLAYERS, MAX_PLAYERS)
        if len(set(names)) != len(names):
            raise RecordError('The names in "players" must be distinct.')
        return tuple(names)

    def _player(self, raw: object, rnd: int, turn: int | None, what: str) -> int:
        names = self.record["players"]  # type: ignore[index]
        if not isinstance(raw, str) or raw not in names:
            raise RecordError(
                f"The {what} {as_json(raw)} is not one of the players.", turn, round=rnd
            )
        return int(names.index(raw))

    def _round(self, state: StackState, rnd: object, index: int, *, last: bool) -> None:
        if not isinstance(rnd, dict):
            raise RecordError(f"Round {index} must be an object.", round=index)
        unknown = sorted(set(rnd) - _ROUND_KEYS)
        if unknown:
            raise RecordError(f"Round {index} has an unknown key {unknown[0]!r}.", round=index)
        if "first" in rnd:
            first = self._player(rnd["first"], index, None, "first player")
            if index > 1 and first != state.first:
                assert state.first is not None
                prev = (state.first - 1) % state.n
                raise RecordError(
                    f"Round {index} must start with {state.name(state.first)}, the seat after "
                    f"{state.name(prev)} who started round {index - 1}.",
                    round=index,
                )
        dice = rnd.get("dice")
        rules = state.rules
        if not isinstance(dice, dict) or set(dice) != set(state.players):
            raise RecordError(
                f'Round {index} needs "dice" with an entry for every player and no one else.',
                round=index,
            )
        rolled = []
        for name in state.players:
            faces = dice[name]
            if (
                not isinstance(faces, list)
                or len(faces) != rules.dice_per_player
                or not all(_is_int(f) and 1 <= f <= 6 for f in faces)
            ):
                raise RecordError(
                    f"{name} must roll exactly {rules.dice_per_player} dice, each 1 to 6, "
                    f"in round {index}.",
                    round=index,
                )
            rolled.append(tuple(faces))
        state.apply(RoundDice(tuple(rolled)))
        turns = rnd.get("turns")
        if not isinstance(turns, list):
            raise RecordError(f'Round {index} needs "turns": a list of turns.', round=index)
        for t, turn in enumerate(turns, start=1):
            self._turn(state, turn, index, t)
        if not last and state.decision not in (Decision.OVER, Decision.CHANCE):
            p = state.current
            assert p is not None
            raise RecordError(
                f"Round {index} is not finished: {state.name(p)} still has a turn to take.",
                round=index,
            )

    def _turn(self, state: StackState, turn: object, rnd: int, t: int) -> None:
        if not isinstance(turn, dict):
            raise RecordError("A turn must be an object.", t, round=rnd)
        if state.current is None:
            raise RecordError(f"Round {rnd} is already over; this turn has no place.", t, round=rnd)
        player = self._player(turn.get("player"), rnd, t, "player")
        p = state.current
        if player != p:
            raise RecordError(
                f"It is {state.name(p)}'s turn, not {state.name(player)}'s.", t, round=rnd
            )
        who = state.name(p)
        has_stack, has_reroll = "stack" in turn, "reroll" in turn
        if has_stack == has_reroll:
            raise RecordError('A turn needs exactly one of "stack" and "reroll".', t, round=rnd)
        allowed = _STACK_KEYS if has_stack else _REROLL_KEYS
        unknown = sorted(set(turn) - allowed)
        if unknown:
            raise RecordError(f"The turn has an unknown key {unknown[0]!r}.", t, round=rnd)
        face = turn["stack"] if has_stack else turn["reroll"]
        if not _is_int(face) or not 1 <= face <= 6:
            raise RecordError(f"A die shows 1 to 6, not {as_json(face)}.", t, round=rnd)
        if not state.singles[p][face]:
            raise RecordError(f"{who} has no unstacked die showing {face}.", t, round=rnd)
        if has_stack:
            if "on" not in turn or "height" not in turn:
                raise RecordError('A stack needs "on" and "height".', t, round=rnd)
            owner, height = self._target(state, turn, rnd, t)
            self._check_target(state, p, face, owner, height, rnd, t)
            state.apply(STACKS[(face, owner, height)])
            return
        rolled = turn.get("rolled")
        if not _is_int(rolled) or not 1 <= rolled <= 6:
            raise RecordError(
                f'A reroll needs "rolled": 1 to 6, not {as_json(rolled)}.', t, round=rnd
            )
        options = state.targets_for(p, rolled)
        named = "on" in turn or "height" in turn
        if not options:
            if named:
                raise RecordError(
                    f'{who}\'s rolled {rolled} has no pile to go on, so "on" and "height" '
                    "must be absent.",
                    t,
                    round=rnd,
                )
            state.apply(REROLLS[face])
            state.apply(ROLLS[rolled])
            return
        if "on" not in turn or "height" not in turn:
            where = ", ".join(pile_words(state.name(o), rolled, h) for o, h in options)
            raise RecordError(
                f'{who}\'s rolled {rolled} must go on a pile ({where}): give "on" and "height".',
                t,
                round=rnd,
            )
        owner, height = self._target(state, turn, rnd, t)
        self._check_target(state, p, rolled, owner, height, rnd, t)
        try:
            state.apply(REROLLS[face])
            state.apply(ROLLS[rolled])
            if state.placing is not None:
                state.apply(PLACES[(owner, height)])
        except IllegalMoveError as err:  # pragma: no cover - the checks above come first
            raise RecordError(str(err), t, round=rnd) from None

    def _target(self, state: StackState, turn: dict[str, Any], rnd: int, t: int) -> tuple[int, int]:
        owner = self._player(turn["on"], rnd, t, "pile owner")
        height = turn["height"]
        if not _is_int(height) or not 1 <= height <= 3:
            raise RecordError(f'"height" must be 1, 2 or 3, not {as_json(height)}.', t, round=rnd)
        return owner, height

    def _check_target(
        self, state: StackState, p: int, face: int, owner: int, height: int, rnd: int, t: int
    ) -> None:
        who = state.name(p)
        if owner == p:
            raise RecordError(f"{who} may not stack directly on their own colour.", t, round=rnd)
        if (owner, height) not in state.targets[face]:
            pile = f"unstacked {face}" if height == 1 else f"{height}-high pile of {face}s"
            raise RecordError(
                f"{state.name(owner)} has no {pile} for {who} to stack on.",
                t,
                round=rnd,
            )
