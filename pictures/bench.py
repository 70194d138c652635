"""``python -m pictures.bench``: what every picture costs, light and heavy, and what a table
picture waits for in the painter.

1. CPU ms per table picture (p50, p99), parts cached as in a running bot, for each game's
   light and heavy case: Stack 2 × 14 dice and 8 × 30, Stack Up! 2 and 6 seats, Color
   Stack's light (9 × 6) and heavy (9 × 9) board; 32-character names, random positions.
2. CPU ms per chart (p50, p99) as the worker draws it (garbage collector paused): a game
   chart of 8 players over 40 rounds and a player's stats chart.
3. Through the painter in its worker processes: wall ms from asking for a Color Stack heavy
   picture to its PNG, p50 and p99, alone and while charts are drawn back to back (a
   table picture does not wait behind them: charts have their own worker), and asked for
   again (unchanged: from the cache).

Its last line: ``colorstack heavy: p50 X ms, p99 Y ms``. A tool: nothing at run time
imports it. ``python -m bot.bench --pictures`` runs it too.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import time
from collections.abc import Callable, Sequence
from typing import Any

from pictures import colorstack, fonts, stack, stackup
from pictures.samples import cpu_ms, percentiles


def _cases(samples: int) -> list[tuple[str, Callable[[Any], bytes], Sequence[Any]]]:
    return [
        ("stack light (2x14)", stack.draw_field, stack.sample_pictures(2, 14, samples)),
        ("stack heavy (8x30)", stack.draw_field, stack.sample_pictures(8, 30, samples)),
        ("stackup light (2 seats)", stackup.draw_table, stackup.sample_pictures(2, samples)),
        ("stackup heavy (6 seats)", stackup.draw_table, stackup.sample_pictures(6, samples)),
        (
            "colorstack light",
            colorstack.draw_board,
            colorstack.sample_pictures("light", samples, seed=7),
        ),
        (
            "colorstack heavy",
            colorstack.draw_board,
            colorstack.sample_pictures("heavy", samples, seed=9),
        ),
    ]


def table_pictures(samples: int) -> list[str]:
    """Part 1: a line per game and case."""
    fonts.prepare()
    lines = []
    for label, draw, pictures in _cases(samples):
        cpu_ms(draw, pictures)  # every part built
        p50, p99 = percentiles(cpu_ms(draw, pictures))
        lines.append(f"{label}: p50 {p50:.2f} ms, p99 {p99:.2f} ms")
    return lines


def charts(samples: int) -> list[str]:
    """Part 2: the charts as the worker draws them."""
    from pictures.charts import draw_chart, sample_game, sample_stats

    lines = []
    for label, made in (
        ("chart 8x40", [sample_game(8, 40, seed=i) for i in range(8)]),
        ("stats chart", [sample_stats(10, seed=i) for i in range(8)]),
    ):
        for chart in made:  # imports, fonts, caches
            draw_chart(chart)
        gc.collect()
        gc.freeze()
        times = []
        for i in range(samples):
            gc.disable()
            times += cpu_ms(draw_chart, [made[i % len(made)]])
            gc.enable()
            gc.collect()
        gc.unfreeze()
        p50, p99 = percentiles(times)
        lines.append(f"{label}: p50 {p50:.1f} ms, p99 {p99:.1f} ms")
    return lines


async def _through_painter(samples: int) -> list[str]:
    from pictures.charts import sample_game
    from pictures.painter import Painter

    pictures = colorstack.sample_pictures("heavy", samples, seed=11)
    painter = Painter("process")
    painter.start([pictures[0]])
    lines = []
    try:
        await painter.wait_warm(600)
        await painter.draw(sample_game(8, 40))  # the charts' worker is up

        async def timed() -> list[float]:
            times = []
            for picture in pictures:
                start = time.perf_counter()
                await painter.draw(picture)
                times.append((time.perf_counter() - start) * 1000)
            return times

        alone = percentiles(await timed())
        lines.append(
            f"painter, colorstack heavy alone: p50 {alone[0]:.1f} ms, p99 {alone[1]:.1f} ms"
        )
        again = percentiles(await timed())
        lines.append(
            f"painter, the same pictures again (cached): p50 {again[0]:.3f} ms, "
            f"p99 {again[1]:.3f} ms"
        )
        pictures = colorstack.sample_pictures("heavy", samples, seed=12)
        busy = True
        drawn = 0

        async def charting() -> None:
            nonlocal drawn
            seed = 0
            while busy:
                seed += 1
                await painter.draw(sample_game(8, 40, seed=seed))
                drawn += 1

        background = asyncio.ensure_future(charting())
        await asyncio.sleep(0.2)
        behind = percentiles(await timed())
        busy = False
        await background
        lines.append(
            f"painter, colorstack heavy while {drawn} charts were drawn back to back: "
            f"p50 {behind[0]:.1f} ms, p99 {behind[1]:.1f} ms"
        )
    finally:
        await painter.close()
    return lines


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m pictures.bench", description=__doc__)
    parser.add_argument("--samples", type=int, default=100, help="pictures per case")
    args = parser.parse_args(argv)
    for line in charts(min(args.samples, 50)):
        print(line, flush=True)
    for line in asyncio.run(_through_painter(args.samples)):
        print(line, flush=True)
    for line in table_pictures(args.samples):  # the Color Stack heavy line last
        print(line, flush=True)


if __name__ == "__main__":
    main()
