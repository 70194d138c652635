"""A step's button (:class:`bot.games.steps.Choice`) as a Discord button: its colour and
looks, the same for every game whose panel is a tree of buttons."""

from __future__ import annotations

from typing import Any

import discord

from bot.games.steps import Choice
from bot.text import cut
from bot.views import button_payload

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
