"""The table service plays the table loop production runs (:mod:`engine.flow`): a game's
forced moves are the game's own (:meth:`engine.game.Game.automatic`), played for the seat
to act inside the step of the move that led to them, worded and stored with it.

Played through :class:`~host.service.TableService` (no Discord) with Duel, whose forced
moves here are the game object's alone: its state has no ``automatic`` method to find.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from bot import games as hosted
from bot.front import DISCORD
from bot.games.base import DiscordGame
from engine import games
from engine.game import Game
from host.service import Player, TableService
from host.thinking import Thinker
from persistence import Store
from tests.persistence import duel_game

GUILD = 41
ANN, BOB = Player(1, "ann"), Player(2, "bob")


class ForcedDuel(duel_game.DuelGame):
    """Duel where bob's turns are forced while the counter is odd: he adds 1."""

    name = "forcedduel"
    title = "Forced Duel"
    forced_moves = True

    def automatic(self, state: duel_game.DuelState) -> Any:
        if state.current == 1 and state.count % 2 == 1:
            return ("add", 1)
        return None


GAME = ForcedDuel()


@pytest.fixture
async def service(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[TableService]:
    known = games.get

    def get(name: str) -> Game[Any]:
        return GAME if name == GAME.name else known(name)

    class OnDiscord(DiscordGame):
        game = GAME

    monkeypatch.setattr(games, "get", get)
    monkeypatch.setitem(hosted._MODULES, GAME.name, __name__)
    monkeypatch.setitem(hosted._loaded, GAME.name, OnDiscord())
    store = await Store.open(f"sqlite+aiosqlite:///{tmp_path / 'flow.db'}")
    try:
        yield TableService(store, front=DISCORD, seed=5, thinker=Thinker("thread"))
    finally:
        await store.close()


async def test_the_games_forced_move_is_played_in_the_step_worded_and_stored(
    service: TableService,
) -> None:
    await service.new_table(GUILD, 1, ANN, {}, game=GAME.name)
    await service.join(1, BOB)
    live = (await service.start(1, ANN)).table
    outcome = await service.move(1, ANN, text="add 1")
    # bob's turn was forced (the counter odd): the table played it in ann's step
    assert outcome.turns == ["ann played add 1", "bob played add 1"]
    assert live.state is not None and live.state.current_player == 0
    assert live.state.count == 2 and live.version == 2
    # stored as played: the log read back replays to the same state
    played = (await service.store.game_logs([live.id]))[live.id].moves
    assert played == [("add", 1), ("add", 1)]
    # an even counter: bob decides for himself
    outcome = await service.move(1, ANN, text="add 2")
    assert outcome.turns == ["ann played add 2"] and live.state.current_player == 1
