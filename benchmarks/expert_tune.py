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

``--move-time SECONDS`` plays by the clock instead (both sides that many seconds a
move, run alternately in one process so that load slows both alike) and prints
expert's p95 move time too. Expert starts from its knobs for the player count
(:func:`~paris_tui.ai.expert_search.knobs_for`), ``--knobs`` changes some of them
(``belief=false,reward=rank,exploration=1.0,margin_share=0``). For example, four
players at equal time:

    nice -n 19 .venv/bin/python benchmarks/expert_tune.py --players 4 --games 160 \
        --move-time 0.1 [--knobs belief=true]
"""

from __future__ import annotations

import argparse
import time
from dataclasses import fields, replace

from paris_tui.ai.arena import wilson
from paris_tui.ai.expert import ExpertBot
from paris_tui.ai.expert_search import SearchKnobs, knobs_for
from paris_tui.ai.strong import StrongBot, StrongConfig
from paris_tui.core import Game


def parse_knobs(text: str, base: SearchKnobs | None = None) -> tuple[SearchKnobs, StrongConfig]:
    knobs = base or SearchKnobs()
    config = StrongConfig()
    names = {f.name for f in fields(SearchKnobs)}
    for item in filter(None, text.split(",")):
        key, value = item.split("=")
        if key in names:
            knobs = replace(knobs, **{key: knob_value(getattr(knobs, key), value)})
        else:
            config = replace(config, **{key: knob_value(getattr(config, key), value)})
    return knobs, config


def knob_value(old: object, text: str) -> object:
    """``text`` as a value of ``old``'s type (a knob left unset, None, takes a number)."""
    if isinstance(old, bool):
        if text.lower() not in ("true", "false"):
            raise ValueError(f"{text!r} is not true or false")
        return text.lower() == "true"
    if old is None:
        return float(text)
    return type(old)(text)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--simulations", type=int, default=200)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--knobs", default="")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--move-time", type=float, default=None, metavar="SECONDS")
    args = parser.parse_args(argv)
    n = args.players
    knobs, config = parse_knobs(args.knobs, knobs_for(n))
    timed = args.move_time is not None
    sims = None if timed else args.simulations
    budget = args.move_time if timed else 1.0
    expert_times: list[float] = []
    wins = 0.0
    games = 0
    for g in range(args.games):
        deal, seat = divmod(g, n)
        game = Game.new(n, seed=args.seed * 100_003 + deal)
        bots: list[StrongBot] = []
        for p in range(n):
            if p == seat:
                bot: StrongBot = ExpertBot(
                    f"e{g}", budget=budget, simulations=sims, config=config, knobs=knobs
                )
            else:
                bot = StrongBot(f"s{g}:{p}", budget=budget, simulations=sims)
            bots.append(bot)
        while not game.is_over:
            p = game.to_move
            view = game.view(p)
            started = time.perf_counter()
            move = bots[p].choose(view)
            if p == seat and len(view.legal_moves) > 1:
                expert_times.append(time.perf_counter() - started)
            game.apply(move)
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
    how = f"{args.move_time} s a move" if timed else f"{args.simulations} simulations"
    if timed and expert_times:
        expert_times.sort()
        p95 = expert_times[min(len(expert_times) - 1, int(0.95 * len(expert_times)))]
        how += f" (expert's p95 move {p95 * 1000:.0f} ms)"
    print(
        f"knobs {args.knobs or 'default'}: {n} players, {how}: "
        f"expert {wins:.1f}/{games} = {wins / games:.1%}, 95% [{low:.1%}, {high:.1%}] "
        f"(fair share {1 / n:.0%})"
    )
    return 0


if __name__ == "__main__":
    start = time.perf_counter()
    status = main()
    print(f"{time.perf_counter() - start:.0f} s")
    raise SystemExit(status)
