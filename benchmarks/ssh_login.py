"""SSH players on one host: login to first frame, and memory per player (issue 9).

Starts ``paris-tui host`` as its own process (SSH door on a free port,
tables of four human seats ``p1``..``pN``), then logs N players in over SSH
one after another (asyncssh clients with a 120x40 pty, in this process),
each with a key of its own. For each login it measures the time from
opening the TCP connection to the first frame of the game on the player's
screen (the bytes go through ``pyte``, a terminal emulator, until the map's
stop names and the player's name are drawn). With every player still
logged in, it reads from /proc the resident memory of each player's app
process (RSS, and PSS, which shares the pages common to every app between
them) and the host's growth since before the first login.

    .venv/bin/python benchmarks/ssh_login.py --players 8

Target: an SSH login to its first frame in under 2 s on a 2-core machine.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import signal
import statistics
import sys
import tempfile
import time
from pathlib import Path

import asyncssh
import pyte

from paris_tui.host.ssh import SSHConfig

TIMEOUT = 60.0
SIZE = (120, 40)
FIRST_FRAME = ("Louvre", "Opéra")  # stop names drawn on the map of the game screen


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


class Screen:
    def __init__(
        self, process: asyncssh.SSHClientProcess[bytes], size: tuple[int, int] = SIZE
    ) -> None:
        self.process = process
        self.screen = pyte.Screen(*size)
        self.stream = pyte.ByteStream(self.screen)

    def text(self) -> str:
        return "\n".join(self.screen.display)

    async def wait_for(self, *texts: str) -> None:
        deadline = time.monotonic() + TIMEOUT
        while not all(t in self.text() for t in texts):
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
            self.stream.feed(chunk)

    async def drain(self) -> None:
        """Keep reading (a player's terminal keeps up with the app)."""
        while chunk := await self.process.stdout.read(65536):
            self.stream.feed(chunk)


async def _start_host(data_dir: Path, players: int) -> tuple[asyncio.subprocess.Process, int]:
    names = [f"p{i + 1}" for i in range(players)]
    tables: list[str] = []
    for start in range(0, players, 4):
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
        str(len(tables)),
        *tables,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.DEVNULL,
    )
    assert proc.stdout is not None
    async with asyncio.timeout(TIMEOUT):
        while True:
            line = (await proc.stdout.readline()).decode()
            if not line:
                raise RuntimeError("the host exited")
            if "SSH on " in line:
                return proc, int(line.split("SSH on ", 1)[1].split(";")[0].rsplit(":", 1)[1])


async def run(players: int, size: tuple[int, int] = SIZE) -> dict[str, object]:
    with tempfile.TemporaryDirectory(prefix="paris-ssh-bench-") as tmp:
        host, port = await _start_host(Path(tmp), players)
        conns: list[asyncssh.SSHClientConnection] = []
        drains: list[asyncio.Task[None]] = []
        try:
            await asyncio.sleep(1.0)
            before = _memory(host.pid)
            logins: list[float] = []
            auths: list[float] = []
            cpus: list[int] = []
            seen: set[int] = set()
            first_app: list[int] = []
            processes: list[asyncssh.SSHClientProcess[bytes]] = []
            for i in range(players):
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
                )
                conns.append(conn)
                auths.append(time.perf_counter() - started)
                process = await conn.create_process(
                    term_type="xterm-256color", term_size=size, encoding=None
                )
                processes.append(process)
                screen = Screen(process, size)
                await screen.wait_for(*FIRST_FRAME, f"p{i + 1}")
                logins.append(time.perf_counter() - started)
                new = [pid for pid in _children(host.pid) if pid not in seen]
                seen.update(new)
                if not first_app and new:
                    first_app.append(new[0])
                cpus += [_cpu_ms(pid) for pid in new]
                drains.append(asyncio.create_task(screen.drain()))
            await asyncio.sleep(2.0)  # every app settled
            apps = [_memory(pid) for pid in _children(host.pid)]
            after = _memory(host.pid)
            # The cost of a whole repaint at this size: the first player's window
            # shrinks by one cell and grows back, twice (four repaints).
            repaint_ms = 0.0
            repaint_rss = 0
            if first_app and processes:
                pid, proc = first_app[0], processes[0]
                cpu = _cpu_ms(pid)
                for _ in range(2):
                    for w, h in ((size[0] - 1, size[1] - 1), size):
                        proc.change_terminal_size(w, h)
                        await asyncio.sleep(1.5)
                repaint_ms = (_cpu_ms(pid) - cpu) / 4
                repaint_rss = _memory(pid)["rss"]
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
        "login_to_first_frame_s": {
            "p50": round(statistics.median(logins), 3),
            "max": round(max(logins), 3),
            "first": round(logins[0], 3),
            "ssh_login_p50": round(statistics.median(auths), 3),
        },
        "app_cpu_to_first_frame_ms_p50": statistics.median(cpus) if cpus else None,
        "load_average_1min": round(os.getloadavg()[0], 2),
        "app_mb": {
            "processes": len(apps),
            "rss_mean": round(statistics.mean(a["rss"] for a in apps) / 1024, 1),
            "pss_mean": round(statistics.mean(a["pss"] for a in apps) / 1024, 1),
        },
        "host_rss_mb": {
            "before": round(before["rss"] / 1024, 1),
            "after": round(after["rss"] / 1024, 1),
            "growth_per_player": round((after["rss"] - before["rss"]) / 1024 / players, 2),
        },
        "cpus": os.cpu_count(),
        "size": f"{size[0]}x{size[1]}",
        "repaint_cpu_ms": round(repaint_ms),
        "repainted_app_rss_mb": round(repaint_rss / 1024, 1),
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--players", type=int, default=8, help="SSH players (default 8, at most 16)"
    )
    parser.add_argument(
        "--size",
        default=f"{SIZE[0]}x{SIZE[1]}",
        help="each player's window, COLSxROWS (default 120x40; the door allows 500x200)",
    )
    parser.add_argument("--json", action="store_true", help="print JSON")
    args = parser.parse_args()
    try:
        cols, rows = (int(x) for x in args.size.lower().split("x"))
    except ValueError:
        parser.error("--size is COLSxROWS, e.g. 500x200")
    # Every player logs in from 127.0.0.1 here: the door's cap per address.
    if not 1 <= args.players <= SSHConfig().max_per_address:
        parser.error(f"--players must be between 1 and {SSHConfig().max_per_address}")
    result = asyncio.run(run(args.players, (cols, rows)))
    if args.json:
        print(json.dumps(result))
        return 0
    login = result["login_to_first_frame_s"]
    app = result["app_mb"]
    grow = result["host_rss_mb"]
    assert isinstance(login, dict) and isinstance(app, dict) and isinstance(grow, dict)
    print(
        f"{args.players} SSH players: login to first frame p50 {login['p50']} s, "
        f"max {login['max']} s (first {login['first']} s); of which the SSH login "
        f"{login['ssh_login_p50']} s; the app's CPU time to its first frame "
        f"{result['app_cpu_to_first_frame_ms_p50']} ms (load average "
        f"{result['load_average_1min']} on {result['cpus']} CPUs)"
    )
    print(
        f"app per player: RSS {app['rss_mean']} MB, PSS {app['pss_mean']} MB "
        f"({app['processes']} apps)"
    )
    print(
        f"host RSS {grow['before']} MB before, {grow['after']} MB with every player "
        f"({grow['growth_per_player']} MB per player)"
    )
    print(
        f"a whole repaint at {result['size']}: {result['repaint_cpu_ms']} ms of the app's "
        f"CPU; its RSS after {result['repainted_app_rss_mb']} MB"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
