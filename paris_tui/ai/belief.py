"""What another seat's secret route probably is, judged from the moves it made.

A player whose secret route is line L gains from the special tour of L at the
game end (R7.1), so it tends to open businesses where a tour of L pays. The
belief models every other seat as a noisy greedy player: at each of its past
turns, and for each line its route may be, the greedy evaluation
(:func:`paris_tui.ai.greedy.move_values`, built from the view that seat had,
with that route) gives every legal move a margin; the seat is taken to choose
a move with probability proportional to ``exp(margin / temperature)``, mixed
with a uniform choice (``floor``) for the play the model does not explain.
Bayes' rule over its turns, from a uniform prior, gives the weight of each
line. The search then draws the other seats' routes by these weights
(:meth:`paris_tui.core.sampling.Determinizer.sample`).

Only public moves and the seat's own view are read (R8): two games that
differ only in what the seat cannot know give the same belief.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass

from ..core import Move
from ..core.sampling import Determinizer
from .evaluation import Evaluator
from .greedy import move_values

__all__ = ["BeliefConfig", "RouteBelief"]


@dataclass(frozen=True, slots=True)
class BeliefConfig:
    """Knobs of the opponent model.

    Chosen with the arena (strong against greedy, 400 two-player games, seed 1,
    1500 simulations a move, the same deals each time): without the belief
    70.8% of the games won, with temperature 0.3 and floor 0.05 73.1%, with
    temperature 0.1 and floor 0.02 74.3%. The floor is kept at 0.05, which
    costs almost nothing against greedy (the true route's weight after 20
    moves is the same to 2%) and keeps a player the model misreads from
    being pinned to one line.
    """

    temperature: float = 0.1  # points of margin that make a move e times likelier
    floor: float = 0.05  # part of each choice taken as uniformly random


class RouteBelief:
    """Weights of the other seats' possible routes; keeps what it worked out for later turns."""

    def __init__(self, config: BeliefConfig | None = None) -> None:
        self.config = config or BeliefConfig()
        # (the moves up to a turn, a line) -> (the margin of each legal move, the one played)
        self._cache: dict[tuple[tuple[Move, ...], str], tuple[list[float], int]] = {}

    def weights(self, det: Determinizer) -> dict[int, dict[str, float]]:
        """Per seat whose route is unknown, the probability of each line it may hold."""
        view = det.view
        seats = det.unknown_seats
        lines = det.unknown_lines
        if view.options.final_tours == "all-lines" or not seats or len(lines) < 2:
            return {}
        n = view.players
        out: dict[int, dict[str, float]] = {}
        for seat in seats:
            logs = dict.fromkeys(lines, 0.0)
            for index, move in enumerate(view.moves):
                if (index // n + index % n) % n != seat:  # round r starts with seat r (R3)
                    continue
                for line in lines:
                    logs[line] += self._log_likelihood(det, index, seat, line, move)
            top = max(logs.values())
            raw = {line: math.exp(v - top) for line, v in logs.items()}
            total = sum(raw.values())
            out[seat] = {line: w / total for line, w in raw.items()}
        return out

    def _log_likelihood(
        self, det: Determinizer, index: int, seat: int, line: str, move: Move
    ) -> float:
        values, played = self.margins(det, index, seat, line, move)
        cfg = self.config
        top = max(values)
        norm = sum(math.exp((v - top) / cfg.temperature) for v in values)
        p = math.exp((values[played] - top) / cfg.temperature) / norm
        return math.log((1.0 - cfg.floor) * p + cfg.floor / len(values))

    def margins(
        self, det: Determinizer, index: int, seat: int, line: str, move: Move
    ) -> tuple[list[float], int]:
        """The greedy margin of each legal move at turn ``index`` had ``seat`` held ``line``,
        and which of them is ``move``."""
        key = (det.view.moves[: index + 1], line)
        cached = self._cache.get(key)
        if cached is None:
            game = det.imagine({seat: line}, index)
            view = game.view(seat)
            values = move_values(Determinizer(view), Evaluator(view), random.Random(index))
            codes = list(values)
            cached = ([values[c] for c in codes], codes.index(game.encode(move)))
            self._cache[key] = cached
        return cached
