"""One notation parser for every front end.

``stack 3 on alice``, ``stack 3 on @alice 2`` (onto alice's 2-high pile), ``reroll 3``, and
``place on alice [height]`` (or ``on alice``, or just ``alice``) for a rerolled die with
several targets. Command words, ``on`` and spacing ignore case; names do not (see below).
Three distinct errors and nothing else escape, whatever the text:
:class:`InvalidMoveError` (not a move, with the syntax), :class:`IllegalMoveError` (why, in a
player's words, with typed details) and :class:`AmbiguousMoveError` (listing the candidates).
An echo of the text in a message is cut to 40 characters (:mod:`engine.echo`).

A player is named as :mod:`engine.stack.names` says: exactly first, then ignoring spacing,
then case; a leading ``@`` is ignored unless the name has it; a final number is a height;
a name in double quotes is read whole. Several candidates for one text are never guessed
between: the error lists the legal moves among them (:class:`AmbiguousMoveError`) or, when
none is legal, the names (:class:`InvalidMoveError`). The mover's own name is never among
the names listed (no pile of theirs is one to go on): a text that could mean the mover and
one other player asks about that player's piles, or says why none of them will do.

:func:`move_notation` writes the command for a move so that it reads back as that move.
"""

from __future__ import annotations

import re
from difflib import get_close_matches

from engine import errors
from engine.echo import cut, echo, typed_move
from engine.game import Decision
from engine.names import or_words, unclear_name
from engine.stack.describe import pile_words
from engine.stack.moves import PLACES, REROLLS, STACKS, Place, PlayerMove, Reroll, Stack
from engine.stack.names import Reading, readings, same_but_case, target_notation
from engine.stack.state import StackState

SYNTAX = (
    "Try `stack 3 on bob` (add a height to pick a pile: `stack 3 on bob 2`), `reroll 3`, "
    "or, for a rerolled die with several places to go, `place on bob`."
)

# Command words, and what each one does.
COMMANDS = {
    "stack": "stack",
    "s": "stack",
    "reroll": "reroll",
    "r": "reroll",
    "roll": "reroll",
    "place": "place",
    "on": "place",
}
# The words a typo is compared with (difflib), and how close it must be to one of them.
SUGGESTED = ("stack", "reroll", "place", "roll", "s", "r")
TYPO_CUTOFF = 0.75
# No move is longer than the longest player's name and this much more.
MAX_EXTRA_LENGTH = 100
# An ambiguous text lists at most this many candidates in its message.
MAX_LISTED = 6

_WORD = re.compile(r"[^\W\d_]+")
_TOKEN = re.compile(r"(?P<first>\S+)(?:\s+(?P<rest>.*))?\Z", re.DOTALL)
_ON = re.compile(r"on(?:\s+(?P<rest>.*))?\Z", re.DOTALL | re.IGNORECASE)
_DIGITS = re.compile(r"[0-9]+")


def parse_move(state: StackState, text: str, seat: int | None = None) -> PlayerMove:
    """The move ``text`` names for the player to act, or the error that says why not.

    ``seat`` is who typed it; when it is not their turn that is the error. The state is
    never changed.
    """
    typed = typed_move(text, state.players, MAX_EXTRA_LENGTH, SYNTAX)
    if state.decision is Decision.OVER:
        raise errors.IllegalMoveError("The game is over.", errors.IllegalReason.GAME_OVER)
    if state.current is None or state.decision is Decision.CHANCE:  # a roll to come first
        raise errors.IllegalMoveError(
            "Nobody can move while the dice are being rolled.", errors.IllegalReason.WRONG_DECISION
        )
    p = state.current
    if seat is not None and seat != p:
        raise errors.IllegalMoveError(
            f"It's {state.name(p)}'s turn.", errors.IllegalReason.NOT_YOUR_TURN
        )

    word_match = _WORD.match(typed)
    word = word_match[0] if word_match else ""
    after = typed[len(word) :].strip()
    command = COMMANDS.get(word.lower())
    if command == "reroll":
        return _reroll(state, p, typed, after)
    if command == "stack":
        return _stack(state, p, after)
    if command == "place":
        return _place(state, p, after, explicit=word.lower() == "place")
    placing = state.placing
    if placing is not None and (found := readings(state.players, typed)):
        return _choose(state, p, placing, typed, found, place=True)
    if word and (suggestion := _suggest(word)):
        raise errors.InvalidMoveError(
            f"{echo(word)} is not a move; did you mean `{suggestion}`?",
            errors.InvalidReason.UNKNOWN_WORD,
            suggestion=suggestion,
        )
    if placing is not None:
        raise _unknown_player(state, typed)
    raise errors.InvalidMoveError(
        f"{echo(typed)} is not a move. {SYNTAX}", errors.InvalidReason.NOT_A_MOVE
    )


def move_notation(state: StackState, move: PlayerMove) -> str:
    """The typed command for ``move`` (``stack 3 on bob 2``, ``reroll 5``, ``place on bob 1``).

    :func:`parse_move` reads it back as ``move``: a name that would be read otherwise is
    quoted (``stack 3 on "bob" 2`` when someone else is called "bob 2").
    """
    if isinstance(move, Stack):
        return f"stack {move.face} on {target_notation(state.players, move.owner, move.height)}"
    if isinstance(move, Reroll):
        return f"reroll {move.face}"
    assert isinstance(move, Place)
    return f"place on {target_notation(state.players, move.owner, move.height)}"


# ------------------------------------------------------------------------ the commands


def _reroll(state: StackState, p: int, typed: str, after: str) -> PlayerMove:
    if state.placing is not None:
        raise _pending(state, p)
    if not after:
        raise errors.InvalidMoveError(
            "Reroll which die? Give its face: `reroll 3`.", errors.InvalidReason.MISSING_FACE
        )
    token = _TOKEN.match(after)
    assert token is not None
    if token["rest"]:
        raise errors.InvalidMoveError(
            f"{echo(typed)} is not a move: `reroll` takes the face of one die, as in `reroll 3`.",
            errors.InvalidReason.NOT_A_MOVE,
        )
    face = _face(token["first"])
    _require_die(state, p, face)
    return REROLLS[face]


def _stack(state: StackState, p: int, after: str) -> PlayerMove:
    token = _TOKEN.match(after)
    if token is None:
        raise errors.InvalidMoveError(
            "Stack which die, and on whose pile? Give both: `stack 3 on bob`.",
            errors.InvalidReason.MISSING_FACE,
        )
    first, rest = token["first"], token["rest"] or ""
    if first.lower() == "on":
        whose = f" on {echo(rest)}" if rest else ""
        raise errors.InvalidMoveError(
            f"Stack which die{whose}? Give its face: `stack 3 on NAME`.",
            errors.InvalidReason.MISSING_FACE,
        )
    face = _face(first)
    placing = state.placing
    if placing is not None and face != placing:
        raise _pending(state, p, asked=face)
    if placing is None:
        _require_die(state, p, face)
    return _onto(
        state,
        p,
        face,
        rest,
        on_word=True,
        missing=f"Stack your {face} on whose pile? Name the player: `stack {face} on NAME`.",
        place=placing is not None,
    )


def _place(state: StackState, p: int, after: str, *, explicit: bool) -> PlayerMove:
    placing = state.placing
    if placing is None:
        raise errors.IllegalMoveError(
            "There is no rerolled die waiting to be placed: `place` is for a rerolled die "
            "with several piles to go on. On your turn, `stack` or `reroll` a die.",
            errors.IllegalReason.NOTHING_TO_PLACE,
        )
    return _onto(
        state,
        p,
        placing,
        after,
        on_word=explicit,
        missing=f"Put your rerolled {placing} on whose pile? Name the player: `place on NAME`.",
        place=True,
    )


def _onto(
    state: StackState, p: int, face: int, text: str, *, on_word: bool, missing: str, place: bool
) -> PlayerMove:
    """The move that puts ``face`` on the pile ``text`` names (after an ``on``, when
    ``on_word``); ``missing``: the refusal's words when it names none."""
    on = _ON.match(text) if on_word else None
    target = (on["rest"] or "") if on else text
    if not target:
        raise errors.InvalidMoveError(missing, errors.InvalidReason.MISSING_TARGET)
    found = readings(state.players, target)
    if not found and on:  # perhaps a name that starts with "on"
        found = readings(state.players, text)
    return _choose(state, p, face, target, found, place=place)


def _suggest(word: str) -> str | None:
    """The command word ``word`` is a typo of, if it is close to one."""
    close = get_close_matches(word.lower(), SUGGESTED, n=1, cutoff=TYPO_CUTOFF)
    return COMMANDS[close[0]] if close else None


# ------------------------------------------------------------------------ faces and dice


def _face(token: str) -> int:
    if not _DIGITS.fullmatch(token):
        raise errors.InvalidMoveError(
            f"{echo(token)} is not a die face (1 to 6). {SYNTAX}", errors.InvalidReason.BAD_FACE
        )
    digits = token.lstrip("0")
    if len(digits) != 1 or not "1" <= digits <= "6":
        raise errors.InvalidMoveError(
            f"A die shows 1 to 6, not {cut(token)}.", errors.InvalidReason.BAD_FACE
        )
    return int(digits)


def _require_die(state: StackState, p: int, face: int) -> None:
    if not state.singles[p][face]:
        raise errors.IllegalMoveError(
            f"You have no unstacked {face}.", errors.IllegalReason.NO_SUCH_DIE, face=face
        )


def _pending(state: StackState, p: int, asked: int | None = None) -> errors.IllegalMoveError:
    """A rerolled die waits for its pile; the player tried something else."""
    face = state.placing
    assert face is not None
    targets = tuple(
        errors.Target(o, state.name(o), h) for o, h in sorted(state.targets_for(p, face))
    )
    if asked is None:
        message = f"First put your rerolled {face} on a pile: `place on NAME`."
    else:
        message = f"Your rerolled die shows {face}, not {asked}: `place on NAME` puts it on a pile."
    return errors.IllegalMoveError(
        message, errors.IllegalReason.PLACEMENT_PENDING, face=face, asked=asked, targets=targets
    )


# ------------------------------------------------------------------------ names and piles


def _unknown_player(state: StackState, typed: str) -> errors.InvalidMoveError:
    shown = typed.strip().strip('"“”').lstrip("@").strip()
    return errors.InvalidMoveError(
        f"There's no player called {echo(shown)} at this table "
        f"(players: {', '.join(state.players)}).",
        errors.InvalidReason.UNKNOWN_PLAYER,
        names=state.players,
    )


def _choose(
    state: StackState,
    p: int,
    face: int,
    typed: str,
    found: tuple[Reading, ...],
    *,
    place: bool,
) -> PlayerMove:
    """The one move ``found`` names, or the error listing the candidates."""
    if not found:
        raise _unknown_player(state, typed)
    if len(found) == 1:
        return _resolve(state, p, face, found[0], place=place)
    moves: list[PlayerMove] = []
    for reading in found:
        try:
            moves.append(_resolve(state, p, face, reading, place=place))
        except errors.AmbiguousMoveError as err:
            moves.extend(m for m in err.candidates if isinstance(m, Stack | Place))
        except errors.MoveError:
            continue
    # The players the text could mean besides the mover, whose own pile is never one to go
    # on: the refusal goes to the mover alone, who knows that much.
    others = [r for r in found if r.seat != p]
    names = tuple(dict.fromkeys(state.name(r.seat) for r in others))
    if len(names) == 1:  # the mover and one other: that one's pile is what is asked about
        if not moves:
            return _resolve(state, p, face, others[0], place=place)  # its own refusal
        raise _ambiguous(state, face, moves, lead="", one_name=False)
    if not moves:
        raise unclear_name(typed, names)
    lead = f"{echo(typed)} could mean {or_words(names)}. "
    raise _ambiguous(state, face, moves, lead=lead, one_name=False)


def _resolve(state: StackState, p: int, face: int, reading: Reading, *, place: bool) -> PlayerMove:
    owner = reading.seat
    height: int | None = None
    if reading.height is not None:
        digits = reading.height.lstrip("0")
        if len(digits) != 1 or not "1" <= digits <= "3":
            raise errors.IllegalMoveError(
                f"You can only stack on a pile 1 to 3 dice high, not {cut(reading.height)}.",
                errors.IllegalReason.NO_SUCH_PILE,
                face=face,
            )
        height = int(digits)
    if owner == p:
        others = tuple(state.name(s) for s in same_but_case(state.players, reading.name) if s != p)
        also = (
            f" Did you mean {or_words(others)}? Type the name exactly as shown." if others else ""
        )
        raise errors.IllegalMoveError(
            "You may never stack directly on your own colour." + also,
            errors.IllegalReason.OWN_COLOUR,
            face=face,
        )
    heights = sorted(h for o, h in state.targets[face] if o == owner)
    name = state.name(owner)
    if height is not None:
        if height not in heights:
            raise errors.IllegalMoveError(
                f"{name} has no "
                + ("unstacked " + str(face) if height == 1 else f"{height}-high pile of {face}s")
                + ".",
                errors.IllegalReason.NO_SUCH_PILE,
                face=face,
            )
        heights = [height]
    if not heights:
        raise errors.IllegalMoveError(
            _why_no_pile(state, p, face, owner), errors.IllegalReason.NO_SUCH_PILE, face=face
        )
    moves: list[PlayerMove] = [
        PLACES[(owner, h)] if place else STACKS[(face, owner, h)] for h in heights
    ]
    if len(moves) > 1:
        raise _ambiguous(state, face, moves, lead="", one_name=True)
    return moves[0]


def _ambiguous(
    state: StackState, face: int, moves: list[PlayerMove], *, lead: str, one_name: bool
) -> errors.AmbiguousMoveError:
    """Which one of ``moves``? The message lists them with the command for each; when the
    text named ``one_name`` only (its height left out), it says to add the height."""
    moves = list(dict.fromkeys(moves))
    choices = tuple(pile_words(state.name(m.owner), face, m.height) for m in _targets(moves))
    commands = [f"`{move_notation(state, m)}`" for m in moves]
    listed = ", or ".join(choices[:MAX_LISTED])
    if len(choices) > MAX_LISTED:
        listed += f" (or {len(choices) - MAX_LISTED} more)"
    if len(moves) == 1:
        return errors.AmbiguousMoveError(
            f"{lead}Did you mean {choices[0]}? Type {commands[0]}.", tuple(moves), choices
        )
    if len({m.owner for m in _targets(moves)}) == 1 and one_name:
        how = f"Add the height, e.g. {commands[-1]}."
    else:
        how = f"Type {' or '.join(commands[:MAX_LISTED])}."
    return errors.AmbiguousMoveError(f"{lead}Which one: {listed}? {how}", tuple(moves), choices)


def _targets(moves: list[PlayerMove]) -> list[Stack | Place]:
    return [m for m in moves if isinstance(m, Stack | Place)]


def _why_no_pile(state: StackState, p: int, face: int, owner: int) -> str:
    """Why ``owner`` has no pile showing ``face`` that ``p`` may stack on."""
    name = state.name(owner)
    for pile_face, comp in state.pile_compositions():
        if pile_face == face and owner in comp[:-1]:
            top = comp[-1]
            under = "your own die" if top == p else f"{state.name(top)}'s die"
            if top == p:
                return f"{name}'s {face} is under {under}."
            return f"{name}'s {face} is under {under}: stack on {state.name(top)} instead."
    return f"{name} has no pile showing {face}."
