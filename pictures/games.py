"""The registry of pictures: every game's picture by the game's name (a name of
:mod:`engine.games`), and the charts — the one place the painter finds a drawing function.

A new game's picture is one module of :mod:`pictures` with a module-level function that
takes picklable values and returns PNG bytes, added to :data:`DRAWINGS` here. Modules are
imported on first use, so the worker loads only what it is asked to draw.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable

# a picture's name -> "module:function" of this package (imported on first use)
DRAWINGS = {
    "stack": "pictures.stack:draw_field",
    "stackup": "pictures.stackup:draw_table",
    "colorstack": "pictures.colorstack:draw_board",
    "chart": "pictures.charts:draw_chart",
}
CHART = "chart"  # the charts' drawing (any game's score sheet, a player's last games)


class UnknownPicture(ValueError):
    """No picture has that name."""


def drawing(name: str) -> Callable[..., bytes]:
    """The drawing function of the picture called ``name``."""
    where = DRAWINGS.get(name)
    if where is None:
        raise UnknownPicture(f"there is no picture called {name!r}; they are {', '.join(DRAWINGS)}")
    module, _, function = where.partition(":")
    found: Callable[..., bytes] = getattr(importlib.import_module(module), function)
    return found
