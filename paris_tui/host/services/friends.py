"""Friends: "tell me when NAME is here", as Brettspielwelt had, with consent.

Two accounts are friends when both asked for each other (at most
:data:`~paris_tui.host.accounts.store.MAX_FRIENDS` asked for, stored with the
accounts: SQLite or PostgreSQL). A one-sided ask is a request: the other sees it
(``asking``, live when it listens) and accepts by asking back, or declines; until
then neither is told anything of the other. Presence is told only between
friends. A connection that sends a
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
from paris_tui.host.accounts.identity import Claim
from paris_tui.host.accounts.names import folded
from paris_tui.host.accounts.store import Account, AccountStore, AccountsUnavailable
from paris_tui.host.peers import Peer
from paris_tui.host.ports import FriendsHost, SharedPresence
from paris_tui.host.referee import Refusal
from paris_tui.net.protocol import FriendsInfo, FriendsRequest

__all__ = ["Friends"]

log = logging.getLogger("paris_tui.host.friends")


def same(one: str, other: str) -> bool:
    return folded(one) == folded(other)


REPEAT_SECONDS = 600.0
"""A friend's arrival is told once: one who comes again within this long (a lobby
that became a table's connection, a reconnect) is no news."""


@dataclass
class _Listener:
    account: int
    name: str
    friends: dict[int, str] = field(default_factory=dict)  # id -> name: both asked
    asked: tuple[str, ...] = ()  # asked by this account, not (yet) back
    asking: tuple[str, ...] = ()  # asking this account, not asked back
    told: dict[int, float] = field(default_factory=dict)  # friend -> when told here


@dataclass(frozen=True)
class _Lists:
    """An account's friends (both asked), its open requests both ways."""

    friends: list[Account]
    asked: list[Account]
    asking: list[Account]

    @classmethod
    def read(cls, store: AccountStore, account_id: int) -> _Lists:
        mine = store.friends(account_id)
        theirs = {a.id for a in store.askers(account_id)}
        asking = [a for a in store.askers(account_id) if a.id not in {m.id for m in mine}]
        return cls(
            [a for a in mine if a.id in theirs], [a for a in mine if a.id not in theirs], asking
        )


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
        # Stopped by the host's close: the cluster may still tick once before it
        # stops, and a step then would write the rows again on a pool shut down.
        self._stopped = False

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
        """This host's rows go (a host that dies leaves them to run out); no step
        after it."""
        self._stopped = True
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
        if cluster is None or cluster.down or self._stopped:  # no extra tries while away
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
        now = time.monotonic()
        for other, listener in list(self.listeners.items()):
            if other is besides or other.closed or account_id not in listener.friends:
                continue
            if now - listener.told.get(account_id, -REPEAT_SECONDS) < REPEAT_SECONDS:
                continue  # told already: said once
            listener.told[account_id] = now
            name = listener.friends[account_id]
            other.send(self._info(listener, arrived=name, arriving=account_id))
            log.info("%s: told that %s is here", other, printable(name))

    def _info(
        self,
        listener: _Listener,
        arrived: str | None = None,
        arriving: int | None = None,
        *,
        done: str | None = None,
        friend: str | None = None,
        token: str | None = None,
    ) -> FriendsInfo:
        friends = sorted(listener.friends.items(), key=lambda f: folded(f[1]))
        here = tuple((n, i == arriving or self.here(i)) for i, n in friends)
        return FriendsInfo(
            listener.name, here, arrived, listener.asked, listener.asking, done, friend, token
        )

    @staticmethod
    def _listen(listener: _Listener, lists: _Lists) -> None:
        listener.friends = {f.id: f.name for f in lists.friends}
        listener.asked = tuple(a.name for a in lists.asked)
        listener.asking = tuple(a.name for a in lists.asking)

    def _account(
        self, conn: Peer, name: str, message: FriendsRequest, listening: int | None
    ) -> tuple[Account, str | None]:
        """The account the request is (``Refusal`` when none), and a new account's
        token (an I/O thread). ``listening``: the account this connection listens as
        under this name already (proven then). A name that is nobody's yet becomes
        its account when the request changes something: with the door's credential
        (an SSH key, a browser), or the waiting seat's claim this connection holds,
        or a new token sent back."""
        store = self.host.accounts
        if listening is not None and store is not None:
            try:
                known = store.get(listening)
            except AccountsUnavailable as exc:
                raise self.host.gate.broken(exc) from None
            if known is not None:
                return known, None
        claim = self.host.gate.prove(name, message.token, vouched=conn.vouched)
        if claim.account is not None:
            return claim.account, None
        holding = conn.claim
        if holding is not None and holding.account is None and same(holding.name, name):
            account = self.host.gate.commit(holding)
            conn.claim = Claim(holding.name, account, token=holding.token)
            return account, holding.token
        return self.host.gate.commit(claim), claim.token

    async def request(self, conn: Peer, message: FriendsRequest) -> None:
        """Show, ask for, accept, decline or remove a friend; the connection listens
        from now on, and the other account's listeners hear what changed."""
        try:
            name = normalize_name(message.name)
            friend = None if message.friend is None else normalize_name(message.friend)
        except InvalidNameError as exc:
            raise Refusal("bad_name", exc.problem) from None
        store = self.host.accounts
        loop = asyncio.get_running_loop()
        if message.action == "show":
            claim = self.host.gate.prove(name, message.token, vouched=conn.vouched)
            listening = self.listeners.get(conn)
            if claim.account is None and listening is None:
                conn.send(FriendsInfo(name, ()))  # a name that is nobody's yet has no friends
                return
        if store is None:
            raise Refusal("unavailable", "the host cannot read its accounts")

        def found() -> None:  # the friend first: a refused request makes no account
            if friend is None:
                raise Refusal("bad_name", "name the friend")
            other = store.find(friend)
            if other is None or folded(other.name) != folded(friend):
                raise Refusal("no_such_seat", f"there is no account {friend}")
            if folded(other.name) == folded(name):
                raise Refusal("bad_name", "you are your own friend already")

        try:
            if message.action != "show":
                await loop.run_in_executor(self.host.io_pool, found)
            before = self.listeners.get(conn)
            proven = None  # the account this connection listens as under this name
            if before is not None and same(before.name, name):
                proven = before.account
            account, token = await loop.run_in_executor(
                self.host.io_pool, self._account, conn, name, message, proven
            )
        except AccountsUnavailable as exc:
            raise self.host.gate.broken(exc) from None

        def change() -> tuple[_Lists, Account | None, str | None]:
            other: Account | None = None
            done: str | None = None
            if message.action != "show":
                if friend is None:
                    raise Refusal("bad_name", "name the friend")
                other = store.find(friend)
                if other is None or folded(other.name) != folded(friend):
                    raise Refusal("no_such_seat", f"there is no account {friend}")
                if other.id == account.id:
                    raise Refusal("bad_name", "you are your own friend already")
                asked = {a.id for a in store.friends(account.id)}
                asking = {a.id for a in store.askers(account.id)}
                if message.action == "remove":
                    store.remove_friend(account.id, other.id)
                    store.remove_friend(other.id, account.id)
                    if other.id in asking - asked:
                        done = "declined"
                    elif other.id in asked - asking:
                        done = "withdrawn"
                    else:
                        done = "removed"
                else:
                    if other.id not in asked and not store.add_friend(account.id, other.id):
                        raise Refusal("bad_name", "the list of friends is full")
                    done = "friends" if other.id in asking else "asked"
            return _Lists.read(store, account.id), other, done

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
            lists, other, done = await loop.run_in_executor(self.host.io_pool, change)
        except AccountsUnavailable as exc:
            raise self.host.gate.broken(exc) from None
        ids = [f.id for f in lists.friends]
        if self.cluster is not None:  # here at another host
            self.elsewhere |= await loop.run_in_executor(self.host.io_pool, elsewhere, ids)
        came = self.account_of(conn) != account.id and not self.here(account.id, besides=conn)
        listener = self.listeners.get(conn)
        if listener is None or listener.account != account.id:
            listener = _Listener(account.id, account.name)
            self.listeners[conn] = listener
        self._listen(listener, lists)
        said = None if other is None else other.name
        conn.send(self._info(listener, done=done, friend=said, token=token))
        if other is not None and done is not None:
            log.info("%s: %s %s %s", conn, printable(account.name), done, printable(other.name))
            await self._changed(other.id, account.name, done)
        if came:
            self.arrived(conn, account.id, account.name)

    async def _changed(self, account_id: int, by: str, done: str) -> None:
        """``by`` asked for, accepted, declined or removed ``account_id``: its listeners
        hear their lists again, and what happened."""
        theirs = [(c, lst) for c, lst in list(self.listeners.items()) if lst.account == account_id]
        store = self.host.accounts
        if not theirs or store is None:
            return
        loop = asyncio.get_running_loop()
        try:
            lists = await loop.run_in_executor(self.host.io_pool, _Lists.read, store, account_id)
        except AccountsUnavailable as exc:
            log.error("cannot read the friends of an account: %s", exc)
            return
        seen = {"asked": "asking", "friends": "friends", "removed": "removed"}.get(done)
        for conn, listener in theirs:
            if conn.closed:
                continue
            self._listen(listener, lists)
            conn.send(self._info(listener, done=seen, friend=by if seen else None))

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
