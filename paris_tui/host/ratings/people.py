"""Who sits at a seat, as far as the host can tell: for ratings between different people.

Accounts cost only a table opening, so two accounts of one person could farm a
rating by playing each other. A game counts for ratings only when its seats are
different people as far as the host can tell: no two seats from one account
(``judge``), and no two seats from one address while the game went on. The
address of a seat is its connection's (an IPv6 address counts with its /64, as
every per-address limit does; a connection relayed by another host of the
database, the person's address the relay proved), or for a door's app (SSH,
browser) the address the door saw, carried by its ticket, or, for a door's
app at another host of the database, by that host's vouch (proven with the
relay secret: a client cannot say it). Each seat's addresses are kept in the
ratings store as digests (``rating_people``: never the address itself), so a
restart or another host of a database still sees them when the game ends.

``host --rated-address ADDR`` lets the games between seats from ``ADDR`` count (a
club or a family behind one address): its seats are not recorded.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable

from paris_tui.host.accounts.identity import Tickets
from paris_tui.host.limits import address_key
from paris_tui.host.peers import Peer, Table

__all__ = ["People", "person_key"]

MAX_SEEN = 100_000


def person_key(address: str) -> str:
    """The digest a seat's address is kept as."""
    return hashlib.sha256(f"paris-tui seat address {address}".encode()).hexdigest()[:32]


class People:
    """The seats' people of the tables being played, said once each to the store."""

    def __init__(self, tickets: Tickets, allowed: Iterable[str] = ()) -> None:
        self.tickets = tickets
        self.allowed = {address_key(a) for a in allowed}
        self._said: set[tuple[str, int, str]] = set()

    def address(self, conn: Peer) -> str | None:
        """The address of the person at ``conn`` (``None``: not known, or allowed)."""
        found = conn.address
        if conn.address == "door":
            proof = self.tickets.proof(conn.ticket)
            if proof is None and conn.vouched is not None:
                proof = conn.vouched.proof
            found = "" if proof is None else proof.address
        if not found or found in ("door", "?"):
            return None
        key = address_key(found)
        return None if key in self.allowed else key

    def new(self, table: Table) -> list[tuple[int, str]]:
        """The (seat, person) pairs of ``table`` not said before."""
        out: list[tuple[int, str]] = []
        for seat, conn in list(table.seated.items()):
            address = self.address(conn)
            if address is None:
                continue
            person = person_key(address)
            said = (table.id, seat, person)
            if said not in self._said:
                if len(self._said) >= MAX_SEEN:
                    self._said.clear()  # said again, at worst: the store keeps one row
                self._said.add(said)
                out.append((seat, person))
        return out

    def forget(self, table_id: str) -> None:
        self._said = {s for s in self._said if s[0] != table_id}
