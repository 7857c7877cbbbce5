"""The game screen at a host's table, without a socket: updates come when the test says.

Moves of other players that arrive while an earlier move's tours still play are
queued and shown in order, each from the views it came with (never a later state
under an earlier animation); a refusal is a toast and the turn goes on.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import pytest
from textual.pilot import Pilot

from paris_tui.app.app import ParisApp
from paris_tui.app.local.session import Session
from paris_tui.app.look.describe import describe_events
from paris_tui.app.screens.game import GameScreen
from paris_tui.app.screenshots import build_session
from paris_tui.app.widgets.panels import GameLog
from paris_tui.core import Event, Move, SeatView, TourEvent
from paris_tui.net.protocol import ErrorCode, SeatInfo
from paris_tui.net.table import TableListener, public_view

from .helpers import Notices, all_text, find_game, press


class PushedTable:
    """A host's table as one seat sees it; the test makes the others' moves arrive."""

    def __init__(self, session: Session, seat: int) -> None:
        self.session = session
        self.seat = seat
        self.listeners: list[TableListener] = []
        self.submitted: list[tuple[int, Move, int]] = []
        self.statuses: dict[int, str] = {}  # a seat's presence, when not "present"

    table_id = "t1"

    @property
    def seats(self) -> tuple[SeatInfo, ...]:
        return tuple(
            SeatInfo(n, "human", self.statuses.get(i, "present"))
            for i, n in enumerate(self.session.names)
        )

    @property
    def local_seats(self) -> tuple[int, ...]:
        return (self.seat,)

    def view(self, seat: int | None) -> SeatView:
        if seat is None:
            return public_view(self.session.view(self.seat))
        assert seat == self.seat, "a remote seat's screen asked for another seat's view"
        return self.session.view(seat)

    @property
    def events(self) -> tuple[Event, ...]:
        return tuple(self.session.events)

    @property
    def move_count(self) -> int:
        return self.session.move_count

    def submit(self, seat: int, move: Move, move_count: int) -> None:
        self.submitted.append((seat, move, move_count))  # the test answers, later

    def add_listener(self, listener: TableListener) -> None:
        self.listeners.append(listener)

    def push(self, move: Move | None = None) -> tuple[Event, ...]:
        """The next move (the mover's first legal one) as the host announces it."""
        seat = self.session.view(None).to_move
        assert seat is not None
        events = tuple(self.session.play(move or self.session.view(seat).legal_moves[0]))
        for listener in self.listeners:
            listener.table_changed(self, events)
        return events

    def refuse(self, code: ErrorCode, message: str) -> None:
        for listener in self.listeners:
            listener.table_refused(self, code, message)


class StillLink:
    def __init__(self, table: PushedTable) -> None:
        self.table = table
        self.closed = False

    async def follow(self, *_: object) -> None:
        return None


@asynccontextmanager
async def table_screen(
    table: PushedTable, size: tuple[int, int] = (120, 40), **app_options: Any
) -> AsyncIterator[tuple[ParisApp, Pilot[object], GameScreen]]:
    """An app at ``table`` (no socket, no animation unless ``anim`` is given, no AI
    delay, no cursor blink) run at ``size``, once its game screen is up."""
    options: dict[str, Any] = {"anim": 0.0, "ai_delay": 0.0, "cursor_blink": False}
    app = ParisApp(link=StillLink(table), **(options | app_options))  # type: ignore[arg-type]
    async with app.run_test(size=size) as pilot:
        await pilot.pause()
        game = find_game(app)
        assert game is not None
        yield app, pilot, game


def _position() -> tuple[Session, int]:
    """Ann,Bob: the next move ends a round with a tour and its mover moves again
    next; the other seat is the one at this terminal."""
    for moves in range(40):
        probe = build_session("Ann,Bob", 8, moves)
        seat = probe.view(None).to_move
        assert seat is not None
        events = probe.play(probe.view(seat).legal_moves[0])
        if any(isinstance(e, TourEvent) for e in events) and probe.view(None).to_move == seat:
            return build_session("Ann,Bob", 8, moves), 1 - seat
    raise AssertionError("no such position")


async def test_moves_arriving_during_tours_wait_and_show_in_order() -> None:
    session, mine = _position()
    table = PushedTable(session, mine)
    async with table_screen(table, anim=0.08) as (_app, _pilot, game):
        assert game.turn_seat is None and game.waiting_for == 1 - mine
        start = game.move_count
        first = table.push()  # ends the round: tours to show
        after_first = public_view(session.view(mine))
        second = table.push()  # arrives while the tours play
        assert len(game._pending) == 1 and game.frame is not None
        seen_frames = 0
        loop = asyncio.get_running_loop()
        deadline = loop.time() + 60
        while game._showing or game._pending:
            assert loop.time() < deadline
            if game.frame is not None and game._pending:
                seen_frames += 1
                # the first update's state under its own tours, never the second's
                assert game.move_count == start + 1
                assert game.view.face_up == after_first.face_up
                assert game.view.moves == after_first.moves
            await asyncio.sleep(0.02)
        assert seen_frames > 0
        assert game.move_count == start + 2 == session.move_count
        assert game.view == session.view(mine)
        view = session.view(None)
        expected = [t.plain for t in describe_events(view.board, view.names, [*first, *second])]
        entries = [entry.plain for entry in game.query_one(GameLog).entries]
        assert entries[-len(expected) :] == expected  # both moves logged, in order
        assert game._events == list(session.events)


async def test_a_refusal_is_a_toast_and_the_turn_goes_on() -> None:
    session = build_session("Ann,Bob,Cy", 3, 0)
    table = PushedTable(session, 0)
    async with table_screen(table, (100, 30), deliberate_keys=False) as (app, pilot, game):
        notices = Notices(app)
        assert game.turn_seat == 0
        assert "Your turn: choose a tile" in all_text(app)
        await press(pilot, "enter")
        assert len(table.submitted) == 1 and game.turn_seat is None
        await press(pilot, "enter", "2", "enter")  # no second move while the first is out
        assert len(table.submitted) == 1
        table.refuse("stale", "the position changed [b]since[/b]")
        await pilot.pause()
        assert game.turn_seat == 0  # the turn goes on
        toasts = [n for n in notices.shown if n.title == "Move refused"]
        assert [n.message for n in toasts] == ["the position changed [b]since[/b]"]
        assert not toasts[0].markup  # the host's words as typed, never markup
        await press(pilot, "enter")
        assert len(table.submitted) == 2
        table.push(table.submitted[-1][1])
        await pilot.pause()
        assert game.move_count == 1 and game.turn_seat is None and game.waiting_for == 1


async def test_presence_shows_in_the_players_panel_and_the_status_and_nowhere_else() -> None:
    """Another seat goes away (while it is their turn), then an AI plays for them: the
    players' panel and the status line say so; the rest of the screen is not shown again
    (each player joining a host's table changes every other player's presence)."""
    session = build_session("Ann,Bob,Cy", 3, 0)
    table = PushedTable(session, 2)  # Ann is to move, at another terminal
    async with table_screen(table) as (app, pilot, game):
        assert game.waiting_for == 0
        whole: list[None] = []
        refresh_all = game.refresh_all

        def counted() -> None:
            whole.append(None)
            refresh_all()

        game.refresh_all = counted  # type: ignore[method-assign]
        for status, said in (("away", "Ann (away)"), ("takeover", "Ann (away, AI plays)")):
            table.statuses[0] = status
            for listener in table.listeners:
                listener.table_presence(table)  # type: ignore[arg-type]
            await pilot.pause()
            text = all_text(app)
            assert said in text, text
            assert game.seats[0].status == status
        assert "Ann is away: an AI plays for them…" in all_text(app)
        assert whole == []


async def test_presence_changes_redraw_the_players_panel_without_a_new_layout() -> None:
    """A presence change draws the players' panel again in place (its height stays: no
    layout of the whole screen), the same presence again draws nothing; the status line
    is not laid out again either (it stays one line)."""
    from textual.widgets import Static

    from paris_tui.app.widgets.panels import PlayersPanel

    session = build_session("Ann,Bob,Cy", 3, 0)
    table = PushedTable(session, 2)
    async with table_screen(table) as (app, pilot, game):
        panel = game.query_one(PlayersPanel)
        status = game.query_one("#status", Static)
        updates: list[tuple[str, bool]] = []

        def spy(widget: Static, name: str) -> None:
            update = widget.update

            def counted(content: object = "", *, layout: bool = True) -> None:
                updates.append((name, layout))
                update(content, layout=layout)  # type: ignore[arg-type]

            widget.update = counted  # type: ignore[method-assign]

        spy(panel, "players")
        spy(status, "status")
        height = panel.size.height
        for status_word, said, drawn in (
            ("away", "Ann (away)", True),
            ("away", "Ann (away)", False),  # the same again: nothing drawn again
            ("present", "Ann", True),
        ):
            updates.clear()
            table.statuses[0] = status_word
            for listener in table.listeners:
                listener.table_presence(table)  # type: ignore[arg-type]
            await pilot.pause()
            assert said in all_text(app)
            assert (("players", False) in updates) is drawn, updates
            assert ("players", True) not in updates
            assert ("status", True) not in updates
            assert panel.size.height == height
        assert "Ann (away)" not in all_text(app)


class WatchedTable(PushedTable):
    """The same table as a watcher sees it: no seat here, the public view only."""

    @property
    def local_seats(self) -> tuple[int, ...]:
        return ()

    def view(self, seat: int | None) -> SeatView:
        assert seat is None, "a watcher's screen asked for a seat's view"
        return public_view(self.session.view(None))


async def test_a_watcher_has_no_preview_key() -> None:
    """A watcher's footer offered "p Preview", which never showed
    anything (the left-over preview is the mover's, and a watcher never moves)."""
    from .helpers import screen_text

    session = build_session("Ann,Bob,Cy", 3, 2)
    table = WatchedTable(session, 0)
    async with table_screen(table, (80, 24)) as (app, _pilot, game):
        assert game.turn_seat is None and game.viewer is None
        footer = screen_text(app).rstrip("\n").split("\n")[-1]
        assert "? Help" in footer and "Log" in footer
        assert "Preview" not in footer
        assert "Route" not in footer  # as before: a watcher has no route
    # A seat at the same table keeps the key, on others' turns too (it is a setting).
    seated = PushedTable(build_session("Ann,Bob,Cy", 3, 2), 0)
    async with table_screen(seated, (80, 24)) as (app, _pilot, game):
        assert game.turn_seat is None
        assert "p Preview" in screen_text(app).rstrip("\n").split("\n")[-1]


async def test_a_presence_heard_while_the_screen_is_still_being_mounted_is_drawn(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A presence can arrive from the host after the game screen has drawn its panels but
    before Textual counts the screen as mounted (its Mount handlers await in between):
    it is drawn all the same, not left for the next change (a seat an AI took over
    showed "away" until something else changed)."""
    session = build_session("Ann,Bob", 6, 0)
    table = PushedTable(session, 0)
    async with table_screen(table) as (app, pilot, _game):
        monkeypatch.setattr(GameScreen, "is_mounted", property(lambda _self: False))
        table.statuses[1] = "takeover"
        for listener in table.listeners:
            listener.table_presence(table)  # type: ignore[arg-type]
        monkeypatch.undo()
        await pilot.pause()
        assert "Bob (away, AI plays)" in all_text(app)


async def test_a_move_heard_while_the_screen_is_still_being_mounted_is_shown(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A move can arrive from the host after the game screen has drawn itself and decided
    to wait for the other seat, but before Textual counts the screen as mounted: it is
    shown all the same, not left until something else comes (a player who sat down just
    as the last move of a game came saw the end only when the next presence arrived)."""
    session, mine = _position()
    table = PushedTable(session, mine)
    async with table_screen(table) as (_app, pilot, game):
        assert game.turn_seat is None and game.waiting_for == 1 - mine
        start = game.move_count
        monkeypatch.setattr(GameScreen, "is_mounted", property(lambda _self: False))
        table.push()
        monkeypatch.undo()
        for _ in range(100):
            if game.move_count == start + 1 and not game._showing:
                break
            await pilot.pause(0.02)
        assert game.move_count == start + 1
