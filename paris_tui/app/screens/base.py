"""What every full screen of the app shares: the "please enlarge the terminal" notice."""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual import events
from textual.screen import Screen
from textual.widgets import Static

__all__ = ["MIN_HEIGHT", "MIN_WIDTH", "ParisScreen", "TooSmallNotice"]

MIN_WIDTH = 80
MIN_HEIGHT = 24


class TooSmallNotice(Static):
    """Covers the screen while the terminal is below 80x24."""


class ParisScreen(Screen[Any]):
    """A screen that shows a clear notice instead of a squashed layout when too small.

    Dialogs take it as a first base too (``class D(ParisScreen, ModalScreen[T])``),
    so the notice covers whatever screen is on top.
    """

    def on_mount(self) -> None:
        self._check_size(self.app.size.width, self.app.size.height)

    def on_screen_resume(self) -> None:
        # It may have been hidden under another screen while the terminal was resized.
        self._check_size(self.app.size.width, self.app.size.height)

    def on_resize(self, event: events.Resize) -> None:
        self._check_size(event.size.width, event.size.height)

    def _check_size(self, width: int, height: int) -> None:
        small = width < MIN_WIDTH or height < MIN_HEIGHT
        if small and not self.query(TooSmallNotice):
            self.mount(TooSmallNotice("", id="too-small"))  # only once it is needed
        self.set_class(small, "-too-small")
        for notice in self.query(TooSmallNotice):
            notice.update(
                Text(
                    f"Please enlarge the terminal\n\nParis Paris needs at least "
                    f"{MIN_WIDTH}×{MIN_HEIGHT}; this one is {width}×{height}.\n\n"
                    "Nothing is lost: the game waits."
                )
            )
