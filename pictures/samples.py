"""The pictures' command line, the same for every game's picture module: ``--save FOLDER``
draws the module's showcase (the examples in ``docs/pictures/``), else the module's CPU
bench is printed; and the bench's measures. A tool: nothing at run time imports it (the
modules import it in their ``main`` and ``bench`` only).
"""

from __future__ import annotations

import argparse
import random
import statistics
import time
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path
from typing import TypeVar

from pictures import fonts

P = TypeVar("P")
S = TypeVar("S")  # a game's state


def long_names(seats: int) -> tuple[str, ...]:
    """``seats`` names of 32 characters ("Player 1 with a very long name"…)."""
    return tuple(f"Player {seat + 1} with a very long name"[:32] for seat in range(seats))


def from_games(
    count: int,
    seed: int,
    play: Callable[[int, Callable[[S], bool]], object],
    take: Callable[[random.Random, S], P],
    chance: float,
) -> list[P]:
    """``count`` pictures of random games: game after game (``play(game_seed, done)``
    plays one, asking ``done(state)`` at each decision whether to stop), a picture
    (``take(rng, state)``) taken at about ``chance`` of the decisions."""
    rng = random.Random(seed)
    pictures: list[P] = []
    game = 0
    while len(pictures) < count:
        game += 1

        def done(state: S) -> bool:
            if rng.random() < chance:
                pictures.append(take(rng, state))
            return len(pictures) >= count

        play(seed * 1000 + game, done)
    return pictures


def cpu_ms(draw: Callable[[P], object], pictures: Iterable[P]) -> list[float]:
    """CPU milliseconds (this thread's) that ``draw`` takes for each picture."""
    times = []
    for picture in pictures:
        start = time.thread_time_ns()
        draw(picture)
        times.append((time.thread_time_ns() - start) / 1e6)
    return times


def percentiles(times: Sequence[float]) -> tuple[float, float]:
    """The median and the 99th percentile of ``times``."""
    ordered = sorted(times)
    return statistics.median(ordered), ordered[min(len(ordered) - 1, len(ordered) * 99 // 100)]


def measure(
    label: str,
    draw: Callable[[P], bytes],
    pictures: Sequence[P],
    *,
    width: int,
    tall: Callable[[Sequence[P]], float],
    sized: int = 20,
) -> list[str]:
    """The bench's two lines for one case: ``pictures`` drawn once to warm the caches,
    then timed; the median PNG size of the first ``sized`` and their height (``tall``)."""
    cpu_ms(draw, pictures)  # warm: every sprite and label built
    p50, p99 = percentiles(cpu_ms(draw, pictures))
    size = statistics.median(len(draw(p)) for p in pictures[:sized]) / 1024
    height = tall(pictures[:sized])
    return [
        f"picture {label}: median PNG {size:.1f} KiB, {width}x{height:.0f} px",
        f"picture {label}: p50 {p50:.2f} ms, p99 {p99:.2f} ms",
    ]


def save(folder: Path, pictures: Mapping[str, P], draw: Callable[[P], bytes]) -> list[Path]:
    """Draw ``pictures`` (by file name) into ``folder``; the files written."""
    folder.mkdir(parents=True, exist_ok=True)
    written = []
    for name, picture in pictures.items():
        path = folder / name
        path.write_bytes(draw(picture))
        written.append(path)
    return written


def main(argv: list[str] | None, picture: str, samples: int) -> None:
    """``python -m <module> [--save FOLDER] [--samples N]`` for ``picture`` (a name of
    :data:`pictures.games.DRAWINGS`): its module's ``showcase()`` drawn, or its
    ``bench(samples)`` printed."""
    import importlib

    from pictures.games import DRAWINGS, drawing

    module = DRAWINGS[picture].partition(":")[0]
    found = importlib.import_module(module)
    draw: Callable[[object], bytes] = drawing(picture)
    parser = argparse.ArgumentParser(
        prog=f"python -m {module}", description=(found.__doc__ or "").split("\n")[0]
    )
    parser.add_argument("--save", type=Path, metavar="FOLDER", help="draw the docs' pictures there")
    parser.add_argument("--samples", type=int, default=samples, help="pictures per bench case")
    args = parser.parse_args(argv)
    if args.save is not None:
        fonts.prepare()
        for path in save(args.save, found.showcase(), draw):
            print(path)
        japanese: Mapping[str, str] = getattr(found, "JAPANESE", {})
        if japanese:  # the Japanese examples beside them: drawn in the language spoken
            import catalog

            with catalog.speaking("ja"):
                shown = found.showcase()
                pictures = {name: shown[of] for name, of in japanese.items()}
                for path in save(args.save, pictures, draw):
                    print(path)
        return
    for line in found.bench(args.samples):
        print(line)
