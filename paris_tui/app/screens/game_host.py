"""The game screen as its parts see it (the AI's turns, the tours' frames, the tile
choice, the hint, the chat, the end): what each may ask of it, so that no part imports
the screen's module (which imports them)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

if TYPE_CHECKING:
    from textual.app import App
    from textual.css.query import DOMQuery
    from textual.notifications import SeverityLevel
    from textual.timer import Timer, TimerCallback
    from textual.widget import Widget
    from textual.worker import Worker
    from textual.worker_manager import WorkerManager

    from paris_tui.app.look.frames import Frame
    from paris_tui.app.play.turns import TurnFlow
    from paris_tui.app.terminal.keygate import TurnGate

    from ...core import Move, SeatView

__all__ = ["GameHost"]

W = TypeVar("W", bound="Widget")


class GameHost(Protocol):
    """What the game screen's parts use of it: its turn flow, what it shows, its
    drawing, its timers and workers (Textual's own methods, as Textual has them)."""

    flow: TurnFlow
    view: SeatView  # the view shown
    anim: float  # a tour frame's time, per unit of its weight
    ai_delay: float  # how long an AI's choice shows before it is played
    key_gate: TurnGate  # what lets a key make a move this turn

    @property
    def app(self) -> App[Any]: ...
    @property
    def is_attached(self) -> bool: ...
    @property
    def workers(self) -> WorkerManager: ...
    @property
    def paused(self) -> bool: ...

    def when_resumed(self, name: str, then: Callable[[], None]) -> None: ...
    def refresh_all(self) -> None: ...
    def show_frame(self, frame: Frame) -> None: ...
    def show_choice(self) -> None: ...
    def highlight_ai(self, index: int) -> None: ...
    def commit(self, move: Move, seat: int) -> None: ...
    def query(self, selector: type[W]) -> DOMQuery[W]: ...
    def query_one(self, selector: type[W]) -> W: ...
    def notify(
        self,
        message: str,
        *,
        title: str = "",
        severity: SeverityLevel = "information",
        timeout: float | None = None,
        markup: bool = True,
    ) -> None: ...
    def run_worker(
        self,
        work: Any,
        name: str | None = "",
        group: str = "default",
        description: str = "",
        exit_on_error: bool = True,
        start: bool = True,
        exclusive: bool = False,
        thread: bool = False,
    ) -> Worker[Any]: ...
    def set_timer(
        self,
        delay: float,
        callback: TimerCallback | None = None,
        *,
        name: str | None = None,
        pause: bool = False,
    ) -> Timer: ...
