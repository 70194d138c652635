"""Color Stack's **My move** panel (bot/games/colorstack/panel.py), its words and its
picture's arguments, without Discord: the steps (a piece, then a destination or a new
face; Resign with a confirmation), every legal action reachable and nothing else, within
Discord's limits; the text grid; what the picture is told to draw.

Positions come from the rule book's and the record format's example (cards C B C / B E E,
Alice red and yellow moving first, Bob blue and green)."""

from __future__ import annotations

import random
import re
import struct

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import catalog
from bot.games.colorstack.panel import (
    MENU_SIZE,
    leaves,
    move_code,
    move_of_code,
    node,
)
from bot.games.colorstack.rules import is_japanese, rules_brief
from bot.games.colorstack.words import (
    end_words,
    field_text,
    grid,
    last_line,
    stacked_on,
    stacks_line,
)
from bot.text import MESSAGE_LIMIT, escape_name
from engine.colorstack.board import BLUE, RED, YELLOW, die, parse_square, square_name
from engine.colorstack.moves import FirstPlayer, Move, Resign, Set, Setup, move, set_face
from engine.colorstack.rules import ColorStackSettings
from engine.colorstack.state import ColorStackState
from pictures.colorstack import (
    WIDTH,
    BoardPicture,
    describe,
    draw_board,
    picture_height,
    square_of,
)

ALICE, BOB = "alice", "bob"
EXAMPLE = Setup(
    0, (RED, YELLOW), ("C", "B", "C", "B", "E", "E"), (3, 4, 6, 2, 5, 1, 2, 5, 4, 3, 2, 1)
)
EXAMPLE_TURNS = ("c1-c5", "a6-c6", "set c5 1", "set i6 3", "c5-c6", "set g6 4", "d1-c6")
NASTY = "**__@everyone__**~~`<@123>`~~||x||"


def sq(name: str) -> int:
    found = parse_square(name, 9)
    assert found is not None
    return found


def action(text: str) -> Move | Set:
    if text.startswith("set "):
        _, where, face = text.split()
        return set_face(sq(where), int(face))
    frm, to = text.split("-")
    return move(sq(frm), sq(to))


def example(turns: int = 0, names: tuple[str, str] = (ALICE, BOB)) -> ColorStackState:
    """The record format's example game after ``turns`` of its turns."""
    state = ColorStackState(names)
    state.apply(EXAMPLE)
    for text in EXAMPLE_TURNS[:turns]:
        state.apply(action(text))
    return state


def random_state(seed: int, board: str = "light", turns: int | None = None) -> ColorStackState:
    rng = random.Random(seed)
    state = ColorStackState((ALICE, BOB), ColorStackSettings(board=board))
    state.set_up(rng)
    for _ in range(rng.randrange(80) if turns is None else turns):
        if state.is_over:
            break
        state.apply(rng.choice(state.legal_moves()))
    return state


# ------------------------------------------------------------------ the steps


def test_the_root_offers_the_player_to_move_each_piece_that_can_act_and_resign() -> None:
    state = example()
    root = node(state, 0, "")
    assert root is not None and root.back is None
    pieces = [c for c in root.choices if c.path and c.path.startswith("p")]
    assert [c.path for c in pieces] == ["pa1", "pc1", "pd1", "pf1", "pg1", "pi1"]
    assert pieces[1].label == "c1 · 4" and pieces[1].emoji == "🟨"
    assert root.choices[-1].label == "Resign…" and root.choices[-1].path == "r"
    assert all(len(row) <= 5 for row in root.rows) and len(root.rows) <= 5


def test_the_player_not_to_move_may_only_resign() -> None:
    state = example()
    root = node(state, 1, "", ["ALICE", "BOB"])
    assert root is not None
    assert "Waiting for **ALICE**" in root.question
    assert [c.path for c in root.choices] == ["r"]
    assert node(state, 1, "pa6") is None  # no piece step off turn
    confirm = node(state, 1, "r", ["ALICE", "BOB"])
    assert confirm is not None and "**ALICE** wins" in confirm.question
    assert [c.move for c in confirm.choices] == [Resign(1)]


def test_a_piece_lists_its_legal_destinations_and_the_five_other_faces() -> None:
    state = example(4)  # Alice to move; her yellow 1 stands on c5, Bob's B5 G2 on c6
    step = node(state, 0, "pc5")
    assert step is not None and step.selected == sq("c5") and step.back == ""
    menu_moves = {o.move for menu in step.menus for o in menu.options}
    assert menu_moves == {move(sq("c5"), to) for to in state.destinations(sq("c5"))}
    assert [c.move for c in step.choices] == [set_face(sq("c5"), f) for f in (2, 3, 4, 5, 6)]
    assert [c.label for c in step.choices] == ["Set 2", "Set 3", "Set 4", "Set 5", "Set 6"]
    # stacking on Bob's c6 is labelled, and comes first
    first = step.menus[0].options[0]
    assert first.move == move(sq("c5"), sq("c6"))
    assert first.label == "c6 · stack on 🟩 green 2"
    assert "yellow 1 on c5" in step.lines[0]


def test_the_winning_destination_is_marked() -> None:
    state = example(6)  # Alice's red 6 on d1 can reach c6 and make all four colours
    step = node(state, 0, "pd1")
    assert step is not None
    [win] = [o for menu in step.menus for o in menu.options if o.move == move(sq("d1"), sq("c6"))]
    assert win.label.startswith("c6 · 🏆") and win.description == "all four colours: you win"
    root = node(state, 0, "")
    assert root is not None and "all four colours" in root.question


def test_a_piece_of_the_other_player_or_a_wrong_path_has_no_step() -> None:
    state = example()
    for path in ("pa6", "pb2", "pz9", "p", "x", "pa10", "rr"):
        assert node(state, 0, path) is None, path


def test_no_step_once_the_game_is_over() -> None:
    state = example(7)
    assert state.is_over
    assert node(state, 0, "") is None and node(state, 1, "r") is None


@settings(max_examples=40, deadline=None)
@given(st.integers(0, 10_000), st.sampled_from(["light", "heavy"]))
def test_the_panel_reaches_every_legal_action_and_nothing_else(seed: int, board: str) -> None:
    state = random_state(seed, board)
    for seat in (0, 1):
        reached = leaves(state, seat)
        if state.is_over:
            assert reached == set()
            continue
        mine = set(state.legal_moves()) if seat == state.current_player else set()
        assert reached == mine | {Resign(seat)}


@settings(max_examples=40, deadline=None)
@given(
    st.integers(0, 10_000), st.sampled_from(["light", "heavy"]), st.sampled_from(catalog.LANGUAGES)
)
def test_every_step_fits_discord(seed: int, board: str, language: str) -> None:
    state = random_state(seed, board)
    names = [(str(i) + NASTY).ljust(32, "x")[:32] for i in range(2)]
    if state.is_over:
        return
    seat = state.current_player
    assert seat is not None
    paths = [""] + [f"p{square_name(s)}" for s in state.pieces(seat)] + ["r"]
    for path in paths:
        with catalog.speaking(language):
            step = node(state, seat, path, names)
        if step is None:
            continue
        assert len(step.menus) + len(step.rows) + (step.back is not None) <= 5
        for menu in step.menus:
            assert 1 <= len(menu.options) <= MENU_SIZE
            assert all(len(o.label) <= 100 for o in menu.options)
        for row in step.rows:
            assert len(row) <= 5
            assert all(len(c.label) <= 80 for c in row)
        for code in [move_code(o.move) for m in step.menus for o in m.options] + [
            move_code(c.move) for c in step.choices if c.move is not None
        ]:
            assert len(f"move:123456789012345678:99999:{code}") <= 100


def test_move_codes_read_back_exactly() -> None:
    state = random_state(3, "heavy", 30)
    for mv in [*state.legal_moves(), Resign(0), Resign(1)]:
        code = move_code(mv)
        assert move_of_code(code, 9) == mv
        assert len(code) <= 40
    assert move_code(move(sq("c1"), sq("e3"))) == "c1-e3"
    assert move_code(set_face(sq("c1"), 4)) == "set.c1.4"
    assert move_code(Resign(1)) == "resign.1"
    for bad in ("", "c1-e", "set.c1.7", "set.c1.0", "resign.2", "c1-j3", "a0-a1", "c1_e3"):
        assert move_of_code(bad) is None, bad
    assert move_of_code("a9-a8", 6) is None  # off a light board


# ------------------------------------------------------------------ words


def test_the_grid_shows_every_square_with_coordinates_phone_wide() -> None:
    state = example(5)
    text = grid(state)
    lines = text.strip("`\n").split("\n")
    assert lines[0] == "  a  b  c  |d  e  f  |g  h  i"
    rows = [line for line in lines if line[:1].isdigit()]
    assert [line.split()[0] for line in rows] == ["6", "5", "4", "3", "2", "1"]
    assert max(len(line) for line in lines) <= 31
    # c6 holds blue 5, green 2, yellow 1: its top and its height; e6 and h6 are black
    assert rows[0] == "6 ·  ·  Y1³|G4 ## B3 |G2 ## B3"
    assert rows[3].startswith("3 ## ")  # a3 is black (card C in printed orientation)
    assert stacks_line(state) == "Stacks (bottom to top): c6 B5 G2 Y1"


def test_the_last_move_says_what_it_stacked_on() -> None:
    state = example(2)  # Bob's green 2 a6-c6 onto his blue 5
    assert stacked_on(state) == die(BLUE, 5)
    assert last_line(state) == "Last: **bob** a6-c6 (stacked on 🟦 blue 5)"
    state.apply(action("set c5 1"))
    assert last_line(state) == "Last: **alice** set c5 1"
    assert stacked_on(state) is None


@pytest.mark.parametrize("language", catalog.LANGUAGES)
def test_the_field_fits_in_every_language(language: str) -> None:
    names = ((("0" + NASTY) * 2)[:32], (("1" + NASTY) * 2)[:32])
    with catalog.speaking(language):
        for seed in range(10):
            rng = random.Random(seed)
            state = ColorStackState(names, ColorStackSettings(board="heavy"))
            state.set_up(rng)
            for _ in range(60):
                if not state.is_over:
                    state.apply(rng.choice(state.legal_moves()))
            text = field_text(state, ["x" * 300] * 3)
            assert len(text) <= MESSAGE_LIMIT


def test_the_field_escapes_names_and_fits() -> None:
    names = ((("0" + NASTY) * 2)[:32], (("1" + NASTY) * 2)[:32])
    state = example(3, names)
    text = field_text(state, ["one", "two", "three", "four"])
    assert len(text) <= MESSAGE_LIMIT
    assert NASTY not in text and "@everyone" not in text.replace("@\u200beveryone", "")
    assert "turn 4 · 297 turns left before a draw" in text
    assert "-# two · three · four" in text  # the last three turns' words
    assert "moved first" in text


# ------------------------------------------------------------------ the picture's arguments


def test_the_picture_is_told_the_board_the_stacks_and_the_last_move() -> None:
    state = example(5)
    picture = BoardPicture.of(state, theme="light", turn_seconds=60)
    assert picture.rows == 6 and len(picture.stacks) == 54
    assert {i for i, b in enumerate(picture.black) if b} == set(state.black_squares)
    assert picture.stacks[square_of("c6")] == "B5G2Y1"
    assert picture.stacks[square_of("c5")] == ""
    assert picture.colours == (("R", "Y"), ("B", "G"))
    assert picture.current == 1 and not picture.over and picture.winners == ()
    assert picture.path[0] == square_of("c5") and picture.path[-1] == square_of("c6")
    assert picture.set_square is None and picture.selected is None
    assert picture.theme == "light" and picture.turn_seconds == 60
    assert picture.turns_taken == 5 and picture.turn_limit == 300
    after_set = BoardPicture.of(example(6))
    assert after_set.path == () and after_set.set_square == square_of("g6")


def test_the_panel_picture_selects_a_piece_and_its_destinations() -> None:
    state = example(6)
    picture = BoardPicture.of(state, selected="d1")
    assert picture.selected == square_of("d1")
    assert set(picture.destinations) == set(state.destinations(sq("d1")))
    assert square_of("c6") in picture.destinations


def test_the_picture_of_a_finished_game_names_the_winner_and_how() -> None:
    state = example(7)
    picture = BoardPicture.of(state)
    assert picture.over and picture.winners == (0,) and picture.ended_by == "four_colours"
    assert picture.current is None
    assert picture.stacks[square_of("c6")] == "B5G2Y1R6"
    assert "alice (red and yellow) wins" in describe(picture)


def test_the_heavy_picture_has_81_squares_and_is_taller() -> None:
    heavy = BoardPicture.of(random_state(5, "heavy", 10))
    light = BoardPicture.of(random_state(5, "light", 10))
    assert heavy.rows == 9 and len(heavy.black) == 81
    assert picture_height(heavy) > picture_height(light)


def test_a_picture_with_the_wrong_number_of_squares_is_refused() -> None:
    picture = BoardPicture.of(example())
    with pytest.raises(ValueError, match="54 squares"):
        BoardPicture(6, picture.black[:-1], picture.stacks, ("a", "b"), (("R", "Y"), ("B", "G")))


@pytest.mark.parametrize("theme", ["dark", "light"])
def test_the_png_is_760_wide_and_as_tall_as_its_layout(theme: str) -> None:
    picture = BoardPicture.of(example(5), theme=theme)  # type: ignore[arg-type]
    png = draw_board(picture)
    assert png[:8] == b"\x89PNG\r\n\x1a\n"
    width, height = struct.unpack(">II", png[16:24])
    assert (width, height) == (WIDTH, picture_height(picture))
    selected = draw_board(BoardPicture.of(example(5), theme=theme, selected="d1"))  # type: ignore[arg-type]
    assert selected != png


def test_the_alt_text_lists_every_stack_and_the_selection() -> None:
    picture = BoardPicture.of(example(6), selected="d1")
    words = describe(picture)
    assert "c6 blue 5/green 2/yellow 1" in words
    assert "last move a set on g6" in words
    assert "d1 selected, it may go to" in words and "c6" in words.split("selected")[1]
    assert len(words) <= 1024


# ------------------------------------------------------------------ the rules


def test_the_rules_are_japanese_for_ja_and_english_otherwise() -> None:
    assert is_japanese("ja") and is_japanese("ja-JP")
    assert not is_japanese("en-US") and not is_japanese(None) and not is_japanese("jv")
    english, japanese = rules_brief("en-GB"), rules_brief("ja")
    assert english.startswith("**Color Stack** (2 players") and "カラースタック" in japanese
    assert rules_brief(None) == english  # the language spoken: English by default
    with catalog.speaking("ja"):
        assert rules_brief(None) == japanese
        assert rules_brief("en-US") == english  # the reader's locale, when given
    for language, text in (("en", english), ("ja", japanese)):
        assert len(text) <= 1500  # room for the house rules under it in one message
        with catalog.speaking(language):
            button = catalog.t("colorstack.button.my_move")
        for typed in ("/move c1-e3", "/set c1 4", "/move resign", f"**{button}**"):
            assert typed in text
    assert "**手を選ぶ**" in japanese and "`/table new game:colorstack`" in japanese


def test_the_japanese_brief_uses_the_originals_terms() -> None:
    for term in (
        "前後左右に自由に",
        "積",
        "同じあるいは上回っている",
        "下のサイコロは上のサイコロと一緒に動きます",
        "一度通ったマスは通れず",
        "同じ色のサイコロを積むことはできません",
        "6は1に勝ちます",
        "引き分け",
        "投了",
    ):
        assert term in rules_brief("ja"), term


# ------------------------------------------------------------------ how a game ends


def test_each_ending_is_announced_in_its_words() -> None:
    won = example(7)
    assert end_words(won) == (
        "🏆 **alice** wins with a stack of all four colours on c6 after 7 turns!"
    )
    resigned = example(2)
    resigned.apply(Resign(0), by=0)  # Alice resigns on her turn
    assert end_words(resigned) == "🏳️ **alice** resigned; **bob** wins after 2 turns!"
    off_turn = example(1)  # Bob to move; Alice resigns off turn
    off_turn.apply(Resign(0), by=0)
    assert end_words(off_turn) == "🏳️ **alice** resigned; **bob** wins after 1 turn!"
    limit = ColorStackState((ALICE, BOB), ColorStackSettings(turn_limit=1))
    limit.apply(EXAMPLE)
    limit.apply(action("set a1 4"))
    assert end_words(limit) == "🤝 Draw: the turn limit (1 turn) was reached."
    repeated = example()
    for _ in range(2):  # the start position comes back twice more: a third occurrence
        for text in ("set a1 4", "set a6 1", "set a1 3", "set a6 2"):
            repeated.apply(action(text))
    assert repeated.ended_by == "repetition"
    assert end_words(repeated) == "🤝 Draw by threefold repetition, after 8 turns."


def test_names_in_the_ending_are_escaped() -> None:
    state = example(0, (NASTY[:32], "bob"))
    state.apply(Resign(1), by=1)
    words = end_words(state)
    assert NASTY[:32] not in words and "@everyone" not in words.replace("@\u200beveryone", "")


# ------------------------------------------------------------------ in Japanese

NOTATION = re.compile(
    r"(?<![A-Za-z0-9])(?:[a-i][1-9]|set|resign|alice|bob|[RBYG][1-6])(?![A-Za-z0-9])"
)
COMMANDS = re.compile(r"`/[^`]*`")


def english_left(text: str) -> list[str]:
    """English words a Japanese text holds, other than names, squares, typed notation
    and commands."""
    return re.findall(r"[A-Za-z]{2,}", NOTATION.sub(" ", COMMANDS.sub(" ", text)))


def every_text(state: ColorStackState, seat: int) -> list[str]:
    """Every text of the table and of ``seat``'s panel at every step."""
    from bot.games.colorstack.game import DISCORD_GAME

    texts = [field_text(state, ["x"]), end_words(state), DISCORD_GAME.title]
    texts += DISCORD_GAME.lobby_summary(ColorStackSettings(board="heavy"))
    texts.append(DISCORD_GAME.private_button.label)
    texts += list(DISCORD_GAME.figure_name)
    if state.is_over:
        return texts
    texts += [DISCORD_GAME.start_text(state), DISCORD_GAME.to_move_words(state, seat)]
    paths = [""] + [f"p{square_name(s)}" for s in state.pieces(seat)] + ["r"]
    for path in paths:
        step = node(state, seat, path)
        if step is None:
            continue
        texts += [step.question, *step.lines]
        texts += [c.label for c in step.choices]
        for menu in step.menus:
            texts.append(menu.placeholder)
            texts += [o.label for o in menu.options]
            texts += [o.description for o in menu.options if o.description]
    texts += [DISCORD_GAME.move_label(state, mv) for mv in state.legal_moves()[:10]]
    return texts


@pytest.mark.parametrize("seed", range(6))
def test_a_japanese_table_and_panel_leave_no_english_word(seed: int) -> None:
    state = random_state(seed, "heavy" if seed % 2 else "light")
    seat = state.current_player if state.current_player is not None else 0
    with catalog.speaking("ja"):
        texts = every_text(state, seat)
        texts += every_text(example(7), 0)  # a win
    for text in texts:
        assert english_left(text) == [], text


def test_the_japanese_words_read_as_the_original_says_them() -> None:
    from bot.games.colorstack.game import DISCORD_GAME

    state = example(4)
    with catalog.speaking("ja"):
        step = node(state, 0, "pc5")
        assert step is not None
        assert step.menus[0].options[0].label == "c6 · 🟩 緑の2に積む"
        assert [c.label for c in step.choices][:2] == ["目を2に", "目を3に"]
        assert "先手" in field_text(state, None)
        assert end_words(example(7)) == "🏆 **alice**がc6で4色そろった山を作り、7手で勝ちました！"
        assert DISCORD_GAME.private_button.label == "手を選ぶ"
        assert DISCORD_GAME.title == "カラースタック"
    assert DISCORD_GAME.private_button.label == "My move"  # said anew in each language


def test_a_refusal_is_said_in_the_players_language_with_its_facts() -> None:
    from bot.games.colorstack.game import DISCORD_GAME
    from engine.colorstack.notation import parse_move
    from engine.errors import MoveError

    state = example()
    black = min(state.black_squares)
    with pytest.raises(MoveError) as caught:
        parse_move(state, f"c1-{square_name(black)}")
    assert DISCORD_GAME.refusal_words(caught.value) == f"{square_name(black)} is black."
    with catalog.speaking("ja"):
        assert DISCORD_GAME.refusal_words(caught.value) == f"{square_name(black)}は黒いマスです。"


def test_the_hint_is_the_engines_move_with_its_reason_in_the_language_spoken() -> None:
    from bot.games.colorstack.game import DISCORD_GAME
    from engine.colorstack.game import GAME

    state = example(6)  # Alice can win: d1-c6
    english = DISCORD_GAME.hint_text(state)
    assert english == GAME.hint(state)[1].replace("d1-c6", "`d1-c6`", 1)  # the move in code
    with catalog.speaking("ja"):
        why = DISCORD_GAME.hint_text(state)
    assert why.startswith("`d1-c6` で勝てます")


def test_the_colour_menu_names_the_other_player_as_they_are_in_its_plain_descriptions() -> None:
    """A menu's option descriptions are plain text (no markdown): the other player's name
    shows there as it is, not with the backslashes of the question's escaped name."""
    state = ColorStackState((ALICE, NASTY))
    state.apply(FirstPlayer(0))
    assert state.choosing_colours
    step = node(state, 0, "", [escape_name(name) for name in state.players])  # as the bot does
    assert step is not None
    [menu] = step.menus
    for option in menu.options:
        assert option.description is not None
        assert option.description.startswith(f"{NASTY} gets "), option.description
        assert "\u200b" not in option.description  # as typed: a description pings nobody
        assert "\\" not in option.description
        assert len(option.description) <= 100  # Discord's limit
    assert escape_name(NASTY) in step.question  # the question is markdown


def test_the_head_of_the_human_to_move_brackets_their_colours_in_the_tables_language() -> None:
    """``▶ @alice, it's your turn (🟥 red & 🟨 yellow)``; in Japanese the full-width
    brackets of the rest of its words (``▶ @alice さん、あなたの番です（🟥 赤・🟨 黄）``)."""
    from bot.games.colorstack.game import DISCORD_GAME

    state = example(0)
    parts = DISCORD_GAME.table_parts(state, current_user=42, turns=None)
    assert parts.head == "▶ <@42>, it's your turn (🟥 red & 🟨 yellow)", parts.head
    with catalog.speaking("ja"):
        parts = DISCORD_GAME.table_parts(state, current_user=42, turns=None)
    assert parts.head == "▶ <@42> さん、あなたの番です（🟥 赤・🟨 黄）", parts.head


def test_the_head_of_the_first_player_choosing_colours_says_what_they_choose() -> None:
    """Before the first turn the human to move chooses colours: the head says so, as
    Stack Up!'s says ``: choose the direction``."""
    from bot.games.colorstack.game import DISCORD_GAME

    state = ColorStackState((ALICE, NASTY))
    state.apply(FirstPlayer(0))
    parts = DISCORD_GAME.table_parts(state, current_user=42, turns=None)
    assert parts.head.startswith("▶ <@42>, it's your turn: choose your two colours"), parts.head
    with catalog.speaking("ja"):
        parts = DISCORD_GAME.table_parts(state, current_user=42, turns=None)
    assert parts.head.startswith("▶ <@42> さん、あなたの番です：自分の2色を選んでください"), (
        parts.head
    )


def test_the_head_of_a_table_closed_mid_game_says_it_is_closed_and_names_nobody() -> None:
    from bot.games.colorstack.game import DISCORD_GAME

    state = example(0)
    parts = DISCORD_GAME.table_parts(state, current_user=None, turns=None, closed=True)
    assert parts.head == "**This table is closed.**", parts.head
