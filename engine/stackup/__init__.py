"""Stack Up!, the card game: cards, moves, rules, state, notation, records, words and AI.

The rule book is ``docs/stackup-rules.md`` and the record format
``docs/stackup-record.md``; :mod:`engine.stackup.game` is the game as the host sees it.
"""
