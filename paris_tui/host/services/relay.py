"""The relay between the hosts of one database, and the proofs it carries.

A ``join`` or ``watch`` at a host for a table another host referees is
relayed there (:meth:`PeerRelay.relay`): this host dials the referee's host,
says the client's hello, a ``relay`` line (the person's address, with an
HMAC proof bound to this very TCP connection, from the secret every host on
the database shares) and the request, then copies lines both ways. A door's
ticket never leaves the host that issued it: that host *vouches* for what
its door proved and the address where the door saw the person (a
:class:`~paris_tui.net.protocol.Vouch`, proven the same way: the referee notes
that address for ratings between different people) for a stand-in it puts in
the ticket's place. The referee's side takes
a relay line (:meth:`PeerRelay.accept`) and a word for a door
(:meth:`PeerRelay.take_vouch`) only from a proven peer, for that one
connection; a host alone on its files takes neither (:func:`accept_relay`,
:func:`take_vouch` with no relay).
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
import hmac
import ipaddress
import json
import logging
import secrets
import time
from dataclasses import replace

from msgspec import structs

from paris_tui.core.text import printable
from paris_tui.host.accounts.identity import DoorProof, Tickets, Vouched
from paris_tui.host.accounts.store import Door, digest
from paris_tui.host.admission import Admission
from paris_tui.host.connection import Connection
from paris_tui.host.limits import address_key
from paris_tui.host.referee import Refusal
from paris_tui.host.store.postgres import PostgresStore
from paris_tui.net.protocol import (
    MAX_CLIENT_LINE,
    MAX_HOST_LINE,
    AccountRequest,
    ClientMessage,
    Hello,
    Join,
    OpenTable,
    ProtocolError,
    Relay,
    Vouch,
    Watch,
    decode_client,
    encode,
    refusal,
)

__all__ = ["DoorShut", "PeerRelay", "accept_relay", "take_vouch"]

log = logging.getLogger("paris_tui.host.cluster")
host_log = logging.getLogger("paris_tui.host")  # what the host says of a peer's lines

Swap = tuple[bytes, bytes]  # a door's ticket and its stand-in on one relay
MAX_VOUCH_SECONDS = 86_400  # the longest a relay's word for a door's ticket is good (wire bound)


def seen_at(address: str) -> str:
    """``address`` as an IP address is written (``""``: none, or not one): where a
    door saw its person, as a vouch carries it between hosts."""
    try:
        return str(ipaddress.ip_address(address.split("%", 1)[0])) if address else ""
    except ValueError:
        return ""


class DoorShut(Refusal):
    """A relay's dial was refused: nothing listens at the referee's address."""


def accept_relay(
    relays: PeerRelay | None, conn: Connection, message: Relay, admission: Admission
) -> None:
    """A peer host relays ``conn``: count it at the person's address.

    Only by a host of a database (``relays``), only right after the hello, and
    only with the proof of a host on this database over this very TCP
    connection; anything else is cut off."""
    if (
        relays is None
        or conn.door
        or not conn.fresh
        or not relays.proven_relay(conn.source, message)
    ):
        host_log.warning("%s: a relay message from what is not a peer host: cut off", conn)
        raise Refusal("bad_message", "relay is only for the hosts of one database")
    conn.fresh = False
    conn.relayed = True
    if message.vouch is not None:  # a door's ticket, resolved by the host that issued it
        take_vouch(relays, conn, message.vouch)
    address = message.address
    if address not in ("door", "?"):  # a door's app at the peer: it bounds its people
        try:
            address = str(ipaddress.ip_address(address.split("%", 1)[0]))
        except ValueError:
            raise Refusal("bad_message", "relay: not an address") from None
    admission.relocate(conn, address)
    host_log.info("%s is relayed by a peer host for %s", conn, address)
    conn.address, conn.address_key = address, address_key(address)


def take_vouch(relays: PeerRelay | None, conn: Connection, vouch: Vouch) -> None:
    """A peer host's word for the door's ticket of ``conn``, which it relays
    here: for this one connection, once, and only if proven for it."""
    if (
        relays is None
        or not conn.relayed
        or conn.vouched is not None
        or (found := relays.proven_vouch(conn.source, vouch)) is None
    ):
        host_log.warning("%s: a word for a door not a peer's for it: cut off", conn)
        raise Refusal("bad_message", "vouch is only for a peer host's relay, once")
    conn.vouched = found


class PeerRelay:
    """This host's relays to its peers, and its checks of theirs."""

    def __init__(self, store: PostgresStore, tickets: Tickets) -> None:
        self.store = store
        self.tickets = tickets  # this host's doors' tickets (never sent to a peer)
        self._secret: bytes | None = None  # what proves a peer host (the database's)

    def vouched(self, conn: Connection) -> tuple[Vouched, str | None] | None:
        """The door's ticket ``conn`` proves itself with, for this host to vouch
        for when it relays ``conn`` to the table's host: one of this
        host's own live tickets (with the ticket itself), else what a peer
        vouched for to this host (the ticket unknown here)."""
        if conn.ticket is not None:
            mine = self.tickets.vouch(conn.ticket)
            return None if mine is None else (mine, conn.ticket)
        if conn.vouched is not None and conn.vouched.deadline > time.monotonic():
            return conn.vouched, None
        return None

    def secret(self) -> bytes | None:
        """The relay secret every host on the database shares (``None``: unreadable now)."""
        if self._secret is None:
            try:
                self._secret = self.store.relay_secret()
            except OSError as exc:
                log.error("cannot read the relay secret: %s", exc)
        return self._secret

    @staticmethod
    def _proof(secret: bytes, source: str, address: str) -> str:
        """The HMAC a peer relaying from ``source`` (ip:port, as the referee sees
        it) sends for a person at ``address``: a proof for one TCP connection."""
        data = f"paris-tui relay\n{source}\n{address}".encode()
        return hmac.new(secret, data, hashlib.sha256).hexdigest()

    def relay_proof(self, source: str, address: str) -> str | None:
        secret = self.secret()
        return None if secret is None else self._proof(secret, source, address)

    @staticmethod
    def _vouch_proof(secret: bytes, source: str, vouch: Vouch) -> str:
        """The HMAC over what a peer relaying from ``source`` vouches for: the
        address its door saw too, when it says one (without one, the proof of a
        host that predates it)."""
        fields: list[str | int | None] = [source, vouch.ticket, vouch.door, vouch.credential]
        fields += [vouch.name, vouch.label, vouch.seconds]
        if vouch.address:
            fields.append(vouch.address)
        data = "paris-tui vouch\n" + json.dumps(fields)
        return hmac.new(secret, data.encode(), hashlib.sha256).hexdigest()

    def vouch(self, source: str, vouched: Vouched) -> Vouch | None:
        """What this host says to the referee's host, over the relay whose source
        is ``source``, of a door's ticket (``None``: gone, or the secret unreadable)."""
        secret = self.secret()
        seconds = min(int(vouched.deadline - time.monotonic()), MAX_VOUCH_SECONDS)
        if secret is None or seconds <= 0:
            return None
        p = vouched.proof
        unproven = Vouch(
            vouched.ticket, p.door, p.digest, p.name, p.label, seconds, "", seen_at(p.address)
        )
        return structs.replace(unproven, proof=self._vouch_proof(secret, source, unproven))

    def proven_vouch(self, source: str, vouch: Vouch) -> Vouched | None:
        """What a peer vouched for over the connection whose far end is ``source``
        (``None``: the proof is not the peer's for this connection)."""
        secret = self.secret()
        if secret is None or vouch.door not in ("ssh", "browser"):
            return None
        want = self._vouch_proof(secret, source, structs.replace(vouch, proof=""))
        if not hmac.compare_digest(want.encode(), vouch.proof.encode()):
            return None
        door: Door = "ssh" if vouch.door == "ssh" else "browser"
        label = printable(vouch.label)[:100]
        address = seen_at(vouch.address)
        proof = DoorProof(door, vouch.credential, vouch.name, label, address)
        return Vouched(vouch.ticket, proof, time.monotonic() + vouch.seconds)

    def proven_relay(self, source: str, message: Relay) -> bool:
        """Whether ``message`` came from a peer host on this database over the
        connection whose far end is ``source``."""
        secret = self.secret()
        if secret is None:
            return False
        want = self._proof(secret, source, message.address)
        return hmac.compare_digest(want.encode(), message.proof.encode())

    def _vouch_for(self, conn: Connection, source: str) -> tuple[Vouch | None, Swap | None]:
        """What to vouch for of ``conn``'s door ticket over the relay from
        ``source``, and, for a ticket of this host's own, the bytes to put in its
        place on the way (a stand-in made for this one relay): the ticket itself
        never leaves the host that issued it."""
        found = self.vouched(conn)
        if found is None:
            return None, None
        vouched, ticket = found
        swap = None
        if ticket is not None:
            stand_in = secrets.token_urlsafe(32)
            vouched = replace(vouched, ticket=digest(stand_in))
            swap = (ticket.encode(), stand_in.encode())
        vouch = self.vouch(source, vouched)
        return vouch, None if vouch is None else swap

    def _late_vouch(
        self, conn: Connection, line: bytes, source: str
    ) -> tuple[bytes, Swap | None, bytes] | None:
        """A ticket first seen on a relay that had no word for one: what to say
        first (a ``vouch`` line), the swap, and the line to pass on. A peer's
        own late ``vouch`` for ``conn`` is taken here and said again onward
        (raises :class:`Refusal` if it is not the peer's)."""
        try:
            message = decode_client(line)
        except ProtocolError:
            return None
        if isinstance(message, Vouch):
            take_vouch(self, conn, message)
            vouch, swap = self._vouch_for(conn, source)
            return (b"" if vouch is None else encode(vouch)), swap, b""
        if (
            isinstance(message, Join | OpenTable | AccountRequest | Watch)
            and self.tickets.vouch(message.token) is not None
        ):
            conn.ticket = message.token
            vouch, swap = self._vouch_for(conn, source)
            if vouch is not None:
                return encode(vouch), swap, line
        return None

    async def relay(self, conn: Connection, address: str, message: ClientMessage) -> bool:
        """Copy ``conn``'s lines to the referee's host at ``address`` and back, from
        ``message`` on, until either side ends; whether the referee's side did."""
        hello = conn.hello or Hello(conn.protocol, "paris-tui relay")
        host, _, port = address.rpartition(":")
        try:
            async with asyncio.timeout(5.0):
                reader, writer = await asyncio.open_connection(
                    host.strip("[]"), int(port), limit=MAX_HOST_LINE
                )
                sock = writer.get_extra_info("sockname")
                source = f"{sock[0]}:{sock[1]}" if isinstance(sock, tuple) else "?"
                proof = self.relay_proof(source, conn.address) or ""
                vouch, swap = self._vouch_for(conn, source)
                relay = encode(Relay(conn.address, proof, vouch))
                if len(relay) > MAX_CLIENT_LINE:  # a name too long to say: no word for it
                    relay = encode(Relay(conn.address, proof))  # the ticket stays here still
                first = encode(message)
                if swap is not None:
                    first = first.replace(*swap)
                writer.write(encode(hello) + relay + first)
                await reader.readuntil(b"\n")  # its welcome: the client had ours
        except ConnectionRefusedError as exc:  # nothing listens there: the host is gone
            log.warning("%s: cannot relay to %s: %s", conn, address, exc)
            raise DoorShut("unavailable", "the table's host cannot be reached: try again") from None
        except (OSError, TimeoutError, asyncio.IncompleteReadError, ValueError) as exc:
            log.warning("%s: cannot relay to %s: %s", conn, address, exc)
            raise Refusal("unavailable", "the table's host cannot be reached: try again") from None
        log.info("%s relayed to %s", conn, address)
        vouched = vouch is not None

        async def down() -> None:
            while True:
                line = await reader.readline()
                if not line:
                    return
                conn.send_bytes(line)

        async def up() -> None:
            nonlocal swap, vouched
            while True:
                line = await conn.reader.readline()
                if not line:
                    return
                if not vouched and (b'"token"' in line or b'"vouch"' in line):
                    try:
                        late = self._late_vouch(conn, line, source)
                    except Refusal as exc:
                        conn.send(refusal(exc.code, exc.message))
                        return
                    if late is not None:  # said before the line that brings the ticket
                        said, swap, line = late
                        vouched = True
                        writer.write(said)
                if swap is not None and swap[0] in line:  # the door's ticket stays here
                    line = line.replace(*swap)
                writer.write(line)
                await writer.drain()

        tasks = [asyncio.create_task(down()), asyncio.create_task(up())]
        try:
            await asyncio.wait(tasks, return_when=asyncio.FIRST_COMPLETED)
            return tasks[0].done()
        finally:
            for task in tasks:
                task.cancel()
            for task in tasks:
                with contextlib.suppress(BaseException):
                    await task
            writer.close()
            conn.closed = True
            conn.writer.close()
