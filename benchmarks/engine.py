"""Engine speed: random complete games through paris-tui's engine vs the reference.

The reference (tests/reference/ref_engine.py) is a straightforward
list-of-strings implementation written independently from the rules; the
issue asks the engine to be at least twice as fast. Both play uniformly
random legal moves, generating the legal moves every turn.

    .venv/bin/python benchmarks/engine.py [--players 4] [--games 3000] [--repeat 3]

Prints games/s for each (best of --repeat runs, to damp machine noise) and
the ratio. A benchmark, not a test: figures depend on the machine.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from paris_tui.core import Game  # noqa: E402
from tests.reference import ref_engine  # noqa: E402


def engine_rate(players: int, games: int, seed: int) -> float:
    rng = random.Random(seed)
    start = time.perf_counter()
    for _ in range(games):
        Game.new(players, rng=rng).play_random(rng)
    return games / (time.perf_counter() - start)


def reference_rate(players: int, games: int, seed: int) -> float:
    board = ref_engine.load_board(ROOT / "paris_tui/core/data/board-classic.json")
    start = time.perf_counter()
    ref_engine.play_random_games(board, players, games, seed)
    return games / (time.perf_counter() - start)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--games", type=int, default=3000)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    ours = max(engine_rate(args.players, args.games, s) for s in range(args.repeat))
    ref = max(reference_rate(args.players, args.games, s) for s in range(args.repeat))
    print(f"{args.players} players, {args.games} games, best of {args.repeat}:")
    print(f"  paris-tui engine : {ours:9,.0f} games/s")
    print(f"  reference engine : {ref:9,.0f} games/s")
    print(f"  ratio            : {ours / ref:9.2f}x")


if __name__ == "__main__":
    main()
