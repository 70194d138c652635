"""``/hint`` in English quotes its move as typed in inline code, as the Japanese does
(`` `stack 6 on AI 2 1`: captures … ``): Discord shows the move as code, the way a player
types it, in every game; the names in it stay as they are (a mention in code pings
nobody), and the rest of the hint pings nobody either."""

from __future__ import annotations

import re

import pytest

from engine import games
from tests.bot.conftest import World, choose_colours, live_of

NAMES = {"alice": "al`ice @everyone", "bob": "<@123> **bob**"}
CODE = re.compile(r"(?<!\\)`([^`\n]+)`")
LIVE_MENTION = re.compile(r"<@!?\d+>|<@&\d+>|@everyone|@here")


@pytest.mark.parametrize("game", ["stack", "stackup", "colorstack"])
async def test_an_english_hint_quotes_its_move_as_typed_in_inline_code(
    world: World, game: str
) -> None:
    alice = world.guild.add_member(world.env.create_user("al"), nick=NAMES["alice"])
    bob = world.guild.add_member(world.env.create_user("bo"), nick=NAMES["bob"])
    lobby = (await alice.slash(world.channel, "table new", game=game)).response
    assert (await bob.click(lobby, label="Join")).ephemeral
    await alice.click(lobby, label="Start")
    for _ in range(2):  # Color Stack: the colours first, then a move on the board
        live = live_of(world)
        seat = live.state.current_player if game != "stack" else live.state.current
        actor = alice if live.user_at(seat) == alice.id else bob
        hint = await actor.slash(world.channel, "hint")
        text = hint.response.content
        assert hint.ephemeral and text.startswith("💡 The greedy AI would play: `"), text
        assert "\\`" not in text and not LIVE_MENTION.search(CODE.sub("", text)), text
        typed = CODE.findall(text)[0].replace("\u02cb", "`")  # a name's backtick, shown alike
        move = games.get(game).parse_move(live.state, typed, seat)
        assert live.state.is_legal(move), typed
        if game != "colorstack":
            break
        await choose_colours(world, alice, bob)
