"""The one place storage still reads a game's rules as Stack's own model.

The bot of before reads a Stack table's rules as ``StackRules`` (``team_of`` for the game
chart, ``target_score``): :attr:`persistence.records.TableInfo.rules` keeps giving it that,
built from the stored JSON. Every other reader uses
:attr:`~persistence.records.TableInfo.rules_record`; this module goes once the bot does too.
"""

from __future__ import annotations

from typing import Any


def rules_object(game: str, record: dict[str, Any] | None) -> Any:
    """``TableInfo.rules``: ``None`` in the lobby, a Stack table's ``StackRules``, another
    game's stored JSON as it is."""
    if record is None or game != "stack":
        return record
    from engine.stack.rules import StackRules  # the bot's Stack-only read, see above

    return StackRules.model_validate(record)
