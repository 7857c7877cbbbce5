"""The ladder of AI levels: each level against the one below, in rotated 2-player games.

    .venv/bin/python benchmarks/ladder.py [--games 400] [--floor-games 100] [--jobs 2]
                                          [--seed 11] [--steps STEP,...] [--readme]

For each step of the ladder (easy over random, greedy over easy, strong over
greedy) it plays ``--games`` two-player arena games (seats rotated, each deal
played from both seats) and prints, per step: the upper level's wins (a shared
win counts one half), its win rate with a 95% Wilson interval, whether the
step is significant at 95% (the interval lies above 50%), the Elo difference
with its interval (400 log10(p / (1 - p)), with half a game added to each side
so that a clean sweep stays finite; the interval from the Wilson interval's
ends), and the mean margin (upper level's score minus lower level's). It then
prints each level's Elo relative to random (the sum of the steps).

It also plays each level above easy against random, the floor of the ladder
(``--floor-games`` games: greedy over random, strong over random; easy's is
the ladder's first step), and says whether the winning margin over random
grows at each step up.

``--steps`` plays only some steps, named ``upper/lower`` (``strong/greedy``,
``strong/random``; a bare level is its ladder step). ``--readme`` keeps the
results in ``benchmarks/results/ladder.json`` (a step played now replaces
the kept one) and writes the table of all kept steps into README.md between
the ``<!-- ladder -->`` and ``<!-- /ladder -->`` lines. The strong level
plays at its default budget (1 s a move) unless ``--budget`` or
``--simulations`` is given; the table says which. A benchmark, not a test:
the strong level's strength depends on the machine's speed and load.

``--expert`` plays the expert level's measurements instead
(:mod:`benchmarks.expert_runs`): ``equal`` (expert against strong, both at
1 s a move), ``quarter`` (``expert@0.25`` against ``strong@1``) and ``four``
(expert against three strong at 1 s), ``--games`` each, with expert's win
rate, its 95% interval, the issue's target and expert's p95 move time;
``--scale`` multiplies every budget (0.25: a quarter of the time, for a
shorter session), ``--runs equal,four`` plays only some; ``--readme`` keeps
them in ``benchmarks/results/ladder.json`` and writes README.md's table
between ``<!-- expert -->`` and ``<!-- /expert -->``. The issue's full
measurements, one job each (a move's time is the clock's, so a second job
on the same cores would take time from the first), on an otherwise idle
machine:

    nice -n 19 .venv/bin/python benchmarks/ladder.py --expert --games 400 --jobs 1 --readme

takes about 4.5 h (equal: 400 games x 40 moves x 1 s) + 2.8 h (quarter) +
5.3 h (four: 12 rounds of 4 moves a game): about 13 h; ``--runs equal`` alone 4.5 h.
``--jobs 2`` halves that on two idle cores. The README's quarter run is the
issue's (400 games, 79 minutes with two jobs); equal is at the issue's
budgets with fewer games (31 minutes with two jobs on an idle machine), four
at a quarter of the budgets (14 minutes):

    .venv/bin/python benchmarks/ladder.py --expert --runs quarter --games 400 --jobs 2 --readme
    .venv/bin/python benchmarks/ladder.py --expert --runs equal --games 96 --jobs 2 --readme
    .venv/bin/python benchmarks/ladder.py --expert --runs four --games 160 --scale 0.25 \
        --jobs 2 --readme
"""

from __future__ import annotations

import argparse
import itertools
import json
import math
import sys
import time
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks import expert_runs  # noqa: E402
from paris_tui.ai.arena import ArenaResult, run_arena, wilson  # noqa: E402

STEPS = (("easy", "random"), ("greedy", "easy"), ("strong", "greedy"))
FLOOR = (("greedy", "random"), ("strong", "random"))  # easy's is the first step
BEGIN, END = "<!-- ladder -->", "<!-- /ladder -->"
EXPERT_BEGIN, EXPERT_END = "<!-- expert -->", "<!-- /expert -->"
RESULTS = ROOT / "benchmarks" / "results" / "ladder.json"


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
    seed: int = 11
    strong: str = ""  # how the strong level played ("1 s a move"), "" if it did not

    @property
    def key(self) -> str:
        return f"{self.upper}/{self.lower}"

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
            "seed": self.seed,
            "strong": self.strong,
        }

    @classmethod
    def from_json(cls, data: dict[str, object]) -> Step:
        interval: list[float] = data["interval"]  # type: ignore[assignment]
        low, high = interval
        return cls(
            str(data["upper"]),
            str(data["lower"]),
            int(data["games"]),  # type: ignore[call-overload]
            float(data["wins"]),  # type: ignore[arg-type]
            float(low),
            float(high),
            float(data["margin"]),  # type: ignore[arg-type]
            float(data["seconds"]),  # type: ignore[arg-type]
            int(data.get("seed", 11)),  # type: ignore[call-overload]
            str(data.get("strong", "")),
        )


def strong_setting(budget: float | None, sims: int | None) -> str:
    if sims is not None:
        return f"{sims} simulations a move"
    return f"{budget if budget is not None else 1.0:g} s a move"


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
    strong = strong_setting(budget, sims) if "strong" in (upper, lower) else ""
    seconds = time.perf_counter() - started
    return Step(upper, lower, games, wins, low, high, margin, seconds, seed, strong)


def _upper(high: float) -> str:
    return "∞" if high >= 1.0 else f"{elo(high):+.0f}"


def _how(steps: list[Step]) -> str:
    seeds = sorted({s.seed for s in steps})
    how = "seed " + ", ".join(str(seed) for seed in seeds)
    strong = sorted({s.strong for s in steps if s.strong})
    if strong:
        how += ", strong at " + " or ".join(strong)
    return how


def table(steps: list[Step]) -> str:
    """The README's text for the kept steps: the ladder, then each level against random."""
    ladder = [s for s in steps if (s.upper, s.lower) in STEPS]
    lines = [
        f"Rotated 2-player games ({_how(steps)}); 95% intervals.",
        "",
        "| step | games | upper wins | win rate (95% interval) | significant | Elo (interval) "
        "| mean margin |",
        "| --- | --- | --- | --- | --- | --- | --- |",
    ]
    for s in ladder:
        lines.append(
            f"| {s.upper} over {s.lower} | {s.games} | {s.wins:g} "
            f"| {s.rate:.1%} ({s.low:.1%}-{s.high:.1%}) | {'yes' if s.significant else 'no'} "
            f"| {s.elo:+.0f} ({elo(s.low):+.0f} to {_upper(s.high)}) | {s.margin:+.1f} |"
        )
    total = 0.0
    rating = ["random 0"]
    for s in ladder:
        total += s.elo
        rating.append(f"{s.upper} {total:+.0f}")
    lines += ["", "Elo relative to random: " + ", ".join(rating) + "."]
    floor = [s for s in steps if s.lower == "random"]
    if len(floor) > 1:
        order = [upper for upper, _ in STEPS]
        floor.sort(key=lambda s: order.index(s.upper))
        lines += [
            "",
            "Each level against random, the floor of the ladder:",
            "",
            "| level | games | wins | win rate (95% interval) | mean margin over random |",
            "| --- | --- | --- | --- | --- |",
        ]
        for s in floor:
            lines.append(
                f"| {s.upper} | {s.games} | {s.wins:g} "
                f"| {s.rate:.1%} ({s.low:.1%}-{s.high:.1%}) | {s.margin:+.1f} |"
            )
        margins = [s.margin for s in floor]
        grows = all(a < b for a, b in itertools.pairwise(margins))
        said = (" < " if grows else ", ").join(f"{m:+.1f}" for m in margins)
        verdict = "grows at each step up" if grows else "does not grow at every step up"
        lines += ["", f"The winning margin over random {verdict}: {said}."]
    return "\n".join(lines)


def load_results(path: Path) -> dict[str, Step]:
    if not path.exists():
        return {}
    data = json.loads(path.read_text(encoding="utf-8"))
    steps = (Step.from_json(item) for item in data["steps"])
    return {step.key: step for step in steps}


def load_expert(path: Path) -> dict[str, expert_runs.ExpertRun]:
    if not path.exists():
        return {}
    data = json.loads(path.read_text(encoding="utf-8"))
    runs = (expert_runs.ExpertRun.from_json(item) for item in data.get("expert", []))
    return {run.name: run for run in runs}


def save_results(path: Path, steps: dict[str, Step]) -> None:
    """The ladder's steps in ``path``; the expert runs kept there stay as they are."""
    path.parent.mkdir(parents=True, exist_ok=True)
    data = json.loads(path.read_text(encoding="utf-8")) if path.exists() else {}
    data["steps"] = [step.to_json() for step in steps.values()]
    path.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")


def save_expert(path: Path, runs: dict[str, expert_runs.ExpertRun]) -> None:
    """The expert runs in ``path``; the ladder's steps kept there stay as they are."""
    path.parent.mkdir(parents=True, exist_ok=True)
    data = json.loads(path.read_text(encoding="utf-8")) if path.exists() else {"steps": []}
    data["expert"] = [run.to_json() for run in runs.values()]
    path.write_text(json.dumps(data, indent=1) + "\n", encoding="utf-8")


def write_readme(text: str, begin: str = BEGIN, end: str = END) -> None:
    readme = ROOT / "README.md"
    content = readme.read_text(encoding="utf-8")
    if begin not in content or end not in content:
        raise SystemExit(f"README.md has no {begin} ... {end} block")
    head, rest = content.split(begin, 1)
    _, tail = rest.split(end, 1)
    readme.write_text(f"{head}{begin}\n{text}\n{end}{tail}", encoding="utf-8")


def main_expert(args: argparse.Namespace) -> int:
    """``--expert``: the expert level's runs (see the module docstring)."""
    runs = []
    for name in (r.strip() for r in args.runs.split(",")):
        if name not in expert_runs.RUNS:
            raise SystemExit(f"ladder.py: no expert run {name!r} ({', '.join(expert_runs.RUNS)})")
        run = expert_runs.play_run(name, args.games, args.seed, args.jobs, args.scale)
        print(
            f"{name}: expert {run.wins:g}/{run.games} in {run.seconds:.0f} s, "
            f"p95 {run.p95_ms:.0f} ms of {run.budget_ms:.0f}",
            file=sys.stderr,
        )
        runs.append(run)
    if args.json:
        print(json.dumps({"expert": [r.to_json() for r in runs]}))
    else:
        print(expert_runs.table(runs))
    if args.readme:
        kept = load_expert(args.results)
        kept.update((run.name, run) for run in runs)
        ordered = {n: kept[n] for n in expert_runs.RUNS if n in kept}
        save_expert(args.results, ordered)
        write_readme(expert_runs.table(list(ordered.values())), EXPERT_BEGIN, EXPERT_END)
    return 0


def wanted_steps(spec: str) -> list[tuple[str, str]]:
    """The steps ``--steps`` names, in the ladder's order (``all``: every one)."""
    every = [*STEPS, *FLOOR]
    if spec == "all":
        return every
    chosen: set[tuple[str, str]] = set()
    for raw in spec.split(","):
        name = raw.strip()
        if "/" in name:
            upper, lower = name.split("/", 1)
        else:
            upper, lower = next(((u, w) for u, w in STEPS if u == name), (name, ""))
        if (upper, lower) not in every:
            names = ", ".join(f"{u}/{w}" for u, w in every)
            raise SystemExit(f"ladder.py: no step {name!r} (steps: {names})")
        chosen.add((upper, lower))
    return [step for step in every if step in chosen]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else None)
    parser.add_argument("--games", type=int, default=400, help="games per step (default 400)")
    parser.add_argument(
        "--floor-games", type=int, default=100, help="games per level against random (100)"
    )
    parser.add_argument("--seed", type=int, default=11)
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--budget", type=float, default=None, help="strong: seconds a move")
    parser.add_argument("--simulations", type=int, default=None, help="strong: simulations")
    parser.add_argument(
        "--steps", default="all", help="comma-separated steps to play, as upper/lower (all)"
    )
    parser.add_argument("--json", action="store_true", help="print JSON")
    parser.add_argument(
        "--readme", action="store_true", help="keep the results and write README.md's table"
    )
    parser.add_argument("--results", type=Path, default=RESULTS, help=argparse.SUPPRESS)
    parser.add_argument("--expert", action="store_true", help="the expert level's runs instead")
    parser.add_argument("--runs", default=",".join(expert_runs.RUNS), help="expert runs to play")
    parser.add_argument("--scale", type=float, default=1.0, help="expert runs: budgets times this")
    args = parser.parse_args(argv)
    if args.expert:
        return main_expert(args)
    steps: list[Step] = []
    for upper, lower in wanted_steps(args.steps):
        games = args.games if (upper, lower) in STEPS else args.floor_games
        step = play_step(upper, lower, games, args.seed, args.jobs, args.budget, args.simulations)
        print(
            f"{upper} over {lower}: {step.wins:g}/{step.games} in {step.seconds:.0f} s",
            file=sys.stderr,
        )
        steps.append(step)
    if args.json:
        print(json.dumps({"how": _how(steps), "steps": [s.to_json() for s in steps]}))
    else:
        print(table(steps))
    if args.readme:
        kept = load_results(args.results)
        kept.update((step.key, step) for step in steps)
        ordered = {f"{u}/{w}": kept[f"{u}/{w}"] for u, w in (*STEPS, *FLOOR) if f"{u}/{w}" in kept}
        save_results(args.results, ordered)
        write_readme(table(list(ordered.values())))
    return 0


if __name__ == "__main__":
    sys.exit(main())
