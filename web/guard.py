"""Who is asking, and how often: sessions bound to a user, the Origin check, rate limits.

A session is a token (a cookie) bound to one user; it expires ``ttl`` seconds after it was
issued, and a socket opened with it closes when it expires. The token itself says its user
and its expiry, signed with the sessions' key (HMAC-SHA256): a process started again with
the same key (the Discord Activity's: made from the application's secret) knows the
sessions issued before it, so a page open through a restart stays its player's.

A page's socket and every request that changes something must come from one of the
server's own origins (``Origin``): another site's page cannot act or watch as the user
whose cookie it would carry. Each user (a spectator: each address) may send so many frames
a second (a token bucket), and the frames over it are refused, typed, and change nothing.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import secrets
import time
from collections.abc import Callable, Iterable
from dataclasses import dataclass

import orjson

from host.live import Player

SESSION_COOKIE = "stackbot_session"
SESSION_SECONDS = 12 * 3600
FRAMES_PER_SECOND = 5.0
FRAME_BURST = 20.0
MAX_TOKEN = 1024  # characters: a token is about 200
KEYS_KEPT = 10_000  # the rate limiter forgets the idlest keys beyond this many


@dataclass(frozen=True, slots=True)
class Session:
    player: Player
    expires: float  # on the sessions' clock


class Sessions:
    """The sessions issued: each token is its session, signed with ``key`` (a random key
    unless given: then no other process knows its sessions); those ended are kept until
    they expire."""

    def __init__(
        self,
        ttl: float = SESSION_SECONDS,
        clock: Callable[[], float] = time.time,
        key: bytes | None = None,
    ) -> None:
        self.ttl = ttl
        self.clock = clock  # the wall clock: a token outlives the process that issued it
        self.key = key if key is not None else secrets.token_bytes(32)
        self._ended: dict[str, float] = {}  # token -> when it expires

    def _signature(self, body: str) -> str:
        digest = hmac.new(self.key, body.encode("ascii"), hashlib.sha256).digest()
        return _b64(digest)

    def issue(self, player: Player) -> str:
        """A new session of ``player``: its token."""
        self._expire()
        expires = self.clock() + self.ttl
        nonce = secrets.token_urlsafe(12)  # two sessions of one user are two tokens
        body = _b64(orjson.dumps([player.id, player.name, expires, nonce]))
        return f"{body}.{self._signature(body)}"

    def session(self, token: str | None) -> Session | None:
        """The live session of ``token`` (``None``: none — not one of ours, altered, ended
        — or it expired)."""
        if token in self._ended:
            return None
        found = self._signed(token)
        return found if found is not None and self.alive(found) else None

    def expired(self, token: str | None) -> bool:
        """Whether ``token`` is a session of ours whose time ran out: not one that is none
        of ours (altered, or signed with another key: the server's secret changed since
        it was issued), nor one ended."""
        found = None if token in self._ended else self._signed(token)
        return found is not None and not self.alive(found)

    def _signed(self, token: str | None) -> Session | None:
        """The session ``token`` says, if we signed it, whether it expired or not."""
        if not token or len(token) > MAX_TOKEN or not token.isascii():
            return None
        body, dot, signature = token.partition(".")
        if not dot or not hmac.compare_digest(signature, self._signature(body)):
            return None
        try:
            user_id, name, expires, _ = orjson.loads(base64.urlsafe_b64decode(body + "=="))
        except (binascii.Error, ValueError, TypeError):
            return None
        if type(user_id) is not int or not isinstance(name, str):
            return None
        if not isinstance(expires, float | int):
            return None
        return Session(Player(user_id, name), float(expires))

    def alive(self, session: Session) -> bool:
        return session.expires > self.clock()

    def end(self, token: str) -> None:
        found = self.session(token)
        if found is not None:
            self._ended[token] = found.expires

    def _expire(self) -> None:
        now = self.clock()
        for token in [t for t, expires in self._ended.items() if expires <= now]:
            del self._ended[token]


def session_key(secret: str) -> bytes:
    """The sessions' key made from a secret the server keeps (the Activity's application
    secret): the same in every process started with it, and no use for anything else."""
    return hmac.new(secret.encode(), b"stackbot web sessions", hashlib.sha256).digest()


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


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
