"""Which build of the engine's hot modules is running: compiled (mypyc) or pure Python.

``python -m engine.compile`` compiles :data:`COMPILED_MODULES` with mypyc into extension
modules beside their sources (git-ignored); Python then imports those instead of the
``.py`` files. The sources stay the always-working fallback, the same code: without a
build (CI, a machine without a C compiler) everything runs as Python.

``STACKBOT_ENGINE=pure`` in the environment makes a process ignore a build that is there
(:func:`force_pure`, installed by ``engine/__init__.py`` before any module of the engine
is imported): for comparing the two, and as the way out should a build misbehave.
"""

from __future__ import annotations

import importlib.machinery
import importlib.util
import os
import sys
from collections.abc import Sequence
from importlib.machinery import ModuleSpec
from pathlib import Path
from types import ModuleType

# The modules `python -m engine.compile` builds: the states, moves and boards of the three
# games (the self-play and search hot paths) and the table loop.
COMPILED_MODULES = (
    "engine.stack.moves",
    "engine.stack.state",
    "engine.stackup.cards",
    "engine.stackup.moves",
    "engine.stackup.state",
    "engine.colorstack.board",
    "engine.colorstack.moves",
    "engine.colorstack.state",
    "engine.flow",
)
ENV = "STACKBOT_ENGINE"
# Passed as the players of a state's constructor, an instance whose attributes the caller
# fills in (``copy``, ``from_dict``): ``cls.__new__(cls)`` would not do, since a compiled
# class's ``__new__`` runs ``__init__``.
BLANK: tuple[str, ...] = ("(blank)",)
ROOT = Path(__file__).resolve().parent.parent
_EXTENSIONS = tuple(importlib.machinery.EXTENSION_SUFFIXES)


def built(modules: Sequence[str] = COMPILED_MODULES) -> list[Path]:
    """The compiled extension files present beside the sources of ``modules``."""
    found = []
    for name in modules:
        folder = ROOT.joinpath(*name.split(".")[:-1])
        stem = name.rsplit(".", 1)[-1]
        found += [folder / f"{stem}{suffix}" for suffix in _EXTENSIONS]
    return [path for path in found if path.exists()]


def running() -> str:
    """``"compiled"`` when the engine's hot modules run compiled, else ``"pure"``."""
    # where Stack's state is (or would be) loaded from, without importing it: the states
    # import this module (BLANK), not the other way round
    spec = importlib.util.find_spec("engine.stack.state")
    origin = str(spec.origin if spec is not None else "")
    return "compiled" if origin.endswith(_EXTENSIONS) else "pure"


class _PureFinder:
    """Finds the ``.py`` source of an engine module that also has a compiled build."""

    @staticmethod
    def find_spec(
        name: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> ModuleSpec | None:
        if name not in COMPILED_MODULES:
            return None
        spec = importlib.machinery.PathFinder.find_spec(name, path)
        if spec is None or not str(spec.origin).endswith(_EXTENSIONS):
            return spec
        source = Path(str(spec.origin)).with_name(name.rsplit(".", 1)[-1] + ".py")
        return importlib.util.spec_from_file_location(name, source)


def force_pure() -> None:
    """From now on, import the engine's hot modules from their sources even when a
    compiled build is there (all of them: a compiled module calls the others natively)."""
    if not any(isinstance(f, _PureFinder) for f in sys.meta_path):
        sys.meta_path.insert(0, _PureFinder())


def wants_pure() -> bool:
    """Whether the environment asks for the pure-Python engine (``STACKBOT_ENGINE=pure``)."""
    return os.environ.get(ENV, "").strip().lower() == "pure"
