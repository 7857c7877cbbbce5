"""The one interface a game screen talks to: a :class:`Table`, local or remote.

boardgame.io runs the same master in process (``LocalMaster``) and behind a
socket; paris-tui does the same. A :class:`Table` offers the views of the
seats this terminal may see, the public events, the seats' presence, and
:meth:`Table.submit`; what happens comes back through a
:class:`TableListener`. :class:`RemoteTable` is a table on a host (one
seat, or none for a watcher); ``paris_tui.host.local.LocalTable`` is a
referee in this process (hot-seat: every human seat is local).
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import Callable
from dataclasses import replace
from typing import Protocol

from ..core import Event, Move, SeatView
from ..wording import refusal_reason
from .client import HostClient, HostClosedError
from .endings_wire import Agree, Agreement, AgreeWhat
from .protocol import (
    Chat,
    ChatLine,
    ErrorCode,
    MoveClock,
    MutesInfo,
    MutesRequest,
    Presence,
    ProtocolError,
    RatedResult,
    Refused,
    Seated,
    SeatInfo,
    Update,
    Watching,
)
from .tournaments_wire import RoundStart

__all__ = ["RemoteTable", "Table", "TableListener", "public_view"]


class TableListener(Protocol):
    """What a table tells its screen. Called on the event loop's thread."""

    def table_changed(self, table: Table, events: tuple[Event, ...]) -> None:
        """A move was made: ``events`` it caused; :meth:`Table.view` is already new."""

    def table_refused(self, table: Table, code: ErrorCode, message: str) -> None:
        """A move of ours was refused (the game is unchanged)."""

    def table_presence(self, table: Table) -> None:
        """:attr:`Table.seats` changed (someone came, left, or an AI took over)."""

    def table_closed(self, table: Table, reason: str) -> None:
        """The table is gone for this terminal (the host hung up, or shut down)."""


class Table(Protocol):
    """A game as one terminal takes part in it."""

    @property
    def table_id(self) -> str: ...

    @property
    def seats(self) -> tuple[SeatInfo, ...]: ...

    @property
    def local_seats(self) -> tuple[int, ...]:
        """The seats this terminal plays (empty for a watcher)."""
        ...

    def view(self, seat: int | None) -> SeatView:
        """The view of a local seat, or with ``None`` the public view."""
        ...

    @property
    def events(self) -> tuple[Event, ...]: ...

    @property
    def move_count(self) -> int: ...

    def submit(self, seat: int, move: Move, move_count: int) -> None:
        """Play ``move`` for local ``seat``, chosen when ``move_count`` moves were made.

        The answer comes to the listeners: :meth:`TableListener.table_changed`
        or :meth:`TableListener.table_refused`.
        """
        ...

    def add_listener(self, listener: TableListener) -> None: ...


def public_view(view: SeatView) -> SeatView:
    """The public view a seat's view contains: what a watcher sees of the same moment."""
    if view.seat is None:
        return view
    return replace(view, seat=None, own_route=None, legal_moves=())


class RemoteTable:
    """A table on a host, through a :class:`HostClient` that has joined or watches it.

    Call :meth:`run` (a task) to follow the host; it returns when the
    connection ends, after telling the listeners.
    """

    def __init__(self, client: HostClient, joined: Seated | Watching) -> None:
        self.client = client
        self._table_id = joined.table
        self._seat = joined.seat if isinstance(joined, Seated) else None
        self._view = joined.view
        self._events: list[Event] = list(joined.events)
        self._seats = joined.seats
        # The tournament whose round this table is (protocol 6): no rematch offered.
        self.tournament = joined.tournament
        self._listeners: list[TableListener] = []
        self.closed_reason: str | None = None
        self.rated: RatedResult | None = None  # how the finished game was rated
        # A timed table's clock, as last told, and when (time.monotonic()).
        self.clock: MoveClock | None = None
        self.clock_heard = 0.0
        # Table chat (protocol 4): the lines heard, and who hears them as they come.
        self.chat_lines: list[ChatLine] = []
        self.chat_listeners: list[Callable[[ChatLine], None]] = []
        # A watcher speaks as this account when set (name, token), else as nobody.
        self.chat_as: tuple[str, str | None] | None = None
        # The writers this account hides (the host's list, kept with the account), and
        # who hears it when it comes.
        self.chat_mutes: tuple[str, ...] | None = None
        self.mutes_listeners: list[Callable[[tuple[str, ...]], None]] = []
        # Who agrees to a rematch, an abort (protocol 5): the host's last word on each.
        self.agreements: dict[str, Agreement] = {}
        self.agreement_listeners: list[Callable[[Agreement], None]] = []
        # A tournament's round that seats this account at another table (protocol 6),
        # opened while it plays here: the last one told, and who hears it as it comes.
        self.round_start: RoundStart | None = None
        self.round_listeners: list[Callable[[RoundStart], None]] = []

    @property
    def chat_allowed(self) -> bool:
        """The host speaks table chat (protocol 4)."""
        welcome = getattr(self.client, "welcome", None)  # (a test's table may have no client)
        return welcome is not None and welcome.protocol >= 4

    def say(self, text: str | None = None, phrase: str | None = None) -> None:
        """Say a chat line (or a canned ``phrase`` id) at this table; a refusal comes
        to the listeners as :meth:`TableListener.table_refused`."""
        name, token = self.chat_as if self._seat is None and self.chat_as else (None, None)
        if token is None:  # nothing proves the name (no account yet): as an anonymous watcher
            name = None
        self.client.send(Chat(text, phrase, name, token))

    def mute(self, name: str | None, on: bool = True) -> None:
        """Ask the host to keep ``name`` muted for this account (``on=False``: no more;
        ``name=None``: only show the list); its answer comes to :attr:`mutes_listeners`."""
        if not self.chat_allowed:
            return
        who, token = self.chat_as if self._seat is None and self.chat_as else (None, None)
        if self._seat is None and token is None:
            return  # a watcher who is no account: the mute is this terminal's only
        action = "show" if name is None else "add" if on else "remove"
        self.client.send(MutesRequest(action, name, who, token))

    @property
    def agree_allowed(self) -> bool:
        """The host hears a seat's rematch, abort or resignation (protocol 5)."""
        welcome = getattr(self.client, "welcome", None)
        return self._seat is not None and welcome is not None and welcome.protocol >= 5

    @property
    def rematch_allowed(self) -> bool:
        """A rematch may be asked for: the host hears it and the table is no tournament's
        (whose next round pairs the players again)."""
        return self.agree_allowed and self.tournament is None

    def agree(self, what: AgreeWhat, yes: bool = True) -> None:
        """This seat's word on ``what`` (its answer comes to :attr:`agreement_listeners`)."""
        if self.agree_allowed:
            self.client.send(Agree(what, yes))

    @property
    def table_id(self) -> str:
        return self._table_id

    @property
    def seats(self) -> tuple[SeatInfo, ...]:
        return self._seats

    @property
    def hints_allowed(self) -> bool:
        """The host lets its players ask for a hint (its welcome said so)."""
        welcome = self.client.welcome
        return welcome is not None and welcome.hints

    @property
    def local_seats(self) -> tuple[int, ...]:
        return () if self._seat is None else (self._seat,)

    def view(self, seat: int | None) -> SeatView:
        if seat is None:
            return public_view(self._view)
        if seat != self._seat:
            raise ValueError(f"seat {seat} is not played from this terminal")
        return self._view

    @property
    def events(self) -> tuple[Event, ...]:
        return tuple(self._events)

    @property
    def move_count(self) -> int:
        return len(self._view.moves)

    def submit(self, seat: int, move: Move, move_count: int) -> None:
        if seat != self._seat:
            raise ValueError(f"seat {seat} is not played from this terminal")
        self.client.play(move, move_count)

    def add_listener(self, listener: TableListener) -> None:
        self._listeners.append(listener)

    def remove_listener(self, listener: TableListener) -> None:
        if listener in self._listeners:
            self._listeners.remove(listener)

    async def run(self) -> None:
        """Follow the host until the connection ends."""
        reason = "closed"
        try:
            while True:
                message = await self.client.receive()
                if isinstance(message, Update) and message.table == self._table_id:
                    self._view = message.view
                    self._events.extend(message.events)
                    for listener in list(self._listeners):
                        listener.table_changed(self, message.events)
                elif isinstance(message, Presence) and message.table == self._table_id:
                    self._seats = message.seats
                    if message.result is not None:
                        self.rated = message.result
                    if message.clock is not None:
                        self.clock, self.clock_heard = message.clock, time.monotonic()
                    for listener in list(self._listeners):
                        listener.table_presence(self)
                elif isinstance(message, ChatLine) and message.table == self._table_id:
                    self.chat_lines = [*self.chat_lines[-199:], message]
                    for hear in list(self.chat_listeners):
                        hear(message)
                elif isinstance(message, Agreement) and message.table == self._table_id:
                    self.agreements[message.what] = message
                    for heard_agreement in list(self.agreement_listeners):
                        heard_agreement(message)
                elif isinstance(message, RoundStart) and message.table != self._table_id:
                    self.round_start = message
                    for heard_round in list(self.round_listeners):
                        heard_round(message)
                elif isinstance(message, MutesInfo):
                    self.chat_mutes = message.names
                    for heard in list(self.mutes_listeners):
                        heard(message.names)
                elif isinstance(message, Refused):
                    for listener in list(self._listeners):
                        # The host's code, in this terminal's words.
                        words = refusal_reason(message.code, message.message, message.illegal)
                        listener.table_refused(self, message.code, words)
                    if message.fatal:
                        reason = message.code
                        break
        except HostClosedError as exc:
            reason = exc.reason
        except ProtocolError as exc:
            reason = exc.code
        except OSError:
            reason = "closed"
        finally:
            with contextlib.suppress(OSError):
                self.client.abort()
        self.closed_reason = reason
        for listener in list(self._listeners):
            listener.table_closed(self, reason)

    async def close(self) -> None:
        await self.client.close()
