"""The code is formatted, linted and typed (ruff; mypy strict on engine, persistence, pictures),
and its imports keep the layers (import-linter)."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("engine", "persistence", "pictures", "web", "bot")


def run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", *args], cwd=ROOT, capture_output=True, text=True, check=False
    )


def test_ruff_lint() -> None:
    proc = run("ruff", "check", ".")
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_ruff_format() -> None:
    proc = run("ruff", "format", "--check", ".")
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_mypy() -> None:
    proc = run("mypy", "engine", "persistence", "pictures", "host", "terminal", "web", "bot")
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_import_contracts() -> None:
    """import-linter's contracts (pyproject.toml): the layers, what each package may not
    import, benches as tools, and no circles."""
    lint_imports = Path(sys.executable).with_name("lint-imports")
    proc = subprocess.run(
        [str(lint_imports), "--no-cache", "--no-logo"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_ci_runs_exactly_the_readme_test_command() -> None:
    readme = (ROOT / "README.md").read_text()
    ci = (ROOT / ".ci" / "run").read_text().splitlines()
    command = ci[-1]
    assert command.startswith("python -m pip install")
    assert f"    {command}\n" in readme


def test_every_rule_book_a_docstring_names_is_in_the_repository() -> None:
    """A docstring's ``….md`` path names a file of this repository (the rule books and
    record formats are docs/*.md), not a copy kept somewhere else."""
    named = re.compile(r"``([\w./-]+\.md)``")
    missing = [
        f"{path.relative_to(ROOT)}: {name}"
        for package in PACKAGES
        for path in sorted((ROOT / package).rglob("*.py"))
        for name in named.findall(path.read_text())
        if not (ROOT / name).is_file()
    ]
    assert not missing, "\n".join(missing)
