"""``/rules`` for Color Stack: the rule book (``docs/colorstack-rules.md``; in Japanese
``docs/ja/colorstack-rules.md``) in brief, with how to play it on Discord, in the
reader's language (the catalog's ``colorstack.rules.brief``).

The printed game is Japanese, and the rule book follows the Japanese original where the
English translation strays; the Japanese brief reuses the original's own words
(前後左右に自由に, 積む, 同じあるいは上回っている, 下のサイコロは上のサイコロと一緒に動きます,
一度通ったマスは通れません, 同じ色のサイコロを積むことはできません, 積んだ上のサイコロも目を
変えられます, 先手). Both say the same rules: the board, the colours, a turn (move or set),
the stacking rule (strength with 6 beating 1, colours, the first-turn ban), winning, the
skip, the draws, resignation, and the notation. Commands and typed moves stay as they are
(``/move c1-e3``) in every language; the buttons are named as the reader sees them.
"""

from __future__ import annotations

import catalog
from bot.text import button_label
from catalog import t

__all__ = ["is_japanese", "rules_brief"]


def is_japanese(locale: str | None) -> bool:
    """Whether a Discord locale (``"ja"``, ``"en-US"``…) is Japanese."""
    return locale is not None and catalog.language_of(locale) == "ja"


def rules_brief(locale: str | None = None) -> str:
    """The brief in the reader's language: ``locale``'s (Discord's ``"ja"``, ``"en-US"``…;
    a language we do not speak reads English), or the language being spoken when
    ``None``."""
    language = catalog.current() if locale is None else catalog.language_of(locale)
    with catalog.speaking(language):
        return t("colorstack.rules.brief", button=button_label("colorstack.button.my_move"))
