"""Review time per game: ``paris_tui.ai.review.review`` over whole recorded games.

    .venv/bin/python benchmarks/review.py [--games 3] [--players 2] [--simulations N] [--seed 1]

Plays ``--games`` complete games (greedy AIs at every seat, seeded deals), then
times the review of every move of each game, one at a time on one core, at
the given simulations per move (default: the review's own default, as
``paris-tui review`` and the review screen use). Prints the time per game and
per move. The review screen reviews only the human seats' moves: a human
against AIs costs about 1/players of the time per game. A benchmark, not a
test: figures depend on the machine and its load.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from paris_tui.ai import make_ai  # noqa: E402
from paris_tui.ai.review import DEFAULT_SIMULATIONS, review  # noqa: E402
from paris_tui.core import Game  # noqa: E402
from paris_tui.core.record import Player, Record  # noqa: E402


def played(players: int, seed: int) -> Record:
    bots = [make_ai("greedy", seed=seed * 10 + k) for k in range(players)]
    game = Game.new(players, seed=seed)
    while not game.is_over:
        seat = game.to_move
        game.play(bots[seat].choose(game.view(seat)))
    return Record.from_game(game, tuple(Player(f"P{k}") for k in range(players)))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--simulations", type=int, default=DEFAULT_SIMULATIONS)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    per_game: list[float] = []
    moves = 0
    for k in range(args.games):
        record = played(args.players, args.seed + k)
        start = time.perf_counter()
        review(record, seed=k, simulations=args.simulations)
        per_game.append(time.perf_counter() - start)
        moves += len(record.moves)
    total = sum(per_game)
    print(
        f"{args.games} games of {args.players} players, {moves} moves, "
        f"{args.simulations} simulations per move:"
    )
    print(f"  per game  mean {statistics.mean(per_game):.1f} s, worst {max(per_game):.1f} s")
    print(f"  per move  {total / moves * 1000:.0f} ms")


if __name__ == "__main__":
    main()
