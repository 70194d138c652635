"""The step model of a private panel that a game builds as a tree of buttons (Stack Up!'s
hand, Color Stack's pieces): a button's look and what it leads to, and the rows it
stands in. Discord-free: a game's views turn it into buttons."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, Generic, Literal, Protocol, TypeVar

Path = str
Style = Literal["primary", "secondary", "success", "danger"]
PER_ROW = 5  # buttons in a row at most
M = TypeVar("M")
S = TypeVar("S", bound="Step")


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


class Step(Protocol):
    """A step of a tree of buttons: its buttons, in rows."""

    @property
    def choices(self) -> tuple[Choice[Any], ...]: ...


def choice_moves(step: Step) -> Iterator[Any]:
    """The final moves of ``step``'s buttons."""
    return (choice.move for choice in step.choices if choice.move is not None)


def walk(step_at: Callable[[Path], S | None]) -> Iterator[tuple[Path, S]]:
    """Every step the tree reaches from its root, with its path: ``step_at`` gives the
    step at a path (``None`` where there is none)."""
    todo: list[Path] = [""]
    seen: set[Path] = set()
    while todo:
        path = todo.pop()
        if path in seen:
            continue
        seen.add(path)
        step = step_at(path)
        if step is None:
            continue
        yield path, step
        todo.extend(choice.path for choice in step.choices if choice.path is not None)


def leaves(
    step_at: Callable[[Path], S | None], moves: Callable[[S], Iterable[M]] = choice_moves
) -> set[M]:
    """Every move the tree reaches from its root: ``step_at`` gives the step at a path
    (``None`` where there is none), ``moves`` the final moves a step offers."""
    found: set[M] = set()
    for _path, step in walk(step_at):
        found.update(moves(step))
    return found
