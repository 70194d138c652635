"""The **My turn** panel's words: the player's own row first (dice grouped by face, piles,
total), then their legal moves grouped by what they achieve (:mod:`engine.stack.advice`),
the greedy AI's pick marked as the suggestion. Pure functions (no Discord objects); the
buttons are :func:`bot.views.panel_view`'s."""

from __future__ import annotations

from bot.text import MESSAGE_LIMIT, cut, escape_name, fit_message, label_name
from catalog import t
from catalog.stack import WORDS
from engine.stack.advice import Advice, Group
from engine.stack.moves import Reroll
from engine.stack.render import SUPERSCRIPT, pile_words_by_owner, short_name, square
from engine.stack.state import StackState

__all__ = ["GROUP_EMOJI", "SUGGESTED", "move_label", "move_note", "panel_text"]

SUGGESTED = "⭐"
GROUP_EMOJI = {Group.CAPTURE: "💥", Group.SAFE: "🛡️", Group.EXPOSED: "⚔️", Group.REROLL: "🎲"}
GROUP_TITLES = {  # each group's title: its catalog key
    Group.CAPTURE: "stack.group.capture",
    Group.SAFE: "stack.group.safe",
    Group.EXPOSED: "stack.group.exposed",
    Group.REROLL: "stack.group.reroll",
}
LABEL_NAME = 16  # a name's width in a button's label
LINES_PER_GROUP = 5  # moves a group lists in words (all are on the buttons or menus)


def _pile(face: int, height: int) -> str:
    """``single 4``, ``5²``, ``6³``: a target pile in short."""
    return t("stack.label.single", face=face) if height == 1 else f"{face}{SUPERSCRIPT[height]}"


def move_label(state: StackState, advice: Advice) -> str:
    """A button's or menu option's words (plain text, at most 80 characters):
    ``6 on 🟩 carol's 6³``, ``Reroll a 3``. The owner's colour square tells apart two
    players whose names are cut alike."""
    if isinstance(advice.move, Reroll):
        return t("stack.label.reroll", face=advice.face)
    assert advice.owner is not None and advice.height is not None
    name = short_name(" ".join(state.name(advice.owner).split()), LABEL_NAME)
    who = f"{square(advice.owner)} {label_name(name)}"
    pile = _pile(advice.face, advice.height)
    return cut(t("stack.label.stack", face=advice.face, who=who, pile=pile), 80)


def move_note(advice: Advice) -> str:
    """What a move achieves, in short: ``capture +6``, ``+5, −5 for them``, ``ends the
    round``."""
    if advice.group is Group.REROLL:
        return t("stack.note.reroll")
    capture = advice.group is Group.CAPTURE
    parts = [t("stack.note.capture", gain=advice.gain) if capture else f"+{advice.gain}"]
    if advice.loss:
        key = "stack.note.loss_teammate" if advice.teammate else "stack.note.loss"
        parts.append(t(key, loss=advice.loss))
    if advice.ends_round:
        parts.append(t("stack.note.ends"))
    return t("stack.note.comma").join(parts)


def _line(state: StackState, advice: Advice) -> str:
    mark = f"{SUGGESTED} " if advice.suggested else ""
    return f"{mark}{escape_name(move_label(state, advice))} · {move_note(advice)}"


def panel_text(state: StackState, seat: int, advice: list[Advice]) -> str:
    """The panel: what to decide, the player's own row, the suggestion, then each group of
    moves (a few lines each; every move is on the buttons or menus). At most 2,000
    characters; names escaped."""
    if state.placing is not None:
        lines = [t("stack.panel.placing", face=state.placing)]
    else:
        key = "stack.panel.turn_last" if state.in_last_turns else "stack.panel.turn"
        lines = [t(key, round=state.round_number)]
    piles = pile_words_by_owner(state).get(seat, "")
    lines += WORDS.seat_lines(state, seat, name=escape_name, piles=piles, marker=False)
    best = next((a for a in advice if a.suggested), None)
    if best is not None:
        label = escape_name(move_label(state, best))
        lines.append(f"{SUGGESTED} {t('stack.panel.suggested', label=label)}")
    for group in Group:
        moves = [a for a in advice if a.group is group]
        if not moves:
            continue
        title = f"{GROUP_EMOJI[group]} **{t(GROUP_TITLES[group])}** ({len(moves)})"
        if group is Group.REROLL:
            faces = " ".join(f"{SUGGESTED}{a.face}" if a.suggested else str(a.face) for a in moves)
            lines.append(f"{title}: {faces}")
            continue
        lines.append(title)
        lines += [_line(state, a) for a in moves[:LINES_PER_GROUP]]
        if len(moves) > LINES_PER_GROUP:
            lines.append(t("stack.panel.more", count=len(moves) - LINES_PER_GROUP))
    return fit_message("\n".join(lines), MESSAGE_LIMIT)
