"""AI seats that search for a while (a game's :attr:`~engine.game.Game.thinking_levels`:
every game's ``expert``, about a second a move) choose off the event loop.

A search of a second on the loop's thread would freeze every other table for that
second (and Discord wants an answer to an interaction within three). So the host hands
the position to a worker process: a :class:`ThinkJob` — the game's name, the AI's level,
``state.to_dict()`` and a seed drawn from the table's random source, all plain data —
goes to :func:`think` in a :class:`concurrent.futures.ProcessPoolExecutor` (created on
the first such move, with the ``spawn`` start method: the bot's process has threads, which
``fork`` would copy mid-lock), and the move comes back as ``game.encode_move`` wrote it.
The table's step awaits it under the table's lock, so nothing else moves at that table
meanwhile, while the loop serves every other table.

A thinker given node budgets (``Thinker(nodes=SEEDED_NODES)``: ``stackbot play
--seed``) has each thinking AI of a game listed search exactly that many nodes a move,
whatever the clock says, so that the same position and seed give the same move on any
machine, however loaded (:func:`engine.budget.limit_search`).

The wait is bounded (the AI's budget plus a margin for starting a worker and its
imports; a node-budget search, which no clock stops, :data:`NODES_WAIT`: so generous
that only a search that never ends meets it, never a slow machine). When the worker
fails, answers a move that is not legal, or takes too long, the seat plays the game's
hint instead (the greedy AI, on the loop: a few milliseconds) and the reason is logged;
a worker that overran is replaced, so that a search that never ends cannot hold a worker
forever. ``Thinker("thread")`` runs the same
job on the loop's thread pool (the tests use it: a game registered only in the test's
process is known there, and a thread costs no start-up).
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
import random
import threading
import time
from collections.abc import Mapping
from concurrent.futures import Executor, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from typing import Any, Literal

from engine import games
from engine.budget import limit_search
from engine.game import Game, GameState

log = logging.getLogger(__name__)
Mode = Literal["process", "thread"]
BUDGET = 1.0  # seconds a thinking AI searches per move (every game's expert: 1 s)
MARGIN = 4.0  # more seconds allowed: a worker's start and imports, a busy machine
MAX_WORKERS = 4
# Node budgets a move of each game's thinking AIs in a seeded game (``stackbot play
# --seed``): about what the 1 s clock buys on the project's 2-core machine. Measured by
# giving the expert (``make_ai("expert")``, pure Python) 1 s at 20 positions picked from
# two-player greedy games (seed 1) and counting its nodes (its ``Budget``'s, Color Stack's
# ``SearchResult.nodes``), load average 3.4: median Stack 10,168 (quartiles 8,560 and
# 14,503), Stack Up! 26,274 (15,605 and 32,436), Color Stack 18,767 (10,469 and 31,141).
SEEDED_NODES: dict[str, int] = {"stack": 10_000, "stackup": 25_000, "colorstack": 20_000}
# seconds a node-budget search may take before the hint plays instead: ~1 s here, so only a
# machine hundreds of times slower, or a search that never ends, meets it
NODES_WAIT = 600.0


@dataclass(frozen=True, slots=True)
class ThinkJob:
    """A position to think about, as plain data (it crosses to another process)."""

    game: str  # the engine's registry name
    level: str  # one of the game's thinking levels
    state: dict[str, Any]  # ``state.to_dict()``
    seed: int  # the AI's random source, drawn from the table's
    nodes: int | None = None  # searched a move (reproducible); ``None``: the clock's budget


def think(job: ThinkJob) -> Any:
    """The move the AI of ``job.level`` chooses, encoded by ``game.encode_move`` (runs in
    the worker process: the game comes from the registry there)."""
    game = games.get(job.game)
    state = game.state_from_dict(job.state)
    ai = limit_search(game.make_ai(job.level), None, job.nodes)
    move = ai.choose(state, random.Random(job.seed))
    return game.encode_move(move)


PARENT_CHECK = 1.0  # seconds between a worker's looks at whether the bot still runs


def exit_with_parent(parent: int, every: float = PARENT_CHECK) -> None:
    """In a worker: end the worker once process ``parent`` (the bot) is gone. A worker
    waits on a queue whose both ends it holds, so a bot killed outright (SIGKILL, the
    OOM killer) would otherwise leave it, and its resource tracker, running for good."""

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(every)
        os._exit(0)

    threading.Thread(target=watch, name="exit-with-parent", daemon=True).start()


class Thinker:
    """Runs thinking AIs' choices off the event loop, each bounded in time. ``nodes``: the
    node budget a move of each game's thinking AIs, by the game's name (a game not in it
    searches on the clock)."""

    def __init__(
        self,
        mode: Mode = "process",
        *,
        budget: float = BUDGET,
        margin: float = MARGIN,
        workers: int | None = None,
        nodes: Mapping[str, int] | None = None,
    ) -> None:
        self.mode: Mode = mode
        self.limit = budget + margin  # seconds before the hint plays instead
        self.nodes: Mapping[str, int] = nodes or {}
        self.workers = workers or max(1, min(MAX_WORKERS, (os.cpu_count() or 2) - 1))
        self._pool: ProcessPoolExecutor | None = None

    def _executor(self) -> Executor | None:
        """The worker pool, created on first use (``None``: the loop's thread pool)."""
        if self.mode == "thread":
            return None
        if self._pool is None:
            self._pool = ProcessPoolExecutor(
                max_workers=self.workers,
                mp_context=multiprocessing.get_context("spawn"),
                initializer=exit_with_parent,
                initargs=(os.getpid(),),
            )
        return self._pool

    async def choose(
        self, game: Game[Any], state: GameState[Any], level: str, seed: int
    ) -> tuple[Any, str | None]:
        """The move of the AI of ``level`` for the seat to act in ``state`` (which is not
        changed), and ``None``; or, when the worker failed or overran, the game's hint
        and why it played instead."""
        nodes = self.nodes.get(game.name)
        job = ThinkJob(game.name, level, state.to_dict(), seed, nodes)
        # a node budget is not cut short by the clock's bound: only by one no machine meets
        limit = self.limit if nodes is None else max(self.limit, NODES_WAIT)
        loop = asyncio.get_running_loop()
        why: str
        pool = self._executor()
        try:
            work = loop.run_in_executor(pool, think, job)
            encoded = await asyncio.wait_for(work, timeout=limit)
            move = game.decode_move(encoded)
            if state.is_legal(move):
                return move, None
            why = f"its move {encoded!r} is not legal"
        except TimeoutError:
            why = f"it took longer than {limit:g} s"
            self._replace_pool(pool)
        except asyncio.CancelledError:
            raise
        except Exception as err:  # a broken worker, an error in the search
            why = f"it failed ({type(err).__name__}: {err})"
            if isinstance(err, BrokenProcessPool):
                self._replace_pool(pool)
        log.warning("%s AI (%s) played the hint instead: %s", game.title, level, why)
        return game.hint(state)[0], why

    def _replace_pool(self, pool: Executor | None) -> None:
        """Stop ``pool``'s workers (one may be stuck in a search), if it is still the
        current pool (not already replaced); the next job starts a new one."""
        if pool is None or pool is not self._pool:
            return
        self._pool = None
        assert pool is not None
        # a running job cannot be cancelled: its process is ended instead (the pool's own
        # list of them); the jobs of other tables in it then fail as a broken pool, and
        # those seats play the hint (cancelling them would cancel those tables' steps)
        processes = list((getattr(pool, "_processes", None) or {}).values())
        pool.shutdown(wait=False)
        for process in processes:
            process.terminate()

    async def close(self) -> None:
        """Stop the workers (the bot is stopping), once a search under way has ended."""
        pool, self._pool = self._pool, None
        if pool is not None:
            await asyncio.get_running_loop().run_in_executor(
                None, lambda: pool.shutdown(wait=True, cancel_futures=True)
            )
