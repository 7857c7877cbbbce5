"""Snapshot tests of the coach's screens at 80x24: the hint, the review, the statistics.

Update with ``--snapshot-update``; the positions come from the screenshot scenes.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot

from paris_tui.app.screens.game import GameScreen
from paris_tui.app.screenshots import build_session
from paris_tui.app.widgets.hint import HintPanel

from .helpers import make_app, show_statistics

SnapCompare = Any


async def _hint_shown(pilot: Pilot[object]) -> None:
    await pilot.pause()
    await pilot.press("enter", "h")
    app = pilot.app
    game = next(s for s in app.screen_stack if isinstance(s, GameScreen))
    panel = game.query_one(HintPanel)
    deadline = time.monotonic() + 60  # worked out in a thread: slow under load
    while panel.result is None:
        assert time.monotonic() < deadline, "no hint came"
        await pilot.pause(0.05)
    await pilot.pause()


def test_hint_80x24(snap_compare: SnapCompare) -> None:
    app = make_app(build_session("Ann,Bob,Cy", 3, 19))
    assert snap_compare(app, run_before=_hint_shown, terminal_size=(80, 24))


async def _stats_shown(pilot: Pilot[object]) -> None:
    await show_statistics(pilot)


async def _charts_shown(pilot: Pilot[object]) -> None:
    await show_statistics(pilot, charts=True)


def _history(folder: Path) -> Any:
    from paris_tui.app.local.history import History

    from .test_history import finished

    history = History.in_data_dir(folder)
    for seed in range(4):
        kinds = ["human", "human" if seed % 2 else "ai:greedy", "ai:strong"]
        names = ["Ann", "Bob" if seed % 2 else "Greedy AI", "Strong AI"]
        local = (0, 1) if seed % 2 else (0,)
        history.add_record(finished(names, seed, kinds), mode="ai", local_seats=local)
    return history


def test_statistics_80x24(snap_compare: SnapCompare, tmp_path: Path) -> None:
    app = make_app(None, history=_history(tmp_path))
    assert snap_compare(app, run_before=_stats_shown, terminal_size=(80, 24))


@pytest.mark.parametrize("glyphs", ["unicode", "ascii"])
def test_statistics_charts_80x24(snap_compare: SnapCompare, tmp_path: Path, glyphs: str) -> None:
    """The statistics scrolled down to the two charts: one scale per chart, a line per player."""
    from paris_tui.app.look.glyphs import set_glyphs

    set_glyphs(glyphs)
    try:
        app = make_app(None, history=_history(tmp_path))
        assert snap_compare(app, run_before=_charts_shown, terminal_size=(80, 24))
    finally:
        set_glyphs("unicode")


def test_review_80x24(snap_compare: SnapCompare, monkeypatch: pytest.MonkeyPatch) -> None:
    from paris_tui.app.screens import review as review_screen
    from paris_tui.app.screenshots import review_record, show_review

    monkeypatch.setattr(review_screen, "SIMULATIONS", 200)  # fixed: the numbers are stable
    app = make_app(None, replay=(review_record(), Path("ann-vs-greedy.json")))
    assert snap_compare(app, run_before=show_review, terminal_size=(80, 24))
