"""The **My move** panel's logic, without Discord: a player's decision as small steps
whose every choice is legal now.

A turn is one of up to a few hundred actions (each piece's destinations and new faces),
more than Discord's 25 components, and a player thinks of it in two steps anyway: pick a
piece, then where it goes or what it shows. So the panel walks a tree named by a short
:data:`Path` carried in a button's custom id:

=========  =====================================================================
``""``     the root: the player's pieces that can act (on their turn), and Resign…;
           before the board is set up, the first player's menu of colours (and Resign…)
``p<sq>``  a piece (``pc1``): its legal destinations (a menu) and its legal new faces
``r``      resigning: the confirmation (either player, at any time)
=========  =====================================================================

Every step is computed from the state, so a path that no longer leads anywhere (the
table moved on, the piece was taken over) has no node (:func:`node` returns ``None``).
Move codes (:func:`move_code`) are the notation with dots for spaces (``c1-e3``,
``set.c1.4``, ``colours.red.yellow``) and ``resign.SEAT``.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from bot.games import steps
from bot.games.colorstack.words import (
    SQUARES,
    colours_words,
    die_words,
    pair_words,
    piece_words,
)
from bot.games.steps import Path, Style
from bot.text import label_name
from catalog import n, t
from catalog.colorstack import colour_name
from engine.colorstack.board import (
    ALL_COLOURS,
    COLOUR_NAMES,
    other_colours,
    parse_square,
    square_name,
)
from engine.colorstack.moves import (
    COLOUR_CHOICES,
    Colours,
    Move,
    PlayerChoice,
    Resign,
    Set,
    move,
    set_face,
)
from engine.colorstack.state import ColorStackState

__all__ = [
    "Choice",
    "Menu",
    "Node",
    "Path",
    "destination_words",
    "leaves",
    "move_code",
    "move_of_code",
    "node",
]

Choice = steps.Choice[PlayerChoice]  # one button of a step
MENU_SIZE = 25  # a select's options at most


@dataclass(frozen=True, slots=True)
class Option:
    """One entry of a menu: a move, with a label and a line of description."""

    label: str
    move: PlayerChoice
    description: str | None = None


@dataclass(frozen=True, slots=True)
class Menu:
    """A select of moves (at most :data:`MENU_SIZE`)."""

    placeholder: str
    options: tuple[Option, ...]


@dataclass(frozen=True, slots=True)
class Node:
    """A step of the decision: what it says and asks, its menus (first) and button rows,
    the way back (``None`` at the root), and the square whose piece it shows selected
    (the panel's picture highlights its destinations)."""

    question: str
    rows: tuple[tuple[Choice, ...], ...] = ()
    menus: tuple[Menu, ...] = ()
    back: Path | None = None
    selected: int | None = None
    lines: tuple[str, ...] = field(default=())

    @property
    def choices(self) -> tuple[Choice, ...]:
        return tuple(choice for row in self.rows for choice in row)


# ------------------------------------------------------------------ words


def destination_words(state: ColorStackState, frm: int, to: int) -> tuple[str, str | None]:
    """A destination's label and description: ``e3`` (empty), ``c6 · stack on 🟦 blue 5``
    and ``c6 · 🏆 stack on 🟦 blue 5: all four colours, you win``."""
    name = square_name(to)
    below = state.top(to)
    if below is None:
        return name, t("colorstack.panel.empty_square")
    die = die_words(below)
    if state.colour_masks[frm] | state.colour_masks[to] == ALL_COLOURS:
        return t("colorstack.panel.stack_on_wins", square=name, die=die), t(
            "colorstack.panel.you_win"
        )
    height = len(state.stack(to)) + len(state.stack(frm))
    return t("colorstack.panel.stack_on", square=name, die=die), t(
        "colorstack.panel.height", height=height
    )


def _actions(state: ColorStackState, seat: int) -> dict[int, tuple[list[int], list[int]]]:
    """``seat``'s pieces that can act now: square -> (destinations, new faces)."""
    if state.is_over or state.current_player != seat:
        return {}
    out: dict[int, tuple[list[int], list[int]]] = {}
    for mv in state.turn_moves():
        frm = mv.frm if isinstance(mv, Move) else mv.square
        ends, faces = out.setdefault(frm, ([], []))
        if isinstance(mv, Move):
            ends.append(mv.to)
        else:
            faces.append(mv.face)
    return dict(sorted(out.items()))


def resign_choice() -> Choice:
    """The root's **Resign…** (either player, at any time)."""
    return Choice(t("colorstack.panel.resign"), "danger", "🏳️", path="r")


def _colours(state: ColorStackState, seat: int, names: Sequence[str]) -> Node:
    """Before the board is set up: the first player's menu of their two colours, in
    order; the other player waits. Either may resign (at any time)."""
    first = state.first
    assert first is not None
    if seat != first:
        return Node(t("colorstack.panel.waiting_colours", name=names[first]), ((resign_choice(),),))
    options = []
    other = label_name(state.players[1 - seat])
    for choice in COLOUR_CHOICES:
        a, b = (f"{SQUARES[c]} {colour_name(c)}" for c in choice.pair)
        pair = pair_words(other_colours(choice.pair))
        label = t("colorstack.panel.colours_option", first=a, second=b)
        options.append(
            Option(
                label,
                choice,
                # a description is plain text that mentions nobody: the name as typed, unescaped
                t("colorstack.panel.colours_other", name=other, colours=pair),
            )
        )
    menu = Menu(t("colorstack.panel.colours_menu"), tuple(options))
    question = t("colorstack.panel.choose", other=names[1 - seat])
    return Node(question, ((resign_choice(),),), menus=(menu,))


def _root(state: ColorStackState, seat: int, names: Sequence[str]) -> Node:
    actions = _actions(state, seat)
    if not actions:
        current = state.current_player
        if current is None:
            return Node(t("colorstack.panel.waiting_table"), ((resign_choice(),),))
        return Node(t("colorstack.panel.waiting", name=names[current]), ((resign_choice(),),))
    choices = []
    for sq, (ends, _faces) in actions.items():
        top = state.top(sq)
        assert top is not None
        height = len(state.stack(sq))
        square, face = square_name(sq), top & 7
        if height > 1:
            label = t("colorstack.panel.piece_stack", square=square, face=face, height=height)
        else:
            label = t("colorstack.panel.piece", square=square, face=face)
        style: Style = "primary" if ends else "secondary"
        choices.append(Choice(label, style, SQUARES[top >> 3], path=f"p{square}"))
    rows = steps.rows(choices)
    rows.append((resign_choice(),))
    wins = state.winning_moves(seat)
    question = t("colorstack.panel.your_turn_win" if wins else "colorstack.panel.your_turn")
    return Node(question, tuple(rows))


def _piece(state: ColorStackState, seat: int, sq: int) -> Node | None:
    found = _actions(state, seat).get(sq)
    if found is None:
        return None
    ends, faces = found
    top = state.top(sq)
    assert top is not None
    face = top & 7
    menus = []
    if ends:
        ordered = sorted(ends, key=lambda to: (state.top(to) is None, to))  # stacks first
        options = []
        for to in ordered:
            label, description = destination_words(state, sq, to)
            options.append(Option(label, move(sq, to), description))
        for start in range(0, len(options), MENU_SIZE):
            part = options[start : start + MENU_SIZE]
            first, last = square_name(ordered[start]), square_name(ordered[start + len(part) - 1])
            if len(options) > MENU_SIZE:
                placeholder = t(
                    "colorstack.panel.move_to_range", square=square_name(sq), first=first, last=last
                )
            else:
                placeholder = t("colorstack.panel.move_to", square=square_name(sq))
            menus.append(Menu(placeholder, tuple(part)))
    sets = [
        Choice(t("colorstack.panel.set", face=face), "secondary", move=set_face(sq, face))
        for face in sorted(faces)
    ]
    lines = [f"**{piece_words(state, sq)}**"]
    if ends:
        stacks = sum(1 for to in ends if state.top(to) is not None)
        steps_words = n("colorstack.panel.steps", face)
        reach = n("colorstack.panel.squares", len(ends))
        if stacks:
            lines.append(
                t("colorstack.panel.reach_stacks", steps=steps_words, squares=reach, stacks=stacks)
            )
        else:
            lines.append(t("colorstack.panel.reach", steps=steps_words, squares=reach))
    else:
        lines.append(n("colorstack.panel.no_path", face))
    question = t("colorstack.panel.where")
    return Node(
        question, tuple(steps.rows(sets)), tuple(menus), back="", selected=sq, lines=tuple(lines)
    )


def _resign(state: ColorStackState, seat: int, names: Sequence[str]) -> Node | None:
    if state.is_over:
        return None
    other = names[1 - seat]
    return Node(
        t("colorstack.panel.confirm_resign", other=other),
        ((Choice(t("colorstack.panel.yes_resign"), "danger", "🏳️", move=Resign(seat)),),),
        back="",
    )


def node(
    state: ColorStackState, seat: int, path: Path, names: Sequence[str] | None = None
) -> Node | None:
    """The step at ``path`` of ``seat``'s panel, or ``None`` when that step does not
    exist (any more). ``names``: the players as the questions show them (the caller's
    escaped names; the raw names by default)."""
    if state.is_over:
        return None
    shown = tuple(names) if names is not None else state.players
    if state.choosing_colours:  # before the board: the colours; resigning, at any time
        if path == "r":
            return _resign(state, seat, shown)
        return _colours(state, seat, shown) if path == "" else None
    if state.setup is None:
        return None
    if path == "":
        return _root(state, seat, shown)
    if path == "r":
        return _resign(state, seat, shown)
    if path.startswith("p"):
        sq = parse_square(path[1:], state.rows)
        return None if sq is None else _piece(state, seat, sq)
    return None


def leaves(state: ColorStackState, seat: int) -> set[PlayerChoice]:
    """Every move the panel reaches from the root (a test checks that it is every legal
    move of the seat, and its resignation)."""

    def moves(step: Node) -> list[PlayerChoice]:
        menus = [option.move for menu in step.menus for option in menu.options]
        return menus + list(steps.choice_moves(step))

    return steps.leaves(lambda path: node(state, seat, path), moves)


def seat_words(state: ColorStackState, seat: int) -> str:
    """``Your colours: 🟥 red & 🟨 yellow``."""
    return t("colorstack.panel.your_colours", colours=colours_words(state, seat))


# ------------------------------------------------------------------ move codes

_NAME = "|".join(COLOUR_NAMES)
_CODE = re.compile(
    r"(?:(?P<frm>[a-i][1-9])-(?P<to>[a-i][1-9])|set\.(?P<sq>[a-i][1-9])\.(?P<face>[1-6])|resign\.(?P<seat>[01])"
    rf"|colours\.(?P<first>{_NAME})\.(?P<second>{_NAME}))"
)


def move_code(mv: PlayerChoice) -> str:
    """A move in a custom id: ``c1-e3``, ``set.c1.4``, ``resign.0``, ``colours.red.yellow``."""
    if isinstance(mv, Colours):
        return f"colours.{COLOUR_NAMES[mv.first]}.{COLOUR_NAMES[mv.second]}"
    if isinstance(mv, Move):
        return f"{square_name(mv.frm)}-{square_name(mv.to)}"
    if isinstance(mv, Set):
        return f"set.{square_name(mv.square)}.{mv.face}"
    if isinstance(mv, Resign):
        return f"resign.{mv.seat}"
    raise ValueError(f"not a player's move: {mv!r}")


def move_of_code(code: str, rows: int = 9) -> PlayerChoice | None:
    """The move :func:`move_code` wrote (squares on a board of ``rows`` rows), or
    ``None`` for anything else."""
    match = _CODE.fullmatch(code)
    if match is None:
        return None
    if match["first"] is not None:
        return Colours(COLOUR_NAMES.index(match["first"]), COLOUR_NAMES.index(match["second"]))
    if match["seat"] is not None:
        return Resign(int(match["seat"]))
    if match["sq"] is not None:
        sq = parse_square(match["sq"], rows)
        return None if sq is None else set_face(sq, int(match["face"]))
    frm, to = parse_square(match["frm"], rows), parse_square(match["to"], rows)
    return None if frm is None or to is None else move(frm, to)
