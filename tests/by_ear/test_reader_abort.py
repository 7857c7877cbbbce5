"""An agreed abort by ear: ``abort`` proposes ending the game (typed on one's own
turn too), it is said who asked and who is awaited, ``abort no`` declines, and once
every player agreed the reader says the game is over, unrated, and its game ends. A
real host on 127.0.0.1 in this process; Ann is the screen reader mode, Bob a bot."""

from __future__ import annotations

import asyncio
from pathlib import Path

from paris_tui.net.protocol import Agree
from paris_tui.reader.inbox import now
from tests.host.helpers import TIMEOUT, running_host

from .at_table import MAX_STEPS, reader_at_table, said


async def test_abort_by_ear_is_proposed_declined_agreed_and_ends_the_game(
    tmp_path: Path,
) -> None:
    async with (
        running_host(tmp_path, ["ann,bob"]) as (host, port),
        reader_at_table(port, bot="bob") as at,
    ):
        out, inbox = at.out, at.inbox
        await said(out, "Your turn, ann")
        inbox.put("abort", now() + 1)  # on her own turn: no stop starts so
        await said(out, "An abort: ann asked to end the game now, unrated; waiting for bob.")
        at.bob.client.send(Agree("abort", False))
        await said(out, "Nobody asks to abort the game now: it goes on.")
        inbox.put("abort", now() + 2)
        for _ in range(MAX_STEPS):
            if sum("An abort: ann asked" in line for line in out.said) == 2:
                break
            await asyncio.sleep(0.005)
        at.bob.client.send(Agree("abort"))
        await said(out, "Every player agreed to abort: the game is over, no one won")
        assert await asyncio.wait_for(at.task, TIMEOUT) == 0  # the game's end
        assert host.rooms["t1"].referee.is_over
        assert not any("The table is gone" in line for line in out.said)
