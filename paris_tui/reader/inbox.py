"""Lines typed in: each with the moment it came, read in a thread so the game never waits.

The terminal stays in its ordinary (canonical) mode: it echoes what is
typed and lets the player edit a line before Enter, and a screen reader
reads both as usual. Each finished line is stamped with
:func:`time.monotonic` when it is read, and :func:`is_deliberate` judges an
Enter by those stamps as the full screen's key gate does
(``paris_tui.app.terminal.keygate``: the same two numbers): a line that came too
soon after a question appeared, or too soon after the line before it (a
held Enter repeats every 30-50 ms), does not answer it.
"""

from __future__ import annotations

import asyncio
import codecs
import contextlib
import os
import threading
import time
from dataclasses import dataclass

__all__ = ["QUIET_GAP", "Inbox", "Typed", "is_deliberate", "now"]

QUIET_GAP = 0.4
"""Seconds of quiet before a line counts as typed on purpose (``keygate.QUIET_GAP``)."""


def now() -> float:
    return time.monotonic()


@dataclass(frozen=True, slots=True)
class Typed:
    """A line the player finished with Enter (without its newline), and when it came."""

    text: str
    time: float


def is_deliberate(line: Typed, previous: Typed | None, since: float) -> bool:
    """Did ``line`` answer, on purpose, a question asked at ``since``?

    It came :data:`QUIET_GAP` after the question and after the line before it
    (any line: a held Enter sends one every few dozen milliseconds).
    """
    if line.time < since + QUIET_GAP:
        return False
    return previous is None or line.time - previous.time >= QUIET_GAP


class Inbox:
    """The typed lines, in order, as an asyncio queue; ``None`` once the input ends."""

    def __init__(self) -> None:
        self.queue: asyncio.Queue[Typed | None] = asyncio.Queue()
        self.fd: int | None = None
        self.previous: Typed | None = None  # the last line taken

    def put(self, text: str, at: float | None = None) -> None:
        """A line typed (tests give the moment; the reader thread stamps it)."""
        self.queue.put_nowait(Typed(text, now() if at is None else at))

    def end(self) -> None:
        self.queue.put_nowait(None)

    def start(self, fd: int) -> None:
        """Read ``fd`` in a daemon thread from now on (it ends with the process)."""
        self.fd = fd
        loop = asyncio.get_running_loop()

        def read() -> None:
            decoder = codecs.getincrementaldecoder("utf-8")("replace")
            pending = ""
            while True:
                try:
                    chunk = os.read(fd, 4096)
                except OSError:
                    chunk = b""
                if not chunk:
                    if pending:
                        loop.call_soon_threadsafe(self.put, pending)
                    loop.call_soon_threadsafe(self.end)
                    return
                pending += decoder.decode(chunk)
                pending = pending.replace("\r\n", "\n").replace("\r", "\n")
                while "\n" in pending:
                    line, pending = pending.split("\n", 1)
                    at = now()
                    loop.call_soon_threadsafe(self.put, line, at)

        threading.Thread(target=read, name="reader-input", daemon=True).start()

    async def get(self) -> Typed | None:
        line = await self.queue.get()
        if line is not None:
            self.previous = line
        else:
            self.queue.put_nowait(None)  # the end stays the end
        return line

    def flush(self) -> None:
        """Drop what was typed ahead: in the terminal's buffer, and lines already read."""
        if self.fd is not None:
            with contextlib.suppress(OSError, ImportError):
                import termios

                if os.isatty(self.fd):
                    termios.tcflush(self.fd, termios.TCIFLUSH)
        kept: list[Typed | None] = []
        while not self.queue.empty():
            item = self.queue.get_nowait()
            if item is None:
                kept.append(item)
            else:
                self.previous = item
        for item in kept:
            self.queue.put_nowait(item)
