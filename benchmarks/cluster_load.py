"""Load on several hosts sharing one PostgreSQL database, and a kill -9 mid-run.

Starts a throwaway PostgreSQL server (tests/pg.py: Debian's initdb/pg_ctl,
a Unix socket, fsync off) unless ``--database URL`` is given, then ``--hosts``
``paris-tui host --database`` processes, each opening its share of
``--tables`` tables of 4 human seats. One bot client per seat connects to a
*random* host (a host that does not referee the table relays it) and plays
its seat: each move is sent after a think time drawn up to ``--think``
seconds. After ``--kill-after`` seconds one host is killed with SIGKILL; its
clients reconnect to another host with their tokens and go on. Each bot
brings a token of its own making to its first join (so a first join whose
host was killed after it made the account proves it at the next try), and
goes straight to the host a ``bye`` names as its table's new referee.

With ``--sigstop S`` host 0 is stopped (SIGSTOP) instead of killed, and
goes on (SIGCONT) S seconds later: its tables are taken over when its lease
runs out, and what it still had to write is refused (0 lost).

With ``--outage S`` there is no kill: after ``--kill-after`` seconds the
database server is stopped (``pg_ctl stop -m fast``: its connections cut) for
``S`` seconds and started again; then it prints how many tables changed
referee (the hosts' "took over table" lines: want 0), the players whose
connection dropped and how long after the database's return each was seated
again, and how long after it every table moved again.

The takeovers (how many, and the last one's seconds after the kill or the
outage's start) are read from the hosts' own timestamped log lines.

Prints: the move round trip (sent -> the update that holds it) p50/p95, over
the whole run and "steady" (the moves sent after the last seat's first join,
and at least ``--warmup`` seconds in, and before the kill or the outage),
errors (refusals other than the wait for a takeover, timeouts), moves per
second, the database's connections (at the peak of the run), and for the
kill: the seconds until every table the dead host refereed moved again, and
the moves lost (moves a client had seen that the database does not hold;
want 0).

    .venv/bin/python benchmarks/cluster_load.py --tables 60 --hosts 3

Targets on 2 cores (the issue): 200 tables x 4 seats, p95 under 50 ms,
0 errors, failover under 5 s, 0 lost. The bots share the machine with the
hosts and the database, so the figures include the clients' own work.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import random
import secrets
import statistics
import sys
import tempfile
import time
from datetime import datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "tests"))

from paris_tui.net.client import HostClient, HostClosedError, RefusedError  # noqa: E402
from paris_tui.net.protocol import Refused, Update  # noqa: E402

TIMEOUT = 20.0


class Stats:
    def __init__(self) -> None:
        self.trips: list[float] = []
        self.steady: list[float] = []  # the trips sent after the warm-up, before the kill
        self.warm_at = float("inf")  # when the warm-up ends (set by main)
        self.errors: list[str] = []
        self.moves = 0
        self.seen: dict[str, int] = {}  # table -> the most moves a client saw
        self.over: dict[str, float] = {}  # table -> when a client saw its game end
        self.killed_at: float | None = None
        self.steady_end = float("inf")  # the kill, or the outage's start
        self.back_at: dict[str, float] = {}  # table -> its first move after the kill
        # Every trip: (sent at, seconds, the host the bot is connected to, relayed or not).
        self.sent: list[tuple[float, float, int, bool]] = []
        self.joins: list[tuple[float, float, int]] = []  # (asked at, seconds, host)
        self.seats = 0  # seats in all (set by main)
        self.warm_min = 0.0  # the steady window starts no sooner (set by main)
        self.joined: set[str] = set()  # the seats seated at least once
        self.dropped: dict[str, float] = {}  # seat -> when its connection last dropped
        self.rejoined: dict[str, float] = {}  # seat -> when it sat again after a drop

    def when(self) -> str:
        """When, for an error: before the kill, or how long after it."""
        if self.killed_at is None:
            return " (before the kill)"
        return f" ({time.perf_counter() - self.killed_at:.1f} s after the kill)"


async def start_host(
    data: Path, database: str, tables: list[str]
) -> tuple[asyncio.subprocess.Process, int]:
    args = [sys.executable, "-m", "paris_tui.cli", "host", "--port", "0", "--ssh-port", "off"]
    args += ["--data-dir", str(data), "--database", database, "--ai-delay", "0"]
    args += ["--max-connections", "5000", "--max-per-address", "5000", "--max-tables", "5000"]
    # Every client connects at once from 127.0.0.1, not yet seated: the anonymous pool
    # (issue 17) would keep all but a few out.
    args += ["--max-anonymous", "5000", "--max-anonymous-per-address", "5000"]
    for text in tables:
        args += ["--table", text]
    proc = await asyncio.create_subprocess_exec(
        *args, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE
    )
    asyncio.get_running_loop().create_task(_log(proc, data.with_suffix(".log")))
    assert proc.stdout is not None
    async with asyncio.timeout(120):
        while True:
            line = (await proc.stdout.readline()).decode()
            if not line:
                raise RuntimeError("a host did not start")
            if "listening on" in line:
                port = int(line.split("listening on ", 1)[1].split(" ")[0].rsplit(":", 1)[1])
                break
    asyncio.get_running_loop().create_task(proc.stdout.read())  # drain the rest
    return proc, port


async def _log(proc: asyncio.subprocess.Process, path: Path) -> None:
    """The host's log, each line stamped with this run's clock (--keep keeps it)."""
    assert proc.stderr is not None
    with path.open("w", encoding="utf-8") as out:
        while line := await proc.stderr.readline():
            out.write(f"{time.perf_counter():.2f} {line.decode(errors='replace')}")
            out.flush()  # read back at the end of the run (the takeovers)


async def play_seat(
    name: str,
    table: str,
    referee: int,
    ports: list[int],
    alive: set[int],
    think: float,
    stats: Stats,
    rng: random.Random,
    stop: asyncio.Event,
) -> None:
    # A token of its own making from the first join: if its host is killed after it
    # made the account and before it said the seat, the next try proves that account.
    token: str | None = secrets.token_urlsafe(24)
    moved: int | None = None  # the port a bye said the table went to (Bye.address)
    while not stop.is_set():
        port = rng.choice([p for p in ports if p in alive]) if moved is None else moved
        moved = None
        try:
            asked = time.perf_counter()
            client = await HostClient.connect("127.0.0.1", port, timeout=TIMEOUT)
            seated = await client.join(name, token, table, timeout=TIMEOUT)
            now = time.perf_counter()
            stats.joins.append((asked, now - asked, ports.index(port)))
            if name in stats.dropped:
                stats.rejoined[name] = now
            if name not in stats.joined:
                stats.joined.add(name)
                if len(stats.joined) == stats.seats:  # the last first join: steady from now
                    stats.warm_at = max(now, stats.warm_min)
        except RefusedError as exc:
            token = exc.refused.token or token  # refused after its account was made: kept
            if exc.code not in ("unavailable", "seat_taken"):  # waiting for a takeover
                stats.errors.append(f"{name}: {exc.code} at {port}{stats.when()}: {exc}")
                return
            await asyncio.sleep(0.2)
            continue
        except (OSError, TimeoutError, Exception):  # a host that just died
            await asyncio.sleep(0.2)
            continue
        token = seated.token or token
        view = seated.view
        sent_at: float | None = None
        sent_count = -1
        try:
            while not view.is_over and not stop.is_set():
                if view.my_turn and sent_count != len(view.moves):
                    if think:
                        await asyncio.sleep(rng.uniform(0, think))
                    sent_count = len(view.moves)
                    sent_at = time.perf_counter()
                    client.play(rng.choice(view.legal_moves), sent_count)
                message = await client.receive(TIMEOUT)
                if isinstance(message, Update):
                    view = message.view
                    count = len(view.moves)
                    if view.is_over:
                        stats.over.setdefault(table, time.perf_counter())
                    if count > stats.seen.get(table, 0):
                        stats.seen[table] = count
                        now = time.perf_counter()
                        if stats.killed_at is not None and table not in stats.back_at:
                            stats.back_at[table] = now
                        stats.moves += 1
                    if sent_at is not None and count > sent_count:
                        trip = time.perf_counter() - sent_at
                        stats.trips.append(trip)
                        at = ports.index(port)
                        stats.sent.append((sent_at, trip, at, at != referee))
                        if stats.warm_at <= sent_at < stats.steady_end:
                            stats.steady.append(trip)
                        sent_at = None
                elif isinstance(message, Refused):
                    if message.code in ("unavailable", "stale", "not_your_turn"):
                        sent_count = -1
                        continue
                    stats.errors.append(f"{name}: {message.code} at {port}{stats.when()}")
                    return
            await client.close()
            return
        except Exception as exc:  # the host died, or lost the table: come back elsewhere
            if isinstance(exc, HostClosedError) and exc.address is not None:
                with contextlib.suppress(ValueError, IndexError):
                    moved = int(exc.address.rsplit(":", 1)[1])  # the table's new host, at once
            stats.dropped[name] = time.perf_counter()
            stats.rejoined.pop(name, None)
            client.abort()
            sent_count = -1
            if moved is None:
                await asyncio.sleep(0.1)


async def spy(
    folder: Path,
    window: str,
    procs: list[asyncio.subprocess.Process],
    seconds: float,
    skip: int | None = None,
) -> list[asyncio.subprocess.Process]:
    """py-spy records each host and this process (the bots) for ``seconds``."""
    import os

    spy_bin = Path(sys.executable).with_name("py-spy")
    pids = {f"host{i}": p.pid for i, p in enumerate(procs) if i != skip}
    pids["bots"] = os.getpid()
    out = []
    for who, pid in pids.items():
        args = [str(spy_bin), "record", "-p", str(pid), "-d", str(max(1, round(seconds)))]
        args += [
            "-r",
            "50",
            "-f",
            "raw",
            "--nonblocking",
            "-o",
            str(folder / f"{window}-{who}.txt"),
        ]
        out.append(
            await asyncio.create_subprocess_exec(
                *args, stdout=asyncio.subprocess.DEVNULL, stderr=asyncio.subprocess.DEVNULL
            )
        )
    return out


def summary(trips: list[float]) -> dict[str, float | int | None]:
    """Count, p50, p95, p99 and max (ms) of some round trips."""
    ordered = sorted(trips)
    n = len(ordered)

    def at(q: float) -> float | None:
        return round(1000 * ordered[int(q * (n - 1))], 1) if n else None

    top = round(1000 * ordered[-1], 1) if n else None
    return {"n": n, "p50": at(0.5), "p95": at(0.95), "p99": at(0.99), "max": top}


def windows(
    stats: Stats, began: float, killed_at: float, recovered: list[float], hosts: int
) -> dict[str, object]:
    """When the slow moves were sent: the round trips by the window they were sent in
    (``join``: before the warm-up ended; ``steady``: up to the kill; ``takeover``: from
    the kill until the last of the dead host's tables moved again; ``after``: the rest),
    each window's share of the whole run's trips over its p95, per host the bot is
    connected to (relayed or direct), and second by second; the joins' times too."""
    whole = sorted(t for _, t, _, _ in stats.sent)
    p95 = whole[int(0.95 * (len(whole) - 1))] if whole else 0.0
    back = killed_at + (max(recovered) if recovered else 0.0)
    warm = min(stats.warm_at, stats.steady_end)
    bounds = {
        "join": (began, warm),
        "steady": (warm, stats.steady_end),
        "takeover": (stats.steady_end, back),
        "after": (back, float("inf")),
    }
    out: dict[str, object] = {}
    for window, (low, high) in bounds.items():
        trips = [t for at, t, _, _ in stats.sent if low <= at < high]
        row: dict[str, object] = dict(summary(trips))
        row["over_p95"] = sum(1 for t in trips if t > p95)
        for h in range(hosts):
            for relayed in (False, True):
                mine = [
                    t for at, t, c, r in stats.sent if low <= at < high and c == h and r == relayed
                ]
                row[f"h{h}{'r' if relayed else 'd'}_p95"] = summary(mine)["p95"]
        out[window] = row
    seconds: list[dict[str, object]] = []
    last = max((at for at, _, _, _ in stats.sent), default=began)
    for second in range(int(last - began) + 1):
        low = began + second
        trips = [t for at, t, _, _ in stats.sent if low <= at < low + 1]
        row = dict(summary(trips))
        row["s"] = second
        row["joins"] = sum(1 for at, _, _ in stats.joins if low <= at < low + 1)
        seconds.append(row)
    out["by_second"] = seconds
    out["p95_ms"] = round(1000 * p95, 1)
    out["joins"] = summary([t for _, t, _ in stats.joins])
    out["kill_at_s"] = round(killed_at - began, 2)
    return out


def print_windows(found: object) -> None:
    assert isinstance(found, dict)
    print(
        f"{'window':>10} {'n':>5} {'p50':>7} {'p95':>7} {'p99':>7} {'max':>7} {'>p95':>5}",
        " per host p95 (d direct, r relayed)",
    )
    for window in ("join", "steady", "takeover", "after"):
        row = found[window]
        per_host = " ".join(
            f"{k[:-4]}={v}" for k, v in row.items() if k.endswith("_p95") and k != "over_p95"
        )
        print(
            f"{window:>10} {row['n']:>5} {row['p50']!s:>7} {row['p95']!s:>7} {row['p99']!s:>7}"
            f" {row['max']!s:>7} {row['over_p95']:>5}  {per_host}"
        )
    print(f"joins: {found['joins']}; the kill (or the database back) at {found['kill_at_s']} s")
    print("by second sent: s n p50 p95 max joins")
    for row in found["by_second"]:
        print(
            f"  {row['s']:>3} {row['n']:>4} {row['p50']!s:>7} {row['p95']!s:>7}",
            f"{row['max']!s:>7} {row['joins']:>4}",
        )


async def db_connections(server: object, database: str) -> int:
    import psycopg

    with psycopg.connect(database) as conn:
        row = conn.execute(
            "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database()"
        ).fetchone()
    return int(row[0]) - 1 if row else 0


async def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tables", type=int, default=30)
    parser.add_argument("--hosts", type=int, default=3)
    parser.add_argument("--think", type=float, default=0.5)
    parser.add_argument("--kill-after", type=float, default=6.0)
    parser.add_argument(
        "--warmup",
        type=float,
        default=3.0,
        help="the steady round trips count from the last seat's first join, and this many"
        " seconds in at the soonest (up to the kill)",
    )
    parser.add_argument(
        "--sigstop",
        type=float,
        default=None,
        metavar="SECONDS",
        help="no kill: stop host 0 (SIGSTOP) at --kill-after, let it go on (SIGCONT) after this",
    )
    parser.add_argument(
        "--outage",
        type=float,
        default=None,
        metavar="SECONDS",
        help="no kill: stop the database this long at --kill-after, then start it again",
    )
    parser.add_argument("--duration", type=float, default=20.0)
    parser.add_argument("--database", default=None)
    parser.add_argument("--json", action="store_true")
    parser.add_argument("--keep", action="store_true", help="keep the hosts' logs")
    parser.add_argument(
        "--profile",
        type=Path,
        default=None,
        help="a folder: py-spy records each host and the bots in each window (raw stacks)",
    )
    args = parser.parse_args()

    server = None
    database = args.database
    if args.outage is not None and database is not None:
        print("cluster_load: --outage stops its own database: no --database", file=sys.stderr)
        return 2
    if database is None:
        from pg import find_pg_bin, start_server  # tests/pg.py

        bin_dir = find_pg_bin()
        if bin_dir is None:
            print("cluster_load: no PostgreSQL (apt-get install postgresql)", file=sys.stderr)
            return 1
        server = start_server(bin_dir)
        database = server.dsn(server.create_database())
    folder = Path(tempfile.mkdtemp(prefix="paris-cluster-"))
    procs: list[asyncio.subprocess.Process] = []
    rng = random.Random(1)
    stats = Stats()
    try:
        names = {f"t{i + 1}": [f"p{i + 1}s{s}" for s in range(4)] for i in range(args.tables)}
        shares: list[list[str]] = [[] for _ in range(args.hosts)]
        # Table ids come from the database's sequence: host 0 opens the first share, ...
        ports: list[int] = []
        first = 0
        owner: dict[str, int] = {}
        for h in range(args.hosts):
            count = args.tables // args.hosts + (1 if h < args.tables % args.hosts else 0)
            share = [",".join(names[f"t{first + i + 1}"]) for i in range(count)]
            for i in range(count):
                owner[f"t{first + i + 1}"] = h
            first += count
            proc, port = await start_host(folder / f"h{h}", database, share)
            procs.append(proc)
            ports.append(port)
            shares[h] = share
        alive = set(ports)
        stop = asyncio.Event()
        began = time.perf_counter()
        stats.warm_min = began + args.warmup
        stats.seats = sum(len(seats) for seats in names.values())
        tasks = [
            asyncio.create_task(
                play_seat(
                    name,
                    table,
                    owner[table],
                    ports,
                    alive,
                    args.think,
                    stats,
                    random.Random(rng.random()),
                    stop,
                )
            )
            for table, seats in names.items()
            for name in seats
        ]
        spies: list[asyncio.subprocess.Process] = []
        if args.profile is not None:
            args.profile.mkdir(parents=True, exist_ok=True)
            spies += await spy(args.profile, "join", procs, args.warmup)
            await asyncio.sleep(args.warmup)
            spies += await spy(args.profile, "steady", procs, args.kill_after - args.warmup)
            await asyncio.sleep(args.kill_after - args.warmup)
        else:
            await asyncio.sleep(args.kill_after)
        peak_connections = await db_connections(server, database)
        victim = 0 if args.outage is None else -1
        outage_at = None
        if args.outage is not None:
            assert server is not None
            outage_at = stats.steady_end = time.perf_counter()
            event_wall = time.time()
            await asyncio.to_thread(server.stop)
            await asyncio.sleep(args.outage)
            await asyncio.to_thread(server.start)
            killed_at = time.perf_counter()  # the database's return: what recovers from
            stats.killed_at = killed_at
        elif args.sigstop is not None:  # a host that stalls: its tables go, it comes back
            import signal

            procs[victim].send_signal(signal.SIGSTOP)
            event_wall = time.time()
            killed_at = stats.steady_end = time.perf_counter()
            stats.killed_at = killed_at
            alive.discard(ports[victim])

            async def cont() -> None:
                await asyncio.sleep(args.sigstop)
                procs[victim].send_signal(signal.SIGCONT)
                alive.add(ports[victim])

            asyncio.get_running_loop().create_task(cont())
        else:
            procs[victim].kill()  # kill -9
            event_wall = time.time()
            killed_at = stats.steady_end = time.perf_counter()
            stats.killed_at = killed_at
            alive.discard(ports[victim])
        if args.keep:
            print(f"{'outage' if outage_at else 'killed host 0'} at {killed_at:.2f}")
        if args.profile is not None:
            spies += await spy(args.profile, "takeover", procs, 5.0, skip=victim)
        # The killed host's tables whose game had not ended (as far as any client saw);
        # after an outage, every table's.
        victims = [
            t for t, h in owner.items() if (h == victim or victim < 0) and t not in stats.over
        ]
        await asyncio.sleep(max(0.0, args.duration - args.kill_after))
        stop.set()
        await asyncio.wait(tasks, timeout=TIMEOUT)
        for proc in spies:
            await proc.wait()
        elapsed = time.perf_counter() - began
        recovered = [stats.back_at[t] - killed_at for t in victims if t in stats.back_at]
        # Moves lost: a client saw more moves than the database holds.
        import psycopg

        with psycopg.connect(database) as conn:
            rows = dict(
                conn.execute(
                    "SELECT table_id, count(*) FROM paris_moves GROUP BY table_id"
                ).fetchall()
            )
        lost = sum(max(0, seen - int(rows.get(t, 0))) for t, seen in stats.seen.items())
        trips = sorted(stats.trips)
        steady = sorted(stats.steady)
        result = {
            "hosts": args.hosts,
            "tables": args.tables,
            "seats": 4 * args.tables,
            "moves": stats.moves,
            "moves_per_second": round(stats.moves / elapsed, 1),
            "round_trip_ms_p50": round(1000 * statistics.median(trips), 1) if trips else None,
            "round_trip_ms_p95": round(1000 * trips[int(0.95 * (len(trips) - 1))], 1)
            if trips
            else None,
            "steady_trips": len(steady),
            "steady_ms_p50": round(1000 * statistics.median(steady), 1) if steady else None,
            "steady_ms_p95": round(1000 * steady[int(0.95 * (len(steady) - 1))], 1)
            if steady
            else None,
            "steady_ms_p99": round(1000 * steady[int(0.99 * (len(steady) - 1))], 1)
            if steady
            else None,
            "errors": len(stats.errors),
            "db_connections": peak_connections,
            "killed_host_tables": len(victims),
            "tables_moving_again": len(recovered),
            "seconds_to_recover": round(max(recovered), 2) if recovered else None,
            "seconds_to_recover_p50": round(statistics.median(recovered), 2) if recovered else None,
            "moves_lost": lost,
            # The killed host's tables not seen moving again: id, moves seen, moves held.
            "not_moving_again": [
                f"{t}:{stats.seen.get(t, 0)}/{int(rows.get(t, 0))}"
                for t in victims
                if t not in stats.back_at
            ][:10],
        }
        # The takeovers, from the hosts' logs (each line stamped with this run's clock):
        # how many, and the last one's seconds after the kill (or the outage's start).
        # The hosts stamp their lines (UTC, ms); this run's clock may lag under load.
        takeovers = []
        for log in folder.glob("h*.log"):
            for line in log.read_text(encoding="utf-8", errors="replace").splitlines():
                if "took over table" in line:
                    with contextlib.suppress(ValueError, IndexError):
                        stamp = line.split("paris-tui host: ", 1)[1].split(" ", 1)[0]
                        at = datetime.fromisoformat(stamp.replace("Z", "+00:00")).timestamp()
                        if at >= event_wall:
                            takeovers.append(at - event_wall)
        result["takeovers"] = len(takeovers)
        result["seconds_to_last_takeover"] = round(max(takeovers), 2) if takeovers else None
        if outage_at is not None:
            # Tables that changed referee: the hosts' takeovers (none were killed).
            taken = len(takeovers)
            dropped = [n for n, at in stats.dropped.items() if at >= outage_at]
            back = [stats.rejoined[n] - killed_at for n in dropped if n in stats.rejoined]
            result["outage_s"] = args.outage
            result["tables_moved"] = taken
            result["players_dropped"] = len(dropped)
            result["players_not_back"] = len(dropped) - len(back)
            result["seconds_players_back_max"] = round(max(back), 2) if back else None
        result["windows"] = windows(stats, began, killed_at, recovered, args.hosts)
        if args.json:
            print(json.dumps(result))
        else:
            for key, value in result.items():
                if key != "windows":
                    print(f"{key:>22}: {value}")
            print_windows(result["windows"])
            for line in stats.errors[:5]:
                print(f"  error: {line}")
        return 0
    finally:
        for proc in procs:
            if proc.returncode is None:
                proc.terminate()
                try:
                    await asyncio.wait_for(proc.wait(), 10)
                except TimeoutError:
                    proc.kill()
        if server is not None:
            from pg import stop_server

            stop_server(server)
        import shutil

        print("logs in", folder) if "--keep" in sys.argv else shutil.rmtree(
            folder, ignore_errors=True
        )


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
