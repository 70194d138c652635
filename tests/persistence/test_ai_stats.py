"""An AI level's record on a server (``/stats ai:``): every seat of that level is one
player, as in its rating: a game counts once however many seats it held, is a win when one
of them won, and its figure is its best-placed seat's; a human's seat the AI played on
stays theirs; games of another level, game or server are not its own."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from sqlalchemy import insert

from engine import games
from engine.stack.rules import HouseRules
from engine.stack.state import StackState
from persistence import Store
from persistence.schema import results, seats, tables
from tests.persistence.helpers import GUILD, play_moves, started_table
from tests.persistence.test_many_games import play, start

SHORT = HouseRules(target_score=40)  # a game of a few rounds


async def stack_game(
    store: Store, channel: int, levels: list[str], *, seed: int, guild: int = GUILD
) -> StackState:
    """A Stack game played to its end in ``channel`` by user 1 and AI seats of ``levels``."""
    info, state, rng = await started_table(
        store, channel, humans=1, levels=levels, seed=seed, rules=SHORT, guild=guild
    )
    await play_moves(store, info, state, rng, 100_000)
    assert state.is_over
    return state


async def stored_game(
    store: Store,
    table_id: int,
    levels: list[str | None],
    winners: list[int],
    scores: list[int],
    *,
    higher_wins: bool = True,
) -> None:
    """A finished game's rows, as the store keeps them: seat ``p`` is user ``p + 1`` where
    ``levels[p]`` is None, else an AI of that level; finished ``table_id`` minutes in."""
    when = datetime(2026, 1, 1, tzinfo=UTC) + timedelta(minutes=table_id)
    async with store.engine.begin() as conn:
        await conn.execute(
            insert(tables).values(
                id=table_id, guild_id=GUILD, channel_id=table_id, host_id=1, game="stack",
                status="finished", options={}, rules={"target_score": 40}, created_at=when,
            )
        )  # fmt: skip
        await conn.execute(
            insert(seats),
            [
                {
                    "table_id": table_id,
                    "position": p,
                    "user_id": None if level else p + 1,
                    "name": f"AI {p}" if level else f"user{p + 1}",
                    "ai_level": level,
                }
                for p, level in enumerate(levels)
            ],
        )
        await conn.execute(
            insert(results).values(
                table_id=table_id, guild_id=GUILD, channel_id=table_id, game="stack",
                winners=winners, scores=scores, rounds_played=3, ended_by="target",
                higher_wins=higher_wins, finished_at=when,
            )
        )  # fmt: skip


async def test_a_win_shared_by_seats_of_the_level_or_with_a_human_counts_once(
    store: Store,
) -> None:
    both = [None, "greedy", "greedy"]
    await stored_game(store, 901, both, winners=[1, 2], scores=[10, 41, 44])  # its two seats
    await stored_game(store, 902, both, winners=[0, 1], scores=[42, 42, 7])  # with a human
    await stored_game(store, 903, both, winners=[0], scores=[50, 30, 38])  # lost
    await stored_game(store, 904, [None, "greedy", "random"], [2], [20, 12, 40])  # another's
    record = await store.ai_stats(GUILD, "greedy")
    assert record is not None
    assert (record.games, record.wins) == (4, 2)
    assert [(g.table_id, g.seat, g.total, g.won) for g in record.recent] == [
        (904, 1, 12, False),
        (903, 2, 38, False),  # its best figure of the two
        (902, 1, 42, True),
        (901, 2, 44, True),  # the better of its two winners
    ]
    assert record.points == 12 + 38 + 42 + 44


async def test_fewer_is_better_picks_the_seat_with_the_fewest(store: Store) -> None:
    await stored_game(store, 911, [None, "random", "random"], [0], [0, 5, 3], higher_wins=False)
    record = await store.ai_stats(GUILD, "random")
    assert record is not None and record.recent[0].seat == 2 and record.points == 3


async def test_an_ai_level_has_no_record_before_a_finished_game(store: Store) -> None:
    assert await store.ai_stats(GUILD, "greedy") is None
    info = await store.create_table(GUILD, 1, 1, "user1")
    await store.add_ai(info.id, "greedy")
    assert await store.ai_stats(GUILD, "greedy") is None


async def test_a_game_counts_once_for_a_level_and_is_won_when_one_of_its_seats_won(
    store: Store,
) -> None:
    won = lost = 0
    expected_points = 0
    for seed in range(6):
        state = await stack_game(store, 10 + seed, ["random", "random"], seed=seed)
        mine = [1, 2]  # user1 is seat 0, the AIs 1 and 2 (the table keeps the lobby's order)
        assert state.players[0] == "user1"
        winners = set(state.winner or ())
        if winners & set(mine):
            won += 1
            expected_points += max(state.totals[s] for s in mine if s in winners)
        else:
            lost += 1
            expected_points += max(state.totals[s] for s in mine)
    record = await store.ai_stats(GUILD, "random")
    assert record is not None
    assert record.games == 6 and record.wins == won and won and lost
    assert record.points == expected_points
    assert record.name == "AI random" and record.figures == {}
    assert [g.table_id for g in record.recent] == sorted(
        (g.table_id for g in record.recent), reverse=True
    )
    for game in record.recent:
        assert game.seat in (1, 2) and game.players[0] == "user1"
    assert await store.ai_stats(GUILD, "greedy") is None  # another level's games are not its


async def test_an_ai_levels_record_is_of_this_server_and_game_and_its_last_ten(
    store: Store,
) -> None:
    first = 0
    for seed in range(11):
        await stack_game(store, 30 + seed, ["greedy"], seed=seed)
        if not first:
            first = (await store.history(30))[0].table_id
    await stack_game(store, 50, ["greedy"], seed=99, guild=GUILD + 1)
    record = await store.ai_stats(GUILD, "greedy")
    assert record is not None and record.games == 11 and len(record.recent) == 10
    shown = [g.table_id for g in record.recent]
    assert shown == sorted(shown, reverse=True) and min(shown) > first  # the newest ten
    other = await store.ai_stats(GUILD + 1, "greedy")
    assert other is not None and other.games == 1
    assert await store.ai_stats(GUILD, "greedy", game="stackup") is None


async def test_a_humans_seat_the_ai_played_on_stays_theirs(store: Store) -> None:
    """Left (the first game) or timed out (the second, beside a seat of the level's own):
    the seat the AI took over is never the level's."""
    for game, left in enumerate((True, False)):
        info, state, rng = await started_table(
            store, 60 + game, levels=[] if left else ["expert"], seed=4, rules=SHORT
        )
        await store.set_seat_ai(info.id, 1, "expert", left=left)
        info = await store.table(info.id)
        await play_moves(store, info, state, rng, 100_000)
        assert state.is_over
        record = await store.ai_stats(GUILD, "expert")
        if left:
            assert record is None
        else:
            assert record is not None and record.games == 1
            assert record.recent[0].seat == 2 and record.points == state.totals[2]


async def test_a_game_won_on_fewer_cards_counts_its_seat_with_the_fewest(store: Store) -> None:
    """Stack Up! (fewer cards left is better): with nobody of the level winning, its
    figure is its seat with the fewest cards."""
    game = games.get("stackup")
    seen = 0
    for seed in range(40):
        table_id, version, state, rng = await start(
            store, game, 100 + seed, seed, {"turn_limit": 60}, users=("ann",),
            levels=("random", "random"),
        )  # fmt: skip
        await play(store, game, table_id, version, state, rng)
        outcome = game.outcome(state)
        assert outcome is not None
        mine = [seat for seat, name in enumerate(state.players) if name != "ann"]
        if set(outcome.winners) & set(mine):
            continue  # wanted: a game the level lost
        record = await store.ai_stats(GUILD, "random", game="stackup")
        assert record is not None
        newest = record.recent[0]
        assert newest.table_id == table_id and not newest.won
        assert newest.total == min(outcome.scores[s] for s in mine)
        seen += 1
        break
    assert seen == 1
