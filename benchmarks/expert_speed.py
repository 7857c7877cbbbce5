"""Simulations per second: the expert's search (its own engine) against strong's.

    nice -n 19 .venv/bin/python benchmarks/expert_speed.py [--seconds 0.5] [--positions 6]

For 2 and 4 players, at positions along random games (early, middle, late),
each bot searches the same view for ``--seconds`` (a timed budget) and the
script prints the simulations each ran per second and their ratio, then the
mean over the positions. A benchmark, not a test: the figures depend on the
machine and its load (run it alone, on an otherwise idle core).
"""

from __future__ import annotations

import argparse
import random
import statistics

from paris_tui.ai.expert import ExpertBot
from paris_tui.ai.strong import StrongBot
from paris_tui.core import Game


def positions(players: int, count: int, seed: int) -> list[Game]:
    out = []
    for i in range(count):
        rng = random.Random(f"{seed}:{players}:{i}")
        game = Game.new(players, seed=rng.randrange(10**9))
        steps = (game.total_moves - 2) * i // max(1, count)
        for _ in range(steps):
            codes = game.legal_codes()
            game.apply_code(codes[rng.randrange(len(codes))])
        out.append(game)
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--seconds", type=float, default=0.5, help="budget per search")
    parser.add_argument("--positions", type=int, default=6, help="positions per player count")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    for players in (2, 4):
        ratios = []
        print(f"{players} players: move  strong sims/s  expert sims/s  ratio")
        for game in positions(players, args.positions, args.seed):
            view = game.view(game.to_move)
            rates = []
            for cls in (StrongBot, ExpertBot):
                bot = cls(1, budget=args.seconds)
                bot.config = type(bot.config)(safety=0.0)
                bot.choose(view)  # the belief's cache warm, as in a game
                bot.choose(view)
                rates.append(bot.last_simulations / args.seconds)
            ratios.append(rates[1] / rates[0])
            print(f"{game.move_count:>15}  {rates[0]:>13.0f}  {rates[1]:>13.0f}  {ratios[-1]:5.2f}")
        print(f"{players} players: mean ratio {statistics.fmean(ratios):.2f}\n")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
