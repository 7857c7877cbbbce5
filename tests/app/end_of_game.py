"""The end of a host's game in the app, for the rematch and round tests: ann's app
(she came straight to her seat) at table t1 of a real host on 127.0.0.1, bob a bot
whose move ends the game. Every wait is bounded."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path

from textual.pilot import Pilot

from paris_tui.app.app import ParisApp
from paris_tui.app.screens.end import EndScreen
from paris_tui.core.record import Record
from paris_tui.host.server import Host
from tests.host.helpers import Bot, join_bot, put_record, running_host

from .helpers import find_game, remote_app, until
from .test_chat_app import near_the_end

__all__ = ["at_the_end"]


@asynccontextmanager
async def at_the_end(
    folder: Path, record: Record | None = None
) -> AsyncIterator[tuple[Host, ParisApp, Pilot[object], Bot]]:
    """The host (serving ``record``, by default :func:`near_the_end`'s: bob,ann, bob's
    move ends it, from ``folder``/host), ann's app running at 80x24 once it shows the
    end screen, and bob; bob's connection closed as the block ends."""
    put_record(folder / "host", "t1", near_the_end().record() if record is None else record)
    async with running_host(folder / "host") as (host, port):
        app = await remote_app(port, "ann", folder / "ann" / "tokens.json")
        bob = await join_bot(port, "bob")
        try:
            async with app.run_test(size=(80, 24)) as pilot:
                await until(pilot, lambda: find_game(app) is not None, "the game screen")
                await until(pilot, lambda: 1 in host.rooms["t1"].seated, "ann seated")
                await bob.play_to_end()
                await until(pilot, lambda: isinstance(app.screen, EndScreen), "the end screen")
                yield host, app, pilot, bob
        finally:
            await bob.client.close()
        await asyncio.sleep(0)
