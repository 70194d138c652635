"""Stack Up! game records (``stackup-record/1``): export a game, replay one, check one.

The format and the checker's output are specified in ``docs/stackup-record.md``.
A record is omniscient (every hand, and through the deck every card to come): never
show a running game's record to its players.

:func:`check` returns exactly the checker's JSON object: ``{"ok": true, "turns",
"finished", "winner", "hands", "ended_by"}`` for a legal record, ``{"ok": false, "turn",
"error"}`` for a wrong one, ``turn`` being the 1-based position in ``turns`` of the first
wrong turn (``null`` when the record is wrong outside ``turns``).
"""

from __future__ import annotations

from collections import Counter
from typing import Any

from engine.errors import IllegalReason, RecordError, as_json, read_json
from engine.record_header import read_players, read_rules
from engine.stackup import moves
from engine.stackup.cards import (
    COLOUR_LETTERS,
    DECK_SIZE,
    FLIP,
    FULL_DECK,
    SNATCH,
    SWITCH,
    Card,
    card_name,
    card_names,
    parse_card,
)
from engine.stackup.rules import (
    BONUS_LENGTH,
    HAND_SIZE,
    MAX_PLAYERS,
    MIN_PLAYERS,
    PENALTY_CARDS,
    StackUpSettings,
    settings_error,
)
from engine.stackup.state import (
    DRAWN,
    RESHUFFLE,
    SNATCH_CARDS,
    LoggedTurn,
    StackUpState,
    cards_count,
)

FORMAT = "stackup-record/1"
_TOP_KEYS = ("format", "rules", "players", "deck", "first", "direction", "turns", "meta")
_KINDS = ("play", "block", "take", "pass", "draw")
# Refusals about a play's choices: the record names the key instead.
_CHOICE_REASONS = (
    IllegalReason.MISSING_CHOICE,
    IllegalReason.EXTRA_CHOICE,
    IllegalReason.BAD_CHOICE,
)
_CHOICES = ("bonus", "colour", "target", "count", "took")
# The keys each kind of turn may carry besides "player" and its own.
_ALLOWED = {
    "play": frozenset(_CHOICES),
    "block": frozenset(),
    "take": frozenset({"reshuffle"}),
    "pass": frozenset(),
    "draw": frozenset({"reshuffle", "colour", "target", "count", "took"}),
}


# ------------------------------------------------------------------------- export


def export_record(state: StackUpState, meta: Any = None) -> dict[str, Any]:
    """The game so far as a record: the deck, the first player, the direction and every
    finished turn (a turn still waiting for a decision or a chance outcome is left out).

    ``ValueError`` before the deal (a record needs the shuffled deck).
    """
    if state.deck is None or state.first is None:
        raise ValueError("The cards have not been dealt yet, so there is no record.")
    names = state.players
    record: dict[str, Any] = {
        "format": FORMAT,
        "rules": state.settings.to_record(),
        "players": list(names),
        "deck": card_names(state.deck),
        "first": names[state.first],
    }
    if state.first_up is not None:
        record["direction"] = "up" if state.first_up else "down"
    record["turns"] = [turn_to_record(names, t) for t in state.log]
    if meta is not None:
        record["meta"] = meta
    return record


def turn_to_record(names: tuple[str, ...], turn: LoggedTurn) -> dict[str, Any]:
    """One finished turn as the record writes it."""
    out: dict[str, Any] = {"player": names[turn.seat]}
    kind = turn.kind
    if kind == "play":
        out["play"] = card_names(turn.cards)
    elif kind == "draw":
        out["draw"] = "play" if turn.cards else "keep"
    else:
        out[kind] = True
    if turn.reshuffle is not None:
        out["reshuffle"] = card_names(turn.reshuffle)
    if turn.bonus is not None:
        out["bonus"] = turn.bonus
    if turn.colour is not None:
        out["colour"] = COLOUR_LETTERS[turn.colour]
    if turn.target is not None:
        out["target"] = names[turn.target]
        out["count"] = turn.count
        out["took"] = card_names(turn.took)
    return out


# ------------------------------------------------------------------------- replay and check


def replay(record: object) -> StackUpState:
    """The state a legal ``record`` leads to; :class:`RecordError` at the first thing wrong."""
    return _Replay(record).run()


def check(record: object) -> dict[str, Any]:
    """The checker's JSON result for ``record`` (see the record page)."""
    try:
        state = replay(record)
    except RecordError as err:
        return {"ok": False, "turn": err.turn, "error": err.message}
    names = state.players
    outcome = state.outcome()
    return {
        "ok": True,
        "turns": len(state.log),
        "finished": state.is_over,
        "winner": None if outcome is None else [names[s] for s in outcome.winners],
        "hands": {names[s]: card_names(state.hand(s)) for s in range(state.n)},
        "ended_by": None if outcome is None else outcome.ended_by,
    }


def check_text(text: str) -> dict[str, Any]:
    """The checker's result for a record given as JSON text (not JSON is an error too)."""
    try:
        record = read_json(text, "The record")
    except RecordError as err:
        return {"ok": False, "turn": None, "error": err.message}
    return check(record)


def _is_int(value: object) -> bool:
    return type(value) is int


def _times(count: int) -> str:
    """``once``, ``2 times``: how often a card appears."""
    return "once" if count == 1 else f"{count} times"


def _listed(cards: list[Card] | tuple[Card, ...]) -> str:
    return " ".join(card_names(cards)) if cards else "none"


def _card_list(turn: dict[str, Any], key: str, t: int, missing: str) -> tuple[Card, ...]:
    """The cards ``turn[key]`` names (a list of card names); ``missing`` says what the turn
    lacks when that is not a list."""
    raw = turn.get(key)
    if not isinstance(raw, list):
        raise RecordError(missing, t)
    try:
        return tuple(parse_card(name) for name in raw)
    except ValueError as err:
        raise RecordError(f'"{key}": {err}', t) from None


class _Replay:
    """Reads a record top to bottom, refusing at the first thing wrong."""

    def __init__(self, record: object) -> None:
        self.record = record
        self.names: tuple[str, ...] = ()

    def run(self) -> StackUpState:
        rec = self.record
        if not isinstance(rec, dict):
            raise RecordError("A game record must be a JSON object.")
        if rec.get("format") != FORMAT:
            raise RecordError(f'The record\'s "format" must be "{FORMAT}".')
        unknown = [k for k in rec if k not in _TOP_KEYS]
        if unknown:
            raise RecordError(
                f"The record has an unknown key {unknown[0]!r}; its keys are "
                + ", ".join(_TOP_KEYS)
                + "."
            )
        settings = self._settings(rec.get("rules", {}))
        players = self._players(rec.get("players"))
        self.names = players
        deck = self._deck(rec.get("deck"), len(players))
        first = self._first(rec.get("first"))
        turns = rec.get("turns", [])
        if not isinstance(turns, list):
            raise RecordError('"turns" must be a list of turns.')
        if "direction" in rec:
            direction = rec["direction"]
            if direction not in ("up", "down"):
                raise RecordError(f'"direction" must be "up" or "down", not {as_json(direction)}.')
        elif turns:
            raise RecordError(
                f'The record needs "direction" ("up" or "down"), chosen by {players[first]} '
                "before the first turn."
            )
        else:
            direction = None
        state = StackUpState(players, settings)
        state.apply(moves.Deal(deck, first))
        if direction is not None:
            state.apply(moves.UP if direction == "up" else moves.DOWN)
        for index, turn in enumerate(turns, start=1):
            self._turn(state, turn, index)
        return state

    # ------------------------------------------------------------- outside the turns

    def _settings(self, raw: object) -> StackUpSettings:
        return read_rules(
            raw,
            StackUpSettings,
            lambda err: f"The record's rules are wrong: {settings_error(err)}.",
        )

    def _players(self, raw: object) -> tuple[str, ...]:
        names = read_players(raw, MIN_PLAYERS, MAX_PLAYERS)
        if len(set(names)) != len(names):
            twice = next(p for p in names if names.count(p) > 1)
            raise RecordError(
                f'The names in "players" must be distinct; {as_json(twice)} is twice.'
            )
        return tuple(names)

    def _deck(self, raw: object, n: int) -> tuple[Card, ...]:
        if not isinstance(raw, list) or len(raw) != DECK_SIZE:
            got = f"{len(raw)} cards" if isinstance(raw, list) else "no list"
            raise RecordError(
                f'"deck" must list the {DECK_SIZE} cards as shuffled, top first ({got} given).'
            )
        deck: list[Card] = []
        for i, name in enumerate(raw):
            try:
                deck.append(parse_card(name))
            except ValueError:
                raise RecordError(
                    f"deck[{i}] {as_json(name)} is not a card: cards are written R7, G15, Flip, "
                    "Freeze, Snatch, Switch, Crash."
                ) from None
        counts = Counter(deck)
        want = Counter(FULL_DECK)
        wrong = [c for c in sorted(want | counts) if counts[c] != want[c]]
        if wrong:
            listed = ", ".join(
                f"{card_name(c)} {_times(counts[c])} instead of {_times(want[c])}"
                for c in wrong[:4]
            )
            raise RecordError(
                '"deck" must hold each number card once and each special card 4 times, '
                f"but holds {listed}."
            )
        if all(c >= FLIP for c in deck[HAND_SIZE * n :]):
            raise RecordError(
                '"deck" leaves only special cards after the deal, so no number card can start '
                "the stack; the table deals such a shuffle again, and only the shuffle dealt "
                "is written."
            )
        return tuple(deck)

    def _first(self, raw: object) -> int:
        if not isinstance(raw, str) or raw not in self.names:
            raise RecordError(f'"first" must be one of the players, not {as_json(raw)}.')
        return self.names.index(raw)

    # ------------------------------------------------------------- the turns

    def _turn(self, state: StackUpState, turn: object, t: int) -> None:
        names = self.names
        if state.is_over:
            raise RecordError(f"The game ended at turn {t - 1}; no turn may follow it.", t)
        if not isinstance(turn, dict):
            raise RecordError(f"Turn {t} must be an object.", t)
        player = turn.get("player")
        if not isinstance(player, str) or player not in names:
            raise RecordError(
                f'The turn\'s "player" {as_json(player)} is not one of the players.', t
            )
        p = state.current_player
        assert p is not None and state.phase == "turn"
        if player != names[p]:
            raise RecordError(f"It is {names[p]}'s turn, not {player}'s{self._why(state)}.", t)
        kinds = [k for k in _KINDS if k in turn]
        if len(kinds) != 1:
            raise RecordError(
                'A turn has exactly one of "play", "block", "take", "pass" and "draw"'
                + (f" ({', '.join(kinds)} given)." if kinds else "."),
                t,
            )
        kind = kinds[0]
        extra = [k for k in turn if k not in ("player", kind) and k not in _ALLOWED[kind]]
        if extra:
            raise RecordError(f'A "{kind}" turn has no {extra[0]!r}.', t)
        self._kind_allowed(state, p, kind, t)
        if kind == "play":
            self._play(state, p, turn, t)
        elif kind == "block":
            self._flag(turn, kind, t)
            self._apply(state, moves.BLOCK, t)
        elif kind == "pass":
            self._flag(turn, kind, t)
            self._apply(state, moves.USE_PASS, t)
        elif kind == "take":
            self._flag(turn, kind, t)
            had = state.pile_size
            self._apply(state, moves.TAKE, t)
            self._reshuffle(state, turn, t, had >= PENALTY_CARDS)
        else:
            self._draw(state, p, turn, t)

    def _why(self, state: StackUpState) -> str:
        """Why the named player is not the one to move: their turn was skipped."""
        if state.log and state.log[-1].skips_next:
            skipped = (state.log[-1].seat + 1) % state.n
            return f" ({self.names[skipped]}'s turn was skipped)"
        return ""

    def _flag(self, turn: dict[str, Any], kind: str, t: int) -> None:
        if turn[kind] is not True:
            raise RecordError(f'"{kind}" must be true, not {as_json(turn[kind])}.', t)

    def _kind_allowed(self, state: StackUpState, p: int, kind: str, t: int) -> None:
        """Which of the five the turn must be follows from the rules."""
        who = self.names[p]
        if state.pending_crash == p:
            if kind not in ("block", "take"):
                raise RecordError(
                    f"A Crash penalty is on {who}: the turn must be a block or a take, "
                    f"not a {kind}.",
                    t,
                )
            return
        if kind in ("block", "take"):
            raise RecordError(
                f"There is no Crash penalty on {who}, so there is nothing to {kind}.", t
            )
        if kind == "play":
            return  # the play itself says what is wrong with it
        if state.has_play(p):
            example = " ".join(card_names(state.plays(p)[0].cards))
            raise RecordError(
                f"{who} has a legal play (for one, {example}), so the turn must be a play; "
                f'"{kind}" is only for a stuck player.',
                t,
            )
        if kind == "pass" and not state.passes[p]:
            raise RecordError(f'{who} is stuck but holds no draw pass: the turn is a "draw".', t)
        if kind == "draw" and state.passes[p]:
            raise RecordError(
                f'{who} is stuck and holds a draw pass, so the turn is a "pass", not a draw.', t
            )

    def _apply(self, state: StackUpState, move: moves.Move, t: int) -> None:
        self._refuse(state, move, state.seat, t)
        state.apply(move)

    def _refuse(self, state: StackUpState, move: moves.Move, p: int | None, t: int) -> None:
        err = state.refusal(move, p, named=True)
        if err is not None:
            raise RecordError(str(err), t)

    # ------------------------------------------------------------- plays

    def _play(self, state: StackUpState, p: int, turn: dict[str, Any], t: int) -> None:
        raw = turn["play"]
        if not isinstance(raw, list) or not raw:
            raise RecordError('"play" must list the cards played, in order.', t)
        cards: list[Card] = []
        for name in raw:
            try:
                cards.append(parse_card(name))
            except ValueError:
                raise RecordError(
                    f"{as_json(name)} is not a card: cards are written like R7, G15 or Flip.", t
                ) from None
        played = tuple(cards)
        move = moves.Play(
            played,
            self._bonus(turn, t),
            self._colour(turn, t),
            self._target(turn, t),
            self._count(turn, t),
        )
        err = state.refusal(move, p, named=True)
        if err is not None and err.reason not in _CHOICE_REASONS:
            if not state.has_play(p):
                why = "a pass" if state.passes[p] else "a draw"
                raise RecordError(
                    f"{err} {self.names[p]} has no legal play, so the turn is {why}.", t
                )
            raise RecordError(str(err), t)
        self._choice_keys(turn, played, len(played) < state.hand_size(p), t)
        if err is not None:
            raise RecordError(str(err), t)
        state.apply(move)
        self._took(state, turn, t, snatch=played == (SNATCH,))

    def _choice_keys(
        self, turn: dict[str, Any], cards: tuple[Card, ...], keeps_cards: bool, t: int
    ) -> None:
        """Each choice is present exactly when the play needs it."""
        if cards == (SWITCH,):
            needed = {"colour"}
        elif cards == (SNATCH,):
            needed = {"target", "count", "took"}
        elif all(c < FLIP for c in cards) and len(cards) >= BONUS_LENGTH and keeps_cards:
            needed = {"bonus"}
        else:
            needed = set()
        what = " ".join(card_names(cards))
        for key in _CHOICES:
            if key in needed and key not in turn:
                if key == "bonus":
                    raise RecordError(
                        f"The play {what} ({len(cards)} cards, with cards left in hand) earns a "
                        'stacking bonus: add "bonus": "pass" or "skip".',
                        t,
                    )
                raise RecordError(f'The play {what} needs "{key}".', t)
            if key in turn and key not in needed:
                if key == "bonus":
                    why = (
                        "it empties the hand"
                        if not keeps_cards and all(c < FLIP for c in cards)
                        else "only a number play of 3 or more cards that keeps cards in hand "
                        "earns one"
                    )
                    raise RecordError(f'The play {what} earns no "bonus": {why}.', t)
                raise RecordError(f'The play {what} takes no "{key}".', t)

    def _bonus(self, turn: dict[str, Any], t: int) -> str | None:
        bonus = turn.get("bonus")
        if bonus is not None and bonus not in moves.BONUSES:
            raise RecordError(f'"bonus" must be "pass" or "skip", not {as_json(bonus)}.', t)
        return bonus

    def _colour(self, turn: dict[str, Any], t: int) -> int | None:
        if "colour" not in turn:
            return None
        colour = turn["colour"]
        if not isinstance(colour, str) or colour not in ("R", "B", "Y", "G"):
            raise RecordError(f'"colour" must be "R", "B", "Y" or "G", not {as_json(colour)}.', t)
        return COLOUR_LETTERS.index(colour)

    def _target(self, turn: dict[str, Any], t: int) -> int | None:
        if "target" not in turn:
            return None
        target = turn["target"]
        if not isinstance(target, str) or target not in self.names:
            raise RecordError(f'"target" must be one of the players, not {as_json(target)}.', t)
        return self.names.index(target)

    def _count(self, turn: dict[str, Any], t: int) -> int | None:
        if "count" not in turn:
            return None
        count = turn["count"]
        if not _is_int(count):
            raise RecordError(f'"count" must be 1, 2 or 3, not {as_json(count)}.', t)
        return int(count)

    def _took(self, state: StackUpState, turn: dict[str, Any], t: int, *, snatch: bool) -> None:
        if not snatch:
            if "took" in turn:
                raise RecordError('Only a Snatch has "took".', t)
            return
        assert state.phase == SNATCH_CARDS and state.snatch is not None
        target, count = state.snatch
        who = self.names[target]
        took = _card_list(
            turn,
            "took",
            t,
            f'The Snatch needs "took": the {cards_count(count)} that came from {who}\'s hand.',
        )
        if len(took) != count:
            raise RecordError(
                f'"took" must list the {cards_count(count)} the Snatch took, not {len(took)}.', t
            )
        if state.refusal(moves.Took(took)) is not None:
            raise RecordError(
                f'"took" must be {cards_count(count)} of {who}\'s hand ({_listed(state.hand(target))}),'
                f" not {_listed(took)}.",
                t,
            )
        state.apply(moves.Took(took))

    # ------------------------------------------------------------- drawing

    def _reshuffle(self, state: StackUpState, turn: dict[str, Any], t: int, enough: bool) -> None:
        """After a take or a draw: a "reshuffle" exactly when the pile was rebuilt
        (``enough``: the pile held every card the turn drew)."""
        if state.phase != RESHUFFLE:
            if "reshuffle" in turn:
                why = (
                    "the draw pile still held the cards drawn"
                    if enough
                    else "nothing lay below the stack's most recent number card to shuffle"
                )
                raise RecordError(f'This turn has no "reshuffle": {why}.', t)
            return
        below = sorted(state.stack_cards[: state.base])
        cards = _card_list(
            turn,
            "reshuffle",
            t,
            'The draw pile ran out, so the turn needs "reshuffle": the new draw pile, top '
            f"first, made of the {len(below)} cards below the stack's most recent number "
            f"card ({card_name(state.stack_cards[state.base])}).",
        )
        if sorted(cards) != below:
            raise RecordError(
                f'"reshuffle" must hold exactly the {len(below)} cards below the stack\'s most '
                f"recent number card ({card_name(state.stack_cards[state.base])}): "
                f"{_listed(below)}.",
                t,
            )
        state.apply(moves.Reshuffle(cards))

    def _draw(self, state: StackUpState, p: int, turn: dict[str, Any], t: int) -> None:
        how = turn["draw"]
        if how not in ("keep", "play"):
            raise RecordError(f'"draw" must be "keep" or "play", not {as_json(how)}.', t)
        had = state.pile_size
        state.apply(moves.DRAW)
        self._reshuffle(state, turn, t, had >= 1)
        assert state.phase == DRAWN
        card = state.drawn
        if how == "keep":
            extra = [k for k in _CHOICES if k in turn]
            if extra:
                raise RecordError(f'A drawn card that is kept takes no "{extra[0]}".', t)
            state.apply(moves.KEEP)
            return
        if card is None:
            raise RecordError('No card could be drawn, so the turn is "draw": "keep".', t)
        if not state.drawn_playable():
            raise RecordError(
                f"The drawn {card_name(card)} is not a legal play on its own on "
                f'{state.stack_words()}, so the turn is "draw": "keep".',
                t,
            )
        needed = {SWITCH: {"colour"}, SNATCH: {"target", "count", "took"}}.get(card, set())
        for key in _CHOICES:
            if key in needed and key not in turn:
                raise RecordError(f'The drawn {card_name(card)} is played: it needs "{key}".', t)
            if key in turn and key not in needed:
                raise RecordError(f'The drawn {card_name(card)} takes no "{key}".', t)
        move = moves.PlayDrawn(self._colour(turn, t), self._target(turn, t), self._count(turn, t))
        self._refuse(state, move, p, t)
        state.apply(move)
        self._took(state, turn, t, snatch=card == SNATCH)
