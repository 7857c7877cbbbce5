"""The lobby is home in the browser too: the door as shipped (paris-tui host
--web-port runs paris-tui join for the tab); the player sits at Ann's seat from the
lobby, q at the table goes back to the lobby (the app goes on), and Enter on the
table sits there again. Chromium drives the page; every wait is bounded."""

from __future__ import annotations

import asyncio
import os
import signal
import subprocess
import sys
from pathlib import Path

from .browser import open_browser
from .test_web import TIMEOUT, _need_chromium


async def test_q_at_a_browsers_table_goes_to_the_lobby_and_back(tmp_path: Path) -> None:
    _need_chromium()
    proc = subprocess.Popen(
        [
            *[sys.executable, "-m", "paris_tui.cli", "host", "--port", "0", "--web-port", "0"],
            *["--ssh-port", "off", "--data-dir", str(tmp_path), "--table", "ann,ai:random"],
            *["--seed", "3", "--ai-delay", "0"],
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
        start_new_session=True,
    )
    try:
        assert proc.stdout is not None
        url = ""
        async with asyncio.timeout(TIMEOUT):
            while not url:
                line = await asyncio.to_thread(proc.stdout.readline)
                assert line, "the host exited"
                if line.startswith("In a browser: "):
                    url = line.split()[3]
        async with open_browser(url) as page:
            await page.wait_for("Your name", timeout=TIMEOUT)
            await page.type_text("ann")
            await page.press("Enter")  # the name
            await asyncio.sleep(0.5)
            await page.press("Enter")  # sit at the table that holds Ann's seat
            shown = await page.wait_for("Your route", timeout=TIMEOUT)
            assert "Lobby" in shown  # q's word in the footer
            await page.type_text("q")
            shown = await page.wait_for("the tables of this host", timeout=TIMEOUT)
            assert "Back in the lobby" in shown
            await asyncio.sleep(0.5)
            await page.press("Enter")  # her table: she sits there again
            await page.wait_for("Your route", timeout=TIMEOUT)
        proc.send_signal(signal.SIGTERM)
        assert await asyncio.to_thread(proc.wait, TIMEOUT) == 0
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(10)
