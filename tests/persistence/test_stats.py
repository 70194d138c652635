"""A player's stats: games, wins, rounds and average round, best round, captures, dice
placed per face (the favourite face) and their recent games, credited as they play."""

from __future__ import annotations

import asyncio

from engine.stack.rules import HouseRules
from engine.stack.state import StackState
from persistence import Store
from persistence.records import PlayerStats
from tests.persistence.conftest import Backend
from tests.persistence.helpers import (
    GUILD,
    placed_counts,
    play_moves,
    started_table,
    up_to_the_last_move,
)

SHORT = HouseRules(target_score=40)  # a game of a few rounds


async def finished_game(
    store: Store, channel: int, *, seed: int, guild: int = GUILD, humans: int = 2
) -> StackState:
    """A game played to its end in ``channel`` by users 1..humans and one AI."""
    info, state, rng = await started_table(
        store, channel, humans=humans, seed=seed, rules=SHORT, guild=guild
    )
    await play_moves(store, info, state, rng, 100_000)
    assert state.is_over
    return state


def seat_of(state: StackState, name: str) -> int:
    return state.players.index(name)


async def test_no_stats_before_a_finished_game(store: Store) -> None:
    assert await store.stats(GUILD, 1) is None
    await started_table(store, 1, rules=SHORT)
    assert await store.stats(GUILD, 1) is None


async def test_a_game_credits_rounds_faces_captures_and_best_round(store: Store) -> None:
    state = await finished_game(store, 10, seed=3)
    for user in (1, 2):
        stats = await store.stats(GUILD, user)
        assert stats is not None
        seat = seat_of(state, f"user{user}")
        assert stats.games == 1
        assert stats.wins == (1 if seat in (state.winner or ()) else 0)
        assert stats.points == state.totals[seat]
        assert stats.rounds == len(state.round_scores)
        assert stats.average_round == state.totals[seat] / len(state.round_scores)
        assert stats.best_round == max(r[seat] for r in state.round_scores)
        assert stats.captures == state.capture_counts[seat]
        assert list(stats.placed) == placed_counts(state)[seat]
        assert sum(stats.placed) > 0 and stats.favourite_face is not None
        assert stats.placed[stats.favourite_face - 1] == max(stats.placed)


async def test_games_add_up_and_recent_games_are_the_newest_first(store: Store) -> None:
    states = [await finished_game(store, 20 + i, seed=10 + i) for i in range(3)]
    stats = await store.stats(GUILD, 1)
    assert stats is not None
    seats = [seat_of(s, "user1") for s in states]
    assert stats.games == 3
    assert stats.rounds == sum(len(s.round_scores) for s in states)
    assert stats.points == sum(s.totals[p] for s, p in zip(states, seats, strict=True))
    assert list(stats.placed) == [
        sum(placed_counts(s)[p][f] for s, p in zip(states, seats, strict=True)) for f in range(6)
    ]
    assert stats.wins == sum(p in (s.winner or ()) for s, p in zip(states, seats, strict=True))
    recent = stats.recent
    assert len(recent) == 3
    assert [g.table_id for g in recent] == sorted((g.table_id for g in recent), reverse=True)
    for game, state, seat in zip(reversed(recent), states, seats, strict=True):
        assert game.seat == seat
        assert game.total == state.totals[seat]
        assert game.won == (seat in (state.winner or ()))
        assert game.target == 40
        assert game.rounds == len(state.round_scores)
        assert game.players == state.players
    assert recent[0].finished_at >= recent[-1].finished_at


async def test_recent_games_are_the_last_ten_of_this_guild(store: Store) -> None:
    for i in range(11):
        await finished_game(store, 40 + i, seed=i)
    await finished_game(store, 60, seed=99, guild=GUILD + 1)
    stats = await store.stats(GUILD, 1)
    assert stats is not None and stats.games == 11
    assert len(stats.recent) == 10
    other = await store.stats(GUILD + 1, 1)
    assert other is not None and other.games == 1 and len(other.recent) == 1
    assert {g.table_id for g in stats.recent}.isdisjoint({other.recent[0].table_id})


async def test_a_game_whose_seat_its_player_left_is_not_theirs(store: Store) -> None:
    info, state, rng = await started_table(store, 70, humans=3, seed=5, rules=SHORT)
    leaver = info.seat_of(3)
    assert leaver is not None
    await store.set_seat_ai(info.id, leaver.position, left=True)
    info = await store.table(info.id)
    await play_moves(store, info, state, rng, 100_000)
    assert state.is_over
    assert await store.stats(GUILD, 3) is None
    stayed = await store.stats(GUILD, 2)
    assert stayed is not None and len(stayed.recent) == 1


async def test_a_game_ended_after_a_restart_counts_every_round(backend: Backend) -> None:
    store = await backend.open()
    info, state, rng = await started_table(store, 80, seed=8, rules=HouseRules(target_score=150))
    version = info.version
    while len(state.round_scores) < 2:  # two rounds played, the game still on
        info = await store.table(info.id)
        version = await play_moves(store, info, state, rng, 1)
    assert not state.is_over
    await store.close()

    async with backend.opened() as store:
        loaded = await store.load_table(info.id)
        assert loaded.state is not None and not loaded.state.has_full_history
        live = loaded.state
        resumed = await store.table(info.id)
        assert resumed.version == version
        await play_moves(store, resumed, live, rng, 100_000)
        assert live.is_over
        whole = await store.replay_log(info.id)
        stats = await store.stats(GUILD, 1)
        assert stats is not None
        assert list(stats.placed) == placed_counts(whole)[seat_of(whole, "user1")]
        assert stats.rounds == len(whole.round_scores)


async def test_leaderboard_rows_carry_rounds_and_faces(store: Store) -> None:
    await finished_game(store, 90, seed=4)
    rows = await store.leaderboard(GUILD)
    by_user = {r.stats.user_id: r.stats for r in rows}
    full = await store.stats(GUILD, 1)
    assert full is not None
    assert by_user[1].rounds == full.rounds and by_user[1].placed == full.placed
    assert by_user[1].recent == ()


def test_the_favourite_face_is_the_most_placed_and_a_tie_goes_to_the_higher_worth() -> None:
    def stats(placed: tuple[int, ...]) -> PlayerStats:
        return PlayerStats(1, "a", 1, 0, 10, 5, 0, rounds=4, placed=placed)

    assert stats((0, 0, 0, 0, 0, 0)).favourite_face is None
    assert stats((1, 9, 2, 0, 0, 0)).favourite_face == 2
    assert stats((3, 0, 0, 0, 0, 3)).favourite_face == 1  # a 1 is worth 10
    assert stats((0, 4, 0, 0, 4, 0)).favourite_face == 5
    assert stats((0,) * 6).average_round == 2.5
    assert PlayerStats(1, "a", 0, 0, 0, 0, 0).average_round == 0.0


async def test_two_games_ending_in_one_commit_both_count(store: Store) -> None:
    """The stats of both games add up when their last moves share a commit (one upsert
    statement after the other, each merging its figures into the row)."""
    ending = []
    for channel, seed in ((95, 1), (96, 2)):
        info, state, rng = await started_table(store, channel, seed=seed, rules=SHORT)
        version, step, probe = await up_to_the_last_move(store, info, state, rng)
        ending.append((info.id, version, step, probe))
    before = store.writer.batches
    await asyncio.gather(*(store.record_move(*end) for end in ending))
    assert store.writer.batches == before + 1  # one commit for both
    states = [end[3] for end in ending]
    for user in (1, 2):
        stats = await store.stats(GUILD, user)
        assert stats is not None and stats.games == 2
        seats = [seat_of(s, f"user{user}") for s in states]
        assert stats.points == sum(s.totals[p] for s, p in zip(states, seats, strict=True))
        assert stats.rounds == sum(len(s.round_scores) for s in states)
        assert stats.captures == sum(
            s.capture_counts[p] for s, p in zip(states, seats, strict=True)
        )
        assert stats.best_round == max(
            r[p] for s, p in zip(states, seats, strict=True) for r in s.round_scores
        )
        assert list(stats.placed) == [
            sum(placed_counts(s)[p][f] for s, p in zip(states, seats, strict=True))
            for f in range(6)
        ]
