"""What the Discord bot's pieces may use of its host (:class:`bot.tables.Tables`), and the
look of a game's private button: the types a game's module and the generic buttons
(:mod:`bot.views`) share without importing the host, nor the game contract
(:mod:`bot.games.base`)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol

import discord

if TYPE_CHECKING:
    from host.live import Player
    from host.service import TableService
    from persistence import Store
    from pictures.painter import Painter

__all__ = ["Host", "PrivateButton"]


@dataclass(frozen=True, slots=True)
class PrivateButton:
    """The button under the table message that opens a player's private panel. ``label``
    is a catalog key (``discord.button.my_turn``), said in the table's language where the
    table message is drawn (words that are no key are shown as they are)."""

    label: str
    emoji: str | None = None


class Host(Protocol):
    """What a game's module, its buttons and the generic buttons may use of the host
    (:class:`bot.tables.Tables` is it; ``interaction.client.tables`` finds it)."""

    service: TableService[Any]  # its games are DiscordGame
    store: Store
    painter: Painter
    draw_pictures: bool
    accepting: bool

    def player(self, interaction: discord.Interaction) -> Player:
        """The user of ``interaction`` as the host knows players (id, display name)."""
        ...

    def admits(self, guild_id: int | None) -> str | None:
        """``None``: the interaction is taken; else the refusal to say (``""``: none)."""
        ...

    async def say(self, interaction: discord.Interaction, text: str, **kwargs: Any) -> None:
        """Answer ephemerally (a follow-up when already answered)."""
        ...

    async def edit_panel(self, interaction: discord.Interaction, **kwargs: Any) -> None:
        """Edit the message whose component was used."""
        ...

    async def in_time(
        self,
        interaction: discord.Interaction,
        work: Any,
        *,
        update: bool = False,
        public: bool = False,
    ) -> Any:
        """Await ``work``, deferring the interaction first when it is slow."""
        ...

    async def play_move(
        self,
        interaction: discord.Interaction,
        *,
        text: str | None = None,
        move: Any = None,
        table_id: int | None = None,
        version: int | None = None,
        edit: bool = False,
    ) -> None:
        """Play a typed (``text``) or given (``move``) move for the user and answer them
        (``edit``: by editing the panel whose button was used); refusals raise
        :class:`~host.refusals.Refusal`."""
        ...

    async def open_panel(self, interaction: discord.Interaction, table_id: int) -> None:
        """Answer the user with their private panel (as the private button does)."""
        ...

    async def tapped(
        self, interaction: discord.Interaction, table_id: int, version: int, code: str
    ) -> None:
        """A move button or select (``code`` is :meth:`DiscordGame.move_code`) was used."""
        ...

    async def lobby_button(
        self, interaction: discord.Interaction, action: str, table_id: int, level: str = "greedy"
    ) -> None:
        """Join, Leave, Add AI (an AI of ``level``) or Start, clicked on the lobby."""
        ...

    async def end_confirmed(self, interaction: discord.Interaction, table_id: int) -> None: ...
