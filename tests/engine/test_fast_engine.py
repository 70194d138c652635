"""The fast engine plays the same games: the same moves, events, states, records and
random draws as the engine before its fast paths, pure or compiled, and the same rules
as the naive references of the rule books.

* Every case of :mod:`tests.engine.differential` (thousands of seeded games of the three
  games, random and greedy players, house rules) must hash as captured from main before
  the fast paths were written: this runs the build the test process imports (pure
  Python in CI).
* Both builds play the same games: the compiled build (the source tree's, when
  ``python -m engine.compile`` made one, else a copy of the engine compiled into a
  temporary folder, about a minute) and the pure one (``STACKBOT_ENGINE=pure``) each run
  the cases in a subprocess and must give the same digests. This runs in CI, which has a
  C compiler; it is skipped, saying so, only where this machine cannot build C extensions
  (no compiler or no Python headers) or where ``STACKBOT_TEST_COMPILED=0`` asks it to be.
  A build that fails is a failure: the hot modules must stay compilable.
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


def _digests_in_subprocess(env: dict[str, str], cwd: Path) -> dict[str, str]:
    out = subprocess.run(
        [sys.executable, "-m", "tests.engine.differential"],
        cwd=cwd,
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
    build, else a copy compiled here (``None`` where no C extension can be built, or
    ``STACKBOT_TEST_COMPILED=0``)."""
    if native.built():
        return ROOT
    if os.environ.get("STACKBOT_TEST_COMPILED") == "0":
        return None
    from engine import compile as builder

    if not builder.compiler_available():
        return None
    into = tmp_path_factory.mktemp("compiled")
    try:
        builder.build(builder.copy_engine(into))
    except subprocess.CalledProcessError as exc:
        pytest.fail(
            "the mypyc build of the engine failed:\n"
            + (exc.stderr or b"").decode(errors="replace")[-4000:]
        )
    return into


def test_the_compiled_and_the_pure_engine_play_the_same_games(
    compiled_root: Path | None,
) -> None:
    if compiled_root is None:
        pytest.skip(
            "no compiled build: this machine cannot build C extensions (no C compiler or"
            " no Python headers) or STACKBOT_TEST_COMPILED=0; the pure engine is checked above"
        )
    path = os.pathsep.join([str(compiled_root), str(ROOT)])
    compiled_env = dict(os.environ, PYTHONPATH=path)
    compiled_env.pop(native.ENV, None)
    pure_env = dict(compiled_env, **{native.ENV: "pure"})
    which = [sys.executable, "-c", "from engine import native; print(native.running())"]
    for env, build in ((compiled_env, "compiled"), (pure_env, "pure")):
        ran = subprocess.run(
            which, cwd=compiled_root, env=env, check=True, capture_output=True, text=True
        )
        assert ran.stdout.strip() == build
    # run from the compiled folder: Python puts the working folder first on its path
    assert _digests_in_subprocess(compiled_env, compiled_root) == EXPECTED
    assert _digests_in_subprocess(pure_env, compiled_root) == EXPECTED


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
