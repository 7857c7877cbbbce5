"""Snapshot tests of the coach's screens at 80x24 (issue 11): the hint, the review, the statistics.

Update with ``--snapshot-update``; the positions come from the screenshot scenes.
"""

from __future__ import annotations

import time
from typing import Any

from textual.pilot import Pilot

from paris_tui.app.screens.game import GameScreen
from paris_tui.app.screenshots import build_session
from paris_tui.app.widgets.hint import HintPanel

from .helpers import make_app

SnapCompare = Any


async def _hint_shown(pilot: Pilot[object]) -> None:
    await pilot.pause()
    await pilot.press("enter", "h")
    app = pilot.app
    game = next(s for s in app.screen_stack if isinstance(s, GameScreen))
    panel = game.query_one(HintPanel)
    deadline = time.monotonic() + 60  # worked out in a thread: slow under load
    while "★" not in str(panel.content):
        assert time.monotonic() < deadline, "no hint came"
        await pilot.pause(0.05)
    await pilot.pause()


def test_hint_80x24(snap_compare: SnapCompare) -> None:
    app = make_app(build_session("Ann,Bob,Cy", 3, 19))
    assert snap_compare(app, run_before=_hint_shown, terminal_size=(80, 24))
