"""Outside text is never markup and never a terminal control (issue 7).

Names (and file names, and messages that quote them) come from the command
line, the new-game form, record files and saves. Each must be drawn exactly
as it is, whatever it holds: ``[red]``, ``[@click=app.quit]``, ``[/]``,
``$variables``, ``{braces}``, backslashes.
"""

from __future__ import annotations

import contextlib
import io
import json
from collections.abc import Callable
from pathlib import Path

import pytest
from textual.pilot import Pilot
from textual.widgets import Button

from paris_tui import cli
from paris_tui.app import launch
from paris_tui.app.app import ParisApp
from paris_tui.app.screens.game import GameScreen
from paris_tui.app.screens.handoff import HandoffScreen
from paris_tui.app.screens.resume import ResumeDialog
from paris_tui.app.session import SeatSpec, Session
from paris_tui.app.storage import saves_dir

from .helpers import find_game, screen_text

SIZE = (100, 30)


# --- entry points ---------------------------------------------------------------


def open_via_cli(
    argv: list[str], monkeypatch: pytest.MonkeyPatch
) -> tuple[int, str, ParisApp | None]:
    """Run ``paris-tui ARGV`` up to the moment it would open the app.

    Returns the exit status, what went to stderr and the app it built (not
    yet running; ``None`` when the command refused). Everything before the
    app starts is the real command line path.
    """
    built: list[ParisApp] = []

    def capture(app: object) -> int:
        assert isinstance(app, ParisApp)
        app.anim = 0.0  # no tour animations or hand-off guard in tests
        app.ai_delay = 0.0
        app.cursor_blink = False
        built.append(app)
        return 0

    monkeypatch.setattr(launch, "_run", capture)
    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        status = cli.main(argv)
    return status, err.getvalue(), built[0] if built else None


def write_record(path: Path, names: list[str], *, moves: int = 0, seed: int = 1) -> Path:
    """A record file whose players are called ``names`` exactly (written past every check)."""
    placeholders = [SeatSpec(f"P{i}") for i in range(len(names))]
    session = Session.new(placeholders, seed=seed, path=path)
    for _ in range(moves):
        seat = session.view(None).to_move
        session.play(session.view(seat).legal_moves[0])
    data = json.loads(path.read_text(encoding="utf-8"))
    for player, name in zip(data["players"], names, strict=True):
        player["name"] = name
    path.write_text(json.dumps(data), encoding="utf-8")
    return path


async def wait_for(pilot: Pilot[object], ready: Callable[[], bool], what: str) -> None:
    for _ in range(200):
        if ready():
            return
        await pilot.pause(0.01)
    raise AssertionError(f"timed out waiting for {what}\n{screen_text(pilot.app)}")


def handoff_for(app: ParisApp, seat: int) -> bool:
    screen = app.screen
    return isinstance(screen, HandoffScreen) and screen.seat == seat and screen.is_mounted


def turn_of(app: ParisApp, seat: int) -> bool:
    game = find_game(app)
    return game is not None and app.screen is game and game.turn_seat == seat


def label_offset(button: Button, label: str, word: str) -> tuple[int, int]:
    """Where ``word`` of ``label`` would be if ``label`` were drawn centred in ``button``."""
    region, content = button.region, button.content_region
    x = content.x - region.x + (content.width - len(label)) // 2 + label.index(word)
    return x, content.y - region.y


# --- the bugs as found (issue 7, items 1 and 2) ---------------------------------------


async def test_markup_names_from_the_command_line_are_drawn_literally_and_run_nothing(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    status, err, app = open_via_cli(
        ["play", "--players", "[red]x[/],[@click=app.quit]go,[b", "--seed", "3"], monkeypatch
    )
    assert status == 0 and err == "" and app is not None
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: handoff_for(app, 0), "the first hand-off")
        text = screen_text(app)
        assert "Pass to ● [red]x[/]" in text
        assert "Only [red]x[/] should look" in text
        assert "I am [red]x[/] — press Enter" in text
        assert "▲ [@click=app.quit]go 0" in text and "■ [b 0" in text
        await pilot.press("enter")
        await wait_for(pilot, lambda: turn_of(app, 0), "x's turn")
        assert "● [red]x[/]: choose a tile" in screen_text(app)
        await pilot.press("enter")  # x takes a tile: the hand-off to "go"
        await wait_for(pilot, lambda: handoff_for(app, 1), "go's hand-off")
        assert "I am [@click=app.quit]go — press Enter" in screen_text(app)
        # Click where "go" would be if the label were markup: it must press the
        # button (pass the hand-off), never quit.
        button = app.screen.query_one("#handoff-ready", Button)
        await pilot.click(button, offset=label_offset(button, "I am go — press Enter", "go"))
        await wait_for(pilot, lambda: turn_of(app, 1), "go's turn")
        assert app.is_running and app.return_code is None
        log = screen_text(app)
        assert "● [red]x[/] took" in log


async def test_a_record_with_a_click_action_in_a_name_runs_nothing_on_resume(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = write_record(tmp_path / "bell.json", ["[@click=app.bell]x", "Bob"])
    status, _, app = open_via_cli(["resume", str(path)], monkeypatch)
    assert status == 0 and app is not None
    rings: list[None] = []
    monkeypatch.setattr(app, "bell", lambda: rings.append(None))
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: handoff_for(app, 0), "the hand-off")
        assert "I am [@click=app.bell]x — press Enter" in screen_text(app)
        button = app.screen.query_one("#handoff-ready", Button)
        await pilot.click(button, offset=label_offset(button, "I am x — press Enter", "x"))
        await wait_for(pilot, lambda: turn_of(app, 0), "the turn")
    assert rings == []


@pytest.mark.parametrize("name", ["[/]", "[link=http://x]a[/]"])
async def test_names_that_are_bad_markup_crash_nothing_now_or_at_the_next_launch(
    name: str, data_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    status, _, app = open_via_cli(["play", "--players", f"{name},Bob"], monkeypatch)
    assert status == 0 and app is not None
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: handoff_for(app, 0), "the hand-off")
        assert f"I am {name} — press Enter" in screen_text(app)
        await pilot.press("enter")
        await wait_for(pilot, lambda: turn_of(app, 0), "the turn")
        assert f"● {name}: choose a tile" in screen_text(app)
    assert len(list(saves_dir().glob("*.json"))) == 1  # the autosave was written

    # The next plain `paris-tui`: its resume offer names the players literally.
    status, _, app = open_via_cli([], monkeypatch)
    assert status == 0 and app is not None
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: isinstance(app.screen, ResumeDialog), "the resume offer")
        assert f"{name}, Bob · round 1 of 15" in screen_text(app)
        await pilot.press("y")
        await wait_for(pilot, lambda: handoff_for(app, 0), "the hand-off")
        assert f"Pass to ● {name}" in screen_text(app)

    # And `paris-tui resume`.
    status, _, app = open_via_cli(["resume"], monkeypatch)
    assert status == 0 and app is not None
    async with app.run_test(size=SIZE) as pilot:
        await wait_for(pilot, lambda: handoff_for(app, 0), "the hand-off")
        await pilot.press("enter")
        await wait_for(pilot, lambda: turn_of(app, 0), "the turn")
        assert isinstance(app.screen, GameScreen)
        assert f"● {name}: choose a tile" in screen_text(app)
