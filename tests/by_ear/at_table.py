"""The screen reader's player at a host's table, for the tests by ear: ann joins (her
reader following the table, its lines kept), a bot may join beside her, and every
wait for a line is bounded."""

from __future__ import annotations

import asyncio
import io
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field

from paris_tui.net.client import HostClient
from paris_tui.net.table import RemoteTable
from paris_tui.reader.inbox import Inbox
from paris_tui.reader.lines import Lines
from paris_tui.reader.play import Reader
from paris_tui.reader.prefs import Prefs
from tests.host.helpers import Bot, join_bot

__all__ = ["MAX_STEPS", "AtTable", "reader_at_table", "said"]

MAX_STEPS = 2000


async def said(out: Lines, text: str) -> str:
    """The first line said with ``text`` in it, once it is said (bounded)."""
    for _ in range(MAX_STEPS):
        for line in out.said:
            if text in line:
                return line
        await asyncio.sleep(0.005)
    raise AssertionError(f"never said {text!r}: {out.said[-8:]}")


@dataclass
class AtTable:
    """What :func:`reader_at_table` gives: the connection, the table, the reader's
    output (``stream``: every byte; ``out``: its lines), its input and its run."""

    client: HostClient
    table: RemoteTable
    bot: Bot | None
    stream: io.StringIO
    out: Lines
    inbox: Inbox
    reader: Reader
    task: asyncio.Future[int]
    follow: asyncio.Future[object] = field(repr=False)

    @property
    def bob(self) -> Bot:
        assert self.bot is not None
        return self.bot


@asynccontextmanager
async def reader_at_table(
    port: int, name: str = "ann", *, bot: str | None = None, prefs: Prefs | None = None
) -> AsyncIterator[AtTable]:
    """``name`` joins the host at 127.0.0.1:``port`` (then the bot ``bot``, if named),
    the table followed and the reader run on it (with ``prefs``); all of it cancelled
    and closed as the block ends."""
    client = await HostClient.connect("127.0.0.1", port)
    table = RemoteTable(client, await client.join(name))
    bob = await join_bot(port, bot) if bot is not None else None
    follow = asyncio.ensure_future(table.run())
    stream = io.StringIO()
    out = Lines(stream, width=lambda: 80)
    inbox = Inbox()
    reader = Reader(table, out, inbox, prefs=prefs)
    task = asyncio.ensure_future(reader.run())
    try:
        yield AtTable(client, table, bob, stream, out, inbox, reader, task, follow)
    finally:
        task.cancel()
        follow.cancel()
        await client.close()
        if bob is not None:
            await bob.client.close()
