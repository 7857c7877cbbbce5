"""Hint latency: how long ``paris_tui.ai.hint.hint`` takes at its default budget.

    .venv/bin/python benchmarks/hint.py [--positions 60] [--simulations N] [--seed 1]

Draws positions of 2-, 3- and 4-player games at every stage (random moves
from a seeded deal; early positions, where playouts are longest, included)
and times one hint for the player to move in each, one at a time on one
core. Prints p50, p95 and the worst time. The issue asks p95 under 1 s at
the default budget. A benchmark, not a test: figures depend on the machine
and its load.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from paris_tui.ai.hint import DEFAULT_SIMULATIONS, hint  # noqa: E402
from paris_tui.core import Game  # noqa: E402


def positions(count: int, seed: int) -> list[Game]:
    rng = random.Random(seed)
    out: list[Game] = []
    for i in range(count):
        game = Game.new(2 + i % 3, rng=rng)
        # Every stage of the game, the first move included.
        steps = (i * 7) % game.total_moves
        for _ in range(steps):
            codes = game.legal_codes()
            game.apply_code(codes[rng.randrange(len(codes))])
        out.append(game)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--positions", type=int, default=60)
    parser.add_argument("--simulations", type=int, default=DEFAULT_SIMULATIONS)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    times: list[float] = []
    for k, game in enumerate(positions(args.positions, args.seed)):
        view = game.view(game.to_move)
        start = time.perf_counter()
        hint(view, seed=k, simulations=args.simulations)
        times.append(time.perf_counter() - start)
    times.sort()
    p95 = times[min(len(times) - 1, round(0.95 * (len(times) - 1)))]
    print(f"{len(times)} positions (2-4 players, every stage), {args.simulations} simulations:")
    print(f"  p50   {statistics.median(times):.3f} s")
    print(f"  p95   {p95:.3f} s")
    print(f"  worst {times[-1]:.3f} s")


if __name__ == "__main__":
    main()
