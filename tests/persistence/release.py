"""The release before issue 9 (commit 6006dbb), run beside this code: its ``engine`` and
``persistence`` taken out of the repository's history with ``git archive``, and
:mod:`tests.persistence.old_release` run on them in a subprocess to build a database and
read it as that release did.

:func:`as_before` reads this code's records in the shape that release wrote them, so the
two can be compared field by field.
"""

from __future__ import annotations

import io
import json
import os
import shutil
import subprocess
import sys
import tarfile
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

from pydantic import BaseModel

ROOT = Path(__file__).resolve().parents[2]
RELEASE = "6006dbb"  # main before issue 9: Stack-only storage, migrations 0001 to 0004
SCRIPT = Path(__file__).with_name("old_release.py")


def fetch_release(folder: Path) -> Path:
    """The release's ``engine`` and ``persistence`` (and the script) in ``folder``."""
    archive = subprocess.run(
        ["git", "archive", "--format=tar", RELEASE, "engine", "persistence"],
        cwd=ROOT,
        capture_output=True,
        check=False,
    )
    if archive.returncode != 0:
        raise RuntimeError(
            f"git archive {RELEASE} failed ({archive.stderr.decode().strip()}): the upgrade "
            "tests need the repository's history (a full clone)."
        )
    with tarfile.open(fileobj=io.BytesIO(archive.stdout)) as tar:
        tar.extractall(folder, filter="data")
    shutil.copy(SCRIPT, folder / SCRIPT.name)
    return folder


@dataclass(frozen=True)
class Where:
    """A database for the release to work in: its URL and PostgreSQL schema (or none)."""

    url: str
    schema: str | None = None

    @classmethod
    def of(cls, url: str, engine_options: Mapping[str, Any]) -> Where:
        settings = engine_options.get("connect_args", {}).get("server_settings", {})
        return cls(url, settings.get("search_path"))


def run_release(code: Path, where: Where, out: Path, ids: Mapping[str, Any] | None = None) -> Any:
    """Run the release's script on ``where``: ``build`` (play the games, then read) when
    no ``ids`` are given, else ``read`` those tables again. Returns what it read."""
    args = [where.url, where.schema or "-"]
    if ids is None:
        args = ["build", *args, str(out)]
    else:
        ids_file = out.with_suffix(".ids.json")
        ids_file.write_text(json.dumps(ids))
        args = ["read", *args, str(ids_file), str(out)]
    env = {k: v for k, v in os.environ.items() if k not in ("DATABASE_URL", "PYTHONPATH")}
    env["PYTHONPATH"] = str(code)
    proc = subprocess.run(
        [sys.executable, str(code / SCRIPT.name), *args],
        cwd=code,
        env=env,
        capture_output=True,
        text=True,
        check=False,
        timeout=600,
    )
    if proc.returncode != 0:
        raise RuntimeError(f"the release's script failed:\n{proc.stderr}")
    return json.loads(out.read_text())


def shared_places(board: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """A leaderboard as the release wrote it (its lines numbered 1, 2, 3… whatever they
    were), with the places this code gives: lines equal on what a Stack board ranks by
    (wins, points) share the place of the first of them (1, 1, 3)."""
    shared: list[dict[str, Any]] = []
    for i, line in enumerate(board):
        key = (line["stats"]["wins"], line["stats"]["points"])
        before = board[i - 1]["stats"] if i else None
        tied = before is not None and (before["wins"], before["points"]) == key
        shared.append({**line, "rank": shared[-1]["rank"] if tied else i + 1})
    return shared


def as_before(before: Any, now: Any) -> Any:
    """``now`` in the shape of ``before`` (as the release wrote it to JSON): for every key
    of an object, ``now``'s item or attribute of that name (so properties that keep an old
    field readable count); lists item by item; datetimes in ISO format; settings models
    as their dumps. ``as_before(b, n) == b`` when ``n`` reads as ``b`` did."""
    if isinstance(now, BaseModel):
        now = now.model_dump(mode="json")
    if isinstance(before, dict):
        if now is None:
            return None
        missing = object()
        shaped = {}
        for key, value in before.items():
            item = now.get(key, missing) if isinstance(now, Mapping) else getattr(now, key, missing)
            shaped[key] = f"<no {key}>" if item is missing else as_before(value, item)
        return shaped
    if isinstance(before, list):
        items = list(now) if isinstance(now, (list, tuple)) else [now]
        if len(items) != len(before):
            return [f"<{len(items)} items>"]
        return [as_before(b, n) for b, n in zip(before, items, strict=True)]
    if isinstance(now, datetime):
        return now.isoformat()
    if isinstance(now, tuple):
        return list(now)
    return now


def as_json(value: Any) -> Any:
    """``value`` as JSON gives it back (tuples as lists)."""
    return json.loads(json.dumps(value))
