"""Who may connect to the host, counted: in all, per address, and the anonymous pool.

:class:`Admission` keeps the host's connections and counts them against
:class:`~paris_tui.host.config.Limits`: TCP connections in all and per
address (IPv6: its /64), the connections that have proven nobody yet (a pool
of their own, so that a flood of them never starves the players: when it is
full the oldest makes room), and the doors' apps on the private socket,
bounded by the doors' live sessions. A connection a peer host relays is
counted again at the person's own address (:meth:`Admission.relocate`).
"""

from __future__ import annotations

import logging
from collections import Counter

from paris_tui.host.config import Limits
from paris_tui.host.connection import Connection
from paris_tui.host.limits import address_key
from paris_tui.host.referee import Refusal
from paris_tui.net.protocol import refusal

__all__ = ["Admission", "SessionCaps"]

log = logging.getLogger("paris_tui.host")


class Admission:
    """The host's connections and their counts."""

    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        self.connections: set[Connection] = set()
        self.per_address: Counter[str] = Counter()  # TCP connections per address key
        # The anonymous pool, oldest first (limits.max_anonymous), and per address key.
        self.anonymous: dict[Connection, None] = {}
        self.anonymous_per_address: Counter[str] = Counter()
        # Connections over the per-address limit allowed from an address where a
        # door's apps come from: one per live door session (reserve_door_slot).
        self.door_slots: Counter[str] = Counter()

    def admit(self, conn: Connection) -> bool:
        """Count a new connection, or ``False`` (refuse it).

        A door's app (the private socket) is bounded by the doors' live sessions
        only. A TCP connection comes in anonymous: bounded in all, per address, and
        in the anonymous pool; when the pool (not its address's share) is full, the
        oldest anonymous connection makes room, so a flood from many addresses
        delays a newcomer's hello but cannot keep it out."""
        limits = self.limits
        if conn.door:
            doors = sum(1 for c in self.connections if c.door)
            if doors >= sum(self.door_slots.values()) + 8:
                return False
            self.connections.add(conn)
            return True
        key = conn.address_key
        tcp = len(self.connections) - sum(1 for c in self.connections if c.door)
        if (
            tcp >= limits.max_connections
            or self.per_address[key] >= limits.max_per_address + self.door_slots.get(key, 0)
            or self.anonymous_per_address[key] >= limits.anonymous_per_address
        ):
            return False
        if len(self.anonymous) >= limits.max_anonymous:
            oldest = next(iter(self.anonymous))
            log.info("%s: the anonymous pool is full, the oldest (%s) makes room", conn, oldest)
            self.proven(oldest)  # out of the pool at once; its own task ends it
            oldest.dismiss(refusal("host_full", "the host has too many connections"))
        self.connections.add(conn)
        self.per_address[key] += 1
        self.anonymous[conn] = None
        self.anonymous_per_address[key] += 1
        return True

    def proven(self, conn: Connection) -> None:
        """``conn`` sits, or holds a table: out of the anonymous pool."""
        if conn.anonymous:
            conn.anonymous = False
            self.anonymous.pop(conn, None)
            key = conn.address_key
            self.anonymous_per_address[key] -= 1
            if self.anonymous_per_address[key] <= 0:
                del self.anonymous_per_address[key]

    def waits(self, conn: Connection) -> bool:
        """``conn``'s join waits for its table's takeover (a bounded wait, about a
        lease): out of the anonymous pool meanwhile, so that the players of a host
        that died, coming back at once from one address (a door, a NAT), are not
        refused ``host_full``; it is still counted at its address. ``True``: it
        was anonymous (:meth:`waited` puts it back if its join is refused)."""
        if not conn.anonymous:
            return False
        self.proven(conn)
        return True

    def waited(self, conn: Connection) -> None:
        """``conn``'s join, out of the pool while it waited (:meth:`waits`), was
        refused after all: anonymous again, unless it is gone or sits meanwhile."""
        if conn.anonymous or conn not in self.connections:
            return
        if conn.room is not None or conn.waiting is not None:
            return
        conn.anonymous = True
        self.anonymous[conn] = None
        self.anonymous_per_address[conn.address_key] += 1

    def drop(self, conn: Connection) -> None:
        """``conn`` is over: counted nowhere any more."""
        self.proven(conn)
        if conn in self.connections:
            self.connections.discard(conn)
            if not conn.door:
                key = conn.address_key
                self.per_address[key] -= 1
                if self.per_address[key] <= 0:
                    del self.per_address[key]

    def reserve_door_slot(self, address: str) -> None:
        """A door started a session whose app connects from ``address``: allow one
        more connection from there than ``max_per_address``. The door caps its
        sessions per *person's* address itself, so many players over one door
        never trip the limit meant for one address."""
        self.door_slots[address_key(address)] += 1

    def release_door_slot(self, address: str) -> None:
        """That session is over (called once per :meth:`reserve_door_slot`)."""
        key = address_key(address)
        self.door_slots[key] -= 1
        if self.door_slots[key] <= 0:
            del self.door_slots[key]

    def relocate(self, conn: Connection, address: str) -> None:
        """Count ``conn`` (relayed by a peer host) at the person's ``address``
        instead of the peer's, or refuse it (``host_full``) over that address's limits."""
        key = address_key(address)
        limits = self.limits
        if address != "door" and (
            self.per_address[key] >= limits.max_per_address + self.door_slots.get(key, 0)
            or (conn.anonymous and self.anonymous_per_address[key] >= limits.anonymous_per_address)
        ):
            log.warning("%s relayed for %s refused: too many connections", conn, address)
            raise Refusal("host_full", "the host has too many connections from this address")
        old = conn.address_key
        for counter, counted in (
            (self.per_address, True),
            (self.anonymous_per_address, conn.anonymous),
        ):
            if counted:
                counter[old] -= 1
                if counter[old] <= 0:
                    del counter[old]
                counter[key] += 1


class SessionCaps:
    """A door's sessions counted in all and per address (IPv6: its /64): one address
    takes at most ``per_address`` of the ``total``, so room is kept for the others."""

    def __init__(self, total: int, per_address: int) -> None:
        self.total = total
        self.per_address = per_address
        self.counts: Counter[str] = Counter()

    def __len__(self) -> int:
        return sum(self.counts.values())

    def full(self) -> bool:
        return len(self) >= self.total

    def full_for(self, address: str) -> bool:
        """Whether ``address`` holds its share already."""
        return self.counts[address_key(address)] >= self.per_address

    def take(self, address: str) -> bool:
        """Count a session from ``address``, or ``False`` over either cap."""
        if self.full() or self.full_for(address):
            return False
        self.counts[address_key(address)] += 1
        return True

    def give_back(self, address: str) -> None:
        """That session is over (once per :meth:`take` that returned ``True``)."""
        key = address_key(address)
        self.counts[key] -= 1
        if self.counts[key] <= 0:
            del self.counts[key]
