"""The languages the bot speaks on Discord (bot/language.py): each answer only its user
reads in their client's language, whatever other users do at the same moment (slash
commands, buttons, dynamic items, modals); a server's public messages in its language,
chosen with ``/houserules set key:language`` or else its preferred locale."""

from __future__ import annotations

import asyncio
import re
from collections.abc import Iterator
from typing import Any

import discord
import pytest
from discord import app_commands

import catalog
from bot.front import DISCORD
from bot.language import ServerLanguages, chosen_language, server_language, to_the_server
from tests.bot.conftest import World, make_bot
from tests.bot.speakers import client_locales, forget_languages


@pytest.fixture(autouse=True)
def fresh_languages() -> Iterator[None]:
    yield
    forget_languages()


@pytest.fixture
def locales(monkeypatch: pytest.MonkeyPatch) -> dict[int, str]:
    return client_locales(monkeypatch)


async def said(world: World, who: Any, command: str, **options: Any) -> str:
    result = await who.slash(world.channel, command, **options)
    assert result.response is not None and result.ephemeral
    return str(result.response.content)


# ---------------------------------------------------------------- a server's language


def test_a_servers_language_is_its_choice_else_its_locale_else_english() -> None:
    assert server_language("ja", "en-US") == "ja"
    assert server_language("en", discord.Locale.japanese) == "en"
    assert server_language(None, discord.Locale.japanese) == "ja"
    assert server_language(None, "fr") == "en"
    assert server_language(None, None) == "en"
    assert server_language("xx", "ja") == "ja"  # a stored code we no longer speak


def test_an_admin_may_name_a_language_by_its_code_or_its_own_name() -> None:
    for typed, language in [("ja", "ja"), (" JA ", "ja"), ("日本語", "ja"), ("ja-JP", "ja")]:
        assert chosen_language(typed) == language
    assert chosen_language("English") == "en"
    assert chosen_language("en-GB") == "en"
    for typed in ("", "fr", "Japanese", "-", "jp"):
        assert chosen_language(typed) is None


def test_a_chosen_language_is_kept_over_the_servers_locale() -> None:
    front = type(DISCORD)()
    languages = ServerLanguages(front)
    languages.load({1: "ja", 2: "xx"})
    languages.seen(1, "en-US")  # its locale does not replace its choice
    languages.seen(2, "fr")
    languages.seen(3, "ja")
    assert front.languages == {1: "ja", 2: "en", 3: "ja"}
    assert languages.choose(3, "en", "ja") == "en"
    languages.seen(3, "ja")
    assert front.language(3) == "en"
    assert languages.choose(3, None, "ja") == "ja"  # back to its locale's
    languages.forget(1)
    assert front.language(1) == "en" and 1 not in languages.chosen
    assert front.language(None) == "en"


def test_a_public_message_is_said_in_the_servers_language_whoever_asked() -> None:
    DISCORD.languages[7] = "ja"
    with catalog.speaking("en"):  # an English user's interaction
        with to_the_server(7):
            assert catalog.t("language.name") == "日本語"
        with to_the_server(8):  # a server the bot knows nothing of: English
            assert catalog.t("language.name") == "English"
        with to_the_server(None):  # not in a server
            assert catalog.current() == "en"


async def test_a_server_chooses_its_language_with_houserules(
    world: World, locales: dict[int, str]
) -> None:
    done = await said(world, world.admin, "houserules set", key="language", value="ja")
    assert done.startswith("`language` is now `ja` (日本語) on this server:")
    assert DISCORD.language(world.guild.id) == "ja"
    store = world.bot.tables.store
    assert (await store.guild_settings(world.guild.id)).language == "ja"
    shown = await said(world, world.admin, "houserules show")
    assert "\n`language` = `ja` (日本語) (server: the tables' messages)" in shown
    # the admin's own answers stay in their client's language; a Japanese admin reads
    # Japanese whatever the server's language
    locales[world.admin.id] = "ja"
    back = await said(world, world.admin, "houserules set", key="language", value="English")
    assert back.startswith("このサーバーの `language` を `en`（English）にしました。")
    assert DISCORD.language(world.guild.id) == "en"
    assert await store.guild_languages() == {world.guild.id: "en"}


async def test_a_language_the_bot_does_not_speak_is_refused_and_changes_nothing(
    world: World, locales: dict[int, str]
) -> None:
    before = DISCORD.language(world.guild.id)
    refused = await said(world, world.admin, "houserules set", key="language", value="klingon")
    assert refused == (
        "`language` is `en` (English), `ja` (日本語) or `auto` (the server's locale), "
        "not 'klingon'."
    )
    locales[world.admin.id] = "ja"
    refused = await said(world, world.admin, "houserules set", key="language", value="fr")
    assert (
        refused == "`language` に「fr」は使えません。`en`（English）、`ja`（日本語）または"
        "`auto`（サーバーの地域設定）から選んでください。"
    )
    here = await said(world, world.admin, "houserules set", key="language", value="ja", here=True)
    assert "`here`" in here
    assert DISCORD.language(world.guild.id) == before
    assert (await world.bot.tables.store.guild_settings(world.guild.id)).language is None


async def test_the_language_key_is_offered_with_its_meaning_in_the_users_language(
    world: World, locales: dict[int, str]
) -> None:
    def line(choices: list[dict[str, Any]]) -> str:
        return next(c["name"] for c in choices if c["value"] == "language")

    offered = await world.admin.autocomplete(world.channel, "houserules set", "key", "lang")
    assert line(offered) == (
        "language · the language of the server's messages: en, ja or auto (every game, server)"
    )  # auto: back to the server's locale, the one way to undo a choice
    locales[world.admin.id] = "ja"
    offered = await world.admin.autocomplete(world.channel, "houserules set", "key", "lang")
    assert line(offered) == (
        "language · サーバーのメッセージの言語：en、ja、または地域設定に従う auto（全ゲーム共通・サーバー単位）"
    )


async def test_a_server_without_a_choice_speaks_its_preferred_locale(
    world: World, locales: dict[int, str]
) -> None:
    japanese = world.env.create_guild("将棋部", preferred_locale="ja")
    french = world.env.create_guild("club", preferred_locale="fr")
    await world.env.settle()
    assert DISCORD.language(japanese.id) == "ja"  # learnt as the bot joins it
    assert DISCORD.language(french.id) == "en"
    # and from an interaction's guild_locale (a server the bot saw before its locale changed)
    DISCORD.languages.pop(japanese.id)
    channel = japanese.create_text_channel("stack")
    member = japanese.add_member(world.env.create_user("hana"))
    await member.slash(channel, "rules")
    assert DISCORD.language(japanese.id) == "ja"


async def test_a_chosen_language_outweighs_the_locale_interactions_carry(
    world: World, locales: dict[int, str]
) -> None:
    japanese = world.env.create_guild("将棋部", preferred_locale="ja")
    channel = japanese.create_text_channel("stack")
    admins = japanese.create_role("Admins", permissions=discord.Permissions(manage_guild=True))
    admin = japanese.add_member(world.env.create_user("kenji"), roles=[admins])
    await admin.slash(channel, "houserules set", key="language", value="en")
    await admin.slash(channel, "rules")  # guild_locale ja
    assert DISCORD.language(japanese.id) == "en"
    # auto: the choice undone, the server's locale's language again (as before any choice)
    auto = await admin.slash(channel, "houserules set", key="language", value="AUTO")
    assert auto.ephemeral and auto.response.content.startswith(
        "`language` now follows the server's locale: `ja` (日本語)."
    ), auto.response.content
    store = world.bot.tables.store
    assert (await store.guild_settings(japanese.id)).language is None
    assert japanese.id not in await store.guild_languages()
    assert DISCORD.language(japanese.id) == "ja"
    shown = await admin.slash(channel, "houserules show")
    assert "; from the server's locale)" in shown.response.content


async def test_the_chosen_languages_are_read_back_at_start_up(world: World) -> None:
    await said(world, world.admin, "houserules set", key="language", value="ja")
    DISCORD.languages.clear()  # a new process knows nothing yet
    new_bot = make_bot(world.db, seed=99)
    await world.env.restart_bot(new_bot)
    world.bot = new_bot
    assert DISCORD.language(world.guild.id) == "ja"
    assert new_bot.languages.chosen == {world.guild.id: "ja"}


# ------------------------------------------------- each user's language, concurrently


class Meeting:
    """Two interactions' callbacks meet here: the first waits for the second, so both
    are under way at once; each notes the language it runs in before and after."""

    def __init__(self) -> None:
        self.heard: list[tuple[str, str]] = []
        self.arrived = 0
        self.both = asyncio.Event()

    async def meet(self, interaction: discord.Interaction) -> None:
        who = interaction.user.name
        self.heard.append((who, catalog.current()))
        self.arrived += 1
        if self.arrived == 1:
            await self.both.wait()
        else:
            self.both.set()
        await asyncio.sleep(0)
        self.heard.append((who, catalog.current()))
        await interaction.response.send_message(catalog.t("language.name"), ephemeral=True)


MEETINGS: list[Meeting] = []


class Knock(discord.ui.DynamicItem[discord.ui.Button[Any]], template=r"lang-knock:(?P<n>\d+)"):
    def __init__(self, n: int) -> None:
        super().__init__(discord.ui.Button(label="knock", custom_id=f"lang-knock:{n}"))

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> Knock:
        return cls(int(match["n"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        await MEETINGS[-1].meet(interaction)


class Form(discord.ui.Modal, title="form"):
    word: discord.ui.TextInput[Any] = discord.ui.TextInput(label="word", custom_id="word")

    async def on_submit(self, interaction: discord.Interaction) -> None:
        await MEETINGS[-1].meet(interaction)


class Door(discord.ui.View):
    def __init__(self) -> None:
        super().__init__(timeout=None)
        self.add_item(Knock(1))

    @discord.ui.button(label="ring", custom_id="lang-ring")
    async def ring(self, interaction: discord.Interaction, button: discord.ui.Button[Any]) -> None:
        await MEETINGS[-1].meet(interaction)

    @discord.ui.button(label="form", custom_id="lang-form")
    async def form(self, interaction: discord.Interaction, button: discord.ui.Button[Any]) -> None:
        await interaction.response.send_modal(Form())


@pytest.fixture
async def door(world: World) -> discord.Message:
    """A test command (``/meet``), a message with a button, a dynamic item and a button
    opening a modal, on the real bot (its tree, its interaction check, its hook)."""

    async def meet(interaction: discord.Interaction) -> None:
        await MEETINGS[-1].meet(interaction)

    world.bot.tree.add_command(app_commands.Command(name="meet", description="meet", callback=meet))
    world.bot.add_dynamic_items(Knock)
    await world.bot.tree.sync()
    channel = world.bot.get_channel(world.channel.id)
    assert isinstance(channel, discord.TextChannel)
    sent = await channel.send("door", view=Door())
    await world.env.settle()
    return sent


async def at_once(world: World, first: Any, second: Any) -> Meeting:
    """``first()`` and ``second()`` (each one user's interaction), both under way at once:
    the first's is dispatched but not waited for until the second's is."""
    meeting = Meeting()
    MEETINGS.append(meeting)
    settle = world.env._settle_internal

    async def later(**_: Any) -> None:
        return None

    world.env._settle_internal = later  # type: ignore[method-assign]
    try:
        await first()
    finally:
        world.env._settle_internal = settle  # type: ignore[method-assign]
    await second()
    return meeting


def heard_apart(meeting: Meeting, world: World) -> None:
    """Both were under way at once, and each ran in its own user's language all along."""
    alice, bob = world.alice.name, world.bob.name
    assert [who for who, _ in meeting.heard] == [alice, bob, bob, alice]  # interleaved
    assert [language for who, language in meeting.heard if who == alice] == ["ja", "ja"]
    assert [language for who, language in meeting.heard if who == bob] == ["en", "en"]


async def test_concurrent_users_each_read_their_own_language_in_a_command(
    world: World, door: discord.Message, locales: dict[int, str]
) -> None:
    locales[world.alice.id] = "ja"
    results: list[Any] = []

    async def alice() -> None:
        results.append(await world.alice.slash(world.channel, "meet"))

    async def bob() -> None:
        results.append(await world.bob.slash(world.channel, "meet"))

    heard_apart(await at_once(world, alice, bob), world)
    assert [r.response.content for r in results] == ["日本語", "English"]
    assert catalog.current() == "en"  # the test's (and the gateway's) own context untouched


@pytest.mark.parametrize("label", ["ring", "knock"])
async def test_concurrent_users_each_read_their_own_language_on_a_button(
    world: World, door: discord.Message, locales: dict[int, str], label: str
) -> None:
    """A view's button, and a dynamic item (found by its custom id's template)."""
    locales[world.alice.id] = "ja"
    message = next(m for m in world.channel.history() if m.id == door.id)
    results: list[Any] = []

    async def alice() -> None:
        results.append(await world.alice.click(message, label=label))

    async def bob() -> None:
        results.append(await world.bob.click(message, label=label))

    heard_apart(await at_once(world, alice, bob), world)
    assert [r.response.content for r in results] == ["日本語", "English"]


async def test_concurrent_users_each_read_their_own_language_in_a_modal(
    world: World, door: discord.Message, locales: dict[int, str]
) -> None:
    locales[world.alice.id] = "ja"
    message = next(m for m in world.channel.history() if m.id == door.id)
    shown = {who: await who.click(message, label="form") for who in (world.alice, world.bob)}
    results: list[Any] = []

    async def alice() -> None:
        results.append(await world.alice.submit_modal(shown[world.alice], {"word": "x"}))

    async def bob() -> None:
        results.append(await world.bob.submit_modal(shown[world.bob], {"word": "y"}))

    heard_apart(await at_once(world, alice, bob), world)
    assert [r.response.content for r in results] == ["日本語", "English"]


async def test_houserules_show_tells_a_language_not_chosen_comes_from_the_servers_locale(
    world: World, locales: dict[int, str]
) -> None:
    shown = await said(world, world.admin, "houserules show")
    assert shown.endswith(
        "\n`language` = `en` (English) (server: the tables' messages; from the server's locale)"
    )
    locales[world.admin.id] = "ja"
    shown = await said(world, world.admin, "houserules show")
    assert shown.endswith(
        "`language` = `en`（English）（サーバー：卓のメッセージの言語。サーバーの地域設定から）"
    )
