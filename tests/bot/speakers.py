"""Discord clients in a language: simcord builds every interaction as from an ``en-US``
client in an ``en-US`` server; here a user's client speaks the locale a test gives it,
and an interaction's ``guild_locale`` is its server's preferred locale."""

from __future__ import annotations

from typing import Any

import pytest
import simcord.interactions


def client_locales(monkeypatch: pytest.MonkeyPatch) -> dict[int, str]:
    """The users' client locales (user id -> Discord locale, e.g. ``"ja"``), filled by the
    test; a user not in it is ``en-US``."""
    locales: dict[int, str] = {}
    build = simcord.interactions.base_payload

    def base_payload(backend: Any, **facts: Any) -> tuple[Any, dict[str, Any]]:
        record, payload = build(backend, **facts)
        payload["locale"] = locales.get(facts["user_id"], "en-US")
        if facts.get("guild_id") is not None:
            guild = backend.get_guild(facts["guild_id"])
            payload["guild_locale"] = guild.preferred_locale or "en-US"
        return record, payload

    monkeypatch.setattr(simcord.interactions, "base_payload", base_payload)
    return locales


def forget_languages() -> None:
    """The servers' languages the bot learnt (``DISCORD`` is one per process: a test's
    choices must not reach the next test's server, whose id simcord may reuse)."""
    from bot.front import DISCORD

    DISCORD.languages.clear()
