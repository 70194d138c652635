"""The one place storage still reads a game's rules as Stack's own model.

Readers of before read a Stack table's rules as ``StackRules``:
:attr:`persistence.records.TableInfo.rules` keeps giving them that, built from the stored
JSON, and the upgrade test checks a release's database reads as before. Nothing the bot
or the host runs reads it any more (the bot's Stack chart reads
:attr:`~persistence.records.TableInfo.rules_record` in :mod:`bot.games.stack.story`); this
module goes when ``TableInfo.rules`` does.
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
