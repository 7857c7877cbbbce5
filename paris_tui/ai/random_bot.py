"""The ``random`` level: a uniformly random legal move (the benchmark baseline)."""

from __future__ import annotations

import random

from ..core import Move, SeatView
from .seeding import decision_rng

__all__ = ["RandomBot"]


class RandomBot:
    """Picks uniformly among ``view.legal_moves`` (each evict choice counts as a move)."""

    level = "random"

    def __init__(self, seed: int | str) -> None:
        self.seed = seed
        self.rng = random.Random(seed)

    def choose(self, view: SeatView) -> Move:
        self.rng = decision_rng(self.seed, view)
        moves = view.legal_moves
        if not moves:
            raise ValueError("it is not this seat's turn: the view has no legal move")
        return moves[self.rng.randrange(len(moves))]
