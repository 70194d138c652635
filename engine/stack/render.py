"""Text rendering of a table: pure functions to strings that read well in a terminal and
as a Discord message (markdown bold, colour square emoji)."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from engine.game import Decision
from engine.stack.describe import last_turn_words, pile_words
from engine.stack.moves import FACES, face_value
from engine.stack.state import StackState

COLOURS = ("red", "blue", "green", "yellow", "purple", "orange", "brown", "white")
SQUARES = ("🟥", "🟦", "🟩", "🟨", "🟪", "🟧", "🟫", "⬜")
DISCORD_LIMIT = 2000
NAME_WIDTH = 20
SUPERSCRIPT = {2: "²", 3: "³"}
LINE_WIDTH = 40  # characters a phone shows on one line of a Discord message
INDENT = "\u2003"  # an em space: Discord keeps it (it trims ordinary leading spaces)
LEGEND = "-# 1×3: three 1s · 5²: a pile of two 5s · 6⁴: a captured pile"

NameFormat = Callable[[str], str]
"""How a player's name is written (the bot escapes markdown and mentions; the terminal
writes names as they are)."""


def as_is(name: str) -> str:
    """A name written as it is (the default :data:`NameFormat`)."""
    return name


def square(seat: int) -> str:
    """The colour square emoji of ``seat``."""
    return SQUARES[seat % len(SQUARES)]


def short_name(name: str, width: int = NAME_WIDTH) -> str:
    """``name`` cut to ``width`` characters (with an ellipsis when cut)."""
    return name if len(name) <= width else name[: width - 1] + "…"


def status_line(state: StackState, *, name: NameFormat = as_is) -> str:
    """Whose turn it is and what they must decide, or how the game ended."""
    if state.decision is Decision.OVER:
        assert state.winner is not None
        names = " & ".join(f"{square(s)} {name(state.name(s))}" for s in state.winner)
        verb = "win" if len(state.winner) > 1 else "wins"
        return f"🏆 **{names}** {verb} the game!"
    p = state.current
    if p is None:
        return "🎲 Rolling the dice…"
    who = f"{square(p)} **{name(state.name(p))}**"
    if state.placing is not None:
        return f"▶ {who}: your rerolled {state.placing} must go on a pile; choose which."
    tail = " (last turns)" if state.in_last_turns else ""
    return f"▶ {who} to move{tail}"


def dice_words(row: list[int]) -> str:
    """A player's unstacked dice grouped by face: ``1×2 4×3 6`` (``—`` for none)."""
    return " ".join(f"{f}×{row[f]}" if row[f] > 1 else str(f) for f in FACES if row[f]) or "—"


def pile_words_by_owner(state: StackState) -> dict[int, str]:
    """Each seat's piles of two or three dice, grouped: ``5²×2 6³`` (seats with none
    are left out). ``5²`` is a 2-high pile of 5s; ``×2`` says there are two of them."""
    out: dict[int, list[str]] = {}
    for owner, face, height, count in state.pile_counts():
        out.setdefault(owner, []).append(
            f"{face}{SUPERSCRIPT[height]}" + (f"×{count}" if count > 1 else "")
        )
    return {seat: " ".join(marks) for seat, marks in out.items()}


def caught_words(caught: list[tuple[int, tuple[int, ...]]]) -> str:
    """A player's captured piles, grouped by face: ``6⁴×2 3⁴``."""
    counts: dict[int, int] = {}
    for face, _ in caught:
        counts[face] = counts.get(face, 0) + 1
    return " ".join(f"{f}⁴×{c}" if c > 1 else f"{f}⁴" for f, c in counts.items())


def wrap_parts(parts: list[str], *, width: int = LINE_WIDTH, indent: str = INDENT) -> list[str]:
    """``parts`` joined by `` · `` on lines of at most ``width`` characters, each line
    starting with ``indent``; a part longer than a line is broken at its spaces."""
    lines: list[str] = []
    line = ""
    for part in parts:
        joined = f"{line} · {part}" if line else part
        if len(indent) + len(joined) <= width:
            line = joined
            continue
        if line:
            lines.append(line)
        line = ""
        for word in part.split(" "):
            longer = f"{line} {word}" if line else word
            if line and len(indent) + len(longer) > width:
                lines.append(line)
                line = word
            else:
                line = longer
    if line:
        lines.append(line)
    return [indent + text for text in lines]


def seat_lines(
    state: StackState,
    seat: int,
    *,
    name: NameFormat = as_is,
    width: int = NAME_WIDTH,
    piles: str = "",
    marker: bool = True,
    score: int | None = None,
) -> list[str]:
    """One seat as a phone shows it: ``▶🟦 **bob** 47 pts · round +13`` and, indented below,
    ``dice 1×3 2 4×2 · piles 4² 5²×2 · caught 6⁴``, wrapped at :data:`LINE_WIDTH`.
    ``piles`` is the seat's piles in words (:func:`pile_words_by_owner`); ``score`` its
    points in the field this round (computed when not given)."""
    turn = seat == state.current and state.decision is not Decision.OVER
    mark = "▶" if turn and marker else ""
    head = f"{mark}{square(seat)} **{name(short_name(state.name(seat), width))}**"
    head += f" {state.totals[seat]} pts"
    if score is None:
        score = state.field_scores()[seat] if state.round_number else 0
    if score:
        head += f" · round {score:+d}"
    parts = [f"dice {dice_words(state.singles[seat])}"]
    if piles:
        parts.append(f"piles {piles}")
    if state.captures[seat]:
        parts.append(f"caught {caught_words(state.captures[seat])}")
    return [head, *wrap_parts(parts)]


def render_field(
    state: StackState,
    *,
    last_move: str | None = None,
    name: NameFormat = as_is,
    compact: bool = False,
    status: bool = True,
    legend: bool | None = None,
    you: int | None = None,
) -> str:
    """The whole table as text: header, every player's dice and piles, last move, status.

    Each seat takes a line with its name, total and this round's points, and below it,
    indented, its unstacked dice grouped by face (``1×2 4×3 6``), its piles (``5²`` is
    a 2-high pile of 5s, owned by the player on whose line it stands: the owner of its
    top die; ``5²×2`` two of them) and its captured piles (``6⁴``). Lines stay within
    :data:`LINE_WIDTH` characters (a phone's width) but for long names. Fits Discord's
    2,000-character limit with 8 players of 14 dice.

    ``name`` writes each (shortened) player name; ``compact`` shortens names further,
    for big tables; ``status`` adds the line saying whose turn it is; ``legend`` the
    line explaining the marks (by default in the first round only, for newcomers); ``you``
    the reader's own seat, whose piles the last move calls "your" (at a terminal).
    """
    rules = state.rules
    width = NAME_WIDTH // 2 + 2 if compact else NAME_WIDTH
    lines = [f"**Stack** · round {max(state.round_number, 1)} · first to {rules.target_score}"]
    piles = pile_words_by_owner(state)
    scores = state.field_scores() if state.round_number else [0] * state.n
    for seat in range(state.n):
        lines.extend(
            seat_lines(
                state, seat, name=name, width=width, piles=piles.get(seat, ""), score=scores[seat]
            )
        )
    if state.team is not None:
        sides = state.side_totals()
        lines.append(
            "Teams: "
            + " · ".join(
                " & ".join(name(short_name(state.name(s), 12)) for s in side) + f" {total}"
                for side, total in sides.items()
            )
        )
    last = last_move if last_move is not None else last_turn_words(state, you=you)
    if last:
        lines.append(f"Last: {last}")
    if status:
        lines.append(status_line(state, name=name))
    if legend if legend is not None else state.round_number <= 1:
        lines.append(LEGEND)
    return "\n".join(lines)


def render_round_scoring(state: StackState, *, name: NameFormat = as_is) -> list[str]:
    """How the field scores right now, pile by pile (call it when a round has just ended,
    before the next round's dice are rolled)."""
    rows = []
    for owner, face, height, count in state.pile_counts():
        each = face_value(face)
        times = f" ×{count}" if count > 1 else ""
        who = name(state.name(owner))
        rows.append(
            f"{square(owner)} {pile_words(who, face, height)}{times}: {each * count} for {who}"
        )
    bonus = 2 if state.rules.four_high_bonus else 1
    for seat, caught in enumerate(state.captures):
        for face, _ in caught:
            rows.append(
                f"{square(seat)} a captured pile of {face}s: {face_value(face) * bonus} "
                f"for {name(state.name(seat))}"
            )
    for seat, penalty in enumerate(state.penalties):
        if penalty:
            rows.append(f"{square(seat)} penalties: {penalty} for {name(state.name(seat))}")
    return rows or ["No pile scored."]


def render_score_sheet(state: StackState, *, name: NameFormat = as_is) -> str:
    """The score sheet: a row per player, a column per round, and totals (a code block).

    ``name`` writes names inside the code block (so it must not add markdown escapes);
    columns are aligned on the names as they are.
    """
    rounds = len(state.round_scores)
    width = max(len(short_name(n)) for n in state.players)
    header = f"{'':{width}} " + " ".join(f"{'R' + str(i + 1):>4}" for i in range(rounds))
    header += f" {'Total':>6}"
    rows = [header.rstrip()]
    for seat in range(state.n):
        cells = " ".join(f"{state.round_scores[r][seat]:>4}" for r in range(rounds))
        short = short_name(state.name(seat))
        label = name(short) + " " * (width - len(short))
        rows.append(f"{label} {cells} {state.totals[seat]:>6}")
    lines = ["```", *rows, "```"]
    target = state.rules.target_score
    if state.team is not None:
        for side, total in state.side_totals().items():
            names = " & ".join(name(state.name(s)) for s in side)
            lines.append(f"{names}: {total}/{target}")
    else:
        best = max(state.totals) if state.totals else 0
        lines.append(f"Leader at {best}/{target} ({min(100, max(0, best * 100 // target))}%)")
    return "\n".join(lines)


# what :func:`plain` takes out of a text: bold, a subtext line's mark, a code fence
MARKS = ("**", "-# ", "```")


def _marked(text: str) -> bool:
    """Whether ``text`` holds a mark :func:`plain` would take out."""
    return any(mark in text for mark in MARKS)


def _forms(name: str) -> set[str]:
    """``name`` and the forms of it cut to a width (:func:`short_name`) that hold a mark
    :func:`plain` would take out."""
    cuts = (name[: width - 1] + "…" for width in range(3, len(name)))
    return {name, *(cut for cut in cuts if _marked(cut))}


def plain(text: str, *, names: Sequence[str] = ()) -> str:
    """Discord markdown made plain for a terminal: no bold, code fences or subtext marks;
    the players' ``names`` are kept as they are, ``**``, a leading ``-# `` and all, whole
    or cut short."""
    kept = sorted({f for n in names if _marked(n) for f in _forms(n)}, key=len, reverse=True)
    shields = {n: f"\x00{i}\x00" for i, n in enumerate(kept)}
    for n, shield in shields.items():
        text = text.replace(n, shield)
    lines = []
    for line in text.splitlines():
        if line.strip() == "```":
            continue
        if line.startswith("-# "):
            line = line[3:]
        lines.append(line.replace("**", ""))
    text = "\n".join(lines)
    for n, shield in shields.items():
        text = text.replace(shield, n)
    return text
