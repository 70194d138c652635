"""Text rendering of a table: pure functions to strings that read well in a terminal and
as a Discord message (markdown bold, colour square emoji)."""

from __future__ import annotations

from engine.game import Decision
from engine.stack.describe import last_turn_words, pile_words
from engine.stack.moves import FACES, face_value
from engine.stack.state import StackState

COLOURS = ("red", "blue", "green", "yellow", "purple", "orange", "brown", "white")
SQUARES = ("🟥", "🟦", "🟩", "🟨", "🟪", "🟧", "🟫", "⬜")
DISCORD_LIMIT = 2000
NAME_WIDTH = 20
SUPERSCRIPT = {2: "²", 3: "³"}


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


def status_line(state: StackState) -> str:
    """Whose turn it is and what they must decide, or how the game ended."""
    if state.decision is Decision.OVER:
        assert state.winner is not None
        names = " & ".join(f"{square(s)} {state.name(s)}" for s in state.winner)
        verb = "win" if len(state.winner) > 1 else "wins"
        return f"🏆 **{names}** {verb} the game!"
    p = state.current
    if p is None:
        return "🎲 Rolling the dice…"
    who = f"{square(p)} **{state.name(p)}**"
    if state.decision is Decision.PLACE:
        return f"▶ {who}: your rerolled {state.placing} must go on a pile; choose which."
    tail = " (last turns)" if state.in_last_turns else ""
    return f"▶ {who} to move{tail}"


def render_field(state: StackState, *, last_move: str | None = None) -> str:
    """The whole table as text: header, every player's dice and piles, last move, status.

    Piles are written as their face with the height raised: ``5²`` is a 2-high pile of 5s,
    ``6³`` a 3-high pile of 6s, owned by the player on whose line they stand (the owner
    of the top die). Fits Discord's 2,000-character limit with 8 players of 14 dice.
    """
    rules = state.rules
    lines = [f"**Stack** · round {max(state.round_number, 1)} · first to {rules.target_score}"]
    piles_by_owner: dict[int, list[str]] = {s: [] for s in range(state.n)}
    for owner, face, height, count in state.pile_counts():
        mark = f"{face}{SUPERSCRIPT[height]}"
        piles_by_owner[owner].append(mark + (f"×{count}" if count > 1 else ""))
    field_scores = state.field_scores() if state.round_number else [0] * state.n
    for seat in range(state.n):
        marker = "▶" if seat == state.current and state.decision is not Decision.OVER else "·"
        row = state.singles[seat]
        dice = " ".join([_run(f, row[f]) for f in FACES if row[f]]) or "—"
        parts = [
            f"{marker}{square(seat)} **{short_name(state.name(seat))}** {state.totals[seat]}",
            f"dice {dice}",
        ]
        if piles_by_owner[seat]:
            parts.append("piles " + " ".join(piles_by_owner[seat]))
        if state.captures[seat]:
            parts.append("caught " + " ".join(f"{f}⁴" for f, _ in state.captures[seat]))
        if field_scores[seat]:
            parts.append(f"round {field_scores[seat]:+d}")
        lines.append(" · ".join(parts))
    if state.team is not None:
        sides = state.side_totals()
        lines.append(
            "Teams: "
            + " · ".join(
                " & ".join(short_name(state.name(s), 12) for s in side) + f" {total}"
                for side, total in sides.items()
            )
        )
    last = last_move if last_move is not None else last_turn_words(state)
    if last:
        lines.append(f"Last: {last}")
    lines.append(status_line(state))
    lines.append("-# 5² = a 2-high pile of 5s · 6⁴ = a captured pile")
    return "\n".join(lines)


def render_round_scoring(state: StackState) -> list[str]:
    """How the field scores right now, pile by pile (call it when a round has just ended,
    before the next round's dice are rolled)."""
    rows = []
    for owner, face, height, count in state.pile_counts():
        each = face_value(face)
        times = f" ×{count}" if count > 1 else ""
        rows.append(
            f"{square(owner)} {pile_words(state.name(owner), face, height)}{times}: "
            f"{each * count} for {state.name(owner)}"
        )
    bonus = 2 if state.rules.four_high_bonus else 1
    for seat, caught in enumerate(state.captures):
        for face, _ in caught:
            rows.append(
                f"{square(seat)} a captured pile of {face}s: {face_value(face) * bonus} "
                f"for {state.name(seat)}"
            )
    for seat, penalty in enumerate(state.penalties):
        if penalty:
            rows.append(f"{square(seat)} penalties: {penalty} for {state.name(seat)}")
    return rows or ["No pile scored."]


def render_score_sheet(state: StackState) -> str:
    """The score sheet: a row per player, a column per round, and totals (a code block)."""
    rounds = len(state.round_scores)
    width = max(len(short_name(n)) for n in state.players)
    header = f"{'':{width}} " + " ".join(f"{'R' + str(i + 1):>4}" for i in range(rounds))
    header += f" {'Total':>6}"
    rows = [header.rstrip()]
    for seat in range(state.n):
        cells = " ".join(f"{state.round_scores[r][seat]:>4}" for r in range(rounds))
        rows.append(f"{short_name(state.name(seat)):{width}} {cells} {state.totals[seat]:>6}")
    lines = ["```", *rows, "```"]
    target = state.rules.target_score
    if state.team is not None:
        for side, total in state.side_totals().items():
            names = " & ".join(state.name(s) for s in side)
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
