"""Snapshots of the lobby's tournaments at 80x24: the list (open for entry, running,
finished) and a running Swiss tournament's page (standings with their tie-breaks, the
rounds' tables, a name in Chinese), from the store the README's screenshots show."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from rich.text import Text
from textual.app import App
from textual.pilot import Pilot
from textual.widgets import DataTable

from paris_tui.app.screens.lobby import LobbyScreen
from paris_tui.app.screens.lobby.tournament_page import TournamentPageScreen
from paris_tui.app.screens.lobby.tournaments import TournamentsScreen
from paris_tui.app.screenshots_tournaments import tournament_host_data
from paris_tui.app.start.resources import css_paths
from paris_tui.host.server import Host, HostConfig
from paris_tui.net.client import HostClient

from .test_lobby import _until


class _SnapApp(App[None]):
    """The host lives in the app's own event loop."""

    CSS_PATH = css_paths()
    host: Host | None = None

    def on_mount(self) -> None:
        self.theme = "textual-dark"

    async def on_unmount(self) -> None:
        if self.host is not None:
            await self.host.close()


async def _lobby(pilot: Pilot[None], tmp_path: Path) -> None:
    app = pilot.app
    assert isinstance(app, _SnapApp)
    tournament_host_data(tmp_path)
    host = Host(HostConfig(data_dir=tmp_path, port=0, ai_delay=3600.0))
    host.load()
    _, port = await host.start()
    app.host = host
    client = await HostClient.connect("127.0.0.1", port)
    lobby = LobbyScreen(client, "Ann", poll=3600.0)
    app.push_screen(lobby)
    await _until(pilot, lambda: lobby.tournaments.shown, "the tournaments")
    await pilot.press("t")
    await _until(
        pilot,
        lambda: isinstance(app.screen, TournamentsScreen) and len(app.screen.rows) == 3,
        "the list",
    )


def test_tournaments_list_80x24(snap_compare: Any, tmp_path: Path) -> None:
    async def run_before(pilot: Pilot[None]) -> None:
        await _lobby(pilot, tmp_path)
        await pilot.pause()

    assert snap_compare(_SnapApp(), run_before=run_before, terminal_size=(80, 24))


def test_tournament_standings_80x24(snap_compare: Any, tmp_path: Path) -> None:
    async def run_before(pilot: Pilot[None]) -> None:
        await _lobby(pilot, tmp_path)
        await pilot.press("down", "enter")
        app = pilot.app
        await _until(
            pilot,
            lambda: isinstance(app.screen, TournamentPageScreen) and app.screen.page is not None,
            "the page",
        )
        # Under load the snapshot could be taken with the rows in but before the
        # tables had measured them (a table does that when idle) and their scrollbars
        # had caught up with the size and the scroll: wait for both.
        tables = list(app.screen.query(DataTable))

        def settled(t: DataTable[Text]) -> bool:
            bar = t.vertical_scrollbar
            return t.virtual_size.height >= t.header_height + t.row_count and (
                not t.show_vertical_scrollbar
                or (
                    bar.region.height > 0
                    and bar.window_virtual_size == t.virtual_size.height
                    and bar.position == t.scroll_y
                )
            )

        await _until(pilot, lambda: all(map(settled, tables)), "the tables settled")
        await pilot.pause()

    assert snap_compare(_SnapApp(), run_before=run_before, terminal_size=(80, 24))
