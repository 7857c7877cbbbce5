"""Several hosts on one database: who referees which table, and the relay to it.

With ``--database`` each host is a :class:`Cluster` member:

- **One referee per table**: a host serves (holds a :class:`~paris_tui.host.room.Room`
  for) only the tables whose lease it holds (:mod:`paris_tui.host.store.lease`). Every
  :data:`TICK` seconds it renews its leases, drops the tables it lost (their
  connections are told ``bye`` with the address of the table's new referee,
  and reconnect there) and takes the unfinished tables
  whose lease ran out (a host died), replaying their moves from the database.
  Every move is its own row, committed before anyone is told
  (:meth:`~paris_tui.host.store.postgres.PostgresStore.append`).
- **Any host's doors serve any table**: a ``join`` or ``watch`` at a host for a
  table another host referees is *relayed*: this host opens a connection to the
  referee's host (the lease row says where), says the client's hello and its
  request, and from then on copies lines both ways, unchanged. The referee
  cuts each connection's view to its seat as ever, so what crosses hosts is
  exactly what a direct connection gets (secrecy by construction still holds);
  moves made at one host reach players connected to another at once, over the
  relay. When the referee's host dies, the relay ends, the client reconnects
  (``join`` takes several addresses), and another host referees the table:
  about :data:`SILENT` after the kill when its door refuses the relay's dial,
  or the dial made when a relay to it ended (its process is gone: every table
  of it swept, :mod:`~paris_tui.host.services.cluster_gone`), else within
  :data:`~paris_tui.host.store.lease.LEASE_SECONDS` and a tick (a host that
  stalls is taken over so too).
- **Fenced writes**: every move is written only while this host holds the
  table's lease at the epoch it took (:class:`~paris_tui.host.store.lease.Leases`):
  a host that lost a table without noticing (stopped, or cut from the
  database, longer than a lease) has its next move refused, acknowledges
  nothing, and drops the table (its connections come back through any host,
  which relays them to the new referee).
- **A calm return after a database outage**: a host that could not reach
  the database renews its own leases first when it is back, and takes no other
  host's run-out lease for :attr:`Cluster.grace` (two leases) after that: the
  other hosts renew theirs meanwhile, so no table changes referee because the
  database was away; only the tables of a host that died meanwhile move.
- The lobby lists every host's tables (those refereed elsewhere read from the
  database).
- **A door's ticket stays at the host that issued it**: relaying a door's app,
  that host resolves the ticket itself and *vouches* for what its door proved
  (:class:`~paris_tui.net.protocol.Vouch`, in the relay line, or in a line of
  its own when the ticket comes later), for a stand-in token it puts in the
  ticket's place. The referee's host takes that word only from a proven peer,
  for that one connection (the host's ``take_vouch``, :class:`~paris_tui.host.ports.ClusterHost`).

Why a relay and not LISTEN/NOTIFY to every host: with one referee per table,
its players' updates are made there, cut per seat there; a relay is the one
path that carries them as they are, no second copy of a game to keep in step.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
import uuid
from collections.abc import Awaitable, Callable, Sequence
from concurrent.futures import ThreadPoolExecutor
from typing import TypeVar

from paris_tui.core.record import Record
from paris_tui.host.accounts.identity import Vouched
from paris_tui.host.connection import Connection
from paris_tui.host.events import (
    EventBus,
    GameOver,
    MoveLost,
    TableArchived,
    TableEvent,
    WaitingChanged,
    WaitingClosed,
    WaitingStarted,
)
from paris_tui.host.peers import Peer
from paris_tui.host.ports import ClusterHost
from paris_tui.host.referee import Refusal
from paris_tui.host.room import Room
from paris_tui.host.services.cluster_gone import GoneHosts
from paris_tui.host.services.cluster_waiting import WaitingSeats
from paris_tui.host.services.relay import DoorShut, PeerRelay
from paris_tui.host.store.lease import LEASE_SECONDS, Heartbeat, Leases
from paris_tui.host.store.postgres import DatabaseUnavailable, PostgresStore
from paris_tui.net.protocol import (
    Bye,
    Join,
    SeatInfo,
    TableInfo,
    Vouch,
    Watch,
)

__all__ = ["SILENT", "TICK", "Cluster"]

T = TypeVar("T")

log = logging.getLogger("paris_tui.host.cluster")

TICK = LEASE_SECONDS / 5  # how often leases are renewed and run-out ones taken
SILENT = 2 * TICK  # a gone host's lease, this long unrenewed, is taken before it runs out


class Cluster(WaitingSeats, GoneHosts):
    """This host's part among the hosts on one database."""

    def __init__(
        self,
        host: ClusterHost,
        store: PostgresStore,
        lease_seconds: float,
        events: EventBus | None = None,
    ) -> None:
        self.host = host
        self.store = store
        self.id = uuid.uuid4().hex[:12]
        self.leases = Leases(store, self.id, "", lease_seconds)
        store.fencing = self.leases  # every move written is checked against our leases
        self.tick = lease_seconds / 5  # renewed five times a lease: a stall of 0.8 lease is no loss
        self.silent = 2 * self.tick  # two renewals missed (:meth:`_take_from_gone`)
        # After the database was away: how long no other host's run-out lease is
        # taken (they renew theirs meanwhile), from the first renewal that worked.
        self.grace = 2 * lease_seconds
        self._calm_until = 0.0  # (time.monotonic()) no run-out lease of others taken before
        # The renewals, from a thread and a connection of their own (store/lease.py),
        # while this event loop stepped within loop_stall seconds.
        self.heartbeat: Heartbeat | None = None
        # The takeovers' reads in threads of their own: the host's I/O threads may
        # all wait (a burst of joins, or their account writes waiting for a lock
        # a stopped host holds) while a table waits to be taken over.
        self.io = ThreadPoolExecutor(max_workers=2, thread_name_prefix="paris-cluster")
        self.loop_stall = max(5.0, 3 * lease_seconds)
        self._stepped = 0.0  # (time.monotonic()) the last step of the event loop
        self._lost: dict[str, float] = {}  # table -> when it was dropped here as lost
        self._task: asyncio.Task[None] | None = None
        self._down = False  # the database was unreachable at the last tick
        self._remote: dict[str, Record] = {}  # tables refereed elsewhere, as last read
        self.relays = PeerRelay(store, host.tickets)  # the relay to and from the peer hosts
        self._taken: dict[str, float] = {}  # table -> when its lease was last taken here
        self._gone: dict[str, float] = {}  # host (lease holder) -> when its door refused us
        self._twins: set[str] = set()  # live hosts seen giving our own address (logged once)
        self._taking: dict[str, asyncio.Event] = {}  # tables being taken over here: set when done
        self._claims: dict[str, asyncio.Future[None]] = {}  # gone hosts' tables being claimed
        self._probing: set[str] = set()  # hosts whose door is being dialled (a relay ended)
        self._sweeping: set[str] = set()  # gone hosts whose tables are being taken
        # Run at each tick after the leases (the friends say who is here, one
        # database connection at a time).
        self.after_tick: Callable[[], Awaitable[None]] | None = None
        if events is not None:
            events.subscribe(self.hear)

    def hear(self, event: TableEvent) -> Awaitable[None] | None:
        """A table lost or archived; a waiting table changed, started or closed."""
        match event:
            case MoveLost(table_id):
                self.lose(table_id)
            case TableArchived(table_id):
                with contextlib.suppress(OSError):
                    self.leases.release(table_id)
            case GameOver(room):  # a finished table is nobody's to referee: no renewals
                return self._finished(room.id)
            case WaitingChanged(table):
                self.publish(table)
            case WaitingStarted(table_id, players):
                self.withdraw(table_id, started=True, players=players)
            case WaitingClosed(table_id):
                self.withdraw(table_id, started=False)
        return None

    async def _finished(self, table_id: str) -> None:
        loop = asyncio.get_running_loop()
        try:
            await loop.run_in_executor(self.host.io_pool, self.leases.release, table_id)
        except OSError as exc:
            log.error("table %s: %s", table_id, exc)

    @property
    def calm(self) -> bool:
        """Whether the database came back a moment ago: no other host's run-out
        lease is taken now (:attr:`grace`)."""
        return time.monotonic() < self._calm_until

    @property
    def down(self) -> bool:
        """Whether the database did not answer at the last tick."""
        return self._down

    # --- the relay (:mod:`paris_tui.host.services.relay`) ----------------------------------

    def relay_proof(self, source: str, address: str) -> str | None:
        return self.relays.relay_proof(source, address)

    def vouch(self, source: str, vouched: Vouched) -> Vouch | None:
        return self.relays.vouch(source, vouched)

    # --- leases ------------------------------------------------------------------------

    def acquire(self, table_id: str) -> bool:
        try:
            got = self.leases.acquire(table_id)
        except OSError as exc:
            log.error("table %s: %s", table_id, exc)
            return False
        if got:  # committed now: a renewal begun from now on holds it
            self._taken[table_id] = time.monotonic()
        return got

    def beating(self) -> Heartbeat:
        """The renewals, running from the first lease taken: the operator's
        ``--table`` tables are opened before the host listens (:meth:`start`),
        and opening many of them took longer than a lease on a busy machine, so
        another host took the first ones over before this one ever renewed."""
        if self._task is None:
            self._stepped = time.monotonic()  # opening tables: this process steps
        if self.heartbeat is None:
            self.heartbeat = Heartbeat.of(
                self.leases, self.tick, lambda: time.monotonic() - self._stepped < self.loop_stall
            )
            self.heartbeat.start()
        return self.heartbeat

    def start(self, address: str) -> None:
        self.leases.address = address
        heartbeat = self.beating()
        heartbeat.leases.address = address  # (its own Leases, on its own connection)
        self._stepped = time.monotonic()
        heartbeat.beat()
        with contextlib.suppress(OSError):  # the waiting tables of hosts that died
            self.store.drop_waiting(stale=True)
        self.relays.secret()
        self._task = asyncio.get_running_loop().create_task(self._run())

    async def stop(self, *, release: bool = True) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None
        if self.heartbeat is not None:
            await asyncio.get_running_loop().run_in_executor(None, self.heartbeat.stop)
            self.heartbeat = None
        self.io.shutdown(wait=False)
        if release:
            with contextlib.suppress(OSError):
                self.store.drop_waiting(holder=self.id)
            with contextlib.suppress(OSError):
                self.leases.release()

    async def _run(self) -> None:
        after: asyncio.Task[None] | None = None
        try:
            while True:
                await asyncio.sleep(self.tick)
                try:
                    await self.step()
                except Exception:  # a bug must not end the takeovers
                    log.exception("cluster step failed")
                # The friends' turn on its own: its reads wait for the host's I/O
                # threads, which must never hold up the next step (one at a time).
                if self.after_tick is not None and (after is None or after.done()):
                    after = asyncio.ensure_future(self.after_tick())
                    after.add_done_callback(_log_failure)
        finally:
            if after is not None:
                after.cancel()

    async def step(self) -> None:
        """Drop what the last renewal (the heartbeat's) says was lost, take what
        ran out (one tick)."""
        loop = asyncio.get_running_loop()
        pool = self.io
        self._stepped = time.monotonic()
        beat = None if self.heartbeat is None else self.heartbeat.last
        if beat is None:
            return
        began, held = beat.began, beat.held
        try:
            if held is None:
                raise DatabaseUnavailable(beat.problem)
            free = await loop.run_in_executor(pool, self.leases.unheld)
        except OSError as exc:
            if not self._down:
                log.error("the database is away (%s): tables wait for it", exc)
                self._down = True
            # Its dead connections out of the pool now, not one failed tick each later.
            with contextlib.suppress(Exception):
                await loop.run_in_executor(pool, self.store.check)
            return
        if self._down:
            self._down = False
            self._calm_until = time.monotonic() + self.grace
            log.info(
                "the database is back: %d tables kept here, no other host's taken for %.1f s",
                len(held),
                self.grace,
            )
        for table_id, room in list(self.host.rooms.items()):
            # A lease taken while the renewal ran (a join took the table) is ours.
            if (
                table_id not in held
                and not room.referee.is_over
                and self._taken.get(table_id, 0.0) < began
            ):
                self.lose(table_id)
        for table_id in held:  # ours, yet served by nobody here (a takeover that failed)
            if (
                table_id not in self.host.rooms
                and table_id not in self.host.waiting
                and self._lost.get(table_id, 0.0) < began  # (not lost since that renewal)
            ):
                await self.take(table_id, finished=False)
        if self.calm:  # the other hosts renew theirs now: none of their tables taken
            return
        for table_id in free:
            if table_id in self.host.rooms:
                continue
            got = await loop.run_in_executor(pool, self.acquire, table_id)
            if got:
                await self.take(table_id)

    async def take(self, table_id: str, *, finished: bool = True) -> None:
        """Referee ``table_id`` from its moves in the database (its host died);
        ``finished=False``: only if its game goes on (else its lease is given back).
        A take already under way for the table is waited for, not done twice."""
        pending = self._taking.get(table_id)
        if pending is not None:
            await pending.wait()
            if table_id in self.host.rooms or table_id in self._taking:
                return
            # That take did not get it (a sweep's, whose lease this caller took first).
        done = self._taking[table_id] = asyncio.Event()
        try:
            await self._take(table_id, finished=finished)
        finally:
            del self._taking[table_id]
            done.set()

    async def _take(self, table_id: str, *, finished: bool) -> None:
        loop = asyncio.get_running_loop()
        try:
            record = await loop.run_in_executor(self.io, self.store.load_record, table_id)
        except (OSError, ValueError) as exc:
            log.error("table %s: cannot take it over: %s", table_id, exc)
            return
        if record is None or table_id in self.host.rooms:  # taken meanwhile (another join)
            return
        if not finished and len(record.moves) >= len(record.setup.stacks) * len(record.players):
            with contextlib.suppress(OSError):
                await loop.run_in_executor(self.io, self.leases.release, table_id)
            return
        try:  # the replay and the owners' reads off the event loop
            prepared = await loop.run_in_executor(self.io, self.host.prepare, table_id, record)
        except ValueError as exc:
            log.error("table %s: cannot take it over: %s", table_id, exc)
            return
        if table_id in self.host.rooms:  # taken meanwhile (another join)
            return
        room = self.host.resume(table_id, record, prepared)
        if room is not None:
            room.start()
            log.info("took over table %s at move %d", table_id, room.referee.move_count)

    async def still_here(self, room: Room) -> None:
        """A join's last check before it seats anyone at ``room``: this host still
        holds the table's lease (live, at the epoch it took) and serves that room,
        nothing awaited after it. Else the table moved (or is moving) while the
        join read the database: no seat in a copy, a ``Refusal`` (try again: the
        next try is relayed to the table's referee). A finished game is not
        checked (its lease was given back; nothing of it is written any more)."""
        if room.referee.is_over:
            return
        loop = asyncio.get_running_loop()
        try:
            held = await loop.run_in_executor(self.host.io_pool, self.leases.holds, room.id)
        except OSError as exc:
            log.error("table %s: %s", room.id, exc)
            raise Refusal("unavailable", "the host cannot reach its database: try again") from None
        if held and self.host.rooms.get(room.id) is room:
            return
        log.warning("table %s: a join came as its lease left this host: told to try again", room.id)
        raise Refusal("unavailable", f"table {room.id} is moving to another host: try again")

    def lose(self, table_id: str) -> None:
        """Another host referees ``table_id`` now: stop serving it here, at once,
        and tell its connections where it went (:meth:`_send_away`)."""
        self._lost[table_id] = time.monotonic()
        connections = self.host.lose_table(table_id)
        if connections is None:
            return
        log.warning("table %s: its lease went to another host", table_id)
        if connections:
            future = asyncio.ensure_future(self._send_away(table_id, connections))
            future.add_done_callback(_log_failure)

    async def _send_away(self, table_id: str, connections: Sequence[Peer]) -> None:
        """Tell ``connections`` (of a table lost) ``bye`` with the address of the
        host that holds its lease now (one row read): their clients join it there
        directly, not through whichever host they try first. Not known (nobody
        took the lease yet, or the database did not answer): a plain ``bye``,
        and the clients try their hosts, as before."""
        loop = asyncio.get_running_loop()
        address = None
        try:
            found = await loop.run_in_executor(self.io, self.leases.lease_of, table_id)
            if found is not None and found.holder != self.id and found.address:
                address = found.address
        except (OSError, RuntimeError) as exc:  # (RuntimeError: this host is stopping)
            log.error("table %s: where it went is not known: %s", table_id, exc)
        for conn in connections:
            conn.unseat()
            conn.dismiss(Bye("shutdown", address))
        log.info(
            "table %s: %d connections sent to %s", table_id, len(connections), address or "any host"
        )

    # --- tables refereed elsewhere ------------------------------------------------------

    def remote_tables(self) -> dict[str, Record]:
        """Unfinished tables refereed by other hosts, from the database."""
        try:
            tables, _problems = self.store.load_tables(unfinished=True)
        except OSError as exc:
            log.error("%s", exc)
            return self._remote
        self._remote = {t: r for t, r in tables if t not in self.host.rooms}
        return self._remote

    def remote_infos(self, waiting: bool = True) -> list[TableInfo]:
        """The other hosts' unfinished tables (and, ``waiting``, those waiting for players)."""
        infos = self.waiting_infos() if waiting else []
        return infos + [remote_info(t, r) for t, r in self.remote_tables().items()]

    def _remote_table(self, table: str | None, name: str | None) -> str | None:
        """The table refereed elsewhere (or nowhere) that ``table`` or ``name`` asks for."""
        if table is not None:
            if table in self.host.rooms or table in self.host.waiting:
                return None
            return table  # the leases say where it is, if anywhere
        if name is None:
            return None
        for room in self.host.unfinished():
            if room.referee.seat_of(name) is not None:
                return None
        key = name.casefold()
        for table_id, record in self.remote_tables().items():
            if any(not p.is_ai and p.name.casefold() == key for p in record.players):
                return table_id
        return None

    async def route(self, conn: Connection, message: Join | Watch) -> bool:
        """Relay ``message`` to the host that referees its table (``True``: done), or
        take the table here first when its host died and nobody took it yet."""
        name = message.name if isinstance(message, Join) else None
        loop = asyncio.get_running_loop()
        table = await loop.run_in_executor(
            self.host.io_pool, self._remote_table, message.table, name
        )
        if table is None:
            return False
        try:
            found = await loop.run_in_executor(self.host.io_pool, self.leases.lease_of, table)
            record = None
            if found is None:  # run out (its host died): taken here and now, not at a tick
                record = await loop.run_in_executor(
                    self.host.io_pool, unfinished_record, self.store, table
                )
        except OSError as exc:  # not "no such table": the database did not say
            log.error("%s: cannot find where table %s is: %s", conn, table, exc)
            raise Refusal("unavailable", "the host cannot reach its database: try again") from None
        if found is None:
            if record is None:
                return False  # no such table, or finished: answered here
            if self.calm:  # its host may be renewing right now, after an outage
                raise Refusal("unavailable", f"table {table}: its host is coming back: try again")
            got = await loop.run_in_executor(self.host.io_pool, self.acquire, table)
            if got and table not in self.host.rooms:
                await self._waits(conn, self.take(table))
            if table not in self.host.rooms:  # another host took it first: ask again
                raise Refusal("unavailable", f"table {table} is moving to another host: try again")
            return False
        if found.holder == self.id or not found.address:
            pending = self._taking.get(table)
            if pending is not None and table not in self.host.rooms:  # being taken here
                await pending.wait()
            if table not in self.host.rooms:  # ours, being taken over at this moment
                raise Refusal("unavailable", f"table {table} is being taken over: try again")
            return False
        if found.address == self.leases.address:  # a host before us at our own address
            self._gone[found.holder] = time.monotonic()  # (restarted): gone, not a relay to us
            try:
                return await self._waits(conn, self._take_from_gone(table, found.holder))
            except Refusal:
                if found.holder in self._gone or found.holder in self._twins:
                    raise  # the database did not answer, or it is said already
                self._twins.add(found.holder)  # it renews: alive, and at our address
                log.warning(
                    "host %s, alive, gives this host's own address %s: its tables cannot "
                    "be relayed to; give each host its own address (--advertise)",
                    found.holder,
                    found.address,
                )
                raise
        if self._is_gone(found.holder):  # its door refused us a moment ago: no new dial
            return await self._waits(conn, self._take_from_gone(table, found.holder))
        self.host.leave(conn)
        try:
            ended = await self.relays.relay(conn, found.address, message)
        except DoorShut:
            self._gone[found.holder] = time.monotonic()
            log.warning("host %s at %s refuses connections: gone", found.holder, found.address)
            self._sweep(found.holder)
            return await self._waits(conn, self._take_from_gone(table, found.holder))
        if ended:  # the referee's host ended it: gone (kill -9), or it dropped the table?
            self._probe(found.holder, found.address)
        return True

    async def _waits(self, conn: Connection, wait: Awaitable[T]) -> T:
        """``wait`` (a takeover the join waits for), ``conn`` out of the anonymous
        pool meanwhile (host/admission.py); back in it if the join is refused."""
        admission = self.host.admission
        was = admission.waits(conn)
        try:
            return await wait
        except BaseException:
            if was:
                admission.waited(conn)
            raise


def remote_info(table_id: str, record: Record) -> TableInfo:
    """The lobby's line of a table refereed elsewhere, from its record."""
    seats = tuple(SeatInfo(p.name, p.kind, "ai" if p.is_ai else "away") for p in record.players)
    total = len(record.setup.stacks) * len(record.players)
    moves = len(record.moves)
    return TableInfo(table_id, seats, moves, total, moves >= total)


def _log_failure(task: asyncio.Future[None]) -> None:
    if not task.cancelled() and task.exception() is not None:
        log.error("a cluster task failed", exc_info=task.exception())


def unfinished_record(store: PostgresStore, table: str) -> Record | None:
    """The table's record if its game goes on (raises ``OSError``: the database
    did not answer, which is no answer about the table)."""
    try:
        record = store.load_record(table)
    except ValueError:
        return None
    if record is None or len(record.moves) >= len(record.setup.stacks) * len(record.players):
        return None
    return record
