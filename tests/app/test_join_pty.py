"""The real ``paris-tui join`` on a pseudo-terminal against a real ``paris-tui host``
process: the map is drawn, the player's own turn and route show, a move made by keys
reaches the host's record. Every wait is bounded."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from paris_tui.core import ParisError
from paris_tui.core.record import load_record

from .pty_app import Key, PtyApp

# The SSH door off: these tests join over the game port, and the door's default port
# (2222) may be taken on the machine that runs them.
HOST = [
    *(sys.executable, "-m", "paris_tui.cli", "host", "--port", "0", "--ai-delay", "0"),
    *("--ssh-port", "off"),
]


def start_host(data_dir: Path, table: str) -> tuple[subprocess.Popen[str], int]:
    """``paris-tui host`` on a free port with ``table`` (its SSH door off)."""
    proc = subprocess.Popen(
        [*HOST, "--data-dir", str(data_dir), "--table", table, "--seed", "3"],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        start_new_session=True,
    )
    assert proc.stdout is not None
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        line = proc.stdout.readline()
        assert line, "the host exited"
        if "listening on" in line:
            port = int(line.split("listening on ", 1)[1].split(" ")[0].rsplit(":", 1)[1])
            return proc, port
    proc.kill()
    raise AssertionError("the host did not start")


def moves_in(path: Path) -> int:
    try:
        return len(load_record(path).moves)
    except (OSError, ParisError):  # not written yet
        return 0


@contextmanager
def join_on_a_pty(tmp_path: Path, table: str) -> Iterator[PtyApp]:
    """``paris-tui join`` as ann (her data in ``tmp_path``/c) on a 100x30 pty, against
    :func:`start_host` with ``table``; the app killed (if it still runs) and the host
    stopped as the block ends."""
    host, port = start_host(tmp_path / "host", table)
    try:
        args = ["join", f"127.0.0.1:{port}", "--name", "ann", "--data-dir", str(tmp_path / "c")]
        app = PtyApp(args, {"PARIS_TUI_DATA_DIR": str(tmp_path / "c")}, size=(100, 30))
        try:
            yield app
        finally:
            app.kill()
    finally:
        os.killpg(host.pid, signal.SIGTERM)
        host.wait(20)


def test_paris_tui_join_on_a_pty_plays_a_move_by_keys(tmp_path: Path) -> None:
    record = tmp_path / "host" / "host" / "tables" / "t1.json"
    with join_on_a_pty(tmp_path, "ann,ai:random") as app:
        shown = app.wait_for("Your turn", "Your route", "Tiles", timeout=30)
        assert "Louvre" in shown or "Opéra" in shown or "Bastille" in shown  # the map
        app.settle()
        time.sleep(0.6)  # a quiet moment: the turn takes only a deliberate Enter
        before = moves_in(record)
        app.send(Key.ENTER)
        deadline = time.monotonic() + 30
        while moves_in(record) <= before and time.monotonic() < deadline:
            app.settle(quiet=0.1, timeout=0.5)
        assert moves_in(record) > before, app.display()
        assert (tmp_path / "c" / "tokens.json").stat().st_mode & 0o777 == 0o600
        app.send(b"q")  # the table: back to the host's lobby, whose q quits
        deadline = time.monotonic() + 30
        while "the tables of this host" not in app.display():
            assert time.monotonic() < deadline, app.display()
            app.settle(quiet=0.1, timeout=0.5)
        app.send(b"q")
        assert app.finish(timeout=20) == 0
