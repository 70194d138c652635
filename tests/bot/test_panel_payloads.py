"""A private panel answers ready component payloads (:class:`bot.views.Components`), not
``discord.ui`` views: what Discord receives must be exactly what the views of the game's
dynamic items sent before — every custom id, label, emoji, colour, row and option, byte
for byte — at every step of many states of random games. The references below are the
view builders the payloads replaced, kept here as the specification."""

from __future__ import annotations

import json
from functools import partial
from types import SimpleNamespace
from typing import Any

import discord
import pytest

from bot import games
from bot.games.base import PanelCache
from bot.games.buttons import STYLES
from bot.games.colorstack import panel as colorstack_panel
from bot.games.colorstack.views import PanelStep, build_panel
from bot.games.stack.game import move_code as stack_code
from bot.games.stack.game import panel_layout, panel_view
from bot.games.stack.panel import GROUP_EMOJI, SUGGESTED, move_label, move_note
from bot.games.stackup import panel as stackup_panel
from bot.games.stackup.views import HandMove, HandStep, hand_panel
from bot.games.steps import walk
from bot.panel_bench import GAMES, states
from bot.text import cut, escape_name
from bot.views import (
    CHOOSER_BUTTONS,
    LOBBY_LABELS,
    MAX_BUTTONS_PER_ROW,
    MAX_ROWS,
    MAX_SELECT_OPTIONS,
    Components,
    LobbyButton,
    LobbyLevelSelect,
    MoveButton,
    MoveSelect,
    PanelButton,
    TableLayout,
    closed_layout,
    level_option,
    lobby_layout,
    moves_view,
    table_layout,
)
from engine.stack.advice import advise
from host.live import Choice
from host.refusals import Refusal, Why

TABLE, VERSION = 10**17 + 3, 4321


def wire(view: Any) -> str:
    """What Discord receives for a view or components."""
    return json.dumps(view.to_components(), ensure_ascii=False)


# ---------------------------------------------------------------- the replaced views


def stack_reference(state: Any, advice: list[Any]) -> discord.ui.View:
    rows, selects = panel_layout(advice)

    def emoji(a: Any) -> str:
        return SUGGESTED if a.suggested else GROUP_EMOJI[a.group]

    def option(a: Any) -> discord.SelectOption:
        code, note = stack_code(a.move), cut(move_note(a), 100)
        return discord.SelectOption(
            label=move_label(state, a), value=code, description=note, emoji=emoji(a)
        )

    first = min(len(rows), MAX_ROWS)
    items: list[tuple[int, Any]] = [
        (
            row,
            MoveButton(
                TABLE,
                VERSION,
                stack_code(a.move),
                move_label(state, a),
                emoji=emoji(a),
                suggested=a.suggested,
            ),
        )
        for row, moves in enumerate(rows[:MAX_ROWS])
        for a in moves
    ]
    items += [
        (
            first + part,
            MoveSelect(
                TABLE,
                VERSION,
                part,
                [option(a) for a in moves],
                placeholder="More moves (best first)…",
            ),
        )
        for part, moves in enumerate(selects[: MAX_ROWS - first])
    ]
    view = discord.ui.View(timeout=None)
    for row, item in items:
        item.item.row = row
        view.add_item(item)
    return view


def reference_item(choice: Any, row: int, move: Any, step: Any) -> discord.ui.Item[Any]:
    """The dynamic item of a step's ``choice``: ``move(choice)`` or ``step(choice)``."""
    item = move(choice) if choice.move is not None else step(choice)
    item.item.row = row
    return item  # type: ignore[no-any-return]


def hand_move(choice: stackup_panel.Choice) -> HandMove:
    return HandMove(TABLE, VERSION, stackup_panel.move_code(choice.move), choice)  # type: ignore[arg-type]


def hand_step(choice: stackup_panel.Choice) -> HandStep:
    return HandStep(TABLE, VERSION, choice.path or "", choice)


def board_move(choice: colorstack_panel.Choice) -> MoveButton:
    item = MoveButton(TABLE, VERSION, colorstack_panel.move_code(choice.move), choice.label)  # type: ignore[arg-type]
    item.item.style = STYLES[choice.style]  # type: ignore[attr-defined]
    item.item.emoji = choice.emoji  # type: ignore[attr-defined]
    return item


def board_step(choice: colorstack_panel.Choice) -> PanelStep:
    return PanelStep(TABLE, VERSION, choice.path or "", choice)


def stackup_reference(step: stackup_panel.Node) -> discord.ui.View:
    def button(choice: stackup_panel.Choice, row: int) -> discord.ui.Item[Any]:
        return reference_item(choice, row, hand_move, hand_step)

    view = discord.ui.View(timeout=None)
    rows = list(step.rows)
    for row, choices in enumerate(rows[:5]):
        for choice in choices[:5]:
            view.add_item(button(choice, row))
    if step.back is not None:
        back = stackup_panel.Choice("Back", "secondary", "◀️", path=step.back)
        view.add_item(button(back, len(rows) if len(rows) < 5 else 4))
    return view


def colorstack_reference(step: colorstack_panel.Node) -> discord.ui.View:
    def item_of(choice: colorstack_panel.Choice, row: int) -> discord.ui.Item[Any]:
        return reference_item(choice, row, board_move, board_step)

    view = discord.ui.View(timeout=None)
    row = 0
    for part, menu in enumerate(step.menus):
        options = [
            discord.SelectOption(
                label=cut(option.label, 100),
                value=colorstack_panel.move_code(option.move),
                description=cut(option.description, 100) if option.description else None,
            )
            for option in menu.options
        ]
        select = MoveSelect(TABLE, VERSION, part, options, placeholder=menu.placeholder)
        select.item.row = row
        view.add_item(select)
        row += 1
    for choices in step.rows:
        for choice in choices:
            view.add_item(item_of(choice, row))
        row += 1
    if step.back is not None:
        back = colorstack_panel.Choice("Back", "secondary", "◀️", path=step.back)
        view.add_item(item_of(back, min(row, 4)))
    return view


def stackup_node(legal: Any, names: Any, drawn: Any, path: str) -> Any:
    return stackup_panel.node(legal, path, names, drawn)


def colorstack_node(state: Any, seat: int, names: Any, path: str) -> Any:
    return colorstack_panel.node(state, seat, path, names)


def every_path(step_at: Any) -> list[tuple[str, Any]]:
    """Every step of a panel's tree, with its path."""
    return list(walk(step_at))


# ---------------------------------------------------------------- the specifications


def test_stacks_panel_sends_what_its_view_of_move_buttons_and_menus_sent() -> None:
    compared = 0
    for _, state in states("stack", 400, seed=7):
        advice = advise(state)
        components, _hidden = panel_view(TABLE, VERSION, state, advice)
        assert wire(components) == wire(stack_reference(state, advice))
        compared += len(advice)
    assert compared > 2000


def test_the_hand_panel_sends_what_its_view_of_hand_buttons_sent_at_every_step() -> None:
    steps = 0
    for players in (2, 5):
        for _, state in states("stackup", 150, seed=players, players=players):
            seat = state.current_player
            live = SimpleNamespace(id=TABLE, version=VERSION, state=state)
            legal = state.legal_moves()
            tree = every_path(partial(stackup_node, legal, state.players, state.drawn))
            for path, step in tree:
                panel = hand_panel(live, seat, path)  # type: ignore[arg-type]
                assert panel.view is not None
                assert wire(panel.view) == wire(stackup_reference(step))
                steps += 1
    assert steps > 500


def test_the_color_stack_panel_sends_what_its_view_of_steps_and_moves_sent_at_every_step() -> None:
    steps = 0
    for _, state in states("colorstack", 120, seed=3):
        for seat in (0, 1):
            live = SimpleNamespace(id=TABLE, version=VERSION, state=state)
            names = [escape_name(n) for n in state.players]
            tree = every_path(partial(colorstack_node, state, seat, names))
            for path, step in tree:
                panel, _ = build_panel(live, seat, path)  # type: ignore[arg-type]
                assert panel.view is not None
                assert wire(panel.view) == wire(colorstack_reference(step))
                steps += 1
    assert steps > 500


@pytest.mark.parametrize("count", [1, 4, CHOOSER_BUTTONS, CHOOSER_BUTTONS + 1, 60, 200])
def test_a_chooser_sends_what_its_view_of_move_buttons_or_menus_sent(count: int) -> None:
    game = games.get("stack")
    state = states("stack", 1, seed=1)[0][1]
    move = state.legal_moves()[0]
    choices = [Choice(move, f"option {i} " + "x" * (i % 120)) for i in range(count)]
    components, hidden = moves_view(game, TABLE, VERSION, choices)
    view = discord.ui.View(timeout=None)
    if count <= CHOOSER_BUTTONS:
        for index, choice in enumerate(choices):
            item = MoveButton(TABLE, VERSION, game.move_code(choice.move), choice.label)
            item.item.row = index // MAX_BUTTONS_PER_ROW
            view.add_item(item)
    else:
        for part, i in enumerate(range(0, min(count, MAX_ROWS * MAX_SELECT_OPTIONS), 25)):
            options = [
                discord.SelectOption(label=cut(c.label, 100), value=game.move_code(c.move))
                for c in choices[i : i + MAX_SELECT_OPTIONS]
            ]
            select = MoveSelect(TABLE, VERSION, part, options, placeholder="Choose a move…")
            select.item.row = part
            view.add_item(select)
    assert wire(components) == wire(view)
    assert hidden == max(0, count - MAX_ROWS * MAX_SELECT_OPTIONS) * (count > CHOOSER_BUTTONS)


def test_components_are_never_tracked_by_discord_py_and_read_back_as_their_items() -> None:
    components = Components([(1, {"type": 2, "style": 2, "disabled": False, "custom_id": "x"})])
    assert components.is_finished()  # discord.py does not store it: routed by custom id
    [item] = components.children
    assert isinstance(item, discord.ui.Button) and item.custom_id == "x" and item.row == 1


# ---------------------------------------------------------------- once per version


def test_a_panel_is_built_once_per_version_of_a_tables_committed_state() -> None:
    cache = PanelCache(tables=2)
    built: list[str] = []

    def build(what: str) -> str:
        built.append(what)
        return what

    state = object()
    live = SimpleNamespace(id=1, version=5, state=state)
    assert cache.get(live, 0, "", lambda: build("a")) == "a"
    assert cache.get(live, 0, "", lambda: build("b")) == "a"  # the same seat, step, version
    assert cache.get(live, 1, "", lambda: build("c")) == "c"  # another seat
    assert cache.get(live, 0, "x", lambda: build("d")) == "d"  # another step
    live.version = 6  # a commit
    assert cache.get(live, 0, "", lambda: build("e")) == "e"
    live.state = object()  # the same version read again (another state object)
    assert cache.get(live, 0, "", lambda: build("f")) == "f"
    assert built == ["a", "c", "d", "e", "f"]


def test_a_refused_panel_is_not_remembered_and_old_tables_are_forgotten() -> None:
    cache = PanelCache(tables=2)
    live = SimpleNamespace(id=1, version=1, state=object())

    def refuse() -> str:
        raise Refusal(Why.GAME_OVER)

    with pytest.raises(Refusal):
        cache.get(live, 0, "", refuse)
    assert cache.get(live, 0, "", lambda: "built") == "built"
    for table in (2, 3):  # two more tables: the first is dropped
        cache.get(SimpleNamespace(id=table, version=1, state=object()), 0, "", lambda: "other")
    assert cache.get(live, 0, "", lambda: "again") == "again"


def test_the_hand_panel_is_the_same_answer_until_the_table_moves_on() -> None:
    state = states("stackup", 5, seed=11)[-1][1]
    seat = state.current_player
    live = SimpleNamespace(id=TABLE + 1, version=VERSION, state=state)
    first = hand_panel(live, seat)  # type: ignore[arg-type]
    again = hand_panel(live, seat)  # type: ignore[arg-type]
    assert again.view is first.view and again.text == first.text
    live.version += 1
    moved = hand_panel(live, seat)  # type: ignore[arg-type]
    assert moved.view is not first.view and wire(moved.view) != wire(first.view)
    assert wire(moved.view) == wire(first.view).replace(f":{VERSION}:", f":{VERSION + 1}:")


# ---------------------------------------------------------------- the table message


def layout_reference(
    texts: list[str],
    accent: int | None,
    picture: str | None,
    buttons: list[Any],
    *rows: list[Any],
) -> discord.ui.LayoutView:
    """The table message's :class:`discord.ui.LayoutView` that the payload replaced."""
    view = discord.ui.LayoutView(timeout=None)
    box: discord.ui.Container[Any] = discord.ui.Container(accent_colour=accent)
    shown = [t for t in texts if t.strip()]
    url = "attachment://table.png"
    gallery = [discord.ui.MediaGallery(discord.MediaGalleryItem(url, description=picture))]
    for index, text in enumerate(shown):
        box.add_item(discord.ui.TextDisplay(text))
        for item in gallery if index == 0 and picture is not None else []:
            box.add_item(item)
    for item in gallery if not shown and picture is not None else []:
        box.add_item(item)
    if buttons:
        box.add_item(discord.ui.ActionRow(*buttons))
    for row in rows:
        box.add_item(discord.ui.ActionRow(*row))
    view.add_item(box)
    return view


@pytest.mark.parametrize("game", GAMES)
def test_the_table_message_sends_what_its_layout_view_sent(game: str) -> None:
    """Live, over and lobby table messages of many states, with and without a picture."""
    discord_game = games.get(game)
    looks = discord_game.private_button
    for index, (version, state) in enumerate(states(game, 80, seed=5)):
        parts = discord_game.table_parts(
            state, current_user=12345 if index % 2 else None, turns=None
        )
        picture = parts.alt_text if index % 3 else None
        playing = not state.is_over and index % 5 != 0
        private = looks if index % 7 else None
        texts = {"head": parts.head, "field": parts.field, "accent": parts.accent}
        sent = table_layout(
            TABLE, version, **texts, picture=picture, playing=playing, private=private
        )
        buttons = [PanelButton(TABLE, version, private)] if playing else []
        reference = layout_reference([parts.head, parts.field], parts.accent, picture, buttons)
        assert sent.has_components_v2() and reference.has_components_v2()
        assert wire(sent) == wire(reference)
    lobby = [LobbyButton(TABLE, 9, action) for action in LOBBY_LABELS]
    levels = discord_game.game.ai_levels
    options = [discord.SelectOption(**level_option(level)) for level in levels]
    level_row = [LobbyLevelSelect(TABLE, 9, options)]
    for text in ("**Stack** lobby\n1. ann", " ", ""):
        assert wire(lobby_layout(TABLE, 9, text)) == wire(
            layout_reference([text], None, None, lobby)
        )
        assert wire(lobby_layout(TABLE, 9, text, levels)) == wire(
            layout_reference([text], None, None, lobby, level_row)
        )
        assert wire(closed_layout(text)) == wire(layout_reference([text], None, None, []))
    only_picture = TableLayout([" "], picture="alt")
    assert wire(only_picture) == wire(layout_reference([" "], None, "alt", []))
