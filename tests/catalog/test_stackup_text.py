"""Stack Up!'s table as text and its rules from the catalog (``catalog.stackup``): in
English they are the engine's (:mod:`engine.stackup.render`) byte for byte, for every seat
and a spectator at every step of random games; in Japanese no English is left but names,
cards and typed commands."""

from __future__ import annotations

import random
import re

import pytest

import catalog
from catalog import games
from catalog.stackup import WORDS
from engine.game import Decision
from engine.stackup import render
from engine.stackup.rules import StackUpSettings
from engine.stackup.state import StackUpState

NAMES = ("ann", "ben", "cat", "dan", "eve", "fay")
# what a Japanese table may keep in Latin letters: names, cards, the commands as typed
ALLOWED = re.compile(
    r"(?<![A-Za-z])(?:[RBYG]\d{0,2}|AI|ann|ben|cat|dan|eve|fay|bob"
    r"|skip|pass|flip|freeze|crash|switch|blue|red|snatch|block|take|play|keep|up|down|r\d+)"
    r"(?![A-Za-z])"
)


def _japanese(text: str) -> bool:
    return re.search(r"[A-Za-z]{2,}", ALLOWED.sub("", text)) is None


def _check(state: StackUpState) -> None:
    for viewer in (None, *range(state.n)):
        english = render.render_text(state, viewer)
        assert WORDS.render_text(state, viewer) == english
        with catalog.speaking("ja"):
            said = WORDS.render_text(state, viewer)
        assert _japanese(said), said
    with catalog.speaking("ja"):
        assert _japanese(WORDS.end_words(state)), WORDS.end_words(state)


@pytest.mark.parametrize("seed", range(30))
def test_the_table_is_the_engines_in_english_and_japanese_in_japanese(seed: int) -> None:
    rng = random.Random(seed)
    seats = 2 + seed % 5
    state = StackUpState(NAMES[:seats], StackUpSettings(turn_limit=20 + seed * 9))
    _check(state)
    while not state.is_over:
        if state.decision is Decision.CHANCE:
            state.apply(state.sample_chance(rng))
        else:
            state.apply(rng.choice(state.legal_moves()))
        _check(state)
    assert WORDS.end_words(state) == render.status_line(state)


def test_the_rules_are_the_engines_in_english_and_japanese_in_japanese() -> None:
    assert WORDS.rules_text() == render.rules_text()
    assert games.words("stackup").rules_text() == render.rules_text()
    with catalog.speaking("ja"):
        said = WORDS.rules_text()
    assert said != render.rules_text()
    assert _japanese(said), said


def test_every_game_has_its_table_rules_and_end_in_words() -> None:
    from engine import games as engine_games

    for name in engine_games.names():
        said = games.words(name)
        assert callable(said.render_text)
        assert isinstance(said.rules_text(), str)
