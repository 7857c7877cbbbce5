"""The game screen's status line: whose turn, or what is happening, in one line."""

from __future__ import annotations

from collections.abc import Callable

from textual.timer import Timer
from textual.widgets import Static

from paris_tui.app.terminal.fit import Fit
from paris_tui.app.terminal.keygate import REPEAT_DELAY

__all__ = ["StatusLine"]


class StatusLine(Static):
    """One line whatever it says (a :class:`Fit` picks a wording that fits, or cuts the
    last; none has two lines), so the screen is laid out again only when it goes from
    nothing to something or back."""

    _shape: bool | None = None  # whether it says something
    take_waits: Timer | None = None  # while set, the status says why Enter waits

    def say(self, status: Fit) -> None:
        """Show ``status``."""
        shape = any(v.plain for v in status.variants)
        self.update(status, layout=shape != self._shape)
        self._shape = shape

    def enter_waits(self, then: Callable[[], None]) -> None:
        """An Enter was dropped (too soon after the last, or held): the status says why for
        as long as the wait lasts (:data:`REPEAT_DELAY`); ``then`` when it is over."""
        if self.take_waits is not None:
            self.take_waits.stop()

        def over() -> None:
            self.take_waits = None
            then()

        self.take_waits = self.set_timer(REPEAT_DELAY, over)
