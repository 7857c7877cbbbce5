"""An agreed abort by ear: ``abort`` proposes ending the game (typed on one's own
turn too), it is said who asked and who is awaited, ``abort no`` declines, and once
every player agreed the reader says the game is over, unrated, and its game ends. A
real host on 127.0.0.1 in this process; Ann is the screen reader mode, Bob a bot."""

from __future__ import annotations

import asyncio
import io
from pathlib import Path

from paris_tui.net.client import HostClient
from paris_tui.net.protocol import Agree
from paris_tui.net.table import RemoteTable
from paris_tui.reader.inbox import Inbox, now
from paris_tui.reader.lines import Lines
from paris_tui.reader.play import Reader
from tests.host.helpers import TIMEOUT, join_bot, running_host

MAX_STEPS = 2000


async def _said(out: Lines, text: str) -> None:
    for _ in range(MAX_STEPS):
        if any(text in line for line in out.said):
            return
        await asyncio.sleep(0.005)
    raise AssertionError(f"never said {text!r}: {out.said[-8:]}")


async def test_abort_by_ear_is_proposed_declined_agreed_and_ends_the_game(
    tmp_path: Path,
) -> None:
    async with running_host(tmp_path, ["ann,bob"]) as (host, port):
        client = await HostClient.connect("127.0.0.1", port)
        table = RemoteTable(client, await client.join("ann"))
        bob = await join_bot(port, "bob")
        follow = asyncio.ensure_future(table.run())
        out = Lines(io.StringIO(), width=lambda: 80)
        inbox = Inbox()
        reader = Reader(table, out, inbox)
        task = asyncio.ensure_future(reader.run())
        try:
            await _said(out, "Your turn, ann")
            inbox.put("abort", now() + 1)  # on her own turn: no stop starts so
            await _said(out, "An abort: ann asked to end the game now, unrated; waiting for bob.")
            bob.client.send(Agree("abort", False))
            await _said(out, "Nobody asks to abort the game now: it goes on.")
            inbox.put("abort", now() + 2)
            for _ in range(MAX_STEPS):
                if sum("An abort: ann asked" in line for line in out.said) == 2:
                    break
                await asyncio.sleep(0.005)
            bob.client.send(Agree("abort"))
            await _said(out, "Every player agreed to abort: the game is over, no one won")
            assert await asyncio.wait_for(task, TIMEOUT) == 0  # the game's end
            assert host.rooms["t1"].referee.is_over
            assert not any("The table is gone" in line for line in out.said)
        finally:
            task.cancel()
            follow.cancel()
            await client.close()
            await bob.client.close()
