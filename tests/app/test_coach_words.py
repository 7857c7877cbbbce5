"""The coach's screens (hint, review, statistics) show no unmarked word."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from textual.pilot import Pilot

from paris_tui.app.local.history import History
from paris_tui.app.screens import review as review_screen
from paris_tui.app.screens.game import GameScreen
from paris_tui.app.screenshots import build_session, review_record, show_review
from paris_tui.app.widgets.hint import HintPanel

from .helpers import make_app, show_statistics
from .test_history import finished
from .test_unmarked_words import _check, _show, pseudo_language  # noqa: F401 (the fixture)


async def _hint(pilot: Pilot[object]) -> None:
    await pilot.press("enter", "h")
    game = next(s for s in pilot.app.screen_stack if isinstance(s, GameScreen))
    panel = game.query_one(HintPanel)
    deadline = time.monotonic() + 60
    while panel.result is None:
        assert time.monotonic() < deadline, "no hint came"
        await pilot.pause(0.05)


async def _stats(pilot: Pilot[object]) -> None:
    await show_statistics(pilot)


async def _stats_charts(pilot: Pilot[object]) -> None:
    """The statistics scrolled down to the charts (their legends and axis titles)."""
    await show_statistics(pilot, charts=True)


async def test_the_coach_screens_are_all_marked(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(review_screen, "SIMULATIONS", 60)
    found: list[str] = []
    found += await _show(make_app(build_session("Ann,Bob,Cy", 3, 19)), (80, 24), _hint)
    app = make_app(None, replay=(review_record(), Path("game.json")))
    found += await _show(app, (80, 24), show_review)
    history = History.in_data_dir(tmp_path)
    for seed in range(3):
        kinds = ["human", ("ai:greedy", "ai:strong", "ai:easy")[seed]]
        history.add_record(finished(["Ann", "Bob"], seed, kinds), mode="ai", local_seats=(0,))
    found += await _show(make_app(None, history=history), (80, 24), _stats)
    found += await _show(make_app(None, history=history), (80, 24), _stats_charts)
    _check(found)
