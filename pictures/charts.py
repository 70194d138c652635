"""Charts of a game's story, drawn with matplotlib: a game's running totals round by round
(:class:`GameChart`), and a player's last games (:class:`StatsChart`).

A chart is described by a small frozen, picklable value built on the event loop (from a
score sheet, :class:`Sheet`, or a player's last games, :class:`FinishedGame`: what
:class:`~persistence.records.ScoreSheet` and :class:`~persistence.records.RecentGame` hold,
read without importing storage) and drawn by :func:`draw_chart` into PNG
bytes somewhere else: the picture worker (:mod:`pictures.painter`) or a thread. Drawing uses
matplotlib's object API only (a :class:`~matplotlib.figure.Figure` on its own Agg canvas,
never pyplot), so two charts may be drawn on two threads at once; matplotlib itself is
imported on the first drawing, not with this module.

Made for a phone: Discord shows an image about 380 CSS pixels wide there, and a chart is
:data:`WIDTH` pixels wide, so text drawn :data:`TEXT` pixels high reads as
``TEXT * 380 / WIDTH`` (15-16) CSS pixels, the size of Discord's own message text. Every
seat has its colour *and* its mark (:mod:`pictures.palette`), on its line and in the legend.
Names are any text: mathtext is off on every text drawn, and fonts for accents, Japanese
and symbols/emoji are registered at the first drawing (:func:`font_families`).

Every label (titles, axis captions, the target, the summaries) is the catalog's (the
``charts`` domain), said in the language spoken where the chart is drawn: the picture
worker speaks its job's language (:class:`pictures.painter.DrawJob`), so a table's chart
is in the table's language.

``python -m pictures.charts --save docs/pictures`` draws the sample charts of the docs.
"""

from __future__ import annotations

import argparse
import io
import math
import os
import random
import threading
import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

import catalog
from pictures import fonts
from pictures.chart_labels import Place, painted_box, place_clear
from pictures.palette import (
    DEFAULT_THEME,
    SEAT_COLOURS,
    Colour,
    Theme,
    hex_colour,
    palette,
    seat_colour,
    seat_ink,
    seat_marker,
)

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.backend_bases import RendererBase
    from matplotlib.figure import Figure

WIDTH = 760  # pixels; a chart grows downwards
DPI = 72  # so that a point is a pixel
TEXT = 31  # names, legend, totals: 31 * 380 / 760 = 15.5 CSS px on a phone
SMALL = 28  # tick labels, captions: 14 CSS px
TITLE = 34
MARGIN = 22
ROW = 44  # a legend row
PLOT_HEIGHT = 420  # the game chart's plotting area
STATS_PLOT_HEIGHT = 300
TITLE_HEIGHT = TITLE + 24
SUBTITLE_HEIGHT = TEXT + 12  # the stats and rating charts' second heading line: what they show
BELOW_PLOT = SMALL + 14 + SMALL + 18  # the game chart's tick labels and x caption
STATS_BELOW = SMALL + 22  # the stats chart's caption
MAX_SEATS = len(SEAT_COLOURS)  # a chart tells the players apart by colour and mark
MAX_MARKS = 14  # marks drawn along one line (every round up to that, then spaced out)
PNG_OPTIONS: dict[str, Any] = {"compress_level": 1}
# where a winner's total is written, beside its star at the last round, the first that
# touches nothing (:func:`pictures.chart_labels.place_clear`): left of the star, above or
# below it on the left, or straight above or below it
WINNER_TOTAL_PLACES = (
    Place((-24, 0), "right", "center_baseline"),
    Place((-22, 18), "right", "bottom"),
    Place((-22, -18), "right", "top"),
    Place((0, 26), "center", "bottom"),
    Place((0, -26), "center", "top"),
)
SUBTITLE_GAP = 16  # pixels at least between what a chart shows and the figure at its right
LAST_VALUE_GAP = 8  # pixels between a rating chart's last point and its value
WINNER_TOTAL_ROOM = 62  # pixels above the highest total, for its total written above it
TARGET_GAP = 4  # pixels at least between a stats chart's target dash and a bar's label or star
LABEL_GAP = 6  # pixels at least between two bars' numbers on a stats chart
MIN_LABEL = 18  # the smallest a stats chart's numbers are drawn, to keep them apart

# ---------------------------------------------------------------------------- the charts


class Sheet(Protocol):
    """What a game chart reads of a score sheet (:class:`persistence.records.ScoreSheet`)."""

    @property
    def names(self) -> tuple[str, ...]: ...
    @property
    def rounds(self) -> tuple[tuple[int, ...], ...]: ...
    @property
    def target_score(self) -> int: ...
    @property
    def winners(self) -> tuple[str, ...] | None: ...


class FinishedGame(Protocol):
    """What a stats chart reads of one of a player's finished games
    (:class:`persistence.records.RecentGame`)."""

    @property
    def total(self) -> int: ...
    @property
    def won(self) -> bool: ...
    @property
    def target(self) -> int: ...


@dataclass(frozen=True, slots=True)
class PlayedGame:
    """One bar of a stats chart: the player's final figure, whether they won, the target."""

    total: int
    won: bool
    target: int


@dataclass(frozen=True, slots=True)
class GameChart:
    """A game's running totals round by round: a line per player from 0 before round 1,
    the target, the winners.

    ``rounds[r][seat]`` is what ``seat`` scored in round ``r + 1``; ``winners`` are seats
    (empty while the game runs); ``teams[seat]`` is the seat's team in team play, whose
    combined totals are drawn too (they are what reach the target).
    """

    PICTURE = "chart"  # its drawing in pictures.games (a class attribute, not a field)

    names: tuple[str, ...]
    rounds: tuple[tuple[int, ...], ...]
    target: int
    winners: tuple[int, ...] = ()
    teams: tuple[int, ...] | None = None
    theme: Theme = DEFAULT_THEME
    title: str = ""

    def __post_init__(self) -> None:
        seats = len(self.names)
        if not 1 <= seats <= MAX_SEATS:
            raise ValueError(f"a game chart has 1 to {MAX_SEATS} players, not {seats}")
        if any(len(r) != seats for r in self.rounds):
            raise ValueError("every round of a game chart has a score per player")
        if any(not 0 <= w < seats for w in self.winners):
            raise ValueError(f"a winner is a seat, 0 to {seats - 1}")
        if self.teams is not None and len(self.teams) != seats:
            raise ValueError("a team game chart has a team per player")

    @classmethod
    def of_sheet(
        cls,
        sheet: Sheet,
        *,
        theme: Theme = DEFAULT_THEME,
        teams: tuple[int, ...] | None = None,
        title: str = "",
    ) -> GameChart:
        """The chart of a score sheet (its winners, given by name, become seats). Pass
        ``teams`` (``StackRules.team_of(names)``) for a team game."""
        winners = tuple(i for i, name in enumerate(sheet.names) if name in (sheet.winners or ()))
        return cls(
            names=sheet.names,
            rounds=sheet.rounds,
            target=sheet.target_score,
            winners=winners,
            teams=teams,
            theme=theme,
            title=title,
        )

    def running(self) -> list[list[int]]:
        """Each seat's running total: 0, then after each round."""
        series = []
        for seat in range(len(self.names)):
            total, line = 0, [0]
            for r in self.rounds:
                total += r[seat]
                line.append(total)
            series.append(line)
        return series

    def team_groups(self) -> list[tuple[int, ...]]:
        """The seats of each team, in team order (none without teams)."""
        if self.teams is None:
            return []
        return [
            tuple(s for s, t in enumerate(self.teams) if t == team)
            for team in sorted(set(self.teams))
        ]


@dataclass(frozen=True, slots=True)
class StatsChart:
    """A player's last finished games, newest first as
    :attr:`persistence.records.PlayerStats.recent` gives them: a bar per game (their final
    total, drawn oldest to newest), the wins marked, each game's target drawn. ``game``
    is the game's title as its players read it (in the language the chart is drawn in),
    said under the name: the picture alone tells what it shows."""

    PICTURE = "chart"  # its drawing in pictures.games (a class attribute, not a field)

    name: str
    games: tuple[FinishedGame, ...]
    theme: Theme = DEFAULT_THEME
    game: str = ""

    def __post_init__(self) -> None:
        # plain values of this module: what the worker unpickles needs no storage module
        plain = tuple(PlayedGame(g.total, g.won, g.target) for g in self.games)
        object.__setattr__(self, "games", plain)


@dataclass(frozen=True, slots=True)
class RatingChart:
    """A player's rating after each of their last rated games, oldest first: ``points``
    are (mu, sigma); the line is the ordinal shown (mu - 3 sigma), the band ± sigma.
    ``game`` is the rated game's title as its players read it (in the language the chart
    is drawn in), said under the name: the picture alone tells what it shows."""

    PICTURE = "chart"  # its drawing in pictures.games (a class attribute, not a field)

    name: str
    points: tuple[tuple[float, float], ...]
    theme: Theme = DEFAULT_THEME
    game: str = ""


Chart = GameChart | StatsChart | RatingChart


def chart_size(chart: Chart) -> tuple[int, int]:
    """The chart's width and height in pixels: :data:`WIDTH` wide; a game chart grows by a
    legend row per player (and per team)."""
    if isinstance(chart, StatsChart | RatingChart):
        heading = TITLE_HEIGHT + SUBTITLE_HEIGHT
        return WIDTH, MARGIN + heading + STATS_PLOT_HEIGHT + STATS_BELOW + MARGIN
    rows = len(chart.names) + len(chart.team_groups())
    legend = rows * ROW + 14
    return WIDTH, MARGIN + TITLE_HEIGHT + PLOT_HEIGHT + BELOW_PLOT + legend + MARGIN


def chart_figure(chart: Chart) -> Figure:
    """The chart as a matplotlib figure (on an Agg canvas of its own)."""
    if isinstance(chart, RatingChart):
        return rating_figure(chart)
    return game_figure(chart) if isinstance(chart, GameChart) else stats_figure(chart)


def draw_chart(chart: Chart) -> bytes:
    """``chart`` as PNG bytes. Pure and thread-safe (a figure of its own per call)."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from PIL import Image

    figure = chart_figure(chart)
    canvas = figure.canvas
    assert isinstance(canvas, FigureCanvasAgg)
    canvas.draw()  # type: ignore[no-untyped-call]
    width, height = canvas.get_width_height()
    rgba = Image.frombuffer("RGBA", (width, height), canvas.buffer_rgba(), "raw")  # type: ignore[no-untyped-call]
    # RGB with fast compression: half the time of matplotlib's RGBA at level 6 (a
    # palette is faster still, but its quick quantizers merge the light theme's panel
    # with its background)
    buffer = io.BytesIO()
    rgba.convert("RGB").save(buffer, format="PNG", **PNG_OPTIONS)
    return buffer.getvalue()


# ---------------------------------------------------------------------------- fonts

_FONT_LOCK = threading.Lock()
_families: list[str] | None = None


def font_families() -> list[str]:
    """The font families every text is drawn with, in fallback order: the fonts of the
    table picture (:func:`pictures.fonts.faces`, regular and bold: DejaVu Sans, Noto Sans CJK,
    Symbola, matplotlib's DejaVu Sans), registered with matplotlib once per process."""
    global _families
    with _FONT_LOCK:
        if _families is None:
            from matplotlib import font_manager

            families: list[str] = []
            for weight in ("regular", "bold"):
                for face in fonts.faces(weight):
                    try:
                        font_manager.fontManager.addfont(str(face.path))
                        name = font_manager.FontProperties(fname=face.path).get_name()
                    except (OSError, RuntimeError, ValueError):  # pragma: no cover
                        continue
                    if name not in families and weight == "regular":
                        families.append(name)
            if "DejaVu Sans" not in families:
                families.append("DejaVu Sans")
            _families = families
        return _families


def shown(text: str, *, bold: bool = False) -> str:
    """``text`` as the charts draw it, like the table picture: on one line, without the
    characters that only modify others, a character no font has as
    :data:`pictures.fonts.SUBSTITUTE` (never an empty box), and in the order it is drawn
    from the left (matplotlib lays text out left to right only: a right-to-left name is
    given reversed, its Arabic letters joined, :func:`pictures.fonts.visual`)."""
    return fonts.visual(text, "bold" if bold else "regular")


def _font(size: float, *, bold: bool = False) -> Any:
    from matplotlib.font_manager import FontProperties

    return FontProperties(family=font_families(), size=size, weight="bold" if bold else "normal")


# ---------------------------------------------------------------------------- helpers


def _rgb(colour: Colour) -> str:
    return hex_colour(colour)


def _text(
    figure: Any,
    x: float,
    y: float,
    text: str,
    font: Any,
    colour: Colour,
    ha: str = "left",
    va: str = "baseline",
) -> None:
    """``text`` on ``figure`` at ``x, y`` (its fractions) in ``font`` and ``colour``, as it
    is (no mathtext)."""
    figure.text(x, y, text, fontproperties=font, color=_rgb(colour), parse_math=False, ha=ha, va=va)


def _number(value: float) -> str:
    """A whole number with thousands separators and a real minus sign."""
    text = f"{abs(round(value)):,}"
    return f"\u2212{text}" if value < 0 else text


def _decimal(value: float) -> str:
    """A number to one decimal, with a real minus sign (as the axes write it)."""
    text = f"{abs(value):.1f}"
    return f"\u2212{text}" if value < 0 and text != "0.0" else text


def _short(value: int) -> str:
    """A number in at most five characters: 950, 1.2k, 12k, −3.4k."""
    if abs(value) < 1000:
        return _number(value)
    text = f"{abs(value) / 1000:.1f}k" if abs(value) < 10_000 else f"{abs(value) // 1000}k"
    return f"\u2212{text}" if value < 0 else text


def _renderer(figure: Figure) -> RendererBase:
    """The renderer ``figure`` is drawn with (what its labels are measured with)."""
    from matplotlib.backends.backend_agg import FigureCanvasAgg

    canvas = figure.canvas
    assert isinstance(canvas, FigureCanvasAgg)
    renderer: RendererBase = canvas.get_renderer()  # type: ignore[no-untyped-call]
    return renderer


def _new_figure(width: int, height: int, background: Colour) -> Figure:
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from matplotlib.figure import Figure

    figure = Figure(figsize=(width / DPI, height / DPI), dpi=DPI, facecolor=_rgb(background))
    FigureCanvasAgg(figure)
    return figure


def _text_width(text: str, font: Any) -> float:
    """How wide ``text`` is drawn in ``font``, in pixels."""
    from matplotlib.textpath import TextToPath

    width, _height, _descent = TextToPath().get_text_width_height_descent(text, font, ismath=False)
    return float(width)


def _fit(text: str, font: Any, width: float) -> str:
    """``text`` as drawn (:func:`shown`), cut with an ellipsis to fit ``width`` pixels
    in ``font`` (cut at its end as typed: a right-to-left name loses its left end)."""
    from matplotlib.textpath import TextToPath

    text = fonts.clean(text)
    measure = TextToPath()

    def wide(s: str) -> float:
        w, _h, _d = measure.get_text_width_height_descent(shown(s), font, ismath=False)
        return float(w)

    if wide(text) <= width:
        return shown(text)
    places = fonts.cuts(text)  # never inside an emoji sequence
    lo, hi = 0, len(places) - 1
    while lo < hi:  # the longest prefix that fits with its ellipsis
        mid = (lo + hi + 1) // 2
        if wide(text[: places[mid]].rstrip() + "…") <= width:
            lo = mid
        else:
            hi = mid - 1
    return shown(text[: places[lo]].rstrip() + "…")


def _ticks(lo: float, hi: float, bins: int) -> list[float]:
    from matplotlib.ticker import MaxNLocator

    locator = MaxNLocator(nbins=bins, integer=True, steps=[1, 2, 2.5, 5, 10])
    return [float(t) for t in locator.tick_values(lo, hi) if lo <= t <= hi]


def _plot_axes(
    figure: Figure, colours: Any, figure_height: int, *, box: tuple[float, float, float, float]
) -> Axes:
    """The plot's axes, styled, in ``box``: pixels (left, top, right margin, height)."""
    left, top, right, height = box
    ax = figure.add_axes(
        (
            left / WIDTH,
            1 - (top + height) / figure_height,
            (WIDTH - left - right) / WIDTH,
            height / figure_height,
        )
    )
    _style_axes(ax, colours)
    return ax


def _style_axes(ax: Axes, colours: Any) -> None:
    ax.set_facecolor(_rgb(colours.panel))
    for side in ("top", "right"):
        ax.spines[side].set_visible(False)
    for side in ("left", "bottom"):
        ax.spines[side].set_color(_rgb(colours.grid))
        ax.spines[side].set_linewidth(2)
    ax.tick_params(colors=_rgb(colours.muted), length=6, width=2, pad=6)
    ax.grid(axis="y", color=_rgb(colours.grid), linewidth=1.5, alpha=0.8)
    ax.set_axisbelow(True)


def _set_tick_labels(ax: Axes, xs: Sequence[float], ys: Sequence[float]) -> None:
    small = _font(SMALL)
    ax.set_xticks(list(xs), [_number(x) for x in xs], fontproperties=small)
    ax.set_yticks(list(ys), [_number(y) for y in ys], fontproperties=small)
    for label in (*ax.get_xticklabels(), *ax.get_yticklabels()):
        label.set_parse_math(False)


def _label_width(labels: Sequence[str], size: float) -> float:
    """An estimate of the widest label's width in pixels: a wide (CJK) character an em,
    any other about 0.62 of one."""
    return max((_ems(s) for s in labels), default=0.62) * size


def _ems(text: str) -> float:
    return sum(1.0 if unicodedata.east_asian_width(c) in "WF" else 0.62 for c in text)


# ---------------------------------------------------------------------------- game chart


def game_figure(chart: GameChart) -> Figure:
    colours = palette(chart.theme)
    seats = len(chart.names)
    series = chart.running()
    groups = chart.team_groups()
    team_series = [[sum(series[s][r] for s in g) for r in range(len(series[0]))] for g in groups]
    rounds = len(chart.rounds)
    winners = set(chart.winners)

    # the legend, ranked: a row per seat, the highest total first (in team play: a row
    # per team, the highest first, each followed by its members)
    rows: list[tuple[str, int]] = []
    if groups:
        for t in sorted(range(len(groups)), key=lambda t: (-team_series[t][-1], t)):
            rows.append(("team", t))
            rows.extend(("seat", s) for s in sorted(groups[t], key=lambda s: -series[s][-1]))
    else:
        rows = [("seat", s) for s in sorted(range(seats), key=lambda s: (-series[s][-1], s))]

    title_h = TITLE_HEIGHT
    below_plot = BELOW_PLOT
    _, height = chart_size(chart)
    figure = _new_figure(WIDTH, height, colours.background)

    def fy(px_from_top: float) -> float:  # figure fraction from a pixel row
        return 1 - px_from_top / height

    # the winners' final totals (a team's in team play), each once
    finals: list[int] = []
    if winners:
        if groups:
            lines = [team_series[t] for t, group in enumerate(groups) if winners & set(group)]
        else:
            lines = [series[s] for s in sorted(winners)]
        finals = sorted({line[-1] for line in lines}, reverse=True)

    # the scale: the target always shows, and zero; room above the top for a winner's total
    values = [v for line in (*series, *team_series) for v in line]
    lo, hi = min(0, *values), max(chart.target, *values, 1)
    span = hi - lo
    # (headroom: the room above the highest value, a share of the span; 0.05 of it below)
    winner_room = WINNER_TOTAL_ROOM if finals else 0
    headroom = max(0.09, winner_room * 1.05 / (PLOT_HEIGHT - winner_room))
    y_ticks = _ticks(lo, hi, 5)
    x_ticks = [t for t in _ticks(0, rounds, 6) if t == int(t)] or [0.0, float(rounds)]
    left = MARGIN + _label_width([_number(y) for y in y_ticks], SMALL) + 18
    right = MARGIN + 18
    plot_top = MARGIN + title_h
    ax = _plot_axes(figure, colours, height, box=(left, plot_top, right, PLOT_HEIGHT))
    ax.set_xlim(-0.02 * max(rounds, 1), rounds + 0.04 * max(rounds, 1))
    ax.set_ylim(lo - 0.05 * span, hi + headroom * span)
    _set_tick_labels(ax, x_ticks, y_ticks)

    # the title, and the caption under the x axis
    title = chart.title or catalog.t("charts.game.running" if not winners else "charts.game.went")
    rounds_text = catalog.n("charts.game.rounds", rounds)
    room = max(190.0, _label_width([rounds_text], SMALL) + 24)  # the round count's, at the right
    _text(
        figure,
        MARGIN / WIDTH,
        fy(MARGIN + TITLE * 0.85),
        _fit(title, _font(TITLE, bold=True), WIDTH - 2 * MARGIN - room),
        _font(TITLE, bold=True),
        colours.text,
    )
    _text(
        figure,
        (WIDTH - MARGIN) / WIDTH,
        fy(MARGIN + TITLE * 0.85),
        rounds_text,
        _font(SMALL),
        colours.muted,
        ha="right",
    )
    _text(
        figure,
        (left + (WIDTH - left - right) / 2) / WIDTH,
        fy(plot_top + PLOT_HEIGHT + SMALL + 14 + SMALL),
        catalog.t("charts.game.round_axis"),
        _font(SMALL),
        colours.muted,
        ha="center",
    )

    # the target, labelled at the left, above its line unless it is at the top
    from matplotlib.transforms import blended_transform_factory

    ax.axhline(
        chart.target, gid="target", color=_rgb(colours.highlight), linewidth=3, dashes=(7, 5)
    )
    top_room = (hi + headroom * span - chart.target) / (span * (1.05 + headroom)) * PLOT_HEIGHT
    above = top_room > SMALL + 10
    ax.text(
        0.015,
        chart.target,
        catalog.t("charts.target", target=_number(chart.target)),
        transform=blended_transform_factory(ax.transAxes, ax.transData),
        fontproperties=_font(SMALL, bold=True),
        color=_rgb(colours.highlight),
        parse_math=False,
        va="bottom" if above else "top",
        ha="left",
        zorder=6,
        bbox={
            "boxstyle": "square,pad=0.12",
            "facecolor": _rgb(colours.panel),
            "edgecolor": "none",
            "alpha": 0.85,
        },
    )

    xs = list(range(rounds + 1))
    every = max(1, math.ceil(rounds / MAX_MARKS))
    marks = sorted({*range(0, rounds + 1, every), rounds})
    order = sorted(range(seats), key=lambda s: (s in winners, -s))  # winners on top
    member_width = 2.5 if groups else 4.0
    for seat in order:
        ax.plot(
            xs,
            series[seat],
            gid=f"seat-{seat}",
            color=_rgb(seat_ink(seat, chart.theme)),
            linewidth=member_width,
            marker=seat_marker(seat),
            markevery=marks,
            markersize=(13 if not groups else 10) * _mark_scale(seat),
            markerfacecolor=_rgb(seat_colour(seat, chart.theme)),
            markeredgecolor=_rgb(colours.outline),
            markeredgewidth=1.5,
            solid_joinstyle="round",
            zorder=4 + (seat in winners),
        )
    for t, group in enumerate(groups):
        # a team's line alternates its members' colours, and their marks along it
        first, *rest = group
        second = rest[0] if rest else first
        ax.plot(
            xs,
            team_series[t],
            gid=f"team-{t}",
            color=_rgb(seat_ink(first, chart.theme)),
            gapcolor=_rgb(seat_ink(second, chart.theme)),
            linewidth=5,
            linestyle=(0, (4, 3)),
            zorder=5,
        )
        for k, seat in enumerate((first, second)):
            ax.plot(
                xs,
                team_series[t],
                linestyle="none",
                marker=seat_marker(seat),
                markevery=marks[k::2],
                markersize=14 * _mark_scale(seat),
                markerfacecolor=_rgb(seat_colour(seat, chart.theme)),
                markeredgecolor=_rgb(colours.outline),
                markeredgewidth=1.5,
                zorder=6,
            )

    # the winners: a gold star at the last point, and its total written beside it where
    # it touches no line, mark or text (tied winners share their star's point and total)
    for total in finals:
        ax.plot(
            [rounds],
            [total],
            gid="winner",
            marker="*",
            markersize=34,
            color=_rgb(colours.highlight),
            markeredgecolor=_rgb(colours.outline),
            markeredgewidth=1.5,
            zorder=8,
            clip_on=False,
        )
    for total in finals:
        label = ax.annotate(
            _number(total),
            (rounds, total),
            xytext=WINNER_TOTAL_PLACES[0].offset,
            gid="winner-total",
            textcoords="offset points",
            fontproperties=_font(TEXT, bold=True),
            color=_rgb(colours.highlight),
            zorder=9,
            annotation_clip=False,
            parse_math=False,
            bbox={
                "boxstyle": "round,pad=0.15",
                "facecolor": _rgb(colours.panel),
                "edgecolor": "none",
                "alpha": 0.85,
            },
        )
        place_clear(label, WINNER_TOTAL_PLACES, _renderer(figure))

    # the legend: mark, name, total (a star for a winner)
    top = plot_top + PLOT_HEIGHT + below_plot + 8
    name_font, total_font = _font(TEXT), _font(TEXT, bold=True)
    total_x = WIDTH - MARGIN
    total_room = _label_width([_number(max(values, key=abs))], TEXT) + 60
    for i, (kind, who) in enumerate(rows):
        y = fy(top + i * ROW + ROW / 2)
        if kind == "seat":
            name, total = chart.names[who], series[who][-1]
            won = who in winners and not groups  # in team play the team's row says it
            mark_x = MARGIN + (36 if groups else 14)
            figure.add_artist(_legend_mark(figure, mark_x, y, who, chart.theme))
            name_x, font = mark_x + 24, name_font
        else:
            # each name isolated: a right-to-left one does not swap the members around "&"
            name = catalog.together(catalog.isolate(chart.names[s]) for s in groups[who])
            total = team_series[who][-1]
            won = bool(winners & set(groups[who]))
            for k, s in enumerate(groups[who][:2]):
                figure.add_artist(
                    _legend_mark(figure, MARGIN + 12 + k * 24, y, s, chart.theme, small=True)
                )
            name_x, font = MARGIN + 12 + 24 + 24, total_font
        _text(
            figure,
            name_x / WIDTH,
            y,
            _fit(name, font, total_x - total_room - name_x),
            font,
            colours.text,
            va="center_baseline",
        )
        _text(
            figure,
            total_x / WIDTH,
            y,
            ("★ " if won else "") + _number(total),
            total_font if (kind == "team" or not groups) else name_font,
            colours.highlight if won else colours.text,
            ha="right",
            va="center_baseline",
        )
    return figure


def _mark_scale(seat: int) -> float:
    """The star and the cross look smaller than the other marks at one size."""
    return 1.35 if seat_marker(seat) in ("*", "P") else 1.0


def _legend_mark(
    figure: Figure, x: float, y: float, seat: int, theme: Theme, *, small: bool = False
) -> Any:
    from matplotlib.lines import Line2D

    colours = palette(theme)
    return Line2D(
        [x / WIDTH],
        [y],
        transform=figure.transFigure,
        marker=seat_marker(seat),
        markersize=(18 if small else 22) * _mark_scale(seat),
        markerfacecolor=_rgb(seat_colour(seat, theme)),
        markeredgecolor=_rgb(colours.outline),
        markeredgewidth=1.5,
        linestyle="none",
    )


def _heading(figure: Figure, text: str, colours: Any, height: int, width: float) -> None:
    """A chart's title (a player's name) at its top left, cut to ``width`` pixels."""
    bold = _font(TITLE, bold=True)
    y = 1 - (MARGIN + TITLE * 0.85) / height
    _text(figure, MARGIN / WIDTH, y, _fit(text, bold, width), bold, colours.text)


def _subtitle(figure: Figure, what: str, aside: Sequence[str], colours: Any, height: int) -> None:
    """A chart's second heading line, under the name (:func:`_heading`): what the chart
    shows (``Rating in Stack Up!``, ``Last games of Stack``) at the left, whole when it
    can be, and a figure at the right (``now 12.5 ± 5.9``, ``won 3 of 10``): the first
    of ``aside``'s ways of saying it that leaves ``what`` room (the last one else)."""
    font, small = _font(TEXT), _font(SMALL)
    room = float(WIDTH - 2 * MARGIN)
    baseline = 1 - (MARGIN + TITLE_HEIGHT + TEXT * 0.85) / height
    if aside:
        wide = _text_width(shown(what), font) + SUBTITLE_GAP
        said = next((a for a in aside if wide + _text_width(a, small) <= room), aside[-1])
        room -= _text_width(said, small) + SUBTITLE_GAP
        _text(figure, (WIDTH - MARGIN) / WIDTH, baseline, said, small, colours.muted, ha="right")
    _text(figure, MARGIN / WIDTH, baseline, _fit(what, font, room), font, colours.text)


def _caption(figure: Figure, x: float, y: float, text: str, colours: Any, height: int) -> None:
    """A caption centred at ``x`` with its baseline at ``y`` (pixels from the top)."""
    _text(figure, x / WIDTH, 1 - y / height, text, _font(SMALL), colours.muted, ha="center")


# ---------------------------------------------------------------------------- stats chart


def stats_figure(chart: StatsChart) -> Figure:
    """The stats chart: a bar per game, oldest first, the wins gold and starred, each
    game's target dashed across it; its heading the player's name, then what the chart
    is (their last games of the game) with how many of them they won."""
    colours = palette(chart.theme)
    games = list(reversed(chart.games))  # oldest first
    below = STATS_BELOW
    _, height = chart_size(chart)
    figure = _new_figure(WIDTH, height, colours.background)

    def fy(px_from_top: float) -> float:
        return 1 - px_from_top / height

    wins = sum(g.won for g in games)
    summary = catalog.t("charts.stats.won", wins=wins, games=len(games)) if games else ""
    if chart.game:
        what = catalog.t("charts.stats.title", game=chart.game)
    else:
        what = catalog.t("charts.stats.any")
    _heading(figure, chart.name, colours, height, WIDTH - 2 * MARGIN)
    _subtitle(figure, what, (summary,) if summary else (), colours, height)
    plot_top = MARGIN + TITLE_HEIGHT + SUBTITLE_HEIGHT
    if not games:
        _text(
            figure,
            0.5,
            fy(plot_top + STATS_PLOT_HEIGHT / 2),
            catalog.t("charts.stats.none"),
            _font(TEXT),
            colours.muted,
            ha="center",
            va="center",
        )
        return figure

    totals = [g.total for g in games]
    targets = [g.target for g in games]
    lo, hi = min(0, *totals), max(*targets, *totals, 1)
    span = hi - lo
    y_ticks = _ticks(lo, hi, 4)
    left = MARGIN + _label_width([_number(y) for y in y_ticks], SMALL) + 18
    right = MARGIN
    ax = _plot_axes(figure, colours, height, box=(left, plot_top, right, STATS_PLOT_HEIGHT))
    n = len(games)
    ax.set_xlim(-0.6, max(n, 5) - 0.4)
    ax.set_ylim(lo - 0.04 * span, hi + 0.24 * span)
    ax.set_yticks(y_ticks, [_number(y) for y in y_ticks], fontproperties=_font(SMALL))
    ax.set_xticks([])
    for label in ax.get_yticklabels():
        label.set_parse_math(False)
    won_colour, lost_colour = colours.highlight, colours.muted
    xs = list(range(n))
    ax.bar(
        xs,
        totals,
        width=0.72,
        color=[_rgb(won_colour if g.won else lost_colour) for g in games],
        edgecolor=_rgb(colours.outline),
        linewidth=1.5,
        zorder=3,
    )
    # each game's target: a dash across its bar (one line when they all agree)
    width = 2.5 if len(set(targets)) == 1 else 3.0
    if len(set(targets)) == 1:
        ax.axhline(
            targets[0],
            gid="target",
            color=_rgb(colours.text),
            linewidth=width,
            dashes=(6, 4),
            zorder=4,
        )
        dashes = [(-math.inf, math.inf, float(targets[0]))]
    else:
        ax.hlines(
            targets,
            [x - 0.45 for x in xs],
            [x + 0.45 for x in xs],
            gid="target",
            colors=_rgb(colours.text),
            linewidth=width,
            linestyles=(0, (6, 4)),
            zorder=4,
        )
        dashes = [(x - 0.45, x + 0.45, float(t)) for x, t in zip(xs, targets, strict=True)]
    renderer = _renderer(figure)
    # the dashes in pixels, each with how near a label may come to its middle
    reach = TARGET_GAP + width / 2
    lines = []
    for x0, x1, y in dashes:
        left_end = ax.transData.transform((x0, y))[0] if math.isfinite(x0) else -math.inf
        right_end = ax.transData.transform((x1, y))[0] if math.isfinite(x1) else math.inf
        lines.append((float(left_end), float(right_end), float(ax.transData.transform((0, y))[1])))
    compact = max(abs(t) for t in totals) >= 1000
    labels = []
    for x, g in zip(xs, games, strict=True):
        inside = g.won and g.total / (span * 1.28) * STATS_PLOT_HEIGHT >= 40
        if inside:  # a win: a star at the top of its (gold) bar, under a dash through it
            star = ax.annotate(
                "★",
                (x, g.total),
                xytext=(0, -5),
                textcoords="offset points",
                fontproperties=_font(SMALL),
                color=_rgb(colours.highlight_text),
                ha="center",
                va="top",
                parse_math=False,
                zorder=5,
            )
            inside = _clear_of_dashes(star, lines, reach, renderer, up=False)
            if not inside:  # no room under the dash in its bar: beside its total
                star.remove()
        number = _short(g.total) if compact else _number(g.total)
        label = ax.annotate(
            number if inside or not g.won else "★" + number,
            (x, max(g.total, 0)),
            xytext=(0, 6),
            textcoords="offset points",
            fontproperties=_font(SMALL, bold=True),
            color=_rgb(colours.highlight if g.won else colours.text),
            ha="center",
            va="bottom",
            parse_math=False,
            zorder=6,
            bbox={  # over the grid's lines
                "boxstyle": "square,pad=0.05",
                "facecolor": _rgb(colours.panel),
                "edgecolor": "none",
            },
        )
        labels.append(label)
    # the numbers smaller where the widest would touch its neighbour's (ten wide numbers)
    slot = float(ax.transData.transform((1, 0))[0] - ax.transData.transform((0, 0))[0])
    widest = max(painted_box(label, renderer).width for label in labels)
    if widest > slot - LABEL_GAP:
        size = max(MIN_LABEL, SMALL * (slot - LABEL_GAP) / widest)
        for label in labels:
            label.set_fontsize(size)
    for label in labels:
        _clear_of_dashes(label, lines, reach, renderer, up=True)
    caption = catalog.t("charts.stats.last_game" if n == 1 else "charts.oldest_newest")
    if len(set(targets)) == 1:
        target = catalog.t("charts.target", target=_number(targets[0]))
    else:
        target = catalog.t("charts.stats.targets")
    caption = catalog.t("charts.stats.caption", games=caption, target=target)
    middle = left + (WIDTH - left - right) / 2
    _caption(figure, middle, plot_top + STATS_PLOT_HEIGHT + below - 4, caption, colours, height)
    return figure


def _clear_of_dashes(
    label: Any,
    lines: Sequence[tuple[float, float, float]],
    reach: float,
    renderer: RendererBase,
    *,
    up: bool,
) -> bool:
    """Move ``label`` (an annotation offset in points, which are pixels) up, or down,
    until its painted box keeps ``reach`` pixels from every target dash under it
    (``lines``: from x, to x and y, in pixels), so that no dash runs through its text.
    Moved down, it must stay over its bar's foot (a star inside its bar): whether it
    does."""
    foot = float(label.axes.transData.transform((0, 0))[1])
    for _ in range(len(lines) + 1):
        box = painted_box(label, renderer)
        crossed = [
            y
            for x0, x1, y in lines
            if x0 < box.x1 and box.x0 < x1 and box.y0 - reach < y < box.y1 + reach
        ]
        if not crossed:
            return not (not up and box.y0 < foot + TARGET_GAP)
        dx, dy = label.xyann
        if up:
            label.xyann = (dx, dy + max(crossed) + reach - box.y0)
        else:
            label.xyann = (dx, dy - (box.y1 - (min(crossed) - reach)))
    return False


def rating_figure(chart: RatingChart) -> Figure:
    """The rating chart: the ordinal after each game as a line with its marks, the band
    of ± sigma around it, the last value written at its end; its heading the player's
    name, then what the chart is (their rating in the game) with the rating now."""
    colours = palette(chart.theme)
    _, height = chart_size(chart)
    figure = _new_figure(WIDTH, height, colours.background)
    ordinals = [mu - 3 * sigma for mu, sigma in chart.points]
    lows = [o - sigma for o, (_, sigma) in zip(ordinals, chart.points, strict=True)]
    highs = [o + sigma for o, (_, sigma) in zip(ordinals, chart.points, strict=True)]
    now = ""
    if chart.points:
        now = f"{_decimal(ordinals[-1])} ± {chart.points[-1][1]:.1f}"
    _heading(figure, chart.name, colours, height, WIDTH - 2 * MARGIN)
    what = catalog.t("charts.rating.title", game=chart.game) if chart.game else ""
    said = (catalog.t("charts.rating.now", rating=now), now) if now else ()
    _subtitle(figure, what or catalog.t("charts.rating.any"), said, colours, height)
    plot_top = MARGIN + TITLE_HEIGHT + SUBTITLE_HEIGHT
    lo, hi = min([0.0, *lows]), max([1.0, *highs])
    y_ticks = _ticks(lo, hi, 4)
    left = MARGIN + _label_width([_number(y) for y in y_ticks], SMALL) + 18
    last = _decimal(ordinals[-1]) if ordinals else ""
    # room on the right for the last value, written just after the last point
    right = max(MARGIN * 3, LAST_VALUE_GAP + _text_width(last, _font(SMALL, bold=True)) + 6)
    box = (left, plot_top, right, STATS_PLOT_HEIGHT)
    ax = _plot_axes(figure, colours, height, box=box)
    xs = list(range(len(ordinals)))
    ax.set_xlim(-0.4, max(len(xs), 2) - 0.6)
    ax.set_ylim(lo - 0.05 * (hi - lo), hi + 0.1 * (hi - lo))
    ax.set_yticks(y_ticks, [_number(y) for y in y_ticks], fontproperties=_font(SMALL))
    ax.set_xticks([])
    ink = _rgb(colours.highlight)
    ax.fill_between(xs, lows, highs, color=ink, alpha=0.25, linewidth=0, zorder=2)
    ax.plot(xs, ordinals, color=ink, linewidth=4, marker="o", markersize=10, zorder=3)
    ax.annotate(
        last,
        (xs[-1] if xs else 0, ordinals[-1] if ordinals else 0),
        xytext=(LAST_VALUE_GAP, 0),
        textcoords="offset points",
        fontproperties=_font(SMALL, bold=True),
        color=_rgb(colours.text),
        va="center",
        parse_math=False,
    )
    middle = left + (WIDTH - left - right) / 2
    baseline = plot_top + STATS_PLOT_HEIGHT + STATS_BELOW - 4
    caption = catalog.t("charts.rating.caption", order=catalog.t("charts.oldest_newest"))
    _caption(figure, middle, baseline, caption, colours, height)
    return figure


# ---------------------------------------------------------------------------- samples


def sample_game(
    seats: int, rounds: int, *, seed: int = 1, target: int = 200, names: Sequence[str] = ()
) -> GameChart:
    """A made-up game (for the docs, the tests and the bench): ``seats`` players over
    ``rounds`` rounds, the leader at the end winning."""
    rng = random.Random(seed)
    per_round = max(1.0, target / max(rounds, 1) * 1.15)
    skill = [rng.uniform(0.6, 1.3) for _ in range(seats)]
    table = tuple(
        tuple(int(rng.gauss(per_round * skill[s], per_round * 0.5)) for s in range(seats))
        for _ in range(rounds)
    )
    totals = [sum(r[s] for r in table) for s in range(seats)]
    best = max(totals)
    chosen = tuple(names) or SAMPLE_NAMES
    return GameChart(
        names=tuple(chosen[s % len(chosen)] for s in range(seats)),
        rounds=table,
        target=target,
        winners=tuple(s for s in range(seats) if totals[s] == best and best >= target),
    )


def sample_stats(games: int = 10, *, seed: int = 1, name: str = "Ālīce ✨") -> StatsChart:
    rng = random.Random(seed)
    recent = []
    for _ in range(games):
        total = rng.randint(60, 260)
        won = total >= 200 and rng.random() < 0.7
        rng.randint(5, 14)  # the game's rounds (not drawn): drawn still, so samples stay the same
        recent.append(PlayedGame(total, won, target=200))
    return StatsChart(name, tuple(recent))


SAMPLE_NAMES: tuple[str, ...] = (
    "Ālīce ✨",
    "ボブ",
    "😀 Carol",
    "$x$ **Dee**",
    "Émile_le_très_long_nom_de_joueur",
    "Zoë",
    "李小龍",
    "@everyone",
)


def save_samples(folder: str) -> list[str]:
    """Draw the docs' charts into ``folder`` (the game chart in each theme, in English,
    and in Japanese: ``game-chart-ja.png``); their paths."""
    os.makedirs(folder, exist_ok=True)
    game = sample_game(4, 12, seed=7, names=("Ālīce ✨", "ボブ", "😀 Carol", "$x$ **Dee**"))
    out = []
    samples: tuple[tuple[Theme, str, str], ...] = (
        ("dark", "en", "dark"),
        ("light", "en", "light"),
        ("light", "ja", "ja"),
    )
    for theme, language, file in samples:
        path = os.path.join(folder, f"game-chart-{file}.png")
        with catalog.speaking(language):
            title = catalog.t("charts.sample_title", number=42)
            chart = GameChart(
                game.names, game.rounds, game.target, game.winners, theme=theme, title=title
            )
            png = draw_chart(chart)
        with open(path, "wb") as f:
            f.write(png)
        out.append(path)
    path = os.path.join(folder, "stats-chart.png")
    with open(path, "wb") as f:
        from catalog import games

        stats = sample_stats()
        title = games.words("stack").title()
        f.write(draw_chart(StatsChart(stats.name, stats.games, game=title)))
    out.append(path)
    return out


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description="draw the sample charts")
    parser.add_argument("--save", metavar="FOLDER", default="docs/pictures")
    args = parser.parse_args(argv)
    for path in save_samples(args.save):
        print(path)


if __name__ == "__main__":
    main()
