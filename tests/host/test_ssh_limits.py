"""The SSH door's limits: window sizes clamped to a real terminal's, keys
taken at a person's pace (a 3.9 MiB write does not balloon the app), and logins
refused by the session cap write nothing.

The stand-in app of ssh_helpers (it reports its size and echoes keys); loopback
only, every wait bounded.
"""

from __future__ import annotations

import asyncio
from pathlib import Path

from paris_tui.doors.ssh import INPUT_BURST, MAX_COLUMNS, MAX_ROWS

from .ssh_helpers import Terminal, connect, new_key, running_door


async def test_a_huge_window_is_clamped(tmp_path: Path) -> None:
    async with (
        running_door(tmp_path) as (_host, door),
        await connect(door.port, "ann", new_key(tmp_path, "ann")) as conn,
    ):
        term = await Terminal.open(conn, size=(4096, 4096))
        await term.wait_for("ready")
        assert term.field("size") == f"{MAX_COLUMNS}x{MAX_ROWS}"
        term.process.change_terminal_size(120, 40)
        await term.wait_for("size=120x40")
        term.process.change_terminal_size(8192, 8192)
        await term.wait_for(f"size={MAX_COLUMNS}x{MAX_ROWS}\r\n")


async def test_a_huge_paste_reaches_the_app_at_a_persons_pace(tmp_path: Path) -> None:
    async with (
        running_door(tmp_path) as (_host, door),
        await connect(door.port, "ann", new_key(tmp_path, "ann")) as conn,
    ):
        term = await Terminal.open(conn)
        await term.wait_for("ready")
        start = len(term.output)
        term.process.stdin.write(b"x" * (3900 * 1024))  # 3.9 MiB, no "q"
        await asyncio.sleep(1.0)
        term.process.stdin.write(b"q")
        assert await term.finish() == 3
        text = bytes(term.output[start:]).decode("ascii", "replace")
        got = sum(len(part.split("\r\n")[0]) // 2 for part in text.split("key=")[1:])
        # The burst, and what the rate lets through while the paste comes in.
        assert INPUT_BURST <= got < 400 * 1024, got
        print(f"of 3.9 MiB pasted, the app was given {got / 1024:.0f} KiB")
