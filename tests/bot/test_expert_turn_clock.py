"""A human's turn after a thinking AI's move (every game's ``expert``, which plays its
turn as a step of its own: :meth:`host.service.TableService.play_owed`) has its clock like
any other turn: the ping, the turn timer (the greedy AI plays the turn when it runs out;
after 3 timeouts in a row the seat goes to the AI and, with no human left, the table
closes) and the idle limit. Played on simulated Discord with the real expert."""

from __future__ import annotations

import pytest

from tests.bot.conftest import World, live_of


@pytest.mark.parametrize("level", ["greedy", "expert"])
async def test_the_turn_timer_runs_after_each_ai_move_whatever_its_level(
    world: World, level: str
) -> None:
    opened = await world.alice.slash(world.channel, "table new", game="colorstack")
    await world.alice.slash(world.channel, "table addbot", level=level)
    await world.alice.click(opened.response, label="Start")
    live = live_of(world)
    assert live is not None
    timeouts = []
    for _ in range(6):  # alice never moves: each turn of hers runs out (120 s)
        await world.env.settle()
        if not live.info.is_active:
            break
        assert live.current_user() == world.alice.id  # the AI has answered
        timeouts.append(live.info.seats[0].timeouts)
        await world.env.advance_time(125)
    assert timeouts == [0, 1, 2]
    assert not live.info.is_active and live_of(world) is None
