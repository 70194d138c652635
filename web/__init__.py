"""The web front end of the host: live table pages, replay pages and ``stackbot web --demo``.

A third front end beside the Discord adapter (:mod:`bot`) and the terminal
(:mod:`terminal`): an aiohttp server (:mod:`web.server`) over the same
:class:`host.service.TableService`, pushing each table's public state over a WebSocket on
every commit (:mod:`web.hub`). The boards are drawn in the browser from that state, by
plain ES modules served from this package's data (``web/static``).

It imports the host, storage, the engine and the pictures' public views; never discord.
"""
