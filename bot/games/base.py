"""The per-game Discord interface: what a game is on Discord beyond its engine.

The host — :mod:`host.service` (lobby, seats, host powers, locks, duplicate interactions,
AI seats, timers, expiry), :mod:`bot.tables` (the live table message, pings, the outbox,
the clocks) and the game-agnostic cogs (``/table``, ``/scores``, ``/leaderboard``,
``/stats``, ``/rules``, ``/export``, ``/hint``) — knows no game's rules. Everything that is
a game's own on Discord is in one package of :mod:`bot.games` (its panel, views and
words; its :class:`DiscordGame` object in the package's ``game`` module), found by name in
the registry (:func:`bot.games.get`). Stack's is
:mod:`bot.games.stack.game`; Stack Up!'s is ``bot.games.stackup.game``.

The contract (a new game's ``bot/games/<game>/game.py`` defines ``DISCORD_GAME = MyDiscordGame()``)
==================================================================================================

**Engine.** ``game`` is the engine's :class:`~engine.game.Game`. The host seats players
with ``game.seat_order`` (a :class:`~engine.game.SetupError` is refused with its
message), starts with ``game.new_state``, reads typed moves with ``game.parse_move``,
plays AI seats with ``game.make_ai(level)`` (a level of ``game.thinking_levels`` chooses
in a worker process, off the event loop: :mod:`host.thinking`), plays a timed-out turn
with ``game.hint``,
and plays the chance outcomes (``state.sample_chance``) and the game's forced moves
(``game.automatic``) inside the same step, through the table loop (:mod:`engine.flow`). The events ``state.apply`` returns drive what the
channel is told: :class:`~engine.game.TurnEnded` -> :meth:`DiscordGame.turn_text` (shown
on the table message and to the mover), :class:`~engine.game.RoundEnded` ->
:meth:`DiscordGame.round_text` (an outbox message, with the buttons of
:meth:`DiscordGame.round_view` under it: Stack's **Full scoring**),
:class:`~engine.game.GameEnded` -> :meth:`DiscordGame.game_end_texts` (outbox messages;
the first carries the game chart when :meth:`DiscordGame.game_chart` draws one). A move
that ends no turn but that the table should hear of (Stack Up!'s first player choosing
the direction) is worded by :meth:`DiscordGame.decision_text`, shown like a turn.

**The public table message** (components V2, one container): :meth:`DiscordGame.table_parts`
gives its head (whose turn — mention ``current_user``, which an edit never pings — and
the countdown), its text field, its accent colour and the picture's alt text;
:meth:`DiscordGame.picture` an optional :class:`~pictures.painter.DrawJob` (the game's
name in :mod:`pictures.games` and picklable arguments; the painter draws it in its worker
process, off the event loop, and the table message caches the PNG by the job's
equality). Under it, the private button (:attr:`DiscordGame.private_button`: "My turn"
for Stack, "My hand" for Stack Up!). **Nothing a player may not see goes in any of
these** (nor in :meth:`turn_text`, :meth:`round_text`, :meth:`game_end_texts`).

**The private panel.** A click on the private button: the host checks the table is live
and the clicker seated (refusals answered for you), takes the table's lock and awaits
:meth:`DiscordGame.panel` (``host, live, seat``) -> :class:`Panel` (text, view, files),
then answers it ephemerally, freshly on every click (ephemeral messages cannot be edited
after 15 minutes). Refuse with the host's :class:`~host.refusals.Refusal` (a code:
Stack's ``Refusal(Why.NOT_YOUR_TURN, player="bob", hint=False)``, "It's bob's turn.") or,
for what only Discord knows, :class:`~bot.refusal_words.Refused` (a catalog key and its
facts: ``Refused("refusal.not_your_turn")``). After a player's move that leaves the same seat to act in the same turn (Stack:
a rerolled die to place; a drawn card to play or keep), the host answers the move with
the panel again (editing the panel that was clicked).

**Moves out of turn.** When ``game.off_turn_moves`` (Color Stack: either player may
resign at any time), the host does not refuse a seated player who is not to move: it
reads their typed move with ``game.parse_move(state, text, seat)`` and checks a typed or
given move with ``state.check(move, by=seat)`` (the engine refuses, with its
``NOT_YOUR_TURN`` message, everything but what the seat may do), and plays it with
``state.apply(move, by=seat)``. A button sends such a move like any other
(``host.play_move(..., move=..., table_id=..., version=...)``, or a
:class:`~bot.views.MoveButton` whose code :meth:`DiscordGame.move_from_code` reads back
even for a seat not to move: the default looks only among ``state.legal_moves()``);
the version check, the lock and duplicate interactions apply as to any move. A move that
ends the game without ending a turn (a resignation) is answered with the first of
:meth:`DiscordGame.game_end_texts`.

**Buttons.** Subclass :class:`bot.views.TableButton` (custom_id parsing of the table id
and version, the bot-stopping check, refusals and unexpected errors answered in one place)
for a game's own buttons and selects, and list them in :attr:`DiscordGame.dynamic_items`
(registered at start-up, so they work after a restart). To play a move from a button or a
command, call ``await host.play_move(interaction, move=..., table_id=..., version=...,
edit=True)`` (a button on a panel: the panel is edited with the result) or
``await host.play_move(interaction, text="...")`` (a typed move). The host's generic
:class:`bot.views.MoveButton` / :class:`bot.views.MoveSelect` carry a move as
:meth:`DiscordGame.move_code` (at most 40 characters of ``[A-Za-z0-9._-]``); their
custom ids are ``move:TABLE:VERSION:CODE`` and ``pick:TABLE:VERSION:PART``. Game-owned
custom ids must start with the game's name and a colon (``stackup:...``) and carry the
table id as their second field, so that the start-up clean-up recognises a table's
messages.

**Commands.** :meth:`DiscordGame.cog` returns the game's own cog (Stack: ``/stack``,
``/reroll``; Stack Up!: ``/play``); its commands call ``host.play_move(interaction,
text=...)``. A :class:`~host.refusals.Refusal` or :class:`~bot.refusal_words.Refused`
raised anywhere in a command or a :class:`~bot.views.TableButton` callback is answered
ephemerally, in its words (:func:`bot.refusal_words.refusal_text`), by the command tree's /
button base's error handler: never catch it to answer it yourself.

**Refusals.** :meth:`DiscordGame.refusal_text` words the engine's three errors for
Discord (Stack: slash commands instead of the terminal's syntax) as plain text; never name
a hidden card of another player there. :meth:`DiscordGame.refusal_words` makes that
markdown: the game's inline code stays code, the names and typed text in it show as they
are.

**Hidden information.** :attr:`DiscordGame.hidden_information` ``True`` means a running
game's record is not exported (``/export`` refuses until the game is over) and the
texts above must be checked for leaks by the game's tests.

**Game ends.** An outcome with no winner is a draw; :meth:`DiscordGame.end_line` words a
win, a resignation (``ended_by == "resignation"``) and a draw (``"repetition"``,
``"turn_limit"``, naming :meth:`DiscordGame.turn_limit`) for the table's head and the
end message.

**Lobby, rules, stats.** :meth:`DiscordGame.lobby_summary` (the lobby's rule lines),
:meth:`DiscordGame.rules_brief` (``/rules``, in the reader's locale when the game has a
translation), :meth:`DiscordGame.settings_text` (the
house rules), :meth:`DiscordGame.stats_text` (``/stats``), :meth:`DiscordGame.score_text`
(``/scores``: the stored sheet, with the committed state while the game runs),
:meth:`DiscordGame.history_line` (a finished game in ``/scores show:history``),
:attr:`DiscordGame.figure_name` (what the outcome's figure per seat counts, in
``/leaderboard``: Stack's points, Stack Up!'s cards left),
:attr:`DiscordGame.table_options` (which ``/table new`` options the game takes, and which
settings field each sets).

**Languages.** Every word comes from the catalog (:mod:`catalog`: ``t``/``n``), said
when the method is called: the host calls what the channel reads (the table message, turn,
round and game-end texts, the lobby, the picture's job) in the language of the table's
server, and what one user reads (a panel, a refusal, ``/stats``) in that user's. Build no
words at import time: :attr:`DiscordGame.private_button`'s label and
:attr:`DiscordGame.figure_name` are catalog keys (said where they are shown; words that
are no key are shown as they are).

Every method has a working default built on the engine interface, so a game can start
with little and override what it shows better.
"""

from __future__ import annotations

import contextlib
from collections import OrderedDict
from collections.abc import Callable, Iterator, Mapping, Sequence
from contextvars import ContextVar
from dataclasses import dataclass, field, replace
from datetime import datetime
from typing import TYPE_CHECKING, Any, TypeVar

import discord
from pydantic import BaseModel

import catalog.games
from bot.hosting import Host, PrivateButton
from bot.refusal_words import Refused, settings_words
from bot.text import (
    MESSAGE_LIMIT,
    cut,
    escape_name,
    escape_prose,
    fit_message,
    mention,
    percent,
    plain_name,
    said,
)
from catalog import n, t
from engine.errors import AmbiguousMoveError, MoveError
from engine.game import Game, GameState, RoundEnded, TurnEnded
from pictures.palette import seat_colour

if TYPE_CHECKING:
    from discord.ext import commands

    from bot.views import Components
    from host.live import LiveTable
    from persistence.records import GameSummary, PlayerStats, ScoreSheet
    from pictures.painter import DrawJob

__all__ = [
    "PANELS",
    "DiscordGame",
    "Host",
    "Panel",
    "PanelCache",
    "PrivateButton",
    "TableParts",
    "as_closed",
    "colour_of",
    "draw_words",
    "nobody_to_move",
    "seat_mark",
    "settings_words",
    "shown_to_move",
]

CODE_LIMIT = 40  # characters of a move code in a custom_id


@dataclass(frozen=True, slots=True)
class TableParts:
    """The public table message of a committed state: ``head`` (whose turn, the
    countdown, a note), ``field`` (the table as text), ``accent`` (the container's colour,
    ``0xRRGGBB``, or ``None``) and ``alt_text`` (the picture's description, at most 1,024
    characters). Head and field together fit in 2,000 characters."""

    head: str
    field: str
    accent: int | None
    alt_text: str


@dataclass(slots=True)
class Panel:
    """A private answer: its text (at most 2,000 characters), buttons and files."""

    text: str
    view: discord.ui.View | Components | None = None
    files: list[discord.File] = field(default_factory=list)


T = TypeVar("T")


class PanelCache:
    """The private panels of the committed states of the tables last asked about: what a
    game builds for a seat at a step (``path``) of a table's state is built once per
    version, however many times the seat's button is pressed. An entry is the state's
    own (the very object and its version: any commit, or a state read again, starts
    afresh); at most ``tables`` tables are remembered, the least recently asked dropped.
    A panel is kept per language: two players of one seat's team asking in two languages
    each get their own. What is cached must not be changed by its users (text, components: never a file)."""

    def __init__(self, tables: int = 1024) -> None:
        self.tables = tables
        self._entries: OrderedDict[int, tuple[object, int, dict[tuple[int, str, str], Any]]] = (
            OrderedDict()
        )

    def get(self, live: Any, seat: int, path: str, build: Callable[[], T]) -> T:
        """The panel of ``seat`` at ``path`` of ``live``'s committed state: remembered, or
        ``build()`` (under the table's lock; what it raises is not remembered)."""
        entry = self._entries.get(live.id)
        if entry is None or entry[0] is not live.state or entry[1] != live.version:
            entry = (live.state, live.version, {})
            self._entries[live.id] = entry
            if len(self._entries) > self.tables:
                self._entries.popitem(last=False)
        else:
            self._entries.move_to_end(live.id)
        panels = entry[2]
        key = (seat, path, catalog.current())  # in the asking player's language
        if key not in panels:
            panels[key] = build()
        found: T = panels[key]
        return found


PANELS = PanelCache()  # every game's panels, in this process


def draw_words(ended_by: str, turn_limit: int | None = None) -> str:
    """A draw in words, by how it came (the outcome's ``ended_by``): ``Draw by threefold
    repetition``, ``Draw: the turn limit (300 turns) was reached``, else ``Draw``."""
    if ended_by == "repetition":
        return t("discord.draw.repetition")
    if ended_by == "turn_limit":
        if turn_limit is None:
            return t("discord.draw.turn_limit.unknown")
        return n("discord.draw.turn_limit", turn_limit)
    return t("discord.draw")


# Set while a table closed before its game ended is drawn: nobody is to move any more.
_CLOSED: ContextVar[bool] = ContextVar("closed", default=False)


@contextlib.contextmanager
def nobody_to_move(closed: bool = True) -> Iterator[None]:
    """Within it (with ``closed``), a table is drawn as closed before its game ended: no
    seat is marked, described or drawn as the one to move (:func:`shown_to_move`)."""
    token = _CLOSED.set(closed)
    try:
        yield
    finally:
        _CLOSED.reset(token)


def shown_to_move(state: GameState[Any]) -> int | None:
    """The seat the table shows as the one to move: the state's, but none once the
    table was closed before its game ended (:func:`nobody_to_move`)."""
    return None if _CLOSED.get() or state.is_over else state.current_player


def seat_mark(state: GameState[Any], seat: int) -> str:
    """The mark before a seat's line on the table: 🏆 a winner, ▶ the seat to act, else
    an em space."""
    outcome = state.outcome()
    if outcome is not None and seat in outcome.winners:
        return "🏆"
    if seat == shown_to_move(state):
        return "▶"
    return "\u2003"


def as_closed(job: DrawJob | None) -> DrawJob | None:
    """``job`` with nobody drawn to move when the table is drawn as closed
    (:func:`nobody_to_move`): its picture's ``current`` seat left out."""
    if job is None or not _CLOSED.get():
        return job
    args = tuple(replace(a, current=None) if hasattr(a, "current") else a for a in job.args)
    return replace(job, args=args)


def colour_of(seat: int) -> int:
    """A seat's colour as a container accent (``0xRRGGBB``)."""
    red, green, blue = seat_colour(seat)
    return (red << 16) | (green << 8) | blue


class DiscordGame:
    """One game on Discord. Subclass it, set :attr:`game`, and override what the game
    shows better than the defaults (which use only the engine interface)."""

    game: Game[Any]
    # its label a catalog key, said in the table's language where it is drawn
    private_button = PrivateButton("discord.button.my_turn", "🎲")
    hidden_information = False  # a running game's record is not exported
    table_options: Mapping[str, str] = {}  # `/table new` option -> settings field
    dynamic_items: tuple[type[discord.ui.DynamicItem[Any]], ...] = ()
    # what the outcome's figure per seat counts (singular, plural): the leaderboard's words,
    # catalog keys (said by figure_words; words that are no key are shown as they are)
    figure_name: tuple[str, str] = ("discord.figure.point", "discord.figure.points")
    # whether that figure counts more than the win (Color Stack's is 1 for the winner: its
    # leaderboard shows the wins alone, and by points is by wins)
    counts_points = True

    @property
    def name(self) -> str:
        return self.game.name

    @property
    def title(self) -> str:
        """The game's name as players read it, in the language being spoken."""
        return catalog.games.words(self.name).title()

    def figure_words(self) -> tuple[str, str]:
        """:attr:`figure_name` in the language being spoken (singular, plural)."""
        one, many = self.figure_name
        return said(one), said(many)

    # ------------------------------------------------------------ lobby and settings

    def settings_of(self, values: Mapping[str, Any]) -> BaseModel:
        """The game's settings model from stored values (raises pydantic's
        ``ValidationError`` for a wrong value)."""
        return self.game.settings.model_validate(dict(values))

    def lobby_summary(self, settings: BaseModel) -> list[str]:
        """The lobby's lines about the rules, under its title."""
        game = self.game
        return [
            t(
                "discord.game.players",
                title=self.title,
                least=game.min_players,
                most=game.max_players,
            )
        ]

    def settings_text(self, settings: BaseModel, *, channel: bool = False) -> str:
        """The house rules in force, a line per setting."""
        key = "discord.settings.head.channel" if channel else "discord.settings.head.server"
        lines = [t(key, title=escape_name(self.title))]
        for key, value in settings.model_dump().items():
            shown = str(value).lower() if isinstance(value, bool) else value
            lines.append(t("discord.settings.line", key=key, value=shown))
        return fit_message("\n".join(lines))

    def rules_brief(self, locale: str | None = None) -> str:
        """``/rules``: the rules and how to play them on Discord, briefly. ``locale`` is
        the reader's Discord locale (``str(interaction.locale)``: ``"ja"``, ``"en-US"``…;
        ``None`` when unknown): a game with a translation answers in it, every other game
        ignores it and answers in English."""
        return fit_message(f"**{escape_name(self.title)}**\n{self.game.rules_text()}")

    def start_text(self, state: Any) -> str:
        """The public answer to **Start**: who begins."""
        seat = state.current_player
        if seat is None:
            return t("discord.game.start.table")
        return t("discord.game.start", player=escape_name(state.players[seat]))

    # ------------------------------------------------------------ the table message

    def table_parts(
        self,
        state: Any,
        *,
        current_user: int | None,
        turns: Sequence[str] | None,
        deadline: datetime | None = None,
        note: str | None = None,
        closed: bool = False,
    ) -> TableParts:
        """The table message of ``state`` as every player may see it. ``turns``: the last
        turns' words (escaped markdown, oldest first; ``None``: the game's own account);
        ``current_user`` the human to move (mentioned), ``deadline`` when their time runs
        out. The head names whose turn it is (:meth:`your_turn_words`,
        :meth:`to_move_words`) or how the game ended (:meth:`end_line`); the field
        (:meth:`field_text`) fills the rest of the message. ``closed``: the table was closed
        before its game ended; nobody is to move, and the head says so."""
        when = ""
        if deadline:
            stamp = f"<t:{int(deadline.timestamp())}:R>"
            when = " · " + t("discord.table.time_runs_out", stamp=stamp)
        seat = state.current_player
        if state.is_over:
            head = self.end_line(state)
        elif closed:
            head = t("discord.table.closed_note")
        elif seat is not None and current_user:
            decision = self.your_turn_words(state, seat)
            head = "▶ " + t(
                "discord.table.your_turn", player=mention(current_user), decision=decision
            )
            head += when
        elif seat is not None:
            head = f"▶ {self.to_move_words(state, seat)}{when}"
        else:
            head = "…"
        if note:
            head += "\n" + cut(note, 300)
        room = MESSAGE_LIMIT - len(head) - 1
        closed = closed and not state.is_over
        with nobody_to_move(closed):
            field = fit_message(self.field_text(state, turns), room)
            alt = self.alt_text(state)
        return TableParts(head, field, None if closed else self.accent(state), alt)

    def your_turn_words(self, state: Any, seat: int) -> str:
        """What follows "it's your turn" for the human to move (their decision)."""
        return ""

    def to_move_words(self, state: Any, seat: int) -> str:
        """Who is to move, for a seat no human plays now (markdown, name escaped)."""
        return t("discord.table.to_play", player=escape_name(state.players[seat]))

    def field_text(self, state: Any, turns: Sequence[str] | None) -> str:
        """The table's text under the head: the game's own text, then the last turns."""
        last = "\n".join(turns or ())
        body = escape_name(self.game.render_text(state, None))
        return f"{body}\n{last}" if last else body

    def accent(self, state: Any) -> int | None:
        """The table message's colour: the seat to move, or the (first) winner."""
        if state.is_over:
            outcome = state.outcome()
            seat = outcome.winners[0] if outcome and outcome.winners else None
        else:
            seat = state.current_player
        return colour_of(seat) if seat is not None else None

    def alt_text(self, state: Any) -> str:
        """The picture's description for screen readers (at most 1,024 characters)."""
        who = shown_to_move(state)
        if state.is_over:
            status = t("discord.alt.over")
        elif who is not None:
            status = t("discord.alt.to_move", player=plain_name(state.players[who]))
        else:
            status = t("discord.alt.in_play")
        return cut(t("discord.alt.table", title=self.title, status=status), 1024)

    def picture(self, state: Any, *, theme: str, turn_seconds: int | None) -> DrawJob | None:
        """The table's picture as a job for the painter, or ``None`` (no picture)."""
        return None

    def mid_turn(self, state: Any) -> bool:
        """Whether the player to act is finishing a turn already begun (Stack: a rerolled
        die to place): with the turn timer off, such a turn still runs out (the host's
        ``MID_TURN_SECONDS``)."""
        return False

    # ------------------------------------------------------------ what happened

    def turn_text(self, state: Any, event: TurnEnded) -> str:
        """A turn that just ended, in words everyone may see (plain: the host escapes)."""
        return self.game.turn_words(state, event)

    def decision_text(self, state: Any, seat: int, move: Any) -> str | None:
        """A move just played (``state`` is after it) that the table should hear of even
        though it ends no turn (Stack Up!: the first player's direction), in words everyone
        may see (plain: the host escapes); ``None``: nothing to say (turns are said by
        :meth:`turn_text`)."""
        return None

    def round_text(self, state: Any, event: RoundEnded) -> str | None:
        """The channel's message for a round that just ended (before the next round's
        chance outcomes), or ``None``. Markdown, names escaped."""
        return None

    def round_view(self, table_id: int, round_no: int) -> Components | None:
        """The buttons under round ``round_no``'s message (built when the outbox delivers
        it, after a restart too), or ``None``."""
        return None

    def end_line(self, state: Any) -> str:
        """How the finished game ``state`` ended, in a line (markdown, names escaped):
        ``🏆 **ann** wins!``, ``🏆 **ann** & **bob** share the win!``, ``🏳️ **ann**
        resigned; **bob** wins!``, ``🤝 Draw by threefold repetition.``, ``🤝 Draw: the
        turn limit (300 turns) was reached.`` (an outcome with no winner is a draw)."""
        outcome = state.outcome()
        players = state.players
        names = catalog.together(f"**{escape_name(players[s])}**" for s in outcome.winners)
        shared = ".shared" if len(outcome.winners) > 1 else ""
        if outcome.ended_by == "resignation" and outcome.winners:
            losers = [s for s in range(len(players)) if s not in outcome.winners]
            who = catalog.together(f"**{escape_name(players[s])}**" for s in losers)
            who = who or t("discord.end.a_player")
            return t("discord.end.resigned" + shared, losers=who, winners=names)
        if outcome.winners:
            return t("discord.end.shared" if shared else "discord.end.wins", winners=names)
        return t("discord.end.draw", draw=draw_words(outcome.ended_by, self.turn_limit(state)))

    def turn_limit(self, state: Any) -> int | None:
        """The number of turns after which ``state``'s game ends (the draw by the turn
        limit names it), or ``None``: the game's :meth:`~engine.game.Game.goal`."""
        return self.game.goal(state).turn_limit

    def game_end_texts(self, state: Any) -> list[str]:
        """The channel's messages for the game's end (markdown, names escaped): how it
        ended (:meth:`end_line`), then every seat's final figure."""
        outcome = state.outcome()
        scores = t("list.comma").join(
            f"{escape_name(n)} {s}" for n, s in zip(state.players, outcome.scores, strict=True)
        )
        return [fit_message(f"{self.end_line(state)} {scores}")]

    async def game_chart(self, host: Host, table_id: int) -> discord.File | None:
        """The chart sent with the game's end (``None``: the text alone); its errors are
        the host's to catch (the text then goes alone)."""
        return None

    # ------------------------------------------------------------ moves

    def move_code(self, move: Any) -> str:
        """A move in a custom_id or a select's value (at most :data:`CODE_LIMIT` of
        ``[A-Za-z0-9._-]``). The default writes the game's JSON encoding compactly."""
        import json

        code = json.dumps(self.game.encode_move(move), separators=(",", ":"))
        return code.replace('"', "").replace(",", ".").replace("[", "").replace("]", "")

    def move_from_code(self, state: Any, code: str) -> Any | None:
        """The move ``code`` stands for, or ``None``: among the legal moves by default."""
        for move in state.legal_moves():
            if self.move_code(move) == code:
                return move
        return None

    def move_label(self, state: Any, move: Any) -> str:
        """A legal move on a button or in a menu (plain text, at most 80 characters)."""
        return cut(self.game.move_words(state, move), 80)

    def hint_text(self, state: Any) -> str:
        """``/hint``: why the greedy AI would play its move, in the asker's language."""
        return catalog.games.words(self.name).hint(state)[1]

    def refusal_words(self, error: MoveError, said: Sequence[str] = ()) -> str:
        """An engine refusal in Discord's words, as markdown: the game's words
        (:meth:`refusal_text`) with the names and typed text in them (``said``) shown as
        they are (:func:`~bot.text.escape_prose`)."""
        return escape_prose(self.refusal_text(error), said)

    def refusal_text(self, error: MoveError) -> str:
        """An engine refusal in the game's words for Discord, as plain text (names and
        typed text in it as they are; the game's own inline code in backticks)."""
        return str(error)

    def chooser_text(self, state: Any, error: AmbiguousMoveError) -> str:
        """The question above the chooser of an ambiguous typed move."""
        return t("discord.chooser.which")

    async def panel(self, host: Host, live: LiveTable[DiscordGame], seat: int) -> Panel:
        """The private panel of ``seat`` (called under the table's lock: read
        ``live.state`` freely, never call the service). The default lists the legal moves
        as buttons when it is the seat's turn."""
        from bot.views import moves_view
        from host.live import Choice

        state = live.state
        if state is None or state.current_player != seat:
            raise Refused("refusal.not_your_turn")
        choices = [Choice(m, self.move_label(state, m)) for m in state.legal_moves()]
        view, hidden = moves_view(self, live.id, live.version, choices)
        text = t("discord.panel.your_turn") + "\n" + escape_name(self.game.render_text(state, seat))
        if hidden:
            text += "\n" + n("discord.panel.more_moves", hidden)
        return Panel(fit_message(text), view)

    # ------------------------------------------------------------ records and stats

    def score_text(self, sheet: ScoreSheet, state: Any = None) -> str:
        """``/scores``: a stored game's score sheet; ``state`` is the table's committed
        state while the game runs (read under the lock; ``None`` otherwise). Nothing a
        player may not see. The default: the rounds' scores and totals, and the leader
        only for a game with a target score."""
        from bot.sheets import score_sheet_text

        return score_sheet_text(sheet)

    def history_line(self, number: int, summary: GameSummary) -> str:
        """One finished game of ``/scores show:history`` (markdown, names escaped): its
        number in the list, the date, the winners and every seat's final figure."""
        from bot.sheets import summary_line

        return summary_line(number, summary, self.figure_words()[1])

    async def score_chart(self, host: Host, sheet: ScoreSheet, info: Any) -> discord.File | None:
        """The chart ``/scores`` attaches (``None``: none)."""
        return None

    def stats_text(self, name: str, stats: PlayerStats | None) -> str:
        """``/stats``: a player's record in this game on a server."""
        who = escape_name(cut(name, 32))
        title = escape_name(self.title)
        if stats is None:
            return t("discord.stats.none", player=who, title=title)
        rate = percent(stats.wins, stats.games)
        games = n("discord.count.games", stats.games)
        wins = n("discord.count.wins", stats.wins)
        return t("discord.stats.line", player=who, title=title, games=games, wins=wins, rate=rate)

    async def stats_chart(
        self, host: Host, guild_id: int, name: str, stats: PlayerStats
    ) -> discord.File | None:
        """The chart ``/stats`` attaches (``None``: none)."""
        return None

    # ------------------------------------------------------------ commands

    def cog(self, bot: commands.Bot) -> commands.Cog | None:
        """The game's own slash commands (``None``: none)."""
        return None

    def __repr__(self) -> str:
        with contextlib.suppress(AttributeError):
            return f"<DiscordGame {self.game.name}>"
        return "<DiscordGame>"
