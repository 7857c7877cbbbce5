"""The tournaments' screenshots (``python -m paris_tui.app.screenshots`` scenes
``tournaments``): the lobby's tournaments list and a standings page, at 80x24, from
a host whose store holds an open, a running and a finished tournament.

:func:`tournament_host_data` writes those tournaments into a data folder; the
snapshot tests (``tests/app/test_tournament_snapshots.py``) draw the same.
"""

from __future__ import annotations

import sys
from pathlib import Path

from paris_tui.host.tournaments.engine import Plan
from paris_tui.host.tournaments.pairing import Round, Table
from paris_tui.host.tournaments.store import open_tournaments

__all__ = ["SCENE_START", "tournament_host_data", "tournaments_scene"]

SCENE_START = 1_796_140_800  # 2026-12-02 16:00 UTC
PLAYERS = ("Ann", "Bob", "Cy", "Dee", "Eve", "王小明")


def tournament_host_data(data_dir: Path) -> int:
    """Three tournaments in ``data_dir``'s store: "Winter Cup" (Swiss, two a table, 4
    rounds, six players: rounds 1 and 2 played, round 3 under way), "Spring Open"
    (round robin, three a table, open for entry) and "Autumn Knockout" (finished).
    Returns the Winter Cup's id."""
    kept = open_tournaments(data_dir / "host")
    try:
        cup = kept.create(
            "Winter Cup", Plan("swiss", 2, 4), move_time=120, start=SCENE_START, rated=True
        )
        for i, name in enumerate(PLAYERS, start=1):
            kept.enter(cup.id, i, name, 30.0 - 3 * i)
        kept.set_state(cup.id, "running")
        # Ann 1, Bob 2, Cy 3, Dee 4, Eve 5, 王小明 6: round 1 splits 1 2 3 | 4 5 6.
        kept.add_round(cup.id, Round(1, (Table(("1", "4")), Table(("2", "5")), Table(("3", "6")))))
        for no, table_id, places in ((1, "t4", (1, 2)), (2, "t5", (2, 1)), (3, "t6", (1, 1))):
            kept.open_table(cup.id, 1, no, table_id)
            kept.finish_table(cup.id, 1, no, places)
        kept.add_round(cup.id, Round(2, (Table(("1", "5")), Table(("3", "2")), Table(("6", "4")))))
        for no, table_id, places in ((1, "t7", (1, 2)), (2, "t8", (2, 1)), (3, "t9", (1, 2))):
            kept.open_table(cup.id, 2, no, table_id)
            kept.finish_table(cup.id, 2, no, places)
        kept.add_round(cup.id, Round(3, (Table(("1", "2")), Table(("5", "6")), Table(("4", "3")))))
        for no, table_id in ((1, "t10"), (2, "t11"), (3, "t12")):
            kept.open_table(cup.id, 3, no, table_id)
        kept.finish_table(cup.id, 3, 2, (1, 2))
        spring = kept.create(
            "Spring Open", Plan("round-robin", 3, 0), move_time=86400, start=SCENE_START + 10**7
        )
        for i, name in enumerate(PLAYERS[:4], start=1):
            kept.enter(spring.id, i, name, 0.0)
        autumn = kept.create(
            "Autumn Knockout", Plan("knockout", 4, 0), move_time=300, start=SCENE_START - 10**7
        )
        kept.set_state(autumn.id, "finished")
        return cup.id
    finally:
        kept.close()


async def tournaments_scene(out: Path) -> Path:
    """Ann's lobby at 80x24: ``t``'s list, then the Winter Cup's standings page."""
    import tempfile

    from paris_tui.host.server import Host, HostConfig
    from paris_tui.net.client import HostClient

    from .app import ParisApp
    from .screens.lobby import LobbyScreen
    from .screens.lobby.tournament_page import TournamentPageScreen
    from .screens.lobby.tournaments import TournamentsScreen

    with tempfile.TemporaryDirectory() as tmp:
        tournament_host_data(Path(tmp))
        host = Host(HostConfig(data_dir=Path(tmp), port=0, ai_delay=3600.0))
        host.load()
        _, port = await host.start()
        streams = sys.stdout, sys.stderr
        try:
            client = await HostClient.connect("127.0.0.1", port)
            app = ParisApp(anim=0.0, ai_delay=0.0, cursor_blink=False)
            async with app.run_test(size=(80, 24)) as pilot:
                await pilot.pause()
                lobby = LobbyScreen(client, "Ann", poll=3600.0)
                app.push_screen(lobby)
                for _ in range(100):
                    await pilot.pause(0.05)
                    if lobby.tournaments.shown:
                        break
                await pilot.press("t")
                for _ in range(100):
                    await pilot.pause(0.05)
                    screen = app.screen
                    if isinstance(screen, TournamentsScreen) and screen.rows:
                        break
                await pilot.pause(0.3)
                app.save_screenshot("tournaments.svg", str(out))
                await pilot.press("down", "enter")  # the Winter Cup, running
                for _ in range(100):
                    await pilot.pause(0.05)
                    page = app.screen
                    if isinstance(page, TournamentPageScreen) and page.page is not None:
                        break
                await pilot.pause(0.3)
                app.save_screenshot("tournament-standings.svg", str(out))
            await client.close()
        finally:
            sys.stdout, sys.stderr = streams
            await host.close()
    return out / "tournament-standings.svg"
