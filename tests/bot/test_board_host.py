"""The game-agnostic host learns what a board game needs (issue 10): a move out of turn
where the game allows one (Color Stack's resignation, whoever is to move), AI levels
that think for a while off the event loop (Color Stack's expert), draws and resignations
in words and in storage, and a lobby of exactly two players.

Played through :class:`~host.service.TableService` with Duel (a tiny board game of
:mod:`tests.persistence.duel_game`, registered for each test), so that nothing here waits
for Color Stack; the last test plays Color Stack itself on simulated Discord once its
engine is registered.
"""

from __future__ import annotations

import asyncio
import logging
import random
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest

from bot import games as hosted
from bot.cogs.table import level_choices
from bot.front import DISCORD
from bot.games.base import DiscordGame
from bot.render import history_page
from bot.sheets import score_sheet_text
from bot.story import game_label
from engine import games
from host.service import LiveTable, Player, TableService, settle
from host.thinking import Thinker
from persistence import Store
from tests.bot.conftest import World, choose_colours, refused
from tests.persistence import duel_game
from tests.persistence.duel_game import GATE, PASS, RESIGN, STARTED

GUILD = 40
ANN, BOB, CAT = Player(1, "ann"), Player(2, "bob"), Player(3, "cat")


@pytest.fixture
async def service(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[TableService]:
    """A host (no Discord) hosting Duel, its thinking AIs on the loop's thread pool."""
    duel_game.register_discord(monkeypatch)
    store = await Store.open(f"sqlite+aiosqlite:///{tmp_path / 'board.db'}")
    try:
        yield TableService(store, front=DISCORD, seed=5, thinker=Thinker("thread"))
    finally:
        GATE.set()  # a slow AI a test left waiting ends its search
        await store.close()


async def duel_table(
    service: TableService,
    channel: int,
    host: Player = ANN,
    *,
    other: Player | None = BOB,
    ai: str | None = None,
    **options: Any,
) -> LiveTable:
    """A Duel in ``channel``: ``host`` (seat 0, to move first) against ``other`` or an AI
    of level ``ai``, started."""
    await service.new_table(GUILD, channel, host, options, game="duel")
    if ai is not None:
        await service.add_ai(channel, host, ai)
    elif other is not None:
        await service.join(channel, other)
    outcome = await service.start(channel, host)
    return outcome.table


def stored(live: LiveTable) -> tuple[int, Any]:
    """What a refusal must leave unchanged: the version and the state."""
    assert live.state is not None
    return live.version, live.state.to_dict()


async def outbox_texts(service: TableService, live: LiveTable) -> list[str]:
    return [i.content for i in await service.store.pending_outbox(live.id) if i.kind == "game"]


# ---------------------------------------------------------------------------- out of turn


async def test_a_player_not_to_move_may_resign_typed_and_the_end_is_announced(
    service: TableService,
) -> None:
    live = await duel_table(service, 1)
    assert live.state is not None and live.state.current_player == 0  # ann is to move
    outcome = await service.move(1, BOB, text="resign")
    assert outcome.game_over and outcome.announced and outcome.seat == 1
    assert outcome.turns == []  # a resignation is not a turn
    # the one who resigned is answered with the game's end, as the channel is told
    assert outcome.note == "🏳️ **bob** resigned; **ann** wins! ann 1, bob 0"
    assert await outbox_texts(service, live) == [outcome.note]
    assert live.info.status == "finished" and 1 not in service.by_channel


async def test_a_resignation_from_a_button_is_refused_on_an_older_state(
    service: TableService,
) -> None:
    live = await duel_table(service, 1)
    old = live.version
    await service.move(1, ANN, text="add 1")
    before = stored(live)
    with refused(match="older state of the table"):
        await service.move(1, ANN, move=RESIGN, table_id=live.id, version=old)
    assert stored(live) == before
    # bob is to move now; ann, not to move, resigns from the newest panel
    outcome = await service.move(1, ANN, move=RESIGN, table_id=live.id, version=live.version)
    assert outcome.game_over and outcome.note.startswith("🏳️ **ann** resigned; **bob** wins!")


async def test_the_player_to_move_may_resign_too(service: TableService) -> None:
    await duel_table(service, 1)
    outcome = await service.move(1, ANN, text="resign")
    assert outcome.game_over and outcome.note.startswith("🏳️ **ann** resigned; **bob** wins!")


async def test_any_other_move_out_of_turn_is_refused_by_the_engine_changing_nothing(
    service: TableService,
) -> None:
    live = await duel_table(service, 1)
    before = stored(live)
    with refused(match=r"^It's ann's turn; you may only resign\.$"):
        await service.move(1, BOB, text="add 1")
    with refused(match=r"^It's ann's turn; you may only resign\.$"):
        await service.move(1, BOB, move=("add", 1), table_id=live.id, version=live.version)
    assert stored(live) == before
    with refused(match="You're not playing at this table"):
        await service.move(1, CAT, text="resign")  # a stranger resigns nobody
    assert stored(live) == before


async def test_a_game_without_off_turn_moves_refuses_whoever_is_not_to_move_up_front(
    service: TableService, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(duel_game.DuelGame, "off_turn_moves", False)
    read: list[str] = []
    parse = duel_game.GAME.parse_move

    def reading(state: Any, text: str, seat: int | None = None) -> Any:
        read.append(text)
        return parse(state, text, seat)

    monkeypatch.setattr(duel_game.GAME, "parse_move", reading)
    live = await duel_table(service, 1)
    before = stored(live)
    with refused(match=r"^It's ann's turn\.$"):
        await service.move(1, BOB, text="resign")
    assert read == [] and stored(live) == before  # refused before the move was read


# ---------------------------------------------------------------------------- thinking AIs


async def wait_until_thinking() -> None:
    """The slow AI has started its search (in a worker thread)."""
    assert await asyncio.to_thread(STARTED.wait, 30), "the slow AI never started"


async def move_and_reply(service: TableService, live: LiveTable, text: str) -> list[str]:
    """ann's move (answered, and committed, without waiting for the thinking AI), then the
    AI's answer, played as a step of its own; the turns of both."""
    moved = await service.move(live.channel_id, ANN, text=text)
    assert moved.ai_owed
    replied = await service.play_owed(live.id, live.version)
    assert replied is not None
    return moved.turns + replied.turns


async def test_another_table_plays_while_an_ai_thinks_and_its_own_table_waits(
    service: TableService, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The mover's step is committed (and answered) first; the thinking AI's answer is a
    step of its own (issue 18: one transaction for both lost the mover's move when the
    process died during the search)."""
    thinking_table = await duel_table(service, 1, ai="slow")
    other = await duel_table(service, 2, CAT, other=BOB)
    commits: list[int] = []
    record = service.store.record_move

    async def counted(table_id: int, *args: Any, **kwargs: Any) -> Any:
        commits.append(table_id)
        return await record(table_id, *args, **kwargs)

    monkeypatch.setattr(service.store, "record_move", counted)
    version = thinking_table.version
    moved = await service.move(1, ANN, text="add 1")
    assert moved.turns == ["ann played add 1"] and moved.ai_owed
    assert thinking_table.version == version + 1  # committed before the AI thinks
    thinking = asyncio.create_task(service.play_owed(thinking_table.id, version + 1))
    await wait_until_thinking()
    # the loop is free: the other table's move is answered while the AI searches
    answered = await service.move(2, CAT, text="add 2")
    assert answered.turns == ["cat played add 2"] and other.version == 1
    # the AI searches on a copy, without the table's lock: the table shows ann's move
    assert not thinking_table.lock.locked() and not thinking.done()
    assert thinking_table.version == version + 1  # nothing of the AI's is shown yet
    GATE.set()
    outcome = await thinking
    assert outcome is not None and outcome.turns == ["AI 1 played pass"]
    assert thinking_table.version == version + 2
    ended = await service.move(1, ANN, text="resign")
    assert ended.game_over and ended.note.startswith("🏳️ **ann** resigned; **AI 1** wins!")
    # one commit for ann's move, one for the AI's answer, one for the resignation
    assert commits == [thinking_table.id, other.id, thinking_table.id, thinking_table.id]


async def test_a_resignation_while_the_ai_thinks_is_played_and_the_search_dropped(
    service: TableService,
) -> None:
    live = await duel_table(service, 1, ai="slow")
    await service.move(1, ANN, text="add 1")
    thinking = asyncio.create_task(service.play_owed(live.id, live.version))
    await wait_until_thinking()
    ended = await service.move(1, ANN, text="resign")  # not kept waiting by the search
    assert ended.game_over and live.version == 2
    GATE.set()
    assert await thinking is None  # its table moved on: the answer is dropped
    assert live.version == 2 and live.info.status == "finished"


async def test_an_ai_step_cancelled_while_it_thinks_leaves_the_move_before_it_standing(
    service: TableService,
) -> None:
    live = await duel_table(service, 1, ai="slow")
    moved = await service.move(1, ANN, text="add 1")
    assert moved.ai_owed
    before = stored(live)
    thinking = asyncio.create_task(service.play_owed(live.id, live.version))
    await wait_until_thinking()
    thinking.cancel()
    with pytest.raises(asyncio.CancelledError):
        await thinking
    live = service.by_id[live.id]
    assert stored(live) == before  # ann's move stands; nothing of the AI's was shown
    assert not live.lock.locked()
    GATE.set()
    outcome = await service.play_owed(live.id, live.version)
    assert outcome is not None and outcome.turns == ["AI 1 played pass"]


async def test_a_thinking_ai_that_fails_plays_the_hint_and_it_is_logged(
    service: TableService, caplog: pytest.LogCaptureFixture
) -> None:
    live = await duel_table(service, 1, ai="broken")
    with caplog.at_level(logging.WARNING):
        turns = await move_and_reply(service, live, "add 1")
    assert turns == ["ann played add 1", "AI 1 played add 1"]  # greedy's move
    assert "the search broke" in caplog.text and "played the hint" in caplog.text


async def test_a_thinking_ai_that_overruns_its_time_plays_the_hint(
    service: TableService, caplog: pytest.LogCaptureFixture
) -> None:
    service.thinker = Thinker("thread", budget=0.0, margin=0.05)
    live = await duel_table(service, 1, ai="slow")  # its gate stays shut
    with caplog.at_level(logging.WARNING):
        turns = await move_and_reply(service, live, "add 1")
    assert turns == ["ann played add 1", "AI 1 played add 1"]
    assert "took longer than 0.05 s" in caplog.text


async def test_a_thinking_ai_answering_an_illegal_move_plays_the_hint(
    service: TableService, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    import host.thinking

    monkeypatch.setattr(host.thinking, "think", lambda job: ["add", 7])
    live = await duel_table(service, 1, ai="slow")
    with caplog.at_level(logging.WARNING):
        turns = await move_and_reply(service, live, "add 1")
    assert turns == ["ann played add 1", "AI 1 played add 1"]
    assert "['add', 7] is not legal" in caplog.text


async def test_a_thinking_ai_moves_first_when_the_game_starts(service: TableService) -> None:
    GATE.set()
    await service.new_table(GUILD, 1, ANN, {}, game="duel")
    await service.add_ai(1, ANN, "slow")
    await service.leave(1, ANN)  # the lobby closes: with nobody left
    await service.new_table(GUILD, 1, ANN, {}, game="duel")
    await service.add_ai(1, ANN, "slow")
    outcome = await service.start(1, ANN)
    live = outcome.table
    assert live.state is not None and live.state.current_player == 0  # ann first, lobby order
    await move_and_reply(service, live, "add 2")
    assert live.state.to_dict()["log"] == [[0, ["add", 2]], [1, ["pass"]]]


async def test_the_turn_timer_plays_and_then_a_thinking_ai_as_a_step_of_its_own(
    service: TableService,
) -> None:
    GATE.set()
    live = await duel_table(service, 1, ai="slow")
    outcome = await service.auto_move(live.id, live.version)
    assert outcome is not None and outcome.ai_owed
    assert outcome.turns == ["ann played add 1 (automatic: the turn timer ran out)"]
    assert live.version == 1
    replied = await service.play_owed(live.id, live.version)
    assert replied is not None and replied.turns == ["AI 1 played pass"]
    assert live.version == 2


async def test_the_worker_process_chooses_a_legal_move_of_a_registered_game() -> None:
    """The production path: a spawned worker process imports the game from the registry
    and answers the encoded move (Stack Up!'s greedy AI stands in for a thinking one)."""
    game = games.get("stackup")
    state = game.new_state(("ann", "bob"), game.settings())
    settle(game, state, random.Random(3), lambda event, by: None)
    thinker = Thinker("process", workers=1)
    try:
        move, why = await thinker.choose(game, state, "greedy", seed=11)
    finally:
        await thinker.close()
    assert why is None and state.is_legal(move)


# ---------------------------------------------------------------------------- draws


async def test_a_draw_by_repetition_is_announced_stored_and_listed_as_a_draw(
    service: TableService,
) -> None:
    live = await duel_table(service, 1)
    for player in (ANN, BOB, ANN):
        await service.move(1, player, text="pass")
    outcome = await service.move(1, BOB, text="pass")
    assert outcome.game_over and outcome.turns == ["bob played pass"]
    assert await outbox_texts(service, live) == ["🤝 Draw by threefold repetition. ann 0, bob 0"]
    history = await service.store.history(1, game="duel")
    assert (
        "🤝 draw by threefold repetition"
        in history_page(history, hosted.get("duel").history_line, "Duel")[0]
    )
    assert game_label(1, history[0]).endswith("· 🤝 draw")
    assert score_sheet_text(await service.store.score_sheet(live.id)).endswith("A draw.")
    for player in (ANN, BOB):
        stats = await service.store.stats(GUILD, player.id, game="duel")
        assert stats is not None and (stats.games, stats.wins) == (1, 0)


async def test_a_draw_at_the_turn_limit_names_the_limit(service: TableService) -> None:
    live = await duel_table(service, 1, turn_limit=2)
    await service.move(1, ANN, text="add 1")
    outcome = await service.move(1, BOB, text="add 1")
    assert outcome.game_over
    assert await outbox_texts(service, live) == [
        "🤝 Draw: the turn limit (2 turns) was reached. ann 0, bob 0"
    ]
    history = await service.store.history(1, game="duel")
    assert (
        "🤝 draw at the turn limit"
        in history_page(history, hosted.get("duel").history_line, "Duel")[0]
    )


def end_of(*moves: tuple[int, Any], **settings: Any) -> Any:
    game = duel_game.GAME
    state = game.new_state(("ann", "bob"), game.settings.model_validate(settings))
    for seat, move in moves:
        state.apply(move, by=seat)
    assert state.is_over
    return state


@pytest.mark.parametrize(
    ("moves", "settings", "line"),
    [
        ([(0, PASS), (1, PASS), (0, PASS), (1, PASS)], {}, "🤝 Draw by threefold repetition."),
        ([(0, PASS)], {"turn_limit": 1}, "🤝 Draw: the turn limit (1 turn) was reached."),
        ([(1, RESIGN)], {}, "🏳️ **bob** resigned; **ann** wins!"),
        ([(0, ("add", 2))], {"target": 2}, "🏆 **ann** wins!"),
    ],
)
def test_the_table_head_says_how_the_game_ended(
    monkeypatch: pytest.MonkeyPatch, moves: list[tuple[int, Any]], settings: Any, line: str
) -> None:
    played: DiscordGame = duel_game.register_discord(monkeypatch)
    state = end_of(*moves, **settings)
    assert played.end_line(state) == line
    parts = played.table_parts(state, current_user=None, turns=None)
    assert parts.head == line
    winners = state.outcome().winners
    assert (parts.accent is None) == (not winners)  # a draw is nobody's colour


# ---------------------------------------------------------------------------- the lobby


async def test_join_and_add_ai_are_refused_once_two_are_seated(service: TableService) -> None:
    await service.new_table(GUILD, 1, ANN, {}, game="duel")
    await service.join(1, BOB)
    full = r"^Duel is for 2 players: the table is full\.$"
    with refused(match=full):
        await service.join(1, CAT)
    with refused(match=full):
        await service.add_ai(1, ANN, "greedy")
    assert len(service.table_in(1).info.seats) == 2


async def test_start_with_one_player_is_refused_in_words(service: TableService) -> None:
    await service.new_table(GUILD, 1, ANN, {}, game="duel")
    with refused(
        match=r"^Duel is for 2 players: wait for someone to press \*\*Join\*\*, or press \*\*Add AI\*\*\.$"
    ):
        await service.start(1, ANN)
    assert service.table_in(1).info.status == "lobby"


async def test_an_ai_level_the_tables_game_lacks_is_refused_naming_its_levels(
    service: TableService,
) -> None:
    await service.new_table(GUILD, 1, ANN, {})  # Stack
    with refused(match=r"^Stack has no `slow` AI; its levels are random, greedy, expert\.$"):
        await service.add_ai(1, ANN, "slow")
    assert len(service.table_in(1).info.seats) == 1


def test_addbot_offers_every_hosted_games_ai_levels(monkeypatch: pytest.MonkeyPatch) -> None:
    duel_game.register_discord(monkeypatch)
    levels = [choice.value for choice in level_choices()]
    assert len(levels) == len(set(levels))
    for played in hosted.all_games():
        assert set(played.game.ai_levels) <= set(levels)
    assert {"random", "greedy", "slow"} <= set(levels)
    named = {choice.value: choice.name for choice in level_choices()}
    assert named["random"].startswith("random (easy")
    assert named["greedy"].startswith("greedy (fair")
    assert named["expert"].startswith("expert (strong")
    assert all(len(name) <= 100 for name in named.values())  # Discord's limit for a choice


# ---------------------------------------------------------------------------- Color Stack


async def test_an_expert_seat_plays_color_stack_in_a_worker_while_another_table_plays(
    world: World, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    """On simulated Discord: alice against an expert AI in one channel, bob against carol
    in another. The expert's search runs in the thinker's worker process (the search
    itself refuses to run in the bot's process here); while alice's step awaits it, held
    open by the test, bob's move at the other table is answered; alice's move was committed
    and answered before the expert began, and its answer is a step of its own."""
    if "colorstack" not in hosted.names():
        pytest.skip("Color Stack is not hosted yet")
    from engine.colorstack.search import ExpertPlayer

    def on_the_loop(self: Any, state: Any, rng: random.Random) -> Any:
        raise AssertionError("the expert searched in the bot's own process")

    monkeypatch.setattr(ExpertPlayer, "choose", on_the_loop)  # a spawned worker is unpatched
    caplog.set_level(logging.WARNING)
    service = world.bot.tables.service
    opened = await world.alice.slash(world.channel, "table new", game="colorstack")
    added = await world.alice.slash(world.channel, "table addbot", level="expert")
    assert added.response.content == "An AI player (expert) sits down."
    started = await world.alice.click(opened.response, label="Start")
    assert started.response is not None
    thinking_table = service.by_channel[world.channel.id]
    other_channel = world.guild.create_text_channel("other")
    lobby = await world.bob.slash(other_channel, "table new", game="colorstack")
    await world.carol.click(lobby.response, label="Join")
    await world.bob.click(lobby.response, label="Start")
    await choose_colours(world, channel=other_channel)
    await choose_colours(world)
    other = service.by_channel[other_channel.id]

    thinker = service.thinker
    search = thinker.choose
    release = asyncio.Event()
    asked: list[str] = []

    async def held(game: Any, state: Any, level: str, seed: int) -> Any:
        """The real search, in the worker, held (with its answer) until the test has
        played at the other table."""
        asked.append(level)

        async def searched() -> Any:
            await release.wait()
            return await search(game, state, level, seed)

        return await world.env.external_wait(searched(), reason="the test holds the search")

    monkeypatch.setattr(thinker, "choose", held)
    assert thinking_table.state is not None
    assert thinking_table.current_user() == world.alice.id  # after the expert's opening
    version = thinking_table.version
    moved = await world.alice.slash(world.channel, "move", move=first_move(thinking_table))
    assert moved.response.content.startswith("✅"), moved.response.content
    await world.env.settle()
    assert asked == ["expert"]
    # alice's move is committed and answered; the expert's answer is a step of its own
    assert thinking_table.version == version + 1
    mover = world.bob if other.current_user() == world.bob.id else world.carol
    other_version = other.version
    answered = await mover.slash(other_channel, "move", move=first_move(other))
    assert answered.response.content.startswith("✅"), answered.response.content
    assert other.version == other_version + 1 and thinking_table.version == version + 1
    release.set()
    await world.env.settle()
    assert thinking_table.version == version + 2  # the expert's step, committed on its own
    assert thinking_table.current_user() == world.alice.id
    assert "played the hint" not in caplog.text
    await thinker.close()


def first_move(live: LiveTable) -> str:
    """A legal move of the seat to act that ``/move`` takes (a piece moving)."""
    state = live.state
    assert state is not None
    notations = [live.game.game.move_notation(state, m) for m in state.legal_moves()]
    return next(n for n in notations if "-" in n)
