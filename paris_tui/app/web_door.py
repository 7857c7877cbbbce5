"""Textual's web driver that ends the app when its door goes away (see
:mod:`paris_tui.app.driver`, which picks it: imported only for a browser door's app)."""

from __future__ import annotations

import os
from functools import partial
from typing import Any

from textual.drivers.web_driver import WebDriver

from .driver import _Gone

__all__ = ["WebDoorDriver"]


class WebDoorDriver(WebDriver):
    """Textual's ``WebDriver`` that exits the app when its input pipe ends or its
    output pipe breaks (the door that ran it is gone)."""

    def __init__(self, app: Any, **kwargs: Any) -> None:
        super().__init__(app, **kwargs)
        self._gone = _Gone(self)
        self._write = partial(self._guarded_write)  # upstream: partial(os.write, fileno)

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
