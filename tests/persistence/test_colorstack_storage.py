"""A Color Stack table survives a restart mid-game and ends as the game says: stored under
its game with its board, reloaded exactly (the same position, the same legal actions, the
same repetition counts), played on to its end, with a resignation or a draw recorded as
such."""

from __future__ import annotations

import random
from typing import Any

from engine import flow, games
from engine.colorstack.moves import Resign
from tests.persistence.conftest import Backend
from tests.persistence.helpers import GUILD

CHANNEL = 700


def settle(state: Any, rng: random.Random) -> list[Any]:
    return [played.move for played in flow.settle(games.get("colorstack"), state, rng)]


async def test_a_color_stack_game_resumes_after_a_restart_and_ends_by_resignation(
    backend: Backend,
) -> None:
    game = games.get("colorstack")
    store = await backend.open()
    info = await store.create_table(GUILD, CHANNEL, 1, "ann", {"board": "heavy"}, game=game.name)
    info = await store.join_table(info.id, 2, "bob")
    settings = game.settings.model_validate({"board": "heavy"})
    names = game.seat_order([s.name for s in info.seats], settings)
    state = game.new_state(names, settings)
    rng = random.Random(11)
    opening = settle(state, rng)
    order = [[s.name for s in info.seats].index(n) for n in names]
    info = await store.start_table(info.id, order, state, opening, rules=settings)
    version = info.version
    choose = game.make_ai("random").choose
    for _ in range(40):  # the server is killed mid-game, after 40 stored turns
        move = choose(state, rng)
        state.apply(move)
        moves = [move, *settle(state, rng)]  # the board's set-up follows the colours chosen
        version = (await store.record_move(info.id, version, moves, state)).version
    await store.close()

    async with backend.opened() as store:
        (loaded,) = [t for t in await store.load_active_tables() if t.info.id == info.id]
        assert loaded.info.game == "colorstack" and loaded.info.version == version
        again = loaded.state
        assert again.to_dict() == state.to_dict()
        assert again.rows == 9 and again.position_key() == state.position_key()
        assert again.legal_moves() == state.legal_moves()
        assert again.repetitions() == state.repetitions()
        # the player NOT to move resigns: the other wins
        quitter = 1 - again.current_player
        again.apply(Resign(quitter), by=quitter)
        await store.record_move(info.id, version, [Resign(quitter)], again)
        outcome = again.outcome()
        assert outcome is not None and outcome.ended_by == "resignation"
        assert outcome.winners == (1 - quitter,)
        (summary,) = await store.history(CHANNEL, game=game.name)
        assert summary.winners == (names[1 - quitter],) and summary.ended_by == "resignation"
        record = await store.export_record(info.id)
        assert game.check_record(record)["ended_by"] == "resignation"
