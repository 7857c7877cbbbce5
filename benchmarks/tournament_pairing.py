"""Tournament pairing speed: the slowest round of Swiss tournaments of many sizes.

Each field plays its rounds with random places; the figure is the slowest
``next_round`` (the host pairs in a worker thread, so this is how late a round's
tables open, not a pause of the host), and how many repeat meetings the
tournament had (0 wherever a seating without one exists: a field too small for
its rounds has some).

    .venv/bin/python benchmarks/tournament_pairing.py [--seed 1]

A benchmark, not a test: figures depend on the machine.
"""

from __future__ import annotations

import argparse
import itertools
import random
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from paris_tui.host.tournaments.engine import Entrant, Plan, next_round  # noqa: E402
from paris_tui.host.tournaments.pairing import Round, Table  # noqa: E402

FIELDS = [(8, 2, 3), (64, 2, 9), (200, 2, 9), (7, 2, 9), (40, 3, 10), (101, 3, 10), (203, 4, 8)]


def finish(rnd: Round, rng: random.Random) -> Round:
    tables = []
    for table in rnd.tables:
        places = list(range(1, len(table.seats) + 1))
        rng.shuffle(places)
        tables.append(Table(table.seats, tuple(places)))
    return Round(rnd.number, tuple(tables), rnd.byes)


def run(count: int, players: int, rounds: int, seed: int) -> tuple[float, int]:
    rng = random.Random(seed)
    entrants = [Entrant(f"p{i}", rng.uniform(0, 40)) for i in range(count)]
    plan = Plan("swiss", players, rounds)
    played: list[Round] = []
    slowest = 0.0
    for _ in range(rounds):
        began = time.perf_counter()
        rnd = next_round(plan, entrants, played)
        slowest = max(slowest, time.perf_counter() - began)
        assert rnd is not None
        played.append(finish(rnd, rng))
    met: set[frozenset[str]] = set()
    repeats = 0
    for rnd in played:
        pairs = [frozenset(p) for t in rnd.tables for p in itertools.combinations(t.seats, 2)]
        repeats += sum(p in met for p in pairs)
        met.update(pairs)
    return slowest, repeats


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    print("players  a table  rounds  slowest round  repeats")
    for count, players, rounds in FIELDS:
        slowest, repeats = run(count, players, rounds, args.seed)
        print(f"{count:>7}  {players:>7}  {rounds:>6}  {slowest * 1000:>10.0f} ms  {repeats:>7}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
