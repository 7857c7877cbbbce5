"""Accounts in PostgreSQL: the :class:`~.store.AccountStore` of ``--database``.

The same rules as :class:`~paris_tui.host.accounts.store.SQLiteAccounts`, by the same
code: this class keeps its methods and gives them a PostgreSQL connection
instead of SQLite's. Its statements are translated once (``?`` becomes
``%s``, SQLite's ``INSERT OR REPLACE`` an ``ON CONFLICT ... DO UPDATE``, the
new account's id comes back with ``RETURNING``); every one stays
parameterised. Each change is one transaction that first takes a
transaction-scoped advisory lock, so the "look, then write" steps (a name's
look-alikes, a seat's claim, a credential's bound) hold across every host on
the database; reads take no lock. Transaction-scoped locks end with their
transaction, so they are safe on pooled connections.
"""

from __future__ import annotations

import contextlib
import sqlite3
import threading
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from paris_tui.host.accounts.store import AccountsUnavailable, SQLiteAccounts

if TYPE_CHECKING:  # pragma: no cover
    from psycopg import Connection, Cursor
    from psycopg_pool import ConnectionPool

__all__ = ["PostgresAccounts"]

_ACCOUNTS_LOCK = 0x6163636F756E74  # "account": every account change, one at a time

# SQLite's statements that PostgreSQL says otherwise (the rest only change ? to %s).
_DIALECT = {
    "INSERT INTO accounts (name, folded, skeleton, locked, created) VALUES (?, ?, ?, 0, ?)": (
        "INSERT INTO accounts (name, folded, skeleton, locked, created) "
        "VALUES (%s, %s, %s, 0, %s) RETURNING id"
    ),
    "INSERT OR REPLACE INTO codes (account, digest, expires) VALUES (?, ?, ?)": (
        "INSERT INTO codes (account, digest, expires) VALUES (%s, %s, %s) "
        "ON CONFLICT (account) DO UPDATE SET digest = EXCLUDED.digest, "
        "expires = EXCLUDED.expires"
    ),
    "INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)": (
        "INSERT INTO meta (key, value) VALUES (%s, %s) "
        "ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value"
    ),
}


def _translate(sql: str) -> str:
    flat = " ".join(sql.split())
    if flat in _DIALECT:
        return _DIALECT[flat]
    if "INSERT OR" in flat or "PRAGMA" in flat or "%" in flat:
        raise AccountsUnavailable(f"no PostgreSQL form of {flat[:60]!r}")  # pragma: no cover
    return flat.replace("?", "%s")


class _Result:
    """A cursor as SQLite's code reads it (``fetchone``, ``fetchall``, ``rowcount``,
    ``lastrowid``)."""

    def __init__(self, cur: Cursor[Any], returning: bool) -> None:
        self._cur = cur
        self.rowcount = cur.rowcount
        self.lastrowid: int | None = None
        if returning:
            row = cur.fetchone()
            self.lastrowid = None if row is None else int(row[0])

    def fetchone(self) -> Any:
        return self._cur.fetchone()

    def fetchall(self) -> list[Any]:
        return self._cur.fetchall()


class _Conn:
    def __init__(self, conn: Connection[Any]) -> None:
        self._conn = conn

    def execute(self, sql: str, args: tuple[Any, ...] = ()) -> _Result:
        text = _translate(sql)
        return _Result(self._conn.execute(text, args), text.endswith("RETURNING id"))


class PostgresAccounts(SQLiteAccounts):
    """:class:`~paris_tui.host.accounts.store.AccountStore` in the hosts' shared database
    (its tables are made by :func:`~paris_tui.host.store.postgres.ensure_schema`)."""

    def __init__(self, pool: ConnectionPool) -> None:
        self._pool = pool
        self._lock = threading.Lock()  # unused: kept for SQLiteAccounts.close
        # One change at a time from this host: every change waits for the one advisory
        # lock anyway, and a change waiting for it holds a pooled connection that the
        # moves and the reads would wait for (a burst of joins took all four).
        self._writing = threading.RLock()
        self.path = None  # type: ignore[assignment]
        self._read("SELECT count(*) FROM accounts")

    @contextlib.contextmanager
    def _tx(self) -> Iterator[sqlite3.Connection]:
        import psycopg
        import psycopg_pool

        try:
            with self._writing, self._pool.connection() as conn, conn.transaction():
                conn.execute("SELECT pg_advisory_xact_lock(%s)", (_ACCOUNTS_LOCK,))
                yield _Conn(conn)  # type: ignore[misc]
        except psycopg.errors.IntegrityError as exc:
            # As SQLite says it: the shared methods turn it into their AccountError.
            raise sqlite3.IntegrityError(str(exc).splitlines()[0] if str(exc) else "") from None
        except (psycopg.Error, psycopg_pool.PoolTimeout) as exc:
            line = str(exc).strip().splitlines()
            raise AccountsUnavailable(
                f"the accounts store failed: {line[0] if line else type(exc).__name__}"
            ) from None

    def _read(self, sql: str, args: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        import psycopg
        import psycopg_pool

        try:
            with self._pool.connection() as conn:
                rows: list[tuple[Any, ...]] = conn.execute(_translate(sql), args).fetchall()
                return rows
        except (psycopg.Error, psycopg_pool.PoolTimeout) as exc:
            line = str(exc).strip().splitlines()
            raise AccountsUnavailable(
                f"the accounts store failed: {line[0] if line else type(exc).__name__}"
            ) from None

    def close(self) -> None:
        """The pool is the table store's: it closes it."""
