"""The language of a page, and the words its scripts say.

A page speaks the language its reader asks for (:func:`choose`): ``?lang=ja`` (or ``en``)
in its address, else the first language of the browser's ``Accept-Language`` that we
speak, else the page's own default — a live table of the Discord bot's: its server's
language (the server is given a function that says it: :data:`TableLanguage`) — else
English. Every page is then worded inside :func:`catalog.speaking` of that language, and
says it in ``<html lang>``.

The pages' scripts word nothing themselves: the server sends each page its dictionary
(:func:`dictionary`: every ``web.*`` key of the catalog in the page's language, a plural
message as its forms), embedded in the page as JSON, and at ``/words/{lang}.json`` for a
page whose language changes once it runs (the Discord Activity learns its user's locale
from Discord's SDK).
"""

from __future__ import annotations

from collections.abc import Callable
from functools import cache
from typing import Any

import catalog
from persistence.records import TableInfo

__all__ = ["PREFIX", "TableLanguage", "accepted", "choose", "dictionary"]

PREFIX = "web."  # the keys a page's scripts say (catalog/locales/*/LC_MESSAGES/web.po)

# the language a table speaks (a Discord table: its server's), ``None``: no preference
TableLanguage = Callable[[TableInfo], str | None]


def accepted(header: str | None) -> list[str]:
    """The languages we speak that an ``Accept-Language`` header asks for, the most
    wanted first (its ``q`` weights; equal weights in the header's order; ``q=0``: not)."""
    if not header:
        return []
    weighted: list[tuple[float, int, str]] = []
    for place, part in enumerate(header.split(",")):
        tag, *params = (p.strip() for p in part.split(";"))
        weight = 1.0
        for param in params:
            name, _, value = param.partition("=")
            if name.strip().lower() == "q":
                try:
                    weight = float(value)
                except ValueError:
                    weight = 0.0
        language = catalog.language_of(tag, default="")
        if tag and weight > 0 and language:
            weighted.append((-weight, place, language))
    found: list[str] = []
    for _, _, language in sorted(weighted):
        if language not in found:
            found.append(language)
    return found


def choose(query: str | None, accept_language: str | None, default: str | None = None) -> str:
    """The language of a page: the address's ``?lang=`` when we speak it, else the
    browser's ``Accept-Language``, else ``default`` (the table's), else English."""
    asked = catalog.language_of(query, default="") if query else ""
    if asked:
        return asked
    browser = accepted(accept_language)
    if browser:
        return browser[0]
    if default in catalog.LANGUAGES:
        return default
    return catalog.DEFAULT


@cache
def dictionary(language: str) -> dict[str, Any]:
    """What a page's scripts say, in ``language``: ``{"language", "languages", "texts"}``
    (``languages``: every one we speak), ``texts``
    every ``web.*`` key (a plural message: its forms, one per plural form of the
    language; the scripts take the first for a count of 1, else the last)."""
    texts: dict[str, str | list[str]] = {}
    english = catalog.catalog(catalog.DEFAULT)
    own = catalog.catalog(language)
    for key, value in sorted(english.texts.items()):
        if not key.startswith(PREFIX):
            continue
        found = own.text(key)
        if not found or (isinstance(found, tuple) and not all(found)):
            found = value  # a missing translation reads in English (as catalog.t does)
        texts[key] = list(found) if isinstance(found, tuple) else found
    return {"language": language, "languages": list(catalog.LANGUAGES), "texts": texts}
