"""The lobby's tournaments against a real host on loopback (Textual's pilot): ``t``
lists them, Enter opens a page (entrants, standings, rounds), ``e`` enters and ``w``
withdraws (asked twice), a refusal is said on the page, Enter on a round's table
watches or replays it, ``c`` creates one when the operator allows, and when a round
opens the lobby says where the player sits and ``j`` takes them there."""

from __future__ import annotations

import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from textual.screen import Screen
from textual.widgets import DataTable, Static

from paris_tui.app.screens.finished_games import HostReplayScreen
from paris_tui.app.screens.lobby import LobbyScreen
from paris_tui.app.screens.lobby.tournament_new import NewTournamentScreen
from paris_tui.app.screens.lobby.tournament_page import TournamentPageScreen
from paris_tui.app.screens.lobby.tournaments import TournamentsScreen
from paris_tui.host.events import RoundOpened
from paris_tui.host.referee import parse_seats
from paris_tui.host.server import Host, HostConfig
from paris_tui.host.tournaments.engine import Plan
from paris_tui.host.tournaments.pairing import Round, Table
from paris_tui.net.client import HostClient
from paris_tui.net.protocol import Seated, Watching

from .helpers import _plain, screen_text, widgets_text
from .lobbies import UNSET, LobbyApp, _until, lobby_app, signed_up

START = 1_796_140_800  # 2026-12-02 16:00 UTC


def box_text(screen: Screen[object]) -> str:
    return "\n".join(_plain(w.content) for w in screen.query(Static))


def grid_text(screen: Screen[object], selector: str) -> list[str]:
    grid = screen.query_one(selector, DataTable)
    rows = []
    for key in grid.rows:
        rows.append(" | ".join(_plain(c) for c in grid.get_row(key)))
    return rows


@asynccontextmanager
async def hosting(
    tmp_path: Path, move_time: float | None = None, **config: Any
) -> AsyncIterator[tuple[Host, int]]:
    """A host with ann and bob's table (t1, timed with ``move_time``) and a finished
    game (t2), and settings."""
    host = Host(HostConfig(data_dir=tmp_path / "host-data", port=0, ai_delay=0.0, **config))
    host.load()
    host.open_table(parse_seats("ann,bob"), seed=7, move_time=move_time)
    room = host.open_table(parse_seats("Eve,ai:random"), seed=4)
    done = room.referee
    while not done.is_over:
        seat = done.to_move or 0
        done.play(seat, done.view(seat).legal_moves[0], done.move_count)
    host.save_table(room)  # its record, for the replay
    _, port = await host.start()
    try:
        yield host, port
    finally:
        await host.close()


def _tournaments(host: Host, ann: int = 13) -> dict[str, int]:
    """An open Swiss one, a picky one, and a running one whose round 1 is played at t2
    (finished: Eve beat cy) and round 2 at t1 (running: ann and bob)."""
    store = host.tournaments.store
    assert store is not None
    cup = store.create("Winter Cup", Plan("swiss", 2, 3), move_time=120, start=START + 10**7)
    picky = store.create(
        "Picky", Plan("swiss", 2, 3), move_time=120, start=START + 10**7, min_games=5
    )
    live = store.create("Live", Plan("swiss", 2, 2), move_time=120, start=START)
    for account, name in ((11, "Eve"), (12, "cy"), (ann, "ann"), (14, "bob")):
        store.enter(live.id, account, name, 0.0)
    store.set_state(live.id, "running")
    me = str(ann)
    store.add_round(live.id, Round(1, (Table(("11", "12"), (1, 2)), Table((me, "14"), (2, 1)))))
    store.open_table(live.id, 1, 1, "t2")
    store.finish_table(live.id, 1, 2, (2, 1))
    store.add_round(live.id, Round(2, (Table((me, "14")),)))
    store.open_table(live.id, 2, 1, "t1")
    return {"cup": cup.id, "picky": picky.id, "live": live.id}


async def _open_list(pilot: Any, app: LobbyApp) -> TournamentsScreen:
    lobby = app.screen
    assert isinstance(lobby, LobbyScreen)
    await _until(pilot, lambda: lobby.tournaments.shown, "the host's tournaments")
    await _until(pilot, lambda: "t tournaments" in screen_text(app), "t beside You are")
    await pilot.press("t")
    await _until(pilot, lambda: isinstance(app.screen, TournamentsScreen), "the list")
    screen = app.screen
    assert isinstance(screen, TournamentsScreen)
    await _until(pilot, lambda: len(screen.rows) == 3, "three tournaments")
    return screen


async def _page_of(pilot: Any, app: LobbyApp, row: int, name: str) -> TournamentPageScreen:
    screen = app.screen
    assert isinstance(screen, TournamentsScreen)
    screen.query_one("#tournaments-grid", DataTable).move_cursor(row=row, animate=False)
    await pilot.press("enter")
    await _until(pilot, lambda: isinstance(app.screen, TournamentPageScreen), "the page")
    page = app.screen
    assert isinstance(page, TournamentPageScreen)
    await _until(pilot, lambda: page.page is not None, "the page's answer")
    assert name in box_text(page)
    return page


async def test_t_lists_them_and_a_page_enters_and_withdraws(tmp_path: Path) -> None:
    async with hosting(tmp_path) as (host, port):
        tokens, address, _ = await signed_up(tmp_path / "client" / "tokens.json", port, "ann")
        assert host.accounts is not None
        account = host.accounts.find("ann")
        assert account is not None
        ids = _tournaments(host, account.id)
        async with lobby_app(port, "ann", tokens, address) as (app, pilot, _lobby):
            listed = await _open_list(pilot, app)
            # Open for entry first, then running (by start).
            assert [t.name for t in listed.rows] == ["Winter Cup", "Picky", "Live"]
            rows = grid_text(listed, "#tournaments-grid")
            assert rows[0].startswith("Winter Cup | Swiss, 2 |") and "open for entry" in rows[0]
            assert "running (2 of 2)" in rows[2] and listed.rows[2].entered
            page = await _page_of(pilot, app, 0, "Winter Cup")
            assert "Entrants (0): nobody yet" in box_text(page)
            await pilot.press("e")
            await _until(pilot, lambda: "You entered Winter Cup." in box_text(page), "entered")
            assert "Entrants (1): ann" in box_text(page)
            assert host.tournaments.store is not None
            assert [e.key for e in host.tournaments.store.entrants(ids["cup"])] != []
            await pilot.press("w")
            await _until(pilot, lambda: "Press w again to confirm" in box_text(page), "asked")
            assert not host.tournaments.store.entrants(ids["cup"])[0].withdrawn
            await pilot.press("w")
            await _until(pilot, lambda: "You withdrew from Winter Cup" in box_text(page), "out")
            assert host.tournaments.store.entrants(ids["cup"])[0].withdrawn
            await pilot.press("escape")
            await _until(pilot, lambda: app.screen is listed, "back to the list")
            # The list was asked again: ann is out of the cup.
            await _until(pilot, lambda: not listed.rows[0].entered, "the list again")
            picky = await _page_of(pilot, app, 1, "Picky")
            await pilot.press("e")
            await _until(
                pilot,
                lambda: "ann has 0 rated games; Picky asks for 5." in box_text(picky),
                "the refusal on the page",
            )
            assert host.tournaments.store.entrants(ids["picky"]) == []
            await pilot.press("escape", "escape")
            await _until(pilot, lambda: isinstance(app.screen, LobbyScreen), "the lobby")
            await pilot.press("q")


async def test_a_pages_standings_and_its_tables_watch_and_replay(tmp_path: Path) -> None:
    async with hosting(tmp_path) as (host, port):
        _tournaments(host)
        # dee has no account: looks only
        async with lobby_app(port, "dee", size=(120, 40)) as (app, pilot, _lobby):
            await _open_list(pilot, app)
            page = await _page_of(pilot, app, 2, "Live")
            standings = grid_text(page, "#tpage-standings")
            # Eve and bob won (6 points); Buchholz: Eve's opponent cy 0, bob's ann 0; the
            # losers' Buchholz is their winner's 6. Level players share a rank, in seed order.
            assert standings == [
                "1 | Eve | 6 | 0 | 0",
                "1 | bob | 6 | 0 | 0",
                "3 | cy | 0 | 6 | 0",
                "3 | ann | 0 | 6 | 0",
            ]
            rounds = grid_text(page, "#tpage-rounds")
            assert rounds == [
                "1 | t2 | Eve 1, cy 2 | over",
                "1 | - | ann 2, bob 1 | over",
                "2 | t1 | ann, bob | playing",
            ]
            rounds_grid = page.query_one("#tpage-rounds", DataTable)
            rounds_grid.focus()
            assert rounds_grid.cursor_row == 2  # the round under way in sight
            rounds_grid.move_cursor(row=0, animate=False)
            await pilot.press("enter")  # round 1, t2: over, replayed
            await _until(pilot, lambda: isinstance(app.screen, HostReplayScreen), "replay")
            await pilot.press("escape")
            await _until(pilot, lambda: app.screen is page, "back on the page")
            rounds_grid.focus()
            rounds_grid.move_cursor(row=2, animate=False)
            await pilot.press("enter")  # round 2, t1: running, watched
            await _until(pilot, lambda: app.result is not UNSET, "watching")
        assert isinstance(app.result, Watching) and app.result.table == "t1"


async def test_a_round_opening_is_said_and_j_takes_you_to_your_seat(tmp_path: Path) -> None:
    # A timed table at which it is ann's move: the lobby's tables say so each time they
    # come, and the round's notice must stay all the same.
    async with hosting(tmp_path, move_time=120.0) as (host, port):
        tokens, address, _ = await signed_up(tmp_path / "client" / "tokens.json", port, "ann")
        async with lobby_app(port, "ann", tokens, address) as (app, pilot, lobby):
            await _until(pilot, lambda: lobby.tournaments.listed is not None, "asked as ann")
            assert "j Your seat" not in screen_text(app)
            # As the rounds' service publishes it once it has opened the round's tables.
            host.events.publish(RoundOpened(3, "Winter Cup", 2, (("t1", ("ann", "bob")),)))
            said = (
                "Tournament Winter Cup, round 2: you sit at table t1 with bob. j takes you there."
            )
            await _until(pilot, lambda: said in widgets_text(app), "the lobby says where")
            await _until(pilot, lambda: "j Your seat q Quit" in screen_text(app), "j shown, all")
            await pilot.pause(0.8)  # the tables asked again (poll 0.3 s): the notice stays
            assert said in widgets_text(app)
            await pilot.press("j")
            await _until(pilot, lambda: app.result is not UNSET, "seated")
        assert isinstance(app.result, Seated) and app.result.table == "t1"
        assert app.result.seat == 0


async def test_c_creates_a_tournament_when_the_operator_allows(tmp_path: Path) -> None:
    async with hosting(tmp_path, tournament_makers=("ann",)) as (host, port):
        tokens, address, _ = await signed_up(tmp_path / "client" / "tokens.json", port, "ann")
        async with lobby_app(port, "ann", tokens, address) as (app, pilot, lobby):
            # No tournament yet, but ann may create one: t is offered.
            await _until(pilot, lambda: lobby.tournaments.shown, "t offered")
            await pilot.press("t")
            await _until(pilot, lambda: isinstance(app.screen, TournamentsScreen), "the list")
            listed = app.screen
            await _until(pilot, lambda: "c creates one" in box_text(listed), "c offered")
            await pilot.press("c")
            await _until(pilot, lambda: isinstance(app.screen, NewTournamentScreen), "the form")
            form = app.screen
            await pilot.press("enter")  # no name yet
            await _until(pilot, lambda: "Its name:" in box_text(form), "a name asked for")
            await pilot.press(*"Spring Cup", "enter")
            await _until(pilot, lambda: isinstance(app.screen, TournamentPageScreen), "its page")
            page = app.screen
            await _until(pilot, lambda: "You created Spring Cup" in box_text(page), "created")
            store = host.tournaments.store
            assert store is not None
            made = store.find("Spring Cup")
            assert made is not None and (made.format, made.players, made.rounds) == ("swiss", 2, 4)
            assert made.start > time.time() + 3000
            await pilot.press("escape")
            await _until(pilot, lambda: app.screen is listed, "the list")
            assert isinstance(listed, TournamentsScreen)
            await _until(pilot, lambda: len(listed.rows) == 1, "listed")


async def test_creating_is_refused_where_the_operator_did_not_allow_it(tmp_path: Path) -> None:
    async with hosting(tmp_path) as (host, port):
        _tournaments(host)
        tokens, address, _ = await signed_up(tmp_path / "client" / "tokens.json", port, "ann")
        async with lobby_app(port, "ann", tokens, address) as (app, pilot, _lobby):
            listed = await _open_list(pilot, app)
            assert "c creates one" not in box_text(listed)
            await pilot.press("c")
            await _until(
                pilot, lambda: "has not let you create" in box_text(listed), "said why not"
            )
            assert not isinstance(app.screen, NewTournamentScreen)


async def test_a_name_without_its_proof_looks_but_does_not_enter(tmp_path: Path) -> None:
    """bob is an account, and this terminal keeps no token for him: the lobby asks as
    nobody (no refusal at its start), and e says what it takes instead of asking."""
    async with hosting(tmp_path) as (host, port):
        ids = _tournaments(host)
        other = await HostClient.connect("127.0.0.1", port)
        await other.join("bob")  # bob's account, elsewhere
        await other.close()
        async with lobby_app(port, "bob") as (app, pilot, _lobby):
            await _open_list(pilot, app)
            assert "link code" not in widgets_text(app)  # no name_taken said at the start
            page = await _page_of(pilot, app, 0, "Winter Cup")
            await pilot.press("e")
            await _until(
                pilot, lambda: "Tournaments are for accounts" in box_text(page), "said why"
            )
            assert host.tournaments.store is not None
            assert host.tournaments.store.entrants(ids["cup"]) == []


async def test_an_answer_before_the_page_is_drawn_is_drawn_with_it() -> None:
    """The host may answer before a pushed page is composed: kept, drawn at mount
    (never a query of widgets that are not there yet, in the lobby's reading task)."""
    from textual.app import App

    from paris_tui.net.tournaments_wire import (
        RoundInfo,
        StandingInfo,
        TournamentInfo,
        TournamentPage,
    )

    class Owner:
        class lobby:
            player = "ann"

        def enter(self, tournament: int) -> None: ...
        def withdraw(self, tournament: int) -> None: ...
        def open_table(self, table: object, running: bool) -> None: ...
        def open_player(self, name: str) -> None: ...

    info = TournamentInfo(5, "Early", "swiss", 2, 3, 120.0, START, False, 0, 1, "open", 0)
    answer = TournamentPage(
        info, (), (StandingInfo(1, "ann", 0, 0, 0, 0, 0, 0),), (RoundInfo(1, ()),)
    )
    page = TournamentPageScreen(Owner(), 5)  # type: ignore[arg-type]
    page.show(answer)  # before it is pushed: nothing to draw on yet
    app: App[None] = App()
    async with app.run_test(size=(80, 24)) as pilot:
        app.push_screen(page)
        await pilot.pause()
        assert "Early" in box_text(page)
        assert grid_text(page, "#tpage-standings") == ["1 | ann | 0 | 0 | 0"]


async def test_three_a_table_the_standings_show_the_sum_of_places() -> None:
    """At three and four a table the sum of places is the first tie-break: a column of
    its own, before Buchholz; points in hundredths shown as the host counts them."""
    from textual.app import App

    from paris_tui.net.tournaments_wire import (
        RoundInfo,
        RoundTable,
        StandingInfo,
        TournamentInfo,
        TournamentPage,
    )

    class Owner:
        class lobby:
            player = "cy"

        def enter(self, tournament: int) -> None: ...
        def withdraw(self, tournament: int) -> None: ...
        def open_table(self, table: object, running: bool) -> None: ...
        def open_player(self, name: str) -> None: ...

    info = TournamentInfo(5, "Trio", "swiss", 3, 2, 120.0, START, False, 0, 3, "running", 1)
    answer = TournamentPage(
        info,
        (),
        (
            StandingInfo(1, "ann", 450, 225, 169, 300, 1, 0),
            StandingInfo(1, "bob", 450, 225, 169, 300, 1, 0),
            StandingInfo(3, "cy", 0, 450, 0, 300, 1, 0),
        ),
        (RoundInfo(1, (RoundTable("t3", ("ann", "bob", "cy"), (1, 1, 3)),)),),
    )
    page = TournamentPageScreen(Owner(), 5)  # type: ignore[arg-type]
    app: App[None] = App()
    async with app.run_test(size=(80, 24)) as pilot:
        app.push_screen(page)
        await pilot.pause()
        page.show(answer)
        await pilot.pause()
        grid = page.query_one("#tpage-standings", DataTable)
        headers = [_plain(c.label) for c in grid.columns.values()]
        assert headers == ["#", "Player", "Points", "Places", "Buchholz", "Sonneborn-Berger"]
        assert grid_text(page, "#tpage-standings") == [
            "1 | ann | 4.5 | 3 | 2.25 | 1.69",
            "1 | bob | 4.5 | 3 | 2.25 | 1.69",
            "3 | cy | 0 | 3 | 4.5 | 0",
        ]
        assert grid_text(page, "#tpage-rounds") == ["1 | t3 | ann 1, bob 1, cy 3 | over"]


async def test_names_with_markup_are_drawn_as_typed(tmp_path: Path) -> None:
    """A tournament's and an entrant's name are outside text: ``[b]`` is drawn as typed,
    never as markup, in the list and on the page."""
    async with hosting(tmp_path) as (host, port):
        store = host.tournaments.store
        assert store is not None
        cup = store.create("[b]Cup[/b]", Plan("swiss", 2, 3), move_time=120, start=START + 10**7)
        store.enter(cup.id, 7, "[red]Zoë[/red]", 0.0)
        async with lobby_app(port, "dee") as (app, pilot, lobby):
            await _until(pilot, lambda: lobby.tournaments.shown, "listed")
            await pilot.press("t")
            await _until(pilot, lambda: "[b]Cup[/b]" in screen_text(app), "the list, as typed")
            await pilot.press("enter")
            await _until(pilot, lambda: "[red]Zoë[/red]" in screen_text(app), "the page")
            assert "[b]Cup[/b]" in screen_text(app)


async def test_the_lobbys_footer_keeps_quit_in_every_language_with_t_and_j(
    tmp_path: Path,
) -> None:
    """With tournaments at the host and a round's seat waiting, the footer still ends
    with Quit at 80 columns, in German (the longest): t is named beside "You are ...",
    and j takes the place of Play now."""
    from paris_tui.wording import in_language

    async with hosting(tmp_path) as (host, port):
        _tournaments(host)
        tokens, address, _ = await signed_up(tmp_path / "client" / "tokens.json", port, "ann")
        client = await HostClient.connect("127.0.0.1", port)
        with in_language("de"):
            app = LobbyApp(client, "ann", tokens=tokens, address=address)
            async with app.run_test(size=(80, 24)) as pilot:
                await _until(pilot, lambda: "t Turniere" in screen_text(app), "t named")
                host.events.publish(RoundOpened(3, "Winter Cup", 2, (("t1", ("ann", "bob")),)))
                await _until(
                    pilot, lambda: "j Dein Platz q Beenden" in screen_text(app), "the footer"
                )
                assert "Jetzt spielen" not in screen_text(app).splitlines()[-1]
        await client.close()
