"""The table loop: what a table plays without a human, for every host.

Every host — the bot's table service, the terminal, self-play, the benches and the
conformance suite — advances a game through this module, and nothing else plays chance
outcomes, forced moves or AI turns. From the state as it stands, the loop plays

1. the pending **chance outcome**, drawn from the injected RNG by ``state.sample_chance``
   and applied like any move (as OpenSpiel's chance nodes: an explicit outcome, so the
   move log replays exactly);
2. the game's **forced move** for the seat to act (:meth:`~engine.game.Game.automatic`,
   asked only of a game with ``forced_moves``);
3. an **AI seat's** choice, for a seat the host gives a chooser (``ai(seat)``),

until a seat without a chooser (a human) must decide, or the game is over. Like
boardgame.io's reducer, it is the one place that advances a game: each move goes through
``state.apply`` (with the seat that plays it) and comes back as a :class:`Played` — the
seat, the move, how it came to be played and the events it returned — in order, so that
a host can word it and store it. ``on_step`` sees each one right after it was applied, the
state as it then is (a round's score before the next round's chance outcomes change the
table).

:func:`settle` plays chance and forced moves only; :func:`advance` AI seats too;
:func:`play` a player's move and what follows it; :func:`play_out` a whole game, every
seat choosing (the benches' inner loop).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from enum import Enum
from typing import Any

from engine.errors import FlowError as FlowError  # defined there: compiled, this module
from engine.game import Decision, Event, Game, GameState

# moves one call may play without a human's decision (a game that never waits is a bug)
STEP_LIMIT = 100_000
_UNBOUNDED = -1  # a bound never reached: a count down from it never hits 0, nor one up


class By(Enum):
    """How a move came to be played."""

    CHANCE = "chance"  # a chance outcome drawn from the RNG
    FORCED = "forced"  # the game's forced move for the seat to act (Game.automatic)
    AI = "ai"  # an AI seat's choice
    PLAYER = "player"  # a player's move, given to :func:`play`


@dataclass(frozen=True, slots=True)
class Played:
    """One move the loop applied: ``seat`` played it (``None`` for a chance outcome),
    ``by`` says how it came to be played, ``events`` is what ``state.apply`` returned."""

    seat: int | None
    move: Any
    events: Sequence[Event]
    by: By


Chooser = Callable[[GameState[Any], random.Random], Any]
# the chooser of an AI seat, or None for a seat a human plays
Seats = Callable[[int], Chooser | None]
OnStep = Callable[[Played], None]


def settle(
    game: Game[Any],
    state: GameState[Any],
    rng: random.Random,
    *,
    on_step: OnStep | None = None,
    limit: int = STEP_LIMIT,
) -> list[Played]:
    """Play chance outcomes and forced moves until a player must decide or the game ends;
    returns what was played."""
    return advance(game, state, rng, None, on_step=on_step, limit=limit)


def advance(
    game: Game[Any],
    state: GameState[Any],
    rng: random.Random,
    ai: Seats | None = None,
    *,
    on_step: OnStep | None = None,
    limit: int = STEP_LIMIT,
) -> list[Played]:
    """Play chance outcomes, forced moves and the turns of AI seats (those ``ai(seat)``
    gives a chooser) until a human must decide or the game ends; returns what was played.
    Raises :class:`FlowError` after ``limit`` moves (the state keeps them)."""
    played: list[Played] = []
    _run(game, state, rng, ai, _collector(played, on_step), limit)
    return played


def play(
    game: Game[Any],
    state: GameState[Any],
    move: Any,
    rng: random.Random,
    *,
    by: int | None,
    ai: Seats | None = None,
    on_step: OnStep | None = None,
    limit: int = STEP_LIMIT,
) -> list[Played]:
    """Apply seat ``by``'s ``move`` (raising :class:`~engine.errors.IllegalMoveError`, and
    changing nothing, when it cannot be played), then :func:`advance`; returns what was
    played, the move first."""
    played: list[Played] = []
    emit = _collector(played, on_step)
    emit(Played(by, move, state.apply(move, by=by), By.PLAYER))
    _run(game, state, rng, ai, emit, limit)
    return played


def play_out(
    game: Game[Any],
    state: GameState[Any],
    choosers: Sequence[Chooser],
    rng: random.Random,
    *,
    on_step: OnStep | None = None,
    max_decisions: int = 1_000_000,
) -> int:
    """Play ``state`` to its end, ``choosers[seat]`` deciding for each seat; returns the
    number of decisions the players took. ``on_step`` sees every applied move."""
    if on_step is None:
        return _play_unseen(game, state, list(choosers), rng, max_decisions)
    return _run(game, state, rng, choosers.__getitem__, on_step, None, max_decisions)


def _play_unseen(
    game: Game[Any],
    state: GameState[Any],
    choosers: list[Chooser],
    rng: random.Random,
    max_decisions: int,
) -> int:
    """:func:`_run` for a whole game that nobody watches (the benches' and self-play's
    inner loop): the same moves in the same order, without the bookkeeping of steps that
    nobody reads."""
    chance, over = Decision.CHANCE, Decision.OVER
    apply = state.apply
    # a state may play a chance outcome, or a chooser's pick, itself in one step (the
    # same draws, the same move: play_chance is apply(sample_chance(rng)), and each
    # direct_play(chooser)(rng) is apply(chooser(state, rng)))
    # (a state without them is played exactly as before: no wrapper in its way)
    sample = state.sample_chance
    play_chance = getattr(state, "play_chance", None)
    direct_play = getattr(state, "direct_play", None)
    direct = [None if direct_play is None else direct_play(c) for c in choosers]
    any_direct = any(d is not None for d in direct)
    automatic = game.automatic if game.forced_moves else None
    decisions = 0
    play = direct[0] if direct else None
    uniform = all(d == play for d in direct)
    if play is not None and play_chance is not None and automatic is None and uniform:
        # every seat played by one direct play, and no forced moves: the state may play
        # the whole game itself (direct_play_out(chooser)(rng, limit): the same moves and
        # draws as the loop below, until the game is over or `limit` decisions are taken
        # with another one due)
        direct_play_out = getattr(state, "direct_play_out", None)
        run = None if direct_play_out is None else direct_play_out(choosers[0])
        if run is not None:
            played: int = run(rng, max_decisions)
            if state.decision is not over and state.current_player is not None:
                raise FlowError(f"{game.title} did not end in {max_decisions} decisions")
            return played
        # else the loop below, with nothing to look up by seat (a direct play refuses,
        # changing nothing, when no seat is to act: then, as below, the game waits for
        # nobody's decision)
        while True:
            decision = state.decision
            if decision is chance:
                play_chance(rng)
                continue
            if decision is over:
                return decisions
            if decisions == max_decisions and state.current_player is not None:
                raise FlowError(f"{game.title} did not end in {max_decisions} decisions")
            try:
                play(rng)
            except Exception:
                if state.current_player is None:
                    return decisions
                raise
            decisions += 1
    while True:
        decision = state.decision
        if decision is chance:
            if play_chance is None:
                apply(sample(rng))
            else:
                play_chance(rng)
            continue
        if decision is over:
            return decisions
        seat = state.current_player
        if seat is None:
            return decisions  # nobody to decide (as _run: no chooser for it)
        if automatic is not None:
            forced = automatic(state)
            if forced is not None:
                apply(forced)  # the seat to act plays it, as by=seat says
                continue
        if decisions == max_decisions:
            raise FlowError(f"{game.title} did not end in {max_decisions} decisions")
        decisions += 1
        # by=seat would say no more: the seat to act plays (and costs a keyword, compiled)
        if any_direct:
            play = direct[seat]
            if play is not None:
                play(rng)
                continue
        apply(choosers[seat](state, rng))


def _collector(played: list[Played], on_step: OnStep | None) -> OnStep:
    if on_step is None:
        return played.append

    def emit(step: Played) -> None:
        played.append(step)
        on_step(step)

    return emit


def _run(
    game: Game[Any],
    state: GameState[Any],
    rng: random.Random,
    ai: Seats | None,
    emit: OnStep | None,
    limit: int | None,
    max_decisions: int | None = None,
) -> int:
    """The loop itself: returns the number of AI decisions taken. ``limit`` bounds the
    moves played; ``max_decisions`` the AI decisions (for a whole game played out)."""
    chance, over = Decision.CHANCE, Decision.OVER
    by_chance, by_forced, by_ai = By.CHANCE, By.FORCED, By.AI
    automatic = game.automatic if game.forced_moves else None
    apply, sample = state.apply, state.sample_chance
    moves_left = _UNBOUNDED if limit is None else limit
    most_decisions = _UNBOUNDED if max_decisions is None else max_decisions
    decisions = 0
    while True:
        decision = state.decision
        if decision is chance:
            move: Any = sample(rng)
            seat = None
            by = by_chance
        elif decision is over:
            return decisions
        else:
            seat = state.current_player
            move = None if automatic is None else automatic(state)
            by = by_forced
            if move is None:
                choose = None if ai is None or seat is None else ai(seat)
                if choose is None:
                    return decisions  # a human decides
                if decisions == most_decisions:
                    raise FlowError(f"{game.title} did not end in {max_decisions} decisions")
                move = choose(state, rng)
                decisions += 1
                by = by_ai
        if not moves_left:
            raise FlowError(f"{game.title} played {limit} moves without waiting for a player")
        moves_left -= 1
        events = apply(move, by=seat)
        if emit is not None:
            emit(Played(seat, move, events, by))
