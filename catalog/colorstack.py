"""Color Stack's words in the language being spoken (:func:`catalog.speaking`): buttons,
finished turns, the ending, refused moves and hints, for every front end.

The English is the engine's (:mod:`engine.colorstack.describe`, the parser's and the
rules' refusals in :mod:`engine.colorstack.notation` and
:meth:`~engine.colorstack.state.ColorStackState.refusal`, the greedy AI's reasons in
:mod:`engine.colorstack.ai`), byte for byte but for the backticks that mark a refusal's notation as
inline code (`` `set c1 4` ``, in every language alike): a test plays random games and
compares them.
The words live in ``colorstack.po`` under keys ``colorstack.*``; the Japanese uses the
original game's own terms (積む, 前後左右, 強さ, 先手/後手, 目).

A refused move carries its reason but not its facts (the squares, the faces, the names),
so :func:`error_words` reads them back from the engine's English message, which the
engine words the same way every time: each refusal's pattern is listed here once, and a
message no pattern knows is said as the engine wrote it. Squares, notation and names are
never translated.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

from catalog import isolate, n, t
from engine.colorstack.ai import GreedyPlayer, rate
from engine.colorstack.board import (
    ALL_COLOURS,
    COLOUR_LETTERS,
    COLOUR_NAMES,
    other_colours,
    square_name,
)
from engine.colorstack.moves import Colours, Move, PlayerChoice, PlayerMove, Resign, Set
from engine.colorstack.record import action_text
from engine.colorstack.render import board_lines
from engine.colorstack.rules import DEFAULT_TURN_LIMIT
from engine.colorstack.state import (
    FOUR_COLOURS,
    REPETITION,
    RESIGNATION,
    TURN_LIMIT,
    ColorStackState,
    stack_text,
)
from engine.errors import MoveError
from engine.game import TurnEnded

__all__ = [
    "WORDS",
    "ColorStackWords",
    "board_name",
    "colour_name",
    "die_words",
    "end_words",
    "error_text",
    "error_words",
    "hint",
    "last_turn_words",
    "move_words",
    "piece_words",
    "render_text",
    "rules_text",
    "stack_words",
    "turn_words",
]

COLOUR_KEYS = tuple(f"colorstack.colour.{name}" for name in COLOUR_NAMES)


# ------------------------------------------------------------------ dice and stacks


def colour_name(colour: int) -> str:
    """A colour (0–3) in words: ``yellow``, 黄."""
    return t(COLOUR_KEYS[colour])


def board_name(board: str) -> str:
    """A board's setting value in words: ``light``, ライト."""
    return t(f"colorstack.board.{board}") if board in ("light", "heavy") else board


def die_words(d: int) -> str:
    """``yellow 4``: a die's colour and face."""
    return t("colorstack.die", colour=colour_name(d >> 3), face=d & 7)


def stack_words(stack: tuple[int, ...]) -> str:
    """``blue 5, green 2`` bottom to top (``yellow 4`` for a lone die)."""
    return t("colorstack.stack.separator").join(die_words(d) for d in stack)


def piece_words(state: ColorStackState, sq: int) -> str:
    """``yellow 4 on c1`` or ``green 2 on c6 (on blue 5)``: a piece in words."""
    stack = state.stack(sq)
    square = square_name(sq)
    if not stack:
        return t("colorstack.piece.nothing", square=square)
    if len(stack) > 1:
        return t(
            "colorstack.piece.stacked",
            die=die_words(stack[-1]),
            square=square,
            under=stack_words(stack[:-1]),
        )
    return t("colorstack.piece.alone", die=die_words(stack[-1]), square=square)


# ------------------------------------------------------------------ moves and turns


def move_words(state: ColorStackState, mv: PlayerChoice) -> str:
    """A legal move in the mover's words, for a button: ``Move yellow 4 c1 → c5``,
    ``Stack yellow 1 c5 → c6 onto blue 5, green 2 (wins: four colours)``, ``Set c1 to 6
    (now yellow 4)``, ``Resign (the other player wins)``, ``Red, then yellow (the other
    player: blue, then green)``."""
    if isinstance(mv, Colours):
        first, second, third, fourth = (colour_name(c) for c in (*mv.pair, *other_colours(mv.pair)))
        return t("colorstack.move.colours", first=first, second=second, third=third, fourth=fourth)
    if isinstance(mv, Resign):
        return t("colorstack.move.resign")
    if isinstance(mv, Set):
        top = state.top(mv.square)
        square = square_name(mv.square)
        if top is None:
            return t("colorstack.move.set", square=square, face=mv.face)
        return t("colorstack.move.set_now", square=square, face=mv.face, die=die_words(top))
    stack = state.stack(mv.frm)
    what = die_words(stack[-1]) if stack else t("colorstack.move.piece")
    if len(stack) > 1:
        what = t("colorstack.move.with_below", what=what, below=len(stack) - 1)
    below = state.stack(mv.to)
    route = f"{square_name(mv.frm)} → {square_name(mv.to)}"
    if not below:
        return t("colorstack.move.move", what=what, route=route)
    wins = state.colour_masks[mv.frm] | state.colour_masks[mv.to] == ALL_COLOURS
    key = "colorstack.move.stack_wins" if wins else "colorstack.move.stack"
    return t(key, what=what, route=route, below=stack_words(below))


def _board_as_left(state: ColorStackState, entry: int) -> bool:
    """Whether the board is as the turn at ``entry`` of the log left it: no set or move
    after it (a resignation changes nothing on the board)."""
    return all(isinstance(mv, Resign) for _, mv in state.log[entry + 1 :])


def _turn_text(state: ColorStackState, seat: int, mv: PlayerMove, entry: int) -> str:
    """The turn at ``entry`` of the log (the position after it is the current one when it
    is the last)."""
    who = isolate(state.name(seat))
    if isinstance(mv, Set):
        top = state.top(mv.square) if _board_as_left(state, entry) else None
        square = square_name(mv.square)
        if top is None:
            return t("colorstack.turn.set", who=who, square=square, face=mv.face)
        return t(
            "colorstack.turn.set_die",
            who=who,
            colour=colour_name(top >> 3),
            square=square,
            face=mv.face,
        )
    if isinstance(mv, Move):
        last = _board_as_left(state, entry)
        stack = state.stack(mv.to) if last else ()
        frm, to = square_name(mv.frm), square_name(mv.to)
        if not last or not stack:
            return t("colorstack.turn.moved", who=who, frm=frm, to=to)
        moved = state.moved_dice(entry)
        mover, below = stack[-moved:], stack[:-moved]
        if not below:
            return t("colorstack.turn.moved_die", who=who, die=die_words(mover[-1]), frm=frm, to=to)
        return t(
            "colorstack.turn.stacked",
            who=who,
            die=die_words(mover[-1]),
            frm=frm,
            to=to,
            below=stack_words(below),
            stack=stack_words(stack),
        )
    return t("colorstack.turn.resigned", who=who)


def turn_words(state: ColorStackState, event: TurnEnded) -> str:
    """The turn ``event`` reports (the latest turn of its seat), in words for everyone,
    with what followed it: a skip, a win, a draw."""
    log = state.log
    for index in range(len(log) - 1, -1, -1):
        seat, mv = log[index]
        if seat != event.seat or isinstance(mv, Resign):
            continue
        text = _turn_text(state, seat, mv, index)
        if index == len(log) - 1:
            if state.is_over:
                text = t("colorstack.turn.then", turn=text, then=end_words(state))
            elif state.to_move == seat:
                skipped = t(
                    "colorstack.turn.skipped",
                    other=isolate(state.name(1 - seat)),
                    who=isolate(state.name(seat)),
                )
                text = t("colorstack.turn.then", turn=text, then=skipped)
        return text
    return t("colorstack.turn.none_yet", who=isolate(state.name(event.seat)))


def last_turn_words(state: ColorStackState) -> str | None:
    """The most recent set or move in words, or ``None`` before the first."""
    log = state.log
    for index in range(len(log) - 1, -1, -1):
        seat, mv = log[index]
        if not isinstance(mv, Resign):
            return _turn_text(state, seat, mv, index)
    return None


def end_words(state: ColorStackState) -> str:
    """How the game ended, in words (empty while it goes on)."""
    ended, winner = state.ended_by, state.winner
    if ended == FOUR_COLOURS and winner is not None:
        return t("colorstack.end.four_colours", winner=isolate(state.name(winner)))
    if ended == RESIGNATION and winner is not None:
        return t(
            "colorstack.end.resignation",
            loser=isolate(state.name(1 - winner)),
            winner=isolate(state.name(winner)),
        )
    if ended == REPETITION:
        return t("colorstack.end.repetition")
    if ended == TURN_LIMIT:
        return n("colorstack.end.turn_limit", state.turn_limit)
    return ""


# ------------------------------------------------------------------ the board as text


def _status_line(state: ColorStackState) -> str:
    if state.is_over:
        return f"🏁 {end_words(state)}"
    if state.choosing_colours:
        assert state.first is not None
        return t("colorstack.render.choosing", name=isolate(state.name(state.first)))
    if state.setup is None:
        return t("colorstack.render.setting_up")
    return t("colorstack.render.to_move", name=isolate(state.name(state.to_move)))


def _player_line(state: ColorStackState, seat: int) -> str:
    mark = "▶" if not state.is_over and state.current_player == seat else " "
    first, second = state.colours[seat]
    colours = t(
        "colorstack.render.colours",
        first=colour_name(first),
        first_letter=COLOUR_LETTERS[first],
        second=colour_name(second),
        second_letter=COLOUR_LETTERS[second],
    )
    key = "colorstack.render.player_first" if state.first == seat else "colorstack.render.player"
    return t(key, mark=mark, name=isolate(state.name(seat)), colours=colours)


def render_text(state: ColorStackState, viewer: int | None = None) -> str:
    """The board in plain text, as the engine draws it (:mod:`engine.colorstack.render`),
    its words in the language spoken (the same for every ``viewer``: nothing is hidden)."""
    title = t(
        "colorstack.render.title",
        title=t("colorstack.title"),
        board=board_name(state.settings.board),
        status=_status_line(state),
    )
    lines = [title]
    if state.setup is None:
        return "\n".join(lines)
    lines.extend(_player_line(state, seat) for seat in (0, 1))
    lines.append("")
    lines.extend(board_lines(state))
    tall = [sq for sq in range(state.squares) if len(state.stack(sq)) > 1]
    if tall:
        lines.append("")
        stacks = " · ".join(f"{square_name(sq)} {stack_text(state.stack(sq))}" for sq in tall)
        lines.append(t("colorstack.render.stacks", stacks=stacks))
    lines.append("")
    recent = last_turn_words(state)
    if recent is not None:
        lines.append(t("colorstack.render.last", turn=recent))
    if state.is_over:  # no limit ahead to count down to
        lines.append(n("colorstack.render.turns_over", state.turns))
    else:
        lines.append(
            t(
                "colorstack.render.turns",
                played=state.turns,
                left=state.turns_left,
                limit=state.turn_limit,
            )
        )
    seen = state.repetitions()
    if not state.is_over and seen >= 2:
        lines.append(t("colorstack.render.repeated", seen=seen))
    if viewer is not None and viewer == state.current_player:
        lines.append(t("colorstack.render.your_move"))
    return "\n".join(lines)


def rules_text() -> str:
    """The rules in brief and how to type a move (the engine's ``rules_text``)."""
    return t("colorstack.rules.text", limit=DEFAULT_TURN_LIMIT)


# ------------------------------------------------------------------ hints


def hint(state: ColorStackState) -> tuple[PlayerChoice, str]:
    """The greedy AI's move for the seat to act (the engine's, :class:`GreedyPlayer`),
    and why, in words."""
    chosen, _english = GreedyPlayer().hint(state)
    if isinstance(chosen, Colours):
        return chosen, t("colorstack.hint.colours", action=str(chosen))
    mv = chosen
    text = action_text(mv)
    if state.winning_moves():
        assert isinstance(mv, Move)
        return mv, t("colorstack.hint.wins", action=text, square=square_name(mv.to))
    me = state.to_move
    rated = [rate(state, legal) for legal in state.turn_moves()]
    fewest = min(r.gives for r in rated)
    avoided = sum(1 for r in rated if r.gives == fewest) < len(rated)
    pick = next(r for r in rated if r.move == mv)
    opponent = isolate(state.name(1 - me))
    if fewest:
        return mv, t("colorstack.hint.fewest", opponent=opponent, action=text, fewest=fewest)
    way = "avoided" if avoided else "either"
    if pick.threats:
        return mv, n(f"colorstack.hint.threats.{way}", pick.threats, action=text, opponent=opponent)
    if pick.colours >= 2:
        return mv, t(
            f"colorstack.hint.builds.{way}", action=text, opponent=opponent, colours=pick.colours
        )
    kind = "set" if isinstance(mv, Set) else "move"
    return mv, t(f"colorstack.hint.safe_{kind}.{way}", action=text, opponent=opponent)


# ------------------------------------------------------------------ refused moves


@dataclass(frozen=True, slots=True)
class _Refusal:
    """One way the engine words a refusal: its message as a pattern, the catalog key
    that says it, and how the facts the pattern reads become the key's placeholders."""

    key: str
    pattern: re.Pattern[str]
    facts: Callable[[Mapping[str, str]], dict[str, Any]] | None = None


def _how(found: Mapping[str, str]) -> str:
    """How to type what is asked, as the refusal ended: a move, or (while the first player
    chooses them) the two colours."""
    if found.get("how") == _COLOURS_HOW:
        return t("colorstack.error.colours_syntax")
    return t("colorstack.error.syntax")


def _syntax(found: Mapping[str, str]) -> dict[str, Any]:
    return {"syntax": _how(found)}


def _echo(found: Mapping[str, str]) -> dict[str, Any]:
    return {**{k: v for k, v in found.items() if k != "how"}, "syntax": _how(found)}


def _colour_of(name: str) -> str:
    return colour_name(COLOUR_NAMES.index(name))


def _colours(found: Mapping[str, str]) -> dict[str, Any]:
    names = [_colour_of(name) for name in found["colours"].split(" and ")]
    return {**found, "colours": t("colorstack.colours.and").join(names)}


def _not_yours(found: Mapping[str, str]) -> dict[str, Any]:
    return {**found, "colour": _colour_of(found["colour"])}


def _off_board(found: Mapping[str, str]) -> dict[str, Any]:
    return {**found, "board": board_name(found["board"])}


_SQ = r"[a-i][1-9]"
_COLOUR = "|".join(COLOUR_NAMES)
_SYNTAX = re.escape("Type a move as c1-e3, a set as set c1 4, or resign.")
_COLOURS_HOW = "Name your two colours, first and second: colours red yellow."
_COLOURS_SYNTAX = re.escape(_COLOURS_HOW)
_EITHER_SYNTAX = rf"(?P<how>{_SYNTAX}|{_COLOURS_SYNTAX})"  # a move's, or the colours'


def _colours_syntax(found: Mapping[str, str]) -> dict[str, Any]:
    return {**found, "syntax": t("colorstack.error.colours_syntax")}


_PLURAL = frozenset({"colorstack.error.no_path"})
_REFUSALS: tuple[_Refusal, ...] = tuple(
    _Refusal(key, re.compile(pattern, re.DOTALL), facts)
    for key, pattern, facts in (
        # the parser (engine/colorstack/notation.py): not a move at all
        ("colorstack.error.empty", rf"That's empty\. {_EITHER_SYNTAX}", _syntax),
        ("colorstack.error.too_long", rf"That's too long to be a move \(“(?P<text>.*)”\)\. "
         rf"{_EITHER_SYNTAX}", _echo),
        ("colorstack.error.resign_alone", rf"Type resign alone\. {_SYNTAX}", _syntax),
        ("colorstack.error.typo", rf"“(?P<text>.*)” is not a command: did you mean "
         rf"(?P<command>set|resign)\? {_SYNTAX}", _echo),
        ("colorstack.error.not_a_move", rf"“(?P<text>.*)” is not a move\. {_EITHER_SYNTAX}",
         _echo),
        ("colorstack.error.not_a_square", r"“(?P<text>.*)” is not a square: columns a to i, "
         r"rows 1 to (?P<rows>\d+) \(like c1\)\.", None),
        ("colorstack.error.missing_target", rf"Where does (?P<square>{_SQ}) go\? Name the end "
         rf"square too: (?P=square)-e3 \(or set (?P=square) 4 to change its number\)\.", None),
        ("colorstack.error.set_syntax", r"Name the piece's square and the new number: set c1 4\.",
         None),
        ("colorstack.error.missing_face", rf"Which number should (?P<square>{_SQ}) show\? "
         rf"set (?P=square) 4\.", None),
        ("colorstack.error.set_too_many", rf"A set names one square and one number: "
         rf"set (?P<square>{_SQ}) 4\.", None),
        ("colorstack.error.bad_face", r"A die shows a number from 1 to 6, not “(?P<text>.*)”\.",
         None),
        ("colorstack.error.not_a_colour", rf"“(?P<text>.*)” is not a colour: red, blue, yellow "
         rf"or green\. {_COLOURS_SYNTAX}", _colours_syntax),
        ("colorstack.error.colours_syntax", _COLOURS_SYNTAX, None),
        # the rules (ColorStackState.refusal): a move not allowed now
        ("colorstack.error.game_over", r"The game is over\.", None),
        ("colorstack.error.resign_before_setup",
         r"Nobody can resign before the board is set up\.", None),
        ("colorstack.error.move_before_setup", r"Nobody can move before the board is set up\.",
         None),
        ("colorstack.error.choosing_first", r"(?P<player>.+) chooses colours first: nobody can "
         r"move before the board is set up\.", None),
        ("colorstack.error.colours_by_first", r"(?P<player>.+) moves first and chooses the "
         r"colours\.", None),
        ("colorstack.error.colours_different", r"Choose two different colours of red, blue, "
         r"yellow and green\.", None),
        ("colorstack.error.colours_once", r"Colours are chosen once, by the first player, "
         r"before the board is set up\.", None),
        ("colorstack.error.already_set_up", r"The game is already set up\.", None),
        ("colorstack.error.no_seat", r"There is no seat (?P<seat>-?\d+) at this table\.", None),
        ("colorstack.error.resign_for_other", r"Only (?P<player>.+) can resign for themselves\.",
         None),
        ("colorstack.error.not_your_turn", r"It's (?P<player>.+)'s turn\.", None),
        ("colorstack.error.off_board", r"(?P<square>\S+) is off the board "
         r"\((?P<board>light|heavy): a1 to i(?P<rows>\d+)\)\.", _off_board),
        ("colorstack.error.black_empty", rf"(?P<square>{_SQ}) is black: no piece stands there\.",
         None),
        ("colorstack.error.no_piece", rf"There is no piece on (?P<square>{_SQ})\.", None),
        ("colorstack.error.not_your_piece", rf"(?P<square>{_SQ}) is not your piece: its top die "
         rf"is (?P<player>.+)'s (?P<colour>{_COLOUR}) (?P<face>[1-6])\.", _not_yours),
        ("colorstack.error.not_their_piece", rf"(?P<square>{_SQ}) is not (?P<mover>.+)'s piece: "
         rf"its top die is (?P<player>.+)'s (?P<colour>{_COLOUR}) (?P<face>[1-6])\.", _not_yours),
        ("colorstack.error.no_such_face", r"A die shows 1 to 6, not (?P<face>-?\d+)\.", None),
        ("colorstack.error.same_face", rf"(?P<square>{_SQ}) already shows (?P<face>[1-6]): set it "
         r"to another number\.", None),
        ("colorstack.error.nowhere", rf"A move must end elsewhere: (?P<square>{_SQ})-(?P=square) "
         r"goes nowhere\.", None),
        ("colorstack.error.black_square", rf"(?P<square>{_SQ}) is black\.", None),
        ("colorstack.error.no_path", rf"No path of exactly (?P<count>[1-6]) steps? leads from "
         rf"(?P<frm>{_SQ}) to (?P<to>{_SQ})\.", None),
        ("colorstack.error.first_turn", r"Nothing may stack on the first player's first turn: "
         r"choose an empty square\.", None),
        ("colorstack.error.too_weak_six", r"Your 1 cannot stack on a 6: a piece stacks only on "
         r"one as strong or weaker \(6 beats 1, but 1 not 6\)\.", None),
        ("colorstack.error.too_weak", r"Your (?P<face>[1-6]) cannot stack on an? (?P<below>[1-6]): "
         r"a piece stacks only on one as strong or weaker\.", None),
        ("colorstack.error.too_weak_named_six", r"(?P<mover>.+)'s 1 cannot stack on a 6: a piece "
         r"stacks only on one as strong or weaker \(6 beats 1, but 1 not 6\)\.", None),
        ("colorstack.error.too_weak_named", r"(?P<mover>.+)'s (?P<face>[1-6]) cannot stack on an? "
         r"(?P<below>[1-6]): a piece stacks only on one as strong or weaker\.", None),
        ("colorstack.error.shared_colour", rf"The stacks on (?P<frm>{_SQ}) and (?P<to>{_SQ}) both "
         rf"hold (?P<colours>(?:{_COLOUR})(?: and (?:{_COLOUR}))*): a stack never holds a colour "
         r"twice \(unless it completes all four\)\.", _colours),
    )
)  # fmt: skip


def error_words(error: MoveError) -> tuple[str, dict[str, Any]] | None:
    """The catalog key that says ``error`` and its placeholders' facts, or ``None`` for a
    message of the engine's that no pattern here knows."""
    message = str(error)
    for refusal in _REFUSALS:
        found = refusal.pattern.fullmatch(message)
        if found is None:
            continue
        facts = found.groupdict()
        return refusal.key, refusal.facts(facts) if refusal.facts else dict(facts)
    return None


def error_text(error: MoveError) -> str:
    """A refused move in words (the engine's own English for a message no pattern
    knows)."""
    found = error_words(error)
    if found is None:
        return str(error)
    key, facts = found
    if key in _PLURAL:  # said with n(), its count the fact ``count``
        return n(key, int(facts.pop("count")), **facts)
    return t(key, **facts)


# ------------------------------------------------------------------ the game's words


class ColorStackWords:
    """Color Stack's :class:`~catalog.games.GameWords` (every method speaks the current
    language)."""

    def title(self) -> str:
        return t("colorstack.title")

    def move_words(self, state: Any, move: Any) -> str:
        return move_words(state, move)

    def turn_words(self, state: Any, event: TurnEnded) -> str:
        return turn_words(state, event)

    def error_text(self, error: MoveError) -> str:
        return error_text(error)

    def hint(self, state: Any) -> tuple[Any, str]:
        return hint(state)

    def last_turn_words(self, state: Any) -> str | None:
        return last_turn_words(state)

    def end_words(self, state: Any) -> str:
        return end_words(state)

    def die_words(self, d: int) -> str:
        return die_words(d)

    def render_text(self, state: Any, viewer: int | None = None) -> str:
        return render_text(state, viewer)

    def rules_text(self) -> str:
        return rules_text()


WORDS = ColorStackWords()
