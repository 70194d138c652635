"""Find words a player could read that are built outside the catalog.

``python -m catalog.scan [PATH...]`` (default: every front-end module) prints each string
literal of a front-end module that looks like words for a person — two words or more, or
one word given as a label, placeholder, title or content — and is not a catalog key, a
docstring, a log line, a programmer's error or on the short list of :data:`ALLOWED`. The
test ``tests/catalog/test_no_words_outside_the_catalog.py`` requires it to find nothing.
"""

from __future__ import annotations

import ast
import re
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# The modules a player reads: the Discord bot, the terminal, the web pages' server side
# and the pictures. Operators' tools (benches, the load test, the stand-in, metrics, the
# CLI's own options and configuration errors) speak English only.
FRONT_ENDS = ("bot", "terminal", "web", "pictures")
OPERATORS = (
    "bot/bench.py",
    "bot/bench_kit.py",
    "bot/cluster_bench.py",
    "bot/coldstart.py",
    "bot/loadtest.py",
    "bot/panel_bench.py",
    "bot/standin/",
    "bot/metrics.py",
    "bot/health.py",
    "bot/config.py",
    "bot/cli.py",
    "bot/sharding.py",
    "bot/client.py",
    "pictures/bench.py",
    "pictures/samples.py",
    "pictures/fonts.py",
    "web/bench.py",
    "web/shots.py",
)

# Literals that read as words but are not (a font's family name, a notation example that
# stays in every language…): ``catalog/allowed.txt``, one per line, ``path<TAB>literal<TAB>
# why`` (the literal as Python escapes it, without quotes). Keep it short, and say why.
ALLOWED_FILE = Path(__file__).with_name("allowed.txt")


def _allowed() -> frozenset[tuple[str, str]]:
    if not ALLOWED_FILE.exists():
        return frozenset()
    found = set()
    for line in ALLOWED_FILE.read_text(encoding="utf-8").splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        path, literal, *_ = line.split("\t")
        found.add((path, literal.encode("latin-1", "backslashreplace").decode("unicode_escape")))
    return frozenset(found)


ALLOWED = _allowed()

WORDS = re.compile(r"[A-Za-z]{2,}[,.!?:;']?\s+[A-Za-z(\"'*`]")
SHOWN_AS = {"label", "placeholder", "title", "content", "description", "text", "name", "alt"}
QUIET_CALLS = {
    "debug",
    "info",
    "warning",
    "error",
    "exception",
    "critical",
    "log",  # logging
    "t",
    "n",
    "speaking",  # the catalog itself: keys
    "getLogger",
    "warn",
    # slash commands' own metadata: English is Discord's source text, and the command tree's
    # translator (bot.translator) says it in the user's language from commands.po
    "command",
    "describe",
    "choices",
    "Group",
    "Choice",
    "rename",
    # a regular expression reads another library's (English) message: it says nothing
    "compile",
}
PROGRAMMER_ERRORS = {
    "TypeError",
    "ValueError",
    "RuntimeError",
    "KeyError",
    "AssertionError",
    "NotImplementedError",
    "AttributeError",
    "IndexError",
    "LookupError",
    "OSError",
    "ConnectionError",
    "UnknownGame",  # caught and said from the catalog by whoever asked
    "UnknownPicture",
}


@dataclass(frozen=True, slots=True)
class Found:
    path: str
    line: int
    text: str

    def __str__(self) -> str:
        return f"{self.path}:{self.line}: {self.text!r}"


def _name(node: ast.AST) -> str | None:
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        return node.attr
    return None


class _Scanner(ast.NodeVisitor):
    def __init__(self, path: str) -> None:
        self.path = path
        self.found: list[Found] = []
        self._quiet = 0

    def _docstring(self, body: list[ast.stmt]) -> None:
        if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant):
            body[0].value.__dict__["_docstring"] = True

    def visit_Module(self, node: ast.Module) -> None:
        self._docstring(node.body)
        self.generic_visit(node)

    def visit_ClassDef(self, node: ast.ClassDef) -> None:
        self._docstring(node.body)
        self.generic_visit(node)

    def visit_FunctionDef(self, node: ast.FunctionDef) -> None:
        self._docstring(node.body)
        self.generic_visit(node)

    visit_AsyncFunctionDef = visit_FunctionDef  # type: ignore[assignment]

    def _quietly(self, node: ast.AST) -> None:
        self._quiet += 1
        self.generic_visit(node)
        self._quiet -= 1

    def visit_Call(self, node: ast.Call) -> None:
        if _name(node.func) in QUIET_CALLS:
            self._quietly(node)
            return
        for keyword in node.keywords:
            value = keyword.value
            if (
                keyword.arg in SHOWN_AS
                and isinstance(value, ast.Constant)
                and isinstance(value.value, str)
                and re.search(r"[A-Za-z]{2,}", value.value)
                and not self._quiet
            ):
                self._report(value, value.value)
                value.__dict__["_seen"] = True
        self.generic_visit(node)

    def visit_Raise(self, node: ast.Raise) -> None:
        call = node.exc
        if isinstance(call, ast.Call) and _name(call.func) in PROGRAMMER_ERRORS:
            self._quietly(node)
            return
        self.generic_visit(node)

    def visit_Assign(self, node: ast.Assign) -> None:
        if any(isinstance(t, ast.Name) and t.id == "__all__" for t in node.targets):
            return
        self.generic_visit(node)

    def visit_Constant(self, node: ast.Constant) -> None:
        if (
            isinstance(node.value, str)
            and not self._quiet
            and not node.__dict__.get("_docstring")
            and not node.__dict__.get("_seen")
            and WORDS.search(node.value)
        ):
            self._report(node, node.value)

    def _report(self, node: ast.AST, text: str) -> None:
        if (self.path, text) not in ALLOWED:
            self.found.append(Found(self.path, getattr(node, "lineno", 0), text))


def modules(paths: list[str] | None = None) -> Iterator[Path]:
    """The front-end modules scanned (or the files and folders of ``paths``)."""
    roots = [ROOT / p for p in (paths or FRONT_ENDS)]
    for root in roots:
        files = [root] if root.is_file() else sorted(root.rglob("*.py"))
        for file in files:
            relative = file.relative_to(ROOT).as_posix()
            if any(relative.startswith(skip) for skip in OPERATORS):
                continue
            yield file


def scan_source(source: str, path: str = "<source>") -> list[Found]:
    """Every literal that looks like words outside the catalog in one module's source."""
    scanner = _Scanner(path)
    scanner.visit(ast.parse(source))
    return scanner.found


def scan(paths: list[str] | None = None) -> list[Found]:
    """Every literal that looks like words outside the catalog, in ``paths``' modules."""
    found: list[Found] = []
    for file in modules(paths):
        found += scan_source(file.read_text(encoding="utf-8"), file.relative_to(ROOT).as_posix())
    return found


def main(argv: list[str] | None = None) -> int:
    found = scan(list(argv if argv is not None else sys.argv[1:]) or None)
    for item in found:
        print(item)
    print(f"{len(found)} literals outside the catalog")
    return 1 if found else 0


if __name__ == "__main__":
    raise SystemExit(main())
