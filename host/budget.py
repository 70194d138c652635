"""Message creates and deletes per channel, kept within the front end's rate limit
(Discord's: at most 5 per 5 s per channel)."""

from __future__ import annotations

import asyncio
from collections import deque

CHANNEL_WRITES = 5  # message creates and deletes per channel ...
CHANNEL_WINDOW = 5.0  # ... per this many seconds


class ChannelBudget:
    """Message creates and deletes per channel, kept within the rate limit."""

    def __init__(self, per: int = CHANNEL_WRITES, window: float = CHANNEL_WINDOW) -> None:
        self.per = per
        self.window = window
        self.recent: dict[int, deque[float]] = {}

    async def acquire(self, channel_id: int, count: int = 1) -> None:
        loop = asyncio.get_running_loop()
        for _ in range(count):
            while True:
                now = loop.time()
                stamps = self.recent.setdefault(channel_id, deque())
                while stamps and now - stamps[0] >= self.window:
                    stamps.popleft()
                if len(stamps) < self.per:
                    stamps.append(now)
                    break
                await asyncio.sleep(self.window - (now - stamps[0]) + 0.001)
        if len(self.recent) > 256:  # forget quiet channels
            now = loop.time()
            for key in [k for k, v in self.recent.items() if not v or now - v[-1] > self.window]:
                del self.recent[key]

    def free(self, channel_id: int) -> int:
        """How many writes the channel may make right now."""
        stamps = self.recent.get(channel_id)
        if not stamps:
            return self.per
        now = asyncio.get_running_loop().time()
        return self.per - sum(1 for s in stamps if now - s < self.window)
