"""Text in any script for the pictures: which font draws each character, and drawing text
in runs of one font each.

The fonts come from well-kept Debian packages, found at run time (``system-packages.txt``
lists them; the Docker image and CI install them):

1. DejaVu Sans (``fonts-dejavu-core``): Latin with accents, Greek, Cyrillic, symbols;
2. Noto Sans CJK (``fonts-noto-cjk``): Chinese, Japanese, Korean;
3. Symbola (``fonts-symbola``): emoji and symbols, in one colour, drawn at any size;
4. matplotlib's own DejaVu Sans, always there (matplotlib is a dependency), so a machine
   without the packages still draws Latin text.

For each character the first of these whose character map (read with fontTools) has it
draws it; the answer is cached per character. Text is split into runs of one font and
drawn run by run on one baseline. A character no font has is drawn as
:data:`SUBSTITUTE` ("?"), never as an empty box ("tofu"). Characters that only modify
their neighbours in ways these fonts cannot show (zero-width joiners, variation
selectors, skin-tone modifiers, tags) are left out; control characters become spaces.
Emoji sequences are drawn as whole as one-colour fonts allow (:func:`clean`: a family as
👪, a flag as its letters squared, 🅹🅿, a keycap as ❶), and a name is cut between
glyphs only (:func:`cuts`), never inside a sequence.

Right-to-left letters (Arabic, Hebrew) are laid out as the Unicode bidirectional algorithm
(UAX #9) says, in a subset enough for one line of names and words (:func:`levels`: the
text's direction from its first letter, isolates kept, numbers and neutrals resolved):
the runs are drawn in visual order (:func:`visual_runs`), a right-to-left run shaped and
drawn right to left by Pillow's Raqm layout (joined Arabic letters), or, without Raqm,
its letters in their joined presentation forms (:func:`_joined`) and reversed
(:func:`visual` gives the charts the same). Text without right-to-left letters is drawn
as before, run by run from the left.
"""

from __future__ import annotations

import importlib.util
import threading
import time
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache, lru_cache
from pathlib import Path
from typing import Literal, get_args

from fontTools.ttLib import TTCollection, TTFont  # type: ignore[import-untyped]
from PIL import Image, ImageDraw, ImageFont

Weight = Literal["regular", "bold"]
SUBSTITUTE = "?"  # drawn for a character that no font has
FONT_DIRS = (Path("/usr/share/fonts"), Path("/usr/local/share/fonts"))


@dataclass(frozen=True, slots=True)
class Face:
    """One font file (and its index in a collection), with the name it is known by."""

    name: str
    path: Path
    index: int = 0


# Per weight, each font as (name, file names to look for, index in a collection), in the
# order they are tried for a character.
_WANTED: dict[Weight, tuple[tuple[str, tuple[str, ...], int], ...]] = {
    "regular": (
        ("DejaVu Sans", ("DejaVuSans.ttf",), 0),
        ("Noto Sans CJK JP", ("NotoSansCJK-Regular.ttc",), 0),
        ("Symbola", ("Symbola.ttf", "Symbola_hint.ttf", "Symbola.otf"), 0),
    ),
    "bold": (
        ("DejaVu Sans Bold", ("DejaVuSans-Bold.ttf",), 0),
        ("Noto Sans CJK JP Bold", ("NotoSansCJK-Bold.ttc",), 0),
        ("Noto Sans CJK JP", ("NotoSansCJK-Regular.ttc",), 0),
        ("Symbola", ("Symbola.ttf", "Symbola_hint.ttf", "Symbola.otf"), 0),
        # what only the regular weight has (Arabic mathematical letters): not "?" in bold
        ("DejaVu Sans", ("DejaVuSans.ttf",), 0),
    ),
}
_KNOWN_PLACES = {
    "DejaVuSans.ttf": "truetype/dejavu",
    "DejaVuSans-Bold.ttf": "truetype/dejavu",
    "NotoSansCJK-Regular.ttc": "opentype/noto",
    "NotoSansCJK-Bold.ttc": "opentype/noto",
    "Symbola_hint.ttf": "truetype/ancient-scripts",
    "Symbola.ttf": "truetype/ancient-scripts",
}
_BUNDLED = {"regular": "DejaVuSans.ttf", "bold": "DejaVuSans-Bold.ttf"}

_LOCK = threading.RLock()

LRI, RLI, FSI, PDI = "\u2066", "\u2067", "\u2068", "\u2069"  # the isolates (UAX #9)
_ISOLATES = frozenset((LRI, RLI, FSI, PDI))
_RIGHT_TO_LEFT = frozenset(("R", "AL", "AN", "RLE", "RLO", "RLI"))  # what makes a level odd
_MIRRORED = str.maketrans("()[]{}<>«»‹›", ")(][}{><»«›‹")  # drawn mirrored right to left


def _find_system_font(file_names: Iterable[str]) -> Path | None:
    """Where one of ``file_names`` is installed: the Debian package's place first, then
    anywhere under the font folders."""
    for file_name in file_names:
        for folder in FONT_DIRS:
            known = _KNOWN_PLACES.get(file_name)
            if known is not None and (folder / known / file_name).is_file():
                return folder / known / file_name
    for file_name in file_names:
        for folder in FONT_DIRS:
            if folder.is_dir():
                for found in sorted(folder.rglob(file_name)):
                    if found.is_file():
                        return found
    return None


def bundled_font(weight: Weight = "regular") -> Path | None:
    """matplotlib's own copy of DejaVu Sans (found without importing matplotlib)."""
    spec = importlib.util.find_spec("matplotlib")
    if spec is None or spec.origin is None:
        return None
    path = Path(spec.origin).parent / "mpl-data" / "fonts" / "ttf" / _BUNDLED[weight]
    return path if path.is_file() else None


@cache
def faces(weight: Weight = "regular") -> tuple[Face, ...]:
    """The fonts found on this machine for ``weight``, in the order they are tried."""
    found: list[Face] = []
    for name, file_names, index in _WANTED[weight]:
        path = _find_system_font(file_names)
        if path is not None:
            found.append(Face(name, path, index))
    bundled = bundled_font(weight)
    if bundled is not None:
        found.append(
            Face(f"DejaVu Sans ({'bold, ' if weight == 'bold' else ''}matplotlib)", bundled)
        )
    return tuple(found)


@cache
def _cmap(face: Face) -> frozenset[int]:
    """The characters ``face`` has a glyph for."""
    with _LOCK:
        if face.path.suffix.lower() in (".ttc", ".otc"):
            font = TTCollection(str(face.path), lazy=True).fonts[face.index]
        else:
            font = TTFont(str(face.path), lazy=True, fontNumber=face.index)
        try:
            return frozenset(font.getBestCmap() or {})
        finally:
            font.close()


def prepare() -> float:
    """Read every font's character map now (about 0.15 s a font, once per process), so
    that no picture pays for it later; the seconds it took."""
    started = time.perf_counter()
    for weight in get_args(Weight):
        for face in faces(weight):
            _cmap(face)
    return time.perf_counter() - started


def has_glyph(face: Face, char: str) -> bool:
    """Whether ``face`` has a glyph for ``char``."""
    return ord(char) in _cmap(face)


_CHOICE: dict[tuple[str, Weight], Face | None] = {}


def face_for(char: str, weight: Weight = "regular") -> Face | None:
    """The first font that has ``char``, or ``None`` when none has it (cached)."""
    key = (char, weight)
    if key in _CHOICE:
        return _CHOICE[key]
    choice = next((face for face in faces(weight) if has_glyph(face, char)), None)
    _CHOICE[key] = choice
    return choice


def _invisible(char: str) -> bool:
    """A character that only modifies its neighbours (joiners, variation selectors,
    skin tones, tags) or is a format character: left out of the drawn text."""
    code = ord(char)
    return (
        unicodedata.category(char) == "Cf"
        or 0xFE00 <= code <= 0xFE0F
        or 0xE0100 <= code <= 0xE01EF
        or 0x1F3FB <= code <= 0x1F3FF
    )


JOINER = "\u200d"  # zero-width joiner: kept between the emoji of one sequence, not drawn
_KEYCAP = "\u20e3"
_KEYCAPS = dict(
    zip("0123456789", "\u24ff\u2776\u2777\u2778\u2779\u277a\u277b\u277c\u277d\u277e", strict=True)
)
_FLAG_LETTERS = range(0x1F1E6, 0x1F200)  # the regional indicators: a flag is two of them
_SQUARED_LETTERS = 0x1F170  # negative squared Latin capital letter A (🅰): a flag's letter
# what a sequence's member only says of the emoji before it, which one colour cannot show:
# a woman's or man's sign, hair (red, curly, white, bald)
_MODIFYING_MEMBERS = frozenset(("\u2640", "\u2642", *map(chr, range(0x1F9B0, 0x1F9B4))))
_PEOPLE = frozenset(map(chr, (0x1F468, 0x1F469, 0x1F467, 0x1F466, 0x1F9D1, 0x1F9D2, 0x1F476)))
_FAMILY, _COUPLE, _KISS = "\U0001f46a", "\U0001f491", "\U0001f48f"  # 👪 💑 💏
_HEART, _KISS_MARK = "\u2764", "\U0001f48b"


THIN_SPACE = "\u2009"


def _pictograph(char: str) -> bool:
    """A character an emoji sequence joins (a symbol: emoji, dingbats, a flag's letter)."""
    return unicodedata.category(char) == "So"


def clean(text: str) -> str:
    """``text`` as it is drawn: composed (NFC), on one line (control characters and line
    breaks become spaces), without the characters :func:`_invisible` leaves out but the
    isolates (:data:`FSI`… :data:`PDI`, as :func:`catalog.isolate` puts them around a
    name in a sentence), which are not drawn but say which way the name reads.

    Emoji sequences are drawn as whole as one-colour fonts allow (:func:`_emoji`): a
    family or a couple as its one emoji (👨‍👩‍👧‍👦 as 👪), a flag as its two letters
    squared (🇯🇵 as 🅹🅿), a keycap as its digit in a disc (1️⃣ as ❶), a sequence of
    other emoji as its members (🏳️‍🌈 as 🏳🌈), joined by :data:`JOINER` (not drawn), so
    that a name is never cut inside one (:func:`cuts`)."""
    out: list[str] = []
    flag = False  # whether the last character kept is a flag's first letter
    flag_end = -1  # how long ``out`` was once the last whole flag was kept
    line = unicodedata.normalize("NFC", text)
    for at, char in enumerate(line):
        if char in "\t\n\r\x0b\x0c\x85\u2028\u2029" or unicodedata.category(char) == "Cc":
            out.append(" ")
        elif char == JOINER:
            after = next((c for c in line[at + 1 :] if not _invisible(c)), "")
            if out and _pictograph(out[-1]) and _pictograph(after):
                out.append(JOINER)  # joins the emoji before and after it
        elif char == _KEYCAP and out and out[-1] in "0123456789#*":
            out[-1] = _KEYCAPS.get(out[-1], out[-1])
        elif ord(char) in _FLAG_LETTERS:
            letter = chr(_SQUARED_LETTERS + ord(char) - _FLAG_LETTERS.start)
            if face_for(letter) is None:
                letter = chr(ord("A") + ord(char) - _FLAG_LETTERS.start)
            if flag:
                out.append(JOINER)
            elif flag_end == len(out):  # squared letters or plain ones alike
                out.append(THIN_SPACE)  # a flag after a flag: apart, not one code
            out.append(letter)
            flag = not flag
            if not flag:
                flag_end = len(out)
            continue
        elif not _invisible(char) or char in _ISOLATES:
            out.append(char)
        flag = False
    return _emoji("".join(out))


def _emoji(text: str) -> str:
    """``text`` with each emoji sequence (emoji joined by :data:`JOINER`) as it is drawn:
    without the members that only modify the emoji before them (:data:`_MODIFYING_MEMBERS`)
    or that no font has; a family or a couple of people as its one emoji."""
    if JOINER not in text:
        return text
    out: list[str] = []
    at = 0
    while at < len(text):
        end = at + 1
        while end + 1 < len(text) and text[end] == JOINER:
            end += 2  # the sequence goes on with the member after the joiner
        sequence = list(text[at:end:2])
        if len(sequence) > 1:
            kept = [
                member
                for member in sequence
                if member not in _MODIFYING_MEMBERS and face_for(member) is not None
            ] or sequence[:1]
            if len(kept) > 1 and set(kept) <= _PEOPLE | {_HEART, _KISS_MARK}:
                one = _KISS if _KISS_MARK in kept else _COUPLE if _HEART in kept else _FAMILY
                if face_for(one) is not None:
                    kept = [one]
            sequence = [JOINER.join(kept)]
        out.extend(sequence)
        at = end
    return "".join(out)


def cuts(text: str) -> list[int]:
    """Where ``text`` (cleaned) may be cut, from 0 to its length: between two glyphs,
    never inside an emoji sequence (at a :data:`JOINER`) nor before a combining mark."""
    return [
        at
        for at in range(len(text) + 1)
        if at in (0, len(text))
        or not (
            text[at] == JOINER
            or text[at - 1] == JOINER
            or unicodedata.category(text[at]).startswith("M")
        )
    ]


@lru_cache(maxsize=4096)
def runs(text: str, weight: Weight = "regular") -> tuple[tuple[str, Face | None], ...]:
    """``text`` (cleaned) split into runs of characters drawn by one font: each character
    in the first font that has it (:func:`face_for`), except that spaces and combining
    marks stay in the run before them when its font has them. A character no font has
    becomes :data:`SUBSTITUTE`. ``None`` as a run's font means Pillow's built-in font
    (only when no font file is found at all)."""
    out: list[tuple[str, Face | None]] = []
    current: Face | None = None
    chars: list[str] = []
    fallback = faces(weight)[0] if faces(weight) else None
    for char in clean(text):
        if char in _ISOLATES or char == JOINER:
            continue  # not drawn (visual_runs reads the isolates)
        if (
            chars
            and current is not None
            and (char == " " or unicodedata.category(char).startswith("M"))
            and has_glyph(current, char)
        ):
            chars.append(char)  # a space or a mark stays with the run before it
            continue
        face = face_for(char, weight)
        if face is None:
            if unicodedata.category(char).startswith("M"):
                continue  # a combining mark no font has: left out
            char, face = SUBSTITUTE, fallback
        if chars and face == current:
            chars.append(char)
        else:
            if chars:
                out.append(("".join(chars), current))
            chars, current = [char], face
    if chars:
        out.append(("".join(chars), current))
    return tuple(out)


def _types(chars: str) -> list[str]:
    """Each character's bidirectional type, simplified: ``L``, ``R``, ``AL``, ``EN``,
    ``AN``, ``ES``, ``ET``, ``CS``, ``NSM`` or ``N`` (every neutral and format character)."""
    out = []
    for char in chars:
        kind = unicodedata.bidirectional(char)
        out.append(kind if kind in ("L", "R", "AL", "EN", "AN", "ES", "ET", "CS", "NSM") else "N")
    return out


def _first_strong(chars: str) -> int:
    """0 if the first strong letter of ``chars`` (outside isolates) is left-to-right or
    there is none, 1 if it is right-to-left."""
    depth = 0
    for char in chars:
        if char in (LRI, RLI, FSI):
            depth += 1
        elif char == PDI and depth:
            depth -= 1
        elif not depth:
            kind = unicodedata.bidirectional(char)
            if kind == "L":
                return 0
            if kind in ("R", "AL"):
                return 1
    return 0


def _resolve(chars: str, base: int, out: list[int]) -> None:
    """Append the levels of ``chars`` (one isolating sequence and the isolates in it) at
    paragraph or isolate level ``base`` to ``out`` (UAX #9 W1-W7, N1-N2, I1-I2; an isolate
    is a neutral of its sequence, its content resolved on its own)."""
    # the sequence's own characters (an isolate's initiator and PDI stand for it)
    own: list[int] = []  # indices into chars of the sequence's characters
    inner: dict[int, tuple[int, int, int]] = {}  # initiator -> (content start, end, level)
    i = 0
    while i < len(chars):
        char = chars[i]
        own.append(i)
        if char in (LRI, RLI, FSI):
            depth, j = 1, i + 1
            while j < len(chars) and depth:
                if chars[j] in (LRI, RLI, FSI):
                    depth += 1
                elif chars[j] == PDI:
                    depth -= 1
                j += 1
            end = j - 1 if depth == 0 else j  # the matching PDI, or the text's end
            rtl = char == RLI or (char == FSI and _first_strong(chars[i + 1 : end]) == 1)
            level = base + (2 if (base % 2 == 1) == rtl else 1)
            inner[i] = (i + 1, end, level)
            i = end
            continue
        i += 1
    types = _types(
        "".join(chars[k] if k not in inner and chars[k] != PDI else "\u2068" for k in own)
    )
    edge = "R" if base % 2 else "L"
    previous = edge
    strong = edge
    for at, kind in enumerate(types):  # W1, W2, W3: marks, Arabic numbers, Arabic letters
        if kind == "NSM":
            kind = types[at] = previous if at else edge
        if kind == "EN" and strong == "AL":
            types[at] = "AN"
        if kind in ("L", "R", "AL"):
            strong = kind
        if kind == "AL":
            types[at] = "R"
        previous = types[at]
    for at in range(1, len(types) - 1):  # W4: one separator between two numbers
        before, kind, after = types[at - 1], types[at], types[at + 1]
        if kind == "ES" and before == after == "EN":
            types[at] = "EN"
        elif kind == "CS" and before == after and before in ("EN", "AN"):
            types[at] = before
    for at, kind in enumerate(types):  # W5: currency and percent signs beside numbers
        if kind == "ET":
            j = at
            while j < len(types) and types[j] == "ET":
                j += 1
            k = at
            while k > 0 and types[k - 1] == "ET":
                k -= 1
            if (j < len(types) and types[j] == "EN") or (k > 0 and types[k - 1] == "EN"):
                types[at] = "EN"
    strong = edge
    for at, kind in enumerate(types):  # W6, W7: other separators neutral, numbers after L
        if kind in ("ES", "ET", "CS"):
            types[at] = kind = "N"
        if kind in ("L", "R"):
            strong = kind
        elif kind == "EN" and strong == "L":
            types[at] = "L"
    at = 0
    while at < len(types):  # N1, N2: neutrals between letters of one direction take it
        if types[at] != "N":
            at += 1
            continue
        end = at
        while end < len(types) and types[end] == "N":
            end += 1
        before = edge if at == 0 else ("R" if types[at - 1] in ("R", "EN", "AN") else "L")
        after = edge if end == len(types) else ("R" if types[end] in ("R", "EN", "AN") else "L")
        for k in range(at, end):
            types[k] = before if before == after else edge
        at = end
    for k, kind in zip(own, types, strict=True):  # I1, I2
        if base % 2 == 0:
            level = base + (1 if kind == "R" else 2 if kind in ("EN", "AN") else 0)
        else:
            level = base + (1 if kind in ("L", "EN", "AN") else 0)
        out.append(level)  # (an isolate's content was appended after its initiator)
        if k in inner:
            start, end, inside = inner[k]
            out[k] = base  # the initiator and its PDI at the sequence's level
            content: list[int] = []
            _resolve(chars[start:end], inside, content)
            out.extend(content)
    for k in own:
        if chars[k] == PDI:
            out[k] = base


def levels(text: str) -> list[int] | None:
    """The embedding level of each character of ``text`` (UAX #9, one paragraph, its
    direction from its first strong letter): even left to right, odd right to left;
    ``None`` when nothing in it is right to left (everything drawn left to right)."""
    if not any(unicodedata.bidirectional(char) in _RIGHT_TO_LEFT for char in text):
        return None
    out: list[int] = []
    _resolve(text, _first_strong(text), out)
    base = _first_strong(text)
    end = len(text)
    while end and (text[end - 1].isspace() or text[end - 1] in (LRI, RLI, FSI, PDI)):
        end -= 1
        out[end] = base  # L1: trailing spaces at the paragraph's level
    return out


def _one_line(text: str) -> str:
    """``text`` composed (NFC), its control characters and line breaks as spaces."""
    return "".join(
        " "
        if char in "\t\n\r\x0b\x0c\x85\u2028\u2029" or unicodedata.category(char) == "Cc"
        else char
        for char in unicodedata.normalize("NFC", text)
    )


@lru_cache(maxsize=4096)
def visual_runs(text: str, weight: Weight = "regular") -> tuple[tuple[str, Face | None, bool], ...]:
    """:func:`runs` of ``text`` in the order they are drawn from the left, each with
    whether it is right to left (its characters then read from the right): runs split
    where the direction changes too (:func:`levels`), reordered as UAX #9 (L2) says."""
    line = _one_line(text)
    found = levels(line)
    if found is None:
        return tuple((run, face, False) for run, face in runs(text, weight))
    groups: list[tuple[str, int]] = []  # the visible characters by level, in logical order
    for char, level in zip(line, found, strict=True):
        if _invisible(char):
            continue
        if groups and groups[-1][1] == level:
            groups[-1] = (groups[-1][0] + char, level)
        else:
            groups.append((char, level))
    pieces = [(run, face, level) for group, level in groups for run, face in runs(group, weight)]
    top = max((level for _, _, level in pieces), default=0)
    lowest_odd = min((level for _, _, level in pieces if level % 2), default=top + 1)
    for at_least in range(top, lowest_odd - 1, -1):  # L2: reverse each sequence at or above
        at = 0
        while at < len(pieces):
            if pieces[at][2] < at_least:
                at += 1
                continue
            end = at
            while end < len(pieces) and pieces[end][2] >= at_least:
                end += 1
            pieces[at:end] = pieces[at:end][::-1]
            at = end
    return tuple((run, face, level % 2 == 1) for run, face, level in pieces)


def visual(text: str, weight: Weight = "regular") -> str:
    """``text`` (cleaned) with its characters in the order they are drawn from the left,
    for a layout that can neither reorder nor shape (matplotlib's): right-to-left runs
    reversed, their brackets mirrored, Arabic letters in their joined forms."""
    return "".join(
        _reversed(_joined(run, face)) if rtl else run
        for run, face, rtl in visual_runs(text, weight)
    )


_JOINING_FORMS = ("isolated", "final", "initial", "medial")


@cache
def _arabic_forms() -> dict[str, dict[str, str]]:
    """Each Arabic letter's (or lam-alef pair's) presentation forms by position, from
    Unicode's decompositions of the presentation forms."""
    forms: dict[str, dict[str, str]] = {}
    for code in (*range(0xFB50, 0xFE00), *range(0xFE70, 0xFF00)):
        parts = unicodedata.decomposition(chr(code)).split()
        if len(parts) >= 2 and parts[0][1:-1] in _JOINING_FORMS:
            base = "".join(chr(int(part, 16)) for part in parts[1:])
            forms.setdefault(base, {})[parts[0][1:-1]] = chr(code)
    return forms


def _joined(run: str, face: Face | None) -> str:
    """``run`` (logical order) with each Arabic letter in the form its neighbours join it
    in (initial, medial, final, isolated) and lam-alef as one ligature, where ``face``
    has the form: Arabic shaped without a layout engine."""
    forms = _arabic_forms()
    if face is None or not any(char in forms for char in run):
        return run

    def form(key: str, position: str) -> str:
        choice = forms.get(key, {}).get(position)
        return choice if choice is not None and has_glyph(face, choice) else ""

    letters = list(run)
    for at in range(len(letters) - 1):  # lam-alef: one letter joined only on its right
        pair = letters[at] + letters[at + 1]
        if pair in forms and form(pair, "isolated"):
            letters[at : at + 2] = [pair, ""]

    def joins_forward(key: str) -> bool:
        return key == "\u0640" or bool(form(key, "medial") or form(key, "initial"))

    def joins_back(key: str) -> bool:
        return key == "\u0640" or bool(form(key, "final"))

    shown = []
    for at, key in enumerate(letters):
        if not key or key not in forms:
            shown.append(key)
            continue
        before = next((k for k in reversed(letters[:at]) if k and not _transparent(k)), "")
        after = next((k for k in letters[at + 1 :] if k and not _transparent(k)), "")
        back = bool(before) and joins_forward(before) and joins_back(key)
        forward = bool(after) and joins_forward(key) and joins_back(after)
        position = (
            "medial" if back and forward else "final" if back else "initial" if forward else ""
        )
        chosen = form(key, position) if position else ""
        if not chosen and position == "medial":
            chosen = form(key, "final")
        shown.append(chosen or form(key, "isolated") or key)
    return "".join(shown)


def _transparent(key: str) -> bool:
    """A mark that does not break the joining of the letters around it."""
    return len(key) == 1 and unicodedata.category(key) == "Mn"


@cache
def _raqm() -> bool:
    """Whether Pillow lays text out with Raqm here (shaping, right to left)."""
    from PIL import features

    return bool(features.check_feature("raqm"))


def _reversed(run: str) -> str:
    """A right-to-left run's characters from the left, for a layout that cannot do it:
    each letter with its marks after it, brackets mirrored."""
    clusters: list[str] = []
    for char in run:
        if clusters and unicodedata.category(char).startswith("M"):
            clusters[-1] += char
        else:
            clusters.append(char)
    return "".join(reversed(clusters)).translate(_MIRRORED)


def _run_width(run: str, face: Face | None, size: int, rtl: bool) -> float:
    if rtl and face is not None and _raqm():
        return float(font(face, size, shaped=True).getlength(run, direction="rtl"))
    return float(font(face, size).getlength(_reversed(_joined(run, face)) if rtl else run))


def missing(text: str, weight: Weight = "regular") -> set[str]:
    """The characters of ``text`` (cleaned) that no font has (drawn as the substitute)."""
    return {
        char
        for char in clean(text)
        if face_for(char, weight) is None
        and not unicodedata.category(char).startswith("M")
        and char not in _ISOLATES
    }


_FONTS: dict[tuple[Face | None, int, bool], ImageFont.FreeTypeFont | ImageFont.ImageFont] = {}


def font(
    face: Face | None, size: int, *, shaped: bool = False
) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    """``face`` at ``size`` pixels (loaded once); Pillow's own font for ``None``.
    ``shaped``: laid out by Raqm (right-to-left runs), else character by character."""
    key = (face, size, shaped)
    loaded = _FONTS.get(key)
    if loaded is None:
        with _LOCK:
            loaded = _FONTS.get(key)
            if loaded is None:
                if face is None:
                    loaded = ImageFont.load_default(size=size)
                else:
                    loaded = ImageFont.truetype(
                        str(face.path),
                        size,
                        index=face.index,
                        layout_engine=ImageFont.Layout.RAQM if shaped else ImageFont.Layout.BASIC,
                    )
                _FONTS[key] = loaded
    return loaded


def text_width(text: str, size: int, weight: Weight = "regular") -> float:
    """How wide ``text`` is drawn at ``size`` pixels."""
    with _LOCK:  # a FreeType face is not for two threads at once
        return sum(_run_width(run, face, size, rtl) for run, face, rtl in visual_runs(text, weight))


@lru_cache(maxsize=4096)
def fit(text: str, width: float, size: int, weight: Weight = "regular") -> str:
    """``text`` (cleaned) shortened with "…" to be at most ``width`` pixels wide."""
    text = clean(text)
    if text_width(text, size, weight) <= width:
        return text
    places = cuts(text)
    low, high = 0, len(places) - 1  # the longest prefix that fits with the ellipsis
    while low < high:
        middle = (low + high + 1) // 2
        if text_width(text[: places[middle]].rstrip() + "…", size, weight) <= width:
            low = middle
        else:
            high = middle - 1
    return text[: places[low]].rstrip() + "…"


TAIL = 4  # characters at least kept of a name's end when it is cut in the middle
TAIL_REACH = 6  # characters further back a name's end may reach to start at a word


@lru_cache(maxsize=1024)
def fit_apart(
    names: tuple[str, ...], widths: tuple[float, ...], size: int, weight: Weight = "regular"
) -> tuple[str, ...]:
    """Each of ``names`` (cleaned) fitted to its width as :func:`fit` does, except a name
    whose cut would read as the beginning of another's: that one keeps its end too, cut in
    the middle, so players whose long names start alike are told apart
    (``Alexandra Kon…Li 1``, ``Alexandra Kon…Li 2``). Names that are the same stay so."""
    cleaned = [clean(name) for name in names]
    return tuple(
        _apart(name, [other for other in cleaned if other != name], width, size, weight)
        for name, width in zip(cleaned, widths, strict=True)
    )


def _apart(name: str, others: list[str], width: float, size: int, weight: Weight) -> str:
    """``name`` fitted to ``width``, its end kept where its cut would begin another of
    ``others``; the cut of :func:`fit` if no end that fits tells it apart."""
    cut = fit(name, width, size, weight)
    if cut == name:
        return cut
    head, shown, rivals = cut.removesuffix("…"), cut, 0
    while True:
        # the names the cut could be, the head shortening as the end takes its room
        alike = [other for other in others if other.startswith(head)]
        if len(alike) == rivals:
            return shown
        rivals = len(alike)
        start = _tail_start(name, alike)
        if start is None:
            return cut
        tail = name[start:]
        kept = _longest_head(name[:start], tail, width, size, weight)
        if kept is None:
            return cut
        head, shown = kept, kept + "…" + tail


def _tail_start(name: str, alike: list[str]) -> int | None:
    """Where the end of ``name`` that none of ``alike`` ends with begins: at least
    :data:`TAIL` characters, from the start of a word if one starts a little before;
    ``None`` if every end of it is another's."""
    for length in range(1, len(name) + 1):
        if not any(other.endswith(name[-length:]) for other in alike):
            break
    else:
        return None
    start = max(0, len(name) - max(length, TAIL))
    places = cuts(name)
    start = max(at for at in places if at <= start)  # an emoji sequence's end: all of it
    for back in range(start, max(0, start - TAIL_REACH) - 1, -1):
        if back in places and (back == 0 or not name[back - 1].isalnum()):
            return back
    return start


def _longest_head(head: str, tail: str, width: float, size: int, weight: Weight) -> str | None:
    """The longest beginning of ``head`` that fits in ``width`` with "…" and ``tail``
    after it (shorter than ``head``: the whole name did not fit); ``None`` if not even
    "…" and ``tail`` fit."""
    if text_width("…" + tail, size, weight) > width:
        return None
    places = cuts(head)[:-1]
    low, high = 0, len(places) - 1
    while low < high:
        middle = (low + high + 1) // 2
        if text_width(head[: places[middle]].rstrip() + "…" + tail, size, weight) <= width:
            low = middle
        else:
            high = middle - 1
    return head[: places[low]].rstrip()


def draw_text(
    draw: ImageDraw.ImageDraw,
    xy: tuple[float, float],
    text: str,
    size: int,
    fill: int | tuple[int, ...],
    weight: Weight = "regular",
) -> float:
    """Draw ``text`` with its left end and baseline at ``xy``, run by run; the width
    drawn."""
    x, y = xy
    with _LOCK:  # a FreeType face is not for two threads at once
        for run, face, rtl in visual_runs(text, weight):
            if rtl and face is not None and _raqm():
                shaped = font(face, size, shaped=True)
                draw.text((x, y), run, font=shaped, fill=fill, anchor="ls", direction="rtl")
            else:
                shown = _reversed(_joined(run, face)) if rtl else run
                draw.text((x, y), shown, font=font(face, size), fill=fill, anchor="ls")
            x += _run_width(run, face, size, rtl)
    return x - xy[0]


def text_mask(text: str, size: int, height: int, weight: Weight = "regular") -> Image.Image:
    """``text`` as coverage (mode ``L``, 255 = ink), ``height`` pixels high with the
    baseline where DejaVu Sans puts it to centre Latin capitals and digits."""
    width = max(1, int(text_width(text, size, weight) + 0.999) + 1)
    mask = Image.new("L", (width, height), 0)
    draw_text(ImageDraw.Draw(mask), (0, baseline(size, height)), text, size, 255, weight)
    return mask


def baseline(size: int, height: int) -> int:
    """Where the baseline goes in a line ``height`` pixels high so that capitals and
    digits (0.73 of the size high in DejaVu Sans) sit in its middle."""
    return round(height / 2 + 0.73 * size / 2)


def forget() -> None:
    """Forget the fonts found and every answer cached (the next call looks again)."""
    with _LOCK:
        faces.cache_clear()
        _cmap.cache_clear()
        runs.cache_clear()
        visual_runs.cache_clear()
        fit.cache_clear()
        fit_apart.cache_clear()
        _raqm.cache_clear()
        _arabic_forms.cache_clear()
        _CHOICE.clear()
        _FONTS.clear()
