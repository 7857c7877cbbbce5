"""SSH players on one host: login to first frame, memory and idle CPU per player.

Starts ``paris-tui host`` as its own process (SSH door on a free port,
tables of four human seats ``p1``..``pN``), then logs N players in over SSH,
all at once (``--one-by-one``: one after another), asyncssh clients with a
120x40 pty in this process, each with a key of its own and from an address
of 127.0.0.0/8 of its own for every ten (the door caps the sessions per
address). For each login it measures the time from opening the TCP
connection to the first frame of the game on the player's screen (the bytes
are searched until the map's stop names and the player's name are drawn; a
screen is rendered with ``pyte`` only for a message). With every player
still logged in, it reads from /proc the CPU time each player's app
process used so far (2 s after the last first frame: less dependent on a
busy machine's other work than the wall time), the resident memory of each
player's app process (RSS, and PSS, which shares the pages common to every app
between them; the apps are the host's descendants but its fork server),
the host's, and the CPU time the host,
its fork server and every app use in ``--idle`` seconds of N open idle
sessions (as a share of one core).

    .venv/bin/python benchmarks/ssh_login.py --players 1,12,50

It needs ``pyte``, one of the dev tools: run it from the venv that
``bash scripts/_venv.sh dev`` (or ``./scripts/test``) makes.

Targets (the doors' warm start): 12 logins at once, median at most 0.5 s, max at most 1 s;
at most 20 MB PSS per player.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import os
import signal
import statistics
import sys
import tempfile
import time
from pathlib import Path

import asyncssh

try:
    import pyte
except ImportError:  # pragma: no cover - the game's own install
    sys.exit(
        "benchmarks/ssh_login.py needs pyte, a dev tool: run bash scripts/_venv.sh dev,"
        " then .venv/bin/python benchmarks/ssh_login.py"
    )

TIMEOUT = 60.0
SIZE = (120, 40)
FIRST_FRAME = ("Louvre", "Opéra")  # stop names drawn on the map of the game screen
LOBBY_FRAME = ("the tables of this host",)  # the lobby's title (--lobby)
LOBBY = False  # --lobby: the players have no seat and land in the lobby
AWAY = False  # --away: each terminal reports the focus lost (FocusOut) before the idle time


def _memory(pid: int) -> dict[str, int]:
    """RSS (kB, /proc/PID/status) and PSS (kB, /proc/PID/smaps_rollup)."""
    out = {"rss": 0, "pss": 0}
    with open(f"/proc/{pid}/status") as handle:
        for line in handle:
            if line.startswith("VmRSS:"):
                out["rss"] = int(line.split()[1])
    try:
        with open(f"/proc/{pid}/smaps_rollup") as handle:
            for line in handle:
                if line.startswith("Pss:"):
                    out["pss"] = int(line.split()[1])
    except OSError:  # pragma: no cover - older kernels
        pass
    return out


def smaps_summary(pid: int, top: int = 12) -> list[tuple[str, int, int]]:
    """The mappings of a process with the most private dirty memory (copied after its
    fork, or its own): ``(name, Private_Dirty kB, Pss kB)``, the largest first."""
    found: dict[str, list[int]] = {}
    name = "?"
    with open(f"/proc/{pid}/smaps") as handle:
        for line in handle:
            head = line.split(None, 1)[0]
            if not head.endswith(
                ":"
            ):  # a mapping's first line: range perms offset dev inode [path]
                parts = line.split(None, 5)
                start, end = (int(x, 16) for x in parts[0].split("-"))
                size = (end - start) // 1024  # anonymous mappings apart by size (arenas...)
                name = parts[5].strip() if len(parts) > 5 else f"[anonymous of {size} kB]"
                found.setdefault(name, [0, 0])
            elif head == "Private_Dirty:":
                found[name][0] += int(line.split()[1])
            elif head == "Pss:":
                found[name][1] += int(line.split()[1])
    rows = sorted(((n, d, p) for n, (d, p) in found.items()), key=lambda r: -r[1])
    return rows[:top]


def _cpu_ms(pid: int) -> int:
    with open(f"/proc/{pid}/stat") as handle:
        fields = handle.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) * 1000 // os.sysconf("SC_CLK_TCK")


def _children(pid: int) -> list[int]:
    kids: list[int] = []
    task_dir = Path(f"/proc/{pid}/task")
    for task in task_dir.iterdir():
        try:
            kids += [int(p) for p in (task / "children").read_text().split()]
        except OSError:
            continue
    return kids


def _descendants(pid: int) -> list[int]:
    found: list[int] = []
    todo = _children(pid)
    while todo:
        kid = todo.pop()
        found.append(kid)
        with contextlib.suppress(OSError):
            todo += _children(kid)
    return found


def _is_fork_server(pid: int) -> bool:
    try:
        return b"paris_tui.doors.zygote" in Path(f"/proc/{pid}/cmdline").read_bytes()
    except OSError:
        return False


def _apps(host: int) -> list[int]:
    """The players' app processes: the host's descendants but its fork server (whose
    children, forked from it, show its command line too)."""
    servers = {pid for pid in _children(host) if _is_fork_server(pid)}
    return [pid for pid in _descendants(host) if pid not in servers]


class Screen:
    def __init__(self, process: asyncssh.SSHClientProcess[bytes]) -> None:
        self.process = process
        self.screen = pyte.Screen(*SIZE)
        self.stream = pyte.ByteStream(self.screen)
        self.raw = bytearray()

    def text(self) -> str:
        self.stream.feed(bytes(self.raw))  # (for a message: the screen so far)
        self.raw.clear()
        return "\n".join(self.screen.display)

    async def wait_for(self, *texts: str) -> None:
        """Until every text is in the bytes received: the stop names come as whole
        runs of text, so the bytes are searched (a terminal emulator per player,
        fifty of them, would take the cores the host needs)."""
        wanted = [t.encode() for t in texts]
        deadline = time.monotonic() + TIMEOUT
        while not all(w in self.raw for w in wanted):
            left = deadline - time.monotonic()
            if left <= 0:
                raise TimeoutError(f"never drawn: {texts}\n{self.text()}")
            try:
                async with asyncio.timeout(left):
                    chunk = await self.process.stdout.read(65536)
            except TimeoutError:
                continue
            if not chunk:
                raise ConnectionError(f"the session ended:\n{self.text()}")
            self.raw += chunk

    async def drain(self) -> None:
        """Keep reading (a player's terminal keeps up with the app)."""
        while await self.process.stdout.read(65536):
            pass


CHECKOUT: str | None = None  # --checkout: the paris-tui of another checkout runs the host
SMAPS = False  # --smaps: where the first app's private memory is
TRACE_ENV: dict[str, str] = {}  # --trace / --profile: paris_tui/trace.py's variables


async def _start_host(data_dir: Path, players: int) -> tuple[asyncio.subprocess.Process, int]:
    names = [f"p{i + 1}" for i in range(players)]
    tables: list[str] = []
    for start in range(0, 0 if LOBBY else players, 4):
        seats = names[start : start + 4]
        if len(seats) == 1:
            seats.append("ai:random")
        tables += ["--table", ",".join(seats)]
    proc = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "paris_tui.cli",
        "host",
        "--port",
        "0",
        "--ssh-port",
        "0",
        "--data-dir",
        str(data_dir),
        "--max-tables",
        str(max(1, len(tables))),
        *tables,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.DEVNULL,
        cwd=data_dir,  # not this checkout: python -m finds modules in the cwd first
        env={
            **os.environ,
            **({"PYTHONPATH": CHECKOUT} if CHECKOUT else {}),
            **TRACE_ENV,
        },
    )
    assert proc.stdout is not None
    async with asyncio.timeout(TIMEOUT):
        while True:
            line = (await proc.stdout.readline()).decode()
            if not line:
                raise RuntimeError("the host exited")
            if "SSH on " in line:
                return proc, int(line.split("SSH on ", 1)[1].split(";")[0].rsplit(":", 1)[1])


async def _login(
    i: int, port: int, size: tuple[int, int] = SIZE
) -> tuple[asyncssh.SSHClientConnection, Screen, float, float, asyncssh.SSHClientProcess[bytes]]:
    """Player ``p{i+1}`` logs in (from 127.0.0.x: at most 10 players per address) and
    waits for the first frame; the seconds to the SSH login and to the first frame."""
    key = asyncssh.generate_private_key("ssh-ed25519")
    started = time.perf_counter()
    conn = await asyncssh.connect(
        "127.0.0.1",
        port,
        username=f"p{i + 1}",
        client_keys=[key],
        known_hosts=None,
        agent_path=None,
        config=None,
        local_addr=(f"127.0.0.{2 + i // 4}", 0),  # the door takes 4 players per address
    )
    auth = time.perf_counter() - started
    process = await conn.create_process(term_type="xterm-256color", term_size=size, encoding=None)
    screen = Screen(process)
    await screen.wait_for(*(LOBBY_FRAME if LOBBY else FIRST_FRAME), f"p{i + 1}")
    return conn, screen, auth, time.perf_counter() - started, process


def _cpu_total_ms(pids: list[int]) -> int:
    total = 0
    for pid in pids:
        with contextlib.suppress(OSError):
            total += _cpu_ms(pid)
    return total


async def run(
    players: int, *, together: bool, idle: float, size: tuple[int, int] = SIZE
) -> dict[str, object]:
    with tempfile.TemporaryDirectory(prefix="paris-ssh-bench-") as tmp:
        host, port = await _start_host(Path(tmp), players)
        conns: list[asyncssh.SSHClientConnection] = []
        drains: list[asyncio.Task[None]] = []
        try:
            await asyncio.sleep(3.0)  # the host (and its fork server) ready
            before = _memory(host.pid)
            # The CPU time of the burst, whose: the host (its event loop: SSH handshakes,
            # channel writes, joins) and its fork server, and these clients (they share
            # the cores: asyncssh handshakes, decryption, the searches for the frame).
            servers = [host.pid, *(p for p in _children(host.pid) if _is_fork_server(p))]
            host_cpu = _cpu_total_ms(servers)
            client_cpu = time.process_time()
            results = []
            if together:
                results = await asyncio.gather(*(_login(i, port, size) for i in range(players)))
            else:
                for i in range(players):
                    results.append(await _login(i, port, size))
            for conn, screen, *_ in results:
                conns.append(conn)
                drains.append(asyncio.create_task(screen.drain()))
            host_cpu = _cpu_total_ms(servers) - host_cpu
            client_cpu = (time.process_time() - client_cpu) * 1000
            auths = [r[2] for r in results]
            logins = [r[3] for r in results]
            await asyncio.sleep(2.0)  # every app settled
            apps = _apps(host.pid)
            # CPU time each app used from its fork to here (a figure that depends less
            # on the other work of a busy machine than the wall time does).
            app_cpu = _cpu_total_ms(apps) / max(1, len(apps))
            memory = [_memory(pid) for pid in apps]
            smaps = smaps_summary(apps[0]) if SMAPS and apps else []
            after = _memory(host.pid)
            if AWAY:  # every player switches to another window (xterm's focus report)
                for *_, player in results:
                    player.stdin.write(b"\x1b[O")
                await asyncio.sleep(1.0)
            everyone = [host.pid, *_descendants(host.pid)]
            cpu_before, host_before = _cpu_total_ms(everyone), _cpu_ms(host.pid)
            await asyncio.sleep(idle)
            idle_cpu = (_cpu_total_ms(everyone) - cpu_before) / (idle * 1000) * 100
            idle_host = (_cpu_ms(host.pid) - host_before) / (idle * 1000) * 100
            # The cost of a whole repaint at this size: the first player's window
            # shrinks by one cell and grows back, twice (four repaints), measured as
            # the CPU time of every app (only the first one repaints).
            process = results[0][4]
            cpu = _cpu_total_ms(apps)
            for _ in range(2):
                for w, h in ((size[0] - 1, size[1] - 1), size):
                    process.change_terminal_size(w, h)
                    await asyncio.sleep(1.5)
            repaint_ms = (_cpu_total_ms(apps) - cpu) / 4
            repaint_rss = max(_memory(pid)["rss"] for pid in apps)
        finally:
            for conn in conns:
                conn.close()
            for task in drains:
                task.cancel()
            host.send_signal(signal.SIGTERM)
            async with asyncio.timeout(TIMEOUT):
                await host.wait()
    return {
        "players": players,
        "together": together,
        "login_to_first_frame_s": {
            "p50": round(statistics.median(logins), 3),
            "max": round(max(logins), 3),
            "first": round(logins[0], 3),
            "ssh_login_p50": round(statistics.median(auths), 3),
        },
        "load_average_1min": round(os.getloadavg()[0], 2),
        "app_cpu_ms_to_settled": round(app_cpu),
        "host_cpu_ms_to_last_frame": round(host_cpu),
        "client_cpu_ms_to_last_frame": round(client_cpu),
        "app_mb": {
            "processes": len(memory),
            "rss_mean": round(statistics.mean(a["rss"] for a in memory) / 1024, 1),
            "pss_mean": round(statistics.mean(a["pss"] for a in memory) / 1024, 1),
        },
        "host_rss_mb": {
            "before": round(before["rss"] / 1024, 1),
            "after": round(after["rss"] / 1024, 1),
            "growth_per_player": round((after["rss"] - before["rss"]) / 1024 / players, 2),
        },
        "idle_cpu_percent_of_one_core": round(idle_cpu, 1),
        "idle_cpu_percent_host": round(idle_host, 1),
        "size": f"{size[0]}x{size[1]}",
        "repaint_cpu_ms": round(repaint_ms, 1),
        "repainted_app_rss_mb": round(repaint_rss / 1024, 1),
        "cpus": os.cpu_count(),
        "smaps": smaps,
    }


def _timeline(path: Path) -> None:
    """The trace's lines (paris_tui/trace.py), in ms from the first, each process's
    steps apart: the host (and its fork server), then each app."""
    try:
        lines = [line.split(" ", 2) for line in path.read_text().splitlines()]
    except OSError:
        print("  (no trace written)")
        return
    # From the first login on (the fork server's warm-up marks its own screen first).
    accepts = [i for i, line in enumerate(lines) if line[2] == "ssh accept"]
    lines = lines[accepts[0] :] if accepts else lines
    if not lines:
        return
    start = float(lines[0][0])
    for when, pid, label in lines:
        print(f"  {(float(when) - start) * 1000:8.1f} ms  {pid:>7}  {label}")
    path.unlink()


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--players",
        default="1,12,50",
        help="SSH players per run, comma-separated (default 1,12,50; at most 60)",
    )
    parser.add_argument(
        "--one-by-one", action="store_true", help="log in one after another, not all at once"
    )
    parser.add_argument(
        "--idle", type=float, default=5.0, help="seconds of idle sessions to time (default 5)"
    )
    parser.add_argument(
        "--checkout", metavar="DIR", help="run the host of another checkout (e.g. an older commit)"
    )
    parser.add_argument(
        "--size",
        default="120x40",
        help="each player's window, COLSxROWS (the door clamps it to 500x200)",
    )
    parser.add_argument(
        "--trace",
        action="store_true",
        help="print the timeline of each run's logins (PARIS_TUI_TRACE, paris_tui/trace.py)",
    )
    parser.add_argument(
        "--profile",
        metavar="DIR",
        help="profile each forked app to its first frame into DIR/app-PID.prof",
    )
    parser.add_argument(
        "--smaps",
        action="store_true",
        help="list the first app's mappings with the most private dirty memory",
    )
    parser.add_argument(
        "--lobby",
        action="store_true",
        help="players without a seat: each lands in the lobby (its first frame, its idle cost)",
    )
    parser.add_argument(
        "--away",
        action="store_true",
        help="each terminal reports the focus lost before the idle sessions are timed",
    )
    parser.add_argument("--json", action="store_true", help="print JSON")
    args = parser.parse_args()
    global CHECKOUT, SMAPS, LOBBY, AWAY  # noqa: PLW0603 - one setting for the whole run
    SMAPS, LOBBY, AWAY = args.smaps, args.lobby, args.away
    CHECKOUT = os.path.abspath(args.checkout) if args.checkout else None
    try:
        cols, rows = (int(x) for x in args.size.lower().split("x"))
    except ValueError:
        parser.error("--size is COLSxROWS, e.g. 500x200")
    size = (cols, rows)
    counts = [int(n) for n in args.players.split(",")]
    if not all(1 <= n <= 60 for n in counts):
        parser.error("--players: each between 1 and 60")
    trace = Path(tempfile.gettempdir()) / f"paris-ssh-trace-{os.getpid()}.txt"
    if args.trace:
        TRACE_ENV["PARIS_TUI_TRACE"] = str(trace)
    if args.profile:
        os.makedirs(args.profile, exist_ok=True)
        TRACE_ENV["PARIS_TUI_PROFILE"] = os.path.abspath(args.profile)
    for n in counts:
        result = asyncio.run(run(n, together=not args.one_by_one, idle=args.idle, size=size))
        if args.json:
            print(json.dumps(result), flush=True)
            continue
        login = result["login_to_first_frame_s"]
        app = result["app_mb"]
        grow = result["host_rss_mb"]
        assert isinstance(login, dict) and isinstance(app, dict) and isinstance(grow, dict)
        how = "at once" if not args.one_by_one else "one by one"
        if LOBBY:
            how += " (in the lobby)"
        if AWAY:
            how += " (then in the background)"
        print(
            f"{n} SSH players {how}: connect to first frame median {login['p50']} s, "
            f"max {login['max']} s; of which the SSH login {login['ssh_login_p50']} s "
            f"(load average {result['load_average_1min']} on {result['cpus']} CPUs)"
        )
        print(
            f"  app per player: RSS {app['rss_mean']} MB, PSS {app['pss_mean']} MB "
            f"({app['processes']} apps); host RSS {grow['before']} MB before, "
            f"{grow['after']} MB after; CPU time of each app to 2 s after the last "
            f"first frame {result['app_cpu_ms_to_settled']} ms; {n} idle sessions: "
            f"{result['idle_cpu_percent_of_one_core']}% of one core "
            f"(the host's own process {result['idle_cpu_percent_host']}%)",
            flush=True,
        )
        print(
            f"  CPU time to the last first frame: the host and its fork server "
            f"{result['host_cpu_ms_to_last_frame']} ms, these {n} clients "
            f"{result['client_cpu_ms_to_last_frame']} ms",
            flush=True,
        )
        print(
            f"  a whole repaint at {result['size']}: {result['repaint_cpu_ms']} ms of the "
            f"app's CPU; the largest app's RSS after {result['repainted_app_rss_mb']} MB",
            flush=True,
        )
        if args.trace:
            _timeline(trace)
        for name, dirty, pss in result["smaps"]:  # type: ignore[attr-defined]
            print(f"  private dirty {dirty:6d} kB, PSS {pss:6d} kB: {name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
