"""The glyph set in the app: the palette command switches it at once and
keeps it; keys, boxes and the map follow it; a CJK client of the SSH door gets ascii."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from textual.widgets import Select, Static

from paris_tui.app.local.settings import load_settings
from paris_tui.app.look.glyphs import current_glyphs, set_glyphs
from paris_tui.app.screenshots import build_session
from paris_tui.app.widgets.board_map import BoardMap
from paris_tui.doors.ssh import app_environment

from .helpers import find_game, make_app, screen_text


@pytest.fixture(autouse=True)
def unicode_after() -> Iterator[None]:
    yield
    set_glyphs("unicode")


def _non_ascii(text: str) -> list[str]:
    return sorted({ch for ch in text if not ch.isascii()})


async def test_the_palette_switches_the_glyphs_at_once_and_keeps_them(data_dir: Path) -> None:
    app = make_app(build_session("Ann,Bob,Cy", 3, 19))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("enter")  # past the hand-off
        await pilot.pause()
        game = find_game(app)
        assert game is not None
        board_map = game.query_one(BoardMap)
        before = screen_text(app)
        assert "─" in before and "Opéra" in before and "●" in before
        assert not app.has_class("-ascii-glyphs")
        await pilot.press("ctrl+p")
        await pilot.pause()
        await pilot.press(*"glyphs")
        await pilot.pause(0.3)
        await pilot.press("enter")
        await pilot.pause(0.3)
        assert current_glyphs().name == "ascii"
        assert app.has_class("-ascii-glyphs")
        after = screen_text(app)
        height = board_map.size.height
        map_rows = ["".join(s.text for s in board_map.render_line(y)) for y in range(height)]
        assert _non_ascii("\n".join(map_rows)) == []
        assert "Opera" in after and "@ Ann" in after
        assert _non_ascii(after) == []  # the log and the panels were drawn again too
        footer = after.rstrip("\n").split("\n")[-1]
        assert "<> Tile" in footer and "Enter Take" in footer
        # the game went on where it was: same seat to move, same round
        assert find_game(app) is game
        assert load_settings(data_dir).glyphs == "ascii"
        # and back
        app.switch_glyphs("unicode")
        await pilot.pause(0.3)
        assert screen_text(app).count("●") >= 1 and not app.has_class("-ascii-glyphs")
        assert load_settings(data_dir).glyphs == "unicode"


async def test_in_ascii_the_game_screen_draws_its_glyphs_in_ascii() -> None:
    set_glyphs("ascii")
    app = make_app(build_session("Ann,Bob,Cy", 3, 19))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.press("enter", "right")
        await pilot.pause(0.3)
        text = screen_text(app)
        # map, players, markers, boxes, footer keys and the words' own marks: all ASCII
        assert _non_ascii(text) == []
        assert "Enter Take" in text and "<> Tile" in text
        assert "> * Bob" in text  # whose turn, and the seat's symbol


def test_a_cjk_client_of_the_ssh_door_gets_ascii(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PARIS_TUI_GLYPHS", "unicode")  # the host's own: not the client's
    monkeypatch.setenv("LANG", "zh_TW.UTF-8")  # the host's locale: not the client's
    assert app_environment(None, "xterm", {"LANG": "zh_TW.UTF-8"})["PARIS_TUI_GLYPHS"] == "ascii"
    assert app_environment(None, "xterm", {"LC_ALL": "ja_JP.UTF-8"})["PARIS_TUI_GLYPHS"] == "ascii"
    assert app_environment(None, "xterm", {"LANG": "de_DE.UTF-8"})["PARIS_TUI_GLYPHS"] == "unicode"
    assert app_environment(None, "xterm", {})["PARIS_TUI_GLYPHS"] == "unicode"
    asked = {"LANG": "ko_KR.UTF-8", "PARIS_TUI_GLYPHS": "unicode"}  # unless it asks otherwise
    assert app_environment(None, "xterm", asked)["PARIS_TUI_GLYPHS"] == "unicode"
    bad = {"LANG": "ko_KR.UTF-8", "PARIS_TUI_GLYPHS": "\x1b[2J"}
    assert app_environment(None, "xterm", bad)["PARIS_TUI_GLYPHS"] == "ascii"


async def test_in_ascii_the_new_game_screens_choices_draw_ascii_arrows(data_dir: Path) -> None:
    """Its choice fields (players, seats, variants, language): Textual draws a closed
    choice's arrow as ``▼``, two cells wide in a CJK terminal (where ascii is chosen
    by itself), which pushed each field's right edge out of line."""
    set_glyphs("ascii")
    app = make_app()
    async with app.run_test(size=(80, 24)) as pilot:
        for _ in range(3):  # laid out, then its fields drawn
            await pilot.pause(0.2)
        assert app.screen.query(Select)
        drawn = [str(arrow.render()) for arrow in app.screen.query(".arrow").results(Static)]
        assert drawn and _non_ascii("".join(drawn)) == [], drawn
        app.switch_glyphs("unicode")  # and back, at once
        await pilot.pause(0.2)
        drawn = [str(arrow.render()) for arrow in app.screen.query(".down-arrow").results(Static)]
        assert drawn and set(drawn) == {"\u25bc"}, drawn
