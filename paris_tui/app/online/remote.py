"""A seat (or a watcher) at a host's table: connecting, joining, following, reconnecting.

``paris-tui join HOST:PORT --name NAME`` opens the app on a
:class:`~paris_tui.net.table.RemoteTable`; this module connects and joins
(:func:`open_link`, before the app starts, so a refusal is one line on the
terminal), keeps the account's token (:class:`~paris_tui.net.client.TokenStore`
in the data directory; a door's ticket is kept in memory only, for this
run), and, once the app runs, follows the table (:meth:`Link.follow`):
when the connection drops, the game screen says so and the link joins the
same seat again with the same token, with a growing pause between tries,
for a while; then it asks whether to go on trying or quit.
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import random
import re
import socket
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, replace

from paris_tui import i18n
from paris_tui.core import printable
from paris_tui.core.text import InvalidNameError, normalize_name
from paris_tui.i18n import N_, _
from paris_tui.net.client import HostClient, HostClosedError, RefusedError, TokenStore
from paris_tui.net.protocol import ProtocolError, Seated, TableInfo, Watching
from paris_tui.net.table import RemoteTable
from paris_tui.net.turns import is_turn_based
from paris_tui.wording import name_problem, refusal_reason

__all__ = [
    "EXIT_CONNECT",
    "EXIT_REFUSED",
    "EXIT_USAGE",
    "RECONNECT_DELAYS",
    "Home",
    "JoinError",
    "JoinTarget",
    "Link",
    "LobbyStart",
    "connect",
    "landing",
    "open_link",
    "parse_address",
]

EXIT_USAGE = 2
"""Bad arguments: HOST:PORT, --name, --watch with --name or --table."""
EXIT_CONNECT = 3
"""The host cannot be reached (refused, no route, timed out, hung up at once)."""
EXIT_REFUSED = 4
"""The host answered and refused (bad_token, seat_taken, no_such_table, ...)."""

RECONNECT_DELAYS: tuple[float, ...] = (0.25, 0.5, 0.5, 1.0, 1.0, 2.0, 4.0, 8.0, 8.0, 8.0, 8.0, 8.0)
"""Pauses before each try to join again after a drop (about 49 s in all). The first
are short: a server of several hosts serves a dead host's tables again within a
second or two, and says ``unavailable`` (try again) until then. Each is drawn
within a fifth of its length either way, so the players of a host that died do
not all come back at the same instant."""

CONNECT_TIMEOUT = 10.0
# The reasons a table ends for good for this terminal: no second try.
FINAL_REASONS = frozenset(
    {"replaced", "bad_token", "bad_message", "too_large", "rate_limited", "account_locked"}
)

_PORT = re.compile(r"[0-9]{1,5}")


class JoinError(Exception):
    """A join that cannot go on: ``message`` (one line) and the exit ``status``."""

    def __init__(
        self, message: str, status: int, code: str | None = None, token: str | None = None
    ) -> None:
        super().__init__(message)
        self.message = message
        self.status = status
        self.code = code
        self.token = token  # a refused first join's new account's token (to keep)


DEFAULT_PORT = 7337
"""The port of ``paris-tui host`` unless it says ``--port``: ``join HOST`` means it."""


def parse_address(text: str) -> tuple[str, int]:
    """``HOST:PORT`` (``[::1]:7337`` for an IPv6 address) as ``(host, port)``; a
    ``HOST`` (or ``[::1]``) alone means :data:`DEFAULT_PORT`.

    Raises ``ValueError`` with a message that shows the text escaped.
    """
    shown = printable(text if len(text) <= 80 else text[:80] + "...")
    problem = _("'{text}' is not HOST:PORT (e.g. {example})").format(
        text=shown, example="127.0.0.1:7337"
    )
    bracketed = text.startswith("[") and text.endswith("]")
    if bracketed or (":" not in text and text and not text.isdigit()):
        text = f"{text}:{DEFAULT_PORT}"
    if text.startswith("["):
        host, sep, port = text[1:].partition("]:")
        if not sep or not host or ":" not in host:
            raise ValueError(problem)
    else:
        host, sep, port = text.rpartition(":")
        if not sep or not host or ":" in host:
            raise ValueError(problem)
    if not _PORT.fullmatch(port) or not 0 < int(port) < 65536:
        raise ValueError(
            _("{problem}: the port must be a number from 1 to 65535").format(problem=problem)
        )
    if any(not (c.isalnum() or c in ".-_:%") for c in host) or len(host) > 253:
        raise ValueError(problem)
    return host, int(port)


def _address(host: str, port: int) -> str:
    return f"[{host}]:{port}" if ":" in host else f"{host}:{port}"


@dataclass(frozen=True, slots=True)
class JoinTarget:
    """Where to sit: a host, and a name (with a table, maybe) or a table to watch."""

    host: str
    port: int
    name: str | None = None
    table: str | None = None
    watch: str | None = None
    # More hosts of the same server (several hosts on one database): a reconnection
    # tries them in turn.
    others: tuple[tuple[str, int], ...] = ()
    dial: int = 0  # which of them to connect to (0: host, port); tokens stay the first's

    @property
    def address(self) -> str:
        """The server's address (its first host's): the key of its tokens."""
        return _address(self.host, self.port)

    @property
    def endpoint(self) -> tuple[str, int]:
        """Where to connect: the host at :attr:`dial`."""
        addresses = ((self.host, self.port), *self.others)
        return addresses[self.dial % len(addresses)]

    def at(self, attempt: int) -> JoinTarget:
        """The target dialling its ``attempt``-th address, in turn (the first is 0)."""
        return replace(self, dial=attempt % (1 + len(self.others)))

    def checked(self) -> JoinTarget:
        """The target with its name normalized (``JoinError`` if it breaks the name rule)."""
        if self.name is None:
            return self
        try:
            name = normalize_name(self.name)
        except InvalidNameError as exc:
            raise JoinError(f"--name: {name_problem(exc)}", EXIT_USAGE) from None
        return replace(self, name=name)


REFUSAL_HINTS = {
    "bad_token": N_("the token kept in this data directory is not that seat's"),
    "seat_taken": N_("another account took that seat; ask the host's operator"),
    "name_taken": N_(
        "where you are already that name, open Account for a link code, then join with --code"
    ),
    "bad_code": N_("ask for a new link code: each is good once, for a few minutes"),
    "account_locked": N_("ask the host's operator"),
    "unavailable": N_("the host's operator must repair its accounts; try again later"),
    "unsupported_protocol": N_("this paris-tui and the host speak different protocol versions"),
    "host_full": N_("try again later"),
}


DOOR_HINTS = {
    **REFUSAL_HINTS,
    "name_taken": N_("where you are already that name, open Account for a link code"),
}
"""The hints for a door's player (SSH, browser): no ``join`` options."""


def _refusal_message(target: JoinTarget, exc: RefusedError) -> str:
    """One line: who refused, the code, why (in this terminal's language), a hint.
    A door's player is shown no address (the app joins over loopback)."""
    reason = printable(refusal_reason(exc.code, exc.refused.message))
    if AT_DOOR:
        hint = DOOR_HINTS.get(exc.code)
        if hint:
            # Translators: {code} is a protocol word (seat_taken, bad_token), never translated.
            text = _("The host refused ({code}): {reason} ({hint})").format(
                code=exc.code, reason=reason, hint=_(hint)
            )
        else:
            text = _("The host refused ({code}): {reason}").format(code=exc.code, reason=reason)
        return printable(text)
    hint = REFUSAL_HINTS.get(exc.code)
    if hint:
        # Translators: {code} is a protocol word (seat_taken, bad_token), never translated.
        text = _("{address} refused ({code}): {reason} ({hint})").format(
            address=target.address, code=exc.code, reason=reason, hint=_(hint)
        )
    else:
        text = _("{address} refused ({code}): {reason}").format(
            address=target.address, code=exc.code, reason=reason
        )
    return printable(text)


class Link:
    """This terminal's connection to one table of a host, kept up while the app runs."""

    def __init__(
        self,
        target: JoinTarget,
        client: HostClient,
        joined: Seated | Watching,
        *,
        tokens: TokenStore | None,
        token: str | None,
    ) -> None:
        self.target = target
        self.tokens = tokens
        self.token = token  # the seat's token (from the store, or issued to a ticket's join)
        self.table = RemoteTable(client, joined)
        self._chat_as()
        self.reconnects = 0
        self.closed = False
        self.delays = RECONNECT_DELAYS  # the pauses before each try to join again
        self.dialed = _dialed(target, client)  # which of the target's addresses it is on

    # --- joining ---------------------------------------------------------------------

    @classmethod
    async def open(
        cls,
        target: JoinTarget,
        tokens: TokenStore | None,
        ticket: str | None = None,
        code: str | None = None,
        *,
        timeout: float = CONNECT_TIMEOUT,
    ) -> Link:
        """Connect and join (or watch) with the token kept for the name, else the
        door's ticket (and a link ``code`` when given). Raises :class:`JoinError`."""
        token = None
        if tokens is not None and target.name is not None:
            with contextlib.suppress(OSError):
                token = tokens.get(target.address, target.name)
        token = token or ticket
        try:
            client, joined = await _join(target, token, timeout, code, named=True)
        except JoinError as exc:
            # Refused after the host made the name's account: its token is kept, so
            # that the next try proves that account (else: name_taken, for good).
            if exc.token is not None and tokens is not None and target.name is not None:
                with contextlib.suppress(OSError):
                    tokens.put(target.address, target.name, exc.token)
            raise
        return cls.joined(target, client, joined, tokens, token)

    @classmethod
    def joined(
        cls,
        target: JoinTarget,
        client: HostClient,
        joined: Seated | Watching,
        tokens: TokenStore | None,
        token: str | None = None,
    ) -> Link:
        """The link of a connection that has joined (or watches) already, e.g. from the
        lobby: a token the host issued is kept (in ``tokens`` when given, else in memory
        for this run). ``target`` says how to join again: the name and the table."""
        if isinstance(joined, Seated) and joined.token is not None:
            token = joined.token
            if tokens is not None and target.name is not None:
                # Not written (a read-only data directory): kept in memory for this run.
                with contextlib.suppress(OSError):
                    tokens.put(target.address, target.name, joined.token)
        return cls(target, client, joined, tokens=tokens, token=token)

    async def rejoin(
        self, timeout: float = CONNECT_TIMEOUT, attempt: int = 0, *, dial: int | None = None
    ) -> RemoteTable:
        """Join the same seat (or watch the same table) again on a new connection:
        at the ``attempt``-th address after the one it was on, when the target has
        several (the first try after a drop goes to another host, each in turn),
        or at the target's ``dial``-th address when given."""
        target = self.target.at(self.dialed + attempt if dial is None else dial)
        client, joined = await _join(target, self.token, timeout)
        self.dialed = _dialed(target, client)
        self.table = RemoteTable(client, joined)
        self._chat_as()
        return self.table

    def _chat_as(self) -> None:
        """A watcher who gave a name chats as that account in the table's chat, and
        hides the writers that account keeps muted (a seat's list comes unasked)."""
        if self.target.name is not None:
            self.table.chat_as = (self.target.name, self.token)
            if self.target.watch is not None and self.token is not None:
                self.table.mute(None)

    # --- following ---------------------------------------------------------------------

    async def follow(
        self,
        on_lost: Callable[[str, int], None],
        on_back: Callable[[RemoteTable], None],
        ask_retry: Callable[[str], Awaitable[bool]],
    ) -> None:
        """Follow the table until it is over or the user gives up; reconnect on drops.

        ``on_lost(reason, attempt)`` is told before each try, ``on_back`` the
        new table, ``ask_retry(message)`` whether to try again once the tries
        ran out (False: stop).
        """
        while not self.closed:
            table = self.table
            await table.run()
            if self.closed or table.view(None).is_over:
                return
            reason = table.closed_reason or "closed"
            if reason in FINAL_REASONS:
                on_lost(reason, 0)
                return
            while not self.closed:
                problem = await self._reconnect(on_lost, reason, self.delays)
                if problem is None:
                    on_back(self.table)
                    break
                if not await ask_retry(problem):
                    return

    async def _reconnect(
        self, on_lost: Callable[[str, int], None], reason: str, delays: tuple[float, ...]
    ) -> str | None:
        """Try to join again after each of ``delays``: None once back, else why not."""
        problem = _("the host cannot be reached")
        moved = self._moved_to()
        if moved is not None:  # the host said where the table went: there first, at once
            on_lost(reason, 1)
            try:
                await self.rejoin(dial=moved)
            except JoinError as exc:
                problem = exc.message
                if exc.status == EXIT_REFUSED and exc.code != "unavailable":
                    return problem
            else:
                self.reconnects += 1
                return None
        for attempt, delay in enumerate(delays, start=1):
            on_lost(reason, attempt)
            await asyncio.sleep(delay * random.uniform(0.8, 1.2))
            if self.closed:
                return problem
            try:
                await self.rejoin(attempt=attempt)
            except JoinError as exc:
                problem = exc.message
                if exc.status == EXIT_REFUSED and exc.code != "unavailable":
                    return problem  # the host answered no: trying again will not change it
                continue
            self.reconnects += 1
            return None
        return problem

    def _moved_to(self) -> int | None:
        """The dial of the host the last connection's ``bye`` named as the table's
        new referee (added to the target's addresses when it was not one), if any.
        A door's app has one way in, its host's socket, which relays: none."""
        said = self.table.client.moved_to
        if said is None or DOOR_SOCKET is not None:
            return None
        try:
            where = parse_address(said)
        except ValueError:
            return None
        addresses = ((self.target.host, self.target.port), *self.target.others)
        if where not in addresses:
            self.target = replace(self.target, others=(*self.target.others, where))
            addresses = (*addresses, where)
        return addresses.index(where)

    async def close(self) -> None:
        self.closed = True
        with contextlib.suppress(OSError, RuntimeError):
            await self.table.close()


@dataclass(frozen=True, slots=True)
class LobbyStart:
    """A connection that has said hello and sits nowhere yet: the lobby shows the tables
    (``target.name`` may be None: the lobby asks for it)."""

    target: JoinTarget
    client: HostClient
    tokens: TokenStore | None
    ticket: str | None = None  # a door's ticket: the proof when no token is kept

    def link(
        self, joined: Seated | Watching, name: str | None, client: HostClient | None = None
    ) -> Link:
        """The link of the seat (or table) the lobby was left for, to follow and rejoin
        (``client``: the lobby's connection when it is no longer the first one)."""
        client = self.client if client is None else client
        host, port = self.target.host, self.target.port
        if isinstance(joined, Watching):
            # The lobby's name (an SSH login's): the watcher chats as that account.
            target = JoinTarget(host, port, name or self.target.name, watch=joined.table)
        else:
            target = JoinTarget(host, port, name or self.target.name, joined.table)
        token = None
        if self.tokens is not None and target.name is not None:
            with contextlib.suppress(OSError):
                token = self.tokens.get(target.address, target.name)
        return Link.joined(target, client, joined, self.tokens, token or self.ticket)


@dataclass(frozen=True, slots=True)
class Home:
    """What a session at a host goes back to from any table: the host's lobby, under
    the name it played as (``target``'s table and watch are not used)."""

    target: JoinTarget
    tokens: TokenStore | None
    ticket: str | None = None

    async def lobby(self, name: str | None) -> LobbyStart:
        """A new connection to the host for the lobby (:class:`JoinError` if none)."""
        target = replace(self.target, name=name or self.target.name, table=None, watch=None)
        return LobbyStart(target, await connect(target), self.tokens, self.ticket)


def _keep_under_first(target: JoinTarget, tokens: TokenStore) -> None:
    """A token kept under another address of the target's server (an earlier join
    listed that host first; one database, the same accounts) is kept under its
    first address too, where this run's joins and lobby look for it."""
    if target.name is None:
        return
    with contextlib.suppress(OSError):
        if tokens.get(target.address, target.name):
            return
        for host, port in target.others:
            token = tokens.get(_address(host, port), target.name)
            if token:
                tokens.put(target.address, target.name, token)
                return


def lands_at(tables: tuple[TableInfo, ...], name: str) -> str | None:
    """The table a login of ``name`` goes straight to: a running real-time game with a
    seat of that name; else None (the lobby, the turn-based tables your move first)."""
    key = name.casefold()
    for info in tables:
        if info.finished or info.waiting or is_turn_based(info.move_time):
            continue
        if any(s.kind == "human" and s.name.casefold() == key for s in info.seats):
            return info.table
    return None


async def landing(
    target: JoinTarget,
    tokens: TokenStore | None,
    ticket: str | None = None,
    code: str | None = None,
) -> Link | LobbyStart:
    """Where a login with a name and no table lands: the table of its running
    real-time game, else the lobby (never a finished game). A named table, or one to
    watch, is joined as asked. Raises :class:`JoinError`."""
    target = target.checked()
    if tokens is not None:
        _keep_under_first(target, tokens)
    if target.name is None or target.table is not None or target.watch is not None:
        return await open_link(target, tokens, ticket, code)
    client = await connect(target)
    try:
        table = lands_at(await client.tables(), target.name)
    except RefusedError as exc:
        client.abort()
        raise JoinError(_refusal_message(target, exc), EXIT_REFUSED, exc.code) from None
    except (TimeoutError, HostClosedError, ProtocolError, OSError) as exc:
        client.abort()
        raise JoinError(printable(str(exc) or type(exc).__name__), EXIT_CONNECT) from None
    if table is None:
        return LobbyStart(target, client, tokens, ticket)
    client.abort()
    try:
        return await open_link(replace(target, table=table), tokens, ticket, code)
    except JoinError as exc:
        if exc.code != "no_such_seat":
            raise
        return LobbyStart(target, await connect(target), tokens, ticket)


DOOR_SOCKET: str | None = None
"""The host's private socket, when a door (SSH, browser) started this app
(:data:`~paris_tui.host.child.DOOR_SOCKET_ENV`): every connection goes there."""

AT_DOOR = False
"""A door (SSH, browser) started this app: its player is shown no internal address."""


async def connect(target: JoinTarget, timeout: float = CONNECT_TIMEOUT) -> HostClient:
    """A connection to the host (hello said), or :class:`JoinError`; a target of
    several hosts tries each in turn until one answers."""
    for attempt in range(len(target.others)):
        with contextlib.suppress(JoinError):
            return await _connect_one(target.at(target.dial + attempt), timeout)
    return await _connect_one(target.at(target.dial + len(target.others)), timeout)


async def _connect_one(target: JoinTarget, timeout: float) -> HostClient:
    if not AT_DOOR:
        return await _connect_at(target, timeout)
    try:
        return await _connect_at(target, timeout)
    except JoinError as exc:
        if exc.status != EXIT_CONNECT:
            raise
        # What failed is the host's own loopback or socket: nothing the player can change.
        message = _("the game host cannot be reached right now; try again later")
        raise JoinError(message, EXIT_CONNECT, exc.code) from None


async def _connect_at(target: JoinTarget, timeout: float) -> HostClient:
    host, port = target.endpoint
    where = _address(host, port)
    cannot = _("cannot connect to {address}: {reason}")
    try:
        return await HostClient.connect(
            host, port, timeout=timeout, language=i18n.current_language(), path=DOOR_SOCKET
        )
    except RefusedError as exc:
        raise JoinError(_refusal_message(target, exc), EXIT_REFUSED, exc.code) from None
    except TimeoutError:
        why = _("no answer (timed out)")
        raise JoinError(cannot.format(address=where, reason=why), EXIT_CONNECT) from None
    except HostClosedError:
        why = _("the host hung up")
        raise JoinError(cannot.format(address=where, reason=why), EXIT_CONNECT) from None
    except ProtocolError as exc:
        service = _service_named(exc)
        if service is not None:
            message = _(
                "cannot connect to {address}: {service} answered there, not a paris-tui "
                "host (its port is {port} unless it says --port)"
            ).format(address=where, service=service, port=DEFAULT_PORT)
            raise JoinError(message, EXIT_CONNECT) from None
        message = printable(cannot.format(address=where, reason=exc))
        raise JoinError(message, EXIT_CONNECT) from None
    except OSError as exc:
        if isinstance(exc, ConnectionRefusedError) or exc.errno == errno.ECONNREFUSED:
            why = _("nothing answers on that port")
        elif exc.errno in (errno.EHOSTUNREACH, errno.ENETUNREACH):
            why = _("that machine cannot be reached from here")
        elif isinstance(exc, socket.gaierror):
            why = _("no machine has that name")
        else:
            why = printable(exc.strerror or str(exc) or type(exc).__name__)
        message = _(
            "cannot connect to {address}: {reason} (is paris-tui host running there?)"
        ).format(address=where, reason=why)
        raise JoinError(message, EXIT_CONNECT) from None


def _service_named(exc: ProtocolError) -> str | None:
    """Which other service answered, from the line that was not JSON."""
    line = exc.line
    if line.startswith(b"SSH-"):
        return _("an SSH server (paris-tui host's SSH door, say: ssh -p PORT NAME@HOST)")
    if line.startswith(b"HTTP/"):
        return _("a web server (paris-tui host's browser door, say: open it in a browser)")
    return None


def _dialed(target: JoinTarget, client: HostClient) -> int:
    """Which of ``target``'s addresses ``client`` connected to (its dial, if unknown)."""
    addresses = ((target.host, target.port), *target.others)
    if client.endpoint in addresses:
        return addresses.index(client.endpoint)
    return target.dial


async def _join(
    target: JoinTarget,
    token: str | None,
    timeout: float,
    code: str | None = None,
    *,
    named: bool = False,
) -> tuple[HostClient, Seated | Watching]:
    """Connect, then join (or watch: under the target's name, as that account, when
    a token proves it, or always when ``named``, ``join --watch ID --name N``: the
    host then refuses a name nothing proves, as a join's)."""
    where = target.address
    client = await connect(target, timeout)
    try:
        joined: Seated | Watching
        if target.watch is not None:
            name = target.name if named or token is not None else None
            if client.welcome is not None and client.welcome.protocol < 4:
                name = None  # an older host watches by table only
            joined = await client.watch(
                target.watch, timeout=timeout, name=name, token=None if name is None else token
            )
        else:
            assert target.name is not None
            joined = await client.join(target.name, token, target.table, timeout=timeout, code=code)
    except RefusedError as exc:
        client.abort()
        message = _refusal_message(target, exc)
        raise JoinError(message, EXIT_REFUSED, exc.code, exc.refused.token) from None
    except (TimeoutError, HostClosedError, ProtocolError, OSError) as exc:
        client.abort()
        if isinstance(exc, TimeoutError):
            why = _("no answer (timed out)")
        elif isinstance(exc, HostClosedError):
            # Translators: {reason} is a protocol word (shutdown, replaced, idle, closed).
            why = _("the host closed the connection ({reason})").format(reason=exc.reason)
        else:
            why = str(exc)
        raise JoinError(printable(why if AT_DOOR else f"{where}: {why}"), EXIT_CONNECT) from None
    return client, joined


async def open_link(
    target: JoinTarget,
    tokens: TokenStore | None,
    ticket: str | None = None,
    code: str | None = None,
) -> Link:
    """:meth:`Link.open`: connect and join, or raise :class:`JoinError`."""
    target = target.checked()
    if tokens is not None:
        _keep_under_first(target, tokens)
    return await Link.open(target, tokens, ticket, code)
