"""The lobby's tournament screens (the list, a page) ask the host again while they are
open, so that a start, a finished table's standings and a new round are seen without
closing them.

:class:`Refresher` asks every :data:`REFRESH` seconds, and just after an open
tournament's start (:data:`START_LAGS`: the host begins it at its next look, within
five seconds). It asks only while its screen is the one on top and the terminal (or
browser tab) has the focus: a screen under another one, or in a window left in the
background, costs the host nothing; it asks once when it is shown again, if it
missed a time meanwhile. One request per open screen at that pace.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from typing import Any

from textual.screen import Screen
from textual.timer import Timer

__all__ = ["REFRESH", "START_LAGS", "Refresher"]

REFRESH = 15.0  # seconds between two asks of an open tournament screen
START_LAGS = (1.0, 6.0)  # asked again this long after an open tournament's start


class Refresher:
    """Calls ``ask`` every ``every`` seconds and just after the starts it is given,
    while ``screen`` is on top and the app has the focus (see the module's doc)."""

    def __init__(self, screen: Screen[Any], ask: Callable[[], None], every: float) -> None:
        self.screen = screen
        self.ask = ask
        self.every = every
        self.missed = False  # a time came while the screen was hidden
        self._starts: list[Timer] = []
        self._soonest: int | None = None

    def start(self) -> None:
        """From now on (the timers are the screen's: they stop with it)."""
        self.screen.set_interval(self.every, self.due)
        self.screen.watch(self.screen.app, "app_focus", self._focus, init=False)

    def _shown(self) -> bool:
        return self.screen.is_active and self.screen.app.app_focus

    def due(self) -> None:
        if self._shown():
            self.missed = False
            self.ask()
        else:
            self.missed = True

    def resumed(self) -> None:
        """The screen is on top again: asks at once if it missed a time."""
        if self.missed and self._shown():
            self.missed = False
            self.ask()

    def _focus(self, focused: bool) -> None:
        if focused:
            self.resumed()

    def starts(self, starts: Iterable[int]) -> None:
        """The start times of the open tournaments shown: asked again just after the
        soonest one still to come (or just come)."""
        now = time.time()
        ahead = [s for s in starts if s + START_LAGS[-1] > now]
        soonest = min(ahead) if ahead else None
        if soonest == self._soonest:
            return  # (every answer says it again)
        for timer in self._starts:
            timer.stop()
        self._starts = []
        self._soonest = soonest
        if soonest is None:
            return
        for lag in START_LAGS:
            wait = soonest + lag - now
            if wait > 0:
                self._starts.append(self.screen.set_timer(wait, self.due))
