"""``python -m engine.record check FILE``: check a Stack game record.

Prints exactly one JSON object on stdout, as ``shared/spec/record-format.md`` specifies:
exit 0 for a legal record, 1 for an illegal or malformed one (or a file that cannot be
read as JSON), 2 for a wrong command line.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from engine.stack.record import FORMAT, RecordError, check, export_record, replay

__all__ = ["FORMAT", "RecordError", "check", "export_record", "main", "replay"]

USAGE = "usage: python -m engine.record check FILE"


def check_file(path: str) -> dict[str, object]:
    """The checker's result for the record in the file at ``path``."""
    try:
        text = Path(path).read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as err:
        reason = err.strerror if isinstance(err, OSError) and err.strerror else str(err)
        return _whole_error(f"Cannot read {path}: {reason}.")
    try:
        record = json.loads(text)
    except json.JSONDecodeError as err:
        return _whole_error(
            f"{path} is not valid JSON (line {err.lineno}, column {err.colno}: {err.msg})."
        )
    return check(record)


def _whole_error(message: str) -> dict[str, object]:
    return {"ok": False, "round": None, "turn": None, "error": message}


def main(argv: list[str] | None = None) -> int:
    args = sys.argv[1:] if argv is None else argv
    if len(args) != 2 or args[0] != "check":
        print(USAGE, file=sys.stderr)
        return 2
    result = check_file(args[1])
    print(json.dumps(result))
    return 0 if result["ok"] else 1


if __name__ == "__main__":
    sys.exit(main())
