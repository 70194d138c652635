"""The moves' interactions: typed and tapped moves and their answers, the private panels,
hints, score sheets and game records."""

from __future__ import annotations

import io
import json
import logging
import time
from typing import Any

import discord

from bot import games
from bot.answers import (
    edit_panel,
    in_time,
    log_action,
    player,
    say,
)
from bot.games.base import DiscordGame, Panel
from bot.refusal_words import Refused
from bot.table_message import TablesHost
from bot.text import escape_prose
from bot.views import moves_view
from catalog import t
from engine.errors import NoRecord
from host.service import Choice, LiveTable, MoveOutcome
from persistence.records import ScoreSheet

log = logging.getLogger(__name__)


class Moves:
    """Answers the moves' commands and buttons."""

    def __init__(self, tables: TablesHost) -> None:
        self.tables = tables

    async def play_move(
        self,
        interaction: discord.Interaction,
        *,
        text: str | None = None,
        move: Any = None,
        table_id: int | None = None,
        version: int | None = None,
        edit: bool = False,
    ) -> None:
        """Play a move for the user — typed (``text``, in the channel's table) or given
        (``move``, from a button of table ``table_id`` at ``version``) — and answer them:
        the channel first (it is owed whatever happens to this answer), then the player,
        ``edit``-ing the panel whose button was used or answering anew."""
        channel_id = interaction.channel_id or 0
        if table_id is not None:
            channel_id = self.tables.service.table_by_id(table_id).channel_id
        started = time.perf_counter()
        outcome = await in_time(
            interaction,
            self.tables.service.move(
                channel_id,
                player(interaction),
                text=text,
                move=move,
                table_id=table_id,
                version=version,
                interaction_id=str(interaction.id),
            ),
            update=edit,
        )
        self.tables.move_timings.add(time.perf_counter() - started)
        if outcome.chooser is not None:
            # not played (the player is asked which move they mean, and may play another):
            # what they typed names cards of a hand nobody else may see, so it is not logged
            what = "typed a move that may be meant several ways"
        elif text is not None:
            what = f"typed {text[:100]!r}"  # played: public now
        else:
            what = f"played {move!r}"
        log_action(interaction, what, outcome.table)
        await self._answer_move(interaction, outcome, edit=edit)

    async def play(self, interaction: discord.Interaction, text: str) -> None:
        """A move typed in a command."""
        await self.play_move(interaction, text=text)

    async def tapped(
        self, interaction: discord.Interaction, table_id: int, version: int, code: str
    ) -> None:
        """A move button or select: ``code`` is the table's game's move code (read back
        against the committed state, under the lock; the service checks it again)."""
        live = self.tables.service.table_by_id(table_id)
        move = None
        async with live.lock:
            if live.state is not None:
                move = live.game.move_from_code(live.state, code)
        if move is None:
            raise Refused("refusal.unknown_move")
        await self.play_move(interaction, move=move, table_id=table_id, version=version, edit=True)

    async def _answer_move(
        self, interaction: discord.Interaction, outcome: MoveOutcome, *, edit: bool
    ) -> None:
        live = outcome.table
        if outcome.duplicate:
            await say(interaction, t("discord.move.duplicate"))
            return
        self.tables.committed(outcome)
        chooser = outcome.chooser
        if chooser is not None:
            # the moves a typed move may mean, worded here: in the mover's language (the
            # host spoke the table's), a table button named as the table shows it
            game = live.game
            choices = [Choice(m, game.move_label(chooser.state, m)) for m in chooser.moves]
            view, _ = moves_view(game, live.id, chooser.version, choices)
            text = game.chooser_text(chooser.state, chooser.error)
            await self._answer(interaction, Panel(text, view), edit=edit)
            return
        if outcome.continues and outcome.seat is not None:
            panel = await self._panel_again(live, outcome.seat, interaction.user.id)
            if panel is not None:
                await self._answer(interaction, panel, edit=edit)
                return
        # its first line (a move that ends no turn but the game, a resignation: the end), in
        # the mover's language: the table's words are its server's
        text = "✅ " + (outcome.told_mover or t("discord.done"))
        await self._answer(interaction, Panel(text), edit=edit)

    async def _panel_again(
        self, live: LiveTable[DiscordGame], seat: int, user_id: int
    ) -> Panel | None:
        """The mover's panel after a move that left their turn going on, built under the
        lock from the committed state; ``None`` when the table moved on meanwhile (another
        move committed: a typed one, the turn timer's), so that the mover is never shown
        another seat's panel — their hand, in a game of hidden hands."""
        async with live.lock:
            state = live.state
            if (
                not live.info.is_active
                or state is None
                or state.is_over
                or state.current_player != seat
                or live.user_at(seat) != user_id
            ):
                return None
            return await live.game.panel(self.tables, live, seat)

    async def _answer(self, interaction: discord.Interaction, panel: Panel, *, edit: bool) -> None:
        """Answer with ``panel``: editing the message whose component was used, or anew."""
        if edit:
            extra: dict[str, Any] = {"attachments": panel.files} if panel.files else {}
            await edit_panel(interaction, content=panel.text, view=panel.view, **extra)
        else:
            extra = {"files": panel.files} if panel.files else {}
            if panel.view is not None:
                extra["view"] = panel.view
            await say(interaction, panel.text, **extra)

    async def open_panel(self, interaction: discord.Interaction, table_id: int) -> None:
        """The private button (**My turn**, **My hand**): the game's panel for the
        clicker, answered privately and freshly on every click."""
        live = self.tables.service.table_by_id(table_id)

        async def build() -> Panel:
            seat = await self.tables.service.seat_of(live, player(interaction))
            async with live.lock:
                return await live.game.panel(self.tables, live, seat)

        # deferred when the table's lock is held long (a move waiting on a stalled database)
        panel = await in_time(interaction, build())
        await self._answer(interaction, panel, edit=False)

    async def hint(self, interaction: discord.Interaction) -> None:
        channel_id = interaction.channel_id or 0
        text = await self.tables.service.hint(channel_id, player(interaction))
        # a hint's own inline code (the Japanese put the move in backticks) stays code; the
        # players' names in it show as they are
        live = self.tables.service.by_channel.get(channel_id)
        names = tuple(getattr(live.state, "players", ())) if live is not None else ()
        await say(interaction, t("discord.hint", move=escape_prose(text, names)))

    async def score_text(self, sheet: ScoreSheet) -> str:
        """``/scores``: the sheet in its game's words, with the table's committed state
        (read under its lock) while its game runs here, e.g. Stack Up!'s hand sizes."""
        game = games.get(sheet.game)
        live = self.tables.service.by_id.get(sheet.table_id)
        if live is None:
            return game.score_text(sheet)
        async with live.lock:
            return game.score_text(sheet, live.state)

    async def last_finished(self, channel_id: int) -> int | None:
        """The table of the channel's last finished game, of any game."""
        last = await self.tables.store.last_finished(channel_id)
        return last[0] if last is not None else None

    async def export(self, interaction: discord.Interaction) -> None:
        """The record of the channel's game (a running one, unless its game hides
        information: then only once it is over), else of its last finished game."""
        live = self.tables.service.by_channel.get(interaction.channel_id or 0)
        table_id = live.id if live else None
        if table_id is None:
            table_id = await self.last_finished(interaction.channel_id or 0)
        if table_id is None or (live is not None and live.state is None):
            raise Refused("refusal.nothing_to_export")
        info = live.info if live is not None else await self.tables.store.table(table_id)
        game = games.get(info.game)
        if live is not None and game.hidden_information:
            raise Refused("refusal.export_hidden", title=game.title)
        try:
            record = await in_time(interaction, self.tables.store.export_record(table_id))
        except NoRecord:  # being set up, or resigned before its board was set up
            running = live is not None and live.state is not None and not live.state.is_over
            raise Refused("refusal.no_record_yet" if running else "refusal.no_record") from None
        data = json.dumps(record, indent=1).encode()
        await say(
            interaction,
            t("discord.export", format=game.game.record_format),
            file=discord.File(io.BytesIO(data), filename=f"{game.name}-table-{table_id}.json"),
        )
