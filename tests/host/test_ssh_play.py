"""Playing over SSH for real: ``paris-tui host`` as its own process, two players
logged in with asyncssh clients on ptys, the real ``paris-tui join`` app on
each, the screens read through ``pyte`` (a terminal emulator). Every wait is
bounded.
"""

from __future__ import annotations

import asyncio
import json
import signal
import sys
import time
from pathlib import Path

import pyte
import pytest

from paris_tui.host.sshlib import asyncssh

from .ssh_helpers import TIMEOUT, connect, gone, new_key

pytestmark = pytest.mark.skipif(
    not sys.platform.startswith("linux"), reason="reads the host's children from /proc"
)

# A deliberate key comes a quiet moment after the turn appeared (app/terminal/keygate.py).
QUIET = 1.0


class Screen:
    """A player's terminal: an SSH session with a pty, drawn by pyte."""

    def __init__(self, process: asyncssh.SSHClientProcess[bytes], size: tuple[int, int]) -> None:
        self.process = process
        self.screen = pyte.Screen(*size)
        self.stream = pyte.ByteStream(self.screen)
        self.ended = False

    @classmethod
    async def open(cls, conn: asyncssh.SSHClientConnection, size: tuple[int, int]) -> Screen:
        async with asyncio.timeout(TIMEOUT):
            process = await conn.create_process(
                term_type="xterm-256color", term_size=size, encoding=None
            )
        return cls(process, size)

    def text(self) -> str:
        return "\n".join(line.rstrip() for line in self.screen.display)

    async def read(self, timeout: float) -> None:
        try:
            async with asyncio.timeout(timeout):
                chunk = await self.process.stdout.read(65536)
        except TimeoutError:
            return
        if not chunk:
            self.ended = True
            raise AssertionError(f"the session ended:\n{self.text()}")
        self.stream.feed(chunk)

    async def wait_for(self, *texts: str, timeout: float = TIMEOUT * 2) -> str:
        deadline = time.monotonic() + timeout
        while not all(text in self.text() for text in texts):
            left = deadline - time.monotonic()
            if left <= 0:
                missing = [t for t in texts if t not in self.text()]
                raise AssertionError(f"not on the screen: {missing!r}\n{self.text()}")
            await self.read(min(left, 0.5))
        return self.text()

    async def settle(self, quiet: float = QUIET) -> None:
        """Read until nothing comes for ``quiet`` seconds (bounded)."""
        deadline = time.monotonic() + TIMEOUT
        while time.monotonic() < deadline:
            before = self.stream_bytes()
            await self.read(quiet)
            if self.stream_bytes() == before:
                return

    def stream_bytes(self) -> str:
        return self.text() + repr(self.screen.cursor.x) + repr(self.screen.cursor.y)

    def press(self, key: bytes) -> None:
        self.process.stdin.write(key)


def _host(tmp_path: Path, *args: str) -> list[str]:
    return [
        sys.executable,
        "-m",
        "paris_tui.cli",
        "host",
        "--port",
        "0",
        "--ssh-port",
        "0",
        "--data-dir",
        str(tmp_path),
        *args,
    ]


async def _ssh_port(proc: asyncio.subprocess.Process) -> int:
    assert proc.stdout is not None
    async with asyncio.timeout(TIMEOUT * 2):
        while True:
            line = (await proc.stdout.readline()).decode()
            assert line, "the host exited"
            if "SSH on " in line:
                return int(line.split("SSH on ", 1)[1].split(";")[0].rsplit(":", 1)[1])


def _children(pid: int) -> list[int]:
    kids: list[int] = []
    for task in Path(f"/proc/{pid}/task").iterdir():
        try:
            kids += [int(p) for p in (task / "children").read_text().split()]
        except OSError:
            continue
    return kids


def _apps(host: int) -> list[int]:
    """The players' apps: forked by the host's fork server (doors/zygote.py), or the
    host's own children when it has none."""
    apps: list[int] = []
    for pid in _children(host):
        if b"paris_tui.doors.zygote" in Path(f"/proc/{pid}/cmdline").read_bytes():
            apps += _children(pid)
        else:
            apps.append(pid)
    return apps


async def _whose_turn(screens: dict[str, Screen]) -> str:
    """The name whose screen says it is their turn while the other's says so too."""
    deadline = time.monotonic() + TIMEOUT * 2
    while True:
        for name, screen in screens.items():
            others = [s for n, s in screens.items() if n != name]
            if "Your turn: choose a tile" in screen.text() and all(
                f"{name}'s turn" in s.text() for s in others
            ):
                await screen.settle()  # a deliberate key: a quiet moment first
                if "Your turn: choose a tile" in screen.text():
                    return name
        assert time.monotonic() < deadline, "\n".join(s.text() for s in screens.values())
        await asyncio.gather(*(s.read(0.1) for s in screens.values()))


def _moves(tmp_path: Path) -> int:
    record = json.loads((tmp_path / "host" / "tables" / "t1.json").read_text())
    return len(record["moves"])


async def test_two_players_over_ssh_see_the_map_and_play_by_keys(tmp_path: Path) -> None:
    proc = await asyncio.create_subprocess_exec(
        *_host(tmp_path, "--table", "ann,bob", "--seed", "3"),
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.DEVNULL,
    )
    try:
        port = await _ssh_port(proc)
        ann_conn = await connect(port, "ann", new_key(tmp_path, "ann"))
        bob_conn = await connect(port, "bob", new_key(tmp_path, "bob"))
        ann = await Screen.open(ann_conn, (120, 40))
        bob = await Screen.open(bob_conn, (100, 30))
        # The map is drawn on both (full names at 120x40, short ones at 100x30),
        # each with its own seat.
        await ann.wait_for("Louvre", "Opéra", "ann", "bob")
        await bob.wait_for("Louvr", "Opéra", "ann", "bob")
        screens = {"ann": ann, "bob": bob}
        for played in range(1, 5):
            # Whoever's turn it is sees it, the other sees whose turn it is (after a
            # tour is shown, when there is one); the mover's Enter takes a tile, which
            # the host records and the other player sees. An Enter too soon after the
            # turn began is not taken (app/terminal/keygate.py; the other's move is shown a
            # moment first): a person presses again, so do we.
            deadline = time.monotonic() + TIMEOUT * 2
            while _moves(tmp_path) < played:
                assert time.monotonic() < deadline, f"move {played} not recorded\n" + "\n".join(
                    screen.text() for screen in screens.values()
                )
                mover = await _whose_turn(screens)
                screens[mover].press(b"\r")
                for _ in range(30):
                    await screens[mover].read(0.1)
                    if _moves(tmp_path) >= played:
                        break
            if played == 1:
                other = "bob" if mover == "ann" else "ann"
                await screens[other].wait_for(f"{mover} took")
        assert _moves(tmp_path) == 4
        apps = _apps(proc.pid)
        assert len(apps) == 2
        # A resize reaches the app: at 80x24 it lays the map out again, short names.
        ann.process.change_terminal_size(80, 24)
        ann.screen.resize(24, 80)
        await ann.wait_for("Louvr", "Opéra")
        # Ann hangs up: her app goes. SIGTERM with Bob still playing: his app goes,
        # his session ends, the host exits 0.
        ann_conn.close()
        assert await gone(apps[0]) or await gone(apps[1])
        proc.send_signal(signal.SIGTERM)
        async with asyncio.timeout(TIMEOUT * 2):
            assert await proc.wait() == 0
            await bob.process.wait_closed()
        for pid in apps:
            assert await gone(pid), f"app {pid} outlived the host"
        bob_conn.close()
    finally:
        if proc.returncode is None:
            proc.send_signal(signal.SIGTERM)
        async with asyncio.timeout(TIMEOUT * 2):
            assert await proc.wait() == 0


async def test_kill_9_of_a_real_host_leaves_no_app(tmp_path: Path) -> None:
    proc = await asyncio.create_subprocess_exec(
        *_host(tmp_path, "--table", "ann,bob"),
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.DEVNULL,
    )
    try:
        port = await _ssh_port(proc)
        async with await connect(port, "ann", new_key(tmp_path, "ann")) as conn:
            ann = await Screen.open(conn, (100, 30))
            await ann.wait_for("Opéra", "ann", "bob")
            apps = _apps(proc.pid)
            assert len(apps) == 1
            proc.kill()
            for pid in apps:
                assert await gone(pid), f"app {pid} outlived its host"
    finally:
        if proc.returncode is None:
            proc.kill()
        await proc.wait()


async def test_a_relative_data_dir_still_lets_players_log_in(tmp_path: Path) -> None:
    """``--data-dir data`` from the host's own directory: the fork server runs in the data
    directory, so a relative path handed to its apps pointed nowhere (their chdir failed
    and the SSH session ended before the map)."""
    argv = _host(tmp_path, "--table", "ann,bob", "--seed", "3")
    argv[argv.index(str(tmp_path))] = "data"
    proc = await asyncio.create_subprocess_exec(
        *argv, cwd=tmp_path, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.DEVNULL
    )
    try:
        port = await _ssh_port(proc)
        conn = await connect(port, "ann", new_key(tmp_path, "ann"))
        ann = await Screen.open(conn, (120, 40))
        await ann.wait_for("Louvre", "Opéra", "ann", "bob")
        assert (tmp_path / "data" / "host").is_dir()
        conn.close()
    finally:
        proc.send_signal(signal.SIGTERM)
        async with asyncio.timeout(TIMEOUT * 2):
            await proc.wait()
