"""The terminal: the second front end of the host (:mod:`host`), no Discord needed.

``stackbot play`` opens a table on a host that keeps it in an in-memory SQLite store, seats
the humans and AI seats through the host's lobby, and plays each typed move through the
host (:class:`host.service.TableService`); refusals come back as codes, worded here
(:mod:`terminal.words`). :mod:`terminal.table` is every game's table; :mod:`terminal.stack`
is Stack's, with its round-by-round story. Every word is the catalog's (:mod:`catalog`,
the ``terminal`` domain), said in the language ``stackbot play --lang`` (or ``LANG``) chose.
"""
