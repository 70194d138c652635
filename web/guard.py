"""Who is asking, and how often: sessions bound to a user, the Origin check, rate limits.

A session is a random token (a cookie) bound to one user; it expires ``ttl`` seconds after
it was issued, and a socket opened with it closes when it expires. A page's socket and
every request that changes something must come from one of the server's own origins
(``Origin``): another site's page cannot act or watch as the user whose cookie it would
carry. Each user (a spectator: each address) may send so many frames a second (a token
bucket), and the frames over it are refused, typed, and change nothing.
"""

from __future__ import annotations

import secrets
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass

from host.live import Player

SESSION_COOKIE = "stackbot_session"
SESSION_SECONDS = 12 * 3600
FRAMES_PER_SECOND = 5.0
FRAME_BURST = 20.0
KEYS_KEPT = 10_000  # the rate limiter forgets the idlest keys beyond this many


@dataclass(frozen=True, slots=True)
class Session:
    player: Player
    expires: float  # on the sessions' clock


class Sessions:
    """The sessions issued, by token."""

    def __init__(
        self, ttl: float = SESSION_SECONDS, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.ttl = ttl
        self.clock = clock
        self._by_token: dict[str, Session] = {}

    def issue(self, player: Player) -> str:
        """A new session of ``player``: its token."""
        self._expire()
        token = secrets.token_urlsafe(32)
        self._by_token[token] = Session(player, self.clock() + self.ttl)
        return token

    def session(self, token: str | None) -> Session | None:
        """The live session of ``token`` (``None``: none, or it expired)."""
        if not token:
            return None
        found = self._by_token.get(token)
        if found is None:
            return None
        if found.expires <= self.clock():
            del self._by_token[token]
            return None
        return found

    def alive(self, session: Session) -> bool:
        return session.expires > self.clock()

    def end(self, token: str) -> None:
        self._by_token.pop(token, None)

    def _expire(self) -> None:
        now = self.clock()
        for token in [t for t, s in self._by_token.items() if s.expires <= now]:
            del self._by_token[token]


class RateLimit:
    """A token bucket per key: ``rate`` a second, up to ``burst`` at once."""

    def __init__(
        self,
        rate: float = FRAMES_PER_SECOND,
        burst: float = FRAME_BURST,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.rate = rate
        self.burst = burst
        self.clock = clock
        self._buckets: dict[object, tuple[float, float]] = {}  # key -> (tokens, when)

    def allow(self, key: object) -> bool:
        """Whether ``key`` may act now (and count it)."""
        now = self.clock()
        tokens, when = self._buckets.pop(key, (self.burst, now))
        tokens = min(self.burst, tokens + (now - when) * self.rate)
        allowed = tokens >= 1.0
        self._buckets[key] = (tokens - 1.0 if allowed else tokens, now)  # newest last
        if len(self._buckets) > KEYS_KEPT:
            del self._buckets[next(iter(self._buckets))]
        return allowed


def origin_allowed(origin: str | None, host: str, allowed: Iterable[str] = ()) -> bool:
    """Whether a request with ``Origin: origin`` to ``host`` comes from the server's own
    pages (the same host, over http or https) or from an origin set up as allowed (the
    Discord Activity's). A request without an Origin is refused: every browser sends one
    on a socket, and a page's fetch that changes something."""
    if not origin:
        return False
    return origin in (f"http://{host}", f"https://{host}") or origin in set(allowed)
