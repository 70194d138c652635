"""Color Stack's words from the catalog (catalog/colorstack.py): in English they are the
engine's, byte for byte (a refusal's notation marked as inline code aside), for every
move, turn, ending, hint and refusal that random games meet; every refusal the engine
words is known by its key; and in Japanese none of them leaves an English word to a player (names, squares and typed notation aside)."""

from __future__ import annotations

import random
import re
from collections.abc import Iterator

import pytest

import catalog
from catalog import games
from catalog.colorstack import WORDS, error_text, error_words
from engine.colorstack import ai, describe
from engine.colorstack.board import COLUMNS, square_name
from engine.colorstack.game import GAME
from engine.colorstack.moves import Move, PlayerMove, Resign, Set, move, set_face
from engine.colorstack.notation import parse_move
from engine.colorstack.rules import ColorStackSettings
from engine.colorstack.state import ColorStackState
from engine.errors import IllegalMoveError, IllegalReason, InvalidReason, MoveError
from engine.game import TurnEnded
from tests.catalog.hints import engines_words

NAMES = ("ann", "ben")
NOTATION = re.compile(
    r"(?<![A-Za-z0-9])(?:colours(?: (?:red|blue|yellow|green)){2}|[a-i][1-9]|set|resign|ann|ben)"
    r"(?![A-Za-z0-9])"
)  # what a player types stays as typed in every language


def unquoted(text: str) -> str:
    """The catalog's English as the engine words it: without the backticks that mark
    notation as inline code (the engine's Color Stack English has none)."""
    return text.replace("`", "")


def english_left(text: str) -> list[str]:
    """The English words a Japanese text still holds, other than names, notation and
    what the player typed (echoed in 「」)."""
    return re.findall(r"[A-Za-z]{2,}", NOTATION.sub(" ", re.sub("「[^」]*」", " ", text)))


def games_played(
    seeds: range, *, greedy_every: int = 3
) -> Iterator[tuple[ColorStackState, list[TurnEnded]]]:
    """Every position of random games (random moves, a greedy move every few turns, on
    both boards, some with a short turn limit), with the turns just ended."""
    for seed in seeds:
        rng = random.Random(seed)
        board = "heavy" if seed % 3 == 0 else "light"
        limit = 12 if seed % 5 == 0 else 300
        state = ColorStackState(NAMES, ColorStackSettings(board=board, turn_limit=limit))
        state.set_up(rng)
        yield state, []
        greedy = ai.GreedyPlayer()
        for turn in range(400):
            if state.is_over:
                break
            if seed % 7 == 1 and turn == 20:  # a resignation, off turn
                loser = 1 - (state.to_move or 0)
                events = state.apply(Resign(loser), by=loser)
            else:
                player = greedy if turn % greedy_every == 0 else ai.RandomPlayer()
                events = state.apply(player.choose(state, rng))
            yield state, [e for e in events if isinstance(e, TurnEnded)]


def typed_tries(state: ColorStackState, rng: random.Random) -> list[str]:
    """Texts a player might type: moves and sets from anywhere to anywhere, typos,
    half moves, garbage."""
    rows = state.rows

    def square() -> str:
        return f"{rng.choice(COLUMNS)}{rng.randint(1, 9)}"

    tries = [f"{square()}-{square()}" for _ in range(12)]
    tries += [f"set {square()} {rng.randint(0, 9)}" for _ in range(6)]
    tries += [
        "",
        "x" * 50,
        "resign now",
        "resing",
        "sett c1 4",
        "c1",
        "set c1",
        "set c1 4 5",
        "set c1 x",
        "set c1 12345678901234567890123",
        "set",
        "z9-a1",
        "a0-a1",
        "c1 e3 f4",
        "hello there",
        f"i{rows + 1}-a1" if rows < 9 else "a1-a1",
        "a1-a1",
        "move c1-e3",
        "move resign",
    ]
    return tries


def refusals(state: ColorStackState, rng: random.Random) -> Iterator[MoveError]:
    for seat in (None, 0, 1):
        for text in typed_tries(state, rng):
            try:
                parse_move(state, text, seat)
            except MoveError as err:
                yield err
    for frm in range(state.squares):  # every piece's refused moves, by the rules
        if rng.random() < 0.3:
            for to in range(state.squares):
                err = state.refusal(move(frm, to))
                if err is not None:
                    yield err
            named = state.refusal(move(frm, (frm + 1) % state.squares), named=True)
            if named is not None:
                yield named


# ------------------------------------------------------------------ English is the engine's


def test_the_game_is_worded_by_its_catalog_module() -> None:
    assert games.words("colorstack") is WORDS
    assert WORDS.title() == GAME.title


def test_moves_turns_and_endings_in_english_are_the_engines_byte_for_byte() -> None:
    seen = 0
    for state, ended in games_played(range(40)):
        for mv in [*state.legal_moves(), Resign(0), Resign(1)]:
            assert WORDS.move_words(state, mv) == describe.move_words(state, mv)
            seen += 1
        for event in [*ended, TurnEnded(0), TurnEnded(1)]:
            assert WORDS.turn_words(state, event) == describe.turn_words(state, event)
        assert WORDS.last_turn_words(state) == describe.last_turn_words(state)
        assert WORDS.end_words(state) == describe.end_words(state)
        for viewer in (None, 0, 1):
            assert WORDS.render_text(state, viewer) == GAME.render_text(state, viewer)
    assert seen > 10_000
    assert WORDS.rules_text() == GAME.rules_text()


def test_hints_in_english_are_the_engines_move_and_reason_with_the_move_in_code() -> None:
    kinds = set()
    for state, _ in games_played(range(12), greedy_every=2):
        if state.is_over or state.setup is None or len(state.log) % 4:
            continue
        ours = WORDS.hint(state)
        theirs = GAME.hint(state)
        assert ours[0] == theirs[0] and engines_words(ours[1]) == theirs[1]
        assert f"`{GAME.move_notation(state, ours[0])}`" in ours[1]  # the move, as typed
        kinds.add(ours[1].split(":")[1][:12] if ":" in ours[1] else ours[1][:12])
    assert len(kinds) >= 3  # threats, building, safe moves (and wins or the fewest)


def test_every_refusal_is_known_and_its_english_is_the_engines() -> None:
    reasons: set[object] = set()
    rng = random.Random(5)
    for state, _ in games_played(range(8)):
        if len(state.log) % 5:
            continue
        for err in refusals(state, rng):
            assert error_words(err) is not None, str(err)
            assert unquoted(error_text(err)) == str(err)
            reasons.add(getattr(err, "reason", None))
    expected = {
        InvalidReason.EMPTY,
        InvalidReason.TOO_LONG,
        InvalidReason.NOT_A_MOVE,
        InvalidReason.UNKNOWN_WORD,
        InvalidReason.MISSING_FACE,
        InvalidReason.BAD_FACE,
        InvalidReason.MISSING_TARGET,
        IllegalReason.NOT_YOUR_TURN,
        IllegalReason.EMPTY_SQUARE,
        IllegalReason.NOT_YOUR_PIECE,
        IllegalReason.NO_SUCH_SQUARE,
        IllegalReason.SAME_FACE,
        IllegalReason.BLACK_SQUARE,
        IllegalReason.NO_PATH,
        IllegalReason.FIRST_TURN_STACK,
        IllegalReason.TOO_WEAK,
        IllegalReason.SHARED_COLOUR,
    }
    assert expected <= reasons, expected - reasons


def _rare_refusals() -> list[MoveError]:
    """Refusals random play seldom meets: the game over, before the set-up, a face off
    the die, a resignation for the other player, 1 onto 6, three shared colours."""
    from tests.engine.colorstack.situations import arrange, new_game, sq

    found: list[MoveError] = []
    fresh = ColorStackState(NAMES)
    for mv, by in ((Resign(0), None), (move(0, 1), None)):
        err = fresh.refusal(mv, by)
        assert err is not None
        found.append(err)
    try:
        parse_move(fresh, "resign")
    except MoveError as err:
        found.append(err)
    state = new_game()
    for mv, by in (
        (Resign(1), 0),
        (Resign(5), None),
        (set_face(sq("a1"), 7), None),
        (move(sq("a1"), sq("a1")), None),
    ):
        err = state.refusal(mv, by)
        assert err is not None, mv
        found.append(err)
    one_on_six = arrange({"a1": "R1", "b1": "B6"})
    for named in (False, True):
        err = one_on_six.refusal(move(sq("a1"), sq("b1")), named=named)
        assert err is not None
        found.append(err)
    weak = arrange({"a1": "R4", "b1": "B2"})
    err = weak.refusal(move(sq("a1"), sq("b1")), named=True)
    assert err is not None
    found.append(err)
    shared = arrange({"a1": "B1G2R3", "b1": "B5G4R6"})
    err = shared.refusal(move(sq("a1"), sq("b1")))
    assert err is not None and err.reason is IllegalReason.SHARED_COLOUR
    found.append(err)
    over = new_game()
    over.apply(Resign(0), by=0)
    err = over.refusal(set_face(sq("a1"), 2))
    assert err is not None
    found.append(err)
    return found


def test_rare_refusals_are_known_too() -> None:
    for err in _rare_refusals():
        assert error_words(err) is not None, str(err)
        assert unquoted(error_text(err)) == str(err)


def test_a_message_no_pattern_knows_is_said_as_the_engine_wrote_it() -> None:
    err = IllegalMoveError("Something new.", IllegalReason.WRONG_DECISION)
    assert error_words(err) is None
    with catalog.speaking("ja"):
        assert error_text(err) == "Something new."


# ------------------------------------------------------------------ Japanese


def test_japanese_words_leave_no_english_to_a_player() -> None:
    rng = random.Random(9)
    texts: list[str] = []
    with catalog.speaking("ja"):
        for state, ended in games_played(range(10)):
            moves: list[PlayerMove] = [*state.legal_moves(), Resign(0)]
            texts += [WORDS.move_words(state, mv) for mv in rng.sample(moves, min(5, len(moves)))]
            texts += [WORDS.turn_words(state, event) for event in ended]
            texts.append(WORDS.end_words(state))
            if len(state.log) % 7 == 0:
                texts.append(WORDS.render_text(state, state.current_player))
            if not state.is_over and state.setup is not None and len(state.log) % 6 == 0:
                texts.append(WORDS.hint(state)[1])
            if len(state.log) % 9 == 0:
                texts += [error_text(err) for err in refusals(state, rng)]
        texts += [error_text(err) for err in _rare_refusals()]
        texts += [WORDS.title(), WORDS.rules_text()]
    assert len(texts) > 500
    for text in texts:
        assert "{" not in text and "}" not in text, text
        assert english_left(text) == [], text


def test_japanese_uses_the_originals_terms() -> None:
    state = ColorStackState(NAMES)
    rng = random.Random(2)
    state.set_up(rng)
    with catalog.speaking("ja"):
        words = [WORDS.move_words(state, mv) for mv in state.legal_moves()]
        assert any("移動" in w for w in words) and any("目を" in w for w in words)
        err = state.refusal(move(0, 0))
        assert err is not None
    stacked = _rare_refusals()
    with catalog.speaking("ja"):
        said = " ".join(error_text(e) for e in stacked)
    for term in (
        "積め",
        "同じあるいは上回って",
        "6は1に勝ちます",
        "同じ色のサイコロを積むことはできません",
    ):
        assert term in said, term


def test_the_japanese_die_keeps_its_colour_and_number() -> None:
    from engine.colorstack.board import YELLOW, die

    assert WORDS.die_words(die(YELLOW, 4)) == "yellow 4"
    with catalog.speaking("ja"):
        assert WORDS.die_words(die(YELLOW, 4)) == "黄の4"


@pytest.mark.parametrize("language", catalog.LANGUAGES)
def test_a_typed_move_reads_the_same_in_every_language(language: str) -> None:
    state = ColorStackState(NAMES)
    state.set_up(random.Random(1))
    first = state.legal_moves()[0]
    text = GAME.move_notation(state, first)
    with catalog.speaking(language):
        assert parse_move(state, text) == first
    assert isinstance(first, Move | Set)
    assert square_name(first.frm if isinstance(first, Move) else first.square) in text


def test_the_japanese_rule_book_is_complete_and_points_to_the_english_one() -> None:
    from pathlib import Path

    english = Path("docs/colorstack-rules.md").read_text(encoding="utf-8")
    japanese = Path("docs/ja/colorstack-rules.md").read_text(encoding="utf-8")
    assert "](../colorstack-rules.md)" in japanese  # the reference text

    def sections(text: str) -> int:
        return sum(1 for line in text.splitlines() if line.startswith("## "))

    def decisions(text: str) -> list[int]:
        return [int(m) for m in re.findall(r"^(\d+)\. \*\*", text, re.M)]

    assert sections(japanese) == sections(english) + 1  # and how to type a move
    assert decisions(japanese) == decisions(english)  # the stacking rules, the decisions
    assert decisions(japanese)[-15:] == list(range(1, 16))
    for typed in ("c1-e3", "set c1 4", "resign", "turn_limit", "`board`"):
        assert typed in japanese
    for term in ("前後左右に自由に", "積", "強さ", "先手", "後手", "同じあるいは上回っている"):
        assert term in japanese


@pytest.mark.parametrize(
    ("typed", "english", "japanese"),
    [
        (
            "stack 3 on AI 1",
            "“stack 3 on AI 1” is not a move. "
            "Type a move as `c1-e3`, a set as `set c1 4`, or `resign`.",
            "「stack 3 on AI 1」は手として読めません。"
            "移動は `c1-e3`、目の変更は `set c1 4`、投了は `resign` と入力します。",
        ),
        (
            "Snatch AI 1 " + "9" * 40,
            "That's too long to be a move (“Snatch AI 1 9999999…”). "
            "Type a move as `c1-e3`, a set as `set c1 4`, or `resign`.",
            "手としては長すぎます（「Snatch AI 1 9999999…」）。"
            "移動は `c1-e3`、目の変更は `set c1 4`、投了は `resign` と入力します。",
        ),
    ],
)
def test_a_refusal_echoes_what_was_typed_as_typed_in_every_language(
    typed: str, english: str, japanese: str
) -> None:
    state = ColorStackState(NAMES)
    state.set_up(random.Random(1))
    with pytest.raises(MoveError) as caught:
        parse_move(state, typed)
    assert error_text(caught.value) == english
    assert unquoted(english) == str(caught.value)
    with catalog.speaking("ja"):
        assert error_text(caught.value) == japanese


@pytest.mark.parametrize("language", ["en", "ja"])
def test_the_last_turn_is_worded_alike_before_and_after_a_resignation(language: str) -> None:
    """A resignation leaves the board as the last set or move left it: the final board's
    'Last turn' still says which die moved ('ann moved red 3 a1-b1', 'ben set the blue
    die on …'), where it fell back to 'ann moved a1-b1'."""
    from tests.engine.colorstack.situations import new_game

    with catalog.speaking(language):
        for resigner in (0, 1):
            state = new_game()
            rng = random.Random(resigner)
            for _ in range(3):  # a move or set of each player, then one more
                state.apply(ai.GreedyPlayer().choose(state, rng))
            before = [WORDS.last_turn_words(state), describe.last_turn_words(state)]
            state.apply(Resign(resigner), by=resigner)
            assert state.is_over
            assert [WORDS.last_turn_words(state), describe.last_turn_words(state)] == before


def test_a_finished_games_text_counts_the_turns_it_took_and_no_limit_ahead() -> None:
    for state, _ in games_played(range(1, 2)):  # seed 1 resigns at its 20th turn
        if state.is_over:
            break
    assert state.is_over
    english = WORDS.render_text(state, None)
    assert f"\nTurns: {state.turns} played.\n" in english + "\n"
    assert "left before the limit" not in english
    with catalog.speaking("ja"):
        assert f"手数：{state.turns}手。" in WORDS.render_text(state, None)
        assert "まであと" not in WORDS.render_text(state, None)


@pytest.mark.parametrize("typed", ["garbage", "", "x" * 41])
def test_an_unreadable_colour_choice_is_answered_with_how_to_name_colours_in_every_language(
    typed: str,
) -> None:
    from engine.colorstack.moves import FirstPlayer

    state = ColorStackState(NAMES)
    state.apply(FirstPlayer(0))
    with pytest.raises(MoveError) as caught:
        parse_move(state, typed, 0)
    for language in ("en", "ja"):
        with catalog.speaking(language):
            words = error_text(caught.value)
            how = catalog.t("colorstack.error.colours_syntax")
            assert words.endswith(how) and "`colours red yellow`" in how
            assert catalog.t("colorstack.error.syntax") not in words
