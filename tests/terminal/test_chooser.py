"""At the terminal, a typed move that reads as several moves is answered with the game's
question (the engine's error, in the terminal's language): the terminal words what the
host returns (:class:`host.live.Chooser`), as the host once did for it, and plays
nothing."""

from __future__ import annotations

import random

import pytest

import catalog
import catalog.games
from engine.errors import AmbiguousMoveError
from engine.stackup.notation import parse_move
from terminal.hosting import HostedTable
from tests.engine.stackup.situations import table


@pytest.mark.parametrize("language", catalog.LANGUAGES)
def test_an_ambiguous_move_asks_which_in_the_terminals_language(language: str) -> None:
    hosted = HostedTable("stackup")
    try:
        with catalog.speaking(language):
            hosted.open(["al", "bo"], [], {}, random.Random(1))
            live = hosted.live
            assert live is not None and live.state is not None
            names = tuple(live.state.players)
            state = table("R6 Snatch", "R1 R2 R3 B4", players=names)
            live.state = state  # (in memory: a question plays nothing)
            version = live.version
            with pytest.raises(AmbiguousMoveError) as caught:
                parse_move(state, "snatch", 0)
            question = hosted.move(names[0], "snatch")
            expected = catalog.games.words("stackup").error_text(caught.value)
        assert question == expected
        assert live.state is state and live.version == version
        if language == "ja":
            assert "スナッチ" in question, question
        else:
            assert question.startswith("Snatch from whom, and how many"), question
    finally:
        hosted.close()
