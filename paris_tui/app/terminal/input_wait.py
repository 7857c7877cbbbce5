"""What both of the app's drivers share (:mod:`paris_tui.app.terminal.driver` for a
terminal, :mod:`paris_tui.app.terminal.web_driver` for a browser door): telling the
app, once, that its terminal went away (:class:`Gone`, the exit status
:data:`TERMINAL_GONE`), and the input thread's wait (:class:`InputWait`) that
needs no tick while no key can be pending. A module of its own: the web driver
(imported only for a browser door's app) takes these from here, not from the
terminal's driver, which in turn imports the web driver only to pick it."""

from __future__ import annotations

import contextlib
import os
import select
import threading
import time

from textual.constants import ESCAPE_DELAY
from textual.driver import Driver

__all__ = ["TERMINAL_GONE", "TICK", "Gone", "InputWait"]

TERMINAL_GONE = 129
"""The app's exit status when its terminal went away (128 + SIGHUP, as a shell says)."""


class Gone:
    """Tells the app once, from any thread, that its terminal went away."""

    def __init__(self, driver: Driver) -> None:
        self._driver = driver
        self._lock = threading.Lock()
        self.gone = False

    def __call__(self) -> None:
        with self._lock:
            if self.gone:
                return
            self.gone = True
        app = self._driver._app
        # Thread-safe: post_message hands the callback to the app's loop.
        app.call_later(app.exit, None, TERMINAL_GONE)


TICK = 0.1
"""Seconds between the key parser's ticks while it may be waiting (Textual's own poll)."""


class InputWait:
    """Waits for a file descriptor to be readable, or for :meth:`wake`.

    The parser that reads the input needs a tick only while it may hold a key
    for its escape delay (an escape alone, or the start of a sequence): for
    ``ESCAPE_DELAY`` plus one tick after the last input. :meth:`wait` times out
    every :data:`TICK` seconds in that window, as Textual's loop does all the
    time, and after it blocks until there is input or a wake. The wake is a
    pipe, so :meth:`wake` works from any thread and before a wait begins.
    """

    def __init__(self) -> None:
        self._wake_read, self._wake_write = os.pipe2(os.O_NONBLOCK | os.O_CLOEXEC)
        self._quiet_at = 0.0  # time.monotonic() after which no tick is due
        self._closed = False

    def input_seen(self) -> None:
        """Input was fed to the parser: tick it until its escape delay is over."""
        self._quiet_at = time.monotonic() + ESCAPE_DELAY + TICK

    def timeout(self) -> float | None:
        """What the next wait's timeout is: ``None`` (none) when no tick is due."""
        left = self._quiet_at - time.monotonic()
        return None if left <= 0 else min(TICK, left)

    def wait(self, fd: int) -> bool:
        """Block until ``fd`` is readable (True) or a wake or a tick's time (False)."""
        try:
            ready, _, _ = select.select([fd, self._wake_read], [], [], self.timeout())
        except InterruptedError:  # pragma: no cover - PEP 475 retries select itself
            return False
        if self._wake_read in ready:
            with contextlib.suppress(OSError):
                while os.read(self._wake_read, 512):
                    pass
        return fd in ready

    def wake(self) -> None:
        """End the current or next :meth:`wait` (thread-safe)."""
        with contextlib.suppress(OSError):  # full (already woken) or closed
            os.write(self._wake_write, b"w")

    def close(self) -> None:
        if self._closed:
            return
        self._closed = True
        for fd in (self._wake_read, self._wake_write):
            with contextlib.suppress(OSError):
                os.close(fd)
