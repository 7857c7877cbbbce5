"""The coach's screens follow a change of language at once."""

from __future__ import annotations

import tempfile
from pathlib import Path

import pytest

from paris_tui import i18n
from paris_tui.app.local.history import History
from paris_tui.app.screens import review as review_screen
from paris_tui.app.screens.game import GameScreen
from paris_tui.app.screenshots import build_session, review_record, show_review
from paris_tui.app.widgets.hint import HintPanel

from .helpers import make_app, screen_text
from .test_coach_words import _hint, _stats
from .test_history import finished


async def test_hint_review_and_statistics_switch_to_german(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(review_screen, "SIMULATIONS", 60)
    try:
        app = make_app(build_session("Ann,Bob,Cy", 3, 19))
        async with app.run_test(size=(80, 24)) as pilot:
            await pilot.pause()
            await _hint(pilot)
            i18n.set_language("de")
            app.refresh_language()
            await pilot.pause(0.2)
            game = next(s for s in app.screen_stack if isinstance(s, GameScreen))
            assert game.query_one(HintPanel).result is not None
            assert "Tipp: erwarteter Abstand am Ende" in screen_text(app)
        i18n.set_language("en")
        app = make_app(None, replay=(review_record(), Path("game.json")))
        async with app.run_test(size=(80, 24)) as pilot:
            await show_review(pilot)
            i18n.set_language("zh-TW")
            app.refresh_language()
            await pilot.pause(0.3)
            text = screen_text(app)
            assert "覆盤" in text and "平均損失" in text and "mean loss" not in text
        i18n.set_language("en")
        with tempfile.TemporaryDirectory() as tmp:
            history = History.in_data_dir(Path(tmp))
            history.add_record(
                finished(["Ann", "Bob"], 1, ["human", "ai:greedy"]), mode="ai", local_seats=(0,)
            )
            app = make_app(None, history=history)
            async with app.run_test(size=(80, 24)) as pilot:
                await pilot.pause()
                await _stats(pilot)
                i18n.set_language("de")
                app.refresh_language()
                await pilot.pause(0.3)
                text = screen_text(app)
                assert "Statistik" in text and "Gierige KI" in text and "Siege" in text
    finally:
        i18n.set_language("en")
