"""The screen reader's friends in a host's lobby, on a pty: ``friends NAME`` asks an
account and says so in words; ``friends`` reads the list and the requests; a name
that is no account is said to be none."""

from __future__ import annotations

import os
import signal
from pathlib import Path

from .ear import check_plain
from .pty_app import PtyApp
from .test_join_pty import start_host
from .test_reader_pty import _wait_text

WIDTH = 80


def _reader(tmp_path: Path, port: int, data: str) -> PtyApp:
    return PtyApp(
        ["join", f"127.0.0.1:{port}", "--screen-reader", "--data-dir", str(tmp_path / data)],
        {"PARIS_TUI_DATA_DIR": str(tmp_path / data), "PARIS_TUI_LANG": "en"},
        size=(WIDTH, 24),
    )


def test_friends_by_ear_ask_and_read_the_list(tmp_path: Path) -> None:
    host, port = start_host(tmp_path / "host", "ann,ai:random")
    try:
        app = _reader(tmp_path, port, "a")  # ann sits once: her account is made
        try:
            _wait_text(app, "1: table t1, ann, Random AI")
            app.send(b"1\r")
            _wait_text(app, "Your name at this table?")
            app.send(b"ann\r")
            _wait_text(app, "Your turn, ann")
            app.send(b"quit\r")  # the table, for the host's lobby beneath it
            _wait_text(app, "You left the table for the host's lobby")
            app.send(b"quit\r")  # the lobby's quit ends the session
            assert app.finish() == 0
        finally:
            app.kill()
        app = _reader(tmp_path, port, "c")
        try:
            _wait_text(app, "friends reads your friends")
            app.send(b"friends nobody\r")
            _wait_text(app, "Your name at this table?")
            app.send(b"cy\r")
            _wait_text(app, "There is no account nobody on this host (yet).")
            app.send(b"friends ann\r")
            _wait_text(app, "You asked ann. ann sees your request")
            app.send(b"friends\r")
            _wait_text(app, "Asked by you, waiting for them: ann.")
            app.send(b"quit\r")
            assert app.finish() == 0
        finally:
            app.kill()
    finally:
        os.killpg(host.pid, signal.SIGTERM)
        host.wait(20)
    check_plain(bytes(app.output), WIDTH)
