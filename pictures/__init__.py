"""The pictures: every game's table picture, the charts, and the worker that draws them.

No Discord and no host here: this package imports :mod:`engine` only (and Pillow,
matplotlib, fontTools, numpy). A picture is a small frozen, picklable value taken on the
event loop and drawn into PNG bytes by a module-level function, found by name in
:mod:`pictures.games`; :mod:`pictures.painter` draws them off the event loop, in a worker
process (``python -m pictures.painter``).

- :mod:`pictures.fonts`, :mod:`pictures.palette`, :mod:`pictures.parts`: the fonts (with
  fallbacks per character), the colours and seat marks, the cache of drawn parts;
- :mod:`pictures.stack`, :mod:`pictures.stackup`, :mod:`pictures.colorstack`: one module
  per game;
- :mod:`pictures.charts`: a game's running totals and a player's last games (matplotlib);
- :mod:`pictures.games`: the registry; :mod:`pictures.painter`: the worker.
"""
