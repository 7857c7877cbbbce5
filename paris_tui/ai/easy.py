"""The ``easy`` level: plausible moves, often not the best (a beginner can beat it).

It values every legal move as ``greedy`` does (:func:`~paris_tui.ai.greedy.move_values`,
from its own seat's view only), ranks them, and picks the move of rank ``k``
(0 the best) with a weight of ``1 / (k + 1) ** 2``: the best move about two
times in three with four or five moves to choose from, a good second often,
the worst rarely. So it opens businesses where they score and seldom gives
points away, which reads as a plausible player, not random moves; but it
misses the sharp moves that ``greedy`` never misses.
"""

from __future__ import annotations

from ..core import Move, SeatView
from ..core.sampling import Determinizer
from .evaluation import Evaluator
from .greedy import move_values
from .seeding import decision_rng

__all__ = ["EasyBot"]


class EasyBot:
    """Greedy's values, a rank-weighted choice; see the module docstring."""

    level = "easy"

    def __init__(self, seed: int | str) -> None:
        self.seed = seed

    def choose(self, view: SeatView) -> Move:
        rng = decision_rng(self.seed, view)
        moves = view.legal_moves
        if not moves or view.seat is None:
            raise ValueError("it is not this seat's turn: the view has no legal move")
        if len(moves) == 1:
            return moves[0]
        det = Determinizer(view)
        values = move_values(det, Evaluator(view), rng)
        ranked = sorted(values, key=lambda code: (-values[code], code))
        weights = [1.0 / (k + 1) ** 2 for k in range(len(ranked))]
        code = rng.choices(ranked, weights=weights)[0]
        move = det.base.decode(code)
        assert move in moves
        return move
