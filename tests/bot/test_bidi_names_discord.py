"""Names that read right to left, or that leave a direction-changing character open, on
Discord: a table of an Arabic name (عمر), a Hebrew one (דוד כהן) and "evil\u202ename" (an
override left open) plays Stack (eight seats) and Stack Up! to the end, in English and in
Japanese: the lobby (join, leave, kick, AI seats, refusals), moves typed and tapped on the
panels, ``/stack``'s autocomplete, refused moves quoting a typed right-to-left name,
``/hint``, the turn timer's ping and warning and its automatic move, then ``/scores``
(sheet and history), ``/stats``, ``/leaderboard``, ``/export``, ``/rules``, and a second
table shown, left mid-game and ended.

Every payload the bot sends Discord (message contents, components V2 text displays,
buttons and menus, embeds, the pictures' alt texts, autocomplete choices, answers) is
scanned: no direction-changing character (U+202A–U+202E, U+2066–U+2069, U+200E, U+200F,
U+061C) is left outside a balanced FSI…PDI (U+2068…U+2069) that the bot put around a
name, and no right-to-left letter stands outside one — an Arabic or Hebrew name would
take the words after it into its direction (``stack 1 on דוד כהן 1`` shows the 1 before
the name), an open override reverses the rest of the line. Code blocks (score sheets)
count too: a row starting with an Arabic name reads from the right there, its numbers in
reverse order, so its name is isolated as well. Only values Discord never shows (an
autocomplete choice's value, typed back as it is; custom ids) are left out."""

from __future__ import annotations

import random
import unicodedata
from collections.abc import Iterator
from typing import Any

import pytest

import bot.tables
import catalog
from bot.games.stackup.game import DISCORD_GAME as STACK_UP
from catalog import BIDI_CONTROLS, FSI, PDI
from engine.game import Decision
from engine.stack.moves import Stack
from engine.stackup.rules import StackUpSettings
from engine.stackup.state import StackUpState
from tests.bot.conftest import World, buttons_of, live_of, table_message
from tests.bot.conftest import message as message_of
from tests.bot.speakers import client_locales, forget_languages
from tests.bot.test_game import tap
from tests.bot.test_stackup_discord import click_through, typed

ARABIC, HEBREW, EVIL = "عمر", "דוד כהן", "evil\u202ename"
UNSHOWN = (".value", ".custom_id")  # what a payload carries that Discord never shows


@pytest.fixture(autouse=True)
def fresh_languages() -> Iterator[None]:
    yield
    forget_languages()


def _rtl(char: str) -> bool:
    return unicodedata.bidirectional(char) in ("R", "AL")


def _strings(value: Any, path: str = "") -> Iterator[tuple[str, str]]:
    if isinstance(value, str):
        yield path, value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from _strings(item, f"{path}.{key}")
    elif isinstance(value, list):
        for at, item in enumerate(value):
            yield from _strings(item, f"{path}[{at}]")


def stray_direction(text: str) -> list[str]:
    """What in ``text`` changes the direction of the words around it, line by line: a
    direction-changing character but a balanced FSI…PDI, and a right-to-left letter
    outside every FSI…PDI (in a code block too)."""
    found = []
    for line in text.split("\n"):
        depth = 0
        for char in line:
            if char == FSI:
                depth += 1
            elif char == PDI and depth:
                depth -= 1
            elif char in BIDI_CONTROLS:
                found.append(f"U+{ord(char):04X} left in {line!r}")
            elif _rtl(char) and not depth:
                found.append(f"right-to-left letters outside an isolate in {line!r}")
                break
        if depth:
            found.append(f"an isolate left open in {line!r}")
    return found


def assert_no_stray_direction(world: World, *, sheets: bool) -> None:
    """No stray direction (:func:`stray_direction`) in what the bot sent Discord, which
    said each right-to-left name, isolated, many times (with ``sheets``, in a score
    sheet's code block too)."""
    found: dict[str, str] = {}
    said = {ARABIC: 0, HEBREW: 0, "```": 0}
    for request in world.env.http_requests:
        if request.method == "PUT" and request.path.endswith("/commands"):
            continue  # the commands' own descriptions
        for path, text in _strings(request.json):
            if path.endswith(UNSHOWN):
                continue
            for name in (ARABIC, HEBREW):
                said[name] += text.count(FSI + name + PDI)
            said["```"] += "```" in text and FSI + ARABIC + PDI in text
            for problem in stray_direction(text):
                found.setdefault(problem, f"{request.method} {request.path} {path}")
    assert not found, "\n".join(f"{where}: {problem}" for problem, where in found.items())
    assert said[ARABIC] > 10 and said[HEBREW] > 10 and (said["```"] > 0 or not sheets), said


async def click(actor: Any, message: Any, prefix: str) -> Any:
    """Click the button of ``message`` whose custom id starts with ``prefix``."""
    ids = [b.get("custom_id", "") for b in buttons_of(message)]
    found = [i for i in ids if i.startswith(prefix)]
    assert found, (prefix, ids)
    return await actor.click(message, custom_id=found[0])


async def seated(
    world: World,
    monkeypatch: pytest.MonkeyPatch,
    language: str,
    game: str,
    ais: int,
    **options: Any,
) -> list[Any]:
    """The three players, in a server and clients of ``language``, at a started table of
    ``game`` with ``ais`` AI seats, after joining, leaving, a kick and refusals."""
    locales = client_locales(monkeypatch)
    humans = [
        world.guild.add_member(world.env.create_user(f"bidi{i}"), nick=nick)
        for i, nick in enumerate([ARABIC, HEBREW, EVIL])
    ]
    if language == "ja":
        for actor in [world.admin, *humans]:
            locales[actor.id] = "ja"
        await world.admin.slash(world.channel, "houserules set", key="language", value="ja")
    arabic, hebrew, evil = humans
    lobby = (await arabic.slash(world.channel, "table new", game=game, **options)).response
    await click(hebrew, lobby, "lobby:join:")
    await click(evil, lobby, "lobby:join:")
    await click(evil, message_of(world, lobby.id), "lobby:leave:")
    await evil.slash(world.channel, "table join")
    await arabic.slash(world.channel, "table kick", player=hebrew)
    await hebrew.slash(world.channel, "table start")  # refused: not seated
    await click(hebrew, message_of(world, lobby.id), "lobby:join:")
    await evil.slash(world.channel, "table kick", player=arabic)  # refused: not the host
    for i in range(ais):
        if i % 2:
            await click(arabic, message_of(world, lobby.id), "lobby:ai:")
        else:
            await arabic.slash(world.channel, "table addbot")
    await click(arabic, message_of(world, lobby.id), "lobby:start:")
    assert live_of(world).state is not None
    return humans


def actor_of(world: World, humans: list[Any]) -> Any:
    live = live_of(world)
    user = live.user_at(live.state.current_player)
    return next(h for h in humans if h.id == user)


async def timed_out(world: World, monkeypatch: pytest.MonkeyPatch, *, early: bool = False) -> None:
    """The player to move is pinged, warned, and their turn played for them. ``early``:
    the turns after it are armed without the 5 s ping (a clock of 5 s left armed while a
    loaded machine works through the next steps pings on the machine's own clock)."""
    await world.env.advance_time(6)
    await world.env.advance_time(55)
    if early:
        monkeypatch.setattr(bot.tables, "PING_AFTER", 600.0)  # no more pings
    await world.env.advance_time(60)
    monkeypatch.setattr(bot.tables, "PING_AFTER", 600.0)  # no more pings


async def after_the_end(world: World, humans: list[Any], game: str) -> None:
    await world.env.advance_time(5)
    arabic, hebrew, evil = humans
    for who in humans:
        await who.slash(world.channel, "scores")
        await who.slash(world.channel, "stats")
    await arabic.slash(world.channel, "scores", show="history")
    await arabic.slash(world.channel, "stats", player=evil)
    await arabic.slash(world.channel, "stats", ai="greedy")
    for by in ("rating", "wins", "points"):
        await arabic.slash(world.channel, "leaderboard", by=by)
    await arabic.slash(world.channel, "export")
    await arabic.slash(world.channel, "rules")
    # another table: shown again, left mid-game (an AI takes the seat), ended
    lobby = (await hebrew.slash(world.channel, "table new", game=game)).response
    await click(evil, lobby, "lobby:join:")
    await click(arabic, message_of(world, lobby.id), "lobby:join:")
    await hebrew.slash(world.channel, "table show")
    await arabic.slash(world.channel, "table start")  # refused: not the host
    await hebrew.slash(world.channel, "table start")
    await evil.slash(world.channel, "table leave")
    confirm = await hebrew.slash(world.channel, "table end")
    await click(hebrew, confirm.response, "end:")
    assert live_of(world) is None


@pytest.mark.parametrize("language", ["en", "ja"])
async def test_a_stack_game_of_right_to_left_names_sends_no_stray_direction(
    world: World, monkeypatch: pytest.MonkeyPatch, language: str
) -> None:
    monkeypatch.setattr(bot.tables, "PING_AFTER", 5.0)
    humans = await seated(world, monkeypatch, language, "stack", 5, target=40, dice=3)
    seen = {"refused": 0, "hint": 0, "timed out": 0, "typed": 0, "tapped": 0}
    for step in range(400):
        live = live_of(world)
        if live is None or live.state is None or live.state.is_over:
            break
        state = live.state
        actor = actor_of(world, humans)
        moves = state.legal_moves()
        if not seen["refused"] and state.placing is None:
            other = next(h for h in humans if h is not actor)
            await other.slash(world.channel, "reroll", die=1)  # not their turn
            face = moves[0].face  # a die of theirs, on a player who is not there
            refused = await actor.slash(world.channel, "stack", die=face, on="שלום\u202e")
            assert "שלום" in refused.response.content, refused.response.content
            choices = await actor.autocomplete(world.channel, "stack", "on", "", die=face)
            assert choices, "no names offered"
            seen["refused"] += 1
        hint = (await actor.slash(world.channel, "hint")).response.content
        seen["hint"] += ARABIC in hint or HEBREW in hint  # in the move, not only its reason
        if not seen["timed out"] and state.placing is None:
            await timed_out(world, monkeypatch)
            seen["timed out"] += 1
            continue
        move = moves[step % len(moves)]
        if state.placing is None and step % 2 == 0:
            if isinstance(move, Stack):
                on = state.name(move.owner)
                result = await actor.slash(
                    world.channel, "stack", die=move.face, on=on, height=move.height
                )
            else:
                result = await actor.slash(world.channel, "reroll", die=move.face)
            if result.response is not None and result.response.components:  # a chooser
                await tap(actor, result.response, live_of(world).state.legal_moves()[0])
            seen["typed"] += 1
        else:
            panel = await click(actor, table_message(world, live.id), "panel:")
            after = await tap(actor, panel.response, move)
            if after is not None and after.response is not None and after.response.components:
                following = live_of(world)
                if following is not None and following.state.placing is not None:
                    await tap(actor, after.response, following.state.legal_moves()[0])
            seen["tapped"] += 1
    else:
        raise AssertionError("the game did not end")
    assert all(seen.values()), seen
    await after_the_end(world, humans, "stack")
    assert_no_stray_direction(world, sheets=True)


@pytest.mark.parametrize("language", ["en", "ja"])
async def test_a_stack_up_game_of_right_to_left_names_sends_no_stray_direction(
    world: World, monkeypatch: pytest.MonkeyPatch, language: str
) -> None:
    monkeypatch.setattr(bot.tables, "PING_AFTER", 5.0)
    humans = await seated(world, monkeypatch, language, "stackup", 2)
    rng = random.Random(5)
    seen = {"refused": 0, "hint": 0, "timed out": 0, "typed": 0, "tapped": 0}
    for step in range(800):
        live = live_of(world)
        if live is None or live.state is None or live.state.is_over:
            break
        state = live.state
        if not seen["timed out"]:  # first: its 5 s ping is run out at once
            await timed_out(world, monkeypatch, early=True)
            seen["timed out"] += 1
            continue
        actor = actor_of(world, humans)
        if not seen["refused"]:
            other = next(h for h in humans if h is not actor)
            await other.slash(world.channel, "play", cards="R1")  # not their turn
            await actor.slash(world.channel, "play", cards="snatch שלום 2")  # no such player
            await actor.slash(world.channel, "play", cards="R99")
            await click(other, table_message(world, live.id), "panel:")  # a waiting hand
            seen["refused"] += 1
        if seen["hint"] < 3:
            await actor.slash(world.channel, "hint")
            seen["hint"] += 1
        move = rng.choice(state.legal_moves())
        if step % 3 == 2:
            await actor.slash(world.channel, "play", cards=typed(state, move, live))
            seen["typed"] += 1
        else:
            panel = await click(actor, table_message(world, live.id), "panel:")
            await click_through(actor, panel.response, live, move)
            seen["tapped"] += 1
    else:
        raise AssertionError("the game did not end")
    assert all(seen.values()), seen
    await after_the_end(world, humans, "stackup")
    assert_no_stray_direction(world, sheets=False)


@pytest.mark.parametrize("language", ["en", "ja"])
def test_a_stack_up_choice_names_its_snatch_target_isolated(language: str) -> None:
    """A typed Snatch without its count is answered with a button per move, each naming
    the player snatched from: cleaned of direction-changing characters, and isolated when
    it reads right to left."""
    rng = random.Random(1)
    state = StackUpState([ARABIC, EVIL, HEBREW], StackUpSettings(turn_limit=200))
    labels = []
    while not state.is_over and len(labels) < 6:
        if state.decision is Decision.CHANCE:
            state.apply(state.sample_chance(rng))
            continue
        with catalog.speaking(language):
            labels += [
                (STACK_UP.move_label(state, m), state.players[m.target])
                for m in state.legal_moves()
                if getattr(m, "target", None) is not None
            ]
        state.apply(rng.choice(state.legal_moves()))
    assert labels, "no Snatch in the game"
    for label, name in labels:
        assert not stray_direction(label), label
        assert name != EVIL or "evilname" in label, label
        assert name == EVIL or FSI + name + PDI in label, label
