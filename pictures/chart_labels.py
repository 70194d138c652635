"""Where a label written on a chart's plot goes (:mod:`pictures.charts`): the first of its
places where its painted box (the text and its padding) is clear of every line, every mark
and every other text on the plot, and inside the plot; where none is, the place that
touches the fewest. Measured as the figure draws it (its renderer), so the box is the one
painted, whatever the text and its font."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

if TYPE_CHECKING:
    from matplotlib.axes import Axes
    from matplotlib.backend_bases import RendererBase
    from matplotlib.lines import Line2D
    from matplotlib.text import Annotation
    from matplotlib.transforms import Bbox

CLEARANCE = 2.0  # pixels kept free around a label's box
NO_STYLE = ("None", "none", "", " ")


@dataclass(frozen=True, slots=True)
class Place:
    """Where a label sits: its offset from the point it labels (points, which are pixels
    at the charts' 72 dpi) and which of its sides is at that offset."""

    offset: tuple[float, float]
    ha: Literal["left", "center", "right"]
    va: Literal["bottom", "baseline", "center", "center_baseline", "top"]


def place_clear(label: Annotation, places: Sequence[Place], renderer: RendererBase) -> Place:
    """Put ``label`` (an annotation already on its axes) at the first of ``places`` where
    it touches nothing, else at the one where it touches the least; that place."""
    from matplotlib.axes import Axes

    ax = label.axes
    assert isinstance(ax, Axes)  # the label is on a plot
    best: tuple[int, Place] | None = None
    for place in places:
        _put(label, place)
        touched = _touches(painted_box(label, renderer), label, ax, renderer)
        if touched == 0:
            return place
        if best is None or touched < best[0]:
            best = (touched, place)
    assert best is not None  # a label needs at least one place
    _put(label, best[1])
    return best[1]


def _put(label: Annotation, place: Place) -> None:
    label.xyann = place.offset
    label.set_horizontalalignment(place.ha)
    label.set_verticalalignment(place.va)


def painted_box(label: Annotation, renderer: RendererBase) -> Bbox:
    """The box ``label`` paints: its padded background if it has one, else its text."""
    label.update_positions(renderer)
    patch = label.get_bbox_patch()
    if patch is None:
        return label.get_window_extent(renderer)
    label.update_bbox_position_size(renderer)
    return patch.get_window_extent(renderer)


def _touches(box: Bbox, label: Annotation, ax: Axes, renderer: RendererBase) -> int:
    """How many things on ``ax`` the ``box`` of ``label`` touches (lines, marks, other
    texts), one more if it leaves the plot (the figure's right margin is allowed: the last
    round's stars sit at the plot's right edge)."""
    from matplotlib.transforms import Bbox

    near = Bbox.from_extents(
        box.x0 - CLEARANCE, box.y0 - CLEARANCE, box.x1 + CLEARANCE, box.y1 + CLEARANCE
    )
    count = sum(_line_touches(near, line) for line in ax.get_lines())
    for text in ax.texts:
        if text is not label and text.get_text() and text.get_visible():
            count += near.overlaps(text.get_window_extent(renderer))
    plot = ax.get_window_extent(renderer)
    figure = ax.get_figure()
    assert figure is not None
    right = figure.bbox.x1
    count += not (plot.x0 <= box.x0 and box.x1 <= right and plot.y0 <= box.y0 <= box.y1 <= plot.y1)
    return count


def _line_touches(box: Bbox, line: Line2D) -> int:
    """Whether ``box`` touches ``line`` (its drawn width), and how many of its marks."""
    from matplotlib.transforms import Bbox

    touched = 0
    if line.get_linestyle() not in NO_STYLE:
        half = line.get_linewidth() / 2
        grown = Bbox.from_extents(box.x0 - half, box.y0 - half, box.x1 + half, box.y1 + half)
        path = line.get_transform().transform_path(line.get_path())
        touched += path.intersects_bbox(grown, filled=False)
    if line.get_marker() not in (None, *NO_STYLE):
        radius = line.get_markersize() / 2
        points = line.get_transform().transform(line.get_xydata())
        every = line.get_markevery()
        marked = range(len(points)) if every is None else every
        assert isinstance(marked, range | list)  # markevery: every point or a list of them
        touched += sum(_near(box, points[i][0], points[i][1], radius) for i in marked)
    return touched


def _near(box: Bbox, x: float, y: float, radius: float) -> bool:
    """Whether the mark of ``radius`` at ``x, y`` reaches into ``box``."""
    dx = max(box.x0 - x, 0.0, x - box.x1)
    dy = max(box.y0 - y, 0.0, y - box.y1)
    return math.hypot(dx, dy) < radius
