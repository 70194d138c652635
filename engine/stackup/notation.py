"""Stack Up!'s typed notation: one parser for every front end.

The notation (command words and card names ignore case):

* cards by name, in the order played: ``r7``, ``R7 R8 R9``; a play of 3 or more cards
  that keeps cards in hand ends with its bonus, ``R7 R8 R9 skip`` or ``R7 R8 R9 pass``;
* ``flip``, ``freeze``, ``crash``;
* ``switch blue`` (or ``switch b``): the Switch's new colour;
* ``snatch bob 2``: a Snatch naming a player and a count. A name typed exactly names that
  player ("Bob" beside "bob"); otherwise it ignores case and a leading ``@``, and may be
  any unique start of a name (``snatch bo 2``). When a name fits several players but only
  one of them may be snatched from, that one is meant. The count may be left out when
  only 1 card may be taken; a name in double quotes is read whole;
* under a Crash penalty: ``block`` (or ``crash``) or ``take``;
* stuck: ``pass`` (use a draw pass) or ``draw`` — the table does both without asking;
* a card just drawn: ``play`` (or its name) or ``keep``; ``play switch red``, ``play red``
  or ``play snatch bob 1`` for a drawn special that needs a choice;
* at the start, the first player's ``up`` or ``down``.

:func:`parse_move` lets exactly three errors escape, whatever the text:
:class:`~engine.errors.InvalidMoveError` (not a move; the message gives the syntax),
:class:`~engine.errors.IllegalMoveError` (a move the rules refuse now, and why) and
:class:`~engine.errors.AmbiguousMoveError` (several legal moves fit: a 3-card play without
its bonus, a Switch without a colour, a Snatch without a count; the candidates are listed).
:func:`move_notation` writes a move so that :func:`parse_move` reads it back.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from difflib import get_close_matches
from typing import NamedTuple

from engine import errors
from engine.echo import ECHO_LIMIT, cut, echo, typed_move
from engine.game import Decision
from engine.names import NAME_KEYS, folded, or_words, unclear_name
from engine.stackup import cards, moves
from engine.stackup.describe import move_words
from engine.stackup.state import DIRECTION, DRAWN, TURN, StackUpState

SYNTAX = (
    "Type cards by name (`r7 r8 r9`, adding `pass` or `skip` to a play of 3 or more cards "
    "that keeps cards), `flip`, `freeze`, `crash`, `switch blue`, `snatch bob 2`; under a "
    "Crash `block` or `take`; a drawn card `play` or `keep`; at the start `up` or `down`."
)
MAX_EXTRA_LENGTH = 100  # no move is longer than the longest name and this much more
MAX_LISTED = 6  # an ambiguous text lists at most this many candidates

_SIMPLE: dict[str, moves.PlayerMove] = {
    "up": moves.UP,
    "down": moves.DOWN,
    "block": moves.BLOCK,
    "take": moves.TAKE,
    "pass": moves.USE_PASS,
    "draw": moves.DRAW,
    "keep": moves.KEEP,
}
_SPECIAL_WORDS = {"flip": cards.FLIP, "freeze": cards.FREEZE, "crash": cards.CRASH}
_COLOURS = {
    "r": 0, "red": 0, "b": 1, "blue": 1, "y": 2, "yellow": 2, "g": 3, "green": 3,
}  # fmt: skip
_WORDS = (*_SIMPLE, "flip", "freeze", "crash", "switch", "snatch", "play", "skip")
_BONUS_WORDS = ("pass", "skip")
_CARDLIKE = re.compile(r"[rbygRBYG][0-9]+\Z")
_COUNT = re.compile(r"(?P<name>.+?)\s+(?P<count>[0-9]+)\Z", re.DOTALL)
# a quoted name, which may hold quotes itself (``""x"" 1`` names "x"), as Stack's names do
_QUOTED = re.compile(r"[\"“”](?P<name>.+)[\"“”](?:\s+(?P<count>[0-9]+))?\Z", re.DOTALL)
TYPO_CUTOFF = 0.75


def parse_move(state: StackUpState, text: str, seat: int | None = None) -> moves.PlayerMove:
    """The move ``text`` names for the seat to act, or the error that says why not.

    ``seat`` is who typed it; when it is not their turn, that is the error. The state is
    never changed.
    """
    typed = typed_move(text, state.players, MAX_EXTRA_LENGTH, SYNTAX)
    if state.decision is Decision.OVER:
        raise errors.IllegalMoveError("The game is over.", errors.IllegalReason.GAME_OVER)
    p = state.current_player
    if p is None:
        raise errors.IllegalMoveError(
            "Nobody can move while the table deals or shuffles.",
            errors.IllegalReason.WRONG_DECISION,
        )
    if seat is not None and seat != p:
        raise errors.IllegalMoveError(
            f"It's {state.name(p)}'s turn.", errors.IllegalReason.NOT_YOUR_TURN
        )
    try:
        move = _read(state, p, typed)
    except errors.AmbiguousMoveError as err:
        # a question whose every answer the moment refuses (a Snatch's target before the
        # direction, under a Crash, after a draw): the moment's refusal instead
        candidates = [m for m in err.candidates if isinstance(m, moves.PlayerMove)]
        if candidates and not any(state.is_legal(m) for m in candidates):
            _require(state, p, candidates[0])
        raise
    _require(state, p, move)
    return move


def move_notation(
    state: StackUpState, move: moves.PlayerMove, shown: Callable[[str], str] = str
) -> str:
    """How a player types ``move`` (``R7 R8 R9 skip``, ``switch blue``, ``snatch bob 2``),
    a name in it as ``shown`` gives it (a front end isolates a right-to-left name, which
    reads back as the name: :func:`_find`)."""
    if isinstance(move, moves.Play):
        played = move.cards
        if played and played[0] >= cards.FLIP:
            return _special_notation(state, played[0], move.colour, move.target, move.count, shown)
        text = " ".join(cards.card_name(c) for c in played)
        return f"{text} {move.bonus}" if move.bonus else text
    if isinstance(move, moves.PlayDrawn):
        card = state.drawn
        if card is None or card < cards.FLIP or card not in (cards.SWITCH, cards.SNATCH):
            return "play"
        return "play " + _special_notation(state, card, move.colour, move.target, move.count, shown)
    return _PLAIN_NOTATION[move]


# the moves without cards, as a player types them
_PLAIN_NOTATION: dict[moves.PlayerMove, str] = {
    moves.UP: "up",
    moves.DOWN: "down",
    moves.BLOCK: "block",
    moves.TAKE: "take",
    moves.USE_PASS: "pass",
    moves.DRAW: "draw",
    moves.KEEP: "keep",
}


def _special_notation(
    state: StackUpState,
    card: cards.Card,
    colour: int | None,
    target: int | None,
    count: int | None,
    shown: Callable[[str], str] = str,
) -> str:
    if card == cards.SWITCH:
        return "switch" + (f" {cards.COLOUR_NAMES[colour].lower()}" if colour is not None else "")
    if card == cards.SNATCH:
        if target is None:
            return "snatch"
        return f"snatch {_name_notation(state.players, target, count, shown)}"
    return cards.card_name(card).lower()


# ------------------------------------------------------------------------ reading


def _read(state: StackUpState, p: int, typed: str) -> moves.PlayerMove:
    """The move the words name (not yet checked against the rules)."""
    first, _, rest = typed.partition(" ")
    word = first.lower()
    rest = rest.strip()
    drawn = state.drawn if state.phase == DRAWN else None
    if word in _SIMPLE and not rest:
        return _SIMPLE[word]
    if word == "crash" and not rest and state.pending_crash == p:
        return moves.BLOCK
    if word == "play":
        if state.phase == DRAWN:
            return _drawn(state, p, rest)
        if not rest:
            if state.phase == TURN and state.pending_crash != p:
                raise errors.IllegalMoveError(
                    "You have no drawn card to play; name the cards to play, as in `r7`.",
                    errors.IllegalReason.WRONG_DECISION,
                )
            return moves.PLAY_DRAWN  # refused as the moment asks: the direction, or the Crash
        return _read(state, p, rest)
    if word == "switch":
        colour = _colour(rest) if rest else None
        if drawn == cards.SWITCH:
            return moves.PlayDrawn(colour=colour)
        return _choose_colour(state, p, moves.Play((cards.SWITCH,), colour=colour))
    if word == "snatch":
        return _snatch(state, p, rest, drawn=drawn == cards.SNATCH)
    if word in _SPECIAL_WORDS and not rest:
        card = _SPECIAL_WORDS[word]
        if drawn == card:
            return moves.PlayDrawn()
        return moves.Play((card,))
    return _cards(state, p, typed)


def _drawn(state: StackUpState, p: int, rest: str) -> moves.PlayerMove:
    """``play`` / ``play red`` / ``play switch red`` / ``play snatch bob 1`` for a drawn card."""
    card = state.drawn
    if not rest:
        if card == cards.SWITCH:
            return _choose_colour(state, p, moves.PlayDrawn())
        if card == cards.SNATCH:
            return _snatch(state, p, "", drawn=True)
        return moves.PlayDrawn()
    word, _, more = rest.partition(" ")
    more = more.strip()
    if card == cards.SWITCH:
        colour_text = more if word.lower() == "switch" else rest
        return _choose_colour(
            state, p, moves.PlayDrawn(colour=_colour(colour_text) if colour_text else None)
        )
    if card == cards.SNATCH:
        return _snatch(state, p, more if word.lower() == "snatch" else rest, drawn=True)
    move = _read(state, p, rest)
    if isinstance(move, moves.PlayDrawn):
        return move
    raise _drawn_choice(state)


def _cards(state: StackUpState, p: int, typed: str) -> moves.PlayerMove:
    """A list of card names, with a bonus word at its end."""
    tokens = [t for t in re.split(r"[\s,]+", typed) if t]
    bonus: str | None = None
    if len(tokens) > 1 and tokens[-1].lower() in _BONUS_WORDS:
        bonus = tokens.pop().lower()
    named: list[cards.Card] = []
    for index, token in enumerate(tokens):
        card = cards.read_card(token)
        if card is None:
            opener = tokens[0].lower()
            if index == 1 and opener in _SPECIAL_WORDS:
                raise errors.InvalidMoveError(
                    f"`{opener}` takes nothing after it.", errors.InvalidReason.NOT_A_MOVE
                )
            raise _not_a_card(token, first=index == 0)
        named.append(card)
    if state.phase == DRAWN and len(named) == 1 and named[0] == state.drawn and bonus is None:
        if named[0] in (cards.SWITCH, cards.SNATCH):
            return _drawn(state, p, "")
        return moves.PlayDrawn()
    if len(named) == 1 and named[0] == cards.SWITCH:
        return _choose_colour(state, p, moves.Play((cards.SWITCH,)))
    if len(named) == 1 and named[0] == cards.SNATCH:
        return _snatch(state, p, "", drawn=False)
    move = moves.Play(tuple(named), bonus)
    if bonus is None and state.phase != DRAWN:
        with_bonus = [moves.Play(move.cards, b) for b in ("pass", "skip")]
        legal = [m for m in with_bonus if state.is_legal(m)]
        if legal and not state.is_legal(move):
            raise _ambiguous(state, legal, "Which bonus")
    return move


def _not_a_card(token: str, *, first: bool) -> errors.InvalidMoveError:
    """Why ``token`` among card names is none; ``first`` when it opened the text.

    A command word said with more words than it takes is named as such, never offered
    as a correction of itself."""
    word = token.lower()
    if word == "skip" or (word in _BONUS_WORDS and not first):
        return errors.InvalidMoveError(
            f"`{word}` can only be said once, at the end of a play of 3 or more cards "
            f"(as in `r7 r8 r9 {word}`).",
            errors.InvalidReason.NOT_A_MOVE,
        )
    if word in _WORDS:
        if first:
            said = "takes nothing after it"
        elif word == "play":
            said = "comes first, as in `play r7`"
        else:
            said = "is said alone, never with cards"
        return errors.InvalidMoveError(f"`{word}` {said}.", errors.InvalidReason.NOT_A_MOVE)
    if _CARDLIKE.match(token):
        return errors.InvalidMoveError(
            f"There is no {cut(token.upper())}: number cards run 1 to 15 in R, B, Y and G.",
            errors.InvalidReason.BAD_CARD,
        )
    close = get_close_matches(token.lower(), _WORDS, n=1, cutoff=TYPO_CUTOFF)
    if close:
        return errors.InvalidMoveError(
            f"{echo(token)} is not a move; did you mean `{close[0]}`?",
            errors.InvalidReason.UNKNOWN_WORD,
            suggestion=close[0],
        )
    return errors.InvalidMoveError(f"{echo(token)} is not a card or a move. {SYNTAX}")


def _colour(text: str) -> int:
    colour = _COLOURS.get(text.strip().lower())
    if colour is None:
        raise errors.InvalidMoveError(
            f"{echo(text.strip())} is not a colour: say red, blue, yellow or green "
            "(or R, B, Y, G), as in `switch blue`.",
            errors.InvalidReason.NOT_A_MOVE,
        )
    return colour


def _choose_colour(
    state: StackUpState, p: int, move: moves.Play | moves.PlayDrawn
) -> moves.PlayerMove:
    """A Switch; without its colour, the colours it may name are the candidates."""
    if move.colour is not None:
        return move
    if isinstance(move, moves.Play):
        options: list[moves.PlayerMove] = [m for m in state.plays(p) if m.cards == (cards.SWITCH,)]
    else:
        options = list(state.drawn_plays())
    if options:
        raise _ambiguous(state, options, "Which colour")
    return move  # the rules refuse it, and say why


# ------------------------------------------------------------------------ Snatch and names


class _Reading(NamedTuple):
    seat: int
    count_text: str | None


_ISOLATE_OPENERS = "\u2066\u2067\u2068"  # LRI, RLI, FSI
_POP_ISOLATE = "\u2069"


def _find(players: tuple[str, ...], name: str) -> list[int]:
    """Seats ``name`` may mean: the first of these that fits anyone decides — the name
    exactly (case as the player's), then with runs of spaces read as one, then ignoring
    case, then a start of a name ignoring case. So "Bob" names Bob even when bob sits at
    the same table, and "BOB" could mean either. A leading ``@`` is ignored unless a name
    starts with it."""
    forms = [name, name[1:]] if name.startswith("@") else [name]
    if name[:1] in _ISOLATE_OPENERS and name.endswith(_POP_ISOLATE) and len(name) > 2:
        forms.append(name[1:-1])  # a name as a hint shows it (move_notation's ``shown``)
    for key in NAME_KEYS:
        for form in forms:
            wanted = key(form)
            if not wanted.strip():
                continue
            hits = [s for s, player in enumerate(players) if key(player) == wanted]
            if hits:
                return hits
    for form in forms:
        wanted = folded(form)
        if not wanted:
            continue
        starts = [s for s, player in enumerate(players) if folded(player).startswith(wanted)]
        if starts:
            return starts
    return []


def _readings(players: tuple[str, ...], text: str) -> list[_Reading]:
    """Every way ``text`` names a player, with a count or without: a quoted name (``"bob
    2" 1``), and the text as it is (a name may hold quotes itself: ``"x"``)."""
    out: list[_Reading] = []
    quoted = _QUOTED.match(text)
    if quoted:
        out += [_Reading(s, quoted["count"]) for s in _find(players, quoted["name"])]
        if out:
            return out
    out += [_Reading(s, None) for s in _find(players, text)]
    tail = _COUNT.match(text)
    if tail:
        out += [_Reading(s, tail["count"]) for s in _find(players, tail["name"])]
    return list(dict.fromkeys(out))


def _name_notation(
    players: tuple[str, ...], target: int, count: int | None, shown: Callable[[str], str] = str
) -> str:
    """The words naming ``target`` (and ``count``) that read back as exactly that."""
    name = players[target]
    tail = "" if count is None else f" {count}"
    want = [_Reading(target, None if count is None else str(count))]
    if _readings(players, f"{name}{tail}") == want:
        return f"{shown(name)}{tail}"
    return f'"{shown(name)}"{tail}'


def _bare_snatch(drawn: bool) -> moves.Play | moves.PlayDrawn:
    """A Snatch naming nobody yet (the drawn one, or one from hand)."""
    return moves.PlayDrawn() if drawn else moves.Play((cards.SNATCH,))


def _snatch(state: StackUpState, p: int, rest: str, *, drawn: bool) -> moves.PlayerMove:
    def make(target: int, count: int | None) -> moves.Play | moves.PlayDrawn:
        if drawn:
            return moves.PlayDrawn(target=target, count=count)
        return moves.Play((cards.SNATCH,), target=target, count=count)

    if not rest:
        options: list[moves.PlayerMove] = (
            list(state.drawn_plays())
            if drawn
            else [m for m in state.plays(p) if m.cards == (cards.SNATCH,)]
        )
        if options:
            raise _ambiguous(state, options, "Snatch from whom, and how many")
        return _bare_snatch(drawn)  # the rules say why not
    found = _readings(state.players, rest)
    if not found:  # the name said as typed, without the count after it
        quoted, tail = _QUOTED.match(rest), _COUNT.match(rest)
        name = quoted["name"] if quoted else tail["name"] if tail else rest
        shown = name.strip().strip('"“”').lstrip("@")
        raise errors.InvalidMoveError(
            f"There's no player called {echo(shown)} at this table "
            f"(players: {', '.join(state.players)}).",
            errors.InvalidReason.UNKNOWN_PLAYER,
            names=state.players,
        )
    bare = _bare_snatch(drawn)
    blocked = state.refusal(bare, p)
    if blocked is not None and blocked.reason is not errors.IllegalReason.MISSING_CHOICE:
        # Text that names players, but no player could help (no Snatch held, a Crash
        # pending…): the rules say why, rather than which names fail.
        return bare
    plays: list[moves.Play | moves.PlayDrawn] = []
    for reading in found:
        count: int | None = None
        if reading.count_text is not None:
            digits = reading.count_text.lstrip("0") or "0"
            # read only as far as a refusal shows it (cut to ECHO_LIMIT): a longer count
            # is refused in the same words, and no count past 3 is legal anyway
            count = int(digits[: ECHO_LIMIT + 1])
        elif reading.seat != p:
            counts = state.snatch_counts(reading.seat)
            if len(counts) == 1:
                count = counts[0]
            elif counts:
                counted = [make(reading.seat, k) for k in counts]
                if len(found) == 1 and all(state.is_legal(m) for m in counted):
                    raise _ambiguous(state, list[moves.PlayerMove](counted), "How many cards")
                if len(found) > 1:  # the count left out: each count is a reading
                    plays += counted
                    continue
        plays.append(make(reading.seat, count))
    if len(plays) == 1:
        return plays[0]
    legal: list[moves.PlayerMove] = [m for m in plays if state.is_legal(m)]
    if len(legal) == 1:
        return legal[0]  # the only reading the rules allow: nothing to ask
    if not legal:
        raise unclear_name(rest, tuple(dict.fromkeys(state.name(r.seat) for r in found)))
    names = tuple(dict.fromkeys(state.name(_target(m)) for m in legal))
    if len(names) == 1:  # one player, whose count was left out
        raise _ambiguous(state, legal, "How many cards")
    raise _ambiguous(state, legal, f"{echo(rest)} could mean {or_words(names)}. Which one")


def _target(move: moves.PlayerMove) -> int:
    """The player a Snatch names."""
    target = getattr(move, "target", None)
    assert isinstance(target, int)
    return target


# ------------------------------------------------------------------------ checking


def _ambiguous(
    state: StackUpState, options: Sequence[moves.PlayerMove], question: str
) -> errors.AmbiguousMoveError:
    distinct = list(dict.fromkeys(options))
    choices = tuple(move_words(state, m) for m in distinct)
    # in the sentence, "play" is no longer its first word (a card's name keeps its capital)
    said = [c[0].lower() + c[1:] if c.startswith("Play ") else c for c in choices]
    listed = ", or ".join(said[:MAX_LISTED])
    if len(choices) > MAX_LISTED:
        listed += f" (or {len(choices) - MAX_LISTED} more)"
    commands = " or ".join(f"`{move_notation(state, m)}`" for m in distinct[:MAX_LISTED])
    return errors.AmbiguousMoveError(
        f"{question}: {listed}? Type {commands}.", tuple(distinct), choices
    )


def _require(state: StackUpState, p: int, move: moves.PlayerMove) -> None:
    """Raise the rules' refusal of ``move`` for ``p``, worded for the notation."""
    err = state.refusal(move, p)
    if err is None:
        return
    if state.phase == DIRECTION and not isinstance(move, moves.Direction):
        raise errors.IllegalMoveError(
            "First choose the direction: `up` (1 → 15) or `down` (15 → 1).",
            errors.IllegalReason.WRONG_DECISION,
        )
    if state.phase == DRAWN and isinstance(move, moves.Play):
        raise _drawn_choice(state)
    raise err


def _drawn_choice(state: StackUpState) -> errors.IllegalMoveError:
    """What a stuck player who drew may type: the rules' words, with the commands."""
    if state.drawn is None:
        what = "no card could be drawn: there is nothing to play, so `keep`"
    else:
        what = "drew a card: `play` plays it alone, `keep` keeps it"
    return errors.IllegalMoveError(
        f"You were stuck and {what}.", errors.IllegalReason.WRONG_DECISION
    )
