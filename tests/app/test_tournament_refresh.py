"""The lobby's tournament screens stay true while they are open, against a real host on
loopback (Textual's pilot): when a round opens, an open list and the tournament's open
page ask again and the page puts the player's table under the cursor and says where
they sit (``j`` and Enter take them there); a list or page asks again on its own every
so often and just after an open tournament's start, never while another screen hides
it; and the round's notice does not follow the player onto the game."""

from __future__ import annotations

import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from textual.screen import ModalScreen
from textual.widgets import DataTable, Static

from paris_tui.app.screens.lobby import LobbyScreen
from paris_tui.app.screens.lobby.tournament_page import TournamentPageScreen
from paris_tui.app.screens.lobby.tournaments import TournamentsScreen
from paris_tui.host.events import RoundOpened
from paris_tui.host.referee import parse_seats
from paris_tui.host.server import Host, HostConfig
from paris_tui.host.tournaments.engine import Plan
from paris_tui.net.client import HostClient, TokenStore
from paris_tui.net.protocol import Seated
from paris_tui.net.tournaments_wire import TournamentsRequest

from .helpers import Notices
from .lobbies import UNSET, LobbyApp, _until, lobby_app, signed_up
from .test_tournaments_lobby import START, _tournaments, box_text, grid_text, hosting

LATER = START + 10**7  # the cup's start: far ahead, until the test says it has come


@asynccontextmanager
async def bare(tmp_path: Path) -> AsyncIterator[tuple[Host, int, TokenStore, str]]:
    """A host whose one table (ann's, against the AI: her account) is over, so that a
    round's pairs sit nowhere else."""
    host = Host(HostConfig(data_dir=tmp_path / "host-data", port=0, ai_delay=3600.0))
    host.load()
    room = host.open_table(parse_seats("ann,ai:random"), seed=4)
    _, port = await host.start()
    tokens, address, _ = await signed_up(tmp_path / "client" / "tokens.json", port, "ann")
    done = room.referee
    while not done.is_over:
        seat = done.to_move or 0
        done.play(seat, done.view(seat).legal_moves[0], done.move_count)
    host.save_table(room)
    try:
        yield host, port, tokens, address
    finally:
        await host.close()


def _winter_cup(host: Host) -> None:
    """The Winter Cup, starting at :data:`LATER`, that ann (her account) and bob entered."""
    assert host.accounts is not None and host.tournaments.store is not None
    account = host.accounts.find("ann")
    assert account is not None
    store = host.tournaments.store
    cup = store.create("Winter Cup", Plan("swiss", 2, 3), move_time=120, start=LATER)
    store.enter(cup.id, account.id, "ann", 0.0)
    store.enter(cup.id, 14, "bob", 0.0)


async def _to_list(pilot: Any, app: LobbyApp, rows: int) -> TournamentsScreen:
    lobby = app.screen
    assert isinstance(lobby, LobbyScreen)
    await _until(pilot, lambda: lobby.tournaments.shown, "the host's tournaments")
    await pilot.press("t")
    await _until(pilot, lambda: isinstance(app.screen, TournamentsScreen), "the list")
    listed = app.screen
    assert isinstance(listed, TournamentsScreen)
    await _until(pilot, lambda: len(listed.rows) == rows, f"{rows} tournaments")
    return listed


async def _to_page(pilot: Any, app: LobbyApp, row: int) -> TournamentPageScreen:
    listed = app.screen
    assert isinstance(listed, TournamentsScreen)
    listed.query_one("#tournaments-grid", DataTable).move_cursor(row=row, animate=False)
    await pilot.press("enter")
    await _until(pilot, lambda: isinstance(app.screen, TournamentPageScreen), "the page")
    page = app.screen
    assert isinstance(page, TournamentPageScreen)
    await _until(pilot, lambda: page.page is not None, "the page's answer")
    return page


def _status(page: TournamentPageScreen) -> str:
    return str(page.query_one("#tpage-status", Static).content)


async def test_a_round_opening_refreshes_the_open_list_and_page(tmp_path: Path) -> None:
    """bob's case, as ann: the Winter Cup's page open (the list under it) when its round 1
    opens. The page shows the round, ann's table under the cursor, and says where she
    sits; the list under it says running; j (and Enter) on the page take her there."""
    async with bare(tmp_path) as (host, port, tokens, address):
        _winter_cup(host)
        async with lobby_app(port, "ann", tokens, address) as (app, pilot, lobby):
            await _until(pilot, lambda: lobby.tournaments.listed is not None, "asked as ann")
            listed = await _to_list(pilot, app, 1)
            page = await _to_page(pilot, app, 0)
            assert "Open for entry" in box_text(page)
            host.tournaments.tick(LATER + 1)  # its start has come: round 1 opens
            await _until(
                pilot,
                lambda: page.page is not None and page.page.tournament.state == "running",
                "the page asked again",
            )
            await _until(pilot, lambda: len(page.tables) == 1, "round 1's table")
            table = page.tables[0][1]
            assert table is not None and table.table is not None
            assert "Tournament round 1 of 3" in box_text(page)
            said = (
                f"Tournament Winter Cup, round 1: you sit at table {table.table} with bob. "
                "j takes you there."
            )
            await _until(pilot, lambda: said in _status(page), "the page says where")
            rounds = page.query_one("#tpage-rounds", DataTable)
            await _until(pilot, lambda: page.focused is rounds, "the rounds in focus")
            assert rounds.cursor_row == 0  # ann's table: Enter takes her there
            # The list under the page asked again too.
            await _until(pilot, lambda: listed.rows[0].state == "running", "the list again")
            assert "running (1 of 3)" in grid_text(listed, "#tournaments-grid")[0]
            await pilot.press("j")
            await _until(pilot, lambda: app.result is not UNSET, "seated")
        assert isinstance(app.result, Seated) and app.result.table == table.table


async def test_enter_on_the_page_after_a_round_opens_takes_the_seat(tmp_path: Path) -> None:
    async with bare(tmp_path) as (host, port, tokens, address):
        _winter_cup(host)
        async with lobby_app(port, "ann", tokens, address) as (app, pilot, _lobby):
            await _to_list(pilot, app, 1)
            page = await _to_page(pilot, app, 0)
            host.tournaments.tick(LATER + 1)
            await _until(pilot, lambda: "you sit at table" in _status(page), "said")
            await _until(pilot, lambda: len(page.tables) == 1, "round 1's table")
            await pilot.press("enter")
            await _until(pilot, lambda: app.result is not UNSET, "seated")
        assert isinstance(app.result, Seated)


def _count_asks(client: HostClient) -> list[str]:
    """The tournaments requests the lobby sends from now on (the real client's send,
    watched)."""
    sent: list[str] = []
    send = client.send

    def watched(message: Any) -> None:
        if isinstance(message, TournamentsRequest):
            sent.append(message.action)
        send(message)

    client.send = watched  # type: ignore[method-assign]
    return sent


async def test_an_open_page_and_list_ask_again_on_their_own(tmp_path: Path) -> None:
    """A table of the running tournament finishes and then it is over: the open page's
    standings and the list's state follow without a key; a hidden one does not ask."""
    async with hosting(tmp_path) as (host, port):
        ids = _tournaments(host)
        store = host.tournaments.store
        assert store is not None
        client = await HostClient.connect("127.0.0.1", port)
        app = LobbyApp(client, "dee")
        async with app.run_test(size=(120, 40)) as pilot:
            await _until(pilot, lambda: isinstance(app.screen, LobbyScreen), "the lobby")
            lobby = app.screen
            assert isinstance(lobby, LobbyScreen)
            lobby.tournaments.every = 0.3
            listed = await _to_list(pilot, app, 3)
            page = await _to_page(pilot, app, 2)
            assert grid_text(page, "#tpage-rounds")[-1] == "2 | t1 | ann, bob | playing"
            store.finish_table(ids["live"], 2, 1, (1, 2))  # ann beat bob at t1
            store.set_state(ids["live"], "finished")
            await _until(
                pilot,
                lambda: grid_text(page, "#tpage-rounds")[-1] == "2 | t1 | ann 1, bob 2 | over",
                "the page asked again",
            )
            assert "Finished." in box_text(page)
            # Hidden under another screen, neither the page nor the list under it asks.
            sent = _count_asks(client)
            await app.push_screen(ModalScreen[None]())
            await pilot.pause(1.0)
            assert sent == []
            app.pop_screen()
            back = time.monotonic()
            await _until(pilot, lambda: bool(sent), "asked again on coming back")
            assert sent[0] == "show"
            await pilot.pause(0.9)
            shown = time.monotonic() - back
            # About one a period (0.3 s) while on top; never the list, under the page.
            assert 2 <= sent.count("show") <= shown / 0.3 + 2 and "list" not in sent
            await pilot.press("escape")
            await _until(pilot, lambda: app.screen is listed, "the list")
            await _until(pilot, lambda: listed.rows[-1].state == "finished", "the list again")
            assert "finished" in grid_text(listed, "#tournaments-grid")[-1]
        await client.close()


async def test_an_open_tournaments_page_asks_again_at_its_start(tmp_path: Path) -> None:
    """dee looks at a cup that starts in two seconds; nothing asks every so often (the
    period is an hour here): the page asks again just after the start and says running."""
    async with hosting(tmp_path) as (host, port):
        store = host.tournaments.store
        assert store is not None
        start = int(time.time()) + 2
        cup = store.create("Soon Cup", Plan("swiss", 2, 3), move_time=120, start=start)
        store.enter(cup.id, 11, "Eve", 0.0)
        store.enter(cup.id, 12, "cy", 0.0)
        async with lobby_app(port, "dee") as (app, pilot, lobby):
            lobby.tournaments.every = 3600.0
            await _to_list(pilot, app, 1)
            page = await _to_page(pilot, app, 0)
            assert "Open for entry" in box_text(page)
            await _until(pilot, lambda: time.time() >= start, "the start")
            host.tournaments.tick(time.time())  # as the host's next look does
            await _until(
                pilot,
                lambda: page.page is not None and page.page.tournament.state == "running",
                "the page asked again at the start",
            )
            assert grid_text(page, "#tpage-rounds")[0].endswith("Eve, cy | playing")
            await pilot.press("j")  # no round seats dee: said so, nothing asked
            await _until(
                pilot, lambda: "No tournament round has given you a seat" in _status(page), "j"
            )


async def test_the_rounds_notice_is_gone_once_the_seat_is_taken(tmp_path: Path) -> None:
    """The toast says "j takes you there": once j took the seat it must not stay over
    the game's table."""
    async with hosting(tmp_path) as (host, port):
        tokens, address, _ = await signed_up(tmp_path / "client" / "tokens.json", port, "ann")
        async with lobby_app(port, "ann", tokens, address) as (app, pilot, lobby):
            notices = Notices(app)
            await _until(pilot, lambda: lobby.tournaments.listed is not None, "asked as ann")
            host.events.publish(RoundOpened(3, "Winter Cup", 2, (("t1", ("ann", "bob")),)))

            def toasts() -> list[str]:
                return notices.messages

            await _until(pilot, lambda: any("j takes you there" in t for t in toasts()), "toast")
            await pilot.press("j")
            await _until(pilot, lambda: app.result is not UNSET, "seated")
            await pilot.pause()
            assert not any("takes you there" in t for t in toasts())
        assert isinstance(app.result, Seated) and app.result.table == "t1"


async def test_an_open_list_asks_again_at_a_start(tmp_path: Path) -> None:
    """The list, with an open tournament starting in two seconds and no asking every so
    often (an hour here), says running just after the start."""
    async with hosting(tmp_path) as (host, port):
        store = host.tournaments.store
        assert store is not None
        start = int(time.time()) + 2
        cup = store.create("Soon Cup", Plan("swiss", 2, 3), move_time=120, start=start)
        store.enter(cup.id, 11, "Eve", 0.0)
        store.enter(cup.id, 12, "cy", 0.0)
        async with lobby_app(port, "dee") as (app, pilot, lobby):
            lobby.tournaments.every = 3600.0
            listed = await _to_list(pilot, app, 1)
            assert listed.rows[0].state == "open"
            await _until(pilot, lambda: time.time() >= start, "the start")
            host.tournaments.tick(time.time())
            await _until(pilot, lambda: listed.rows[0].state == "running", "asked at the start")
            assert "running (1 of 3)" in grid_text(listed, "#tournaments-grid")[0]
