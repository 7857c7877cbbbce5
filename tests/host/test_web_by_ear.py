"""The browser door by ear: ``/?screen-reader=1`` turns on xterm.js's
screen-reader mode, so a browser's screen reader reads the terminal's rows (xterm.js keeps
them as text in its accessibility tree); without it the page loads textual.js as before
(tests/by_ear/test_doors.py). Headless chromium, loopback only, every wait bounded."""

from __future__ import annotations

import asyncio
import os
import sys
import time
from pathlib import Path

import pytest

from paris_tui.doors.web import WebDoor

from .browser import chromium, open_browser

TIMEOUT = 60.0

GAME_APP = [
    sys.executable,
    "-c",
    "from paris_tui.host.child import die_with_parent; die_with_parent(); "
    "from paris_tui.cli import main; "
    "raise SystemExit(main(['play', '--players', 'Ann,ai:random', '--seed', '3', "
    "'--ai-delay', '0']))",
]

ROWS = "(document.querySelector('.xterm-accessibility-tree') || {textContent: null}).textContent"


@pytest.fixture
def need_chromium() -> None:
    if chromium() is None:
        how = "install Debian's chromium (apt-get install chromium)"
        if os.environ.get("CI") == "true":
            pytest.fail(f"no chromium on this CI machine: {how}")
        pytest.skip(f"no chromium here: {how}")


async def test_the_page_turns_on_xterms_screen_reader_mode(
    tmp_path: Path, need_chromium: None
) -> None:
    door = WebDoor(host_port=7337, data_dir=tmp_path, port=0, command=lambda _d: list(GAME_APP))
    _, door.port = await door.start()
    try:
        async with open_browser(f"http://127.0.0.1:{door.port}/?screen-reader=1") as page:
            await page.wait_for("Ann: choose a tile", timeout=TIMEOUT)
            # xterm.js fills its accessibility tree a moment after it draws the rows
            # (later still on a loaded machine): read it until it says so, bounded.
            rows = None
            deadline = time.monotonic() + TIMEOUT
            while time.monotonic() < deadline:
                rows = await page.evaluate(ROWS)
                if rows is not None and "choose a tile" in rows:
                    break
                await asyncio.sleep(0.25)
            assert rows is not None and "choose a tile" in rows  # the rows, as text
    finally:
        await door.close()
