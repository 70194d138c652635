"""A typed move that reads as several moves: the host answers with the legal ones among the
engine's candidates, the engine's error and the committed state and version they were read
against (:class:`host.live.Chooser`), and words none of it — the front end asks the
question in the mover's language, while the host speaks the table's."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from engine.errors import AmbiguousMoveError
from host.service import Player, TableService
from host.thinking import Thinker
from tests.engine.stackup.situations import table
from tests.host.plain import PlainFront, PlainGame

ANN, BOB = Player(1, "ann"), Player(2, "bob")


class Wordless(PlainGame):
    """A game whose chooser words may not be asked for by the host."""

    def chooser_text(self, state: Any, error: AmbiguousMoveError) -> str:
        raise AssertionError("the host worded a chooser")

    def move_label(self, state: Any, move: Any) -> str:
        raise AssertionError("the host worded a move")


class WordlessFront(PlainFront):
    def game(self, name: str) -> PlainGame:
        return Wordless(super().game(name).game)


async def test_an_ambiguous_typed_move_returns_its_legal_moves_unworded(tmp_path: Path) -> None:
    from persistence import Store

    store = await Store.open(f"sqlite+aiosqlite:///{tmp_path / 'host.db'}")
    try:
        service = TableService(store, front=WordlessFront(), seed=3, thinker=Thinker("thread"))
        await service.new_table(7, 10, ANN, {}, game="stackup")
        await service.join(10, BOB)
        live = (await service.start(10, ANN)).table
        names = tuple(live.state.players)
        # a Snatch may take 1 to 3 cards from the other player, who holds 4
        state = table("R6 Snatch", "R1 R2 R3 B4", players=names)
        async with live.lock:
            live.state = state
        mover = ANN if names[0] == ANN.name else BOB
        version = live.version
        outcome = await service.move(10, mover, text="snatch")
        chooser = outcome.chooser
        assert chooser is not None and not outcome.turns
        assert isinstance(chooser.error, AmbiguousMoveError)
        legal = [m for m in chooser.error.candidates if state.is_legal(m)]
        assert list(chooser.moves) == legal and len(legal) == 3
        assert [m.count for m in chooser.moves] == [1, 2, 3]
        assert chooser.state is state and chooser.version == version == live.version
        assert live.state is state  # nothing played
    finally:
        await store.close()
