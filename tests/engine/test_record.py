"""Game records: export, replay, and `python -m engine.record check` (the record page)."""

from __future__ import annotations

import copy
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from engine.record import check_file, main
from engine.stack.record import check, export_record, replay

SPEC_EXAMPLE: dict[str, Any] = {
    "format": "stack-record/1",
    "rules": {"dice_per_player": 3},
    "players": ["alice", "bob", "carol"],
    "rounds": [
        {
            "first": "alice",
            "dice": {"alice": [3, 1, 6], "bob": [3, 5, 2], "carol": [6, 6, 4]},
            "turns": [
                {"player": "alice", "stack": 3, "on": "bob", "height": 1},
                {"player": "bob", "reroll": 5, "rolled": 6, "on": "carol", "height": 1},
                {"player": "carol", "reroll": 4, "rolled": 5},
                {"player": "alice", "stack": 6, "on": "carol", "height": 1},
                {"player": "bob", "reroll": 2, "rolled": 6, "on": "alice", "height": 2},
                {"player": "carol", "reroll": 5, "rolled": 6, "on": "bob", "height": 3},
                {"player": "alice", "reroll": 1, "rolled": 3},
            ],
        }
    ],
}


def example() -> dict[str, Any]:
    return copy.deepcopy(SPEC_EXAMPLE)


def two_round_game() -> dict[str, Any]:
    """Two players, one die each, target 5: alice 3 in round 1, then bob wins with 6."""
    return {
        "format": "stack-record/1",
        "rules": {"dice_per_player": 1, "target_score": 5},
        "players": ["alice", "bob"],
        "rounds": [
            {
                "first": "alice",
                "dice": {"alice": [3], "bob": [3]},
                "turns": [{"player": "alice", "stack": 3, "on": "bob", "height": 1}],
            },
            {
                "dice": {"alice": [6], "bob": [6]},
                "turns": [{"player": "bob", "stack": 6, "on": "alice", "height": 1}],
            },
        ],
    }


def test_spec_example_checks_exactly_as_the_record_page_shows() -> None:
    assert check(example()) == {
        "ok": True,
        "rounds": [{"scores": {"alice": 3, "bob": 6, "carol": 6}, "complete": True}],
        "totals": {"alice": 3, "bob": 6, "carol": 6},
        "finished": False,
        "winner": None,
    }


def test_finished_game_reports_the_winner() -> None:
    result = check(two_round_game())
    assert result["finished"] is True and result["winner"] == ["bob"]
    assert result["totals"] == {"alice": 3, "bob": 6}


def test_game_in_progress_has_an_incomplete_last_round() -> None:
    rec = example()
    rec["rounds"][0]["turns"] = rec["rounds"][0]["turns"][:3]
    result = check(rec)
    assert result["ok"] and result["rounds"] == [{"scores": None, "complete": False}]
    assert result["totals"] == {"alice": 0, "bob": 0, "carol": 0}


def test_export_then_replay_reproduces_the_game() -> None:
    state = replay(example())
    assert export_record(state)["rounds"][0]["turns"] == SPEC_EXAMPLE["rounds"][0]["turns"]
    again = replay(export_record(state))
    assert again.to_dict() == state.to_dict()


def error_of(rec: object) -> tuple[int | None, int | None, str]:
    result = check(rec)
    assert result["ok"] is False, result
    assert set(result) == {"ok", "round", "turn", "error"}
    return result["round"], result["turn"], result["error"]


# -- the record as a whole: round null


@pytest.mark.parametrize(
    ("change", "words"),
    [
        (lambda r: r.update(format="stack-record/2"), "format"),
        (lambda r: r.pop("format"), "format"),
        (lambda r: r["rules"].update(colour="red"), "unknown key 'colour'"),
        (lambda r: r["rules"].update(dice_per_player=31), "dice_per_player"),
        (lambda r: r["rules"].update(target_score=0), "target_score"),
        (lambda r: r["rules"].update(four_high_bonus=1), "four_high_bonus"),
        (lambda r: r["rules"].update(tie_break="coin"), "tie_break"),
        (lambda r: r.update(players=["alice"]), "2 to 8"),
        (lambda r: r.update(players=["alice", "alice", "bob"]), "distinct"),
        (lambda r: r.update(players=["alice", "", "bob"]), "non-empty"),
        (lambda r: r["rules"].update(teams=[["alice", "bob"]]), "team"),
        (lambda r: r.update(rounds={}), "rounds"),
        (lambda r: r.update(extra=1), "unknown key 'extra'"),
    ],
)
def test_whole_record_errors_have_round_null(change: Any, words: str) -> None:
    rec = example()
    change(rec)
    rnd, turn, error = error_of(rec)
    assert (rnd, turn) == (None, None)
    assert words in error


def test_teammates_side_by_side_are_refused() -> None:
    rec = example()
    rec["players"] = ["a", "b", "c", "d"]
    rec["rules"] = {"teams": [["a", "b"], ["c", "d"]]}
    rec["rounds"] = []
    assert error_of(rec)[:2] == (None, None)
    rec["rules"] = {"teams": [["a", "c"], ["b", "d"]]}
    assert check(rec)["ok"] is True


def test_not_an_object_is_refused() -> None:
    assert error_of([1, 2])[:2] == (None, None)


# -- a round that is wrong: turn null


def test_round_one_must_name_its_first_player() -> None:
    rec = example()
    del rec["rounds"][0]["first"]
    assert error_of(rec)[:2] == (1, None)
    rec["rounds"][0]["first"] = "zed"
    assert error_of(rec)[:2] == (1, None)


def test_later_first_player_must_be_the_next_seat() -> None:
    rec = two_round_game()
    rec["rounds"][1]["first"] = "alice"
    rnd, turn, error = error_of(rec)
    assert (rnd, turn) == (2, None)
    assert "must start with bob" in error
    rec["rounds"][1]["first"] = "bob"
    assert check(rec)["ok"] is True


@pytest.mark.parametrize(
    "dice",
    [
        {"alice": [3, 1], "bob": [3, 5, 2], "carol": [6, 6, 4]},
        {"alice": [3, 1, 7], "bob": [3, 5, 2], "carol": [6, 6, 4]},
        {"alice": [3, 1, 6], "bob": [3, 5, 2]},
        {"alice": [3, 1, 6], "bob": [3, 5, 2], "carol": [6, 6, 4], "dave": [1, 1, 1]},
        {"alice": [3, 1, True], "bob": [3, 5, 2], "carol": [6, 6, 4]},
    ],
)
def test_round_dice_must_be_right(dice: dict[str, list[Any]]) -> None:
    rec = example()
    rec["rounds"][0]["dice"] = dice
    assert error_of(rec)[:2] == (1, None)


def test_a_round_that_is_not_the_last_must_be_finished() -> None:
    rec = example()
    rec["rounds"][0]["turns"].pop()
    rec["rounds"].append(
        {"dice": {"alice": [1, 1, 1], "bob": [1, 1, 1], "carol": [1, 1, 1]}, "turns": []}
    )
    rnd, turn, error = error_of(rec)
    assert (rnd, turn) == (1, None)
    assert "alice still has a turn" in error


def test_no_round_may_follow_the_end_of_the_game() -> None:
    rec = two_round_game()
    rec["rounds"].append({"dice": {"alice": [1], "bob": [1]}, "turns": []})
    rnd, turn, error = error_of(rec)
    assert (rnd, turn) == (3, None)
    assert "ended in round 2" in error


# -- a turn that is wrong


def test_turn_by_the_wrong_player() -> None:
    rec = example()
    rec["rounds"][0]["turns"][1]["player"] = "carol"
    assert error_of(rec) == (1, 2, "It is bob's turn, not carol's.")


def test_turn_with_a_die_the_player_does_not_have() -> None:
    rec = example()
    rec["rounds"][0]["turns"][1] = {"player": "bob", "stack": 4, "on": "carol", "height": 1}
    assert error_of(rec) == (1, 2, "bob has no unstacked die showing 4.")


def test_turn_onto_own_colour_or_a_missing_pile() -> None:
    rec = example()
    rec["rounds"][0]["turns"][0] = {"player": "alice", "stack": 6, "on": "alice", "height": 1}
    assert error_of(rec)[:2] == (1, 1)
    rec["rounds"][0]["turns"][0] = {"player": "alice", "stack": 3, "on": "bob", "height": 2}
    rnd, turn, error = error_of(rec)
    assert (rnd, turn) == (1, 1) and "bob has no 2-high pile of 3s" in error


def test_reroll_with_a_target_must_name_it() -> None:
    rec = example()
    del rec["rounds"][0]["turns"][1]["on"]
    rnd, turn, error = error_of(rec)
    assert (rnd, turn) == (1, 2) and "must go on a pile" in error


def test_reroll_without_a_target_must_not_name_one() -> None:
    rec = example()
    rec["rounds"][0]["turns"][2].update(on="alice", height=1)
    rnd, turn, error = error_of(rec)
    assert (rnd, turn) == (1, 3) and "must be absent" in error


def test_forced_reroll_must_name_the_only_target() -> None:
    rec = example()
    rec["rounds"][0]["turns"][4]["on"] = "carol"  # the only 6 target is alice's pile
    assert error_of(rec)[:2] == (1, 5)


@pytest.mark.parametrize(
    "turn",
    [
        {"player": "alice", "stack": 3, "reroll": 3},
        {"player": "alice"},
        {"player": "alice", "stack": 3, "on": "bob"},
        {"player": "alice", "stack": 3, "on": "bob", "height": 1, "note": "hi"},
        {"player": "alice", "reroll": 3},
        {"player": "alice", "reroll": 3, "rolled": 0},
        {"player": "alice", "stack": "3", "on": "bob", "height": 1},
        "stack 3 on bob",
    ],
)
def test_malformed_turns(turn: Any) -> None:
    rec = example()
    rec["rounds"][0]["turns"][0] = turn
    assert error_of(rec)[:2] == (1, 1)


def test_a_turn_after_the_round_ended() -> None:
    rec = example()
    rec["rounds"][0]["turns"].append({"player": "bob", "reroll": 2, "rolled": 2})
    rnd, turn, error = error_of(rec)
    assert (rnd, turn) == (1, 8) and "already over" in error


# -- the command line


def run_check(path: Path) -> tuple[int, str, str]:
    proc = subprocess.run(
        [sys.executable, "-m", "engine.record", "check", str(path)],
        capture_output=True,
        text=True,
        check=False,
    )
    return proc.returncode, proc.stdout, proc.stderr


def test_cli_prints_one_json_object_and_exits_0(tmp_path: Path) -> None:
    path = tmp_path / "game.json"
    path.write_text(json.dumps(SPEC_EXAMPLE))
    code, out, _ = run_check(path)
    assert code == 0
    assert json.loads(out) == check(example())
    assert out.count("\n") == 1


def test_cli_illegal_record_exits_1(tmp_path: Path) -> None:
    rec = example()
    rec["rounds"][0]["turns"][1]["player"] = "carol"
    path = tmp_path / "bad.json"
    path.write_text(json.dumps(rec))
    code, out, _ = run_check(path)
    assert code == 1
    assert json.loads(out) == {
        "ok": False,
        "round": 1,
        "turn": 2,
        "error": "It is bob's turn, not carol's.",
    }


def test_cli_not_json_or_missing_file(tmp_path: Path) -> None:
    path = tmp_path / "broken.json"
    path.write_text("{not json")
    result = check_file(str(path))
    assert (
        result["ok"] is False
        and result["round"] is None
        and "not valid JSON" in str(result["error"])
    )
    assert check_file(str(tmp_path / "absent.json"))["ok"] is False
    code, out, _ = run_check(path)
    assert code == 1 and json.loads(out)["ok"] is False


def test_cli_usage_error_exits_2(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["verify", "x"]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and "usage" in captured.err


@pytest.mark.parametrize(
    ("fmt", "said"),
    [
        ("stackup-record/2", 'The record\'s "format" is "stackup-record/2"; it must be one of '),
        ("Colorstack-Record/1", 'The record\'s "format" is "Colorstack-Record/1"; it must be '),
        (None, 'The record has no "format"; it must be one of "stack-record/1", '),
    ],
)
def test_another_games_record_with_a_wrong_format_is_told_its_format_names_no_game(
    tmp_path: Path, fmt: str | None, said: str
) -> None:
    record: dict[str, Any] = {"rules": {}, "players": ["ann", "ben"], "first": "ann"}
    record |= {"deck": [], "direction": "up", "turns": []}
    if fmt is not None:
        record["format"] = fmt
    path = tmp_path / "game.json"
    path.write_text(json.dumps(record))
    result = check_file(str(path))
    assert set(result) == {"ok", "round", "turn", "error"}  # Stack's shape, as before
    assert (result["ok"], result["round"], result["turn"]) == (False, None, None)
    assert str(result["error"]).startswith(said)
    assert "unknown key" not in str(result["error"])
    assert '"stackup-record/1" or "colorstack-record/1".' in str(result["error"])


def test_a_stack_record_with_a_wrong_format_is_told_as_stacks_checker_always_did(
    tmp_path: Path,
) -> None:
    for change in ({"format": "stack-record/2"}, {}):
        record = {k: v for k, v in example().items() if k != "format"} | change
        path = tmp_path / "game.json"
        path.write_text(json.dumps(record))
        assert check_file(str(path)) == check(record)
        assert check(record)["error"] == 'The record\'s "format" must be "stack-record/1".'


@pytest.mark.parametrize("argv", [["--help"], ["-h"], ["check", "--help"]])
def test_cli_help_is_said_on_stdout_and_exits_0(
    argv: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(argv) == 0
    captured = capsys.readouterr()
    assert captured.err == ""
    assert captured.out.startswith("usage: python -m engine.record check FILE\n")
    assert "exit 0" in captured.out and "exit 1" in captured.out


def _with_turn(change: dict[str, Any], index: int = 0) -> dict[str, Any]:
    record = example()
    record["rounds"][0]["turns"][index].update(change)
    return record


@pytest.mark.parametrize(
    ("record", "words"),
    [
        (_with_turn({"stack": True}), "A die shows 1 to 6, not true."),
        (_with_turn({"stack": None}), "A die shows 1 to 6, not null."),
        (_with_turn({"stack": "3"}), 'A die shows 1 to 6, not "3".'),
        (_with_turn({"stack": [3]}), "A die shows 1 to 6, not [3]."),
        (_with_turn({"stack": 10**20}), "A die shows 1 to 6, not 100000000000000000000."),
        (_with_turn({"height": False}), '"height" must be 1, 2 or 3, not false.'),
        (_with_turn({"rolled": {"a": 1}}, 1), 'A reroll needs "rolled": 1 to 6, not {"a": 1}.'),
        (_with_turn({"player": None}), "The player null is not one of the players."),
        (_with_turn({"on": ["bob"]}), 'The pile owner ["bob"] is not one of the players.'),
    ],
)
def test_a_wrong_value_is_shown_as_json_writes_it(record: dict[str, Any], words: str) -> None:
    """A record is JSON: its wrong value is shown as JSON writes it (true, null, [3]), not
    as Python does (True, None)."""
    assert error_of(record)[2] == words


def test_a_number_too_big_for_json_is_said_to_be_out_of_range(tmp_path: Path) -> None:
    """``1e400`` is read as infinity: the error says the number is out of range (it said
    "not inf"), in the checker's usual shape."""
    path = tmp_path / "huge.json"
    path.write_text(json.dumps(example()).replace('"stack": 3', '"stack": 1e400', 1))
    assert check_file(str(path)) == {
        "ok": False,
        "round": 1,
        "turn": 1,
        "error": "A die shows 1 to 6, not Infinity (a number out of range).",
    }


@pytest.mark.parametrize(
    ("text", "words"),
    [
        (
            '{"format": "stack-record/1", "rules": {"dice_per_player": ' + "9" * 5000 + "}}",
            "number too long",
        ),
        ("[" * 100_000 + "]" * 100_000, "too deeply"),
    ],
    ids=["a 5000-digit number", "lists 100000 deep"],
)
def test_json_python_cannot_read_is_a_whole_record_error_not_a_traceback(
    tmp_path: Path, text: str, words: str
) -> None:
    path = tmp_path / "odd.json"
    path.write_text(text, encoding="utf-8")
    result = check_file(str(path))
    assert set(result) == {"ok", "round", "turn", "error"}
    assert result["ok"] is False and result["round"] is None and result["turn"] is None
    assert words in str(result["error"])
    assert main(["check", str(path)]) == 1


@pytest.mark.parametrize(
    ("fmt", "shown"),
    [
        ('"スタックアップ"', '"スタックアップ"'),
        ("1e400", "Infinity (a number out of range)"),
    ],
)
def test_a_format_that_names_no_game_is_shown_as_the_other_wrong_values_are(
    tmp_path: Path, fmt: str, shown: str
) -> None:
    """The format is written as every wrong value of a record is (engine.errors.as_json):
    as typed, not in \\u escapes, and a number out of range said to be so."""
    path = tmp_path / "game.json"
    path.write_text('{"format": ' + fmt + ', "deck": []}', encoding="utf-8")
    error = str(check_file(str(path))["error"])
    assert error.startswith(f'The record\'s "format" is {shown}; it must be one of '), error


_HUGE = "x" * 1_000_000


@pytest.mark.parametrize(
    ("record", "starts"),
    [
        (_with_turn({"player": _HUGE}), 'The player "xxxx'),
        ({"format": "stackup-record/1", "players": [_HUGE, _HUGE]}, 'The names in "players"'),
        (
            {
                "format": "colorstack-record/1",
                "players": ["a", "b"],
                "first": _HUGE,
                "colours": ["red", "blue"],
                "cards": [],
                "dice": {},
                "turns": [],
            },
            '"first" must name one of the players (a or b), not "xxxx',
        ),
    ],
    ids=["stack", "stackup", "colorstack"],
)
def test_a_huge_wrong_value_is_shown_cut_short_not_whole(
    tmp_path: Path, record: dict[str, Any], starts: str
) -> None:
    """The error is one sentence a person can act on: a wrong value of a million
    characters is quoted by its start and an ellipsis, not whole (the error was a
    megabyte long; a 50 MB record's was 50 MB)."""
    path = tmp_path / "huge.json"
    path.write_text(json.dumps(record), encoding="utf-8")
    error = str(check_file(str(path))["error"])
    assert error.startswith(starts), error[:200]
    assert "x…" in error and len(error) < 300, error[:400]


def test_a_record_saved_with_a_byte_order_mark_checks_as_without_it(tmp_path: Path) -> None:
    """JSON's RFC lets a reader ignore a UTF-8 byte order mark, and some editors (Windows
    Notepad) write one: the record is checked, not refused as "not valid JSON (Unexpected
    UTF-8 BOM (decode using utf-8-sig))"."""
    path = tmp_path / "game.json"
    path.write_bytes(b"\xef\xbb\xbf" + json.dumps(SPEC_EXAMPLE).encode())
    assert check_file(str(path)) == check(example())


def test_a_file_that_is_not_utf8_is_said_to_be_so_in_plain_words(tmp_path: Path) -> None:
    """Not Python's codec words ("'utf-8' codec can't decode byte 0xff in position 3:
    invalid start byte"): which byte, where, and what to do."""
    path = tmp_path / "latin1.json"
    path.write_bytes(b'{"p\xe9": 1}')
    assert check_file(str(path)) == {
        "ok": False,
        "round": None,
        "turn": None,
        "error": f"{path} is not UTF-8 text (byte 0xe9 at position 3): save it as UTF-8.",
    }


def test_a_wrong_byte_after_a_byte_order_mark_is_placed_where_it_is_in_the_file(
    tmp_path: Path,
) -> None:
    """The position counts the mark's three bytes, as a hex editor does (it said 3 for
    the byte at 6)."""
    path = tmp_path / "latin1.json"
    path.write_bytes(b'\xef\xbb\xbf{"p\xe9": 1}')
    assert check_file(str(path))["error"] == (
        f"{path} is not UTF-8 text (byte 0xe9 at position 6): save it as UTF-8."
    )


@pytest.mark.parametrize(
    ("rules", "words"),
    [
        ({"dice_per_player": 31}, "'dice_per_player' must be a whole number from 1 to 30, not 31"),
        ({"target_score": 40.0}, "'target_score' must be a whole number of at least 1, not 40.0"),
        ({"four_high_bonus": "false"}, "'four_high_bonus' must be true or false, not \"false\""),
        ({"tie_break": "coin"}, '\'tie_break\' must be "extra_round" or "shared", not "coin"'),
        ({"teams": "yes"}, "'teams' must be null or a list of two-player lists"),
        ({"teams": [["alice", "bob", "carol"]]}, "'teams' must be null or a list of two-player"),
    ],
    ids=["dice", "target", "bonus", "tie_break", "teams", "a team of three"],
)
def test_wrong_rules_are_told_in_the_records_words_not_pydantics(
    rules: dict[str, Any], words: str
) -> None:
    """As Stack Up!'s and Color Stack's checkers say them, and as the record page writes
    the keys: not "dice_per_player: Input should be less than or equal to 30" nor
    "teams: Input should be a valid tuple" (a record has no tuples)."""
    rec = example()
    rec["rules"] = rules
    result = check(rec)
    assert result["round"] is None and result["turn"] is None
    error = str(result["error"])
    assert error.startswith("The record's rules: " + words), error
    assert "Input should" not in error and "tuple" not in error
