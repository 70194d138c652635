"""A whole game through the real command tree and views: /table new, Join, Add AI, Start,
moves typed and tapped, the choosers, round ends, the game end and /scores."""

from __future__ import annotations

from typing import Any

from bot.games.stack.game import move_code
from engine.stack.moves import Place, Reroll, Stack
from tests.bot.conftest import World, buttons_of, message, table_text_of


def live_of(world: World) -> Any:
    return world.bot.tables.service.by_channel[world.channel.id]


def table_message(world: World) -> Any:
    record = world.bot.tables.messages[live_of(world).id]
    return message(world, record.message_id)


async def open_lobby(world: World, **options: Any) -> Any:
    result = await world.alice.slash(world.channel, "table new", **options)
    assert result.response is not None and not result.ephemeral
    assert "lobby" in table_text_of(result.response)
    return result.response


async def test_lobby_join_add_ai_and_start(world: World) -> None:
    lobby = await open_lobby(world, target=30, dice=3)
    joined = await world.bob.click(lobby, label="Join")
    assert joined.ephemeral and "You're in" in joined.response.content
    again = await world.bob.click(lobby, label="Join")
    assert again.ephemeral and again.response.content == "You're already at this table."
    added = await world.alice.click(lobby, label="Add AI")
    assert added.ephemeral
    content = table_text_of(message(world, lobby.id))
    assert world.bob.mention in content and "AI 1" in content and "3/8 seated" in content
    refused = await world.bob.click(lobby, label="Start")
    assert refused.ephemeral and refused.response.content == "Only the host can start the game."
    started = await world.alice.click(lobby, label="Start")
    assert not started.ephemeral and "won the roll-off" in started.response.content
    shown = table_message(world)
    assert "round 1" in table_text_of(shown)
    assert [c["label"] for c in buttons_of(shown)] == ["My turn"]


async def test_the_lobby_seats_an_ai_of_the_level_chosen_in_its_select(world: World) -> None:
    lobby = await open_lobby(world)
    outsider = await world.bob.select(lobby, ["expert"])
    assert outsider.ephemeral
    assert outsider.response.content == "You're not at this table. Press **Join** to sit down."
    chosen = await world.alice.select(message(world, lobby.id), ["expert"])
    assert chosen.ephemeral and chosen.response.content == "An AI player (expert) sits down."
    await world.alice.select(message(world, lobby.id), ["random"])
    await world.alice.click(message(world, lobby.id), label="Add AI")
    content = table_text_of(message(world, lobby.id))
    assert "AI 1 (expert)" in content and "AI 2 (random)" in content
    assert "AI 3 (greedy)" in content
    levels = [seat.ai_level for seat in live_of(world).info.seats]
    assert levels == [None, "expert", "random", "greedy"]


async def play_until(
    world: World, *, limit: int = 400, players: tuple[Any, ...] = ()
) -> dict[str, int]:
    """Humans (``players``, else alice and bob) move, alternating typed commands and taps
    on the My turn panel."""
    seen = {"typed": 0, "tapped": 0, "chooser": 0}
    actors = {p.id: p for p in players or (world.alice, world.bob)}
    for step in range(limit):
        live = world.bot.tables.service.by_channel.get(world.channel.id)
        if live is None or live.state is None or live.state.is_over:
            return seen
        state = live.state
        user = live.user_at(state.current)
        actor = actors[user]
        moves = state.legal_moves()
        move = moves[step % len(moves)]
        if state.placing is not None:
            assert isinstance(move, Place)
            panel = await actor.click(table_message(world), label="My turn")
            assert panel.ephemeral
            await tap(actor, panel.response, move)
            seen["chooser"] += 1
        elif step % 2 == 0:
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
            assert result.ephemeral, result.response.content
            if result.response.components:  # a chooser for the rerolled die
                live = world.bot.tables.service.by_channel[world.channel.id]
                place = live.state.legal_moves()[0]
                await tap(actor, result.response, place)
                seen["chooser"] += 1
            seen["typed"] += 1
        else:
            panel = await actor.click(table_message(world), label="My turn")
            assert panel.ephemeral, panel.response.content
            after = await tap(actor, panel.response, move)
            if after is not None and after.response is not None and after.response.components:
                live = world.bot.tables.service.by_channel[world.channel.id]
                await tap(actor, after.response, live.state.legal_moves()[0])
                seen["chooser"] += 1
            seen["tapped"] += 1
    raise AssertionError("the game did not end")


async def tap(actor: Any, message: Any, move: Any) -> Any:
    code = move_code(move)
    for component in buttons_of(message):
        custom_id = component.get("custom_id", "")
        if component["type"] == 2 and custom_id.endswith(":" + code):
            return await actor.click(message, custom_id=custom_id)
        if component["type"] == 3 and any(o["value"] == code for o in component["options"]):
            return await actor.select(message, [code], custom_id=custom_id)
    raise AssertionError(f"{code} is not on the panel")


async def test_a_whole_game_to_the_end(world: World) -> None:
    lobby = await open_lobby(world, target=25, dice=4)
    await world.bob.click(lobby, label="Join")
    await world.alice.click(lobby, label="Add AI")
    await world.alice.click(lobby, label="Start")
    table_id = live_of(world).id
    seen = await play_until(world)
    print("SEEN", seen)
    assert seen["typed"] and seen["tapped"]
    texts = [table_text_of(m) for m in world.channel.history()]
    assert any(t.startswith("**Round 1 is over.**") for t in texts)
    assert any("🏆" in t and ("wins" in t or "share the win" in t) for t in texts)
    scores = await world.alice.slash(world.channel, "scores")
    assert scores.ephemeral and "Score sheet" in scores.response.content
    assert "Won by" in scores.response.content
    history = await world.alice.slash(world.channel, "scores", show="history")
    assert "Finished games" in history.response.content
    board = await world.alice.slash(world.channel, "leaderboard", by="points")
    assert "Leaderboard" in board.response.content
    stats = await world.bob.slash(world.channel, "stats")
    assert "1 game," in stats.response.content
    exported = await world.alice.slash(world.channel, "export")
    assert exported.response.attachments[0].filename == f"stack-table-{table_id}.json"


async def test_a_score_sheet_counts_an_emoji_sequence_as_one_glyph(world: World) -> None:
    """The game's end sheet is a code block lined up by display columns: a family joined
    by zero-width joiners (👨‍👩‍👧‍👦), a skin tone (👍🏽) and an emoji-style heart (❤️)
    are each one glyph of two columns, so the name column is as wide as the widest name
    shows (8 columns here), not as wide as its code points would make it."""
    family = world.guild.add_member(
        world.env.create_user("family"), nick="👨\u200d👩\u200d👧\u200d👦👍🏽❤️ab"
    )
    bob = world.guild.add_member(world.env.create_user("robert"), nick="bob")
    opened = await family.slash(world.channel, "table new", target=10, dice=2)
    await bob.click(opened.response, label="Join")
    await family.click(opened.response, label="Start")
    await play_until(world, players=(family, bob))
    [end] = [m.content for m in world.channel.history() if "🏆" in m.content]
    block = end.split("```")[1].strip("\n").split("\n")
    header, *rows = block
    assert header.index("R1") == 8 + 1 + 2, block  # the name column, a space, "  R1"
    assert any(row.startswith("bob      ") and row[9] == " " for row in rows), block


async def test_table_message_carries_a_picture_of_the_field(world: World) -> None:
    lobby = await open_lobby(world, target=30, dice=4)
    await world.bob.click(lobby, label="Join")
    await world.alice.click(lobby, label="Start")
    shown = table_message(world)
    assert [a.filename for a in shown.attachments] == ["table.png"]
    data = await shown.attachments[0].read()
    assert data.startswith(b"\x89PNG")


async def test_table_show_reposts_at_the_bottom(world: World) -> None:
    lobby = await open_lobby(world, target=30, dice=4)
    await world.bob.click(lobby, label="Join")
    await world.alice.click(lobby, label="Start")
    old = table_message(world).id
    result = await world.bob.slash(world.channel, "table show")
    assert result.ephemeral
    new = table_message(world)
    assert new.id != old and world.channel.last_message.id == new.id
    assert old not in [m.id for m in world.channel.history()]
