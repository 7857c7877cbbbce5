"""A real table played beside a burst of input attacks on the doors: move latency,
and what the attacked apps cost.

Starts ``paris-tui host`` as its own process (``--table ann,bob``, the SSH door and
the browser door on free ports, the real app in every session), joins two
protocol clients as ann and bob and plays their table: each move's round-trip
(sent until both players have its update) is measured, ``--moves`` before the
attack and ``--moves`` during it. The attack, all from 127.0.0.1:

- ``--tabs`` browser tabs at once (textual-serve's protocol over a WebSocket):
  each that gets an app sends 64 frames of 60,000 keys, then single keys as
  fast as the socket takes them and a resize every so often, for ``--seconds``;
- ``--ssh`` SSH sessions at once (asyncssh, a 120x40 pty): each that gets an
  app writes 4 MiB, then single keys, one packet each, for ``--seconds``;
- after it, names that draw as another's, over the protocol (the refusals are
  printed).

It prints the latency (p50, p95, max) before and during, how many tabs and SSH
sessions one address got, the apps' resident memory (largest, all together) and
the CPU-seconds the apps and the host used during the attack.

    .venv/bin/python benchmarks/door_input.py
    .venv/bin/python benchmarks/door_input.py --checkout /tmp/old   # another checkout

Bounded: every wait has a timeout; the host is stopped (SIGTERM, then SIGKILL) at
the end, and its apps die with it.
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

import aiohttp
import asyncssh

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from paris_tui.net.client import HostClient, RefusedError
from paris_tui.net.protocol import Seated, Update

TIMEOUT = 60.0
INVISIBLE = ("Ann\u034f", "ann\ufe0f", "a\ufe00nn", "ann\U000e0100", "ann\u180b", "ann\u2800")


def _cpu_ms(pid: int) -> int:
    with open(f"/proc/{pid}/stat") as handle:
        fields = handle.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) * 1000 // os.sysconf("SC_CLK_TCK")


def _rss_kb(pid: int) -> int:
    with open(f"/proc/{pid}/status") as handle:
        for line in handle:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


def _descendants(pid: int) -> list[int]:
    found: list[int] = []
    todo = [pid]
    while todo:
        parent = todo.pop()
        with contextlib.suppress(OSError):
            for task in Path(f"/proc/{parent}/task").iterdir():
                with contextlib.suppress(OSError):
                    kids = [int(p) for p in (task / "children").read_text().split()]
                    found += kids
                    todo += kids
    return found


def _apps(host: int) -> list[int]:
    """The sessions' app processes: the host's descendants but its fork server (whose
    children, forked from it, show its command line too)."""
    servers = set()
    for task in Path(f"/proc/{host}/task").iterdir():
        with contextlib.suppress(OSError):
            for pid in (int(p) for p in (task / "children").read_text().split()):
                with contextlib.suppress(OSError):
                    if b"paris_tui.doors.zygote" in Path(f"/proc/{pid}/cmdline").read_bytes():
                        servers.add(pid)
    return [pid for pid in _descendants(host) if pid not in servers]


class Sampler:
    """The apps' CPU time and memory, sampled every 0.25 s while the attack runs."""

    def __init__(self, host: int) -> None:
        self.host = host
        self.cpu: dict[int, tuple[int, int]] = {}  # pid -> (first seen, last seen) CPU ms
        self.rss_max = 0
        self.rss_total_max = 0
        self.host_cpu = (_cpu_ms(host), 0)

    def sample(self) -> None:
        total = 0
        for pid in _apps(self.host):
            try:
                cpu, rss = _cpu_ms(pid), _rss_kb(pid)
            except (OSError, IndexError):
                continue
            first = self.cpu.get(pid, (cpu, cpu))[0]
            self.cpu[pid] = (first, cpu)
            self.rss_max = max(self.rss_max, rss)
            total += rss
        self.rss_total_max = max(self.rss_total_max, total)
        self.host_cpu = (self.host_cpu[0], _cpu_ms(self.host))

    async def run(self, stop: asyncio.Event) -> None:
        while not stop.is_set():
            self.sample()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(stop.wait(), 0.25)

    @property
    def apps_cpu_s(self) -> float:
        return sum(last - first for first, last in self.cpu.values()) / 1000

    @property
    def host_cpu_s(self) -> float:
        return (self.host_cpu[1] - self.host_cpu[0]) / 1000


async def _start_host(
    data: Path, checkout: str | None
) -> tuple[asyncio.subprocess.Process, dict[str, int]]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("PARIS_TUI_")}
    if checkout:
        env["PYTHONPATH"] = checkout
    proc = await asyncio.create_subprocess_exec(
        sys.executable,
        *["-m", "paris_tui.cli", "host", "--port", "0", "--ssh-port", "0", "--web-port", "0"],
        *["--data-dir", str(data), "--table", "ann,bob"],
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.DEVNULL,
        cwd=data,
        env=env,
    )
    assert proc.stdout is not None
    ports: dict[str, int] = {}
    async with asyncio.timeout(TIMEOUT):
        while "web" not in ports:
            line = (await proc.stdout.readline()).decode()
            if not line:
                raise RuntimeError("the host exited")
            if "listening on " in line:
                ports["host"] = int(line.split("listening on ", 1)[1].split()[0].rsplit(":", 1)[1])
            if "SSH on " in line:
                ports["ssh"] = int(line.split("SSH on ", 1)[1].split(";")[0].rsplit(":", 1)[1])
            if "http://" in line:
                ports["web"] = int(line.split("http://", 1)[1].split()[0].rsplit(":", 1)[1])
    return proc, ports


class Player:
    def __init__(self, client: HostClient, seated: Seated) -> None:
        self.client = client
        self.view = seated.view


async def _player(port: int, name: str) -> Player:
    client = await HostClient.connect("127.0.0.1", port)
    return Player(client, await client.join(name))


async def _round_trip(ann: Player, bob: Player) -> float:
    mover, other = (ann, bob) if ann.view.my_turn else (bob, ann)
    count = len(mover.view.moves)
    started = time.perf_counter()
    mover.client.play(mover.view.legal_moves[0], count)
    for player in (mover, other):
        async with asyncio.timeout(TIMEOUT):
            while len(player.view.moves) <= count:
                message = await player.client.receive(TIMEOUT)
                if isinstance(message, Update):
                    player.view = message.view
    return time.perf_counter() - started


async def _moves(ann: Player, bob: Player, n: int, pause: float) -> list[float]:
    out = []
    for _ in range(n):
        if ann.view.is_over:
            break
        out.append(await _round_trip(ann, bob))
        await asyncio.sleep(pause)
    return out


# --- the attacks ----------------------------------------------------------------------


async def _tab(port: int, seconds: float, got: list[str]) -> None:
    url = f"http://127.0.0.1:{port}/ws?width=120&height=40"
    async with aiohttp.ClientSession() as http:
        ws = await http.ws_connect(url, max_msg_size=0)
        first = await ws.receive(timeout=TIMEOUT)
        if first.type != aiohttp.WSMsgType.BINARY or b"try again later" in first.data:
            got.append("refused")
            await ws.close()
            return
        got.append("app")

        async def drain() -> None:
            with contextlib.suppress(Exception):
                async for _message in ws:
                    pass

        reader = asyncio.create_task(drain())
        end = time.monotonic() + seconds
        with contextlib.suppress(Exception):  # a timeout too: a door that stops reading
            async with asyncio.timeout(seconds):
                await _flood_tab(ws, end)
        reader.cancel()
        await ws.close()


async def _flood_tab(ws: aiohttp.ClientWebSocketResponse, end: float) -> None:
    """64 frames of 60,000 keys, then single keys and a resize every 50 until ``end``."""
    for _ in range(64):
        await ws.send_json(["stdin", "a" * 60000])
    i = 0
    while time.monotonic() < end:
        await ws.send_json(["stdin", "a"])
        i += 1
        if i % 50 == 0:
            await ws.send_json(["resize", {"width": 100 + i % 40, "height": 40}])
            await asyncio.sleep(0.001)


async def _ssh(port: int, i: int, seconds: float, got: list[str]) -> None:
    key = asyncssh.generate_private_key("ssh-ed25519")
    async with asyncssh.connect(
        "127.0.0.1",
        port,
        username=f"x{i}",
        client_keys=[key],
        known_hosts=None,
        agent_path=None,
        config=None,
    ) as conn:
        process = await conn.create_process(
            term_type="xterm-256color", term_size=(120, 40), encoding=None
        )
        seen = b""
        async with asyncio.timeout(TIMEOUT):
            while len(seen) < 4000 and b"too many" not in seen:  # a first screen, or a no
                chunk = await process.stdout.read(65536)
                if not chunk:
                    break
                seen += chunk
        if b"too many" in seen or not seen:
            got.append("refused")
            return
        got.append("app")

        async def drain() -> None:
            with contextlib.suppress(Exception):
                while await process.stdout.read(65536):
                    pass

        reader = asyncio.create_task(drain())
        end = time.monotonic() + seconds
        with contextlib.suppress(Exception):  # a timeout too: a door that stops reading
            async with asyncio.timeout(seconds):
                process.stdin.write(b"a" * (4 << 20))
                while time.monotonic() < end:
                    process.stdin.write(b"a")
                    await process.stdin.drain()
                    await asyncio.sleep(0)
        reader.cancel()
        process.close()


async def _protocol(port: int) -> list[str]:
    codes = []
    for name in INVISIBLE:
        client = await HostClient.connect("127.0.0.1", port)
        try:
            await client.open_table(name, ("me", "ai:random"))
            codes.append("seated")
        except RefusedError as exc:
            codes.append(exc.refused.code)
        finally:
            await client.close()
    return codes


async def run(args: argparse.Namespace) -> dict[str, object]:
    with tempfile.TemporaryDirectory(prefix="door-input-") as tmp:
        proc, ports = await _start_host(Path(tmp), args.checkout)
        try:
            ann = await _player(ports["host"], "ann")
            bob = await _player(ports["host"], "bob")
            before = await _moves(ann, bob, args.moves, 0.05)
            sampler = Sampler(proc.pid)
            stop = asyncio.Event()
            sampling = asyncio.create_task(sampler.run(stop))
            tabs: list[str] = []
            sessions: list[str] = []
            attack = asyncio.gather(
                *(_tab(ports["web"], args.seconds, tabs) for _ in range(args.tabs)),
                *(_ssh(ports["ssh"], i, args.seconds, sessions) for i in range(args.ssh)),
                return_exceptions=True,
            )
            await asyncio.sleep(1.0)  # the apps start; then the table plays beside them
            during = await _moves(ann, bob, args.moves, args.seconds / max(1, args.moves))
            async with asyncio.timeout(TIMEOUT + args.seconds):
                problems = [r for r in await attack if isinstance(r, BaseException)]
            stop.set()
            await sampling
            names = await _protocol(ports["host"])
            await ann.client.close()
            await bob.client.close()
        finally:
            proc.send_signal(signal.SIGTERM)
            try:
                async with asyncio.timeout(20):
                    await proc.wait()
            except TimeoutError:
                proc.kill()
                await proc.wait()

    def figures(times: list[float]) -> dict[str, float]:
        ms = sorted(t * 1000 for t in times)
        if not ms:
            return {}
        p95 = ms[min(len(ms) - 1, round(0.95 * (len(ms) - 1)))]
        return {
            "p50": round(statistics.median(ms), 1),
            "p95": round(p95, 1),
            "max": round(ms[-1], 1),
        }

    return {
        "checkout": args.checkout or "this one",
        "moves_before_ms": figures(before),
        "moves_during_ms": figures(during),
        "tabs_from_one_address": f"{tabs.count('app')} of {args.tabs} got an app",
        "ssh_from_one_address": f"{sessions.count('app')} of {args.ssh} got an app",
        "attack_errors": [repr(p)[:120] for p in problems],
        "apps_rss_max_mb": round(sampler.rss_max / 1024, 1),
        "apps_rss_total_max_mb": round(sampler.rss_total_max / 1024, 1),
        "apps_cpu_s_during_attack": round(sampler.apps_cpu_s, 1),
        "host_cpu_s_during_attack": round(sampler.host_cpu_s, 1),
        "invisible_names": names,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tabs", type=int, default=8, help="browser tabs from one address")
    parser.add_argument("--ssh", type=int, default=8, help="SSH sessions from one address")
    parser.add_argument("--seconds", type=float, default=10.0, help="how long the attack lasts")
    parser.add_argument("--moves", type=int, default=20, help="moves measured per phase")
    parser.add_argument("--checkout", help="run the host from this checkout (PYTHONPATH)")
    args = parser.parse_args()
    print(json.dumps(asyncio.run(run(args)), indent=2, ensure_ascii=False))
    return 0


if __name__ == "__main__":
    sys.exit(main())
