"""The slash commands in Japanese: an :class:`app_commands.Translator` reading the
``commands`` domain of the catalog.

Discord shows a command's description, its options' descriptions and its choices' names
in the user's client language when the command is synced with their localisations; this
translator gives Discord's ``ja`` locale (:attr:`discord.Locale.japanese`) those texts,
each from a key derived from where it shows:

* ``command.<command path>.description``: a command's or a group's
  (``command.table.new.description``, ``command.table.description``);
* ``option.<command path>.<option>.description`` (``option.table.new.game.description``);
* ``choice.<command path>.<option>.<value>`` (``choice.table.new.game.stack``).

The English is the code's own (the decorators' descriptions and the choices' names), and
the ``en`` catalog holds the same texts under the same keys: for English this translator
says nothing (``None``: Discord then shows the default).

**Command, group and option names are never translated**; they stay the ASCII English they
are. Every message names a command as ``/table new`` in both languages, a table's public
messages are read at once by clients of both languages (a Japanese name in one client
would not match the ``/table new`` the text names), and what a player types (``c1-e3``,
``stack 3 on bob``, option values) is notation, the same in every language.
"""

from __future__ import annotations

from typing import Any

import discord
from discord import app_commands
from discord.app_commands import TranslationContextLocation as Where

import catalog

# Discord's locales this translator speaks, as the catalog's languages
SPOKEN = {discord.Locale.japanese: "ja"}


def command_path(command: Any) -> str:
    """A command's or group's path as a key's part: ``table new`` -> ``table.new``."""
    return ".".join(str(command.qualified_name).split())


def command_key(command: Any) -> str:
    return f"command.{command_path(command)}.description"


def option_key(command: Any, option: str) -> str:
    return f"option.{command_path(command)}.{option}.description"


def choice_key(command: Any, option: str, value: object) -> str:
    return f"choice.{command_path(command)}.{option}.{value}"


class CommandTranslator(app_commands.Translator):
    """Descriptions and choice names from the catalog's ``commands`` domain (see the
    module's text); names are not translated.

    discord.py gives a choice's translation no word of the option it belongs to, but
    translates an option's description (which names its command) just before its
    choices: the option's choices are noted then, with their keys."""

    def __init__(self) -> None:
        self._choices: dict[int, tuple[app_commands.Choice[Any], str]] = {}

    async def translate(
        self,
        string: app_commands.locale_str,
        locale: discord.Locale,
        context: app_commands.TranslationContextTypes,
    ) -> str | None:
        language = SPOKEN.get(locale)
        if language is None:
            return None  # English (and the locales we do not speak): the code's own text
        key = self.key(context)
        if key is None:
            return None
        found = catalog.catalog(language).text(key)
        return found if isinstance(found, str) and found else None

    def key(self, context: app_commands.TranslationContextTypes) -> str | None:
        """The catalog key of what ``context`` is (``None``: a name, never translated)."""
        where, data = context.location, context.data
        if where in (Where.command_description, Where.group_description):
            return command_key(data)
        if where is Where.parameter_description and isinstance(data, app_commands.Parameter):
            for choice in data.choices:
                key = choice_key(data.command, data.name, choice.value)
                self._choices[id(choice)] = (choice, key)
            return option_key(data.command, data.name)
        if where is Where.choice_name:
            noted = self._choices.get(id(data))
            if noted is not None and noted[0] is data:
                return noted[1]
        return None
