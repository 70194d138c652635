"""Game records: the worked example of ``stackup-record.md`` verbatim, every kind of error
the checker reports, and export → check → replay over random games."""

from __future__ import annotations

import copy
import json
import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from engine.game import Decision
from engine.stackup.record import (
    check,
    check_text,
    export_record,
    replay,
)
from engine.stackup.rules import StackUpSettings
from engine.stackup.state import StackUpState

from .situations import NAMES

EXAMPLE = """
{
  "format": "stackup-record/1",
  "rules": {},
  "players": ["ann", "ben"],
  "deck": ["R3", "B1", "R4", "B3", "R5", "G1", "R6", "G2", "R7", "Y1",
           "Crash", "Y2", "Switch", "Y3", "Y8", "B13", "Y9", "G13", "Y10", "Y13",
           "R2", "B5", "G6", "B9", "R12", "R1", "R8", "R9", "R10", "R11",
           "R13", "R14", "R15", "B2", "B4", "B6", "B7", "B8", "B10", "B11",
           "B12", "B14", "B15", "Y4", "Y5", "Y6", "Y7", "Y11", "Y12", "Y14",
           "Y15", "G3", "G4", "G5", "G7", "G8", "G9", "G10", "G11", "G12",
           "G14", "G15", "Flip", "Flip", "Flip", "Flip", "Freeze", "Freeze", "Freeze", "Freeze",
           "Snatch", "Snatch", "Snatch", "Snatch", "Switch", "Switch", "Switch", "Crash", "Crash", "Crash"],
  "first": "ann",
  "direction": "up",
  "turns": [
    {"player": "ann", "play": ["R3", "R4", "R5"], "bonus": "skip"},
    {"player": "ann", "play": ["Crash"]},
    {"player": "ben", "take": true},
    {"player": "ann", "play": ["R6", "R7"]},
    {"player": "ben", "draw": "play"},
    {"player": "ann", "play": ["Switch"], "colour": "Y"},
    {"player": "ben", "play": ["Y1", "Y2", "Y3"], "bonus": "pass"},
    {"player": "ann", "play": ["Y8", "Y9", "Y10"]}
  ]
}
"""

EXAMPLE_RESULT = """
{"ok": true, "turns": 8, "finished": true, "winner": ["ann"],
 "hands": {"ann": [], "ben": ["B1", "B3", "B5", "B9", "B13", "Y13", "G1", "G2", "G6", "G13"]},
 "ended_by": "empty_hand"}
"""


def example() -> dict[str, Any]:
    record: dict[str, Any] = json.loads(EXAMPLE)
    return record


def error(record: object) -> tuple[int | None, str]:
    """The checker's turn and message for a wrong record (asserting its exact shape)."""
    result = check(record)
    assert list(result) == ["ok", "turn", "error"] and result["ok"] is False, result
    message = result["error"]
    assert isinstance(message, str) and message.endswith((".", ")")) and "\n" not in message
    return result["turn"], message


# ------------------------------------------------------------------------ the worked example


def test_worked_example_checks_as_the_spec_prints_it() -> None:
    result = check(example())
    assert result == json.loads(EXAMPLE_RESULT)
    assert list(result) == ["ok", "turns", "finished", "winner", "hands", "ended_by"]
    assert json.dumps(result) == json.dumps(json.loads(EXAMPLE_RESULT))


def test_worked_example_replays_step_by_step() -> None:
    record = example()
    expected = [
        ("R", 5, 1),  # ann: R3 R4 R5, skip: ann again
        ("R", 5, 1),  # ann: Crash on ben
        ("R", 5, 0),  # ben takes B5 G6 B9
        ("R", 7, 1),
        ("R", 12, 0),  # ben drew R12 and played it
        ("Y", 12, 1),
        ("Y", 3, 0),
    ]
    for k, (colour, number, _) in enumerate(expected, start=1):
        partial = dict(record, turns=record["turns"][:k])
        state = replay(partial)
        assert (state.to_dict()["colour"], state.number) == (colour, number)
    state = replay(dict(record, turns=record["turns"][:3]))
    assert " ".join(state.to_dict()["hands"][1]) == "B1 B3 B5 B9 B13 Y1 Y2 Y3 Y13 G1 G2 G6 G13"
    state = replay(dict(record, turns=record["turns"][:7]))
    assert state.passes == [0, 1]


def test_worked_example_without_the_turn_7_bonus_is_wrong_at_turn_7() -> None:
    record = example()
    del record["turns"][6]["bonus"]
    turn, message = error(record)
    assert turn == 7 and '"bonus"' in message


def test_worked_example_with_ben_second_is_wrong_at_turn_2() -> None:
    record = example()
    record["turns"].insert(1, {"player": "ben", "play": ["B1"]})
    turn, message = error(record)
    assert turn == 2 and "skipped" in message


def test_the_same_record_exports_back() -> None:
    record = example()
    assert export_record(replay(record)) == dict(record, rules={"turn_limit": 500})
    assert export_record(replay(record), meta={"table": 7})["meta"] == {"table": 7}


def test_a_record_may_stop_before_the_direction() -> None:
    record = example()
    del record["direction"]
    record["turns"] = []
    result = check(record)
    assert result["ok"] is True and result["turns"] == 0 and result["finished"] is False
    assert result["winner"] is None and result["ended_by"] is None
    assert replay(record).decision is Decision.TURN and replay(record).direction is None
    del record["turns"]
    assert check(record)["ok"] is True


def test_a_game_in_progress_is_not_finished() -> None:
    record = example()
    record["turns"] = record["turns"][:4]
    result = check(record)
    assert result["finished"] is False and result["winner"] is None
    assert result["hands"]["ann"] == ["Y8", "Y9", "Y10", "Switch"]


def test_drawn_card_may_be_kept_even_when_playable() -> None:
    record = example()
    record["turns"][4] = {"player": "ben", "draw": "keep"}
    result = check(record)
    assert result["ok"] is True and "R12" in result["hands"]["ben"]


def test_turn_limit_in_the_rules_ends_the_game() -> None:
    record = example()
    record["rules"] = {"turn_limit": 4}
    record["turns"] = record["turns"][:4]
    result = check(record)
    assert result["finished"] is True and result["ended_by"] == "turn_limit"
    assert result["winner"] == ["ann"]  # 4 cards against ben's 13
    record["turns"] = example()["turns"][:5]
    assert error(record) == (5, "The game ended at turn 4; no turn may follow it.")


# ------------------------------------------------------------------------ outside the turns


def _set(key: str, value: object) -> dict[str, Any]:
    record = example()
    record[key] = value
    return record


def _without(key: str) -> dict[str, Any]:
    record = example()
    del record[key]
    return record


SIX_PLAYER_NUMBERS_DEALT = (
    [f"{c}{n}" for c in "RBYG" for n in range(1, 16)]
    + ["Flip"] * 4
    + ["Freeze"] * 4
    + ["Snatch"] * 4
    + ["Switch"] * 4
    + ["Crash"] * 4
)


@pytest.mark.parametrize(
    ("record", "words"),
    [
        ([1, 2], "JSON object"),
        (_set("format", "stack-record/1"), '"format"'),
        (_without("format"), '"format"'),
        (_set("colour", "R"), "unknown key 'colour'"),
        (_set("rules", {"turn_limit": 0}), "turn_limit"),
        (_set("rules", {"turn_limit": "300"}), "turn_limit"),
        (_set("rules", {"turn_limit": True}), "turn_limit"),
        (_set("rules", {"hand_size": 7}), "unknown key 'hand_size'"),
        (_set("rules", []), '"rules"'),
        (_set("players", ["ann"]), '"players"'),
        (_set("players", ["ann", "ann"]), "distinct"),
        (_set("players", ["ann", ""]), "non-empty"),
        (_set("players", ["ann", 2]), "non-empty"),
        (_set("players", [f"p{i}" for i in range(7)]), '"players"'),
        (_without("players"), '"players"'),
        (_set("deck", example()["deck"][:79]), "79 cards"),
        (_set("deck", ["r3", *example()["deck"][1:]]), 'deck[0] "r3" is not a card'),
        (_set("deck", ["R03", *example()["deck"][1:]]), 'deck[0] "R03"'),
        (_set("deck", ["B1", *example()["deck"][1:]]), "B1 2 times instead of once"),
        (_set("deck", ["Flip", *example()["deck"][1:]]), "Flip 5 times instead of 4 times"),
        (_without("deck"), '"deck"'),
        (_set("first", "zed"), '"first"'),
        (_without("first"), '"first"'),
        (_set("direction", "left"), '"direction"'),
        (_without("direction"), '"direction"'),
        (_set("turns", {"player": "ann"}), '"turns"'),
    ],
)
def test_a_record_wrong_outside_its_turns_has_no_turn(record: object, words: str) -> None:
    turn, message = error(record)
    assert turn is None and words in message


def test_a_deal_that_leaves_only_special_cards_is_wrong() -> None:
    record = example()
    record["players"] = list(NAMES)
    record["first"] = "ann"
    record["turns"] = []
    record["deck"] = SIX_PLAYER_NUMBERS_DEALT
    turn, message = error(record)
    assert turn is None and "only special cards" in message


def test_not_json_is_an_error_without_a_turn() -> None:
    assert check_text("{") == {
        "ok": False,
        "turn": None,
        "error": "The record is not valid JSON (line 1, column 2: Expecting property name "
        "enclosed in double quotes).",
    }
    assert check_text(EXAMPLE)["ok"] is True


# ------------------------------------------------------------------------ wrong turns


def _turn(index: int, entry: object) -> dict[str, Any]:
    record = example()
    record["turns"][index - 1] = entry
    return record


@pytest.mark.parametrize(
    ("record", "turn", "words"),
    [
        # the wrong player, or no player
        (_turn(4, {"player": "ben", "play": ["B1"]}), 4, "It is ann's turn, not ben's."),
        (_turn(4, {"player": "zed", "play": ["R6"]}), 4, "not one of the players"),
        (_turn(4, "R6 R7"), 4, "must be an object"),
        # a kind of turn the rules do not allow there
        (_turn(3, {"player": "ben", "play": ["B1"]}), 3, "Crash penalty is on ben"),
        (_turn(3, {"player": "ben", "block": True}), 3, "ben holds no Crash to block with."),
        (_turn(4, {"player": "ann", "take": True}), 4, "no Crash penalty on ann"),
        (_turn(4, {"player": "ann", "draw": "keep"}), 4, "ann has a legal play"),
        (_turn(4, {"player": "ann", "pass": True}), 4, "ann has a legal play"),
        (_turn(5, {"player": "ben", "pass": True}), 5, "holds no draw pass"),
        (_turn(4, {"player": "ann", "play": ["R6"], "take": True}), 4, "exactly one of"),
        (_turn(4, {"player": "ann"}), 4, "exactly one of"),
        (_turn(3, {"player": "ben", "take": "yes"}), 3, '"take" must be true'),
        (_turn(5, {"player": "ben", "draw": "maybe"}), 5, '"draw" must be'),
        (_turn(4, {"player": "ann", "play": ["R6"], "note": 1}), 4, "no 'note'"),
        (_turn(3, {"player": "ben", "take": True, "bonus": "skip"}), 3, "no 'bonus'"),
        # a card not held or not legal
        (
            _turn(1, {"player": "ann", "play": ["R3", "R4", "R9"], "bonus": "skip"}),
            1,
            "ann holds no R9.",
        ),
        (_turn(4, {"player": "ann", "play": ["Y8"]}), 4, "Y8 is not legal on Red 5 going up"),
        (_turn(1, {"player": "ann", "play": ["R3", "R5"]}), 1, "comes R4, not R5"),
        (_turn(1, {"player": "ann", "play": ["r3"]}), 1, '"r3" is not a card'),
        (_turn(1, {"player": "ann", "play": []}), 1, '"play" must list'),
        (_turn(1, {"player": "ann", "play": ["R3", "Crash"]}), 1, "played alone"),
        # a missing, extra or wrong choice
        (_turn(1, {"player": "ann", "play": ["R3", "R4", "R5"]}), 1, 'add "bonus"'),
        (
            _turn(1, {"player": "ann", "play": ["R3", "R4", "R5"], "bonus": "double"}),
            1,
            '"bonus" must be',
        ),
        (_turn(4, {"player": "ann", "play": ["R6", "R7"], "bonus": "pass"}), 4, 'earns no "bonus"'),
        (
            _turn(8, {"player": "ann", "play": ["Y8", "Y9", "Y10"], "bonus": "skip"}),
            8,
            "empties the hand",
        ),
        (_turn(6, {"player": "ann", "play": ["Switch"]}), 6, 'needs "colour"'),
        (_turn(6, {"player": "ann", "play": ["Switch"], "colour": "R"}), 6, "already Red"),
        (
            _turn(6, {"player": "ann", "play": ["Switch"], "colour": "Yellow"}),
            6,
            '"colour" must be',
        ),
        (_turn(4, {"player": "ann", "play": ["R6", "R7"], "colour": "B"}), 4, 'takes no "colour"'),
        (
            _turn(5, {"player": "ben", "draw": "play", "colour": "B"}),
            5,
            'The drawn R12 takes no "colour"',
        ),
        (_turn(5, {"player": "ben", "draw": "keep", "colour": "B"}), 5, 'takes no "colour"'),
        # a wrong chance outcome
        (_turn(3, {"player": "ben", "take": True, "reshuffle": ["R1"]}), 3, 'no "reshuffle"'),
        (_turn(5, {"player": "ben", "draw": "play", "reshuffle": ["R1"]}), 5, 'no "reshuffle"'),
        # a play by a stuck player
        (
            _turn(5, {"player": "ben", "play": ["B1"]}),
            5,
            "ben has no legal play, so the turn is a draw.",
        ),
    ],
)
def test_a_wrong_turn_is_reported_at_its_position(record: object, turn: int, words: str) -> None:
    got_turn, message = error(record)
    assert got_turn == turn and words in message, message


def test_a_turn_after_the_game_ended_is_wrong() -> None:
    record = example()
    record["turns"].append({"player": "ben", "draw": "keep"})
    assert error(record) == (9, "The game ended at turn 8; no turn may follow it.")


# ------------------------------------------------------------------------ random games


def play_random(seed: int, n: int, limit: int = 500, stop: int | None = None) -> StackUpState:
    """A random game, stopped after ``stop`` turns if given (at a turn's start)."""
    rng = random.Random(seed)
    state = StackUpState(NAMES[:n], StackUpSettings(turn_limit=limit))
    while not state.is_over and (stop is None or state.turns_taken < stop or state.phase != "turn"):
        if state.decision is Decision.CHANCE:
            state.apply(state.sample_chance(rng))
        else:
            legal = state.legal_moves()
            state.apply(legal[rng.randrange(len(legal))])
    return state


@settings(max_examples=60, deadline=None)
@given(
    st.integers(0, 2**32 - 1),
    st.integers(2, 6),
    st.sampled_from([3, 40, 500]),
    st.none() | st.integers(0, 80),
)
def test_export_check_replay_gives_the_played_game(
    seed: int, n: int, limit: int, stop: int | None
) -> None:
    state = play_random(seed, n, limit, stop)
    record = json.loads(json.dumps(export_record(state)))
    result = check(record)
    assert result["ok"] is True, result
    assert result["turns"] == state.turns_taken and result["finished"] == state.is_over
    assert result["hands"] == {state.name(s): state.to_dict()["hands"][s] for s in range(n)}
    assert replay(record) == state


def _records_with(feature: str) -> dict[str, Any]:
    """A random game's record whose turns include ``feature`` ("reshuffle" or "took")."""
    for seed in range(2000):
        record = export_record(play_random(seed, 2 + seed % 5))
        for entry in record["turns"]:
            if feature in entry:
                return record
    raise AssertionError(f"no random game with {feature}")


def _first_index(record: dict[str, Any], feature: str) -> int:
    return next(i for i, e in enumerate(record["turns"]) if feature in e)


def test_reshuffle_must_be_the_cards_below_the_stacks_number_card() -> None:
    record = _records_with("reshuffle")
    i = _first_index(record, "reshuffle")
    wrong = copy.deepcopy(record)
    wrong["turns"][i]["reshuffle"] = wrong["turns"][i]["reshuffle"][1:]
    turn, message = error(wrong)
    assert turn == i + 1 and '"reshuffle" must hold exactly' in message
    missing = copy.deepcopy(record)
    del missing["turns"][i]["reshuffle"]
    turn, message = error(missing)
    assert turn == i + 1 and 'needs "reshuffle"' in message
    extra = copy.deepcopy(record)
    j = next(k for k, e in enumerate(extra["turns"]) if "take" in e and "reshuffle" not in e)
    extra["turns"][j]["reshuffle"] = ["R1"]
    assert error(extra)[0] == j + 1


def test_took_must_be_cards_of_the_targets_hand() -> None:
    record = _records_with("took")
    i = _first_index(record, "took")
    entry = record["turns"][i]
    state = replay(dict(record, turns=record["turns"][:i]))
    target = state.players.index(entry["target"])
    not_held = next(
        name
        for name in (f"{c}{k}" for c in "RBYG" for k in range(1, 16))
        if name not in state.to_dict()["hands"][target]
    )
    wrong = copy.deepcopy(record)
    wrong["turns"][i]["took"] = [not_held] * entry["count"]
    turn, message = error(wrong)
    assert turn == i + 1 and '"took" must be' in message
    short = copy.deepcopy(record)
    short["turns"][i]["took"] = entry["took"] + entry["took"][:1]
    assert error(short)[0] == i + 1
    missing = copy.deepcopy(record)
    del missing["turns"][i]["took"]
    assert error(missing)[0] == i + 1
    in_any_order = copy.deepcopy(record)
    in_any_order["turns"][i]["took"].reverse()
    assert check(in_any_order)["ok"] is True


def test_snatch_target_and_count_are_checked() -> None:
    record = _records_with("took")
    i = _first_index(record, "took")
    snatcher = record["turns"][i]["player"]
    for change, words in (
        ({"target": snatcher}, "not from"),
        ({"target": "zed"}, '"target" must be one of the players'),
        ({"count": 4}, "a Snatch takes"),
        ({"count": "1"}, '"count" must be'),
    ):
        wrong = copy.deepcopy(record)
        wrong["turns"][i].update(change)
        turn, message = error(wrong)
        assert turn == i + 1 and words in message, message


def test_wrong_rules_are_reported_in_one_sentence() -> None:
    assert error(_set("rules", {"turn_limit": 0})) == (
        None,
        "The record's rules are wrong: 'turn_limit' must be a whole number of at least 1, not 0.",
    )


def test_took_errors_count_the_cards_in_words() -> None:
    record = _records_with("took")
    i = _first_index(record, "took")
    count = record["turns"][i]["count"]
    cards = "1 card" if count == 1 else f"{count} cards"
    not_a_list = copy.deepcopy(record)
    not_a_list["turns"][i]["took"] = "G1"
    short = copy.deepcopy(record)
    short["turns"][i]["took"] = record["turns"][i]["took"] + record["turns"][i]["took"][:1]
    state = replay(dict(record, turns=record["turns"][:i]))
    held = state.to_dict()["hands"][state.players.index(record["turns"][i]["target"])]
    not_held = next(f"G{k}" for k in range(1, 16) if f"G{k}" not in held)
    wrong = copy.deepcopy(record)
    wrong["turns"][i]["took"] = [not_held] * count
    for changed, words in (
        (not_a_list, f'The Snatch needs "took": the {cards} that came from'),
        (short, f'"took" must list the {cards} the Snatch took, not {count + 1}.'),
        (wrong, f'"took" must be {cards} of'),
    ):
        message = error(changed)[1]
        assert message.startswith(words) and "(s)" not in message, message


@pytest.mark.parametrize(
    ("record", "turn", "words"),
    [
        (_turn(3, {"player": "ben", "take": 1}), 3, '"take" must be true, not 1.'),
        (_turn(3, {"player": "ben", "take": None}), 3, '"take" must be true, not null.'),
        (
            _turn(5, {"player": "ben", "draw": True}),
            5,
            '"draw" must be "keep" or "play", not true.',
        ),
        (
            _turn(1, {"player": "ann", "play": ["R3", "R4", "R5"], "bonus": ["skip"]}),
            1,
            '"bonus" must be "pass" or "skip", not ["skip"].',
        ),
        (
            _turn(6, {"player": "ann", "play": ["Switch"], "colour": "Yellow"}),
            6,
            '"colour" must be "R", "B", "Y" or "G", not "Yellow".',
        ),
        (_turn(4, {"player": False, "play": ["R6"]}), 4, 'The turn\'s "player" false is not'),
        (_turn(1, {"player": "ann", "play": [True]}), 1, "true is not a card"),
        (_set("first", None), None, '"first" must be one of the players, not null.'),
        (_set("direction", ["up"]), None, '"direction" must be "up" or "down", not ["up"].'),
        (_set("deck", [7, *example()["deck"][1:]]), None, "deck[0] 7 is not a card"),
        (_set("rules", {"turn_limit": True}), None, "at least 1, not true."),
    ],
)
def test_a_wrong_value_is_shown_as_json_writes_it(
    record: object, turn: int | None, words: str
) -> None:
    """A record is JSON: its wrong value is shown as JSON writes it (true, null,
    ["up"]), not as Python does (True, None, ['up'])."""
    got_turn, message = error(record)
    assert got_turn == turn and words in message, message


def test_a_snatch_count_wrong_in_json_is_shown_as_json_writes_it() -> None:
    record = _records_with("took")
    i = _first_index(record, "took")
    for count, shown in ((True, "true"), (2.0, "2.0"), (float("inf"), "Infinity (a number")):
        wrong = copy.deepcopy(record)
        wrong["turns"][i]["count"] = count
        turn, message = error(wrong)
        assert turn == i + 1 and f'"count" must be 1, 2 or 3, not {shown}' in message, message


def test_json_python_cannot_read_is_an_error_not_a_traceback() -> None:
    deep = check_text("[" * 100_000 + "]" * 100_000)
    assert deep == {
        "ok": False,
        "turn": None,
        "error": "The record nests its lists or objects too deeply to be a record.",
    }
    long = check_text("[" + "9" * 5000 + "]")
    assert long["ok"] is False and long["turn"] is None
    assert long["error"].startswith("The record holds a number too long to read (over ")
