"""Load on one host: N tables of bot clients over loopback (issue 9).

Starts ``paris-tui host`` as its own process with N tables of S human
seats, connects S bot clients per table (this process, asyncio), and plays
every game to the end. Each bot moves as soon as it is its turn (or after
``--think`` seconds, drawn uniformly up to that). Prints the move round
trip (a bot sends its move, then receives the update that holds it) at the
50th/95th/99th percentile, the errors (refusals, disconnections, timeouts),
and the host's resident memory (peak and at the end) and CPU time.

Bots think a uniform 0..``--think`` seconds (default 2, a quick human) before
each move. With ``--think 0`` every table always has a move in flight: the
loop is closed, so the round trip is the tables divided by the throughput
(Little's law) and measures saturation, not latency.

    .venv/bin/python benchmarks/net_load.py --tables 50 --seats 4
    .venv/bin/python benchmarks/net_load.py --tables 10 --seats 4 --ai-seats 2 --seconds 60

With ``--ai-seats K`` each table has K AI seats (``--ai-level``, default
strong: a second of CPU a move) played by the host itself: the bot clients'
round trip then says whether the AI starves the host, and the host's log
whether it shrank the AI's budget (host/ai_moves.py).

Targets on a 2-core machine: 50 tables x 4 seats, 0 errors, p95 under
50 ms, host RSS under 200 MB. The bots share the machine with the host, so
the figures include the clients' own work (decoding every view).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import signal
import statistics
import sys
import tempfile
import time
from pathlib import Path

from paris_tui.net.client import HostClient
from paris_tui.net.protocol import Refused, Update

TIMEOUT = 30.0


def _status(pid: int) -> dict[str, int]:
    """VmRSS / VmHWM (kB) and CPU seconds of a process, from /proc."""
    out: dict[str, int] = {}
    with open(f"/proc/{pid}/status") as handle:
        for line in handle:
            key, _, value = line.partition(":")
            if key in ("VmRSS", "VmHWM"):
                out[key] = int(value.split()[0])
    with open(f"/proc/{pid}/stat") as handle:
        fields = handle.read().rsplit(")", 1)[1].split()
    ticks = os.sysconf("SC_CLK_TCK")
    out["cpu_ms"] = (int(fields[11]) + int(fields[12])) * 1000 // ticks
    return out


class Stats:
    def __init__(self) -> None:
        self.rtt: list[float] = []
        self.errors: list[str] = []
        self.moves = 0
        self.games = 0


async def _bot(port: int, name: str, think: float, rng: random.Random, stats: Stats) -> None:
    try:
        client = await HostClient.connect("127.0.0.1", port, timeout=TIMEOUT)
        seated = await client.join(name, timeout=TIMEOUT)
    except Exception as exc:
        stats.errors.append(f"{name}: join: {exc!r}")
        return
    view = seated.view
    sent_at: float | None = None
    sent_count = -1
    try:
        while not view.is_over:
            if view.my_turn and sent_count != len(view.moves):
                if think > 0:
                    await asyncio.sleep(rng.uniform(0, think))
                sent_count = len(view.moves)
                sent_at = time.perf_counter()
                client.play(rng.choice(view.legal_moves), sent_count)
            message = await client.receive(TIMEOUT)
            if isinstance(message, Refused):
                stats.errors.append(f"{name}: refused {message.code}: {message.message}")
                if message.fatal:
                    return
            elif isinstance(message, Update):
                view = message.view
                if sent_at is not None and len(view.moves) > sent_count:
                    stats.rtt.append(time.perf_counter() - sent_at)
                    stats.moves += 1
                    sent_at = None
        stats.games += view.seat == 0
    except Exception as exc:
        stats.errors.append(f"{name}: {exc!r}")
    finally:
        await client.close()


def _percentile(values: list[float], q: float) -> float:
    if not values:
        return float("nan")
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


async def main(args: argparse.Namespace) -> int:
    humans = args.seats - args.ai_seats
    if humans < 1:
        print("--ai-seats leaves no seat for a bot client", file=sys.stderr)
        return 2
    with tempfile.TemporaryDirectory(prefix="paris-net-load-") as tmp:
        return await _main(args, Path(tmp), humans)


async def _main(args: argparse.Namespace, data: Path, humans: int) -> int:
    names = [[f"t{t}p{s}" for s in range(humans)] for t in range(args.tables)]
    command = [
        sys.executable,
        "-m",
        "paris_tui.cli",
        "host",
        "--port",
        "0",
        "--ssh-port",
        "off",  # the bots use the TCP door only (the SSH door's default port is 2222)
        "--data-dir",
        str(data),
        "--seed",
        str(args.seed),
        "--ai-delay",
        "0",
        "--max-connections",
        str(args.tables * args.seats + 16),
        "--max-per-address",
        str(args.tables * args.seats + 16),
        # Every bot connects at once from 127.0.0.1: not yet seated, all of them.
        "--max-anonymous",
        str(args.tables * args.seats + 16),
        "--max-anonymous-per-address",
        str(args.tables * args.seats + 16),
        "--max-tables",
        str(args.tables),
    ]
    for table in names:
        command += ["--table", ",".join(table + [f"ai:{args.ai_level}"] * args.ai_seats)]
    log_path = data / "host.log"
    with log_path.open("wb") as log_file:  # the child keeps its own copy of the descriptor
        host = await asyncio.create_subprocess_exec(
            *command, stdout=asyncio.subprocess.PIPE, stderr=log_file
        )
    try:
        return await _measure(args, names, host, log_path)
    finally:  # a failed run leaves no host behind (its data folder is removed next)
        if host.returncode is None:
            host.kill()
            await host.wait()


async def _measure(
    args: argparse.Namespace,
    names: list[list[str]],
    host: asyncio.subprocess.Process,
    log_path: Path,
) -> int:
    assert host.stdout is not None
    port = 0
    async with asyncio.timeout(60):
        while not port:
            line = (await host.stdout.readline()).decode()
            if not line:
                print("the host did not start", file=sys.stderr)
                return 1
            if "listening on" in line:
                port = int(line.split("listening on ", 1)[1].split(" ")[0].rsplit(":", 1)[1])
    idle = _status(host.pid)
    stats = Stats()
    rng = random.Random(args.seed)
    peak_sampler_rss = [0]

    async def sample() -> None:
        while True:
            peak_sampler_rss[0] = max(peak_sampler_rss[0], _status(host.pid)["VmRSS"])
            await asyncio.sleep(0.2)

    sampler = asyncio.create_task(sample())
    started = time.perf_counter()
    play = asyncio.gather(
        *(
            _bot(port, name, args.think, random.Random(rng.random()), stats)
            for table in names
            for name in table
        )
    )
    try:
        async with asyncio.timeout(args.seconds or None):
            await play
    except TimeoutError:  # --seconds: the figures of that long
        pass
    elapsed = time.perf_counter() - started
    sampler.cancel()
    end = _status(host.pid)
    host.send_signal(signal.SIGTERM)
    async with asyncio.timeout(30):
        code = await host.wait()
    said = log_path.read_text("utf-8", "replace").splitlines()
    shrunk = [line for line in said if "AI under load" in line]
    result = {
        "ai_seats": args.ai_seats,
        "ai_level": args.ai_level,
        "ai_budget_shrunk_lines": len(shrunk),
        "ai_budget_last_said": shrunk[-1] if shrunk else None,
        "tables": args.tables,
        "seats": args.seats,
        "games_finished": stats.games,
        "moves": stats.moves,
        "seconds": round(elapsed, 2),
        "moves_per_s": round(stats.moves / elapsed, 1),
        "rtt_ms": {
            "p50": round(1000 * _percentile(stats.rtt, 0.50), 2),
            "p95": round(1000 * _percentile(stats.rtt, 0.95), 2),
            "p99": round(1000 * _percentile(stats.rtt, 0.99), 2),
            "max": round(1000 * max(stats.rtt, default=float("nan")), 2),
            "mean": round(1000 * statistics.fmean(stats.rtt), 2) if stats.rtt else None,
        },
        "errors": len(stats.errors),
        "host_rss_mb": {
            "idle": round(idle["VmRSS"] / 1024, 1),
            "peak": round(max(end["VmHWM"], peak_sampler_rss[0]) / 1024, 1),
            "end": round(end["VmRSS"] / 1024, 1),
        },
        "host_cpu_s": round((end["cpu_ms"] - idle["cpu_ms"]) / 1000, 2),
        "host_exit": code,
        "think_s": args.think,
    }
    if args.json:
        print(json.dumps(result))
    else:
        print(
            f"{args.tables} tables x {args.seats} seats: {stats.games} games, {stats.moves} moves "
            f"in {elapsed:.1f} s ({result['moves_per_s']} moves/s; bots think up to {args.think} s)"
        )
        r = result["rtt_ms"]
        print(
            f"move round trip: p50 {r['p50']} ms, p95 {r['p95']} ms, p99 {r['p99']} ms, "
            f"max {r['max']} ms"
        )
        print(f"errors: {len(stats.errors)}")
        if args.ai_seats:
            print(
                f"AI seats: {args.ai_seats} ai:{args.ai_level} per table; the host said the "
                f"budget shrank {len(shrunk)} times"
                + (f", last: {shrunk[-1].split(': ', 1)[-1]}" if shrunk else "")
            )
        m = result["host_rss_mb"]
        print(
            f"host RSS: {m['idle']} MB idle, {m['peak']} MB peak, {m['end']} MB at the end; "
            f"host CPU {result['host_cpu_s']} s; host exit status {code}"
        )
    for error in stats.errors[:10]:
        print(f"  {error}", file=sys.stderr)
    return 0 if not stats.errors and code == 0 else 1


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=50)
    parser.add_argument("--seats", type=int, default=4, choices=(2, 3, 4))
    parser.add_argument(
        "--think",
        type=float,
        default=2.0,
        help="a bot thinks a uniform 0..THINK seconds before each move (default 2.0; "
        "0 measures throughput at saturation, where the round trip is queueing)",
    )
    parser.add_argument(
        "--ai-seats", type=int, default=0, help="AI seats per table (the rest: bot clients)"
    )
    parser.add_argument("--ai-level", default="strong", help="their level (default strong)")
    parser.add_argument(
        "--seconds", type=float, default=0, help="stop after this long (default: every game)"
    )
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--json", action="store_true")
    sys.exit(asyncio.run(main(parser.parse_args())))
