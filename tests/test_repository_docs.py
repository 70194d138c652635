"""README, docs, LICENSE and the image tell the truth (issue 7, item 18): a clone alone has
no broken links, the image's files say what they do, and benchmarks leave no files behind."""

from __future__ import annotations

import re
import shlex
import signal
import subprocess
import sys
import time
import tomllib
from pathlib import Path

import pytest

import catalog
from engine.colorstack.board import DESIGNS, HEAVY_ROWS, LIGHT_ROWS, WIDTH
from terminal.stack import help_text
from tests.persistence.test_bench import bench_command, bench_env

ROOT = Path(__file__).resolve().parent.parent
SHARED_SPEC = ROOT.parent / "shared" / "spec"
MARKDOWN_LINK = re.compile(r"\[[^\]]*\]\(([^)\s]+)\)")


def relative_links(markdown: Path) -> list[str]:
    targets = MARKDOWN_LINK.findall(markdown.read_text())
    return [t for t in targets if not re.match(r"[a-z]+:", t) and not t.startswith("#")]


DOC_PAGES = [
    "stack-rules.md",
    "record-format.md",
    "stackup-rules.md",
    "stackup-record.md",
    "colorstack-rules.md",
    "colorstack-record.md",
]


@pytest.mark.parametrize("page", ["README.md", *(f"docs/{name}" for name in DOC_PAGES)])
def test_every_relative_link_resolves_inside_the_repository(page: str) -> None:
    for target in relative_links(ROOT / page):
        path = ((ROOT / page).parent / target.split("#")[0]).resolve()
        assert path.is_relative_to(ROOT), f"{page} links outside the repository: {target}"
        assert path.exists(), f"{page} links to a missing file: {target}"


def test_readme_links_the_rule_book_and_record_format_in_docs() -> None:
    links = relative_links(ROOT / "README.md")
    for name in DOC_PAGES:
        assert f"docs/{name}" in links


def test_readme_gives_color_stacks_boards_as_the_engine_lays_them() -> None:
    """The intro once said 'a board of 3 × 3 cards': the cards are 3 × 3 squares, and the
    default (light) board is 2 rows of 3 of them, the heavy one 3 rows of 3."""
    side = len(DESIGNS["A"])  # a card's squares a side
    per_row = WIDTH // side
    light, heavy = LIGHT_ROWS // side, HEAVY_ROWS // side  # rows of cards
    intro = " ".join((ROOT / "README.md").read_text().split("## ")[0].split())
    assert (
        f"a board of {light * per_row} cards of {side} × {side} squares, in {light} rows"
        f" of {per_row} (the heavy board: {heavy * per_row} cards, {heavy} rows of {per_row})"
    ) in intro
    assert "board of 3 × 3 cards" not in intro


def test_readme_stack_terminal_table_lists_every_command_its_help_and_stack_up_name() -> None:
    """Stack Up!'s paragraph says "`help`, `hint`, `show` and `quit` as above": each must be
    in Stack's table above it, as must every command Stack's own help lists (`show` was
    missing from the table)."""
    section = (ROOT / "README.md").read_text().split("## Play in a terminal")[1]
    stack_part, stack_up_part = section.split("Stack Up! plays in the same terminal")
    table = [row for row in stack_part.splitlines() if row.startswith("| `")]
    in_table = {
        quoted.split()[0]
        for row in table
        for quoted in re.findall(r"`([^`]+)`", row.split(" | ")[0])
    }
    as_above = re.search(r"((?:`\w+`(?:,\s+|\s+and\s+))+`\w+`)\s+as above", stack_up_part)
    assert as_above is not None
    named = set(re.findall(r"`(\w+)`", as_above.group(1)))
    assert named == {"help", "hint", "show", "quit"}
    assert named <= in_table
    with catalog.speaking("en"):
        listed = help_text().split("\n")[1:]
    helped = {line.split()[0] for line in listed if line.startswith("  ")}
    assert helped >= {"show", "hint", "help", "quit"}
    assert helped <= in_table


@pytest.mark.parametrize("name", DOC_PAGES)
def test_docs_hold_the_shared_spec_word_for_word(name: str) -> None:
    if not (SHARED_SPEC / name).exists():
        pytest.skip("the shared spec is not beside this clone")
    assert (ROOT / "docs" / name).read_bytes() == (SHARED_SPEC / name).read_bytes()


def test_license_file_is_the_mit_licence_pyproject_declares() -> None:
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text())
    assert pyproject["project"]["license"] == "MIT"
    licence = (ROOT / "LICENSE").read_text()
    assert licence.startswith("MIT License\n")
    assert "Copyright (c) 2026 the stackbot authors" in licence
    assert "Permission is hereby granted, free of charge, to any person obtaining a copy" in licence
    assert 'THE SOFTWARE IS PROVIDED "AS IS", WITHOUT WARRANTY OF ANY KIND' in licence


@pytest.mark.parametrize(
    "says",
    [
        "python3 -m venv .venv && . .venv/bin/activate",  # a virtual environment first
        'sqlite3 stackbot.db ".backup backup.db"',  # a safe backup of a WAL database
        "VACUUM INTO",
        "docker run --rm --env-file .env stackbot sync",  # sync with Docker
        "--restart unless-stopped",  # a restart policy
        "sudo chown 10001 ./data",  # a bind-mounted /data writable by the container's user
        "`docker stop stackbot` stops it cleanly",  # SIGTERM
    ],
)
def test_readme_says_how_to_operate_the_bot(says: str) -> None:
    assert says in (ROOT / "README.md").read_text()


# .dockerignore, matched as Docker does: patterns from the context's root, `*` within one
# path element, `**` across any, a directory's match covers its contents, last match wins.


def dockerignore_patterns() -> list[tuple[bool, re.Pattern[str]]]:
    patterns: list[tuple[bool, re.Pattern[str]]] = []
    for line in (ROOT / ".dockerignore").read_text().splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        keep = line.startswith("!")
        glob = line.removeprefix("!").strip("/")
        regex = ""
        i = 0
        while i < len(glob):
            if glob.startswith("**/", i):
                regex, i = regex + "(?:.*/)?", i + 3
            elif glob.startswith("**", i):
                regex, i = regex + ".*", i + 2
            elif glob[i] == "*":
                regex, i = regex + "[^/]*", i + 1
            elif glob[i] == "?":
                regex, i = regex + "[^/]", i + 1
            elif glob[i] == "[":
                end = glob.index("]", i)
                regex, i = regex + glob[i : end + 1], end + 1
            else:
                regex, i = regex + re.escape(glob[i]), i + 1
        patterns.append((keep, re.compile(regex)))
    return patterns


def ignored_by_docker(path: str) -> bool:
    parts = path.split("/")
    prefixes = ["/".join(parts[: n + 1]) for n in range(len(parts))]
    ignored = False
    for keep, pattern in dockerignore_patterns():
        if any(pattern.fullmatch(p) for p in prefixes):
            ignored = not keep
    return ignored


@pytest.mark.parametrize(
    "path",
    [
        "stackbot.db",
        "stackbot.db-wal",
        "stackbot.db-shm",
        "data/stackbot.db",
        "tests/persistence/x.sqlite",
        "old.sqlite3",
        "stackbot-bench-k2j4h1/bench.db",
        "stackbot-botbench-k2j4h1/bot.db",
        "bench.prof",
        "bot/render.prof",
        ".venv/bin/python",
        ".git/HEAD",
        ".env",
        "bot/__pycache__/cli.cpython-311.pyc",
        ".pytest_cache/README.md",
        ".hypothesis/examples/x",
        ".mypy_cache/3.11/x.json",
        ".ruff_cache/x",
        "stackbot.egg-info/PKG-INFO",
        "game.json",
    ],
)
def test_dockerignore_leaves_out_leftovers_databases_venv_caches_and_env(path: str) -> None:
    assert ignored_by_docker(path)


def dockerfile_instructions() -> list[tuple[str, str]]:
    text = re.sub(r"\\\n", " ", (ROOT / "Dockerfile").read_text())
    lines = [line.strip() for line in text.splitlines()]
    return [
        (line.split(None, 1)[0].upper(), line.split(None, 1)[1])
        for line in lines
        if line and not line.startswith("#")
    ]


def test_dockerignore_keeps_everything_the_dockerfile_copies() -> None:
    for op, args in dockerfile_instructions():
        if op == "COPY":
            for source in args.split()[:-1]:
                assert not ignored_by_docker(source.strip("./") or "."), source


def test_the_image_copies_every_package_pyproject_installs() -> None:
    """A package setuptools installs (``[tool.setuptools.packages.find] include``) and
    the Dockerfile leaves out would be missing from the image at run time."""
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text())
    included = pyproject["tool"]["setuptools"]["packages"]["find"]["include"]
    packages = {pattern.rstrip("*") for pattern in included}
    copied = {
        source.strip("./")
        for op, args in dockerfile_instructions()
        if op == "COPY"
        for source in args.split()[:-1]
    }
    assert all((ROOT / package / "__init__.py").is_file() for package in packages)
    assert packages <= copied, packages - copied


def test_dockerfile_installs_the_dependencies_in_a_layer_before_the_source() -> None:
    steps = dockerfile_instructions()
    copies = [(i, args.split()[:-1]) for i, (op, args) in enumerate(steps) if op == "COPY"]
    pip_runs = [i for i, (op, args) in enumerate(steps) if op == "RUN" and "pip install" in args]
    first_source = min(
        i
        for i, sources in copies
        if {"engine", "persistence", "pictures", "bot"} & {s.strip("./") for s in sources}
    )
    # before the dependencies: the system packages' list (its own layer), then pyproject.toml
    # and the constraints on their dependencies
    before = [sources for i, sources in copies if i < pip_runs[0]]
    assert before == [["system-packages.txt"], ["pyproject.toml", "constraints.txt"]], before
    dependency_step = pip_runs[0]
    assert copies[1][0] < dependency_step < first_source
    assert "--no-deps" not in steps[dependency_step][1]
    package_steps = [i for i in pip_runs if i > first_source]
    assert package_steps, "the package is installed after its source is copied"
    assert all("--no-deps" in steps[i][1] for i in package_steps)


def test_dockerfile_dependency_step_lists_exactly_pyprojects_dependencies(tmp_path: Path) -> None:
    (step,) = [args for op, args in dockerfile_instructions() if op == "RUN" and "tomllib" in args]
    lister = shlex.split(step.split(">")[0])  # python -c "..." > /tmp/requirements.txt
    assert lister[:2] == ["python", "-c"]
    (tmp_path / "pyproject.toml").write_bytes((ROOT / "pyproject.toml").read_bytes())
    listed = subprocess.run(
        [sys.executable, "-c", lister[2]],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    pyproject = tomllib.loads((ROOT / "pyproject.toml").read_text())
    assert listed == pyproject["project"]["dependencies"]


def test_dockerfile_runs_stackbot_as_uid_10001_with_data_on_a_volume() -> None:
    steps = dockerfile_instructions()
    text = "\n".join(f"{op} {args}" for op, args in steps)
    assert "useradd --create-home --uid 10001 stackbot" in text
    assert ("USER", "stackbot") in steps
    assert ("VOLUME", '["/data"]') in steps
    assert ("ENTRYPOINT", '["stackbot"]') in steps  # so `docker run stackbot sync` works
    assert ("CMD", '["run"]') in steps
    assert "DATABASE_URL=sqlite+aiosqlite:////data/stackbot.db" in text


def test_docker_and_ci_install_the_fonts_for_the_pictures_from_one_list() -> None:
    text = (ROOT / "system-packages.txt").read_text()
    image, _, tests_only = text.partition("# Tests only")

    def listed(part: str) -> list[str]:
        return [
            line.strip()
            for line in part.splitlines()
            if line.strip() and not line.lstrip().startswith("#")
        ]

    # Latin, Greek and Cyrillic; Chinese, Japanese and Korean; monochrome emoji; and the
    # right-to-left layout of Arabic and Hebrew names (FriBiDi, for Pillow's Raqm)
    assert listed(image) == [
        "fonts-dejavu-core",
        "fonts-noto-cjk",
        "fonts-symbola",
        "libfribidi0",
    ]
    # the browser tests' Chromium, installed by CI, never in the image
    assert listed(tests_only.partition("\n")[2]) == ["chromium"]
    dockerfile = (ROOT / "Dockerfile").read_text()
    assert "COPY system-packages.txt" in dockerfile and "apt-get install" in dockerfile
    assert "sed '/^# Tests only/,$d' /tmp/system-packages.txt" in dockerfile
    assert "FROM python:3.11-slim-bookworm" in dockerfile  # the Debian the list was checked on
    ci = (ROOT / ".ci" / "run").read_text()
    assert ci.index("system-packages.txt") < ci.index("python -m pytest")


# Benchmarks write to a temporary directory, never the working directory.


def bench_dirs(tmp_path: Path) -> tuple[Path, Path]:
    """The bench's temporary folder and its working folder, both made empty."""
    temp, work = tmp_path / "temp", tmp_path / "work"
    temp.mkdir()
    work.mkdir()
    return temp, work


def test_storage_bench_writes_in_the_temp_dir_not_the_working_dir_and_removes_it(
    tmp_path: Path,
) -> None:
    temp, work = bench_dirs(tmp_path)
    proc = subprocess.run(
        bench_command("1"),
        cwd=work,
        env=bench_env(temp),
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    assert f"({temp}/stackbot-bench-" in proc.stdout  # it worked in the temp dir
    assert list(work.iterdir()) == []
    assert list(temp.iterdir()) == []


def test_storage_bench_stopped_by_sigterm_removes_its_files(tmp_path: Path) -> None:
    temp, work = bench_dirs(tmp_path)
    proc = subprocess.Popen(
        bench_command("600"),
        cwd=work,
        env=bench_env(temp),
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        deadline = time.monotonic() + 60
        while not list(temp.glob("stackbot-bench-*/bench.db")):  # the tables are playing
            assert proc.poll() is None, proc.communicate()[1]
            assert time.monotonic() < deadline, "the bench never opened its database"
            time.sleep(0.05)
        proc.send_signal(signal.SIGTERM)
        _, stderr = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 130, stderr
    assert list(temp.iterdir()) == []
    assert list(work.iterdir()) == []
