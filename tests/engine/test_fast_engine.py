"""The fast engine plays the same games: the same moves, events, states, records and
random draws as the engine before its fast paths, pure or compiled, and the same rules
as the naive references of the rule books.

* Every case of :mod:`tests.engine.differential` (thousands of seeded games of the three
  games, random and greedy players, house rules) must hash as captured from main before
  the fast paths were written: this runs the build the test process imports (pure
  Python in CI).
* When a compiled build (``python -m engine.compile``) is present, the other build (pure,
  through ``STACKBOT_ENGINE=pure``) is run in a subprocess and must give the same
  digests; with ``STACKBOT_TEST_COMPILED=1`` and a C compiler, the test compiles a copy
  of the engine into a temporary folder first (a few minutes: not in CI's default run).
* The naive references (:mod:`engine.reference`) play in lockstep with the engines: the
  same legal moves at every decision, the same results.
"""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

from engine import native
from engine.reference import check
from tests.engine.differential import CASES, EXPECTED, case_digest

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
def test_seeded_games_are_those_of_the_engine_before_the_fast_paths(
    case: tuple[str, str, int, dict[str, object], tuple[str, ...], int, int],
) -> None:
    name, game, players, settings, levels, games, seed = case
    assert case_digest(game, players, settings, levels, games, seed) == EXPECTED[name]


def _digests_in_subprocess(env: dict[str, str]) -> dict[str, str]:
    out = subprocess.run(
        [sys.executable, "-m", "tests.engine.differential"],
        cwd=ROOT,
        env=env,
        check=True,
        capture_output=True,
        text=True,
    ).stdout
    digests: dict[str, str] = json.loads(out)
    return digests


@pytest.fixture(scope="session")
def compiled_root(tmp_path_factory: pytest.TempPathFactory) -> Path | None:
    """A folder whose ``engine`` package is compiled: the source tree when it holds a
    build, else (asked for by ``STACKBOT_TEST_COMPILED=1``) a copy compiled here."""
    if native.built():
        return ROOT
    if os.environ.get("STACKBOT_TEST_COMPILED") != "1":
        return None
    from engine import compile as builder

    if not builder.compiler_available():
        return None
    into = tmp_path_factory.mktemp("compiled")
    builder.build(builder.copy_engine(into))
    return into


def test_the_compiled_and_the_pure_engine_play_the_same_games(
    compiled_root: Path | None,
) -> None:
    if compiled_root is None:
        pytest.skip(
            "no compiled build here (python -m engine.compile, or STACKBOT_TEST_COMPILED=1"
            " to build one for this test); the pure engine is checked above"
        )
    path = os.pathsep.join([str(compiled_root), str(ROOT)])
    compiled_env = dict(os.environ, PYTHONPATH=path)
    compiled_env.pop(native.ENV, None)
    pure_env = dict(compiled_env, **{native.ENV: "pure"})
    which = [sys.executable, "-c", "from engine import native; print(native.running())"]
    for env, build in ((compiled_env, "compiled"), (pure_env, "pure")):
        ran = subprocess.run(which, cwd=ROOT, env=env, check=True, capture_output=True, text=True)
        assert ran.stdout.strip() == build
    assert _digests_in_subprocess(compiled_env) == EXPECTED
    assert _digests_in_subprocess(pure_env) == EXPECTED


@pytest.mark.parametrize(
    "case", check.CASES, ids=[f"{c[0]}-{c[1]}-{i}" for i, c in enumerate(check.CASES)]
)
def test_the_engine_and_the_rule_books_reference_agree_on_every_decision(
    case: tuple[str, int, dict[str, object]],
) -> None:
    game, players, settings = case
    rng = random.Random(f"{game}{players}{sorted(settings.items())}")
    compared = sum(check.lockstep(game, players, settings, rng) for _ in range(3))
    assert compared > 0
