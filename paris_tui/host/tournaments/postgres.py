"""Tournaments in PostgreSQL: :class:`~paris_tui.host.tournaments.store.SQLiteTournaments`'
statements on the hosts' database (``?`` becomes ``%s``).

Each change is one transaction that first takes a transaction-scoped advisory
lock, so two hosts pairing the same round (or entering the same account) do
it one after the other: the second finds the round written and is told so.
The tables are made by :func:`~paris_tui.host.store.pg_schema.ensure_schema`
(schema 9).
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from paris_tui.host.tournaments.store import SQLiteTournaments, TournamentsUnavailable

if TYPE_CHECKING:  # pragma: no cover
    from psycopg import Connection
    from psycopg_pool import ConnectionPool

__all__ = ["PostgresTournaments"]

_TOURNAMENTS_LOCK = 0x746F75726E79  # "tourny": every change, one at a time


def _translate(sql: str) -> str:
    flat = " ".join(sql.split())
    if "%" in flat:  # pragma: no cover - no statement has one
        raise TournamentsUnavailable(f"no PostgreSQL form of {flat[:60]!r}")
    return flat.replace("?", "%s")


class _Conn:
    def __init__(self, conn: Connection[Any]) -> None:
        self._conn = conn

    def execute(self, sql: str, args: tuple[Any, ...] = ()) -> Any:
        return self._conn.execute(_translate(sql), args)


def _failed(exc: BaseException) -> TournamentsUnavailable:
    line = str(exc).strip().splitlines()
    return TournamentsUnavailable(
        f"the tournaments store failed: {line[0] if line else type(exc).__name__}"
    )


class PostgresTournaments(SQLiteTournaments):
    """The tournaments in the hosts' shared database."""

    def __init__(self, pool: ConnectionPool) -> None:
        self._pool = pool
        self._lock = threading.Lock()  # unused: kept for SQLiteTournaments.close
        self.path = None  # type: ignore[assignment]
        self._read("SELECT count(*) FROM tournaments")

    @contextlib.contextmanager
    def _tx(self) -> Iterator[Any]:
        import psycopg
        import psycopg_pool

        try:
            with self._pool.connection() as conn, conn.transaction():
                conn.execute("SELECT pg_advisory_xact_lock(%s)", (_TOURNAMENTS_LOCK,))
                yield _Conn(conn)
        except (psycopg.Error, psycopg_pool.PoolTimeout) as exc:
            raise _failed(exc) from None

    def _read(self, sql: str, args: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        import psycopg
        import psycopg_pool

        try:
            with self._pool.connection() as conn:
                rows: list[tuple[Any, ...]] = conn.execute(_translate(sql), args).fetchall()
                return rows
        except (psycopg.Error, psycopg_pool.PoolTimeout) as exc:
            raise _failed(exc) from None

    def close(self) -> None:
        """The pool is the table store's: it closes it."""
