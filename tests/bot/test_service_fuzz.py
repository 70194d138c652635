"""Bad input, anywhere (issue 7, item 12): random commands from seated players, strangers,
the host and admins through every handler of ``host/service.py``. Nothing escapes but a
refusal, and a refusal changes nothing (state, version, seats, stored log)."""

from __future__ import annotations

import asyncio
import tempfile
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from bot.front import DISCORD
from bot.games.stack.game import move_from_code
from bot.refusal_words import refusal_text
from host.refusals import Refusal
from host.service import Player, TableService
from persistence import Store

CHANNEL = 500
GUILD = 9
PEOPLE = [Player(1, "Host"), Player(2, "bob"), Player(3, "Bob"), Player(4, "@eve"), Player(5, "s")]

texts = st.one_of(
    st.text(max_size=60),
    st.sampled_from(
        [
            "reroll ²",
            "reroll " + "9" * 4301,
            "stak 1 on bot3",
            "reroll",
            "place on bob",
            "stack 3 on @bob 2",
            "stack 3 on Bob",
            "stack 1 on @eve",
            "s1 bob",
            "r6",
            "on bob 9",
            "stack 0 on bob",
        ]
    ),
)
codes = st.one_of(
    st.from_regex(r"s[0-9]\.[0-9]\.[0-9]|r[0-9]|p[0-9]\.[0-9]", fullmatch=True),
    st.text(max_size=12),
)
commands = st.tuples(
    st.sampled_from(
        ["join", "leave", "ai", "kick", "start", "end", "type", "tap", "hint", "choices"]
    ),
    st.integers(0, len(PEOPLE) - 1),
    st.integers(0, len(PEOPLE) - 1),
    texts,
    codes,
    st.booleans(),
)


def snapshot(service: TableService) -> Any:
    live = service.by_channel.get(CHANNEL)
    if live is None:
        return None
    state = None if live.state is None else live.state.to_dict()
    return (live.id, live.version, live.info.status, live.info.seats, live.info.host_id, state)


async def run(script: list[tuple[Any, ...]], folder: Path) -> None:
    store = await Store.open(f"sqlite+aiosqlite:///{folder / 'fuzz.db'}")
    try:
        service = TableService(store, front=DISCORD, seed=3)
        host = PEOPLE[0]
        await service.new_table(GUILD, CHANNEL, host, {"target_score": 30, "dice_per_player": 3})
        for what, who, whom, text, code, manager in script:
            player, target = PEOPLE[who], PEOPLE[whom]
            before = snapshot(service)
            try:
                if what == "join":
                    await service.join(CHANNEL, player)
                elif what == "leave":
                    await service.leave(CHANNEL, player)
                elif what == "ai":
                    await service.add_ai(CHANNEL, player, "random" if manager else "greedy")
                elif what == "kick":
                    await service.kick(CHANNEL, player, target.id)
                elif what == "start":
                    await service.start(CHANNEL, player)
                elif what == "end":
                    await service.end(CHANNEL, player, manager=manager)
                elif what == "type":
                    await service.move(CHANNEL, player, text=text, interaction_id=None)
                elif what == "tap":
                    live = service.by_channel.get(CHANNEL)
                    move = move_from_code(code)
                    if move is not None and live is not None:
                        await service.move(
                            CHANNEL,
                            player,
                            move=move,
                            table_id=live.id,
                            version=live.version if manager else live.version + 1,
                        )
                elif what == "hint":
                    await service.hint(CHANNEL, player)
                else:
                    await service.legal_choices(service.table_in(CHANNEL), player)
            except Refusal as refusal:
                assert refusal_text(refusal), "a refusal says why"
                assert len(refusal_text(refusal)) <= 2000
                assert snapshot(service) == before, f"{what} by {player} was refused but changed"
            if CHANNEL not in service.by_channel:
                await service.new_table(GUILD, CHANNEL, host, {"target_score": 30})
    finally:
        await store.close()


@settings(
    max_examples=25,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(st.lists(commands, min_size=5, max_size=40))
def test_random_commands_from_anyone_are_played_or_refused_never_errors(
    script: list[tuple[Any, ...]],
) -> None:
    with tempfile.TemporaryDirectory() as folder:
        asyncio.run(run(script, Path(folder)))
