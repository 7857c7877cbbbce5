"""One client connection to the host: where it sits, what it may still send, its socket.

A :class:`Connection` keeps the state of one client (its hello, its seat or
the waiting table where it holds one, the proofs it brought) and its
defences: the message rate (a token bucket) and the bytes queued for a client
that does not read (:class:`~paris_tui.host.config.Limits`). Reading lines
and answering them is :mod:`paris_tui.host.server`'s.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import logging

from paris_tui.host.accounts.identity import Claim, Vouched
from paris_tui.host.config import Limits
from paris_tui.host.limits import address_key
from paris_tui.host.referee import Refusal
from paris_tui.host.room import Room
from paris_tui.host.services.waiting import WaitingTable
from paris_tui.net.protocol import (
    PROTOCOL_VERSION,
    Bye,
    ClientMessage,
    ErrorCode,
    Hello,
    HostMessage,
    Ping,
    ProtocolError,
    Refused,
    decode_client,
    encode,
    refusal,
)

__all__ = ["Connection"]

log = logging.getLogger("paris_tui.host")

# The refusals of protocol 3 as an older connection is told them (it knows no others).
_OLD_CODES: dict[str, ErrorCode] = {
    "name_taken": "seat_taken",
    "bad_code": "bad_token",
    "account_locked": "seat_taken",
    "unavailable": "seat_taken",
}

_ids = itertools.count(1)


class Connection:
    """One client connection: where it sits, what it may still send, its socket."""

    def __init__(
        self,
        limits: Limits,
        reader: asyncio.StreamReader,
        writer: asyncio.StreamWriter,
        *,
        door: bool = False,
    ) -> None:
        self.id = next(_ids)
        self.limits = limits
        self.reader = reader
        self.writer = writer
        peer = writer.get_extra_info("peername")
        self.address = "door" if door else str(peer[0]) if isinstance(peer, tuple) and peer else "?"
        self.address_key = address_key(self.address)
        # Its far end as ip:port (what a peer host's relay proof is bound to).
        self.source = f"{peer[0]}:{peer[1]}" if isinstance(peer, tuple) and len(peer) > 1 else "?"
        self.fresh = True  # nothing said after its hello yet (a relay says who it is then)
        # A door's app (on the host's private socket): never anonymous, never counted
        # against an address. Otherwise anonymous until it sits or holds a table.
        self.door = door
        self.anonymous = not self.door
        self.room: Room | None = None
        self.seat: int | None = None
        self.protocol = PROTOCOL_VERSION  # the hello's version, once said
        self.waiting: WaitingTable[Connection] | None = (
            None  # a waiting table where it holds a seat
        )
        self.claim: Claim | None = None  # the account it holds a waiting seat as
        self.hello: Hello | None = None  # its hello (a relay to another host says it again)
        # A door's ticket: one of this host's own that it sent (in memory
        # only, to keep it from crossing to another host), or what a peer host
        # vouched for when it relayed it here.
        self.ticket: str | None = None
        self.vouched: Vouched | None = None
        self.relayed = False  # a peer host relays it (its relay line was proven)
        # The account a watcher reads the chat as (named in its watch, or proven by a
        # chat or mutes request): the host sends it no line of a writer it mutes.
        self.chat_account: int | None = None
        self.chat_joins = 0  # the chat histories it was sent (TableChat.history)
        loop = asyncio.get_running_loop()
        self.last_heard = loop.time()
        self._tokens = float(limits.burst)
        self._stamp = loop.time()
        self.closed = False
        self._nonce = 0

    def __str__(self) -> str:
        return f"connection {self.id} ({self.address})"

    def send(self, message: HostMessage) -> None:
        self.send_bytes(encode(message))

    def send_bytes(self, data: bytes) -> None:
        if self.closed or self.writer.is_closing():
            return
        self.writer.write(data)
        if self.writer.transport.get_write_buffer_size() > self.limits.send_buffer:
            log.warning("%s does not read what it is sent: cut off", self)
            self.abort()

    def unseat(self) -> None:
        """Sit nowhere any more (its table went away, or another connection took the seat)."""
        self.room = None
        self.seat = None

    async def read(self, first: bool) -> ClientMessage | None:
        """The next message, or ``None`` once the connection is over (closed or cut off):
        the hello's deadline, pings to a silent client, the line and rate limits."""
        limits = self.limits
        loop = asyncio.get_running_loop()
        while not self.closed:
            hello = limits.anonymous_hello_timeout if self.anonymous else limits.hello_timeout
            wait = hello if first else limits.ping_interval
            try:
                async with asyncio.timeout(wait):
                    line = await self.reader.readuntil(b"\n")
            except TimeoutError:
                if first or loop.time() - self.last_heard >= limits.idle_timeout:
                    log.info("%s silent too long: cut off", self)
                    await self.hang_up(Bye("idle"))
                    return None
                self.ping()
                continue
            except asyncio.IncompleteReadError:
                return None
            except asyncio.LimitOverrunError:
                log.warning("%s sent a line over %d bytes: cut off", self, limits.line_bytes)
                await self.hang_up(
                    refusal("too_large", f"a line is limited to {limits.line_bytes} bytes")
                )
                return None
            self.last_heard = loop.time()
            if not self.spend():
                log.warning("%s sends too fast: cut off", self)
                await self.hang_up(refusal("rate_limited", "too many messages"))
                return None
            try:
                return decode_client(line)
            except ProtocolError as exc:
                log.warning("%s sent a bad message (%s): cut off", self, exc.code)
                await self.hang_up(refusal(exc.code, exc.message))
                return None
        return None

    def refused(self, exc: Refusal) -> Refused:
        """The refusal as this connection's protocol says it."""
        code: ErrorCode = exc.code
        if self.protocol < 3:
            code = _OLD_CODES.get(code, code)
        return refusal(code, exc.message, exc.illegal, exc.token if self.protocol >= 3 else None)

    def ping(self) -> None:
        self._nonce += 1
        self.send(Ping(self._nonce))

    def spend(self) -> bool:
        """Take one message from the rate bucket; ``False`` when it is empty."""
        limits = self.limits
        now = asyncio.get_running_loop().time()
        self._tokens = min(float(limits.burst), self._tokens + (now - self._stamp) * limits.rate)
        self._stamp = now
        if self._tokens < 1.0:
            return False
        self._tokens -= 1.0
        return True

    def abort(self) -> None:
        self.closed = True
        self.writer.transport.abort()

    def dismiss(self, last: HostMessage) -> None:
        """Send ``last`` and close, from outside this connection's own task (which
        then sees the end of its input and finishes)."""
        self.send(last)
        self.closed = True
        self.writer.close()

    async def hang_up(self, last: HostMessage | None = None) -> None:
        """Send ``last``, close our side, and drain the peer briefly so that the
        kernel delivers our last line instead of resetting the connection."""
        if last is not None:
            self.send(last)
        self.closed = True
        writer = self.writer
        if writer.is_closing():
            return
        with contextlib.suppress(OSError, RuntimeError):
            if writer.can_write_eof():
                writer.write_eof()
        with contextlib.suppress(TimeoutError, OSError, asyncio.IncompleteReadError):
            async with asyncio.timeout(1.0):
                drained = 0
                while drained < 1024 * 1024:
                    chunk = await self.reader.read(65536)
                    if not chunk:
                        break
                    drained += len(chunk)
        writer.close()
