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


def clean(text: str) -> str:
    """``text`` as it is drawn: composed (NFC), on one line (control characters and line
    breaks become spaces), without the characters :func:`_invisible` leaves out."""
    out = []
    for char in unicodedata.normalize("NFC", text):
        if char in "\t\n\r\x0b\x0c\x85\u2028\u2029" or unicodedata.category(char) == "Cc":
            out.append(" ")
        elif not _invisible(char):
            out.append(char)
    return "".join(out)


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


def missing(text: str, weight: Weight = "regular") -> set[str]:
    """The characters of ``text`` (cleaned) that no font has (drawn as the substitute)."""
    return {
        char
        for char in clean(text)
        if face_for(char, weight) is None and not unicodedata.category(char).startswith("M")
    }


_FONTS: dict[tuple[Face | None, int], ImageFont.FreeTypeFont | ImageFont.ImageFont] = {}


def font(face: Face | None, size: int) -> ImageFont.FreeTypeFont | ImageFont.ImageFont:
    """``face`` at ``size`` pixels (loaded once); Pillow's own font for ``None``."""
    key = (face, size)
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
                        layout_engine=ImageFont.Layout.BASIC,
                    )
                _FONTS[key] = loaded
    return loaded


def text_width(text: str, size: int, weight: Weight = "regular") -> float:
    """How wide ``text`` is drawn at ``size`` pixels."""
    with _LOCK:  # a FreeType face is not for two threads at once
        return sum(font(face, size).getlength(run) for run, face in runs(text, weight))


@lru_cache(maxsize=4096)
def fit(text: str, width: float, size: int, weight: Weight = "regular") -> str:
    """``text`` (cleaned) shortened with "…" to be at most ``width`` pixels wide."""
    text = clean(text)
    if text_width(text, size, weight) <= width:
        return text
    low, high = 0, len(text)  # the longest prefix that fits with the ellipsis
    while low < high:
        middle = (low + high + 1) // 2
        if text_width(text[:middle].rstrip() + "…", size, weight) <= width:
            low = middle
        else:
            high = middle - 1
    return text[:low].rstrip() + "…"


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
    for back in range(start, max(0, start - TAIL_REACH) - 1, -1):
        if back == 0 or not name[back - 1].isalnum():
            return back
    return start


def _longest_head(head: str, tail: str, width: float, size: int, weight: Weight) -> str | None:
    """The longest beginning of ``head`` that fits in ``width`` with "…" and ``tail``
    after it (shorter than ``head``: the whole name did not fit); ``None`` if not even
    "…" and ``tail`` fit."""
    if text_width("…" + tail, size, weight) > width:
        return None
    low, high = 0, len(head) - 1
    while low < high:
        middle = (low + high + 1) // 2
        if text_width(head[:middle].rstrip() + "…" + tail, size, weight) <= width:
            low = middle
        else:
            high = middle - 1
    return head[:low].rstrip()


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
        for run, face in runs(text, weight):
            loaded = font(face, size)
            draw.text((x, y), run, font=loaded, fill=fill, anchor="ls")
            x += loaded.getlength(run)
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
        fit.cache_clear()
        _CHOICE.clear()
        _FONTS.clear()
