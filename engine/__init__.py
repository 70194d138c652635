"""The game engine: pure, deterministic Python with no I/O, Discord or database.

Stack's rules live in :mod:`engine.stack`; the rest of the project talks to a game through
the small interface in :mod:`engine.game`.
"""
