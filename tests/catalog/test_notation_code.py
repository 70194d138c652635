"""Notation as inline code, alike in every language: what a player types (``c1-e3``,
``set c1 4``, ``stack 3 on bob``, ``r7 r8 r9``) is quoted in backticks in the games'
messages, so Discord shows it as code, and every language quotes the same placeholders
and the same literal commands.

Stated precisely, for every message of the ``colorstack``, ``stack`` and ``stackup``
domains (a plural message: all its forms together):

* the placeholders inside inline code are the same in every language, and so are those
  outside it (``{square}`` of ``{square}-e3`` is code in Japanese too);
* each literal code span of the English (``set c1 4``) is a code span of every other
  language as well (a translation may quote more: ``red`` among English words);
* Color Stack's refusals leave no notation outside inline code, in any language: a move
  (``c1-e3``, ``{square}-e3``), a set (``set c1 4``), the colours (``colours red
  yellow``) or ``{command}``;
* every hint (:data:`HINTS`) quotes its move as typed in inline code, in every language,
  and in nothing else besides (no quotation marks around the code).
"""

from __future__ import annotations

import re

import pytest

import catalog
from catalog import LANGUAGES

DOMAINS = ("colorstack.po", "stack.po", "stackup.po")
CODE = re.compile(r"`([^`\n]+)`")
PLACEHOLDER = re.compile(r"\{(\w+)\}")
# notation outside inline code in a Color Stack refusal or hint: a move, a set, colours
BARE = re.compile(
    r"(?<![\w{])(?:[a-i][1-9]|\{\w+\})-(?:[a-i][1-9]|e3|\{\w+\})"
    r"|\bset (?:[a-i][1-9]|\{\w+\})"
    r"|\bcolours red"
    r"|\{command\}"
)
# the hints that name their move as typed, and its placeholder
HINTS = {
    "colorstack.hint.": "action",
    "stack.hint.reason": "notation",
    "stackup.hint.reason": "move",
}
# a quotation mark right by a code span: the move quoted twice
QUOTED_CODE = re.compile(r"[\"'“”‘’「」『』«»]`|`[\"'“”‘’「」『』«»]")


def _text(language: str, key: str) -> str:
    value = catalog.catalog(language).text(key)
    assert value is not None, (language, key)
    return "\n".join(value) if isinstance(value, tuple) else value


def _keys() -> list[str]:
    english = catalog.catalog("en")
    return sorted(key for key, file in english.files.items() if file in DOMAINS)


def _joiner(text: str) -> bool:
    """A text set between two code spans (`` ` or ` ``): it closes one and opens the next."""
    return text.startswith("`") and text.endswith("`") and text.count("`") == 2


def _quoting(text: str) -> tuple[frozenset[str], frozenset[str], frozenset[str]]:
    """The placeholders inside inline code, those outside it, and the literal code spans
    (those without a placeholder)."""
    spans = CODE.findall(text)
    inside = frozenset(p for span in spans for p in PLACEHOLDER.findall(span))
    outside = frozenset(PLACEHOLDER.findall(CODE.sub(" ", text)))
    literal = frozenset(span for span in spans if not PLACEHOLDER.search(span))
    return inside, outside, literal


def test_the_games_have_messages_with_notation_in_code() -> None:
    keys = _keys()
    assert len(keys) > 400
    coded = [k for k in keys if "`" in _text("en", k)]
    assert {"colorstack.error.syntax", "colorstack.error.missing_target"} <= set(coded)
    assert {"stack.error.unknown_word", "stackup.syntax"} <= set(coded)


@pytest.mark.parametrize("language", [lang for lang in LANGUAGES if lang != "en"])
def test_every_language_quotes_the_same_notation_as_english(language: str) -> None:
    differ = []
    for key in _keys():
        english, other = _text("en", key), _text(language, key)
        if _joiner(english):
            if not _joiner(other):
                differ.append((key, english, other))
            continue
        en_inside, en_outside, en_literal = _quoting(english)
        inside, outside, literal = _quoting(other)
        if en_inside != inside or en_outside != outside or not en_literal <= literal:
            differ.append((key, english, other))
    assert differ == []


@pytest.mark.parametrize("language", LANGUAGES)
def test_color_stack_refusals_leave_no_notation_outside_code(language: str) -> None:
    keys = [k for k in _keys() if k.startswith("colorstack.error.")]
    assert len(keys) > 30
    bare = []
    for key in keys:
        text = CODE.sub(" ", _text(language, key))
        if BARE.search(text) or (language != "en" and re.search(r"\bresign\b", text)):
            bare.append((key, _text(language, key)))
    assert bare == []


def test_the_check_finds_notation_quoted_in_one_language_only() -> None:
    assert _quoting("`{action}`: a safe move") != _quoting("{action}：安全な移動です")
    assert _quoting("Type `set c1 4`.")[2] == {"set c1 4"}
    assert BARE.search("Where does {square} go? {square}-e3")
    assert BARE.search("Name it: set c1 4.") and not BARE.search("a set names one square")
    assert not BARE.search(CODE.sub(" ", "Type `set {square} 4` or `{square}-e3`."))


def _hint_moves() -> list[tuple[str, str]]:
    """Every hint that names its move as typed, with the move's placeholder."""
    return [(k, p) for k in _keys() for start, p in HINTS.items() if k.startswith(start)]


@pytest.mark.parametrize("language", LANGUAGES)
def test_hints_quote_the_move_as_typed_in_code_and_only_in_code(language: str) -> None:
    hints = _hint_moves()
    assert {"stack.hint.reason", "stackup.hint.reason", "colorstack.hint.wins"} <= {
        k for k, _ in hints
    }
    assert "colorstack.hint.colours" in {k for k, _ in hints}
    unquoted = []
    for key, placeholder in hints:
        forms = catalog.catalog(language).text(key)
        for text in forms if isinstance(forms, tuple) else (forms,):
            assert text is not None
            inside, outside, _ = _quoting(text)
            if placeholder not in inside or placeholder in outside or QUOTED_CODE.search(text):
                unquoted.append((key, text))
    assert unquoted == []


def test_the_hint_check_finds_a_move_unquoted_or_quoted_twice() -> None:
    assert "action" in _quoting("`{action}`: a safe move")[0]
    assert "action" in _quoting("{action} wins now")[1]
    assert QUOTED_CODE.search("「`{action}`」で勝てます") and QUOTED_CODE.search('"`{move}`"')
    assert not QUOTED_CODE.search("`{notation}`：{why}")
