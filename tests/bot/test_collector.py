"""A bot in a process of its own settles the garbage collector once start-up is over
(:func:`bot.client.settle_garbage_collector`): what start-up left is frozen (no later
collection scans it) and the youngest generation is collected less often."""

from __future__ import annotations

import gc

from bot.client import GC_YOUNG, settle_garbage_collector


def test_start_up_leftovers_are_frozen_and_young_collections_are_rarer() -> None:
    before = gc.get_threshold()
    gc.unfreeze()
    assert gc.get_freeze_count() == 0
    try:
        settle_garbage_collector()
        assert gc.get_freeze_count() > 0
        assert gc.get_threshold() == (GC_YOUNG, before[1], before[2])
        assert before[0] < GC_YOUNG
    finally:
        gc.unfreeze()
        gc.set_threshold(*before)
