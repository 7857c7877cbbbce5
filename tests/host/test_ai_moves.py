"""AI seats under load: a bounded pool, a queue, a budget that shrinks (host/ai_moves.py)."""

from __future__ import annotations

import asyncio
import logging
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import pytest

from paris_tui.core import Game
from paris_tui.host.ai_moves import MIN_BUDGET, AIMoves


class TimedBot:
    """A stand-in strong AI: it keeps the budget it was given and takes a while."""

    def __init__(self, budget: float = 1.0) -> None:
        self.budget = budget
        self.simulations = None
        self.given: list[float] = []
        self.running = 0
        self.most = 0
        self._lock = threading.Lock()

    def choose(self, view: Any) -> Any:
        with self._lock:
            self.given.append(self.budget)
            self.running += 1
            self.most = max(self.most, self.running)
        time.sleep(0.05)
        with self._lock:
            self.running -= 1
        return view.legal_moves[0]


async def test_moves_wait_for_the_workers_and_share_the_budget(
    caplog: pytest.LogCaptureFixture,
) -> None:
    view = Game.new(["Ann", "Bob"], seed=1).view(0)
    bot = TimedBot()
    with ThreadPoolExecutor(max_workers=1) as pool:
        moves = AIMoves(pool, 1)
        with caplog.at_level(logging.INFO, logger="paris_tui.host.ai"):
            async with asyncio.timeout(10):
                chosen = await asyncio.gather(*(moves.choose(bot, view) for _ in range(4)))
            assert all(move in view.legal_moves for move in chosen)
            assert bot.most == 1  # one worker: one move at a time, the others queued
            # The first may start before the others are asked for; each after it gets one
            # worker's time over the moves still waiting when it starts: three, two, one.
            assert MIN_BUDGET <= bot.given[0] <= 1.0, bot.given
            assert bot.given[1:] == pytest.approx([1 / 3, 1 / 2, 1.0]), bot.given
            assert bot.budget == 1.0  # given back after each move
            assert moves.waiting == 0
            async with asyncio.timeout(10):
                await moves.choose(bot, view)  # alone again: the whole budget
        assert bot.given[-1] == 1.0
    said = [r.getMessage() for r in caplog.records]
    assert any("AI under load" in line for line in said), said
    assert any("AI load gone" in line for line in said), said


async def test_a_bot_without_a_time_budget_is_left_alone() -> None:
    view = Game.new(["Ann", "Bob"], seed=1).view(0)
    bot = TimedBot()
    bot.simulations = 200  # type: ignore[assignment] - a fixed number of simulations
    with ThreadPoolExecutor(max_workers=1) as pool:
        moves = AIMoves(pool, 1)
        async with asyncio.timeout(10):
            await asyncio.gather(*(moves.choose(bot, view) for _ in range(3)))
    assert bot.given == [1.0, 1.0, 1.0]
