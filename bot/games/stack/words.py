"""Stack's messages, as text: the live table, round and game ends, its score sheets,
history lines, stats and house rules. Pure functions (no Discord objects). The texts
every game shares (the lobby, the history and the leaderboard) are :mod:`bot.render`'s.

Every text fits Discord's limits (:mod:`bot.text`); every name in it is escaped, so it
shows as typed and pings nobody. The only mentions are those of :func:`bot.text.mention`.
"""

from __future__ import annotations

from datetime import datetime

from bot.sheets import (
    HISTORY_NAME,
    leader_line,
    score_sheet_text,
    sheet_lines,
    short_escaped,
)
from bot.text import (
    EMBED_FIELD,
    MESSAGE_LIMIT,
    cut,
    escape_name,
    fit_message,
    mention,
    percent,
    plain_name,
    split_message,
)
from catalog import n, t, together
from catalog.stack import WORDS
from engine.game import Decision
from engine.stack.moves import face_value
from engine.stack.render import COLOURS, short_name, square
from engine.stack.rules import HouseRules
from engine.stack.state import StackState
from persistence.records import GameSummary, PlayerStats

__all__ = [
    "RULES_PAGE",
    "alt_text",
    "game_end_messages",
    "house_rules_text",
    "round_end_text",
    "rules_brief",
    "score_sheet_text",
    "scoring_messages",
    "stack_history_line",
    "stats_text",
    "table_parts",
]

RULES_PAGE = "docs/stack-rules.md"


def rules_brief() -> str:
    """``/rules``: the rules and how to play them on Discord, in the current language."""
    return t("stack.rules.brief", page=RULES_PAGE)


def __getattr__(name: str) -> str:
    """``RULES_BRIEF``, as before the catalog: :func:`rules_brief` in the current language."""
    if name == "RULES_BRIEF":
        return rules_brief()
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def colour_word(seat: int) -> str:
    """``seat``'s colour in words (``red``), as the picture's description says it."""
    return t(f"stack.colour.{COLOURS[seat % len(COLOURS)]}")


NOTE_LIMIT = 300
LAST_MOVE_LIMIT = 300


# ------------------------------------------------------------------ the table


def _head(state: StackState, current_user: int | None, deadline: datetime | None) -> str:
    """Whose turn it is (a mention of ``current_user``, which an edit never pings), what
    they must decide, and when their time runs out; or how the game ended."""
    when = f"<t:{int(deadline.timestamp())}:R>" if deadline is not None else ""
    p = state.current
    if state.decision is Decision.OVER or p is None or not current_user:
        line = WORDS.status_line(state, name=escape_name)
        return line + (t("stack.head.turn_ends", when=when) if when and p is not None else "")
    line = t("stack.head.your_turn", square=square(p), mention=mention(current_user))
    if state.placing is not None:
        line += t("stack.head.placing", face=state.placing)
    elif state.in_last_turns:
        line += t("stack.head.last")
    return line + (t("stack.head.time", when=when) if when else "")


def _squeeze(field: str, budget: int) -> str:
    """The field cut line by line, longest lines first, until it fits in ``budget``."""
    lines = field.split("\n")
    while len("\n".join(lines)) > budget:
        longest = max(range(len(lines)), key=lambda i: len(lines[i]))
        excess = len("\n".join(lines)) - budget
        width = max(60, len(lines[longest]) - excess)
        if width >= len(lines[longest]):
            break
        lines[longest] = cut(lines[longest], width)
    return "\n".join(lines)


def _recent(lines: list[str], room: int) -> str:
    """The most recent of ``lines`` (the last ones) that fit in ``room`` characters; "… "
    marks that earlier ones were left out."""
    kept: list[str] = []
    size = 0
    for line in reversed(lines):
        if size + len(line) + 1 > room - 2:
            break
        kept.insert(0, line)
        size += len(line) + 1
    if len(kept) < len(lines):
        kept = ["… " + kept[0] if kept else "…", *kept[1:]]
    return "\n".join(kept)


def table_parts(
    state: StackState,
    *,
    current_user: int | None,
    last_move: str | None,
    deadline: datetime | None = None,
    note: str | None = None,
    closed: bool = False,
) -> tuple[str, str]:
    """The live table message's two texts: the head — whose turn it is, mentioning
    ``current_user``, and when their time runs out, as a timestamp Discord counts down —
    with an optional ``note``; and the field (every seat, the last turns).

    ``last_move`` (one turn per line, oldest first) and ``note`` are markdown whose names
    are already escaped (the service escapes its turn words); without ``last_move`` the
    state's last turn is written. Together at most 2,000 characters (with the line break
    between them): a big table is written compactly, the oldest of several last turns are
    left out, and then long lines are cut. ``closed``: the table was closed before its game
    ended; nobody is to move, and the head says so.
    """
    closed = closed and not state.is_over
    first = t("discord.table.closed_note") if closed else _head(state, current_user, deadline)
    head = "\n".join(line for line in (first, cut(note, NOTE_LIMIT) if note else "") if line)
    if last_move is None:
        words = WORDS.last_turn_words(state)
        turns = [escape_name(cut(words, LAST_MOVE_LIMIT))] if words else []
    else:
        turns = [cut(line, LAST_MOVE_LIMIT) for line in last_move.split("\n") if line.strip()]
    budget = MESSAGE_LIMIT - len(head) - 1

    def field_of(last: str, compact: bool = False) -> str:
        return WORDS.render_field(
            state,
            last_move=last,
            name=escape_name,
            compact=compact,
            status=False,
            marker=not closed,
        )

    field = field_of("\n".join(turns))
    if len(field) <= budget:  # the usual case: everything fits
        return head, field
    wanted = sum(len(t) + 1 for t in turns)
    compact = False
    last_word = len("\n" + t("stack.field.last", last=""))
    room = budget - len(field_of("")) - last_word
    if room < min(wanted, LAST_MOVE_LIMIT):
        compact = True
        room = budget - len(field_of("", True)) - last_word
    last = _recent(turns, max(room, LAST_MOVE_LIMIT))
    field = field_of(last, compact)
    if len(field) > budget:
        field = _squeeze(field, budget)
    return head, fit_message(field, budget)


def alt_text(state: StackState, *, closed: bool = False) -> str:
    """A description of the table picture for screen readers (at most 1,024 characters):
    round, whose turn, and per player their colour, total and dice left. ``closed``: the
    table was closed before its game ended (nobody is to move)."""
    if state.decision is Decision.OVER and state.winner is not None:
        names = t("stack.alt.and").join(plain_name(state.name(s)) for s in state.winner)
        status = t("stack.alt.won", names=names)
    elif closed:
        status = t("stack.alt.closed")
    elif state.current is not None:
        status = t("stack.alt.to_move", name=plain_name(state.name(state.current)))
    else:
        status = t("stack.alt.rolling")
    parts = [t("stack.alt.head", round=max(state.round_number, 1), status=status)]
    for seat in range(state.n):
        parts.append(
            n(
                "stack.alt.seat",
                state.single_total[seat],
                name=plain_name(short_name(state.name(seat))),
                colour=colour_word(seat),
                total=state.totals[seat],
            )
        )
    return cut(" ".join(parts), EMBED_FIELD)


# ------------------------------------------------------------------ score sheets


def _state_sheet(state: StackState) -> list[str]:
    """The score sheet of a game in play (or just over), with team totals."""
    lines = sheet_lines(state.players, state.round_scores, state.totals)
    target = state.rules.target_score
    if state.team is not None:
        for side, total in state.side_totals().items():
            names = together(short_escaped(state.name(s)) for s in side)
            lines.append(f"{names}: {total}/{target}")
    elif state.winner is None:  # a game over says who won instead
        lines.append(leader_line(state.totals, target))
    return lines


# ------------------------------------------------------------------ round and game ends


def _pile_lines(state: StackState, seat: int) -> list[str]:
    """What ``seat`` scored this round, a line per kind of pile (piles of one face and
    height counted together), then captured piles by face, then penalties:
    ``· 3-high piles of 5s ×2: 10``."""
    lines = []
    for owner, face, height, count in state.pile_counts():
        if owner == seat:
            times = f" ×{count}" if count > 1 else ""
            points = face_value(face) * count
            lines.append(
                n(
                    "stack.scoring.high_piles",
                    count,
                    height=height,
                    face=face,
                    times=times,
                    points=points,
                )
            )
    bonus = 2 if state.rules.four_high_bonus else 1
    caught: dict[int, int] = {}
    for face, _ in state.captures[seat]:
        caught[face] = caught.get(face, 0) + 1
    for face, count in sorted(caught.items(), key=lambda fc: -face_value(fc[0])):
        times = f" ×{count}" if count > 1 else ""
        points = face_value(face) * bonus * count
        lines.append(
            n("stack.scoring.captured_piles", count, face=face, times=times, points=points)
        )
    if state.penalties[seat]:
        lines.append(t("stack.scoring.penalty", points=state.penalties[seat]))
    return lines


def _best_pile(state: StackState) -> str | None:
    """The round's best pile (the most points; a captured pile before a 3-high one before
    a 2-high one of the same worth), and how many others are as good: a line, or ``None``
    when no pile scored."""
    bonus = 2 if state.rules.four_high_bonus else 1
    piles: list[tuple[int, int, int, int]] = []  # (points, height, owner, face), one per pile
    for owner, face, height, count in state.pile_counts():
        piles += [(face_value(face), height, owner, face)] * count
    for seat, caught in enumerate(state.captures):
        piles += [(face_value(face) * bonus, 4, seat, face) for face, _ in caught]
    if not piles:
        return None
    points, height, owner, face = max(piles, key=lambda p: (p[0], p[1], -p[2]))
    others = sum(1 for p in piles if p[0] == points) - 1
    return t(
        "stack.round.best_captured" if height == 4 else "stack.round.best_high",
        square=square(owner),
        name=short_escaped(state.name(owner)),
        height=height,
        face=face,
        points=n("stack.points", points),
        tail=n("stack.round.as_good", others) if others else "",
    )


def _went_out(state: StackState) -> str | None:
    """Who ended the latest round (in ``state.history``): the player who went out, or who
    covered an opponent's last die (both are out then)."""
    if not state.history:
        return None
    rnd = state.history[-1]
    left = [len(d) for d in rnd["dice"]]
    for turn in rnd["turns"]:
        if turn[0] == "stack":
            _, p, _, owner, height = turn
        else:
            _, p, _, _, owner, height = turn
            if owner is None:  # the rerolled die found no pile: it stays in the hand
                continue
        left[p] -= 1
        if height == 1:
            left[owner] -= 1
        if height == 1 and left[owner] == 0:
            return t(
                "stack.round.covered",
                square=square(p),
                name=short_escaped(state.name(p)),
                owner_square=square(owner),
                owner=short_escaped(state.name(owner)),
            )
        if left[p] == 0:
            return t("stack.round.went_out", square=square(p), name=short_escaped(state.name(p)))
    return None


def round_end_text(state: StackState, round_no: int) -> str:
    """A finished round for the channel, in one short message: a line per player (round
    points, new total), the team totals in team play, the round's best pile and who went
    out. The full scoring is one click away (:func:`scoring_messages`, privately).

    Call it when the round has just ended, before the next round's dice are rolled (the
    field and the round's turns are still there)."""
    scores = state.round_scores[round_no - 1]
    lines = [t("stack.round.over", round=round_no, target=state.rules.target_score)]
    for seat, pts in enumerate(scores):
        lines.append(
            f"{square(seat)} {short_escaped(state.name(seat))} **{pts:+d}** → {state.totals[seat]}"
        )
    if state.team is not None:
        teams = " · ".join(
            together(short_escaped(state.name(s), 12) for s in side) + f" {total}"
            for side, total in state.side_totals().items()
        )
        lines.append(t("stack.field.teams", teams=teams))
    lines.append(_best_pile(state) or t("stack.round.no_pile"))
    out = _went_out(state)
    if out:
        lines.append(out)
    return fit_message("\n".join(lines))


def scoring_messages(state: StackState, round_no: int) -> list[str]:
    """Round ``round_no``'s full scoring, for the one who asks (``state`` as the round
    ended, before the next round's dice): pile by pile, grouped by player (their round
    points and new total, then each kind of pile with its points), split over as many
    messages as it takes (three at most: eight players of thirty dice); nothing is left
    out."""
    head = t("stack.scoring.head", round=round_no, target=state.rules.target_score)
    lines = [head]
    if state.rules.four_high_bonus:
        lines.append(t("stack.scoring.double"))
    scores = state.round_scores[round_no - 1]
    for seat, pts in enumerate(scores):
        piles = _pile_lines(state, seat)
        who = f"{square(seat)} **{short_escaped(state.name(seat))}** **{pts:+d}** → {state.totals[seat]}"
        lines.append(who if piles else who + t("stack.scoring.nothing"))
        lines += piles
    return split_message(lines)


def game_end_messages(state: StackState) -> list[str]:
    """The game's result in one message (its chart goes with it): the winner(s), the
    rounds played and the final score sheet."""
    assert state.winner is not None
    names = together(f"**{short_escaped(state.name(s))}**" for s in state.winner)
    rounds = n("stack.rounds", len(state.round_scores))
    lines = [
        n("stack.end.won", len(state.winner), names=names, rounds=rounds),
        *_state_sheet(state),
    ]
    return [fit_message("\n".join(lines))]


# ------------------------------------------------------------------ records


def stack_history_line(number: int, g: GameSummary) -> str:
    """A finished Stack game in the channel's history: the rounds played, the winners,
    every player's total."""
    scores = t("list.comma").join(
        f"{short_escaped(name, HISTORY_NAME)} {total}"
        for name, total in zip(g.players, g.totals, strict=True)
    )
    when = g.finished_at.strftime("%Y-%m-%d")
    winners = together(short_escaped(n, HISTORY_NAME) for n in g.winners)
    return f"**{number}.** {when} · {n('stack.rounds', g.rounds_played)} · 🏆 {winners} · {scores}"


def stats_text(name: str, stats: PlayerStats) -> str:
    """A player's record on a server."""
    who = short_escaped(name, 32)
    rate = percent(stats.wins, stats.games)
    lines = [
        t(
            "stack.stats.head",
            who=who,
            title=escape_name(WORDS.title()),
            games=n("stack.stats.games", stats.games),
            wins=n("stack.stats.wins", stats.wins),
            rate=rate,
            points=n("stack.points", stats.points),
            best=stats.best_round,
            captures=n("stack.stats.captures", stats.captures),
        )
    ]
    more = []
    if stats.rounds:
        more.append(
            t(
                "stack.stats.average",
                average=f"{stats.average_round:.1f}",
                rounds=n("stack.rounds", stats.rounds),
            )
        )
    if stats.favourite_face is not None:
        more.append(t("stack.stats.favourite", face=stats.favourite_face))
    if more:
        lines.append(t("stack.stats.separator").join(more).capitalize())
    if stats.recent:
        games = " · ".join(f"{'🏆 ' if g.won else ''}{g.total}/{g.target}" for g in stats.recent)
        lines.append(t("stack.stats.recent", games=games))
    return fit_message("\n".join(lines))


def house_rules_text(rules: HouseRules, *, channel: bool = False) -> str:
    """The house rules in force, a line per key."""
    lines = [t("stack.house.channel" if channel else "stack.house.server")]
    for key, value in rules.model_dump().items():
        shown = str(value).lower() if isinstance(value, bool) else value
        lines.append(t("discord.settings.line", key=key, value=shown))
    return fit_message("\n".join(lines))
