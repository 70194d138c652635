"""A hint as the engine says it: the engine's own English hint names its move as typed
without code marks, the catalog's (every language) quotes it in backticks."""

from __future__ import annotations

import re

_MOVE = re.compile(r"`([^`\n]+)`")


def engines_words(hint: str) -> str:
    """``hint`` (the catalog's) with its move's code marks taken off: the engine's words.
    The move must be quoted (its first code span)."""
    plain, quoted = _MOVE.subn(r"\1", hint, count=1)
    assert quoted == 1, f"the move is not in code: {hint!r}"
    return plain
