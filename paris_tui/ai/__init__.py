"""AI opponents: ``random``, ``easy``, ``greedy``, ``strong`` and ``expert``, seeing only their
seat's view.

>>> from paris_tui.core import Game
>>> game = Game.new(["Ann", "Bot"], seed=1)
>>> bot = make_ai("greedy", seed=1)
>>> bot.choose(game.view(0)) in game.legal_moves()
True

Every bot is fair by construction: :meth:`Bot.choose` receives a
:class:`~paris_tui.core.SeatView`, which holds nothing the seat may not know
(R8). Every bot is deterministic for its seed: it owns one
``random.Random(seed)`` and never reads the global generator or the clock
(except the searching levels' time budget, which ``simulations`` replaces).
"""

from __future__ import annotations

from typing import Protocol

from ..core import Move, SeatView

__all__ = ["LEVELS", "SEARCHING", "Bot", "make_ai"]

LEVELS: tuple[str, ...] = ("random", "easy", "greedy", "strong", "expert")
SEARCHING: tuple[str, ...] = ("strong", "expert")  # the levels a time budget applies to
DEFAULT_BUDGET = 1.0  # seconds per move for the searching levels


class Bot(Protocol):
    """An AI player. ``choose`` returns one of ``view.legal_moves`` (``view.my_turn`` is true)."""

    level: str

    def choose(self, view: SeatView) -> Move: ...


def make_ai(
    level: str,
    *,
    seed: int | str,
    budget: float | None = None,
    simulations: int | None = None,
) -> Bot:
    """A bot of the given level, deterministic for ``seed``.

    ``strong`` and ``expert`` think ``budget`` seconds per move (default 1.0); with
    ``simulations`` it runs exactly that many simulations instead of watching
    the clock (deterministic). The other levels ignore both.

    Raises ``ValueError`` for an unknown level or a non-positive budget or
    simulation count.
    """
    if level not in LEVELS:
        raise ValueError(f"unknown AI level {level!r} (choose {', '.join(LEVELS)})")
    if budget is not None and not budget > 0:
        raise ValueError(f"the time budget must be positive, not {budget}")
    if simulations is not None and simulations < 1:
        raise ValueError(f"the number of simulations must be at least 1, not {simulations}")
    if level == "random":
        from .random_bot import RandomBot

        return RandomBot(seed)
    if level == "easy":
        from .easy import EasyBot

        return EasyBot(seed)
    if level == "greedy":
        from .greedy import GreedyBot

        return GreedyBot(seed)
    if level == "expert":
        from .expert import ExpertBot

        return ExpertBot(
            seed, budget=DEFAULT_BUDGET if budget is None else budget, simulations=simulations
        )
    from .strong import StrongBot

    return StrongBot(
        seed, budget=DEFAULT_BUDGET if budget is None else budget, simulations=simulations
    )
