"""Stack's words in the language being spoken (:func:`catalog.speaking`): piles, moves,
turns, refused moves, the hint's reason and the field as text.

Every describer here says what :mod:`engine.stack.describe`, :mod:`engine.stack.render`,
the greedy AI's reasons (:mod:`engine.stack.ai`) and the engine's refusals
(:mod:`engine.stack.notation`, :meth:`engine.stack.state.StackState.check`) say, from the
``stack`` domain of the catalog; in English byte for byte what the engine says
(``tests/catalog/test_stack_words.py`` plays random games to hold it).

A refusal is worded from its error alone (:meth:`StackWords.error_text`): its typed facts
(the face, the face asked, the piles a rerolled die may go on, the names) and, for the
facts only its English message holds (an echo of the text typed, a player's name), the
English message read back through the English catalog entry that made it. A message no
entry reads (a chance outcome refused: no player ever sees one) is said as the engine
said it.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import cache
from typing import Any

import catalog
from catalog import isolate, n, t
from engine import errors
from engine.game import Decision, TurnEnded
from engine.stack.ai import GreedyPlayer, _Context
from engine.stack.moves import FACES, Place, PlayerMove, Reroll, Stack, face_value
from engine.stack.notation import MAX_LISTED, move_notation
from engine.stack.render import (
    NAME_WIDTH,
    NameFormat,
    caught_words,
    dice_words,
    pile_words_by_owner,
    square,
    wrap_parts,
)
from engine.stack.state import StackState, TurnLog

__all__ = ["WORDS", "StackWords"]

NUMBER_FACTS = frozenset({"face", "asked", "height", "rolled", "count", "seat", "owner"})


# ------------------------------------------------------------------ reading English back


@cache
def _pattern(key: str) -> re.Pattern[str]:
    """The English text of ``key`` as a pattern whose groups are its placeholders."""
    text = _raw(key)
    out = []
    pos = 0
    named: set[str] = set()
    for match in re.finditer(r"\{(\w+)\}", text):
        out.append(re.escape(text[pos : match.start()]))
        name = match[1]
        if name in named:
            out.append(f"(?P={name})")
        else:
            out.append(rf"(?P<{name}>\d+)" if name in NUMBER_FACTS else rf"(?P<{name}>.*?)")
            named.add(name)
        pos = match.end()
    out.append(re.escape(text[pos:]))
    return re.compile("".join(out), re.DOTALL)


def _raw(key: str) -> str:
    found = catalog.catalog("en").text(key)
    assert isinstance(found, str), key
    return found


def _read(key: str, text: str) -> dict[str, str] | None:
    """The facts of ``text`` if ``key``'s English made it, else ``None``."""
    match = _pattern(key).fullmatch(text)
    return match.groupdict() if match else None


def _names(text: str) -> list[str]:
    """``a, b or c`` (:func:`engine.names.or_words`) back into its names."""
    head, sep, last = text.rpartition(" or ")
    if not sep:
        return [text]
    return [*head.split(", "), last]


def _or(names: Sequence[str]) -> str:
    """``a, b or c`` (:func:`engine.names.or_words`) in the current language."""
    names = [isolate(name) for name in names]
    if len(names) <= 2:
        return t("stack.names.or").join(names)
    return t("stack.names.comma").join(names[:-1]) + t("stack.names.or") + names[-1]


# ------------------------------------------------------------------ the words


class StackWords:
    """Stack's words (:class:`catalog.games.GameWords`, and the field's)."""

    # ---------------------------------------------------------------- piles and moves

    def title(self) -> str:
        return t("stack.title")

    def pile_words(self, owner_name: str, face: int, height: int, *, yours: bool = False) -> str:
        """``bob's single 3``, ``bob's 3-high pile of 3s``; ``your single 3`` when ``yours``."""
        whose = t("stack.pile.your") if yours else t("stack.pile.whose", name=isolate(owner_name))
        if height == 1:
            return t("stack.pile.single", whose=whose, face=face)
        return t("stack.pile.high", whose=whose, face=face, height=height)

    def move_phrase(self, state: StackState, move: PlayerMove) -> str:
        """A move in a player's words, uncapitalised: ``stack a 3 on bob's single 3``."""
        if isinstance(move, Stack):
            pile = self.pile_words(state.name(move.owner), move.face, move.height)
            return t("stack.move.stack", face=move.face, pile=pile)
        if isinstance(move, Reroll):
            return t("stack.move.reroll", face=move.face)
        assert isinstance(move, Place) and state.placing is not None
        pile = self.pile_words(state.name(move.owner), state.placing, move.height)
        return t("stack.move.place", face=state.placing, pile=pile)

    def move_words(self, state: Any, move: Any) -> str:
        words = self.move_phrase(state, move)
        return words[0].upper() + words[1:]

    # ---------------------------------------------------------------- turns

    def turn_deed(self, state: StackState, turn: TurnLog, *, you: int | None = None) -> str:
        """What a finished turn did, without who: ``stacked a 3 on bob's single 3``."""
        kind = turn[0]
        if kind == "stack":
            _, _, face, owner, height = turn
            pile = self.pile_words(state.name(owner), face, height, yours=owner == you)
            key = "stack.turn.stacked_captured" if height == 3 else "stack.turn.stacked"
            return t(key, face=face, pile=pile)
        _, _, face, rolled, owner, height = turn
        if owner is None:
            return t("stack.turn.rerolled_stays", face=face, rolled=rolled)
        pile = self.pile_words(state.name(owner), rolled, height, yours=owner == you)
        key = "stack.turn.rerolled_onto_captured" if height == 3 else "stack.turn.rerolled_onto"
        return t(key, face=face, rolled=rolled, pile=pile)

    def turn_line(self, state: StackState, turn: TurnLog, *, you: int | None = None) -> str:
        """A finished turn in words (:func:`engine.stack.describe.turn_words`)."""
        deed = self.turn_deed(state, turn, you=you)
        return t("stack.turn.line", player=isolate(state.name(turn[1])), deed=deed)

    def last_turn_words(self, state: StackState, *, you: int | None = None) -> str | None:
        """The most recent finished turn in words, or ``None`` before the first."""
        for rnd in reversed(state.history):
            if rnd["turns"]:
                return self.turn_line(state, rnd["turns"][-1], you=you)
        return None

    def turn_words(self, state: Any, event: TurnEnded) -> str:
        words = self.last_turn_words(state)
        if words is None:
            raise ValueError("No turn has been played yet.")
        return words

    # ---------------------------------------------------------------- the hint

    def hint(self, state: Any) -> tuple[Any, str]:
        """The greedy AI's move (the engine's hint) and its reason in words."""
        best = GreedyPlayer().best(state)
        return best.move, self.reason(state, best.move)

    # ---------------------------------------------------------------- the terminal's own

    def render_text(self, state: Any, viewer: int | None = None) -> str:
        """The engine's table text (Stack's terminal draws its own, :mod:`terminal.stack`)."""
        from engine.stack.game import GAME

        return GAME.render_text(state, viewer)

    def rules_text(self) -> str:
        """The engine's rules text (Stack's terminal says its own)."""
        from engine.stack.game import GAME

        return GAME.rules_text()

    def end_words(self, state: Any) -> str:
        return ""

    def reason(self, state: StackState, move: PlayerMove) -> str:
        """Why the greedy AI rates ``move`` as it does (:class:`engine.stack.ai.GreedyPlayer`)."""
        p = state.current
        assert p is not None
        ctx = _Context(state, p)
        if isinstance(move, Reroll):
            total = 0.0
            for rolled in FACES:
                options = state.targets_for(p, rolled)
                if options:
                    total += max(
                        ctx.place_value(rolled, o, h, from_hand=True)[0] for o, h in options
                    )
            why = t("stack.hint.reroll", face=move.face, worth=f"{total / 6:+.1f}")
        elif isinstance(move, Stack):
            why = self._place_reason(ctx, move.face, move.owner, move.height, from_hand=False)
        else:
            assert state.placing is not None
            why = self._place_reason(ctx, state.placing, move.owner, move.height, from_hand=True)
        return t("stack.hint.reason", notation=move_notation(state, move), why=why)

    def _place_reason(
        self, ctx: _Context, face: int, owner: int, height: int, *, from_hand: bool
    ) -> str:
        """The reasons of :meth:`engine.stack.ai._Context.place_value`, in words."""
        state, p = ctx.state, ctx.seat
        fv = face_value(face)
        name = isolate(state.name(owner))
        reasons: list[str] = []
        if height == 3:
            gain = fv * ctx.bonus
            pile = self.pile_words(name, face, height)
            reasons.append(t("stack.hint.captures", pile=pile, points=fv * ctx.bonus))
        else:
            gain = fv
            reasons.append(t("stack.hint.makes", height=height + 1, face=face, points=fv))
        loss = 0
        if height >= 2:
            if owner in ctx.side:
                reasons.append(t("stack.hint.takes_teammate", points=fv, name=name))
            else:
                loss = fv
                reasons.append(t("stack.hint.takes", points=fv, name=name))
        if height < 3 and ctx._exposed(face, owner, height):
            reasons.append(t("stack.hint.exposed", face=face))
        my_left = state.single_total[p] - (0 if from_hand else 1)
        covers_last = height == 1 and state.single_total[owner] == 1
        if (my_left == 0 or covers_last) and not state.in_last_turns:
            mine = sum(ctx.field[s] for s in ctx.side) + gain
            theirs = max(
                (ctx.field[o] - (loss if o == owner else 0) for o in ctx.opponents), default=0
            )
            reasons.append(
                t("stack.hint.ends_leading" if mine > theirs else "stack.hint.ends_trailing")
            )
        return t("stack.hint.comma").join(reasons)

    # ---------------------------------------------------------------- refusals

    def error_text(self, error: errors.MoveError) -> str:
        """A refused move in words (the terminal's: typed notation)."""
        said = self.refusal(error)
        return str(error) if said is None else said

    def has_syntax(self, error: errors.MoveError) -> bool:
        """Whether the refusal ends by saying how moves are typed (:data:`stack.syntax`)."""
        return str(error).endswith(" " + _raw("stack.syntax"))

    def refusal(self, error: errors.MoveError, *, syntax: bool = True) -> str | None:
        """``error`` in words, or ``None`` when no catalog entry made its English;
        without ``syntax``, leaving out how moves are typed (a front end says its own)."""
        message = str(error)
        if isinstance(error, errors.AmbiguousMoveError):
            return self._ambiguous(error, message)
        reason = getattr(error, "reason", None)
        english = _raw("stack.syntax")
        syntaxed = message.endswith(" " + english)
        if syntaxed:
            message = message[: -len(english) - 1]
        if reason is errors.IllegalReason.OWN_COLOUR:
            return self._own_colour(message)
        for key in REFUSALS.get(reason, ()):
            facts = _read(key, message)
            if facts is None:
                continue
            if "names" in facts:
                listed = getattr(error, "names", ()) or _names(facts["names"])
                facts["names"] = (
                    t("stack.names.comma").join(isolate(name) for name in listed)
                    if key == "stack.error.unknown_player"
                    else _or(listed)
                )
            said = t(key, **facts)
            if syntaxed and syntax:
                return t("stack.error.with_syntax", error=said, syntax=t("stack.syntax"))
            return said
        return None

    def _own_colour(self, message: str) -> str | None:
        base = _raw("stack.error.own_colour")
        if message == base:
            return t("stack.error.own_colour")
        facts = _read("stack.error.own_colour_case", message)
        if facts is None:
            return None
        return t("stack.error.own_colour_case", names=_or(_names(facts["names"])))

    def _ambiguous(self, error: errors.AmbiguousMoveError, message: str) -> str | None:
        """Which pile? (:func:`engine.stack.notation._ambiguous`): its lead (the names a
        text could mean), the piles it could mean and how to type the one meant."""
        choices = [self.choice_words(c) for c in error.choices]
        said = [c for c in choices if c is not None]
        if len(said) != len(choices):
            return None
        for lead, rest in self._leads(message):
            if len(error.candidates) == 1 and len(said) == 1:
                facts = _read("stack.error.did_you_mean", rest)
                if facts is not None:
                    return lead + t(
                        "stack.error.did_you_mean", choice=said[0], command=facts["command"]
                    )
                continue
            with catalog.speaking("en"):
                english = self._listed(list(error.choices))
            head = _raw("stack.error.which_one").format(listed=english, how="")
            if not rest.startswith(head):
                continue
            how = self._how(rest[len(head) :])
            if how is not None:
                return lead + t("stack.error.which_one", listed=self._listed(said), how=how)
        return None

    def _leads(self, message: str) -> list[tuple[str, str]]:
        """The ways ``message`` reads as a lead (in words) and the rest after it."""
        found = [("", message)]
        match = _pattern("stack.error.could_mean").match(message)
        if match is not None:
            names = _or(_names(match["names"]))
            lead = t("stack.error.could_mean", typed=match["typed"], names=names)
            found.append((lead, message[match.end() :]))
        return found

    def _listed(self, piles: list[str]) -> str:
        """The candidate piles listed: at most :data:`MAX_LISTED`, then how many more."""
        shown = t("stack.error.or_listed").join(piles[:MAX_LISTED])
        if len(piles) > MAX_LISTED:
            shown += n("stack.error.more", len(piles) - MAX_LISTED)
        return shown

    def _how(self, how: str) -> str | None:
        """How to type the pile meant, read from the engine's English."""
        if (facts := _read("stack.error.add_height", how)) is not None:
            return t("stack.error.add_height", **facts)
        if (facts := _read("stack.error.type_one", how)) is not None:
            commands = facts["commands"].split(_raw("stack.error.or_commands"))
            return t("stack.error.type_one", commands=t("stack.error.or_commands").join(commands))
        return None

    def choice_words(self, choice: str) -> str | None:
        """A candidate pile in words, read from the engine's English one."""
        if (facts := _read("stack.choice.single", choice)) is not None:
            return self.pile_words(facts["name"], int(facts["face"]), 1)
        if (facts := _read("stack.choice.high", choice)) is not None:
            return self.pile_words(facts["name"], int(facts["face"]), int(facts["height"]))
        return None

    # ---------------------------------------------------------------- the field as text

    def status_line(self, state: StackState, *, name: NameFormat = isolate) -> str:
        """Whose turn it is and what they must decide, or how the game ended."""
        if state.decision is Decision.OVER:
            assert state.winner is not None
            names = catalog.together(f"{square(s)} {name(state.name(s))}" for s in state.winner)
            return n("stack.status.won", len(state.winner), names=names)
        p = state.current
        if p is None:
            return t("stack.status.rolling")
        who = f"{square(p)} **{name(state.name(p))}**"
        if state.placing is not None:
            return t("stack.status.placing", who=who, face=state.placing)
        if state.in_last_turns:
            return t("stack.status.to_move_last", who=who)
        return t("stack.status.to_move", who=who)

    def seat_lines(
        self,
        state: StackState,
        seat: int,
        *,
        name: NameFormat = isolate,
        width: int = NAME_WIDTH,
        piles: str = "",
        marker: bool = True,
        score: int | None = None,
    ) -> list[str]:
        """One seat as a phone shows it (:func:`engine.stack.render.seat_lines`)."""
        turn = seat == state.current and state.decision is not Decision.OVER
        mark = "▶" if turn and marker else ""
        head = f"{mark}{square(seat)} **{name(catalog.cut_columns(state.name(seat), width))}**"
        head += t("stack.seat.total", total=state.totals[seat])
        if score is None:
            score = state.field_scores()[seat] if state.round_number else 0
        if score:
            head += t("stack.seat.round", points=f"{score:+d}")
        parts = [t("stack.seat.dice", dice=dice_words(state.singles[seat]))]
        if piles:
            parts.append(t("stack.seat.piles", piles=piles))
        if state.captures[seat]:
            parts.append(t("stack.seat.caught", caught=caught_words(state.captures[seat])))
        return [head, *wrap_parts(parts)]

    def teams_line(self, state: StackState, name: NameFormat = isolate) -> str:
        sides = state.side_totals()
        return t(
            "stack.field.teams",
            teams=" · ".join(
                catalog.together(name(catalog.cut_columns(state.name(s), 12)) for s in side)
                + f" {total}"
                for side, total in sides.items()
            ),
        )

    def render_field(
        self,
        state: StackState,
        *,
        last_move: str | None = None,
        name: NameFormat = isolate,
        compact: bool = False,
        status: bool = True,
        legend: bool | None = None,
        you: int | None = None,
        marker: bool = True,
    ) -> str:
        """The whole table as text (:func:`engine.stack.render.render_field`); without
        ``marker``, no seat is marked as the one to move (a table closed mid-game)."""
        width = NAME_WIDTH // 2 + 2 if compact else NAME_WIDTH
        lines = [
            t(
                "stack.field.head",
                round=max(state.round_number, 1),
                target=state.rules.target_score,
            )
        ]
        piles = pile_words_by_owner(state)
        scores = state.field_scores() if state.round_number else [0] * state.n
        for seat in range(state.n):
            lines.extend(
                self.seat_lines(
                    state,
                    seat,
                    name=name,
                    width=width,
                    piles=piles.get(seat, ""),
                    marker=marker,
                    score=scores[seat],
                )
            )
        if state.team is not None:
            lines.append(self.teams_line(state, name))
        last = last_move if last_move is not None else self.last_turn_words(state, you=you)
        if last:
            lines.append(t("stack.field.last", last=last))
        if status:
            lines.append(self.status_line(state, name=name))
        if legend if legend is not None else state.round_number <= 1:
            lines.append(t("stack.field.legend"))
        return "\n".join(lines)

    def render_score_sheet(self, state: StackState, *, name: NameFormat = isolate) -> str:
        """The score sheet as a code block (:func:`engine.stack.render.render_score_sheet`)
        as a terminal shows it: a name cut with "…" to :data:`NAME_WIDTH` columns, not
        characters (:func:`catalog.cut_columns`: a Japanese character takes two), so that
        a wide name makes the sheet no wider than a Latin one, and the columns lined up by
        the columns a terminal gives each character."""
        rounds = len(state.round_scores)
        shorts = [catalog.cut_columns(p, NAME_WIDTH, terminal=True) for p in state.players]
        width = max(catalog.width(s, terminal=True) for s in shorts)
        label = t("stack.sheet.round")
        header = (
            " " * width
            + " "
            + " ".join(catalog.rjust(label + str(i + 1), 4, terminal=True) for i in range(rounds))
        )
        header += " " + catalog.rjust(t("stack.sheet.total"), 6, terminal=True)
        rows = [header.rstrip()]
        for seat, short in enumerate(shorts):
            cells = " ".join(f"{state.round_scores[r][seat]:>4}" for r in range(rounds))
            padded = name(short) + " " * (width - catalog.width(short, terminal=True))
            rows.append(f"{padded} {cells} {state.totals[seat]:>6}")
        lines = ["```", *rows, "```"]
        target = state.rules.target_score
        if state.team is not None:
            for side, total in state.side_totals().items():
                names = catalog.together(name(state.name(s)) for s in side)
                lines.append(f"{names}: {total}/{target}")
        else:
            best = max(state.totals) if state.totals else 0
            percent = min(100, max(0, best * 100 // target))
            lines.append(t("stack.sheet.leader", best=best, target=target, percent=percent))
        return "\n".join(lines)

    def render_round_scoring(self, state: StackState, *, name: NameFormat = isolate) -> list[str]:
        """How the field scores right now, pile by pile."""
        rows = []
        for owner, face, height, count in state.pile_counts():
            times = f" ×{count}" if count > 1 else ""
            who = name(state.name(owner))
            rows.append(
                t(
                    "stack.scoring.pile",
                    square=square(owner),
                    pile=self.pile_words(who, face, height),
                    times=times,
                    points=face_value(face) * count,
                    name=who,
                )
            )
        bonus = 2 if state.rules.four_high_bonus else 1
        for seat, caught in enumerate(state.captures):
            for face, _ in caught:
                rows.append(
                    t(
                        "stack.scoring.captured",
                        square=square(seat),
                        face=face,
                        points=face_value(face) * bonus,
                        name=name(state.name(seat)),
                    )
                )
        for seat, penalty in enumerate(state.penalties):
            if penalty:
                rows.append(
                    t(
                        "stack.scoring.penalties",
                        square=square(seat),
                        points=penalty,
                        name=name(state.name(seat)),
                    )
                )
        return rows or [t("stack.scoring.none")]


# Which entries may have made a refusal of each reason, tried in this order.
REFUSALS: dict[object, tuple[str, ...]] = {
    errors.InvalidReason.EMPTY: ("stack.error.empty",),
    errors.InvalidReason.TOO_LONG: ("stack.error.too_long",),
    errors.InvalidReason.UNKNOWN_WORD: ("stack.error.unknown_word",),
    errors.InvalidReason.NOT_A_MOVE: ("stack.error.not_a_move", "stack.error.reroll_one"),
    errors.InvalidReason.MISSING_FACE: (
        "stack.error.reroll_which",
        "stack.error.stack_which",
        "stack.error.stack_which_on",
        "stack.error.stack_which_plain",
    ),
    errors.InvalidReason.MISSING_TARGET: ("stack.error.stack_where", "stack.error.place_where"),
    errors.InvalidReason.BAD_FACE: ("stack.error.not_a_face", "stack.error.face_range"),
    errors.InvalidReason.UNKNOWN_PLAYER: ("stack.error.unknown_player",),
    errors.InvalidReason.UNCLEAR_NAME: ("stack.error.unclear_name",),
    errors.IllegalReason.GAME_OVER: ("stack.error.game_over",),
    errors.IllegalReason.WRONG_DECISION: ("stack.error.rolling", "stack.error.roll_first"),
    errors.IllegalReason.NOT_YOUR_TURN: ("stack.error.not_your_turn",),
    errors.IllegalReason.NO_SUCH_DIE: ("stack.error.no_die", "stack.error.face_range"),
    errors.IllegalReason.PLACEMENT_PENDING: (
        "stack.error.place_first",
        "stack.error.rerolled_shows",
        "stack.error.place_first_plain",
    ),
    errors.IllegalReason.NOTHING_TO_PLACE: (
        "stack.error.nothing_to_place",
        "stack.error.nothing_to_place_plain",
    ),
    errors.IllegalReason.NO_SUCH_PILE: (
        "stack.error.height_range",
        "stack.error.height_range_plain",
        "stack.error.no_single",
        "stack.error.no_pile",
        "stack.error.under_yours",
        "stack.error.under_theirs",
        "stack.error.no_face",
        "stack.error.no_seat",
    ),
}

WORDS = StackWords()
