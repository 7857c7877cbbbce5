"""A tournament's round that opens while the player sits at another table (the end
screen of the last round's game, say): the game screen says where they sit (a
notification, markup off), ``q`` goes to the lobby and ``j`` takes them there. A real
host on 127.0.0.1 in this process; Ann is the app (she came straight to her seat,
never through the lobby), Bob a bot."""

from __future__ import annotations

from pathlib import Path

from paris_tui.app.screens.end import EndScreen
from paris_tui.app.screens.lobby import LobbyScreen
from paris_tui.host.events import RoundOpened
from paris_tui.host.referee import parse_seats
from tests.host.helpers import a_round_table

from .end_of_game import at_the_end
from .helpers import Notices, press, screen_text, until
from .test_chat_app import near_the_end


async def test_a_round_opened_meanwhile_is_said_at_the_table_and_j_goes_there(
    tmp_path: Path,
) -> None:
    async with at_the_end(tmp_path) as (host, app, pilot, _bob):
        notices = Notices(app)
        # The next round: its table opened (ann's last one is over), and published
        # as the rounds' service does once it has opened the round's tables.
        room = host.open_table(parse_seats("ann,cy"), seed=5)
        host.events.publish(RoundOpened(3, "Winter <b>Cup", 2, ((room.id, ("ann", "cy")),)))
        said = (
            f"Tournament Winter <b>Cup, round 2: you sit at table {room.id} with cy. "
            "q (to the lobby), then j takes you there."
        )
        await until(
            pilot,
            lambda: any(n.message == said and not n.markup for n in notices.shown),
            f"the table says where: {notices.messages}",
        )
        await press(pilot, "space")  # the whole result at once
        await press(pilot, "q")
        await until(pilot, lambda: isinstance(app.screen, LobbyScreen), "the lobby")
        await until(pilot, lambda: "j Your seat" in screen_text(app), "j shown")
        await press(pilot, "j")
        await until(
            pilot,
            lambda: app.link is not None and app.link.table.table_id == room.id,
            "ann at her tournament table",
        )
        await until(pilot, lambda: 0 in host.rooms[room.id].seated, "ann seated there")


async def test_a_tournament_tables_end_screen_offers_no_rematch(tmp_path: Path) -> None:
    record = a_round_table(near_the_end().record())  # bob,ann; bob ends it
    async with at_the_end(tmp_path, record) as (host, app, pilot, _bob):
        assert host.rooms["t1"].referee.tournament == "Winter Cup"
        end = app.screen
        assert isinstance(end, EndScreen)
        await press(pilot, "space")  # the whole result at once
        await until(pilot, lambda: "Play again" not in screen_text(app), "drawn")
        await pilot.pause(0.2)
        shown = screen_text(app)
        assert "Rematch" not in shown and "for a rematch" not in shown
        assert end.rematch is None
        await press(pilot, "m")  # nothing: no word is sent for a rematch
        await pilot.pause(0.2)
        assert not host.agreements.agreed
