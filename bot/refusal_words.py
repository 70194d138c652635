"""The host's refusals in Discord's words, and the Discord layer's own refusals.

The host (:mod:`host`) refuses with a reason code and its facts
(:class:`~host.refusals.Refusal`); :func:`refusal_text` says each code here, once, in the
words players read (ephemerally: :func:`bot.views.answer_error`), in the language being
spoken (the asking user's: the catalog's ``refusals`` domain). A refusal that only the
Discord layer knows (a command used in DMs, another member's panel…) is a
:class:`Refused`: a catalog key and its facts, said when it is answered.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping
from typing import Any

from pydantic import ValidationError

import catalog.games
from bot.text import ECHO_LIMIT, button_label, code_name, cut, echo, escape_name, said
from catalog import join, n, t
from engine import games as engine_games
from host.refusals import Refusal, Why

# catalog keys of the sentences other modules say too
MOVED_AWAY = "refusal.moved_away"
NOT_SAVED = "refusal.not_saved"


class Refused(Exception):
    """A request the Discord layer refuses itself; nothing was changed. ``words`` is a
    catalog key (``refusal.in_dms``) said with ``facts`` when the refusal is answered, in
    the asking user's language; words that are no key are said as they are."""

    def __init__(self, words: str, /, **facts: Any) -> None:
        super().__init__(words)
        self.words = words
        self.facts = facts

    def text(self) -> str:
        """What the user reads, in the language being spoken."""
        return said(self.words, **self.facts)


def _not_started(data: Mapping[str, Any]) -> str:
    if data.get("hint"):
        return t("refusal.not_started.hint")
    return t("refusal.not_started", start=button_label("discord.button.start"))


def _whose_turn(data: Mapping[str, Any]) -> str:
    player = data.get("player")
    hint = ".hint" if data.get("hint") else ""
    if player is None:
        return t("refusal.nobodys_turn" + hint)
    return t("refusal.whose_turn" + hint, player=escape_name(player))


def _title(data: Mapping[str, Any]) -> str:
    """The game's title the host names (its engine's, in English) in the language being
    spoken: ``カラースタック`` for ``Color Stack`` in Japanese; a title of no game as it is."""
    title = str(data["title"])
    for game in engine_games.all_games():
        if game.title == title:
            return catalog.games.words(game.name).title()
    return title


def _full(data: Mapping[str, Any]) -> str:
    if data["fixed"]:
        return n("refusal.table_full.fixed", data["most"], title=_title(data))
    return n("refusal.table_full", data["most"])


def _too_few(data: Mapping[str, Any]) -> str:
    key = "refusal.too_few.fixed" if data["fixed"] else "refusal.too_few"
    return n(key, data["least"], title=_title(data), **_lobby_buttons())


def _lobby_buttons() -> dict[str, str]:
    """The lobby's Join and Add AI, named as the lobby shows them (its server's language)."""
    return {
        "join": button_label("discord.button.join"),
        "add_ai": button_label("discord.button.add_ai"),
    }


# the engines' reasons a table cannot start (their English) that a Discord lobby can meet,
# said in the language spoken: a teams table of an odd number (the others, a wrong number
# of players or names alike, the host refuses before)
SETUP_ERRORS = (
    (
        re.compile(r"Team play needs an even number of players, at least 4 \(there are (\d+)\)\."),
        "refusal.setup.teams_even",
    ),
)


def _setup_failed(data: Mapping[str, Any]) -> str:
    text = str(data["detail"])
    for pattern, key in SETUP_ERRORS:
        found = pattern.fullmatch(text)
        if found is not None:
            return t(key, count=int(found.group(1)))
    return text


def _not_seated(data: Mapping[str, Any]) -> str:
    if data["lobby"]:
        return t("refusal.not_seated.lobby", join=button_label("discord.button.join"))
    return t("refusal.not_seated")


def settings_words(err: ValidationError) -> str:
    """The first problem of a game's settings (house rules, a table's options) in the
    words being spoken, read from the settings model's error: ```turn_limit` must be at
    least 1, not 0`` (no full stop: the sentence around it ends it)."""
    first = err.errors()[0]
    key = code_name(".".join(str(part) for part in first["loc"]))
    kind, facts = first["type"], first.get("ctx") or {}
    value = first["input"]
    shown = cut(str(value), ECHO_LIMIT) if isinstance(value, int) else echo(str(value))
    if kind == "extra_forbidden":
        return t("refusal.settings.unknown", key=key)
    if kind in ("greater_than_equal", "greater_than"):
        least = facts["ge"] if "ge" in facts else facts["gt"] + 1
        return t("refusal.settings.at_least", key=key, least=least, value=shown)
    if kind in ("less_than_equal", "less_than"):
        most = facts["le"] if "le" in facts else facts["lt"] - 1
        return t("refusal.settings.at_most", key=key, most=most, value=shown)
    if kind == "literal_error":
        choices = [f"`{code_name(c)}`" for c in re.findall(r"'([^']*)'", facts["expected"])]
        return t("refusal.settings.one_of", key=key, choices=join(choices, "or_code"), value=shown)
    if kind.startswith("int_"):
        return t("refusal.settings.number", key=key, value=shown)
    if kind.startswith("bool_"):
        return t("refusal.settings.on_off", key=key, value=shown)
    return t("refusal.settings.other", key=key, value=shown)


def _listed(items: Any) -> str:
    """Names as typed (games, AI levels), one after another."""
    return t("list.comma").join(items)


def _seat_left(data: Mapping[str, Any]) -> str:
    """An AI plays the player's seat: they left, or let too many turns run out."""
    if data.get("timed_out"):
        return n("refusal.seat_timed_out", data["count"])
    return t("refusal.seat_left")


def _said(key: str) -> Callable[[Mapping[str, Any]], str]:
    return lambda d: t(key)


WORDS: dict[Why, Callable[[Mapping[str, Any]], str]] = {
    Why.NO_TABLE: _said("refusal.no_table"),
    Why.TABLE_ENDED: _said("refusal.table_ended"),
    Why.MOVED_AWAY: _said(MOVED_AWAY),
    Why.NOT_SAVED: _said(NOT_SAVED),
    Why.TABLE_EXISTS: _said("refusal.table_exists"),
    Why.UNKNOWN_GAME: lambda d: t(  # a name a modified client sent: cut and escaped
        "refusal.unknown_game", name=escape_name(cut(d["name"], 40)), games=_listed(d["games"])
    ),
    Why.BAD_SETTINGS: lambda d: t("refusal.bad_settings", error=settings_words(d["error"])),
    Why.INVALID_SETTINGS: lambda d: str(d["detail"]),
    Why.ALREADY_STARTED: _said("refusal.already_started"),
    Why.ALREADY_SEATED: _said("refusal.already_seated"),
    Why.NAME_TAKEN: lambda d: t(
        "refusal.name_taken", name=escape_name(d["name"]), join=button_label("discord.button.join")
    ),
    Why.TABLE_FULL: _full,
    Why.NO_SUCH_AI: lambda d: t(
        "refusal.no_such_ai",
        title=_title(d),
        level=code_name(cut(d["level"], 32)),  # in a code span: no escapes to show
        levels=_listed(d["levels"]),
    ),
    Why.HOST_ONLY: lambda d: t(f"refusal.host_only.{d['power']}"),
    Why.NOT_AT_TABLE: _said("refusal.not_at_table"),
    Why.KICK_SELF: _said("refusal.kick_self"),
    Why.TOO_FEW_PLAYERS: _too_few,
    Why.SETUP_FAILED: _setup_failed,
    Why.GAME_NOT_STARTED: _not_started,
    Why.GAME_OVER: _said("refusal.game_over"),
    Why.NOT_SEATED: _not_seated,
    Why.SEAT_LEFT: _seat_left,
    Why.NOT_YOUR_TURN: _whose_turn,
    Why.STALE_PANEL: _said("refusal.stale_panel"),
    Why.BUSY: _said("refusal.busy"),
    Why.ILLEGAL_MOVE: lambda d: d["game"].refusal_words(d["error"], d.get("said", ())),
    Why.NOT_NOW: _said("refusal.not_now"),
}


def refusal_text(refusal: Refusal | Refused) -> str:
    """What the user reads when their request is refused, in the language being spoken."""
    if isinstance(refusal, Refused):
        return refusal.text()
    return WORDS[refusal.code](refusal.data)


__all__ = [
    "MOVED_AWAY",
    "NOT_SAVED",
    "WORDS",
    "Refusal",
    "Refused",
    "Why",
    "refusal_text",
    "settings_words",
]
