"""A page's typed move that reads as several moves is answered ``{"type": "choose"}``
with its question and a label per move in the page's language (the one its socket was
opened in, ``?lang=``), whatever language its table speaks: the answer goes to that page
alone. The host returns the moves (:class:`host.live.Chooser`); the web words them."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import orjson
import pytest

import catalog
import catalog.games
from engine.errors import AmbiguousMoveError
from engine.stackup.notation import parse_move
from tests.engine.stackup.situations import table
from tests.web.test_server import Site, _site, frame
from web.guard import SESSION_COOKIE


@pytest.fixture
async def site() -> AsyncIterator[Site]:
    demo, made = await _site()
    yield made
    await made.client.close()
    await demo.close()


@pytest.mark.parametrize("language", catalog.LANGUAGES)
async def test_a_chooser_is_worded_in_the_pages_language(site: Site, language: str) -> None:
    demo = await site.demo.open_table(1, "stackup")  # the demo's table speaks English
    live = demo.live
    names = tuple(live.state.players)
    state = table("R6 Snatch", "R1 R2 R3 B4", "R9 B9", "Y9 G9", players=names)
    async with live.lock:
        live.state = state  # (in memory: a question plays nothing)
    version = live.version
    with pytest.raises(AmbiguousMoveError) as caught:
        parse_move(state, "snatch", 0)
    moves = [m for m in caught.value.candidates if state.is_legal(m)]
    token = site.sessions.issue(demo.player_at(0))
    headers = {"Origin": site.origin, "Cookie": f"{SESSION_COOKIE}={token}"}
    url = f"/tables/{live.id}/ws?lang={language}"
    async with site.client.ws_connect(url, headers=headers) as ws:
        await frame(ws)
        await ws.send_str(orjson.dumps({"type": "move", "text": "snatch"}).decode())
        answer: dict[str, Any] = await frame(ws)
    words = catalog.games.words("stackup")
    with catalog.speaking(language):
        question = words.error_text(caught.value)
        labels = [words.move_words(state, m) for m in moves]
    assert answer == {"type": "choose", "text": question, "choices": labels}
    assert len(labels) > 1 and live.version == version and live.state is state
    if language == "ja":
        assert "スナッチ" in question and all("スナッチ" in label for label in labels), answer
