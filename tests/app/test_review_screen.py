"""The review on screen: from the replay viewer and the end screen, in a worker."""

from __future__ import annotations

import time
from pathlib import Path

import pytest
from textual.pilot import Pilot
from textual.widgets import DataTable

from paris_tui.ai import make_ai
from paris_tui.ai.review import review, review_json
from paris_tui.app.app import ParisApp
from paris_tui.app.screens import review as review_screen
from paris_tui.app.screens.end import EndScreen
from paris_tui.app.screens.game import GameScreen
from paris_tui.app.screens.replay import ReplayScreen
from paris_tui.app.screens.review import ReviewScreen
from paris_tui.core import Game
from paris_tui.core.record import Player, Record, save_record

from .helpers import Notices, _plain, make_app, new_session, screen_text

SIMS = 40


@pytest.fixture(autouse=True)
def _few_simulations(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(review_screen, "SIMULATIONS", SIMS)


def _record(seed: int = 3) -> Record:
    """Ann (human, plays like greedy) against a random AI."""
    bots = [make_ai("greedy", seed=1), make_ai("random", seed=2)]
    game = Game.new(["Ann", "Random AI"], seed=seed)
    while not game.is_over:
        seat = game.to_move
        game.play(bots[seat].choose(game.view(seat)))
    return Record.from_game(game, (Player("Ann", "human"), Player("Random AI", "ai:random")))


async def _reviewed(app: ParisApp, pilot: Pilot[object]) -> ReviewScreen:
    deadline = time.monotonic() + 120  # the review's thread is slow on a loaded machine
    while True:
        screen = app.screen
        if isinstance(screen, ReviewScreen) and (screen.reviews is not None or screen.problem):
            break
        assert time.monotonic() < deadline, "the review never came"
        await pilot.pause(0.05)
    await pilot.pause(0.2)
    return screen


async def test_replay_v_reviews_the_human_moves_and_enter_goes_to_one(tmp_path: Path) -> None:
    record = _record()
    path = tmp_path / "game.json"
    save_record(record, path)
    expected = review(record, seed=0, simulations=SIMS, seats={0})
    data = review_json(record, expected)
    worst = data["players"][0]["worst"]
    app = make_app(None, replay=(record, path))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        replay = app.screen
        assert isinstance(replay, ReplayScreen)
        await pilot.press("v")
        screen = await _reviewed(app, pilot)
        assert screen.reviews == expected  # the same as `paris-tui review` for Ann's seat
        table = screen.query_one(DataTable)
        assert table.row_count == len(expected) == len(record.moves) // 2
        marked = []
        for row in range(table.row_count):
            cells = [_plain(c) for c in table.get_row_at(row)]
            assert cells[1] == "●"  # Ann's symbol
            assert cells[4] == f"{expected[row].loss:.1f}"
            if cells[0].startswith("!"):
                marked.append(expected[row].index)
        assert sorted(marked) == sorted(worst) and 0 < len(marked) <= 3
        assert "mean loss" in screen_text(app)
        # Enter on the costliest move shows the position before it in the replay.
        target = expected.index(next(r for r in expected if r.index == worst[0]))
        table.move_cursor(row=target)
        await pilot.press("enter")
        await pilot.pause()
        assert app.screen is replay
        assert replay.position == worst[0]


async def test_escape_cancels_a_review_under_way(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(review_screen, "SIMULATIONS", 3000)  # long enough to be cancelled
    record = _record(4)
    path = tmp_path / "game.json"
    save_record(record, path)
    app = make_app(None, replay=(record, path))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("v")
        screen = app.screen
        assert isinstance(screen, ReviewScreen)
        deadline = time.monotonic() + 60
        while "Reviewing move" not in screen_text(app):  # the progress is shown
            assert time.monotonic() < deadline
            await pilot.pause(0.05)
        workers = [w for w in screen.workers if w.group == "review"]
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, ReplayScreen)
        assert all(w.is_cancelled for w in workers)
        deadline = time.monotonic() + 60
        while any(w.is_running for w in workers):  # the thread stops at its next move
            assert time.monotonic() < deadline, "the review went on after Esc"
            await pilot.pause(0.05)
        assert screen.reviews is None


async def test_the_end_screen_reviews_the_game_just_played(data_dir: Path) -> None:
    session = new_session("Ann,ai:random", 9, data_dir / "g.json")
    while session.move_count < session.view(None).rounds_total * 2 - 1:
        seat = session.view(None).to_move
        assert seat is not None
        session.play(session.view(seat).legal_moves[0])
    app = make_app(session)
    async with app.run_test(size=(80, 24)) as pilot:
        deadline = time.monotonic() + 60
        while not isinstance(app.screen, EndScreen):
            assert time.monotonic() < deadline
            game = next((s for s in app.screen_stack if isinstance(s, GameScreen)), None)
            if game is not None and game.turn_seat is not None and app.screen is game:
                await pilot.press("enter")
            await pilot.pause(0.05)
        await pilot.press("space")
        await pilot.press("v")
        screen = await _reviewed(app, pilot)
        record = session.record()
        assert screen.record.moves == record.moves
        assert screen.record.setup.routes == record.setup.routes
        assert screen.reviews == review(record, seed=0, simulations=SIMS, seats={0})
        await pilot.press("escape")
        assert isinstance(app.screen, EndScreen)


def _unfinished(seed: int, moves: int, routes: tuple[str, ...] | None = None) -> Record:
    """Ann against a random AI after ``moves`` moves; ``routes`` swaps in other secret routes."""
    import dataclasses

    record = _record(seed)
    cut = dataclasses.replace(record, moves=record.moves[:moves])
    if routes is not None:
        cut = dataclasses.replace(cut, setup=dataclasses.replace(cut.setup, routes=routes))
    return cut


async def _after_v(record: Record, path: Path, *, watch: bool) -> tuple[str, list[str]]:
    """What the replay viewer (or the watcher) shows after ``v``, and the notices it gave."""
    from paris_tui.app.local.storage import read_save
    from paris_tui.app.screens.watch import WatchScreen

    save_record(record, path)
    app = make_app(None, replay=(record, path))
    notices = Notices(app)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        if watch:
            await app.push_screen(WatchScreen(read_save(path), poll=60))
            await pilot.pause()
        before = type(app.screen)
        await pilot.press("v")
        await pilot.pause(0.2)
        assert type(app.screen) is before  # no review opened
        assert not any(isinstance(s, ReviewScreen) for s in app.screen_stack)
        return screen_text(app), notices.messages


@pytest.mark.parametrize("watch", [False, True])
async def test_v_on_a_game_in_progress_refuses_and_shows_nothing_from_a_secret_route(
    tmp_path: Path, watch: bool
) -> None:
    """`replay` of a save in progress and a watching copy: `v` says the review is
    for finished games; two games that differ only in the routes show the same screen."""
    full = _record(3)
    other_routes = tuple(reversed(full.setup.routes))
    assert other_routes != full.setup.routes
    shown = []
    for routes in (None, other_routes):
        record = _unfinished(3, 17, routes)
        shown.append(await _after_v(record, tmp_path / "game.json", watch=watch))
    (text, notices), (other_text, other_notices) = shown
    assert any("finished games" in n for n in notices), notices
    assert notices == other_notices
    assert text == other_text


async def test_the_review_command_prints_the_numbers_the_screen_shows(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """`paris-tui review FILE` prints each move beside the AI's choice, and the
    same numbers as the screen for the same game (one seed rule: the default seed)."""
    from paris_tui.cli import main

    record = _record(5)
    path = tmp_path / "game.json"
    save_record(record, path)
    assert main(["review", str(path), "--simulations", str(SIMS)]) == 0
    out = capsys.readouterr().out.splitlines()
    rows = [line for line in out if line[:5].replace("!", "").strip().isdigit()]
    assert len(rows) == len(record.moves)
    app = make_app(None, replay=(record, path))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("v")
        screen = await _reviewed(app, pilot)
        table = screen.query_one(DataTable)
        assert screen.reviews is not None
        for row in range(table.row_count):
            cells = [_plain(c) for c in table.get_row_at(row)]
            index = screen.reviews[row].index
            printed = rows[index]
            assert printed[:5].replace("!", "").strip() == str(index + 1)
            assert printed.split()[-1] == cells[4]  # the same loss
            assert cells[0].startswith("!") == rows[index].startswith("!")  # the same costliest
        summary = next(line for line in out if line.startswith("Ann: mean loss"))
        assert summary.split(": ", 1)[1] in screen_text(app)


async def test_a_review_of_several_humans_does_not_say_your_moves(tmp_path: Path) -> None:
    """A 3-human game's review is of each player's moves, not "your moves"."""
    import dataclasses

    record = _record(3)
    humans = tuple(Player(p.name, "human") for p in record.players)
    record = dataclasses.replace(record, players=humans)
    path = tmp_path / "game.json"
    save_record(record, path)
    app = make_app(None, replay=(record, path))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await pilot.press("v")
        screen = await _reviewed(app, pilot)
        text = screen_text(app)
        assert screen.seats == {0, 1}
        assert "your moves" not in text and "each player's moves" in text
        assert "your three costliest" not in text


async def test_the_watchers_footer_has_one_back(tmp_path: Path) -> None:
    """The watcher's footer said both `← Back` (a move back) and `esc Back`."""
    from paris_tui.app.local.storage import read_save
    from paris_tui.app.screens.watch import WatchScreen

    from .test_screens80 import footer_text

    record = _unfinished(3, 17)
    path = tmp_path / "game.json"
    save_record(record, path)
    app = make_app(None, replay=(record, path))
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        await app.push_screen(WatchScreen(read_save(path), poll=60))
        await pilot.pause()
        footer = await footer_text(pilot)
        assert footer.count("Back") == 1, footer
        assert "Previous" in footer or "Prev" in footer, footer
