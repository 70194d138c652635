"""What the two benches share (:mod:`bot.bench`, one process; :mod:`bot.cluster_bench`,
several): the stand-in Discord the production host talks to (:class:`BenchBot`, whose
channels answer every call at once and count them) and the open loop's arrivals
(:func:`arrive`). A tool: nothing at run time imports it."""

from __future__ import annotations

import asyncio
import itertools
import json
import random
import time
from typing import Any


class BenchMessage:
    def __init__(self, channel: BenchChannel, message_id: int) -> None:
        self.channel = channel
        self.id = message_id

    async def edit(self, **kwargs: Any) -> BenchMessage:
        self.channel.calls += 1
        _consume(kwargs)
        return self

    async def delete(self) -> None:
        self.channel.calls += 1


class Permissions:
    attach_files = True


class BenchGuild:
    me = object()


class BenchChannel:
    """A stand-in for a text channel: answers every call at once and counts them."""

    ids = itertools.count(1)

    def __init__(self, channel_id: int) -> None:
        self.id = channel_id
        self.calls = 0
        self.guild = BenchGuild()

    def permissions_for(self, _member: Any) -> Permissions:
        return Permissions()

    async def send(self, content: str | None = None, **kwargs: Any) -> BenchMessage:
        self.calls += 1
        _consume(kwargs)
        return BenchMessage(self, next(self.ids))

    def get_partial_message(self, message_id: int) -> BenchMessage:
        return BenchMessage(self, message_id)

    def history(self, limit: int = 0) -> Any:
        async def empty() -> Any:
            return
            yield

        return empty()


def _consume(kwargs: dict[str, Any]) -> None:
    """Read the attached picture as discord.py would when uploading it."""
    files = list(kwargs.get("attachments") or [])
    if kwargs.get("file") is not None:
        files.append(kwargs["file"])
    for f in files:
        f.fp.read()


class ReadyComponents:
    """A message's components as a request carried them (what :mod:`bot.views`' ready
    payloads give as ``to_components()``)."""

    def __init__(self, components: list[dict[str, Any]]) -> None:
        self.components = components

    def to_components(self) -> list[dict[str, Any]]:
        return self.components


class BenchHTTP:
    """discord.py's HTTP client as far as the host calls it directly (the table message's
    edit, :meth:`bot.table_message.TableMessages._edit_message`): the request is handed to
    the stand-in channel's message, as the keyword arguments ``PartialMessage.edit`` takes."""

    def __init__(self, bot: BenchBot) -> None:
        self.bot = bot

    async def edit_message(self, channel_id: int, message_id: int, *, params: Any) -> None:
        payload = params.payload
        if payload is None:  # with files: the JSON is the multipart's first part
            payload = json.loads(params.multipart[0]["value"])
        message = self.bot.get_channel(channel_id).get_partial_message(message_id)
        await message.edit(
            view=ReadyComponents(payload.get("components") or []),
            attachments=list(params.files or []),
        )


class BenchBot:
    channel_kind = BenchChannel  # what its channels are
    allowed_mentions = None  # the client's default: none set

    def __init__(self) -> None:
        self.channels: dict[int, BenchChannel] = {}
        self.user = None
        self.http = BenchHTTP(self)

    def get_channel(self, channel_id: int) -> BenchChannel:
        channel = self.channels.get(channel_id)
        if channel is None:
            channel = self.channels[channel_id] = self.channel_kind(channel_id)
        return channel

    get_partial_messageable = get_channel


async def arrive(
    arrivals: asyncio.Queue[float], rng: random.Random, mean_gap: float, stop: float
) -> None:
    """Put each arrival's time (exponential gaps of ``mean_gap`` s on average: an open
    loop) into ``arrivals`` until ``stop``, then ``-1``."""
    due = time.perf_counter() + rng.expovariate(1 / mean_gap)
    while due < stop:
        await asyncio.sleep(max(0.0, due - time.perf_counter()))
        arrivals.put_nowait(due)
        due += rng.expovariate(1 / mean_gap)
    arrivals.put_nowait(-1)
