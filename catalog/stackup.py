"""Stack Up!'s words in the current language: its moves, finished turns, refusals and
hints, from the catalog's ``stackup`` domain.

Their English is the engine's (:mod:`engine.stackup.describe`, the refusals of
:mod:`engine.stackup.state` and :mod:`engine.stackup.notation`, the greedy AI's reasons),
byte for byte; ``tests/catalog/test_stackup_words.py`` plays random games and compares.
Card names (``R7``), player names and typed commands (`` `switch blue` ``) are never
translated. No text here names a card that stays hidden: a draw or a Snatch says how
many cards, never which.

A refused move reaches a front end as the engine's :class:`~engine.errors.MoveError`,
whose facts are in its English message; :func:`error_facts` reads them back (each known
refusal is a pattern here) so that :meth:`StackUpWords.error_text` can say it in any
language.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import catalog
from catalog import isolate, n, t
from engine.errors import AmbiguousMoveError, MoveError
from engine.game import Decision, TurnEnded
from engine.stackup import ai, moves, notation
from engine.stackup.cards import (
    COLOUR_NAMES,
    COLOUR_OF,
    CRASH,
    FLIP,
    FREEZE,
    SNATCH,
    SPECIAL_NAMES,
    SWITCH,
    Card,
    card_name,
)
from engine.stackup.rules import HAND_SIZE, MAX_PLAYERS, MIN_PLAYERS, PENALTY_CARDS
from engine.stackup.state import DIRECTION, DRAWN, LoggedTurn, StackUpState

__all__ = [
    "WORDS",
    "StackUpWords",
    "card_named",
    "card_text",
    "cards_text",
    "colour_name",
    "count_words",
    "end_words",
    "error_facts",
    "render_text",
    "rules_text",
    "special_name",
    "stack_words",
    "way_word",
]

_COLOUR_KEYS = ("red", "blue", "yellow", "green")
_SPECIAL_KEYS = {name: name.lower() for name in SPECIAL_NAMES}


# ------------------------------------------------------------------ small words


def colour_name(colour: int) -> str:
    """``Red`` / ``赤``: a colour as a name (capitalised in English)."""
    return t(f"stackup.colour.{_COLOUR_KEYS[colour]}")


def colour_word(colour: int) -> str:
    """``red`` / ``赤``: a colour inside a sentence."""
    return t(f"stackup.colour_lower.{_COLOUR_KEYS[colour]}")


def special_name(name: str) -> str:
    """A special card's name (``Flip`` / ``フリップ``) from its English name."""
    return t(f"stackup.card.{_SPECIAL_KEYS[name]}")


def card_text(card: Card) -> str:
    """``R7`` (as typed, in every language) or a special card's name."""
    return special_name(card_name(card)) if card >= FLIP else card_name(card)


def card_named(name: str) -> str:
    """A card given by its record name (``R7``, ``Flip``) in words."""
    return special_name(name) if name in _SPECIAL_KEYS else name


def cards_text(cards: Sequence[Card]) -> str:
    """``R6 R7 R8``."""
    return " ".join(card_text(c) for c in cards)


def count_words(count: int) -> str:
    """``1 card``, ``3 cards``, ``no card``."""
    return t("stackup.count.none") if count == 0 else n("stackup.count.cards", count)


def way_word(up: bool) -> str:
    """``up`` / ``down`` inside a sentence."""
    return t("stackup.way.up" if up else "stackup.way.down")


def stack_words(colour: int, number: int, up: bool | None) -> str:
    """``Red 5 going up``: the stack's state in words."""
    key = "still" if up is None else ("up" if up else "down")
    return t(f"stackup.stack.{key}", colour=colour_name(colour), number=number)


def _next(state: StackUpState, seat: int) -> int:
    return (seat + 1) % state.n


# ------------------------------------------------------------------ moves


def skip_words(state: StackUpState, seat: int) -> str:
    """What a skip does: ``skip Bo`` (the next player), or ``play again`` at two."""
    if state.n == 2:
        return t("stackup.move.skip_again")
    return t("stackup.move.skip_player", player=isolate(state.name(_next(state, seat))))


def _special_words(
    state: StackUpState,
    seat: int,
    card: Card,
    colour: int | None,
    target: int | None,
    count: int | None,
) -> str:
    if card == FLIP:
        return t("stackup.move.flip_down" if state.up else "stackup.move.flip_up")
    if card == FREEZE:
        return t("stackup.move.freeze", skip=skip_words(state, seat))
    if card == SWITCH:
        return t("stackup.move.switch", colour=colour_name(colour) if colour is not None else "…")
    if card == SNATCH:
        who = isolate(state.name(target)) if target is not None else "…"
        return t("stackup.move.snatch", cards=count_words(count or 0), player=who)
    if card == CRASH:
        return t(
            "stackup.move.crash",
            player=isolate(state.name(_next(state, seat))),
            count=PENALTY_CARDS,
        )
    return card_text(card)


def move_words(state: StackUpState, move: moves.PlayerMove) -> str:
    """``move`` in the mover's words, for a button or a menu entry."""
    seat = state.seat if state.seat is not None else 0
    if isinstance(move, moves.Play):
        played = move.cards
        if played and played[0] >= FLIP:
            return _special_words(state, seat, played[0], move.colour, move.target, move.count)
        text = cards_text(played)
        if len(played) == state.hand_size(seat):
            return t("stackup.move.last_cards", cards=text)
        if move.bonus == "pass":
            return t("stackup.move.with_pass", cards=text)
        if move.bonus == "skip":
            return t("stackup.move.with_skip", cards=text, skip=skip_words(state, seat))
        return text
    if isinstance(move, moves.PlayDrawn):
        card = state.drawn
        if card is None:
            return t("stackup.move.play_drawn")
        if card >= FLIP:
            label = _special_words(state, seat, card, move.colour, move.target, move.count)
            return t("stackup.move.play_drawn_card", card=label)
        return t("stackup.move.play_drawn_card", card=card_name(card))
    if isinstance(move, moves.Direction):
        return t("stackup.move.up" if move.up else "stackup.move.down")
    if isinstance(move, moves.Block):
        if state.n == 2:
            return t("stackup.move.block_cancel")
        return t("stackup.move.block_pass", player=isolate(state.name(_next(state, seat))))
    if isinstance(move, moves.Take):
        return n("stackup.move.take", PENALTY_CARDS)
    if isinstance(move, moves.UsePass):
        return t("stackup.move.use_pass")
    if isinstance(move, moves.Draw):
        return t("stackup.move.draw")
    return t("stackup.move.end_turn" if state.drawn is None else "stackup.move.keep")


# ------------------------------------------------------------------ finished turns


def _ended_the_game(state: StackUpState, index: int | None) -> bool:
    last = len(state.log) - 1
    return state.is_over and (index is None or index == last)


def _up_after(state: StackUpState, index: int | None) -> bool:
    up = bool(state.up)
    start = len(state.log) if index is None else index + 1
    for later in state.log[start:]:
        if later.cards == (FLIP,):
            up = not up
    return up


def _effect(
    state: StackUpState, turn: LoggedTurn, index: int | None, who: str, nxt: str, final: bool
) -> str:
    played = turn.cards
    card = played[0]
    if card < FLIP:
        text = cards_text(played)
        if final:
            return t("stackup.effect.cards", cards=text)
        if turn.bonus == "pass":
            return t("stackup.effect.cards_pass", cards=text)
        if turn.bonus == "skip":
            if state.n == 2:
                return t("stackup.effect.cards_again", cards=text, player=who)
            return t("stackup.effect.cards_skip", cards=text, next=nxt)
        return t("stackup.effect.cards", cards=text)
    if card == FLIP:
        up = _up_after(state, index)
        return t("stackup.effect.flip_up" if up else "stackup.effect.flip_down")
    if card == FREEZE:
        if final:
            return t("stackup.effect.freeze")
        if state.n == 2:
            return t("stackup.effect.freeze_again", player=who)
        return t("stackup.effect.freeze_skip", next=nxt)
    if card == SWITCH:
        assert turn.colour is not None
        return t("stackup.effect.switch", colour=colour_name(turn.colour))
    if card == SNATCH:
        assert turn.target is not None
        return t(
            "stackup.effect.snatch",
            cards=count_words(len(turn.took)),
            target=isolate(state.name(turn.target)),
        )
    if final:
        return t("stackup.effect.crash")
    return t("stackup.effect.crash_next", next=nxt, count=PENALTY_CARDS)


def logged_turn_words(state: StackUpState, turn: LoggedTurn, index: int | None = None) -> str:
    """A finished turn (``state.log[index]``, by default the latest) in words every
    player may see: how many cards were drawn or snatched, never which."""
    who = isolate(state.name(turn.seat))
    nxt = isolate(state.name(_next(state, turn.seat)))
    rebuilt = t("stackup.turn.rebuilt") if turn.reshuffle is not None else ""
    final = _ended_the_game(state, index)
    if turn.kind == "block":
        if final:
            return t("stackup.turn.block_final", player=who)
        if state.n == 2:
            return t("stackup.turn.block_cancel", player=who)
        return t("stackup.turn.block_pass", player=who, next=nxt)
    if turn.kind == "take":
        return t(
            "stackup.turn.take", player=who, cards=count_words(len(turn.drew)), rebuilt=rebuilt
        )
    if turn.kind == "pass":
        return t("stackup.turn.used_pass", player=who)
    if turn.kind == "draw":
        if not turn.drew:
            return t("stackup.turn.no_draw", player=who)
        if not turn.cards:
            return t("stackup.turn.drew", player=who, rebuilt=rebuilt)
        effect = _effect(state, turn, index, who, nxt, final)
        return t("stackup.turn.drew_played", player=who, rebuilt=rebuilt, effect=effect)
    return t("stackup.turn.played", player=who, effect=_effect(state, turn, index, who, nxt, final))


def turn_words(state: StackUpState, event: TurnEnded) -> str:
    """The turn ``event`` reports (the latest turn of its seat), in words for everyone."""
    for index in range(len(state.log) - 1, -1, -1):
        turn = state.log[index]
        if turn.seat == event.seat:
            text = logged_turn_words(state, turn, index)
            if state.is_over and turn is state.log[-1] and state.hand_size(turn.seat) == 0:
                text = t("stackup.turn.wins", turn=text, player=isolate(state.name(turn.seat)))
            return text
    return t("stackup.turn.none_yet", player=isolate(state.name(event.seat)))


def direction_words(state: StackUpState) -> str | None:
    """The first player's choice of direction in words for everyone, or ``None``."""
    if state.first is None or state.first_up is None:
        return None
    key = "stackup.turn.direction_up" if state.first_up else "stackup.turn.direction_down"
    return t(key, player=isolate(state.name(state.first)))


def last_turn_words(state: StackUpState) -> str | None:
    """The most recent finished turn in words, or ``None`` before the first."""
    if not state.log:
        return None
    return logged_turn_words(state, state.log[-1])


# ------------------------------------------------------------------ the table as text

SQUARES = ("🟥", "🟦", "🟨", "🟩")


def stack_line(state: StackUpState) -> str:
    """``Stack: 🟥 Red 5, going up ↑ (top card: Freeze)`` (the engine's ``stack_line``)."""
    if not state.stack:
        return t("stackup.text.stack_none")
    way = {"up": "stack_up", "down": "stack_down", None: "stack_unchosen"}[state.direction]
    text = t(
        f"stackup.text.{way}",
        square=SQUARES[state.colour],
        colour=colour_name(state.colour),
        number=state.number,
    )
    top = state.top_card
    if top is not None and top >= FLIP:
        text += t("stackup.text.top_card", card=card_text(top))
    return text


def end_words(state: StackUpState) -> str:
    """How the game ended (``🏆 …``), or ``""`` while it goes on."""
    if state.decision is not Decision.OVER:
        return ""
    outcome = state.outcome()
    assert outcome is not None
    names = t("stackup.text.names_join").join(isolate(state.name(s)) for s in outcome.winners)
    if outcome.ended_by == "empty_hand":
        return t("stackup.text.won_empty", names=names)
    key = "won_limit_many" if len(outcome.winners) > 1 else "won_limit_one"
    return t(f"stackup.text.{key}", names=names)


def status_line(state: StackUpState) -> str:
    """Whose turn it is and what they must decide, or how the game ended."""
    if state.decision is Decision.OVER:
        return end_words(state)
    seat = state.seat
    if seat is None:
        return t("stackup.text.dealing")
    who = isolate(state.name(seat))
    if state.phase == DIRECTION:
        return t("stackup.text.choose_direction", player=who)
    if state.decision is Decision.CHANCE:
        return t("stackup.text.shuffling", player=who)
    if state.pending_crash == seat:
        return t("stackup.text.crash_penalty", player=who, count=PENALTY_CARDS)
    if state.phase == DRAWN:
        return t("stackup.text.drawn", player=who)
    return t("stackup.text.to_play", player=who)


def render_text(state: StackUpState, viewer: int | None = None) -> str:
    """The table in plain text as seat ``viewer`` may see it (``None``: a spectator), as
    the engine draws it (:mod:`engine.stackup.render`), in the language spoken."""
    title = t("stackup.text.title_line", title=t("stackup.title"), status=status_line(state))
    lines = [title, stack_line(state)]
    last = state.last_play
    if last is not None:
        lines.append(
            t(
                "stackup.text.last_play",
                player=isolate(state.name(last.seat)),
                cards=cards_text(last.cards),
            )
        )
    recent = last_turn_words(state)
    if recent is not None:
        lines.append(t("stackup.text.last_turn", turn=recent))
    if state.deck is not None:
        lines.append(t("stackup.text.draw_pile", cards=count_words(state.pile_size)))
        lines.append(
            t(
                "stackup.text.turns",
                taken=state.turns_taken,
                left=state.turns_left,
                limit=state.turn_limit,
            )
        )
    for seat in range(state.n):
        mark = "▶" if seat == state.seat and not state.is_over else " "
        parts = [
            t(
                "stackup.text.seat",
                mark=mark,
                player=isolate(state.name(seat)),
                cards=count_words(state.hand_size(seat)),
            )
        ]
        if state.passes[seat]:
            parts.append(n("stackup.count.passes", state.passes[seat]))
        if state.pending_crash == seat:
            parts.append(t("stackup.text.crash_mark"))
        lines.append(" · ".join(parts))
    if viewer is not None and 0 <= viewer < state.n and state.deck is not None:
        hand = cards_text(state.hand(viewer)) or t("stackup.text.empty_hand")
        lines.append(t("stackup.text.your_hand", cards=hand))
        if state.phase == DRAWN and state.seat == viewer:
            drawn = state.drawn
            lines.append(
                t("stackup.text.drew_nothing")
                if drawn is None
                else t("stackup.text.drew", card=card_text(drawn))
            )
    return "\n".join(lines)


def rules_text() -> str:
    """The rules in brief, and how to type a move (the engine's ``rules_text``)."""
    return t(
        "stackup.text.rules",
        least=MIN_PLAYERS,
        most=MAX_PLAYERS,
        hand=HAND_SIZE,
        penalty=PENALTY_CARDS,
    )


# ------------------------------------------------------------------ the hint


def _play_reasons(
    state: StackUpState,
    p: int,
    cards: tuple[Card, ...],
    bonus: str | None,
    colour: int | None,
    target: int | None,
    count: int | None,
) -> str:
    """The greedy AI's reasons for a play (``engine.stackup.ai._Rater._play``)."""
    hand = list(state.hands[p])
    left = list(hand)
    for c in cards:
        if c in left:
            left.remove(c)
    if not left:
        return t("stackup.hint.win")
    nxt = _next(state, p)
    first = cards[0]
    reasons: list[str] = []
    if first < FLIP:
        reasons.append(n("stackup.hint.plays", len(cards)))
    elif first == FREEZE:
        if state.n == 2:
            reasons.append(t("stackup.hint.freeze_again"))
        else:
            reasons.append(t("stackup.hint.freeze_skips", player=isolate(state.name(nxt))))
    elif first == CRASH:
        reasons.append(
            t("stackup.hint.crash", player=isolate(state.name(nxt)), count=PENALTY_CARDS)
        )
    elif first == SNATCH:
        assert target is not None and count is not None
        reasons.append(
            n(
                "stackup.hint.snatch",
                count,
                player=isolate(state.name(target)),
                size=state.hand_size(target),
            )
        )
    elif first == SWITCH:
        assert colour is not None
        same = sum(1 for c in hand if c < FLIP and COLOUR_OF[c] == colour)
        reasons.append(
            t("stackup.hint.switch", colour=colour_name(colour), cards=count_words(same))
        )
    else:
        reasons.append(t("stackup.hint.flip"))
    if bonus == "skip":
        if state.n == 2:
            reasons.append(t("stackup.hint.again"))
        else:
            reasons.append(t("stackup.hint.skips", player=isolate(state.name(nxt))))
    elif bonus == "pass":
        reasons.append(t("stackup.hint.gains_pass"))
    if first < FLIP and any(c >= FLIP for c in left):
        reasons.append(t("stackup.hint.keeps_specials"))
    return t("stackup.hint.join").join(reasons)


def hint_reason(state: StackUpState, move: moves.PlayerMove) -> str:
    """Why the greedy AI plays ``move`` (its English: ``GreedyPlayer.hint``'s reason)."""
    p = state.current_player
    assert p is not None
    if isinstance(move, moves.Play):
        why = _play_reasons(state, p, move.cards, move.bonus, move.colour, move.target, move.count)
    elif isinstance(move, moves.PlayDrawn):
        assert state.drawn is not None
        inner = _play_reasons(state, p, (state.drawn,), None, move.colour, move.target, move.count)
        why = t("stackup.hint.play_drawn", why=inner)
    elif isinstance(move, moves.Keep):
        why = t("stackup.hint.no_card" if state.drawn is None else "stackup.hint.keep")
    elif isinstance(move, moves.Block):
        why = t("stackup.hint.block", count=PENALTY_CARDS)
    elif isinstance(move, moves.Take):
        why = t("stackup.hint.take", count=PENALTY_CARDS)
    elif isinstance(move, moves.UsePass):
        why = t("stackup.hint.use_pass")
    elif isinstance(move, moves.Draw):
        why = t("stackup.hint.draw")
    else:
        assert isinstance(move, moves.Direction)
        run = ai.best_run(list(state.hands[p]), state.colour, state.number, move.up)
        way = "up" if move.up else "down"
        if not run:
            why = t(f"stackup.hint.way_none_{way}")
        else:
            why = t(f"stackup.hint.way_{way}", cards=count_words(run))
    move_typed = notation.move_notation(state, move, isolate)
    return t("stackup.hint.reason", move=move_typed, why=why)


# ------------------------------------------------------------------ refusals


def _colour_of_name(name: str) -> str:
    return colour_name(COLOUR_NAMES.index(name))


def _colour_of_word(word: str) -> str:
    return colour_word([c.lower() for c in COLOUR_NAMES].index(word))


def _way(word: str) -> str:
    return way_word(word == "up")


def _stack(text: str) -> str:
    match = re.fullmatch(r"(Red|Blue|Yellow|Green) (\d+)(?: going (up|down))?", text)
    assert match is not None
    up = None if match[3] is None else match[3] == "up"
    return stack_words(COLOUR_NAMES.index(match[1]), int(match[2]), up)


def _syntax(_: str) -> str:
    return t("stackup.syntax")


def _names(error: MoveError) -> str:
    names = getattr(error, "names", ())
    return t("list.comma").join(names)


def _or_names(error: MoveError) -> str:
    return catalog.join(list(getattr(error, "names", ())), "or")


Convert = Callable[[str], str]
_CARD = r"(?:[RBYG](?:1[0-5]|[1-9])|Flip|Freeze|Snatch|Switch|Crash)"
_ECHO = r"'(?P<echo>.*)'"  # the typed text, in the quotes of the engine's English


@dataclass(frozen=True, slots=True)
class _Pattern:
    """A refusal's English (a regular expression with a group per fact), its key, and
    how each fact is said in another language (a name or a card as it is otherwise)."""

    regex: re.Pattern[str]
    key: str
    convert: dict[str, Convert]
    from_error: tuple[tuple[str, Callable[[MoveError], str]], ...] = ()


def _p(
    regex: str,
    key: str,
    *,
    from_error: tuple[tuple[str, Callable[[MoveError], str]], ...] = (),
    cards: bool = False,
    **convert: Convert,
) -> _Pattern:
    if cards:  # the facts that name a card: a special card's name is said in the language
        convert = {"card": card_named, "other": card_named, "follows": card_named, **convert}
    return _Pattern(re.compile(regex, re.DOTALL), key, convert, from_error)


_PATTERNS: tuple[_Pattern, ...] = (
    _p(r"That's empty\. (?P<syntax>.*)", "stackup.error.empty", syntax=_syntax),
    _p(
        rf"That's too long to be a move \({_ECHO}\)\. (?P<syntax>.*)",
        "stackup.error.too_long",
        syntax=_syntax,
    ),
    _p(r"The game is over\.", "stackup.error.game_over"),
    _p(r"Nobody can move while the table deals or shuffles\.", "stackup.error.busy"),
    _p(r"Nobody can move while the cards are dealt\.", "stackup.error.busy_deal"),
    _p(r"Nobody can move while the draw pile is rebuilt\.", "stackup.error.busy_reshuffle"),
    _p(r"Nobody can move while the Snatch takes its cards\.", "stackup.error.busy_snatch"),
    _p(r"It's (?P<player>.+)'s turn\.", "stackup.error.not_your_turn"),
    _p(
        r"You have no drawn card to play; name the cards to play, as in `r7`\.",
        "stackup.error.nothing_drawn_play",
    ),
    _p(r"`(?P<word>[a-z]+)` takes nothing after it\.", "stackup.error.takes_nothing"),
    _p(
        r"`(?P<word>[a-z]+)` can only be said once, at the end of a play of 3 or more cards "
        r"\(as in `r7 r8 r9 (?P=word)`\)\.",
        "stackup.error.bonus_once",
    ),
    _p(r"`(?P<word>[a-z]+)` comes first, as in `play r7`\.", "stackup.error.comes_first"),
    _p(r"`(?P<word>[a-z]+)` is said alone, never with cards\.", "stackup.error.said_alone"),
    _p(
        r"There is no (?P<card>.+): number cards run 1 to 15 in R, B, Y and G\.",
        "stackup.error.no_such_card",
    ),
    _p(
        rf"{_ECHO} is not a move; did you mean `(?P<word>[a-z]+)`\?",
        "stackup.error.did_you_mean",
    ),
    _p(
        rf"{_ECHO} is not a card or a move\. (?P<syntax>.*)",
        "stackup.error.not_a_card",
        syntax=_syntax,
    ),
    _p(
        rf"{_ECHO} is not a colour: say red, blue, yellow or green \(or R, B, Y, G\), "
        r"as in `switch blue`\.",
        "stackup.error.not_a_colour",
    ),
    _p(
        rf"There's no player called {_ECHO} at this table \(players: (?P<players>.*)\)\.",
        "stackup.error.unknown_player",
        from_error=(("players", _names),),
    ),
    _p(
        rf"{_ECHO} could mean (?P<names>.*), and none of them works here\.",
        "stackup.error.unclear_name",
        from_error=(("names", _or_names),),
    ),
    _p(
        r"You were stuck and no card could be drawn: there is nothing to play, so `keep`\.",
        "stackup.error.drawn_none",
    ),
    _p(
        r"You were stuck and drew a card: `play` plays it alone, `keep` keeps it\.",
        "stackup.error.drawn_choice",
    ),
    _p(
        r"First choose the direction: `up` \(1 → 15\) or `down` \(15 → 1\)\.",
        "stackup.error.direction_first",
    ),
    _p(r"First you must choose the direction: up or down\.", "stackup.error.direction_first_plain"),
    _p(
        r"The direction was chosen at the start; only a Flip reverses it\.",
        "stackup.error.direction_chosen",
    ),
    _p(r"You hold no Crash to block with\.", "stackup.error.no_crash"),
    _p(
        r"A Crash penalty is on you: block it with a Crash or take (?P<count>\d+) cards, "
        r"and nothing else\.",
        "stackup.error.crash_on_you",
    ),
    _p(r"There is no Crash penalty to block or take\.", "stackup.error.no_penalty"),
    _p(r"You have not drawn a card\.", "stackup.error.not_drawn"),
    _p(
        r"You have a legal play, so you must play: only a stuck player draws or uses a draw "
        r"pass\.",
        "stackup.error.must_play",
    ),
    _p(r"You hold no draw pass, so the stuck turn draws a card\.", "stackup.error.no_pass"),
    _p(r"You hold a draw pass, which is used instead of drawing\.", "stackup.error.has_pass"),
    _p(r"A play needs at least one card\.", "stackup.error.no_cards"),
    _p(rf"You hold only (?P<count>\d+) (?P<card>{_CARD})\.", "stackup.error.hold_only", cards=True),
    _p(rf"You hold no (?P<card>{_CARD})\.", "stackup.error.hold_none", cards=True),
    _p(r"A special card is played alone, never with other cards\.", "stackup.error.special_alone"),
    _p(
        r"Only a number play of 3 or more cards earns a bonus\.",
        "stackup.error.bonus_needs_three",
    ),
    _p(r"A number play names no colour, player or count\.", "stackup.error.number_no_choice"),
    _p(
        r"A number card names no colour, player or count\.",
        "stackup.error.number_card_no_choice",
    ),
    _p(
        rf"(?P<why>(?P<card>{_CARD}) is not legal on .*\.) Keep it\.",
        "stackup.error.keep_it",
    ),
    _p(
        rf"(?P<card>{_CARD}) is not legal on (?P<stack>.+): it takes a (?P<colour>[a-z]+) card "
        r"or a (?P<wanted>\d+)\.",
        "stackup.error.not_on_stack_a",
        stack=_stack,
        colour=_colour_of_word,
        cards=True,
    ),
    _p(
        rf"(?P<card>{_CARD}) is not legal on (?P<stack>.+): it takes a (?P<colour>[a-z]+) card "
        r"or an (?P<wanted>\d+)\.",
        "stackup.error.not_on_stack_an",
        stack=_stack,
        colour=_colour_of_word,
        cards=True,
    ),
    _p(
        rf"(?P<card>{_CARD}) is not legal on (?P<stack>.+): it takes a (?P<colour>[a-z]+) card "
        r"\(nothing goes above 15\)\.",
        "stackup.error.not_on_stack_edge_up",
        stack=_stack,
        colour=_colour_of_word,
        cards=True,
    ),
    _p(
        rf"(?P<card>{_CARD}) is not legal on (?P<stack>.+): it takes a (?P<colour>[a-z]+) card "
        r"\(nothing goes below 1\)\.",
        "stackup.error.not_on_stack_edge_down",
        stack=_stack,
        colour=_colour_of_word,
        cards=True,
    ),
    _p(
        rf"Every card of a play has the colour of its first card: (?P<card>{_CARD}) is not "
        r"(?P<colour>[a-z]+)\.",
        "stackup.error.same_colour",
        colour=_colour_of_word,
        cards=True,
    ),
    _p(
        rf"After (?P<card>{_CARD}) going (?P<way>up|down) comes nothing, not "
        rf"(?P<other>{_CARD})\.",
        "stackup.error.next_nothing",
        way=_way,
        cards=True,
    ),
    _p(
        rf"After (?P<card>{_CARD}) going (?P<way>up|down) comes (?P<follows>{_CARD}), not "
        rf"(?P<other>{_CARD})\.",
        "stackup.error.next_step",
        way=_way,
        cards=True,
    ),
    _p(
        r"A play of (?P<count>\d+) cards that keeps cards in your hand earns a stacking "
        r"bonus: choose pass or skip\.",
        "stackup.error.bonus_missing",
    ),
    _p(
        r"That play earns no bonus: it empties the hand and wins\.",
        "stackup.error.no_bonus_wins",
    ),
    _p(r"That play earns no bonus: it has fewer than 3 cards\.", "stackup.error.no_bonus_short"),
    _p(rf"A (?P<card>{_CARD}) may not be your last card\.", "stackup.error.last_card", cards=True),
    _p(r"A Switch names a colour, not a player\.", "stackup.error.switch_player"),
    _p(
        r"Name the Switch's new colour \(not (?P<colour>Red|Blue|Yellow|Green), the stack's "
        r"colour\)\.",
        "stackup.error.switch_colour",
        colour=_colour_of_name,
    ),
    _p(
        r"A Switch must change the colour: the stack is already "
        r"(?P<colour>Red|Blue|Yellow|Green)\.",
        "stackup.error.switch_same",
        colour=_colour_of_name,
    ),
    _p(rf"A (?P<card>{_CARD}) names no colour\.", "stackup.error.no_colour", cards=True),
    _p(rf"A (?P<card>{_CARD}) names no player or count\.", "stackup.error.no_player", cards=True),
    _p(
        r"A Snatch needs another player holding at least 2 cards, and nobody does\.",
        "stackup.error.snatch_nobody",
    ),
    _p(r"Name the player to snatch from: (?P<players>.*)\.", "stackup.error.snatch_whom"),
    _p(r"A Snatch takes cards from another player, not from you\.", "stackup.error.snatch_self"),
    _p(
        r"(?P<player>.+) holds only 1 card; a Snatch needs a player holding at least 2\.",
        "stackup.error.snatch_one",
    ),
    _p(
        r"Say how many cards to snatch from (?P<player>.+): exactly 1 card\.",
        "stackup.error.snatch_count_one",
    ),
    _p(
        r"Say how many cards to snatch from (?P<player>.+): 1, 2 or 3 cards\.",
        "stackup.error.snatch_count",
    ),
    _p(
        r"From (?P<player>.+) \((?P<size>\d+) cards\) a Snatch takes exactly 1 card, not "
        r"(?P<count>-?\d+…?)\.",  # a long count cut as any echo is
        "stackup.error.snatch_bad_one",
    ),
    _p(
        r"From (?P<player>.+) \((?P<size>\d+) cards\) a Snatch takes 1, 2 or 3 cards, not "
        r"(?P<count>-?\d+…?)\.",  # a long count cut as any echo is
        "stackup.error.snatch_bad",
    ),
    _p(
        r"You were stuck and no card could be drawn: there is nothing to play, so keep\.",
        "stackup.error.drawn_keep",
    ),
    _p(r"You were stuck and drew a card: play it alone, or keep it\.", "stackup.error.drawn_play"),
    _p(r"Chance outcomes are drawn by the table, not played\.", "stackup.error.chance"),
)

_QUESTIONS = (
    (re.compile(r"Which bonus\Z"), "stackup.ask.bonus"),
    (re.compile(r"Which colour\Z"), "stackup.ask.colour"),
    (re.compile(r"Snatch from whom, and how many\Z"), "stackup.ask.snatch"),
    (re.compile(r"How many cards\Z"), "stackup.ask.count"),
    (re.compile(rf"{_ECHO} could mean (?P<names>.*)\. Which one\Z", re.DOTALL),
     "stackup.ask.which_name"),
)  # fmt: skip
_AMBIGUOUS = re.compile(r"(?P<question>.*?): .*\? Type (?P<commands>`.*`)\.\Z", re.DOTALL)


@dataclass(frozen=True, slots=True)
class Facts:
    """A refusal read back: its key and its facts, as the English says them (``english``)
    and as any language says them (``spoken``, a callable run in that language)."""

    key: str
    english: dict[str, str]
    spoken: Callable[[], dict[str, str]]


def error_facts(error: MoveError) -> Facts | None:
    """The catalog key and facts of a refusal whose English is one of Stack Up!'s, or
    ``None`` (then :meth:`StackUpWords.error_text` says a general refusal)."""
    message = str(error)
    for pattern in _PATTERNS:
        match = pattern.regex.fullmatch(message)
        if match is None:
            continue
        facts = {k: v for k, v in match.groupdict().items() if v is not None}

        def spoken(pattern: _Pattern = pattern, facts: dict[str, str] = facts) -> dict[str, str]:
            said = {k: pattern.convert.get(k, str)(v) for k, v in facts.items()}
            if pattern.key == "stackup.error.keep_it":
                inner = error_facts(MoveError(facts["why"]))
                said["why"] = t(inner.key, **inner.spoken()) if inner else facts["why"]
            for name, make in pattern.from_error:
                if getattr(error, "names", ()):
                    said[name] = make(error)
            return said

        with catalog.speaking("en"):
            if t(pattern.key, **facts) != message:
                continue
        return Facts(pattern.key, facts, spoken)
    return None


def _ambiguous_text(error: AmbiguousMoveError) -> str | None:
    match = _AMBIGUOUS.fullmatch(str(error))
    if match is None:
        return None
    for regex, key in _QUESTIONS:
        asked = regex.fullmatch(match["question"])
        if asked is None:
            continue
        facts = asked.groupdict()
        if "names" in facts:
            facts["names"] = _ambiguous_names(facts["names"])
        question = t(key, **facts)
        return t("stackup.error.ambiguous", question=question, commands=_commands(match))
    return None


def _ambiguous_names(text: str) -> str:
    """``a, b or c`` (the engine's English) joined as the current language joins them."""
    parts = re.split(r", | or ", text)
    return catalog.join(parts, "or")


def _commands(match: re.Match[str]) -> str:
    commands = re.findall(r"`[^`]*`", match["commands"])
    return catalog.join(commands, "or")


class StackUpWords:
    """Stack Up!'s words (:class:`catalog.games.GameWords`), in the current language."""

    def title(self) -> str:
        return t("stackup.title")

    def move_words(self, state: Any, move: Any) -> str:
        return move_words(state, move)

    def turn_words(self, state: Any, event: TurnEnded) -> str:
        return turn_words(state, event)

    def last_turn_words(self, state: Any) -> str | None:
        return last_turn_words(state)

    def direction_words(self, state: Any) -> str | None:
        return direction_words(state)

    def error_text(self, error: MoveError) -> str:
        """A refused move in words: the engine's own in English, each known refusal's key
        in any other language (a general refusal for one this game does not know)."""
        if catalog.current() == "en":
            return str(error)
        if isinstance(error, AmbiguousMoveError):
            text = _ambiguous_text(error)
            if text is not None:
                return text
        facts = error_facts(error)
        if facts is None:
            return t("stackup.error.other")
        return t(facts.key, **facts.spoken())

    def hint(self, state: Any) -> tuple[Any, str]:
        move, _ = ai.GreedyPlayer().hint(state)
        return move, hint_reason(state, move)

    def render_text(self, state: Any, viewer: int | None = None) -> str:
        return render_text(state, viewer)

    def rules_text(self) -> str:
        return rules_text()

    def end_words(self, state: Any) -> str:
        return end_words(state)


WORDS = StackUpWords()
