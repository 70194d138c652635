"""HTML built from parts: an element from its name, attributes and children, every text
and attribute escaped here (a name a player chose is text, never HTML), and the page
around a body, in its reader's language."""

from __future__ import annotations

import html
from collections.abc import Mapping

import orjson

from web.words import dictionary

__all__ = ["page_html", "tag", "text"]

VOID = frozenset({"meta", "link", "input", "br"})
VIEWPORT = "width=device-width, initial-scale=1"
BRAND = "stackbot"  # the bot's name: the same in every language


def text(words: str) -> str:
    """``words`` as HTML text."""
    return html.escape(words)


def tag(name: str, attrs: Mapping[str, object] | None = None, *children: str) -> str:
    """The element ``name`` with ``attrs`` (escaped; ``None`` or ``False``: left out,
    ``True``: present) around ``children`` (HTML already: :func:`text` or :func:`tag`)."""
    parts = [name]
    for key, value in (attrs or {}).items():
        if value is None or value is False:
            continue
        parts.append(key if value is True else f'{key}="{html.escape(str(value))}"')
    opening = "<" + " ".join(parts) + ">"
    if name in VOID:
        return opening
    return opening + "".join(children) + f"</{name}>"


def words_json(language: str) -> str:
    """The page's dictionary (:func:`web.words.dictionary`) as JSON safe inside a
    ``<script>`` element (no ``<``, ``>`` or ``&`` in it)."""
    data = orjson.dumps(dictionary(language)).decode()
    return data.replace("<", "\\u003c").replace(">", "\\u003e").replace("&", "\\u0026")


def page_html(title: str, body: str, script: str | None, language: str, home: str = "/") -> str:
    """A whole page in ``language``: ``title`` (text, escaped here) in its tab, ``body``
    (HTML already), the module ``script`` of ``static/`` and the words its scripts say;
    ``home``: the address of the index its bar links (with the page's ``?lang=``, if any)."""
    head = [
        tag("meta", {"charset": "utf-8"}),
        tag("meta", {"name": "viewport", "content": VIEWPORT}),
        tag("meta", {"name": "color-scheme", "content": "light dark"}),
        tag("title", None, text(f"{title} · {BRAND}")),
        tag("link", {"rel": "stylesheet", "href": "/static/style.css"}),
        tag("script", {"type": "application/json", "id": "page-words"}, words_json(language)),
    ]
    if script:
        head.append(tag("script", {"type": "module", "src": f"/static/{script}"}))
    bar = tag("header", {"class": "bar"}, tag("a", {"class": "home", "href": home}, BRAND))
    return (
        "<!doctype html>\n"
        + tag("html", {"lang": language}, tag("head", None, *head), tag("body", None, bar, body))
        + "\n"
    )
