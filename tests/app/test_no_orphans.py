"""No orphans: when the app's terminal goes away without a hang-up signal, the
real ``paris-tui`` saves and exits at once (Textual 8.2.8 alone spins at ~90%
of a core for ever; see paris_tui/app/terminal/driver.py).

Two ways a terminal goes away: the pseudo-terminal closed under the app (its
other end closed; the pty is not the app's controlling terminal, so no SIGHUP),
and a browser door's input pipe at end of file (Textual's web driver). Each
test lets two AI seats play a few moves (each saved at once), takes the
terminal away, and then the process must end with status TERMINAL_GONE within
a generous bound, its save must read back with every move it had, and its
lock must be free.
"""

from __future__ import annotations

import json
import os
import subprocess
import time
from pathlib import Path

from paris_tui.app.local.storage import open_save, read_save
from paris_tui.app.terminal.driver import TERMINAL_GONE

from .pty_app import PtyApp, web_door_app

AI_GAME = ["play", "--players", "ai:random,ai:greedy", "--seed", "5", "--ai-delay", "0.1"]
EXIT_BOUND = 30.0  # seconds; the app exits in well under one, this is for a loaded machine


def _saved_moves(data: Path, timeout: float = 60.0, at_least: int = 2) -> tuple[Path, int]:
    """Wait until the game's save file holds ``at_least`` moves; its path and move count."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        for path in sorted((data / "saves").glob("game-*.json")):
            try:
                moves = len(json.loads(path.read_text(encoding="utf-8"))["moves"])
            except (OSError, ValueError, KeyError):
                continue  # being replaced this very moment
            if moves >= at_least:
                return path, moves
        time.sleep(0.05)
    raise AssertionError(f"no save with {at_least} moves in {timeout} s")


def _wait_exit(proc: subprocess.Popen[bytes], what: str) -> int:
    deadline = time.monotonic() + EXIT_BOUND
    while proc.poll() is None:
        if time.monotonic() > deadline:
            cpu = _cpu_seconds(proc.pid)
            proc.kill()
            proc.wait(10)
            raise AssertionError(
                f"paris-tui still running {EXIT_BOUND} s after {what} ({cpu:.1f} s of CPU used)"
            )
        time.sleep(0.05)
    return proc.returncode


def _cpu_seconds(pid: int) -> float:
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return float("nan")
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _check_save(path: Path, moves_before: int) -> None:
    info = read_save(path)  # raises if the record is damaged
    assert info.moves >= moves_before
    assert not info.finished
    _info, lock = open_save(path)  # the app released its lock (raises GameInUseError if not)
    lock.release()


def test_pty_closed_under_the_app_saves_and_exits(data_dir: Path) -> None:
    app = PtyApp(AI_GAME, {"PARIS_TUI_DATA_DIR": str(data_dir)})
    try:
        app.wait_for("Round", timeout=30)
        path, moves = _saved_moves(data_dir)
        app.close()  # the pty's other end: gone, with no hang-up signal to the app
        status = _wait_exit(app.proc, "its pty was closed")
    finally:
        app.kill()
    assert status == TERMINAL_GONE
    _check_save(path, moves)


def test_browser_door_input_at_end_of_file_saves_and_exits(data_dir: Path) -> None:
    proc, started, reader = web_door_app(AI_GAME, data_dir)
    assert proc.stdin is not None
    try:
        assert started.wait(30), "the app did not start under the web driver"
        path, moves = _saved_moves(data_dir)
        proc.stdin.close()  # the door is gone: input at end of file
        status = _wait_exit(proc, "its input reached end of file")
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(10)
        reader.join(10)
    assert status == TERMINAL_GONE
    _check_save(path, moves)
