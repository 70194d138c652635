"""How long one kind of work takes, over the last minute: the figures the health report
gives (:mod:`bot.health`) of what the tables measure (:class:`bot.tables.Tables`: answering
a move)."""

from __future__ import annotations

import statistics
import time
from collections import deque
from collections.abc import Callable

WINDOW = 60.0  # seconds of work the figures cover


class Timings:
    """Durations of one kind of work over the last ``WINDOW`` seconds."""

    def __init__(self, window: float = WINDOW, most: int = 200_000) -> None:
        self.window = window
        self._samples: deque[tuple[float, float]] = deque(maxlen=most)
        self.observe: Callable[[float], object] | None = None  # each duration, told too

    def add(self, seconds: float) -> None:
        self._samples.append((time.monotonic(), seconds))
        if self.observe is not None:
            self.observe(seconds)

    def recent(self) -> list[float]:
        since = time.monotonic() - self.window
        while self._samples and self._samples[0][0] < since:
            self._samples.popleft()
        return [s for _, s in self._samples]

    def summary(self) -> dict[str, float | int]:
        """``count``, and ``p50_ms`` and ``p99_ms`` when there are samples."""
        values = self.recent()
        out: dict[str, float | int] = {"count": len(values)}
        if len(values) >= 2:
            cuts = statistics.quantiles(values, n=100)
            out["p50_ms"] = round(cuts[49] * 1000, 1)
            out["p99_ms"] = round(cuts[98] * 1000, 1)
        elif values:
            out["p50_ms"] = out["p99_ms"] = round(values[0] * 1000, 1)
        return out
