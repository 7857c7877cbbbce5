"""Headless Debian ``chromium`` driven over the DevTools protocol, for the browser door's test.

No Playwright and no browser download: the system's ``chromium`` (``apt-get
install chromium``), its DevTools WebSocket reached with aiohttp (which the
browser door already needs). The page's terminal (xterm.js) draws on a canvas,
so the screen is read from what the page *received*: every binary WebSocket
frame the browser got (``Network.webSocketFrameReceived``) is fed to ``pyte``,
a terminal emulator, exactly as xterm.js was fed. Keys are typed through the
browser's own input (``Input.dispatchKeyEvent``), so they go through xterm.js
and the page's WebSocket as a person's would.

Loopback only; every wait is bounded; the browser is killed at the end.
"""

from __future__ import annotations

import asyncio
import base64
import contextlib
import itertools
import json
import os
import shutil
import signal
import subprocess
import tempfile
import time
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit

import aiohttp
import pyte

__all__ = ["CHROMIUM_FLAGS", "Browser", "chromium", "open_browser"]

CHROMIUM_FLAGS = (
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--disable-extensions",
    "--remote-debugging-address=127.0.0.1",
    "--remote-debugging-port=0",
    "--window-size=1280,900",
)

# Keys as DevTools key events: (key, code, windowsVirtualKeyCode, text).
_KEYS = {
    "Enter": ("Enter", "Enter", 13, "\r"),
    "ArrowRight": ("ArrowRight", "ArrowRight", 39, ""),
    "ArrowLeft": ("ArrowLeft", "ArrowLeft", 37, ""),
    "Escape": ("Escape", "Escape", 27, ""),
}


def chromium() -> str | None:
    """The system's chromium, or None."""
    for name in ("chromium", "chromium-browser"):
        path = shutil.which(name)
        if path:
            return path
    return None


class Browser:
    """One page of a headless chromium, attached over the DevTools protocol."""

    def __init__(self, ws: aiohttp.ClientWebSocketResponse, columns: int, rows: int) -> None:
        self._ws = ws
        self._ids = itertools.count(1)
        self._pending: dict[int, asyncio.Future[Any]] = {}
        self.session: str | None = None
        self.screen = pyte.Screen(columns, rows)
        self._stream = pyte.ByteStream(self.screen)
        self.frames = 0
        self.closed_sockets = 0
        self.opened_sockets = 0  # the page's sessions so far (a reload opens one more)
        self._reader = asyncio.create_task(self._read())

    async def _read(self) -> None:
        async for message in self._ws:
            if message.type != aiohttp.WSMsgType.TEXT:
                continue
            data = json.loads(message.data)
            if "id" in data:
                future = self._pending.pop(data["id"], None)
                if future is not None and not future.done():
                    if "error" in data:
                        future.set_exception(RuntimeError(str(data["error"])))
                    else:
                        future.set_result(data.get("result", {}))
                continue
            method = data.get("method")
            params = data.get("params", {})
            if method == "Network.webSocketFrameReceived":
                response = params["response"]
                if response.get("opcode") == 2:  # binary: the app's terminal output
                    self._stream.feed(base64.b64decode(response["payloadData"]))
                    self.frames += 1
            elif method == "Network.webSocketCreated":  # a new session: a new screen
                self.opened_sockets += 1
                self.screen.reset()
                query = parse_qs(urlsplit(params["url"]).query)
                with contextlib.suppress(KeyError, ValueError, IndexError):
                    self._resize(int(query["width"][0]), int(query["height"][0]))
            elif method == "Network.webSocketFrameSent":
                response = params["response"]
                with contextlib.suppress(ValueError, KeyError, IndexError, TypeError):
                    kind, size = json.loads(response["payloadData"])
                    if kind == "resize":
                        self._resize(int(size["width"]), int(size["height"]))
            elif method == "Network.webSocketClosed":
                self.closed_sockets += 1

    def _resize(self, columns: int, rows: int) -> None:
        """The page's terminal took this size (it fits the window): so does ours."""
        if (columns, rows) != (self.screen.columns, self.screen.lines):
            self.screen.resize(rows, columns)

    async def call(self, method: str, timeout: float = 30.0, **params: Any) -> Any:
        message_id = next(self._ids)
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._pending[message_id] = future
        message: dict[str, Any] = {"id": message_id, "method": method, "params": params}
        if self.session is not None:
            message["sessionId"] = self.session
        await self._ws.send_str(json.dumps(message))
        return await asyncio.wait_for(future, timeout)

    def display(self) -> str:
        return "\n".join(line.rstrip() for line in self.screen.display)

    async def wait_for(self, *texts: str, timeout: float = 60.0) -> str:
        deadline = time.monotonic() + timeout
        while True:
            shown = self.display()
            if all(text in shown for text in texts):
                return shown
            if time.monotonic() > deadline:
                missing = [t for t in texts if t not in shown]
                raise AssertionError(f"not on the page's terminal: {missing!r}\n{shown}")
            await asyncio.sleep(0.1)

    async def new_session(self, opened: int, timeout: float = 60.0) -> None:
        """Until the page has opened more sessions than ``opened`` (after a reload:
        what the screen shows from then on is the new session's)."""
        deadline = time.monotonic() + timeout
        while self.opened_sockets <= opened:
            if time.monotonic() > deadline:
                raise AssertionError(f"the page opened no new session in {timeout} s")
            await asyncio.sleep(0.05)

    async def evaluate(self, expression: str) -> Any:
        result = await self.call("Runtime.evaluate", expression=expression, returnByValue=True)
        return result.get("result", {}).get("value")

    async def focus_terminal(self) -> None:
        """Keys go to xterm.js's input element once it has the focus (a person clicks)."""
        await self.evaluate("document.querySelector('.xterm-helper-textarea').focus()")

    async def press(self, name: str) -> None:
        await self.focus_terminal()
        key, code, vk, text = _KEYS[name]
        common = {"key": key, "code": code, "windowsVirtualKeyCode": vk}
        await self.call("Input.dispatchKeyEvent", type="keyDown", text=text, **common)
        await self.call("Input.dispatchKeyEvent", type="keyUp", **common)

    async def type_text(self, text: str) -> None:
        await self.focus_terminal()
        for char in text:
            await self.call("Input.insertText", text=char)
            await asyncio.sleep(0.05)

    async def screenshot(self, path: Path) -> None:
        result = await self.call("Page.captureScreenshot", format="png")
        path.write_bytes(base64.b64decode(result["data"]))


async def _devtools_url(profile: Path, proc: subprocess.Popen[bytes], timeout: float) -> str:
    port_file = profile / "DevToolsActivePort"
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc.poll() is not None:
            raise AssertionError(f"chromium exited at start (status {proc.returncode})")
        with contextlib.suppress(OSError, ValueError, IndexError):
            lines = port_file.read_text().split()
            return f"ws://127.0.0.1:{int(lines[0])}{lines[1]}"
        await asyncio.sleep(0.1)
    raise AssertionError(f"chromium did not open its DevTools port in {timeout} s")


@contextlib.asynccontextmanager
async def open_browser(
    url: str, *, columns: int = 100, rows: int = 30, timeout: float = 60.0
) -> AsyncIterator[Browser]:
    """A headless chromium with one page at ``url``; killed (its process group) on exit."""
    executable = chromium()
    assert executable is not None
    with tempfile.TemporaryDirectory(prefix="paris-tui-chromium-") as tmp:
        profile = Path(tmp)
        proc = subprocess.Popen(
            [executable, *CHROMIUM_FLAGS, f"--user-data-dir={profile}", "about:blank"],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            start_new_session=True,
        )
        try:
            devtools = await _devtools_url(profile, proc, timeout)
            async with (
                aiohttp.ClientSession() as http,
                http.ws_connect(devtools, max_msg_size=0) as ws,
            ):
                browser = Browser(ws, columns, rows)
                target = await browser.call("Target.createTarget", url="about:blank")
                attached = await browser.call(
                    "Target.attachToTarget", targetId=target["targetId"], flatten=True
                )
                browser.session = attached["sessionId"]
                await browser.call("Network.enable")
                await browser.call("Page.enable")
                await browser.call("Runtime.enable")
                await browser.call("Page.navigate", url=url)
                try:
                    yield browser
                finally:
                    browser._reader.cancel()
        finally:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(proc.pid, signal.SIGKILL)
            proc.wait(10)
