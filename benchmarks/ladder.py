"""The ladder of AI levels: each level against the one below, in rotated 2-player games.

    .venv/bin/python benchmarks/ladder.py [--games 400] [--jobs 2] [--seed 11] [--readme]

For each step (easy over random, greedy over easy, strong over greedy) it plays
``--games`` two-player arena games (seats rotated, each deal played from both
seats) and prints, per step: the upper level's wins (a shared win counts one
half), its win rate with a 95% Wilson interval, whether the step is significant
at 95% (the interval lies above 50%), the Elo difference with its interval
(400 log10(p / (1 - p)), with half a game added to each side so that a clean
sweep stays finite; the interval from the Wilson interval's ends), and the
mean margin (upper level's score minus lower level's). It then prints each
level's Elo relative to random (the sum of the steps).

``--readme`` also writes the table into README.md between the
``<!-- ladder -->`` and ``<!-- /ladder -->`` lines. The strong level plays at
its default budget (1 s a move) unless ``--budget`` or ``--simulations`` is
given; the table says which. A benchmark, not a test: the strong level's
strength depends on the machine's speed and load.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from paris_tui.ai.arena import ArenaResult, run_arena, wilson  # noqa: E402

STEPS = (("easy", "random"), ("greedy", "easy"), ("strong", "greedy"))
BEGIN, END = "<!-- ladder -->", "<!-- /ladder -->"


def elo(p: float) -> float:
    """The Elo difference of a win rate."""
    p = min(max(p, 1e-6), 1 - 1e-6)
    return 400.0 * math.log10(p / (1.0 - p))


@dataclass(frozen=True)
class Step:
    upper: str
    lower: str
    games: int
    wins: float  # the upper level's, a shared win counting one half
    low: float  # 95% interval of the win rate
    high: float
    margin: float  # the upper level's mean score minus the lower level's
    seconds: float

    @property
    def rate(self) -> float:
        return self.wins / self.games

    @property
    def elo(self) -> float:
        """Elo from the win rate with half a game added to each side (finite for a sweep)."""
        return elo((self.wins + 0.5) / (self.games + 1))

    @property
    def significant(self) -> bool:
        return self.low > 0.5

    def to_json(self) -> dict[str, object]:
        return {
            "upper": self.upper,
            "lower": self.lower,
            "games": self.games,
            "wins": self.wins,
            "rate": round(self.rate, 4),
            "interval": [round(self.low, 4), round(self.high, 4)],
            "significant": self.significant,
            "elo": round(self.elo, 1),
            "elo_interval": [round(elo(self.low), 1), round(elo(self.high), 1)],
            "margin": round(self.margin, 2),
            "seconds": round(self.seconds, 1),
        }


def play_step(
    upper: str, lower: str, games: int, seed: int, jobs: int, budget: float | None, sims: int | None
) -> Step:
    started = time.perf_counter()
    result: ArenaResult = run_arena(
        [upper, lower], games=games, seed=seed, jobs=jobs, budget=budget, simulations=sims
    )
    wins = result.wins[0] + result.shared / 2
    # Wilson's interval on whole wins: a shared game counts as half a win and half a loss.
    low, high = wilson(round(wins), games)
    margin = result.mean_score[0] - result.mean_score[1]
    return Step(upper, lower, games, wins, low, high, margin, time.perf_counter() - started)


def _upper(high: float) -> str:
    return "∞" if high >= 1.0 else f"{elo(high):+.0f}"


def table(steps: list[Step], how: str) -> str:
    lines = [
        f"Rotated 2-player games ({how}); 95% intervals.",
        "",
        "| step | games | upper wins | win rate (95% interval) | significant | Elo (interval) "
        "| mean margin |",
        "| --- | --- | --- | --- | --- | --- | --- |",
    ]
    for s in steps:
        lines.append(
            f"| {s.upper} over {s.lower} | {s.games} | {s.wins:g} "
            f"| {s.rate:.1%} ({s.low:.1%}-{s.high:.1%}) | {'yes' if s.significant else 'no'} "
            f"| {s.elo:+.0f} ({elo(s.low):+.0f} to {_upper(s.high)}) | {s.margin:+.1f} |"
        )
    total = 0.0
    ladder = ["random 0"]
    for s in steps:
        total += s.elo
        ladder.append(f"{s.upper} {total:+.0f}")
    lines += ["", "Elo relative to random: " + ", ".join(ladder) + "."]
    return "\n".join(lines)


def write_readme(text: str) -> None:
    readme = ROOT / "README.md"
    content = readme.read_text(encoding="utf-8")
    if BEGIN not in content or END not in content:
        raise SystemExit(f"README.md has no {BEGIN} ... {END} block")
    head, rest = content.split(BEGIN, 1)
    _, tail = rest.split(END, 1)
    readme.write_text(f"{head}{BEGIN}\n{text}\n{END}{tail}", encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--games", type=int, default=400, help="games per step (default 400)")
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--budget", type=float, default=None, help="strong: seconds a move")
    parser.add_argument("--simulations", type=int, default=None, help="strong: simulations")
    parser.add_argument(
        "--steps", default="all", help="comma-separated upper levels to play (default all)"
    )
    parser.add_argument("--json", action="store_true", help="print JSON")
    parser.add_argument("--readme", action="store_true", help="write the table into README.md")
    args = parser.parse_args(argv)
    wanted = None if args.steps == "all" else set(args.steps.split(","))
    steps = []
    for upper, lower in STEPS:
        if wanted is not None and upper not in wanted:
            continue
        step = play_step(
            upper, lower, args.games, args.seed, args.jobs, args.budget, args.simulations
        )
        print(
            f"{upper} over {lower}: {step.wins:g}/{step.games} in {step.seconds:.0f} s",
            file=sys.stderr,
        )
        steps.append(step)
    how = f"{args.games} games a step, seed {args.seed}"
    if any(step.upper == "strong" for step in steps):
        if args.simulations is not None:
            how += f", strong at {args.simulations} simulations a move"
        else:
            how += f", strong at {args.budget if args.budget is not None else 1.0:g} s a move"
    if args.json:
        print(json.dumps({"how": how, "steps": [s.to_json() for s in steps]}))
    else:
        print(table(steps, how))
    if args.readme:
        write_readme(table(steps, how))
    return 0


if __name__ == "__main__":
    sys.exit(main())
