"""Friends: "tell me when NAME is here", as Brettspielwelt had.

An account keeps a short list of friends (at most
:data:`~paris_tui.host.accounts.store.MAX_FRIENDS`, stored with the accounts: SQLite
or PostgreSQL). A connection that sends a
:class:`~paris_tui.net.protocol.FriendsRequest` (the lobby does, for its
player) proves the account and, from then on, listens: whenever a friend comes
in at any door (takes a seat, or opens a lobby that asks for its own friends)
and was not here before, the listener gets a
:class:`~paris_tui.net.protocol.FriendsInfo` with ``arrived``. "Here" means a
connection of the host is that account's now (a seat it owns, or a lobby that
asked as it); nothing about where a friend sits is told.

With ``--database`` "here" is at any host of the database: every
tick each host writes the accounts here (``paris_presence``, each row good
for a lease's length, so a host that died stops counting) and reads which of
its listeners' friends are here at another host; one that came since the
last tick is told as ``arrived`` (a tick or two after it came).
"""

from __future__ import annotations

import asyncio
import logging
import time
import weakref
from dataclasses import dataclass, field

from paris_tui.core.text import InvalidNameError, normalize_name, printable
from paris_tui.host.accounts.names import folded
from paris_tui.host.accounts.store import Account, AccountsUnavailable
from paris_tui.host.peers import Peer
from paris_tui.host.ports import FriendsHost, SharedPresence
from paris_tui.host.referee import Refusal
from paris_tui.net.protocol import FriendsInfo, FriendsRequest

__all__ = ["Friends"]

log = logging.getLogger("paris_tui.host.friends")


@dataclass
class _Listener:
    account: int
    name: str
    friends: dict[int, str] = field(default_factory=dict)  # id -> name


class Friends:
    """Who listens for whom, on one host (in memory; the lists are the store's)."""

    def __init__(self, host: FriendsHost, cluster: SharedPresence | None = None) -> None:
        self.host = host
        self.cluster = cluster  # the hosts' database, when several hosts share one
        self.listeners: weakref.WeakKeyDictionary[Peer, _Listener] = weakref.WeakKeyDictionary()
        # The listeners' friends here at another host of the database.
        self.elsewhere: set[int] = set()
        self._said: list[int] = []  # the accounts last written here, and when
        self._said_at = 0.0

    def account_of(self, conn: Peer) -> int | None:
        """The account a connection is now: the one it listens as, else its seat's owner."""
        listener = self.listeners.get(conn)
        if listener is not None:
            return listener.account
        if conn.room is not None and conn.seat is not None:
            return conn.room.owners.get(conn.seat)
        return None

    def here(self, account_id: int, *, besides: Peer | None = None) -> bool:
        return account_id in self.elsewhere or any(
            c is not besides and not c.closed and self.account_of(c) == account_id
            for c in list(self.host.connections)
        )

    def local(self) -> set[int]:
        """The accounts of this host's connections now."""
        found = {self.account_of(c) for c in list(self.host.connections) if not c.closed}
        return {a for a in found if a is not None}

    # --- at every host of the database -------------------------------------------------

    def stop(self) -> None:
        """This host's rows go (a host that dies leaves them to run out)."""
        cluster = self.cluster
        if cluster is not None:
            try:
                cluster.store.put_presence(cluster.id, [], 0.0)
            except OSError as exc:
                log.error("could not say who is here no more: %s", exc)

    async def step(self) -> None:
        """Say who is here, read which friends are here elsewhere, tell who came
        (at each of the cluster's ticks, after its leases: :meth:`Cluster._run`)."""
        cluster = self.cluster
        if cluster is None or cluster.down:  # no extra tries while it is away
            return
        mine = sorted(self.local())
        watched = sorted({a for lst in list(self.listeners.values()) for a in lst.friends})
        now = time.monotonic()
        # Said again only when it changed or half its rows' time went by; read only
        # for listeners: an idle host costs the database nothing more.
        say = mine != self._said or now - self._said_at >= cluster.leases.seconds / 2
        if not say and not watched:
            return

        def exchange() -> set[int]:
            if say:
                cluster.store.put_presence(cluster.id, mine, cluster.leases.seconds)
            return cluster.store.present(watched, cluster.id)

        loop = asyncio.get_running_loop()
        try:
            present = await loop.run_in_executor(self.host.io_pool, exchange)
        except OSError:  # the database is away: the cluster's tick says so, once
            return
        if say:
            self._said, self._said_at = mine, now
        came = present - self.elsewhere
        self.elsewhere = present
        here = self.local()
        for account_id in sorted(came - here):
            self._tell(account_id)

    def _tell(self, account_id: int, besides: Peer | None = None) -> None:
        for other, listener in list(self.listeners.items()):
            if other is besides or other.closed or account_id not in listener.friends:
                continue
            name = listener.friends[account_id]
            other.send(self._info(listener, arrived=name, arriving=account_id))
            log.info("%s: told that %s is here", other, printable(name))

    def _info(
        self, listener: _Listener, arrived: str | None = None, arriving: int | None = None
    ) -> FriendsInfo:
        friends = sorted(listener.friends.items(), key=lambda f: folded(f[1]))
        here = tuple((n, i == arriving or self.here(i)) for i, n in friends)
        return FriendsInfo(listener.name, here, arrived)

    async def request(self, conn: Peer, message: FriendsRequest) -> None:
        """Show, add or remove a friend; the connection listens from now on."""
        try:
            name = normalize_name(message.name)
            friend = None if message.friend is None else normalize_name(message.friend)
        except InvalidNameError as exc:
            raise Refusal("bad_name", exc.problem) from None
        claim = self.host.gate.prove(name, message.token)
        account = claim.account
        store = self.host.accounts
        if account is None or store is None:
            if message.action == "show":  # a name that is nobody's yet has no friends
                conn.send(FriendsInfo(name, ()))
                return
            raise Refusal(
                "no_such_seat", f"{name} is no account here yet: take a seat or open a table first"
            )
        loop = asyncio.get_running_loop()

        def change() -> list[Account]:
            if message.action != "show":
                if friend is None:
                    raise Refusal("bad_name", "name the friend")
                other = store.find(friend)
                if other is None or folded(other.name) != folded(friend):
                    raise Refusal("no_such_seat", f"there is no account {friend}")
                if other.id == account.id:
                    raise Refusal("bad_name", "you are your own friend already")
                if message.action == "remove":
                    store.remove_friend(account.id, other.id)
                elif not store.add_friend(account.id, other.id):
                    raise Refusal("bad_name", "the list of friends is full")
            return store.friends(account.id)

        def elsewhere(ids: list[int]) -> set[int]:
            cluster = self.cluster
            if cluster is None:
                return set()
            try:
                return cluster.store.present(ids, cluster.id)
            except OSError as exc:
                log.error("cannot read who is here at the other hosts: %s", exc)
                return set()

        try:
            friends = await loop.run_in_executor(self.host.io_pool, change)
        except AccountsUnavailable as exc:
            raise self.host.gate.broken(exc) from None
        ids = [f.id for f in friends]
        if self.cluster is not None:  # here at another host
            self.elsewhere |= await loop.run_in_executor(self.host.io_pool, elsewhere, ids)
        came = self.account_of(conn) != account.id and not self.here(account.id, besides=conn)
        listener = _Listener(account.id, account.name, {f.id: f.name for f in friends})
        self.listeners[conn] = listener
        conn.send(self._info(listener))
        if came:
            self.arrived(conn, account.id, account.name)

    def arrived(self, conn: Peer, account_id: int | None, name: str) -> None:
        """``conn`` is now ``account_id``'s: its listening friends are told, if it was
        not here before (another connection of it)."""
        if account_id is None or self.account_of(conn) == account_id:
            return  # this connection was that account already (its lobby sits down)
        told = [
            (other, listener)
            for other, listener in list(self.listeners.items())
            if other is not conn and not other.closed and account_id in listener.friends
        ]
        # Whether it was here already is a look at every connection: only when
        # someone listens for it (not for each of a burst of joins).
        if not told or self.here(account_id, besides=conn):
            return
        for _other, listener in told:
            listener.friends[account_id] = name  # a renamed friend: the name of now
        self._tell(account_id, besides=conn)
