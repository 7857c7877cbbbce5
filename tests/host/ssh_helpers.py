"""Helpers of the SSH door tests: a host with its SSH door on loopback ports, an
asyncssh client with a pty, and a small stand-in app the door can run instead
of ``paris-tui join`` (it says what it was given and echoes keys).

Every wait is bounded (:data:`TIMEOUT`), so a broken door fails a test
instead of hanging it.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import sys
import time
from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager
from dataclasses import replace
from pathlib import Path
from typing import Any

from paris_tui.doors.ssh import SSHConfig, SSHDoor
from paris_tui.host.server import Host, Limits
from paris_tui.host.sshlib import asyncssh

from .helpers import running_host

TIMEOUT = 20.0

STUBBORN_ENV = "STAND_IN_STUBBORN"

STAND_IN = r"""
import asyncio, fcntl, os, signal, struct, sys, termios, tty
from paris_tui.host.child import DOOR_SOCKET_ENV, TICKET_ENV, die_with_parent

die_with_parent()
port, name, address = int(sys.argv[1]), sys.argv[2], sys.argv[3]
# A stubborn app ignores a hang-up and the end of its input: only SIGKILL ends it.
STUBBORN = os.environ.get("STAND_IN_STUBBORN") == "1"
if STUBBORN:
    signal.signal(signal.SIGHUP, signal.SIG_IGN)


def say(text):
    os.write(1, (text + "\r\n").encode())


def size():
    rows, cols, _, _ = struct.unpack("HHHH", fcntl.ioctl(0, termios.TIOCGWINSZ, bytes(8)))
    return f"{cols}x{rows}"


async def main():
    from paris_tui.net.client import HostClient, RefusedError

    ticket = os.environ.get(TICKET_ENV)
    client = await HostClient.connect(address, port, path=os.environ.get(DOOR_SOCKET_ENV))
    try:
        seat = (await client.join(name, token=ticket)).seat
    except RefusedError as exc:
        seat = exc.code
    tty.setraw(0)
    loop = asyncio.get_running_loop()
    done = loop.create_future()
    loop.add_signal_handler(signal.SIGWINCH, lambda: say(f"size={size()}"))

    def key():
        try:
            data = os.read(0, 1024)
        except OSError:
            data = b""
        if not data and STUBBORN:
            loop.remove_reader(0)
        elif not data or b"q" in data:
            done.set_result(None)
        else:
            say(f"key={data.hex()}")

    loop.add_reader(0, key)
    color = os.environ.get("TEXTUAL_COLOR_SYSTEM", "-")
    say(
        f"ready name={name} seat={seat} ticket={'yes' if ticket else 'no'} "
        f"term={os.environ.get('TERM')} color={color} size={size()} pid={os.getpid()} "
        f"ctty={os.tcgetpgrp(0) == os.getpgrp()} cwd={os.getcwd()} "
        f"path={os.environ.get('PATH', '-').split(os.pathsep)[0]} "
        f"lang={os.environ.get('PARIS_TUI_LANG', '-')} "
        f"data={os.environ.get('PARIS_TUI_DATA_DIR', '-')}"
    )
    await done
    await client.close()
    sys.exit(3)


asyncio.run(main())
"""


def stand_in(port: int, name: str | None, address: str) -> list[str]:
    return [sys.executable, "-c", STAND_IN, str(port), name or "-", address]


@asynccontextmanager
async def running_door(
    data_dir: Path,
    tables: Sequence[str] = ("ann,bob",),
    *,
    limits: Limits | None = None,
    **options: Any,
) -> AsyncIterator[tuple[Host, SSHDoor]]:
    """A host serving ``tables`` and its SSH door (running the stand-in app by default)."""
    config = replace(SSHConfig(port=0, command=stand_in, hangup_grace=2.0), **options)
    async with running_host(data_dir, tables, limits=limits) as (host, port):
        door = SSHDoor(host, config, app_port=port)
        await door.start()
        try:
            yield host, door
        finally:
            await door.close()


def new_key(directory: Path, name: str) -> asyncssh.SSHKey:
    """A fresh ed25519 client key, also written to ``directory/name`` (OpenSSH format)."""
    key = asyncssh.generate_private_key("ssh-ed25519")
    key.write_private_key(str(directory / name))
    key.write_public_key(str(directory / f"{name}.pub"))
    return key


async def connect(
    port: int, user: str, key: asyncssh.SSHKey | None, **options: Any
) -> asyncssh.SSHClientConnection:
    """An SSH connection as ``user`` with ``key`` (no known_hosts check unless given)."""
    options.setdefault("known_hosts", None)
    async with asyncio.timeout(TIMEOUT):
        return await asyncssh.connect(
            "127.0.0.1",
            port,
            username=user,
            client_keys=[key] if key is not None else None,
            agent_path=None,
            config=None,
            preferred_auth=options.pop("preferred_auth", "publickey"),
            **options,
        )


class Terminal:
    """An SSH session with a pty, as a person's terminal: what it received so far."""

    def __init__(self, process: asyncssh.SSHClientProcess[bytes]) -> None:
        self.process = process
        self.output = bytearray()

    @classmethod
    async def open(
        cls,
        conn: asyncssh.SSHClientConnection,
        size: tuple[int, int] = (100, 30),
        term: str = "xterm-256color",
        **options: Any,
    ) -> Terminal:
        async with asyncio.timeout(TIMEOUT):
            process = await conn.create_process(
                term_type=term, term_size=size, encoding=None, stderr=asyncssh.STDOUT, **options
            )
        return cls(process)

    async def wait_for(self, text: str, timeout: float = TIMEOUT) -> str:
        """Read until ``text`` has arrived; everything received so far."""
        needle = text.encode()
        deadline = time.monotonic() + timeout
        while needle not in self.output:
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError(f"{text!r} never came; got {bytes(self.output)!r}")
            try:
                async with asyncio.timeout(left):
                    chunk = await self.process.stdout.read(65536)
            except TimeoutError:
                continue
            if not chunk:
                raise AssertionError(f"the session ended before {text!r}: {bytes(self.output)!r}")
            self.output += chunk
        return self.output.decode("utf-8", "replace")

    async def finish(self, timeout: float = TIMEOUT) -> int | None:
        """Read to the end; the exit status."""
        async with asyncio.timeout(timeout):
            while chunk := await self.process.stdout.read(65536):
                self.output += chunk
            await self.process.wait_closed()
        return self.process.exit_status

    def field(self, name: str) -> str:
        """``value`` of the stand-in's last ``name=value``."""
        text = self.output.decode("utf-8", "replace")
        return text.rsplit(f"{name}=", 1)[1].split()[0]


def alive(pid: int) -> bool:
    """Whether ``pid`` runs (a zombie runs nothing)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    with contextlib.suppress(OSError):
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(") ", 1)[1][:1]
        if state == "Z":
            return False
    return True


async def gone(pid: int, timeout: float = TIMEOUT) -> bool:
    """Wait until ``pid`` no longer runs; whether it went in time."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if not alive(pid):
            return True
        await asyncio.sleep(0.05)
    return not alive(pid)
