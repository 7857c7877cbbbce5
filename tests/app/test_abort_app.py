"""An agreed abort from the app at a host's table: the command palette's "Propose
abort" asks, the proposal is told in words, the other player agrees, and the app
shows the game aborted (no winner, the scores when it ended, unrated: "every player
agreed to abort it"); q goes back to the lobby. A real host on 127.0.0.1 in this
process; Ann is the app (80x24, keys through Pilot), Bob a bot."""

from __future__ import annotations

import asyncio
from pathlib import Path

from paris_tui.app.screens.end_abort import AbortedScreen
from paris_tui.app.screens.lobby import LobbyScreen
from paris_tui.net.protocol import Agree, Agreement
from tests.host.helpers import TIMEOUT, join_bot, running_host

from .helpers import Notices, find_game, press, remote_app, screen_text, until

MAX_STEPS = 1000


async def test_propose_abort_in_the_palette_and_the_game_ends_aborted(tmp_path: Path) -> None:
    async with running_host(tmp_path / "host", ["ann,bob"]) as (host, port):
        app = await remote_app(port, "ann", tmp_path / "ann" / "tokens.json")
        bob = await join_bot(port, "bob")
        room = host.rooms["t1"]
        notices = Notices(app)
        async with app.run_test(size=(80, 24)) as pilot:
            await until(pilot, lambda: find_game(app) is not None, "the game screen")
            await until(pilot, lambda: 0 in room.seated, "ann seated")
            await press(pilot, "ctrl+p")
            await pilot.press(*"Propose abort")
            await until(pilot, lambda: "Propose abort" in screen_text(app), "the command listed")
            await press(pilot, "enter")
            for _ in range(MAX_STEPS):
                message = await bob.client.receive(TIMEOUT)
                if isinstance(message, Agreement):
                    assert message == Agreement("t1", "abort", (0,), None)
                    break
            await until(
                pilot,
                lambda: any("You asked to abort the game" in m for m in notices.messages),
                "the words of the proposal",
            )
            assert not room.referee.is_over
            titles = [c.title for c in app.get_system_commands(app.screen)]
            assert "Decline abort" in titles and "Propose abort" not in titles
            bob.client.send(Agree("abort"))
            await until(pilot, lambda: isinstance(app.screen, AbortedScreen), "the aborted end")
            assert room.referee.is_over
            await until(
                pilot,
                lambda: "every player agreed to abort it" in screen_text(app),
                "the rating's reason",
            )
            text = screen_text(app)
            assert "Game aborted" in text and "no one won" in text
            assert "Scores when it ended" in text
            await press(pilot, "q")
            await until(pilot, lambda: isinstance(app.screen, LobbyScreen), "the lobby")
            await until(pilot, lambda: "aborted" in screen_text(app), "t1 aborted in the lobby")
            # Enter on it opens the aborted end again (never a game to play on).
            await press(pilot, "enter")
            await until(pilot, lambda: isinstance(app.screen, AbortedScreen), "the end again")
        await bob.client.close()
        await asyncio.sleep(0)
