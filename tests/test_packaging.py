"""Packaging (issue 18, item 18): the build system can build the licence pyproject declares,
every installed package is pinned (the dependencies' dependencies too, in constraints.txt)
and CI, README and the image install from those pins; the descriptions name every game."""

from __future__ import annotations

import re
import tomllib
from importlib import metadata
from pathlib import Path

from packaging.requirements import Requirement
from packaging.utils import canonicalize_name
from packaging.version import Version

ROOT = Path(__file__).resolve().parent.parent
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text())
INSTALL = "python -m pip install -c constraints.txt -e '.[dev]'"


def constraints() -> dict[str, str]:
    """constraints.txt as {canonical name: pinned version}; every line must be a pin."""
    pins: dict[str, str] = {}
    for line in (ROOT / "constraints.txt").read_text().splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        name, sep, version = line.partition("==")
        assert sep and version and ";" not in line, f"not an exact pin: {line!r}"
        pins[canonicalize_name(name)] = version
    return pins


def direct_requirements() -> list[Requirement]:
    project = PYPROJECT["project"]
    listed = [*project["dependencies"], *project["optional-dependencies"]["dev"]]
    return [Requirement(text) for text in listed]


def test_the_build_system_can_build_an_spdx_licence_string() -> None:
    """``license = "MIT"`` (an SPDX expression) needs setuptools 77 or later."""
    assert PYPROJECT["project"]["license"] == "MIT"
    (setuptools,) = [
        Requirement(r)
        for r in PYPROJECT["build-system"]["requires"]
        if Requirement(r).name == "setuptools"
    ]
    assert not setuptools.specifier.contains(Version("76.9"))
    assert setuptools.specifier.contains(Version("77.0"))


def test_constraints_pin_every_direct_dependency_at_pyprojects_version() -> None:
    pins = constraints()
    for requirement in direct_requirements():
        (spec,) = requirement.specifier
        assert spec.operator == "==", requirement
        assert pins.get(canonicalize_name(requirement.name)) == spec.version, requirement


def test_constraints_pin_the_dependencies_of_the_dependencies_too() -> None:
    """Every package a pinned package requires (on this platform, with the extras asked
    for) is pinned too: nothing is left to whatever is newest on the day."""
    pins = constraints()
    wanted: list[tuple[str, frozenset[str]]] = [
        (canonicalize_name(r.name), frozenset(r.extras)) for r in direct_requirements()
    ]
    seen: set[tuple[str, frozenset[str]]] = set()
    while wanted:
        name, extras = wanted.pop()
        if (name, extras) in seen:
            continue
        seen.add((name, extras))
        assert name in pins, f"{name} is installed but not pinned in constraints.txt"
        for text in metadata.requires(name) or []:
            requirement = Requirement(text)
            marker = requirement.marker
            if marker is not None and not any(
                marker.evaluate({"extra": extra}) for extra in (extras or {""})
            ):
                continue
            wanted.append((canonicalize_name(requirement.name), frozenset(requirement.extras)))


def test_ci_readme_and_the_image_install_from_the_constraints() -> None:
    ci = (ROOT / ".ci" / "run").read_text().splitlines()
    assert ci[-1] == f"{INSTALL} && python -m pytest"
    readme = (ROOT / "README.md").read_text()
    assert f"    {INSTALL} && python -m pytest\n" in readme
    assert "    python -m pip install -c constraints.txt -e . && stackbot sync" in readme
    dockerfile = (ROOT / "Dockerfile").read_text()
    assert "pip install --constraint constraints.txt --requirement" in dockerfile


def test_descriptions_name_every_game() -> None:
    from bot.cli import _parser

    for text in (PYPROJECT["project"]["description"], _parser().description or ""):
        assert not re.search(r"\bthe (Stack )?dice game\b", text), text
        for title in ("Stack", "Stack Up!", "Color Stack"):
            assert title in text, text


def test_readme_layout_lists_every_doc_and_how_to_redraw_every_picture() -> None:
    readme = (ROOT / "README.md").read_text()
    layout = readme[readme.index("## Layout") :].split("\n## ", 1)[0]
    for doc in sorted((ROOT / "docs").glob("*.md")):
        assert f"(docs/{doc.name})" in layout, doc.name
    for module in ("pictures.stack", "pictures.stackup", "pictures.colorstack", "pictures.charts"):
        assert f"python -m {module} --save docs/pictures" in layout, module


def test_the_stackbot_command_catches_sigterm_before_it_imports_the_rest() -> None:
    """The installed command is :func:`bot.entry.main`, which sets SIGTERM's handling
    (:mod:`bot.stop_signal`) before ``bot.cli`` and what it imports (a second or so, in
    which a SIGTERM killed ``stackbot run``, or was ignored by it as PID 1)."""
    assert PYPROJECT["project"]["scripts"] == {"stackbot": "bot.entry:main"}
    entry = (ROOT / "bot" / "entry.py").read_text()
    imports = [line for line in entry.splitlines() if line.startswith(("import ", "from "))]
    assert imports == [
        "from __future__ import annotations",
        "import sys",
        "from bot import stop_signal",
    ]
