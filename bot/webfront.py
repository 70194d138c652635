"""The bot's tables in the browser: the web front end (:mod:`web`) served by the bot
process itself, on ``WEB_PORT``, over the same host (:class:`~host.service.TableService`)
the Discord adapter uses — a move made in chat is pushed to the pages, a move made in a
page is on the table the chat shows — and, with ``DISCORD_CLIENT_ID`` and
``DISCORD_CLIENT_SECRET``, the Discord Activity (:mod:`web.activity`).

Its own port, not the health endpoint's: the pages are public (an operator exposes them
over HTTPS through their proxy, as the Activity requires), the health endpoint is for
whoever watches the process and usually stays inside.
"""

from __future__ import annotations

import errno
import logging
import socket
from typing import TYPE_CHECKING

import discord
from aiohttp import web

from bot.front import DISCORD
from catalog import t

if TYPE_CHECKING:  # the pages (web.*, pictures and numpy under them) are imported by
    # web_app, with WEB_PORT set: a bot without them does not load them
    from bot.config import Settings
    from bot.tables import Tables
    from web.hub import Hub

log = logging.getLogger(__name__)
# catalog keys, said in the asking user's language
NOT_SET_UP = "refusal.activity_not_set_up"
NOT_LAUNCHED = "refusal.activity_not_launched"


def web_app(tables: Tables, settings: Settings) -> tuple[web.Application, Hub]:
    """The pages of ``tables``' host, and the hub that tells them of every commit: the
    host's turn clock from now on, which tells the Discord side's (``tables``) after."""
    from web.activity import DiscordOAuth, add_activity
    from web.hub import Hub
    from web.server import make_app

    service = tables.service
    hub = Hub(then=service.clock)
    service.clock = hub
    origins = [o.strip() for o in settings.web_origins.split(",") if o.strip()]
    # a move made in a page owes the chat what a move made there does (its announcements,
    # the table message's edit)
    app = make_app(
        service,
        hub,
        origins=origins,
        committed=tables.committed,
        table_language=lambda info: DISCORD.languages.get(info.guild_id),  # its server's
    )
    secret = settings.discord_client_secret
    if settings.discord_client_id is not None and secret is not None:
        oauth = DiscordOAuth(
            settings.discord_client_id, secret.get_secret_value(), settings.discord_api_base
        )
        add_activity(app, oauth)
    return app, hub


class ListenRefused(RuntimeError):
    """A port of the process's settings could not be listened on (in use, not allowed):
    said by the setting's name, not as Discord being out of reach."""

    def __init__(self, setting: str, host: str, port: int, err: OSError) -> None:
        why = err.strerror or str(err)
        super().__init__(f"cannot listen on {setting}={port} ({host}): {why}")
        self.setting = setting


def check_listen(setting: str, host: str, port: int) -> None:
    """Raise :class:`ListenRefused` if ``host``:``port`` cannot be listened on now (in use,
    not allowed, no such address): checked at start-up before the database is created and
    Discord logged in to, which a port in use found later had both done for nothing. Each
    address is bound as the server binds it (``SO_REUSEADDR``; IPv6 only for IPv6) and let
    go at once; :func:`listen` still says so if another program took it meanwhile."""
    try:
        found = socket.getaddrinfo(
            host or None, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE
        )
    except OSError as err:
        raise ListenRefused(setting, host, port, err) from err
    for family, kind, proto, _, address in dict.fromkeys(found):
        try:
            sock = socket.socket(family, kind, proto)
        except OSError:  # a family this machine cannot make: the server passes it over too
            continue
        with sock:
            sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
            if family == socket.AF_INET6:
                sock.setsockopt(socket.IPPROTO_IPV6, socket.IPV6_V6ONLY, 1)
            try:
                sock.bind(address)
            except OSError as err:
                if err.errno == errno.EADDRNOTAVAIL:  # that family switched off: passed over
                    continue
                raise ListenRefused(setting, host, port, err) from err


async def listen(runner: web.AppRunner, setting: str, host: str, port: int) -> None:
    """Serve ``runner`` on ``host``:``port`` (``setting``: the setting naming the port)."""
    try:
        await web.TCPSite(runner, host, port).start()
    except OSError as err:
        await runner.cleanup()
        raise ListenRefused(setting, host, port, err) from err


class WebFront:
    """The web pages of a bot process, served while it runs (with ``WEB_PORT`` set)."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        self.hub: Hub | None = None
        self.app: web.Application | None = None
        self._runner: web.AppRunner | None = None

    async def start(self, tables: Tables) -> None:
        if self._runner is not None or self.settings.web_port is None:
            return
        self.app, self.hub = web_app(tables, self.settings)
        self._runner = web.AppRunner(self.app, access_log=None)
        await self._runner.setup()
        host, port = self.settings.web_host, self.settings.web_port
        try:
            await listen(self._runner, "WEB_PORT", host, port)
        except ListenRefused:
            self._runner = None
            raise
        log.info("web: serving the tables' pages on http://%s:%d/", host, port)

    async def stop(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None


def _has_activity(app: web.Application) -> bool:
    """Whether the pages served (``app``, loaded: web.activity is then imported) include
    the Activity's."""
    from web.activity import OAUTH

    return OAUTH in app


async def launch_activity(interaction: discord.Interaction, front: WebFront | None) -> None:
    """``/table activity``: Discord launches the app's Activity in the channel (its page
    then opens on the channel's table); said why not when the bot does not serve it."""
    if front is None or front.app is None or not _has_activity(front.app):
        await interaction.response.send_message(
            t(NOT_SET_UP), ephemeral=True, allowed_mentions=discord.AllowedMentions.none()
        )
        return
    try:
        await interaction.response.launch_activity()
    except discord.HTTPException as err:  # Activities not enabled for the app, or Discord
        log.warning("/table activity: Discord refused to launch it (%s)", err.status)
        await interaction.response.send_message(
            t(NOT_LAUNCHED), ephemeral=True, allowed_mentions=discord.AllowedMentions.none()
        )
