"""The lobby's part of issue 22: tables waiting for your move first, quick match, move times.

Against a real host on loopback in the test's own loop, as tests/app/test_lobby.py.
"""

from __future__ import annotations

from pathlib import Path

from textual.widgets import DataTable

from paris_tui.app.screens.lobby import LobbyScreen, NewTableScreen
from paris_tui.app.screens.quick_match import QuickMatchScreen, quick_request
from paris_tui.host.referee import parse_seats
from paris_tui.host.server import Host, HostConfig
from paris_tui.net.protocol import Join, OpenTable, SeatInfo, TableInfo, Waiting

from .helpers import screen_text
from .test_lobby import UNSET, LobbyApp, _client, _until

DAY = 86400.0


class Clock:
    now = 1_800_000_000.0

    def __call__(self) -> float:
        return self.now


async def test_the_tables_waiting_for_your_move_come_first_and_are_marked(
    tmp_path: Path,
) -> None:
    clock = Clock()
    host = Host(HostConfig(data_dir=tmp_path / "host-data", port=0, ai_delay=0.0, clock=clock))
    host.load()
    host.open_table(parse_seats("dee,eve"), seed=1)  # t1: not timed
    host.open_table(parse_seats("bob,cy"), seed=2, move_time=DAY)  # t2: bob's move
    host.open_table(parse_seats("bob,ann"), seed=3, move_time=2 * DAY)  # t3: bob's move
    _, port = await host.start()
    try:
        clock.now += 7200.0  # t2 and t3 have waited two hours for bob
        client = await _client(port)
        app = LobbyApp(client, "bob")
        async with app.run_test(size=(90, 30)) as pilot:
            await _until(pilot, lambda: "your move" in screen_text(app), "the mark")
            screen = app.screen
            assert isinstance(screen, LobbyScreen)
            assert [t.table for t in screen.tables] == ["t2", "t3", "t1"]
            grid = screen.query_one("#lobby-tables", DataTable)
            assert [row.key.value for row in grid.ordered_rows] == ["t2", "t3", "t1"]
            assert screen_text(app).count("your move (2 h)") == 2
            assert "2 tables wait for your move" in screen_text(app)
            # Enter on the first row sits at the longest-waiting table.
            await pilot.press("enter")
            await _until(pilot, lambda: app.result is not UNSET, "seated")
        assert getattr(app.result, "table", None) == "t2"
        await client.close()
    finally:
        await host.close()


async def test_play_now_seats_you_at_the_fullest_waiting_table_of_that_size(
    tmp_path: Path,
) -> None:
    host = Host(HostConfig(data_dir=tmp_path / "host-data", port=0, ai_delay=0.0))
    host.load()
    _, port = await host.start()
    try:
        dee = await _client(port)
        assert isinstance(await dee.open_table("Dee", ("me", "open", "open")), Waiting)
        eve = await _client(port)
        fay = await _client(port)
        opened = await eve.open_table("Eve", ("me", "open", "open"))
        assert isinstance(opened, Waiting)
        assert isinstance(await fay.sit("Fay", opened.table), Waiting)  # Eve's: one seat left
        client = await _client(port)
        app = LobbyApp(client, "Zed")
        async with app.run_test(size=(90, 30)) as pilot:
            await _until(pilot, lambda: "Fay" in screen_text(app), "the tables")
            await pilot.press("p")
            await _until(pilot, lambda: isinstance(app.screen, QuickMatchScreen), "the question")
            await pilot.press("3")
            await _until(pilot, lambda: app.result is not UNSET, "the game starts")
        assert getattr(app.result, "table", None) == opened.table  # the fullest, not Dee's
        # None of two seats waits: quick match opens one.
        client = await _client(port)
        app = LobbyApp(client, "Gus")
        async with app.run_test(size=(90, 30)) as pilot:
            await _until(pilot, lambda: "Dee" in screen_text(app), "the tables")
            await pilot.press("p")
            await _until(pilot, lambda: isinstance(app.screen, QuickMatchScreen), "the question")
            await pilot.press("right", "left", "enter")  # 3, then back to 2
            await _until(
                pilot, lambda: any(t.opener == "gus" for t in host.waiting.values()), "opened"
            )
        (mine,) = [t for t in host.waiting.values() if t.opener == "gus"]
        assert len(mine.slots) == 2 and mine.free_seats == 1
        for other in (client, dee, eve, fay):
            await other.close()
    finally:
        await host.close()


def test_quick_request_joins_or_opens() -> None:
    table = TableInfo(
        "t4",
        (SeatInfo("Ann", "human", "present"), SeatInfo("", "human", "free")),
        0,
        0,
        False,
        waiting=True,
        free_seats=1,
    )
    assert quick_request([table], 2, "Zed", token="k") == Join("Zed", "k", "t4")
    assert quick_request([table], 3, "Zed") == OpenTable("Zed", ("me", "open", "open"))


async def test_the_new_table_form_opens_a_turn_based_table(tmp_path: Path) -> None:
    host = Host(HostConfig(data_dir=tmp_path / "host-data", port=0, ai_delay=0.0))
    host.load()
    _, port = await host.start()
    try:
        client = await _client(port)
        app = LobbyApp(client, "Ann")
        async with app.run_test(size=(90, 30)) as pilot:
            await _until(pilot, lambda: "Ann" in screen_text(app), "the lobby")
            await pilot.press("n")
            await _until(pilot, lambda: isinstance(app.screen, NewTableScreen), "the form")
            await pilot.press("down", "down", "down", "down", "down")  # to the move time
            await pilot.press("right", "right", "right")  # no clock, 30 s, 2 min, 1 day
            await pilot.press("enter")
            await _until(pilot, lambda: bool(host.waiting), "the table opened")
        (table,) = host.waiting.values()
        assert table.move_time == DAY
        await client.close()
    finally:
        await host.close()
