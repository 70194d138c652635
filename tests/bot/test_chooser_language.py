"""The chooser of an ambiguous typed move (Stack Up!'s ``/play snatch`` or ``/play
switch``, Stack's ``/stack`` on a player with several piles of the face) is answered to
the mover alone, so it is said in the mover's language — its question and every button's
label — whatever the table's server speaks; a table message's button it names is named as
the table shows it (the server's language). A Japanese player on an English server reads
Japanese, an English player on a Japanese server English. (Color Stack's typed moves are
never ambiguous: its notation names every move fully.)"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

import catalog
from engine.errors import AmbiguousMoveError
from engine.stack.moves import RoundDice, Stack
from engine.stack.notation import parse_move as parse_stack
from engine.stack.rules import StackRules
from engine.stack.state import StackState
from engine.stackup.notation import parse_move as parse_stackup
from tests.bot.conftest import World, buttons_of, live_of
from tests.bot.speakers import client_locales, forget_languages
from tests.engine.stackup.situations import table

# (the mover's client locale, the server's language): the two that differ, and as before
# when they agree
SPEAKERS = [("ja", "en"), ("en-US", "ja"), ("en-US", "en"), ("ja", "ja")]
MY_HAND = {"en": "My hand", "ja": "手札"}  # the table message's button, by server


@pytest.fixture(autouse=True)
def fresh_languages() -> Iterator[None]:
    yield
    forget_languages()


async def seated(world: World, locales: dict[int, str], server: str, **lobby: Any) -> Any:
    """A started table of alice, bob and carol on a server speaking ``server``; its live
    table."""
    if server != "en":
        chosen = await world.admin.slash(
            world.channel, "houserules set", key="language", value=server
        )
        assert chosen.ephemeral, chosen.response.content
    opened = await world.alice.slash(world.channel, "table new", **lobby)
    assert opened.response is not None and not opened.ephemeral
    for guest in (world.bob, world.carol):
        joined = await guest.slash(world.channel, "table join")
        assert joined.ephemeral, joined.response.content
    started = await world.alice.slash(world.channel, "table start")
    assert started.response is not None, "not started"
    live = live_of(world)
    assert live is not None and live.state is not None
    return live


async def arranged(live: Any, state: Any) -> None:
    """The table at ``state`` (in memory: the test's ambiguous moves commit nothing)."""
    async with live.lock:
        live.state = state


def user_at(world: World, live: Any, seat: int) -> Any:
    user = live.user_at(seat)
    return next(u for u in (world.alice, world.bob, world.carol) if u.id == user)


def answered(result: Any) -> tuple[str, list[str]]:
    """A private answer's text and its buttons' labels."""
    assert result.response is not None and result.ephemeral, result
    labels = [str(b.get("label")) for b in buttons_of(result.response) if b.get("type") == 2]
    return str(result.response.content), labels


@pytest.mark.parametrize(("locale", "server"), SPEAKERS)
@pytest.mark.parametrize("typed", ["snatch", "switch", "R6 R7 R8"])
async def test_a_stack_up_chooser_is_in_the_movers_language(
    world: World, monkeypatch: pytest.MonkeyPatch, locale: str, server: str, typed: str
) -> None:
    locales = client_locales(monkeypatch)
    live = await seated(world, locales, server, game="stackup")
    names = tuple(live.state.players)
    state = table("R6 R7 R8 Snatch Switch", "R1 R2 R3 B4", "R9 B9 Y9", players=names)
    await arranged(live, state)
    mover = user_at(world, live, 0)
    locales[mover.id] = locale
    with pytest.raises(AmbiguousMoveError) as caught:
        parse_stackup(state, typed, 0)
    version = live.version
    text, labels = answered(await mover.slash(world.channel, "play", cards=typed))
    japanese = locale == "ja"
    button = MY_HAND[server]  # the table's button, as the table shows it
    if japanese:
        assert text == f"どれにしますか？（または**{button}**を押してください）"
    else:
        assert text == f"Which do you mean? (or press **{button}**)"
    moves = [m for m in caught.value.candidates if state.is_legal(m)]
    assert len(labels) == len(moves) > 1
    with catalog.speaking(catalog.language_of(locale)):
        assert labels == [live.game.move_label(state, m) for m in moves]
    with catalog.speaking("en" if japanese else "ja"):
        other = [live.game.move_label(state, m) for m in moves]
    assert not set(labels) & set(other), (labels, other)
    if typed == "snatch":  # each label names the player snatched from, and how many
        assert labels == [
            f"スナッチを出す：{names[m.target]}から{m.count}枚"
            if japanese
            else f"Play Snatch: {m.count} from {names[m.target]}"
            for m in moves
        ], labels
    assert live_of(world).version == version  # nothing played


@pytest.mark.parametrize(("locale", "server"), SPEAKERS)
async def test_a_stack_chooser_is_in_the_movers_language(
    world: World, monkeypatch: pytest.MonkeyPatch, locale: str, server: str
) -> None:
    locales = client_locales(monkeypatch)
    live = await seated(world, locales, server, dice=3)
    names = tuple(live.state.players)
    state = StackState(names, StackRules(dice_per_player=3), first=0)
    state.apply(RoundDice(((3, 5, 6), (3, 3, 3), (3, 4, 4))))
    state.apply(Stack(3, 1, 1))  # seat 1's pile (1, 0)
    state.apply(Stack(3, 0, 2))  # (1, 0, 1); seat 1 keeps a single 3
    assert state.current == 2
    await arranged(live, state)
    mover = user_at(world, live, 2)
    locales[mover.id] = locale
    with pytest.raises(AmbiguousMoveError) as caught:
        parse_stack(state, f'stack 3 on "{names[1]}"', 2)
    text, labels = answered(await mover.slash(world.channel, "stack", die=3, on=names[1]))
    japanese = locale == "ja"
    assert text == ("どの山のことですか？" if japanese else "Which pile do you mean?")
    moves = [m for m in caught.value.candidates if state.is_legal(m)]
    assert len(labels) == len(moves) == 2
    with catalog.speaking(catalog.language_of(locale)):
        assert labels == [live.game.move_label(state, m) for m in moves]
    with catalog.speaking("en" if japanese else "ja"):
        other = [live.game.move_label(state, m) for m in moves]
    assert not set(labels) & set(other), (labels, other)
