"""A finished game goes into the player's history; a broken history never stops play."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from paris_tui.app.local.history import History
from paris_tui.app.local.session import Session
from paris_tui.app.screens.end import EndScreen
from paris_tui.core.record import load_record, replay_summary

from .helpers import make_app, new_session


def _near_the_end(players: str, seed: int, path: Path) -> Session:
    session = new_session(players, seed, path)
    view = session.view(None)
    total = view.rounds_total * len(view.names)
    while len(session.view(None).moves) < total - 1:
        seat = session.view(None).to_move
        assert seat is not None
        session.play(session.view(seat).legal_moves[0])
    return session


async def _finish(app: object, pilot: object) -> None:
    from textual.pilot import Pilot

    assert isinstance(pilot, Pilot)
    for _ in range(400):
        screen = pilot.app.screen
        if isinstance(screen, EndScreen):
            break
        await pilot.press("enter")  # takes a tile, passes a hand-off or a dialog
        await pilot.pause(0.02)
    assert isinstance(pilot.app.screen, EndScreen)
    for _ in range(200):  # the history is written in a worker
        if not [w for w in pilot.app.workers if w.group == "history" and not w.is_finished]:
            break
        await pilot.pause(0.02)


async def test_the_end_of_a_game_adds_it_to_the_history(data_dir: Path) -> None:
    path = data_dir / "last.json"
    session = _near_the_end("Ann,ai:greedy", 4, path)
    history = History.in_data_dir(data_dir)
    app = make_app(session, history=history)
    async with app.run_test(size=(100, 32)) as pilot:
        await _finish(app, pilot)
    stats = history.stats()
    assert stats["games"] == 1
    assert [p["name"] for p in stats["players"]] == ["Ann"]  # the AI was not played here
    final = replay_summary(load_record(path))["final"]["scores"]
    assert stats["last_game"]["scores"] == final
    assert stats["trend"] == [
        {"game": 1, "name": "Ann", "score": final[0], "won": stats["players"][0]["wins"] == 1}
    ]
    assert stats["vs_ai"][0]["level"] == "greedy"
    assert stats["last_game"]["names"] == ["Ann", "Greedy AI"]


async def test_a_damaged_history_is_a_warning_not_an_error(
    data_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    data_dir.mkdir(parents=True, exist_ok=True)
    bad = data_dir / "history.sqlite3"
    bad.write_bytes(b"garbage" * 500)
    session = _near_the_end("Ann,Bob", 6, data_dir / "g.json")
    app = make_app(session, history=History(bad))
    notes: list[str] = []
    monkeypatch.setattr(app, "notify", lambda message, **_: notes.append(str(message)))
    async with app.run_test(size=(100, 32)) as pilot:
        await _finish(app, pilot)
        await pilot.pause(0.1)
        assert isinstance(app.screen, EndScreen)  # still playing, the end screen shows
        assert any("damaged" in note for note in notes), notes
    assert bad.read_bytes().startswith(b"garbage")


def test_stats_command_prints_json_and_a_table(tmp_path: Path) -> None:
    from paris_tui.core import Game
    from paris_tui.core.record import Player, Record

    game = Game.new(["Zoë", "小明"], seed=2)
    while not game.is_over:
        game.play(game.legal_moves()[0])
    record = Record.from_game(game, (Player("Zoë"), Player("小明")))
    History.in_data_dir(tmp_path).add_record(record, mode="hot-seat", local_seats=(0, 1))
    run = [sys.executable, "-m", "paris_tui", "stats", "--data-dir", str(tmp_path)]
    out = subprocess.run([*run, "--json"], capture_output=True, text=True, check=True, timeout=60)
    data = json.loads(out.stdout)
    assert data["games"] == 1 and {p["name"] for p in data["players"]} == {"Zoë", "小明"}
    table = subprocess.run(run, capture_output=True, text=True, check=True, timeout=60).stdout
    assert "1 finished game in " in table and "小明" in table
    (tmp_path / "history.sqlite3").write_bytes(b"junk" * 100)
    bad = subprocess.run([*run, "--json"], capture_output=True, text=True, check=False, timeout=60)
    assert bad.returncode == 1 and bad.stdout == ""
    assert bad.stderr.count("\n") == 1 and "damaged" in bad.stderr


def test_the_real_app_keeps_its_history_in_the_data_directory(
    data_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from paris_tui.app.app import ParisApp
    from paris_tui.app.start import launch

    monkeypatch.setattr(ParisApp, "run", lambda self: None)
    app = ParisApp()
    assert app.history is None  # tests and screenshots keep no history
    assert launch._run(app) == 0
    assert app.history is not None and app.history.path == data_dir / "history.sqlite3"
