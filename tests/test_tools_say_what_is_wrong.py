"""The measuring tools README's "AI levels" and "Benchmarks" show: their ``--help`` names
the command one types, and an option they cannot run with is refused in words (a usage
error, exit status 2), never with a traceback or a nonsense figure."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
TOOLS = [
    "engine.bench",
    "engine.simulate",
    "engine.compile",
    "engine.reference.check",
    "engine.ladder",
    "engine.colorstack.match",
    "engine.stackup.oracle",
    "engine.stackup.fit",
    "bot.loadtest",
    "bot.panel_bench",
    "bot.bench",
    "persistence.bench",
]


def run(*args: str) -> subprocess.CompletedProcess[str]:
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    return subprocess.run(
        [sys.executable, "-m", *args], cwd=ROOT, env=env, capture_output=True, text=True
    )


@pytest.mark.parametrize("module", TOOLS)
def test_a_tools_help_names_the_command_one_types(module: str) -> None:
    shown = run(module, "--help")
    assert shown.returncode == 0, shown.stderr
    assert shown.stdout.startswith(f"usage: python -m {module} "), shown.stdout[:80]


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["engine.simulate", "--games", "0"], "--games is at least 1"),
        (
            ["engine.simulate", "--game", "colorstack", "--setting", "board=huge"],
            "bad --setting for Color Stack: board: Input should be 'light' or 'heavy'\n",
        ),
        (
            ["engine.simulate", "--game", "colorstack", "--setting", "colour=red"],
            "bad --setting for Color Stack: unknown key 'colour'\n",
        ),
        (["engine.bench", "--seconds", "0"], "--seconds is a positive number"),
        (["engine.stackup.oracle", "--players", "7"], "--players is 2 to 6"),
        (["engine.stackup.oracle", "--games", "0"], "--games and --nodes are at least 1"),
        (["engine.stackup.oracle", "--nodes", "0"], "--games and --nodes are at least 1"),
        (["engine.stackup.fit", "--players", "1"], "--players is 2 to 6"),
        (["engine.stackup.fit", "--games", "0"], "--games is at least 1"),
        (["engine.stackup.fit", "--sample", "0"], "--sample a share of turns"),
        (["engine.colorstack.match", "--turn-limit", "0"], "--turn-limit is at least 1"),
        (["engine.colorstack.match", "--minutes", "0"], "--minutes is positive"),
        (["bot.panel_bench", "--states", "0"], "--states and --repeat are at least 1"),
        (["bot.loadtest", "--tables", "0"], "--tables is at least 1"),
        (["bot.loadtest", "--mix", "foo"], "--mix is game=share pairs"),
        (["bot.loadtest", "--mix", "chess=1"], "--mix is game=share pairs"),
        (["bot.loadtest", "--mix", "stack=inf"], "--mix is game=share pairs"),
        (["bot.loadtest", "--mix", "stack=1e308,stackup=1e308"], "--mix is game=share pairs"),
        (["bot.loadtest", "--typed", "2"], "--typed is a share of Stack moves"),
        (["bot.loadtest", "--rates", "abc"], "positive moves a second"),
        (["bot.loadtest", "--seconds", "0"], "--seconds is a positive number"),
    ],
)
def test_an_option_a_tool_cannot_run_with_is_refused_in_words(args: list[str], said: str) -> None:
    done = run(*args)
    assert done.returncode == 2, done.stderr[-600:]
    assert said in done.stderr and "Traceback" not in done.stderr
