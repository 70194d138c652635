"""The one built file the pages ship, ``web/static/vendor/discord-sdk.js``, is what its
source builds: ``npm ci`` from ``web/sdk/package-lock.json`` and the build (esbuild) in a
temporary copy of ``web/sdk``, byte for byte against the committed file. Skipped where
``npm`` is not on PATH; a failing ``npm ci`` (no registry) fails it: it is the check."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

WEB = Path(__file__).resolve().parents[2] / "web"
BUILT = WEB / "static" / "vendor" / "discord-sdk.js"
NPM = shutil.which("npm")
LIMIT_S = 300  # how long a broken registry may hang the test (not a measure)


@pytest.mark.skipif(NPM is None, reason="npm is not on PATH: the built SDK is not rebuilt")
def test_the_committed_discord_sdk_bundle_is_what_its_locked_sources_build(
    tmp_path: Path,
) -> None:
    assert NPM is not None
    sdk = tmp_path / "sdk"
    shutil.copytree(WEB / "sdk", sdk, ignore=shutil.ignore_patterns("node_modules"))
    (tmp_path / "static" / "vendor").mkdir(parents=True)  # the build writes ../static/vendor
    for step in (
        [NPM, "ci", "--no-audit", "--no-fund"],
        [NPM, "run", "build"],
    ):
        done = subprocess.run(
            step, cwd=sdk, capture_output=True, text=True, timeout=LIMIT_S, check=False
        )
        assert done.returncode == 0, f"{' '.join(step[1:])} failed:\n{done.stdout}\n{done.stderr}"
    rebuilt = (tmp_path / "static" / "vendor" / "discord-sdk.js").read_bytes()
    assert rebuilt == BUILT.read_bytes(), (
        "web/static/vendor/discord-sdk.js differs from what web/sdk builds: "
        "cd web/sdk && npm ci && npm run build, and commit it"
    )
