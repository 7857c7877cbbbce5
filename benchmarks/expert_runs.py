"""The expert level's measurements (issue targets), run by ``benchmarks/ladder.py --expert``.

Three runs, each at the budgets of the issue times ``scale`` (1.0: the
issue's own; a smaller scale fits a shorter session):

* ``equal``: ``--seats expert,strong`` both at ``scale`` s a move; target:
  expert wins at least 60%;
* ``quarter``: ``--seats expert@(scale/4),strong@scale``; target: at least 50%;
* ``four``: expert against three strong, all at ``scale`` s a move; target:
  at least 35% of the wins (fair share 25%).

Expert's win rate counts a shared win as ``1 / players`` of a game (its fair
part of a tie), with the 95% Wilson interval of the rounded count; its p95 move
time is checked against its budget plus 10%.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

from paris_tui.ai.arena import run_arena, wilson

RUNS = ("equal", "quarter", "four")
TARGETS = {"equal": 0.60, "quarter": 0.50, "four": 0.35}


@dataclass(frozen=True)
class ExpertRun:
    name: str
    seats: tuple[str, ...]  # as --seats writes them (expert@0.25)
    games: int
    wins: float  # expert's, a shared win counting 1 / players
    low: float
    high: float
    p95_ms: float  # expert's 95th percentile move time
    budget_ms: float  # expert's budget
    seconds: float
    seed: int

    @property
    def rate(self) -> float:
        return self.wins / self.games if self.games else 0.0

    @property
    def target(self) -> float:
        return TARGETS[self.name]

    @property
    def in_time(self) -> bool:
        return self.p95_ms <= 1.1 * self.budget_ms

    def to_json(self) -> dict[str, object]:
        return {
            "name": self.name,
            "seats": list(self.seats),
            "games": self.games,
            "wins": self.wins,
            "rate": round(self.rate, 4),
            "interval": [round(self.low, 4), round(self.high, 4)],
            "p95_ms": round(self.p95_ms, 1),
            "budget_ms": round(self.budget_ms, 1),
            "seconds": round(self.seconds, 1),
            "seed": self.seed,
        }

    @classmethod
    def from_json(cls, data: dict[str, object]) -> ExpertRun:
        low, high = data["interval"]  # type: ignore[misc]
        return cls(
            str(data["name"]),
            tuple(data["seats"]),  # type: ignore[arg-type]
            int(data["games"]),  # type: ignore[call-overload]
            float(data["wins"]),  # type: ignore[arg-type]
            float(low),
            float(high),
            float(data["p95_ms"]),  # type: ignore[arg-type]
            float(data["budget_ms"]),  # type: ignore[arg-type]
            float(data["seconds"]),  # type: ignore[arg-type]
            int(data["seed"]),  # type: ignore[call-overload]
        )


def seats_of(name: str, scale: float) -> tuple[tuple[str, ...], tuple[float, ...]]:
    """The levels and their budgets of a run."""
    if name == "equal":
        return ("expert", "strong"), (scale, scale)
    if name == "quarter":
        return ("expert", "strong"), (scale / 4, scale)
    if name == "four":
        return ("expert", "strong", "strong", "strong"), (scale,) * 4
    raise ValueError(f"no expert run {name!r} (runs: {', '.join(RUNS)})")


def play_run(name: str, games: int, seed: int, jobs: int, scale: float) -> ExpertRun:
    levels, budgets = seats_of(name, scale)
    started = time.perf_counter()
    result = run_arena(levels, games=games, seed=seed, jobs=jobs, budgets=budgets)
    wins = result.wins[0] + result.shared / len(levels)
    low, high = wilson(round(wins), games)
    return ExpertRun(
        name,
        result.seats,
        games,
        wins,
        low,
        high,
        result.move_ms_p95[0],
        budgets[0] * 1000.0,
        time.perf_counter() - started,
        seed,
    )


def table(runs: list[ExpertRun]) -> str:
    """The README's text for the kept runs."""
    lines = [
        "| run | seats | games | expert's wins | win rate (95% interval) | target "
        "| expert's p95 move | budget |",
        "| --- | --- | --- | --- | --- | --- | --- | --- |",
    ]
    for r in runs:
        lines.append(
            f"| {r.name} | {','.join(r.seats)} | {r.games} | {r.wins:g} "
            f"| {r.rate:.1%} ({r.low:.1%}-{r.high:.1%}) | {r.target:.0%} "
            f"| {r.p95_ms:.0f} ms | {r.budget_ms:.0f} ms |"
        )
    return "\n".join(lines)
