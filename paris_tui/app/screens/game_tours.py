"""The tours' frames on the game screen, one after another on a timer (each for its
weight times the screen's ``anim``), skipped with Space; while the game is paused (too
small a terminal) the frame shown waits and shows again in full afterwards."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from textual.timer import Timer

from paris_tui.app.look.frames import Frame

if TYPE_CHECKING:
    from .game_host import GameHost

__all__ = ["TourFrames"]


class TourFrames:
    """The frames of the game screen ``screen``'s tours being shown."""

    def __init__(self, screen: GameHost) -> None:
        self._screen = screen
        self.frames: list[Frame] = []  # those still to show
        self.frame: Frame | None = None  # the one shown
        self.timer: Timer | None = None  # until the next one
        self.after: Callable[[], None] | None = None  # what follows the last one

    def play(self, frames: list[Frame], then: Callable[[], None]) -> None:
        """Show ``frames`` in turn, then call ``then``."""
        self.frames = list(frames)
        self.after = then
        self.next()

    def next(self) -> None:
        """The next frame (or, after the last, the screen without one and what follows)."""
        screen = self._screen
        self.timer = None
        if screen.paused and self.frame is not None:
            screen.when_resumed("frame", self.restart)
            return
        if not self.frames:
            had_frame, self.frame = self.frame is not None, None
            then, self.after = self.after, None
            if had_frame:
                screen.refresh_all()
            if then is not None:
                then()
            return
        self.frame = self.frames.pop(0)
        screen.show_frame(self.frame)
        self.timer = screen.set_timer(self.frame.weight * screen.anim, self.next)

    def skip(self) -> None:
        """No more frames of this move: what follows them, at once (Space)."""
        if self.frame is None:
            return
        if self.timer is not None:
            self.timer.stop()
            self.timer = None
        self.frames.clear()
        self.next()

    def pause(self) -> None:
        """The game pauses: the frame shown waits, and shows again in full afterwards."""
        if self.timer is not None:
            self.timer.stop()
            self.timer = None
            self._screen.when_resumed("frame", self.restart)

    def restart(self) -> None:
        if self.frame is not None and self.timer is None:
            self.timer = self._screen.set_timer(self.frame.weight * self._screen.anim, self.next)
