"""Messages of the bot, as text: the live table, lobby, round and game ends, score sheets,
history, leaderboard, stats and rules. Pure functions (no Discord objects).

Every text fits Discord's limits (:mod:`bot.text`); every name in it is escaped, so it
shows as typed and pings nobody. The only mentions are those of :func:`mention`.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

from bot.text import (
    EMBED_FIELD,
    MESSAGE_LIMIT,
    SHORTENED,
    code_name,
    cut,
    escape_name,
    fit_message,
    mention,
    plain_name,
    plural,
    split_message,
)
from engine.game import Decision
from engine.stack.describe import last_turn_words
from engine.stack.moves import face_value
from engine.stack.render import COLOURS, SUPERSCRIPT, render_field, short_name, square
from engine.stack.rules import HouseRules
from engine.stack.state import StackState
from persistence.records import GameSummary, LeaderboardRow, PlayerStats, ScoreSheet, TableInfo

__all__ = [
    "RULES_BRIEF",
    "RULES_PAGE",
    "alt_text",
    "game_end_messages",
    "history_text",
    "house_rules_text",
    "leaderboard_text",
    "lobby_text",
    "mention",
    "round_end_messages",
    "round_scoring",
    "score_sheet_text",
    "stats_text",
    "table_text",
]

RULES_PAGE = "docs/stack-rules.md"
RULES_BRIEF = f"""**Stack** — every player rolls all their dice; on your turn do one thing:
• **stack** one of your unstacked dice on another player's pile (1–3 high) showing the same face — never directly on your own colour;
• **reroll** one of your unstacked dice: if a pile can take the new face it must go on one (you choose which), else it stays.
A pile that reaches 4 is **captured** by whoever placed the 4th die. Piles of 2–3 score their face for the owner of the top die (a 1 is worth 10); captured piles score for their captor.
The round ends when someone **goes out** (no unstacked dice left) or **covers an opponent's last die** (both are out): everyone else still holding dice gets one last turn. First to the target wins; ties play another round (or share the win).
The full rule book: `{RULES_PAGE}` in the bot's repository."""

SHEET_ROUNDS = 10  # round columns a score sheet shows (the last ones; totals count all)
ROUND_END_MESSAGES = 2  # at most this many messages for one round's end (rate limits)
GAME_END_MESSAGES = 2
HISTORY_NAME = 16  # a name's width in the channel's history
NOTE_LIMIT = 300
LAST_MOVE_LIMIT = 300


def _name(name: str, width: int = 20) -> str:
    """A name shortened to ``width`` and escaped for markdown."""
    return escape_name(short_name(name, width))


def _fit_lines(lines: list[str], tail: str, limit: int = MESSAGE_LIMIT) -> str:
    """``lines`` joined, with as many of the last ones left out as needed (and ``tail``
    said instead) to fit in ``limit`` characters."""
    text = "\n".join(lines)
    if len(text) <= limit:
        return text
    kept: list[str] = []
    size = len(tail)
    for line in lines:
        if size + len(line) + 1 > limit:
            break
        kept.append(line)
        size += len(line) + 1
    return fit_message("\n".join([*kept, tail]), limit)


# ------------------------------------------------------------------ the lobby and table


def lobby_text(info: TableInfo, rules: HouseRules) -> str:
    """The lobby message: rules in short, the seats (humans mentioned, AIs named), the host."""
    lines = [
        f"**Stack** table — lobby · first to {rules.target_score} · "
        f"{plural(rules.dice_per_player, 'die', 'dice')} each"
    ]
    if rules.teams:
        lines.append("Team play: teams of two, seated apart (needs an even number, at least 4).")
    for seat in info.seats:
        who = (
            f"🤖 {_name(seat.name)} ({seat.ai_level})"
            if seat.is_ai
            else f"{square(seat.position)} {mention(seat.user_id) or _name(seat.name)}"
        )
        host = " — host" if seat.user_id is not None and seat.user_id == info.host_id else ""
        lines.append(f"{who}{host}")
    lines.append(f"{len(info.seats)}/8 seated. **Join** to play; the host presses **Start**.")
    return fit_message("\n".join(lines))


def _head(current_user: int | None, deadline: datetime | None, over: bool) -> str:
    if over:
        return ""
    when = f"<t:{int(deadline.timestamp())}:R>" if deadline is not None else ""
    if current_user:
        return f"{mention(current_user)}, it's your turn" + (
            f" (time runs out {when})." if when else "."
        )
    return f"⏳ This turn ends {when}." if when else ""


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


def table_text(
    state: StackState,
    *,
    current_user: int | None,
    last_move: str | None,
    deadline: datetime | None = None,
    note: str | None = None,
) -> str:
    """The live table message: a head line mentioning ``current_user`` (and when their time
    runs out, as a timestamp Discord counts down), an optional ``note``, then the field.

    ``last_move`` (one turn per line, oldest first) and ``note`` are markdown whose names
    are already escaped (the service escapes its turn words); without ``last_move`` the
    state's last turn is written. At most 2,000 characters: a big table is written
    compactly, the oldest of several last turns are left out, and then long lines are cut.
    """
    over = state.decision is Decision.OVER
    head = [
        line
        for line in (_head(current_user, deadline, over), cut(note, NOTE_LIMIT) if note else "")
        if line
    ]
    if last_move is None:
        words = last_turn_words(state)
        turns = [escape_name(cut(words, LAST_MOVE_LIMIT))] if words else []
    else:
        turns = [cut(line, LAST_MOVE_LIMIT) for line in last_move.split("\n") if line.strip()]
    budget = MESSAGE_LIMIT - sum(len(line) + 1 for line in head)
    field = render_field(state, last_move="\n".join(turns), name=escape_name)
    if len(field) <= budget:  # the usual case: everything fits
        return "\n".join([*head, field])
    wanted = sum(len(t) + 1 for t in turns)
    compact = False
    room = budget - len(render_field(state, last_move="", name=escape_name)) - len("\nLast: ")
    if room < min(wanted, LAST_MOVE_LIMIT):
        compact = True
        base = render_field(state, last_move="", name=escape_name, compact=True)
        room = budget - len(base) - len("\nLast: ")
    last = _recent(turns, max(room, LAST_MOVE_LIMIT))
    field = render_field(state, last_move=last, name=escape_name, compact=compact)
    if len(field) > budget:
        field = _squeeze(field, budget)
    return fit_message("\n".join([*head, field]))


def alt_text(state: StackState) -> str:
    """A description of the table picture for screen readers (at most 1,024 characters):
    round, whose turn, and per player their colour, total and dice left."""
    if state.decision is Decision.OVER and state.winner is not None:
        status = "won by " + " and ".join(plain_name(state.name(s)) for s in state.winner)
    elif state.current is not None:
        status = f"{plain_name(state.name(state.current))} to move"
    else:
        status = "rolling the dice"
    parts = [f"Stack table, round {max(state.round_number, 1)}, {status}."]
    for seat in range(state.n):
        left = plural(state.single_total[seat], "die", "dice")
        parts.append(
            f"{plain_name(short_name(state.name(seat)))} ({COLOURS[seat % len(COLOURS)]}): "
            f"{state.totals[seat]} points, {left} unstacked."
        )
    return cut(" ".join(parts), EMBED_FIELD)


# ------------------------------------------------------------------ score sheets


def _sheet_lines(
    names: Sequence[str], rounds: Sequence[Sequence[int]], totals: Sequence[int]
) -> list[str]:
    """A score sheet as a code block: a row per player, a column for each of the last
    :data:`SHEET_ROUNDS` rounds (a line says which rounds are left out), totals."""
    shown = list(rounds[-SHEET_ROUNDS:])
    skipped = len(rounds) - len(shown)
    shorts = [short_name(" ".join(n.split())) for n in names]
    width = max(len(s) for s in shorts)
    labels = " ".join(f"{'R' + str(skipped + i + 1):>4}" for i in range(len(shown)))
    rows = [f"{'':{width}} {labels} {'Total':>6}".rstrip()]
    for seat, short in enumerate(shorts):
        cells = " ".join(f"{r[seat]:>4}" for r in shown)
        label = code_name(short) + " " * (width - len(short))
        rows.append(f"{label} {cells} {totals[seat]:>6}")
    lines = ["```", *rows, "```"]
    if skipped:
        left_out = "Round 1 is" if skipped == 1 else f"Rounds 1–{skipped} are"
        lines.insert(0, f"-# {left_out} left out (shortened); the totals count every round.")
    return lines


def _leader_line(totals: Sequence[int], target: int) -> str:
    best = max(totals) if totals else 0
    return f"Leader at {best}/{target} ({min(100, max(0, best * 100 // target))}%)"


def _state_sheet(state: StackState) -> list[str]:
    """The score sheet of a game in play (or just over), with team totals."""
    lines = _sheet_lines(state.players, state.round_scores, state.totals)
    target = state.rules.target_score
    if state.team is not None:
        for side, total in state.side_totals().items():
            names = " & ".join(_name(state.name(s)) for s in side)
            lines.append(f"{names}: {total}/{target}")
    else:
        lines.append(_leader_line(state.totals, target))
    return lines


def score_sheet_text(sheet: ScoreSheet) -> str:
    """A stored game's score sheet (``/scores``)."""
    if sheet.winners:
        tail = f"Won by {' & '.join(_name(n) for n in sheet.winners)}."
    else:
        tail = _leader_line(sheet.totals, sheet.target_score) + "."
    lines = ["**Score sheet**", *_sheet_lines(sheet.names, sheet.rounds, sheet.totals), tail]
    return fit_message("\n".join(lines))


# ------------------------------------------------------------------ round and game ends


def round_scoring(state: StackState) -> list[str]:
    """How the field scores, a line per player (call it when a round has just ended, before
    the next round's dice are rolled): ``🟥 alice: piles 5²×3 15, 6³ 6 · caught 6⁴ 6``.

    Shorter than the engine's pile-by-pile lines (8 players of 30 dice give 8 lines, not
    60), so a round's end fits in one or two messages; names are escaped."""
    piles: dict[int, list[str]] = {s: [] for s in range(state.n)}
    for owner, face, height, count in state.pile_counts():
        mark = f"{face}{SUPERSCRIPT[height]}" + (f"×{count}" if count > 1 else "")
        piles[owner].append(f"{mark} {face_value(face) * count}")
    bonus = 2 if state.rules.four_high_bonus else 1
    lines = []
    for seat in range(state.n):
        parts = []
        if piles[seat]:
            parts.append("piles " + ", ".join(piles[seat]))
        caught: dict[int, int] = {}
        for face, _ in state.captures[seat]:
            caught[face] = caught.get(face, 0) + 1
        if caught:
            parts.append(
                "caught "
                + ", ".join(
                    f"{face}⁴" + (f"×{n}" if n > 1 else "") + f" {face_value(face) * bonus * n}"
                    for face, n in caught.items()
                )
            )
        if state.penalties[seat]:
            parts.append(f"penalties {state.penalties[seat]}")
        if parts:
            lines.append(f"{square(seat)} {_name(state.name(seat))}: " + " · ".join(parts))
    return lines or ["No pile scored."]


def round_end_messages(state: StackState, round_no: int, scoring: list[str]) -> list[str]:
    """A finished round: its scoring (lines, names escaped by the caller), each player's
    score, the score sheet. Split across at most :data:`ROUND_END_MESSAGES` messages; if
    the scoring is longer still, its last lines are left out with a mark."""
    scores = state.round_scores[round_no - 1]
    summary = "Round scores: " + ", ".join(
        f"{square(s)} {_name(state.name(s))} **{pts:+d}**" for s, pts in enumerate(scores)
    )
    sheet = _state_sheet(state)

    def messages(kept: int) -> list[str]:
        shown = [cut(line, MESSAGE_LIMIT // 2) for line in scoring[:kept]]
        if kept < len(scoring):
            shown.append(f"… {plural(len(scoring) - kept, 'more scoring line')} (shortened)")
        return split_message([f"**Round {round_no} is over.**", *shown, summary, *sheet])

    out = messages(len(scoring))
    if len(out) <= ROUND_END_MESSAGES:
        return out
    low, high = 0, len(scoring)  # the most scoring lines that fit: in [low, high)
    while high - low > 1:
        mid = (low + high) // 2
        if len(messages(mid)) <= ROUND_END_MESSAGES:
            low = mid
        else:
            high = mid
    return messages(low)[:ROUND_END_MESSAGES]


def game_end_messages(state: StackState) -> list[str]:
    """The game's result: the winner(s) and the final score sheet."""
    assert state.winner is not None
    names = " & ".join(f"**{_name(state.name(s))}**" for s in state.winner)
    verb = "share the win" if len(state.winner) > 1 else "wins"
    lines = [f"🏆 {names} {verb}!", *_state_sheet(state)]
    return split_message(lines)[:GAME_END_MESSAGES]


# ------------------------------------------------------------------ records


def history_text(games: list[GameSummary]) -> str:
    """A channel's finished games, newest first; older ones are left out when long."""
    if not games:
        return "No finished games in this channel yet."
    lines = ["**Finished games in this channel**"]
    for g in games:
        scores = ", ".join(
            f"{_name(n, HISTORY_NAME)} {t}" for n, t in zip(g.players, g.totals, strict=True)
        )
        when = g.finished_at.strftime("%Y-%m-%d")
        winners = " & ".join(_name(n, HISTORY_NAME) for n in g.winners)
        lines.append(f"{when} · {plural(g.rounds_played, 'round')} · 🏆 {winners} · {scores}")
    for shown in range(len(games), -1, -1):
        hidden = len(games) - shown
        tail = [f"… {plural(hidden, 'older game')} not shown (shortened)"] if hidden else []
        text = "\n".join([*lines[: shown + 1], *tail])
        if len(text) <= MESSAGE_LIMIT:
            return text
    return fit_message(text)


def leaderboard_text(rows: list[LeaderboardRow], by: str) -> str:
    """A server's best players, by wins or points."""
    if not rows:
        return "Nobody has finished a game on this server yet."
    lines = [f"**Leaderboard** (by {escape_name(cut(by, 20))})"]
    for row in rows:
        s = row.stats
        lines.append(
            f"{row.rank}. {_name(s.name, 32)}: {plural(s.wins, 'win')} · "
            f"{plural(s.points, 'point')} · {plural(s.games, 'game')}"
        )
    return _fit_lines(lines, SHORTENED)


def stats_text(name: str, stats: PlayerStats | None) -> str:
    """A player's record on a server."""
    who = _name(name, 32)
    if stats is None:
        return f"{who} has not finished a game on this server yet."
    rate = stats.wins * 100 // stats.games if stats.games else 0
    return fit_message(
        f"**{who}** — {plural(stats.games, 'game')}, {plural(stats.wins, 'win')} ({rate}%), "
        f"{plural(stats.points, 'point')}, best round {stats.best_round}, "
        f"{plural(stats.captures, 'capture')}"
    )


def house_rules_text(rules: HouseRules, *, channel: bool = False) -> str:
    """The house rules in force, a line per key."""
    where = "this channel" if channel else "this server"
    lines = [f"**House rules for {where}**"]
    for key, value in rules.model_dump().items():
        lines.append(f"`{key}` = {str(value).lower() if isinstance(value, bool) else value}")
    return fit_message("\n".join(lines))
