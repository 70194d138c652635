"""The Discord stand-in (bot/standin/__init__.py) answers discord.py's own HTTP client as
Discord does: a login, a message with a file, its edit, the channel's history, a delete,
and a call it does not know refused 404 and noted."""

from __future__ import annotations

import io

import discord
import discord.http
import pytest

from bot.standin import API_PREFIX, BOT_TOKEN, DiscordStandIn


async def test_discord_pys_http_client_posts_edits_reads_and_deletes_through_the_stand_in(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    async with DiscordStandIn() as discord_:
        monkeypatch.setattr(discord.http.Route, "BASE", discord_.url + API_PREFIX)
        channel_id = int(discord_.add_guild("g", channels=["stack"])["channels"][0]["id"])
        http = discord.http.HTTPClient(discord.utils.MISSING)
        try:
            me = await http.static_login(BOT_TOKEN)
            assert int(me["id"]) == discord_.application_id
            picture = discord.File(io.BytesIO(b"png"), filename="table.png")
            with discord.http.handle_message_parameters(content="hi", file=picture) as params:
                sent = await http.send_message(channel_id, params=params)
            assert sent["content"] == "hi" and sent["attachments"][0]["filename"] == "table.png"
            assert discord_.requests[-1].files == ["table.png"]
            with discord.http.handle_message_parameters(content="edited") as params:
                await http.edit_message(channel_id, int(sent["id"]), params=params)
            history = await http.logs_from(channel_id, 10)
            assert [m["content"] for m in history] == ["edited"]
            await http.delete_message(channel_id, int(sent["id"]))
            assert await http.logs_from(channel_id, 10) == []
            with pytest.raises(discord.NotFound):
                await http.get_user(1)
            assert [(r.method, r.path) for r in discord_.unhandled] == [("GET", "/users/1")]
        finally:
            await http.close()


async def test_the_stand_ins_history_pages_before_and_after_a_message_as_discord_does(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """discord.py reads a long history in pages of 100 (``before``: the newest older than
    it; ``after``: the oldest newer than it; each page newest first). Ignoring them, the
    stand-in gave the newest page again and again: a bot looking through a channel of 100
    messages or more for its own posts would never reach the end."""
    async with DiscordStandIn() as discord_:
        monkeypatch.setattr(discord.http.Route, "BASE", discord_.url + API_PREFIX)
        channel_id = int(discord_.add_guild("g", channels=["stack"])["channels"][0]["id"])
        http = discord.http.HTTPClient(discord.utils.MISSING)
        try:
            await http.static_login(BOT_TOKEN)
            ids = []
            for n in range(130):
                with discord.http.handle_message_parameters(content=str(n)) as params:
                    ids.append(int((await http.send_message(channel_id, params=params))["id"]))
            first = await http.logs_from(channel_id, 100)
            assert [m["content"] for m in first] == [str(n) for n in range(129, 29, -1)]
            rest = await http.logs_from(channel_id, 100, before=int(first[-1]["id"]))
            assert [m["content"] for m in rest] == [str(n) for n in range(29, -1, -1)]
            later = await http.logs_from(channel_id, 5, after=ids[9])
            assert [m["content"] for m in later] == ["14", "13", "12", "11", "10"]
            assert await http.logs_from(channel_id, 100, before=ids[0]) == []
            assert await http.logs_from(channel_id, 100, after=ids[-1]) == []
        finally:
            await http.close()
