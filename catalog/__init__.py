"""Every word a player reads, in every language the bot speaks: the message catalog.

The words live in gettext catalogs (``.po`` files, read with Babel), one file per domain
(``core``, ``discord``, ``stack``…) and language, under ``catalog/locales/<lang>/LC_MESSAGES/``.
Messages are looked up by **key** (``refusal.not_your_turn``), not by their English text,
so every language's file is a complete catalog of the same keys, and a change of English
wording leaves the other languages' entries in place. A key's text has **named
placeholders** (``{player}``), filled by :func:`t`; a message with plural forms
(``msgid_plural``) is filled by :func:`n` with the count, by the language's own
``Plural-Forms`` rule (English two forms, Japanese one).

Why gettext with Babel rather than Fluent: Babel is already one of the field's libraries
(dates, numbers, plural rules for every locale), ``.po`` files are what translators'
tools (Poedit, Weblate, Crowdin) edit, ``pybabel`` checks and updates them, and our
plural needs are gettext's; Fluent's richer selectors would bring a second runtime for
no sentence we have.

The language is **ambient**: :func:`speaking` sets it for the code it wraps (a context
variable, so each asyncio task and thread keeps its own), and :func:`t` and :func:`n`
read it. A front end sets it where it knows who reads: the asking user's locale around an
ephemeral answer, the table's language around what a table is told. A picture drawn in a
worker process gets its language as an argument of its job.

This package imports nothing of ours: every layer may use it.
"""

from __future__ import annotations

import contextvars
import os
import re
import string
import unicodedata
from collections.abc import Callable, Iterable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass
from functools import cache
from gettext import c2py
from pathlib import Path
from typing import Any

from babel.messages.pofile import read_po

from catalog.columns import cut_columns, ljust, rjust, width

__all__ = [
    "DEFAULT",
    "LANGUAGES",
    "Catalog",
    "catalog",
    "current",
    "cut_columns",
    "isolate",
    "join",
    "language_of",
    "ljust",
    "n",
    "placeholders",
    "rjust",
    "speaking",
    "t",
    "warm",
    "width",
]

LANGUAGES = ("en", "ja")  # the languages every key is in (a new one: docs/translating.md)
DEFAULT = "en"
NAMES = {"en": "English", "ja": "日本語"}  # each language in its own words
LOCALES = Path(__file__).with_name("locales")

_language: contextvars.ContextVar[str] = contextvars.ContextVar("language", default=DEFAULT)


def language_of(locale: object | None, default: str = DEFAULT) -> str:
    """The catalog language for a locale: Discord's (``"ja"``, ``"en-US"``, a
    ``discord.Locale``), POSIX ``LANG`` (``"ja_JP.UTF-8"``) or ours; ``default`` for one we
    do not speak."""
    if locale is None:
        return default
    text = str(getattr(locale, "value", locale)).strip().lower()
    head = text.replace("_", "-").split(".")[0].split("-")[0]
    return head if head in LANGUAGES else default


def current() -> str:
    """The language words are said in here (:func:`speaking`)."""
    return _language.get()


@contextmanager
def speaking(language: str) -> Iterator[str]:
    """Say the words of the code inside in ``language`` (one of :data:`LANGUAGES`)."""
    if language not in LANGUAGES:
        raise ValueError(f"not a catalog language: {language!r} (one of {LANGUAGES})")
    token = _language.set(language)
    try:
        yield language
    finally:
        _language.reset(token)


@dataclass(frozen=True, slots=True)
class Catalog:
    """One language's messages: ``texts`` by key (a plural message: its forms) and the
    language's plural rule (count -> form index)."""

    language: str
    texts: Mapping[str, str | tuple[str, ...]]
    plural: Callable[[int], int]
    files: Mapping[str, str]  # key -> the domain file it is in (for the checks' messages)

    def text(self, key: str) -> str | tuple[str, ...] | None:
        return self.texts.get(key)


def _files(language: str) -> list[Path]:
    return sorted((LOCALES / language / "LC_MESSAGES").glob("*.po"))


@cache
def catalog(language: str) -> Catalog:
    """The catalog of ``language``, read from its ``.po`` files once."""
    texts: dict[str, str | tuple[str, ...]] = {}
    files: dict[str, str] = {}
    plural: Callable[[int], int] | None = None
    for path in _files(language):
        with path.open("rb") as f:
            po = read_po(f, locale=language, domain=path.stem)
        if plural is None:
            plural = c2py(po.plural_expr)
        for message in po:
            if not message.id:
                continue  # the header
            key = str(message.id if isinstance(message.id, str) else message.id[0])
            if key in texts:
                raise ValueError(f"{key!r} is in both {files[key]} and {path.name} ({language})")
            value = message.string
            if isinstance(value, tuple | list):
                texts[key] = tuple(str(form) for form in value)
            else:
                texts[key] = str(value or "")
            files[key] = path.name
    return Catalog(language, texts, plural or (lambda count: int(count != 1)), files)


def warm() -> None:
    """Read every language's catalog now (about 0.1 s), so that the first word a process
    says is not the one that pays for reading the files: a server calls it at start-up,
    off its event loop."""
    for language in LANGUAGES:
        catalog(language)


def _lookup(key: str, language: str) -> str | tuple[str, ...]:
    found = catalog(language).text(key)
    if not found or (isinstance(found, tuple) and not all(found)):
        if language != DEFAULT and os.environ.get("STACKBOT_CATALOG_STRICT") != "1":
            return _lookup(key, DEFAULT)  # a missing translation reads in English
        raise KeyError(f"no message {key!r} in the {language!r} catalog")
    return found


class _Facts(dict[str, Any]):
    def __missing__(self, name: str) -> str:
        raise KeyError(f"the message needs the fact {name!r}")


def t(key: str, /, **facts: Any) -> str:
    """The message ``key`` in the current language, its placeholders filled from ``facts``."""
    text = _lookup(key, _language.get())
    if isinstance(text, tuple):
        raise TypeError(f"{key!r} has plural forms: say it with n()")
    return text.format_map(_Facts(facts)) if facts or "{" in text else text


def n(key: str, count: int, /, **facts: Any) -> str:
    """The plural message ``key`` for ``count`` (also its ``{count}`` placeholder)."""
    language = _language.get()
    forms = _lookup(key, language)
    if not isinstance(forms, tuple):
        raise TypeError(f"{key!r} has no plural forms: say it with t()")
    form = forms[min(catalog(language).plural(count), len(forms) - 1)]
    return form.format_map(_Facts({"count": count, **facts}))


def placeholders(text: str) -> frozenset[str]:
    """The named placeholders of a message (``{player}`` -> ``player``)."""
    return frozenset(
        name.split(".")[0].split("[")[0]
        for _, name, _, _ in string.Formatter().parse(text)
        if name is not None and name != ""
    )


# The bidirectional formatting characters (Unicode UAX #9): the Arabic letter mark, the
# left-to-right and right-to-left marks, the embeddings and overrides and their pop, the
# isolates and theirs.
BIDI_CONTROLS = frozenset(
    "\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
)
FSI = "\u2068"  # first strong isolate: what follows reads in its own direction…
PDI = "\u2069"  # …up to this pop directional isolate, which also ends what it left open
_OPENERS = frozenset("\u2066\u2067\u2068")


def _balanced(text: str) -> str:
    """``text`` with its isolates balanced: a pop with no isolate of its own left out (it
    would end an isolate around ``text``), one added for each isolate left open."""
    out = []
    depth = 0
    for char in text:
        if char == PDI:
            if not depth:
                continue
            depth -= 1
        elif char in _OPENERS:
            depth += 1
        out.append(char)
    return "".join(out) + PDI * depth


def _outside_isolates(text: str) -> str:
    """The characters of ``text`` outside its (balanced) isolates."""
    out = []
    depth = 0
    for char in text:
        if char in _OPENERS:
            depth += 1
        elif char == PDI and depth:
            depth -= 1
        elif not depth:
            out.append(char)
    return "".join(out)


def isolate(name: str) -> str:
    """A name a user chose (or anything typed), to put in a sentence: as it is when it
    cannot change how the text around it reads, else isolated (UAX #9) between
    :data:`FSI` and :data:`PDI`, so that a right-to-left name (Arabic, Hebrew) does not
    take the words after it into its direction, and an override or embedding it leaves
    open (``\u202eNormal``) ends with it. Ordinary names, and a sentence whose names are
    isolated already, come back unchanged."""
    balanced = _balanced(name)
    if balanced == name and not any(
        char in BIDI_CONTROLS or unicodedata.bidirectional(char) in ("R", "AL")
        for char in _outside_isolates(name)
    ):
        return name
    return FSI + balanced + PDI


def isolate_outside(text: str, pattern: re.Pattern[str]) -> str:
    """``text`` with each match of ``pattern`` that stands outside the isolates already in
    it isolated (:func:`isolate`): those isolates, and one left open at its end, stay as
    they are (a name a sentence isolated already is not isolated twice)."""
    parts = []
    depth = 0
    start = 0
    for at, char in enumerate(text):
        if char in _OPENERS:
            if not depth:
                parts.append(pattern.sub(lambda m: isolate(m[0]), text[start:at]))
                start = at
            depth += 1
        elif char == PDI and depth:
            depth -= 1
            if not depth:
                parts.append(text[start : at + 1])
                start = at + 1
    tail = text[start:]
    parts.append(tail if depth else pattern.sub(lambda m: isolate(m[0]), tail))
    return "".join(parts)


def join(items: list[str] | tuple[str, ...], word: str = "and") -> str:
    """``a, b and c`` in the current language (``word``: ``and``, ``or``, or ``or_code``
    between things typed as code, such as options)."""
    if not items:
        return ""
    if len(items) == 1:
        return items[0]
    return t("list.comma").join(items[:-1]) + t(f"list.{word}") + items[-1]


def together(names: Iterable[str]) -> str:
    """Players named together, as partners or sharing a win (``A & B``; ``A、B`` in
    Japanese): the current language's ``list.together`` between them."""
    return t("list.together").join(names)
