"""A page's typed move that reads as several moves is answered ``{"type": "choose"}``
with its question and a label per move (worded as its move button is) in the page's
language (the one its socket was opened in, ``?lang=``), whatever language its table
speaks: the answer goes to that page alone. The host returns the moves
(:class:`host.live.Chooser`); the web words them."""

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


FIRST_CHOICE = {  # a typed move of several meanings: the first choice, in each language
    "r6 r7 r8": {
        "en": "Play red 6, red 7 and red 8 (bonus: a draw pass)",
        "ja": "赤の6、赤の7、赤の8を出す（ボーナス：ドローパス）",
    },
    "play": {
        "en": "Play the Switch you drew (to blue)",
        "ja": "引いたスイッチを出す（青に変える）",
    },
}


@pytest.mark.parametrize("typed", list(FIRST_CHOICE))
@pytest.mark.parametrize("language", catalog.LANGUAGES)
async def test_a_choosers_choices_read_as_the_move_buttons_do(
    site: Site, language: str, typed: str
) -> None:
    """The choices read in the words of the page's move buttons (:func:`web.views.label`:
    "Play red 6, red 7 and red 8 (bonus: a draw pass)", "Play the Switch you drew (to
    blue)"), not in the notation Discord's menu shares (``R6 R7 R8 + a draw pass``)."""
    from engine.stackup import moves
    from tests.engine.stackup.situations import play
    from tests.web.test_server import CARD
    from web.views import label

    demo = await site.demo.open_table(1, "stackup")
    live = demo.live
    names = tuple(live.state.players)
    if typed == "play":  # stuck, and drew a Switch
        state = table("B9 G2", "G1 G3", "Y1 Y2", "B1 B3", pile="Switch", players=names)
        play(state, moves.DRAW)
    else:  # three cards that keep cards: which bonus
        state = table("R6 R7 R8 B1 B2", "G1 G3", "Y1 Y2", "B3 B4", players=names)
    async with live.lock:
        live.state = state  # (in memory: a question plays nothing)
    with pytest.raises(AmbiguousMoveError) as caught:
        parse_move(state, typed, 0)
    token = site.sessions.issue(demo.player_at(0))
    headers = {"Origin": site.origin, "Cookie": f"{SESSION_COOKIE}={token}"}
    url = f"/tables/{live.id}/ws?lang={language}"
    async with site.client.ws_connect(url, headers=headers) as ws:
        await frame(ws)
        await ws.send_str(orjson.dumps({"type": "move", "text": typed}).decode())
        answer: dict[str, Any] = await frame(ws)
    with catalog.speaking(language):
        question = catalog.games.words("stackup").error_text(caught.value)
        buttons = [label(live.game, state, m, "stackup") for m in caught.value.candidates]
    assert answer == {"type": "choose", "text": question, "choices": buttons}
    assert len(buttons) > 1 and buttons[0] == FIRST_CHOICE[typed][language], buttons
    assert not any(CARD.search(b) for b in buttons), buttons
