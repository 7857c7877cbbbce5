"""Where the test suite's time goes, in figures that a loaded machine does not distort much.

On a machine shared with other jobs the wall time of a test says more about the
load than about the test (a 2-core machine at load 15 ran the suite's app tests
at a tenth of their CPU speed). This runs pytest (any arguments: a file, a
directory, ``-n 2``) with a small plugin that records for each test its wall
time, the CPU time of the test process and of the child processes it waited
for, and how many processes it started; then prints the totals, each xdist
worker's span, the files by CPU time and the tests by CPU time, with the load
average before and after.

    .venv/bin/python benchmarks/suite_times.py -n 2               # the whole suite
    .venv/bin/python benchmarks/suite_times.py tests/app -n 2 --top 30

On idle cores a worker's wall time is about its CPU time plus what its tests
wait (sleeps, quiet moments on a pty, Textual's idle checks): a test whose wall
time stays far above its CPU time on an idle machine is waiting, one whose CPU
time is high is working.
"""

from __future__ import annotations

import argparse
import collections
import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).resolve().parent.parent
OUT_ENV = "PARIS_SUITE_TIMES_OUT"


# --- the plugin (loaded in pytest and in each xdist worker with -p suite_times) -----------

_spawned = [0]


def _count_processes() -> None:
    original = subprocess.Popen.__init__

    def counting(self: subprocess.Popen[Any], *args: Any, **kwargs: Any) -> None:
        _spawned[0] += 1
        original(self, *args, **kwargs)

    subprocess.Popen.__init__ = counting  # type: ignore[method-assign]


def _cpu() -> tuple[float, float]:
    me = resource.getrusage(resource.RUSAGE_SELF)
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return me.ru_utime + me.ru_stime, children.ru_utime + children.ru_stime


def pytest_configure(config: Any) -> None:
    if os.environ.get(OUT_ENV):
        _count_processes()


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item: Any, nextitem: Any) -> Iterator[None]:
    out = os.environ.get(OUT_ENV)
    started, (cpu0, child0), procs0 = time.time(), _cpu(), _spawned[0]
    wall0 = time.perf_counter()
    yield
    wall = time.perf_counter() - wall0
    cpu1, child1 = _cpu()
    if out:
        worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
        row = {
            "id": item.nodeid,
            "worker": worker,
            "start": started,
            "wall": wall,
            "cpu": cpu1 - cpu0,
            "child": child1 - child0,
            "procs": _spawned[0] - procs0,
        }
        with open(f"{out}.{worker}.jsonl", "a", encoding="utf-8") as f:
            f.write(json.dumps(row) + "\n")


# --- the report ----------------------------------------------------------------------------


def _load() -> str:
    one, five, fifteen = os.getloadavg()
    return f"{one:.1f} {five:.1f} {fifteen:.1f} on {os.cpu_count()} CPUs"


def report(rows: list[dict[str, Any]], top: int) -> None:
    total = {k: sum(r[k] for r in rows) for k in ("wall", "cpu", "child", "procs")}
    print(
        f"{len(rows)} tests: wall {total['wall']:.0f} s summed over workers, CPU {total['cpu']:.0f}"
        f" s in the test processes + {total['child']:.0f} s in their children,"
        f" {total['procs']} processes started"
    )
    for worker in sorted({r["worker"] for r in rows}):
        mine = [r for r in rows if r["worker"] == worker]
        span = max(r["start"] + r["wall"] for r in mine) - min(r["start"] for r in mine)
        cpu = sum(r["cpu"] + r["child"] for r in mine)
        print(f"  {worker}: {len(mine)} tests, {span:.0f} s from first to last, CPU {cpu:.0f} s")
    files: dict[str, list[float]] = collections.defaultdict(lambda: [0, 0.0, 0.0, 0.0])
    for r in rows:
        f = files[r["id"].split("::")[0]]
        f[0] += 1
        f[1] += r["wall"]
        f[2] += r["cpu"]
        f[3] += r["child"]
    print(f"\nfiles by CPU time (top {top}):\n   cpu  child   wall tests file")
    for name, (n, wall, cpu, child) in sorted(files.items(), key=lambda kv: -kv[1][2] - kv[1][3])[
        :top
    ]:
        print(f"{cpu:6.1f} {child:6.1f} {wall:6.1f} {n:5.0f} {name}")
    print(f"\ntests by CPU time (top {top}):\n   cpu  child   wall test")
    for r in sorted(rows, key=lambda r: -r["cpu"] - r["child"])[:top]:
        print(f"{r['cpu']:6.2f} {r['child']:6.2f} {r['wall']:6.1f} {r['id']}")


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--top", type=int, default=25, help="lines per table (default 25)")
    args, pytest_args = parser.parse_known_args(argv)
    with tempfile.TemporaryDirectory(prefix="paris-suite-times-") as tmp:
        out = str(Path(tmp) / "times")
        env = {
            **os.environ,
            OUT_ENV: out,
            "PYTHONPATH": os.pathsep.join(
                [str(ROOT / "benchmarks"), *filter(None, [os.environ.get("PYTHONPATH")])]
            ),
        }
        load_before = _load()
        started = time.perf_counter()
        done = subprocess.run(
            [sys.executable, "-m", "pytest", "-q", "-p", "suite_times", *pytest_args],
            cwd=ROOT,
            env=env,
            check=False,
        )
        elapsed = time.perf_counter() - started
        rows = []
        for path in Path(tmp).glob("times.*.jsonl"):
            rows += [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]
    print(f"\npytest exit status {done.returncode}; {elapsed:.0f} s wall in all")
    print(f"load average before: {load_before}; after: {_load()}")
    if rows:
        report(rows, args.top)
    return done.returncode


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
