"""The host's buttons and selects, and the table message's layout.

Every button and select is a dynamic item whose custom_id carries the table id and the
state version, so it keeps working after a restart and an outdated click is refused.
:class:`TableButton` is the one base class of them (and of every game's own buttons): it
turns the custom_id into ``__init__`` arguments, refuses while the bot is stopping, and
answers a :class:`~host.refusals.Refusal` (and logs and answers an unexpected error) in one
place. The host is reached through :func:`host_of`, typed by the
:class:`~bot.hosting.Host` protocol: this module never imports :mod:`bot.tables`.

Custom ids: ``lobby:ACTION:TABLE:VERSION``, ``panel:TABLE:VERSION`` (the private button),
``move:TABLE:VERSION:CODE``, ``pick:TABLE:VERSION:PART``, ``end:TABLE:VERSION``. Messages
posted before games had names carry the same ids with a ``stack:`` prefix (and ``turn``
for ``panel``): they are still read.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import re
import time
from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any, Protocol

import discord
from discord import app_commands
from discord.ui.view import _component_to_item

from bot.ai_levels import level_select_words
from bot.metrics import DATABASE_ERRORS, REFUSALS, handled
from bot.refusal_words import MOVED_AWAY, Refused, refusal_text
from bot.text import cut, escape_name, said
from catalog import t
from host.live import Choice
from host.refusals import Refusal, Why
from persistence import InvalidSettings, LeaseLost
from persistence.database import is_database_fault

if TYPE_CHECKING:
    from bot.hosting import Host, PrivateButton

log = logging.getLogger(__name__)

MAX_BUTTONS_PER_ROW = 5
MAX_ROWS = 5
MAX_SELECT_OPTIONS = 25
CHOOSER_BUTTONS = 10  # a chooser of at most this many moves shows them all as buttons
# catalog keys (said with catalog.t where they are answered, in the user's language)
STOPPING = "refusal.stopping"
ERROR_NOTE = "refusal.error"
FOREIGN_PANEL = "refusal.foreign_panel"  # a key: Refused(FOREIGN_PANEL) says it
STORAGE_NOTE = "refusal.storage"
CHANGED_NOTE = "refusal.command_changed"
FAULT_WARN_EVERY = 60.0  # seconds: one WARNING per database outage, INFO for the rest
_fault_warned_at = -FAULT_WARN_EVERY
OLD = "(?:stack:)?"  # ids of messages posted before games had names
CODE = r"[A-Za-z0-9._-]{1,40}"


def host_of(interaction: discord.Interaction) -> Host:
    """The host (the bot's :class:`~bot.tables.Tables`) an interaction reaches."""
    return interaction.client.tables  # type: ignore[attr-defined,no-any-return]


async def answer_error(interaction: discord.Interaction, error: BaseException, where: str) -> str:
    """The one answer to a failed interaction: a :class:`Refusal` is said to the user as
    it is (nothing changed); anything else is logged with where it happened and answered
    with a short note, never Discord's "This interaction failed". Its outcome, as
    :mod:`bot.metrics` counts it: ``refused`` or ``error``."""
    outcome = "refused"
    if isinstance(error, (Refusal, Refused)):
        text = refusal_text(error)
        REFUSALS.labels(error.code.value if isinstance(error, Refusal) else "words").inc()
    elif isinstance(error, LeaseLost):  # the table's shard went to another process
        log.info("guild=%s %s: %s", interaction.guild_id, where, error)
        text = t(MOVED_AWAY)
        REFUSALS.labels(Why.MOVED_AWAY.value).inc()  # one label, as the host's own refusal
    elif (refused := refusal_of_input(error)) is not None:  # what a modified client sent
        REFUSALS.labels("input").inc()
        log.info(
            "guild=%s user=%s %s refused: %s",
            interaction.guild_id,
            interaction.user.id,
            where,
            cut(str(error), 200),
        )
        text = refused
    elif is_database_fault(error):
        _database_fault(interaction, error, where)
        DATABASE_ERRORS.inc()
        text = t(STORAGE_NOTE)
        outcome = "error"
    else:
        outcome = "error"
        log.error(
            "guild=%s channel=%s user=%s %s failed",
            interaction.guild_id,
            interaction.channel_id,
            interaction.user.id,
            where,
            exc_info=error,
        )
        text = t(ERROR_NOTE)
    with contextlib.suppress(discord.HTTPException):
        if interaction.response.type == discord.InteractionResponseType.deferred_channel_message:
            # deferred ("thinking…") while the work went on: the answer replaces it
            await interaction.edit_original_response(
                content=text, allowed_mentions=discord.AllowedMentions.none()
            )
        elif interaction.response.is_done():  # a panel's click: the panel stays as it was
            await interaction.followup.send(
                text, ephemeral=True, allowed_mentions=discord.AllowedMentions.none()
            )
        else:
            await interaction.response.send_message(
                text, ephemeral=True, allowed_mentions=discord.AllowedMentions.none()
            )
    return outcome


def panel_owner(interaction: discord.Interaction) -> int | None:
    """Who the message whose component was used answers: the user of the interaction it
    answered (a private panel, a chooser, a confirmation); ``None`` for a message posted
    to the channel."""
    message = interaction.message
    meta = getattr(message, "interaction_metadata", None) if message is not None else None
    user = getattr(meta, "user", None)
    return user.id if user is not None else None


def owns_panel(interaction: discord.Interaction) -> bool:
    """Whether the message whose component was used is the user's own panel, which a
    press may edit. A panel answers its owner only: anyone else's press (a panel posted
    publicly, a custom id replayed by a modified client) is answered anew, privately."""
    return panel_owner(interaction) == interaction.user.id


def foreign_panel(interaction: discord.Interaction) -> bool:
    """Whether the message whose component was used is another member's panel: nothing
    is played from it."""
    owner = panel_owner(interaction)
    return owner is not None and owner != interaction.user.id


class UnreadableOptions(app_commands.AppCommandError):
    """A command's options could not be read (not what Discord sends for them)."""


def refusal_of_input(error: BaseException) -> str | None:
    """What to say to a value the bot cannot take (a modified client's, or a member who
    left the server), or to a command Discord knows in another shape; ``None`` for other
    errors."""
    if isinstance(error, InvalidSettings):
        return str(error)
    if isinstance(error, app_commands.TransformerError):
        value = escape_name(cut(str(error.value), 40))
        return t("refusal.option_value", value=value)
    if isinstance(error, app_commands.CommandSignatureMismatch | app_commands.CommandNotFound):
        return t(CHANGED_NOTE)
    if isinstance(error, UnreadableOptions):
        return t("refusal.unreadable_options")
    return None


def _database_fault(interaction: discord.Interaction, error: BaseException, where: str) -> None:
    """A database outage is logged without a traceback: one WARNING, then (while it lasts)
    one INFO line per action."""
    global _fault_warned_at
    now = time.monotonic()
    words = cut(
        str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__, 200
    )
    if now - _fault_warned_at >= FAULT_WARN_EVERY:
        _fault_warned_at = now
        log.warning(
            "guild=%s %s: the database is unavailable (%s); answered 'try again' (more such "
            "failures within %.0f s are logged at INFO)",
            interaction.guild_id,
            where,
            words,
            FAULT_WARN_EVERY,
        )
    else:
        log.info(
            "guild=%s %s: the database is unavailable (%s)", interaction.guild_id, where, words
        )


async def admitted(interaction: discord.Interaction) -> bool:
    """Whether the host takes the interaction (a command or a click); if not, the user
    is told why — the bot is stopping, or this server's shard is being taken over by
    another process — or, when another process of the bot serves the server, nothing is
    said here: that process answers."""
    refusal = host_of(interaction).admits(interaction.guild_id)
    if refusal is None:
        return True
    if refusal:
        with contextlib.suppress(discord.HTTPException):
            await interaction.response.send_message(
                refusal, ephemeral=True, allowed_mentions=discord.AllowedMentions.none()
            )
    return False


class TableButton(discord.ui.DynamicItem[Any], template=r"(?!)"):
    """The base of every button and select of a table (subclass it with a ``template``
    whose named groups ``table`` and ``version`` are numbers; other named groups are
    passed to ``__init__`` as strings, after ``table_id`` and ``version``).

    Override :meth:`run`; a :class:`~host.refusals.Refusal` it raises is answered
    ephemerally, and an unexpected error is logged and answered (:func:`answer_error`).
    While the bot is stopping, every click is refused before :meth:`run`.
    """

    table_id: int
    version: int

    def __init__(self, item: discord.ui.Item[Any], table_id: int, version: int) -> None:
        super().__init__(item)
        self.table_id = table_id
        self.version = version

    @classmethod
    async def from_custom_id(
        cls, interaction: discord.Interaction, item: discord.ui.Item[Any], match: re.Match[str]
    ) -> TableButton:
        fields = match.groupdict()
        table, version = int(fields.pop("table")), int(fields.pop("version"))
        make: Any = cls  # a subclass: (table_id, version, *its other groups as strings)
        button: TableButton = make(table, version, **fields)
        return button

    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        return await admitted(interaction)

    async def callback(self, interaction: discord.Interaction) -> None:
        outcome = "ok"
        try:
            await self.run(interaction, host_of(interaction))
        except Exception as error:
            outcome = await answer_error(interaction, error, f"button {type(self).__name__}")
        handled(interaction.extras, "component", outcome)

    async def run(self, interaction: discord.Interaction, host: Host) -> None:
        """What the click does."""
        raise NotImplementedError


# each lobby button's label (a catalog key, said where the button is drawn) and colour
LOBBY_LABELS = {
    "join": ("discord.button.join", discord.ButtonStyle.success),
    "leave": ("discord.button.leave", discord.ButtonStyle.secondary),
    "ai": ("discord.button.add_ai", discord.ButtonStyle.secondary),
    "start": ("discord.button.start", discord.ButtonStyle.primary),
}


class LobbyButton(
    TableButton,
    template=OLD + r"lobby:(?P<action>join|leave|ai|start):(?P<table>\d+):(?P<version>\d+)",
):
    """Join, Leave, Add AI and Start on a lobby's table message."""

    def __init__(self, table_id: int, version: int, action: str) -> None:
        label, style = LOBBY_LABELS[action]
        button: discord.ui.Button[Any] = discord.ui.Button(
            label=t(label), style=style, custom_id=f"lobby:{action}:{table_id}:{version}"
        )
        super().__init__(button, table_id, version)
        self.action = action

    async def run(self, interaction: discord.Interaction, host: Host) -> None:
        await host.lobby_button(interaction, self.action, self.table_id)


class LobbyLevelSelect(
    TableButton,
    template=r"lobby:level:(?P<table>\d+):(?P<version>\d+)",
):
    """The lobby's select of AI levels (below Join, Leave, Add AI and Start: **Add AI**
    seats a ``greedy`` player in one click; this seats the level chosen), each option the
    level with its strength in words, as ``/table addbot level:`` offers them."""

    def __init__(
        self, table_id: int, version: int, options: list[discord.SelectOption] | None = None
    ) -> None:
        select: discord.ui.Select[Any] = discord.ui.Select(
            placeholder=t("discord.select.add_ai"),
            custom_id=f"lobby:level:{table_id}:{version}",
            options=options or [discord.SelectOption(label="-", value="-")],
        )
        super().__init__(select, table_id, version)

    async def run(self, interaction: discord.Interaction, host: Host) -> None:
        values = self.item.values or ["-"]
        await host.lobby_button(interaction, "ai", self.table_id, level=values[0])


def level_option(level: str) -> dict[str, Any]:
    """An AI level as an option of the lobby's select, in the current language: its name
    and its strength (a level without words: its bare name)."""
    name, about = level_select_words(level)
    return option_payload(name, level, about)


class PanelButton(
    TableButton,
    template=r"(?:stack:turn|panel):(?P<table>\d+):(?P<version>\d+)",
):
    """The private button on the live table (**My turn**, **My hand**: the game's
    :attr:`~bot.games.base.DiscordGame.private_button`): the player's own panel."""

    def __init__(self, table_id: int, version: int, looks: PrivateButton | None = None) -> None:
        button: discord.ui.Button[Any] = discord.ui.Button(
            label=said(looks.label) if looks is not None else t("discord.button.my_turn"),
            emoji=looks.emoji if looks is not None else None,
            style=discord.ButtonStyle.primary,
            custom_id=f"panel:{table_id}:{version}",
        )
        super().__init__(button, table_id, version)

    async def run(self, interaction: discord.Interaction, host: Host) -> None:
        await host.open_panel(interaction, self.table_id)


class MoveButton(
    TableButton,
    template=OLD + rf"move:(?P<table>\d+):(?P<version>\d+):(?P<code>{CODE})",
):
    """One move, tapped from a panel or a chooser (``code``: the game's move code)."""

    def __init__(
        self,
        table_id: int,
        version: int,
        code: str,
        label: str | None = None,
        *,
        emoji: str | None = None,
        suggested: bool = False,
    ) -> None:
        button: discord.ui.Button[Any] = discord.ui.Button(
            label=(label if label is not None else t("discord.button.play"))[:80],
            emoji=emoji,
            style=discord.ButtonStyle.success if suggested else discord.ButtonStyle.secondary,
            custom_id=f"move:{table_id}:{version}:{code}",
        )
        super().__init__(button, table_id, version)
        self.code = code

    async def run(self, interaction: discord.Interaction, host: Host) -> None:
        if foreign_panel(interaction):
            raise Refused(FOREIGN_PANEL)
        await host.tapped(interaction, self.table_id, self.version, self.code)


class MoveSelect(
    TableButton,
    template=OLD + r"pick:(?P<table>\d+):(?P<version>\d+):(?P<part>\d+)",
):
    """A select of moves, when there are more than buttons can show (its values are the
    game's move codes)."""

    def __init__(
        self,
        table_id: int,
        version: int,
        part: str | int,
        options: list[discord.SelectOption] | None = None,
        placeholder: str | None = None,
    ) -> None:
        select: discord.ui.Select[Any] = discord.ui.Select(
            placeholder=placeholder if placeholder is not None else t("discord.select.more_moves"),
            custom_id=f"pick:{table_id}:{version}:{part}",
            options=options or [discord.SelectOption(label="-", value="-")],
        )
        super().__init__(select, table_id, version)

    async def run(self, interaction: discord.Interaction, host: Host) -> None:
        if foreign_panel(interaction):
            raise Refused(FOREIGN_PANEL)
        values = self.item.values or ["-"]
        await host.tapped(interaction, self.table_id, self.version, values[0])


class EndButton(
    TableButton,
    template=OLD + r"end:(?P<table>\d+):(?P<version>\d+)",
):
    """Confirms ``/table end``."""

    def __init__(self, table_id: int, version: int) -> None:
        button: discord.ui.Button[Any] = discord.ui.Button(
            label=t("discord.button.end_table"),
            style=discord.ButtonStyle.danger,
            custom_id=f"end:{table_id}:{version}",
        )
        super().__init__(button, table_id, version)

    async def run(self, interaction: discord.Interaction, host: Host) -> None:
        if foreign_panel(interaction):
            raise Refused("refusal.foreign_confirmation")
        await host.end_confirmed(interaction, self.table_id)


DYNAMIC_ITEMS: tuple[type[TableButton], ...] = (
    LobbyButton,
    LobbyLevelSelect,
    PanelButton,
    MoveButton,
    MoveSelect,
    EndButton,
)
TABLE_MESSAGE_ITEMS: tuple[type[TableButton], ...] = (LobbyButton, LobbyLevelSelect, PanelButton)


def table_of_custom_id(custom_id: str) -> int | None:
    """The table whose table message carries a button of ``custom_id`` (old ids too)."""
    for item in TABLE_MESSAGE_ITEMS:
        match = item.__discord_ui_compiled_template__.fullmatch(custom_id)
        if match is not None:
            return int(match["table"])
    return None


class ItemRouter:
    """Routes a click on one of the bot's own buttons and selects (a dynamic item:
    :data:`DYNAMIC_ITEMS`, the story's, each game's) to its item by its custom id — what
    discord.py's view store does for a dynamic item, without rebuilding the clicked
    message's whole view to find the one component clicked (discord.py's
    ``View.from_message``: every button, select and text of the message made an item).
    As there, the component must be on the clicked message; the item is made from its
    custom id (``from_custom_id``), given the interaction's state (a select's values),
    checked (``interaction_check``) and called, in a task of its own created while
    discord.py parses the interaction (so it runs in its user's language:
    :func:`bot.language.speak_to_each_user`).

    The client calls :meth:`route` from its ``dispatch`` of the ``interaction`` event,
    and registers with discord.py only the dynamic items routed nowhere here."""

    def __init__(self) -> None:
        self.items: list[tuple[re.Pattern[str], type[discord.ui.DynamicItem[Any]]]] = []
        self.tasks: set[asyncio.Task[None]] = set()

    def add(self, *items: type[discord.ui.DynamicItem[Any]]) -> None:
        for item in items:
            self.items.append((item.__discord_ui_compiled_template__, item))

    def route(self, interaction: discord.Interaction) -> asyncio.Task[None] | None:
        """The task calling the item a component interaction is for (``None``: none of
        ours, or not a component's)."""
        if interaction.type is not discord.InteractionType.component:
            return None
        data: Any = interaction.data or {}
        custom_id = data.get("custom_id")
        if not isinstance(custom_id, str):
            return None
        for pattern, factory in self.items:
            match = pattern.fullmatch(custom_id)
            if match is not None:
                task = asyncio.get_running_loop().create_task(
                    self._call(factory, interaction, data, match),
                    name=f"item-{factory.__name__}",
                )
                self.tasks.add(task)
                task.add_done_callback(self.tasks.discard)
                return task
        return None

    async def _call(
        self,
        factory: type[discord.ui.DynamicItem[Any]],
        interaction: discord.Interaction,
        data: Any,
        match: re.Match[str],
    ) -> None:
        component = clicked(interaction, data)
        if component is None:
            return  # not on the message (discord.py ignores such a click too)
        try:
            item = await factory.from_custom_id(interaction, _component_to_item(component), match)
        except Exception:
            log.exception("ignoring a click: %r could not be made from its custom id", factory)
            return
        item._refresh_state(interaction, data)  # a select's values, as discord.py gives them
        try:
            allow = await item.interaction_check(interaction)
        except Exception:
            allow = False
        if not allow:
            return
        try:
            await item.callback(interaction)
        except Exception:
            log.exception("ignoring an error in the callback of %r", item)


def clicked(interaction: discord.Interaction, data: Any) -> discord.Component | None:
    """The component of the interaction's message that was used (by type and custom id),
    ``None`` if the message has none such."""
    message = interaction.message
    if message is None:
        return None
    kind, custom_id = data.get("component_type"), data.get("custom_id")
    for component in _walk(message.components):
        if component.type.value == kind and getattr(component, "custom_id", None) == custom_id:
            found: discord.Component = component
            return found
    return None


def _walk(components: Iterable[Any]) -> Iterable[Any]:
    """Every component of a message's tree (rows, containers, sections and their items)."""
    for component in components:
        children = getattr(component, "children", None)
        if children is not None:
            yield from _walk(children)
            accessory = getattr(component, "accessory", None)
            if accessory is not None:
                yield accessory
        else:
            yield component


PICTURE = "table.png"  # the table picture's file name, shown by the message's gallery


# ------------------------------------------------------------ ready component payloads


@functools.lru_cache(maxsize=256)
def _emoji(emoji: str) -> dict[str, Any]:
    return discord.PartialEmoji.from_str(emoji).to_dict()  # type: ignore[return-value]


def button_payload(
    custom_id: str,
    label: str,
    style: discord.ButtonStyle = discord.ButtonStyle.secondary,
    emoji: str | None = None,
) -> dict[str, Any]:
    """A button as discord.py's :class:`discord.ui.Button` sends it (same keys, same
    order), without building the button: the payload of a :class:`MoveButton`, a game's
    :class:`TableButton`… carrying ``custom_id``."""
    payload: dict[str, Any] = {"type": 2, "style": style.value, "disabled": False}
    if label:
        payload["label"] = label
    payload["custom_id"] = custom_id
    if emoji:
        payload["emoji"] = dict(_emoji(emoji))
    return payload


def option_payload(
    label: str, value: str, description: str | None = None, emoji: str | None = None
) -> dict[str, Any]:
    """A select's option as :class:`discord.SelectOption` sends it."""
    payload: dict[str, Any] = {"label": label, "value": value, "default": False}
    if description:
        payload["description"] = description
    if emoji:
        payload["emoji"] = dict(_emoji(emoji))
    return payload


def select_payload(
    custom_id: str, options: list[dict[str, Any]], placeholder: str | None = None
) -> dict[str, Any]:
    """A select of moves as discord.py's :class:`discord.ui.Select` sends it (one value;
    ``placeholder`` by default: "More moves…")."""
    if placeholder is None:
        placeholder = t("discord.select.more_moves")
    payload: dict[str, Any] = {
        "type": 3,
        "custom_id": custom_id,
        "min_values": 1,
        "max_values": 1,
        "disabled": False,
        "required": True,
    }
    if placeholder:
        payload["placeholder"] = placeholder
    if options:
        payload["options"] = options
    return payload


def move_button(
    table_id: int,
    version: int,
    code: str,
    label: str | None = None,
    *,
    emoji: str | None = None,
    style: discord.ButtonStyle | None = None,
    suggested: bool = False,
) -> dict[str, Any]:
    """The payload of :class:`MoveButton` ``(table_id, version, code, label, emoji=,
    suggested=)`` (``style`` overrides its colour)."""
    if label is None:
        label = t("discord.button.play")
    if style is None:
        style = discord.ButtonStyle.success if suggested else discord.ButtonStyle.secondary
    return button_payload(f"move:{table_id}:{version}:{code}", label[:80], style, emoji)


def move_select(
    table_id: int,
    version: int,
    part: int,
    options: list[dict[str, Any]],
    placeholder: str | None = None,
) -> dict[str, Any]:
    """The payload of :class:`MoveSelect` ``(table_id, version, part, options,
    placeholder)``."""
    return select_payload(f"pick:{table_id}:{version}:{part}", options, placeholder)


class _Ready:
    """A ready payload, as discord.py's sends and edits take a view: they read
    :meth:`to_components`, :meth:`has_components_v2`, :meth:`is_finished`,
    :meth:`is_dispatchable` and ``timeout`` only. Every item in it is a dynamic item,
    routed by its custom id, so discord.py is told it is finished and never stores it (the
    host's release of it is a no-op), and the same payload may be sent again."""

    __discord_ui_view__ = True
    timeout: float | None = None
    _components: list[dict[str, Any]]

    def to_components(self) -> list[dict[str, Any]]:
        return self._components

    def has_components_v2(self) -> bool:
        return False

    def is_finished(self) -> bool:
        return True  # never stored by discord.py: its items are found by their custom ids

    def is_dispatchable(self) -> bool:
        return True

    def stop(self) -> None:
        """Nothing to stop: discord.py never tracked it."""


class Components(_Ready):
    """A private answer's buttons and selects as the ready payload Discord receives: what
    discord.py sends for a :class:`discord.ui.View` of the same items, without building
    the items, a view, nor discord.py's tracking of it. Every item is a dynamic item
    (:data:`DYNAMIC_ITEMS`, a game's :attr:`~bot.games.base.DiscordGame.dynamic_items`),
    routed by its custom id, so nothing needs the view once sent: discord.py is told it
    is finished and never stores it (the host's release of it is a no-op), and the same
    payload may answer again (a cached panel).

    discord.py's ``send_message``, ``edit_message``, ``edit_original_response`` and
    ``followup.send`` take it as a view (:class:`_Ready`)."""

    def __init__(self, items: Iterable[tuple[int, dict[str, Any]]]) -> None:
        """``items``: ``(row, payload)`` in order; rows are laid out as discord.py lays
        out a view's items of explicit rows (by row, in order within a row)."""
        rows: dict[int, list[dict[str, Any]]] = {}
        for row, payload in items:
            rows.setdefault(row, []).append(payload)
        self._rows = sorted(rows)
        self._components = [{"type": 1, "components": rows[row]} for row in self._rows]

    @property
    def children(self) -> list[discord.ui.Item[Any]]:
        """Its items as discord.py would read them back from a message (for a look at
        them; answering does not build them)."""
        from discord.components import _component_factory

        items: list[discord.ui.Item[Any]] = []
        for row, action_row in zip(self._rows, self._components, strict=True):
            for payload in action_row["components"]:
                component = _component_factory(payload)
                assert component is not None
                item = _component_to_item(component)
                item.row = row
                items.append(item)
        return items


def ready_items(*items: discord.ui.DynamicItem[Any]) -> Components:
    """Dynamic items (a round's **Full scoring**, the history's games, **End the table**)
    as a ready payload, five to a row as a view lays them out. Not a
    :class:`discord.ui.View` of them: sending one makes discord.py's view store learn
    their classes for good, and every later click on such an item would be answered
    twice, by :class:`ItemRouter` and by discord.py."""
    return Components((i // 5, item.to_component_dict()) for i, item in enumerate(items))


class TableLayout(_Ready):
    """A table message (components V2) as the ready payload Discord receives: one
    container, coloured like the seat whose turn it is, holding the head (whose turn, the
    countdown), the picture, the field and the buttons — what discord.py sent for the
    :class:`discord.ui.LayoutView` of the same items, without building them. Its buttons
    are dynamic items, found by their custom ids (after a restart too)."""

    def __init__(
        self,
        texts: list[str],
        *,
        accent: int | None = None,
        picture: str | None = None,
        buttons: list[dict[str, Any]] | None = None,
        rows: list[list[dict[str, Any]]] | None = None,
    ) -> None:
        children: list[dict[str, Any]] = []
        gallery: dict[str, Any] = {
            "type": 12,
            "items": [{"media": {"url": f"attachment://{PICTURE}"}, "spoiler": False}],
        }
        if picture:
            gallery["items"][0]["description"] = picture
        texts = [t for t in texts if t.strip()]
        for index, text in enumerate(texts):
            children.append({"type": 10, "content": text})
            if index == 0 and picture is not None:
                children.append(gallery)
        if not texts and picture is not None:
            children.append(gallery)
        if buttons:
            children.append({"type": 1, "components": buttons})
        for row in rows or []:
            children.append({"type": 1, "components": row})
        self._components = [
            {"type": 17, "accent_color": accent, "spoiler": False, "components": children}
        ]

    def has_components_v2(self) -> bool:
        return True


def lobby_layout(table_id: int, version: int, text: str, levels: Sequence[str] = ()) -> TableLayout:
    """The lobby: its text, Join, Leave, Add AI and Start (:class:`LobbyButton`) and,
    when the game has AI ``levels``, their select (:class:`LobbyLevelSelect`)."""
    buttons = [
        button_payload(f"lobby:{action}:{table_id}:{version}", t(label), style)
        for action, (label, style) in LOBBY_LABELS.items()
    ]
    rows = []
    if levels:
        options = [level_option(level) for level in levels]
        custom_id = f"lobby:level:{table_id}:{version}"
        rows.append([select_payload(custom_id, options, t("discord.select.add_ai"))])
    return TableLayout([text], buttons=buttons, rows=rows)


def table_layout(
    table_id: int,
    version: int,
    *,
    head: str,
    field: str,
    accent: int | None,
    picture: str | None,
    playing: bool,
    private: PrivateButton | None = None,
) -> TableLayout:
    """The live table: ``head`` (whose turn), the picture (``picture`` is its description;
    ``None``: no picture), ``field`` (the text grid) and, while ``playing``, the private
    button (``private``: the game's **My turn** / **My hand**; a :class:`PanelButton`)."""
    buttons = []
    if playing:
        if private is not None:
            label, emoji = said(private.label), private.emoji
        else:
            label, emoji = t("discord.button.my_turn"), None
        primary = discord.ButtonStyle.primary
        buttons.append(button_payload(f"panel:{table_id}:{version}", label, primary, emoji))
    return TableLayout([head, field], accent=accent, picture=picture, buttons=buttons)


def closed_layout(text: str) -> TableLayout:
    """A closed table's message without a game: its text only."""
    return TableLayout([text])


class MoveCodes(Protocol):
    """A game as a chooser needs it: a move as a button's code
    (:meth:`~bot.games.base.DiscordGame.move_code`)."""

    def move_code(self, move: Any) -> str: ...


def moves_view(
    game: MoveCodes, table_id: int, version: int, choices: list[Choice]
) -> tuple[Components, int]:
    """A chooser: up to :data:`CHOOSER_BUTTONS` moves as buttons, more in selects of 25;
    returns its components and how many moves did not fit (those can still be typed)."""
    if len(choices) <= CHOOSER_BUTTONS:
        buttons = (
            (
                index // MAX_BUTTONS_PER_ROW,
                move_button(table_id, version, game.move_code(c.move), c.label),
            )
            for index, c in enumerate(choices)
        )
        return Components(buttons), 0
    shown = 0
    selects: list[tuple[int, dict[str, Any]]] = []
    for part, i in enumerate(range(0, len(choices), MAX_SELECT_OPTIONS)):
        if part >= MAX_ROWS:
            break
        options = [
            option_payload(cut(c.label, 100), game.move_code(c.move))
            for c in choices[i : i + MAX_SELECT_OPTIONS]
        ]
        selects.append(
            (part, move_select(table_id, version, part, options, t("discord.select.choose_move")))
        )
        shown += len(options)
    return Components(selects), len(choices) - shown


def end_view(table_id: int, version: int) -> Components:
    """The confirmation of ``/table end``: **End the table**."""
    return ready_items(EndButton(table_id, version))


__all__ = [
    "DYNAMIC_ITEMS",
    "FOREIGN_PANEL",
    "PICTURE",
    "Components",
    "EndButton",
    "ItemRouter",
    "LobbyButton",
    "LobbyLevelSelect",
    "MoveButton",
    "MoveSelect",
    "PanelButton",
    "TableButton",
    "TableLayout",
    "UnreadableOptions",
    "answer_error",
    "button_payload",
    "closed_layout",
    "end_view",
    "foreign_panel",
    "host_of",
    "lobby_layout",
    "move_button",
    "move_select",
    "moves_view",
    "option_payload",
    "owns_panel",
    "panel_owner",
    "ready_items",
    "select_payload",
    "table_layout",
    "table_of_custom_id",
]
