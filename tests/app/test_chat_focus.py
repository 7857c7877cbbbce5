"""Chat never moves a piece: a line sent leaves the prompt open (Escape closes it),
so a second line typed at once is chat too; and once it closes, no key stamped
before then, nor an Enter a moment after, takes a tile. At a real-time table and at
a turn-based one, where a tile taken by mistake is a permanent move.

A real host on 127.0.0.1 in this process; the mover is the app (with its deliberate
keys on, as a player has them), the other seat a bot client."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from textual.pilot import Pilot

from paris_tui.app.app import ParisApp
from paris_tui.app.online.chat import ChatPrompt
from paris_tui.app.online.remote import JoinTarget, open_link
from paris_tui.host.referee import parse_seats
from paris_tui.net.client import HostClient, TokenStore
from paris_tui.net.protocol import ChatLine
from tests.host.helpers import TIMEOUT, running_host

from .helpers import find_game

DAY = 86400.0
MAX_STEPS = 500


async def _until(pilot: Pilot[object], test: object, what: str) -> None:
    for _ in range(MAX_STEPS):
        if test():  # type: ignore[operator]
            return
        await pilot.pause(0.02)
    raise AssertionError(f"never: {what}")


async def _heard(client: HostClient, count: int, name: str) -> list[str]:
    said: list[str] = []
    for _ in range(MAX_STEPS):
        if len(said) == count:
            return said
        message = await client.receive(TIMEOUT)
        if isinstance(message, ChatLine) and message.name == name and message.text:
            said.append(message.text)
    raise AssertionError(f"heard only {said!r}")


@pytest.mark.parametrize("move_time", [None, DAY], ids=["real-time", "turn-based"])
async def test_two_lines_typed_fast_are_both_chat_and_no_tile_is_taken(
    tmp_path: Path, move_time: float | None
) -> None:
    async with running_host(tmp_path / "host") as (host, port):
        room = host.open_table(parse_seats("ann,bob"), seed=3, move_time=move_time)
        mover = room.referee.to_move
        assert mover is not None
        me, other = ("ann", "bob") if mover == 0 else ("bob", "ann")
        tokens = TokenStore(tmp_path / "tokens.json")
        link = await open_link(JoinTarget("127.0.0.1", port, me), tokens)
        listener = await HostClient.connect("127.0.0.1", port)
        await listener.join(other)
        app = ParisApp(link=link, anim=0.0, ai_delay=0.0, cursor_blink=False)
        async with app.run_test(size=(100, 30)) as pilot:
            await _until(pilot, lambda: find_game(app) is not None, "the game screen")
            game = find_game(app)
            assert game is not None
            await _until(pilot, lambda: game.turn_seat == mover, "my turn")
            await asyncio.sleep(1.0)  # the turn's Enter would count by now
            await pilot.press("c")
            await _until(pilot, lambda: isinstance(app.screen, ChatPrompt), "the prompt")
            await pilot.press(*"hi", "enter", *"ok", "enter")
            assert await _heard(listener, 2, me) == ["hi", "ok"]
            assert isinstance(app.screen, ChatPrompt)  # still in the chat
            # Escape, then an Enter at once: the board waits a quiet moment first.
            await pilot.press("escape", "enter")
            await _until(pilot, lambda: app.screen is game, "the game again")
            await pilot.pause(0.3)
            assert room.referee.move_count == 0
            # A deliberate Enter a moment later takes the tile, as ever.
            await asyncio.sleep(1.0)
            await pilot.press("enter")
            await _until(pilot, lambda: room.referee.move_count == 1, "the move")
        await listener.close()
