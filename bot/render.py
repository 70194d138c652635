"""Messages of the bot, as text: the live table, lobby, round and game ends, score sheets,
history, leaderboard, stats and rules. Pure functions (no Discord objects)."""

from __future__ import annotations

from bot.service import LiveTable
from engine.game import Decision
from engine.stack.render import render_field, render_score_sheet, short_name, square
from engine.stack.rules import HouseRules
from engine.stack.state import StackState
from persistence.records import GameSummary, LeaderboardRow, PlayerStats, ScoreSheet

RULES_BRIEF = """**Stack** — every player rolls all their dice; on your turn do one thing:
• **stack** one of your unstacked dice on another player's pile (1–3 high) showing the same face — never directly on your own colour;
• **reroll** one of your unstacked dice: if a pile can take the new face it must go on one (you choose which), else it stays.
A pile that reaches 4 is **captured** by whoever placed the 4th die. Piles of 2–3 score their face for the owner of the top die (a 1 is worth 10); captured piles score for their captor.
The round ends when someone **goes out** (no unstacked dice left) or **covers an opponent's last die** (both are out): everyone else still holding dice gets one last turn. First to the target wins; ties play another round (or share the win)."""


def mention(user_id: int | None) -> str:
    return f"<@{user_id}>" if user_id else ""


def lobby_text(live: LiveTable, rules: HouseRules) -> str:
    info = live.info
    lines = [
        f"**Stack** table — lobby · first to {rules.target_score} · {rules.dice_per_player} dice each"
    ]
    if rules.teams:
        lines.append("Team play: teams of two, seated apart (needs an even number, at least 4).")
    for seat in info.seats:
        who = (
            f"🤖 {seat.name} ({seat.ai_level})"
            if seat.is_ai
            else f"{square(seat.position)} {mention(seat.user_id)}"
        )
        host = " — host" if seat.user_id == info.host_id else ""
        lines.append(f"{who}{host}")
    lines.append(f"{len(info.seats)}/8 seated. **Join** to play; the host presses **Start**.")
    return "\n".join(lines)


def table_text(live: LiveTable) -> str:
    """The live table message: whose turn (with a mention), last move, field, totals."""
    state = live.state
    assert state is not None
    head = ""
    if state.decision is not Decision.OVER and state.current is not None:
        user = live.user_at(state.current)
        if user:
            head = f"{mention(user)}, it's your turn.\n"
    body = render_field(state, last_move=live.last_move)
    text = head + body
    if len(text) > 2000:  # never more than Discord allows, whatever the names
        text = text[:1990] + "…"
    return text


def round_end_text(state: StackState, round_no: int, scoring: list[str]) -> str:
    """A finished round: its scoring pile by pile, each player's score, the score sheet."""
    scores = state.round_scores[round_no - 1]
    lines = [f"**Round {round_no} is over.**", *scoring]
    lines.append(
        "Round scores: "
        + ", ".join(f"{square(s)} {state.name(s)} **{pts:+d}**" for s, pts in enumerate(scores))
    )
    lines.append(render_score_sheet(state))
    return "\n".join(lines)


def game_end_text(state: StackState) -> str:
    assert state.winner is not None
    names = " & ".join(f"**{state.name(s)}**" for s in state.winner)
    verb = "share the win" if len(state.winner) > 1 else "wins"
    return f"🏆 {names} {verb}!\n" + render_score_sheet(state)


def score_sheet_text(sheet: ScoreSheet) -> str:
    width = max(len(short_name(n)) for n in sheet.names)
    header = f"{'':{width}} " + " ".join(f"{'R' + str(i + 1):>4}" for i in range(len(sheet.rounds)))
    rows = [header + f" {'Total':>6}"]
    for seat, name in enumerate(sheet.names):
        cells = " ".join(f"{r[seat]:>4}" for r in sheet.rounds)
        rows.append(f"{short_name(name):{width}} {cells} {sheet.totals[seat]:>6}")
    best = max(sheet.totals) if sheet.totals else 0
    tail = (
        f"Won by {' & '.join(sheet.winners)}."
        if sheet.winners
        else f"Leader at {best}/{sheet.target_score} ({min(100, max(0, best * 100 // sheet.target_score))}%)."
    )
    return "**Score sheet**\n```\n" + "\n".join(rows) + "\n```\n" + tail


def history_text(games: list[GameSummary]) -> str:
    if not games:
        return "No finished games in this channel yet."
    lines = ["**Finished games in this channel**"]
    for g in games:
        scores = ", ".join(f"{n} {t}" for n, t in zip(g.players, g.totals, strict=True))
        when = g.finished_at.strftime("%Y-%m-%d")
        lines.append(f"{when} · {g.rounds_played} rounds · 🏆 {' & '.join(g.winners)} · {scores}")
    return "\n".join(lines)


def leaderboard_text(rows: list[LeaderboardRow], by: str) -> str:
    if not rows:
        return "Nobody has finished a game on this server yet."
    lines = [f"**Leaderboard** (by {by})"]
    for row in rows:
        s = row.stats
        lines.append(f"{row.rank}. {s.name}: {s.wins} wins · {s.points} points · {s.games} games")
    return "\n".join(lines)


def stats_text(name: str, stats: PlayerStats | None) -> str:
    if stats is None:
        return f"{name} has not finished a game on this server yet."
    rate = stats.wins * 100 // stats.games if stats.games else 0
    return (
        f"**{name}** — {stats.games} games, {stats.wins} wins ({rate}%), {stats.points} points, "
        f"best round {stats.best_round}, {stats.captures} captures"
    )


def house_rules_text(rules: HouseRules, *, channel: bool = False) -> str:
    where = "this channel" if channel else "this server"
    lines = [f"**House rules for {where}**"]
    for key, value in rules.model_dump().items():
        lines.append(f"`{key}` = {str(value).lower() if isinstance(value, bool) else value}")
    return "\n".join(lines)
