"""A TCP proxy to PostgreSQL for the database-fault tests, run as a process of its own
(``python -m tests.bot.stall_proxy HOST PORT``): it prints the port it listens on, then
takes one command a line on its standard input and answers ``ok`` once it is done:

* ``stall``: it stops forwarding (the connections stay open, nothing more arrives either
  way: a stalled server or network);
* ``cut``: PostgreSQL goes away (its connections are reset, new ones refused);
* ``heal``: the stalled or cut connections are dropped, new ones are forwarded again.

It ends when its standard input closes. (A process of its own: the proxy keeps serving
whatever the test's event loop, or simcord's clock, is doing.)"""

from __future__ import annotations

import asyncio
import sys


class StallingProxy:
    def __init__(self, host: str, port: int) -> None:
        self.target = (host, port)
        self.flowing = asyncio.Event()
        self.flowing.set()
        self.refusing = False
        self.writers: set[asyncio.StreamWriter] = set()

    def command(self, word: str) -> None:
        if word in ("cut", "heal"):
            for w in list(self.writers):
                w.transport.abort()
            self.writers.clear()
        self.refusing = word == "cut"
        if word == "stall":
            self.flowing.clear()
        else:
            self.flowing.set()

    async def serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        if self.refusing:
            writer.transport.abort()
            return
        await self.flowing.wait()
        try:
            up_reader, up_writer = await asyncio.open_connection(*self.target)
        except OSError:
            writer.transport.abort()
            return
        self.writers |= {writer, up_writer}
        await asyncio.gather(
            self._pipe(reader, up_writer), self._pipe(up_reader, writer), return_exceptions=True
        )
        for w in (writer, up_writer):
            self.writers.discard(w)
            w.transport.abort()

    async def _pipe(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        while True:
            data = await reader.read(65536)
            if not data:
                return
            await self.flowing.wait()  # a stall holds what arrived
            if writer.transport.is_closing():
                return
            writer.write(data)
            await writer.drain()


async def main(host: str, port: int) -> None:
    proxy = StallingProxy(host, port)
    server = await asyncio.start_server(proxy.serve, "127.0.0.1", 0)
    print(server.sockets[0].getsockname()[1], flush=True)
    loop = asyncio.get_running_loop()
    while True:
        line = await loop.run_in_executor(None, sys.stdin.readline)
        if not line:
            break
        proxy.command(line.strip())
        print("ok", flush=True)
    server.close()
    proxy.command("cut")


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], int(sys.argv[2])))
