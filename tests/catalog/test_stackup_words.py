"""Stack Up!'s words from the catalog (``catalog.stackup``): in English they are the
engine's, byte for byte, for every move, turn, refusal and hint that random games meet;
in Japanese every one of them is said in Japanese (only names, card names and typed
commands stay as they are) and never names a hidden card."""

from __future__ import annotations

import random
import re

import pytest

import catalog
from catalog import games
from catalog.stackup import WORDS, error_facts, hint_reason
from engine.errors import AmbiguousMoveError, MoveError
from engine.game import Decision, TurnEnded
from engine.names import unclear_name
from engine.stackup import describe, moves, notation
from engine.stackup.cards import CRASH, FLIP, SNATCH, SWITCH, card_name
from engine.stackup.game import GAME
from engine.stackup.rules import StackUpSettings
from engine.stackup.state import StackUpState
from tests.catalog.hints import engines_words
from tests.engine.stackup.situations import table

NAMES = ("ann", "ben", "cat", "dan", "eve", "fay")
TYPED = (
    "", "x" * 200, "r7", "R7 R8 R9", "r7 r8 r9 skip", "r7 r8 r9 pass", "skip", "pass skip",
    "flip", "flip r7", "freeze", "crash", "switch", "switch blue", "switch purple", "switch red",
    "snatch", "snatch ben 2", "snatch zed 1", "snatch ben 9", "snatch ann 1", "snatch ben",
    "block", "take", "keep", "draw", "play", "play r7", "r7 play", "r7 flip", "up", "down",
    "R16", "X3", "flp", "hello", "blok", "r7 skip skip", "b1 b2", "g15 g14", "r1 b2",
    "play switch red", "play snatch ben 1", "play red", "snatch \"ben\" 1", "snatch @ben 1",
)  # fmt: skip
# English words a Japanese text may hold: none but the commands and names as typed
ALLOWED_ASCII = re.compile(
    r"`[^`]*`|「[^」]*」|(?<![A-Za-z])(?:[RBYG]\d{0,2}|ann|ben|cat|dan|eve|fay|zed)(?![A-Za-z])"
)


def _random_moves(state: StackUpState, rng: random.Random, p: int) -> list[moves.Move]:
    """Moves to ask the rules about: legal ones changed a little, and nonsense."""
    hand = list(state.hands[p])
    out: list[moves.Move] = [
        moves.UP, moves.BLOCK, moves.TAKE, moves.USE_PASS, moves.DRAW, moves.KEEP,
        moves.PLAY_DRAWN, moves.Play(()), moves.Play((rng.randrange(65),)),
        moves.Play((rng.randrange(60), rng.randrange(60), rng.randrange(60))),
        moves.Play((SWITCH,), colour=rng.randrange(4)), moves.Play((SWITCH,)),
        moves.Play((SWITCH,), target=1), moves.Play((FLIP,), colour=1),
        moves.Play((CRASH,), target=0, count=1), moves.Play((SNATCH,)),
        moves.Play((SNATCH,), target=p, count=1),
        moves.Play((SNATCH,), target=rng.randrange(state.n), count=rng.randrange(5)),
        moves.Play((SNATCH,), target=rng.randrange(state.n)),
        moves.PlayDrawn(colour=rng.randrange(4)), moves.PlayDrawn(target=1, count=1),
    ]  # fmt: skip
    if hand:
        first = rng.choice(hand)
        out.append(moves.Play((first,)))
        out.append(moves.Play((first,), bonus="skip"))
        out.append(moves.Play((first,), colour=0))
        out.append(moves.Play(tuple(rng.sample(hand, min(3, len(hand))))))
        out.append(moves.Play((first, first)))
        if len(hand) >= 3:
            out.append(moves.Play(tuple(sorted(hand)[:3]), bonus="maybe"))
    for legal in state.legal_moves()[:6]:
        if isinstance(legal, moves.Play) and legal.cards[0] < FLIP:
            out.append(moves.Play(legal.cards, None))
            out.append(moves.Play(legal.cards, "pass"))
            out.append(moves.Play((*legal.cards, legal.cards[-1]), None))
    return out


def _typed(state: StackUpState, rng: random.Random) -> list[str]:
    texts = list(TYPED)
    for legal in state.legal_moves()[:5]:
        written = notation.move_notation(state, legal)
        texts += [written, written + " x", written.replace(" skip", "").replace(" pass", "")]
    return [*texts, " ".join(rng.sample(TYPED[2:], 2))]


def _games(count: int) -> list[tuple[int, int]]:
    return [(seed, 2 + seed % 5) for seed in range(count)]


def _refusals(state: StackUpState, rng: random.Random) -> list[MoveError]:
    found: list[MoveError] = []
    p = state.current_player
    seats = [None] if p is None else [p, (p + 1) % state.n]
    for text in _typed(state, rng):
        for seat in seats:
            try:
                notation.parse_move(state, text, seat)
            except MoveError as err:
                found.append(err)
    if p is not None:
        for move in _random_moves(state, rng, p):
            err = state.refusal(move, p)
            if err is not None:
                found.append(err)
    return found


def _japanese(text: str) -> bool:
    """No English left: every run of letters is a command, an echo, a name or a card."""
    return re.search(r"[A-Za-z]{2,}", ALLOWED_ASCII.sub("", text)) is None


def _check_refusal(err: MoveError) -> None:
    english = str(err)
    assert WORDS.error_text(err) == english
    if not isinstance(err, AmbiguousMoveError):
        facts = error_facts(err)
        assert facts is not None, f"a refusal the catalog does not know: {english!r}"
        with catalog.speaking("en"):
            assert catalog.t(facts.key, **facts.english) == english
    with catalog.speaking("ja"):
        said = WORDS.error_text(err)
    assert said != english or not english
    assert _japanese(said), (english, said)


@pytest.mark.parametrize(("seed", "seats"), _games(24))
def test_every_word_of_random_games_is_the_engines_in_english_and_japanese_in_japanese(
    seed: int, seats: int
) -> None:
    rng = random.Random(seed)
    state = StackUpState(NAMES[:seats], StackUpSettings(turn_limit=40 + seed * 7))
    while not state.is_over:
        if state.decision is Decision.CHANCE:
            state.apply(state.sample_chance(rng))
            continue
        for move in state.legal_moves():
            assert WORDS.move_words(state, move) == describe.move_words(state, move)
            with catalog.speaking("ja"):
                said = WORDS.move_words(state, move)
            assert _japanese(said), said
        move, reason = GAME.hint(state)
        assert engines_words(hint_reason(state, move)) == reason  # the move in code
        with catalog.speaking("ja"):
            assert _japanese(hint_reason(state, move)), hint_reason(state, move)
        if rng.random() < 0.3:
            for err in _refusals(state, rng):
                _check_refusal(err)
        legal = state.legal_moves()
        events = state.apply(legal[rng.randrange(len(legal))])
        for event in events:
            if isinstance(event, TurnEnded):
                assert WORDS.turn_words(state, event) == describe.turn_words(state, event)
                with catalog.speaking("ja"):
                    said = WORDS.turn_words(state, event)
                assert _japanese(said), said
        assert WORDS.last_turn_words(state) == describe.last_turn_words(state)
        assert WORDS.direction_words(state) == describe.direction_words(state)


def test_the_game_has_its_words_from_the_catalog() -> None:
    assert games.words("stackup") is WORDS
    assert WORDS.title() == "Stack Up!"
    with catalog.speaking("ja"):
        assert WORDS.title() == "スタックアップ！"


def test_the_syntax_is_the_notations_in_english() -> None:
    assert catalog.t("stackup.syntax") == notation.SYNTAX


def test_an_ambiguous_play_asks_in_japanese_with_the_commands_as_typed() -> None:
    state = StackUpState(NAMES[:2], StackUpSettings())
    err = AmbiguousMoveError(
        "Which bonus: R7 R8 R9 + a draw pass, or R7 R8 R9 + play again? "
        "Type `R7 R8 R9 pass` or `R7 R8 R9 skip`.",
        (),
    )
    with catalog.speaking("ja"):
        said = WORDS.error_text(err)
    assert said == (
        "どちらのボーナスにしますか？`R7 R8 R9 pass`または`R7 R8 R9 skip` のどれかを入力してください。"
    )
    assert state.n == 2


def test_turn_words_never_name_a_hidden_card_in_any_language() -> None:
    for seed in range(12):
        rng = random.Random(seed)
        state = StackUpState(NAMES[:3], StackUpSettings(turn_limit=60))
        while not state.is_over:
            if state.decision is Decision.CHANCE:
                state.apply(state.sample_chance(rng))
                continue
            legal = state.legal_moves()
            for event in state.apply(legal[rng.randrange(len(legal))]):
                if not isinstance(event, TurnEnded):
                    continue
                turn = state.log[-1]
                hidden = {card_name(c) for c in turn.drew + turn.took} - {
                    card_name(c) for c in turn.cards
                }
                for language in catalog.LANGUAGES:
                    with catalog.speaking(language):
                        said = WORDS.turn_words(state, event)
                    for name in hidden:
                        if name[0] in "RBYG":
                            assert not re.search(rf"\b{name}\b", said), (said, name)


def test_an_unclear_name_is_asked_in_japanese_with_the_names_as_they_are() -> None:
    err = AmbiguousMoveError(
        "'bo' could mean bob, bobby or bo b. Which one: Snatch 1 card from bob, or Snatch 1 "
        "card from bobby? Type `snatch bob 1` or `snatch bobby 1`.",
        (),
    )
    with catalog.speaking("ja"):
        said = WORDS.error_text(err)
    assert said == (
        "「bo」はbob、bobbyまたはbo bのどれとも取れます。どの人ですか？"
        "`snatch bob 1`または`snatch bobby 1` のどれかを入力してください。"
    )


def test_a_japanese_refusal_quotes_what_was_typed_in_corner_brackets() -> None:
    """The engine quotes typed text in ASCII quotes ('zed 1'); Japanese says it in 「…」,
    as typed (cut short as the engine cut it), and English stays the engine's."""
    rng = random.Random(1)
    state = StackUpState(NAMES[:3], StackUpSettings())
    while state.decision is Decision.CHANCE:
        state.apply(state.sample_chance(rng))
    refused: dict[str, MoveError] = {}
    for typed in ("x" * 200, "flp", "it's", "switch purple", "snatch zed 1"):
        with pytest.raises(MoveError) as caught:
            notation.parse_move(state, typed, state.current_player)
        refused[typed] = caught.value
    refused["bo"] = unclear_name("bo", ("bob", "bobby"))
    refused["which"] = AmbiguousMoveError(
        "'bo' could mean bob or bobby. Which one: Snatch 1 card from bob, or Snatch 1 card "
        "from bobby? Type `snatch bob 1` or `snatch bobby 1`.",
        (),
    )
    quoted = {
        "x" * 200: "（「" + "x" * 39 + "…」）",
        "flp": "「flp」は手ではありません",
        "it's": "「it's」は札でも手でもありません",
        "switch purple": "「purple」は色ではありません",
        "snatch zed 1": "この卓に「zed」というプレイヤーはいません",
        "bo": "「bo」はbobまたはbobbyのどれとも取れますが",
        "which": "「bo」はbobまたはbobbyのどれとも取れます。",
    }
    for typed, err in refused.items():
        assert WORDS.error_text(err) == str(err)
        with catalog.speaking("ja"):
            said = WORDS.error_text(err)
        assert quoted[typed] in said, said
        assert not re.search(r"['\"]", said.replace("it's", "")), said


def test_a_hint_to_snatch_from_a_right_to_left_name_isolates_the_name() -> None:
    state = table("G1 G2", "Y1 Y2 Y3 Y4", "Snatch R9", seat=2, players=("שלום", "bob", "al"))
    move = moves.Play((SNATCH,), target=0, count=1)
    with catalog.speaking("en"):
        said = hint_reason(state, move)
    assert f"snatch {catalog.FSI}שלום{catalog.PDI} 1" in said
