"""Stack's Discord words in Japanese: the rules brief, the table message, the panel, the
round and game ends, the stats and the refusals read in Japanese when Japanese is spoken
(names and notation kept as typed), and in English as before otherwise."""

from __future__ import annotations

import random
import re
from datetime import UTC, datetime

import pytest

import catalog
from bot.games.stack.game import DISCORD_GAME, panel_view
from bot.games.stack.panel import move_label, move_note, panel_text
from bot.games.stack.story import game_chart_description, stats_chart_description
from bot.games.stack.wording import discord_words
from bot.games.stack.words import (
    alt_text,
    game_end_messages,
    house_rules_text,
    round_end_text,
    rules_brief,
    scoring_messages,
    stack_history_line,
    stats_text,
    table_parts,
)
from bot.text import MESSAGE_LIMIT
from engine import errors
from engine.game import Decision
from engine.stack.advice import advise
from engine.stack.game import GAME
from engine.stack.notation import parse_move
from engine.stack.rules import HouseRules, StackRules
from engine.stack.state import StackState
from persistence.records import GameSummary, PlayerStats, RecentGame, ScoreSheet

NAMES = ("ann", "bob", "carol", "dave")
# words of English sentences (a name or notation is taken out before looking)
ENGLISH = re.compile(
    r"\b(?:the|your|you|is|are|and|or|on a|pile|piles|move|moves|die|dice|round|rounds|turn|"
    r"first|wins?|points?|game|games|scored|captured?|team|teams|best|last)\b",
    re.IGNORECASE,
)


def _english_left(text: str) -> list[str]:
    plain = re.sub(r"`[^`]*`|'[^']*'|<[^>]*>", "", text)  # notation, echoes, mentions
    for name in NAMES:
        plain = plain.replace(name, "")
    return ENGLISH.findall(plain)


def _game(seed: int, *, teams: bool = False) -> list[StackState]:
    names = NAMES
    rules = StackRules(
        target_score=30,
        dice_per_player=5,
        four_high_bonus=True,
        teams=((names[0], names[2]), (names[1], names[3])) if teams else None,
    )
    state = StackState(names, rules)
    rng = random.Random(seed)
    ai = GAME.make_ai("greedy")
    seen = []
    while not state.is_over:
        if state.decision is Decision.CHANCE:
            rounds = len(state.round_scores)
            state.resolve_chance(rng)
        else:
            rounds = len(state.round_scores)
            state.apply(ai.choose(state, rng))
            if len(state.round_scores) > rounds:
                seen.append(state.copy())  # a round just ended
        seen.append(state.copy())
    return seen


def _texts(states: list[StackState]) -> list[str]:
    said: list[str] = []
    when = datetime(2026, 1, 1, tzinfo=UTC)
    for state in states[::3] + states[-1:]:
        head, field = table_parts(state, current_user=42, last_move=None, deadline=when)
        said += [head, field, alt_text(state)]
        if state.current is not None and state.decision is not Decision.OVER:
            advice = advise(state)
            said.append(panel_text(state, state.current, advice))
            said += [move_label(state, a) for a in advice] + [move_note(a) for a in advice]
        if state.round_scores:
            said.append(round_end_text(state, len(state.round_scores)))
            said += scoring_messages(state, len(state.round_scores))
    said += game_end_messages(states[-1])
    return said


@pytest.mark.parametrize("teams", [False, True])
def test_a_whole_game_reads_in_japanese_when_japanese_is_spoken(teams: bool) -> None:
    states = _game(3, teams=teams)
    with catalog.speaking("ja"):
        said = _texts(states)
    assert said
    for text in said:
        assert len(text) <= MESSAGE_LIMIT
        assert not _english_left(text), text


def test_the_same_game_reads_in_english_as_before_when_english_is_spoken() -> None:
    states = _game(3)
    said = _texts(states)
    assert any("it's your turn" in text for text in said)
    assert any("is over.** First to 30." in text for text in said)


def test_the_rules_brief_is_japanese_for_a_japanese_reader_within_a_message() -> None:
    brief = DISCORD_GAME.rules_brief("ja")
    assert brief == DISCORD_GAME.rules_brief("ja-JP")
    assert len(brief) <= 2000
    assert "積む" in brief and "振り直す" in brief and "獲得" in brief
    assert "`/table new game:stack`" in brief and "`/stack die:3" in brief
    assert "`/reroll die:3`" in brief and "docs/ja/stack-rules.md" in brief
    assert DISCORD_GAME.rules_brief("en-US") == rules_brief()
    with catalog.speaking("ja"):
        assert DISCORD_GAME.rules_brief() == brief
        assert DISCORD_GAME.rules_brief("en-GB").startswith("**Stack** — every player")


def test_the_lobby_start_and_title_are_said_in_the_language_spoken() -> None:
    state = _game(1)[0]
    with catalog.speaking("ja"):
        assert DISCORD_GAME.title == "スタック"
        assert DISCORD_GAME.lobby_summary(HouseRules(teams=True)) == [
            "200点先取 · 1人ダイス14個",
            "チーム戦：2人1組、チームメイトは隣り合わない席に座ります（4人以上の偶数人数が必要）。",
        ]
        assert "最初の手番" in DISCORD_GAME.start_text(state)
    assert DISCORD_GAME.title == "Stack"
    assert DISCORD_GAME.lobby_summary(HouseRules()) == ["first to 200 · 14 dice each"]


def test_the_panels_buttons_and_menus_are_labelled_in_japanese() -> None:
    rules = StackRules(dice_per_player=30)
    state = StackState(tuple(f"p{i}" for i in range(8)), rules)
    rng = random.Random(5)
    while state.decision is Decision.CHANCE or state.round_number < 1:
        state.resolve_chance(rng)
    for _ in range(30):
        state.apply(GAME.make_ai("random").choose(state, rng))
        while state.decision is Decision.CHANCE:
            state.resolve_chance(rng)
    with catalog.speaking("ja"):
        view, _hidden = panel_view(1, 1, state, advise(state))
    payloads = [c for row in view._components for c in row["components"]]
    labels = [str(c["label"]) for c in payloads if "label" in c]
    labels += [str(c["placeholder"]) for c in payloads if "placeholder" in c]
    labels += [str(o["label"]) for c in payloads for o in c.get("options", [])]
    labels += [str(o.get("description", "")) for c in payloads for o in c.get("options", [])]
    assert labels
    for label in labels:
        assert not _english_left(label), label


def test_stats_history_house_rules_and_charts_read_in_japanese() -> None:
    day = datetime(2026, 1, 2, tzinfo=UTC)
    recent = tuple(
        RecentGame(table_id=i, finished_at=day, seat=0, total=total, won=won, target=30,
                   rounds=3, players=("ann", "bob"))
        for i, (total, won) in enumerate([(40, True), (12, False)])
    )  # fmt: skip
    stats = PlayerStats(1, "ann", 2, 1, 52, 20, 3, 6, (0, 0, 0, 0, 1, 5), recent)
    summary = GameSummary(
        table_id=1, finished_at=datetime(2026, 1, 2, tzinfo=UTC), players=("ann", "bob"),
        totals=(40, 12), winners=("ann",), rounds_played=3,
    )  # fmt: skip
    sheet = ScoreSheet(
        table_id=1, names=("ann", "bob"), rounds=((20, 5), (20, 7)), totals=(40, 12),
        target_score=30, finished=True, winners=("ann",),
    )  # fmt: skip
    with catalog.speaking("ja"):
        said = [
            stats_text("ann", stats),
            DISCORD_GAME.stats_text("bob", None),
            stack_history_line(1, summary),
            house_rules_text(HouseRules(), channel=True),
            game_chart_description(sheet),
            stats_chart_description("ann", stats, DISCORD_GAME.title),
        ]
    for text in said:
        assert not _english_left(text), text
    assert said[0].startswith("**ann** — スタック：2戦、1勝（勝率50%）")  # the game named
    assert "よく積む目 6" in said[0]


def _refused(state: StackState, text: str, seat: int | None) -> errors.MoveError:
    with pytest.raises(errors.MoveError) as caught:
        parse_move(state, text, seat)
    return caught.value


def test_refusals_on_discord_are_worded_in_japanese() -> None:
    states = [s for s in _game(2) if s.current is not None and s.decision is not Decision.OVER]
    said = []
    for state in states[:40]:
        p = state.current
        assert p is not None
        other = state.name((p + 1) % state.n)
        for text, seat in [
            ("", p), ("stak 3", p), ("reroll 3", (p + 1) % state.n), ("stack 9 on ann", p),
            ("stack 3 on nobody", p), (f"stack 3 on {state.name(p)}", p), ("place on ann", p),
            (f"stack 3 on {other} 2", p), (f"stack 3 on {other} 9", p), ("reroll 3 4", p),
        ]:  # fmt: skip
            try:
                parse_move(state, text, seat)
            except errors.MoveError as err:
                with catalog.speaking("ja"):
                    said.append(discord_words(err))
                assert discord_words(err)  # English still said
    assert len(said) > 100
    for text in said:
        assert not _english_left(text), text


def test_the_japanese_table_head_says_when_the_turn_runs_out_as_the_other_games_do() -> None:
    """Discord shows ``<t:…:R>`` as 「30秒後」 to a Japanese reader: the countdown comes
    before 時間切れ (「30秒後に時間切れ」), as Stack Up!'s and Color Stack's table messages
    say it, not after it (「時間切れ 30秒後」)."""
    state = next(s for s in _game(3) if s.current is not None and s.decision is not Decision.OVER)
    when = datetime(2026, 1, 1, tzinfo=UTC)
    stamp = f"<t:{int(when.timestamp())}:R>"
    with catalog.speaking("ja"):
        others = " · " + catalog.t("discord.table.time_runs_out", stamp=stamp)
        head, _ = table_parts(state, current_user=42, last_move=None, deadline=when)
        assert head.endswith(others), head
        ai_to_move, _ = table_parts(state, current_user=None, last_move=None, deadline=when)
        assert ai_to_move.endswith(f" · {stamp}にこの手番が終わります"), ai_to_move
    head, _ = table_parts(state, current_user=42, last_move=None, deadline=when)
    assert head.endswith(f" · time runs out {stamp}"), head  # English as before
