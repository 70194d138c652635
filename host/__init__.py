"""The game-agnostic table host: live tables, seats, the lobby, host powers, locks, steps
and their commits, AI turns (and the worker processes of the AI levels that think), turn
clocks told of every change. No discord here, and no words: a request the host refuses
raises a typed :class:`~host.refusals.Refusal` (a reason code and the facts), and the words
a step owes the table (turn lines, round and game ends, the host's own notices) come from
the front end that runs it (:class:`~host.words.FrontEnd`).

It imports :mod:`engine` and :mod:`persistence` only.
"""
