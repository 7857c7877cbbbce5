"""Expert's search knobs against strong at a FIXED number of simulations (search quality,
independent of the machine's speed and load), or at equal time.

    nice -n 19 .venv/bin/python benchmarks/expert_tune.py --games 200 --simulations 200 \
        [--players 2] [--knobs bias=0.5,exploration=0.7] [--budget 0.1] \
        [--against expert[:leftover=False]]

Plays ``--games`` games (seats rotated: each deal is played from every seat),
expert with the given :class:`~paris_tui.ai.expert_search.SearchKnobs` (and
:class:`~paris_tui.ai.strong.StrongConfig`'s fields such as ``exploration``, for
expert only) against strong, both at ``--simulations`` simulations a move;
prints expert's share of the wins (a shared win counts ``1 / players``) with its
95% Wilson interval. Deterministic for the seed.

``--budget SECONDS`` plays both sides by the clock instead (each move
``SECONDS``; both bots of a game run in this one process, alternately, so the
machine's load falls on both alike) and prints each side's simulations a
second and p95 move time (``--move-time`` is the same option; ``--against-budget
SECONDS`` gives the other side another move time, to see what time is worth). ``--against
expert`` plays the variant against expert with its defaults (``expert:KNOBS``
with these knobs) instead of strong. Expert starts from its knobs for the player
count (:func:`~paris_tui.ai.expert_search.knobs_for`); ``--knobs`` changes some
of them (``belief=false,reward=rank,exploration=1.0,margin_share=0``). Four
players at equal time, for example:

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
from paris_tui.core import Game, Move, SeatView


def convert(old: object, value: str) -> object:
    """``value`` as a value of ``old``'s type (a knob left unset, None, takes a number)."""
    if isinstance(old, bool):
        if value.lower() not in ("true", "false"):
            raise ValueError(f"{value!r}: true or false")
        return value.lower() == "true"
    if old is None:
        return float(value)
    return type(old)(value)


def parse_knobs(text: str, base: SearchKnobs | None = None) -> tuple[SearchKnobs, StrongConfig]:
    knobs = base or SearchKnobs()
    config = StrongConfig()
    names = {f.name for f in fields(SearchKnobs)}
    for item in filter(None, text.split(",")):
        key, value = item.split("=")
        if key in names:
            knobs = replace(knobs, **{key: convert(getattr(knobs, key), value)})
        else:
            config = replace(config, **{key: convert(getattr(config, key), value)})
    return knobs, config


class Timed:
    """A bot whose move times and simulations are kept."""

    def __init__(self, bot: StrongBot) -> None:
        self.bot = bot

    def choose(self, view: SeatView, times: list[float], sims: list[int]) -> Move:
        start = time.perf_counter()
        move = self.bot.choose(view)
        times.append(time.perf_counter() - start)
        sims.append(self.bot.last_simulations)
        return move


def p95(times: list[float]) -> float:
    ordered = sorted(times)
    return ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))] if ordered else 0.0


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--games", type=int, default=200)
    parser.add_argument("--simulations", type=int, default=200)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--knobs", default="")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--budget", "--move-time", type=float, default=None, metavar="SECONDS")
    parser.add_argument("--against", default="strong")
    parser.add_argument(
        "--against-budget",
        type=float,
        default=None,
        metavar="SECONDS",
        help="the other side's move time, when it differs from --budget",
    )
    args = parser.parse_args(argv)
    knobs, config = parse_knobs(args.knobs, knobs_for(args.players))
    against = args.against.split(":", 1)
    if against[0] not in ("strong", "expert"):
        parser.error("--against: strong or expert[:KNOBS]")
    other_knobs, other_config = parse_knobs(
        against[1] if len(against) > 1 else "", knobs_for(args.players)
    )
    sims = None if args.budget is not None else args.simulations
    budget = args.budget if args.budget is not None else 1.0
    if args.against_budget is not None and args.budget is None:
        parser.error("--against-budget needs --budget")
    other_budget = args.against_budget if args.against_budget is not None else budget
    times: tuple[list[float], list[float]] = ([], [])
    counts: tuple[list[int], list[int]] = ([], [])
    n = args.players
    wins = 0.0
    games = 0
    for g in range(args.games):
        deal, seat = divmod(g, n)
        game = Game.new(n, seed=args.seed * 100_003 + deal)
        bots: list[Timed] = []
        for p in range(n):
            if p == seat:
                bot: StrongBot = ExpertBot(
                    f"e{g}", budget=budget, simulations=sims, config=config, knobs=knobs
                )
            elif against[0] == "expert":
                bot = ExpertBot(
                    f"s{g}:{p}",
                    budget=other_budget,
                    simulations=sims,
                    config=other_config,
                    knobs=other_knobs,
                )
            else:
                bot = StrongBot(f"s{g}:{p}", budget=other_budget, simulations=sims)
            bots.append(Timed(bot))
        while not game.is_over:
            p = game.to_move
            side = 0 if p == seat else 1
            game.apply(bots[p].choose(game.view(p), times[side], counts[side]))
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
    pace = f"{args.budget} s a move" if args.budget is not None else f"{sims} simulations"
    if args.against_budget is not None:
        pace += f" ({args.against}: {other_budget} s)"
    print(
        f"knobs {args.knobs or 'default'} against {args.against}: {n} players, {pace}: "
        f"expert {wins:.1f}/{games} = {wins / games:.1%}, 95% [{low:.1%}, {high:.1%}] "
        f"(fair share {1 / n:.0%})"
    )
    if args.budget is not None:
        for side, name in enumerate(("variant", args.against)):
            rate = sum(counts[side]) / max(1e-9, sum(times[side]))
            print(f"  {name}: {rate:,.0f} simulations/s, p95 move {1000 * p95(times[side]):.0f} ms")
    return 0


if __name__ == "__main__":
    start = time.perf_counter()
    status = main()
    print(f"{time.perf_counter() - start:.0f} s")
    raise SystemExit(status)
