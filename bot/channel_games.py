"""The game last finished in each channel, kept in memory for ``/houserules set``'s
``key`` autocomplete: Discord asks for the choices at every keystroke and wants them
within 3 seconds, so the keys of a channel's game (when no table is open there) are
offered without a query each time.

An entry is the store's answer (:meth:`persistence.store.Store.last_finished`, read by
the commands that name the channel's game) or a game that ended here
(:meth:`bot.tables.Tables.committed`): a game can only become a channel's last finished
one by ending, and this process sees every game of its channels end. An entry is read
again after :data:`MAX_AGE` all the same (a game that ended in another process, before
its shard was handed over here), and the least recently used go past :data:`SIZE`.
"""

from __future__ import annotations

import time
from collections import OrderedDict
from collections.abc import Callable

SIZE = 4096  # channels remembered
MAX_AGE = 600.0  # seconds an entry is trusted


class ChannelGames:
    """Channel id → the game last finished there (``None``: none yet)."""

    def __init__(
        self,
        size: int = SIZE,
        max_age: float = MAX_AGE,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.size = size
        self.max_age = max_age
        self.clock = clock
        self._games: OrderedDict[int, tuple[float, str | None]] = OrderedDict()

    def known(self, channel_id: int) -> bool:
        """Whether the channel's last finished game is known (and fresh)."""
        entry = self._games.get(channel_id)
        if entry is None or self.clock() - entry[0] > self.max_age:
            self._games.pop(channel_id, None)
            return False
        self._games.move_to_end(channel_id)
        return True

    def game(self, channel_id: int) -> str | None:
        """The game last finished in the channel (``None``: none); ask :meth:`known` first."""
        return self._games[channel_id][1]

    def learnt(self, channel_id: int, game: str | None) -> None:
        """The channel's last finished game is ``game`` (the store's answer, or a game
        that just ended there)."""
        self._games[channel_id] = (self.clock(), game)
        self._games.move_to_end(channel_id)
        while len(self._games) > self.size:
            self._games.popitem(last=False)
