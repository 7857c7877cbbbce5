"""A forked app draws in its own terminal's colours, never the fork server's.

The fork server draws a throwaway game screen before it forks (app/start/warm_up.py),
in the colours of its own environment (a host started from a plain ``TERM=xterm``,
or by a service manager: 16 colours). Rich keeps a style's escape codes on the style
once made (``Style._ansi``) and hands out one style per text (``Style.parse`` is
cached), so every app forked from that server drew a player's name in the server's
16 colours: in a browser (true colour) the orange player came out the same yellow as
the yellow line. A child started for a true-colour terminal must draw true colour."""

from __future__ import annotations

import asyncio
import os
import sys
from pathlib import Path

import pytest

from paris_tui.doors.forks import ForkServer

from .ssh_helpers import TIMEOUT

pytestmark = pytest.mark.skipif(not sys.platform.startswith("linux"), reason="Linux: pdeathsig")

COMMAND = [sys.executable, "-P", "-m", "paris_tui"]
ANN_TRUE = b"38;2;208;112;30"  # the first seat's orange, #d0701e, in true colour


async def test_a_forked_app_draws_in_its_terminals_colours_not_the_servers(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TERM", "xterm")  # the server's own terminal: 16 colours
    monkeypatch.delenv("COLORTERM", raising=False)
    server = await ForkServer.start(tmp_path)
    assert server is not None, "the fork server did not start"
    try:
        master, slave = os.openpty()
        env = {
            "PATH": os.environ.get("PATH", ""),
            "PARIS_TUI_DATA_DIR": str(tmp_path),
            "TERM": "xterm-256color",
            "TEXTUAL_COLOR_SYSTEM": "truecolor",  # as the browser door sets it
        }
        argv = [*COMMAND, "play", "--players", "Ann,Bob", "--lang", "en"]
        child = await server.spawn(argv, env, tmp_path, (slave, slave, slave), tty=True)
        os.close(slave)
        assert child is not None
        loop = asyncio.get_running_loop()
        seen = b""
        try:
            async with asyncio.timeout(TIMEOUT * 2):
                while b"Pass to" not in seen or b"Ann" not in seen.split(b"Pass to", 1)[1]:
                    seen += await loop.run_in_executor(None, os.read, master, 65536)
                await asyncio.sleep(1.5)  # a deliberate Enter passes the hand-off
                os.write(master, b"\r")
                while b"Your route" not in seen:  # Ann's game screen: the players panel
                    seen += await loop.run_in_executor(None, os.read, master, 65536)
                await asyncio.sleep(0.5)  # the rest of the frame
                seen += await loop.run_in_executor(None, os.read, master, 65536)
        finally:
            os.close(master)
        assert ANN_TRUE in seen, seen[-600:]
        # Not one of the server's 16-colour codes (its drawing's, kept on the styles):
        # the orange seat as yellow, the blue line as bright blue, on black.
        for code in (b"\x1b[1;33;40m", b"\x1b[1;94;40m", b"\x1b[97;40m"):
            assert code not in seen, code
    finally:
        server.close()
