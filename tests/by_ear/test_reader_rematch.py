"""A rematch by ear: at the end of a host's game the reader offers ``rematch``; it is
said who asked and who is awaited, and once every player has, the reader's game
ends with the rematch's table to go on to (reader/launch.py joins it). A real host on
127.0.0.1 in this process; Ann is the screen reader mode, Bob a bot."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

from paris_tui.host.server import Host
from paris_tui.net.protocol import Agree
from paris_tui.reader.inbox import now
from tests.app.test_chat_app import near_the_end
from tests.host.helpers import TIMEOUT, put_record, running_host

from .at_table import MAX_STEPS, AtTable, reader_at_table, said


@asynccontextmanager
async def _at_the_end(tmp_path: Path) -> AsyncIterator[tuple[Host, AtTable]]:
    """Ann's reader at a host's game that bob's last move has just ended, the reader
    offering ``rematch``."""
    put_record(tmp_path, "t1", near_the_end().record())  # bob,ann; bob's move ends it
    async with (
        running_host(tmp_path) as (host, port),
        reader_at_table(port, bot="bob") as at,
    ):
        await at.bob.play_to_end()
        await said(at.out, "rematch asks for a rematch")
        yield host, at


async def test_rematch_by_ear_is_asked_said_and_goes_on_to_its_table(tmp_path: Path) -> None:
    async with _at_the_end(tmp_path) as (host, at):
        out, inbox = at.out, at.inbox
        inbox.put("rematch", now() + 1)
        await said(out, "A rematch: ann asked for it; waiting for bob.")
        at.bob.client.send(Agree("rematch"))
        await said(out, "Everyone asked for a rematch: it starts now at table t2.")
        await asyncio.wait_for(at.task, TIMEOUT)  # the game's end: on to the rematch
        assert at.reader.next_table == "t2"
        assert host.rooms["t2"].referee.names == ("ann", "bob")


async def test_after_the_host_is_gone_rematch_and_say_are_answered(tmp_path: Path) -> None:
    """Found by hand (the host killed while dora's reader was at the game's end): the
    reader's end does not join again, and ``rematch`` and ``say gg`` then got no answer
    at all, only silence. Each is answered now: the host cannot be reached."""
    async with _at_the_end(tmp_path) as (_host, at):
        out, inbox = at.out, at.inbox
        at.client.abort()  # the host is gone
        await asyncio.wait_for(at.follow, TIMEOUT)
        gone = "The host cannot be reached"
        inbox.put("rematch", now() + 1)
        await said(out, gone)
        before = sum(gone in line for line in out.said)
        inbox.put("say gg", now() + 2)
        for _ in range(MAX_STEPS):
            if sum(gone in line for line in out.said) > before:
                break
            await asyncio.sleep(0.005)
        assert sum(gone in line for line in out.said) > before, out.said[-4:]
        inbox.put("quit", now() + 3)
        await asyncio.wait_for(at.task, TIMEOUT)
