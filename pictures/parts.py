"""The parts a picture is composed of (labels, cards, chips…), built once and reused: one
cache type and one build lock for every game's picture (:mod:`pictures.stack`,
:mod:`pictures.stackup`)."""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable
from typing import Generic, TypeVar

K = TypeVar("K", bound=Hashable)
V = TypeVar("V")

# Every build runs under this lock, so a FreeType face (shared by every picture through
# pictures.fonts) or a half-built part is never used by two threads at once.
BUILD_LOCK = threading.RLock()


class Parts(Generic[K, V]):
    """Parts built on first use, once each (builds run under :data:`BUILD_LOCK`), then read
    without locking. With ``limit``, the least recently built parts beyond it are dropped."""

    def __init__(self, build: Callable[[K], V], limit: int | None = None) -> None:
        self._build = build
        self._limit = limit
        self._parts: OrderedDict[K, V] = OrderedDict()

    def __call__(self, key: K) -> V:
        part = self._parts.get(key)
        if part is not None:
            return part
        with BUILD_LOCK:
            part = self._parts.get(key)
            if part is None:
                part = self._build(key)
                self._parts[key] = part
                if self._limit is not None and len(self._parts) > self._limit:
                    self._parts.popitem(last=False)
            return part

    def __len__(self) -> int:
        return len(self._parts)

    def clear(self) -> None:
        with BUILD_LOCK:
            self._parts.clear()
