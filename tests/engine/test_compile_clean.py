"""``python -m engine.compile --clean`` removes the whole build, the C mypyc generated too."""

from __future__ import annotations

from pathlib import Path

from engine import compile as builder


def test_clean_removes_the_c_mypyc_generated_and_leaves_no_build_folder(tmp_path: Path) -> None:
    build = tmp_path / "build"
    made = [
        build / "__native_abc.c",
        build / "__native_abc.h",
        build / "__native_internal_abc.h",
        build / "ops.txt",
        build / "engine" / "flow.c",
        build / "engine" / "stack" / "state.c",
        build / "mypyc" / "build" / "temp.o",
        build / "lib.linux-x86_64-cpython-311" / "engine" / "flow.so",
    ]
    for path in made:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text("x")
    builder.clean(tmp_path)
    assert not build.exists(), sorted(str(p.relative_to(tmp_path)) for p in build.rglob("*"))


def test_clean_leaves_what_it_did_not_build(tmp_path: Path) -> None:
    mine = tmp_path / "build" / "notes.txt"
    mine.parent.mkdir()
    mine.write_text("kept")
    builder.clean(tmp_path)
    assert mine.read_text() == "kept"
