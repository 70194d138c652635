"""What the host needs from the front end that runs it: its games and their words.

The host composes no text. What a step owes a table is said in the front end's words at
the moment the step is played — a turn line, a round's or the game's end, the host's own
notices (a player left, the lobby expired…) — because those words are committed with the
step (the outbox's messages, delivered after a restart too): a crash between the commit
and the delivery cannot change them, and no stored format changes. So the front end hands
the host a :class:`FrontEnd`: its registry of :class:`HostedGame` (the engine's game plus
the word hooks the host calls) and its words for :class:`Notice` codes. What is for the
asker alone and committed with nothing — the chooser of a typed move that reads as several
moves — the host does not word at all: it returns the moves (:class:`host.live.Chooser`),
and each front end words them with the same game's hooks (:meth:`HostedGame.chooser_text`,
:meth:`HostedGame.move_label`) in the asker's language.
"""

from __future__ import annotations

from collections.abc import Mapping
from contextlib import AbstractContextManager
from enum import StrEnum
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

from pydantic import BaseModel

from engine.errors import AmbiguousMoveError
from engine.game import Game, RoundEnded, TurnEnded

if TYPE_CHECKING:
    from persistence.records import TableInfo


class Notice(StrEnum):
    """Every sentence the host owes a table of its own (not a game's), with its facts."""

    QUARANTINED = "quarantined"  # title: the stored game does not read back
    NO_HUMAN_AT_START = "no_human_at_start"  # at start-up, nobody human is seated
    LEFT = "left"  # name: a player left (the start of the notes below)
    KICKED = "kicked"  # name: the host removed a player
    LOBBY_LEFT = "lobby_left"  # why (LEFT/KICKED's words), host (the new host or None)
    LOBBY_EMPTY = "lobby_empty"  # why: the last player left the lobby
    SEAT_TO_AI = "seat_to_ai"  # why, host (the new host or None): an AI took the seat
    NO_HUMAN_LEFT = "no_human_left"  # why: the last human left a running game
    ENDED_BY = "ended_by"  # title, name: the host (or a manager) ended the table
    LOBBY_EXPIRED = "lobby_expired"  # seconds
    GAME_EXPIRED = "game_expired"  # seconds
    TIMED_OUT_TO_AI = "timed_out_to_ai"  # name, count: too many turns ran out
    # name, count: the turn timer handed the last human's seat to an AI (TIMED_OUT_TO_AI
    # and the table's closing, said at once)
    NO_HUMAN_PLAYING = "no_human_playing"


class HostedGame(Protocol):
    """A game as the host runs it: the engine's game and the front end's words for it."""

    @property
    def game(self) -> Game[Any]: ...

    @property
    def title(self) -> str: ...

    def settings_of(self, values: Mapping[str, Any]) -> BaseModel:
        """The settings model (raises pydantic's ``ValidationError`` for a wrong value)."""
        ...

    def start_text(self, state: Any) -> str: ...

    def decision_text(self, state: Any, seat: int, move: Any) -> str | None: ...

    def turn_text(self, state: Any, event: TurnEnded) -> str: ...

    def round_text(self, state: Any, event: RoundEnded) -> str | None: ...

    def game_end_texts(self, state: Any) -> list[str]: ...

    def move_label(self, state: Any, move: Any) -> str:
        """A move on a button or in a menu, in the language spoken (the asker's)."""
        ...

    def chooser_text(self, state: Any, error: AmbiguousMoveError) -> str:
        """The question above the moves a typed move may mean (``error``: the engine's,
        which listed them), in the language spoken: the front end asks it, in the mover's
        language (the host returns the moves: :class:`host.live.Chooser`)."""
        ...

    def hint_text(self, state: Any) -> str:
        """Why the greedy AI would play its move (``/hint``), in the current language."""
        ...


G = TypeVar("G", bound=HostedGame, covariant=True)


class FrontEnd(Protocol[G]):
    """The front end that runs the host: its games (of type ``G``: the Discord bot's are
    its ``DiscordGame``), and its words for the host's own."""

    @property
    def default_game(self) -> str: ...

    def game_names(self) -> tuple[str, ...]:
        """Every hosted game's name."""
        ...

    def game(self, name: str) -> G:
        """The game called ``name`` (one of :meth:`game_names`)."""
        ...

    def turn_line(self, words: str, *, automatic: bool) -> str:
        """A turn's words as the table shows them (``automatic``: the turn timer played
        the move)."""
        ...

    def notice(self, notice: Notice, data: Mapping[str, Any]) -> str:
        """A host's notice in words."""
        ...

    def plain(self, line: str) -> str:
        """A line this front end wrote (:meth:`turn_line`, :meth:`notice`) as plain text,
        its own markup undone: what a page that shows text as it is shows (the web pages of
        a table the Discord bot hosts show ``bob_x``, not Discord's ``bob\\_x``)."""
        ...

    def speaking(self, info: TableInfo) -> AbstractContextManager[object]:
        """Say what the table is told, inside, in the table's language (its server's, on
        Discord): the host enters it around every step and notice it words."""
        ...
