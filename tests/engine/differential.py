"""Digests of seeded self-play, to tell one engine build from another.

A *case* plays ``games`` whole games of one game (settings, table size, AI levels) through
the table loop from one seeded RNG, and hashes everything that must never change when the
engine gets faster: every move as stored (``encode_move``), every event, the final state
(``to_dict``), the game record (``export_record``) and the RNG's state after each game
(so chance outcomes and AI picks consume it identically). ``CASES`` and ``EXPECTED`` are
the fixed seeds and the digests captured from the engine before its fast paths were
written (main at b0f0df4); :mod:`tests.engine.test_fast_engine` requires them of the pure
modules and of the compiled ones.

``python -m tests.engine.differential`` prints the digests of the engine importable now,
as JSON (used to capture ``EXPECTED``, and by the test in a subprocess).
"""

from __future__ import annotations

import hashlib
import json
import random
import sys
from typing import Any

NAMES = ("north", "east", "south", "west", "nw", "ne", "se", "sw")

# (name, game, players, settings, levels, games, seed)
CASES: tuple[tuple[str, str, int, dict[str, Any], tuple[str, ...], int, int], ...] = (
    ("stack-4-random", "stack", 4, {}, ("random",), 600, 1),
    ("stack-2-random", "stack", 2, {"dice_per_player": 6, "target_score": 60}, ("random",), 300, 2),
    (
        "stack-6-houserules",
        "stack",
        6,
        {
            "dice_per_player": 5,
            "target_score": 80,
            "four_high_bonus": True,
            "capture_penalty": True,
            "rolled_two_penalty": True,
            "tie_break": "shared",
        },
        ("random",),
        200,
        3,
    ),
    ("stack-4-teams", "stack", 4, {"teams": True, "target_score": 100}, ("random",), 150, 4),
    ("stack-3-greedy", "stack", 3, {"target_score": 100}, ("greedy", "random"), 60, 5),
    ("stackup-4-random", "stackup", 4, {}, ("random",), 600, 6),
    ("stackup-2-random", "stackup", 2, {}, ("random",), 400, 7),
    ("stackup-6-random", "stackup", 6, {"turn_limit": 60}, ("random",), 200, 8),
    ("stackup-3-greedy", "stackup", 3, {}, ("greedy", "random"), 60, 9),
    ("colorstack-light-random", "colorstack", 2, {}, ("random",), 300, 10),
    ("colorstack-heavy-random", "colorstack", 2, {"board": "heavy"}, ("random",), 150, 11),
    ("colorstack-greedy", "colorstack", 2, {"turn_limit": 80}, ("greedy", "random"), 30, 12),
)


def _default(value: Any) -> Any:
    if isinstance(value, tuple | set | frozenset):
        return list(value)
    return repr(value)


def case_digest(
    game_name: str,
    players: int,
    settings: dict[str, Any],
    levels: tuple[str, ...],
    games: int,
    seed: int,
) -> str:
    """The digest of ``games`` seeded games of one case (see the module's text)."""
    from engine import games as registry
    from engine.flow import play_out

    game = registry.get(game_name)
    chosen = game.settings.model_validate(settings)
    rng = random.Random(seed)
    choosers = [game.make_ai(levels[seat % len(levels)]).choose for seat in range(players)]
    h = hashlib.sha256()
    for number in range(games):
        state = game.new_state(NAMES[:players], chosen)
        steps: list[Any] = []

        def on_step(step: Any, steps: list[Any] = steps) -> None:
            steps.append([step.seat, game.encode_move(step.move), [repr(e) for e in step.events]])

        # the seat order rotates with the game number, so every seat plays every level
        turn = number % players
        seated = choosers[turn:] + choosers[:turn]
        play_out(game, state, seated, rng, on_step=on_step)
        blob = {
            "steps": steps,
            "state": state.to_dict(),
            "record": game.export_record(state),
            "outcome": repr(state.outcome()),
            "rng": rng.getstate()[1][-1],
        }
        h.update(json.dumps(blob, sort_keys=True, default=_default).encode())
    return h.hexdigest()


def digests(names: list[str] | None = None) -> dict[str, str]:
    """The digest of every case (or of the ``names`` given)."""
    return {
        name: case_digest(game, players, settings, levels, count, seed)
        for name, game, players, settings, levels, count, seed in CASES
        if names is None or name in names
    }


# captured from main at b0f0df4 (before the fast paths) by `python -m tests.engine.differential`;
# Color Stack's recaptured when its set-up became the rule book's steps (the first player
# drawn, then their choice of colours, then the board): with those two new steps left out
# of the step list, its games gave the digests of b0f0df4 (the same games, states, records
# and random draws)
EXPECTED: dict[str, str] = {
    "stack-4-random": "77f8132224d233d9f8154239589b5878149a663460e354236bbc3efe13f8c826",
    "stack-2-random": "a60d9afc2defd339cd206f7f4d5475b6552907129383e4e96cadc15c324c72cb",
    "stack-6-houserules": "6121e564da5e83e29515dc3bc28d8f34757748543e2a933eea08ada0c0f3bb5f",
    "stack-4-teams": "d4d50c70b208b6bb4424428552e7df5614fa27092312173826a705f4e22aa627",
    "stack-3-greedy": "ff343c64495423d3c8c270cad80ee597ffb9af232e98d5d12f78e0c9b4bb35ae",
    "stackup-4-random": "3d0f141055978b2328375f38e52d2a669edd522f30dd0d1f5d8607a57f4513a8",
    "stackup-2-random": "5f1f924b8be1ea92725c49fe91eba09b2da2df5ef6cc0537efddfaee0d71c253",
    "stackup-6-random": "986b7e8f7d3835f271d1bafb3a39b41f6238f408e56e05a4484be9eb0d298a1e",
    "stackup-3-greedy": "117f1a5c1275dc5b74e60263b12738a5ef3adffa826bc1c12c2fbba17ba8ae75",
    "colorstack-light-random": "a7a8173749186c21c7778316ac587a750463750bd01d72104dff76347a069976",
    "colorstack-heavy-random": "638b18f4198aa8fe75fe2642044488fee8724cd1ad19829c5d3914d6e9b94e72",
    "colorstack-greedy": "2022fd36e2236682361eb4263550280cff318cbe488dbc617c15db0342d48db7",
}


if __name__ == "__main__":
    print(json.dumps(digests(sys.argv[1:] or None), indent=1))
