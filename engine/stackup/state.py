"""The state of a game of Stack Up!, following ``docs/stackup-rules.md`` to the letter.

A game is a sequence of decisions, each by one seat, and chance outcomes (OpenSpiel's
chance nodes), each one a move of :mod:`engine.stackup.moves`:

``Deal`` (chance) → ``Direction`` (the first player) → turns. A turn is one of

* a :class:`~engine.stackup.moves.Play` (a Snatch then waits for ``Took``, chance);
* under a Crash penalty: ``Block``, or ``Take`` (which may wait for a ``Reshuffle``);
* stuck: ``UsePass``, or ``Draw`` (which may wait for a ``Reshuffle``) then ``PlayDrawn``
  or ``Keep``.

The moves the table plays without asking — a stuck turn (``UsePass``, ``Draw``), keeping
a drawn card that cannot be played, a take by a player who holds no Crash — are ordinary
moves of the seat to act: :meth:`StackUpState.legal_moves` then lists exactly that one
move, and :meth:`StackUpState.automatic` returns it, so a host applies it in a loop.

**Public read API** (for renderers; stable, read-only): :attr:`players`, :attr:`n`,
:attr:`settings`, :attr:`turn_limit`, :attr:`current_player`, :attr:`decision`,
:attr:`phase` (``deal``, ``direction``, ``turn``, ``drawn``, ``reshuffle``, ``snatch``,
``over``), :attr:`chance_kind`, :attr:`is_over`, :meth:`hand` / :meth:`hand_size` /
:attr:`hand_sizes`, :attr:`colour` (0–3: R, B, Y, G), :attr:`number`, :attr:`up` /
:attr:`direction` (``"up"``/``"down"``/``None``), :meth:`stack_words`, :attr:`top_card`,
:attr:`stack_cards`, :attr:`last_play` (:class:`LastPlay`: seat, cards, kind),
:attr:`pile_size`, :attr:`passes` (per seat), :attr:`pending_crash` (a seat or ``None``),
:attr:`turns_taken`, :attr:`turns_left`, :attr:`drawn` (the card a stuck player just
drew: show it to that player only), :attr:`drew_nothing`, :attr:`snatch` (a Snatch's
target and count waiting for its cards), :attr:`first`, :attr:`first_up`, :attr:`deck`,
:attr:`log` (one :class:`LoggedTurn` per finished turn), :meth:`outcome`, :meth:`name`.
The rules as queries: :meth:`legal_on_stack`, :meth:`has_play`, :meth:`plays`,
:meth:`snatch_targets`, :meth:`snatch_counts`, :meth:`drawn_playable`,
:meth:`drawn_plays`, :meth:`legal_moves`, :meth:`automatic`, :meth:`refusal`.
Hands are omniscient here: a renderer shows a hand only to its owner. Nothing else the
state says (``repr``, refusals to a seat not on turn) names a hidden card.
"""

from __future__ import annotations

import random
from bisect import insort
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final, NamedTuple, Self, cast

from pydantic import ValidationError

from engine.echo import cut
from engine.errors import IllegalMoveError, IllegalReason
from engine.game import Decision, Event, GameEnded, Outcome, SetupError, TurnEnded
from engine.native import BLANK
from engine.rating import NoMoveError
from engine.stackup.cards import (
    COLOUR_NAMES,
    COLOUR_OF,
    COLOURS,
    CRASH,
    DECK_SIZE,
    FLIP,
    FREEZE,
    FULL_DECK,
    HIGHEST,
    LOWEST,
    NUMBER_CARDS,
    NUMBER_OF,
    SNATCH,
    SWITCH,
    Card,
    Colour,
    card_name,
    card_names,
    colour_letter,
    is_card,
    parse_card,
    parse_colour_letter,
)
from engine.stackup.moves import (
    BLOCK,
    BONUSES,
    DOWN,
    DRAW,
    KEEP,
    PLAY_DRAWN,
    TAKE,
    UP,
    USE_PASS,
    Block,
    ChanceMove,
    Deal,
    Direction,
    Draw,
    Keep,
    Move,
    Play,
    PlayDrawn,
    PlayerMove,
    Reshuffle,
    Take,
    Took,
    UsePass,
)
from engine.stackup.rules import (
    BONUS_LENGTH,
    HAND_SIZE,
    MAX_PLAYERS,
    MAX_SNATCH,
    MIN_PLAYERS,
    PENALTY_CARDS,
    StackUpSettings,
)

STATE_FORMAT = 1

# Phases: what the game waits for.
DEAL: Final = "deal"  # chance: the shuffled deck and the first player
DIRECTION: Final = "direction"  # the first player chooses up or down
TURN: Final = "turn"  # the start of a turn: a play, block/take, or a stuck turn
DRAWN: Final = "drawn"  # a stuck player drew: play the card alone or keep it
RESHUFFLE: Final = "reshuffle"  # chance: the rebuilt draw pile
SNATCH_CARDS: Final = "snatch"  # chance: the cards a Snatch takes
OVER: Final = "over"
PHASES = (DEAL, DIRECTION, TURN, DRAWN, RESHUFFLE, SNATCH_CARDS, OVER)
_DECISION = {
    DEAL: Decision.CHANCE,
    DIRECTION: Decision.TURN,
    TURN: Decision.TURN,
    DRAWN: Decision.TURN,
    RESHUFFLE: Decision.CHANCE,
    SNATCH_CARDS: Decision.CHANCE,
    OVER: Decision.OVER,
}
_TURN_DECISION: Final = Decision.TURN
_CHANCE_DECISION: Final = Decision.CHANCE
_OVER_DECISION: Final = Decision.OVER
EMPTY_HAND: Final = "empty_hand"
TURN_LIMIT: Final = "turn_limit"
TURN_KINDS = ("play", "block", "take", "pass", "draw")

_NOT_LAST = (FLIP, FREEZE, SNATCH)  # special cards that may not be a player's last card


def _run_plays(bonus: str | None, step: int) -> list[list[Play]]:
    """``table[card][k - 1]``: the number play of ``k`` cards from ``card`` on, stepping
    by ``step`` (1 up, -1 down) in its colour, as far as the numbers go."""
    table = []
    for card in NUMBER_CARDS:
        run = [card]
        while LOWEST <= NUMBER_OF[run[-1]] + step <= HIGHEST:
            run.append(run[-1] + step)
        table.append([Play(tuple(run[:k]), bonus) for k in range(1, len(run) + 1)])
    return table


# Every play a hand can make, made once (listing the legal plays allocates only the list),
# indexed by first card: going up, then going down.
_RUNS_UP: Final = _run_plays(None, 1)
_RUNS_DOWN: Final = _run_plays(None, -1)
_PASS_UP: Final = _run_plays("pass", 1)
_PASS_DOWN: Final = _run_plays("pass", -1)
_SKIP_UP: Final = _run_plays("skip", 1)
_SKIP_DOWN: Final = _run_plays("skip", -1)
_SWITCH_PLAYS: Final = tuple(Play((SWITCH,), colour=k) for k in COLOURS)
_FLIP_PLAY: Final = Play((FLIP,))
_FREEZE_PLAY: Final = Play((FREEZE,))
_CRASH_PLAY: Final = Play((CRASH,))
# _SNATCH_PLAYS[t][k - 1]: a Snatch of k cards from seat t
_SNATCH_PLAYS: Final = tuple(
    tuple(Play((SNATCH,), target=t, count=k) for k in range(1, MAX_SNATCH + 1))
    for t in range(MAX_PLAYERS)
)
_SWITCH_DRAWN: Final = tuple(PlayDrawn(colour=k) for k in COLOURS)
_SNATCH_DRAWN: Final = tuple(
    tuple(PlayDrawn(target=t, count=k) for k in range(1, MAX_SNATCH + 1))
    for t in range(MAX_PLAYERS)
)


_EMPTY: Final[tuple[Card, ...]] = ()
# A finished turn as the log keeps it until it is read: LoggedTurn's fields, in order
# (the first few: the rest are their defaults).
_Fields = tuple[Any, ...]


@dataclass(frozen=True, slots=True)
class LoggedTurn:
    """One finished turn, as the record writes it (seats and cards as integers).

    ``kind`` is ``play``, ``block``, ``take``, ``pass`` or ``draw``. ``cards`` are the cards
    played (public): a play's cards, ``(CRASH,)`` for a block, the drawn card when a
    ``draw`` played it. ``drew`` (the cards drawn) and ``took`` (the cards a Snatch took)
    are hidden from everyone but their new owner: words for all players never name them.
    """

    seat: int
    kind: str
    cards: tuple[Card, ...] = _EMPTY
    bonus: str | None = None
    colour: Colour | None = None
    target: int | None = None
    count: int | None = None
    took: tuple[Card, ...] = _EMPTY
    drew: tuple[Card, ...] = _EMPTY
    reshuffle: tuple[Card, ...] | None = None

    @property
    def skips_next(self) -> bool:
        """Whether this turn skipped the next player (a Freeze or the skip bonus)."""
        return self.bonus == "skip" or self.cards == (FREEZE,)

    def to_dict(self) -> dict[str, Any]:
        data: dict[str, Any] = {"seat": self.seat, "kind": self.kind}
        if self.cards:
            data["cards"] = card_names(self.cards)
        for key in ("bonus", "target", "count"):
            value = getattr(self, key)
            if value is not None:
                data[key] = value
        if self.colour is not None:
            data["colour"] = colour_letter(self.colour)
        if self.took:
            data["took"] = card_names(self.took)
        if self.drew:
            data["drew"] = card_names(self.drew)
        if self.reshuffle is not None:
            data["reshuffle"] = card_names(self.reshuffle)
        return data

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> LoggedTurn:
        colour = data.get("colour")
        reshuffle = data.get("reshuffle")
        kind = data["kind"]
        if kind not in TURN_KINDS:
            raise ValueError(f"unknown turn kind {kind!r}")
        return cls(
            seat=int(data["seat"]),
            kind=kind,
            cards=_cards(data.get("cards", [])),
            bonus=data.get("bonus"),
            colour=None if colour is None else parse_colour_letter(colour),
            target=data.get("target"),
            count=data.get("count"),
            took=_cards(data.get("took", [])),
            drew=_cards(data.get("drew", [])),
            reshuffle=None if reshuffle is None else _cards(reshuffle),
        )


# The events of a turn's end, per seat.
_TURN_ENDED: Final = tuple(TurnEnded(seat) for seat in range(MAX_PLAYERS))
_GAME_ENDED: Final = GameEnded()


class LastPlay(NamedTuple):
    """The most recent cards played onto the stack, and by whom (``block``: a Crash)."""

    seat: int
    cards: tuple[Card, ...]
    kind: str


class _Voice(NamedTuple):
    """Whom a refusal speaks to: the player (``You hold``) or about them (``ben holds``)."""

    who: str  # "You" / "ben" (a sentence's subject)
    whom: str  # "you" / "ben" (inside a sentence)
    whose: str  # "your" / "ben's"
    hold: str  # "hold" / "holds"
    have: str  # "have" / "has"
    are: str  # "are" / "is"
    were: str  # "were" / "was"


_YOU = _Voice("You", "you", "your", "hold", "have", "are", "were")


def _cards(raw: Sequence[str]) -> tuple[Card, ...]:
    return tuple(parse_card(name) for name in raw)


def _a(number: int) -> str:
    """The article before a number said aloud: "an 8", "an 11", "a 5"."""
    return "an" if str(number).startswith("8") or number in (11, 18) else "a"


def cards_count(count: int) -> str:
    """``1 card``, ``3 cards``: a count of cards with the right plural."""
    return f"{count} card" if count == 1 else f"{count} cards"


def stack_words(colour: Colour, number: int, up: bool | None) -> str:
    """``Red 5 going up``: the stack's state in words."""
    way = "" if up is None else (" going up" if up else " going down")
    return f"{COLOUR_NAMES[colour]} {number}{way}"


# the attributes of a state (its __slots__), which copy() copies
_SLOTS = (
    "_cooked",
    "_drawing",
    "_drew",
    "_entry",
    "_limit",
    "_made",
    "_reshuffled",
    "_sampled",
    "_to_draw",
    "base",
    "colour",
    "crash",
    "deck",
    "drawn",
    "ended_by",
    "first",
    "first_up",
    "hands",
    "_log",
    "n",
    "number",
    "passes",
    "phase",
    "pile",
    "players",
    "seat",
    "settings",
    "snatch",
    "stack",
    "turns",
    "up",
    "winners",
)


class StackUpState:
    """A game of Stack Up!: hands, stack, draw pile, whose turn and what they must decide.

    ``apply`` takes player moves and chance outcomes alike and returns the events they
    caused; a refused move raises :class:`~engine.errors.IllegalMoveError` and changes
    nothing. ``sample_chance`` draws the pending chance outcome from an injected RNG.
    """

    __slots__ = _SLOTS

    players: tuple[str, ...]
    settings: StackUpSettings
    n: int
    phase: str
    seat: int | None  # whose turn it is (also during its chance outcomes)
    deck: tuple[Card, ...] | None
    first: int | None
    up: bool | None
    first_up: bool | None  # the first player's choice of direction (the record's)
    hands: list[list[Card]]  # each kept sorted
    pile: list[Card]  # the draw pile, top LAST (pop() draws)
    stack: list[Card]  # the stack, bottom first
    base: int  # index in ``stack`` of its most recent number card
    colour: Colour
    number: int
    passes: list[int]
    crash: int | None  # the seat a Crash penalty is pending on
    turns: int
    drawn: Card | None  # the card a stuck player drew (phase DRAWN)
    snatch: tuple[int, int] | None  # a Snatch's target and count, waiting for ``Took``
    # the finished turns: each a LoggedTurn, or (after index _cooked) the tuple of its
    # fields, made a LoggedTurn when :attr:`log` is read (self-play never reads it)
    _log: list[Any]
    _cooked: int
    _limit: int  # the settings' turn limit
    winners: tuple[int, ...] | None
    ended_by: str | None
    _entry: dict[str, Any] | None  # the turn being played (spanning a chance outcome)
    _drew: list[Card]  # cards drawn so far this turn
    # the moves legal_moves / automatic listed for the state as it is (None: not yet)
    _made: list[PlayerMove] | None
    _sampled: ChanceMove | None  # the chance outcome sample_chance drew for it
    _reshuffled: tuple[Card, ...] | None  # this turn's rebuilt pile
    _to_draw: int  # cards still to draw after a reshuffle
    _drawing: str | None  # "take" or "draw": why cards are being drawn

    def __init__(self, players: Sequence[str], settings: StackUpSettings | None = None) -> None:
        """Seat ``players`` (clockwise) under ``settings``; the game waits for its ``Deal``."""
        if players is BLANK:
            return  # copy() and from_dict() fill it in
        players = tuple(players)
        check_players(players)
        self.players = players
        self.settings = settings or StackUpSettings()
        self._limit = self.settings.turn_limit
        self.n = len(players)
        self.phase = DEAL
        self.seat = None
        self.deck = None
        self.first = None
        self.up = None
        self.first_up = None
        self.hands = [[] for _ in players]
        self.pile = list(reversed(FULL_DECK))
        self.stack = []
        self.base = 0
        self.colour = 0
        self.number = 0
        self.passes = [0] * self.n
        self.crash = None
        self.turns = 0
        self.drawn = None
        self.snatch = None
        self._made = None
        self._sampled = None
        self._log = []
        self._cooked = 0
        self.winners = None
        self.ended_by = None
        self._entry = None
        self._drew = []
        self._reshuffled = None
        self._to_draw = 0
        self._drawing = None

    # ----------------------------------------------------------------- public queries

    @property
    def current_player(self) -> int | None:
        """The seat that must decide now; ``None`` at a chance outcome and after the end."""
        phase = self.phase
        if phase in (TURN, DRAWN, DIRECTION):
            return self.seat
        return None

    @property
    def decision(self) -> Decision:
        phase = self.phase
        if phase in (TURN, DRAWN, DIRECTION):
            return _TURN_DECISION
        return _CHANCE_DECISION if phase != OVER else _OVER_DECISION

    @property
    def is_over(self) -> bool:
        return self.phase == OVER

    @property
    def chance_kind(self) -> str | None:
        """At a chance outcome, which: ``deal``, ``reshuffle`` or ``snatch``."""
        return self.phase if _DECISION[self.phase] is Decision.CHANCE else None

    @property
    def turn_limit(self) -> int:
        return self.settings.turn_limit

    @property
    def turns_taken(self) -> int:
        """Turns taken so far (skipped turns and the choice of direction are not turns)."""
        return self.turns

    @property
    def turns_left(self) -> int:
        """Turns still to be taken before the turn limit ends the game."""
        return max(0, self.settings.turn_limit - self.turns)

    @property
    def direction(self) -> str | None:
        """``"up"``, ``"down"``, or ``None`` before the first player has chosen."""
        return None if self.up is None else ("up" if self.up else "down")

    @property
    def top_card(self) -> Card | None:
        """The card on top of the stack (``None`` before the deal)."""
        return self.stack[-1] if self.stack else None

    @property
    def stack_cards(self) -> tuple[Card, ...]:
        """The stack, bottom first (all of it is face up)."""
        return tuple(self.stack)

    @property
    def pile_size(self) -> int:
        return len(self.pile) if self.deck is not None else 0

    @property
    def pending_crash(self) -> int | None:
        """The seat a Crash penalty waits on, if any."""
        return self.crash

    @property
    def hand_sizes(self) -> tuple[int, ...]:
        return tuple(len(h) for h in self.hands)

    @property
    def drew_nothing(self) -> bool:
        """In phase ``drawn``: whether the draw found no card at all."""
        return self.phase == DRAWN and self.drawn is None

    @property
    def log(self) -> list[LoggedTurn]:
        """The finished turns, first first (one :class:`LoggedTurn` each). The list is the
        state's own and turns are made :class:`LoggedTurn` as it is read: read it again
        after a move rather than keeping it (self-play that never reads it pays nothing)."""
        log = self._log
        size = len(log)
        for i in range(self._cooked, size):
            fields = log[i]
            if type(fields) is tuple:
                log[i] = LoggedTurn(*fields)
        self._cooked = size
        return log

    @log.setter
    def log(self, turns: list[LoggedTurn]) -> None:
        self._log = cast(list[Any], turns)
        self._cooked = len(turns)

    @property
    def last_play(self) -> LastPlay | None:
        """The most recent cards played onto the stack and by whom (``None`` before any)."""
        entry = self._entry
        if entry is not None and entry.get("cards"):
            return LastPlay(entry["seat"], entry["cards"], entry["kind"])
        for turn in reversed(self.log):
            if turn.cards:
                return LastPlay(turn.seat, turn.cards, turn.kind)
        return None

    def hand(self, seat: int) -> tuple[Card, ...]:
        """``seat``'s cards, sorted (R, B, Y, G by number, then the specials)."""
        return tuple(self.hands[seat])

    def hand_size(self, seat: int) -> int:
        return len(self.hands[seat])

    def name(self, seat: int) -> str:
        return self.players[seat]

    def stack_words(self) -> str:
        """The stack's state in words: ``Red 5 going up``."""
        return stack_words(self.colour, self.number, self.up)

    def outcome(self) -> Outcome | None:
        """Who won and how, once the game is over (scores: cards left in each hand)."""
        if self.winners is None or self.ended_by is None:
            return None
        return Outcome(self.winners, self.hand_sizes, self.ended_by, higher_wins=False)

    def __repr__(self) -> str:
        # Public words only: hand sizes, never cards in hand.
        return (
            f"<StackUpState {self.phase} seat={self.seat} turns={self.turns} "
            f"hands={list(self.hand_sizes)} pile={self.pile_size}>"
        )

    # ----------------------------------------------------------------- the rules

    def legal_on_stack(self, card: Card) -> bool:
        """Whether number card ``card`` may start a play on the stack as it stands."""
        if COLOUR_OF[card] == self.colour:
            return True
        return NUMBER_OF[card] == self.number + (1 if self.up else -1)

    def snatch_targets(self, seat: int) -> list[int]:
        """The players ``seat`` may name for a Snatch (at least 2 cards), clockwise."""
        n, hands = self.n, self.hands
        return [t for i in range(1, n) if len(hands[t := (seat + i) % n]) >= 2]

    def snatch_counts(self, target: int) -> tuple[int, ...]:
        """How many cards a Snatch may take from ``target``: 1–3, or only 1 (2–3 cards)."""
        size = len(self.hands[target])
        if size >= 4:
            return tuple(range(1, MAX_SNATCH + 1))
        return (1,) if size >= 2 else ()

    def has_play(self, seat: int) -> bool:
        """Whether ``seat`` has a legal play (is not stuck)."""
        hand = self.hands[seat]
        colour = self.colour
        wanted = self.number + (1 if self.up else -1)
        last = len(hand) == 1
        for c in hand:
            if c < FLIP:
                if COLOUR_OF[c] == colour or NUMBER_OF[c] == wanted:
                    return True
            elif c in (SWITCH, CRASH) or (not last and (c != SNATCH or self.snatch_targets(seat))):
                return True
        return False

    def plays(self, seat: int) -> list[Play]:
        """Every legal play of ``seat`` from hand, each with every choice it needs.

        Number plays by first card (hand order) then length, a bonus play as ``pass``
        then ``skip``; then the special cards in order, Snatch targets clockwise and counts
        rising, Switch colours R, B, Y, G.
        """
        out: list[Play] = []
        self._add_plays(seat, cast(list[PlayerMove], out))
        return out

    def _add_plays(self, seat: int, out: list[PlayerMove]) -> None:
        """Append :meth:`plays` to ``out``."""
        hand = self.hands[seat]
        size = len(hand)
        colour = self.colour
        if self.up:
            step = 1
            runs, passes, skips = _RUNS_UP, _PASS_UP, _SKIP_UP
        else:
            step = -1
            runs, passes, skips = _RUNS_DOWN, _PASS_DOWN, _SKIP_DOWN
        wanted = self.number + step
        colour_of = COLOUR_OF
        number_of = NUMBER_OF
        previous = -1
        for i, c in enumerate(hand):  # number cards first, then the special cards
            if c < FLIP:
                if colour_of[c] != colour and number_of[c] != wanted:
                    continue
                plain = runs[c]
                # the run from c on: the hand is sorted and holds each number card once,
                # so c + step, if held, sits right after c going up (before it, down)
                longest = len(plain)
                k = 1
                at = i + step
                while k < longest and 0 <= at < size and hand[at] == c + k * step:
                    k += 1
                    at += step
                if k < BONUS_LENGTH:
                    for j in range(k):
                        out.append(plain[j])
                else:
                    out.append(plain[0])
                    out.append(plain[1])
                    passing = passes[c]
                    skipping = skips[c]
                    for j in range(BONUS_LENGTH - 1, k):
                        if j + 1 < size:
                            out.append(passing[j])
                            out.append(skipping[j])
                        else:
                            out.append(plain[j])
                continue
            if c == previous:
                continue
            previous = c
            if c == SWITCH:
                for k in COLOURS:
                    if k != colour:
                        out.append(_SWITCH_PLAYS[k])
            elif c == CRASH:
                out.append(_CRASH_PLAY)
            elif size > 1:
                if c == SNATCH:
                    self._add_snatches(seat, out)
                elif c == FLIP:
                    out.append(_FLIP_PLAY)
                else:
                    out.append(_FREEZE_PLAY)

    def _add_snatches(self, seat: int, out: list[PlayerMove]) -> None:
        """Append every Snatch ``seat`` may play: targets clockwise, counts rising."""
        n, hands = self.n, self.hands
        t = seat
        for _ in range(n - 1):
            t += 1
            if t == n:
                t = 0
            size = len(hands[t])
            if size >= 2:
                snatches = _SNATCH_PLAYS[t]
                out.append(snatches[0])
                if size >= 4:
                    for k in range(1, MAX_SNATCH):
                        out.append(snatches[k])

    def drawn_playable(self) -> bool:
        """In phase ``drawn``: whether the drawn card is a legal play on its own."""
        card = self.drawn
        if card is None or self.phase != DRAWN:
            return False
        if card < FLIP:
            return self.legal_on_stack(card)
        if card == SNATCH:
            assert self.seat is not None
            return bool(self.snatch_targets(self.seat))
        return True  # with the drawn card in hand the hand has 2+ cards

    def drawn_plays(self) -> list[PlayDrawn]:
        """The ways to play the drawn card, when it is a legal play on its own."""
        if not self.drawn_playable():
            return []
        card = self.drawn
        assert card is not None and self.seat is not None
        if card == SWITCH:
            return [_SWITCH_DRAWN[k] for k in COLOURS if k != self.colour]
        if card == SNATCH:
            return [
                _SNATCH_DRAWN[t][k - 1]
                for t in self.snatch_targets(self.seat)
                for k in self.snatch_counts(t)
            ]
        return [PLAY_DRAWN]

    def legal_moves(self) -> list[PlayerMove]:
        """Every complete legal decision of the seat to act, distinct, in a fixed order
        (empty at a chance outcome and after the game)."""
        made = self._made
        if made is None:
            made = self._made = self._list_moves()
        return list(made)

    def _list_moves(self) -> list[PlayerMove]:
        phase, p = self.phase, self.seat
        if p is None:
            return []
        if phase == TURN:
            crash = self.crash
            if crash is not None and crash == p:
                return [BLOCK, TAKE] if CRASH in self.hands[p] else [TAKE]
            plays: list[PlayerMove] = []
            self._add_plays(p, plays)
            if plays:
                return plays
            return [USE_PASS] if self.passes[p] else [DRAW]
        if phase == DRAWN:
            drawn: list[PlayerMove] = list(self.drawn_plays())
            drawn.append(KEEP)
            return drawn
        if phase == DIRECTION:
            return [UP, DOWN]
        return []

    def automatic(self) -> PlayerMove | None:
        """The move the table plays now without asking, or ``None``.

        A stuck turn (``UsePass`` or ``Draw``), keeping a drawn card that cannot be played
        (or no card at all), and a take by a player who holds no Crash: each the only legal
        move of its decision (the moves listed here are kept for :meth:`legal_moves`).
        """
        made = self._made
        if made is None:
            made = self._made = self._list_moves()
        if len(made) == 1:
            # the only moves listed alone are these shared ones, or a single play
            move = made[0]
            if move is TAKE or move is USE_PASS or move is DRAW or move is KEEP:
                return move
        return None

    def random_move(self, rng: random.Random) -> PlayerMove:
        """A legal move of the seat to act, uniformly at random (the ``random`` AI's
        choice): ``rng.random()`` scaled to the number of moves, drawn only when there is
        a choice. :class:`~engine.rating.NoMoveError` when there is no decision."""
        made = self._made
        if made is None:
            made = self._made = self._list_moves()
        count = len(made)
        if count > 1:
            return made[int(rng.random() * count)]
        if count == 1:
            return made[0]
        raise NoMoveError("There is no move to choose.")

    def is_legal(self, move: Move) -> bool:
        return self.refusal(move) is None

    def check(self, move: Move, *, by: int | None = None) -> None:
        """Raise the :class:`IllegalMoveError` that says why ``move`` (asked by seat ``by``)
        cannot be applied now; return when it can."""
        err = self.refusal(move, by)
        if err is not None:
            raise err

    # ----------------------------------------------------------------- refusals

    def refusal(
        self, move: Move, by: int | None = None, *, named: bool = False
    ) -> IllegalMoveError | None:
        """Why ``move`` cannot be applied now, or ``None`` when it can.

        The message speaks to the player (``You hold no R7.``), or with ``named`` about
        them (``ben holds no R7.``, for a record checker). Nothing is said about another
        player's hand: who may not move is told so before anything else.
        """
        phase = self.phase
        if phase == OVER:
            return IllegalMoveError("The game is over.", IllegalReason.GAME_OVER)
        if isinstance(move, Deal | Took | Reshuffle):
            return self._chance_refusal(move, by)
        if _DECISION[phase] is Decision.CHANCE:
            what = {
                DEAL: "the cards are dealt",
                RESHUFFLE: "the draw pile is rebuilt",
                SNATCH_CARDS: "the Snatch takes its cards",
            }[phase]
            return IllegalMoveError(f"Nobody can move while {what}.", IllegalReason.WRONG_DECISION)
        p = self.seat
        assert p is not None
        if by is not None and by != p:
            return IllegalMoveError(f"It's {self.players[p]}'s turn.", IllegalReason.NOT_YOUR_TURN)
        voice = self._voice(p, named)
        if phase == DIRECTION:
            if isinstance(move, Direction) and type(move.up) is bool:
                return None
            return IllegalMoveError(
                f"First {voice.whom} must choose the direction: up or down.",
                IllegalReason.WRONG_DECISION,
            )
        if isinstance(move, Direction):
            return IllegalMoveError(
                "The direction was chosen at the start; only a Flip reverses it.",
                IllegalReason.WRONG_DECISION,
            )
        if phase == DRAWN:
            return self._drawn_refusal(move, p, voice)
        return self._turn_refusal(move, p, voice)

    def _voice(self, seat: int, named: bool) -> _Voice:
        if not named:
            return _YOU
        name = self.players[seat]
        return _Voice(name, name, f"{name}'s", "holds", "has", "is", "was")

    def _turn_refusal(self, move: Move, p: int, voice: _Voice) -> IllegalMoveError | None:
        wrong = IllegalReason.WRONG_DECISION
        hand = self.hands[p]
        if self.crash == p:
            if isinstance(move, Take):
                return None
            if isinstance(move, Block):
                if CRASH in hand:
                    return None
                return IllegalMoveError(
                    f"{voice.who} {voice.hold} no Crash to block with.",
                    IllegalReason.CARD_NOT_HELD,
                )
            return IllegalMoveError(
                f"A Crash penalty is on {voice.whom}: block it with a Crash or take "
                f"{PENALTY_CARDS} cards, and nothing else.",
                wrong,
            )
        if isinstance(move, Block | Take):
            return IllegalMoveError("There is no Crash penalty to block or take.", wrong)
        if isinstance(move, Keep | PlayDrawn):
            return IllegalMoveError(f"{voice.who} {voice.have} not drawn a card.", wrong)
        if isinstance(move, UsePass | Draw):
            if self.has_play(p):
                return IllegalMoveError(
                    f"{voice.who} {voice.have} a legal play, so {voice.whom} must play: only a "
                    "stuck player draws or uses a draw pass.",
                    wrong,
                )
            if isinstance(move, UsePass):
                if self.passes[p]:
                    return None
                return IllegalMoveError(
                    f"{voice.who} {voice.hold} no draw pass, so the stuck turn draws a card.",
                    wrong,
                )
            if self.passes[p]:
                return IllegalMoveError(
                    f"{voice.who} {voice.hold} a draw pass, which is used instead of drawing.",
                    wrong,
                )
            return None
        if not isinstance(move, Play):
            return IllegalMoveError(f"{move!r} is not a move of Stack Up!.", wrong)
        return self._play_refusal(move, p, voice)

    def _play_refusal(self, move: Play, p: int, voice: _Voice) -> IllegalMoveError | None:
        cards = move.cards
        combo = IllegalReason.BAD_COMBO
        if not isinstance(cards, tuple) or not cards:
            return IllegalMoveError("A play needs at least one card.", combo)
        for c in cards:
            if not is_card(c):
                return IllegalMoveError(f"{c!r} is not a card.", combo)
        hand = self.hands[p]
        left = list(hand)
        for c in cards:
            try:
                left.remove(c)
            except ValueError:
                if c in hand:
                    return IllegalMoveError(
                        f"{voice.who} {voice.hold} only {hand.count(c)} {card_name(c)}.",
                        IllegalReason.CARD_NOT_HELD,
                    )
                return IllegalMoveError(
                    f"{voice.who} {voice.hold} no {card_name(c)}.", IllegalReason.CARD_NOT_HELD
                )
        if len(cards) > 1 and any(c >= FLIP for c in cards):
            return IllegalMoveError(
                "A special card is played alone, never with other cards.", combo
            )
        if cards[0] >= FLIP:
            if move.bonus is not None:
                return IllegalMoveError(
                    "Only a number play of 3 or more cards earns a bonus.",
                    IllegalReason.EXTRA_CHOICE,
                )
            return self._single_refusal(
                cards[0], p, move.colour, move.target, move.count, voice, last=not left
            )
        if move.colour is not None or move.target is not None or move.count is not None:
            return IllegalMoveError(
                "A number play names no colour, player or count.", IllegalReason.EXTRA_CHOICE
            )
        first = cards[0]
        if not self.legal_on_stack(first):
            return IllegalMoveError(self._why_not_on_stack(first), IllegalReason.NOT_ON_STACK)
        step = 1 if self.up else -1
        colour = COLOUR_OF[first]
        prev = first
        for c in cards[1:]:
            if COLOUR_OF[c] != colour:
                return IllegalMoveError(
                    f"Every card of a play has the colour of its first card: {card_name(c)} "
                    f"is not {COLOUR_NAMES[colour].lower()}.",
                    combo,
                )
            if NUMBER_OF[c] != NUMBER_OF[prev] + step:
                way = "up" if self.up else "down"
                after = NUMBER_OF[prev] + step
                follows = f"{card_name(prev + step)}" if LOWEST <= after <= HIGHEST else "nothing"
                return IllegalMoveError(
                    f"After {card_name(prev)} going {way} comes {follows}, not {card_name(c)}.",
                    combo,
                )
            prev = c
        needs_bonus = len(cards) >= BONUS_LENGTH and bool(left)
        if move.bonus is None:
            if needs_bonus:
                return IllegalMoveError(
                    f"A play of {len(cards)} cards that keeps cards in {voice.whose} hand "
                    "earns a stacking bonus: choose pass or skip.",
                    IllegalReason.MISSING_CHOICE,
                )
            return None
        if not needs_bonus:
            why = "it empties the hand and wins" if not left else "it has fewer than 3 cards"
            return IllegalMoveError(f"That play earns no bonus: {why}.", IllegalReason.EXTRA_CHOICE)
        if move.bonus not in BONUSES:
            return IllegalMoveError(
                f"The bonus is pass or skip, not {move.bonus!r}.", IllegalReason.BAD_CHOICE
            )
        return None

    def _why_not_on_stack(self, card: Card) -> str:
        colour = COLOUR_NAMES[self.colour].lower()
        wanted = self.number + (1 if self.up else -1)
        if LOWEST <= wanted <= HIGHEST:
            need = f"a {colour} card or {_a(wanted)} {wanted}"
        else:
            need = f"a {colour} card (nothing goes {'above 15' if self.up else 'below 1'})"
        return f"{card_name(card)} is not legal on {self.stack_words()}: it takes {need}."

    def _single_refusal(
        self,
        card: Card,
        p: int,
        colour: Colour | None,
        target: int | None,
        count: int | None,
        voice: _Voice,
        *,
        last: bool,
    ) -> IllegalMoveError | None:
        """Why one special card (from hand or drawn) with these choices is not a legal play."""
        extra = IllegalReason.EXTRA_CHOICE
        bad = IllegalReason.BAD_CHOICE
        name = card_name(card)
        if last and card in _NOT_LAST:
            return IllegalMoveError(
                f"A {name} may not be {voice.whose} last card.", IllegalReason.LAST_CARD
            )
        if card == SWITCH:
            if target is not None or count is not None:
                return IllegalMoveError("A Switch names a colour, not a player.", extra)
            if colour is None:
                return IllegalMoveError(
                    "Name the Switch's new colour (not "
                    f"{COLOUR_NAMES[self.colour]}, the stack's colour).",
                    IllegalReason.MISSING_CHOICE,
                )
            if colour not in COLOURS or type(colour) is not int:
                return IllegalMoveError(f"{colour!r} is not a colour.", bad)
            if colour == self.colour:
                return IllegalMoveError(
                    f"A Switch must change the colour: the stack is already "
                    f"{COLOUR_NAMES[colour]}.",
                    bad,
                )
            return None
        if colour is not None:
            return IllegalMoveError(f"A {name} names no colour.", extra)
        if card != SNATCH:
            if target is not None or count is not None:
                return IllegalMoveError(f"A {name} names no player or count.", extra)
            return None
        targets = self.snatch_targets(p)
        if not targets:
            return IllegalMoveError(
                "A Snatch needs another player holding at least 2 cards, and nobody does.",
                IllegalReason.NOT_ON_STACK,
            )
        if target is None:
            return IllegalMoveError(
                "Name the player to snatch from: "
                + ", ".join(self.players[t] for t in targets)
                + ".",
                IllegalReason.MISSING_CHOICE,
            )
        if type(target) is not int or not 0 <= target < self.n:
            return IllegalMoveError(f"There is no seat {target!r}.", bad)
        if target == p:
            return IllegalMoveError(
                f"A Snatch takes cards from another player, not from {voice.whom}.", bad
            )
        who = self.players[target]
        if target not in targets:
            return IllegalMoveError(
                f"{who} holds only 1 card; a Snatch needs a player holding at least 2.", bad
            )
        counts = self.snatch_counts(target)
        allowed = "exactly 1 card" if counts == (1,) else "1, 2 or 3 cards"
        if count is None:
            return IllegalMoveError(
                f"Say how many cards to snatch from {who}: {allowed}.",
                IllegalReason.MISSING_CHOICE,
            )
        if type(count) is not int or count not in counts:
            return IllegalMoveError(
                f"From {who} ({len(self.hands[target])} cards) a Snatch takes {allowed}, "
                f"not {cut(str(count)) if type(count) is int else repr(count)}.",
                bad,
            )
        return None

    def _drawn_refusal(self, move: Move, p: int, voice: _Voice) -> IllegalMoveError | None:
        if isinstance(move, Keep):
            return None
        card = self.drawn
        if not isinstance(move, PlayDrawn) or card is None:
            what = (
                "no card could be drawn: there is nothing to play, so keep"
                if card is None
                else "drew a card: play it alone, or keep it"
            )
            return IllegalMoveError(
                f"{voice.who} {voice.were} stuck and {what}.", IllegalReason.WRONG_DECISION
            )
        if card < FLIP:
            if not self.legal_on_stack(card):
                return IllegalMoveError(
                    self._why_not_on_stack(card) + " Keep it.", IllegalReason.NOT_ON_STACK
                )
            if move.colour is not None or move.target is not None or move.count is not None:
                return IllegalMoveError(
                    "A number card names no colour, player or count.", IllegalReason.EXTRA_CHOICE
                )
            return None
        return self._single_refusal(
            card, p, move.colour, move.target, move.count, voice, last=False
        )

    def _chance_refusal(self, move: ChanceMove, by: int | None) -> IllegalMoveError | None:
        bad = IllegalReason.BAD_OUTCOME
        if by is not None:
            return IllegalMoveError(
                "Chance outcomes are drawn by the table, not played.",
                IllegalReason.WRONG_DECISION,
            )
        if isinstance(move, Deal):
            if self.phase != DEAL:
                return IllegalMoveError("The cards have already been dealt.", bad)
            return deal_refusal(move.deck, move.first, self.n)
        if isinstance(move, Reshuffle):
            if self.phase != RESHUFFLE:
                return IllegalMoveError("No draw pile is waiting to be rebuilt.", bad)
            if not isinstance(move.cards, tuple) or not all(is_card(c) for c in move.cards):
                return IllegalMoveError("A reshuffle is a list of cards.", bad)
            below = self.stack[: self.base]
            if sorted(move.cards) != sorted(below):
                return IllegalMoveError(
                    f"The rebuilt draw pile must hold exactly the {len(below)} cards below the "
                    f"stack's most recent number card ({card_name(self.stack[self.base])}).",
                    bad,
                )
            return None
        if self.phase != SNATCH_CARDS or self.snatch is None:
            return IllegalMoveError("No Snatch is waiting for its cards.", bad)
        target, count = self.snatch
        who = self.players[target]
        if not isinstance(move.cards, tuple) or len(move.cards) != count:
            return IllegalMoveError(f"The Snatch takes {cards_count(count)} from {who}.", bad)
        left = list(self.hands[target])
        for c in move.cards:
            if not is_card(c) or c not in left:
                return IllegalMoveError(f"The snatched cards must come from {who}'s hand.", bad)
            left.remove(c)
        return None

    # ----------------------------------------------------------------- applying moves

    def apply(self, move: Move, *, by: int | None = None) -> list[Event]:
        """Play ``move`` (a player's decision or a chance outcome) and return what happened.

        ``by``, when given, is the seat asking; anyone but the seat to act is refused.
        Raises :class:`IllegalMoveError` and changes nothing when the move is not legal now.
        """
        # A move the engine made for this very state (listed by legal_moves or automatic,
        # or drawn by sample_chance) is legal: only the seat asking is checked.
        made = self._made
        trusted = by is None and move is self._sampled
        seat = self.seat
        if not trusted and made is not None and (by is None or (seat is not None and by == seat)):
            for listed in made:
                if listed is move:
                    trusted = True
                    break
            else:
                trusted = move in made
        if not trusted:
            err = self.refusal(move, by)
            if err is not None:
                raise err
        self._made = None
        self._sampled = None
        kind = type(move)
        p = self.seat
        if kind is Play:
            assert isinstance(move, Play) and p is not None
            return self._play(p, move)
        if kind is Deal:
            assert isinstance(move, Deal)
            self._deal(move.deck, move.first)
            return []
        if kind is Direction:
            assert isinstance(move, Direction)
            self.up = self.first_up = move.up
            self.phase = TURN
            return []
        assert p is not None
        if kind is Take:
            self._entry = {"seat": p, "kind": "take"}
            self._drawing = "take"
            if not self._draw(p, PENALTY_CARDS):
                return []
            return self._end_turn(p)
        if kind is Block:
            self.hands[p].remove(CRASH)
            self.stack.append(CRASH)
            return self._end_turn(p, (p, "block", (CRASH,)), blocked=True)
        if kind is UsePass:
            self.passes[p] -= 1
            return self._end_turn(p, (p, "pass"))
        if kind is Draw:
            self._entry = {"seat": p, "kind": "draw"}
            self._drawing = "draw"
            if self._draw(p, 1):
                self._drawn()
            return []
        if kind is Keep:
            self.drawn = None
            self.phase = TURN
            return self._end_turn(p)
        if kind is PlayDrawn:
            assert isinstance(move, PlayDrawn)
            card = self.drawn
            assert card is not None
            self.drawn = None
            self.phase = TURN
            self.hands[p].remove(card)
            entry = self._entry
            assert entry is not None
            entry["cards"] = (card,)
            return self._play_cards(p, (card,), None, move.colour, move.target, move.count, None)
        if kind is Reshuffle:
            assert isinstance(move, Reshuffle)
            self._rebuild(move.cards)
            drawing = self._drawing
            self._draw(p, self._to_draw)
            if drawing == "take":
                self.phase = TURN
                return self._end_turn(p)
            self._drawn()
            return []
        assert isinstance(move, Took) and self.snatch is not None
        target, _ = self.snatch
        self.snatch = None
        for c in move.cards:
            self.hands[target].remove(c)
            insort(self.hands[p], c)
        entry = self._entry
        assert entry is not None
        entry["took"] = move.cards
        self.phase = TURN
        return self._end_turn(p)

    def sample_chance(self, rng: random.Random) -> ChanceMove:
        """The pending chance outcome drawn from ``rng`` (not applied).

        A deal picks the first player, then shuffles until the deal leaves a number card
        to start the stack; a Snatch takes random cards of its target's hand; a reshuffle
        is the rebuilt pile in a random order.
        """
        outcome = self._sampled = self._sample(rng)
        return outcome

    def _sample(self, rng: random.Random) -> ChanceMove:
        phase = self.phase
        if phase == SNATCH_CARDS:
            assert self.snatch is not None
            target, count = self.snatch
            return Took(tuple(_sample(rng, self.hands[target], count)))
        if phase == RESHUFFLE:
            cards = self.stack[: self.base]
            _shuffle(rng, cards)
            return Reshuffle(tuple(cards))
        if phase == DEAL:
            first = _below(rng, self.n)
            deck = list(FULL_DECK)
            dealt = HAND_SIZE * self.n
            while True:
                _shuffle(rng, deck)
                for c in deck[dealt:]:
                    if c < FLIP:
                        return Deal(tuple(deck), first)
        raise IllegalMoveError("No chance outcome is due.", IllegalReason.BAD_OUTCOME)

    # ----------------------------------------------------------------- mechanics

    def _deal(self, deck: tuple[Card, ...], first: int) -> None:
        n = self.n
        dealt = HAND_SIZE * n
        # card k goes to seat (first + k) % n: seat s gets every n-th card from its own
        hands = [sorted(deck[(s - first) % n : dealt : n]) for s in range(n)]
        rest = list(deck[dealt:])
        buried: list[Card] = []
        i = 0
        while rest[i] >= FLIP:
            buried.append(rest[i])
            i += 1
        start = rest[i]
        pile_top_first = rest[i + 1 :] + buried
        self.deck = tuple(deck)
        self.first = first
        self.seat = first
        self.hands = hands
        self.pile = pile_top_first[::-1]
        self.stack = [start]
        self.base = 0
        self.colour = COLOUR_OF[start]
        self.number = NUMBER_OF[start]
        self.phase = DIRECTION

    def _draw(self, p: int, count: int) -> bool:
        """Draw up to ``count`` cards into ``p``'s hand; ``False`` when a reshuffle must
        come first (the phase is then ``reshuffle``)."""
        pile, hand = self.pile, self.hands[p]
        while count:
            if not pile:
                if self.base and self._reshuffled is None:
                    self._to_draw = count
                    self.phase = RESHUFFLE
                    return False
                break  # nothing to rebuild the pile from: the draw is lost
            card = pile.pop()
            insort(hand, card)
            self._drew.append(card)
            count -= 1
        self._to_draw = 0
        return True

    def _rebuild(self, cards: tuple[Card, ...]) -> None:
        """The pile is rebuilt from the cards below the stack's most recent number card."""
        self.pile = list(reversed(cards))
        del self.stack[: self.base]
        self.base = 0
        self._reshuffled = cards
        self.phase = TURN

    def _drawn(self) -> None:
        """A stuck player's draw is done: the drawn card (if any) waits to be played or kept."""
        self.drawn = self._drew[-1] if self._drew else None
        self.phase = DRAWN

    def _play(self, p: int, move: Play) -> list[Event]:
        hand = self.hands[p]
        cards = move.cards
        if len(cards) == 1:
            hand.remove(cards[0])
        else:
            # a run of one colour (a legal play): side by side in the sorted hand
            first, last = cards[0], cards[-1]
            at = hand.index(first if first < last else last)
            del hand[at : at + len(cards)]
        turn: _Fields | None = None
        if cards[0] != SNATCH:
            # a whole turn (a Snatch's waits for its cards): a legal play names a colour
            # only for a Switch and a bonus only for a number play
            turn = (p, "play", cards, move.bonus, move.colour)
        else:
            self._entry = {"seat": p, "kind": "play", "cards": cards}
        return self._play_cards(p, cards, move.bonus, move.colour, move.target, move.count, turn)

    def _play_cards(
        self,
        p: int,
        cards: tuple[Card, ...],
        bonus: str | None,
        colour: Colour | None,
        target: int | None,
        count: int | None,
        turn: _Fields | None,
    ) -> list[Event]:
        """Put ``cards`` (already out of ``p``'s hand) on the stack, with their effects;
        ``turn``: the turn as logged, or ``None`` for the turn being played (``_entry``)."""
        stack = self.stack
        stack.extend(cards)
        first = cards[0]
        if first < FLIP:
            last = cards[-1]
            self.colour = COLOUR_OF[last]
            self.number = NUMBER_OF[last]
            self.base = len(stack) - 1
            if turn is None and bonus is not None:
                entry = self._entry
                assert entry is not None
                entry["bonus"] = bonus
            return self._end_turn(p, turn, skip=bonus == "skip", gain_pass=bonus == "pass")
        if first == FLIP:
            self.up = not self.up
        elif first == SWITCH:
            assert colour is not None
            self.colour = colour
            if turn is None:
                entry = self._entry
                assert entry is not None
                entry["colour"] = colour
        elif first == SNATCH:
            assert target is not None and count is not None
            entry = self._entry
            assert entry is not None
            entry["target"] = target
            entry["count"] = count
            self.snatch = (target, count)
            self.phase = SNATCH_CARDS
            return []
        return self._end_turn(p, turn, skip=first == FREEZE, crash=first == CRASH)

    def _end_turn(
        self,
        p: int,
        turn: _Fields | None = None,
        *,
        skip: bool = False,
        crash: bool = False,
        blocked: bool = False,
        gain_pass: bool = False,
    ) -> list[Event]:
        """``p``'s turn is complete: log it (``turn``, made, or else the turn being
        played), then end the game or pass the turn on."""
        if turn is None:
            entry = self._entry
            assert entry is not None
            drew = self._drew
            reshuffled = self._reshuffled
            # LoggedTurn's fields, in order (see _log); entry.get called as such (compiled,
            # a native dict lookup: a bound method would be a Python call)
            self._log.append(
                (
                    entry["seat"],
                    entry["kind"],
                    entry.get("cards", _EMPTY),
                    entry.get("bonus"),
                    entry.get("colour"),
                    entry.get("target"),
                    entry.get("count"),
                    entry.get("took", _EMPTY),
                    tuple(drew) if drew else entry.get("drew", _EMPTY),
                    reshuffled if reshuffled is not None else entry.get("reshuffle"),
                )
            )
            if drew:
                self._drew = []
            self._reshuffled = None
        else:
            self._log.append(turn)
        self._entry = None
        self._drawing = None
        self.turns += 1
        self.crash = None
        if gain_pass:
            self.passes[p] += 1
        if not self.hands[p]:
            self._finish((p,), EMPTY_HAND)
            return [_TURN_ENDED[p], _GAME_ENDED]
        if self.turns >= self._limit:
            sizes = self.hand_sizes
            fewest = min(sizes)
            self._finish(tuple(s for s in range(self.n) if sizes[s] == fewest), TURN_LIMIT)
            return [_TURN_ENDED[p], _GAME_ENDED]
        n = self.n
        nxt = p + 2 if skip else p + 1
        if nxt >= n:
            nxt -= n
        if crash or (blocked and n > 2):
            self.crash = nxt
        self.seat = nxt
        self.phase = TURN
        return [_TURN_ENDED[p]]

    def _finish(self, winners: tuple[int, ...], ended_by: str) -> None:
        self.winners = winners
        self.ended_by = ended_by
        self.phase = OVER
        self.seat = None
        self.snatch = None
        self.drawn = None

    # ----------------------------------------------------------------- serialisation

    def to_dict(self) -> dict[str, Any]:
        """The whole state as JSON-safe data (cards by name); :meth:`from_dict` restores it
        exactly."""
        entry = self._entry
        return {
            "format": STATE_FORMAT,
            "players": list(self.players),
            "rules": self.settings.to_record(),
            "phase": self.phase,
            "seat": self.seat,
            "deck": None if self.deck is None else card_names(self.deck),
            "first": self.first,
            "up": self.up,
            "first_up": self.first_up,
            "hands": [card_names(h) for h in self.hands],
            "pile": card_names(self.pile[::-1]),
            "stack": card_names(self.stack),
            "base": self.base,
            "colour": colour_letter(self.colour) if self.stack else None,
            "number": self.number if self.stack else None,
            "passes": list(self.passes),
            "crash": self.crash,
            "turns": self.turns,
            "drawn": None if self.drawn is None else card_name(self.drawn),
            "snatch": None if self.snatch is None else list(self.snatch),
            "entry": None if entry is None else LoggedTurn(**entry).to_dict(),
            "drew": card_names(self._drew),
            "reshuffled": None if self._reshuffled is None else card_names(self._reshuffled),
            "to_draw": self._to_draw,
            "drawing": self._drawing,
            "log": [t.to_dict() for t in self.log],
            "winners": None if self.winners is None else list(self.winners),
            "ended_by": self.ended_by,
        }

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Self:
        """Restore a state written by :meth:`to_dict`; ``ValueError`` if it is not one
        (malformed, or its cards are not the 80 cards)."""
        try:
            if data["format"] != STATE_FORMAT:
                raise ValueError(f"unknown state format {data['format']!r}")
            self = cls(BLANK)
            players = tuple(data["players"])
            check_players(players)
            self.players = players
            self.n = len(players)
            self.settings = StackUpSettings.model_validate(data["rules"])
            self._limit = self.settings.turn_limit
            phase = data["phase"]
            if phase not in PHASES:
                raise ValueError(f"unknown phase {phase!r}")
            self.phase = phase
            self.seat = _opt_seat(data["seat"], self.n)
            self.deck = None if data["deck"] is None else _cards(data["deck"])
            self.first = _opt_seat(data["first"], self.n)
            up = data["up"]
            if up is not None and type(up) is not bool:
                raise ValueError("up must be true, false or null")
            self.up = up
            first_up = data["first_up"]
            if first_up is not None and type(first_up) is not bool:
                raise ValueError("first_up must be true, false or null")
            self.first_up = first_up
            hands = [sorted(_cards(h)) for h in data["hands"]]
            if len(hands) != self.n:
                raise ValueError("one hand per player")
            self.hands = hands
            self.pile = list(_cards(data["pile"]))[::-1]
            self.stack = list(_cards(data["stack"]))
            self.base = int(data["base"])
            self.colour = 0 if data["colour"] is None else parse_colour_letter(data["colour"])
            self.number = 0 if data["number"] is None else int(data["number"])
            self.passes = [int(x) for x in data["passes"]]
            self.crash = _opt_seat(data["crash"], self.n)
            self.turns = int(data["turns"])
            self.drawn = None if data["drawn"] is None else parse_card(data["drawn"])
            snatch = data["snatch"]
            self.snatch = None if snatch is None else (int(snatch[0]), int(snatch[1]))
            entry = data["entry"]
            self._entry = None if entry is None else _entry_fields(LoggedTurn.from_dict(entry))
            self._drew = list(_cards(data["drew"]))
            reshuffled = data["reshuffled"]
            self._reshuffled = None if reshuffled is None else _cards(reshuffled)
            self._to_draw = int(data["to_draw"])
            drawing = data["drawing"]
            if drawing not in (None, "take", "draw"):
                raise ValueError(f"unknown drawing {drawing!r}")
            self._drawing = drawing
            self.log = [LoggedTurn.from_dict(t) for t in data["log"]]
            winners = data["winners"]
            self.winners = None if winners is None else tuple(int(w) for w in winners)
            self.ended_by = data["ended_by"]
            if self.ended_by not in (None, EMPTY_HAND, TURN_LIMIT):
                raise ValueError(f"unknown end {self.ended_by!r}")
        except (KeyError, TypeError, IndexError, AttributeError, ValidationError) as exc:
            raise ValueError(f"not a saved Stack Up! state: {exc!r}") from exc
        except SetupError as exc:
            raise ValueError(f"not a saved Stack Up! state: {exc}") from exc
        held = sorted([c for h in self.hands for c in h] + self.pile + self.stack)
        if phase != DEAL and held != sorted(FULL_DECK):
            raise ValueError("not a saved Stack Up! state: its cards are not the 80 cards")
        if len(self.passes) != self.n or (self.stack and not 0 <= self.base < len(self.stack)):
            raise ValueError("not a saved Stack Up! state: passes or stack out of shape")
        self._made = None
        self._sampled = None
        return self

    def copy(self) -> Self:
        """An independent copy of this state."""
        other = type(self)(BLANK)
        for slot in _SLOTS:
            setattr(other, slot, getattr(self, slot))
        other.hands = [list(h) for h in self.hands]
        other.pile = list(self.pile)
        other.stack = list(self.stack)
        other.passes = list(self.passes)
        other._log = list(self._log)
        other._drew = list(self._drew)
        other._entry = None if self._entry is None else dict(self._entry)
        return other

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, StackUpState):
            return NotImplemented
        return self.to_dict() == other.to_dict()

    __hash__ = None  # type: ignore[assignment]


# random.Random's draws, inlined for speed: a shuffle, a choice below n and a sample of
# a few cards from a hand, each drawing exactly as the methods of this Python's
# random.Random do (checked once by _draws_alike; any other RNG uses its own methods).


def _below_inline(rng: random.Random, n: int) -> int:
    """``rng.randrange(n)`` (``n`` > 0) as :class:`random.Random` draws it."""
    bits = n.bit_length()
    j: int = rng.getrandbits(bits)
    while j >= n:
        j = rng.getrandbits(bits)
    return j


def _shuffle_inline(rng: random.Random, cards: list[Card]) -> None:
    """``rng.shuffle(cards)`` as :class:`random.Random` does it."""
    getrandbits = rng.getrandbits
    i = len(cards) - 1
    while i > 0:
        n = i + 1
        bits = n.bit_length()
        j = getrandbits(bits)
        while j >= n:
            j = getrandbits(bits)
        cards[i], cards[j] = cards[j], cards[i]
        i -= 1


# random.Random.sample picks from a copied pool when the population is this small (and
# at most 5 are taken): the one way inlined here
_SAMPLE_POOL: Final = 21
_SAMPLE_MOST: Final = 5


def _sample_inline(rng: random.Random, cards: list[Card], count: int) -> list[Card]:
    """``rng.sample(cards, count)`` as :class:`random.Random` draws it, for at most
    ``_SAMPLE_POOL`` cards and ``_SAMPLE_MOST`` taken."""
    pool = list(cards)
    n = len(pool)
    taken = []
    for i in range(count):
        j = _below_inline(rng, n - i)
        taken.append(pool[j])
        pool[j] = pool[n - i - 1]
    return taken


def _draws_alike() -> bool:
    """Whether the inlined draws draw as this Python's ``random.Random`` (checked once,
    so that another Python's RNG is simply used through its methods)."""
    for seed in range(8):
        size = seed * 11 + 2
        mine, theirs = list(range(size)), list(range(size))
        rng, other = random.Random(seed), random.Random(seed)
        _shuffle_inline(rng, mine)
        other.shuffle(theirs)
        below = [_below_inline(rng, n) for n in range(1, 70)]
        if below != [other.randrange(n) for n in range(1, 70)]:
            return False
        hand = list(range(min(size, _SAMPLE_POOL)))
        for count in range(1, min(len(hand), _SAMPLE_MOST) + 1):
            if _sample_inline(rng, hand, count) != other.sample(hand, count):
                return False
        if mine != theirs or rng.getstate() != other.getstate():
            return False
    return True


_INLINE_DRAWS: Final = _draws_alike()


def _shuffle(rng: random.Random, cards: list[Card]) -> None:
    """``rng.shuffle(cards)``: inlined for a plain :class:`random.Random`."""
    if _INLINE_DRAWS and type(rng) is random.Random:
        _shuffle_inline(rng, cards)
    else:
        rng.shuffle(cards)


def _below(rng: random.Random, n: int) -> int:
    """``rng.randrange(n)``: inlined for a plain :class:`random.Random`."""
    if _INLINE_DRAWS and type(rng) is random.Random:
        return _below_inline(rng, n)
    return rng.randrange(n)


def _sample(rng: random.Random, cards: list[Card], count: int) -> list[Card]:
    """``rng.sample(cards, count)``: inlined for a plain :class:`random.Random` (and a
    hand small enough)."""
    if (
        _INLINE_DRAWS
        and type(rng) is random.Random
        and len(cards) <= _SAMPLE_POOL
        and 0 <= count <= _SAMPLE_MOST
        and count <= len(cards)
    ):
        return _sample_inline(rng, cards, count)
    return rng.sample(cards, count)


def _entry_fields(turn: LoggedTurn) -> dict[str, Any]:
    """A logged turn as the keyword arguments that rebuild it (for a turn in progress)."""
    data: dict[str, Any] = {"seat": turn.seat, "kind": turn.kind}
    for key in ("cards", "took", "drew"):
        if getattr(turn, key):
            data[key] = getattr(turn, key)
    for key in ("bonus", "colour", "target", "count", "reshuffle"):
        if getattr(turn, key) is not None:
            data[key] = getattr(turn, key)
    return data


def _opt_seat(value: object, n: int) -> int | None:
    if value is None:
        return None
    if type(value) is not int or not 0 <= value < n:
        raise ValueError(f"not a seat: {value!r}")
    return value


def check_players(players: tuple[str, ...]) -> None:
    """Raise :class:`~engine.game.SetupError` unless ``players`` can sit at a table."""
    if not MIN_PLAYERS <= len(players) <= MAX_PLAYERS:
        raise SetupError(
            f"Stack Up! needs {MIN_PLAYERS} to {MAX_PLAYERS} players, not {len(players)}."
        )
    for player in players:
        if not isinstance(player, str) or not player:
            raise SetupError("Every player needs a name.")
    if len(set(players)) != len(players):
        raise SetupError("Two players share a name; one of them should change nickname.")


def deal_refusal(deck: object, first: object, n: int) -> IllegalMoveError | None:
    """Why ``deck`` and ``first`` are not a deal for ``n`` players, or ``None``."""
    bad = IllegalReason.BAD_OUTCOME
    if type(first) is not int or not 0 <= first < n:
        return IllegalMoveError(f"The first player must be a seat 0 to {n - 1}.", bad)
    if not isinstance(deck, tuple) or len(deck) != DECK_SIZE or not all(map(is_card, deck)):
        return IllegalMoveError(f"A deal is the {DECK_SIZE} cards, shuffled.", bad)
    if sorted(deck) != list(FULL_DECK):
        return IllegalMoveError(
            f"A deal is the {DECK_SIZE} cards: each number card once, each special card 4 times.",
            bad,
        )
    if all(c >= FLIP for c in deck[HAND_SIZE * n :]):
        return IllegalMoveError(
            "The deal leaves only special cards, so no number card can start the stack; "
            "such a deal is shuffled and dealt again.",
            bad,
        )
    return None
