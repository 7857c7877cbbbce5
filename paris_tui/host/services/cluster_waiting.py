"""The tables waiting for players at every host: the cluster's part of them.

A waiting table lives in the memory of the host where it was opened: its seats
are held by connections there, and its game is dealt there. That host holds
its lease from the start (so a join for it at another host is relayed there,
as for any table) and keeps a row of its seats in ``paris_waiting`` for every
host's lobby and for the one-table-per-name rule. The row goes when the game
starts (the table is then an ordinary one) or the table closes.
(:class:`~paris_tui.host.services.cluster.Cluster` is a :class:`WaitingSeats`.)
"""

from __future__ import annotations

import contextlib
import json
import logging
from collections.abc import Sequence
from typing import Any, cast

from paris_tui.host.ports import ClusterHost
from paris_tui.host.services.waiting import WaitingTable
from paris_tui.host.store.lease import Leases
from paris_tui.host.store.postgres import DatabaseUnavailable, PostgresStore
from paris_tui.net.protocol import SEAT_STATUSES, SeatInfo, SeatStatus, TableInfo

__all__ = ["WaitingSeats", "waiting_infos"]

log = logging.getLogger("paris_tui.host.cluster")


class WaitingSeats:
    """The waiting tables' rows and the seats' rows of a cluster member."""

    host: ClusterHost
    store: PostgresStore
    id: str
    leases: Leases

    def acquire(self, table_id: str) -> bool:
        raise NotImplementedError

    def beating(self) -> object:
        raise NotImplementedError

    def publish(self, table: WaitingTable[Any]) -> None:
        """The waiting table's seats, for the other hosts (its lease taken first);
        a name that left its seat sits there no more (paris_seated)."""
        infos = table.seat_infos()
        seats = json.dumps([[s.name, s.kind, s.status] for s in infos])
        present = [s.name for s in infos if s.status == "present"]
        try:
            if self.acquire(table.id):
                self.store.put_waiting(table.id, self.id, seats, present)
        except OSError as exc:
            log.error("table %s: the other hosts cannot list it: %s", table.id, exc)

    def withdraw(self, table_id: str, *, started: bool, players: Sequence[str] = ()) -> None:
        """The waiting table started (its lease kept: the game is here; its
        ``players`` sit at it) or closed (nobody sits at it)."""
        try:
            self.store.drop_waiting(table_id)
            self.store.unseat(table_id, players if started else ())
            if not started:
                self.leases.release(table_id)
        except OSError as exc:
            log.error("table %s: %s", table_id, exc)

    def waiting_infos(self) -> list[TableInfo]:
        """The tables waiting for players at the other hosts (live ones only)."""
        try:
            rows = self.store.waiting_elsewhere(self.id)
        except OSError as exc:
            log.error("%s", exc)
            return []
        return waiting_infos(rows)

    def seat(self, table_id: str, names: Sequence[str], *, replace: Sequence[str] = ()) -> None:
        """``names`` sit at ``table_id`` in the database (a name sits at one
        unfinished table across every host: :meth:`PostgresStore.seat`), the
        table's lease taken first when it is new, so the row counts from its first
        instant (and given back if a name is refused). Raises
        :class:`~paris_tui.host.store.postgres.SeatTaken` or ``OSError``."""
        fresh = table_id not in self.host.rooms and table_id not in self.host.waiting
        if fresh:
            self.beating()  # renewed from now on, even before the host listens
        if fresh and not self.acquire(table_id):
            raise DatabaseUnavailable(f"table {table_id}: its lease cannot be taken")
        try:
            self.store.seat(table_id, self.id, names, replace=replace)
        except BaseException:
            if fresh:
                with contextlib.suppress(OSError):
                    self.leases.release(table_id)
            raise


def waiting_infos(rows: Sequence[tuple[str, str]]) -> list[TableInfo]:
    """The lobby's lines of the tables waiting at other hosts, from their rows
    (table, seats JSON); a row that does not read as seats is left out."""
    infos = []
    for table_id, text in rows:
        try:
            seats = json.loads(text)
            if not isinstance(seats, list):
                continue
            slots = tuple(
                SeatInfo(str(n or ""), str(k), cast(SeatStatus, st))
                for n, k, st in seats
                if st in SEAT_STATUSES
            )
        except (TypeError, ValueError):
            continue
        if len(slots) != len(seats):
            continue
        free = sum(1 for seat in slots if seat.status == "free")
        infos.append(TableInfo(table_id, slots, 0, 0, False, waiting=True, free_seats=free))
    return infos
