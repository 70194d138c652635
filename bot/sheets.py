"""Score sheets and history lines of any game, in Discord's words: the defaults of the
game contract (:meth:`bot.games.base.DiscordGame.score_text`,
:meth:`~bot.games.base.DiscordGame.history_line`), which games' own words build on."""

from __future__ import annotations

from collections.abc import Sequence

import catalog
from bot.text import code_name, escape_name, fit_message
from persistence.records import GameSummary, ScoreSheet

__all__ = [
    "DRAWN_BY",
    "HISTORY_NAME",
    "SHEET_ROUNDS",
    "leader_line",
    "score_sheet_text",
    "sheet_lines",
    "short_escaped",
    "summary_line",
]

SHEET_ROUNDS = 10  # round columns a score sheet shows (the last ones; totals count all)
HISTORY_NAME = 16  # a name's width in the channel's history
SHEET_NAME = 20  # the columns a name takes at most in a score sheet's code block


def short_escaped(name: str, width: int = 20) -> str:
    """A name cut with "…" to ``width`` display columns (:func:`catalog.cut_columns`) and
    escaped for markdown. A Latin name keeps ``width`` characters; a Japanese or Chinese
    character counts two columns, as it takes about twice a Latin letter's room in
    Discord's font too, so a wide name takes no more of a line than a Latin one (cut at
    ``width`` characters, it took twice the room)."""
    return escape_name(catalog.cut_columns(name, width))


def sheet_lines(
    names: Sequence[str], rounds: Sequence[Sequence[int]], totals: Sequence[int]
) -> list[str]:
    """A score sheet as a code block: a row per player, a column for each of the last
    :data:`SHEET_ROUNDS` rounds (a line says which rounds are left out), totals. The
    columns line up by display width (a Japanese character takes two columns), and a
    name is cut with "…" to :data:`SHEET_NAME` columns, not characters: a Japanese name
    makes the block no wider than a Latin one."""
    shown = list(rounds[-SHEET_ROUNDS:])
    skipped = len(rounds) - len(shown)
    shorts = [code_name(catalog.cut_columns(" ".join(n.split()), SHEET_NAME)) for n in names]
    width = max(catalog.width(s) for s in shorts)
    labels = " ".join(
        catalog.rjust(catalog.t("info.sheet.round", number=skipped + i + 1), 4)
        for i in range(len(shown))
    )
    total = catalog.rjust(catalog.t("info.sheet.total"), 6)
    rows = [f"{'':{width}} {labels} {total}".rstrip()]
    for seat, short in enumerate(shorts):
        cells = " ".join(f"{r[seat]:>4}" for r in shown)
        rows.append(f"{catalog.ljust(short, width)} {cells} {totals[seat]:>6}")
    lines = ["```", *rows, "```"]
    if skipped == 1:
        lines.insert(0, catalog.t("info.sheet.left_out.first"))
    elif skipped:
        lines.insert(0, catalog.t("info.sheet.left_out.rounds", last=skipped))
    return lines


def leader_line(totals: Sequence[int], target: int) -> str:
    """``Leader at 120/200 (60%)``; only for a game with a target (``target`` > 0)."""
    best = max(totals) if totals else 0
    percent = min(100, max(0, best * 100 // target))
    return catalog.t("info.sheet.leader", best=best, target=target, percent=percent)


def score_sheet_text(sheet: ScoreSheet) -> str:
    """A stored game's score sheet (``/scores``)."""
    if sheet.winners:
        winners = catalog.together(short_escaped(n) for n in sheet.winners)
        tail = [catalog.t("info.sheet.won", winners=winners)]
    elif sheet.winners is not None:  # finished with no winner
        tail = [catalog.t("info.sheet.draw")]
    elif sheet.target_score > 0:
        leader = leader_line(sheet.totals, sheet.target_score)
        tail = [catalog.t("info.sheet.leader_line", leader=leader)]
    else:  # a game without a target has no leader to measure against it
        tail = []
    title = catalog.t("info.sheet.title")
    lines = [title, *sheet_lines(sheet.names, sheet.rounds, sheet.totals), *tail]
    return fit_message("\n".join(lines))


DRAWN_BY = {  # how a game ended drawn: catalog keys (info.po)
    "repetition": "info.history.by_repetition",
    "turn_limit": "info.history.by_turn_limit",
}


def summary_line(number: int, g: GameSummary, figure: str | None, how: str = "") -> str:
    """A finished game of any game in the channel's history: the winners (and ``how``
    they won: a resignation says so by itself), or ``draw`` and how for a game with no
    winner; then ``figure`` (what the final figures count: ``cards left``) per player
    (``None``: a game whose figure is the result itself, its players only), and the
    rounds only for a game played in rounds."""
    when = g.finished_at.strftime("%Y-%m-%d")
    rounds = f" · {catalog.n('info.history.rounds', g.rounds_played)}" if g.rounds_played else ""
    if figure is None:
        scores = catalog.t("list.comma").join(short_escaped(n, HISTORY_NAME) for n in g.players)
    else:
        scores = catalog.t("list.comma").join(
            f"{short_escaped(n, HISTORY_NAME)} {t}"
            for n, t in zip(g.players, g.totals, strict=True)
        )
    if not g.winners:
        drawn = how or (catalog.t(DRAWN_BY[g.ended_by]) if g.ended_by in DRAWN_BY else "")
        if drawn:
            result = catalog.t("info.history.draw_how", how=drawn)
        else:
            result = catalog.t("info.history.draw")
    else:
        winners = catalog.together(short_escaped(n, HISTORY_NAME) for n in g.winners)
        if not how and g.ended_by == "resignation":
            how = catalog.t("info.history.by_resignation")
        result = (
            catalog.t("info.history.won_how", winners=winners, how=how) if how else f"🏆 {winners}"
        )
    if figure is None:
        return catalog.t(
            "info.history.line_players",
            number=number,
            date=when,
            rounds=rounds,
            result=result,
            players=scores,
        )
    return catalog.t(
        "info.history.line",
        number=number,
        date=when,
        rounds=rounds,
        result=result,
        figure=figure,
        scores=scores,
    )
