"""The **My hand** panel's decision tree (bot/games/stackup/panel.py), without Discord: a
combo built card by card, the bonus of a 3+-card play, Switch's colour, Snatch's target
and count, block or take, play or keep a drawn card, the first player's direction; every
legal decision reachable and nothing else; within Discord's limits of 5 rows of 5 buttons,
80-character labels and 100-character custom ids."""

from __future__ import annotations

import random
from types import SimpleNamespace
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import catalog
from bot.games.stackup.game import DISCORD_GAME
from bot.games.stackup.panel import (
    Choice,
    Node,
    card_code,
    cards_of_code,
    hand_words,
    leaves,
    move_code,
    move_of_code,
    node,
)
from bot.games.stackup.views import hand_panel
from bot.text import escape_name
from engine.game import Decision
from engine.stackup.cards import BLUE, GREEN, YELLOW
from engine.stackup.moves import (
    BLOCK,
    DOWN,
    DRAW,
    KEEP,
    TAKE,
    UP,
    USE_PASS,
    Play,
    PlayDrawn,
    PlayerMove,
)
from engine.stackup.state import StackUpState
from tests.engine.situations import decisions
from tests.engine.stackup.situations import ANN, BEN, CAT, NAMES, cards, table


def at(state: StackUpState, path: str) -> Node:
    step = node(state.legal_moves(), path, state.players, state.drawn)
    assert step is not None, path
    return step


def labels(step: Node) -> list[str]:
    return [choice.label for choice in step.choices]


def only(step: Node, label: str) -> Choice:
    [choice] = [c for c in step.choices if c.label == label]
    return choice


def play(text: str, bonus: str | None = None, **choices: Any) -> Play:
    return Play(tuple(cards(text)), bonus, **choices)


def test_a_combo_is_built_card_by_card_then_played() -> None:
    state = table("R6 R7 R8 B2 Y9 Flip", "B1 B3 B4 B5", stack="R5", up=True)
    root = at(state, "")
    # first cards: R6 (next number and red), R7 and R8 (red resets); Flip played at once
    assert labels(root) == ["Play Flip", "R6", "R7", "R8"]
    assert only(root, "Play Flip").move == play("Flip")
    first = at(state, only(root, "R6").path or "")
    assert labels(first) == ["Play R6", "Add R7"]
    assert only(first, "Play R6").move == play("R6")
    assert first.back == ""
    second = at(state, only(first, "Add R7").path or "")
    assert labels(second) == ["Play R6 R7", "Add R8"]
    assert second.back == only(root, "R6").path
    third = at(state, only(second, "Add R8").path or "")
    assert labels(third) == ["Play R6 R7 R8 + bonus…"]  # R9 is not in the hand
    bonus = at(state, only(third, "Play R6 R7 R8 + bonus…").path or "")
    assert {c.move for c in bonus.choices} == {play("R6 R7 R8", "pass"), play("R6 R7 R8", "skip")}
    assert labels(bonus) == ["Draw pass", "Skip the next player"]


def test_a_combo_going_down_steps_down() -> None:
    state = table("R9 R8 R7 G2", "B1 B3 B4 B5", stack="R10", up=False)
    step = at(state, "cR9")
    assert labels(step) == ["Play R9", "Add R8"]


def test_a_combo_that_empties_the_hand_earns_no_bonus_and_is_played_at_once() -> None:
    state = table("R6 R7 R8", "B1 B3 B4 B5", stack="R5", up=True)
    step = at(state, "cR6R7R8")
    assert [c.move for c in step.choices] == [play("R6 R7 R8")]


def test_a_two_card_combo_asks_no_bonus() -> None:
    state = table("R6 R7 B2 B9", "B1 B3 B4 B5", stack="R5", up=True)
    assert [c.move for c in at(state, "cR6R7").choices] == [play("R6 R7")]


def test_switch_asks_the_colour_never_the_stacks_own() -> None:
    state = table("Switch B2 B9", "B1 B3 B4 B5", stack="R5", up=True)
    root = at(state, "")
    assert only(root, "Switch…").path == "w"
    colours = at(state, "w")
    assert labels(colours) == ["Blue", "Yellow", "Green"]
    assert [c.move for c in colours.choices] == [
        play("Switch", colour=BLUE),
        play("Switch", colour=YELLOW),
        play("Switch", colour=GREEN),
    ]


def test_snatch_asks_the_player_then_the_count() -> None:
    # ben holds 5 (1 to 3 may be taken), cat 2 (exactly 1), dan 1 (not a target)
    state = table("Snatch B2 B9", "B1 B3 B4 B5 B6", "G1 G2", "G3", stack="R5")
    assert only(at(state, ""), "Snatch…").path == "s"
    targets = at(state, "s")
    assert labels(targets) == ["ben", "cat: take 1"]
    assert only(targets, "cat: take 1").move == play("Snatch", target=CAT, count=1)
    counts = at(state, only(targets, "ben").path or "")
    assert labels(counts) == ["1 card", "2 cards", "3 cards"]
    assert [c.move for c in counts.choices] == [
        play("Snatch", target=BEN, count=k) for k in (1, 2, 3)
    ]
    assert counts.back == "s"


def test_the_snatch_count_question_shows_the_targets_name_as_it_is() -> None:
    """The question is the panel's markdown: a name full of markdown and mentions shows
    as typed (escaped), never bold, spoilered or pinging; the buttons' labels are plain."""
    name = "**__@everyone__**`<@123>`||x||"
    players = ("ann", name, "cat", "dan")
    state = table("Snatch B2 B9", "B1 B3 B4 B5 B6", "G1 G2", "G3", stack="R5", players=players)
    targets = at(state, "s")
    [path] = [c.path for c in targets.choices if c.path]  # ben's: 1 to 3 cards
    counts = at(state, path)
    assert escape_name(name) in counts.question, counts.question
    assert name not in counts.question


def test_a_crash_penalty_asks_block_or_take() -> None:
    state = table("Crash B2", "B1 B3 B4 B5", stack="R5", crash=ANN)
    root = at(state, "")
    assert [c.move for c in root.choices] == [BLOCK, TAKE]
    assert "Crash" in root.question


def test_a_drawn_playable_card_asks_play_or_keep() -> None:
    state = table("B2 B9", "B1 B3 B4 B5", stack="R5", pile="R11 G7")
    state.apply(DRAW)  # ann is stuck and draws R11: red, so playable
    assert state.phase == "drawn"
    root = at(state, "")
    assert [c.move for c in root.choices] == [PlayDrawn(), KEEP]
    assert labels(root) == ["Play R11", "Keep R11"]
    assert "R11" in root.question


def test_a_drawn_switch_asks_its_colour() -> None:
    state = table("B2 B9", "B1 B3 B4 B5", stack="R5", pile="Switch G7")
    state.apply(DRAW)
    root = at(state, "")
    assert only(root, "Play Switch…").path == "dw"
    assert [c.move for c in at(state, "dw").choices] == [
        PlayDrawn(colour=k) for k in (BLUE, YELLOW, GREEN)
    ]


def test_the_first_player_chooses_up_or_down() -> None:
    state = StackUpState(NAMES[:3])
    state.apply(state.sample_chance(random.Random(3)))
    assert state.decision is Decision.TURN
    root = at(state, "")
    assert [c.move for c in root.choices] == [UP, DOWN]
    assert labels(root) == ["Up 1→15", "Down 15→1"]


def test_a_step_that_no_longer_exists_has_no_node() -> None:
    state = table("R6 R7 B2", "B1 B3 B4 B5", stack="R5", up=True)
    legal = state.legal_moves()
    for path in ("cB9", "cR6R8", "bR6R7", "w", "s", "dw", "x", "cXF", "c", "s9"):
        assert node(legal, path, state.players) is None, path


def test_the_hand_is_sorted_and_grouped_by_colour_then_specials() -> None:
    words = hand_words(cards("Crash G2 R9 Flip B1 R3 Crash"))
    assert words == "🟥 R3 R9 · 🟦 B1 · 🟩 G2 · 🔃 Flip · 💥 Crash ×2"


def test_card_codes_read_back() -> None:
    every = tuple(range(65))
    code = "".join(card_code(c) for c in every)
    assert cards_of_code(code) == every
    assert (
        cards_of_code("R0") is None and cards_of_code("Rg") is None and cards_of_code("R") is None
    )


def random_decisions(seed: int, players: int) -> list[StackUpState]:
    """Copies of the state at every decision of a random game."""
    rng = random.Random(seed)
    state = StackUpState(NAMES[:players])
    seen = []
    for _ in decisions(state, rng):
        seen.append(state.copy())
        state.apply(rng.choice(state.legal_moves()))
    return seen


@pytest.mark.parametrize("language", catalog.LANGUAGES)
@settings(max_examples=15, deadline=None)
@given(seed=st.integers(0, 10**6), players=st.integers(2, 6))
def test_every_legal_decision_and_nothing_else_is_reachable_within_discords_limits(
    language: str, seed: int, players: int
) -> None:
    with catalog.speaking(language):
        _every_decision_is_reachable(seed, players)


def _every_decision_is_reachable(seed: int, players: int) -> None:
    for state in random_decisions(seed, players):
        legal = state.legal_moves()
        assert leaves(legal, state.players, state.drawn) == set(legal)
        todo, seen = [""], set()
        while todo:
            path = todo.pop()
            if path in seen:
                continue
            seen.add(path)
            step = at(state, path)
            assert len(step.rows) + (step.back is not None) <= 5
            assert all(1 <= len(row) <= 5 for row in step.rows)
            for choice in step.choices:
                assert 1 <= len(choice.label) <= 80
                if choice.path is not None:
                    todo.append(choice.path)
                    assert len(choice.path) <= 31


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10**6), players=st.integers(2, 6))
def test_move_codes_read_back_exactly_and_fit_a_custom_id(seed: int, players: int) -> None:
    for state in random_decisions(seed, players):
        for move in state.legal_moves():
            code = move_code(move)
            assert len(code) <= 40 and move_of_code(code) == move
    for junk in ("", "p", "pR0", "d-P", "dR7", "p-cR", "upx", "pR7-t9", "pR7-cQ"):
        assert move_of_code(junk) is None, junk


@pytest.mark.parametrize("language", catalog.LANGUAGES)
@pytest.mark.parametrize("players", [2, 6])
def test_the_panel_message_fits_discord_at_any_step(language: str, players: int) -> None:
    """The whole panel (text and view) at each decision of random games, with the longest
    table id and version a custom id can carry, in every language."""
    with catalog.speaking(language):
        _panels_fit(players)


def _panels_fit(players: int) -> None:
    for state in random_decisions(players, players)[:120]:
        seat = state.current_player
        assert seat is not None
        live = SimpleNamespace(id=10**18, version=10**6, state=state)
        panel = hand_panel(live, seat)  # type: ignore[arg-type]
        assert len(panel.text) <= 2000
        assert panel.view is not None
        rows: dict[int, int] = {}
        for item in panel.view.children:
            assert len(item.custom_id) <= 100, item.custom_id  # type: ignore[attr-defined]
            rows[item.row or 0] = rows.get(item.row or 0, 0) + 1
        assert len(rows) <= 5 and all(n <= 5 for n in rows.values())
        # another seat sees its own hand and whom the table waits for, and no button
        other = (seat + 1) % players
        waiting = hand_panel(live, other)  # type: ignore[arg-type]
        assert waiting.view is None and "⏳" in waiting.text


def test_the_panel_shows_the_hand_and_the_question_to_the_seat_to_act() -> None:
    state = table("R6 R7 B2 Switch", "B1 B3 B4 B5", stack="R5", passes=[1, 0])
    live = SimpleNamespace(id=7, version=3, state=state)
    panel = hand_panel(live, ANN)  # type: ignore[arg-type]
    lines = panel.text.split("\n")
    assert lines[0] == "🃏 **Your hand** · 4 cards · 🎟️ 1 draw pass"
    assert lines[1] == "🟥 R6 R7 · 🟦 B2 · 🎨 Switch"
    assert lines[2].startswith("Stack: 🟥 **Red 5** · ⬆️ up (1→15) · draw pile")
    assert "pick the first card" in lines[3]
    ids = [item.custom_id for item in panel.view.children]  # type: ignore[union-attr]
    assert "stackup:7:3:s:w" in ids and "stackup:7:3:s:cR6" in ids
    waiting = hand_panel(live, BEN)  # type: ignore[arg-type]
    assert "B1 B3 B4 B5" in waiting.text and "R6" not in waiting.text
    assert "Waiting for **ann** to play." in waiting.text


@pytest.mark.parametrize(
    ("move", "label"),
    [
        (UP, "Up (1→15)"),
        (DOWN, "Down (15→1)"),
        (BLOCK, "Block with a Crash"),
        (TAKE, "Take 3 cards"),
        (KEEP, "Keep the card"),
        (USE_PASS, "Use a draw pass"),
        (DRAW, "Draw a card"),
    ],
)
def test_a_decision_without_cards_is_labelled_in_words(move: PlayerMove, label: str) -> None:
    assert DISCORD_GAME.move_label(StackUpState(["ann", "bob"]), move) == label


def test_the_panel_in_japanese() -> None:
    state = table("R6 R7 B2 Switch", "B1 B3 B4 B5", stack="R5", passes=[1, 0])
    live = SimpleNamespace(id=8, version=3, state=state)
    with catalog.speaking("ja"):
        panel = hand_panel(live, ANN)  # type: ignore[arg-type]
        waiting = hand_panel(live, BEN)  # type: ignore[arg-type]
        first = labels(at(state, ""))
        combo = at(state, "cR6")
        colours = labels(at(state, "w"))
    lines = panel.text.split("\n")
    assert lines[0] == "🃏 **あなたの手札** · 4枚 · 🎟️ ドローパス1枚"
    assert lines[1] == "🟥 R6 R7 · 🟦 B2 · 🎨 スイッチ"
    assert lines[2].startswith("場：🟥 **赤5** · ⬆️ 上り（1→15） · 山札")
    assert lines[3].startswith("あなたの番です。最初に出す札を選んでください。")
    assert "⏳ **ann**を待っています（札を出す）。" in waiting.text
    assert first[0] == "スイッチ…" and "R6" in first
    assert labels(combo) == ["R6を出す", "R7を加える"]
    assert combo.question == "ここまでの札：**R6**。　これを出しますか、次の札を加えますか？"
    assert colours == ["青", "黄", "緑"]


@pytest.mark.parametrize(
    ("move", "label"),
    [
        (UP, "上り（1→15）"),
        (DOWN, "下り（15→1）"),
        (BLOCK, "クラッシュでブロック"),
        (TAKE, "3枚引く"),
        (KEEP, "札を残す"),
        (USE_PASS, "ドローパスを使う"),
        (DRAW, "1枚引く"),
    ],
)
def test_a_decision_without_cards_is_labelled_in_japanese(move: PlayerMove, label: str) -> None:
    with catalog.speaking("ja"):
        assert DISCORD_GAME.move_label(StackUpState(["ann", "bob"]), move) == label
