"""Snapshot tests of the main screens (pytest-textual-snapshot; update with --snapshot-update).

The positions come from the screenshot scenes (fixed seeds, fixed policy).
"""

from __future__ import annotations

from typing import Any

from textual.pilot import Pilot

from paris_tui.app.screenshots import build_session, takeover_position

from .helpers import make_app

SnapCompare = Any


async def _past_handoff(pilot: Pilot[object]) -> None:
    await pilot.pause()
    await pilot.press("enter")
    await pilot.pause()


def test_new_game_screen(snap_compare: SnapCompare) -> None:
    assert snap_compare(make_app(None), terminal_size=(100, 32))


def test_new_game_screen_80x24(snap_compare: SnapCompare) -> None:
    assert snap_compare(make_app(None), terminal_size=(80, 24))


def test_hand_off_screen(snap_compare: SnapCompare) -> None:
    assert snap_compare(make_app(build_session("Ann,Bob", 3, 6)), terminal_size=(100, 32))


def test_hand_off_screen_80x24(snap_compare: SnapCompare) -> None:
    assert snap_compare(make_app(build_session("Ann,Bob", 3, 6)), terminal_size=(80, 24))


def test_turn_with_preview_80x24(snap_compare: SnapCompare) -> None:
    app = make_app(build_session("Ann,Bob,Cy", 3, 19))
    assert snap_compare(app, press=["enter", "right"], terminal_size=(80, 24))


def test_turn_with_preview_120x40(snap_compare: SnapCompare) -> None:
    app = make_app(build_session("Ann,Bob,Cy", 3, 19))
    assert snap_compare(app, press=["enter", "right"], terminal_size=(120, 40))


def test_takeover_dialog(snap_compare: SnapCompare) -> None:
    session, index = takeover_position()
    app = make_app(session)
    assert snap_compare(app, press=["enter", str(index + 1), "enter"], terminal_size=(120, 40))


def test_takeover_dialog_80x24(snap_compare: SnapCompare) -> None:
    session, index = takeover_position()
    app = make_app(session)
    assert snap_compare(app, press=["enter", str(index + 1), "enter"], terminal_size=(80, 24))


def test_game_end_screen(snap_compare: SnapCompare) -> None:
    session = build_session("Ann,Bob,Cy", 4, 44)
    assert snap_compare(make_app(session), press=["enter", "enter"], terminal_size=(100, 32))


def test_game_end_screen_80x24(snap_compare: SnapCompare) -> None:
    session = build_session("Ann,Bob,Cy", 4, 44)
    assert snap_compare(make_app(session), press=["enter", "enter"], terminal_size=(80, 24))


def test_help_screen(snap_compare: SnapCompare) -> None:
    app = make_app(build_session("Ann,Bob", 3, 2))
    assert snap_compare(app, press=["enter", "f1"], terminal_size=(100, 32))


def test_too_small_notice(snap_compare: SnapCompare) -> None:
    app = make_app(build_session("Ann,Bob", 3, 2))
    assert snap_compare(app, press=["enter"], terminal_size=(60, 20))


class _StillLink:
    """A host's table that does not change: a seat's screen as a join shows it, no socket."""

    def __init__(self, table: object) -> None:
        self.table = table
        self.closed = False

    async def follow(self, *_: object) -> None:
        return None


def test_networked_seat_waiting_80x24(snap_compare: SnapCompare) -> None:
    """Bob at a host's table, Cy to move and away: Bob's own route, a waiting status."""
    from paris_tui.app.app import ParisApp
    from paris_tui.net.protocol import Seated, SeatInfo
    from paris_tui.net.table import RemoteTable

    session = build_session("Ann,Bob,Cy", 3, 20)
    assert session.view(None).to_move == 2
    seats = (
        SeatInfo("Ann", "human", "present"),
        SeatInfo("Bob", "human", "present"),
        SeatInfo("Cy", "human", "away"),
    )
    seated = Seated("t1", 1, None, session.view(1), tuple(session.events), seats)
    link = _StillLink(RemoteTable(None, seated))  # type: ignore[arg-type]
    app = ParisApp(link=link, anim=0.0, ai_delay=0.0, cursor_blink=False)  # type: ignore[arg-type]
    assert snap_compare(app, terminal_size=(80, 24))
