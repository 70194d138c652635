"""``colorstack-record/1``: export, replay and the checker, exactly as
``colorstack-record.md`` specifies (its worked example verbatim, and each kind of error
it lists)."""

from __future__ import annotations

import copy
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from engine.colorstack.record import FORMAT, check, export_record, replay
from engine.colorstack.state import ColorStackState
from engine.errors import RecordError

from .situations import new_game, setf

# The record page's example, verbatim.
EXAMPLE = """{
  "format": "colorstack-record/1",
  "rules": {"board": "light"},
  "players": ["alice", "bob"],
  "first": "alice",
  "colours": ["red", "yellow"],
  "cards": ["C", "B", "C", "B", "E", "E"],
  "dice": {"a1": 3, "c1": 4, "d1": 6, "f1": 2, "g1": 5, "i1": 1,
           "a6": 2, "c6": 5, "d6": 4, "f6": 3, "g6": 2, "i6": 1},
  "turns": [
    {"player": "alice", "action": "c1-c5"},
    {"player": "bob", "action": "a6-c6"},
    {"player": "alice", "action": "set c5 1"},
    {"player": "bob", "action": "set i6 3"},
    {"player": "alice", "action": "c5-c6"},
    {"player": "bob", "action": "set g6 4"},
    {"player": "alice", "action": "d1-c6"}
  ]
}"""
# The checker's answer the page prints for it, verbatim.
EXAMPLE_RESULT = """{"ok": true, "turns": 7, "finished": true, "winner": ["alice"],
 "ended_by": "four_colours", "to_move": null,
 "board": [". . B5G2Y1R6 G4 # B3 G4 # B3",
           ". # . . . . . . .",
           ". . . . # . . # .",
           "# . . . . . # . .",
           ". . . . # . . . .",
           "R3 . . . . Y2 R5 . Y1"]}"""


def example() -> dict[str, Any]:
    data: dict[str, Any] = json.loads(EXAMPLE)
    return data


def error_of(record: object) -> tuple[int | None, str]:
    result = check(record)
    assert result["ok"] is False, result
    assert list(result) == ["ok", "turn", "error"]
    assert isinstance(result["error"], str) and "\n" not in result["error"]
    return result["turn"], result["error"]


def test_the_worked_example_checks_exactly_as_the_page_prints() -> None:
    result = check(example())
    assert result == json.loads(EXAMPLE_RESULT)
    assert list(result) == list(json.loads(EXAMPLE_RESULT))  # the keys in the page's order


def test_the_worked_examples_positions_along_the_way() -> None:
    data = example()
    data["turns"] = data["turns"][:2]
    result = check(data)
    assert result["finished"] is False and result["winner"] is None
    assert result["ended_by"] is None and result["to_move"] == "alice"
    assert result["board"][0] == ". . B5G2 G4 # B3 G2 # B1"  # c6: blue 5, green 2
    assert result["board"][1] == ". # Y4 . . . . . ."


def test_the_worked_examples_d6_is_not_on_any_path_to_c6() -> None:
    # the page: d1 to c6 in six steps, "but not through d6, which holds a die"
    data = example()
    data["turns"][6]["action"] = "d1-d6"
    turn, error = error_of(data)
    assert turn == 7 and "is illegal: no path of exactly 6 steps leads from d1 to d6." in error


def test_export_then_replay_is_the_same_game() -> None:
    state = replay(example())
    record = export_record(state, {"table": 3})
    assert record["info"] == {"table": 3}
    assert record["rules"] == {"board": "light", "turn_limit": 300}
    assert record["cards"] == example()["cards"] and record["dice"] == example()["dice"]
    assert record["turns"] == example()["turns"]
    assert replay(record) == state


def test_a_game_in_progress_and_a_draw() -> None:
    state = new_game()
    for action in (setf("a1", 6), setf("a6", 6), setf("a1", 3), setf("a6", 2)) * 2:
        state.apply(action)
    result = check(export_record(state))
    assert result["ok"] is True and result["finished"] is True
    assert result["winner"] is None and result["ended_by"] == "repetition"
    assert result["to_move"] is None and result["turns"] == 8


def test_a_resignation_wins_for_the_other_player_and_is_not_a_turn() -> None:
    data = example()
    data["turns"] = [data["turns"][0], {"player": "alice", "action": "resign"}]
    result = check(data)
    assert result["ok"] and result["winner"] == ["bob"] and result["ended_by"] == "resignation"
    assert result["turns"] == 1  # the resignation is an entry, not a turn


def test_either_player_may_resign_out_of_turn() -> None:
    data = example()
    data["turns"] = [{"player": "bob", "action": "resign"}]  # alice is to move
    assert check(data)["winner"] == ["alice"]


def test_the_turn_limit_in_the_rules() -> None:
    data = example()
    data["rules"] = {"turn_limit": 3}
    data["turns"] = data["turns"][:3]
    result = check(data)
    assert result["ended_by"] == "turn_limit" and result["winner"] is None


def test_absent_or_null_rules_take_every_default() -> None:
    rules: dict[str, Any] | None
    for rules in (None, {}):
        data = example()
        data["rules"] = rules
        assert check(data)["ok"] is True
    data = example()
    del data["rules"]
    assert check(data)["ok"] is True


def test_info_is_ignored() -> None:
    data = example()
    data["info"] = {"anything": [1, 2]}
    assert check(data) == json.loads(EXAMPLE_RESULT)


def test_the_order_of_players_carries_no_meaning() -> None:
    data = example()
    data["players"] = ["bob", "alice"]
    assert check(data) == json.loads(EXAMPLE_RESULT)


def test_a_heavy_record() -> None:
    state = new_game("heavy")
    record = export_record(state)
    assert sorted(record["dice"])[-1] == "i9" and len(record["cards"]) == 9
    assert check(record)["board"][0].split()[0] == "G2"


# ---------------------------------------------------------------------------- whole errors


def mutated(change: Any) -> dict[str, Any]:
    data = example()
    change(data)
    return data


WHOLE_ERRORS = {
    "not an object": ([], "JSON object"),
    "format": (mutated(lambda d: d.update(format="stack-record/1")), '"format" must be'),
    "unknown key": (mutated(lambda d: d.update(moves=[])), "Unknown key 'moves'"),
    "missing key": (mutated(lambda d: d.pop("dice")), "no 'dice'"),
    "rules not an object": (mutated(lambda d: d.update(rules=[])), '"rules" must be'),
    "unknown rule": (mutated(lambda d: d.update(rules={"colour": 1})), "unknown key 'colour'"),
    "board": (mutated(lambda d: d.update(rules={"board": "huge"})), "'board' must be"),
    "turn limit": (mutated(lambda d: d.update(rules={"turn_limit": 0})), "'turn_limit'"),
    "turn limit bool": (mutated(lambda d: d.update(rules={"turn_limit": True})), "'turn_limit'"),
    "one player": (mutated(lambda d: d.update(players=["alice"])), "exactly two"),
    "same players": (mutated(lambda d: d.update(players=["bob", "bob"])), "both called"),
    "empty name": (mutated(lambda d: d.update(players=["", "bob"])), "non-empty"),
    "first": (mutated(lambda d: d.update(first="carol")), '"first" must name'),
    "colours same": (mutated(lambda d: d.update(colours=["red", "red"])), '"colours"'),
    "colours unknown": (mutated(lambda d: d.update(colours=["red", "pink"])), '"colours"'),
    "cards count": (mutated(lambda d: d.update(cards=["C", "B", "C"])), "6 cards, not 3"),
    "card letter": (mutated(lambda d: d["cards"].__setitem__(1, "F")), '"F" is not a card'),
    "too many A": (
        mutated(lambda d: d.update(cards=["A", "A'", "A", "B", "E", "E"])),
        "only 2 cards of design A",
    ),
    "black start": (mutated(lambda d: d["cards"].__setitem__(0, "C'")), "c1 is black"),
    "dice key": (mutated(lambda d: d["dice"].pop("a1")), '"dice" must be'),
    "dice face": (mutated(lambda d: d["dice"].update(a1=7)), "a1 must show a face"),
    "turns": (mutated(lambda d: d.update(turns={})), '"turns" must be a list'),
}


@pytest.mark.parametrize("name", list(WHOLE_ERRORS))
def test_a_wrong_record_as_a_whole_has_no_turn(name: str) -> None:
    record, words = WHOLE_ERRORS[name]
    turn, error = error_of(record)
    assert turn is None
    assert words in error


# ---------------------------------------------------------------------------- entry errors


def with_turn(index: int, entry: object, keep: int | None = None) -> dict[str, Any]:
    data = example()
    turns = data["turns"][: index - 1 if keep is None else keep]
    turns.append(entry)
    data["turns"] = turns
    return data


ENTRY_ERRORS = {
    "no path": (with_turn(2, {"player": "bob", "action": "i6-i4"}), 2, "no path of exactly 1 step"),
    "not their piece": (with_turn(2, {"player": "bob", "action": "c5-c6"}), 2, "not bob's piece"),
    "same face": (with_turn(2, {"player": "bob", "action": "set i6 1"}), 2, "already shows 1"),
    "first-turn stack": (with_turn(1, {"player": "alice", "action": "f1-d1"}), 1, "first turn"),
    "wrong player": (with_turn(2, {"player": "alice", "action": "d1-d3"}), 2, "bob's turn"),
    "extra key": (with_turn(1, {"player": "alice", "action": "c1-c5", "x": 1}), 1, "exactly"),
    "not an object": (with_turn(1, "c1-c5"), 1, "exactly the keys"),
    "unknown player": (with_turn(1, {"player": "carol", "action": "c1-c5"}), 1, "not a player"),
    "en dash": (with_turn(1, {"player": "alice", "action": "c1–c5"}), 1, "not an action"),
    "upper case": (with_turn(1, {"player": "alice", "action": "C1-C5"}), 1, "not an action"),
    "double space": (with_turn(1, {"player": "alice", "action": "set  c1 4"}), 1, "not an"),
    "face 7": (with_turn(1, {"player": "alice", "action": "set c1 7"}), 1, "not an action"),
    "off board": (with_turn(1, {"player": "alice", "action": "c1-c7"}), 1, "a1 to i6"),
    "after the end": (
        mutated(lambda d: d["turns"].append({"player": "bob", "action": "resign"})),
        8,
        "follows the end",
    ),
}


@pytest.mark.parametrize("name", list(ENTRY_ERRORS))
def test_a_wrong_entry_is_pointed_at_by_its_number(name: str) -> None:
    record, turn, words = ENTRY_ERRORS[name]
    got_turn, error = error_of(record)
    assert got_turn == turn
    assert words in error


def test_an_illegal_stack_is_named_in_the_error() -> None:
    # alice's yellow 4 on c5 reaches f6 in four steps, but bob's blue 3 there is stronger
    data = with_turn(3, {"player": "alice", "action": "c5-f6"})
    turn, error = error_of(data)
    assert turn == 3
    assert error == (
        "Entry 3, alice's c5-f6, is illegal: alice's 4 cannot stack on a 3: a piece stacks "
        "only on one as strong or weaker."
    )


def test_a_resignation_counts_in_the_entry_numbers() -> None:
    data = example()
    data["turns"] = [
        data["turns"][0],
        {"player": "alice", "action": "resign"},
        {"player": "bob", "action": "a6-c6"},
    ]
    assert error_of(data)[0] == 3


def test_replay_raises_record_error_with_its_turn() -> None:
    with pytest.raises(RecordError) as err:
        replay(with_turn(2, {"player": "alice", "action": "d1-d3"}))
    assert err.value.turn == 2


def test_export_needs_a_set_up_game() -> None:
    with pytest.raises(ValueError, match="not set up"):
        export_record(ColorStackState(("a", "b")))


def test_the_command_line_checker(tmp_path: Path) -> None:
    good, bad = tmp_path / "good.json", tmp_path / "bad.json"
    good.write_text(EXAMPLE, encoding="utf-8")
    bad.write_text(json.dumps(with_turn(2, {"player": "alice", "action": "d1-d3"})))
    root = Path(__file__).resolve().parents[3]
    for path, code in ((good, 0), (bad, 1)):
        run = subprocess.run(
            [sys.executable, "-m", "engine.record", "check", str(path)],
            capture_output=True,
            text=True,
            cwd=root,
            check=False,
        )
        assert run.returncode == code
        result = json.loads(run.stdout)
        if code == 0:
            assert result == json.loads(EXAMPLE_RESULT)
        else:
            assert result["ok"] is False and result["turn"] == 2


def test_format_constant() -> None:
    assert FORMAT == "colorstack-record/1"
    assert copy.deepcopy(example())["format"] == FORMAT


JSON_VALUES = {
    "colours": (mutated(lambda d: d.update(colours=["red", "red"])), 'not ["red", "red"].'),
    "format": (
        mutated(lambda d: d.pop("format")),
        '"format" must be "colorstack-record/1", not null.',
    ),
    "first": (mutated(lambda d: d.update(first=True)), "(alice or bob), not true."),
    "same players": (
        mutated(lambda d: d.update(players=["bob", "bob"])),
        'The two players are both called "bob"; names must differ.',
    ),
    "dice face": (
        mutated(lambda d: d["dice"].update(a1=1e400)),
        "The die on a1 must show a face from 1 to 6, not Infinity (a number out of range).",
    ),
    "board": (mutated(lambda d: d.update(rules={"board": None})), "'board' must be"),
    "turn limit": (mutated(lambda d: d.update(rules={"turn_limit": True})), "1, not true."),
    "player": (with_turn(1, {"player": None, "action": "c1-c2"}), "Entry 1 names null, who is"),
    "action": (with_turn(1, {"player": "alice", "action": ["c1-c2"]}), 'not ["c1-c2"].'),
    "action text": (with_turn(1, {"player": "alice", "action": "C1-C2"}), 'Entry 1: "C1-C2" is'),
}


@pytest.mark.parametrize("name", list(JSON_VALUES))
def test_a_wrong_value_is_shown_as_json_writes_it(name: str) -> None:
    """A record is JSON: its wrong value is shown as JSON writes it (true, null,
    ["red", "red"]), not as Python does (True, None, ['red', 'red'])."""
    record, words = JSON_VALUES[name]
    message = error_of(record)[1]
    assert words in message, message
    assert "True" not in message and "None" not in message and "['" not in message


def nested(depth: int) -> list[Any]:
    value: list[Any] = []
    for _ in range(depth):
        value = [value]
    return value


def test_a_wrong_value_nested_too_deeply_to_write_is_said_so_not_a_traceback() -> None:
    """JSON's reader takes lists nested nearly as deep as Python goes; quoting such a
    value back (a "first" nested 985 deep, from a file, ended in a RecursionError
    traceback) says it is nested too deeply, in the checker's usual shape."""
    record = example()
    record["first"] = nested(100_000)
    result = check(record)
    assert result == {
        "ok": False,
        "turn": None,
        "error": '"first" must name one of the players (alice or bob), '
        "not a list nested too deeply to show.",
    }
