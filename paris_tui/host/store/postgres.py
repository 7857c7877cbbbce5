"""Tables in PostgreSQL: the :class:`~.files.TableStore` of ``host --database``.

Several hosts share one database. A table is a row of ``paris_tables`` (its
record without its moves, as the record's own JSON text: key order kept, so a
record read back is the one that went in) and each move is its own row of
``paris_moves``, whose primary key ``(table_id, move_no)`` is the refusal of a
second writer: two referees that both believe they hold a table can never
both write move *n* (the second gets :class:`MoveConflict`). A move's row is
committed before anyone hears of the move.

The schema is :mod:`~paris_tui.host.store.pg_schema`'s (versioned, moved
forward at start); reaching the database, the driver and the one-line
errors are :mod:`~paris_tui.host.store.pg_connect`'s (their names are
importable from here too). Every query is parameterised. Connections come
from one bounded ``psycopg_pool.ConnectionPool`` per host (the host's I/O
threads use it).
"""

from __future__ import annotations

import contextlib
import json
import logging
import os
from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, Any, Protocol

from paris_tui.core import RecordError
from paris_tui.core.record import Record, parse_record
from paris_tui.host.store.pg_connect import (
    ENV_DATABASE,
    DatabaseUnavailable,
    DriverMissing,
    MoveConflict,
    SchemaTooNew,
    _driver,
    _one_line,
    connect_pool,
    database_url,
    redact,
)
from paris_tui.host.store.pg_schema import SCHEMA_VERSION, ensure_schema, fill_seated, seat_keys

if TYPE_CHECKING:  # pragma: no cover
    from psycopg import Connection
    from psycopg_pool import ConnectionPool

    from paris_tui.host.store.files import Saved

__all__ = [
    "ENV_DATABASE",
    "SCHEMA_VERSION",
    "DatabaseUnavailable",
    "DriverMissing",
    "Fencing",
    "MoveConflict",
    "PostgresStore",
    "SchemaTooNew",
    "SeatTaken",
    "connect_pool",
    "database_url",
    "ensure_schema",
    "redact",
]

log = logging.getLogger("paris_tui.host.pgstore")

# The advisory locks' first key (of two) under which a name's seat is checked and
# written (PostgresStore.seat): "pars".
_SEAT_LOCK = 0x70617273
# Whether paris_seated's row ``s`` still holds its name (see PostgresStore.seat).
_SEATED_LIVE = (
    "(EXISTS (SELECT 1 FROM paris_tables t WHERE t.table_id = s.table_id "
    "AND NOT t.finished AND NOT t.archived) "
    "OR (NOT EXISTS (SELECT 1 FROM paris_tables t WHERE t.table_id = s.table_id) "
    "AND EXISTS (SELECT 1 FROM paris_leases l WHERE l.table_id = s.table_id "
    "AND l.holder = s.holder AND l.until > now())))"
)


class Fencing(Protocol):
    """Whose leases this store's referee writes are checked against
    (:class:`~paris_tui.host.store.lease.Leases`)."""

    holder: str

    def epoch_of(self, table_id: str) -> int | None: ...


# The fencing check of a referee's write: the table's lease row, share-locked,
# while it holds this host and the epoch it took (no row: the write is refused).
# The share lock makes a takeover's UPDATE of the row wait for the write's
# commit (so the new referee reads the move), and a write that waited for a
# takeover's commit re-reads the row and finds another holder.
FENCE = (
    "SELECT table_id FROM paris_leases WHERE table_id = %s AND holder = %s AND epoch = %s FOR SHARE"
)


# A move's row (unchecked, or fenced), then (the last move) its players' names
# freed, then the table touched; the count of rows written: 1, or 0 when refused.
_APPEND = "WITH m AS (INSERT INTO paris_moves (table_id, move_no, move) VALUES (%s, %s, %s) "
_APPEND_FENCED = (
    "WITH m AS (INSERT INTO paris_moves (table_id, move_no, move) "
    "SELECT table_id, %s, %s FROM (" + FENCE + ") AS l "
)
_APPEND_OVER = (
    "RETURNING table_id), d AS (DELETE FROM paris_seated WHERE table_id = (SELECT table_id FROM m) "
)
_APPEND_END = (
    "RETURNING table_id), u AS (UPDATE paris_tables SET touched = now(), finished = %s "
    "WHERE table_id = (SELECT table_id FROM m)) SELECT count(*) FROM m"
)


class SeatTaken(Exception):
    """A name (or one that looks like it) sits at another table (``started``: a game)."""

    def __init__(self, name: str, table_id: str, started: bool) -> None:
        super().__init__(name, table_id, started)
        self.name, self.table_id, self.started = name, table_id, started


def _header(record_json: dict[str, Any]) -> str:
    """The record's JSON text without its moves (``"moves": []`` kept in its place)."""
    data = dict(record_json)
    data["moves"] = []
    text = json.dumps(data, ensure_ascii=False)
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:  # a lone surrogate in an extra: kept, escaped
        text = json.dumps(data)
    return text


def record_data(header: str, moves: list[str]) -> dict[str, Any]:
    """The record's JSON object from its header and its moves' rows."""
    data: dict[str, Any] = json.loads(header)
    data["moves"] = [json.loads(m) for m in moves]
    return data


def record_text(data: dict[str, Any]) -> str:
    """The record as the host's file would hold it (one line, as Referee.record_text)."""
    text = json.dumps(data, ensure_ascii=False)
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        text = json.dumps(data)
    return text + "\n"


class PostgresStore:
    """The tables of every host on one database (:class:`~.files.TableStore`)."""

    def __init__(self, url: str, *, pool_size: int = 4) -> None:
        self.url = url
        self.pool_size = pool_size
        self.where = "database"
        self._pool: ConnectionPool | None = None
        # The leases a referee's writes are checked against (set by the host's
        # Cluster); ``None``: unchecked (``host migrate``, tools).
        self.fencing: Fencing | None = None

    # --- plumbing -------------------------------------------------------------------

    def open(self) -> None:
        """Connect (a bounded pool) and make or check the schema. Raises
        :class:`DriverMissing` or :class:`DatabaseUnavailable`."""
        if self._pool is not None:
            return
        pool = connect_pool(self.url, max_size=self.pool_size)
        try:
            ensure_schema(pool)
        except BaseException:
            pool.close()
            raise
        self._pool = pool
        self.where = redact(self.url)

    @property
    def pool(self) -> ConnectionPool:
        if self._pool is None:
            raise DatabaseUnavailable("the database is not open")
        return self._pool

    def close(self) -> None:
        if self._pool is not None:
            self._pool.close()
            self._pool = None

    @contextlib.contextmanager
    def tx(self) -> Iterator[Connection[Any]]:
        """A connection in a transaction (committed at the end of the block)."""
        psycopg, psycopg_pool = _driver()
        try:
            with self.pool.connection() as conn, conn.transaction():
                yield conn
        except psycopg.errors.UniqueViolation:
            raise
        except (psycopg.Error, psycopg_pool.PoolTimeout) as exc:
            raise DatabaseUnavailable(f"the database failed: {_one_line(exc)}") from None

    def check(self) -> None:
        """Drop the pool's connections that broke (the database went away): the
        next statements get new ones as soon as it is back."""
        self.pool.check()

    @contextlib.contextmanager
    def one(self, timeout: float | None = None) -> Iterator[Connection[Any]]:
        """A connection for ONE statement, its own transaction (autocommit): one
        round trip to the database instead of tx()'s three (BEGIN, it, COMMIT).
        ``timeout``: how long to wait for a free connection (the pool's else)."""
        psycopg, psycopg_pool = _driver()
        try:
            with self.pool.connection(timeout=timeout) as conn:
                yield conn
        except psycopg.errors.UniqueViolation:
            raise
        except (psycopg.Error, psycopg_pool.PoolTimeout) as exc:
            raise DatabaseUnavailable(f"the database failed: {_one_line(exc)}") from None

    # --- tables ---------------------------------------------------------------------

    def table_ids(self) -> list[str]:
        with self.one() as conn:
            rows = conn.execute(
                "SELECT table_id FROM paris_tables WHERE NOT archived ORDER BY number"
            ).fetchall()
        return [str(r[0]) for r in rows]

    def new_table_id(self) -> str:
        """A table id no host has used (the database's sequence)."""
        with self.one() as conn:
            row = conn.execute("SELECT nextval('paris_table_numbers')").fetchone()
        assert row is not None
        return f"t{int(row[0])}"

    def load_tables(
        self, *, unfinished: bool = False
    ) -> tuple[list[tuple[str, Record]], list[tuple[str, str]]]:
        """Every table's record (``unfinished``: only those whose game goes on), and
        the tables that could not be read."""
        where = "WHERE NOT t.archived" + (" AND NOT t.finished" if unfinished else "")
        with self.tx() as conn:
            heads = conn.execute(
                f"SELECT t.table_id, t.header FROM paris_tables t {where} ORDER BY t.number"
            ).fetchall()
            rows = conn.execute(
                "SELECT m.table_id, m.move FROM paris_moves m JOIN paris_tables t "
                f"USING (table_id) {where} ORDER BY m.table_id, m.move_no"
            ).fetchall()
        moves: dict[str, list[str]] = {}
        for table_id, move in rows:
            moves.setdefault(str(table_id), []).append(str(move))
        tables: list[tuple[str, Record]] = []
        problems: list[tuple[str, str]] = []
        for table_id, header in heads:
            try:
                record = parse_record(record_data(str(header), moves.get(str(table_id), [])))
            except (RecordError, ValueError) as exc:
                problems.append((f"table {table_id}", str(exc)))
                continue
            tables.append((str(table_id), record))
        return tables, problems

    def _moves(self, conn: Connection[Any], table_id: str) -> tuple[str, list[str]] | None:
        head = conn.execute(
            "SELECT header FROM paris_tables WHERE table_id = %s", (table_id,)
        ).fetchone()
        if head is None:
            return None
        rows = conn.execute(
            "SELECT move FROM paris_moves WHERE table_id = %s ORDER BY move_no", (table_id,)
        ).fetchall()
        return str(head[0]), [str(r[0]) for r in rows]

    def record_text(self, table_id: str) -> str | None:
        """The table's record as the host's file would hold it, ``None`` if there is none."""
        with self.tx() as conn:
            found = self._moves(conn, table_id)
        return None if found is None else record_text(record_data(*found))

    def load_record(self, table_id: str) -> Record | None:
        with self.tx() as conn:
            found = self._moves(conn, table_id)
        return None if found is None else parse_record(record_data(*found))

    def move_count(self, table_id: str) -> int:
        with self.one() as conn:
            row = conn.execute(
                "SELECT count(*) FROM paris_moves WHERE table_id = %s", (table_id,)
            ).fetchone()
        return int(row[0]) if row else 0

    def put_record(self, table_id: str, data: dict[str, Any], *, finished: bool = False) -> None:
        """A whole record in one transaction (a new table, or ``host migrate``).
        Raises :class:`MoveConflict` when the table is there already."""
        psycopg, _pool = _driver()
        number = int(table_id[1:])
        try:
            with self.tx() as conn:
                conn.execute(
                    "INSERT INTO paris_tables (table_id, number, header, finished) "
                    "VALUES (%s, %s, %s, %s)",
                    (table_id, number, _header(data), finished),
                )
                moves = [json.dumps(m, ensure_ascii=False) for m in data.get("moves", [])]
                with conn.cursor() as cur:
                    cur.executemany(
                        "INSERT INTO paris_moves (table_id, move_no, move) VALUES (%s, %s, %s)",
                        [(table_id, i, m) for i, m in enumerate(moves, 1)],
                    )
                # Ids stay unique past those moved in.
                conn.execute(
                    "SELECT setval('paris_table_numbers', "
                    "greatest(%s, (SELECT last_value FROM paris_table_numbers)))",
                    (number,),
                )
        except psycopg.errors.UniqueViolation:
            raise MoveConflict(f"table {table_id} is in the database already") from None

    def create(self, ref: Saved) -> None:
        """A new table's first record."""
        self.put_record(ref.table_id, ref.record_json(), finished=ref.is_over)

    def fence(self, table_id: str) -> tuple[str, int] | None:
        """(holder, epoch) a referee's write for ``table_id`` is checked against;
        ``None``: unchecked. Raises :class:`MoveConflict` when this host never held
        the table's lease (it referees it nowhere)."""
        fencing = self.fencing
        if fencing is None:
            return None
        epoch = fencing.epoch_of(table_id)
        if epoch is None:
            raise MoveConflict(f"table {table_id}: this host does not hold its lease")
        return fencing.holder, epoch

    def append(self, ref: Saved) -> None:
        """The referee's last move, committed as its own row before anyone is told,
        only while this host holds the table's lease (:data:`FENCE`).
        Raises :class:`MoveConflict` when another referee wrote that move number,
        or another host holds the table's lease now."""
        psycopg, _pool = _driver()
        data = ref.record_json()
        move_no = len(data["moves"])
        move = json.dumps(data["moves"][-1], ensure_ascii=False)
        fence = self.fence(ref.table_id)
        # One statement, so one transaction in one round trip: the lease checked,
        # the move's row and the table touched, all or nothing (the row's key
        # refuses a second move n, and then nothing is written). The last move
        # frees its players' names too (paris_seated), in it.
        args: tuple[object, ...]
        if fence is None:
            sql, args = _APPEND, (ref.table_id, move_no, move)
        else:
            sql, args = _APPEND_FENCED, (move_no, move, ref.table_id, *fence)
        if ref.is_over:
            sql += _APPEND_OVER
        try:
            with self.one() as conn:
                row = conn.execute(sql + _APPEND_END, (*args, ref.is_over)).fetchone()
        except psycopg.errors.UniqueViolation:
            raise MoveConflict(
                f"table {ref.table_id}: move {move_no} was written by another host"
            ) from None
        if row is None or int(row[0]) != 1:
            raise MoveConflict(
                f"table {ref.table_id}: move {move_no} refused, another host holds its lease"
            )

    def save(self, ref: Saved) -> None:
        """The table's header again (its moves are in the database once made): what
        the host noted of it since (its opener, so a restart still counts it
        against the opener's quota and archives it once abandoned); a game ended
        without a move (every player agreed to abort it) is finished from then on."""
        with self.one() as conn:
            conn.execute(
                "UPDATE paris_tables SET header = %s, finished = finished OR %s "
                "WHERE table_id = %s",
                (_header(ref.record_json()), ref.is_over, ref.table_id),
            )

    def touched(self, table_id: str) -> float:
        """When the table last moved (the database's clock, seconds since the epoch)."""
        with self.one() as conn:
            row = conn.execute(
                "SELECT extract(epoch FROM touched) FROM paris_tables WHERE table_id = %s",
                (table_id,),
            ).fetchone()
        return float(row[0]) if row else 0.0

    def archive(self, table_id: str) -> None:
        """Out of the lobby, the caps and the takeovers, still a record to read."""
        with self.tx() as conn:
            conn.execute("UPDATE paris_tables SET archived = true WHERE table_id = %s", (table_id,))
            conn.execute("DELETE FROM paris_seated WHERE table_id = %s", (table_id,))

    def archived_where(self, table_id: str) -> str:
        return f"table {table_id} of {self.where}, archived"

    def is_archived(self, table_id: str) -> bool:
        with self.one() as conn:
            row = conn.execute(
                "SELECT archived FROM paris_tables WHERE table_id = %s", (table_id,)
            ).fetchone()
        return bool(row and row[0])

    # --- a name at one unfinished table, across hosts (paris_seated) ----------------

    def seat(
        self, table_id: str, holder: str, names: Sequence[str], *, replace: Sequence[str] = ()
    ) -> None:
        """``names`` sit at ``table_id`` (a real-time table whose lease ``holder``
        holds already), all or none, in one transaction: raises :class:`SeatTaken`
        for the first name (or look-alike) that sits at another table whose game
        goes on, or waits at a table its live host leases. A row of ``table_id``
        itself, of a table in ``replace`` (the one the name leaves, or one whose
        holder knows it is out of date) or a dead one is taken over.

        Check and write hold each key's transaction-scoped advisory lock, taken
        first (in key order: no deadlock between two tables of several names):
        two hosts seating one name at the same instant run one after the other,
        and the second's read (a statement begun after the first committed) sees
        the first's row and its lease. The primary key stays the last word.
        Raises ``OSError`` (the database)."""
        keyed: dict[str, str] = {}
        for name in names:
            for key in seat_keys(name):
                keyed.setdefault(key, name)
        keys = sorted(keyed)
        with self.tx() as conn:
            for key in keys:
                conn.execute("SELECT pg_advisory_xact_lock(%s, hashtext(%s))", (_SEAT_LOCK, key))
            rows = conn.execute(
                "SELECT s.key, s.name, s.table_id, EXISTS (SELECT 1 FROM paris_tables t "
                f"WHERE t.table_id = s.table_id), {_SEATED_LIVE} FROM paris_seated s "
                "WHERE s.key = ANY(%s)",
                (keys,),
            ).fetchall()
            taken = {str(r[0]): r for r in rows}
            for key in keys:  # the names in order: the first clash is the one said
                row = taken.get(key)
                if row is None or not row[4] or str(row[2]) == table_id or str(row[2]) in replace:
                    continue
                raise SeatTaken(str(row[1]), str(row[2]), bool(row[3]))
            conn.execute(
                "INSERT INTO paris_seated (key, name, table_id, holder) "
                "SELECT k, n, %s, %s FROM unnest(%s::text[], %s::text[]) AS u(k, n) "
                "ON CONFLICT (key) DO UPDATE SET name = EXCLUDED.name, "
                "table_id = EXCLUDED.table_id, holder = EXCLUDED.holder, since = now()",
                (table_id, holder, keys, [keyed[k] for k in keys]),
            )

    def unseat(self, table_id: str, keep: Sequence[str] = ()) -> None:
        """The names that sat at ``table_id`` (all, or all but ``keep``) sit there no more."""
        with self.one() as conn:
            conn.execute(
                "DELETE FROM paris_seated WHERE table_id = %s AND NOT (name = ANY(%s))",
                (table_id, list(keep)),
            )

    def seated(self) -> list[tuple[str, str]]:
        """(name, table) of every name paris_seated holds, live or not (tests, tools)."""
        with self.one() as conn:
            rows = conn.execute(
                "SELECT DISTINCT name, table_id FROM paris_seated ORDER BY table_id, name"
            ).fetchall()
        return [(str(n), str(t)) for n, t in rows]

    def fill_seated(self) -> int:
        """paris_seated's rows for the unfinished tables (``host migrate``)."""
        with self.tx() as conn:
            return fill_seated(conn)

    # --- friends here at any host (paris_presence) ----------------------------------

    def put_presence(self, holder: str, accounts: Sequence[int], seconds: float) -> None:
        """The accounts here at ``holder`` now (and for ``seconds``), its other rows gone."""
        with self.tx() as conn:
            conn.execute(
                "DELETE FROM paris_presence WHERE holder = %s AND NOT (account = ANY(%s))",
                (holder, list(accounts)),
            )
            if accounts:
                conn.execute(
                    "INSERT INTO paris_presence (account, holder, until) "
                    "SELECT a, %s, now() + make_interval(secs => %s) "
                    "FROM unnest(%s::bigint[]) AS u(a) ON CONFLICT (account, holder) "
                    "DO UPDATE SET until = EXCLUDED.until",
                    (holder, seconds, list(accounts)),
                )

    def present(self, accounts: Sequence[int], holder: str) -> set[int]:
        """Which of ``accounts`` are here at a live host other than ``holder``."""
        if not accounts:
            return set()
        with self.one() as conn:
            rows = conn.execute(
                "SELECT DISTINCT account FROM paris_presence WHERE account = ANY(%s) "
                "AND holder <> %s AND until > now()",
                (list(accounts), holder),
            ).fetchall()
        return {int(r[0]) for r in rows}

    # --- tables waiting for players (listed for every host) ------------------------

    def put_waiting(
        self, table_id: str, holder: str, seats: str, present: Sequence[str] | None = None
    ) -> None:
        """The waiting table's row; ``present``: the names that hold its seats, and
        no other name sits at it in paris_seated (one transaction)."""
        with self.tx() if present is not None else self.one() as conn:
            conn.execute(
                "INSERT INTO paris_waiting (table_id, holder, seats) VALUES (%s, %s, %s) "
                "ON CONFLICT (table_id) DO UPDATE SET holder = EXCLUDED.holder, "
                "seats = EXCLUDED.seats",
                (table_id, holder, seats),
            )
            if present is not None:
                conn.execute(
                    "DELETE FROM paris_seated WHERE table_id = %s AND NOT (name = ANY(%s))",
                    (table_id, list(present)),
                )

    def drop_waiting(
        self, table_id: str | None = None, *, holder: str | None = None, stale: bool = False
    ) -> None:
        """One waiting table's row, or (``holder``) every row of that host, or
        (``stale``) the rows of hosts that died (no live lease of theirs)."""
        with self.one() as conn:
            if table_id is not None:
                conn.execute("DELETE FROM paris_waiting WHERE table_id = %s", (table_id,))
            elif stale:
                conn.execute(
                    "DELETE FROM paris_waiting w WHERE NOT EXISTS (SELECT 1 FROM paris_leases l "
                    "WHERE l.table_id = w.table_id AND l.holder = w.holder AND l.until > now())"
                )
                conn.execute(f"DELETE FROM paris_seated s WHERE NOT {_SEATED_LIVE}")
            else:
                conn.execute("DELETE FROM paris_waiting WHERE holder = %s", (holder,))

    def waiting_elsewhere(self, holder: str) -> list[tuple[str, str]]:
        """(table, seats JSON) of the tables waiting at live hosts other than ``holder``:
        a row counts only while its host holds the table's lease (a host that died
        leaves rows that nobody lists)."""
        with self.one() as conn:
            rows = conn.execute(
                "SELECT w.table_id, w.seats FROM paris_waiting w JOIN paris_leases l "
                "ON l.table_id = w.table_id AND l.holder = w.holder "
                "WHERE l.until > now() AND w.holder <> %s "
                "AND NOT EXISTS (SELECT 1 FROM paris_tables t WHERE t.table_id = w.table_id)",
                (holder,),
            ).fetchall()
        return [(str(t), str(s)) for t, s in rows]

    # --- the relay's secret: what proves a peer host ----------------------------------

    def relay_secret(self) -> bytes:
        """The secret every host on this database shares (made once, at random)."""
        with self.tx() as conn:
            conn.execute(
                "INSERT INTO meta (key, value) VALUES ('cluster:relay_secret', %s) "
                "ON CONFLICT (key) DO NOTHING",
                (os.urandom(32).hex(),),
            )
            row = conn.execute(
                "SELECT value FROM meta WHERE key = 'cluster:relay_secret'"
            ).fetchone()
        assert row is not None
        return bytes.fromhex(str(row[0]))

    # --- seat files of earlier versions: none in a database ---------------------------

    def load_seats(self, table_id: str) -> dict[int, str]:
        return {}

    def retire_seats(self, table_id: str) -> None:
        return None
