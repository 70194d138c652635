"""A Japanese server plays each of the three games end to end, and its Japanese players
read no English: the server's language set with ``/houserules set key:language value:ja``,
every player's client in ``ja``; a lobby (join, an AI, start), moves tapped on the panels
and typed (``/stack``, ``/play``, ``/move``, ``/set``), a refused move, ``/hint``, the
end, ``/scores``, ``/stats`` and ``/rules``. Every text that reaches the players is
gathered (message contents, components' labels, placeholders and text displays, embeds,
pictures' alt texts, ephemeral answers, modals) and the detector of
:mod:`tests.bot.english` finds no English in it but names, notation, commands and codes.

Buttons are found by their custom ids (``lobby:join:…``, ``panel:…``), never by their
labels, which are Japanese here."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator
from typing import Any

import pytest

from bot.front import DISCORD
from engine.colorstack.board import square_name
from engine.colorstack.moves import Move, Set
from engine.colorstack.state import ColorStackState
from engine.stack.moves import Reroll, Stack
from engine.stackup.state import StackUpState
from tests.bot.conftest import World, buttons_of, choose_colours, live_of, table_message
from tests.bot.conftest import message as message_of
from tests.bot.english import component_texts, embed_texts, english_words
from tests.bot.speakers import client_locales, forget_languages
from tests.bot.test_colorstack_discord import scripted, type_move
from tests.bot.test_game import tap
from tests.bot.test_stackup_discord import click_through, typed


@pytest.fixture(autouse=True)
def fresh_languages() -> Iterator[None]:
    yield
    forget_languages()


class Reader:
    """Everything the Japanese players read, gathered as they play."""

    def __init__(self, world: World, players: list[Any]) -> None:
        self.world = world
        self.players = players
        self.texts: dict[str, str] = {}  # text -> where it was read (the first time)
        self.names: set[str] = set()
        self.answers = 0

    def read(self, where: str, texts: list[str]) -> None:
        for text in texts:
            if text and text not in self.texts:
                self.texts[text] = where

    def answer(self, where: str, result: Any) -> Any:
        """An interaction's answers (its response, its follow-ups, a modal)."""
        shown = [result.response] if result.response is not None else []
        for message in [*shown, *result.followups]:
            self.read(where, [message.content, *component_texts(message.components)])
            self.read(where, embed_texts(message.embeds))
            self.read(where, [a.description or "" for a in message.attachments])
        if result.modal:
            self.read(where, component_texts([result.modal]))
        self.answers += 1
        return result

    def sweep(self, where: str) -> None:
        """What each player's client shows in the channel now (their ephemerals too)."""
        backend = self.world.env.backend
        for player in self.players:
            for shown in self.world.channel.history(viewer=player):
                stored = backend.get_message(self.world.channel.id, shown.id)
                self.read(where, [stored.content or "", *component_texts(stored.components)])
                self.read(where, embed_texts(stored.embeds))
                self.read(where, [a.description or "" for a in shown.attachments])
        live = live_of(self.world)
        if live is not None and live.state is not None:
            self.names |= set(getattr(live.state, "players", ()) or ())

    def english(self) -> list[str]:
        names = self.names | {p.name for p in self.players}
        names |= {str(getattr(p.member, "display_name", "")) for p in self.players}
        found = []
        for text, where in self.texts.items():
            words = english_words(text, names)
            if words:
                found.append(f"{where}: {words[:8]} in {text[:160]!r}")
        return found


async def japanese_table(
    world: World, monkeypatch: pytest.MonkeyPatch, game: str, **options: Any
) -> tuple[Reader, list[Any], Any]:
    """A ``ja`` server and two ``ja`` players (はな, the host, and けん) at a started
    table of ``game``; the reader, the players and the lobby message."""
    locales = client_locales(monkeypatch)
    hana = world.guild.add_member(world.env.create_user("hana", global_name="はな"))
    ken = world.guild.add_member(world.env.create_user("ken", global_name="けん"))
    for actor in (world.admin, hana, ken):
        locales[actor.id] = "ja"
    reader = Reader(world, [hana, ken])
    done = await world.admin.slash(world.channel, "houserules set", key="language", value="ja")
    assert done.ephemeral and DISCORD.language(world.guild.id) == "ja"
    opened = reader.answer(
        "/table new", await hana.slash(world.channel, "table new", game=game, **options)
    )
    assert opened.response is not None and not opened.ephemeral
    lobby = opened.response
    reader.answer("join", await click(ken, lobby, "lobby:join:"))
    if game != "colorstack":
        reader.answer("add AI", await click(hana, lobby, "lobby:ai:"))
        reader.answer("an expert AI", await hana.select(message_of(world, lobby.id), ["expert"]))
    reader.sweep("the lobby")
    reader.answer("start", await click(hana, lobby, "lobby:start:"))
    assert live_of(world) is not None and live_of(world).state is not None
    reader.sweep("the start")
    return reader, [hana, ken], lobby


async def click(actor: Any, message: Any, prefix: str) -> Any:
    """Click the button of ``message`` whose custom id starts with ``prefix``."""
    ids = [b.get("custom_id", "") for b in buttons_of(message)]
    found = [i for i in ids if i.startswith(prefix)]
    assert found, (prefix, ids)
    return await actor.click(message, custom_id=found[0])


def actor_to_move(world: World, players: list[Any]) -> Any:
    live = live_of(world)
    user = live.user_at(live.state.current_player)
    return next((p for p in players if p.id == user), None)


def waiting(world: World, players: list[Any], actor: Any) -> Any:
    return next(p for p in players if p is not actor)


async def after_the_end(world: World, reader: Reader, players: list[Any]) -> None:
    """The end, then /scores (the sheet and the history), /stats and /rules."""
    await world.env.advance_time(5)
    reader.sweep("the end")
    hana, ken = players
    for command, options in [
        ("scores", {}),
        ("scores", {"show": "history"}),
        ("stats", {}),
        ("rules", {}),
        ("leaderboard", {}),
    ]:
        result = reader.answer(f"/{command}", await hana.slash(world.channel, command, **options))
        assert result.ephemeral, command
    reader.answer("/stats", await ken.slash(world.channel, "stats"))
    reader.sweep("after the end")


def no_english(reader: Reader) -> None:
    assert reader.answers > 20 and len(reader.texts) > 20
    english = reader.english()
    assert english == [], f"{len(english)} texts in English reach the players:\n" + "\n".join(
        english[:40]
    )


async def test_a_japanese_server_plays_stack_without_reading_english(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    reader, players, _ = await japanese_table(world, monkeypatch, "stack", target=25, dice=4)
    seen = {"typed": 0, "tapped": 0, "refused": 0, "hint": 0}
    for step in range(500):
        live = live_of(world)
        if live is None or live.state is None or live.state.is_over:
            break
        state = live.state
        actor = actor_to_move(world, players)
        assert actor is not None  # the AI's turns are played by the bot
        if seen["refused"] == 0:  # a move typed out of turn is refused
            other = waiting(world, players, actor)
            refused = reader.answer("refused", await other.slash(world.channel, "reroll", die=1))
            assert refused.ephemeral
            seen["refused"] += 1
        if seen["hint"] == 0 and state.placing is None:
            reader.answer("/hint", await actor.slash(world.channel, "hint"))
            seen["hint"] += 1
        moves = state.legal_moves()
        move = moves[step % len(moves)]
        if state.placing is None and step % 2 == 0:
            if isinstance(move, Stack):
                result = await actor.slash(
                    world.channel,
                    "stack",
                    die=move.face,
                    on=state.name(move.owner),
                    height=move.height,
                )
            else:
                assert isinstance(move, Reroll)
                result = await actor.slash(world.channel, "reroll", die=move.face)
            reader.answer("typed", result)
            seen["typed"] += 1
            if result.response is not None and result.response.components:  # a chooser
                chosen = live_of(world).state.legal_moves()[0]
                reader.answer("chooser", await tap(actor, result.response, chosen))
        else:
            panel = reader.answer(
                "panel", await click(actor, table_message(world, live.id), "panel:")
            )
            assert panel.ephemeral
            after = reader.answer("tapped", await tap(actor, panel.response, move))
            seen["tapped"] += 1
            if after.response is not None and after.response.components:
                following = live_of(world)
                if following is not None and following.state.placing is not None:
                    chosen = following.state.legal_moves()[0]
                    reader.answer("chooser", await tap(actor, after.response, chosen))
        reader.sweep(f"step {step}")
    else:
        raise AssertionError("the game did not end")
    assert all(seen.values()), seen
    await after_the_end(world, reader, players)
    no_english(reader)


async def test_a_japanese_server_plays_stack_up_without_reading_english(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    reader, players, _ = await japanese_table(world, monkeypatch, "stackup")
    rng = random.Random(5)
    seen = {"typed": 0, "tapped": 0, "refused": 0, "hint": 0}
    for step in range(800):
        live = live_of(world)
        if live is None or live.state.is_over:
            break
        state: StackUpState = live.state
        actor = actor_to_move(world, players)
        assert actor is not None
        shown = table_message(world, live.id)
        if seen["refused"] == 0:
            refused = reader.answer(
                "refused", await actor.slash(world.channel, "play", cards="R99")
            )
            assert refused.ephemeral
            seen["refused"] += 1
        if seen["hint"] == 0:
            reader.answer("/hint", await actor.slash(world.channel, "hint"))
            seen["hint"] += 1
        reader.answer("waiting", await click(waiting(world, players, actor), shown, "panel:"))
        move = rng.choice(state.legal_moves())
        if step % 3 == 2:
            reader.answer(
                "typed", await actor.slash(world.channel, "play", cards=typed(state, move, live))
            )
            seen["typed"] += 1
        else:
            panel = reader.answer("panel", await click(actor, shown, "panel:"))
            reader.answer("tapped", await click_through(actor, panel.response, live, move))
            seen["tapped"] += 1
        reader.sweep(f"step {step}")
    else:
        raise AssertionError("the game did not end")
    assert all(seen.values()), seen
    await after_the_end(world, reader, players)
    no_english(reader)


async def tap_colorstack(world: World, reader: Reader, actor: Any, live: Any, move: Any) -> Any:
    """A Color Stack move through the panel: the piece, then its destination or face."""
    panel = reader.answer("panel", await click(actor, table_message(world, live.id), "panel:"))
    frm = move.frm if isinstance(move, Move) else move.square
    step = f"colorstack:{live.id}:{live.version}:s:p{square_name(frm)}"
    piece = reader.answer("piece", await actor.click(panel.response, custom_id=step))
    from bot.games.colorstack.panel import move_code

    code = move_code(move)
    if isinstance(move, Set):
        return await actor.click(piece.response, custom_id=f"move:{live.id}:{live.version}:{code}")
    menus = [
        b
        for b in buttons_of(piece.response)
        if b.get("type") == 3 and code in [o["value"] for o in b["options"]]
    ]
    assert menus, code
    return await actor.select(piece.response, [code], custom_id=menus[0]["custom_id"])


async def test_a_japanese_server_plays_color_stack_without_reading_english(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    reader, players, _ = await japanese_table(world, monkeypatch, "colorstack")
    state: ColorStackState = live_of(world).state
    assert state.choosing_colours  # the first player chooses colours, from the panel
    live = live_of(world)
    chooser = actor_to_move(world, players)
    panel = reader.answer("colours", await click(chooser, table_message(world, live.id), "panel:"))
    menu = next(b for b in buttons_of(panel.response) if b.get("type") == 3)
    chosen = await chooser.select(
        panel.response, ["colours.blue.green"], custom_id=menu["custom_id"]
    )
    reader.answer("colours chosen", chosen)
    state = live_of(world).state
    assert state.colours[state.first] == (1, 3)
    hero = state.first
    assert hero is not None
    rng = random.Random(11)
    seen = {"typed": 0, "tapped": 0, "refused": 0, "hint": 0}
    for step in range(400):
        live = live_of(world)
        if live is None or live.state.is_over:
            break
        state = live.state
        actor = actor_to_move(world, players)
        if seen["refused"] == 0:  # a move off the board's rules
            refused = reader.answer(
                "refused", await actor.slash(world.channel, "move", move="a1-i6")
            )
            assert refused.ephemeral
            seen["refused"] += 1
        if seen["hint"] == 0:
            reader.answer("/hint", await actor.slash(world.channel, "hint"))
            seen["hint"] += 1
        move = scripted(state, hero, rng)
        if step // 2 % 2 == 0:
            reader.answer("typed", await type_move(world, actor, move))
            seen["typed"] += 1
        else:
            reader.answer("tapped", await tap_colorstack(world, reader, actor, live, move))
            seen["tapped"] += 1
        reader.sweep(f"step {step}")
    else:
        raise AssertionError("the game did not end")
    assert all(seen.values()), seen
    await after_the_end(world, reader, players)
    no_english(reader)


def test_the_detector_finds_an_english_sentence() -> None:
    assert english_words("It's your turn, はな: stack a die or roll again.", ["はな"]) == [
        "It",
        "your",
        "turn",
        "stack",
        "die",
        "or",
        "roll",
        "again",
    ]
    assert english_words("**Round 1 is over.**") == ["Round", "is", "over"]
    assert english_words("けん played R7", ["けん"]) == ["played"]
    assert english_words("hana の番です", []) == ["hana"]  # a name not given is a word


def test_the_detector_passes_japanese_with_names_notation_commands_and_codes() -> None:
    text = (
        "**はな** の番です（手番 3）。`/move c1-e3` か `/set c1 4` で動かすか、"
        "ボタンを押してください。/table new で新しいテーブルを開けます。"
        "<@123> さん、AI 1 が R7 と Flip を出しました。c1 のコマを e3 へ。"
        "`language` = `ja`（日本語）"
    )
    assert english_words(text, ["はな"]) == []
    assert english_words("**Mallory_X** が勝ちました 🏆", ["Mallory_X"]) == []
    assert english_words("bob\\_smith が参加しました", ["bob_smith"]) == []  # escaped too


def test_every_text_of_a_message_is_read() -> None:
    components = [
        {
            "type": 17,
            "components": [
                {"type": 10, "content": "Your turn"},
                {"type": 12, "items": [{"media": {"url": "x"}, "description": "The board"}]},
                {
                    "type": 1,
                    "components": [
                        {"type": 2, "label": "My move", "custom_id": "panel:1:1"},
                        {
                            "type": 3,
                            "custom_id": "m",
                            "placeholder": "More moves…",
                            "options": [{"label": "c1-e3", "value": "a", "description": "a stack"}],
                        },
                    ],
                },
            ],
        }
    ]
    texts = component_texts(components)
    for expected in ("Your turn", "The board", "My move", "More moves…", "c1-e3", "a stack"):
        assert expected in texts
    embeds = [
        {"title": "Stats", "fields": [{"name": "Games", "value": "3"}], "footer": {"text": "ok"}}
    ]
    assert embed_texts(embeds) == ["Stats", "Games", "3", "ok"]


@pytest.mark.parametrize("game", ["stack", "stackup", "colorstack"])
async def test_a_japanese_hint_shows_its_move_as_inline_code(
    world: World, monkeypatch: pytest.MonkeyPatch, game: str
) -> None:
    """The Japanese hints put the move in backticks (`` `stack 1 on けん 2`：… ``): Discord
    shows it as code, not as backticks escaped into the text (``\\`stack 1 on けん 2\\```)."""
    _, players, _ = await japanese_table(world, monkeypatch, game)
    await choose_colours(world, *players)
    actor = actor_to_move(world, players)
    assert actor is not None
    hint = await actor.slash(world.channel, "hint")
    assert hint.ephemeral and hint.response is not None
    text = hint.response.content
    assert text.startswith("💡 ヒント"), text
    assert "\\`" not in text and re.search(r"`[^`]+`", text), text
