"""The message catalog: every key in every language, with the same placeholders and
plural forms; the look-up, the plural rules, the ambient language and display widths."""

from __future__ import annotations

import asyncio
import re
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

import catalog
from catalog import LANGUAGES, LOCALES, placeholders


def _domains(language: str) -> set[str]:
    return {p.stem for p in (LOCALES / language / "LC_MESSAGES").glob("*.po")}


def _read(language: str, domain: str):  # type: ignore[no-untyped-def]
    with (LOCALES / language / "LC_MESSAGES" / f"{domain}.po").open("rb") as f:
        return read_po(f, locale=language, domain=domain)


def _forms(value: str | tuple[str, ...]) -> tuple[str, ...]:
    return value if isinstance(value, tuple) else (value,)


def _union(value: str | tuple[str, ...]) -> frozenset[str]:
    return frozenset().union(*(placeholders(form) for form in _forms(value)))


def test_every_language_has_the_same_domain_files() -> None:
    english = _domains("en")
    assert "core" in english
    for language in LANGUAGES:
        assert _domains(language) == english, language


@pytest.mark.parametrize("language", [lang for lang in LANGUAGES if lang != "en"])
def test_every_catalog_key_exists_in_every_language_in_the_same_file(language: str) -> None:
    english, other = catalog.catalog("en"), catalog.catalog(language)
    missing = sorted(set(english.texts) - set(other.texts))
    extra = sorted(set(other.texts) - set(english.texts))
    assert not missing, f"keys not in {language}: {missing[:20]}"
    assert not extra, f"keys only in {language}: {extra[:20]}"
    moved = [k for k in english.texts if english.files[k] != other.files[k]]
    assert not moved, f"keys in another file in {language}: {moved[:20]}"


@pytest.mark.parametrize("language", LANGUAGES)
def test_no_message_is_empty_or_fuzzy(language: str) -> None:
    for domain in _domains(language):
        for message in _read(language, domain):
            if not message.id:
                continue
            key = message.id[0] if isinstance(message.id, tuple) else message.id
            assert not message.fuzzy, f"{language}/{domain}: {key} is marked fuzzy"
            assert all(_forms(message.string)), f"{language}/{domain}: {key} is empty"


@pytest.mark.parametrize("language", [lang for lang in LANGUAGES if lang != "en"])
def test_every_message_has_the_same_placeholders_in_every_language(language: str) -> None:
    english, other = catalog.catalog("en"), catalog.catalog(language)
    wrong = []
    for key, text in english.texts.items():
        theirs = other.texts.get(key)
        if theirs is None:
            continue
        if isinstance(text, tuple) != isinstance(theirs, tuple):
            wrong.append(f"{key}: plural in one language only")
        elif _union(text) != _union(theirs):
            wrong.append(f"{key}: {sorted(_union(text))} != {sorted(_union(theirs))}")
    assert not wrong, "\n".join(wrong[:30])


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_message_formats_with_its_own_placeholders(language: str) -> None:
    for _key, text in catalog.catalog(language).texts.items():
        facts = {name: 2 for name in _union(text)}
        for form in _forms(text):
            form.format_map({**facts, "count": 2})  # a stray brace would raise here


@pytest.mark.parametrize("language", LANGUAGES)
def test_every_message_begins_and_ends_with_a_newline_only_if_its_key_does(
    language: str,
) -> None:
    """What msgfmt --check asks of every entry (a message's layout is the code's, not a
    newline the key does not show): checked with Babel, as CI may have no gettext."""
    wrong = []
    for domain in _domains(language):
        for message in _read(language, domain):
            if not message.id:
                continue
            for key in _forms(message.id):
                for text in _forms(message.string):
                    if key.startswith("\n") != text.startswith("\n"):
                        wrong.append(f"{domain}.po:{message.lineno}: {key} begins differently")
                    if key.endswith("\n") != text.endswith("\n"):
                        wrong.append(f"{domain}.po:{message.lineno}: {key} ends differently")
    assert not wrong, f"{language}:\n" + "\n".join(wrong)


def test_japanese_quotes_in_corner_brackets_never_in_ascii_quotes() -> None:
    """Japanese quotes a word or a name in 「…」. The one exception is text in `…`: what
    the user types (`stack 3 on "bob 2"`), kept as typed, quotes and all."""
    wrong = []
    for domain in _domains("ja"):
        for message in _read("ja", domain):
            if not message.id:
                continue
            key = _forms(message.id)[0]
            for text in _forms(message.string):
                said = re.sub(r"`[^`]*`", "", text)  # typed by the user: as typed
                if re.search(r"['\"]|![rs]}", said):  # ASCII quotes, or Python's repr
                    wrong.append(f"{domain}.po:{message.lineno}: {key}: {text}")
    assert not wrong, "\n".join(wrong)


def test_plural_forms_follow_each_language() -> None:
    assert catalog.n("duration.minutes", 1) == "a minute"
    assert catalog.n("duration.minutes", 2) == "2 minutes"
    with catalog.speaking("ja"):
        assert catalog.n("duration.minutes", 1) == "1分"
        assert catalog.n("duration.minutes", 2) == "2分"


def test_the_language_is_ambient_and_each_task_keeps_its_own() -> None:
    async def say(language: str) -> str:
        with catalog.speaking(language):
            await asyncio.sleep(0)
            return catalog.t("language.name")

    async def both() -> list[str]:
        return list(await asyncio.gather(say("ja"), say("en"), say("ja")))

    assert asyncio.run(both()) == ["日本語", "English", "日本語"]
    assert catalog.current() == "en"


def test_an_unknown_key_is_an_error_and_a_missing_fact_names_itself() -> None:
    with pytest.raises(KeyError):
        catalog.t("no.such.key")
    with pytest.raises(TypeError, match=r"n\(\)"):
        catalog.t("duration.minutes")  # plural messages go through n()
    with pytest.raises(TypeError, match=r"t\(\)"):
        catalog.n("language.name", 2)


def test_locales_map_to_the_languages_we_speak() -> None:
    assert catalog.language_of("ja") == "ja"
    assert catalog.language_of("ja_JP.UTF-8") == "ja"
    assert catalog.language_of("en-US") == "en"
    assert catalog.language_of("fr") == "en"
    assert catalog.language_of(None) == "en"
    with pytest.raises(ValueError), catalog.speaking("fr"):
        pass


def test_lists_are_joined_in_each_language() -> None:
    assert catalog.join(["a", "b", "c"]) == "a, b and c"
    with catalog.speaking("ja"):
        assert catalog.join(["a", "b", "c"]) == "a、b、c"


def test_the_catalog_files_are_package_data() -> None:
    text = Path("pyproject.toml").read_text()
    assert '"locales/*/LC_MESSAGES/*.po"' in text


def test_warming_reads_every_language_once_so_no_word_pays_for_the_files() -> None:
    catalog.catalog.cache_clear()
    catalog.warm()
    assert catalog.catalog.cache_info().currsize == len(catalog.LANGUAGES)
    before = catalog.catalog.cache_info().hits
    catalog.warm()  # a second warm-up reads nothing again
    assert catalog.catalog.cache_info().currsize == len(catalog.LANGUAGES)
    assert catalog.catalog.cache_info().hits == before + len(catalog.LANGUAGES)


def test_isolate_outside_isolates_each_match_outside_the_isolates_already_there() -> None:

    name = "שלום"
    pattern = re.compile(re.escape(name))
    iso = catalog.isolate(name)
    assert iso != name
    said = f"snatch {name} 2, then {iso} again"
    assert catalog.isolate_outside(said, pattern) == f"snatch {iso} 2, then {iso} again"
    lri = f"\u2066{name}{catalog.PDI} {name}"  # any isolate (LRI too) is left as it is
    assert catalog.isolate_outside(lri, pattern) == f"\u2066{name}{catalog.PDI} {iso}"
    left_open = f"{name} {catalog.FSI}{name}"  # an isolate left open at the end: as it is
    assert catalog.isolate_outside(left_open, pattern) == f"{iso} {catalog.FSI}{name}"
    assert catalog.isolate_outside("plain words", pattern) == "plain words"
