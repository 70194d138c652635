"""The winner's total written on a game chart's plot stays clear of what is drawn there:
every line and its marks (the players', the teams', the target), the stars, and every other
text of the chart, measured as the chart is drawn (its renderer)."""

from __future__ import annotations

import math

import pytest
from matplotlib.axes import Axes
from matplotlib.backend_bases import RendererBase
from matplotlib.lines import Line2D
from matplotlib.text import Annotation, Text
from matplotlib.transforms import Bbox

from pictures.charts import GameChart, chart_figure, sample_game

DOCS = sample_game(4, 12, seed=7, names=("Ālīce ✨", "ボブ", "😀 Carol", "$x$ **Dee**"))


def _marked(line: Line2D) -> list[tuple[float, float]]:
    """The points of ``line`` that carry its mark, in pixels."""
    if line.get_marker() in (None, "", "None", "none", " "):
        return []
    points = line.get_transform().transform(line.get_xydata())
    every = line.get_markevery()
    chosen = range(len(points)) if every is None else every
    assert isinstance(chosen, range | list), every
    return [(float(points[i][0]), float(points[i][1])) for i in chosen]


def _near(box: Bbox, x: float, y: float, radius: float) -> bool:
    dx = max(box.x0 - x, 0.0, x - box.x1)
    dy = max(box.y0 - y, 0.0, y - box.y1)
    return math.hypot(dx, dy) < radius


def what_it_touches(label: Annotation, ax: Axes, renderer: RendererBase) -> list[str]:
    """What the painted box of ``label`` touches: lines, marks, other texts."""
    patch = label.get_bbox_patch()
    box = patch.get_window_extent(renderer) if patch is not None else label.get_window_extent()
    touched = []
    for line in ax.get_lines():
        name = str(line.get_gid())
        if line.get_linestyle() not in ("None", "none", "", " "):
            half = line.get_linewidth() / 2  # points are pixels at the charts' 72 dpi
            grown = Bbox.from_extents(box.x0 - half, box.y0 - half, box.x1 + half, box.y1 + half)
            path = line.get_transform().transform_path(line.get_path())
            if path.intersects_bbox(grown, filled=False):
                touched.append(f"line {name}")
        radius = line.get_markersize() / 2
        if any(_near(box, x, y, radius) for x, y in _marked(line)):
            touched.append(f"mark of {name}")
    figure = ax.get_figure()
    assert figure is not None
    for text in figure.findobj(Text):
        if text is label or not text.get_text() or not text.get_visible():
            continue
        if box.overlaps(text.get_window_extent(renderer)):
            touched.append(f"text {text.get_text()!r}")
    return touched


def winner_labels(chart: GameChart) -> tuple[list[tuple[Annotation, list[str]]], Axes]:
    figure = chart_figure(chart)
    renderer = figure.canvas.get_renderer()  # type: ignore[attr-defined]
    figure.draw(renderer)
    (ax,) = figure.axes
    labels = [t for t in ax.texts if isinstance(t, Annotation) and t.get_gid() == "winner-total"]
    return [(label, what_it_touches(label, ax, renderer)) for label in labels], ax


SAMPLES = [
    sample_game(seats, rounds, seed=seed)
    for seats in (2, 4, 8)
    for rounds in (1, 3, 12, 40)
    for seed in (1, 2, 3)
]
CHARTS = {
    "the docs' chart": DOCS,
    "the docs' chart, light": GameChart(DOCS.names, DOCS.rounds, 200, DOCS.winners, theme="light"),
    "a last round lost": GameChart(("a", "b"), ((150, 90), (80, 40), (-10, 30)), 200, (0,)),
    "a tie": GameChart(("a", "b", "c"), ((100, 60, 100), (110, 80, 110)), 200, (0, 2)),
    "a team": GameChart(("a", "b", "c", "d"), ((40, 30, 50, 10),) * 3, 200, (0, 2), (0, 1, 0, 1)),
    "the winner below zero": GameChart(("a", "b"), ((-30, -50), (-10, -20)), -50, (0,)),
    **{f"sample {i}": chart for i, chart in enumerate(SAMPLES) if chart.winners},
}


@pytest.mark.parametrize("chart", CHARTS.values(), ids=CHARTS.keys())
def test_the_winners_total_is_written_clear_of_every_line_mark_and_text(chart: GameChart) -> None:
    labels, _ = winner_labels(chart)
    assert labels  # a finished game writes its winning total
    for label, touched in labels:
        assert touched == [], (label.get_text(), touched)


def test_tied_winners_have_their_total_written_once() -> None:
    labels, _ = winner_labels(CHARTS["a tie"])
    assert [label.get_text() for label, _ in labels] == ["210"]


def test_the_check_sees_a_total_written_over_a_line() -> None:
    """The check itself: the docs' total where it was written before, level with its star
    on the left, lies over the winner's own line coming up to the star."""
    labels, ax = winner_labels(DOCS)
    (label, _), *_ = labels
    label.xyann = (-24, 0)
    label.set_horizontalalignment("right")
    label.set_verticalalignment("center_baseline")
    figure = ax.get_figure()
    assert figure is not None
    renderer = figure.canvas.get_renderer()  # type: ignore[attr-defined]
    figure.draw(renderer)
    assert "line seat-2" in what_it_touches(label, ax, renderer)
