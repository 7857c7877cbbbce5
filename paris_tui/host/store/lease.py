"""Leases: one referee per table among the hosts on one database, on the database's clock.

A table is refereed by the host that holds its row in ``paris_leases``
(ShedLock's lock row): taken with ``INSERT ... ON CONFLICT DO UPDATE ...
WHERE until <= now()`` (free or run out), renewed ``WHERE holder = me``,
given back at a clean stop or when its game ends. Every time is the
database's ``now()``, so the hosts' clocks never matter. A host that dies
stops renewing; once its leases run out (:data:`LEASE_SECONDS`) another host
takes its tables, reading their moves from the database. The row also says
where the holder's door is (``address``), so another host can relay a
connection to it.

A lease is not the only guard, it is a *fencing token* too: every change of
holder gives the row a new ``epoch`` (a number of the sequence
``paris_lease_epochs``, never used twice), and every write of the referee
(:meth:`~paris_tui.host.store.postgres.PostgresStore.append`, the turn clocks,
the ratings) is made in the same statement as a check, under a share lock of
the lease row, that the row still holds this host and the epoch it took. A
host that lost its lease without noticing (stopped longer than the lease, or
cut from the database while another took the table) writes nothing: the
write is refused (:class:`~paris_tui.host.store.postgres.LeaseLost`), nothing
is acknowledged, and the host drops the table. The move rows' primary key
stays the last word on a second move *n*.
"""

from __future__ import annotations

import contextlib
import logging
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass

from paris_tui.host.store.postgres import PostgresStore

log = logging.getLogger("paris_tui.host.cluster")

__all__ = ["LEASE_SECONDS", "Beat", "Heartbeat", "Holder", "Leases"]

LEASE_SECONDS = 1.0
"""How long a lease lasts unless renewed (renewed five times as often:
host/services/cluster.py). Short, because fenced writes make a takeover
that came too early cost a reconnect, never a second referee's move."""


@dataclass(frozen=True, slots=True)
class Holder:
    table_id: str
    holder: str
    address: str


class Leases:
    """The leases of one host (``holder``: its unique id) on ``store``'s database."""

    def __init__(
        self, store: PostgresStore, holder: str, address: str, seconds: float = LEASE_SECONDS
    ) -> None:
        self.store = store
        self.holder = holder
        self.address = address
        self.seconds = seconds
        self.epochs: dict[str, int] = {}  # table -> the epoch of our lease of it

    def epoch_of(self, table_id: str) -> int | None:
        """The epoch our lease of ``table_id`` had when we took it (``None``: never
        ours): what our writes for the table are checked against."""
        return self.epochs.get(table_id)

    def acquire(self, table_id: str) -> bool:
        """Take the table's lease if it is free, run out, or ours already (a lease
        taken from another holder, or free, gets a new epoch; ours keeps its own)."""
        with self.store.one(self.seconds) as conn:
            row = conn.execute(
                "INSERT INTO paris_leases (table_id, holder, address, until, epoch) "
                "VALUES (%s, %s, %s, now() + make_interval(secs => %s), "
                "nextval('paris_lease_epochs')) "
                "ON CONFLICT (table_id) DO UPDATE SET holder = EXCLUDED.holder, "
                "address = EXCLUDED.address, until = EXCLUDED.until, "
                "epoch = CASE WHEN paris_leases.holder = EXCLUDED.holder "
                "THEN paris_leases.epoch ELSE EXCLUDED.epoch END "
                "WHERE paris_leases.until <= now() OR paris_leases.holder = EXCLUDED.holder "
                "RETURNING epoch",
                (table_id, self.holder, self.address, self.seconds),
            ).fetchone()
        if row is None:
            return False
        self.epochs[table_id] = int(row[0])
        return True

    def holds(self, table_id: str) -> bool:
        """Whether the table's lease is still ours at the epoch we took (a join's
        last check before it seats anyone here). One that ran out is still ours
        while nobody took it (the next renewal keeps it): our writes still count."""
        epoch = self.epochs.get(table_id)
        if epoch is None:
            return False
        with self.store.one(self.seconds) as conn:
            row = conn.execute(
                "SELECT 1 FROM paris_leases WHERE table_id = %s AND holder = %s AND epoch = %s",
                (table_id, self.holder, epoch),
            ).fetchone()
        return row is not None

    def take_from(self, table_id: str, holder: str, silent: float) -> bool:
        """Take the table's lease from ``holder``, a host whose door refuses
        connections (its process is gone: kill -9, a crash), once that lease went
        ``silent`` seconds without a renewal (on the database's clock), before it
        runs out.

        Both must hold: a host that is alive but stalled still has its door (the
        kernel takes its connections) and does not lose its tables this way, and
        a host that renews is never taken from, whatever a peer saw of its door.
        The lease gets a new epoch: whatever the gone host still tries to
        write is refused."""
        with self.store.one(self.seconds) as conn:
            row = conn.execute(
                "UPDATE paris_leases SET holder = %s, address = %s, "
                "until = now() + make_interval(secs => %s), epoch = nextval('paris_lease_epochs') "
                "WHERE table_id = %s AND holder = %s "
                "AND until <= now() + make_interval(secs => %s) RETURNING epoch",
                (self.holder, self.address, self.seconds, table_id, holder, self.seconds - silent),
            ).fetchone()
        if row is None:
            return False
        self.epochs[table_id] = int(row[0])
        return True

    def silent_in(self, table_id: str, holder: str, silent: float) -> float | None:
        """Seconds until :meth:`take_from` can take the table's lease from ``holder``
        (0: now); ``None`` if ``holder`` holds it no more (another host took it)."""
        with self.store.one(self.seconds) as conn:
            row = conn.execute(
                "SELECT extract(epoch FROM until - now()) FROM paris_leases "
                "WHERE table_id = %s AND holder = %s",
                (table_id, holder),
            ).fetchone()
        if row is None:
            return None
        return max(0.0, float(row[0]) - (self.seconds - silent))

    def renew(self) -> set[str]:
        """Renew every lease still ours; returns their tables (the others were lost).

        A lease of ours that ran out while this host stalled (a busy machine, a
        pause) and that no other host took is still ours: taking it means
        writing another holder, so a lease whose holder is us was taken by
        nobody, and renewing it keeps the table here instead of dropping its
        players for nothing."""
        with self.store.one(self.seconds) as conn:
            rows = conn.execute(
                "UPDATE paris_leases SET until = now() + make_interval(secs => %s), "
                "address = %s WHERE holder = %s RETURNING table_id, epoch",
                (self.seconds, self.address, self.holder),
            ).fetchall()
        for table_id, epoch in rows:
            self.epochs[str(table_id)] = int(epoch)
        return {str(r[0]) for r in rows}

    def release(self, table_id: str | None = None) -> None:
        """Give back one table's lease, or (``None``) every lease of this host."""
        if table_id is None:
            self.epochs.clear()
        else:
            self.epochs.pop(table_id, None)
        with self.store.one(self.seconds) as conn:
            if table_id is None:
                conn.execute("DELETE FROM paris_leases WHERE holder = %s", (self.holder,))
            else:
                conn.execute(
                    "DELETE FROM paris_leases WHERE holder = %s AND table_id = %s",
                    (self.holder, table_id),
                )

    def holders(self) -> dict[str, Holder]:
        """The live leases of every host."""
        with self.store.one(self.seconds) as conn:
            rows = conn.execute(
                "SELECT table_id, holder, address FROM paris_leases WHERE until > now()"
            ).fetchall()
        return {str(t): Holder(str(t), str(h), str(a)) for t, h, a in rows}

    def tables_of(self, holder: str) -> list[str]:
        """The tables whose lease ``holder`` has (a host found gone: what to take)."""
        with self.store.one(self.seconds) as conn:
            rows = conn.execute(
                "SELECT table_id FROM paris_leases WHERE holder = %s", (holder,)
            ).fetchall()
        return [str(r[0]) for r in rows]

    def lease_of(self, table_id: str) -> Holder | None:
        """The live lease of one table (a join's look-up: one row, not every one)."""
        with self.store.one(self.seconds) as conn:
            row = conn.execute(
                "SELECT holder, address FROM paris_leases WHERE table_id = %s AND until > now()",
                (table_id,),
            ).fetchone()
        return None if row is None else Holder(table_id, str(row[0]), str(row[1]))

    def unheld(self) -> list[str]:
        """Unfinished tables whose lease is free or run out (a host died)."""
        with self.store.one(self.seconds) as conn:
            rows = conn.execute(
                "SELECT t.table_id FROM paris_tables t LEFT JOIN paris_leases l "
                "USING (table_id) WHERE NOT t.finished AND NOT t.archived "
                "AND (l.until IS NULL OR l.until <= now()) ORDER BY t.number"
            ).fetchall()
        return [str(r[0]) for r in rows]


@dataclass(frozen=True, slots=True)
class Beat:
    """One renewal: when it began (``time.monotonic()``), the tables still ours
    (``None``: the database did not answer), and why not."""

    began: float
    held: frozenset[str] | None
    problem: str = ""


class Heartbeat:
    """A host's leases renewed every ``tick`` from a thread of their own, on a
    database connection of their own (``leases``' store).

    The host's event loop and its I/O threads may be busy for a second with a
    burst of joins (800 at once, on a loaded machine); a renewal queued behind
    them would let a one-second lease run out and hand live tables to another
    host for nothing. This thread renews while the process runs and its event
    loop answers (``alive``: a loop that stopped answering for a while loses
    its tables, as a stopped process does); the loop reads :attr:`last` at its
    tick and acts on it (the tables lost, the database away or back)."""

    def __init__(self, leases: Leases, tick: float, alive: Callable[[], bool]) -> None:
        self.leases = leases
        self.tick = tick
        self.alive = alive
        self.last: Beat | None = None
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self.own: PostgresStore | None = None  # its own connection, closed at stop

    @classmethod
    def of(cls, leases: Leases, tick: float, alive: Callable[[], bool]) -> Heartbeat:
        """A heartbeat of ``leases`` on a connection of its own, so that the
        renewals never queue behind the joins' database calls (on the host's
        connections if no other can be had)."""
        try:
            own = PostgresStore(leases.store.url, pool_size=1)
            own.open()
        except OSError as exc:
            log.error("the leases share the host's connections: %s", exc)
            return cls(leases, tick, alive)
        beats = Leases(own, leases.holder, leases.address, leases.seconds)
        beats.epochs = leases.epochs  # one map of the epochs we took
        heartbeat = cls(beats, tick, alive)
        heartbeat.own = own
        return heartbeat

    def start(self) -> None:
        self._thread = threading.Thread(target=self._run, name="paris-lease", daemon=True)
        self._thread.start()

    def stop(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=self.leases.seconds + 5)
            self._thread = None
        if self.own is not None:
            self.own.close()
            self.own = None

    def beat(self) -> Beat:
        """Renew now (in the caller's thread): the beat, kept as :attr:`last`."""
        began = time.monotonic()
        try:
            held: frozenset[str] | None = frozenset(self.leases.renew())
            problem = ""
        except OSError as exc:
            held, problem = None, str(exc)
            with contextlib.suppress(Exception):  # its dead connections out now
                self.leases.store.check()
        self.last = Beat(began, held, problem)
        return self.last

    def _run(self) -> None:
        while not self._stop.wait(self.tick):
            try:
                if self.alive():
                    self.beat()
            except Exception:  # a bug must not end the renewals
                log.exception("the leases' renewal failed")
