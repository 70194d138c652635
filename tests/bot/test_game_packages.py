"""A game lives in one place on Discord: one package, ``bot/games/<game>/``, registered by
one line in :mod:`bot.games`; the shared Discord modules look no game up and hold no
game's own code; no game's package reaches into another's."""

from __future__ import annotations

import ast
import importlib
from pathlib import Path

import pytest

from bot import games
from engine import games as engine_games

BOT = Path(__file__).resolve().parents[2] / "bot"
# the texts and buttons every game shares: the game is passed in to them (the host's side,
# bot.tables and its outbox, finds a table's game in the registry and hands it over)
SHARED = ("render.py", "story.py", "sheets.py", "views.py", "hosting.py")
# the seat's colour square and a name's short form: helpers every game's lobby and sheet
# use, kept in the engine's renderer of Stack (the first game) where the terminal uses them
GENERIC_HELPERS = {("engine.stack.render", "square"), ("engine.stack.render", "short_name")}


def imports_of(path: Path) -> set[tuple[str, str]]:
    """(module, name) for every ``from module import name``, (module, "") for ``import``."""
    found: set[tuple[str, str]] = set()
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.ImportFrom) and node.module is not None:
            found |= {(node.module, alias.name) for alias in node.names}
        elif isinstance(node, ast.Import):
            found |= {(alias.name, "") for alias in node.names}
    return found


@pytest.mark.parametrize("name", games.names())
def test_a_game_on_discord_is_one_package_of_bot_games(name: str) -> None:
    package = BOT / "games" / name
    assert (package / "__init__.py").is_file() and (package / "game.py").is_file()
    assert type(games.get(name)).__module__ == f"bot.games.{name}.game"
    assert engine_games.get(name) is games.get(name).game
    for path in package.glob("*.py"):
        importlib.import_module(f"bot.games.{name}.{path.stem}")  # each imports alone
        for module, _ in imports_of(path):
            others = {f"bot.games.{o}" for o in games.names() if o != name}
            assert not any(module == o or module.startswith(o + ".") for o in others), path
            parts = module.split(".")
            if parts[0] == "engine" and len(parts) > 1:
                assert parts[1] not in set(games.names()) - {name}, (path, module)


def test_no_game_module_sits_loose_in_bot_games() -> None:
    """Beside the game packages, bot/games holds only what every game's panel shares: the
    registry, the contract (``base``), a panel's step tree (``steps``) and a step as a
    Discord button (``buttons``) — none of them any one game's."""
    loose = {p.stem for p in (BOT / "games").glob("*.py")}
    assert loose == {"__init__", "base", "steps", "buttons"}, loose
    for stem in loose - {"__init__"}:
        for module, _ in imports_of(BOT / "games" / f"{stem}.py"):
            assert not any(
                module.startswith((f"bot.games.{name}", f"engine.{name}")) for name in games.names()
            ), (stem, module)


@pytest.mark.parametrize("shared", SHARED)
def test_the_shared_discord_modules_look_no_game_up_and_hold_none_of_a_games_code(
    shared: str,
) -> None:
    for module, name in imports_of(BOT / shared):
        assert module != "bot" or name != "games", shared  # the registry
        assert not module.startswith("bot.games"), (shared, module)
        game = module.split(".")[1] if module.startswith("engine.") else None
        if game in engine_games.names():
            assert (module, name) in GENERIC_HELPERS, (shared, module, name)
