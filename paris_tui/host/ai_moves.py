"""AI seats under load: a bounded pool of workers, a queue, and a budget that shrinks.

A strong AI thinks about a second of CPU a move. A host with many tables of
AI seats must not starve its doors (the SSH and browser logins, every
player's moves) with them: :class:`AIMoves` runs the moves on the host's
bounded AI pool (``ai_threads`` workers; the rest wait in its queue, first
come first served) and, when more moves wait than there are workers, gives
each a share of the time instead of the full budget: ``budget * workers /
moves waiting``, at least :data:`MIN_BUDGET`. The log says when the budget
shrinks and when it is whole again. A bot with a fixed number of
simulations, or without a time budget (random, easy, greedy), is left as it is.
The full budget is the seat's own (``ai:expert@0.25``), else the host's
``--budget`` (:attr:`AIMoves.budget`), else the level's default of one second.
"""

from __future__ import annotations

import asyncio
import logging
import threading
from concurrent.futures import Executor
from typing import Any

from ..core import Move, SeatView

__all__ = ["MIN_BUDGET", "AIMoves"]

log = logging.getLogger("paris_tui.host.ai")

MIN_BUDGET = 0.1
"""Seconds a strong AI gets for a move however many moves wait."""


class AIMoves:
    """The host's AI moves: ``workers`` at a time on ``pool``, the budget shared out."""

    def __init__(self, pool: Executor, workers: int, budget: float | None = None) -> None:
        self.pool = pool
        self.workers = max(1, workers)
        # The host's --budget: seconds a move of a searching AI without its own (None: 1 s).
        self.budget = budget
        self.waiting = 0  # moves asked for and not answered yet (running or queued)
        self._lock = threading.Lock()
        self._shrunk = False

    def share(self, budget: float) -> float:
        """The time a move gets now, of a full ``budget``."""
        with self._lock:
            waiting = self.waiting
        if waiting <= self.workers:
            return budget
        return max(MIN_BUDGET, budget * self.workers / waiting)

    async def choose(self, bot: Any, view: SeatView) -> Move:
        """``bot``'s move for ``view``, on the pool (waiting its turn there)."""
        loop = asyncio.get_running_loop()
        counted = [True]  # still in ``waiting``; whoever ends the move first takes it out
        with self._lock:
            self.waiting += 1
        try:
            move: Move = await loop.run_in_executor(self.pool, self._run, bot, view, counted)
            return move
        finally:
            self._done(counted)  # a move cancelled while queued never ran ``_run``

    def _done(self, counted: list[bool]) -> None:
        with self._lock:
            if counted[0]:
                counted[0] = False
                self.waiting -= 1

    def _run(self, bot: Any, view: SeatView, counted: list[bool]) -> Move:
        """On a worker: the move, with the budget of this moment.

        The move leaves the count here, on the worker, as it ends: the next
        queued move may start before the event loop hears of this one, and
        must not count it.
        """
        try:
            return self._think(bot, view)
        finally:
            self._done(counted)

    def _think(self, bot: Any, view: SeatView) -> Move:
        full = getattr(bot, "budget", None)
        if not isinstance(full, int | float) or getattr(bot, "simulations", None) is not None:
            move: Move = bot.choose(view)
            return move
        budget = self.share(float(full))
        self._say(budget, float(full))
        bot.budget = budget
        try:
            move = bot.choose(view)
        finally:
            bot.budget = full
        return move

    def _say(self, budget: float, full: float) -> None:
        shrunk = budget < full
        with self._lock:
            if shrunk == self._shrunk:
                return
            self._shrunk = shrunk
            waiting = self.waiting
        if shrunk:
            log.warning(
                "AI under load: %d moves waiting for %d workers; a strong AI thinks "
                "%.2f s a move instead of %.2f s",
                waiting,
                self.workers,
                budget,
                full,
            )
        else:
            log.info("AI load gone: a strong AI thinks %.2f s a move again", full)
