"""The rematch from the end screen of a host's table: ``m`` agrees, the screen says
who agreed and who is awaited, and once every player has, the app sits at the
rematch (the same players, a new deal, the seats' order turned). Then ``q`` goes to
the lobby. A real host on 127.0.0.1 in this process; Ann is the app, Bob a bot."""

from __future__ import annotations

from pathlib import Path

from paris_tui.app.screens.end import EndScreen
from paris_tui.app.screens.lobby import LobbyScreen
from paris_tui.net.protocol import Agree, Agreement
from tests.host.helpers import TIMEOUT

from .end_of_game import at_the_end
from .helpers import find_game, press, screen_text, until

MAX_STEPS = 1000


async def test_m_agrees_to_a_rematch_and_the_app_sits_at_it(tmp_path: Path) -> None:
    async with at_the_end(tmp_path) as (host, app, pilot, bob):
        end = app.screen
        await press(pilot, "space")  # the whole result at once
        await until(pilot, lambda: "for a rematch" in screen_text(app), "the rematch line")
        assert "m Rematch" in screen_text(app)
        await press(pilot, "m")
        await until(pilot, lambda: "ann agreed; waiting for bob" in screen_text(app), "ann's word")
        assert "t2" not in host.rooms and app.screen is end
        bob.client.send(Agree("rematch"))
        for _ in range(MAX_STEPS):
            message = await bob.client.receive(TIMEOUT)
            if isinstance(message, Agreement) and message.to is not None:
                break
        assert host.rooms["t2"].referee.names == ("ann", "bob")
        await until(
            pilot,
            lambda: app.link is not None and app.link.table.table_id == "t2",
            "ann at the rematch",
        )
        await until(pilot, lambda: 0 in host.rooms["t2"].seated, "ann seated at t2")
        game = find_game(app)
        assert game is not None and app.link.table.local_seats == (0,)  # type: ignore[union-attr]
        assert not any(isinstance(s, EndScreen) for s in app.screen_stack)
        await press(pilot, "q")
        await until(pilot, lambda: isinstance(app.screen, LobbyScreen), "the lobby")


async def test_the_end_screen_says_so_when_the_host_is_gone(tmp_path: Path) -> None:
    """Found by hand (the host killed while both players were on the end screen): the
    end screen does not join again, and ``m`` then did nothing at all, unsaid. Once the
    connection is gone, the rematch line says the host cannot be reached and that the
    lobby (``q``) is the way back; ``m`` says it again and sends nothing."""
    async with at_the_end(tmp_path) as (host, app, pilot, _bob):
        await press(pilot, "space")  # the whole result at once
        await until(pilot, lambda: "for a rematch" in screen_text(app), "the rematch line")
        assert app.link is not None
        app.link.table.client.abort()  # the connection drops (the host is gone)
        gone = "The host cannot be reached"
        await until(pilot, lambda: gone in screen_text(app), "the end screen says so")
        await press(pilot, "m")
        await pilot.pause()
        assert gone in screen_text(app) and "ann agreed" not in screen_text(app)
        assert "t2" not in host.rooms
        await press(pilot, "q")
        await until(pilot, lambda: isinstance(app.screen, LobbyScreen), "the lobby")
