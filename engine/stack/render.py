"""Text rendering of a table: pure functions to strings that read well in a terminal and
as a Discord message (markdown bold, colour square emoji)."""

from __future__ import annotations

from collections.abc import Callable

from engine.game import Decision
from engine.stack.describe import last_turn_words, pile_words
from engine.stack.moves import FACES, face_value
from engine.stack.state import StackState

COLOURS = ("red", "blue", "green", "yellow", "purple", "orange", "brown", "white")
SQUARES = ("🟥", "🟦", "🟩", "🟨", "🟪", "🟧", "🟫", "⬜")
DISCORD_LIMIT = 2000
NAME_WIDTH = 20
SUPERSCRIPT = {2: "²", 3: "³"}

NameFormat = Callable[[str], str]
"""How a player's name is written (the bot escapes markdown and mentions; the terminal
writes names as they are)."""


def as_is(name: str) -> str:
    """A name written as it is (the default :data:`NameFormat`)."""
    return name


_RUNS: dict[tuple[int, int], str] = {}


def _run(face: int, count: int) -> str:
    """``3 3 3`` for three 3s (cached: rendering runs after every move)."""
    key = (face, count)
    run = _RUNS.get(key)
    if run is None:
        run = _RUNS[key] = " ".join([str(face)] * count)
    return run


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
    if state.decision is Decision.PLACE:
        return f"▶ {who}: your rerolled {state.placing} must go on a pile; choose which."
    tail = " (last turns)" if state.in_last_turns else ""
    return f"▶ {who} to move{tail}"


def _dice_words(row: list[int], *, compact: bool) -> str:
    """A player's unstacked dice: ``1 1 4 6`` (or ``1×2 4 6`` when compact)."""
    if compact:
        runs = [f"{f}×{row[f]}" if row[f] > 1 else str(f) for f in FACES if row[f]]
    else:
        runs = [_run(f, row[f]) for f in FACES if row[f]]
    return " ".join(runs) or "—"


def _caught_words(caught: list[tuple[int, tuple[int, ...]]], *, compact: bool) -> str:
    """A player's captured piles: ``6⁴ 6⁴ 3⁴`` (or ``6⁴×2 3⁴`` when compact)."""
    if not compact:
        return " ".join(f"{f}⁴" for f, _ in caught)
    counts: dict[int, int] = {}
    for face, _ in caught:
        counts[face] = counts.get(face, 0) + 1
    return " ".join(f"{f}⁴×{c}" if c > 1 else f"{f}⁴" for f, c in counts.items())


def render_field(
    state: StackState,
    *,
    last_move: str | None = None,
    name: NameFormat = as_is,
    compact: bool = False,
) -> str:
    """The whole table as text: header, every player's dice and piles, last move, status.

    Piles are written as their face with the height raised: ``5²`` is a 2-high pile of 5s,
    ``6³`` a 3-high pile of 6s, owned by the player on whose line they stand (the owner
    of the top die). Fits Discord's 2,000-character limit with 8 players of 14 dice.
    ``name`` writes each (shortened) player name; ``compact`` counts equal dice and
    captures (``1×3``) and shortens names further, for big tables.
    """
    rules = state.rules
    width = NAME_WIDTH // 2 + 2 if compact else NAME_WIDTH
    lines = [f"**Stack** · round {max(state.round_number, 1)} · first to {rules.target_score}"]
    piles_by_owner: dict[int, list[str]] = {s: [] for s in range(state.n)}
    for owner, face, height, count in state.pile_counts():
        mark = f"{face}{SUPERSCRIPT[height]}"
        piles_by_owner[owner].append(mark + (f"×{count}" if count > 1 else ""))
    field_scores = state.field_scores() if state.round_number else [0] * state.n
    for seat in range(state.n):
        marker = "▶" if seat == state.current and state.decision is not Decision.OVER else "·"
        who = name(short_name(state.name(seat), width))
        parts = [
            f"{marker}{square(seat)} **{who}** {state.totals[seat]}",
            f"dice {_dice_words(state.singles[seat], compact=compact)}",
        ]
        if piles_by_owner[seat]:
            parts.append("piles " + " ".join(piles_by_owner[seat]))
        if state.captures[seat]:
            parts.append("caught " + _caught_words(state.captures[seat], compact=compact))
        if field_scores[seat]:
            parts.append(f"round {field_scores[seat]:+d}")
        lines.append(" · ".join(parts))
    if state.team is not None:
        sides = state.side_totals()
        lines.append(
            "Teams: "
            + " · ".join(
                " & ".join(name(short_name(state.name(s), 12)) for s in side) + f" {total}"
                for side, total in sides.items()
            )
        )
    last = last_move if last_move is not None else last_turn_words(state)
    if last:
        lines.append(f"Last: {last}")
    lines.append(status_line(state, name=name))
    lines.append("-# 5² = a 2-high pile of 5s · 6⁴ = a captured pile")
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


def plain(text: str) -> str:
    """Discord markdown made plain for a terminal: no bold, code fences or subtext marks."""
    lines = []
    for line in text.splitlines():
        if line.strip() == "```":
            continue
        if line.startswith("-# "):
            line = line[3:]
        lines.append(line.replace("**", ""))
    return "\n".join(lines)
