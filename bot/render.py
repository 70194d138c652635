"""The texts every game shares on Discord: the lobby, a channel's finished games and a
server's leaderboard. Pure functions (no Discord objects); a game's own texts are in its
package (Stack's: :mod:`bot.games.stack.words`). The game's words are passed in: this
module looks no game up.

Every text fits Discord's limits (:mod:`bot.text`); every name in it is escaped, so it
shows as typed and pings nobody. The only mentions are those of :func:`bot.text.mention`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from bot.ai_levels import level_name
from bot.sheets import short_escaped
from bot.text import MESSAGE_LIMIT, cut, escape_name, fit_message, mention, said, shortened
from catalog import n, t
from engine.stack.render import square
from persistence.records import GameSummary, LeaderboardRow, Rating, RatingRow, TableInfo

__all__ = [
    "history_page",
    "leaderboard_text",
    "lobby_text",
    "rating_board_text",
    "rating_line",
    "rating_words",
]


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


def lobby_text(info: TableInfo, title: str, summary: Sequence[str], max_seats: int) -> str:
    """The lobby message of any game: its title and rules in short (``summary``, the
    game's lines), the seats (humans mentioned, AIs named), the host."""
    first, more = (summary[0], list(summary[1:])) if summary else ("", [])
    first = first.removeprefix(f"{title} · ").removeprefix(title)  # the title once
    head = t("discord.lobby.head", title=escape_name(title))
    lines = [head + (f" · {first}" if first else "")]
    lines += more
    for seat in info.seats:
        who = (
            t(
                "discord.lobby.ai_seat",
                name=short_escaped(seat.name),
                level=level_name(seat.ai_level),
            )
            if seat.is_ai
            else f"{square(seat.position)} {mention(seat.user_id) or short_escaped(seat.name)}"
        )
        if seat.user_id is not None and seat.user_id == info.host_id:
            who = t("discord.lobby.host", seat=who)
        lines.append(who)
    lines.append(t("discord.lobby.seated", seated=len(info.seats), seats=max_seats))
    return fit_message("\n".join(lines))


def history_page(
    games: list[GameSummary], line: Callable[[int, GameSummary], str], title: str
) -> tuple[str, int]:
    """A channel's finished games of one game (``title``), newest first, each its game's
    ``line`` (:meth:`~bot.games.base.DiscordGame.history_line`), older ones left out when
    long; and how many of ``games`` (the first ones) it lists: the history's buttons are
    offered for those alone, so that each button has its line."""
    if not games:
        return t("discord.history.none", title=escape_name(title)), 0
    lines = [t("discord.history.head", title=escape_name(title))]
    for number, g in enumerate(games, start=1):
        lines.append(line(number, g))
    for shown in range(len(games), -1, -1):
        hidden = len(games) - shown
        tail = [n("discord.history.older", hidden)] if hidden else []
        text = "\n".join([*lines[: shown + 1], *tail])
        if len(text) <= MESSAGE_LIMIT:
            return text, shown
    return fit_message(text), 0


def leaderboard_text(
    rows: list[LeaderboardRow],
    by: str,
    figure_name: tuple[str, str],
    title: str,
    *,
    figures: bool = True,
    per_game: bool = False,
) -> str:
    """A server's best players of a game (``title``), by wins or by points; the points are named as
    the game counts its final figures (``figure_name``, singular and plural: the game's
    :attr:`~bot.games.base.DiscordGame.figure_name`, Stack's points, Stack Up!'s cards
    left: catalog keys, or words that are no key). Without ``figures`` (a game whose
    figure is the win itself: :attr:`~bot.games.base.DiscordGame.counts_points`) the
    lines leave it out, and the board is by wins. With ``per_game`` (a game whose figure
    counts the fewer the better, Stack Up!'s cards left, is ranked by its figure per game
    played) each line shows that figure per game, the one it is ranked by, not the sum."""
    if not rows:
        return t("discord.leaderboard.none", title=escape_name(title))
    one, many = (said(word) for word in figure_name)
    if not figures:
        by = "wins"
    if by == "points":
        ranked = many
    elif by == "wins":
        ranked = t("discord.leaderboard.by_wins")
    else:
        ranked = by
    lines = [
        t("discord.leaderboard.head", title=escape_name(title), by=escape_name(cut(ranked, 20)))
    ]
    for row in rows:
        s = row.stats
        if per_game:
            count = f"{s.points / s.games if s.games else 0:.1f}".removesuffix(".0")
            word = one if count == "1" else many
            figure = t("discord.count.figure_per_game", count=count, word=word)
        else:
            figure = t("discord.count.figure", count=s.points, word=one if s.points == 1 else many)
        wins, played = n("discord.count.wins", s.wins), n("discord.count.games", s.games)
        shown = f"{wins} · {figure} · {played}" if figures else f"{wins} · {played}"
        name = short_escaped(s.name, 32)
        lines.append(t("discord.leaderboard.row", rank=row.rank, name=name, figures=shown))
    return _fit_lines(lines, shortened())


def rating_words(rating: Rating) -> str:
    """A rating as shown: its ordinal (mu - 3 sigma) ± its uncertainty (sigma), one
    decimal each: ``18.4 ± 2.1``."""
    return f"{rating.ordinal:.1f} ± {rating.sigma:.1f}"


def rating_line(rating: Rating) -> str:
    """``/stats``' line of a rating, a player's or an AI level's: ``Rating: **18.4 ± 2.1**
    (12 rated games)``."""
    rated = n("info.stats.rated_games", rating.games)
    return t("info.stats.rating", rating=rating_words(rating), games=rated)


def rating_board_text(rows: list[RatingRow], rated_after: int, title: str) -> str:
    """A server's leaderboard of a game (``title``) by rating: its rated players (AI
    levels marked) with ``rated_after`` rated games or more, by ordinal."""
    if not rows:
        return n("discord.rating.none", rated_after, title=escape_name(title))
    lines = [t("discord.rating.head", title=escape_name(title))]
    for row in rows:
        r = row.rating
        if r.ai_level is not None:  # an AI level, named in the server's language
            who = "🤖 " + t("discord.rating.ai_level", level=level_name(r.ai_level))
        else:
            who = short_escaped(r.name, 32)
        figures = f"{rating_words(r)} · {n('discord.count.games', r.games)}"
        lines.append(t("discord.leaderboard.row", rank=row.rank, name=who, figures=figures))
    return _fit_lines(lines, shortened())
