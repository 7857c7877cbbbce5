"""Fit the weights of the evaluation at the horizon of expert's truncated playouts.

    nice -n 19 .venv/bin/python scripts/fit_horizon.py [--seed 37] [--games 60]
                                                        [--players 2] [--simulations 100]

Deterministic from ``--seed``: it plays ``--games`` self-play games between
expert bots at ``--simulations`` simulations a move (no clock is read), and
at the start of every round but the first it takes, for every seat, the
features of :func:`paris_tui.ai.fast_eval.value_features` (the expected
grand tours', the special tours' and the small tours' points to come) on the
game's true state (every route known, as in a sampled world). The weights
are the least-squares fit of the points a seat still made by the game's end,
less the mean of the other seats', on the same differences of the features
(no intercept: a margin of equal seats is 0). Pure Python (the 3 by 3 normal
equations). It prints the weights, each third of the game's own fit, and
the share of the variance explained, for
``benchmarks/expert_tune.py --knobs horizon=2,horizon_grand=...``. A game
takes about a second at 2 players and 100 simulations a move.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from paris_tui.ai.expert import ExpertBot  # noqa: E402
from paris_tui.ai.fast import FastGame  # noqa: E402
from paris_tui.ai.fast_eval import value_features  # noqa: E402
from paris_tui.core import Game  # noqa: E402

NAMES = ("horizon_grand", "horizon_special", "horizon_small")

Row = tuple[float, tuple[float, ...], int]  # (target, features, third of the game)


def true_state(game: Game) -> FastGame:
    """The fast engine on ``game``'s full state, its true secrets (routes, face-down order)."""
    board = game.board
    routes = [board.line_index[game.route(p)] for p in range(game.players)]
    future = [board.tile_index[t] for t in game.remaining_stack_tiles()]
    return FastGame.from_game(game, routes, future)


def self_play(players: int, seed: str, simulations: int) -> list[Row]:
    """One game's rows: per round start (but the first) and seat, the margin still made
    and the features' margins."""
    game = Game.new(players, rng=random.Random(f"{seed}:deal"))
    bots = [ExpertBot(f"{seed}:bot:{p}", simulations=simulations) for p in range(players)]
    taken: list[tuple[list[int], list[tuple[float, float, float]], int]] = []
    while not game.is_over:
        if game.round > 0 and game.move_count == game.round * players:
            state = true_state(game)
            third = min(2, 3 * game.round // game.rounds_total)
            taken.append((list(game.scores), value_features(state), third))
        game.play(bots[game.to_move].choose(game.view(game.to_move)))
    outcome = game.outcome()
    assert outcome is not None
    rows: list[Row] = []
    for scores, features, third in taken:
        still = [f - s for f, s in zip(outcome.scores, scores, strict=True)]
        for p in range(players):
            others = [q for q in range(players) if q != p]
            y = still[p] - sum(still[q] for q in others) / len(others)
            x = tuple(
                features[p][i] - sum(features[q][i] for q in others) / len(others) for i in range(3)
            )
            rows.append((y, x, third))
    return rows


def solve(a: list[list[float]], b: list[float]) -> list[float]:
    """``a x = b`` by Gaussian elimination with partial pivoting (a column of zeros: 0)."""
    n = len(b)
    m = [[*row, b[i]] for i, row in enumerate(a)]
    for col in range(n):
        pivot = max(range(col, n), key=lambda r: abs(m[r][col]))
        if abs(m[pivot][col]) < 1e-12:
            continue
        m[col], m[pivot] = m[pivot], m[col]
        for r in range(n):
            if r != col and m[r][col]:
                f = m[r][col] / m[col][col]
                m[r] = [x - f * y for x, y in zip(m[r], m[col], strict=True)]
    return [m[i][n] / m[i][i] if abs(m[i][i]) >= 1e-12 else 0.0 for i in range(n)]


def explained(rows: Sequence[Row], w: Sequence[float]) -> float:
    """The share of the target's variance (about 0) that weights ``w`` explain."""
    total = sum(r[0] ** 2 for r in rows)
    resid = sum((r[0] - sum(w[i] * r[1][i] for i in range(len(w)))) ** 2 for r in rows)
    return 1.0 - resid / total if total else 0.0


def least_squares(rows: Sequence[Row]) -> tuple[list[float], float]:
    """The weights and the share of the target's variance they explain."""
    k = 3
    ata = [[sum(r[1][i] * r[1][j] for r in rows) for j in range(k)] for i in range(k)]
    atb = [sum(r[1][i] * r[0] for r in rows) for i in range(k)]
    w = solve(ata, atb)
    return w, explained(rows, w)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--seed", type=int, default=37)
    parser.add_argument("--games", type=int, default=60)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--simulations", type=int, default=100)
    args = parser.parse_args(argv)
    rows: list[Row] = []
    start = time.perf_counter()
    for g in range(args.games):
        rows += self_play(args.players, f"{args.seed}:{args.players}:{g}", args.simulations)
        if (g + 1) % max(1, args.games // 5) == 0:
            print(
                f"{g + 1} games, {len(rows)} rows, {time.perf_counter() - start:.0f} s", flush=True
            )
    weights, share = least_squares(rows)
    for third in range(3):
        part = [r for r in rows if r[2] == third]
        if part:
            w, e = least_squares(part)
            print(f"third {third + 1}: " + ", ".join(f"{v:.3f}" for v in w) + f"  R2 {e:.3f}")
    print(f"all: R2 {share:.3f}, {len(rows)} rows")
    for label, hand in (("hand (1, 1, 0)", (1.0, 1.0, 0.0)), ("Evaluator's", (1.0, 1.0, 0.6))):
        print(f"{label} weights: R2 {explained(rows, hand):.3f}")
    print("--knobs " + ",".join(f"{n}={v:.3f}" for n, v in zip(NAMES, weights, strict=True)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
