"""Color Stack's private **My move** panel on Discord: the steps of
:mod:`bot.games.colorstack.panel` as buttons and menus.

A step is a :class:`PanelStep` button (``colorstack:TABLE:VERSION:s:PATH``): a click
redraws the clicker's panel at that step if the table has not moved on (a stale panel is
refused and changes nothing); a piece's step carries a picture of the board with that
piece framed and its legal destinations marked. A final choice — a destination from a
menu, a new face, "Yes, resign" — is the host's generic :class:`~bot.views.MoveSelect` /
:class:`~bot.views.MoveButton` with the move's code
(:func:`~bot.games.colorstack.panel.move_code`): the host reads it back against the
committed state and plays it with the panel's version, so a stale panel plays nothing.
"""

from __future__ import annotations

import io
from functools import partial
from typing import TYPE_CHECKING, Any

import discord

from bot.games.base import PANELS, DiscordGame, Host, Panel
from bot.games.buttons import STYLES, PanelButton, payload_of
from bot.games.colorstack.panel import Choice, Node, Path, move_code, node, seat_words
from bot.refusal_words import Refused
from bot.text import MESSAGE_LIMIT, button_label, cut, escape_name, fit_message
from bot.views import (
    Components,
    move_button,
    move_select,
    option_payload,
    owns_panel,
)
from catalog import t
from engine.colorstack.state import ColorStackState
from host.refusals import Refusal, Why
from pictures.colorstack import BoardPicture
from pictures.painter import DrawJob

if TYPE_CHECKING:
    from host.live import LiveTable

__all__ = ["PICTURE", "PanelStep", "build_panel", "panel_picture", "stale"]

PICTURE = "board.png"  # the panel's picture of the board with a piece selected


def stale() -> str:
    """The refusal of a panel from an older state of the table."""
    return t("colorstack.panel.stale", button=button_label("colorstack.button.my_move"))


def _item(live: LiveTable[DiscordGame], choice: Choice) -> dict[str, Any]:
    if choice.move is not None:
        code = move_code(choice.move)
        style = STYLES[choice.style]
        return move_button(
            live.id, live.version, code, choice.label, emoji=choice.emoji, style=style
        )
    return payload_of(choice, PanelStep.id_of(live.id, live.version, choice.path or ""))


def _view(live: LiveTable[DiscordGame], step: Node) -> Components:
    """Menus first (a row each), then the button rows, then Back."""
    items: list[tuple[int, dict[str, Any]]] = []
    row = 0
    for part, menu in enumerate(step.menus):
        options = [
            option_payload(
                cut(option.label, 100),
                move_code(option.move),
                cut(option.description, 100) if option.description else None,
            )
            for option in menu.options
        ]
        items.append((row, move_select(live.id, live.version, part, options, menu.placeholder)))
        row += 1
    for choices in step.rows:
        for choice in choices:
            items.append((row, _item(live, choice)))
        row += 1
    if step.back is not None:
        back = Choice(t("colorstack.panel.back"), "secondary", "◀️", path=step.back)
        items.append((min(row, 4), _item(live, back)))
    return Components(items)


def build_panel(
    live: LiveTable[DiscordGame], seat: int, path: Path = ""
) -> tuple[Panel, int | None]:
    """``seat``'s panel at step ``path`` and the square it shows selected
    (:func:`_build_panel`), built once per version of the table
    (:data:`~bot.games.base.PANELS`) in each language it is asked in."""
    # PANELS keeps one per language: the words are the asking player's
    text, view, selected = PANELS.get(live, seat, path, partial(_build_panel, live, seat, path))
    return Panel(text, view), selected


def _build_panel(
    live: LiveTable[DiscordGame], seat: int, path: Path = ""
) -> tuple[str, Components, int | None]:
    """``seat``'s panel at step ``path`` and the square it shows selected (``None``: no
    picture). Raises :class:`~host.refusals.Refusal` when the step no longer exists. Call it under the
    table's lock (it reads the state)."""
    state = live.state
    if not isinstance(state, ColorStackState) or (
        state.setup is None and not state.choosing_colours
    ):
        raise Refusal(Why.GAME_NOT_STARTED, hint=False)
    if state.is_over:
        raise Refusal(Why.GAME_OVER)
    step = node(state, seat, path, [escape_name(name) for name in state.players])
    if step is None:
        raise Refused(stale())
    head = (
        []
        if state.choosing_colours
        else [t("colorstack.panel.head", colours=seat_words(state, seat))]
    )
    lines = [*head, *step.lines, step.question]
    return fit_message("\n".join(lines), MESSAGE_LIMIT), _view(live, step), step.selected


def panel_picture(state: ColorStackState, selected: int, theme: str) -> DrawJob:
    """The board with ``selected`` framed and its legal destinations marked."""
    shown = BoardPicture.of(state, theme="light" if theme == "light" else "dark", selected=selected)
    return DrawJob("colorstack", (shown,))


class PanelStep(
    PanelButton,
    template=r"colorstack:(?P<table>\d+):(?P<version>\d+):s:(?P<value>[a-z0-9]{0,4})",
):
    """A step of **My move** (a piece, Resign…, Back): redraws the clicker's panel at that
    step, with the board's picture when a piece is selected, if the table has not moved
    on."""

    game, kind = "colorstack", "s"

    async def run(self, interaction: discord.Interaction, host: Host) -> None:
        live = host.service.table_by_id(self.table_id)
        # a panel answers its owner only: anyone else gets their own panel, anew
        own = owns_panel(interaction)
        path = self.value if own else ""
        drawing = host.draw_pictures and path.startswith("p")
        if drawing and not interaction.response.is_done():
            await interaction.response.defer()  # answered before anything is drawn
        seat = await host.service.seat_of(live, host.player(interaction))
        theme = "dark"
        if drawing:
            theme = getattr(await host.service.settings(live.info), "theme", "dark") or "dark"
        job = None
        async with live.lock:  # the committed state, never a step half-played
            if live.version != self.version:
                raise Refused(stale())
            panel, selected = build_panel(live, seat, path)
            if selected is not None and drawing:
                assert isinstance(live.state, ColorStackState)
                job = panel_picture(live.state, selected, theme)
        files: list[discord.File] = []
        if job is not None:
            png = await host.painter.draw(job)
            files.append(discord.File(io.BytesIO(png), filename=PICTURE))
        await host.edit_panel(interaction, content=panel.text, view=panel.view, attachments=files)
