"""Tournaments in PostgreSQL: :class:`~paris_tui.host.tournaments.store.SQLiteTournaments`'
statements on the hosts' database (``?`` becomes ``%s``).

Each change is one transaction that first takes a transaction-scoped advisory
lock, so two hosts pairing the same round (or entering the same account) do
it one after the other: the second finds the round written and is told so.
A tournament's rounds are paired and opened by one host at a time: the holder
of its row in ``tournament_leases``, taken and renewed as a table's lease is
(:mod:`paris_tui.host.store.lease`: free or run out on the database's clock,
ours kept; a new ``epoch`` at every change of holder), and the round and each
opened table are written only while that row still holds the host at that
epoch, checked in the same transaction (a host that stalled past its lease
writes nothing). The tables are made by
:func:`~paris_tui.host.store.pg_schema.ensure_schema` (schemas 9 and 10).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any

from paris_tui.host.store.pg_file import PostgresFile, copy_rows
from paris_tui.host.tournaments.store import (
    LEASE_SECONDS,
    Fence,
    SQLiteTournaments,
    TournamentsUnavailable,
)

if TYPE_CHECKING:  # pragma: no cover
    from psycopg_pool import ConnectionPool

__all__ = ["PostgresTournaments", "copy_tournaments"]

_TOURNAMENTS_LOCK = 0x746F75726E79  # "tourny": every change, one at a time


class PostgresTournaments(PostgresFile, SQLiteTournaments):
    """The tournaments in the hosts' shared database."""

    def __init__(self, pool: ConnectionPool) -> None:
        PostgresFile.__init__(
            self, pool, _TOURNAMENTS_LOCK, TournamentsUnavailable, "the tournaments"
        )
        self.path = None  # type: ignore[assignment]
        self._read("SELECT count(*) FROM tournaments")

    def lease(self, tournament: int, holder: str, seconds: float = LEASE_SECONDS) -> Fence | None:
        with self._tx() as db:
            row = db._conn.execute(
                "INSERT INTO tournament_leases (tournament, holder, until, epoch) "
                "VALUES (%s, %s, now() + make_interval(secs => %s), "
                "nextval('paris_lease_epochs')) "
                "ON CONFLICT (tournament) DO UPDATE SET holder = EXCLUDED.holder, "
                "until = EXCLUDED.until, "
                "epoch = CASE WHEN tournament_leases.holder = EXCLUDED.holder "
                "THEN tournament_leases.epoch ELSE EXCLUDED.epoch END "
                "WHERE tournament_leases.until <= now() "
                "OR tournament_leases.holder = EXCLUDED.holder "
                "RETURNING epoch",
                (tournament, holder, float(seconds)),
            ).fetchone()
        return None if row is None else Fence(holder, int(row[0]))

    def release(self, holder: str) -> None:
        with self._tx() as db:
            db.execute("DELETE FROM tournament_leases WHERE holder = ?", (holder,))

    def _fenced(self, db: Any, tournament: int, fence: Fence | None) -> bool:
        if fence is None:
            return True
        row = db._conn.execute(
            "SELECT 1 FROM tournament_leases WHERE tournament = %s AND holder = %s "
            "AND epoch = %s FOR SHARE",
            (tournament, fence.holder, fence.epoch),
        ).fetchone()
        return row is not None


# The tournaments' tables, copied in this order (ids kept: the rest refer to them).
_COPIED = (
    (
        "tournaments",
        (
            "id",
            "name",
            "folded",
            "format",
            "players",
            "rounds",
            "move_time",
            "start",
            "rated",
            "min_games",
            "state",
            "created",
        ),
    ),
    ("tournament_entrants", ("tournament", "account", "name", "rating", "joined", "withdrawn")),
    ("tournament_rounds", ("tournament", "round", "paired")),
    (
        "tournament_tables",
        (
            "tournament",
            "round",
            "table_no",
            "seats",
            "table_id",
            "places",
            "claimed",
            "claim_until",
            "opened",
            "absent",
        ),
    ),
    ("tournament_byes", ("tournament", "round", "account")),
)


def copy_tournaments(path: Path, pool: ConnectionPool) -> int:
    """Copy a data directory's ``tournaments.sqlite`` into the database (``host
    migrate``: ids kept, so entrants stay their accounts and tables their records; a
    file of schema 1 is moved forward first). Returns how many tournaments."""
    import sqlite3

    if not path.exists():
        return 0
    SQLiteTournaments(path).close()  # its schema brought up to date (schema 2's columns)
    source = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        with pool.connection() as conn, conn.transaction():
            copy_rows(source, conn, _COPIED)
            conn.execute(
                "SELECT setval(pg_get_serial_sequence('tournaments', 'id'), "
                "greatest((SELECT max(id) FROM tournaments), 1))"
            )
        count = source.execute("SELECT count(*) FROM tournaments").fetchone()
        return int(count[0]) if count else 0
    finally:
        source.close()
