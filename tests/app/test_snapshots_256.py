"""Snapshots as a terminal of 256 colours shows them (most SSH players: ssh does not
forward ``COLORTERM``), and of 16: every colour rounded as Rich rounds it when it writes
to such a terminal (tests/app/colours.py). The panels (footer, preview bar, hand-off
box) are greys there, never navy (app/look/themes.py).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from rich.color import ColorSystem
from textual.pilot import Pilot

from paris_tui.app.screenshots import build_session

from .colours import RoundedApp, open_lobby

SnapCompare = Any
EIGHT_BIT, STANDARD = ColorSystem.EIGHT_BIT, ColorSystem.STANDARD


def test_hand_off_256(snap_compare: SnapCompare) -> None:
    app = RoundedApp(build_session("Ann,Bob", 3, 6), system=EIGHT_BIT)
    assert snap_compare(app, terminal_size=(80, 24))


def test_turn_with_preview_80x24_256(snap_compare: SnapCompare) -> None:
    app = RoundedApp(build_session("Ann,Bob,Cy", 3, 19), system=EIGHT_BIT)
    assert snap_compare(app, press=["enter", "right"], terminal_size=(80, 24))


def test_turn_with_preview_120x40_256(snap_compare: SnapCompare) -> None:
    app = RoundedApp(build_session("Ann,Bob,Cy", 3, 19), system=EIGHT_BIT)
    assert snap_compare(app, press=["enter", "right"], terminal_size=(120, 40))


def test_turn_with_preview_80x24_16(snap_compare: SnapCompare) -> None:
    app = RoundedApp(build_session("Ann,Bob,Cy", 3, 19), system=STANDARD)
    assert snap_compare(app, press=["enter", "right"], terminal_size=(80, 24))


def test_lobby_256(snap_compare: SnapCompare, tmp_path: Path) -> None:
    async def run_before(pilot: Pilot[Any]) -> None:
        await pilot.pause()
        await open_lobby(pilot, tmp_path)

    app = RoundedApp(None, system=EIGHT_BIT)
    assert snap_compare(app, run_before=run_before, terminal_size=(80, 24))
