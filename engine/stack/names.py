"""Naming a player in typed text: the rules every front end shares.

1. A name matches exactly first (case and spacing as the player's), then with runs of
   spaces read as one, then ignoring case. The first of these that matches anyone decides;
   when it matches several players, the text is ambiguous.
2. A leading ``@`` is ignored unless the name itself starts with it: ``@bob`` names a
   player called "@bob" if there is one, else "bob"; ``@@bob`` names "@bob".
3. A final number is a height when the words before it name a player (``bob 2`` is bob's
   2-high pile). When the whole text also names a player ("bob 2" and "bob" at one table)
   both readings stand. A name in double quotes is read whole: ``"bob 2" 1`` is the pile of
   height 1 of the player called "bob 2", ``"bob" 2`` is bob's 2-high pile.

Names may hold spaces, digits, markdown characters and any letters.
"""

from __future__ import annotations

import re
from functools import lru_cache
from typing import NamedTuple

from engine.names import NAME_KEYS, folded

_HEIGHT = re.compile(r"(?P<name>.+?)\s+(?P<height>[0-9]+)\Z", re.DOTALL)
_QUOTED = re.compile(r"[\"“”](?P<name>.+)[\"“”](?:\s+(?P<height>[0-9]+))?\Z", re.DOTALL)


class Reading(NamedTuple):
    """One way to read a target text: a seat, the words that named it, a height as typed."""

    seat: int
    name: str
    height: str | None


def find_players(players: tuple[str, ...], name: str) -> list[int]:
    """The seats ``name`` may mean (rules 1 and 2): one seat, several (ambiguous), or none."""
    forms = [name, name[1:]] if name.startswith("@") else [name]
    for key in NAME_KEYS:
        for form in forms:
            wanted = key(form)
            if not wanted:
                continue
            hits = [seat for seat, player in enumerate(players) if key(player) == wanted]
            if hits:
                return hits
    return []


def same_but_case(players: tuple[str, ...], name: str) -> list[int]:
    """Every seat whose name is ``name`` but for case, spacing and a leading ``@``."""
    forms = {folded(name), folded(name[1:])} if name.startswith("@") else {folded(name)}
    return [seat for seat, player in enumerate(players) if folded(player) in forms]


def readings(players: tuple[str, ...], text: str) -> tuple[Reading, ...]:
    """Every way ``text`` names a pile owner, with a height or without (rule 3)."""
    quoted = _QUOTED.match(text)
    if quoted and (seats := find_players(players, quoted["name"])):
        return tuple(Reading(s, quoted["name"], quoted["height"]) for s in seats)
    out = [Reading(s, text, None) for s in find_players(players, text)]
    if suffix := _HEIGHT.match(text):
        name = suffix["name"]
        out += [Reading(s, name, suffix["height"]) for s in find_players(players, name)]
    return tuple(out)


@lru_cache(maxsize=4096)
def target_notation(players: tuple[str, ...], owner: int, height: int) -> str:
    """The words that name ``owner``'s pile of ``height`` and nothing else (quoted if need be)."""
    name = players[owner]
    unquoted, quoted = f"{name} {height}", f'"{name}" {height}'
    for text in (unquoted, quoted):
        found = readings(players, text)
        if len(found) == 1 and found[0].seat == owner and found[0].height == str(height):
            return text
    return quoted
