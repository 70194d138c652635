"""Text that is safe to send to Discord: names and echoed input that render literally and
ping nobody, and content that fits Discord's limits (shortened or split with a clear mark).

Pure functions; no Discord objects.
"""

from __future__ import annotations

import contextvars
import re
import unicodedata
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from functools import lru_cache
from typing import Any

import catalog
from catalog.columns import ELLIPSIS

MESSAGE_LIMIT = 2000
EMBED_DESCRIPTION = 4096
EMBED_FIELD = 1024
EMBED_TOTAL = 6000
ECHO_LIMIT = 40

_ISOLATE_OPENERS = frozenset("\u2066\u2067\u2068")  # LRI, RLI, FSI: each closed by a PDI
ZWSP = "\u200b"
FENCE = "```"
_MAX_FENCE = 16  # a fence line is ``` plus at most a language name

# Characters Discord markdown gives a meaning to anywhere in a line (bold, italics,
# underline, strikethrough, spoilers, code, masked links; ``<`` starts mentions, custom
# emoji, timestamps and channel links), and at the start of a line only (quotes, headings,
# subtext, list markers). A backslash in front of ASCII punctuation makes Discord show it
# as it is.
_MARKDOWN = re.compile(r"([\\*_~|`\[\]<])")
_LINE_START = re.compile(r"^(\s*)([>#+-]|\d+\.)")
_SPACE = re.compile(r"\s+")
_CONTROL = re.compile(r"[\x00-\x1f\x7f]")


def _rtl(char: str) -> bool:
    return unicodedata.bidirectional(char) in ("R", "AL")


def _unbidi(text: str) -> str:
    """``text`` without its bidirectional formatting characters (an override, an
    embedding or an isolate would reorder the rest of the line), but for the isolates
    that are closed around right-to-left letters (a name :func:`catalog.isolate` put in a
    sentence): one of those changes nothing outside it."""
    out: list[str] = []
    opened: list[int] = []  # where the isolates still open are in ``out``
    for char in text:
        if char == catalog.FSI:
            opened.append(len(out))
        elif char == catalog.PDI and opened:
            at = opened.pop()
            if not any(_rtl(c) for c in out[at + 1 :]):  # nothing left in it to isolate
                del out[at]
                continue
        elif char in catalog.BIDI_CONTROLS:
            continue
        out.append(char)
    for at in reversed(opened):
        del out[at]
    return "".join(out)


def _invisible(text: str) -> str:
    """``text`` without control characters nor bidirectional formatting (:func:`_unbidi`)."""
    return _unbidi(_CONTROL.sub("", text))


def _clean(text: str) -> str:
    """One line of printable text: runs of white space as one space, no control or
    direction-changing characters."""
    # white space first (a newline is a control character too), then the invisible
    # characters, then the spaces those stood between
    return _SPACE.sub(" ", _invisible(_SPACE.sub(" ", text))).strip()


def _defuse_mentions(text: str) -> str:
    """``@everyone``, ``@here``, ``<@123>``, ``<@&123>``, ``<#123>`` and ``</cmd:1>`` with a
    zero-width space after each ``@`` and ``<``, so that none of them is a mention."""
    return text.replace("@", "@" + ZWSP).replace("<", "<" + ZWSP)


def _defuse_links(text: str) -> str:
    """``https://e.vil`` with a zero-width space inside ``://``, so that Discord shows it
    as text, not as a link to follow."""
    return text.replace("://", ":/" + ZWSP + "/")


def _escape_line_start(match: re.Match[str]) -> str:
    space, mark = match.groups()
    return f"{space}{mark[:-1]}\\{mark[-1]}"


def escape_text(text: str) -> str:
    """Plain text (a sentence of the bot's words around names, or typed input) as Discord
    markdown that shows exactly that text, mentions nobody and links nowhere. Newlines are
    kept."""
    lines = []
    for line in text.split("\n"):
        line = _invisible(line)
        line = _MARKDOWN.sub(r"\\\1", line)
        line = _LINE_START.sub(_escape_line_start, line)
        lines.append(_defuse_links(_defuse_mentions(line)))
    return "\n".join(lines)


# a backslash before ASCII punctuation: markdown's escape (escape_text's, and the line starts')
_ESCAPED = re.compile(r"\\([!-/:-@\[-`{-~])")


def unescape_text(text: str) -> str:
    """Text :func:`escape_text` (or :func:`escape_name`) made, as the plain text it shows:
    the markdown escapes undone (``bob\\_x`` -> ``bob_x``, ``\\\\`` -> ``\\``), and the
    zero-width spaces that defuse mentions and links taken out (a name copied off a page
    is the name)."""
    text = text.replace("@" + ZWSP, "@").replace("<" + ZWSP, "<")
    return _ESCAPED.sub(r"\1", text.replace(":/" + ZWSP + "/", "://"))


# A backtick of a name or of typed text, in a sentence with code: the modifier letter grave
# accent, which looks alike and neither starts nor ends code.
GRAVE = "\u02cb"
# An inline code span as Discord's markdown reads one (simple-markdown's rule): a run of
# backticks, the shortest text not ending in a backtick, and the same run again.
_CODE_SPAN = re.compile(r"(`+)([\s\S]*?[^`])\1(?!`)")
QUOTES = "\"'“”‘’"
_QUOTED = re.compile(r"[\"“”]([^\"“”]+)[\"“”]")


def _pieces(said: Iterable[str]) -> set[str]:
    """What of ``said`` a sentence may quote: each whole, each word of it, each without
    the quotes around it, and each quoted part (``stack 4 on "a`b c"``: ``a`b c``)."""
    pieces: set[str] = set()
    for text in said:
        words = text.split()
        pieces.update((text, *words, *(w.strip(QUOTES) for w in words)))
        pieces.update(_QUOTED.findall(text))
    return {p for p in pieces if p}


def _unused_private(text: str) -> str:
    """A private-use character ``text`` does not hold (to hold something aside in it)."""
    return next(chr(c) for c in range(0xE000, 0xF900) if chr(c) not in text)


def _isolate_said(text: str, said: Iterable[str]) -> str:
    """``text`` with each of ``said`` (a name, typed text, a word or quoted part of them:
    :func:`_pieces`) that reads right to left isolated (:func:`catalog.isolate`) where it
    stands whole outside the isolates already there: a typed name a refusal quotes, the
    name in a hint's notation (``stack 3 on عمر 2``) take no words after them into their
    direction."""
    pieces = _pieces(said)
    pieces |= {_invisible(p) for p in pieces}
    for piece in sorted((p for p in pieces if any(_rtl(c) for c in p)), key=len, reverse=True):
        whole = re.compile(rf"(?<!\w){re.escape(piece)}(?!\w)")
        text = catalog.isolate_outside(text, whole)
    return text


def escape_prose(text: str, said: Iterable[str] = ()) -> str:
    """A sentence of the bot's words with names and typed input in it (a refused move's
    words), as Discord markdown: its inline code spans (``place on NAME``) stay code, with
    nothing invisible in them (mentions and markdown are inert there), and the rest shows
    as it is and mentions nobody (:func:`escape_text`).

    The backticks of ``said`` (the names and the typed text it may hold: whole, by word,
    or quoted) neither start nor end code: held aside while the code is found, they show
    as escaped backticks outside it and as :data:`GRAVE` inside. One of them that is only
    backticks cannot be told from the sentence's own: then no code is kept, and the whole
    sentence shows as it is. One of them that reads right to left is isolated
    (:func:`_isolate_said`)."""
    text = _isolate_said(text, said)
    held = {p for p in _pieces(said) if "`" in p}
    if any(not p.replace("`", "").strip() for p in held):
        return escape_text(text)
    mark = _unused_private(text + "".join(held))
    for piece in sorted(held, key=len, reverse=True):  # whole: `up` holds no p`
        whole = re.compile(rf"(?<![A-Za-z0-9]){re.escape(piece)}(?![A-Za-z0-9])")
        text = whole.sub(piece.replace("`", mark).replace("\\", r"\\"), text)
    parts = []
    last = 0
    for span in _CODE_SPAN.finditer(text):
        parts.append(escape_text(text[last : span.start()]).replace(mark, "\\`"))
        parts.append(span[1] + _invisible(span[2]).replace(mark, GRAVE) + span[1])
        last = span.end()
    parts.append(escape_text(text[last:]).replace(mark, "\\`"))
    return "".join(parts)


@lru_cache(maxsize=4096)
def escape_name(name: str) -> str:
    """A display name (or any one-line input) for Discord markdown: shown as it is, on one
    line, mentioning nobody (``<@&1>``, ``<@1>``, ``<#1>``, ``@everyone``, ``@here``) and
    starting no markdown (``_``, ``*``, ``~``, ``|``, `````, ``>``, ``#``, ``-``, links),
    and isolated when it reads right to left (:func:`catalog.isolate`: the words after an
    Arabic or Hebrew name keep their direction; a direction-changing character is left out)."""
    return catalog.isolate(escape_text(_clean(name))) or "?"


def code_name(name: str) -> str:
    """A name for inside a code block, where markdown is off and backslashes would show:
    one line, no backticks (they could end the block), no mentions, isolated when it reads
    right to left (:func:`catalog.isolate`; a score sheet's row of an Arabic name would
    otherwise read from the right, its numbers in reverse order)."""
    return catalog.isolate(_defuse_mentions(_clean(name).replace("`", GRAVE))) or "?"


def label_name(name: str) -> str:
    """A name for a button's or a menu option's label, or an autocomplete's choice (plain
    text, where neither markdown nor mentions work): one line, no direction-changing
    character, isolated when it reads right to left (:func:`catalog.isolate`)."""
    return catalog.isolate(_clean(name)) or "?"


def plain_name(name: str) -> str:
    """A name for text Discord does not render as markdown (a picture's alt text): one
    line, no mentions, no backslashes, isolated when it reads right to left
    (:func:`catalog.isolate`)."""
    return catalog.isolate(_defuse_mentions(_clean(name))) or "?"


def mention(user_id: int | None) -> str:
    """The one way to mention (and, where allowed, ping) a user: ``<@id>``."""
    return f"<@{user_id}>" if user_id else ""


def plural(count: int, word: str, words: str | None = None) -> str:
    """``1 game``, ``2 games``, ``0 games`` (``words`` for an irregular plural)."""
    return f"{count} {word if count == 1 else (words or word + 's')}"


def cut(text: str, limit: int) -> str:
    """``text`` if it is at most ``limit`` characters, else its start ending in "…"
    (never ending in a lone backslash, which would escape the mark). An isolate the start
    leaves open (a right-to-left name cut in its middle, :func:`catalog.isolate`) is closed
    before the mark, so that the mark and whatever follows read in the sentence's own
    direction."""
    if limit < 1:
        raise ValueError("limit must be at least 1")
    if len(text) <= limit:
        return text
    end = limit - 1
    while True:
        head = text[:end].rstrip("\\")
        closers = _open_isolates(head)
        if len(head) + closers < limit or not head:
            return head + catalog.PDI * closers + ELLIPSIS
        end -= 1


def _open_isolates(text: str) -> int:
    """How many isolates ``text`` opens and does not close."""
    depth = 0
    for char in text:
        if char in _ISOLATE_OPENERS:
            depth += 1
        elif char == catalog.PDI and depth:
            depth -= 1
    return depth


def echo(raw: str, limit: int = ECHO_LIMIT) -> str:
    """What someone typed, to quote back: one line, cut to ``limit`` characters, markdown
    and mentions escaped, in the quotes of the language spoken (``'…'``, 「…」)."""
    typed = escape_name(cut(_clean(raw), limit)) if raw.strip() else ""
    return catalog.t("typed.quoted", typed=typed)


def _is_fence(line: str) -> bool:
    text = line.strip()
    return text.startswith(FENCE) and len(text) <= _MAX_FENCE and FENCE not in text[3:]


def _lines(lines: Iterable[str]) -> list[str]:
    return [part for line in lines for part in line.split("\n")]


def split_message(lines: Iterable[str], limit: int = MESSAGE_LIMIT) -> list[str]:
    """``lines`` as few messages of at most ``limit`` characters each.

    Messages break between lines only; a code block that a break falls inside is closed
    at the end of one message and opened again at the start of the next; a line too long
    for any message is cut (with "…"). Empty input gives no messages.
    """
    if limit < 2 * _MAX_FENCE:
        raise ValueError(f"limit must be at least {2 * _MAX_FENCE}")
    messages: list[str] = []
    current: list[str] = []
    size = 0  # len("\n".join(current))
    fence: str | None = None  # the opening line of a code block still open in ``current``

    def flush() -> None:
        nonlocal current, size
        body = current
        if fence is not None:
            # close the block; a block opened by the last line holds nothing yet: drop it
            body = body[:-1] if body and body[-1] == fence else [*body, FENCE]
        text = "\n".join(body)
        if text.strip():
            messages.append(text)
        current = [fence] if fence is not None else []
        size = len(fence) if fence is not None else 0

    for line in _lines(lines):
        fenced = _is_fence(line)
        if fenced:
            line = line.strip()
        after = (line if fence is None else None) if fenced else fence
        reserve = len(FENCE) + 1 if after is not None else 0  # room to close the block
        line = cut(line, limit - len(FENCE) - 2 - (len(fence) if fence is not None else 0))
        cost = len(line) + (1 if current else 0)
        if current and size + cost + reserve > limit:
            flush()
            cost = len(line) + (1 if current else 0)
        current.append(line)
        size += cost
        fence = after
    if fence is not None:  # a block the input left open: close it (or drop it if empty)
        current = current[:-1] if current[-1] == fence else [*current, FENCE]
    text = "\n".join(current)
    if text.strip():
        messages.append(text)
    return messages


def shortened() -> str:
    """The mark ending a text cut to fit a message (``… (shortened)``), in the current
    language."""
    return catalog.t("discord.shortened")


def said(text: str, /, **facts: Any) -> str:
    """``text`` said in the current language when it is a catalog key
    (``discord.button.my_turn``: a game's private button, a :class:`~bot.refusal_words.
    Refused`), else as it is: words a game gives that are not (yet) in the catalog."""
    if catalog.catalog(catalog.DEFAULT).text(text) is None:
        return text
    return catalog.t(text, **facts)


# the language the buttons of the table being answered about are drawn in (its server's),
# set for each interaction in a server (bot.language.speak_to_each_user); None: no table's
_buttons: contextvars.ContextVar[str | None] = contextvars.ContextVar("buttons", default=None)


@contextmanager
def buttons_in(language: str | None) -> Iterator[None]:
    """In the code inside, the buttons of the tables it speaks of are drawn in
    ``language`` (their server's; ``None``: in the language spoken)."""
    token = _buttons.set(language)
    try:
        yield
    finally:
        _buttons.reset(token)


def button_label(key: str) -> str:
    """A table message's button (``discord.button.start``), named as the button shows
    it: in the language its table's buttons are drawn in (:func:`buttons_in`: the server's),
    whatever language the words around it are said in (a Japanese player on an English
    server is told to press **Start**, the button they see), else in the language spoken."""
    language = _buttons.get()
    if language is None or language == catalog.current():
        return catalog.t(key)
    with catalog.speaking(language):
        return catalog.t(key)


def fit_message(text: str, limit: int = MESSAGE_LIMIT) -> str:
    """``text`` if it fits in ``limit`` characters, else as much of it as fits, broken at
    a line (code blocks closed), followed by "… (shortened)" (:func:`shortened`)."""
    if len(text) <= limit:
        return text
    tail = shortened()
    head = split_message(text.split("\n"), limit - len(tail) - 1)
    return (head[0] + "\n" if head else "") + tail


def percent(part: int, whole: int) -> int:
    """``part`` of ``whole`` in whole percent, rounded half up (3 of 7: 43), 0 of nothing."""
    return (part * 200 + whole) // (whole * 2) if whole else 0
