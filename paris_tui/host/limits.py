"""What one person, one address and the whole host may take: keys, windows, pools.

Every limit of the host is kept per *owner* (the person: :func:`owner_key`),
per *address* (:func:`address_key`, an IPv6 address counted with its /64),
or for the whole host, never per connection: a client that opens a second
connection, or a hundred, is the same person from the same address.

Nested limits, as lila's rate limits are (per account, then per address,
then global, each a window): :class:`NestedWindow` answers whether one more
event is allowed under all three and, only if so, counts it in all three.
A refused attempt counts nowhere, so a flood of refusals grows nothing.

Each window keeps at most ``max_keys`` keys (the oldest forgotten first), so
no stream of new names or addresses grows the host's memory without bound.
"""

from __future__ import annotations

import ipaddress
import time
from collections import OrderedDict, deque
from collections.abc import Callable
from dataclasses import dataclass

from ..core.text import InvalidNameError, normalize_name

__all__ = [
    "GLOBAL",
    "NestedWindow",
    "Quota",
    "Window",
    "address_key",
    "owner_key",
]

GLOBAL = "*"
"""The one key of a window counted for the whole host."""


def owner_key(name: str) -> str:
    """The key of every per-person limit for a player called ``name``.

    Today the normalised name, case-folded (a name is an account on a host);
    the one place to point at the account once accounts key names. Raises
    :class:`~paris_tui.core.text.InvalidNameError`.
    """
    return normalize_name(name).casefold()


def owner_key_or_none(name: str | None) -> str | None:
    """:func:`owner_key`, or ``None`` for no name or one that breaks the name rule."""
    if name is None:
        return None
    try:
        return owner_key(name)
    except InvalidNameError:
        return None


def address_key(address: str) -> str:
    """The key of every per-address limit for a peer at ``address``.

    An IPv4 address is itself; an IPv6 address counts with its whole /64 (one
    customer's network: they get billions of addresses), an IPv4-mapped IPv6
    address as its IPv4 address; anything else (a Unix socket, ``?``) as is.
    """
    text = address.split("%", 1)[0]  # fe80::1%eth0
    try:
        ip = ipaddress.ip_address(text)
    except ValueError:
        return address
    if isinstance(ip, ipaddress.IPv6Address):
        mapped = ip.ipv4_mapped
        if mapped is not None:
            return str(mapped)
        return str(ipaddress.IPv6Network((ip, 64), strict=False))
    return str(ip)


class Window:
    """At most ``limit`` events per key in any ``seconds`` (a sliding window)."""

    def __init__(
        self,
        limit: int,
        seconds: float,
        *,
        max_keys: int = 4096,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.limit = limit
        self.seconds = seconds
        self.max_keys = max_keys
        self.clock = clock
        self._events: OrderedDict[str, deque[float]] = OrderedDict()

    def _live(self, key: str, now: float) -> deque[float] | None:
        stamps = self._events.get(key)
        if stamps is None:
            return None
        while stamps and stamps[0] <= now - self.seconds:
            stamps.popleft()
        if not stamps:
            del self._events[key]
            return None
        return stamps

    def count(self, key: str) -> int:
        stamps = self._live(key, self.clock())
        return 0 if stamps is None else len(stamps)

    def allows(self, key: str) -> bool:
        return self.count(key) < self.limit

    def add(self, key: str) -> None:
        now = self.clock()
        stamps = self._live(key, now)
        if stamps is None:
            stamps = self._events[key] = deque()
        else:
            self._events.move_to_end(key)
        stamps.append(now)
        while len(self._events) > self.max_keys:
            self._events.popitem(last=False)

    def retry_after(self, key: str) -> float:
        """Seconds until one more event is allowed for ``key`` (0: now)."""
        now = self.clock()
        stamps = self._live(key, now)
        if stamps is None or len(stamps) < self.limit:
            return 0.0
        return max(0.0, stamps[len(stamps) - self.limit] + self.seconds - now)

    def __len__(self) -> int:
        return len(self._events)


@dataclass(frozen=True, slots=True)
class Quota:
    """One nested limit: per owner, per address and for the host, in ``seconds``."""

    per_owner: int
    per_address: int
    total: int
    seconds: float


class NestedWindow:
    """Per owner, then per address, then the whole host: each a :class:`Window`."""

    def __init__(self, quota: Quota, *, clock: Callable[[], float] = time.monotonic) -> None:
        self.quota = quota
        self.owners = Window(quota.per_owner, quota.seconds, clock=clock)
        self.addresses = Window(quota.per_address, quota.seconds, clock=clock)
        self.total = Window(quota.total, quota.seconds, max_keys=1, clock=clock)

    def refusal(self, owner: str | None, address: str) -> str | None:
        """Which of the three is used up (``"owner"``, ``"address"``, ``"host"``), or
        ``None`` if one more event is allowed (nothing is counted: see :meth:`add`)."""
        if owner is not None and not self.owners.allows(owner):
            return "owner"
        if not self.addresses.allows(address):
            return "address"
        if not self.total.allows(GLOBAL):
            return "host"
        return None

    def add(self, owner: str | None, address: str) -> None:
        if owner is not None:
            self.owners.add(owner)
        self.addresses.add(address)
        self.total.add(GLOBAL)

    def retry_after(self, owner: str | None, address: str) -> float:
        waits = [self.addresses.retry_after(address), self.total.retry_after(GLOBAL)]
        if owner is not None:
            waits.append(self.owners.retry_after(owner))
        return max(waits)
