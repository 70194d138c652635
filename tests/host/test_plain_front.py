"""The host runs for a front end that is not Discord: a table of every game played through
:class:`host.service.TableService` with plain words of the test's own, on SQLite, in a
process where discord.py cannot be imported (issue 19). Refusals come back as codes with
their facts, and every word the table is owed is the front end's."""

from __future__ import annotations

import asyncio
import random
import subprocess
import sys
from pathlib import Path

import pytest

from engine import games
from host.refusals import Why
from host.service import Player, TableService
from host.thinking import Thinker
from tests.host.plain import PlainFront, code_of

ANN, BOB = Player(1, "ann"), Player(2, "bob")
GUILD = 7


async def scenario(db: str, game: str) -> None:
    """A table of ``game``: the lobby's refusals, a start, moves in and out of turn, a
    player leaving mid-game, the end; each refusal a code, each word the front end's."""
    from persistence import Store

    store = await Store.open(f"sqlite+aiosqlite:///{db}")
    try:
        service = TableService(store, front=PlainFront(), seed=3, thinker=Thinker("thread"))
        rng = random.Random(5)
        assert (await code_of(service.start(10, ANN)))[0] is Why.NO_TABLE
        assert await code_of(service.new_table(GUILD, 10, ANN, {}, game="chess")) == (
            Why.UNKNOWN_GAME,
            {"name": "chess", "games": tuple(games.names())},
        )
        await service.new_table(GUILD, 10, ANN, {}, game=game)
        assert (await code_of(service.new_table(GUILD, 10, BOB, {})))[0] is Why.TABLE_EXISTS
        await service.join(10, BOB)
        assert (await code_of(service.join(10, BOB)))[0] is Why.ALREADY_SEATED
        assert await code_of(service.start(10, BOB)) == (Why.HOST_ONLY, {"power": "start"})
        started = await service.start(10, ANN)
        live = started.table
        assert started.note.startswith("start: ")
        turns: list[str] = []
        for _ in range(6):
            state = live.state
            assert state is not None
            if state.is_over:
                break
            seat = state.current_player
            assert seat is not None
            mover = (ANN, BOB)[[ANN.name, BOB.name].index(state.players[seat])]
            other = BOB if mover is ANN else ANN
            move = state.legal_moves()[rng.randrange(len(state.legal_moves()))]
            if not live.game.game.off_turn_moves:
                refused = await code_of(service.move(10, other, move=move))
                assert refused == (
                    Why.NOT_YOUR_TURN,
                    {"player": mover.name, "hint": False},
                )
            old = live.version
            stale = await code_of(service.move(10, mover, move=move, version=old - 1))
            assert stale[0] is Why.STALE_PANEL
            outcome = await service.move(10, mover, move=move, version=old)
            turns += outcome.turns
        assert turns and all(t.startswith("[") for t in turns), turns
        left = await service.leave(10, BOB)
        assert left.note.startswith(("seat_to_ai", "no_human_left")), left.note
        if live.info.is_active:
            ended = await service.end(10, ANN, manager=False)
            assert ended.closed and ended.note.startswith("ended_by")
        assert (await code_of(service.move(10, ANN, text="x")))[0] is Why.NO_TABLE
    finally:
        await store.close()


@pytest.mark.parametrize("game", games.names())
def test_the_host_plays_a_table_for_a_front_end_without_discord(game: str, tmp_path: Path) -> None:
    code = (
        "import sys, asyncio; sys.modules['discord'] = None; "
        "from tests.host.test_plain_front import scenario; "
        f"asyncio.run(scenario({str(tmp_path / 'host.db')!r}, {game!r})); "
        "assert not [m for m in sys.modules if m == 'bot' or m.startswith('bot.')]"
    )
    root = Path(__file__).resolve().parents[2]
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=root, timeout=300
    )
    assert done.returncode == 0, done.stderr[-3000:]


async def test_the_scenario_runs_here_too(tmp_path: Path) -> None:
    """The same table in this process (where a failure shows its traceback in full)."""
    await scenario(str(tmp_path / "here.db"), "stack")
    await asyncio.sleep(0)
