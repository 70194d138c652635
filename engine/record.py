"""``python -m engine.record check FILE``: check a game record of any game.

The record's ``format`` names its game (``stack-record/1``, ``stackup-record/1``…); the
record goes to that game's checker, which prints exactly one JSON object on stdout as the
game's record page specifies (``docs/record-format.md`` for Stack,
``docs/stackup-record.md`` for Stack Up!): exit 0 for a legal record, 1 for an illegal or
malformed one (or a file that cannot be read as JSON), 2 for a wrong command line. A file
that is not JSON, or whose format no game knows, is answered in the shape of Stack's
checker: by Stack's checker itself (as it always did, byte for byte) unless the record
holds a key a Stack record never has (another game's record with its format mistyped),
which is told that its format names no game.
"""

from __future__ import annotations

import codecs
import json
import sys
from pathlib import Path

from engine import games
from engine.errors import RecordError, as_json, read_json
from engine.stack.record import FORMAT, TOP_KEYS, check, export_record, replay

__all__ = ["FORMAT", "RecordError", "check", "export_record", "main", "replay"]

USAGE = "usage: python -m engine.record check FILE"
HELP = f"""{USAGE}

Check a game record of Stack, Stack Up! or Color Stack: print one JSON object, the game's
outcome (exit 0) or the first thing wrong with it (exit 1), as the game's record page says."""


def check_file(path: str) -> dict[str, object]:
    """The checker's result for the record in the file at ``path``."""
    try:
        data = Path(path).read_bytes()
    except OSError as err:
        return _whole_error(f"Cannot read {path}: {err.strerror or err}.")
    try:
        # a byte order mark is let be; line ends read as a text file's (as errors count lines)
        text = data.decode("utf-8-sig").replace("\r\n", "\n").replace("\r", "\n")
    except UnicodeDecodeError as err:
        # the decoder counts from after a byte order mark: the file's position counts it
        at = err.start + (len(codecs.BOM_UTF8) if data.startswith(codecs.BOM_UTF8) else 0)
        return _whole_error(
            f"{path} is not UTF-8 text (byte 0x{data[at]:02x} at position {at}): save it as UTF-8."
        )
    try:
        record = read_json(text, path)
    except RecordError as err:
        return _whole_error(err.message)
    game = games.by_record_format(record.get("format")) if isinstance(record, dict) else None
    if game is not None:
        return game.check_record(record)
    if isinstance(record, dict) and not set(record) <= TOP_KEYS:
        # another game's record with a wrong format: Stack's checker would name a key
        return _whole_error(unknown_format(record.get("format")))
    return check(record)  # Stack's record, or nothing like a record: Stack's checker says why


def unknown_format(given: object) -> str:
    """Why a record whose ``format`` names no game is refused (``given``: that format)."""
    known = [f'"{game.record_format}"' for game in games.all_games()]
    choices = ", ".join(known[:-1]) + " or " + known[-1]
    if given is None:
        return f'The record has no "format"; it must be one of {choices}.'
    return f'The record\'s "format" is {as_json(given)}; it must be one of {choices}.'


def _whole_error(message: str) -> dict[str, object]:
    return {"ok": False, "round": None, "turn": None, "error": message}


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if args in (["-h"], ["--help"], ["check", "-h"], ["check", "--help"]):
        print(HELP)
        return 0
    if len(args) != 2 or args[0] != "check":
        print(USAGE, file=sys.stderr)
        return 2
    result = check_file(args[1])
    print(json.dumps(result))
    return 0 if result["ok"] else 1


if __name__ == "__main__":
    sys.exit(main())
