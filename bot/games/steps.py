"""The step model of a private panel that a game builds as a tree of buttons (Stack Up!'s
hand, Color Stack's pieces): a button's look and what it leads to, and the rows it
stands in. Discord-free: a game's views turn it into buttons."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Generic, Literal, TypeVar

Path = str
Style = Literal["primary", "secondary", "success", "danger"]
PER_ROW = 5  # buttons in a row at most
M = TypeVar("M")


@dataclass(frozen=True)  # no slots: a game's alias (Choice[ItsMove]) builds them
class Choice(Generic[M]):
    """One button of a step: a final ``move`` (sent to the host) or the next ``path``."""

    label: str
    style: Style = "secondary"
    emoji: str | None = None
    move: M | None = None
    path: Path | None = None


def rows(choices: Sequence[Choice[M]], per_row: int = PER_ROW) -> list[tuple[Choice[M], ...]]:
    """``choices`` in rows of ``per_row``."""
    return [tuple(choices[i : i + per_row]) for i in range(0, len(choices), per_row)]
