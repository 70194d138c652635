"""One notation parser for every front end.

``stack 3 on alice``, ``stack 3 on @alice 2`` (onto alice's 2-high pile), ``reroll 3``, and
``place on alice [height]`` (or ``on alice``) for a rerolled die with several targets.
Case, ``@`` and spacing do not matter. Three distinct errors: :class:`InvalidMoveError`
(not a move, with the syntax), :class:`IllegalMoveError` (why, in a player's words) and
:class:`AmbiguousMoveError` (listing the candidates). Nothing else escapes.
"""

from __future__ import annotations

import re

from engine.errors import AmbiguousMoveError, IllegalMoveError, IllegalReason, InvalidMoveError
from engine.game import Decision
from engine.stack.describe import pile_words
from engine.stack.moves import PLACES, REROLLS, STACKS, PlayerMove
from engine.stack.state import StackState

SYNTAX = (
    "Try `stack 3 on bob` (add a height to pick a pile: `stack 3 on bob 2`), `reroll 3`, "
    "or, for a rerolled die with several places to go, `place on bob`."
)

_STACK = re.compile(r"^(?:stack|s)\s*(?P<face>\S+)\s+(?:on\s+)?(?P<rest>.+)$")
_STACK_NO_TARGET = re.compile(r"^(?:stack|s)\s*(?P<face>\d+)(?:\s+on)?$")
_REROLL = re.compile(r"^(?:reroll|roll|r)\s*(?P<face>\S+)$")
_PLACE = re.compile(r"^(?:place\s+)?(?:on\s+)?(?P<rest>.+)$")
_HEIGHT = re.compile(r"^(?P<name>.+?)\s+(?P<height>\d+)$")


def parse_move(state: StackState, text: str, seat: int | None = None) -> PlayerMove:
    """The move ``text`` names for the player to act, or the error that says why not.

    ``seat`` is who typed it; when it is not their turn that is the error.
    """
    cleaned = " ".join(text.strip().lower().split())
    if not cleaned:
        raise InvalidMoveError(f"That's empty. {SYNTAX}")
    if state.decision is Decision.OVER:
        raise IllegalMoveError("The game is over.", IllegalReason.GAME_OVER)
    if state.current is None:
        raise IllegalMoveError(
            "Nobody can move while the dice are being rolled.", IllegalReason.WRONG_DECISION
        )
    p = state.current
    if seat is not None and seat != p:
        raise IllegalMoveError(f"It's {state.name(p)}'s turn.", IllegalReason.NOT_YOUR_TURN)

    if m := _REROLL.match(cleaned):
        face = _face(m["face"], text)
        _require_turn(state)
        _require_die(state, p, face)
        return REROLLS[face]
    if m := _STACK_NO_TARGET.match(cleaned):
        raise InvalidMoveError(
            f"Stack your {m['face']} on whose pile? Name the player: `stack {m['face']} on NAME`."
        )
    if m := _STACK.match(cleaned):
        face = _face(m["face"], text)
        if state.decision is not Decision.PLACE:
            _require_die(state, p, face)
        owner, height = _target(state, m["rest"], text)
        if state.decision is Decision.PLACE:
            if face != state.placing:
                raise IllegalMoveError(
                    f"Your rerolled die shows {state.placing}, not {face}: "
                    f"`place on NAME` puts it on a pile.",
                    IllegalReason.WRONG_DECISION,
                )
            return _resolve(state, p, face, owner, height, place=True)
        _require_die(state, p, face)
        return _resolve(state, p, face, owner, height, place=False)
    if state.decision is Decision.PLACE and (m := _PLACE.match(cleaned)):
        owner, height = _target(state, m["rest"], text)
        assert state.placing is not None
        return _resolve(state, p, state.placing, owner, height, place=True)
    raise InvalidMoveError(f"{text.strip()!r} is not a move. {SYNTAX}")


def _face(token: str, text: str) -> int:
    if not token.isdigit():
        raise InvalidMoveError(
            f"{token!r} is not a die face (1 to 6) in {text.strip()!r}. {SYNTAX}"
        )
    face = int(token)
    if not 1 <= face <= 6:
        raise InvalidMoveError(f"A die shows 1 to 6, not {face}.")
    return face


def _target(state: StackState, rest: str, text: str) -> tuple[int, int | None]:
    rest = rest.strip()
    height: int | None = None
    if (m := _HEIGHT.match(rest)) and _lookup(state, m["name"]) is not None:
        height = int(m["height"])
        rest = m["name"]
    owner = _lookup(state, rest)
    if owner is None:
        shown = rest.lstrip("@").strip()
        raise InvalidMoveError(
            f"There's no player called {shown!r} at this table "
            f"(players: {', '.join(state.players)})."
        )
    if height is not None and not 1 <= height <= 3:
        raise IllegalMoveError(
            f"You can only stack on a pile 1 to 3 dice high, not {height}.",
            IllegalReason.NO_SUCH_PILE,
        )
    return owner, height


def _lookup(state: StackState, name: str) -> int | None:
    wanted = name.strip().lstrip("@").strip().lower()
    for seat, player in enumerate(state.players):
        if " ".join(player.lower().split()) == wanted:
            return seat
    return None


def _require_turn(state: StackState) -> None:
    if state.decision is Decision.PLACE:
        raise IllegalMoveError(
            f"First put your rerolled {state.placing} on a pile: `place on NAME`.",
            IllegalReason.WRONG_DECISION,
        )


def _require_die(state: StackState, p: int, face: int) -> None:
    _require_turn(state)
    if not state.singles[p][face]:
        raise IllegalMoveError(f"You have no unstacked {face}.", IllegalReason.NO_SUCH_DIE)


def _resolve(
    state: StackState, p: int, face: int, owner: int, height: int | None, *, place: bool
) -> PlayerMove:
    if owner == p:
        raise IllegalMoveError(
            "You may never stack directly on your own colour.", IllegalReason.OWN_COLOUR
        )
    heights = sorted(h for o, h in state.targets[face] if o == owner)
    name = state.name(owner)
    if height is not None:
        if height not in heights:
            raise IllegalMoveError(
                f"{name} has no "
                + ("unstacked " + str(face) if height == 1 else f"{height}-high pile of {face}s")
                + ".",
                IllegalReason.NO_SUCH_PILE,
            )
        heights = [height]
    if not heights:
        raise IllegalMoveError(_why_no_pile(state, p, face, owner), IllegalReason.NO_SUCH_PILE)
    if len(heights) > 1:
        options = [pile_words(name, face, h) for h in heights]
        verb = "place on" if place else f"stack {face} on"
        raise AmbiguousMoveError(
            f"Which one: {', or '.join(options)}? Add the height, e.g. "
            f"`{verb} {name} {heights[-1]}`.",
            tuple(PLACES[(owner, h)] if place else STACKS[(face, owner, h)] for h in heights),
        )
    h = heights[0]
    return PLACES[(owner, h)] if place else STACKS[(face, owner, h)]


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
