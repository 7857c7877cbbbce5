"""Textual's web driver that ends the app when its door goes away (see
:mod:`paris_tui.app.terminal.driver`, which picks it: imported only for a browser door's
app; what both drivers share is in :mod:`paris_tui.app.terminal.input_wait`)."""

from __future__ import annotations

import os
import sys
from collections.abc import Iterator
from functools import partial
from typing import Any

from textual.drivers.web_driver import WebDriver

from paris_tui.app.terminal.input_wait import Gone, InputWait

__all__ = ["WebDoorDriver"]


class _InputReader:
    """Textual's ``InputReader`` for the web driver (standard input, bytes at a time,
    and ``b""`` for each of the parser's ticks), waiting on an :class:`InputWait`:
    upstream yields ``b""`` every 0.1 s for ever, idle or not."""

    def __init__(self) -> None:
        self._fileno = sys.__stdin__.fileno() if sys.__stdin__ is not None else 0
        self._waiter = InputWait()
        self._exit = False

    def close(self) -> None:
        self._exit = True
        self._waiter.wake()

    def __iter__(self) -> Iterator[bytes]:
        waiter = self._waiter
        try:
            while not self._exit:
                if waiter.wait(self._fileno) and not self._exit:
                    data = os.read(self._fileno, 1024)
                    if not data:
                        return
                    waiter.input_seen()
                    yield data
                yield b""
        finally:
            waiter.close()


class WebDoorDriver(WebDriver):
    """Textual's ``WebDriver`` that exits the app when its input pipe ends or its
    output pipe breaks (the door that ran it is gone), and whose input thread
    sleeps while there is no input."""

    def __init__(self, app: Any, **kwargs: Any) -> None:
        super().__init__(app, **kwargs)
        self._gone = Gone(self)
        self._write = partial(self._guarded_write)  # upstream: partial(os.write, fileno)
        self._input_reader = _InputReader()  # type: ignore[assignment] # duck-typed

    def _guarded_write(self, data: bytes) -> int:
        if self._gone.gone:
            return len(data)
        try:
            return os.write(self.fileno, data)
        except OSError:  # EPIPE: nobody reads our output any more
            self._gone()
            return len(data)

    def run_input_thread(self) -> None:
        super().run_input_thread()
        # Upstream returns here when the door says "exit" (stop_application_mode
        # sets exit_event first) and when standard input ends: only the latter is news.
        if not self.exit_event.is_set():
            self._gone()
