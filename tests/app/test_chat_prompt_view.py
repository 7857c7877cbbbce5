"""The chat prompt is a bar over the table, not a page of its own: the board and
the chat pane stay in sight (dimmed) while a player types, so a line another
player says meanwhile is read there, and so is the turn that comes.

A real host on 127.0.0.1 in this process; Ann is the app, Bob a bot client."""

from __future__ import annotations

import asyncio
from pathlib import Path

from textual.pilot import Pilot

from paris_tui.app.app import ParisApp
from paris_tui.app.online.chat import ChatPane, ChatPrompt
from paris_tui.app.online.remote import JoinTarget, open_link
from paris_tui.net.client import TokenStore
from paris_tui.net.protocol import Chat
from tests.host.helpers import join_bot, running_host

from .helpers import find_game, press, screen_text

MAX_STEPS = 500


async def _until(pilot: Pilot[object], test: object, what: str) -> None:
    for _ in range(MAX_STEPS):
        if test():  # type: ignore[operator]
            return
        await pilot.pause(0.01)
    raise AssertionError(f"never: {what}")


async def test_the_table_and_its_chat_show_under_the_chat_prompt(tmp_path: Path) -> None:
    async with running_host(tmp_path / "host", ["ann,bob"], seed=3) as (_host, port):
        tokens = TokenStore(tmp_path / "ann" / "tokens.json")
        link = await open_link(JoinTarget("127.0.0.1", port, "ann"), tokens)
        bob = await join_bot(port, "bob")
        app = ParisApp(link=link, anim=0.0, ai_delay=0.0, cursor_blink=False)
        async with app.run_test(size=(100, 30)) as pilot:
            await pilot.pause()
            game = find_game(app)
            assert game is not None
            pane = game.query_one(ChatPane)
            await press(pilot, "c")
            await _until(pilot, lambda: isinstance(app.screen, ChatPrompt), "the prompt")
            bob.client.send(Chat("are you there"))
            await _until(pilot, lambda: len(pane.lines_heard) == 1, "bob's line")
            await pilot.pause()
            shown = screen_text(app)
            assert "Say at the table" in shown
            assert "bob: are you there" in shown, shown  # in the prompt, or the pane under it
            assert "Your turn: choose a tile" in shown and "Opéra" in shown, shown  # the board
        await bob.client.close()
        await asyncio.sleep(0)
