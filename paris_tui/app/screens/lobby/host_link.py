"""The lobby's connection to the host: reading what it sends, connecting again when
it drops, and asking for the table list every :data:`POLL` seconds.

:class:`HostLink` holds the connection (:class:`~paris_tui.net.client.HostClient`,
after ``welcome``) and the one task that reads it, until a seat or a watch is the
player's (the game screen then reads on from the very next line) or the
connection is over. What it reads goes to its :class:`LinkListener` (the lobby
screen), which draws it: the link knows nothing of the screen but those calls.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Protocol

from textual.dom import DOMNode
from textual.timer import Timer

from paris_tui.core import printable
from paris_tui.i18n import _
from paris_tui.net.client import HostClient, HostClosedError
from paris_tui.net.protocol import HostMessage, ListTables, ProtocolError, Seated, Watching

__all__ = ["POLL", "POLL_AWAY", "RECONNECT_TRIES", "HostLink", "LinkListener"]

POLL = 2.0  # seconds between two asks for the table list
POLL_AWAY = 15.0  # ... while the terminal or browser tab reports the focus lost
RECONNECT_TRIES = 8  # the lobby tries this often to connect again (0.5 s, 1 s, ... 8 s apart)


class LinkListener(Protocol):
    """What the link tells the lobby it serves."""

    def link_heard(self, message: HostMessage) -> None:
        """A line from the host other than a seat or a watch."""

    def link_settled(self, message: Seated | Watching) -> None:
        """A seat or a watch is the player's: nothing more is read here."""

    def link_over(self, why: str) -> None:
        """The connection is over, for good (:attr:`HostLink.ended` says why)."""

    def link_lost(self) -> None:
        """The connection dropped and is being made again: a seat held at a waiting
        table went with it."""

    def link_back(self) -> None:
        """The connection was made again: ask anew for what the old one listened to."""

    def say(self, message: str, *, problem: bool = False) -> None:
        """A line for the status line: how connecting again goes."""


class HostLink:
    """The connection to the host, its reading task, and the asks for the table list.

    ``reconnect``: a new connection to the host, tried when this one drops (as a
    seated client rejoins); :attr:`client` is then the new one."""

    def __init__(
        self,
        client: HostClient,
        listener: LinkListener,
        reconnect: Callable[[], Awaitable[HostClient]] | None = None,
    ) -> None:
        self.client = client
        self._listener = listener
        self._connect = reconnect
        self.ended: str | None = None  # why the connection is over, once it is
        self.done = False  # dismissed (or about to be): nothing more is read
        self._reader: asyncio.Task[None] | None = None
        self._polls: Timer | None = None
        self._polls_away: Timer | None = None

    def start(self) -> None:
        """Read every line the host sends, from now on (in a task of the running loop)."""
        self._reader = asyncio.get_running_loop().create_task(self._read())

    def stop(self) -> None:
        """Read no more (the task ends, unless it is the one calling)."""
        self.done = True
        reader = self._reader
        if reader is not None and not reader.done() and reader is not asyncio.current_task():
            reader.cancel()

    def refresh(self) -> None:
        """Ask for the table list, unless the connection is over or no more is read."""
        if self.ended is None and not self.done:
            self.client.send(ListTables())

    def poll(self, owner: DOMNode, every: float, away: float) -> None:
        """Ask for the table list every ``every`` seconds; every ``away`` seconds
        while the terminal or browser tab says it lost the focus (Textual's focus
        reporting: a lobby left in another window costs next to nothing, the app
        wakes that seldom too); at once when it comes back. The timers are
        ``owner``'s (they stop with it)."""
        self._polls = owner.set_interval(every, self.refresh)
        self._polls_away = owner.set_interval(away, self.refresh, pause=True)
        owner.watch(owner.app, "app_focus", self._focus_changed, init=False)

    def _focus_changed(self, focused: bool) -> None:
        assert self._polls is not None and self._polls_away is not None
        now, then = (self._polls, self._polls_away) if focused else (self._polls_away, self._polls)
        then.pause()
        if focused:  # back from another window: the list as it is now
            self.refresh()
        now.reset()
        now.resume()

    def _over(self, why: str) -> None:
        self.ended = why
        self.done = True
        self._listener.link_over(why)

    async def _read(self) -> None:
        """Every line the host sends, until a seat or a watch is ours (or the end)."""
        while not self.done:
            try:
                message = await self.client.receive()
            except (HostClosedError, OSError) as exc:
                replaced = isinstance(exc, HostClosedError) and exc.reason == "replaced"
                if not replaced and await self._reconnect():
                    continue
                if not isinstance(exc, HostClosedError):
                    self._over(
                        printable(
                            _("The connection to the host failed: {problem}").format(
                                problem=exc.strerror or exc
                            )
                        )
                    )
                    return
                self._over(
                    _("The host closed the connection ({reason}).").format(reason=exc.reason)
                )
                return
            except ProtocolError as exc:
                self._over(
                    printable(
                        _("The host sent what this client cannot read: {problem}").format(
                            problem=exc.message
                        )
                    )
                )
                return
            if isinstance(message, Seated | Watching):
                # The game screen reads on from the very next line.
                self._listener.link_settled(message)
                return
            self._listener.link_heard(message)

    def _left(self) -> bool:
        """Whether the lobby was left (while a reconnection waited, say)."""
        return self.done

    async def _reconnect(self) -> bool:
        """Connect again (a few tries, waiting longer each time); whether it worked.
        A seat held at a waiting table is gone with the old connection."""
        if self._connect is None or self.done:
            return False
        self._listener.link_lost()
        for attempt in range(1, RECONNECT_TRIES + 1):
            self._listener.say(
                _("Connection lost: joining again (try {n})…").format(n=attempt), problem=True
            )
            await asyncio.sleep(min(8.0, 0.5 * 2 ** (attempt - 1)))
            if self._left():
                return False
            try:
                client = await self._connect()
            except Exception:  # JoinError, OSError: the next try
                continue
            old, self.client = self.client, client
            old.abort()
            self._listener.say(_("Connected again"))
            self._listener.link_back()
            self.refresh()
            return True
        return False
