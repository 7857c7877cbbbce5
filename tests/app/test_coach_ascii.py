"""The coach's screens in the ascii glyph set draw nothing but ASCII.

A CJK terminal draws ambiguous-width characters (``★ − ±``, box lines,
block characters) two cells wide; with ``--glyphs ascii`` the hint panel,
the review and the statistics draw plain ASCII: the hint's star ``*``, an
ASCII box, the charts' lines in the players' ASCII symbols with no frame.
"""

from __future__ import annotations

import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from paris_tui.app.app import ParisApp
from paris_tui.app.local.history import History
from paris_tui.app.look.glyphs import set_glyphs
from paris_tui.app.screens import review as review_screen
from paris_tui.app.screenshots import build_session, review_record, show_review
from paris_tui.app.widgets.score_chart import ScoreChart

from .helpers import make_app, screen_text
from .test_coach_words import _hint, _stats
from .test_history import finished


@pytest.fixture(autouse=True)
def ascii_glyphs() -> Iterator[None]:
    set_glyphs("ascii")
    yield
    set_glyphs("unicode")


def _not_ascii(text: str) -> list[str]:
    return sorted({ch for ch in text if ord(ch) > 127})


async def test_hint_review_and_statistics_are_plain_ascii(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(review_screen, "SIMULATIONS", 60)
    app = make_app(build_session("Ann,Bob,Cy", 3, 19))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await _hint(pilot)
        await pilot.pause(0.2)
        text = screen_text(app)
        assert "Hint:" in text and _not_ascii(text) == []
    app = make_app(None, replay=(review_record(), Path("game.json")))
    async with app.run_test(size=(80, 24)) as pilot:
        await show_review(pilot)
        text = screen_text(app)
        assert "mean loss" in text and _not_ascii(text) == []
    with tempfile.TemporaryDirectory() as tmp:
        history = History.in_data_dir(Path(tmp))
        for seed in range(3):
            record = finished(["Ann", "Bob"], seed, ["human", "ai:greedy"])
            history.add_record(record, mode="ai", local_seats=(0,))
        stats_app: ParisApp = make_app(None, history=history)
        async with stats_app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            await _stats(pilot)
            text = screen_text(stats_app)
            assert "Last game" in text and _not_ascii(text) == []
            # The charts (below the tables): plotted in ASCII, without plotext's box frame.
            stats_app.screen.query_one("#stats-box").scroll_end(animate=False)
            await pilot.pause(0.2)
            text = screen_text(stats_app)
            charts = list(stats_app.screen.query(ScoreChart))
            assert len(charts) == 2 and all(chart.region.height > 0 for chart in charts)
            assert "@" in text and "*" in text  # the players' lines, by their ascii symbols
            assert _not_ascii(text) == []
