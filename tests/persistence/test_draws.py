"""A game may end with no winner (Color Stack's draws by threefold repetition and by the
turn limit) or by a resignation out of turn: storage keeps such results as any other —
the result with no winner, every credited player's game counted and nobody's win, the
history, the leaderboard, the score sheet and the player's recent games — on SQLite and
PostgreSQL. Played with Duel, a tiny board game of this package."""

from __future__ import annotations

from typing import Any

import pytest
from sqlalchemy import select

from persistence import Store
from persistence.schema import results
from tests.persistence import duel_game
from tests.persistence.duel_game import PASS, RESIGN, DuelGame
from tests.persistence.helpers import GUILD

CHANNEL = 700


@pytest.fixture
def duel(monkeypatch: pytest.MonkeyPatch) -> DuelGame:
    return duel_game.register(monkeypatch)


async def started(store: Store, game: DuelGame, **options: Any) -> tuple[int, Any]:
    """A Duel table of users 1 and 2 in :data:`CHANNEL`, started; its id and state."""
    info = await store.create_table(GUILD, CHANNEL, 1, "ann", options, game=game.name)
    info = await store.join_table(info.id, 2, "bob")
    state = game.new_state(("ann", "bob"), game.settings.model_validate(options))
    info = await store.start_table(info.id, (0, 1), state, ())
    return info.id, state


async def play(store: Store, table_id: int, state: Any, moves: list[tuple[int, Any]]) -> None:
    """Each ``(seat, move)`` recorded as a step of its own."""
    version = (await store.table(table_id)).version
    for seat, move in moves:
        state.apply(move, by=seat)
        version = (await store.record_move(table_id, version, [move], state)).version


async def test_a_draw_by_repetition_is_stored_with_no_winner(store: Store, duel: DuelGame) -> None:
    table_id, state = await started(store, duel)
    await play(store, table_id, state, [(0, PASS), (1, PASS), (0, PASS), (1, PASS)])
    assert state.outcome().winners == () and state.outcome().ended_by == "repetition"
    async with store.engine.connect() as conn:
        row = (await conn.execute(select(results).where(results.c.table_id == table_id))).one()
    assert list(row.winners) == [] and row.ended_by == "repetition"
    assert (await store.table(table_id)).status == "finished"


async def test_a_draw_counts_a_game_and_no_win_for_each_player(
    store: Store, duel: DuelGame
) -> None:
    table_id, state = await started(store, duel, turn_limit=3)
    await play(store, table_id, state, [(0, ("add", 1)), (1, ("add", 1)), (0, ("add", 1))])
    assert state.outcome().ended_by == "turn_limit" and not state.outcome().winners
    for user in (1, 2):
        stats = await store.stats(GUILD, user, game=duel.name)
        assert stats is not None
        assert (stats.games, stats.wins, stats.points) == (1, 0, 0)
        assert [g.won for g in stats.recent] == [False]
    board = await store.leaderboard(GUILD, "wins", game=duel.name)
    assert {(r.stats.name, r.stats.wins, r.stats.games) for r in board} == {
        ("ann", 0, 1),
        ("bob", 0, 1),
    }


async def test_a_drawn_game_is_in_the_history_and_its_sheet_with_no_winner(
    store: Store, duel: DuelGame
) -> None:
    table_id, state = await started(store, duel)
    await play(store, table_id, state, [(0, PASS), (1, PASS), (0, PASS), (1, PASS)])
    (summary,) = await store.history(CHANNEL, game=duel.name)
    assert summary.winners == () and summary.ended_by == "repetition"
    assert summary.players == ("ann", "bob") and summary.totals == (0, 0)
    sheet = await store.score_sheet(table_id)
    assert sheet.finished and sheet.winners == ()  # finished, and nobody won


async def test_a_resignation_out_of_turn_gives_the_other_player_the_win(
    store: Store, duel: DuelGame
) -> None:
    table_id, state = await started(store, duel)
    await play(store, table_id, state, [(1, RESIGN)])  # ann is to move; bob resigns
    (summary,) = await store.history(CHANNEL, game=duel.name)
    assert summary.winners == ("ann",) and summary.ended_by == "resignation"
    ann = await store.stats(GUILD, 1, game=duel.name)
    bob = await store.stats(GUILD, 2, game=duel.name)
    assert ann is not None and bob is not None
    assert (ann.games, ann.wins, bob.games, bob.wins) == (1, 1, 1, 0)
