"""A local AI seat's turn on the game screen: its move worked out in a thread worker of
the screen's, shown (highlighted) for the screen's ``ai_delay``, then played; while the
game is paused (too small a terminal) the move waits and goes on afterwards."""

from __future__ import annotations

from functools import partial
from typing import TYPE_CHECKING

from textual.timer import Timer
from textual.worker import Worker, WorkerState

from paris_tui.app.look.describe import printable
from paris_tui.app.play.turns import LocalBots

from ...core import Move, SeatView
from ...i18n import _

if TYPE_CHECKING:
    from paris_tui.app.local.session import Bot

    from .game_host import GameHost

__all__ = ["LocalAi"]


class LocalAi:
    """The local AI seats' moves on the game screen ``screen`` (its worker group "ai")."""

    def __init__(self, screen: GameHost) -> None:
        self._screen = screen
        self.timer: Timer | None = None  # the choice shown, until it is played

    def start(self, seat: int, bots: LocalBots) -> None:
        """``seat`` works out its move in a thread (the turn waits for it)."""
        screen = self._screen
        screen.flow.ai_thinks(seat)
        screen.refresh_all()
        try:
            bot = bots.local_bot(seat)
            if bot is None:
                raise ValueError(f"seat {seat} is not an AI")
        except (ImportError, ValueError) as exc:
            message = _("AI unavailable: {problem}").format(problem=exc)
            screen.notify(printable(message), severity="error", markup=False)
            screen.flow.thinking = None
            return
        view = screen.flow.table.view(seat)
        screen.run_worker(
            partial(self._think, bot, view),
            thread=True,
            exclusive=True,
            group="ai",
            name=screen.flow.ai_name(seat),
        )

    @staticmethod
    def _think(bot: Bot, view: SeatView) -> Move:
        return bot.choose(view)

    def worker_changed(self, event: Worker.StateChanged) -> None:
        """The AI's worker succeeded (its move) or failed (then its first legal move)."""
        worker = event.worker
        screen = self._screen
        if event.state == WorkerState.SUCCESS:
            move = worker.result
            assert isinstance(move, Move)
            self._chose(move, worker.name)
        elif event.state == WorkerState.ERROR:
            seat = screen.flow.thinking
            screen.notify(
                printable(
                    _("The AI failed ({problem}); it plays its first legal move").format(
                        problem=worker.error
                    )
                ),
                markup=False,
            )
            if seat is not None:
                self._chose(screen.flow.table.view(seat).legal_moves[0], worker.name)

    def _chose(self, move: Move, name: str) -> None:
        screen = self._screen
        index = screen.flow.ai_chose(move, name)
        if index is None:
            return  # a stale answer
        screen.highlight_ai(index)
        screen.refresh_all()
        self._schedule(move, screen.flow.move_count)

    def _schedule(self, move: Move, count: int) -> None:
        """Play the AI's choice after showing it for ``ai_delay`` (once not paused)."""
        screen = self._screen
        if screen.paused:
            screen.when_resumed("ai", self.restart)
        elif screen.ai_delay > 0:
            self.timer = screen.set_timer(screen.ai_delay, partial(self._play, move, count))
        else:
            self._play(move, count)

    def _play(self, move: Move, count: int) -> None:
        screen = self._screen
        self.timer = None
        if not screen.flow.ai_due(count):
            return
        if screen.paused:
            screen.when_resumed("ai", self.restart)
            return
        seat = screen.flow.public.to_move
        if seat is not None:
            screen.commit(move, seat)

    def pause(self) -> None:
        """The game pauses: the choice shown waits, to be played after the pause."""
        if self.timer is not None:
            self.timer.stop()
            self.timer = None
            self._screen.when_resumed("ai", self.restart)

    def restart(self) -> None:
        move = self._screen.flow.ai_choice
        if move is not None:
            self._schedule(move, self._screen.flow.move_count)
