"""Leases: one referee per table among the hosts on one database, on the database's clock.

A table is refereed by the host that holds its row in ``paris_leases``
(ShedLock's lock row): taken with ``INSERT ... ON CONFLICT DO UPDATE ...
WHERE until <= now()`` (free or run out), renewed ``WHERE holder = me``,
given back at a clean stop. Every time is the database's ``now()``, so the
hosts' clocks never matter. A host that dies stops renewing; once its leases
run out (:data:`LEASE_SECONDS`) another host takes its tables, reading their
moves from the database. The row also says where the holder's door is
(``address``), so another host can relay a connection to it.

A lease is not the only guard: a host that lost its lease without noticing
(a pause longer than the lease) still cannot write a move another wrote, the
move rows' primary key refuses it (:class:`~paris_tui.host.store.postgres.MoveConflict`),
and it then drops the table.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import TYPE_CHECKING

from paris_tui.host.store.postgres import PostgresStore

if TYPE_CHECKING:  # pragma: no cover
    pass

__all__ = ["LEASE_SECONDS", "Holder", "Leases"]

LEASE_SECONDS = 3.0
"""How long a lease lasts unless renewed (renewed six times as often: host/services/cluster.py)."""


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

    def acquire(self, table_id: str) -> bool:
        """Take the table's lease if it is free, run out, or ours already."""
        with self.store.one() as conn:
            row = conn.execute(
                "INSERT INTO paris_leases (table_id, holder, address, until) "
                "VALUES (%s, %s, %s, now() + make_interval(secs => %s)) "
                "ON CONFLICT (table_id) DO UPDATE SET holder = EXCLUDED.holder, "
                "address = EXCLUDED.address, until = EXCLUDED.until "
                "WHERE paris_leases.until <= now() OR paris_leases.holder = EXCLUDED.holder "
                "RETURNING holder",
                (table_id, self.holder, self.address, self.seconds),
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
        Nothing else changes: a second writer of move *n* is still refused by
        the move rows' primary key."""
        with self.store.one() as conn:
            row = conn.execute(
                "UPDATE paris_leases SET holder = %s, address = %s, "
                "until = now() + make_interval(secs => %s) "
                "WHERE table_id = %s AND holder = %s "
                "AND until <= now() + make_interval(secs => %s) RETURNING table_id",
                (self.holder, self.address, self.seconds, table_id, holder, self.seconds - silent),
            ).fetchone()
        return row is not None

    def silent_in(self, table_id: str, holder: str, silent: float) -> float | None:
        """Seconds until :meth:`take_from` can take the table's lease from ``holder``
        (0: now); ``None`` if ``holder`` holds it no more (another host took it)."""
        with self.store.one() as conn:
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
        with self.store.one() as conn:
            rows = conn.execute(
                "UPDATE paris_leases SET until = now() + make_interval(secs => %s), "
                "address = %s WHERE holder = %s RETURNING table_id",
                (self.seconds, self.address, self.holder),
            ).fetchall()
        return {str(r[0]) for r in rows}

    def release(self, table_id: str | None = None) -> None:
        """Give back one table's lease, or (``None``) every lease of this host."""
        with self.store.one() as conn:
            if table_id is None:
                conn.execute("DELETE FROM paris_leases WHERE holder = %s", (self.holder,))
            else:
                conn.execute(
                    "DELETE FROM paris_leases WHERE holder = %s AND table_id = %s",
                    (self.holder, table_id),
                )

    def holders(self) -> dict[str, Holder]:
        """The live leases of every host."""
        with self.store.one() as conn:
            rows = conn.execute(
                "SELECT table_id, holder, address FROM paris_leases WHERE until > now()"
            ).fetchall()
        return {str(t): Holder(str(t), str(h), str(a)) for t, h, a in rows}

    def lease_of(self, table_id: str) -> Holder | None:
        """The live lease of one table (a join's look-up: one row, not every one)."""
        with self.store.one() as conn:
            row = conn.execute(
                "SELECT holder, address FROM paris_leases WHERE table_id = %s AND until > now()",
                (table_id,),
            ).fetchone()
        return None if row is None else Holder(table_id, str(row[0]), str(row[1]))

    def unheld(self) -> list[str]:
        """Unfinished tables whose lease is free or run out (a host died)."""
        with self.store.one() as conn:
            rows = conn.execute(
                "SELECT t.table_id FROM paris_tables t LEFT JOIN paris_leases l "
                "USING (table_id) WHERE NOT t.finished AND NOT t.archived "
                "AND (l.until IS NULL OR l.until <= now()) ORDER BY t.number"
            ).fetchall()
        return [str(r[0]) for r in rows]
