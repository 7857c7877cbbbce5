"""Friends (issue 22): "tell me when NAME is here", as Brettspielwelt had.

An account keeps a short list of friends (at most
:data:`~paris_tui.host.accounts.MAX_FRIENDS`, stored with the accounts: SQLite
or PostgreSQL). A connection that sends a
:class:`~paris_tui.net.protocol.FriendsRequest` (the lobby does, for its
player) proves the account and, from then on, listens: whenever a friend comes
in at any door (takes a seat, or opens a lobby that asks for its own friends)
and was not here before, the listener gets a
:class:`~paris_tui.net.protocol.FriendsInfo` with ``arrived``. "Here" means a
connection of the host is that account's now (a seat it owns, or a lobby that
asked as it); nothing about where a friend sits is told.
"""

from __future__ import annotations

import asyncio
import logging
import weakref
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from ..core.text import InvalidNameError, normalize_name, printable
from ..net.protocol import FriendsInfo, FriendsRequest
from .accounts import Account, AccountsUnavailable
from .names import folded
from .referee import Refusal

if TYPE_CHECKING:  # pragma: no cover
    from .server import Connection, Host

__all__ = ["Friends"]

log = logging.getLogger("paris_tui.host.friends")


@dataclass
class _Listener:
    account: int
    name: str
    friends: dict[int, str] = field(default_factory=dict)  # id -> name


class Friends:
    """Who listens for whom, on one host (in memory; the lists are the store's)."""

    def __init__(self, host: Host) -> None:
        self.host = host
        self.listeners: weakref.WeakKeyDictionary[Connection, _Listener] = (
            weakref.WeakKeyDictionary()
        )

    def account_of(self, conn: Connection) -> int | None:
        """The account a connection is now: the one it listens as, else its seat's owner."""
        listener = self.listeners.get(conn)
        if listener is not None:
            return listener.account
        if conn.room is not None and conn.seat is not None:
            return conn.room.owners.get(conn.seat)
        return None

    def here(self, account_id: int, *, besides: Connection | None = None) -> bool:
        return any(
            c is not besides and not c.closed and self.account_of(c) == account_id
            for c in list(self.host.connections)
        )

    def _info(
        self, listener: _Listener, arrived: str | None = None, arriving: int | None = None
    ) -> FriendsInfo:
        friends = sorted(listener.friends.items(), key=lambda f: folded(f[1]))
        here = tuple((n, i == arriving or self.here(i)) for i, n in friends)
        return FriendsInfo(listener.name, here, arrived)

    async def request(self, conn: Connection, message: FriendsRequest) -> None:
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

        try:
            friends = await loop.run_in_executor(self.host.io_pool, change)
        except AccountsUnavailable as exc:
            raise self.host.gate.broken(exc) from None
        came = self.account_of(conn) != account.id and not self.here(account.id, besides=conn)
        listener = _Listener(account.id, account.name, {f.id: f.name for f in friends})
        self.listeners[conn] = listener
        conn.send(self._info(listener))
        if came:
            self.arrived(conn, account.id, account.name)

    def arrived(self, conn: Connection, account_id: int | None, name: str) -> None:
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
        for other, listener in told:
            listener.friends[account_id] = name  # a renamed friend: the name of now
            other.send(self._info(listener, arrived=name, arriving=account_id))
            log.info("%s: told that %s is here", other, printable(name))
