"""Color Stack, the board game: board, moves, rules, state, notation, records, words and AI.

The rule book is ``docs/colorstack-rules.md`` and the record format
``docs/colorstack-record.md``; :mod:`engine.colorstack.game` is the game as the host
sees it, :mod:`engine.colorstack.state` the position that every front end and AI reads.
"""
