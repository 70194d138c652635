"""The AI levels' words: every level a hosted game offers is named in both languages in
the lobby, its select and ``/table addbot``; a level the words do not know shows its bare
name (a game's own level still works)."""

from __future__ import annotations

import catalog
from bot import games
from bot.ai_levels import (
    KNOWN_LEVELS,
    STRENGTH,
    level_choice_name,
    level_name,
    level_select_words,
)

SELECT_LIMIT = 100  # Discord's limit for a select option's label and description


def test_every_hosted_games_level_has_words() -> None:
    for played in games.all_games():
        assert set(played.game.ai_levels) <= set(KNOWN_LEVELS), played.game.name
    assert set(STRENGTH) == set(KNOWN_LEVELS)


def test_each_level_is_named_in_english_and_japanese() -> None:
    for language in ("en", "ja"):
        with catalog.speaking(language):
            names = [level_name(level) for level in KNOWN_LEVELS]
            selects = [level_select_words(level) for level in KNOWN_LEVELS]
        assert len(set(names)) == len(KNOWN_LEVELS), language
        for label, about in selects:
            assert 1 <= len(label) <= SELECT_LIMIT and about
            assert len(about) <= SELECT_LIMIT
    with catalog.speaking("ja"):
        assert level_name("expert") != "expert"
        assert level_select_words("greedy")[0] != "Fair (greedy)"


def test_the_english_lobby_names_a_level_by_its_own_name() -> None:
    with catalog.speaking("en"):
        assert [level_name(level) for level in KNOWN_LEVELS] == list(KNOWN_LEVELS)
        assert level_select_words("expert") == (
            "Strong (expert)",
            "Looks ahead, about a second a move",
        )


def test_the_addbot_choice_says_the_english_catalog_text() -> None:
    english = catalog.catalog("en")
    for level in KNOWN_LEVELS:
        assert level_choice_name(level) == english.text(f"choice.table.addbot.level.{level}")


def test_an_unknown_level_is_shown_by_its_bare_name() -> None:
    assert level_name("slow") == "slow"
    assert level_choice_name("slow") == "slow"
    assert level_select_words("slow") == ("slow", None)
