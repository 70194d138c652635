"""Buttons and selects. Every one carries the table id and state version in its custom_id
(dynamic items), so they keep working after a restart and an outdated click is refused."""

from __future__ import annotations

import contextlib
import functools
import logging
import re
from collections.abc import Callable, Coroutine
from typing import TYPE_CHECKING, Any

import discord

from bot.panel import GROUP_EMOJI, SUGGESTED, move_label, move_note
from bot.service import Choice
from bot.text import cut
from engine.stack.advice import Advice, Group
from engine.stack.moves import PLACES, REROLLS, STACKS, PlayerMove, Reroll, Stack
from engine.stack.state import StackState

log = logging.getLogger(__name__)

if TYPE_CHECKING:
    from bot.tables import Tables

MAX_BUTTONS_PER_ROW = 5
MAX_ROWS = 5
MAX_SELECT_OPTIONS = 25


def move_code(move: PlayerMove) -> str:
    """A short code for a move in a custom_id or select value: ``s3.1.2``, ``r3``, ``p1.2``."""
    if isinstance(move, Stack):
        return f"s{move.face}.{move.owner}.{move.height}"
    if isinstance(move, Reroll):
        return f"r{move.face}"
    return f"p{move.owner}.{move.height}"


_CODE = re.compile(r"^(?:s(\d)\.(\d)\.(\d)|r(\d)|p(\d)\.(\d))$")


def move_from_code(code: str) -> PlayerMove | None:
    m = _CODE.match(code)
    if m is None:
        return None
    try:
        if m[1]:
            return STACKS[(int(m[1]), int(m[2]), int(m[3]))]
        if m[4]:
            return REROLLS[int(m[4])]
        return PLACES[(int(m[5]), int(m[6]))]
    except KeyError:
        return None


def tables_of(interaction: discord.Interaction) -> Tables:
    return interaction.client.tables  # type: ignore[attr-defined,no-any-return]


ERROR_NOTE = "Something went wrong on our side. The table shows what was saved; try again."


def answered(
    callback: Callable[[Any, discord.Interaction], Coroutine[Any, Any, None]],
) -> Callable[[Any, discord.Interaction], Coroutine[Any, Any, None]]:
    """A button's callback whose unexpected error is logged with where it happened and
    answered with a short note (as the slash commands' errors are), never Discord's
    "This interaction failed"."""

    @functools.wraps(callback)
    async def run(self: Any, interaction: discord.Interaction) -> None:
        try:
            await callback(self, interaction)
        except Exception:
            log.exception(
                "guild=%s channel=%s user=%s button %s failed",
                interaction.guild_id,
                interaction.channel_id,
                interaction.user.id,
                type(self).__name__,
            )
            with contextlib.suppress(discord.HTTPException):
                if interaction.response.is_done():
                    await interaction.followup.send(ERROR_NOTE, ephemeral=True)
                else:
                    await interaction.response.send_message(ERROR_NOTE, ephemeral=True)

    return run


class RefusedWhileStopping:
    """Mixed into every button and select: refused while the bot is stopping."""

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        if tables_of(interaction).accepting:
            return True
        await interaction.response.send_message(
            "The bot is restarting; nothing was played. Try again in a moment.", ephemeral=True
        )
        return False


LOBBY_LABELS = {
    "join": ("Join", discord.ButtonStyle.success),
    "leave": ("Leave", discord.ButtonStyle.secondary),
    "ai": ("Add AI", discord.ButtonStyle.secondary),
    "start": ("Start", discord.ButtonStyle.primary),
}


class LobbyButton(
    RefusedWhileStopping,
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"stack:lobby:(?P<action>join|leave|ai|start):(?P<table>\d+):(?P<version>\d+)",
):
    """Join, Leave, Add AI and Start on a lobby's table message."""

    def __init__(self, action: str, table_id: int, version: int) -> None:
        label, style = LOBBY_LABELS[action]
        super().__init__(
            discord.ui.Button(
                label=label, style=style, custom_id=f"stack:lobby:{action}:{table_id}:{version}"
            )
        )
        self.action = action
        self.table_id = table_id
        self.version = version

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> LobbyButton:
        return cls(match["action"], int(match["table"]), int(match["version"]))

    @answered
    async def callback(self, interaction: discord.Interaction) -> None:
        await tables_of(interaction).lobby_button(interaction, self.action, self.table_id)


class TurnButton(
    RefusedWhileStopping,
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"stack:turn:(?P<table>\d+):(?P<version>\d+)",
):
    """**My turn** on the live table: opens a panel of the player's legal moves."""

    def __init__(self, table_id: int, version: int) -> None:
        super().__init__(
            discord.ui.Button(
                label="My turn",
                emoji="🎲",
                style=discord.ButtonStyle.primary,
                custom_id=f"stack:turn:{table_id}:{version}",
            )
        )
        self.table_id = table_id
        self.version = version

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> TurnButton:
        return cls(int(match["table"]), int(match["version"]))

    @answered
    async def callback(self, interaction: discord.Interaction) -> None:
        await tables_of(interaction).open_panel(interaction, self.table_id)


class MoveButton(
    RefusedWhileStopping,
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"stack:move:(?P<table>\d+):(?P<version>\d+):(?P<code>[a-z0-9.]+)",
):
    """One move, tapped from a panel or a chooser."""

    def __init__(
        self,
        table_id: int,
        version: int,
        code: str,
        label: str = "Play",
        *,
        emoji: str | None = None,
        suggested: bool = False,
    ) -> None:
        super().__init__(
            discord.ui.Button(
                label=label[:80],
                emoji=emoji,
                style=discord.ButtonStyle.success if suggested else discord.ButtonStyle.secondary,
                custom_id=f"stack:move:{table_id}:{version}:{code}",
            )
        )
        self.table_id = table_id
        self.version = version
        self.code = code

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> MoveButton:
        return cls(int(match["table"]), int(match["version"]), match["code"])

    @answered
    async def callback(self, interaction: discord.Interaction) -> None:
        await tables_of(interaction).tapped(interaction, self.table_id, self.version, self.code)


class MoveSelect(
    RefusedWhileStopping,
    discord.ui.DynamicItem[discord.ui.Select[Any]],
    template=r"stack:pick:(?P<table>\d+):(?P<version>\d+):(?P<part>\d+)",
):
    """A select of moves, when there are more than buttons can show."""

    def __init__(
        self,
        table_id: int,
        version: int,
        part: int,
        options: list[discord.SelectOption] | None = None,
        placeholder: str = "Stack a die…",
    ) -> None:
        super().__init__(
            discord.ui.Select(
                placeholder=placeholder,
                custom_id=f"stack:pick:{table_id}:{version}:{part}",
                options=options or [discord.SelectOption(label="-", value="-")],
            )
        )
        self.table_id = table_id
        self.version = version

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> MoveSelect:
        return cls(int(match["table"]), int(match["version"]), int(match["part"]))

    @answered
    async def callback(self, interaction: discord.Interaction) -> None:
        values = self.item.values or ["-"]
        await tables_of(interaction).tapped(interaction, self.table_id, self.version, values[0])


class EndButton(
    RefusedWhileStopping,
    discord.ui.DynamicItem[discord.ui.Button[Any]],
    template=r"stack:end:(?P<table>\d+):(?P<version>\d+)",
):
    """Confirms ``/table end``."""

    def __init__(self, table_id: int, version: int) -> None:
        super().__init__(
            discord.ui.Button(
                label="End the table",
                style=discord.ButtonStyle.danger,
                custom_id=f"stack:end:{table_id}:{version}",
            )
        )
        self.table_id = table_id

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> EndButton:
        return cls(int(match["table"]), int(match["version"]))

    @answered
    async def callback(self, interaction: discord.Interaction) -> None:
        await tables_of(interaction).end_confirmed(interaction, self.table_id)


DYNAMIC_ITEMS = (LobbyButton, TurnButton, MoveButton, MoveSelect, EndButton)


PICTURE = "table.png"  # the table picture's file name, shown by the message's gallery


class TableLayout(discord.ui.LayoutView):
    """A table message (components V2): one container, coloured like the seat whose turn it
    is, holding the head (whose turn, the countdown), the picture, the field and the
    buttons. Its buttons are dynamic items, found by their custom ids after a restart."""

    def __init__(
        self,
        texts: list[str],
        *,
        accent: int | None = None,
        picture: str | None = None,
        buttons: list[discord.ui.Item[Any]] | None = None,
    ) -> None:
        super().__init__(timeout=None)
        container: discord.ui.Container[TableLayout] = discord.ui.Container(accent_colour=accent)
        texts = [t for t in texts if t.strip()]
        for index, text in enumerate(texts):
            container.add_item(discord.ui.TextDisplay(text))
            if index == 0 and picture is not None:
                container.add_item(
                    discord.ui.MediaGallery(
                        discord.MediaGalleryItem(f"attachment://{PICTURE}", description=picture)
                    )
                )
        if not texts and picture is not None:
            container.add_item(
                discord.ui.MediaGallery(
                    discord.MediaGalleryItem(f"attachment://{PICTURE}", description=picture)
                )
            )
        if buttons:
            container.add_item(discord.ui.ActionRow(*buttons))
        self.add_item(container)


def lobby_layout(table_id: int, version: int, text: str) -> TableLayout:
    """The lobby: its text, and Join, Leave, Add AI and Start."""
    buttons: list[discord.ui.Item[Any]] = [
        LobbyButton(action, table_id, version) for action in LOBBY_LABELS
    ]
    return TableLayout([text], buttons=buttons)


def table_layout(
    table_id: int,
    version: int,
    *,
    head: str,
    field: str,
    accent: int | None,
    picture: str | None,
    playing: bool,
) -> TableLayout:
    """The live table: ``head`` (whose turn), the picture (``picture`` is its description;
    ``None``: no picture), ``field`` (the text grid) and, while ``playing``, **My turn**."""
    buttons: list[discord.ui.Item[Any]] = [TurnButton(table_id, version)] if playing else []
    return TableLayout([head, field], accent=accent, picture=picture, buttons=buttons)


def closed_layout(text: str) -> TableLayout:
    """A closed table's message without a game: its text only."""
    return TableLayout([text])


def moves_view(table_id: int, version: int, choices: list[Choice]) -> tuple[discord.ui.View, int]:
    """Buttons for rerolls and placements, selects for stacks; returns the view and how
    many moves did not fit (those can still be typed)."""
    view = discord.ui.View(timeout=None)
    buttons = [c for c in choices if not isinstance(c.move, Stack)]
    stacks = [c for c in choices if isinstance(c.move, Stack)]
    if len(choices) <= MAX_BUTTONS_PER_ROW * 2 and not any(
        isinstance(c.move, Reroll) for c in choices
    ):
        buttons, stacks = choices, []  # a chooser: every option as a button
    rows_used = 0
    for i in range(0, len(buttons), MAX_BUTTONS_PER_ROW):
        if rows_used >= MAX_ROWS:
            break
        for choice in buttons[i : i + MAX_BUTTONS_PER_ROW]:
            item = MoveButton(table_id, version, move_code(choice.move), choice.label)
            item.item.row = rows_used
            view.add_item(item)
        rows_used += 1
    shown = sum(1 for _ in view.children)
    for part, i in enumerate(range(0, len(stacks), MAX_SELECT_OPTIONS)):
        if rows_used >= MAX_ROWS:
            break
        options = [
            discord.SelectOption(label=c.label[:100], value=move_code(c.move))
            for c in stacks[i : i + MAX_SELECT_OPTIONS]
        ]
        select = MoveSelect(table_id, version, part, options)
        select.item.row = rows_used
        view.add_item(select)
        shown += len(options)
        rows_used += 1
    return view, len(choices) - shown


def panel_view(
    table_id: int, version: int, state: StackState, advice: list[Advice]
) -> tuple[discord.ui.View, int]:
    """The **My turn** panel's buttons: a row per group of moves (captures, safe takes,
    takes, rerolls; the suggestion first and green, marked ⭐). When they need more than
    Discord's 5 rows of 5 buttons: the suggestion and the captures as buttons, the rerolls
    as buttons, the other moves in menus of 25 (best first). Returns the view and how
    many moves did not fit (those can still be typed)."""
    ordered = sorted(advice, key=lambda a: not a.suggested)  # stable: groups kept in order
    rows: list[list[Advice]] = []
    for group in Group:
        moves = [a for a in ordered if a.group is group]
        rows += [
            moves[i : i + MAX_BUTTONS_PER_ROW] for i in range(0, len(moves), MAX_BUTTONS_PER_ROW)
        ]
    if len(rows) > MAX_ROWS:
        rerolls = [a for a in ordered if a.group is Group.REROLL]
        stacks = [a for a in ordered if a.group is not Group.REROLL]
        first = [a for a in stacks if a.suggested or a.group is Group.CAPTURE][:MAX_BUTTONS_PER_ROW]
        rest = [a for a in stacks if a not in first]
        rows = [first] if first else []
        rows += [
            rerolls[i : i + MAX_BUTTONS_PER_ROW]
            for i in range(0, len(rerolls), MAX_BUTTONS_PER_ROW)
        ]
        selects = [
            rest[i : i + MAX_SELECT_OPTIONS] for i in range(0, len(rest), MAX_SELECT_OPTIONS)
        ]
    else:
        selects = []
    view = discord.ui.View(timeout=None)
    shown = 0
    for row, moves in enumerate(rows[:MAX_ROWS]):
        for a in moves:
            item = MoveButton(
                table_id,
                version,
                move_code(a.move),
                move_label(state, a),
                emoji=SUGGESTED if a.suggested else GROUP_EMOJI[a.group],
                suggested=a.suggested,
            )
            item.item.row = row
            view.add_item(item)
            shown += 1
    row = min(len(rows), MAX_ROWS)
    for part, moves in enumerate(selects[: MAX_ROWS - row]):
        options = [
            discord.SelectOption(
                label=move_label(state, a),
                value=move_code(a.move),
                description=cut(move_note(a), 100),
                emoji=SUGGESTED if a.suggested else GROUP_EMOJI[a.group],
            )
            for a in moves
        ]
        select = MoveSelect(
            table_id, version, part, options, placeholder="More moves (best first)…"
        )
        select.item.row = row + part
        view.add_item(select)
        shown += len(options)
    return view, len(advice) - shown


def end_view(table_id: int, version: int) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(EndButton(table_id, version))
    return view


__all__ = [
    "DYNAMIC_ITEMS",
    "PICTURE",
    "TableLayout",
    "closed_layout",
    "end_view",
    "lobby_layout",
    "move_code",
    "move_from_code",
    "moves_view",
    "panel_view",
    "table_layout",
]
