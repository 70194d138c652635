"""The host is a layer of its own: no Discord, no words, nothing of the bot (issue 19)."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

HOST = Path(__file__).resolve().parents[2] / "host"


def test_the_host_imports_without_discord() -> None:
    """With discord.py made unimportable, the table service still imports, and nothing of
    ``bot`` comes with it."""
    code = (
        "import sys; sys.modules['discord'] = None; import host.service; "
        "assert not [m for m in sys.modules if m == 'bot' or m.startswith('bot.')], "
        "sorted(m for m in sys.modules if m.startswith('bot'))"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    assert done.returncode == 0, done.stderr


def imported(path: Path) -> set[str]:
    tree = ast.parse(path.read_text())
    names: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom) and node.module is not None and node.level == 0:
            names.add(node.module)
        elif isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
    return names


def test_the_host_imports_only_the_engine_and_storage() -> None:
    ours = ("engine", "persistence", "host", "bot", "tests", "discord", "pictures", "terminal")
    for path in sorted(HOST.rglob("*.py")):
        for module in imported(path):
            top = module.split(".")[0]
            if top in ours:
                assert top in {"engine", "persistence", "host"}, f"{path.name} imports {module}"


def test_every_refusal_of_the_host_is_a_code_not_words() -> None:
    """``Refusal(...)`` in the host takes a ``Why`` member (and facts), never a sentence."""
    calls = 0
    for path in sorted(HOST.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name)
                and node.func.id == "Refusal"
            ):
                calls += 1
                first = node.args[0] if node.args else None
                assert (
                    isinstance(first, ast.Attribute)
                    and isinstance(first.value, ast.Name)
                    and first.value.id == "Why"
                ), f"{path.name}:{node.lineno}"
                for keyword in node.keywords:
                    value = keyword.value
                    assert not (isinstance(value, ast.Constant) and " " in str(value.value)), (
                        f"{path.name}:{node.lineno}: words in a refusal's facts"
                    )
    assert calls > 30  # the service's refusals are all seen


def import_graph() -> dict[str, set[str]]:
    """Module -> the modules of ours it imports (at any depth of its code, typing-only
    imports too), over engine/, persistence/, host/ and bot/."""
    root = HOST.parent
    modules: dict[str, Path] = {}
    for top in ("engine", "persistence", "host", "bot"):
        for path in (root / top).rglob("*.py"):
            parts = path.relative_to(root).with_suffix("").parts
            name = ".".join(parts[:-1] if parts[-1] == "__init__" else parts)
            modules[name] = path
    graph: dict[str, set[str]] = {}
    for name, path in modules.items():
        targets: set[str] = set()
        for node in ast.walk(ast.parse(path.read_text())):
            found: list[str] = []
            if isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
                found = [node.module] + [f"{node.module}.{a.name}" for a in node.names]
            elif isinstance(node, ast.Import):
                found = [a.name for a in node.names]
            targets.update(f for f in found if f in modules and f != name)
        graph[name] = targets
    return graph


def circles(graph: dict[str, set[str]]) -> list[set[str]]:
    """The strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[set[str]] = []

    def visit(v: str) -> None:
        index[v] = low[v] = len(index)
        stack.append(v)
        for w in graph[v]:
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            component = set()
            while True:
                w = stack.pop()
                component.add(w)
                if w == v:
                    break
            if len(component) > 1:
                found.append(component)

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return found


def test_no_import_circle_runs_through_the_host_or_the_game_contract() -> None:
    """The table host, the game contract, the generic buttons, the renderings and the
    refusals' words stand in layers (the circle games/base -> service -> views -> render
    -> games is gone)."""
    watched = {
        "bot.games",
        "bot.games.base",
        "bot.views",
        "bot.render",
        "bot.story",
        "bot.refusal_words",
        "bot.front",
    }
    for component in circles(import_graph()):
        assert not {m for m in component if m.startswith("host")}, component
        assert not component & watched, component
