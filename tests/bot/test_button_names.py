"""A reply that names a table's button names it as the button shows it: in the language
the table's buttons are drawn in (the server's), while the rest of the reply is in the
asker's language (a Japanese player on an English server presses **Start**, the button
they see, not 「開始」, which is nowhere on their screen)."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

import catalog
from bot import games
from bot.games.colorstack.views import stale as colorstack_stale
from bot.games.stack.wording import discord_words
from bot.text import buttons_in
from engine.errors import AmbiguousMoveError, IllegalMoveError, IllegalReason
from tests.bot.conftest import World, buttons_of, refused_with
from tests.bot.speakers import client_locales, forget_languages
from tests.bot.test_game import open_lobby


@pytest.fixture(autouse=True)
def fresh_languages() -> Iterator[None]:
    yield
    forget_languages()


def labels(lobby: Any) -> set[str]:
    return {str(c.get("label")) for c in buttons_of(lobby) if c.get("type") == 2}


async def test_a_japanese_player_on_an_english_server_is_told_the_buttons_english_names(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    locales = client_locales(monkeypatch)
    locales[world.alice.id] = locales[world.bob.id] = locales[world.carol.id] = "ja"
    lobby = await open_lobby(world)  # on an English server: its buttons are English
    assert {"Join", "Start", "Add AI"} <= labels(lobby)
    refused_with(
        await world.alice.slash(world.channel, "table start"),
        "スタックには2人以上が必要です。誰かが **Join** を押すのを待つか、"
        "**Add AI** を押してください。",
    )
    refused_with(
        await world.carol.slash(world.channel, "table leave"),
        "あなたはこの卓に着いていません。**Join** を押して席に着いてください。",
    )
    refused_with(
        await world.bob.slash(world.channel, "reroll", die=2),
        "ゲームはまだ始まっていません。ホストが **Start** を押します。",
    )
    joined = await world.bob.click(lobby, label="Join")
    assert joined.ephemeral
    assert (
        joined.response.content == "着席しました。全員がそろったらホストが **Start** を押します。"
    )


async def test_an_english_player_on_a_japanese_server_is_told_the_buttons_japanese_names(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    client_locales(monkeypatch)
    chosen = await world.admin.slash(world.channel, "houserules set", key="language", value="ja")
    assert chosen.ephemeral, chosen.response.content
    opened = await world.alice.slash(world.channel, "table new")
    lobby = opened.response
    assert {"参加", "開始", "AIを追加"} <= labels(lobby)
    refused_with(
        await world.alice.slash(world.channel, "table start"),
        "Stack needs at least 2 players: wait for someone to press **参加**, "
        "or press **AIを追加**.",
    )
    joined = await world.bob.click(lobby, label="参加")
    assert (
        joined.response.content == "You're in. The host presses **開始** when everyone is seated."
    )


async def test_rules_name_the_tables_private_button_as_the_table_shows_it(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    client_locales(monkeypatch)[world.alice.id] = "ja"
    for game, button in (("stackup", "**My hand**ボタン"), ("colorstack", "**My move** ")):
        rules = await world.alice.slash(world.channel, "rules", game=game)
        text = str(rules.response.content)
        assert button in text, text


def test_panel_words_name_the_table_message_buttons_as_the_table_shows_them() -> None:
    """The words of a game's panels (the asker's language) name the table message's
    button (**My turn**, **My hand**, **My move**) in its server's language."""
    placing = IllegalMoveError("", IllegalReason.PLACEMENT_PENDING, face=3)
    with catalog.speaking("ja"), buttons_in("en"):
        assert "「My turn」を押すか" in discord_words(placing)
        assert "（または**My hand**を押してください）" in games.get("stackup").chooser_text(
            None, AmbiguousMoveError("", ())
        )
        assert "最新の卓のメッセージの **My move** を押して" in colorstack_stale()
    with buttons_in("ja"):  # an English player on a Japanese server
        assert "press “自分の番”" in discord_words(placing)
        assert "(or press **手札**)" in games.get("stackup").chooser_text(
            None, AmbiguousMoveError("", ())
        )
        assert "**手を選ぶ** on the newest table message" in colorstack_stale()
