"""The hint on the game screen (``h``): worked out in a thread worker of the screen's,
shown over the map, dropped by a move (its result is for a position that is gone)."""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING, cast

from textual.worker import Worker, WorkerState, get_current_worker

from ...ai.hint import Hint, HintCancelled, hint
from ...core import SeatView
from ..widgets.hint import HintPanel

if TYPE_CHECKING:
    from textual.dom import DOMNode

    from .game_host import GameHost

__all__ = ["HintWork"]


class HintWork:
    """The hint of the game screen ``screen``: its worker and its panel."""

    def __init__(self, screen: GameHost) -> None:
        self._screen = screen

    def toggle(self) -> None:
        """Show (or hide) the hint for the seat to move, worked out in a thread.

        The turn never waits for it; a move made meanwhile drops it (its
        result is for a position that is gone).
        """
        screen = self._screen
        seat = screen.flow.turn_seat
        panel = screen.query_one(HintPanel)
        if panel.shown:
            self.hide()
            return
        if seat is None or not screen.flow.hints_allowed:
            return
        view = screen.flow.seat_view(seat)
        if not view.my_turn:
            return
        panel.show_thinking()
        screen.run_worker(
            partial(self._work_out, view),
            thread=True,
            exclusive=True,
            group="hint",
            name=self._name(seat),
            exit_on_error=False,  # a hint that fails is no hint, never the game's end
        )

    def _name(self, seat: int) -> str:
        return f"hint-{seat}-{self._screen.flow.move_count}"

    @staticmethod
    def _work_out(view: SeatView) -> Hint | None:
        """In the worker's thread: stops early (None) once the worker is cancelled (a move)."""
        worker = get_current_worker()
        try:
            return hint(view, cancelled=lambda: worker.is_cancelled)
        except HintCancelled:
            return None

    def hide(self) -> None:
        """Hide the hint and drop one being worked out (a move, a hand-off)."""
        screen = self._screen
        screen.workers.cancel_group(cast("DOMNode", screen), "hint")  # the screen's workers
        if screen.query(HintPanel):
            screen.query_one(HintPanel).hide()

    def worker_changed(self, event: Worker.StateChanged) -> None:
        """The hint's worker succeeded (shown, if still for this position) or failed."""
        worker = event.worker
        if event.state == WorkerState.SUCCESS and isinstance(worker.result, Hint):
            self._done(worker.result, worker.name)
        elif event.state == WorkerState.ERROR:
            self.hide()

    def _done(self, result: Hint, name: str) -> None:
        """The worker ``name`` worked out ``result``: shown if still for this position."""
        screen = self._screen
        seat = screen.flow.turn_seat
        if seat is None or name != self._name(seat):
            return  # for a position that is gone
        panel = screen.query_one(HintPanel)
        if panel.shown:
            view = screen.flow.seat_view(seat)
            panel.show_hint(view.board, view.names, result)

    def redraw(self) -> None:
        """The hint again, in the current language (after the rest of the screen)."""
        screen = self._screen
        panel = screen.query_one(HintPanel)
        if panel.result is not None and screen.flow.turn_seat is not None:
            view = screen.flow.seat_view(screen.flow.turn_seat)
            panel.show_hint(view.board, view.names, panel.result)
        elif panel.shown:
            panel.show_thinking()
