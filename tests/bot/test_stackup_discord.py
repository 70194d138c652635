"""Stack Up! on Discord through simcord, with the real bot, command tree and views: a whole
game of three humans with 32-character names full of markdown and mentions and an AI
seat, played through **My hand** (the decision built step by step) and ``/play``
(mentions for a Snatch's target), checked for leaks after every step: nothing any player
sees — the table message, the picture's alt text, the panels and answers addressed to
them, the channel's messages — names a card of another player's hand, and the picture's
job carries hand sizes only. Also: ``/export`` of a running game is refused, a stale
panel is refused and changes nothing, refusals of typed plays are specific."""

from __future__ import annotations

import json
import logging
import random
import re
from collections import deque
from typing import Any

import pytest

import catalog
from bot.games.stackup.panel import move_code, node
from bot.text import MESSAGE_LIMIT, escape_name
from engine.stackup.cards import card_name, is_special
from engine.stackup.moves import Play, PlayDrawn, PlayerMove
from engine.stackup.notation import move_notation
from engine.stackup.state import StackUpState
from pictures.painter import DrawJob
from pictures.stackup import TablePicture
from tests.bot import conftest
from tests.bot.conftest import World
from tests.bot.speakers import client_locales

CARD = re.compile(r"(?<![A-Za-z0-9])([RBYG](?:1[0-5]|[1-9]))(?![0-9])")
LIVE_MENTION = re.compile(r"<@[!&]?\d+>|@everyone|@here")


class Watch:
    """Everything the players saw, checked after every step."""

    def __init__(self, world: World, humans: list[Any]) -> None:
        self.world = world
        self.humans = humans
        self.public: set[str] = set()  # cards that have been on the stack (played openly)
        self.jobs: list[DrawJob] = []
        self.seen: dict[tuple[int, int], str] = {}  # (user, message): the text checked
        self.scans = 0
        self.pictures = 0

    def texts_seen_by(self, user: Any) -> list[str]:
        """What ``user``'s client shows in the channel that is new or changed since the
        last check: contents, V2 text displays, buttons and menus, the picture's alt text,
        embeds — their ephemeral answers too. (What a message showed before was checked
        then: an old panel shows the player's hand of that time.)"""
        backend = self.world.env.backend
        out = []
        for shown in self.world.channel.history(viewer=user):
            stored = backend.get_message(self.world.channel.id, shown.id)
            parts = [
                stored.content or "",
                json.dumps(stored.components, ensure_ascii=False),
                json.dumps(stored.embeds, ensure_ascii=False),
                *(a.description or "" for a in shown.attachments),
            ]
            text = "\n".join(parts)
            if self.seen.get((user.id, shown.id)) != text:
                self.seen[(user.id, shown.id)] = text
                out.append(text)
        return out

    def check(self, state: StackUpState) -> None:
        """No player sees a number card of another hand (cards once played openly are
        public history: they may be named by the turns' words); the picture's jobs carry
        no card of any hand."""
        self.public |= {card_name(c) for c in state.stack_cards}
        for turn in state.log:
            self.public |= {card_name(c) for c in turn.cards}
        live = conftest.live_of(self.world)
        seats = {live.user_at(s): s for s in range(len(state.players))} if live else {}
        for user in self.humans:
            seat = seats.get(user.id)
            hidden = {
                card_name(c)
                for other in range(len(state.players))
                if other != seat
                for c in state.hand(other)
                if not is_special(c)
            } - self.public
            for text in self.texts_seen_by(user):
                leaked = set(CARD.findall(text)) & hidden
                assert not leaked, f"{user.name} sees {leaked} of another hand in {text[:300]!r}"
            self.scans += 1
        held = {card_name(c) for s in range(len(state.players)) for c in state.hand(s)}
        for job in self.jobs:
            assert job.picture == "stackup"
            [picture] = job.args
            assert isinstance(picture, TablePicture)
            assert all(isinstance(n, int) for n in picture.hand_sizes)
            assert set(picture.last_cards) <= self.public
            fields = json.dumps([str(getattr(picture, f)) for f in picture.__dataclass_fields__])
            assert not (set(CARD.findall(fields)) & held - self.public), fields
            self.pictures += 1
        self.jobs.clear()


def route(state: StackUpState, move: PlayerMove) -> list[str]:
    """The steps of **My hand** that lead to ``move`` (its button is on the last)."""
    legal = state.legal_moves()
    queue: deque[tuple[str, list[str]]] = deque([("", [])])
    seen = set()
    while queue:
        path, trail = queue.popleft()
        if path in seen:
            continue
        seen.add(path)
        step = node(legal, path, state.players, state.drawn)
        assert step is not None
        for choice in step.choices:
            if choice.move == move:
                return trail
            if choice.path is not None:
                queue.append((choice.path, [*trail, choice.path]))
    raise AssertionError(f"{move} is not on the panel")


async def click_through(actor: Any, panel: Any, live: Any, move: PlayerMove) -> Any:
    """Build ``move`` on the panel step by step, then play it; the last answer."""
    prefix = f"stackup:{live.id}:{live.version}"
    for path in route(live.state, move):
        ids = [b["custom_id"] for b in conftest.buttons_of(panel)]
        assert f"{prefix}:s:{path}" in ids, (path, ids)
        result = await actor.click(panel, custom_id=f"{prefix}:s:{path}")
        assert result.ephemeral or result.response is not None
        panel = result.response
        assert len(panel.content) <= MESSAGE_LIMIT
    ids = [b["custom_id"] for b in conftest.buttons_of(panel)]
    code = f"{prefix}:m:{move_code(move)}"
    assert code in ids, (code, ids)
    return await actor.click(panel, custom_id=code)


def typed(state: StackUpState, move: PlayerMove, live: Any) -> str:
    """How a player types ``move``, naming a human Snatch target by a mention."""
    target = move.target if isinstance(move, Play | PlayDrawn) else None
    user = live.user_at(target) if target is not None else None
    if user is not None and move.count is not None:  # type: ignore[union-attr]
        head = "play snatch" if isinstance(move, PlayDrawn) else "snatch"
        return f"{head} <@{user}> {move.count}"  # type: ignore[union-attr]
    return move_notation(state, move)


async def stackup_table(world: World, monkeypatch: pytest.MonkeyPatch) -> tuple[list[Any], Watch]:
    humans = [
        world.guild.add_member(world.env.create_user(f"p{i}"), nick=conftest.nasty_name(i))
        for i in range(3)
    ]
    watch = Watch(world, humans)
    watch.jobs = conftest.drawings(world, monkeypatch)
    opened = await humans[0].slash(world.channel, "table new", game="stackup")
    assert opened.response is not None and not opened.ephemeral
    lobby = opened.response
    for human in humans[1:]:
        joined = await human.click(lobby, label="Join")
        assert joined.ephemeral, joined.response.content
    await humans[0].click(lobby, label="Add AI")
    started = await humans[0].click(lobby, label="Start")
    assert started.response is not None
    return humans, watch


async def stackup_game(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> tuple[list[Any], Any, StackUpState]:
    """:func:`stackup_table` started: its humans, the live table and its game."""
    humans, _ = await stackup_table(world, monkeypatch)
    live = conftest.live_of(world)
    return humans, live, live.state


@pytest.mark.parametrize("language", catalog.LANGUAGES)
async def test_a_whole_game_on_discord_hides_every_hand(
    world: World, monkeypatch: pytest.MonkeyPatch, language: str
) -> None:
    """In either language of the server (and of the players): no hand leaks, in any words."""
    humans, watch = await stackup_table(world, monkeypatch)
    world.bot.languages.choose(world.guild.id, language, None)  # /houserules set language
    try:
        with catalog.speaking(language):
            await play_a_whole_game(world, humans, watch, language)
    finally:
        world.bot.languages.forget(world.guild.id)


async def play_a_whole_game(world: World, humans: list[Any], watch: Watch, language: str) -> None:
    actors = {h.id: h for h in humans}
    rng = random.Random(5)
    live = conftest.live_of(world)
    table_id = live.id
    seen = {"panel": 0, "typed": 0, "steps": 0, "bonus": 0, "snatch_typed": 0, "stale": 0}
    export = await humans[1].slash(world.channel, "export")
    assert export.ephemeral
    assert language != "en" or "once the game is over" in export.response.content
    watch.check(live.state)
    tables: list[str] = []  # the table message's texts, turn by turn
    # the button's label: the server's language where the table message is composed in it
    labels = set()
    for spoken in {"en", language}:
        with catalog.speaking(spoken):
            labels.add(catalog.t("stackup.button.my_hand"))
    for step in range(600):
        live = conftest.live_of(world)
        if live is None or live.state.is_over:
            break
        state: StackUpState = live.state
        seat = state.current_player
        assert seat is not None
        actor = actors[live.user_at(seat)]
        # the table message: public facts only, within Discord's limits
        shown = conftest.table_message(world, table_id)
        text = conftest.table_text_of(shown)
        tables.append(text)
        assert len(text) <= MESSAGE_LIMIT
        assert not LIVE_MENTION.sub("", text.replace(f"<@{actor.id}>", "")).count("<@")
        assert escape_name(state.players[seat]) in text
        assert f"{state.pile_size}**" in text
        [my_hand] = [b["label"] for b in conftest.buttons_of(shown)]
        assert my_hand in labels
        # a player waiting sees their own hand and whom the table waits for
        waiting = next(h for h in humans if h is not actor)
        theirs = await waiting.click(shown, label=my_hand)
        assert theirs.ephemeral and "⏳" in theirs.response.content
        assert not conftest.buttons_of(theirs.response)
        watch.check(state)  # what a click shows is checked against the table of that moment
        move = rng.choice(state.legal_moves())
        version = live.version
        if step % 3 == 2:
            words = typed(state, move, live)
            if step % 9 == 2:  # a panel opened, then the move typed: the panel is stale
                stale_panel = (await actor.click(shown, label=my_hand)).response
            else:
                stale_panel = None
            result = await actor.slash(world.channel, "play", cards=words)
            assert result.ephemeral, result.response.content
            assert result.response.content.startswith("✅"), (words, result.response.content)
            seen["typed"] += 1
            seen["snatch_typed"] += "<@" in words
            if stale_panel is not None and conftest.buttons_of(stale_panel):
                after = conftest.live_of(world)
                before = (after.version, after.state.to_dict()) if after else None
                refused = await actor.click(
                    stale_panel, custom_id=conftest.buttons_of(stale_panel)[0]["custom_id"]
                )
                refusal = refused.response.content if refused.response else ""
                assert refusal and (language != "en" or "older state" in refusal), refusal
                after = conftest.live_of(world)
                assert before == ((after.version, after.state.to_dict()) if after else None)
                seen["stale"] += 1
        else:
            panel = await actor.click(shown, label=my_hand)
            assert panel.ephemeral
            watch.check(state)
            hand = panel.response.content.split("\n")[1]
            assert set(CARD.findall(hand)) == {
                card_name(c) for c in state.hand(seat) if not is_special(c)
            }
            steps = len(route(state, move))
            result = await click_through(actor, panel.response, live, move)
            content = result.response.content if result.response else ""
            assert content.startswith(("✅", "🃏")), content  # 🃏: the same seat goes on
            seen["panel"] += 1
            seen["steps"] += steps
            seen["bonus"] += isinstance(move, Play) and move.bonus is not None
        after = conftest.live_of(world)
        assert after is None or after.version > version
        # the game's end: its table was forgotten, with its final (committed) state
        watch.check(after.state if after is not None else live.state)
    else:
        raise AssertionError("the game did not end")
    await world.env.advance_time(5)
    texts = [conftest.table_text_of(m) for m in world.channel.history()]
    assert any("🏆" in t for t in texts)
    if language == "ja":  # the turns and the game's end, told in the table's language
        assert any("残り札：" in t for t in texts), texts[-1]
        assert any("を出しました。" in t for t in tables), tables[-1]
    assert world.bot.store is not None
    final = await world.bot.store.table(table_id)
    assert final.status != "playing"
    export = await humans[1].slash(world.channel, "export")
    assert export.ephemeral and export.response.attachments  # over: the record is shown
    assert seen["panel"] and seen["typed"] and seen["steps"] and seen["stale"], seen
    assert watch.scans > 100 and watch.pictures > 10, (watch.scans, watch.pictures)
    print("SEEN", seen)


async def test_the_log_never_names_a_card_typed_but_not_played(
    world: World, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """A typed play that may be meant several ways (``switch``: which colour?) is not
    played: the player is asked, and may play something else. Until then it names a
    card of a hidden hand, so the INFO log (read by whoever runs the bot, who may sit at
    the table) says a move was typed, not what: only a move played is public."""
    humans, live, _ = await stackup_game(world, monkeypatch)
    actors = {h.id: h for h in humans}
    rng = random.Random(11)
    for _ in range(600):
        live = conftest.live_of(world)
        assert live is not None and not live.state.is_over, "no Switch came to a human's hand"
        state: StackUpState = live.state
        seat = state.current_player
        actor = actors.get(live.user_at(seat))
        switch = [m for m in state.legal_moves() if isinstance(m, Play) and m.colour is not None]
        if actor is not None and switch:
            break
        if actor is None:  # an AI seat thinking: let it play
            await world.env.advance_time(1)
            continue
        await actor.slash(
            world.channel, "play", cards=typed(state, rng.choice(state.legal_moves()), live)
        )
    version = live.version
    caplog.clear()
    with caplog.at_level(logging.INFO):
        asked = await actor.slash(world.channel, "play", cards="Switch")
    assert asked.ephemeral and conftest.buttons_of(asked.response), asked.response.content
    assert conftest.live_of(world).version == version  # not played: the player is asked
    logged = [r.getMessage() for r in caplog.records if r.levelno >= logging.INFO]
    assert logged and not [line for line in logged if "switch" in line.lower()], logged


async def test_typed_refusals_are_specific_and_reveal_no_hand(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    humans, live, state = await stackup_game(world, monkeypatch)
    seat = state.current_player
    assert seat is not None
    actor = next(h for h in humans if h.id == live.user_at(seat))
    other = next(h for h in humans if h.id != actor.id)
    version = live.version
    # not your turn: says whose turn it is, nothing more
    early = await other.slash(world.channel, "play", cards="up")
    assert early.ephemeral
    assert f"It's {escape_name(state.players[seat])}'s turn" in early.response.content
    # not a card
    nonsense = await actor.slash(world.channel, "play", cards="R99")
    assert nonsense.ephemeral and "R99" in nonsense.response.content
    # a card another player holds: refused without saying who holds it
    held = next(c for s, _ in enumerate(state.players) if s != seat for c in state.hand(s))
    refused = await actor.slash(world.channel, "play", cards=card_name(held))
    text = refused.response.content
    assert refused.ephemeral
    assert not any(
        escape_name(name) in text for s, name in enumerate(state.players) if s != seat
    ), text
    # a Snatch at someone who has no seat: said so, not read as a name
    stranger = await actor.slash(world.channel, "play", cards="snatch <@987654321> 2")
    assert stranger.ephemeral and stranger.response.content.startswith(
        "That person is not at this table"
    ), stranger.response.content
    out_of_turn = await other.slash(world.channel, "play", cards="snatch <@987654321> 2")
    assert out_of_turn.response.content.startswith("It's "), out_of_turn.response.content
    target = next(name for s, name in enumerate(state.players) if s != seat)
    by_name = await actor.slash(world.channel, "play", cards=f'snatch "{target}" 9')
    assert not by_name.response.content.startswith("That person"), (  # a name with <@123> in it
        by_name.response.content
    )
    seated = {s.user_id for s in live.info.seats}
    outsider = next(
        u for u in (world.alice, world.bob, world.carol, world.admin) if u.id not in seated
    )
    theirs = await outsider.slash(world.channel, "play", cards="snatch <@987654321> 2")
    assert theirs.ephemeral and not theirs.response.content.startswith("That person"), (
        theirs.response.content  # they are told they have no seat, as for any move
    )
    assert conftest.live_of(world).version == version  # nothing changed


@pytest.mark.parametrize("language", ["en-US", "ja"])
async def test_an_unknown_card_and_a_card_not_in_hand_are_said_so_in_the_players_language(
    world: World, monkeypatch: pytest.MonkeyPatch, language: str
) -> None:
    """``/play`` of a card that does not exist, or of one not in the hand: words of their
    own (not how to type a move), privately, and nothing changes."""
    locales = client_locales(monkeypatch)
    humans, live, state = await stackup_game(world, monkeypatch)
    for human in humans:
        locales[human.id] = language
    seat = state.current_player
    actor = next(h for h in humans if h.id == live.user_at(seat))
    chosen = await actor.slash(world.channel, "play", cards="up")  # the direction first
    assert chosen.ephemeral, chosen.response.content
    live = conftest.live_of(world)
    state = live.state
    seat = state.current_player
    actor = next((h for h in humans if h.id == live.user_at(seat)), None)
    assert actor is not None
    mine = [c for c in state.hand(seat) if not is_special(c)]
    missing = next(
        c
        for s in range(len(state.players))
        for c in state.hand(s)
        if c not in state.hand(seat) and not is_special(c)
    )
    before = (live.version, state.to_dict())
    lang = catalog.language_of(language)
    with catalog.speaking(lang):
        syntax = catalog.t("stackup.syntax")
        expected = {
            "R99": catalog.t("stackup.error.no_such_card", card="R99"),
            card_name(missing): catalog.t("stackup.error.hold_none", card=card_name(missing)),
            f"{card_name(mine[0])} {card_name(missing)}": catalog.t(
                "stackup.error.hold_none", card=card_name(missing)
            ),
        }
    for typed, words in expected.items():
        answer = await actor.slash(world.channel, "play", cards=typed)
        assert answer.ephemeral and answer.response.content == words, answer.response.content
        assert syntax not in answer.response.content
    live = conftest.live_of(world)
    assert (live.version, live.state.to_dict()) == before


async def test_rules_brief_the_game_and_its_notation(world: World) -> None:
    answer = await world.alice.slash(world.channel, "rules", game="stackup")
    text = answer.response.content
    assert answer.ephemeral and len(text) <= MESSAGE_LIMIT
    assert text.startswith("**Stack Up!**")
    for typed_play in ("/play R7 R8 R9 skip", "/play switch blue", "/play snatch @bob 2"):
        assert typed_play in text
    assert "My hand" in text and "turn_limit" in text


async def test_the_table_message_at_the_start_asks_the_first_player_the_direction(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    humans, live, state = await stackup_game(world, monkeypatch)
    text = conftest.table_text_of(conftest.table_message(world, live.id))
    if live.user_at(state.current_player) is not None and state.phase == "direction":
        assert "it's your turn: choose the direction" in text
    assert "**Stack Up!** · turn " in text and "turns left before the limit" in text
    for seat in range(state.n):
        assert f"**{escape_name(state.players[seat])}** · {state.hand_size(seat)} cards" in text
    _ = humans


async def test_a_lobby_with_a_turn_limit_of_one_says_one_turn(world: World) -> None:
    """The lobby's turn limit counts its turns in words that agree with the number."""
    one = await world.alice.slash(world.channel, "table new", game="stackup", turn_limit=1)
    lines = conftest.table_text_of(one.response).split("\n")
    assert "The game ends after 1 turn (fewest cards win)." in lines, lines
    await world.alice.slash(world.channel, "table leave")
    many = await world.alice.slash(world.channel, "table new", game="stackup", turn_limit=2)
    lines = conftest.table_text_of(many.response).split("\n")
    assert "The game ends after 2 turns (fewest cards win)." in lines, lines
