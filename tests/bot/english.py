"""What a player reads, gathered from simcord, and a detector of English words in it (for
the Japanese whole-game tests, tests/bot/test_japanese_games.py).

What is not a word to translate is taken out before the words are looked for: player
names (given), mentions, custom emoji and timestamps (``<@1>``, ``<:x:1>``, ``<t:1:R>``),
inline code (`` `c1-e3` ``, `` `/move` ``, `` `language` ``: notation, commands and keys
are written so), slash commands (``/table new``, ``/move``), links, and the short,
explicit :data:`ALLOWED` list. What is left is English if it holds a run of two Latin
letters or more (card codes ``R7`` and squares ``c1`` have one)."""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from simcord.components import walk_components

from bot.text import escape_name
from engine.stackup.cards import SPECIAL_NAMES

# not English for a Japanese player: the AI (written so in Japanese too), Stack Up!'s
# special cards' codes (card codes, as R7 is: never translated), and English's name in its
# own words (where /houserules lists the languages), and Discord's name
ALLOWED = frozenset({"AI", *SPECIAL_NAMES, "English", "Discord"})

_CODE = re.compile(r"`[^`\n]+`")
_TAG = re.compile(r"<a?[@#:!&/][^>\s]*>|<t:\d+(?::[a-zA-Z])?>")
_COMMAND = re.compile(r"(?<![\w/])/(?:table|houserules) [a-z]+|(?<![\w/])/[a-z]+")
_LINK = re.compile(r"https?://\S+")
_WORD = re.compile(r"[A-Za-z]{2,}")


def english_words(text: str, names: Iterable[str] = ()) -> list[str]:
    """The English words of ``text`` (see the module's text); ``names`` are players'
    names (as they are, and as the bot escapes them)."""
    for name in sorted({n for n in names if n} | {escape_name(n) for n in names if n}, key=len)[
        ::-1
    ]:
        text = text.replace(name, " ")
    for pattern in (_CODE, _TAG, _LINK, _COMMAND):
        text = pattern.sub(" ", text)
    return [w for w in _WORD.findall(text) if w not in ALLOWED]


def component_texts(components: Any) -> list[str]:
    """Every text of a message's components (wire dictionaries or discord.py's): labels,
    placeholders, text displays, options, media descriptions."""
    roots = [c if isinstance(c, dict) else c.to_dict() for c in components or []]
    texts: list[str] = []
    for c in walk_components(roots):
        texts += [str(c[k]) for k in ("label", "placeholder", "content", "title") if c.get(k)]
        for option in c.get("options") or []:
            texts += [str(option[k]) for k in ("label", "description") if option.get(k)]
        for item in c.get("items") or []:
            if isinstance(item, dict) and item.get("description"):
                texts.append(str(item["description"]))
        if c.get("description"):  # a thumbnail's or a media item's alt text
            texts.append(str(c["description"]))
    return texts


def embed_texts(embeds: Any) -> list[str]:
    texts: list[str] = []
    for embed in embeds or []:
        e = embed if isinstance(embed, dict) else embed.to_dict()
        texts += [str(e[k]) for k in ("title", "description") if e.get(k)]
        for field in e.get("fields") or []:
            texts += [str(field.get("name") or ""), str(field.get("value") or "")]
        for part in ("footer", "author"):
            block = e.get(part) or {}
            texts += [str(block[k]) for k in ("text", "name") if block.get(k)]
    return texts
