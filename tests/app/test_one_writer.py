"""One writer per game (issue 7 item 4, and item 11's save problems).

Two copies of the app on one data directory: the second never writes, the
save only ever grows along one history. New games get distinct files even
when many start in the same second. A kill -9 leaves no lock. Temporary
files of dead writers are removed, nothing else. A read-only data directory
is refused up front; a full disk keeps the game playable and says so.

The real-process tests run ``paris-tui`` in pseudo-terminals (``pty_app``)
with ``PARIS_TUI_DATA_DIR`` set to a temporary folder; every wait is bounded.
"""

from __future__ import annotations

import contextlib
import errno
import itertools
import multiprocessing
import os
import signal
import subprocess
import tempfile
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from paris_tui.app.local import storage
from paris_tui.app.local.locks import GameInUseError, is_locked, lock_path, try_lock
from paris_tui.app.local.session import Session
from paris_tui.app.local.storage import (
    clean_saves,
    create_save,
    find_unfinished,
    open_save,
    read_save,
    save_problem,
    saves_dir,
)
from paris_tui.app.screens.game import GameScreen
from paris_tui.app.screens.locked import LockedDialog
from paris_tui.app.screens.new_game import NewGameScreen
from paris_tui.app.screens.watch import WatchScreen
from paris_tui.app.start import launch
from paris_tui.core import Move, Options
from paris_tui.core.record import load_record

from .helpers import Notices, all_text, find_game, make_app, new_session, press
from .pty_app import PtyApp


def play(session: Session, count: int) -> None:
    for _ in range(count):
        seat = session.view(None).to_move
        session.play(session.view(seat).legal_moves[0])


def moves_of(data: bytes) -> tuple[Move, ...]:
    """The moves of one version of a save file (each version must be a whole record)."""
    with tempfile.NamedTemporaryFile("wb", suffix=".json", delete=False) as handle:
        handle.write(data)
    try:
        return load_record(handle.name).moves
    finally:
        os.unlink(handle.name)


# --- real copies of the app in pseudo-terminals --------------------------------------


@pytest.fixture
def terms() -> Iterator[list[PtyApp]]:
    started: list[PtyApp] = []
    yield started
    for term in started:
        term.kill()


def start(terms: list[PtyApp], data: Path, *args: str) -> PtyApp:
    term = PtyApp(args, {"PARIS_TUI_DATA_DIR": str(data)}, size=(100, 30))
    terms.append(term)
    return term


def pump_until(
    condition: Callable[[], bool], terms: list[PtyApp], timeout: float, what: str
) -> None:
    """Wait for ``condition``, reading what the apps draw meanwhile (so none blocks)."""
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout} s waiting for {what}")
        for term in terms:
            term.settle(quiet=0.01, timeout=0.02)


def the_save(data: Path, terms: list[PtyApp]) -> Path:
    saves = data / "saves"
    pump_until(lambda: len(list(saves.glob("game-*.json"))) == 1, terms, 40, "one save")
    (path,) = saves.glob("game-*.json")
    pump_until(lambda: path.stat().st_size > 0, terms, 40, "the first autosave")
    return path


class FileVersions:
    """Every distinct content the save is seen with, read every few milliseconds."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.versions: list[bytes] = []
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._watch, daemon=True)
        self._thread.start()

    def _watch(self) -> None:
        while not self._stop.is_set():
            try:
                data = self.path.read_bytes()
            except OSError:
                data = b""
            if data and (not self.versions or data != self.versions[-1]):
                self.versions.append(data)
            time.sleep(0.003)

    def stop(self) -> list[bytes]:
        self._stop.set()
        self._thread.join(5)
        return self.versions


# Keys a player would press at the second copy: take, pick, confirm, skip, preview...
# Left steps back in the watched game (it then stops following); End follows again.
MASH = [b"\r", b"y", b"1", b"2", b"3", b" ", b"\x1b[C", b"\x1b[D", b"\x1b[A", b"w", b"p", b"r"]
MASH += [b"\x1b[F"]


def test_a_second_copy_never_writes_and_the_save_grows_along_one_history(
    data_dir: Path, terms: list[PtyApp]
) -> None:
    saves = data_dir / "saves"
    saves.mkdir(parents=True)
    stale = saves / ".game-old.json.k1llm3.tmp"  # a dead writer's leftover
    stale.write_text('{"format": "paris-')

    a = start(
        terms, data_dir, "play", "--players", "Ann,ai:random", "--seed", "7", "--ai-delay", "0"
    )
    path = the_save(data_dir, terms)
    versions = FileVersions(path)
    assert is_locked(path)
    a.wait_for("Take", timeout=40)
    assert not stale.exists()  # cleaned when the app started

    b = start(terms, data_dir, "resume")  # the newest unfinished game is the one A plays
    b.wait_for("open in another copy of paris-tui", timeout=40)
    b.send(b"w")
    b.wait_for("Watching: move 0 of 0", "another copy plays", timeout=20)

    def saved() -> int:
        return len(load_record(path).moves)

    for turn in range(1, 7):
        goal = saved() + 2
        for _ in range(6):  # Enter during a tour's animation is dropped: press again
            a.settle(quiet=1.4, timeout=10)  # a tour frame stays up to 1.2 s
            a.send(b"\r")  # Ann takes the highlighted tile (or confirms a takeover)
            with contextlib.suppress(AssertionError):
                pump_until(lambda: saved() >= goal, terms, 5, "A's move")  # noqa: B023
                break
        assert saved() >= goal, f"A's move {turn}:\n{a.display()}"
        for key in MASH:  # B presses everything: it must not move or write
            b.send(key)
            b.settle(quiet=0.01, timeout=0.02)
    played = saved()
    assert played >= 12
    b.wait_for(f"Watching: move {played} of {played}", timeout=20)  # B follows the game

    a.send(b"q")
    assert a.finish() == 0
    assert not is_locked(path)
    b.wait_for("has closed it", timeout=20)
    seen = versions.stop()
    b.send(b"q")
    assert b.finish() == 0

    # Every version of the file extends the one before: one history, never a flip.
    assert len(seen) >= 2
    history = [moves_of(v) for v in seen]
    for older, newer in itertools.pairwise(history):
        assert newer[: len(older)] == older and len(newer) > len(older)
    assert len(history[-1]) == played
    assert seen[-1] == path.read_bytes()  # B wrote nothing, not even after A left
    assert sorted(p.name for p in saves.iterdir()) == [path.name]  # no lock or tmp left


def test_kill_9_of_the_player_leaves_no_lock(data_dir: Path, terms: list[PtyApp]) -> None:
    a = start(terms, data_dir, "play", "--players", "Ann,Bob", "--seed", "3")
    path = the_save(data_dir, terms)
    a.wait_for("Pass to", timeout=40)
    assert is_locked(path)
    with pytest.raises(GameInUseError):
        open_save(path)
    os.kill(a.proc.pid, signal.SIGKILL)
    a.proc.wait(10)
    assert not is_locked(path)  # the OS dropped it with the process
    assert lock_path(path).exists()  # only an unlocked file is left...
    assert clean_saves() == [lock_path(path)]  # ...and it is cleaned
    info, lock = open_save(path)  # a new copy resumes at once
    assert info.moves == 0 and lock.held
    lock.release()


# --- exclusive create ----------------------------------------------------------------


def _create(barrier: Any, names: Any) -> None:
    barrier.wait(timeout=60)
    path, _lock = create_save()
    names.put(path.name)
    barrier.wait(timeout=60)  # every creator keeps its lock until all have a file


def test_many_copies_starting_in_the_same_second_get_distinct_files(
    data_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(storage.time, "strftime", lambda fmt: "20260101-120000")
    count = 16
    ctx = multiprocessing.get_context("fork")  # the children keep the frozen clock
    barrier = ctx.Barrier(count)
    names = ctx.Queue()
    procs = [ctx.Process(target=_create, args=(barrier, names)) for _ in range(count)]
    for proc in procs:
        proc.start()
    got = [names.get(timeout=60) for _ in range(count)]
    for proc in procs:
        proc.join(60)
        assert proc.exitcode == 0
    assert len(set(got)) == count  # never the same file twice
    assert "game-20260101-120000.json" in got
    files = sorted(p.name for p in saves_dir().glob("*.json"))
    assert files == sorted(got)


def test_create_save_skips_names_already_taken(data_dir: Path) -> None:
    first, lock1 = create_save()
    second, lock2 = create_save()
    assert first != second and first.exists() and second.exists()
    assert is_locked(first) and is_locked(second)
    lock1.release()
    lock2.release()
    third, lock3 = create_save()
    assert third not in (first, second)  # a released name is still a file: never reused
    lock3.release()


# --- temporary files of dead writers -------------------------------------------------


def _half_save(save: Path, ready: Any) -> None:
    """A writer that holds the lock and is in the middle of writing a temporary file."""
    lock = try_lock(save)
    assert lock is not None
    fd, _tmp = tempfile.mkstemp(prefix=f".{save.name}.", suffix=".tmp", dir=save.parent)
    os.write(fd, b'{"format": "paris-paris-rec')
    ready.set()
    time.sleep(120)


def test_clean_saves_removes_only_tmp_files_of_dead_writers(data_dir: Path) -> None:
    folder = saves_dir()
    folder.mkdir(parents=True)
    ctx = multiprocessing.get_context("fork")
    writers = {}
    for name in ("alive.json", "killed.json"):
        (folder / name).write_text("{}")
        ready = ctx.Event()
        proc = ctx.Process(target=_half_save, args=(folder / name, ready), daemon=True)
        proc.start()
        assert ready.wait(30)
        writers[name] = proc
    os.kill(writers["killed.json"].pid, signal.SIGKILL)  # dies mid-save
    writers["killed.json"].join(10)

    planted = {
        ".orphan.json.abc123.tmp": True,  # of a save that never came to be, no writer
        ".probe.json.x_Y9.tmp": True,
        "game-1.json": False,  # a save: never
        "notes.tmp": False,  # not our pattern
        ".other.tmp": False,
        "game-2.json.tmp": False,
        ".game-3.json.lock.bak": False,
    }
    for name in planted:
        (folder / name).write_text("x")
    (folder / ".link.json.abc.tmp").symlink_to(folder / "game-1.json")  # a link: never
    tmp_of = {n: next(folder.glob(f".{n}.*.tmp")).name for n in writers}

    removed = {p.name for p in clean_saves()}
    expected = {n for n, stale in planted.items() if stale}
    expected |= {tmp_of["killed.json"], ".killed.json.lock"}
    assert removed == expected
    left = {p.name for p in folder.iterdir()}
    assert tmp_of["alive.json"] in left and ".alive.json.lock" in left  # its writer lives
    assert {"alive.json", "killed.json", ".link.json.abc.tmp"} <= left
    assert {n for n, stale in planted.items() if not stale} <= left

    os.kill(writers["alive.json"].pid, signal.SIGKILL)
    writers["alive.json"].join(10)
    assert {p.name for p in clean_saves()} == {tmp_of["alive.json"], ".alive.json.lock"}
    assert (folder / "game-1.json").read_text() == "x"


# --- the lock in the app --------------------------------------------------------------


def test_a_session_is_the_only_writer_of_its_file(data_dir: Path) -> None:
    path = saves_dir() / "g.json"
    session = new_session("Ann,Bob", 4, path)
    play(session, 2)
    with pytest.raises(GameInUseError):
        Session.from_record(load_record(path), path)
    with pytest.raises(GameInUseError):
        open_save(path)
    session.close()
    before = path.read_bytes()
    seat = session.view(None).to_move
    session.play(session.view(seat).legal_moves[0])  # a closed session writes nothing
    assert path.read_bytes() == before and session.save_error is not None
    again = Session.from_record(load_record(path), path)
    play(again, 1)
    assert len(load_record(path).moves) == 3
    again.close()


def test_find_unfinished_prefers_a_free_game_and_marks_one_in_use(data_dir: Path) -> None:
    busy = new_session("Ann,Bob", 1, saves_dir() / "busy.json")
    play(busy, 3)
    info, problems = find_unfinished()
    assert info is not None and info.path.name == "busy.json" and info.in_use
    assert problems == []
    free = new_session("Cy,Dee", 2, saves_dir() / "free.json")
    play(free, 1)
    free.close()
    os.utime(free.path, (1_000, 1_000))  # older than the busy one: still preferred
    info, _ = find_unfinished()
    assert info is not None and info.path.name == "free.json" and not info.in_use
    # A file being created by another copy (locked, still empty) is not "unreadable".
    _path, lock = create_save()
    info, problems = find_unfinished()
    assert problems == [] and info is not None and info.path.name == "free.json"
    lock.release()
    busy.close()


def test_resume_of_a_game_open_elsewhere_offers_to_watch(
    data_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = saves_dir() / "held.json"
    holder = new_session("Ann,Bob", 4, path)
    play(holder, 2)
    before = path.read_bytes()
    apps: list[Any] = []
    monkeypatch.setattr(launch, "_run", lambda app: apps.append(app) or 0)
    for arg in (path, None):  # `paris-tui resume FILE` and `paris-tui resume`
        assert launch.run_resume(arg, ai_delay=0) == 0
        app = apps.pop()
        assert app.session is None and app.locked is not None and app.locked.path == path
    assert path.read_bytes() == before
    holder.close()


async def test_the_locked_dialog_quits_when_nothing_is_behind_it(data_dir: Path) -> None:
    path = saves_dir() / "held.json"
    holder = new_session("Ann,[b]Bob", 4, path)
    play(holder, 2)
    app = make_app(None, locked=read_save(path))
    async with app.run_test() as pilot:
        await pilot.pause()
        assert isinstance(app.screen, LockedDialog)
        text = all_text(app)
        assert "open in another copy" in text and f"process {os.getpid()}" in text
        assert "Ann, [b]Bob" in text and "held.json" in text  # names drawn literally
        await pilot.press("escape")
        await pilot.pause()
    assert app.return_code in (None, 0)
    holder.close()


async def test_accepting_the_offer_of_a_game_taken_meanwhile_watches_it(data_dir: Path) -> None:
    path = saves_dir() / "game-x.json"
    first = new_session("Ann,Bob", 6, path)
    play(first, 3)
    first.close()
    info, _ = find_unfinished()
    assert info is not None and not info.in_use
    other = Session.from_record(load_record(path), path)  # another copy resumes it first
    app = make_app(None, resume_offer=info)
    async with app.run_test() as pilot:
        await pilot.pause()
        await pilot.press("y")  # resume: too late, it is taken
        await pilot.pause()
        assert isinstance(app.screen, LockedDialog)
        assert app.session is None
        await pilot.press("w")
        await pilot.pause()
        watch = app.screen
        assert isinstance(watch, WatchScreen)
        assert "move 3 of 3" in all_text(app)
        for expected in (4, 5, 6):
            play(other, 1)
            deadline = time.monotonic() + 20
            while f"move {expected} of {expected}" not in all_text(app):
                assert time.monotonic() < deadline, "the watcher did not follow"
                await pilot.pause(0.1)
            before = path.read_bytes()
            # Every key a player would press; Left steps back in the replay, End follows again.
            await press(pilot, "enter", "1", "2", "space", "left", "y", "p", "r", "end")
            await pilot.pause()
            assert path.read_bytes() == before  # watching never writes
        text = all_text(app)
        assert "Your route" not in text  # the public view only: no seat's secret
        assert "another copy plays" in text
        other.close()
        await pilot.pause(watch.poll_every * 3)
        assert "the other copy has closed it" in all_text(app)
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, NewGameScreen)  # back where it came from
        assert app.session is None
    assert len(load_record(path).moves) == 6


async def test_an_offer_of_a_game_in_use_is_marked(data_dir: Path) -> None:
    path = saves_dir() / "game-y.json"
    holder = new_session("Ann,Bob", 6, path)
    play(holder, 1)
    info, _ = find_unfinished()
    assert info is not None and info.in_use
    app = make_app(None, resume_offer=info)
    async with app.run_test() as pilot:
        await pilot.pause()
        assert isinstance(app.screen, LockedDialog)
        await pilot.press("escape")  # back to the new-game screen
        await pilot.pause()
        assert isinstance(app.screen, NewGameScreen)
    holder.close()


async def test_a_new_game_from_the_form_holds_its_file(data_dir: Path) -> None:
    app = make_app(None)
    async with app.run_test() as pilot:
        await pilot.pause()
        await pilot.press("f5")
        await pilot.pause()
        assert app.session is not None and app.session.path is not None
        path = app.session.path
        assert path.parent == saves_dir() and is_locked(path)
        assert load_record(path).moves == ()
        app.action_new_game()  # the palette's "New game": the first game is let go
        await pilot.pause()
        await pilot.press("f5")
        await pilot.pause()
        assert app.session.path != path and not is_locked(path)
        second = app.session.path
    assert second is not None and not is_locked(second)  # released when the app ended


# --- read-only data directory, full disk ---------------------------------------------


@contextmanager
def read_only(folder: Path) -> Iterator[None]:
    """Make ``folder`` unwritable, for root too (the immutable attribute) where needed."""
    folder.mkdir(parents=True, exist_ok=True)
    folder.chmod(0o555)
    immutable = False
    if os.access(folder, os.W_OK) and os.geteuid() == 0:
        done = subprocess.run(["chattr", "+i", str(folder)], capture_output=True, check=False)
        immutable = done.returncode == 0
    try:
        try:
            (folder / "probe").touch()
        except OSError:
            pass
        else:
            (folder / "probe").unlink()
            pytest.skip("cannot make a folder read-only here (root without chattr)")
        yield
    finally:
        if immutable:
            subprocess.run(["chattr", "-i", str(folder)], check=False)
        folder.chmod(0o755)


def test_play_refuses_a_read_only_data_directory_at_once(
    data_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    with read_only(data_dir):
        assert save_problem() is not None
        status = launch.run_play("Ann,Bob", seed=1, options=Options(), ai_delay=None)
        err = capsys.readouterr().err
    assert status == 2 and err.startswith("paris-tui: cannot write the autosave")
    assert err.count("\n") == 1 and "Traceback" not in err
    assert list(data_dir.iterdir()) == []


async def test_the_new_game_screen_refuses_a_read_only_data_directory_up_front(
    data_dir: Path,
) -> None:
    with read_only(data_dir):
        app = make_app(None)
        async with app.run_test() as pilot:
            await pilot.pause()
            assert isinstance(app.screen, NewGameScreen)
            assert "No game can start: games cannot be saved in" in all_text(app)
            await pilot.press("f5")
            await pilot.pause()
            assert isinstance(app.screen, NewGameScreen) and app.session is None
            assert "Cannot write the autosave" in all_text(app)
    assert list(data_dir.iterdir()) == []


async def test_a_full_disk_keeps_the_game_playable_and_says_so(
    data_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    import paris_tui.app.local.session as session_module

    path = saves_dir() / "full.json"
    session = new_session("Ann,ai:random", 2, path)
    real_save = session_module.save_record

    def full(record: object, target: object) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    async def moves(count: int) -> None:
        goal = session.move_count + count
        for _ in range(200):
            if session.move_count >= goal:
                return
            await press(pilot, "enter")
            await pilot.pause(0.05)
        raise AssertionError("the game did not go on")

    app = make_app(session)
    notices = Notices(app)
    async with app.run_test(notifications=True) as pilot:
        await pilot.pause()
        saved = load_record(path).moves
        monkeypatch.setattr(session_module, "save_record", full)
        await moves(3)  # the game goes on without its autosave
        assert isinstance(find_game(app), GameScreen)
        shown = [(n.title, n.message) for n in notices.shown]
        assert any(t == "Autosave failed" and "No space left" in m for t, m in shown)
        assert load_record(path).moves == saved  # the last good save, whole
        monkeypatch.setattr(session_module, "save_record", real_save)
        await moves(1)  # space again: the next move saves everything
        assert len(load_record(path).moves) == session.move_count


async def test_the_watcher_reports_a_bad_or_missing_file_and_recovers(data_dir: Path) -> None:
    path = saves_dir() / "game-z.json"
    holder = new_session("Ann,Bob", 6, path)
    play(holder, 2)
    good = path.read_bytes()
    app = make_app(None, locked=read_save(path))
    async with app.run_test() as pilot:
        await pilot.pause()
        await pilot.press("w")
        await pilot.pause()
        watch = app.screen
        assert isinstance(watch, WatchScreen)

        path.write_text('{"format": "paris-')  # not how the app writes, but someone might
        watch.poll()
        await pilot.pause()
        assert "cannot be read now" in all_text(app) and "move 2 of 2" in all_text(app)
        path.unlink()
        watch.poll()
        await pilot.pause()
        assert "The game's file is gone." in all_text(app)
        path.write_bytes(good)
        watch.poll()
        await pilot.pause()
        text = all_text(app)
        assert "cannot be read" not in text and "is gone" not in text
        assert "another copy plays" in text and "move 2 of 2" in text
    assert path.read_bytes() == good
    holder.close()
