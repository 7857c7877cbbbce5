"""A browser tab's messages to its app, paced, and who the tab is (its address).

textual-serve's browser side sends JSON lists: ``["stdin", text]`` (keys, a
paste), ``["resize", {"width", "height"}]``, ``["ping", x]``, ``["focus"]``,
``["blur"]``. :class:`TabInput` passes them to the tab's app within the tab's
:class:`~paris_tui.doors.pacing.InputBudget`: keys at a person's pace (a frame
of 64 KiB is allowed, a stream of them is not), a resize (a whole repaint) at
:data:`~paris_tui.doors.pacing.RESIZE_EVENTS` key events, the last one held back
applied once the budget allows; the first drop is said once, in the browser's
language, on the bottom row of its screen, and the app repaints over it after a
while. Pings are answered and cost nothing of the app.

:func:`client_address` is the address a tab is counted at (a cap per address):
the peer's, or, for a TLS proxy on this machine (a loopback peer), the address
it says it forwards (the last ``X-Forwarded-For``); :func:`behind_https` says
whether the page was reached over HTTPS (the cookie is then ``Secure``).
"""

from __future__ import annotations

import asyncio
import contextlib
import ipaddress
import logging
from typing import Any, Protocol

from aiohttp import web

from paris_tui.doors.pacing import (
    NOTICE_QUIET,
    NOTICE_SECONDS,
    NOTICE_WAIT,
    RESIZE_EVENTS,
    InputBudget,
    notice,
    too_fast_words,
)

__all__ = ["TabApp", "TabInput", "behind_https", "client_address"]

log = logging.getLogger("paris_tui.doors.web")


class TabApp(Protocol):
    """What :class:`TabInput` asks of a tab's app (the door's ``_Session``)."""

    last_output: float

    async def send_bytes(self, data: bytes) -> bool: ...

    async def set_terminal_size(self, width: int, height: int) -> None: ...

    async def blur(self) -> None: ...

    async def focus(self) -> None: ...


class TabInput:
    """One tab's messages to its app, paced (see the module's words)."""

    def __init__(
        self,
        websocket: web.WebSocketResponse,
        app: TabApp,
        language: str,
        size: tuple[int, int],
        clamp: Any,
    ) -> None:
        self.websocket = websocket
        self.app = app
        self.language = language
        self.size = size  # what the app was last given
        self._clamp = clamp
        self._loop = asyncio.get_running_loop()
        self.budget = InputBudget(self._loop.time())
        self._pending_size: tuple[int, int] | None = None
        self._tasks: set[asyncio.Task[None]] = set()
        self.closed = False

    def _later(self, job: Any) -> None:
        task = self._loop.create_task(job)
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def run(self) -> None:
        """Until the tab ends: anything not a message (not JSON, not a list, too
        large: aiohttp closes the socket) ends it with an error."""
        try:
            async for message in self.websocket:
                if message.type != web.WSMsgType.TEXT:
                    continue
                envelope = message.json()
                if not isinstance(envelope, list) or not 1 <= len(envelope) <= 2:
                    raise ValueError("a browser sent what is not a message")
                kind, data = envelope[0], envelope[1] if len(envelope) == 2 else None
                await self._one(kind, data)
        finally:
            self.closed = True
            for task in list(self._tasks):
                task.cancel()

    async def _one(self, kind: object, data: object) -> None:
        now = self._loop.time()
        if kind == "stdin" and isinstance(data, str):
            taken = self.budget.take(data.encode("utf-8"), now)
            if self.budget.dropped_once:
                log.warning("a browser tab sends keys too fast: the excess is dropped")
                self._later(self._tell_too_fast())
            if taken:
                await self.app.send_bytes(taken)
            if self.budget.last_dropped:
                await asyncio.sleep(self.budget.hold)  # a flood waits in the browser, not here
        elif kind == "resize" and isinstance(data, dict):
            size = self._clamp(data.get("width"), data.get("height"))
            if self._pending_size is None and self.budget.spend(RESIZE_EVENTS, now):
                await self._resize(size)
            else:
                if self._pending_size is None:
                    self._later(self._resize_later())
                self._pending_size = size
        elif kind == "ping":
            await self.websocket.send_json(["pong", data])
        elif kind in ("blur", "focus") and self.budget.spend(1, now):
            await (self.app.blur() if kind == "blur" else self.app.focus())

    async def _resize(self, size: tuple[int, int]) -> None:
        self.size = size
        await self.app.set_terminal_size(*size)

    async def _resize_later(self) -> None:
        await asyncio.sleep(RESIZE_EVENTS / self.budget.events_rate)
        size, self._pending_size = self._pending_size, None
        if size is not None and not self.closed:
            self.budget.spend(RESIZE_EVENTS, self._loop.time())  # owed or not
            await self._resize(size)

    async def _tell_too_fast(self) -> None:
        """Say once, on the bottom row, that input was dropped: between two of the
        app's screens (after a pause in its output), then let the app repaint."""
        waited = 0.0
        while self._loop.time() - self.app.last_output < NOTICE_QUIET and waited < NOTICE_WAIT:
            await asyncio.sleep(NOTICE_QUIET / 2)
            waited += NOTICE_QUIET / 2
        if self.closed:
            return
        columns, rows = self.size
        with contextlib.suppress(Exception):
            await self.websocket.send_bytes(notice(too_fast_words(self.language), columns, rows))
        await asyncio.sleep(NOTICE_SECONDS)
        if not self.closed and self._pending_size is None:
            await self.app.set_terminal_size(columns, max(1, rows - 1))  # a repaint
            await asyncio.sleep(0.2)
            if not self.closed and self._pending_size is None:
                await self.app.set_terminal_size(*self.size)


def client_address(request: web.Request) -> str:
    """The address a tab is counted at: the peer's; for a peer on loopback (a TLS
    proxy on this machine) the last address of its ``X-Forwarded-For``, if any."""
    peer = request.remote or "?"
    forwarded = request.headers.get("X-Forwarded-For")
    if forwarded is None:
        return peer
    try:
        if not ipaddress.ip_address(peer).is_loopback:
            return peer
        return str(ipaddress.ip_address(forwarded.rsplit(",", 1)[-1].strip()))
    except ValueError:
        return peer


def behind_https(request: web.Request) -> bool:
    """Whether the page was reached over HTTPS: TLS here, or a proxy that says so
    (``X-Forwarded-Proto: https``, ``Forwarded: proto=https``). Believing a false
    claim costs only the claimant: its own cookie is then sent over HTTPS only."""
    if request.secure:
        return True
    proto = request.headers.get("X-Forwarded-Proto", "").split(",")[0].strip().lower()
    if proto == "https":
        return True
    forwarded = request.headers.get("Forwarded", "").split(",")[0].lower()
    return any(part.strip() == "proto=https" for part in forwarded.split(";"))
