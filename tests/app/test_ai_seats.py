"""A human against AI opponents, to the end: thread workers, no hand-off, seeds in the record."""

from __future__ import annotations

from pathlib import Path

import pytest

from paris_tui.app.local.session import ai_levels, ai_seed, parse_players
from paris_tui.app.screens.end import EndScreen
from paris_tui.app.screens.game import GameScreen
from paris_tui.app.screens.handoff import HandoffScreen
from paris_tui.app.screens.takeover import TakeoverDialog
from paris_tui.core.record import load_record, replay_summary

from .helpers import all_text, make_app, new_session, press

pytestmark = pytest.mark.skipif(not ai_levels(), reason="the AI package is not installed")


async def test_human_against_two_ais_plays_to_the_end(data_dir: Path) -> None:
    path = data_dir / "ai.json"
    session = new_session("Ann,ai:greedy,ai:random", 17, path)
    route = session.record().setup.routes[0]
    app = make_app(session)
    async with app.run_test(size=(100, 32)) as pilot:
        game = next(s for s in app.screen_stack if isinstance(s, GameScreen))
        steps = 0
        while not isinstance(app.screen, EndScreen):
            steps += 1
            assert steps < 2000
            assert not isinstance(app.screen, HandoffScreen)  # one human: no hand-off
            if isinstance(app.screen, TakeoverDialog):
                await press(pilot, "enter")
            elif game.turn_seat == 0 and app.screen is game:
                # The human's own route is theirs to see, even between turns.
                assert "Your route" in all_text(app)
                await press(pilot, "right", "enter")
            else:
                await pilot.pause(0.01)
        end = app.screen
        assert isinstance(end, EndScreen)
        scores = end.scores
        log = all_text(app)
    record = load_record(path)
    assert list(scores) == replay_summary(record)["final"]["scores"]
    assert [p.kind for p in record.players] == ["human", "ai:greedy", "ai:random"]
    assert record.extra["app"]["ai_seeds"] == [None, ai_seed(17, 1), ai_seed(17, 2)]
    assert "Greedy AI" in log
    assert route in record.setup.routes


async def test_ai_choice_is_shown_before_it_is_played(data_dir: Path) -> None:
    session = new_session("ai:greedy,Ann", 4, data_dir / "x.json")
    app = make_app(session, ai_delay=30.0)  # the pause is long: the choice stays on screen
    async with app.run_test(size=(100, 32)) as pilot:
        game = next(s for s in app.screen_stack if isinstance(s, GameScreen))
        for _ in range(200):
            if game.ai_choice is not None:
                break
            await pilot.pause(0.02)
        assert game.ai_choice is not None
        assert session.move_count == 0  # not played yet: shown first
        assert "chooses" in all_text(app)
        assert game.active_tile == game.view.face_up.index(game.ai_choice.tile)


def test_ai_seats_parse_and_seed_deterministically() -> None:
    seats = parse_players("Ann,ai:strong,ai:strong")
    assert [s.kind for s in seats] == ["human", "ai:strong", "ai:strong"]
    assert seats[1].name != seats[2].name
    assert ai_seed(3, 1) == ai_seed(3, 1) != ai_seed(3, 2)


async def test_an_ai_seat_from_the_new_game_screen_is_named_by_its_level(
    data_dir: Path,
) -> None:
    """An AI seat chosen on the new-game screen kept the typed name (``▲ Bob``,
    kind ``ai:easy``); it is named by its code, the same as the command line's, and
    drawn in the player's language."""
    from textual.widgets import Input, Select

    from paris_tui import i18n

    app = make_app(None)
    try:
        async with app.run_test(size=(100, 32)) as pilot:
            await pilot.pause()
            screen = app.screen
            screen.query_one("#kind-1", Select).value = "ai:easy"
            screen.query_one("#name-1", Input).value = "Bob"
            await pilot.pause()
            await press(pilot, "f5")
            for _ in range(100):
                if app.session is not None:
                    break
                await pilot.pause(0.05)
            session = app.session
            assert session is not None
            assert [(p.name, p.kind) for p in session.players] == [
                (session.players[0].name, "human"),
                ("Easy AI", "ai:easy"),
            ]
            assert session.names[1] == parse_players("Ann,ai:easy")[1].name
            assert "Easy AI" in all_text(app) and "Bob" not in all_text(app)
            app.choose_language("de")
            for _ in range(40):
                await pilot.pause(0.05)
                if "Leichte KI" in all_text(app):
                    break
            assert "Leichte KI" in all_text(app)
    finally:
        i18n.set_language("en")


def test_ai_seats_named_once_for_the_command_line_the_host_and_the_screen() -> None:
    """One definition: the command line, the host and the new-game screen name AI seats
    alike, apart from the human names (ignoring case), and draw them in each language."""
    from paris_tui import i18n
    from paris_tui.app.local.session import name_seats
    from paris_tui.app.look.describe import shown_name
    from paris_tui.host.referee import parse_seats

    cli = [s.name for s in parse_players("strong ai,ai:strong,ai:strong")]
    host = [s.name for s in parse_seats("strong ai,ai:strong,ai:strong")]
    raw = [("strong ai", "human"), ("x", "ai:strong"), ("y", "ai:strong")]
    screen = [s.name for s in name_seats(raw)]
    assert cli == host == screen == ["strong ai", "Strong AI 2", "Strong AI 3"]
    try:
        i18n.set_language("de")
        assert [shown_name(n) for n in cli[1:]] == ["Starke KI 2", "Starke KI 3"]
        i18n.set_language("zh-TW")
        assert shown_name("Easy AI") == "簡單 AI" and shown_name("Ann") == "Ann"
    finally:
        i18n.set_language("en")
