"""The lobby screen against a real host on loopback, in the same event loop (issue 9).

A test app pushes :class:`LobbyScreen` on a :class:`HostClient` connected to a
:class:`Host` started in the test's own loop; keys go through Textual's pilot,
and other players are test clients. Every wait is bounded (``_until``).
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from hostile_corpus import REFUSED, SHOWN
from textual import events
from textual.app import App
from textual.pilot import Pilot
from textual.widgets import DataTable, Input

from paris_tui.app.screens.lobby import LobbyScreen, NewTableScreen
from paris_tui.app.start.resources import css_paths
from paris_tui.core.record import load_record
from paris_tui.host.referee import parse_seats
from paris_tui.host.server import Host, HostConfig
from paris_tui.net.client import HostClient, TokenStore
from paris_tui.net.protocol import ListTables, Seated, Update, Waiting, Watching

from .helpers import screen_text, widgets_text
from .lobbies import TIMEOUT, UNSET, LobbyApp, _until, lobby_app


@asynccontextmanager
async def hosting(tmp_path: Path, *tables: str) -> AsyncIterator[tuple[Host, int]]:
    host = Host(HostConfig(data_dir=tmp_path / "host-data", port=0, ai_delay=0.0))
    host.load()
    for i, seats in enumerate(tables):
        host.open_table(parse_seats(seats), seed=7 + i)
    _, port = await host.start()
    try:
        yield host, port
    finally:
        await host.close()


def _rows(app: App[None]) -> int:
    screen = app.screen
    if not isinstance(screen, LobbyScreen):
        return -1
    return screen.query_one("#lobby-tables", DataTable).row_count


async def _client(port: int) -> HostClient:
    return await HostClient.connect("127.0.0.1", port)


async def test_the_lobby_lists_tables_and_watches_one(tmp_path: Path) -> None:
    async with hosting(tmp_path, "ann,bob,ai:strong") as (_, port):
        dee = await _client(port)
        assert isinstance(await dee.open_table("Dee", ("me", "open", "open")), Waiting)
        client = await _client(port)
        app = LobbyApp(client, None)
        async with app.run_test(size=(80, 24)) as pilot:
            await _until(pilot, lambda: "waiting: 2" in screen_text(app), "two tables listed")
            text = screen_text(app)
            assert "ann (away), bob (away), Strong AI" in text
            assert "move 0 of" in text
            assert "Dee, free seat, free seat" in text and "waiting: 2 free seats" in text
            assert "Your name" in text  # no name known: the field is shown
            await pilot.press("tab")  # from the name to the tables
            await pilot.press("w")
            await _until(pilot, lambda: app.result is not UNSET, "watching")
        watching = app.result
        assert isinstance(watching, Watching) and watching.table == "t1"
        assert watching.view.seat is None and watching.view.own_route is None
        await client.close()
        await dee.close()


async def test_enter_takes_a_free_seat_and_the_game_starts(tmp_path: Path) -> None:
    async with hosting(tmp_path) as (host, port):
        dee = await _client(port)
        await dee.open_table("Dee", ("me", "open"))
        client = await _client(port)
        app = LobbyApp(client, "Carol")
        async with app.run_test(size=(80, 24)) as pilot:
            await _until(pilot, lambda: _rows(app) == 1, "the table listed")
            assert "You are Carol." in screen_text(app)
            assert "Your name" not in screen_text(app)
            await pilot.press("enter")
            await _until(pilot, lambda: app.result is not UNSET, "seated")
        seated = app.result
        assert isinstance(seated, Seated) and seated.seat == 1 and seated.token
        assert [s.name for s in seated.seats] == ["Dee", "Carol"]
        # Dee is seated too, and the connection the lobby hands over reads on from
        # the very next line: the first move reaches both.
        dee_seated = await dee.receive(TIMEOUT)
        while not isinstance(dee_seated, Seated):
            dee_seated = await dee.receive(TIMEOUT)
        mover, view = (dee, dee_seated.view) if dee_seated.view.my_turn else (client, seated.view)
        mover.play(view.legal_moves[0], 0)
        for player in (client, dee):
            message = await player.receive(TIMEOUT)
            while not isinstance(message, Update):
                message = await player.receive(TIMEOUT)
            assert len(message.view.moves) == 1
        assert "t1" in host.rooms
        await client.close()
        await dee.close()


async def test_a_reserved_seat_is_joined_with_the_token_kept_for_it(tmp_path: Path) -> None:
    tokens = TokenStore(tmp_path / "client" / "tokens.json")
    async with hosting(tmp_path, "ann,bob") as (_, port):
        address = f"127.0.0.1:{port}"

        async def sit(**lobby: Any) -> object:
            client = await _client(port)
            app = LobbyApp(client, "Ann", **lobby)
            async with app.run_test(size=(80, 24)) as pilot:
                await _until(pilot, lambda: "move 0 of" in screen_text(app), "listed")
                await pilot.press("enter")
                await _until(
                    pilot,
                    lambda: app.result is not UNSET or "is an account" in widgets_text(app),
                    "an answer",
                )
                await pilot.press("q")
            await client.close()
            return app.result

        first = await sit(tokens=tokens, address=address)
        assert isinstance(first, Seated) and first.seat == 0 and first.token
        assert tokens.get(address, "ann") == first.token  # kept, as paris-tui join keeps it
        # Without the token the claimed seat is refused (the lobby says so and stays) ...
        assert await sit() is None
        # ... with it, Ann is back in her seat.
        again = await sit(tokens=tokens, address=address)
        assert isinstance(again, Seated) and again.seat == 0 and again.token is None


async def test_n_opens_a_table_that_another_player_fills(tmp_path: Path) -> None:
    async with hosting(tmp_path) as (host, port):
        async with lobby_app(port, None) as (app, pilot, _lobby):
            await pilot.press("n")  # a letter of the name field, not the key
            assert not isinstance(app.screen, NewTableScreen)
            await pilot.press("backspace", *"Carol", "enter")
            assert "You are Carol." in screen_text(app)
            await pilot.press("n")
            await _until(pilot, lambda: isinstance(app.screen, NewTableScreen), "the form")
            assert "you (Carol)" in screen_text(app)
            # Seat 2 open; seat 3 a greedy AI; seat 4 none.
            await pilot.press("down", "right", "right", "right", "down", "left", "enter")
            await _until(pilot, lambda: bool(host.waiting), "a waiting table")
            await _until(pilot, lambda: "Waiting for 1 more player" in widgets_text(app), "waits")
            assert "Esc leaves the table" in widgets_text(app)
            dee = await _client(port)
            assert isinstance(await dee.sit("Dee", "t1"), Seated)
            await _until(pilot, lambda: app.result is not UNSET, "seated")
        seated = app.result
        assert isinstance(seated, Seated) and seated.seat == 0 and seated.token
        record = load_record(host.store.record_path("t1"))
        assert [(p.name, p.kind) for p in record.players] == [
            ("Carol", "human"),
            ("Dee", "human"),
            ("Greedy AI", "ai:greedy"),
        ]
        await dee.close()


async def test_the_empty_hosts_line_goes_when_a_table_is_listed(tmp_path: Path) -> None:
    """ "No table is open" stayed under a list that had since shown a table."""
    empty = "No table is open on this host yet"
    async with hosting(tmp_path) as (_, port), lobby_app(port, "Carol") as (app, pilot, _lobby):
        await _until(pilot, lambda: empty in widgets_text(app), "the empty host's line")
        dee = await _client(port)
        assert isinstance(await dee.open_table("Dee", ("me", "open")), Waiting)
        await pilot.press("r")
        await _until(pilot, lambda: _rows(app) == 1, "the table listed")
        await pilot.pause()
        assert empty not in widgets_text(app)
        await dee.close()


async def test_escape_leaves_a_waiting_table_and_q_quits(tmp_path: Path) -> None:
    async with hosting(tmp_path) as (host, port):
        async with lobby_app(port, "Carol") as (app, pilot, _lobby):
            await pilot.press("n")
            await _until(pilot, lambda: isinstance(app.screen, NewTableScreen), "the form")
            await pilot.press("escape")  # back, nothing opened
            assert isinstance(app.screen, LobbyScreen) and not host.waiting
            await pilot.press("n", "enter")
            await _until(pilot, lambda: bool(host.waiting), "a waiting table")
            await _until(pilot, lambda: _rows(app) == 1, "listed")
            await pilot.press("w")  # nothing to watch yet
            assert "has not started" in widgets_text(app)
            await _until(pilot, lambda: "Leave the table" in screen_text(app), "Esc in the footer")
            await pilot.press("escape")
            await _until(pilot, lambda: not host.waiting, "the table closed")
            await _until(pilot, lambda: _rows(app) == 0, "the list emptied")
            await _until(pilot, lambda: "Leave the table" not in screen_text(app), "Esc gone")
            await pilot.press("q")
            await _until(pilot, lambda: app.result is not UNSET, "quit")
        assert app.result is None


async def test_outside_text_is_drawn_as_text(tmp_path: Path) -> None:
    shown = [c for c in SHOWN if "[" in c.text][:4]
    names = ",".join(c.text for c in shown)
    async with hosting(tmp_path, names) as (_, port):
        client = await _client(port)
        app = LobbyApp(client, None)
        async with app.run_test(size=(120, 30)) as pilot:
            await _until(pilot, lambda: shown[-1].text in screen_text(app), "listed")
            text = screen_text(app)
            for case in shown:
                assert case.shown in text, case.label
            # A refused name is never taken in, with the core's reason.
            field = app.screen.query_one("#lobby-name")
            for case in REFUSED[:8]:
                field.post_message(events.Paste(case.text))
                await pilot.pause()
                assert "Not pasted" in widgets_text(app) or "at most" in widgets_text(app)
            await pilot.press("enter")  # blank: refused with the rule's words
            assert "Your name:" in widgets_text(app)
            assert app.result is UNSET
        await client.close()


async def test_a_given_name_that_breaks_the_rule_is_never_shown(tmp_path: Path) -> None:
    async with hosting(tmp_path) as (_, port):
        client = await _client(port)
        app = LobbyApp(client, "Ann\x1b]52;c;eA==\x07")
        async with app.run_test(size=(80, 24)) as pilot:
            await _until(pilot, lambda: "cannot be used" in widgets_text(app), "told")
            assert app.screen.query_one("#lobby-name", Input).value == ""
            assert "\x1b" not in widgets_text(app) and "\x1b" not in screen_text(app)
            assert "control character" in widgets_text(app)
        await client.close()


async def test_the_host_going_away_is_one_clear_line(tmp_path: Path) -> None:
    async with hosting(tmp_path, "ann,bob") as (host, port):
        client = await _client(port)
        app = LobbyApp(client, "Carol")
        async with app.run_test(size=(80, 24)) as pilot:
            await _until(pilot, lambda: _rows(app) == 1, "listed")
            await host.close()
            await _until(
                pilot, lambda: "The host closed the connection" in widgets_text(app), "told"
            )
            await pilot.press("enter")  # nothing to send to
            await pilot.press("q")
            await _until(pilot, lambda: app.result is not UNSET, "quit")
        assert app.result is None


class _SnapApp(App[None]):
    """The lobby snapshot's app: the host lives in the app's own event loop."""

    CSS_PATH = css_paths()
    host: Host | None = None

    def on_mount(self) -> None:
        self.theme = "textual-dark"

    async def on_unmount(self) -> None:
        if self.host is not None:
            await self.host.close()


def test_lobby_snapshot_80x24(snap_compare: Any, tmp_path: Path) -> None:
    """A game in progress, a finished one, one waiting for players; no name known yet."""

    async def run_before(pilot: Pilot[None]) -> None:
        app = pilot.app
        assert isinstance(app, _SnapApp)
        host = Host(HostConfig(data_dir=tmp_path / "host-data", port=0, ai_delay=3600.0))
        host.load()
        playing = host.open_table(parse_seats("Ann,Bob,ai:strong"), seed=3).referee
        for _ in range(7):
            seat = playing.to_move or 0
            playing.play(seat, playing.view(seat).legal_moves[0], playing.move_count)
        done = host.open_table(parse_seats("Eve,ai:random"), seed=4).referee
        while not done.is_over:
            seat = done.to_move or 0
            done.play(seat, done.view(seat).legal_moves[0], done.move_count)
        _, port = await host.start()
        app.host = host
        dee = await _client(port)
        await dee.open_table("Dee", ("me", "open", "ai:greedy", "open"))
        client = await _client(port)
        app.push_screen(LobbyScreen(client, None, poll=3600.0))
        await _until(pilot, lambda: "waiting: 2" in screen_text(app), "three tables")
        await pilot.press("tab")
        await pilot.pause()

    assert snap_compare(_SnapApp(), run_before=run_before, terminal_size=(80, 24))


async def test_the_lobby_reconnects_when_its_connection_drops(tmp_path: Path) -> None:
    async with hosting(tmp_path, "ann,bob") as (host, port):
        client = await _client(port)
        app = LobbyApp(client, "Ann", reconnect=lambda: _client(port))
        async with app.run_test(size=(80, 24)) as pilot:
            await _until(pilot, lambda: "move 0 of" in screen_text(app), "listed")
            for conn in list(host.connections):  # the connection drops (host side)
                conn.abort()
            await _until(pilot, lambda: "Connected again" in widgets_text(app), "reconnected")
            screen = app.screen
            assert isinstance(screen, LobbyScreen) and screen.client is not client
            assert screen.ended is None
            # It works as before: Enter takes Ann's seat over the new connection.
            await pilot.press("enter")
            await _until(pilot, lambda: isinstance(app.result, Seated), "seated")


async def test_a_lobby_that_reconnected_is_its_player_again(tmp_path: Path) -> None:
    """After its connection dropped (its host died, and it joined another), the
    lobby asks again as its player: until then nobody saw them online, their
    friends' arrivals were not told, nor a tournament round that seated them."""
    async with hosting(tmp_path, "ann,bob") as (host, port):
        address = f"127.0.0.1:{port}"
        tokens = TokenStore(tmp_path / "client" / "tokens.json")
        first = await _client(port)
        seated = await first.join("ann")
        await first.close()
        assert seated.token is not None
        tokens.put(address, "ann", seated.token)

        def listened() -> bool:
            return any(host.friends.account_of(c) is not None for c in list(host.connections))

        client = await _client(port)
        app = LobbyApp(
            client, "ann", tokens=tokens, address=address, reconnect=lambda: _client(port)
        )
        async with app.run_test(size=(80, 24)) as pilot:
            await _until(pilot, listened, "ann's lobby listens as ann")
            for conn in list(host.connections):  # the connection drops (host side)
                conn.abort()
            await _until(pilot, lambda: "Connected again" in widgets_text(app), "reconnected")
            await _until(pilot, listened, "ann's lobby listens as ann again")
        await client.close()


def test_a_finished_tables_players_are_not_marked_away() -> None:
    """Issue 19 (played): after a game its players leave; the lobby listed the finished
    table as "ann -2.8 (away), bob 3.3 (away), cy 1.5 (away)", wrapped at 80 columns.
    Who is away matters only while the game goes on."""
    from paris_tui.app.screens.lobby import table_players_text
    from paris_tui.net.protocol import SeatInfo, TableInfo

    seats = (
        SeatInfo("ann", "human", "away", 12),
        SeatInfo("bob", "human", "present"),
        SeatInfo("Greedy AI", "ai:greedy", "ai"),
    )
    going = TableInfo("t1", seats, 10, 45, finished=False)
    assert table_players_text(going).plain == "ann 1.2 (away), bob, Greedy AI"
    done = TableInfo("t1", seats, 45, 45, finished=True)
    assert table_players_text(done).plain == "ann 1.2, bob, Greedy AI"


async def test_a_lobby_in_the_background_asks_for_the_tables_less_often(tmp_path: Path) -> None:
    """The table list every ``poll`` seconds while the terminal (or browser tab) has the
    focus; every ``poll_away`` once it reports the focus lost (idle lobbies in other
    windows cost the host next to nothing); at once when the focus comes back."""
    async with hosting(tmp_path, "ann,bob") as (_, port):
        client = await _client(port)
        asked: list[float] = []
        send = client.send

        def counting(message: object) -> None:
            if isinstance(message, ListTables):
                asked.append(asyncio.get_running_loop().time())
            send(message)  # type: ignore[arg-type]

        client.send = counting  # type: ignore[method-assign]
        app = LobbyApp(client, None, poll_away=30.0)
        async with app.run_test(size=(80, 24)) as pilot:
            await _until(pilot, lambda: len(asked) >= 3, "three asks, 0.3 s apart")
            app.post_message(events.AppBlur())
            await _until(pilot, lambda: not app.app_focus, "the focus lost")
            before = len(asked)
            await pilot.pause(1.2)  # four polls' time
            assert len(asked) == before  # in the background: not asked again yet
            app.post_message(events.AppFocus())
            await _until(pilot, lambda: len(asked) == before + 1, "asked on coming back")
            await _until(pilot, lambda: len(asked) >= before + 3, "every 0.3 s again")
        await client.close()
