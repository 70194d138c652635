"""No word a player reads is built outside the catalog: every front-end module (the bot,
the terminal, the web pages' server side, the pictures) says its words through
:func:`catalog.t` / :func:`catalog.n`; :mod:`catalog.scan` finds literals that look like
words anywhere else (a short, explicit list of exceptions is ``catalog/allowed.txt``)."""

from __future__ import annotations

from catalog.scan import ALLOWED, scan, scan_source


def test_no_player_facing_words_are_built_outside_the_catalog() -> None:
    found = scan()
    assert not found, "\n".join(str(item) for item in found[:60])


def test_the_scanner_finds_a_sentence_a_label_and_words_in_an_f_string() -> None:
    source = '''
def answer(name):
    """A docstring is no word for a player."""
    log.warning("a log line is for the operator")
    button = Button(label="Join")
    text = f"{name} left the table"
    raise ValueError("a programmer's error")
    return "It's your turn."
'''
    found = [item.text for item in scan_source(source)]
    assert found == ["Join", " left the table", "It's your turn."]


def test_words_through_the_catalog_are_not_found() -> None:
    source = 'import catalog\n\ntext = catalog.t("refusal.not_your_turn", player="bob")\n'
    assert scan_source(source) == []


def test_the_allowed_list_stays_short() -> None:
    assert len(ALLOWED) <= 40
