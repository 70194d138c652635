"""A table speaks its server's language (issue 21): everything said to the channel — the
table message (lobby and game), its buttons and picture, what the outbox delivers — is in
the language of the table's server, whoever's click or command caused it; what is said to
one user alone (a refusal) is in that user's language. Two servers of different languages
each get their own, at the same time."""

from __future__ import annotations

import asyncio
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from types import SimpleNamespace
from typing import Any

import pytest
import simcord.interactions

import catalog
from bot.front import DISCORD
from bot.language import ServerLanguages
from bot.outbox import DiscordCourier
from engine.game import Decision
from persistence.records import OutboxItem
from tests.bot.conftest import World, buttons_of, choose_colours, message, table_text_of
from tests.bot.test_channel import quick_game
from tests.bot.test_game import tap

LOBBY_JA = ["参加", "退席", "AIを追加", "開始", "強さを選んでAIを追加…"]
LOBBY_EN = ["Join", "Leave", "Add AI", "Start", "Add an AI player of a level…"]


class Chosen(dict[int, str]):
    """The servers' languages as the bot knows them (guild id -> language); those a test
    sets are the servers' own choices (``/houserules set key:language``), which the
    locale an interaction shows never replaces."""

    def __init__(self) -> None:
        super().__init__()
        self.by_admins: set[int] = set()

    def choose(self, guild_id: int, language: str) -> None:
        self.by_admins.add(guild_id)
        self[guild_id] = language


@pytest.fixture
def languages(monkeypatch: pytest.MonkeyPatch) -> Iterator[Chosen]:
    """The servers' languages: empty, and forgotten after the test."""
    chosen = Chosen()
    monkeypatch.setattr(DISCORD, "languages", chosen)
    seen = ServerLanguages.seen

    def seen_unless_chosen(self: ServerLanguages, guild_id: int, locale: object) -> None:
        if guild_id not in chosen.by_admins:
            seen(self, guild_id, locale)

    monkeypatch.setattr(ServerLanguages, "seen", seen_unless_chosen)
    yield chosen


@pytest.fixture
def client_locales(monkeypatch: pytest.MonkeyPatch) -> dict[int, str]:
    """Each user's Discord client locale (user id -> ``"ja"``…), sent with their
    interactions (simcord sends ``en-US`` for everyone)."""
    locales: dict[int, str] = {}
    made = simcord.interactions.base_payload

    def with_locale(backend: Any, **kwargs: Any) -> tuple[Any, dict[str, Any]]:
        record, payload = made(backend, **kwargs)
        payload["locale"] = locales.get(kwargs["user_id"], payload["locale"])
        return record, payload

    monkeypatch.setattr(simcord.interactions, "base_payload", with_locale)
    return locales


async def as_user(locales: dict[int, str], actor: Any, action: Any) -> Any:
    """``action`` (an awaitable of ``actor``'s interaction) in the language of the actor's
    client: what the bot's entry sets for every interaction (from ``interaction.locale``)."""
    with catalog.speaking(catalog.language_of(locales.get(actor.id))):
        return await action


def title(language: str) -> str:
    """Color Stack's name as the players of ``language`` read it."""
    from bot import games

    with catalog.speaking(language):
        return games.get("colorstack").title


def labels(message: Any) -> list[str]:
    """Its buttons' labels and its selects' placeholders."""
    return [str(b.get("label") or b.get("placeholder")) for b in buttons_of(message)]


def panel_button(message: Any) -> str:
    return next(b["custom_id"] for b in buttons_of(message) if b["custom_id"].startswith("panel:"))


async def test_a_japanese_servers_lobby_reads_in_japanese_and_each_refusal_in_its_users_language(
    world: World, languages: Chosen, client_locales: dict[int, str]
) -> None:
    languages.choose(world.guild.id, "ja")
    client_locales[world.carol.id] = "ja"
    # alice's client is English; the table message is the channel's: Japanese
    opened = await as_user(
        client_locales,
        world.alice,
        world.alice.slash(world.channel, "table new", game="colorstack"),
    )
    lobby = opened.response
    text = table_text_of(lobby)
    assert text.startswith(f"**{title('ja')}** の卓 — ロビー")
    assert f"{world.alice.mention} — ホスト" in text and "1/2人が着席。" in text
    assert labels(lobby) == LOBBY_JA
    joined = await as_user(client_locales, world.bob, world.bob.click(lobby, label="参加"))
    assert joined.ephemeral and joined.response.content.startswith("You're in.")
    assert "2/2人が着席。" in table_text_of(message(world, lobby.id))
    # the same refusal, to an English and to a Japanese client
    english = await as_user(client_locales, world.bob, world.bob.click(lobby, label="開始"))
    assert english.response.content == "Only the host can start the game."
    japanese = await as_user(client_locales, world.carol, world.carol.click(lobby, label="開始"))
    assert (
        japanese.ephemeral and japanese.response.content == "ゲームを始められるのはホストだけです。"
    )
    # the lobby left by everyone: its last edit, in the server's language
    for player in (world.bob, world.alice):
        await as_user(client_locales, player, player.click(lobby, label="退席"))
    closed = table_text_of(message(world, lobby.id))
    assert closed == f"この{title('ja')}の卓は閉じました。`/table new` で新しい卓を開けます。"
    assert not buttons_of(message(world, lobby.id))


async def test_a_japanese_servers_running_game_is_said_and_drawn_in_japanese(
    world: World, languages: Chosen, client_locales: dict[int, str]
) -> None:
    languages.choose(world.guild.id, "ja")
    client_locales[world.carol.id] = "ja"
    opened = await world.alice.slash(world.channel, "table new", game="colorstack")
    lobby = opened.response
    await world.bob.click(lobby, label="参加")
    await world.alice.click(lobby, label="開始")
    await choose_colours(world)
    live = world.bot.tables.service.by_channel[world.channel.id]
    shown = message(world, world.bot.tables.messages[live.id].message_id or 0)
    head = table_text_of(shown).split("\n")[0]
    assert head.startswith("▶ <@") and "さん、あなたの番です" in head, head
    # its picture is drawn in Japanese, and cached as such
    record = world.bot.tables.messages[live.id]
    assert record.picture is not None and record.picture[0].language == "ja"
    # a Japanese member who does not play is refused in Japanese; an English one in English
    private = panel_button(shown)
    refused = await as_user(
        client_locales, world.carol, world.carol.click(shown, custom_id=private)
    )
    assert refused.ephemeral
    assert (
        refused.response.content
        == "この卓のゲームには参加していません。次のゲームから参加してください。"
    )
    admin = await as_user(client_locales, world.admin, world.admin.click(shown, custom_id=private))
    assert admin.response.content == "You're not playing at this table; join the next game."


async def test_two_servers_of_different_languages_each_get_their_own_at_the_same_time(
    world: World, languages: Chosen
) -> None:
    other = world.env.create_guild()
    channel = other.create_text_channel("stack")
    dan, eve = (other.add_member(world.env.create_user(name)) for name in ("dan", "eve"))
    languages.choose(world.guild.id, "ja")
    languages.choose(other.id, "en")
    # both tables live at once, their steps interleaved
    ja = (await world.alice.slash(world.channel, "table new", game="colorstack")).response
    en = (await dan.slash(channel, "table new", game="colorstack")).response
    assert labels(ja) == LOBBY_JA and labels(en) == LOBBY_EN
    assert "の卓 — ロビー" in table_text_of(ja)
    assert f"**{title('en')}** table — lobby" in table_text_of(en)
    await world.bob.click(ja, label="参加")
    await eve.click(en, label="Join")
    await world.alice.click(ja, label="開始")
    await dan.click(en, label="Start")
    await choose_colours(world)
    await choose_colours(world, dan, eve, channel=channel)
    tables = world.bot.tables
    lives = [tables.service.by_channel[c.id] for c in (world.channel, channel)]
    pictures = [tables.messages[live.id].picture for live in lives]
    assert [p[0].language if p else None for p in pictures] == ["ja", "en"]
    # both table messages composed concurrently: each in its own server's language
    payloads = await asyncio.gather(*(tables.table_messages.payload(live) for live in lives))
    heads = [p["view"].to_components()[0]["components"][0]["content"] for p in payloads]
    assert "あなたの番です" in heads[0] and "it's your turn" in heads[1], heads
    assert catalog.current() == catalog.DEFAULT  # nothing leaked into the caller


@dataclass
class Channel:
    said: list[tuple[str, str]] = field(default_factory=list)

    async def send(self, content: str, **kwargs: Any) -> Any:
        self.said.append((catalog.current(), content))
        return SimpleNamespace(id=len(self.said))  # the message posted, as Discord's


@dataclass
class Courier:
    """What :class:`~bot.outbox.DiscordCourier` uses of the bot's tables, recording the
    language each round's buttons are built in."""

    channels: dict[int, Channel] = field(default_factory=dict)
    buttons: list[str] = field(default_factory=list)

    @property
    def store(self) -> Any:
        courier = self

        class Store:
            async def table(self, table_id: int) -> Any:
                return courier

        return Store()

    @property
    def game(self) -> str:
        return "stack"

    @property
    def budget(self) -> Any:
        class Budget:
            async def acquire(self, channel_id: int, count: int = 1) -> None:
                return None

        return Budget()

    def channel(self, channel_id: int) -> Channel:
        return self.channels.setdefault(channel_id, Channel())

    def is_gone(self, table_id: int) -> bool:
        return False

    def is_channel_gone(self, channel_id: int) -> bool:
        return False


async def test_the_outbox_delivers_each_table_in_its_servers_language(
    languages: Chosen, monkeypatch: pytest.MonkeyPatch
) -> None:
    import bot.outbox

    host = Courier()

    class Game:
        def round_view(self, table_id: int, round_no: int) -> None:
            host.buttons.append(catalog.current())

    monkeypatch.setattr(bot.outbox.games, "get", lambda name: Game())
    languages.choose(10, "ja")
    now = datetime(2026, 1, 1, tzinfo=UTC)
    courier = DiscordCourier(host)  # type: ignore[arg-type]
    for item_id, guild in ((1, 10), (2, 20)):
        item = OutboxItem(item_id, item_id, guild, "round", "R1", now, round_no=1, guild_id=guild)
        assert await courier.send(item)
    assert host.buttons == ["ja", "en"]
    assert host.channels[10].said == [("ja", "R1")] and host.channels[20].said == [("en", "R1")]


async def test_a_table_whose_game_does_not_read_back_is_closed_in_its_servers_language(
    world: World, languages: Chosen
) -> None:
    languages.choose(world.guild.id, "ja")
    await world.alice.slash(world.channel, "table new", game="colorstack")
    live = world.bot.tables.service.by_channel[world.channel.id]
    await world.bot.tables.service._quarantine(live.info, "a damaged log")  # as at a restart
    said = [item.content for item in await world.bot.store.pending_outbox(live.id)]
    start = f"この{title('ja')}の卓は、保存されたゲームを"
    assert any(text.startswith(start) for text in said), said


def test_the_defaults_every_game_inherits_read_in_the_language_being_spoken() -> None:
    from bot import games
    from bot.games.base import DiscordGame, PrivateButton, draw_words
    from bot.views import table_layout
    from persistence.records import PlayerStats

    class Plain(DiscordGame):
        """A game on Discord with nothing of its own but its engine."""

        game = games.get("colorstack").game

    game = Plain()
    stats = PlayerStats(user_id=1, name="ann", games=3, wins=1, points=1, best_round=0, captures=0)
    settings = game.settings_of({})
    button = PrivateButton("discord.button.my_turn", "🎲")

    def said() -> list[str]:
        layout = table_layout(1, 2, head="h", field="f", accent=None, picture=None, playing=True)
        keyed = table_layout(
            1, 2, head="h", field="f", accent=None, picture=None, playing=True, private=button
        )
        return [
            draw_words("repetition"),
            draw_words("turn_limit", 300),
            game.stats_text("ann", stats),
            game.stats_text("ann", None),
            game.settings_text(settings, channel=True).split("\n")[0],
            *(
                b["label"]
                for view in (layout, keyed)
                for b in view.to_components()[0]["components"][-1]["components"]
            ),
        ]

    assert said() == [
        "Draw by threefold repetition",
        "Draw: the turn limit (300 turns) was reached",
        "**ann** — Color Stack: 3 games, 1 win (33%)",
        "**ann** has not finished a game of Color Stack here yet.",
        "**Color Stack house rules for this channel**",
        "My turn",
        "My turn",
    ]
    with catalog.speaking("ja"):
        assert said() == [
            "同じ局面が3回現れたため引き分け",
            "引き分け：手数の上限（300手）に達しました",
            "**ann** — カラースタック：3戦、1勝（勝率33%）",
            "**ann**はここでカラースタックのゲームをまだ最後まで終えていません。",
            "**このチャンネルのカラースタックのハウスルール**",
            "自分の番",
            "自分の番",
        ]


async def test_leaving_or_kicking_is_confirmed_in_the_askers_language(
    world: World, languages: Chosen, client_locales: dict[int, str]
) -> None:
    """An English server, a Japanese host: what only the one who left or kicked reads is in
    their language; what the channel reads stays in the server's."""
    client_locales[world.carol.id] = "ja"
    opened = await world.carol.slash(world.channel, "table new")
    lobby = opened.response
    for player in (world.alice, world.bob):
        await player.click(lobby, label="Join")
    kicked = await world.carol.slash(world.channel, "table kick", player=world.bob)
    assert kicked.ephemeral and kicked.response.content == "bobはホストによって外されました。"
    left = await world.alice.click(lobby, label="Leave")
    assert left.response.content == "alice left."
    await world.alice.click(lobby, label="Join")
    await world.carol.click(lobby, label="Start")
    gone = await world.carol.slash(world.channel, "table leave")
    assert gone.ephemeral and gone.response.content == (
        "carolが抜けました。その席はこれからAIが代わりに打ちます。これからはaliceがホストです。"
    )
    await world.env.settle()
    told = [m.content for m in world.channel.history() if m.content.startswith("carol")]
    assert told == ["carol left; an AI plays their seat from now on. alice is the host now."]


async def test_a_move_is_confirmed_in_the_movers_language_and_told_the_table_in_its_own(
    world: World, languages: Chosen, client_locales: dict[int, str]
) -> None:
    """An English server, a Japanese player: the ✅ only the mover reads is in their
    language, as every other answer to them; the table message tells the turn in English."""
    client_locales[world.alice.id] = "ja"
    client_locales[world.bob.id] = "ja"
    live = await quick_game(world)
    answers = []
    for _ in range(2):  # a turn of each
        live = world.bot.tables.service.by_channel[world.channel.id]
        actor = {world.alice.id: world.alice, world.bob.id: world.bob}[live.current_user()]
        shown = message(world, world.bot.tables.messages[live.id].message_id or 0)
        panel = await actor.click(shown, label="My turn")
        state = live.state
        ending = state.decision is Decision.TURN
        move = state.legal_moves()[-1] if ending else state.legal_moves()[0]
        result = await tap(actor, panel.response, move)
        if result.response.components:  # a chooser for the rerolled die
            live = world.bot.tables.service.by_channel[world.channel.id]
            result = await tap(actor, result.response, live.state.legal_moves()[0])
        answers.append(result.response.content)
    await world.env.settle()
    for answer in answers:  # the mover's own turn, in Japanese
        assert answer.startswith("✅ ") and re.search("[ぁ-ん]", answer), answers
    # the table tells both turns in English
    told = list(world.bot.tables.service.by_channel[world.channel.id].turns)
    assert len(told) == 2 and not any(re.search("[ぁ-ん]", line) for line in told), told
    shown = table_text_of(message(world, world.bot.tables.messages[live.id].message_id or 0))
    assert all(line in shown for line in told), shown


async def test_a_resignation_is_confirmed_with_the_games_end_in_the_resigners_language(
    world: World, languages: Chosen, client_locales: dict[int, str]
) -> None:
    """A move that ends the game and no turn is answered with the game's end: in the
    mover's language too, while the channel is told it in its server's."""
    client_locales[world.alice.id] = client_locales[world.bob.id] = "ja"
    opened = await world.alice.slash(world.channel, "table new", game="colorstack")
    await world.bob.click(opened.response, label="Join")
    await world.alice.click(opened.response, label="Start")
    live = world.bot.tables.service.by_channel[world.channel.id]
    first = live.state.first  # choosing colours; the other may resign meanwhile
    waiter = {world.alice.id: world.alice, world.bob.id: world.bob}[live.user_at(1 - first) or 0]
    winner = live.state.players[first]
    resigned = await waiter.slash(world.channel, "move", move="resign")
    assert resigned.ephemeral
    assert resigned.response.content == (
        f"✅ 🏳️ **{waiter.name}**が投了しました。0手で**{winner}**の勝ちです！"
    )
    await world.env.advance_time(5)
    texts = [table_text_of(m) for m in world.channel.history()]
    assert f"🏳️ **{waiter.name}** resigned; **{winner}** wins after 0 turns!" in texts, texts
