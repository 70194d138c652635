"""The host's refusals and notices in the terminal's words.

The host refuses with a reason code and its facts (:class:`~host.refusals.Refusal`); the
terminal says each code here, once, from the catalog (the ``terminal`` domain: keys
``terminal.refusal.*`` and ``terminal.notice.*``), in the language spoken
(:func:`catalog.speaking`: ``stackbot play --lang``). The English is the Discord bot's
(:mod:`bot.refusal_words`) where it names nothing of Discord's; a terminal has no buttons,
slash commands or server nicknames, so it says what to type instead. A move the rules
refuse is said in the game's own words (:func:`catalog.games.words`: ``error_text``).
"""

from __future__ import annotations

import ast
import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any

import catalog
from catalog import games as game_words
from engine import games
from engine.echo import cut
from engine.errors import MoveError, settings_error
from host.refusals import Refusal, Why
from host.words import Notice


def isolate_names(text: str, names: Sequence[str]) -> str:
    """``text`` with each of ``names`` that needs it isolated (:func:`catalog.isolate`)
    where it stands outside the isolates already there: a name in a hint's notation
    (``stack 1 on שלום 1``) takes no words after it into its direction, and a name leaving
    an override open (``evil\u202ename``) does not reverse the rest of the line. Longer
    names first, so that a name inside another is not isolated on its own."""
    wanted = sorted({n for n in names if catalog.isolate(n) != n}, key=len, reverse=True)
    if not wanted:
        return text
    pattern = re.compile("|".join(re.escape(n) for n in wanted))
    return catalog.isolate_outside(text, pattern)


def _whose_turn(data: Mapping[str, Any]) -> str:
    player = data.get("player")
    hint = "_hint" if data.get("hint") else ""
    if player is None:
        return catalog.t(f"terminal.refusal.nobodys_turn{hint}")
    return catalog.t(f"terminal.refusal.not_your_turn{hint}", player=catalog.isolate(player))


def _full(data: Mapping[str, Any]) -> str:
    if data["fixed"]:
        return catalog.t("terminal.refusal.full_fixed", title=data["title"], most=data["most"])
    return catalog.t("terminal.refusal.full", most=data["most"])


def _too_few(data: Mapping[str, Any]) -> str:
    which = "too_few_fixed" if data["fixed"] else "too_few"
    return catalog.t(f"terminal.refusal.{which}", title=data["title"], least=data["least"])


def _listed(items: Any) -> str:
    """Names a player types (games, AI levels), listed as the language lists them."""
    return catalog.t("list.comma").join(str(item) for item in items)


def _bad_settings(data: Mapping[str, Any]) -> str:
    error = data["error"]
    first = error.errors()[0]
    if first["type"] == "extra_forbidden":  # an option as typed, quoted by the catalog
        option = ".".join(str(x) for x in first["loc"]) or "rules"
        wrong = catalog.t("terminal.refusal.unknown_option", option=option)
    else:
        wrong = settings_error(error)
    return catalog.t("terminal.refusal.bad_settings", error=wrong)


def _illegal(data: Mapping[str, Any]) -> str:
    error = data["error"]
    hosted = data.get("game")
    name = getattr(getattr(hosted, "game", None), "name", None)
    if isinstance(error, MoveError) and isinstance(name, str):
        return game_words.words(name).error_text(error)
    return str(error)


def _said(key: str) -> Callable[[Mapping[str, Any]], str]:
    return lambda data: catalog.t(key, **data)


WORDS: dict[Why, Callable[[Mapping[str, Any]], str]] = {
    Why.NO_TABLE: _said("terminal.refusal.no_table"),
    Why.TABLE_ENDED: _said("terminal.refusal.table_ended"),
    Why.MOVED_AWAY: _said("terminal.refusal.moved_away"),
    Why.NOT_SAVED: _said("terminal.refusal.not_saved"),
    Why.TABLE_EXISTS: _said("terminal.refusal.table_exists"),
    Why.UNKNOWN_GAME: lambda d: catalog.t(
        "terminal.refusal.unknown_game", name=catalog.isolate(d["name"]), games=_listed(d["games"])
    ),
    Why.BAD_SETTINGS: _bad_settings,
    Why.INVALID_SETTINGS: lambda d: str(d["detail"]),
    Why.ALREADY_STARTED: _said("terminal.refusal.already_started"),
    Why.ALREADY_SEATED: _said("terminal.refusal.already_seated"),
    Why.NAME_TAKEN: lambda d: catalog.t(
        "terminal.refusal.name_taken", name=catalog.isolate(d["name"])
    ),
    Why.TABLE_FULL: _full,
    Why.NO_SUCH_AI: lambda d: catalog.t(
        "terminal.refusal.no_such_ai",
        title=d["title"],
        level=d["level"],
        levels=_listed(d["levels"]),
    ),
    Why.HOST_ONLY: lambda d: catalog.t(f"terminal.refusal.host_only.{d['power']}"),
    Why.NOT_AT_TABLE: _said("terminal.refusal.not_at_table"),
    Why.KICK_SELF: _said("terminal.refusal.kick_self"),
    Why.TOO_FEW_PLAYERS: _too_few,
    Why.SETUP_FAILED: lambda d: setup_error_text(str(d["detail"])),
    Why.GAME_NOT_STARTED: _said("terminal.refusal.game_not_started"),
    Why.GAME_OVER: _said("terminal.refusal.game_over"),
    Why.NOT_SEATED: _said("terminal.refusal.not_seated"),
    Why.SEAT_LEFT: _said("terminal.refusal.seat_left"),
    Why.NOT_YOUR_TURN: _whose_turn,
    Why.STALE_PANEL: _said("terminal.refusal.stale_panel"),
    Why.BUSY: _said("terminal.refusal.busy"),
    Why.ILLEGAL_MOVE: _illegal,
    Why.NOT_NOW: _said("terminal.refusal.not_now"),
}


def refusal_text(refusal: Refusal) -> str:
    """What the player at the terminal reads when the host refuses their request."""
    return WORDS[refusal.code](refusal.data)


def _new_host(host: str | None) -> str:
    return (
        catalog.t("terminal.notice.new_host", host=catalog.isolate(host))
        if host is not None
        else ""
    )


NOTICES: dict[Notice, Callable[[Mapping[str, Any]], str]] = {
    Notice.QUARANTINED: lambda d: catalog.t("terminal.notice.quarantined"),
    Notice.NO_HUMAN_AT_START: lambda d: catalog.t("terminal.notice.no_human_at_start"),
    Notice.LEFT: lambda d: catalog.t("terminal.notice.left", name=catalog.isolate(d["name"])),
    Notice.KICKED: lambda d: catalog.t("terminal.notice.kicked", name=catalog.isolate(d["name"])),
    Notice.LOBBY_LEFT: lambda d: catalog.t(
        "terminal.notice.lobby_left", why=d["why"], new_host=_new_host(d["host"])
    ),
    Notice.LOBBY_EMPTY: lambda d: catalog.t("terminal.notice.lobby_empty", why=d["why"]),
    Notice.SEAT_TO_AI: lambda d: catalog.t(
        "terminal.notice.seat_to_ai", why=d["why"], new_host=_new_host(d["host"])
    ),
    Notice.NO_HUMAN_LEFT: lambda d: catalog.t("terminal.notice.no_human_left", why=d["why"]),
    Notice.ENDED_BY: lambda d: catalog.t(
        "terminal.notice.ended_by", title=d["title"], name=catalog.isolate(d["name"])
    ),
    Notice.LOBBY_EXPIRED: lambda d: catalog.t(
        "terminal.notice.lobby_expired", seconds=d["seconds"]
    ),
    Notice.GAME_EXPIRED: lambda d: catalog.t("terminal.notice.game_expired", seconds=d["seconds"]),
    Notice.TIMED_OUT_TO_AI: lambda d: catalog.t(
        "terminal.notice.timed_out_to_ai", name=catalog.isolate(d["name"]), count=d["count"]
    ),
    Notice.NO_HUMAN_PLAYING: lambda d: catalog.t(
        "terminal.notice.no_human_playing", name=catalog.isolate(d["name"]), count=d["count"]
    ),
}


# ------------------------------------------------------------------ setting up


def _title(engine_title: str) -> str:
    """A game's name as the catalog says it, from its engine's (English) title."""
    for name in games.names():
        if games.get(name).title == engine_title:
            return game_words.words(name).title()
    return engine_title


def _players(found: Mapping[str, str]) -> str:
    title, least, most, given = (found[k] for k in ("title", "least", "most", "count"))
    if least == most:
        key = "players_exactly" if given is None else "players_exactly_not"
    else:
        key = "players_range" if given is None else "players_range_not"
    return catalog.t(
        f"terminal.setup.{key}", title=_title(title), least=least, most=most, count=given
    )


def _exactly(found: Mapping[str, str]) -> str:
    return catalog.t(
        "terminal.setup.players_exactly_not",
        title=_title(found["title"]),
        most=found["most"],
        count=found["count"],
    )


def _key(key: str) -> Callable[[Mapping[str, str]], str]:
    return lambda found: catalog.t(f"terminal.setup.{key}", **found)


# The engine's SetupError messages (English, facts in the text: SetupError has no fields)
SETUP_ERRORS: tuple[tuple[re.Pattern[str], Callable[[Mapping[str, str]], str]], ...] = (
    (
        re.compile(
            r"(?P<title>.+?) needs (?P<least>\d+) to (?P<most>\d+) players(?:, not (?P<count>\d+))?\."
        ),
        _players,
    ),
    (re.compile(r"(?P<title>.+?) is for (?P<most>\d+) players, not (?P<count>\d+)\."), _exactly),
    (re.compile(r"Every player needs a name\."), _key("no_name")),
    (re.compile(r"Every player needs a different name\."), _key("different_names")),
    # Discord's words for it (a nickname to change); a terminal has only the names typed
    (
        re.compile(r"Two players share a name; one of them should change nickname\."),
        _key("different_names"),
    ),
    (re.compile(r"There is no seat (?P<seat>.+)\."), _key("no_seat")),
    (re.compile(r"The teams must name every player exactly once\."), _key("teams_once")),
    (re.compile(r"Team play needs an even number of players, at least 4\."), _key("teams_even")),
    (re.compile(r"Teammates may not sit next to each other\."), _key("teammates_apart")),
)


def setup_error_text(error: BaseException | str, *, count: int | None = None) -> str:
    """Why a table cannot start (the engine's :class:`~engine.game.SetupError`, said in
    English), in the language spoken; a message this does not know stays the engine's.
    ``count``, the players given, is said with a wrong number of players when the
    engine's message leaves it out (Stack Up!'s and Color Stack's do, Stack's does not)."""
    text = str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__
    for pattern, say in SETUP_ERRORS:
        found = pattern.fullmatch(text)
        if found is not None:
            facts = found.groupdict()
            if "count" in facts and facts["count"] is None and count is not None:
                facts["count"] = str(count)
            return say(facts)
    return text


# pydantic's error types we word (their English is pydantic's message, byte for byte)
VALIDATION_TYPES = frozenset(
    {
        "less_than_equal",
        "greater_than_equal",
        "less_than",
        "greater_than",
        "int_parsing",
        "int_type",
        "int_from_float",
        "literal_error",
        "extra_forbidden",
        "missing",
    }
)


def validation_text(error: Mapping[str, Any]) -> str:
    """Why a value is wrong (one of pydantic's ``ValidationError.errors()``), from its type
    and context, in the language spoken; a type this does not know says pydantic's
    English."""
    kind = str(error.get("type", ""))
    if kind not in VALIDATION_TYPES:
        return str(error.get("msg", kind))
    facts = {str(k): v for k, v in (error.get("ctx") or {}).items()}
    if kind == "literal_error":
        expected = str(facts.get("expected", ""))
        if catalog.current() != catalog.DEFAULT:
            choices = re.findall(r"'([^']*)'", expected)
            expected = catalog.join([f"`{c}`" for c in choices], "or") if choices else expected
        facts["expected"] = expected
    return catalog.t(f"terminal.invalid.{kind}", **facts)


def bad_option_text(
    option: str, value: Any, error: Mapping[str, Any], *, quoted: bool = False
) -> str:
    """An option's wrong value (``--dice 40``) and why, in the language spoken: in
    English as given (``quoted``: as Python writes it, ``'zz'``), in another language in
    its quotes, as what was typed (「zz」, 「20000」)."""
    if catalog.current() == catalog.DEFAULT:
        shown = repr(value) if quoted else str(value)
    else:
        shown = catalog.t("typed.quoted", typed=cut(str(value)))
    return catalog.t(
        "terminal.line.bad_option", option=option, value=shown, why=validation_text(error)
    )


# ------------------------------------------------------------------ writing files


def write_error_text(path: object, error: OSError, failed: str = "terminal.write.failed") -> str:
    """Why a file (``--export``'s record; with ``failed`` ``terminal.write.save_failed``,
    ``--save``'s game) could not be written, in the language spoken."""
    if isinstance(error, FileNotFoundError):
        why = catalog.t("terminal.write.no_folder")
    elif isinstance(error, IsADirectoryError):
        why = catalog.t("terminal.write.is_folder")
    elif isinstance(error, PermissionError):
        why = catalog.t("terminal.write.no_permission")
    else:
        why = catalog.t("terminal.write.other", error=error.strerror or type(error).__name__)
    return catalog.t(failed, path=path, why=why)


# ------------------------------------------------------------------ the command line

# argparse's own messages (English, facts in the text), the ones `stackbot play` meets
ARGPARSE_ERRORS: tuple[tuple[re.Pattern[str], str], ...] = (
    (
        re.compile(r"argument (?P<argument>\S+?): invalid int value: (?P<value>.*)"),
        "invalid_value",
    ),
    (
        re.compile(
            r"argument (?P<argument>\S+?): invalid choice: (?P<value>.*?) \(choose from (?P<choices>.*)\)"
        ),
        "invalid_choice",
    ),
    (re.compile(r"argument (?P<argument>\S+?): expected one argument"), "expected_one"),
    (re.compile(r"unrecognized arguments: (?P<arguments>.*)"), "unrecognized"),
    (
        re.compile(r"the following arguments are required: (?P<arguments>.*)"),
        "required",
    ),
    # an option's own check (its type's error, already in the language spoken): last
    (re.compile(r"argument (?P<argument>\S+?): (?P<why>.*)"), "about"),
)


def _typed(written: str) -> str:
    """A value argparse wrote as Python does (``'x'``) as it was typed, cut short."""
    try:
        value = ast.literal_eval(written)
    except (ValueError, SyntaxError, RecursionError):  # not a literal after all
        value = written
    return cut(value if isinstance(value, str) else written)


def _choices(written: str) -> str:
    """argparse's ``'a', 'b'`` listed as the language lists what is typed: `a`、`b`."""
    choices = re.findall(r"'([^']*)'", written)
    if not choices:
        return written
    return catalog.t("list.comma").join(f"`{choice}`" for choice in choices)


def argparse_text(message: str) -> str:
    """One of argparse's error messages in the language spoken (its English as is): the
    value typed in the language's quotes (the catalog's), the choices as typed."""
    if catalog.current() == catalog.DEFAULT:
        return message
    for pattern, key in ARGPARSE_ERRORS:
        found = pattern.fullmatch(message)
        if found is not None:
            facts = found.groupdict()
            if "value" in facts:
                facts["value"] = _typed(facts["value"])
            if "choices" in facts:
                facts["choices"] = _choices(facts["choices"])
            return catalog.t(f"terminal.argparse.{key}", **facts)
    return message
