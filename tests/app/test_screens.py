"""Screens and keys: help, command palette, themes, preview and route toggles,
the new-game form, the replay viewer, the too-small notice."""

from __future__ import annotations

from pathlib import Path

import pytest

from paris_tui.app.screens.base import TooSmallNotice
from paris_tui.app.screens.game import GameScreen
from paris_tui.app.screens.handoff import HandoffScreen
from paris_tui.app.screens.help import HelpScreen
from paris_tui.app.screens.new_game import NewGameScreen
from paris_tui.app.screens.replay import ReplayScreen
from paris_tui.app.widgets.panels import PreviewBar
from paris_tui.core.record import load_record

from .helpers import all_text, make_app, new_session, press, screen_text


async def start_turn(pilot: object) -> GameScreen:
    from textual.pilot import Pilot

    assert isinstance(pilot, Pilot)
    await pilot.pause()
    if isinstance(pilot.app.screen, HandoffScreen):
        await press(pilot, "enter")
        await pilot.pause()
    screen = pilot.app.screen
    assert isinstance(screen, GameScreen) and screen.turn_seat is not None
    return screen


async def test_help_opens_with_question_mark_and_f1() -> None:
    app = make_app(new_session("Ann,Bob", 1, None))
    async with app.run_test() as pilot:
        await start_turn(pilot)
        for key in ("question_mark", "f1"):
            await pilot.press(key)
            assert isinstance(app.screen, HelpScreen)
            assert "Small tour" in all_text(app)
            await pilot.press("escape")
            assert isinstance(app.screen, GameScreen)


async def test_palette_offers_the_main_actions(data_dir: Path) -> None:
    app = make_app(new_session("Ann,Bob", 1, data_dir / "saves" / "p.json"))
    async with app.run_test() as pilot:
        game = await start_turn(pilot)
        titles = {c.title for c in app.get_system_commands(game)}
        for title in (
            "New game",
            "Help",
            "Toggle left-over preview",
            "Hide route",
            "Toggle light/dark theme",
            "Save a copy",
            "Quit",
        ):
            assert title in titles
        await pilot.press("ctrl+p")
        await pilot.pause()
        assert "CommandPalette" in type(app.screen).__name__
        await pilot.press(*"save a copy")
        await pilot.pause(0.3)
        await pilot.press("enter")
        await pilot.pause()
    assert len(list((data_dir / "copies").glob("*.json"))) == 1


async def test_save_a_copy_writes_a_valid_record(data_dir: Path) -> None:
    session = new_session("Ann,Bob", 2, data_dir / "saves" / "g.json")
    app = make_app(session)
    async with app.run_test() as pilot:
        await start_turn(pilot)
        await press(pilot, "enter")
        app.action_save_copy()
    copies = list((data_dir / "copies").glob("*.json"))
    assert len(copies) == 1
    assert len(load_record(copies[0]).moves) == 1


async def test_theme_toggles_light_and_dark() -> None:
    app = make_app(new_session("Ann,Bob", 1, None))
    async with app.run_test() as pilot:
        await start_turn(pilot)
        assert app.theme == "paris-dark"
        await pilot.press("t")
        assert app.theme == "paris-light"
        await pilot.press("t")
        assert app.theme == "paris-dark"


async def test_preview_follows_the_highlight_and_can_be_turned_off() -> None:
    app = make_app(new_session("Ann,Bob,Cy", 3, None))
    async with app.run_test(size=(120, 40)) as pilot:
        game = await start_turn(pilot)
        bar = game.query_one(PreviewBar)
        assert str(bar.content).startswith("If left over (board as now): small tour:")
        await pilot.press("2")
        assert game.active_tile == 1
        await pilot.press("right")
        assert game.active_tile == 2
        await pilot.press("p")
        assert "preview off" in str(bar.content)
        assert not app.show_preview
        await pilot.press("p")
        assert "If left over" in str(bar.content)


async def test_route_key_hides_and_shows_the_route() -> None:
    session = new_session("Ann,Bob", 1, None)
    line = session.record().setup.routes[0]
    app = make_app(session)
    async with app.run_test(size=(100, 32)) as pilot:
        await start_turn(pilot)
        assert f"Your route: {line.capitalize()} line" in all_text(app)
        await pilot.press("r")
        assert "Your route" not in all_text(app)
        assert "Route hidden" in screen_text(app)
        await pilot.press("r")
        assert "Your route" in all_text(app)


async def test_new_game_form_starts_a_three_player_game(data_dir: Path) -> None:
    app = make_app(None)
    async with app.run_test(size=(100, 32)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, NewGameScreen)
        app.screen.query_one("#count").value = 3  # type: ignore[attr-defined]
        await pilot.pause()
        name = app.screen.query_one("#name-0")
        name.value = "Zoé"  # type: ignore[attr-defined]
        app.screen.query_one("#seed").value = "77"  # type: ignore[attr-defined]
        await pilot.press("f5")
        await pilot.pause()
        assert isinstance(app.screen, HandoffScreen)
        assert "Pass to" in screen_text(app) and "Zoé" in screen_text(app)
        assert app.session is not None
        assert app.session.names == ("Zoé", "Bob", "Cy")
        assert app.session.seed == 77


@pytest.mark.parametrize(
    ("language", "said"),
    [("en", "Seat 2: two seats are called Ann."), ("de", "Platz 2: zwei Plätze heißen Ann.")],
)
async def test_new_game_form_refuses_duplicate_names(language: str, said: str) -> None:
    """Why a name is refused is said in the player's language (the core gives a code)."""
    from paris_tui import i18n

    i18n.set_language(language)
    app = make_app(None)
    async with app.run_test(size=(100, 32)) as pilot:
        await pilot.pause()
        app.screen.query_one("#name-1").value = "Ann"  # type: ignore[attr-defined]
        await pilot.press("f5")
        assert isinstance(app.screen, NewGameScreen)
        assert said in screen_text(app)


async def test_replay_viewer_steps_forward_and_back(data_dir: Path) -> None:
    path = data_dir / "r.json"
    session = new_session("Ann,Bob", 6, path)
    for _ in range(9):
        seat = session.view(None).to_move
        session.play(session.view(seat).legal_moves[0])
    app = make_app(None, replay=(load_record(path), path))
    async with app.run_test(size=(100, 32)) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, ReplayScreen)
        assert "move 9 of 9" in screen_text(app)
        await pilot.press("left", "left")
        assert screen.position == 7 and "move 7 of 9" in screen_text(app)
        await pilot.press("home")
        assert screen.position == 0
        await pilot.press("right")
        assert screen.position == 1 and "took" in all_text(app)
        await pilot.press("end")
        assert screen.position == 9
        assert "Your route" not in all_text(app)


async def test_too_small_terminal_shows_a_notice_and_recovers() -> None:
    app = make_app(new_session("Ann,Bob", 1, None))
    async with app.run_test(size=(80, 24)) as pilot:
        game = await start_turn(pilot)
        assert not game.query(TooSmallNotice)  # mounted only once it is needed
        await pilot.resize_terminal(70, 20)
        await pilot.pause()
        assert game.has_class("-too-small")
        assert "Please enlarge the terminal" in screen_text(app)
        await pilot.resize_terminal(80, 24)
        await pilot.pause()
        assert not game.has_class("-too-small")
        assert "Please enlarge" not in screen_text(app)
