"""The ``greedy`` level: a one-move look-ahead with a static evaluation.

For each legal move (every evict choice included) the bot makes the move on
the public position and evaluates the result with
:class:`~paris_tui.ai.evaluation.Evaluator`:

* when the move ends the round, the left-over tile's small tour and any
  grand tour it triggers are scored by the engine, then the position is
  evaluated;
* otherwise every tile still face up may become the left-over tile: the bot
  averages over them their small tour, the grand tour each would trigger
  from the discard area, and the position after it is discarded;
* when the move ends the game, the hidden route markers decide the special
  tours: the bot averages the final result over sampled deals consistent
  with its view.

It picks the move with the best margin over the best other seat; ties are
broken by its random generator.
"""

from __future__ import annotations

import random

from ..core import Game, Move, SeatView
from ..core.sampling import Determinizer
from .evaluation import Evaluator, Weights, unseen_kind_counts
from .seeding import decision_rng

__all__ = ["GreedyBot", "margin"]

FINAL_SAMPLES = 24  # sampled deals averaged for a move that ends the game


def margin(values: list[float], seat: int) -> float:
    """How far ``seat`` is ahead of the best other seat."""
    best = max(v for p, v in enumerate(values) if p != seat)
    return values[seat] - best


class GreedyBot:
    """One-move look-ahead; see the module docstring."""

    level = "greedy"

    def __init__(self, seed: int | str, weights: Weights | None = None) -> None:
        self.seed = seed
        self.rng = random.Random(seed)
        self.weights = weights or Weights()

    def choose(self, view: SeatView) -> Move:
        self.rng = decision_rng(self.seed, view)
        moves = view.legal_moves
        if not moves or view.seat is None:
            raise ValueError("it is not this seat's turn: the view has no legal move")
        if len(moves) == 1:
            return moves[0]
        det = Determinizer(view)
        scores = move_values(det, Evaluator(view, self.weights), self.rng)
        best = max(scores.values())
        top = [code for code, v in scores.items() if v >= best - 1e-9]
        code = top[self.rng.randrange(len(top))] if len(top) > 1 else top[0]
        move = det.base.decode(code)
        assert move in moves
        return move


def move_values(det: Determinizer, evaluator: Evaluator, rng: random.Random) -> dict[int, float]:
    """The evaluated margin of every legal move (by move code) of the view's seat."""
    base = det.base
    seat = det.view.seat
    assert seat is not None
    codes = base.legal_codes()
    out: dict[int, float] = {}
    finals: list[Game] | None = None
    for code in codes:
        game = base.copy()
        game.apply_code(code)
        if game.is_over:
            if finals is None:
                finals = [det.sample(rng) for _ in range(FINAL_SAMPLES)]
            out[code] = _final_value(finals, code, seat, evaluator)
        elif game.round != base.round:
            values = evaluator.values(
                game,
                rounds=game.stacks_left() + 1,
                unseen_kinds=unseen_kind_counts(game, include_face_up=True),
            )
            out[code] = margin(values, seat)
        else:
            out[code] = _leftover_average(game, seat, evaluator)
    return out


def _leftover_average(game: Game, seat: int, evaluator: Evaluator) -> float:
    """The mean margin over the tiles that may be left over this round."""
    board = game.board
    rounds = game.stacks_left()
    unseen = unseen_kind_counts(game, include_face_up=False)
    pending = evaluator.pending(game)
    cache: dict[int, float] = {}
    total = 0.0
    face_up = [board.tile_index[t] for t in game.face_up]
    for tile in face_up:
        if tile not in cache:
            now = game.small_tour_points(tile)
            line = board.tile_line[tile]
            after = pending[:]
            if pending[line]:
                tour = game.tour_points(line)
                now = [a + b for a, b in zip(now, tour, strict=True)]
                after[line] = 0
            else:
                after[line] = 1
            values = evaluator.values(game, rounds=rounds, unseen_kinds=unseen, pending=after)
            cache[tile] = margin([v + p for v, p in zip(values, now, strict=True)], seat)
        total += cache[tile]
    return total / len(face_up)


def _final_value(finals: list[Game], code: int, seat: int, evaluator: Evaluator) -> float:
    """The mean final margin of a game-ending move over sampled deals."""
    tie = evaluator.weights.tie
    total = 0.0
    for sample in finals:
        game = sample.copy()
        game.apply_code(code)
        outcome = game.outcome()
        assert outcome is not None
        values = [s - tie * b for s, b in zip(outcome.scores, outcome.on_board, strict=True)]
        total += margin(values, seat)
    return total / len(finals)
