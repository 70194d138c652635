"""Naive reference implementations of the three games, for the benches only.

Each module plays its game straight from the rule book (``docs/*-rules.md``), written
the obvious way: the field as plain lists, every legal move listed by scanning it, no
caches, no interning, no incremental state. They are the yardstick of
``python -m engine.bench`` (the engines' speed is reported as a multiple of theirs) and
:mod:`engine.reference.check` plays them in lockstep with the engines to show that both
implement the same rules (the same legal moves at every decision, the same result).

They are tools: nothing the bot or the terminal runs imports them (the import-linter
contract "Benches and the simulator are tools" in ``pyproject.toml``), and they import
nothing of the engine.

Every module has the same shape: a ``Game`` class with ``chance`` (the pending chance
kind, or ``None``), ``seat`` (who decides), ``over``, ``sample(rng)`` / ``resolve(outcome)``
for chance, ``moves()`` / ``play(move)`` for decisions, ``result()``; and
``self_play(players, rng)`` that plays one game between uniformly random players and
returns the number of decisions taken.
"""
