"""What each service needs of the host: one narrow :class:`typing.Protocol` each.

The :class:`~paris_tui.host.server.Host` implements all of them; a service is
given the host typed as its own port (never the ``Host`` class), and hears
what happens at the tables on the host's
:class:`~paris_tui.host.events.EventBus`. Nothing here imports the server.

- :class:`AccountsSource`: the accounts store and its gate (both change when the
  host loads), with the I/O threads to read them in (chat, friends).
- :class:`TurnsHost`: the tables served, the AI, the events (turn clocks).
- :class:`RatingsHost`: the stores beside which the ratings are kept, and a
  table's seat owners (ratings).
- :class:`FriendsHost`: every connection, to say who is here (friends), and
  :class:`SharedPresence`: the database the hosts share, for the same across hosts.
- :class:`WaitingHost` (with :class:`SeatLocks`, :class:`NameRatings`): the
  gate, the tables served, a connection's seat, and the game dealt (the
  waiting tables).
- :class:`LocksHost`: the accounts and every connection, to end a locked
  account's seats (the lock watch).
- :class:`AgreementsHost`: the rooms, a table to open and save, a table's move
  time (a rematch, a resignation).
- :class:`ClusterHost`: the tables served and waiting, a table to take over or
  give up, a connection to relay, and the doors' tickets (the cluster).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence, Set
from concurrent.futures import Executor
from typing import Protocol

from paris_tui.core import Options
from paris_tui.core.dealing import SeatSpec
from paris_tui.core.record import Record
from paris_tui.host.accounts.identity import Gate, Tickets
from paris_tui.host.accounts.store import AccountStore
from paris_tui.host.admission import Admission
from paris_tui.host.ai_moves import AIMoves
from paris_tui.host.config import HostConfig
from paris_tui.host.connection import Connection
from paris_tui.host.events import EventBus
from paris_tui.host.peers import Peer, Table
from paris_tui.host.referee import Referee
from paris_tui.host.room import Room, TableClocks
from paris_tui.host.services.waiting import WaitingTable
from paris_tui.host.store.files import HostStore, TableStore
from paris_tui.host.store.lease import Leases
from paris_tui.host.store.postgres import PostgresStore

__all__ = [
    "AccountsSource",
    "AgreementsHost",
    "ClusterHost",
    "FriendsHost",
    "LocksHost",
    "NameRatings",
    "RatingsHost",
    "Resumed",
    "SeatLocks",
    "SharedPresence",
    "TurnsHost",
    "WaitingHost",
]

# A table ready to serve: its replayed referee, its seats' owners, a problem reading them.
Resumed = tuple[Referee, dict[int, int], str | None]


class AccountsSource(Protocol):
    """The accounts (``None`` while they cannot be read) and the gate that proves them."""

    @property
    def accounts(self) -> AccountStore | None: ...

    @property
    def gate(self) -> Gate: ...

    @property
    def io_pool(self) -> Executor: ...


class TurnsHost(Protocol):
    """What the turn clocks need: the tables served, the AI, the event stream."""

    @property
    def rooms(self) -> Mapping[str, Table]: ...

    @property
    def ai_moves(self) -> AIMoves: ...

    @property
    def events(self) -> EventBus: ...


class RatingsHost(Protocol):
    """Where the ratings are kept (beside the tables), who owns a table's seats, and
    what tells its seats' people apart (the doors' tickets, the operator's
    ``--rated-address``)."""

    @property
    def config(self) -> HostConfig: ...

    @property
    def tickets(self) -> Tickets: ...

    @property
    def tables(self) -> TableStore: ...

    @property
    def store(self) -> HostStore: ...

    @property
    def accounts(self) -> AccountStore | None: ...

    def load_owners(self, table_id: str, referee: Referee) -> tuple[dict[int, int], str | None]:
        """The seats' owners of a table (or a problem reading them)."""
        ...


class FriendsHost(AccountsSource, Protocol):
    """Every connection of the host (who is here), and the accounts."""

    @property
    def connections(self) -> Set[Peer]: ...


class SharedPresence(Protocol):
    """The hosts' shared database, as the friends read who is here at the others."""

    @property
    def id(self) -> str: ...

    @property
    def down(self) -> bool: ...

    @property
    def store(self) -> PostgresStore: ...

    @property
    def leases(self) -> Leases: ...


class LocksHost(Protocol):
    """What the lock watch reads (the accounts, every connection) and does (a seat left)."""

    @property
    def config(self) -> HostConfig: ...

    @property
    def accounts(self) -> AccountStore | None: ...

    @property
    def io_pool(self) -> Executor: ...

    @property
    def connections(self) -> Set[Connection]: ...

    def leave(self, conn: Connection) -> None: ...


class SeatLocks(Protocol):
    """The database's lock on a name at one table across hosts (the cluster's ``seat``)."""

    def seat(self, table_id: str, names: Sequence[str], *, replace: Sequence[str] = ()) -> None: ...


class NameRatings(Protocol):
    """A waiting table's holder's shown rating, by name (the ratings)."""

    def seat_rating_by_name(self, name: str) -> int | None: ...

    def provisional_by_name(self, name: str) -> bool: ...


class WaitingHost(Protocol):
    """What the waiting tables need: the gate, the tables served, a new table's
    id, a connection's seat left or proven, and the game dealt when every
    seat is held (:meth:`deal`)."""

    @property
    def config(self) -> HostConfig: ...

    @property
    def gate(self) -> Gate: ...

    @property
    def cluster(self) -> SeatLocks | None: ...

    @property
    def ratings(self) -> NameRatings: ...

    @property
    def turns(self) -> TableClocks: ...

    @property
    def events(self) -> EventBus: ...

    def unfinished(self) -> Sequence[Room]: ...

    def new_table_id(self) -> str: ...

    def leave(self, conn: Connection) -> None: ...

    def proven(self, conn: Connection) -> None: ...

    def deal(
        self,
        table: WaitingTable[Connection],
        accounts: dict[int, int],
        tokens: dict[int, str | None],
    ) -> None:
        """Every seat of ``table`` is held by these accounts: deal and seat them."""
        ...


class ClusterHost(Protocol):
    """What the cluster acts on: tables to take over or give up, a connection to
    relay (it leaves its seat first), the doors' tickets it vouches for."""

    @property
    def io_pool(self) -> Executor: ...

    @property
    def rooms(self) -> Mapping[str, Room]: ...

    @property
    def waiting(self) -> Mapping[str, object]: ...

    @property
    def tickets(self) -> Tickets: ...

    @property
    def admission(self) -> Admission: ...

    def unfinished(self) -> Sequence[Room]: ...

    def prepare(self, table_id: str, record: Record) -> Resumed: ...

    def resume(self, table_id: str, record: Record, prepared: Resumed | None = None) -> Room: ...

    def lose_table(self, table_id: str) -> list[Peer] | None:
        """Stop serving the table here; its connections (to be unseated and told
        ``bye``), or ``None`` if it was not served here."""
        ...

    def leave(self, conn: Connection) -> None: ...


class AgreementsHost(Protocol):
    """What the agreements need of the host: its rooms, a table to open, a
    table's move time, and a table to save."""

    @property
    def rooms(self) -> dict[str, Room]: ...

    def open_table(
        self,
        seats: Sequence[SeatSpec],
        *,
        seed: int | None = None,
        options: Options | None = None,
        move_time: float | None = None,
    ) -> Room: ...

    def table_move_time(self, room: Room) -> float | None: ...

    def save_table(self, room: Room) -> None: ...
