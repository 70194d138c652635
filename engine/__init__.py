"""The game engine: pure, deterministic Python with no I/O, Discord or database.

Stack's rules live in :mod:`engine.stack`; the rest of the project talks to a game through
the small interface in :mod:`engine.game`.
"""

from engine import native as _native

if _native.wants_pure():  # STACKBOT_ENGINE=pure: ignore a compiled build (engine.native)
    _native.force_pure()
