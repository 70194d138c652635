"""``python -m bot.loadtest --quick``: the real bot process, played by members through the
Discord stand-in (the gateway in, REST out), works end to end. No figure is checked: the
run is tiny and CI's machine is shared; the real figures are README's."""

from __future__ import annotations

import io
import json

import aiohttp
import pytest

from bot import loadtest
from bot.standin import multipart_boundary, read_multipart


def test_the_quick_load_test_plays_moves_through_the_real_bot_and_reports_its_figures(
    capsys: pytest.CaptureFixture[str],
) -> None:
    results = loadtest.main(["--quick"])
    out = capsys.readouterr().out.splitlines()
    assert len(results) == 1, out
    run = results[0]
    assert run["moves"] > 0, out
    assert run["interactions"] >= run["moves"]  # a tapped move is My turn, then the tap
    assert sum(run["by_game"].values()) == run["moves"]
    assert run["rest"] > 1 and run["bot_ms"] > 0, out
    assert out[-1].startswith("real path: "), out
    assert any(line.startswith("offered 4/s: ") for line in out), out


def test_members_spread_over_every_game_with_one_table_of_each_at_least() -> None:
    mix = loadtest.games_mix("stack=0.8,stackup=0.1,colorstack=0.1", 1000)
    assert len(mix) == 1000
    assert (mix.count("stack"), mix.count("stackup"), mix.count("colorstack")) == (800, 100, 100)
    assert sorted(set(loadtest.games_mix("stack=0.8,stackup=0.1,colorstack=0.1", 3))) == [
        "colorstack",
        "stack",
        "stackup",
    ]


async def test_the_stand_in_reads_a_multipart_body_as_discord_py_sends_it() -> None:
    """Its payload_json read, its files named (a plain name, and one only a ``filename*``
    can carry), whatever the parts' order."""
    form = aiohttp.FormData(quote_fields=False)
    form.add_field("payload_json", json.dumps({"content": "a\r\n--b", "n": 1}))
    form.add_field("files[0]", io.BytesIO(b"\x89PNG--\r\n\r\n"), filename="table.png")
    form.add_field("files[1]", io.BytesIO(b"x"), filename="卓.json")
    writer = form()
    out = io.BytesIO()

    class Sink:
        async def write(self, data: bytes) -> None:
            out.write(data)

    await writer.write(Sink())  # type: ignore[arg-type]
    boundary = multipart_boundary(writer.headers["Content-Type"])
    assert boundary is not None
    payload, files = read_multipart(out.getvalue(), boundary)
    assert payload == {"content": "a\r\n--b", "n": 1}
    assert files == ["table.png", "卓.json"]
