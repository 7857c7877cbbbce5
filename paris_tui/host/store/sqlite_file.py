"""One SQLite file of the host's (the accounts, the ratings, the tournaments): opened
the same way.

WAL and ``synchronous = FULL`` (nothing acknowledged is lost on kill -9), mode
0600 when made, the schema made or moved forward in one transaction under
``PRAGMA user_version``, and a newer schema refused with one line.

:class:`SQLiteFile` is the plumbing of a store kept so (the ratings', the
tournaments'): one connection behind a lock, a transaction per change
(``_tx``), reads (``_read``), every failure one error of the store's own
class; its PostgreSQL twin, with the same two methods on the hosts'
database, is :class:`~paris_tui.host.store.pg_file.PostgresFile`.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from paris_tui.core.text import printable

__all__ = ["SQLiteFile", "open_sqlite"]


def open_sqlite(
    path: Path,
    schema: str,
    version: int,
    unavailable: type[Exception],
    what: str,
    *,
    foreign_keys: bool = False,
    check: str | None = None,
) -> sqlite3.Connection:
    """``path`` opened (one connection for several threads, behind the caller's lock)
    with ``schema`` at ``version``; ``check``, a statement run last to see the file
    is readable. Every failure is ``unavailable`` with one line naming ``what``."""
    where = printable(str(path))
    try:
        new = not path.exists()
        db = sqlite3.connect(path, timeout=5.0, isolation_level=None, check_same_thread=False)
        if new:
            with contextlib.suppress(OSError):
                os.chmod(path, 0o600)
        if foreign_keys:
            db.execute("PRAGMA foreign_keys = ON")
        db.execute("PRAGMA journal_mode = WAL")
        db.execute("PRAGMA synchronous = FULL")
        found = int(db.execute("PRAGMA user_version").fetchone()[0])
        if found > version:
            raise unavailable(
                f"{where} is of a newer paris-tui (schema {found}): upgrade paris-tui"
            )
        db.executescript("BEGIN;" + schema + f"PRAGMA user_version = {version};COMMIT;")
        if check is not None:
            db.execute(check).fetchone()
    except sqlite3.Error as exc:
        raise unavailable(f"cannot read {what} {where}: {exc}") from None
    return db


class SQLiteFile:
    """A store in one SQLite file (``what``: its name in errors, "the ratings"): one
    connection for several threads behind a lock, one transaction per change, each
    failure ``unavailable`` ("the ratings store failed: ..."). Its statements are
    written to be PostgreSQL's too (``?`` becomes ``%s``)."""

    def __init__(
        self,
        path: Path,
        schema: str,
        version: int,
        unavailable: type[Exception],
        what: str,
    ) -> None:
        self.path = Path(path)
        self._unavailable = unavailable
        self._what = what
        self._lock = threading.Lock()
        self._db = open_sqlite(self.path, schema, version, unavailable, what)

    def _failed(self, exc: BaseException) -> Exception:
        return self._unavailable(f"{self._what} store failed: {exc}")

    @contextlib.contextmanager
    def _tx(self) -> Iterator[Any]:
        """One transaction (``BEGIN IMMEDIATE``: the writer's lock from its start)."""
        with self._lock:
            try:
                self._db.execute("BEGIN IMMEDIATE")
                try:
                    yield self._db
                except BaseException:
                    self._db.execute("ROLLBACK")
                    raise
                self._db.execute("COMMIT")
            except sqlite3.Error as exc:
                raise self._failed(exc) from None

    def _read(self, sql: str, args: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        with self._lock:
            try:
                return self._db.execute(sql, args).fetchall()
            except sqlite3.Error as exc:
                raise self._failed(exc) from None

    def close(self) -> None:
        with self._lock, contextlib.suppress(sqlite3.Error):
            self._db.close()
