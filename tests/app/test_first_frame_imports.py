"""``paris-tui play`` reaches its first frame (the hand-off) importing only what it draws.

A fresh ``paris-tui`` (the console script's entry point) runs on a
pseudo-terminal; at its first frame (the first rendered screen of the app
handed to the display) it writes the names of its imported modules to a
pipe of the test's and exits. None of :data:`NOT_BEFORE_FIRST_FRAME` may be
among them: the AI, the hint, the charts, the game screen and its map, the
history database, the network and the host, Babel, the rules' events. They
come after the first frame (``ParisApp._warm_up``) or when used (the figures:
benchmarks/app_startup.py).
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import pty
import select
import struct
import subprocess
import sys
import termios
import time
from pathlib import Path

NOT_BEFORE_FIRST_FRAME = (
    # the AI (an AI seat's move, the hint, the review)
    "paris_tui.ai.arena",
    "paris_tui.ai.belief",
    "paris_tui.ai.easy",
    "paris_tui.ai.evaluation",
    "paris_tui.ai.greedy",
    "paris_tui.ai.hint",
    "paris_tui.ai.random_bot",
    "paris_tui.ai.review",
    "paris_tui.ai.strong",
    "multiprocessing",
    # the rules' events and the left-over preview: no move is made before the first frame
    "paris_tui.core.events",
    "paris_tui.core.analysis",
    "paris_tui.core.sampling",
    # the screens after the hand-off, the map, the charts
    "paris_tui.app.screens.game",
    "paris_tui.app.screens.stats",
    "paris_tui.app.screens.review",
    "paris_tui.app.screens.lobby",
    "paris_tui.app.screens.new_game",
    "paris_tui.app.screens.help",
    "paris_tui.app.widgets.board_map",
    "paris_tui.app.widgets.score_chart",
    "paris_tui.app.widgets.hint",
    "paris_tui.app.map",
    "plotext",
    "textual_plotext",
    "textual.widgets._markdown",
    # the history database
    "sqlite3",
    "_sqlite3",
    # the network, the host, the browser door
    "paris_tui.app.online.remote",
    "paris_tui.net.client",
    "paris_tui.net.protocol",
    "paris_tui.net.table",
    "paris_tui.net.wire",
    "paris_tui.host",
    "paris_tui.doors.command",
    "asyncssh",
    "aiohttp",
    "textual_serve",
    "textual.drivers.web_driver",
    # the catalogs' tools, and what only a few commands need
    "babel",
    "hashlib",
    "rich._emoji_codes",
    # the command palette (Ctrl+P), and the package-data readers (the board is read
    # beside core/board.py)
    "paris_tui.app.commands",
    "importlib.resources",
    "zipfile",
)

PROBE = """
import json, os, sys
from textual.app import App

_display = App._display

def _first_display(self, screen, renderable):
    _display(self, screen, renderable)
    if renderable is not None and type(screen).__module__.startswith("paris_tui."):
        found = {"screen": type(screen).__name__, "modules": sorted(sys.modules)}
        os.write(int(os.environ["PROBE_FD"]), json.dumps(found).encode() + b"\\n")
        os._exit(0)

App._display = _first_display
sys.argv[1:] = ["play", "--players", "Ann,Bob,Cy", "--seed", "3"]
from paris_tui.__main__ import run
sys.exit(run())
"""


def _first_frame_modules(tmp_path: Path) -> dict[str, object]:
    read_end, write_end = os.pipe()
    master, slave = pty.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 30, 100, 0, 0))
    env = {k: v for k, v in os.environ.items() if not k.startswith(("TEXTUAL", "PARIS_TUI"))}
    env.update({"PARIS_TUI_DATA_DIR": str(tmp_path), "PROBE_FD": str(write_end), "TERM": "xterm"})
    proc = subprocess.Popen(
        [sys.executable, "-c", PROBE],
        stdin=slave,
        stdout=slave,
        stderr=slave,
        env=env,
        cwd=tmp_path,
        pass_fds=(write_end,),
        start_new_session=True,
    )
    os.close(write_end)
    os.close(slave)
    data = b""
    deadline = time.monotonic() + 60
    try:
        while not data.endswith(b"\n") and time.monotonic() < deadline:
            ready, _, _ = select.select([read_end, master], [], [], 1.0)
            if master in ready:
                with contextlib.suppress(OSError):
                    os.read(master, 65536)  # drained: the app must not block on its terminal
            if read_end in ready:
                chunk = os.read(read_end, 1 << 20)
                if not chunk:
                    break
                data += chunk
    finally:
        if proc.poll() is None:
            proc.kill()
        proc.wait(timeout=30)
        os.close(read_end)
        os.close(master)
    assert data.endswith(b"\n"), f"no first frame within 60 s (exit status {proc.returncode})"
    found: dict[str, object] = json.loads(data)
    return found


def test_the_hand_off_comes_before_the_ai_the_network_and_the_database(tmp_path: Path) -> None:
    found = _first_frame_modules(tmp_path)
    assert found["screen"] == "HandoffScreen"
    modules = found["modules"]
    assert isinstance(modules, list)
    assert "paris_tui.app.screens.handoff" in modules  # the probe saw the real first frame
    early = sorted(
        name
        for name in modules
        if any(name == banned or name.startswith(banned + ".") for banned in NOT_BEFORE_FIRST_FRAME)
    )
    assert early == []
