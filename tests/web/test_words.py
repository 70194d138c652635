"""The pages' language and words: the language a page speaks (its address's ``?lang=``,
else the browser's ``Accept-Language``, else the table's, else English), the dictionary
its scripts are sent, and no English written in the scripts themselves."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import catalog
from host.refusals import Why
from web.words import accepted, choose, dictionary

STATIC = Path(__file__).resolve().parents[2] / "web" / "static"


# ------------------------------------------------------------------ the page's language


def test_the_addresss_lang_comes_first() -> None:
    assert choose("ja", "en-US,en;q=0.9", "en") == "ja"
    assert choose("en", "ja,en;q=0.5", "ja") == "en"
    assert choose("ja-JP", None) == "ja"


def test_a_lang_we_do_not_speak_falls_back_to_the_browsers() -> None:
    assert choose("fr", "ja,en;q=0.5") == "ja"
    assert choose("", "ja") == "ja"


def test_the_browsers_accept_language_comes_before_the_tables_default() -> None:
    assert choose(None, "ja-JP,ja;q=0.9,en;q=0.8", "en") == "ja"
    assert choose(None, "en-GB,en;q=0.9", "ja") == "en"


def test_the_browsers_languages_are_taken_by_their_weights() -> None:
    assert accepted("en;q=0.4, ja;q=0.8") == ["ja", "en"]
    assert accepted("fr-CH, fr;q=0.9, ja;q=0.7, en;q=0.6") == ["ja", "en"]
    assert accepted("ja;q=0, en") == ["en"]  # q=0: not wanted
    assert accepted("ja-JP, ja, en") == ["ja", "en"]  # each language once
    assert accepted("ja;q=abc, en") == ["en"]  # a broken weight counts as none
    assert accepted("*") == [] and accepted("") == [] and accepted(None) == []


def test_with_no_language_asked_for_the_page_speaks_the_tables_else_english() -> None:
    assert choose(None, None, "ja") == "ja"
    assert choose(None, "fr-FR, de;q=0.5", "ja") == "ja"
    assert choose(None, None) == "en"
    assert choose(None, "fr", None) == "en"
    assert choose(None, None, "fr") == "en"  # a table's language we do not speak


# ------------------------------------------------------------------ the scripts' words


def test_a_pages_dictionary_holds_every_web_key_in_its_language() -> None:
    english = {k for k in catalog.catalog("en").texts if k.startswith("web.")}
    for language in catalog.LANGUAGES:
        words = dictionary(language)
        assert words["language"] == language
        assert words["languages"] == list(catalog.LANGUAGES)
        assert set(words["texts"]) == english
    ja = dictionary("ja")["texts"]
    assert ja["web.sheet.total"] == "合計"
    assert ja["web.stackup.cards"] == ["{count}枚"]  # Japanese: one plural form
    assert dictionary("en")["texts"]["web.stackup.cards"] == ["{count} card", "{count} cards"]


def test_every_refusal_of_the_host_has_its_words_on_the_page() -> None:
    texts = dictionary("ja")["texts"]
    for why in Why:
        assert f"web.refusal.{why.value}" in texts, why
    for code in (
        "bad_frame",
        "rate_limited",
        "not_identified",
        "session_expired",
        "seat_timed_out",
        "other",
    ):
        assert f"web.refusal.{code}" in texts


def test_every_key_a_script_says_is_in_the_catalog() -> None:
    texts = dictionary("en")["texts"]
    said: set[str] = set()
    for script in STATIC.glob("*.js"):
        said |= set(
            re.findall(
                r"""["'`](web\.[a-z_]+\.[A-Za-z_.]+|web\.[a-z_]+)["'`]""", script.read_text()
            )
        )
    templated = {k for k in said if k.endswith(".")}
    assert said - templated <= set(texts), sorted(said - templated - set(texts))
    assert said, "the scripts say their words by key"


# the literals of the scripts that look like words but are not: key names, CSS, selectors
NOT_WORDS = {
    "#moves button",  # a CSS selector
    "tag move",  # CSS classes and styles
    "tag ai",
    "board chart",
    "background: var(--",
    "Enter",  # key names of keyboard events
    "ArrowLeft",
    "ArrowRight",
    "ArrowUp",
    "ArrowDown",
    "Home",
    "End",
    "Content-Type",  # an HTTP header
    "Crash",  # Stack Up!'s special cards' codes (their words: web.card.*)
    "Snatch",
    "Freeze",
    "Flip",
    "Switch",
}
TWO_WORDS = re.compile(r"[A-Za-z]{2,}[,.!?:;']?\s+[A-Za-z(\"'*`]")
CAPITALISED = re.compile(r"^\W*[A-Z][a-z]{2,}")
SENTENCE = re.compile(r"[A-Za-z]{2,}[.!?…]$")
# a word beside a space in a template's text ("${name}'s hand: ${count} cards"), not a
# CSS property ("max-width: ${width}px")
TEMPLATE_WORD = re.compile(r"\s[A-Za-z']{2,}[:,]?(\s|$)|(^|\s)[A-Za-z']{2,}[:,]?\s")
CSS = re.compile(r"^[a-z-]+:\s*$")


def literals(source: str) -> list[tuple[str, bool]]:
    """The string literals of a script (a template literal's text between its ``${}``,
    and the literals inside those), comments left out: each, and whether it is a part of
    a template literal's text."""
    found: list[tuple[str, bool]] = []
    i = 0

    def code(i: int, closing: str | None) -> int:
        depth = 0
        while i < len(source):
            c = source[i]
            if source.startswith("//", i):
                i = source.find("\n", i)
                i = len(source) if i < 0 else i
            elif source.startswith("/*", i):
                i = source.index("*/", i) + 2
            elif c in "'\"":
                end = i + 1
                while source[end] != c:
                    end += 2 if source[end] == "\\" else 1
                found.append((source[i + 1 : end], False))
                i = end + 1
            elif c == "`":
                i = template(i + 1)
            elif c == "{":
                depth += 1
                i += 1
            elif c == "}":
                if closing and depth == 0:
                    return i + 1
                depth -= 1
                i += 1
            else:
                i += 1
        return i

    def template(i: int) -> int:
        text = ""
        while source[i] != "`":
            if source.startswith("${", i):
                found.append((text, True))
                text = ""
                i = code(i + 2, "}")
            elif source[i] == "\\":
                text += source[i : i + 2]
                i += 2
            else:
                text += source[i]
                i += 1
        found.append((text, True))
        return i + 1

    code(i, None)
    return [f for f in found if f[0].strip()]


def english(literal: str, templated: bool = False) -> bool:
    if literal in NOT_WORDS or literal.startswith("web."):  # a catalog key (or its start)
        return False
    if templated and TEMPLATE_WORD.search(literal) and not CSS.match(literal):
        return True
    return bool(
        TWO_WORDS.search(literal) or CAPITALISED.search(literal) or SENTENCE.search(literal)
    )


def test_the_literal_scanner_finds_english_and_passes_keys_and_code() -> None:
    source = """// a comment with words
    const a = "It is not your turn."; const b = t("web.moves.title");
    const c = `${name}'s hand: ${t("web.x")} cards`; const d = el("div", { class: "seat" });
    const e = 'Player'; /* more words */ const f = `R${i}`; const g = `max-width: ${w}px`;"""
    found = [x for x, templated in literals(source) if english(x, templated)]
    assert found == ["It is not your turn.", "'s hand: ", " cards", "Player"]


@pytest.mark.parametrize("script", sorted(p.name for p in STATIC.glob("*.js")))
def test_no_script_writes_english_words_of_its_own(script: str) -> None:
    source = (STATIC / script).read_text(encoding="utf-8")
    found = [x for x, templated in literals(source) if english(x, templated)]
    assert found == [], found
