"""One SQLite file of the host's (the accounts, the ratings): opened the same way.

WAL and ``synchronous = FULL`` (nothing acknowledged is lost on kill -9), mode
0600 when made, the schema made or moved forward in one transaction under
``PRAGMA user_version``, and a newer schema refused with one line.
"""

from __future__ import annotations

import contextlib
import os
import sqlite3
from pathlib import Path

from paris_tui.core.text import printable

__all__ = ["open_sqlite"]


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
