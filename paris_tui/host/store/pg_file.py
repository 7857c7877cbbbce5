"""A store's tables in the hosts' PostgreSQL database, by its SQLite statements.

:class:`PostgresFile` gives a store written for
:class:`~paris_tui.host.store.sqlite_file.SQLiteFile` (the ratings', the
tournaments') the same ``_tx`` and ``_read`` on the database: each statement
flattened and ``?`` made ``%s`` (a statement with a ``%`` of its own is refused),
each change one transaction that first takes the store's transaction-scoped
advisory lock (one change at a time across every host), each failure one line
of the store's own error class. The pool is the table store's: closing the
store leaves it open.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:  # pragma: no cover
    from psycopg import Connection
    from psycopg_pool import ConnectionPool

__all__ = ["PostgresFile", "Translated", "copy_rows"]


def copy_rows(source: Any, conn: Connection[Any], tables: Sequence[Copied]) -> None:
    """Copy each table's columns, row by row as they are (ids kept), from a SQLite file
    (``source``, a ``sqlite3`` connection) into the database, in ``conn``'s transaction
    (``host migrate``)."""
    for table, columns in tables:
        names = ", ".join(columns)
        marks = ", ".join(["%s"] * len(columns))
        rows = source.execute(f"SELECT {names} FROM {table}").fetchall()
        if rows:
            with conn.cursor() as cur:
                cur.executemany(f"INSERT INTO {table} ({names}) VALUES ({marks})", rows)


Copied = tuple[str, tuple[str, ...]]
"""A table copied by :func:`copy_rows`: its name and the columns copied."""


class Translated:
    """A connection that takes SQLite's statements (``?`` marks); ``_conn`` is the
    PostgreSQL connection itself, for a statement of PostgreSQL's own."""

    def __init__(self, conn: Connection[Any], unavailable: type[Exception]) -> None:
        self._conn = conn
        self._unavailable = unavailable

    def execute(self, sql: str, args: tuple[Any, ...] = ()) -> Any:
        return self._conn.execute(translate(sql, self._unavailable), args)


def translate(sql: str, unavailable: type[Exception]) -> str:
    flat = " ".join(sql.split())
    if "%" in flat:  # pragma: no cover - no statement has one
        raise unavailable(f"no PostgreSQL form of {flat[:60]!r}")
    return flat.replace("?", "%s")


class PostgresFile:
    """``_tx`` and ``_read`` of a store on the hosts' database (see the module's doc);
    ``lock``: the store's advisory lock key; ``what``: its name in errors."""

    def __init__(
        self, pool: ConnectionPool, lock: int, unavailable: type[Exception], what: str
    ) -> None:
        self._pool = pool
        self._lock_key = lock
        self._unavailable = unavailable
        self._what = what

    def _failed(self, exc: BaseException) -> Exception:
        line = str(exc).strip().splitlines()
        return self._unavailable(
            f"{self._what} store failed: {line[0] if line else type(exc).__name__}"
        )

    @contextlib.contextmanager
    def _tx(self) -> Iterator[Any]:
        import psycopg
        import psycopg_pool

        try:
            with self._pool.connection() as conn, conn.transaction():
                conn.execute("SELECT pg_advisory_xact_lock(%s)", (self._lock_key,))
                yield Translated(conn, self._unavailable)
        except (psycopg.Error, psycopg_pool.PoolTimeout) as exc:
            raise self._failed(exc) from None

    def _read(self, sql: str, args: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        import psycopg
        import psycopg_pool

        try:
            with self._pool.connection() as conn:
                query = translate(sql, self._unavailable)
                rows: list[tuple[Any, ...]] = conn.execute(query, args).fetchall()
                return rows
        except (psycopg.Error, psycopg_pool.PoolTimeout) as exc:
            raise self._failed(exc) from None

    def close(self) -> None:
        """The pool is the table store's: it closes it."""
