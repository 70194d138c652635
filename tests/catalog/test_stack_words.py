"""Stack's words from the catalog (:mod:`catalog.stack`): in English, byte for byte what
the engine says of every move, turn, hint, refusal and field it meets in random games; in
Japanese, every one of them worded from the catalog (no refusal left in the engine's
English) and no English sentence among them."""

from __future__ import annotations

import random
import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import catalog
from catalog.games import words
from catalog.stack import WORDS
from engine import errors
from engine.game import Decision, TurnEnded
from engine.stack import describe, render
from engine.stack.game import GAME
from engine.stack.moves import PLACES, REROLLS, STACKS
from engine.stack.notation import parse_move
from engine.stack.rules import StackRules
from engine.stack.state import StackState
from tests.catalog.hints import engines_words
from tests.engine.situations import deal
from tests.engine.test_notation_fuzz import moves_typed, tables

NAMES = ["ann", "Bob", "bob 2", "carol smith", "@dave", "Ève", 'x "q" y', "ann lee"]
ENGLISH = re.compile(r"\b(?:the|your|is|and|on a|pile|move|die|dice|round|turn)\b")


def _probes(state: StackState) -> list[tuple[str, int | None]]:
    """Texts a player might type now (with who types them): the parser's every refusal."""
    p = state.current
    others = [s for s in range(state.n) if s != p]
    texts = ["", "   ", "x" * 300, "stak 3 on ann", "hello there", "reroll", "reroll 3 4",
             "reroll x", "reroll 9", "reroll 0004", "stack", "stack on", "stack on bob",
             "stack 3", "stack 3 on", "place", "place on", "nobody at all", "stack 7 on ann",
             "stack x on ann", "roll 3", "ann", "ANN", "bob"]  # fmt: skip
    for face in (1, 3, 4, 6):
        texts += [f"reroll {face}", f"stack {face} on nobody", f"place on {face}"]
        for o in [*others[:3], p]:
            if o is None:
                continue
            name = state.name(o)
            texts += [f"stack {face} on {name}", f"stack {face} on {name} 2",
                      f"stack {face} on {name} 9", f"stack {face} on {name.upper()}",
                      f'stack {face} on "{name}" 1', f"place on {name}", name]  # fmt: skip
    seats: list[int | None] = [None, p, (p + 1) % state.n if p is not None else 0]
    return [(text, seat) for text in texts for seat in seats]


def _refusals(state: StackState) -> list[errors.MoveError]:
    found: list[errors.MoveError] = []
    for text, seat in _probes(state):
        try:
            parse_move(state, text, seat)
        except errors.MoveError as err:
            found.append(err)
    p = state.current
    for move in [*list(STACKS.values())[::7], *REROLLS.values(), *list(PLACES.values())[::5]]:
        for by in {p, 0, 1}:
            try:
                state.check(move, by=by)
            except errors.MoveError as err:
                found.append(err)
    return found


def _same_in_english(state: StackState) -> None:
    """Every describer says in English what the engine says."""
    assert WORDS.title() == GAME.title
    assert WORDS.last_turn_words(state) == describe.last_turn_words(state)
    for you in range(state.n):
        assert WORDS.last_turn_words(state, you=you) == describe.last_turn_words(state, you=you)
    for move in state.legal_moves() if state.current is not None else []:
        assert WORDS.move_words(state, move) == GAME.move_words(state, move)
    if state.decision not in (Decision.OVER, Decision.CHANCE) and state.current is not None:
        (move, ours), (theirs_move, theirs) = WORDS.hint(state), GAME.hint(state)
        assert move == theirs_move and engines_words(ours) == theirs  # the move in code
    if describe.last_turn_words(state) is not None:
        event = TurnEnded(0)
        assert WORDS.turn_words(state, event) == GAME.turn_words(state, event)
    for compact in (False, True):
        assert WORDS.render_field(state, compact=compact) == render.render_field(
            state, compact=compact
        )
    assert WORDS.status_line(state) == render.status_line(state)
    assert WORDS.render_score_sheet(state) == render.render_score_sheet(state)
    assert WORDS.render_round_scoring(state) == render.render_round_scoring(state)
    for err in _refusals(state):
        assert WORDS.error_text(err) == str(err)
        assert WORDS.refusal(err) is not None, f"no catalog entry reads {str(err)!r}"


def _japanese(state: StackState) -> list[str]:
    with catalog.speaking("ja"):
        said = [
            WORDS.render_field(state),
            WORDS.status_line(state),
            WORDS.render_score_sheet(state),
        ]
        said += WORDS.render_round_scoring(state)
        said += (
            [WORDS.move_words(state, m) for m in state.legal_moves()]
            if state.current is not None
            else []
        )
        if state.decision not in (Decision.OVER, Decision.CHANCE) and state.current is not None:
            said.append(WORDS.hint(state)[1])
        for err in _refusals(state):
            text = WORDS.refusal(err)
            assert text is not None, f"no Japanese for {str(err)!r}"
            said.append(text)
    return said


def _games(seeds: range, players: int) -> list[StackState]:
    """States met along random games (the engine's random AI), every few turns."""
    seen: list[StackState] = []
    for seed in seeds:
        rng = random.Random(seed)
        rules = StackRules(
            target_score=rng.choice([20, 40]),
            dice_per_player=rng.choice([3, 5, 8]),
            four_high_bonus=rng.random() < 0.5,
            capture_penalty=rng.random() < 0.5,
            rolled_two_penalty=rng.random() < 0.5,
        )
        state = StackState(NAMES[:players], rules)
        ai = GAME.make_ai("random")
        step = 0
        while not state.is_over and step < 400:
            if state.decision is Decision.CHANCE:
                state.resolve_chance(rng)
            else:
                state.apply(ai.choose(state, rng))
            if step % 5 == 0:
                seen.append(state.copy())
            step += 1
        seen.append(state.copy())
    return seen


@pytest.mark.parametrize("players", [2, 3, 5, 8])
def test_every_describer_says_in_english_what_the_engine_says(players: int) -> None:
    for state in _games(range(3), players):
        _same_in_english(state)


def test_team_play_fields_and_sheets_say_what_the_engine_says() -> None:
    names = tuple(NAMES[:4])
    rules = StackRules(
        target_score=30, dice_per_player=4, teams=((names[0], names[2]), (names[1], names[3]))
    )
    state = StackState(names, rules)
    rng = random.Random(7)
    ai = GAME.make_ai("greedy")
    while not state.is_over:
        if state.decision is Decision.CHANCE:
            state.resolve_chance(rng)
        else:
            state.apply(ai.choose(state, rng))
        _same_in_english(state)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(tables(), st.data())
def test_any_refusal_of_any_typed_text_reads_the_same_in_english_and_has_japanese(
    state: StackState, data: st.DataObject
) -> None:
    text = data.draw(moves_typed(state))
    seat = data.draw(st.one_of(st.none(), st.just(state.current), st.integers(0, state.n - 1)))
    try:
        parse_move(state, text, seat)
    except errors.MoveError as err:
        assert WORDS.error_text(err) == str(err)
        assert WORDS.refusal(err) is not None, f"no catalog entry reads {str(err)!r}"
        with catalog.speaking("ja"):
            assert WORDS.refusal(err) is not None


def test_japanese_says_everything_in_japanese() -> None:
    for state in _games(range(2), 4):
        for text in _japanese(state):
            plain = text
            for name in NAMES:
                plain = plain.replace(name, "")
            plain = re.sub(r"`[^`]*`|'[^']*'", "", plain)  # notation and echoes stay as typed
            assert not ENGLISH.search(plain), text


def test_the_game_words_are_found_by_name_and_speak_the_current_language() -> None:
    assert words("stack") is WORDS
    assert WORDS.title() == "Stack"
    with catalog.speaking("ja"):
        assert WORDS.title() == "スタック"


def test_a_japanese_refusal_keeps_the_names_and_notation() -> None:
    state = StackState(("ann", "bob"), StackRules(dice_per_player=3))
    rng = random.Random(1)
    while state.decision is Decision.CHANCE:
        state.resolve_chance(rng)
    other = state.name(1 - (state.current or 0))
    with pytest.raises(errors.MoveError) as caught:
        parse_move(state, "stack 3 on", state.current)
    with catalog.speaking("ja"):
        text = WORDS.error_text(caught.value)
    assert "`stack 3 on NAME`" in text and "誰の山" in text
    with pytest.raises(errors.IllegalMoveError) as turn:
        parse_move(state, "reroll 3", 1 - (state.current or 0))
    with catalog.speaking("ja"):
        assert WORDS.error_text(turn.value) == f"今は{state.name(state.current or 0)}の番です。"
    assert other in state.players


def test_a_japanese_refusal_quotes_what_was_typed_in_corner_brackets() -> None:
    state = StackState(("ann", "bob"), StackRules(dice_per_player=3))
    rng = random.Random(1)
    while state.decision is Decision.CHANCE:
        state.resolve_chance(rng)
    said = {}
    for typed in ("dance", "stack 3 on zed", "stack x on bob"):
        with pytest.raises(errors.MoveError) as caught:
            parse_move(state, typed, state.current)
        with catalog.speaking("ja"):
            said[typed] = WORDS.error_text(caught.value)
    assert said["dance"].startswith("「dance」は手ではありません。"), said
    assert "この卓に「zed」というプレイヤーはいません" in said["stack 3 on zed"], said
    assert said["stack x on bob"].startswith("「x」はダイスの目"), said
    assert not any("'" in text for text in said.values()), said


# an unstacked die (the rule book's 単独のダイス) and a pile of one (of height 1, the
# target of a stack: 1段の山) are told apart in Japanese, the one word never used for both
UNSTACKED = ("stack.error.no_die", "stack.alt.seat", "stack.turn.rerolled_stays")
PILE_OF_ONE = ("stack.pile.single", "stack.choice.single", "stack.label.single")


def test_japanese_tells_a_missing_unstacked_die_from_a_pile_of_one() -> None:
    state = deal([3, 5], [5, 6])  # alice (to move) has no 6; bob has a single 5 and a 6
    with pytest.raises(errors.MoveError) as caught:
        parse_move(state, "stack 6 on bob", 0)
    stack_on_a_single = next(m for m in state.legal_moves() if getattr(m, "face", 0) == 5)
    with catalog.speaking("ja"):
        refused = WORDS.refusal(caught.value)
        move = WORDS.move_words(state, stack_on_a_single)
        pile_of_one = [_ja(key) for key in (*PILE_OF_ONE, "stack.error.no_single")]
        unstacked = [_ja(key) for key in UNSTACKED]
    assert refused is not None and "単独のダイス" in refused, refused
    assert "単独" not in move and "1段" in move, move
    assert not [text for text in pile_of_one if "単独" in text], pile_of_one
    assert all("単独" in text for text in unstacked), unstacked


def _ja(key: str) -> str:
    text = catalog.catalog("ja").text(key)
    return "".join(text) if isinstance(text, tuple) else str(text)


def test_a_seats_name_is_cut_to_the_columns_it_takes_not_its_characters() -> None:
    """The seat line's name is cut at 20 columns as a screen shows them: a Japanese
    character takes two, so a long Japanese name is cut to as wide as a Latin one (it
    was cut at 20 characters: twice as wide)."""
    from engine.stack.rules import StackRules
    from engine.stack.state import StackState

    japanese, latin = "山田太郎のとても長い名前です山田太郎のとても長い名前です", "L" * 32
    state = StackState([japanese, latin], StackRules())
    for seat in (0, 1):
        head = WORDS.seat_lines(state, seat, name=str)[0]
        shown = re.search(r"\*\*(.+)\*\*", head)
        assert shown is not None and shown.group(1).endswith("…")
        assert catalog.width(shown.group(1)) <= 20
        assert catalog.width(shown.group(1)) >= 19
