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

from pathlib import Path
from typing import TYPE_CHECKING

from paris_tui.host.ratings.store import RatingsUnavailable, SQLiteRatings
from paris_tui.host.store.pg_file import PostgresFile, copy_rows

if TYPE_CHECKING:  # pragma: no cover
    from psycopg_pool import ConnectionPool

__all__ = ["PostgresRatings"]

_RATINGS_LOCK = 0x726174696E67  # "rating": every rating change, one at a time


class PostgresRatings(PostgresFile, SQLiteRatings):
    """:class:`~paris_tui.host.ratings.store.RatingStore` in the hosts' shared database
    (its tables are made by :func:`~paris_tui.host.store.postgres.ensure_schema`)."""

    def __init__(self, pool: ConnectionPool) -> None:
        PostgresFile.__init__(self, pool, _RATINGS_LOCK, RatingsUnavailable, "the ratings")
        self.path = None  # type: ignore[assignment]
        self._read("SELECT count(*) FROM ratings")


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
            copy_rows(source, conn, _COPIED)
        count = source.execute("SELECT count(*) FROM ratings").fetchone()
        return int(count[0]) if count else 0
    finally:
        source.close()
