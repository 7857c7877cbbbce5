"""Nothing lost: autosave after every move, resume after a kill, corrupt saves refused untouched."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from paris_tui.app.local.session import Session
from paris_tui.app.local.storage import find_unfinished, read_save, saves_dir
from paris_tui.app.screens.handoff import HandoffScreen
from paris_tui.app.screens.new_game import NewGameScreen
from paris_tui.app.screens.resume import ResumeDialog
from paris_tui.app.start import launch
from paris_tui.core import Options
from paris_tui.core.record import load_record, replay_summary

from .helpers import Notices, all_text, find_game, make_app, new_session, press


async def play_moves(pilot: object, session: Session, count: int) -> None:
    from textual.pilot import Pilot

    assert isinstance(pilot, Pilot)
    start = session.move_count
    while session.move_count < start + count:
        game = find_game(pilot.app)
        handoff = isinstance(pilot.app.screen, HandoffScreen)
        if handoff or (
            game is not None and game.turn_seat is not None and pilot.app.screen is game
        ):
            await press(pilot, "enter")
        else:
            await pilot.pause()


async def test_every_move_is_saved_and_survives_a_kill(data_dir: Path) -> None:
    path = data_dir / "saves" / "kill.json"
    session = new_session("Ann,Bob,Cy", 21, path)
    app = make_app(session)
    async with app.run_test() as pilot:
        for k in range(1, 8):
            await play_moves(pilot, session, 1)
            assert len(load_record(path).moves) == k  # saved at once, before anything else
        snapshot = path.read_bytes()  # what a kill -9 would leave now
    assert (
        path.read_bytes() == snapshot
    )  # quitting wrote nothing more: nothing hangs on a clean exit

    # A new app from the autosave, as `paris-tui resume` does it.
    info = read_save(path)
    assert info.moves == 7 and not info.finished
    again = Session.from_record(info.record, info.path)
    assert again.view(None).scores == session.view(None).scores
    assert again.events == session.events  # rebuilt by replaying the record
    app2 = make_app(again)
    async with app2.run_test() as pilot:
        await pilot.pause()
        assert isinstance(app2.screen, HandoffScreen)  # hot seat: a hand-off first
        await press(pilot, "enter")
        await pilot.pause()
        assert "Resumed after 7 moves" in all_text(app2)
        await play_moves(pilot, again, 3)
    assert len(load_record(path).moves) == 10
    assert load_record(path).extra["app"]["seed"] == 21


async def test_paris_tui_offers_to_resume_the_unfinished_game(data_dir: Path) -> None:
    path = saves_dir() / "game-1.json"
    session = new_session("Ann,Bob", 5, path)
    for _ in range(3):
        seat = session.view(None).to_move
        session.play(session.view(seat).legal_moves[0])
    session.close()  # that copy of the app has ended: its game is free to resume
    info, problems = find_unfinished()
    assert info is not None and info.path == path and problems == []
    app = make_app(None, resume_offer=info)
    async with app.run_test() as pilot:
        await pilot.pause()
        assert isinstance(app.screen, ResumeDialog)
        assert "Ann, Bob" in all_text(app)
        await pilot.press("y")
        await pilot.pause()
        await pilot.pause()
        assert isinstance(app.screen, HandoffScreen)  # hot seat: the hand-off comes first
        await pilot.press("enter")
        await pilot.pause()
        game = find_game(app)
        assert game is not None and game.table.move_count == 3
        assert not any(isinstance(s, NewGameScreen) for s in app.screen_stack)


async def test_declining_the_resume_offer_opens_the_new_game_screen(data_dir: Path) -> None:
    session = new_session("Ann,Bob", 5, saves_dir() / "g.json")
    del session
    info, _ = find_unfinished()
    assert info is not None
    app = make_app(None, resume_offer=info)
    async with app.run_test() as pilot:
        await pilot.pause()
        await pilot.press("n")
        await pilot.pause()
        assert isinstance(app.screen, NewGameScreen)


CORRUPT = [
    ("truncated.json", b'{"format": "paris-paris-record", "version": 1, "board": "cla'),
    ("foreign.json", json.dumps({"hello": "world"}).encode()),
    ("binary.json", bytes(range(256))),
]


@pytest.mark.parametrize(("name", "content"), CORRUPT)
def test_resume_refuses_a_corrupt_file_and_leaves_it_untouched(
    name: str, content: bytes, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / name
    path.write_bytes(content)
    os.utime(path, (1_000_000, 1_000_000))
    status = launch.run_resume(path, ai_delay=0)
    err = capsys.readouterr().err
    assert status == 2
    assert err.startswith("paris-tui: cannot resume") and "left untouched" in err
    assert err.count("\n") == 1 and "Traceback" not in err
    assert path.read_bytes() == content and path.stat().st_mtime == 1_000_000


async def test_corrupt_saves_are_reported_in_the_app_and_never_touched(data_dir: Path) -> None:
    folder = saves_dir()
    folder.mkdir(parents=True)
    for name, content in CORRUPT:
        (folder / name).write_bytes(content)
    before = {p.name: (p.read_bytes(), p.stat().st_mtime_ns) for p in folder.iterdir()}
    info, problems = find_unfinished()
    assert info is None and len(problems) == len(CORRUPT)
    notes = [f"{p.name}: {why}" for p, why in problems]
    app = make_app(None, problems=notes)
    notices = Notices(app)
    async with app.run_test(notifications=True) as pilot:
        await pilot.pause()
        shown = notices.messages
        assert len(shown) == len(CORRUPT)
        assert any("foreign.json" in m and "format" in m for m in shown)
        # Start a new game from the new-game screen: it gets a file of its own.
        assert isinstance(app.screen, NewGameScreen)
        await pilot.press("f5")
        await pilot.pause()
        assert isinstance(app.screen, HandoffScreen)
    after = {
        p.name: (p.read_bytes(), p.stat().st_mtime_ns) for p in folder.iterdir() if p.name in before
    }
    assert after == before
    assert len(list(folder.glob("*.json"))) == len(CORRUPT) + 1


def test_resume_without_a_game_says_so(data_dir: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert launch.run_resume(None, ai_delay=None) == 2
    assert "no unfinished game to resume" in capsys.readouterr().err


@pytest.mark.parametrize(
    ("players", "message"),
    [
        ("Ann", "names 1 player: Paris Paris is for 2 to 4"),
        ("Ann,Bob,Cy,Dee,Eve", "names 5 players: Paris Paris is for 2 to 4"),
        ("Ann,,Bob", "--players: seat 2: the name is blank"),
        ("Ann,Ann", "--players: seat 2: two seats are called Ann"),
        ("Ann,ai:genius", "unknown AI level"),
    ],
)
def test_play_refuses_bad_players_in_one_line(
    players: str, message: str, capsys: pytest.CaptureFixture[str]
) -> None:
    status = launch.run_play(players, seed=1, options=Options(), ai_delay=None)
    err = capsys.readouterr().err
    assert status == 2 and message in err and err.count("\n") == 1


def test_resumed_finished_game_replays_to_the_same_scores(data_dir: Path) -> None:
    path = data_dir / "done.json"
    session = new_session("Ann,Bob", 9, path)
    while not session.view(None).is_over:
        seat = session.view(None).to_move
        session.play(session.view(seat).legal_moves[-1])
    session.close()
    again = Session.from_record(load_record(path), path)
    by_kind = again.points_by_kind()
    final = replay_summary(load_record(path))["final"]["scores"]
    assert [sum(k.values()) for k in by_kind] == final
