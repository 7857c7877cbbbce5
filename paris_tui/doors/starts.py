"""Logins take turns: at most a few apps start at once, the others wait, fairly.

An app's start (forked warm: about 0.15 s of CPU to its first frame) is
most of a login's work. Fifty logins at once on two cores all started
together would all share the cores and all finish late, together. The doors
let :class:`StartSlots` admit a few at a time (``slots``, by default one per
core): each waiting login is queued under its address, and a free slot goes
to the address that has had the fewest turns (round robin, each address's
logins in their order), so that a burst from one address does not push the
others back. A slot is held until the app has drawn its first frame (its
output passed ``frame_bytes``), ended, or ``hold`` seconds passed.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
from collections import OrderedDict, deque

__all__ = ["FIRST_FRAME_BYTES", "Slot", "StartSlots"]

FIRST_FRAME_BYTES = 8192
"""Output of an app that is past its first frame (a game screen or a lobby is more)."""


class Slot:
    """A turn to start an app: :meth:`output` counts its bytes, :meth:`release` ends it."""

    def __init__(self, slots: StartSlots, hold: float) -> None:
        self._slots = slots
        self._written = 0
        self._done = False
        self._timer = asyncio.get_running_loop().call_later(hold, self.release)

    @property
    def done(self) -> bool:
        """Released (past the first frame, ended, or timed out)."""
        return self._done

    def output(self, size: int) -> None:
        """The app wrote ``size`` bytes; past its first frame, the slot is free again."""
        if self._done:
            return
        self._written += size
        if self._written >= self._slots.frame_bytes:
            self.release()

    def release(self) -> None:
        if self._done:
            return
        self._done = True
        self._timer.cancel()
        self._slots._freed()


class StartSlots:
    """At most ``slots`` apps starting at once; the others queue fairly by address."""

    def __init__(
        self, slots: int | None = None, *, hold: float = 3.0, frame_bytes: int = FIRST_FRAME_BYTES
    ) -> None:
        self.slots = max(1, slots if slots is not None else (os.cpu_count() or 1))
        self.hold = hold
        self.frame_bytes = frame_bytes
        self._busy = 0
        self._queues: OrderedDict[str, deque[asyncio.Future[None]]] = OrderedDict()

    @property
    def waiting(self) -> int:
        return sum(len(q) for q in self._queues.values())

    async def acquire(self, address: str) -> Slot:
        """Wait for a turn (cancelled: the place in the queue is given up)."""
        if self._busy < self.slots and not self._queues:
            self._busy += 1
            return Slot(self, self.hold)
        turn: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._queues.setdefault(address, deque()).append(turn)
        try:
            await turn
        except BaseException:
            if turn.done() and not turn.cancelled():
                self._freed()  # the turn was given just as we left: pass it on
            else:
                queue = self._queues.get(address)
                if queue is not None:
                    with contextlib.suppress(ValueError):
                        queue.remove(turn)
                    if not queue:
                        del self._queues[address]
            raise
        return Slot(self, self.hold)

    def _freed(self) -> None:
        self._busy -= 1
        while self._busy < self.slots and self._queues:
            address, queue = next(iter(self._queues.items()))
            turn = queue.popleft()
            # Round robin: this address goes to the back of the line of addresses.
            del self._queues[address]
            if queue:
                self._queues[address] = queue
            if turn.cancelled():
                continue
            self._busy += 1
            turn.set_result(None)
