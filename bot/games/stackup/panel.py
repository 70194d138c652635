"""The **My hand** panel's logic, without Discord: a player's hand sorted and in words, and
their legal decisions as a tree of small steps that a few buttons can show.

An engine move is one *complete* decision (:class:`~engine.stackup.moves.Play` with its
cards, bonus, colour, target and count). A hand can allow dozens of them, more than
Discord's 25 buttons, and a player thinks of them step by step anyway: pick a first card,
add the next cards one by one, then "play these"; a 3+-card play then asks the bonus, a
Switch the colour, a Snatch the player and the count. So the panel walks a tree whose
leaves are the legal moves, and whose inner nodes are *steps*, each named by a short
:data:`Path` carried in a button's custom id:

==========  =====================================================================
``""``      the root: what this decision is (direction, block/take, play/keep, a play)
``c<cards>`` a number play being built (its cards so far; the next card, "play these")
``b<cards>`` the bonus of that number play (a draw pass or a skip)
``w``        the colour of a Switch from hand; ``dw`` of a drawn Switch
``s``        the target of a Snatch from hand; ``s<seat>`` its count (``ds``, ``ds<seat>``
             for a drawn Snatch)
``d``        the drawn card: play it (then its choices) or keep it
==========  =====================================================================

Every node is computed from the state's legal moves, so every leaf is legal *now*: a
path that no longer leads anywhere (the table moved on) has no node (:func:`node` returns
``None``). Cards in a path are two characters each (:func:`card_code`), so a 15-card
play fits a custom id.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from bot.games import steps
from bot.games.steps import Path, Style
from bot.text import escape_name, label_name
from catalog import n, t
from catalog.stackup import card_text, colour_name
from engine.stackup import moves
from engine.stackup.cards import (
    COLOUR_LETTERS,
    SNATCH,
    SWITCH,
    Card,
    card_name,
    colour_of,
    is_special,
    number_of,
)
from engine.stackup.rules import PENALTY_CARDS

Choice = steps.Choice[moves.PlayerMove]  # one button of a step

SQUARES = {"R": "🟥", "B": "🟦", "Y": "🟨", "G": "🟩"}  # a colour as the text shows it
COLOUR_STYLES: dict[str, Style] = {
    "R": "danger",
    "B": "primary",
    "Y": "secondary",
    "G": "success",
}
SPECIAL_EMOJI = {"Flip": "🔃", "Freeze": "🧊", "Snatch": "🫳", "Switch": "🎨", "Crash": "💥"}
BONUS_WORDS = {"pass": "stackup.panel.bonus_pass", "skip": "stackup.panel.bonus_skip"}  # keys
_HEX = "0123456789abcdef"


@dataclass(frozen=True, slots=True)
class Node:
    """A step of the decision: what it asks, its choices in rows (at most 5 rows of at
    most 5), and the way back (``None`` at the root)."""

    question: str
    rows: tuple[tuple[Choice, ...], ...]
    back: Path | None = None

    @property
    def choices(self) -> tuple[Choice, ...]:
        return tuple(choice for row in self.rows for choice in row)


# ------------------------------------------------------------------ cards in words


def card_code(card: Card) -> str:
    """A card in two characters of a custom id: colour letter and hex number (``R7``,
    ``Ra`` for R10), or ``X`` and the special's initial (``XF`` Flip, ``XZ`` Freeze, ``XN``
    Snatch, ``XW`` Switch, ``XC`` Crash)."""
    if is_special(card):
        return "X" + "FZNWC"[card - 60]
    colour, number = colour_of(card), number_of(card)
    assert colour is not None and number is not None
    return COLOUR_LETTERS[colour] + _HEX[number]


_CARD_CODE = re.compile(r"[RBYG][1-9a-f]|X[FZNWC]")


def cards_of_code(code: str) -> tuple[Card, ...] | None:
    """The cards :func:`card_code` wrote, or ``None`` for anything else."""
    if len(code) % 2 or any(
        not _CARD_CODE.fullmatch(code[i : i + 2]) for i in range(0, len(code), 2)
    ):
        return None
    cards = []
    for i in range(0, len(code), 2):
        part = code[i : i + 2]
        if part[0] == "X":
            cards.append(60 + "FZNWC".index(part[1]))
        else:
            cards.append(COLOUR_LETTERS.index(part[0]) * 15 + _HEX.index(part[1]) - 1)
    return tuple(cards)


def card_words(card: Card) -> str:
    """``R7`` or ``Flip``: the record's name, which ``/play`` reads back."""
    return card_name(card)


def card_emoji(card: Card) -> str:
    """The square of a number card's colour, or the special card's emoji."""
    if is_special(card):
        return SPECIAL_EMOJI[card_name(card)]
    colour = colour_of(card)
    assert colour is not None
    return SQUARES[COLOUR_LETTERS[colour]]


def card_style(card: Card) -> Style:
    if is_special(card):
        return "secondary"
    colour = colour_of(card)
    assert colour is not None
    return COLOUR_STYLES[COLOUR_LETTERS[colour]]


def hand_words(hand: Sequence[Card]) -> str:
    """A hand sorted as the record sorts it, grouped by colour behind its square, then the
    special cards with their counts: ``🟥 R3 R7 R8 · 🟦 B1 · 💥 Crash ×2``."""
    if not hand:
        return t("stackup.panel.no_cards")
    groups: list[str] = []
    ordered = sorted(hand)
    for colour, letter in enumerate(COLOUR_LETTERS):
        cards = [c for c in ordered if not is_special(c) and colour_of(c) == colour]
        if cards:
            groups.append(f"{SQUARES[letter]} " + " ".join(card_name(c) for c in cards))
    specials: dict[Card, int] = {}
    for card in ordered:
        if is_special(card):
            specials[card] = specials.get(card, 0) + 1
    for card, count in specials.items():
        times = f" ×{count}" if count > 1 else ""
        groups.append(f"{SPECIAL_EMOJI[card_name(card)]} {card_text(card)}{times}")
    return " · ".join(groups)


def play_words(cards: Sequence[Card]) -> str:
    """A play's cards as typed: ``R7 R8 R9`` (a special card by its name in the language)."""
    return " ".join(card_text(c) for c in cards)


def colour_words(colour: int) -> str:
    return f"{SQUARES[COLOUR_LETTERS[colour]]} {colour_name(colour)}"


# ------------------------------------------------------------------ the tree


def _plays(legal: Sequence[moves.PlayerMove]) -> list[moves.Play]:
    return [m for m in legal if isinstance(m, moves.Play)]


def _name_of(names: Sequence[str], seat: int, width: int = 24) -> str:
    name = " ".join(names[seat].split())
    return label_name(name if len(name) <= width else name[: width - 1] + "…")


def _snatch_choice(
    candidates: Sequence[moves.Play | moves.PlayDrawn],
    target: int,
    names: Sequence[str],
    prefix: str,
) -> Choice:
    """The button of one Snatch target: its one move when only 1 card may be taken,
    else the step to choose how many."""
    counts = sorted({m.count for m in candidates if m.target == target and m.count is not None})
    who = _name_of(names, target)
    if len(counts) == 1:
        move = next(m for m in candidates if m.target == target)
        label = t("stackup.panel.snatch_take", player=who, count=counts[0])
        return Choice(label, "primary", "🫳", move=move)
    return Choice(who, "secondary", "🫳", path=f"{prefix}{target}")


def _count_node(
    candidates: Sequence[moves.Play | moves.PlayDrawn],
    target: int,
    names: Sequence[str],
    back: Path,
) -> Node | None:
    options = sorted(
        (m for m in candidates if m.target == target and m.count is not None),
        key=lambda m: m.count or 0,
    )
    if not options:
        return None
    who = escape_name(_name_of(names, target, 40))  # the question is markdown, unlike labels
    choices = [Choice(n("stackup.count.cards", m.count or 0), "primary", move=m) for m in options]
    return Node(t("stackup.panel.snatch_count", player=who), (tuple(choices),), back)


def _target_node(
    candidates: Sequence[moves.Play | moves.PlayDrawn],
    names: Sequence[str],
    prefix: str,
    back: Path,
) -> Node | None:
    targets = sorted({m.target for m in candidates if m.target is not None})
    if not targets:
        return None
    choices = [_snatch_choice(candidates, t, names, prefix) for t in targets]
    return Node(t("stackup.panel.snatch_whom"), tuple(steps.rows(choices)), back)


def _colour_node(candidates: Sequence[moves.Play | moves.PlayDrawn], back: Path) -> Node | None:
    options = sorted((m for m in candidates if m.colour is not None), key=lambda m: m.colour or 0)
    if not options:
        return None
    choices = [
        Choice(
            colour_name(m.colour or 0),
            COLOUR_STYLES[COLOUR_LETTERS[m.colour or 0]],
            SQUARES[COLOUR_LETTERS[m.colour or 0]],
            move=m,
        )
        for m in options
    ]
    return Node(t("stackup.panel.switch_colour"), (tuple(choices),), back)


def _root(legal: Sequence[moves.PlayerMove], drawn: Card | None) -> Node | None:
    """The first step: what kind of decision this is."""
    directions = [m for m in legal if isinstance(m, moves.Direction)]
    if directions:
        directions.sort(key=lambda m: not m.up)  # up first
        choices = [
            Choice(t("stackup.panel.up"), "primary", "⬆️", move=m)
            if m.up
            else Choice(t("stackup.panel.down"), "primary", "⬇️", move=m)
            for m in directions
        ]
        return Node(t("stackup.panel.direction"), (tuple(choices),))
    if any(isinstance(m, moves.Block | moves.Take) for m in legal):
        choices = []
        if any(isinstance(m, moves.Block) for m in legal):
            choices.append(Choice(t("stackup.label.block"), "danger", "💥", move=moves.Block()))
        if any(isinstance(m, moves.Take) for m in legal):
            take = n("stackup.label.take", PENALTY_CARDS)
            choices.append(Choice(take, "secondary", "📥", move=moves.Take()))
        return Node(t("stackup.panel.crash"), (tuple(choices),))
    drawn_plays = [m for m in legal if isinstance(m, moves.PlayDrawn)]
    if drawn_plays or any(isinstance(m, moves.Keep) for m in legal):
        shown = card_text(drawn) if drawn is not None else t("stackup.panel.the_card")
        choices = []
        if len(drawn_plays) == 1:
            label = t("stackup.panel.play_card", card=shown)
            choices.append(Choice(label, "success", "▶️", move=drawn_plays[0]))
        elif drawn_plays:
            step = "dw" if drawn_plays[0].colour is not None else "ds"
            label = t("stackup.panel.play_card_more", card=shown)
            choices.append(Choice(label, "success", "▶️", path=step))
        if any(isinstance(m, moves.Keep) for m in legal):
            label = t("stackup.panel.keep_card", card=shown)
            choices.append(Choice(label, "secondary", "✋", move=moves.Keep()))
        return Node(t("stackup.panel.drew", card=shown), (tuple(choices),))
    plays = _plays(legal)
    if plays:
        return _first_cards(plays)
    stuck = [m for m in legal if isinstance(m, moves.UsePass | moves.Draw)]
    if stuck:
        choices = [
            Choice(t("stackup.label.use_pass"), "secondary", move=m)
            if isinstance(m, moves.UsePass)
            else Choice(t("stackup.label.draw"), "secondary", move=m)
            for m in stuck
        ]
        return Node(t("stackup.panel.stuck"), (tuple(choices),))
    return None


def _first_cards(plays: Sequence[moves.Play]) -> Node:
    """Pick the play's first card: the special cards (Flip, Freeze and Crash are played
    at once; Switch and Snatch ask more) in one row, the number cards by colour."""
    specials: dict[Card, list[moves.Play]] = {}
    numbers: list[Card] = []
    for play in plays:
        first = play.cards[0]
        if is_special(first):
            specials.setdefault(first, []).append(play)
        elif first not in numbers:
            numbers.append(first)
    rows: list[tuple[Choice, ...]] = []
    special_row: list[Choice] = []
    for card in sorted(specials):
        emoji = SPECIAL_EMOJI[card_name(card)]
        candidates = specials[card]
        if card in (SWITCH, SNATCH):
            label = t("stackup.panel.open_special", card=card_text(card))
            special_row.append(
                Choice(label, "secondary", emoji, path="w" if card == SWITCH else "s")
            )
        else:
            label = t("stackup.label.play", cards=card_text(card))
            special_row.append(Choice(label, "secondary", emoji, move=candidates[0]))
    if special_row:
        rows.append(tuple(special_row))
    number_choices = [
        Choice(card_name(c), card_style(c), card_emoji(c), path="c" + card_code(c))
        for c in sorted(numbers)
    ]
    rows += steps.rows(number_choices)
    question = t("stackup.panel.first_card_numbers" if numbers else "stackup.panel.first_card")
    return Node(question, tuple(rows[:5]))


def _combo_node(plays: Sequence[moves.Play], cards: tuple[Card, ...]) -> Node | None:
    """A number play being built: play these cards, or add the next one."""
    k = len(cards)
    exact = [p for p in plays if p.cards == cards]
    longer = {p.cards[k] for p in plays if len(p.cards) > k and p.cards[:k] == cards}
    if not exact and not longer:
        return None
    code = "".join(card_code(c) for c in cards)
    row: list[Choice] = []
    if exact:
        bonuses = {p.bonus for p in exact}
        label = t("stackup.label.play", cards=play_words(cards))
        if bonuses == {None}:
            row.append(Choice(label[:80], "success", "▶️", move=exact[0]))
        else:
            more = t("stackup.panel.plus_bonus", move=label)
            row.append(Choice(more[:80], "success", "▶️", path="b" + code))
    for card in sorted(longer):
        row.append(
            Choice(
                t("stackup.panel.add", card=card_text(card)),
                card_style(card),
                card_emoji(card),
                path="c" + code + card_code(card),
            )
        )
    back = "" if k == 1 else "c" + code[:-2]
    shown = play_words(cards)
    sentences = [t("stackup.panel.so_far", cards=shown)]
    if longer:
        sentences.append(t("stackup.panel.so_far_more"))
    if exact and {p.bonus for p in exact} != {None}:
        sentences.append(t("stackup.panel.so_far_bonus"))
    return Node(t("stackup.panel.join").join(sentences), (tuple(row),), back)


def _bonus_node(plays: Sequence[moves.Play], cards: tuple[Card, ...]) -> Node | None:
    options = sorted(
        (p for p in plays if p.cards == cards and p.bonus), key=lambda p: p.bonus or ""
    )
    if not options:
        return None
    code = "".join(card_code(c) for c in cards)
    choices = [
        Choice(
            t(BONUS_WORDS[p.bonus]) if p.bonus in BONUS_WORDS else p.bonus or "",
            "primary",
            "🎟️" if p.bonus == "pass" else "⏭️",
            move=p,
        )
        for p in options
    ]
    return Node(t("stackup.panel.bonus", cards=play_words(cards)), (tuple(choices),), "c" + code)


def node(
    legal: Sequence[moves.PlayerMove], path: Path, names: Sequence[str], drawn: Card | None = None
) -> Node | None:
    """The step at ``path`` of a decision whose complete legal moves are ``legal``, or
    ``None`` when that step does not exist (any more)."""
    if path == "":
        return _root(legal, drawn)
    plays = _plays(legal)
    drawn_plays = [m for m in legal if isinstance(m, moves.PlayDrawn)]
    if path[0] in "cb":
        cards = cards_of_code(path[1:])
        if not cards or any(is_special(c) for c in cards):
            return None
        return _combo_node(plays, cards) if path[0] == "c" else _bonus_node(plays, cards)
    if path == "w":
        return _colour_node([p for p in plays if p.cards[0] == SWITCH], "")
    if path == "dw":
        return _colour_node(drawn_plays, "")
    snatch = re.fullmatch(r"(d?)s(\d?)", path)
    if snatch:
        snatches = [p for p in plays if p.cards[0] == SNATCH]
        candidates: list[moves.Play | moves.PlayDrawn] = (
            list(drawn_plays) if snatch[1] else list(snatches)
        )
        if not snatch[2]:
            return _target_node(candidates, names, f"{snatch[1]}s", "")
        return _count_node(candidates, int(snatch[2]), names, f"{snatch[1]}s")
    return None


def leaves(
    legal: Sequence[moves.PlayerMove], names: Sequence[str], drawn: Card | None = None
) -> set[moves.PlayerMove]:
    """Every move the tree reaches from the root (a test checks it is every legal move
    a player decides)."""
    found: set[moves.PlayerMove] = steps.leaves(lambda path: node(legal, path, names, drawn))
    return found


# ------------------------------------------------------------------ moves in custom ids

_SIMPLE_CODES: dict[str, moves.PlayerMove] = {
    "up": moves.Direction(True),
    "down": moves.Direction(False),
    "block": moves.Block(),
    "take": moves.Take(),
    "keep": moves.Keep(),
    "pass": moves.UsePass(),
    "draw": moves.Draw(),
}
_MOVE_CODE = re.compile(
    r"(?P<kind>[pd])(?P<cards>(?:[RBYG][1-9a-f]|X[FZNWC]){0,15})"
    r"(?:-(?:(?P<bonus>[PS])|c(?P<colour>[RBYG])|t(?P<target>\d)\.(?P<count>\d)))?"
)


def move_code(move: moves.PlayerMove) -> str:
    """A decision in at most 33 characters of ``[A-Za-z0-9.-]``, for a custom id:
    ``up``, ``block``, ``keep``; a play ``p`` + its cards (:func:`card_code`) + its choice
    (``-P``/``-S`` the bonus, ``-cB`` a colour, ``-t2.3`` a Snatch of 3 from seat 2):
    ``pR7R8R9-S``, ``pXW-cB``; the drawn card ``d`` + its choice (``d``, ``d-t1.1``)."""
    for code, simple in _SIMPLE_CODES.items():
        if move == simple:
            return code
    if isinstance(move, moves.Play):
        head = "p" + "".join(card_code(c) for c in move.cards)
    elif isinstance(move, moves.PlayDrawn):
        head = "d"
    else:
        raise ValueError(f"not a player's decision: {move!r}")
    if isinstance(move, moves.Play) and move.bonus is not None:
        return f"{head}-{'P' if move.bonus == 'pass' else 'S'}"
    if move.colour is not None:
        return f"{head}-c{COLOUR_LETTERS[move.colour]}"
    if move.target is not None and move.count is not None:
        return f"{head}-t{move.target}.{move.count}"
    return head


def move_of_code(code: str) -> moves.PlayerMove | None:
    """The decision :func:`move_code` wrote, or ``None`` for anything else."""
    simple = _SIMPLE_CODES.get(code)
    if simple is not None:
        return simple
    match = _MOVE_CODE.fullmatch(code)
    if match is None:
        return None
    cards = cards_of_code(match["cards"]) or ()
    colour = COLOUR_LETTERS.index(match["colour"]) if match["colour"] else None
    target = int(match["target"]) if match["target"] else None
    count = int(match["count"]) if match["count"] else None
    if match["kind"] == "d":
        if cards or match["bonus"]:
            return None
        return moves.PlayDrawn(colour, target, count)
    if not cards:
        return None
    bonus = {"P": "pass", "S": "skip"}.get(match["bonus"] or "")
    return moves.Play(cards, bonus, colour, target, count)
