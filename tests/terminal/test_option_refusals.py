"""Every refusal of a ``stackbot play`` command line ends the same way: a sentence with its
full stop (``.`` in English, ``。`` in Japanese), whether argparse, the command's own
checks, the game's set-up or ``--export``'s folder refused it; and a wrong number of
players is said with the number given, in every game."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import catalog
from bot.cli import main

# Bad command lines (after `stackbot play`), one of each way the command refuses; {tmp}
# is a folder that exists.
BAD_LINES = [
    "--bots x",  # argparse: not an integer
    "--bots",  # argparse: no value
    "--game chess",  # argparse: not a choice
    "--level zz",
    "--players ,",  # argparse: the type's own message
    "--frob",  # argparse: unknown option
    "--bots 9",  # the range of --bots
    "--game colorstack --bots 3",
    "",  # nobody to play
    "--game stackup",
    "--board heavy",  # another game's option
    "--turn-limit 5 --board light",
    "--game stackup --board heavy",
    "--game stackup --target 100",
    "--game colorstack --dice 3",
    "--target 0 --bots 2",  # an option's value
    "--target 20000 --bots 2",
    "--dice 99 --bots 2",
    "--game stackup --turn-limit 0 --bots 2",
    "--game colorstack --board huge --bots 2",
    "--players alice",  # how many players
    "--players a,b,c,d,e,f,g,h,i",
    "--game stackup --bots 1",
    "--game stackup --players a,b,c,d,e,f,g",
    "--game colorstack --players alice",
    "--game colorstack --players a --bots 2",
    "--players a,a",  # names
    "--game stackup --players a,a",
    "--export {tmp}/nowhere/game.json --bots 2",  # where the record goes
    "--game colorstack --export {tmp} --bots 2",
]

STOPS = {"en": ".", "ja": "。"}


def refusal(capsys: pytest.CaptureFixture[str], lang: str, line: str) -> str:
    """The last line ``stackbot play --lang LANG LINE`` says on stderr, having refused."""
    try:
        code = main(["play", "--lang", lang, *line.split()])
    except SystemExit as end:  # argparse's refusals
        code = int(end.code or 0)
    said = capsys.readouterr()
    assert code == 2 and said.out == "", (lang, line, said.out)
    return said.err.rstrip("\n").splitlines()[-1]


def test_every_option_refusal_ends_with_a_full_stop_and_gives_the_players_count(
    capsys: pytest.CaptureFixture[str], tmp_path: Path
) -> None:
    for lang, stop in STOPS.items():
        for bad in BAD_LINES:
            line = bad.format(tmp=tmp_path)
            said = refusal(capsys, lang, line)
            assert re.match(r"stackbot( play)?: ", said), (lang, line, said)
            assert said.endswith(stop) and not said.endswith(stop * 2), (lang, line, said)
            other = STOPS["ja" if lang == "en" else "en"]
            assert not said.endswith(other + stop), (lang, line, said)
    # a wrong number of players: the number given, Stack's, Stack Up!'s and Color Stack's
    for line, english, japanese in [
        ("--players alice", "Stack needs 2 to 8 players, not 1.", "スタックは2〜8人で遊びます（1人では遊べません）。"),
        ("--game stackup --bots 1", "Stack Up! needs 2 to 6 players, not 1.", "スタックアップ！は2〜6人で遊びます（1人では遊べません）。"),
        ("--game stackup --players a --bots 6", "Stack Up! needs 2 to 6 players, not 7.", "スタックアップ！は2〜6人で遊びます（7人では遊べません）。"),
        ("--game colorstack --players a,b,c", "Color Stack is for 2 players, not 3.", "カラースタックは2人で遊びます（3人では遊べません）。"),
    ]:  # fmt: skip
        assert refusal(capsys, "en", line) == f"stackbot play: {english}"
        assert refusal(capsys, "ja", line) == f"stackbot play: {japanese}"
    # a refusal no command line reaches today (every game has every AI level) alike
    for lang, stop in STOPS.items():
        with catalog.speaking(lang):
            assert catalog.t("terminal.cli.no_level", title="Stack", level="zz").endswith(stop)


@pytest.mark.parametrize("game", ["stack", "stackup", "colorstack"])
def test_two_players_of_one_name_are_told_so_in_the_terminals_words(
    capsys: pytest.CaptureFixture[str], game: str
) -> None:
    """Every game refuses a name given twice in the same words, the terminal's (no
    nickname to change at a terminal: Discord's words for it stay Discord's)."""
    for lang in ("en", "ja"):
        said = refusal(capsys, lang, f"--game {game} --players ann,ann")
        with catalog.speaking(lang):
            assert said.endswith(catalog.t("terminal.setup.different_names")), said
    assert "nickname" not in refusal(capsys, "en", f"--game {game} --players ann,ann")
