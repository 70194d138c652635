"""``python -m engine.compile``: build the engine's hot modules with mypyc, in place.

Compiles :data:`engine.native.COMPILED_MODULES` (mypyc ships with mypy, a dev dependency)
into extension modules beside their sources, which Python then imports instead; the
``.py`` files stay the always-working fallback (``--clean`` removes the build;
``STACKBOT_ENGINE=pure`` ignores it). This is an explicit opt-in step, not a hook of
``pip install``: the package installs and runs everywhere as pure Python, with or
without a C compiler, and CI's install is as fast as ever. It needs a C compiler and the
Python headers; it takes a minute or two.

``--into DIR`` builds a copy of the engine package in ``DIR`` instead (the differential
test does, in a temporary folder), leaving the source tree alone.
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

from engine.native import COMPILED_MODULES, ROOT, built


def compiler_available() -> bool:
    """Whether this machine can build C extensions (a compiler and Python's headers)."""
    cc = (sysconfig.get_config_var("CC") or "cc").split()[0]
    include = Path(sysconfig.get_paths()["include"]) / "Python.h"
    return shutil.which(cc) is not None and include.exists()


def sources() -> list[str]:
    """The source files of the modules to compile, relative to the project's root."""
    return [str(Path(*name.split("."))) + ".py" for name in COMPILED_MODULES]


_SETUP = """
import sys
from setuptools import Distribution
from mypyc.build import mypycify

# setup() without its reading of the project's pyproject.toml (a setuptools older than the
# one its build-system asks for refuses it), and mypy without the notes about the project's
# configuration of packages this build does not check (mypyc takes any note for an error)
dist = Distribution(
    {
        "name": "stackbot-engine-native",
        "ext_modules": mypycify(["--no-warn-unused-configs", *sys.argv[2:]], opt_level="3"),
        "script_args": ["build_ext", "--inplace", "--build-temp", sys.argv[1]],
    }
)
dist.parse_command_line()
dist.run_commands()
"""


def build(root: Path, *, quiet: bool = True) -> list[Path]:
    """Compile the hot modules of the engine package under ``root`` in place; returns the
    extension files made. Raises ``subprocess.CalledProcessError`` when the build fails."""
    temp = root / "build" / "mypyc"
    temp.mkdir(parents=True, exist_ok=True)
    env = dict(os.environ, MYPYC_OPT_LEVEL="3")
    env["PYTHONPATH"] = os.pathsep.join(filter(None, [str(root), env.get("PYTHONPATH", "")]))
    subprocess.run(
        [sys.executable, "-c", _SETUP, str(temp), *sources()],
        cwd=root,
        env=env,
        check=True,
        stdout=subprocess.DEVNULL if quiet else None,
        stderr=subprocess.PIPE if quiet else None,
    )
    return sorted([*root.glob("*__mypyc*"), *(root / "engine").rglob("*.so")])


def clean(root: Path = ROOT) -> list[Path]:
    """Remove a build: the extension modules, mypyc's shared library and the C it generated."""
    gone = [*built(), *root.glob("*__mypyc*")] if root == ROOT else []
    for path in gone:
        path.unlink()
    folder = root / "build"
    shutil.rmtree(folder / "mypyc", ignore_errors=True)
    for copies in folder.glob("lib.*"):  # setuptools' copies of the extensions
        shutil.rmtree(copies, ignore_errors=True)
    # the C that mypyc generates (its target folder is build/): the shared module's files,
    # its list of operations, and a .c file per compiled module under the packages' folders
    for made in (*folder.glob("__native*"), folder / "ops.txt"):
        made.unlink(missing_ok=True)
    for package in {name.split(".")[0] for name in COMPILED_MODULES}:
        shutil.rmtree(folder / package, ignore_errors=True)
    if folder.is_dir() and not any(folder.iterdir()):
        folder.rmdir()
    return gone


def copy_engine(into: Path) -> Path:
    """A copy of the engine package's sources under ``into`` (for a build elsewhere)."""
    shutil.copytree(
        ROOT / "engine",
        into / "engine",
        ignore=shutil.ignore_patterns("__pycache__", "*.so", "*.pyd"),
        dirs_exist_ok=True,
    )
    return into


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m engine.compile", description=__doc__.splitlines()[0] if __doc__ else None
    )
    parser.add_argument("--clean", action="store_true", help="remove the compiled build")
    parser.add_argument("--into", type=Path, help="build a copy of the engine in this folder")
    parser.add_argument("--verbose", action="store_true", help="show the compiler's output")
    args = parser.parse_args(argv)
    if args.clean:
        for path in clean():
            print(f"removed {path.relative_to(ROOT)}")
        return 0
    if not compiler_available():
        print("no C compiler or Python headers here: the engine runs as pure Python")
        return 1
    root = ROOT if args.into is None else copy_engine(args.into.resolve())
    try:
        made = build(root, quiet=not args.verbose)
    except subprocess.CalledProcessError as exc:
        print((exc.stderr or b"").decode(errors="replace")[-4000:])
        print("the build failed: the engine runs as pure Python")
        return 1
    for path in made:
        print(f"built {path}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
