"""Color Stack on Discord through simcord, with the real bot, command tree and views: a
whole game of two humans with 32-character names full of markdown and mentions, played
to a win both by typing (``/move c1-e3``, ``/set c1 4``) and by tapping (**My move**: a
piece, then a destination from the menu or a new face), checked after every step (the
table message within Discord's limits and escaping every name, the picture told the
board as it is, the panel's picture with the piece selected). Also: illegal typed moves
refused specifically and changing nothing, a stale panel refused, resignation by the
player *not* to move (tapped, with its confirmation, and typed), ``/rules`` in Japanese
for a Japanese client and in English otherwise, and a game against an AI seat.

The moves are chosen from the engine's legal moves by a simple scripted pair: the first
player takes a win when there is one, else the move that leaves the most winning moves
for their next turn; the other player only sets dice (to 6 when they can), so the game
ends in a win within a few dozen turns."""

from __future__ import annotations

import random
import re
from typing import Any

import pytest
import simcord.interactions

import catalog
from bot.games.colorstack.panel import move_code
from bot.games.colorstack.rules import rules_brief
from bot.sheets import HISTORY_NAME, short_escaped
from bot.text import MESSAGE_LIMIT, buttons_in, escape_name
from engine.colorstack.board import square_name
from engine.colorstack.moves import Move, Resign, Set
from engine.colorstack.state import ColorStackState, stack_text
from engine.errors import IllegalReason
from pictures.colorstack import BoardPicture
from pictures.painter import DrawJob
from tests.bot.conftest import (
    NASTY,
    World,
    buttons_of,
    drawings,
    live_of,
    nasty_name,
    table_message,
    table_text_of,
)
from tests.bot.speakers import client_locales


def notation(move: Move | Set | Resign) -> str:
    if isinstance(move, Move):
        return f"{square_name(move.frm)}-{square_name(move.to)}"
    if isinstance(move, Set):
        return f"set {square_name(move.square)} {move.face}"
    return "resign"


def scripted(state: ColorStackState, hero: int, rng: random.Random) -> Move | Set:
    """The hero wins when they can, else builds threats; the other player sets dice."""
    seat = state.current_player
    assert seat is not None
    if seat == hero:
        wins = state.winning_moves(seat)
        if wins:
            return wins[0]
        best: list[Move | Set] = []
        score = -1
        for move in state.legal_moves():
            state.push(move)
            threats = 0 if state.is_over else len(state.winning_moves(hero))
            state.pop()
            if threats > score:
                best, score = [move], threats
            elif threats == score:
                best.append(move)
        return rng.choice(best)
    sets = [m for m in state.legal_moves() if isinstance(m, Set)]
    return rng.choice([m for m in sets if m.face == 6] or sets)


class Spy:
    """The picture jobs the painter was given."""

    def __init__(self) -> None:
        self.jobs: list[DrawJob] = []


async def colorstack_table(
    world: World, monkeypatch: pytest.MonkeyPatch, *, ai: bool = False, choose: bool = True
) -> tuple[list[Any], Spy]:
    """A started table of two humans (or one and an AI seat); with ``choose``, its first
    player (a human) has typed their colours, red then yellow, so the board is set up."""
    humans = [
        world.guild.add_member(world.env.create_user(f"cs{i}"), nick=nasty_name(i))
        for i in range(1 if ai else 2)
    ]
    spy = Spy()
    spy.jobs = drawings(world, monkeypatch)
    opened = await humans[0].slash(world.channel, "table new", game="colorstack")
    assert opened.response is not None and not opened.ephemeral, opened.response
    lobby = opened.response
    if ai:
        added = await humans[0].click(lobby, label="Add AI")
        assert added.response is not None
    else:
        joined = await humans[1].click(lobby, label="Join")
        assert joined.ephemeral, joined.response.content
    started = await humans[0].click(lobby, label="Start")
    assert started.response is not None
    state: ColorStackState = live_of(world).state
    if choose and state.choosing_colours:
        assert state.first is not None
        chooser = actor_of(world, humans, state.first)
        chosen = await chooser.slash(world.channel, "move", move="colours red yellow")
        # their turn goes on: the answer is their panel, with the colours chosen
        assert chosen.ephemeral and "Your colours: 🟥 red & 🟨 yellow" in chosen.response.content
    return humans, spy


async def first_turn(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> tuple[list[Any], Any, ColorStackState, int]:
    """A game of two humans just started: the humans, the live table, its state and the
    seat to move."""
    humans, _ = await colorstack_table(world, monkeypatch)
    live = live_of(world)
    state: ColorStackState = live.state
    return humans, live, state, to_move(state)


def store_of(world: World) -> Any:
    store = world.bot.store
    assert store is not None
    return store


def to_move(state: ColorStackState) -> int:
    seat = state.current_player
    assert seat is not None
    return seat


def actor_of(world: World, humans: list[Any], seat: int) -> Any:
    user = live_of(world).user_at(seat)
    return next(h for h in humans if h.id == user)


async def type_move(world: World, actor: Any, move: Move | Set | Resign) -> Any:
    if isinstance(move, Set):
        return await actor.slash(
            world.channel, "set", square=square_name(move.square), number=move.face
        )
    return await actor.slash(world.channel, "move", move=notation(move))


async def open_piece(world: World, actor: Any, live: Any, square: int) -> Any:
    """**My move**, then the piece on ``square``: the piece's panel (with its picture)."""
    shown = table_message(world, live.id)
    panel = await actor.click(shown, label="My move")
    assert panel.ephemeral, panel.response
    prefix = f"colorstack:{live.id}:{live.version}"
    ids = [b.get("custom_id") for b in buttons_of(panel.response)]
    step = f"{prefix}:s:p{square_name(square)}"
    assert step in ids, (step, ids)
    opened = await actor.click(panel.response, custom_id=step)
    assert opened.response is not None
    return opened.response


async def tap_move(world: World, actor: Any, live: Any, move: Move | Set) -> Any:
    """Play ``move`` through **My move**: the piece, then its destination or face."""
    frm = move.frm if isinstance(move, Move) else move.square
    panel = await open_piece(world, actor, live, frm)
    assert len(panel.content) <= MESSAGE_LIMIT
    code = move_code(move)
    if isinstance(move, Set):
        custom_id = f"move:{live.id}:{live.version}:{code}"
        assert custom_id in [b.get("custom_id") for b in buttons_of(panel)]
        return await actor.click(panel, custom_id=custom_id)
    menus = [
        b
        for b in buttons_of(panel)
        if b.get("type") == 3 and code in [o["value"] for o in b["options"]]
    ]
    assert menus, (code, [b.get("custom_id") for b in buttons_of(panel)])
    return await actor.select(panel, [code], custom_id=menus[0]["custom_id"])


def check_table(world: World, live: Any, spy: Spy) -> str:
    """The table message: within limits, every name escaped, the board's facts; and
    the pictures drawn since the last check told the board as it is."""
    state: ColorStackState = live.state
    text = table_text_of(table_message(world, live.id))
    assert len(text) <= MESSAGE_LIMIT
    assert NASTY not in text
    for seat in range(2):
        assert escape_name(state.players[seat]) in text
    assert "```" in text and "a  b  c  |d  e  f  |g  h  i" in text
    if not state.is_over:
        assert f"turn {state.turns + 1} · " in text
        assert [b["label"] for b in buttons_of(table_message(world, live.id))] == ["My move"]
    boards = [j.args[0] for j in spy.jobs if j.picture == "colorstack"]
    for picture in boards:
        assert isinstance(picture, BoardPicture) and picture.names == state.players
    table_pictures = [p for p in boards if p.selected is None]
    if table_pictures:
        latest = table_pictures[-1]
        assert latest.stacks == tuple(stack_text(state.stack(s)) for s in range(state.squares))
        assert latest.turns_taken == state.turns
    spy.jobs.clear()
    return text


async def test_a_whole_game_typed_and_tapped_to_a_win(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    humans, spy = await colorstack_table(world, monkeypatch)
    live = live_of(world)
    table_id = live.id
    state: ColorStackState = live.state
    hero = state.first
    assert hero is not None
    rng = random.Random(11)
    seen = {"typed_move": 0, "typed_set": 0, "tapped_move": 0, "tapped_set": 0, "stacks": 0}
    check_table(world, live, spy)
    for step in range(400):
        live = live_of(world)
        if live is None or live.state.is_over:
            break
        state = live.state
        seat = state.current_player
        assert seat is not None
        actor = actor_of(world, humans, seat)
        move = scripted(state, hero, rng)
        version = live.version
        frm = move.frm if isinstance(move, Move) else move.square
        destinations = set(state.destinations(frm))  # the state changes in place
        if step // 2 % 2 == 0:  # each player types two turns in four and taps the others
            result = await type_move(world, actor, move)
            seen["typed_move" if isinstance(move, Move) else "typed_set"] += 1
        else:
            result = await tap_move(world, actor, live, move)
            seen["tapped_move" if isinstance(move, Move) else "tapped_set"] += 1
            panel_pictures = [j.args[0] for j in spy.jobs if j.args[0].selected is not None]
            assert [p.selected for p in panel_pictures] == [frm]
            assert set(panel_pictures[0].destinations) == destinations
        content = result.response.content if result.response else ""
        assert content.startswith("✅"), (notation(move), content)
        assert result.ephemeral or result.response.flags.ephemeral  # typed, or a panel edited
        after = live_of(world)
        assert after is None or after.version > version
        current = after.state if after is not None else state
        seen["stacks"] += isinstance(move, Move) and len(current.stack(move.to)) > 1
        if after is not None:
            check_table(world, after, spy)
    else:
        raise AssertionError("the game did not end")
    final: ColorStackState = live_of(world).state if live_of(world) else state
    await world.env.advance_time(5)
    texts = [table_text_of(m) for m in world.channel.history()]
    assert any("wins with a stack of all four colours" in t for t in texts), texts[-3:]
    scores = (await humans[0].slash(world.channel, "scores")).response.content
    assert " beat " in scores and scores.endswith(" (a stack of all four colours)."), scores
    stored = await store_of(world).table(table_id)
    assert stored.status != "playing"
    assert all(seen[k] for k in ("typed_move", "typed_set", "tapped_move", "tapped_set")), seen
    assert seen["stacks"], seen
    export = await humans[0].slash(world.channel, "export")
    assert export.ephemeral and export.response.attachments
    _ = final


async def test_the_first_player_chooses_colours_from_the_panel_before_the_board(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Set-up step 1: the first player, drawn at random, chooses two colours, in order,
    before the board is set up; the other player waits, and nobody may move meanwhile."""
    humans, spy = await colorstack_table(world, monkeypatch, choose=False)
    live = live_of(world)
    state: ColorStackState = live.state
    assert state.choosing_colours and state.first is not None
    first, other = state.first, 1 - state.first
    chooser, waiter = actor_of(world, humans, first), actor_of(world, humans, other)
    names = [escape_name(name) for name in state.players]
    text = table_text_of(table_message(world, live.id))
    assert f"**{names[first]}** moves first and is choosing colours" in text, text
    assert "```" not in text and not spy.jobs  # no board, no picture yet
    waiting = await waiter.click(table_message(world, live.id), label="My move")
    assert waiting.ephemeral
    assert f"Waiting for **{names[first]}** to choose colours" in waiting.response.content
    assert [b["label"] for b in buttons_of(waiting.response)] == ["Resign…"]  # at any time
    export = await waiter.slash(world.channel, "export")
    assert export.ephemeral and export.response.content.startswith("The board is not set up yet")
    refused = await waiter.slash(world.channel, "move", move="colours red yellow")
    assert refused.ephemeral and "moves first and chooses the colours" in refused.response.content
    early = await chooser.slash(world.channel, "move", move="a1-a2")
    assert early.ephemeral and "chooses colours first" in early.response.content
    assert live_of(world).version == live.version  # refused: nothing changed
    hint = await chooser.slash(world.channel, "hint")
    assert "`colours red yellow`, the rule book's default" in hint.response.content
    panel = await chooser.click(table_message(world, live.id), label="My move")
    assert "You move first: choose your two colours" in panel.response.content
    menu = next(b for b in buttons_of(panel.response) if b.get("type") == 3)
    assert len(menu["options"]) == 12
    green_blue = next(o for o in menu["options"] if o["value"] == "colours.green.blue")
    assert green_blue["label"] == "🟩 green, then 🟦 blue"
    assert green_blue["description"].endswith("gets 🟥 red & 🟨 yellow")
    done = await chooser.select(panel.response, ["colours.green.blue"], custom_id=menu["custom_id"])
    assert "Your colours: 🟩 green & 🟦 blue" in done.response.content, done.response.content
    state = live_of(world).state
    assert state.setup is not None and state.colours[first] == (3, 1)
    await world.env.advance_time(5)
    said = " ".join(table_text_of(m) for m in world.channel.history())
    assert (
        f"{names[first]} chose 🟩 green & 🟦 blue; {names[other]} has 🟥 red & 🟨 yellow." in said
    )
    check_table(world, live_of(world), spy)  # the board, its picture


async def test_the_player_waiting_for_colours_may_resign_and_that_game_has_no_record(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    humans, _ = await colorstack_table(world, monkeypatch, choose=False)
    live = live_of(world)
    state: ColorStackState = live.state
    assert state.choosing_colours and state.first is not None
    waiter = actor_of(world, humans, 1 - state.first)
    resigned = await waiter.slash(world.channel, "move", move="resign")
    assert resigned.ephemeral and resigned.response.content.startswith("✅"), resigned.response
    await world.env.advance_time(5)
    texts = [table_text_of(m) for m in world.channel.history()]
    name = escape_name(state.players[1 - state.first])
    assert any(f"🏳️ **{name}** resigned" in text for text in texts), texts[-2:]
    export = await waiter.slash(world.channel, "export")
    assert (
        export.response.content
        == "That game ended before its board was set up, so it has no record."
    )
    history = await waiter.slash(world.channel, "scores", show="history")
    button = next(b for b in buttons_of(history.response) if b.get("custom_id"))
    story = await waiter.click(history.response, custom_id=button["custom_id"])
    assert story.ephemeral and "(by resignation)" in story.response.content
    assert not story.response.attachments  # its sheet alone: no record, no chart


async def test_illegal_typed_moves_are_refused_specifically_changing_nothing(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    humans, live, state, seat = await first_turn(world, monkeypatch)
    actor = actor_of(world, humans, seat)
    other = next(h for h in humans if h is not actor)
    before = (live.version, state.to_dict())
    piece = state.pieces(seat)[0]
    black = min(state.black_squares)
    refused = await actor.slash(
        world.channel, "move", move=f"{square_name(piece)}-{square_name(black)}"
    )
    assert refused.ephemeral and refused.response.content == f"{square_name(black)} is black."
    nonsense = await actor.slash(world.channel, "move", move="c1-z9")
    assert nonsense.ephemeral and "z9" in nonsense.response.content
    theirs = state.pieces(1 - seat)[0]
    not_mine = await actor.slash(world.channel, "set", square=square_name(theirs), number=2)
    assert not_mine.ephemeral and "is not your piece" in not_mine.response.content
    early = await other.slash(world.channel, "move", move=notation(state.legal_moves()[0]))
    assert early.ephemeral and "turn" in early.response.content
    assert escape_name(state.players[seat]) in early.response.content
    live = live_of(world)
    assert (live.version, live.state.to_dict()) == before
    # play on until a piece could reach a stronger stack: "your 5 cannot stack on a 2"
    rng = random.Random(3)
    for _ in range(60):
        live = live_of(world)
        state = live.state
        seat = to_move(state)
        actor = actor_of(world, humans, seat)
        weak = next(
            (
                (frm, to)
                for frm in state.pieces(seat)
                for to in range(state.squares)
                if (err := state.refusal(Move(frm, to), seat)) is not None
                and err.reason is IllegalReason.TOO_WEAK
            ),
            None,
        )
        if weak is not None:
            frm, to = weak
            before = (live.version, state.to_dict())
            refused = await actor.slash(
                world.channel, "move", move=f"{square_name(frm)}-{square_name(to)}"
            )
            n, t = state.face(frm), state.face(to)
            assert refused.ephemeral
            assert refused.response.content.startswith(f"Your {n} cannot stack on a")
            assert f" {t}" in refused.response.content
            live = live_of(world)
            assert (live.version, live.state.to_dict()) == before
            return
        result = await type_move(world, actor, rng.choice(state.legal_moves()))
        assert result.response.content.startswith("✅"), result.response.content
    raise AssertionError("no position with a too-weak stacking came up")


@pytest.mark.parametrize("language", ["en-US", "ja"])
async def test_each_bad_set_or_move_gets_its_own_words_not_the_general_help(
    world: World, monkeypatch: pytest.MonkeyPatch, language: str
) -> None:
    """``/set square:zz number:3`` was answered with how to type a set ("Name the piece's
    square and the new number: set c1 4."), as if no square had been given: it says
    that ``zz`` is no square, and which squares there are. Every bad ``/set`` and
    ``/move`` gets words of its own, privately, in the player's language, and changes
    nothing."""
    locales = client_locales(monkeypatch)
    humans, live, state, seat = await first_turn(world, monkeypatch)
    actor = actor_of(world, humans, seat)
    locales[actor.id] = language
    before = (live.version, state.to_dict())
    mine = state.pieces(seat)[0]
    face = state.face(mine)
    empty = next(s for s in range(state.squares) if not state.stack(s) and not state.is_black(s))
    black = min(state.black_squares)
    rows = state.rows
    assert state.settings.board == "light" and rows == 6
    tried: list[tuple[str, dict[str, Any], str, dict[str, Any]]] = [
        ("set", {"square": "zz", "number": 3}, "not_a_square", {"text": "zz", "rows": rows}),
        ("set", {"square": "J1", "number": 3}, "not_a_square", {"text": "J1", "rows": rows}),
        ("set", {"square": "i9", "number": 3}, "off_board", {"square": "i9", "rows": rows}),
        ("set", {"square": " ", "number": 3}, "set_syntax", {}),
        ("set", {"square": square_name(empty), "number": 3}, "no_piece", {}),
        ("set", {"square": square_name(black), "number": 3}, "black_empty", {}),
        ("set", {"square": square_name(mine), "number": face}, "same_face", {"face": face}),
        ("move", {"move": f"set {square_name(mine)} 0"}, "bad_face", {"text": "0"}),
        ("move", {"move": f"set {square_name(mine)} 7"}, "bad_face", {"text": "7"}),
        ("move", {"move": "set zz 3"}, "not_a_square", {"text": "zz", "rows": rows}),
        ("move", {"move": "zz-a1"}, "not_a_square", {"text": "zz", "rows": rows}),
        ("move", {"move": f"{square_name(mine)}-zz"}, "not_a_square", {"text": "zz", "rows": rows}),
        ("move", {"move": "i9-a1"}, "off_board", {"square": "i9", "rows": rows}),
        ("move", {"move": " "}, "empty", {}),
    ]
    lang = catalog.language_of(language)
    with catalog.speaking(lang):
        general = (catalog.t("colorstack.error.syntax"), catalog.t("colorstack.error.set_syntax"))
        board = catalog.t("colorstack.board.light")
    for command, options, key, facts in tried:
        facts.setdefault("square", options.get("square", "").strip().lower())
        facts.setdefault("syntax", general[0])
        facts.setdefault("board", board)
        with catalog.speaking(lang):
            expected = catalog.t(f"colorstack.error.{key}", **facts)
        answer = await actor.slash(world.channel, command, **options)
        assert answer.ephemeral, (command, options)
        said = answer.response.content
        assert said == expected, (command, options, said)
        if key not in ("empty", "set_syntax"):
            assert general[0] not in said and general[1] not in said, (command, options, said)
        live = live_of(world)
        assert (live.version, live.state.to_dict()) == before, (command, options)
    if lang == "en":  # as the report asked, word for word
        answer = await actor.slash(world.channel, "set", square="zz", number=3)
        assert answer.response.content == (
            "“zz” is not a square: columns a to i, rows 1 to 6 (like `c1`)."
        )


async def test_a_stale_panel_is_refused_and_changes_nothing(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    humans, live, state, seat = await first_turn(world, monkeypatch)
    actor = actor_of(world, humans, seat)
    piece = state.pieces(seat)[0]
    stale = await open_piece(world, actor, live, piece)
    face = next(f for f in range(1, 7) if f != state.face(piece))
    stale_set = f"move:{live.id}:{live.version}:set.{square_name(piece)}.{face}"
    stale_back = f"colorstack:{live.id}:{live.version}:s:"
    typed = await type_move(world, actor, state.legal_moves()[-1])  # the table moves on
    assert typed.response.content.startswith("✅")
    live = live_of(world)
    before = (live.version, live.state.to_dict())
    refused = await actor.click(stale, custom_id=stale_set)
    assert "older state" in refused.response.content
    back = await actor.click(stale, custom_id=stale_back)
    assert "older state" in back.response.content
    live = live_of(world)
    assert (live.version, live.state.to_dict()) == before


async def resigner_not_to_move(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> tuple[Any, ColorStackState, int, int, Any]:
    """At the first turn: the live table, its game, the seat to move, the seat waiting and
    the human at the waiting seat."""
    humans, live, state, mover = await first_turn(world, monkeypatch)
    waiting = 1 - mover
    return live, state, mover, waiting, actor_of(world, humans, waiting)


async def test_the_player_not_to_move_resigns_from_the_panel(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    live, state, mover, waiting, resigner = await resigner_not_to_move(world, monkeypatch)
    shown = table_message(world, live.id)
    panel = await resigner.click(shown, label="My move")
    assert panel.ephemeral and "Waiting for" in panel.response.content
    assert [b["label"] for b in buttons_of(panel.response)] == ["Resign…"]
    confirm = await resigner.click(panel.response, label="Resign…")
    assert "Resign this game?" in confirm.response.content
    assert escape_name(state.players[mover]) in confirm.response.content
    back = await resigner.click(confirm.response, label="Back")
    assert "Waiting for" in back.response.content  # Back changes nothing
    assert live_of(world).version == live.version
    confirm = await resigner.click(back.response, label="Resign…")
    done = await resigner.click(
        confirm.response, custom_id=f"move:{live.id}:{live.version}:resign.{waiting}"
    )
    assert done.response.content.startswith("✅"), done.response.content
    await world.env.advance_time(5)
    texts = [table_text_of(m) for m in world.channel.history()]
    resigned = f"🏳️ **{escape_name(state.players[waiting])}** resigned; "
    assert any(
        resigned in t and f"**{escape_name(state.players[mover])}** wins" in t for t in texts
    )
    stored = await store_of(world).table(live.id)
    assert stored.status != "playing"


async def test_scores_say_the_turn_then_who_won_and_how_not_a_sheet_of_zeros(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Color Stack has no points: ``/scores`` shows the turn and the two players while the
    game runs, then who beat whom and how; the history line lists the players, no
    figure of 0s and 1s."""
    _, state, mover, waiting, resigner = await resigner_not_to_move(world, monkeypatch)
    names = [escape_name(name) for name in state.players]
    running = (await resigner.slash(world.channel, "scores")).response.content
    assert running.startswith("**Color Stack** · turn 1 · "), running
    assert all(f"**{name}**" in running for name in names) and "Total" not in running
    await resigner.slash(world.channel, "move", move="resign")
    await world.env.advance_time(5)
    over = await resigner.slash(world.channel, "scores")
    assert over.ephemeral
    assert over.response.content == (
        f"**Color Stack** · 🏆 **{names[mover]}** beat **{names[waiting]}** (by resignation)."
    )
    history = (await resigner.slash(world.channel, "scores", show="history")).response.content
    shorts = ", ".join(short_escaped(name, HISTORY_NAME) for name in state.players)
    assert history.splitlines()[1].endswith(f" (by resignation) · {shorts}"), history


async def test_resignation_typed_by_the_player_not_to_move(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    _, state, _, waiting, resigner = await resigner_not_to_move(world, monkeypatch)
    result = await resigner.slash(world.channel, "move", move="resign")
    assert result.ephemeral and result.response.content.startswith("✅"), result.response
    await world.env.advance_time(5)
    texts = [table_text_of(m) for m in world.channel.history()]
    assert any(f"🏳️ **{escape_name(state.players[waiting])}** resigned" in t for t in texts)


async def test_a_piece_panel_shows_only_legal_choices_and_a_picture(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    humans, spy = await colorstack_table(world, monkeypatch)
    live = live_of(world)
    state: ColorStackState = live.state
    seat = to_move(state)
    actor = actor_of(world, humans, seat)
    shown = table_message(world, live.id)
    panel = (await actor.click(shown, label="My move")).response
    steps = [b["custom_id"] for b in buttons_of(panel) if ":s:p" in b.get("custom_id", "")]
    assert sorted(s.rsplit(":p", 1)[1] for s in steps) == sorted(
        square_name(s) for s in state.pieces(seat)
    )
    piece = state.pieces(seat)[0]
    spy.jobs.clear()
    opened = await open_piece(world, actor, live, piece)
    assert [a.filename for a in opened.attachments] == ["board.png"]
    codes = {o["value"] for b in buttons_of(opened) if b.get("type") == 3 for o in b["options"]}
    codes |= {
        b["custom_id"].split(":", 3)[3]
        for b in buttons_of(opened)
        if b.get("custom_id", "").startswith("move:")
    }
    legal = {
        move_code(m)
        for m in state.legal_moves()
        if getattr(m, "frm", getattr(m, "square", None)) == piece
    }
    assert codes == legal
    [job] = spy.jobs
    assert job.args[0].selected == piece
    assert set(job.args[0].destinations) == set(state.destinations(piece))
    back = await actor.click(opened, label="Back")
    assert back.response.attachments == []  # the root shows no picture


async def test_rules_in_japanese_for_a_japanese_client(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    english = await world.alice.slash(world.channel, "rules", game="colorstack")
    assert english.ephemeral and english.response.content.startswith(rules_brief("en-US"))
    assert len(english.response.content) <= MESSAGE_LIMIT
    base = simcord.interactions.base_payload

    def japanese(*args: Any, **kwargs: Any) -> Any:
        record, payload = base(*args, **kwargs)
        payload["locale"] = "ja"
        return record, payload

    monkeypatch.setattr(simcord.interactions, "base_payload", japanese)
    answer = await world.alice.slash(world.channel, "rules", game="colorstack")
    text = answer.response.content
    with buttons_in("en"):  # the table's button named as this English server shows it
        brief = rules_brief("ja")
    assert "**My move**" in brief
    assert answer.ephemeral and text.startswith(brief) and len(text) <= MESSAGE_LIMIT
    assert "turn_limit" in text  # the house rules in force follow
    stack = await world.alice.slash(world.channel, "rules", game="stack")
    assert "カラースタック" not in stack.response.content  # other games stay English


async def test_a_game_against_an_ai_seat(world: World, monkeypatch: pytest.MonkeyPatch) -> None:
    humans, spy = await colorstack_table(world, monkeypatch, ai=True)
    [human] = humans
    live = live_of(world)
    me = next(s for s in range(2) if live.user_at(s) == human.id)
    rng = random.Random(2)
    for turn in range(6):
        live = live_of(world)
        state: ColorStackState = live.state
        assert state.current_player == me  # the AI has answered every move at once
        turns = state.turns
        move = rng.choice(state.legal_moves())
        if turn % 2:
            result = await tap_move(world, human, live, move)
        else:
            result = await type_move(world, human, move)
        assert result.response.content.startswith("✅"), result.response.content
        after = live_of(world)
        if after is None or after.state.is_over:
            return  # the AI won
        assert after.state.turns >= turns + 2 or after.state.current_player == me
        check_table(world, after, spy)
    result = await human.slash(world.channel, "move", move="resign")
    assert result.response.content.startswith("✅")
    await world.env.advance_time(5)
    texts = [table_text_of(m) for m in world.channel.history()]
    mine = escape_name(nasty_name(0))
    assert any(f"🏳️ **{mine}** resigned; " in t for t in texts), texts[-2:]
    stored = await store_of(world).table(live.id)
    assert stored.status != "playing"


async def test_a_draw_at_the_turn_limit_is_announced(world: World) -> None:
    opened = await world.alice.slash(world.channel, "table new", game="colorstack", turn_limit=1)
    lobby = opened.response
    assert "A draw after 1 turn, or when a position comes up a third time." in table_text_of(lobby)
    await world.bob.click(lobby, label="Join")
    await world.alice.click(lobby, label="Start")
    live = live_of(world)
    state: ColorStackState = live.state
    seat = to_move(state)
    actor = world.alice if live.user_at(seat) == world.alice.id else world.bob
    await actor.slash(world.channel, "move", move="colours red yellow")  # no turn
    state = live_of(world).state
    actor = world.alice if live.user_at(seat) == world.alice.id else world.bob
    piece = state.pieces(seat)[0]
    face = 1 if state.face(piece) != 1 else 2
    result = await actor.slash(world.channel, "set", square=square_name(piece), number=face)
    assert result.response.content.startswith("✅")
    await world.env.advance_time(5)
    texts = [table_text_of(m) for m in world.channel.history()]
    assert any("🤝 Draw: the turn limit (1 turn) was reached." in t for t in texts), texts[-2:]
    stored = await store_of(world).table(live.id)
    assert stored.status != "playing"
    players = " and ".join(f"**{name}**" for name in state.players)
    scores = await world.alice.slash(world.channel, "scores")
    assert scores.response.content == f"**Color Stack** · 🤝 {players} drew (at the turn limit)."
    history = (await world.alice.slash(world.channel, "scores", show="history")).response.content
    line = history.splitlines()[1]
    assert f" · 🤝 draw at the turn limit · {', '.join(state.players)}" in line, line


ARABIC = "عمر"  # a Discord name in Arabic: its letters read right to left


async def test_a_right_to_left_name_is_isolated_and_an_override_left_out(
    world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A name in Arabic (right-to-left letters) would take the words after it into its
    direction ("عمر to move · turn 1" read from the right); one leaving an override open
    ("evil\u202ename") would reverse the rest of the line. On the table message the
    override is left out and the Arabic name is isolated (U+2068 … U+2069) wherever it is
    said; no other direction-changing character is left in it."""
    nicks = [ARABIC, "evil\u202ename"]
    humans = [
        world.guild.add_member(world.env.create_user(f"rtl{i}"), nick=nick)
        for i, nick in enumerate(nicks)
    ]
    drawings(world, monkeypatch)
    opened = await humans[0].slash(world.channel, "table new", game="colorstack")
    lobby = opened.response
    await humans[1].click(lobby, label="Join")
    await humans[0].click(lobby, label="Start")
    live = live_of(world)
    state: ColorStackState = live.state
    chooser = actor_of(world, humans, state.first)
    await chooser.slash(world.channel, "move", move="colours red yellow")
    text = table_text_of(table_message(world, live.id))
    assert "\u202e" not in text and "evilname" in text
    assert text.count(ARABIC) >= 1
    assert text.count(ARABIC) == text.count(f"\u2068{ARABIC}\u2069"), text
    outside = re.sub("\u2068[^\u2066-\u2069\u202a-\u202e\u200e\u200f]*\u2069", "", text)
    assert not set("\u2066\u2067\u2068\u2069\u202a\u202b\u202c\u202d\u200e\u200f") & set(outside)
