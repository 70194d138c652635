"""A step's button (:class:`bot.games.steps.Choice`) as a Discord button: its colour and
looks, the same for every game whose panel is a tree of buttons."""

from __future__ import annotations

from typing import Any, ClassVar

import discord

from bot.games.steps import Choice
from bot.text import cut
from bot.views import TableButton, button_payload

STYLES = {
    "primary": discord.ButtonStyle.primary,
    "secondary": discord.ButtonStyle.secondary,
    "success": discord.ButtonStyle.success,
    "danger": discord.ButtonStyle.danger,
}


def button_of(looks: Choice[Any], custom_id: str) -> discord.ui.Button[Any]:
    """A button with the label (cut to 80 characters), emoji and colour of ``looks``."""
    return discord.ui.Button(
        label=cut(looks.label, 80),
        emoji=looks.emoji,
        style=STYLES[looks.style],
        custom_id=custom_id,
    )


def payload_of(looks: Choice[Any], custom_id: str) -> dict[str, Any]:
    """The payload :func:`button_of` ``(looks, custom_id)`` sends, without the button."""
    return button_payload(custom_id, cut(looks.label, 80), STYLES[looks.style], looks.emoji)


class PanelButton(TableButton, template=r"(?!)"):
    """A button of a game's private panel, custom id ``GAME:TABLE:VERSION:KIND:VALUE``
    (``value``: a step's path, or a move's code). A subclass names its ``game``, its
    ``kind`` and the ``label`` of a button made without looks, and gives a ``template``
    whose groups are ``table``, ``version`` and ``value``."""

    game: ClassVar[str]
    kind: ClassVar[str]
    label: ClassVar[str] = "…"

    def __init__(
        self, table_id: int, version: int, value: str, looks: Choice[Any] | None = None
    ) -> None:
        looks = looks or Choice(self.label)
        super().__init__(button_of(looks, self.id_of(table_id, version, value)), table_id, version)
        self.value = value

    @classmethod
    def id_of(cls, table_id: int, version: int, value: str) -> str:
        """The custom id of the button of ``value`` on ``table_id`` at ``version``."""
        return f"{cls.game}:{table_id}:{version}:{cls.kind}:{value}"
