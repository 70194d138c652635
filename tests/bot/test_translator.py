"""The slash commands in Japanese (bot/translator.py): every command's, option's and
choice's text a Japanese client reads in the command picker comes from the catalog, within
Discord's limits; names are never translated; English is the code's own."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import discord
import pytest
from discord import app_commands

import catalog
from bot.client import StackBot
from bot.config import Settings
from bot.translator import CommandTranslator

JA = discord.Locale.japanese.value
MAX_DESCRIPTION = 100  # Discord's limits: a description, a choice's name
MAX_CHOICE_NAME = 100


@pytest.fixture
async def payloads(tmp_path: Path) -> AsyncIterator[list[dict[str, Any]]]:
    """The bot's real command tree (its cogs and every game's), as `stackbot sync` sends
    it: each command's payload with its localisations."""
    bot = StackBot(
        Settings(database_url=f"sqlite+aiosqlite:///{tmp_path / 'x.db'}", discord_token=None),
        sync_only=True,
        handle_signals=False,
    )
    await bot.setup_hook()
    translator = bot.tree.translator
    assert isinstance(translator, CommandTranslator)
    yield [
        await command.get_translated_payload(bot.tree, translator)
        for command in bot.tree.get_commands()
    ]
    await bot.close()


def texts(payload: dict[str, Any], path: str = "") -> list[tuple[str, dict[str, Any]]]:
    """Every command, group, option and choice of a command's payload, with where it is."""
    where = f"{path} {payload['name']}".strip()
    found = [(where, payload)]
    for option in payload.get("options", []):
        if option["type"] in (1, 2):  # a subcommand or a group of them
            found += texts(option, where)
            continue
        found.append((f"{where} {option['name']}:", option))
        found += [
            (f"{where} {option['name']}: {c['value']}", {**c, "choice": True})
            for c in option.get("choices", [])
        ]
    return found


def test_every_command_option_and_choice_reads_in_japanese(
    payloads: list[dict[str, Any]],
) -> None:
    missing = []
    count = 0
    for payload in payloads:
        for where, item in texts(payload):
            field = "name_localizations" if item.get("choice") else "description_localizations"
            count += 1
            if JA not in (item.get(field) or {}):
                missing.append(where)
    assert count > 80  # the whole tree: every cog and every game's commands
    assert missing == []


def test_the_japanese_texts_are_within_discords_limits(payloads: list[dict[str, Any]]) -> None:
    for payload in payloads:
        for where, item in texts(payload):
            if item.get("choice"):
                assert 1 <= len(item["name_localizations"][JA]) <= MAX_CHOICE_NAME, where
            else:
                assert 1 <= len(item["description_localizations"][JA]) <= MAX_DESCRIPTION, where


def test_an_options_description_names_its_choices_as_the_japanese_picker_shows_them(
    payloads: list[dict[str, Any]],
) -> None:
    """A Japanese client picks a choice by its Japanese name (スコア表, not ``sheet``): an
    option's Japanese description names a choice's value only where that choice's
    Japanese name shows it too (``random（やさしい…）``)."""
    wrong = []
    for payload in payloads:
        for where, item in texts(payload):
            if item.get("choice") or not item.get("choices"):
                continue
            described = item["description_localizations"][JA]
            for choice in item["choices"]:
                value = str(choice["value"])
                shown = choice["name_localizations"][JA]
                if value not in shown and re.search(rf"\b{re.escape(value)}\b", described):
                    wrong.append(f"{where} {value!r} (shown as {shown}): {described}")
    assert wrong == []


def test_names_are_never_translated(payloads: list[dict[str, Any]]) -> None:
    """A command is `/table new` in every language (the messages name it so); an option's
    name is what a player types."""
    for payload in payloads:
        for where, item in texts(payload):
            if not item.get("choice"):
                assert not item.get("name_localizations"), where
                assert item["name"].isascii(), where


def test_english_is_the_codes_own_and_the_english_catalog_says_the_same(
    payloads: list[dict[str, Any]],
) -> None:
    """No English localisation is sent (Discord shows the default), and the ``en`` catalog
    holds the very texts the code gives Discord, under the keys the Japanese has."""
    english = catalog.catalog("en")
    japanese = catalog.catalog("ja")
    for payload in payloads:
        for where, item in texts(payload):
            field = "name_localizations" if item.get("choice") else "description_localizations"
            shown = set(item.get(field) or {})
            assert shown == {JA}, where
    commands_keys = [k for k, f in english.files.items() if f == "commands.po"]
    assert commands_keys and all(japanese.files.get(k) == "commands.po" for k in commands_keys)


async def test_the_english_catalog_matches_each_description_of_the_code(tmp_path: Path) -> None:
    """The ``en`` catalog's text of each key is the code's English, byte for byte (a
    description changed in the code and not in the catalog is caught here)."""
    bot = StackBot(
        Settings(database_url=f"sqlite+aiosqlite:///{tmp_path / 'x.db'}", discord_token=None),
        sync_only=True,
        handle_signals=False,
    )
    await bot.setup_hook()
    seen: list[tuple[str, str]] = []

    class Recording(CommandTranslator):
        async def translate(
            self,
            string: app_commands.locale_str,
            locale: discord.Locale,
            context: app_commands.TranslationContextTypes,
        ) -> str | None:
            if locale is discord.Locale.american_english:
                key = self.key(context)
                if key is not None:
                    seen.append((key, string.message))
            return None

    recording = Recording()
    for command in bot.tree.get_commands():
        await command.get_translated_payload(bot.tree, recording)
    await bot.close()
    en = catalog.catalog("en")
    assert len(seen) > 80
    differs = [(key, text, en.text(key)) for key, text in seen if en.text(key) != text]
    assert differs == []


async def test_only_japanese_is_translated() -> None:
    translator = CommandTranslator()
    command = app_commands.Command(
        name="hint", description="What the greedy AI would play (only you see it)", callback=_hint
    )
    context = app_commands.TranslationContext(
        app_commands.TranslationContextLocation.command_description, command
    )
    text = app_commands.locale_str(command.description)
    assert await translator.translate(text, discord.Locale.american_english, context) is None
    assert await translator.translate(text, discord.Locale.french, context) is None
    with catalog.speaking("ja"):
        expected = catalog.t("command.hint.description")
    assert await translator.translate(text, discord.Locale.japanese, context) == expected
    name = app_commands.TranslationContext(
        app_commands.TranslationContextLocation.command_name, command
    )
    assert (
        await translator.translate(app_commands.locale_str("hint"), discord.Locale.japanese, name)
        is None
    )


async def _hint(interaction: discord.Interaction) -> None:
    """A command's callback (never called)."""
