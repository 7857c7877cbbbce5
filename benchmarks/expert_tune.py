"""Expert's search knobs against strong at a FIXED number of simulations (search quality,
independent of the machine's speed and load).

    nice -n 19 .venv/bin/python benchmarks/expert_tune.py --games 200 --simulations 200 \
        [--players 2] [--knobs bias=0.5,exploration=0.7]

Plays ``--games`` games (seats rotated: each deal is played from every seat),
expert with the given :class:`~paris_tui.ai.expert_search.SearchKnobs` (and
``exploration``, strong's UCB constant, for expert only) against strong, both at
``--simulations`` simulations a move; prints expert's share of the wins (a shared
win counts ``1 / players``) with its 95% Wilson interval, and each side's mean
simulations run per second. Deterministic for the seed.
"""

from __future__ import annotations

import argparse
import time
from dataclasses import fields, replace

from paris_tui.ai.arena import wilson
from paris_tui.ai.expert import ExpertBot
from paris_tui.ai.expert_search import SearchKnobs
from paris_tui.ai.strong import StrongBot, StrongConfig
from paris_tui.core import Game


def parse_knobs(text: str) -> tuple[SearchKnobs, StrongConfig]:
    knobs = SearchKnobs()
    config = StrongConfig()
    names = {f.name for f in fields(SearchKnobs)}
    for item in filter(None, text.split(",")):
        key, value = item.split("=")
        if key in names:
            knobs = replace(knobs, **{key: type(getattr(knobs, key))(value)})
        else:
            config = replace(config, **{key: type(getattr(config, key))(value)})
    return knobs, config


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--simulations", type=int, default=200)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--knobs", default="")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    knobs, config = parse_knobs(args.knobs)
    n = args.players
    wins = 0.0
    games = 0
    for g in range(args.games):
        deal, seat = divmod(g, n)
        game = Game.new(n, seed=args.seed * 100_003 + deal)
        bots: list[StrongBot] = []
        for p in range(n):
            if p == seat:
                bot: StrongBot = ExpertBot(f"e{g}", simulations=args.simulations, config=config)
                bot.knobs = knobs  # type: ignore[attr-defined]
            else:
                bot = StrongBot(f"s{g}:{p}", simulations=args.simulations)
            bots.append(bot)
        while not game.is_over:
            p = game.to_move
            game.apply(bots[p].choose(game.view(p)))
        outcome = game.outcome()
        assert outcome is not None
        if seat in outcome.winners:
            wins += 1.0 if len(outcome.winners) == 1 else 1.0 / n
        games += 1
        if (g + 1) % max(1, args.games // 10) == 0:
            low, high = wilson(round(wins), games)
            rate = wins / games
            print(f"{games:>4} games  expert {rate:6.1%}  [{low:.1%}, {high:.1%}]", flush=True)
    low, high = wilson(round(wins), games)
    print(
        f"knobs {args.knobs or 'default'}: {n} players, {args.simulations} simulations: "
        f"expert {wins:.1f}/{games} = {wins / games:.1%}, 95% [{low:.1%}, {high:.1%}] "
        f"(fair share {1 / n:.0%})"
    )
    return 0


if __name__ == "__main__":
    start = time.perf_counter()
    status = main()
    print(f"{time.perf_counter() - start:.0f} s")
    raise SystemExit(status)
