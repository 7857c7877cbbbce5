"""An idle app's input thread sleeps until there is input (app/terminal/driver.py, issue 19).

Textual's own input loops wake every 0.1 s for ever to tick the key parser; on
a host with many idle SSH players that was most of the host's idle CPU. Here:
the wait itself (:class:`InputWait`), then the real app on a pseudo-terminal,
whose threads are counted in context switches (the kernel's
count of its wake-ups, not a timing), and whose escape key still works alone.
"""

from __future__ import annotations

import os
import sys
import threading
import time
from pathlib import Path

import pytest

from paris_tui.app.terminal.driver import TICK, InputWait

from .pty_app import PtyApp, web_door_app

LINUX = sys.platform.startswith("linux")
HOT_SEAT = ["play", "--players", "Ann,Bob", "--seed", "5"]


def test_a_quiet_wait_has_no_timeout_and_input_brings_the_ticks_back() -> None:
    waiter = InputWait()
    try:
        assert waiter.timeout() is None  # nothing read yet: nothing for the parser to time
        waiter.input_seen()
        timeout = waiter.timeout()
        assert timeout is not None and 0 < timeout <= TICK
    finally:
        waiter.close()


def test_a_wait_ends_on_input_and_on_a_wake_from_another_thread() -> None:
    waiter = InputWait()
    read, write = os.pipe()
    try:
        os.write(write, b"x")
        assert waiter.wait(read) is True  # input: ready at once
        os.read(read, 1)
        waiter.wake()  # before the wait begins: the wait still ends
        assert waiter.wait(read) is False
        ended = threading.Event()

        def wait() -> None:
            waiter.wait(read)
            ended.set()

        thread = threading.Thread(target=wait, daemon=True)
        thread.start()
        assert not ended.wait(0.3)  # no input, no wake, no timeout: still waiting
        waiter.wake()
        assert ended.wait(5)
        thread.join(5)
    finally:
        waiter.close()
        os.close(read)
        os.close(write)


def _wake_ups(pid: int) -> int:
    """The voluntary context switches of all the app's threads (Python 3.11 does not
    name them for the kernel: the input thread cannot be told from the others)."""
    total = 0
    for task in Path(f"/proc/{pid}/task").iterdir():
        for line in (task / "status").read_text().splitlines():
            if line.startswith("voluntary_ctxt_switches:"):
                total += int(line.split()[1])
    return total


@pytest.mark.skipif(not LINUX, reason="counts a thread's wake-ups in Linux's /proc")
def test_an_idle_app_does_not_wake_its_input_thread_and_escape_alone_still_works(
    tmp_path: Path,
) -> None:
    app = PtyApp(HOT_SEAT, {"PARIS_TUI_DATA_DIR": str(tmp_path)}, size=(100, 30))
    try:
        app.wait_for("Ann", timeout=30)
        app.settle(quiet=0.5)
        before = _wake_ups(app.proc.pid)
        time.sleep(1.5)  # Textual's input loop alone: about 15 wake-ups in this time
        woken = _wake_ups(app.proc.pid) - before
        assert woken <= 3, f"the idle app woke {woken} times in 1.5 s"
        app.send(b"?")  # help
        app.wait_for("rules in brief", timeout=15)
        app.send(b"\x1b")  # an escape alone: known only by the silence after it
        deadline = time.monotonic() + 10
        while "rules in brief" in app.display() and time.monotonic() < deadline:
            app.settle(quiet=0.2)
        assert "rules in brief" not in app.display(), "escape did not close the help"
    finally:
        app.kill()


@pytest.mark.skipif(not LINUX, reason="counts a thread's wake-ups in Linux's /proc")
def test_an_idle_browser_door_app_does_not_wake(tmp_path: Path) -> None:
    proc, started, reader = web_door_app(HOT_SEAT, tmp_path)
    assert proc.stdin is not None
    try:
        assert started.wait(30), "the app did not start under the web driver"
        time.sleep(1.0)  # its first frames
        before = _wake_ups(proc.pid)
        time.sleep(1.5)
        woken = _wake_ups(proc.pid) - before
        assert woken <= 3, f"the idle app woke {woken} times in 1.5 s"
        proc.stdin.close()  # the door is gone: the app ends (app/terminal/web_driver.py)
        assert proc.wait(30) is not None
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(10)
        reader.join(10)
