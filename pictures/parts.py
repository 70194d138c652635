"""The parts a picture is composed of (labels, cards, chips…), built once and reused: one
cache type and one build lock for every game's picture (:mod:`pictures.stack`,
:mod:`pictures.stackup`)."""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable, Sequence
from typing import Any, Generic, TypeVar

import numpy as np
from PIL import Image

import catalog
from pictures.palette import THEMES, Colour, Theme

# The measures every game's table picture shares: this wide (shown at ~380 CSS px on a
# phone, growing downwards), every text this high (30 * 380 / 760 = 15 CSS px on a phone),
# and parts drawn this many times larger, then reduced (smooth edges).
WIDTH = 760
FONT = 30
SUPERSAMPLE = 4

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")

# Every build runs under this lock, so a FreeType face (shared by every picture through
# pictures.fonts) or a half-built part is never used by two threads at once.
BUILD_LOCK = threading.RLock()


class Parts(Generic[K, V]):
    """Parts built on first use, once each (builds run under :data:`BUILD_LOCK`), then read
    without locking. With ``limit``, the least recently built parts beyond it are dropped.

    A part is kept per language too (the words on a label): it is cached under its key and
    the language being spoken (:func:`catalog.current`), and built in that language."""

    def __init__(self, build: Callable[[K], V], limit: int | None = None) -> None:
        self._build = build
        self._limit = limit
        self._parts: OrderedDict[tuple[str, K], V] = OrderedDict()

    def __call__(self, key: K) -> V:
        cached = (catalog.current(), key)
        part = self._parts.get(cached)
        if part is not None:
            return part
        with BUILD_LOCK:
            part = self._parts.get(cached)
            if part is None:
                part = self._build(key)
                self._parts[cached] = part
                if self._limit is not None and len(self._parts) > self._limit:
                    self._parts.popitem(last=False)
            return part

    def __len__(self) -> int:
        return len(self._parts)

    def clear(self) -> None:
        with BUILD_LOCK:
            self._parts.clear()


class IndexedPalette:
    """A picture's palette per theme (at most 256 colours, entry 0 its background,
    padded with it) and the reduction of an RGB part to it: each colour becomes its
    nearest palette colour, exactly (Pillow's own quantizer rounds colours to a coarse
    grid first, which would shift a ground colour next to a shade of it)."""

    def __init__(self, colours: Callable[[Theme], list[Colour]]) -> None:
        self.bytes: dict[Theme, bytes] = {}
        self._arrays: dict[Theme, Any] = {}
        for theme in THEMES:
            found = colours(theme)
            padding = bytes(found[0]) * (256 - len(found))
            self.bytes[theme] = bytes(c for colour in found for c in colour) + padding
            array = np.frombuffer(self.bytes[theme], dtype=np.uint8)
            self._arrays[theme] = array.reshape(256, 3).astype(np.int32)

    def nearest(self, pixels: Any, theme: Theme) -> Any:
        """The palette index of each RGB pixel of ``pixels`` (an ``(n, 3)`` integer array):
        its nearest palette colour, each distinct colour measured once."""
        keys = (pixels[:, 0] << 16) | (pixels[:, 1] << 8) | pixels[:, 2]
        unique, inverse = np.unique(keys, return_inverse=True)
        found = np.stack([(unique >> 16) & 255, (unique >> 8) & 255, unique & 255], axis=1)
        distances = ((found[:, None, :] - self._arrays[theme][None, :, :]) ** 2).sum(axis=2)
        return distances.argmin(axis=1).astype(np.uint8)[inverse.reshape(-1)]

    def reduce(self, image: Image.Image, theme: Theme) -> Image.Image:
        """``image`` (RGB) as a "P" image in the theme's palette."""
        pixels = np.asarray(image.convert("RGB"), dtype=np.int32)
        height, width = pixels.shape[:2]
        indices = self.nearest(pixels.reshape(-1, 3), theme).reshape(height, width)
        part = Image.frombytes("P", (width, height), indices.tobytes())
        part.putpalette(self.bytes[theme])
        return part

    def paint(
        self,
        image: Image.Image,
        theme: Theme,
        xy: tuple[int, int],
        layers: Sequence[tuple[Colour, Image.Image]],
    ) -> None:
        """Paint each colour through its mask ("L", all of one size, their top left at
        ``xy``), in order, onto ``image`` (a "P" image in the theme's palette), as an RGB
        image would blend them; only the pixels a mask touches are reduced to the
        palette again (each to its nearest colour), the rest keep their index."""
        left, top = xy
        width, height = layers[0][1].size
        box = (
            max(left, 0),
            max(top, 0),
            min(left + width, image.width),
            min(top + height, image.height),
        )
        if box[0] >= box[2] or box[1] >= box[3]:
            return
        inside = (box[0] - left, box[1] - top, box[2] - left, box[3] - top)
        region = image.crop(box)
        rgb = region.convert("RGB")
        touched: Any = None
        for colour, mask in layers:
            cut = mask.crop(inside)
            rgb.paste(colour, (0, 0), cut)
            covered = np.asarray(cut) > 0
            touched = covered if touched is None else touched | covered
        indices = np.asarray(region, dtype=np.uint8).copy()
        pixels = np.asarray(rgb, dtype=np.int32)[touched]
        if len(pixels):
            indices[touched] = self.nearest(pixels, theme)
        image.paste(Image.frombytes("P", region.size, indices.tobytes()), box[:2])
