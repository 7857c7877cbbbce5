"""Reaching the hosts' PostgreSQL: the driver, a bounded pool, and one-line errors.

The pool never hands out a connection the server ended (:func:`hung_up`) and
tries again for a new one every second at most (:func:`_quick_pool`).

The driver (psycopg) is imported only when ``--database`` is given (``pip
install 'paris-tui[postgres]'``); a missing one is one line
(:class:`DriverMissing`). A database that cannot be reached raises
:class:`DatabaseUnavailable` (an ``OSError``, one line, never the password:
:func:`redact`).
"""

from __future__ import annotations

import functools
import logging
import os
import select
import time
from typing import TYPE_CHECKING, Any

from paris_tui.core.text import printable

if TYPE_CHECKING:  # pragma: no cover
    from psycopg_pool import ConnectionPool

__all__ = [
    "ENV_DATABASE",
    "DatabaseUnavailable",
    "DriverMissing",
    "MoveConflict",
    "SchemaTooNew",
    "connect_pool",
    "database_url",
    "redact",
]

ENV_DATABASE = "PARIS_TUI_DATABASE"


class DriverMissing(RuntimeError):
    """psycopg is not installed (one line saying how to install it)."""


class DatabaseUnavailable(OSError):
    """The database cannot be reached or failed (one line, never the password)."""


class SchemaTooNew(DatabaseUnavailable):
    """The database was made by a newer paris-tui."""


class MoveConflict(DatabaseUnavailable):
    """Another referee wrote this move number first: this one does not hold the table."""


def database_url(given: str | None) -> str | None:
    """``--database``, else ``$PARIS_TUI_DATABASE``, else ``None`` (files)."""
    if given:
        return given
    return os.environ.get(ENV_DATABASE) or None


def redact(url: str) -> str:
    """The URL as the log may show it: no password."""
    try:
        from psycopg.conninfo import conninfo_to_dict, make_conninfo
    except ImportError:  # pragma: no cover - the driver is checked first
        return "the database"
    try:
        params = conninfo_to_dict(url)
    except Exception:
        return "the database"
    params.pop("password", None)
    shown = {k: v for k, v in params.items() if k in ("host", "port", "dbname", "user")}
    return printable(make_conninfo("", **{k: str(v) for k, v in shown.items()}))


def _driver() -> Any:
    try:
        import psycopg
        import psycopg_pool
    except ImportError:
        raise DriverMissing(
            "--database needs the PostgreSQL driver: pip install 'paris-tui[postgres]'"
        ) from None
    return psycopg, psycopg_pool


def connect_pool(url: str, *, max_size: int = 4, timeout: float = 10.0) -> ConnectionPool:
    """A bounded pool of connections to ``url`` (opened and checked once)."""
    psycopg, psycopg_pool = _driver()
    # The pool's own warnings (each retry, with the server's whole message) would
    # fill the host's log while a database is away: the host says it once itself.
    logging.getLogger("psycopg.pool").setLevel(logging.ERROR)
    pool: ConnectionPool = _quick_pool(psycopg_pool)(
        url,
        min_size=1,
        max_size=max(1, max_size),
        timeout=timeout,
        # Autocommit: a statement outside tx() is its own transaction, one round trip
        # (no BEGIN before it, no COMMIT or pool ROLLBACK after it); tx() still makes
        # an explicit transaction of several statements.
        kwargs={"connect_timeout": max(1, int(timeout)), "autocommit": True},
        open=False,
        name="paris-tui",
    )
    try:
        pool.open(wait=True, timeout=timeout)
    except (psycopg.Error, psycopg_pool.PoolTimeout) as exc:
        pool.close()
        reason = _refusal(psycopg, url, timeout) or _one_line(exc)
        raise DatabaseUnavailable(f"cannot reach {redact(url)}: {reason}") from None
    return pool


def _refusal(psycopg: Any, url: str, timeout: float) -> str | None:
    """Why one direct connection fails, as the server or libpq said it (a wrong
    password, no such database, a refused port), or ``None`` if it works. The
    pool keeps that reason to itself and says only that it timed out, which
    left an operator guessing."""
    try:
        psycopg.connect(url, connect_timeout=max(1, int(timeout))).close()
    except psycopg.Error as exc:
        reason = _one_line(exc)
        try:
            password = psycopg.conninfo.conninfo_to_dict(url).get("password")
        except psycopg.Error:
            password = None
        if password:
            reason = reason.replace(str(password), "***")
        return reason
    return None


_RECONNECT_FIRST = 0.2  # seconds: the first new try for a connection that broke
_RECONNECT_MOST = 1.0  # and the longest wait between two tries


def hung_up(conn: Any) -> bool:
    """Whether the server ended this idle connection (no round trip): closed or
    broken here, or its socket readable while nothing was asked. A backend
    ended by an outage, a restart or ``pg_terminate_backend`` sends its last
    error and closes the socket; the pool only learns of it when a statement
    fails on it, and it held one such connection for every one it had."""
    if conn.closed or conn.broken:
        return True
    try:
        fd = conn.fileno()
        if hasattr(select, "poll"):  # any descriptor (a busy host's pass 1024)
            poller = select.poll()
            poller.register(fd, select.POLLIN)
            return bool(poller.poll(0))
        readable, _, _ = select.select([fd], [], [], 0)
    except (OSError, ValueError):  # not known: the statement will tell
        return False
    return bool(readable)


@functools.cache
def _quick_pool(psycopg_pool: Any) -> Any:
    """psycopg_pool's ConnectionPool, but one that never hands out a connection
    the server ended, and tries again for a connection every
    :data:`_RECONNECT_MOST` seconds at most while the database is away.

    - A connection ended during an outage (or a restart) sat in the pool until
      a statement used it: after the database was back, each of them cost a
      statement that failed, and a move played then was refused. Each one is
      looked at (:func:`hung_up`) before it is given; the first found ended
      makes the pool drop every other ended one it holds
      (``ConnectionPool.check``), and the caller waits for a new one, within
      its own timeout.
    - The pool's own waits between tries double up to minutes: after an
      outage of 8 s its first new connection came up to 7 s after the
      database was back, and its hosts' tables stood still meanwhile."""
    base = getattr(psycopg_pool, "base", None)
    attempt_type = getattr(base, "AttemptWithBackoff", None)
    pool_type = psycopg_pool.ConnectionPool
    quick_retries = attempt_type is not None and hasattr(pool_type, "_add_connection")

    if quick_retries:

        class QuickAttempt(attempt_type):  # type: ignore[misc, valid-type]
            INITIAL_DELAY = _RECONNECT_FIRST
            delay: float

            def update_delay(self, now: float) -> None:
                super().update_delay(now)
                self.delay = min(self.delay, _RECONNECT_MOST)

    class QuickPool(pool_type):  # type: ignore[misc, valid-type]
        def getconn(self, timeout: float | None = None) -> Any:
            if timeout is None:
                timeout = self.timeout
            deadline = time.monotonic() + timeout
            swept = False
            # Each ended connection is closed and given back (the pool makes a
            # new one for it); one pass of every connection the pool can hold.
            for _ in range(self.max_size + 1):
                conn = super().getconn(max(deadline - time.monotonic(), 0.001))
                if not hung_up(conn):
                    return conn
                conn.close()
                self.putconn(conn)
                if not swept:  # its fellows ended with it: out now, not one statement each
                    swept = True
                    self.check()
            return super().getconn(max(deadline - time.monotonic(), 0.001))

        if quick_retries:

            def _add_connection(self, attempt: Any, growing: bool = False) -> None:
                if attempt is None:
                    attempt = QuickAttempt(timeout=self.reconnect_timeout)
                super()._add_connection(attempt, growing)

    return QuickPool


def _one_line(exc: BaseException) -> str:
    text = str(exc).strip().splitlines()
    return printable(text[0] if text else type(exc).__name__)[:300]
