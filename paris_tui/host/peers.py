"""What a connection and a table are to the modules that only hear of them.

:class:`Peer` is a client connection (:class:`~paris_tui.host.connection.Connection`)
and :class:`Table` a table being served (:class:`~paris_tui.host.room.Room`), as
the services and the events (:mod:`paris_tui.host.events`) see them: the few
attributes they read and the few things they ask. Both are structural
(:class:`typing.Protocol`): nothing here imports the host.
"""

from __future__ import annotations

from collections.abc import Mapping, Set
from typing import Protocol

from paris_tui.core import Move
from paris_tui.host.accounts.identity import Claim, Vouched
from paris_tui.host.referee import Referee
from paris_tui.net.protocol import HostMessage, RatedResult

__all__ = ["Peer", "Table"]


class Peer(Protocol):
    """A client connection: who it is, where it sits, and a way to send to it."""

    closed: bool
    chat_account: int | None  # the account a watcher reads the chat as
    chat_joins: int  # the chat histories it was sent
    claim: Claim | None  # the account it holds a waiting seat as (made when the game starts)
    ticket: str | None  # a door's ticket it sent (a door's app)

    @property
    def id(self) -> int: ...

    @property
    def address(self) -> str: ...

    @property
    def address_key(self) -> str: ...

    @property
    def protocol(self) -> int: ...

    @property
    def room(self) -> Table | None: ...

    @property
    def seat(self) -> int | None: ...

    @property
    def vouched(self) -> Vouched | None: ...

    def send(self, message: HostMessage) -> None: ...

    def send_bytes(self, data: bytes) -> None: ...

    def dismiss(self, last: HostMessage) -> None: ...

    def unseat(self) -> None:
        """Sit nowhere any more (the table went away under it)."""


class Table(Protocol):
    """A table being served: its referee, its seats' owners, who is at it."""

    result: RatedResult | None  # how its finished game was rated

    @property
    def id(self) -> str: ...

    @property
    def referee(self) -> Referee: ...

    @property
    def owners(self) -> dict[int, int]: ...

    @property
    def seated(self) -> Mapping[int, Peer]: ...

    @property
    def watchers(self) -> Set[Peer]: ...

    @property
    def takeover(self) -> Set[int]: ...

    def broadcast_presence(self) -> None: ...

    async def play(self, seat: int, move: Move, move_count: int) -> None: ...
