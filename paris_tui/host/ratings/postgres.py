"""Ratings in PostgreSQL: the :class:`~paris_tui.host.ratings.store.RatingStore` of ``--database``.

The same rules as :class:`~paris_tui.host.ratings.store.SQLiteRatings`, by the same
code: this class keeps its methods and gives them a PostgreSQL connection
(its statements are written to mean the same in both; ``?`` becomes ``%s``).
Each change is one transaction that first takes a transaction-scoped advisory
lock, so a game finished by two hosts at once (a table that changed hands) is
counted by the first and returned as counted to the second, and two games
sharing a player are rated one after the other, never from the same old rating.
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

from paris_tui.host.ratings.store import RatingsUnavailable, SQLiteRatings

if TYPE_CHECKING:  # pragma: no cover
    from psycopg import Connection
    from psycopg_pool import ConnectionPool

__all__ = ["PostgresRatings"]

_RATINGS_LOCK = 0x726174696E67  # "rating": every rating change, one at a time


def _translate(sql: str) -> str:
    flat = " ".join(sql.split())
    if "%" in flat:  # pragma: no cover - no statement has one
        raise RatingsUnavailable(f"no PostgreSQL form of {flat[:60]!r}")
    return flat.replace("?", "%s")


class _Conn:
    def __init__(self, conn: Connection[Any]) -> None:
        self._conn = conn

    def execute(self, sql: str, args: tuple[Any, ...] = ()) -> Any:
        return self._conn.execute(_translate(sql), args)


def _failed(exc: BaseException) -> RatingsUnavailable:
    line = str(exc).strip().splitlines()
    return RatingsUnavailable(
        f"the ratings store failed: {line[0] if line else type(exc).__name__}"
    )


class PostgresRatings(SQLiteRatings):
    """:class:`~paris_tui.host.ratings.store.RatingStore` in the hosts' shared database
    (its tables are made by :func:`~paris_tui.host.store.postgres.ensure_schema`)."""

    def __init__(self, pool: ConnectionPool) -> None:
        import threading

        self._pool = pool
        self._lock = threading.Lock()  # unused: kept for SQLiteRatings.close
        self.path = None  # type: ignore[assignment]
        self._read("SELECT count(*) FROM ratings")

    @contextlib.contextmanager
    def _tx(self) -> Iterator[Any]:
        import psycopg
        import psycopg_pool

        try:
            with self._pool.connection() as conn, conn.transaction():
                conn.execute("SELECT pg_advisory_xact_lock(%s)", (_RATINGS_LOCK,))
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


_COPIED = (
    ("ratings", ("account", "mu", "sigma", "games", "updated")),
    ("rating_games", ("game", "table_id", "finished", "rated", "result", "names")),
    ("rating_marks", ("table_id", "seat", "state")),
)


def copy_ratings(path: Path, pool: ConnectionPool) -> int:
    """Copy a data directory's ``ratings.sqlite`` into the database (``host migrate``:
    account ids are copied as they are, so the ratings stay their accounts').
    Returns how many accounts have a rating."""
    import sqlite3

    if not path.exists():
        return 0
    source = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        with pool.connection() as conn, conn.transaction():
            for table, columns in _COPIED:
                names = ", ".join(columns)
                marks = ", ".join(["%s"] * len(columns))
                rows = source.execute(f"SELECT {names} FROM {table}").fetchall()
                if rows:
                    with conn.cursor() as cur:
                        cur.executemany(f"INSERT INTO {table} ({names}) VALUES ({marks})", rows)
        count = source.execute("SELECT count(*) FROM ratings").fetchone()
        return int(count[0]) if count else 0
    finally:
        source.close()
