"""Play by ear over SSH: ``ssh -o SetEnv=PARIS_TUI_SCREEN_READER=1`` gives the
real ``paris-tui host`` door's app in its flat mode (plain lines, typed commands); a session
that does not send it gets the full screen. Every wait is bounded."""

from __future__ import annotations

import asyncio
import signal
import sys
import time
from pathlib import Path

import pytest

from paris_tui.host.sshlib import asyncssh

from .ssh_helpers import TIMEOUT, connect, new_key

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="ptys, signals")


async def _read_until(
    process: asyncssh.SSHClientProcess[bytes], output: bytearray, *texts: str
) -> str:
    deadline = time.monotonic() + TIMEOUT * 2
    while not all(t in output.decode("utf-8", "replace") for t in texts):
        left = deadline - time.monotonic()
        assert left > 0, output.decode("utf-8", "replace")[-2000:]
        try:
            async with asyncio.timeout(min(left, 0.5)):
                chunk = await process.stdout.read(65536)
        except TimeoutError:
            continue
        assert chunk, output.decode("utf-8", "replace")[-2000:]
        output += chunk
    return output.decode("utf-8", "replace")


async def test_the_ssh_door_plays_by_ear_when_the_client_asks(tmp_path: Path) -> None:
    proc = await asyncio.create_subprocess_exec(
        *[sys.executable, "-m", "paris_tui.cli", "host", "--port", "0", "--ssh-port", "0"],
        *["--data-dir", str(tmp_path), "--table", "ann,ai:random", "--seed", "3"],
        *["--ai-delay", "0"],
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.DEVNULL,
    )
    try:
        assert proc.stdout is not None
        async with asyncio.timeout(TIMEOUT * 2):
            while True:
                line = (await proc.stdout.readline()).decode()
                assert line, "the host exited"
                if "SSH on " in line:
                    port = int(line.split("SSH on ", 1)[1].split(";")[0].rsplit(":", 1)[1])
                    break
        # Without the variable: the full screen (the alternate screen is switched on).
        key = new_key(tmp_path, "ann")
        key = new_key(tmp_path, "ann")
        async with await connect(port, "ann", key) as conn:
            async with asyncio.timeout(TIMEOUT):
                process = await conn.create_process(
                    term_type="xterm-256color", term_size=(80, 24), encoding=None
                )
            output = bytearray()
            deadline = time.monotonic() + TIMEOUT * 2
            while b"\x1b[?1049h" not in output and time.monotonic() < deadline:
                try:
                    async with asyncio.timeout(0.5):
                        output += await process.stdout.read(65536)
                except TimeoutError:
                    continue
            assert b"\x1b[?1049h" in output
            process.stdin.write(b"q")
            process.close()
        async with await connect(port, "ann", key) as conn:
            async with asyncio.timeout(TIMEOUT):
                process = await conn.create_process(
                    term_type="xterm-256color",
                    term_size=(80, 24),
                    encoding=None,
                    env={"PARIS_TUI_SCREEN_READER": "1"},
                )
            output = bytearray()
            await _read_until(process, output, "Paris Paris, by ear.", "Your turn, ann")
            process.stdin.write(b"1\r")
            text = await _read_until(process, output, "ann took")
            process.stdin.write(b"quit\r")  # the table: back to the lobby, whose quit ends
            await _read_until(process, output, "You left the table", "The host's lobby.")
            process.stdin.write(b"quit\r")
            assert "\x1b" not in text
            async with asyncio.timeout(TIMEOUT):
                await process.wait_closed()  # the app ended, and the session with it
    finally:
        if proc.returncode is None:
            proc.send_signal(signal.SIGTERM)
            async with asyncio.timeout(TIMEOUT * 2):
                await proc.wait()
