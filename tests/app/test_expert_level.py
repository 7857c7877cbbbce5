"""The expert level wherever a level is named: the new-game screen, the lobby's table form,
the screen reader, the host's seat list, in en, de and zh-TW."""

from __future__ import annotations

from pathlib import Path

import pytest

from paris_tui import i18n
from paris_tui.app.screens.new_game import NewGameScreen

from .helpers import make_app


@pytest.mark.parametrize(
    ("language", "label"), [("en", "AI: expert"), ("de", "KI: Experte"), ("zh-TW", "專家")]
)
async def test_the_new_game_screen_offers_expert(data_dir: Path, language: str, label: str) -> None:
    i18n.set_language(language)
    app = make_app(None)
    async with app.run_test(size=(100, 32)) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, NewGameScreen)
        kinds = screen._kinds()
        assert [value for _, value in kinds] == [
            "human",
            "ai:random",
            "ai:easy",
            "ai:greedy",
            "ai:strong",
            "ai:expert",
        ]
        assert label in {v: k for k, v in kinds}["ai:expert"]
        screen.query_one("#kind-1").value = "ai:expert"  # type: ignore[attr-defined]
        await pilot.pause()
        await pilot.press("f5")
        await pilot.pause()
        assert app.session is not None
        assert app.session.players[1].ai_level == "expert"


def test_the_lobbys_table_form_lists_expert() -> None:
    from paris_tui.app.screens.lobby.new_table import AI_LEVELS, _levels

    assert "expert" in _levels() and "expert" in AI_LEVELS


def test_an_expert_seat_is_named_in_each_language() -> None:
    from paris_tui.host.referee import parse_seats
    from paris_tui.wording import in_language, shown_name

    seats = parse_seats("Ann,ai:expert")
    assert [s.kind for s in seats] == ["human", "ai:expert"]
    assert seats[1].name == "Expert AI"
    assert shown_name("Expert AI") == "Expert AI"
    with in_language("de"):
        assert shown_name("Expert AI") == "Experten-KI"
    with in_language("zh-TW"):
        assert shown_name("Expert AI") == "專家 AI"


def test_the_screen_reader_names_expert_among_the_levels() -> None:
    """The reader's prompts list every level, and a typed ``ai:expert`` is a seat."""
    from paris_tui.ai import LEVELS
    from paris_tui.app.local.session import parse_players
    from paris_tui.reader import launch, lobby
    from paris_tui.wording import in_language

    source = Path(launch.__file__).read_text("utf-8") + Path(lobby.__file__).read_text("utf-8")
    for level in LEVELS:
        assert f"ai:{level}" in source  # the lobby's prompt and the words it accepts
    with in_language("de"):
        said = i18n._("AI levels: random, easy, greedy, strong, expert. Or type {quit}.")
    assert "expert" in said and "KI-Stufen" in said
    seats = parse_players("Ann, ai:expert")
    assert [s.kind for s in seats] == ["human", "ai:expert"]


async def test_the_lobbys_table_form_opens_a_table_with_an_expert_seat() -> None:
    """Pilot: seat 2 of the lobby's new-table form steps through the levels to expert."""
    from textual.app import App

    from paris_tui.app.screens.lobby.cycler import Cycler
    from paris_tui.app.screens.lobby.new_table import NewTableScreen
    from paris_tui.app.start.resources import css_paths

    from .helpers import screen_text

    got: list[object] = []

    class FormApp(App[None]):
        def __init__(self) -> None:
            super().__init__(css_path=css_paths())

        def on_mount(self) -> None:
            self.push_screen(NewTableScreen("Ann"), got.append)

    app = FormApp()
    async with app.run_test(size=(100, 32)) as pilot:
        await pilot.pause()
        seat = app.screen.query_one("#seat-1", Cycler)
        assert [value for _, value in seat.choices][-1] == "ai:expert"
        seat.focus()
        await pilot.press(*["right"] * len(seat.choices[:-1]))
        await pilot.pause()
        assert seat.value == "ai:expert"
        assert "AI: expert" in screen_text(app)
        await pilot.press("enter")
        await pilot.pause()
    assert len(got) == 1
    assert got[0].seats[:2] == ("me", "ai:expert")  # type: ignore[attr-defined]
