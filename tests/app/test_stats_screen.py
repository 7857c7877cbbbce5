"""The statistics screen (issue 11): the numbers of `paris-tui stats --json`, never a crash."""

from __future__ import annotations

import json
import sqlite3
import time
from pathlib import Path

import pytest
from textual.pilot import Pilot
from textual.widgets import DataTable

from paris_tui.app.app import ParisApp
from paris_tui.app.history import History
from paris_tui.app.screens.new_game import NewGameScreen
from paris_tui.app.screens.stats import StatsScreen
from paris_tui.cli import main as cli_main

from .helpers import _plain, make_app, screen_text
from .test_history import finished


def _fill(history: History) -> None:
    history.add_record(
        finished(["Ann", "Bob", "Cy"], 3, ["human", "human", "ai:strong"]),
        mode="ai",
        local_seats=(0, 1),
    )
    history.add_record(
        finished(["Ann", "Bot"], 4, ["human", "ai:greedy"]), mode="ai", local_seats=(0,)
    )


async def _stats_screen(app: ParisApp, pilot: Pilot[object]) -> StatsScreen:
    await pilot.pause()
    app.action_statistics()
    deadline = time.monotonic() + 60
    while True:
        screen = app.screen
        if isinstance(screen, StatsScreen) and (screen.stats or screen.problem):
            break
        assert time.monotonic() < deadline, "the statistics never came"
        await pilot.pause(0.05)
    await pilot.pause(0.2)
    return screen


async def test_the_screen_shows_the_numbers_of_stats_json(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    history = History.in_data_dir(tmp_path)
    _fill(history)
    assert cli_main(["stats", "--json", "--data-dir", str(tmp_path)]) == 0
    printed = json.loads(capsys.readouterr().out)
    app = make_app(None, history=history)
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await _stats_screen(app, pilot)
        assert screen.stats == printed
        players = screen.query_one("#stats-players", DataTable)
        rows = [[_plain(c).strip() for c in players.get_row_at(i)] for i in range(2)]
        for row, entry in zip(rows, printed["players"], strict=True):
            by = entry["mean_by_source"]
            assert row == [
                entry["name"],
                str(entry["games"]),
                str(entry["wins"]),
                f"{entry['mean_score']:.1f}",
                *(f"{by[k]:.1f}" for k in ("small_tour", "grand_tour", "special_tour", "sack")),
            ]
        levels = screen.query_one("#stats-ai", DataTable)
        assert levels.row_count == len(printed["vs_ai"]) == 2
        text = screen_text(app)
        assert "2 finished games" in text
        assert "Last game" in text and "Trend" in text
        await pilot.press("escape")
        assert not isinstance(app.screen, StatsScreen)


async def test_a_corrupt_history_is_a_message_not_a_crash(tmp_path: Path) -> None:
    path = tmp_path / "history.sqlite3"
    path.write_bytes(b"this is not a database" * 100)
    app = make_app(None, history=History(path))
    async with app.run_test(size=(80, 24)) as pilot:
        screen = await _stats_screen(app, pilot)
        assert screen.problem is not None and "damaged" in screen.problem
        text = screen_text(app)
        assert "Your history cannot be read" in text
        assert "Traceback" not in text
        await pilot.press("escape")  # and the app goes on
        assert isinstance(app.screen, NewGameScreen)
    assert app.return_code in (None, 0)


async def test_a_locked_history_is_a_message_not_a_crash(tmp_path: Path) -> None:
    history = History.in_data_dir(tmp_path)
    _fill(history)
    other = sqlite3.connect(history.path, isolation_level=None)
    try:
        other.execute("BEGIN EXCLUSIVE")  # another paris-tui in the middle of a write
        app = make_app(None, history=history)
        async with app.run_test(size=(80, 24)) as pilot:
            screen = await _stats_screen(app, pilot)
            assert screen.problem is not None and "busy" in screen.problem
            assert "Your history cannot be read" in screen_text(app)
    finally:
        other.execute("ROLLBACK")
        other.close()


async def test_the_new_game_screen_opens_the_statistics(tmp_path: Path) -> None:
    app = make_app(None, history=History.in_data_dir(tmp_path))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, NewGameScreen)
        await pilot.press("f2")
        deadline = time.monotonic() + 60
        while not (isinstance(app.screen, StatsScreen) and app.screen.stats is not None):
            assert time.monotonic() < deadline
            await pilot.pause(0.05)
        assert "No finished games yet" in screen_text(app)
        await pilot.press("escape")
        assert isinstance(app.screen, NewGameScreen)


async def test_the_command_palette_has_statistics(tmp_path: Path) -> None:
    from textual.command import CommandPalette

    history = History.in_data_dir(tmp_path)
    _fill(history)
    app = make_app(None, history=history)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("ctrl+p")
        deadline = time.monotonic() + 30
        while not isinstance(app.screen, CommandPalette):
            assert time.monotonic() < deadline
            await pilot.pause(0.05)
        await pilot.press(*"Statistics")
        await pilot.pause(0.5)
        await pilot.press("enter")
        deadline = time.monotonic() + 60
        while not (isinstance(app.screen, StatsScreen) and app.screen.stats is not None):
            assert time.monotonic() < deadline, f"no statistics ({app.screen})"
            await pilot.pause(0.05)
        assert "2 finished games" in screen_text(app)
