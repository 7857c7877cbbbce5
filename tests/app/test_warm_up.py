"""The fork server's warm-up (app/start/warm_up.py): a throwaway game screen drawn once leaves
nothing behind, and an app drawn after it draws what it drew before (issue 19)."""

from __future__ import annotations

import asyncio
import gc
import threading

import pytest

from paris_tui.app.app import ParisApp
from paris_tui.app.look.glyphs import current_glyphs, set_glyphs
from paris_tui.app.screenshots import build_session
from paris_tui.app.start import warm_css
from paris_tui.app.start.warm_up import warm_up
from paris_tui.i18n import current_language, set_language
from paris_tui.net.protocol import Seated, SeatInfo
from paris_tui.net.table import RemoteTable

from .helpers import all_text


class _StillLink:
    def __init__(self, table: RemoteTable) -> None:
        self.table = table
        self.closed = False

    async def follow(self, *_: object) -> None:
        return None


async def _first_screen() -> str:
    """What a seat at a host's table shows first, at 120x40."""
    session = build_session("Ann,Bob,Cy", 3, 4)
    seats = tuple(SeatInfo(n, "human", "present") for n in session.names)
    seated = Seated("t1", 1, None, session.view(1), tuple(session.events), seats)
    link = _StillLink(RemoteTable(None, seated))  # type: ignore[arg-type]
    app = ParisApp(link=link, anim=0.0, ai_delay=0.0, cursor_blink=False)  # type: ignore[arg-type]
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        await pilot.pause()
        return all_text(app)


def _apps() -> list[object]:
    gc.collect()
    return [o for o in gc.get_objects() if isinstance(o, (ParisApp, RemoteTable))]


def test_the_warm_up_leaves_no_thread_no_loop_no_app_and_the_same_settings() -> None:
    threads = threading.active_count()
    before = len(_apps())
    language, glyphs = current_language(), current_glyphs().name
    set_language("de")
    set_glyphs("ascii")
    try:
        drawn = warm_up()
        assert drawn > 2000  # a whole game screen's frame, as text
        assert threading.active_count() == threads
        assert asyncio._get_running_loop() is None
        assert current_language() == "de"
        assert current_glyphs().name == "ascii"
        assert len(_apps()) == before  # the throwaway app and its table are garbage
    finally:
        set_language(language)
        set_glyphs(glyphs)


def test_an_app_after_the_warm_up_draws_the_same_first_screen(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """As in a fork server: every stylesheet parsed once and shared (app/start/warm_css.py),
    the throwaway screen drawn; then an app draws what an app drew without either."""
    cold = asyncio.run(_first_screen())
    monkeypatch.setattr(warm_css, "_PARSED", {})  # (this test's own: undone after it)
    monkeypatch.setattr(warm_css, "_VARIABLES", {})
    assert warm_css.prefill(ParisApp().get_css_variables()) > 50
    warm_up()
    app = ParisApp()
    assert isinstance(app.stylesheet, warm_css.SharedStylesheet)
    warm = asyncio.run(_first_screen())
    assert "Louvre" in cold  # the map is drawn
    assert warm == cold
