"""The hosts' database schema: its tables, its version, and moving it forward.

:data:`SCHEMA` is every table of ``host --database`` (the tables and their
moves, the leases, the accounts, the ratings, the turn clocks, the chat,
the names seated across hosts, who is here), each ``CREATE ... IF NOT
EXISTS``; :func:`ensure_schema` runs it at a host's start, one host at a time
(under a transaction's advisory lock), and refuses a database of a newer
paris-tui (:class:`~paris_tui.host.store.pg_connect.SchemaTooNew`).
"""

from __future__ import annotations

import json
import logging
import re
from typing import TYPE_CHECKING, Any

from paris_tui.host.accounts.names import folded, skeleton
from paris_tui.host.store.pg_connect import DatabaseUnavailable, SchemaTooNew, _driver, _one_line
from paris_tui.net.turns import is_turn_based

if TYPE_CHECKING:  # pragma: no cover
    from psycopg import Connection
    from psycopg_pool import ConnectionPool

__all__ = ["SCHEMA", "SCHEMA_VERSION", "ensure_schema", "fill_seated", "seat_keys"]

log = logging.getLogger("paris_tui.host.pgstore")

SCHEMA_VERSION = 10
"""2: paris_waiting (tables waiting for players, listed at every host); 3: ratings;
4: turn_clocks; 5: chat, mutes, friends; 6: paris_seated (a name at one unfinished
table, a lock across hosts), paris_presence (friends here at any host); 7: chat_mutes
(a player's own mutes); 8: code_misses (wrong link codes, counted by every host),
rating_people (who sat at each seat of a game, for ratings between different people),
paris_leases.epoch (the fencing token every referee's write is checked against);
9: tournaments, tournament_entrants, tournament_rounds, tournament_tables, tournament_byes;
10: tournament_tables.opened and .absent (a round's absent players), tournament_leases
(one host pairs a tournament's rounds)."""
# The advisory lock key under which a host creates or migrates the schema.
_SCHEMA_LOCK = 0x7061726973  # "paris"

SCHEMA = [
    """CREATE TABLE IF NOT EXISTS paris_schema (
        one boolean PRIMARY KEY DEFAULT true CHECK (one),
        version integer NOT NULL
    )""",
    "CREATE SEQUENCE IF NOT EXISTS paris_table_numbers",
    """CREATE TABLE IF NOT EXISTS paris_tables (
        table_id text PRIMARY KEY,
        number bigint NOT NULL UNIQUE,
        header text NOT NULL,
        created timestamptz NOT NULL DEFAULT now(),
        touched timestamptz NOT NULL DEFAULT now(),
        finished boolean NOT NULL DEFAULT false,
        archived boolean NOT NULL DEFAULT false
    )""",
    """CREATE TABLE IF NOT EXISTS paris_moves (
        table_id text NOT NULL REFERENCES paris_tables(table_id) ON DELETE CASCADE,
        move_no integer NOT NULL CHECK (move_no >= 1),
        move text NOT NULL,
        made timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (table_id, move_no)
    )""",
    """CREATE TABLE IF NOT EXISTS paris_leases (
        table_id text PRIMARY KEY,
        holder text NOT NULL,
        address text NOT NULL DEFAULT '',
        until timestamptz NOT NULL
    )""",
    # Fencing (schema 8): a lease's epoch, a new number of paris_lease_epochs at every
    # change of holder; a referee's write is made only while the lease row holds its
    # holder and epoch (PostgresStore.append), so a host that lost a table without
    # knowing it (a stall, an outage) writes nothing there. ADD COLUMN: a database
    # of schema 7 gets it when a host of this version starts.
    "CREATE SEQUENCE IF NOT EXISTS paris_lease_epochs",
    "ALTER TABLE paris_leases ADD COLUMN IF NOT EXISTS epoch bigint NOT NULL DEFAULT 0",
    # The accounts (paris_tui.host.accounts.postgres): as host/accounts.sqlite's tables.
    """CREATE TABLE IF NOT EXISTS accounts (
        id bigserial PRIMARY KEY,
        name text NOT NULL,
        folded text NOT NULL UNIQUE,
        skeleton text NOT NULL UNIQUE,
        locked integer NOT NULL DEFAULT 0,
        created double precision NOT NULL
    )""",
    """CREATE TABLE IF NOT EXISTS credentials (
        id bigserial PRIMARY KEY,
        account bigint NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        door text NOT NULL CHECK (door IN ('ssh', 'token', 'browser')),
        digest text NOT NULL,
        label text NOT NULL DEFAULT '',
        created double precision NOT NULL,
        UNIQUE (door, digest)
    )""",
    "CREATE INDEX IF NOT EXISTS credentials_account ON credentials(account)",
    """CREATE TABLE IF NOT EXISTS codes (
        account bigint PRIMARY KEY REFERENCES accounts(id) ON DELETE CASCADE,
        digest text NOT NULL UNIQUE,
        expires double precision NOT NULL
    )""",
    """CREATE TABLE IF NOT EXISTS seats (
        table_id text NOT NULL,
        seat integer NOT NULL,
        account bigint NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        PRIMARY KEY (table_id, seat)
    )""",
    "CREATE TABLE IF NOT EXISTS meta (key text PRIMARY KEY, value text NOT NULL)",
    # Several hosts on one database (schema 2): the tables waiting for players, each held in
    # memory by the host where it was opened (its lease in paris_leases says which,
    # and where), listed here for every host's lobby and for the one-table-per-name
    # rule: "seats" is the JSON list of [name, kind, status] of its seats.
    """CREATE TABLE IF NOT EXISTS paris_waiting (
        table_id text PRIMARY KEY,
        holder text NOT NULL,
        seats text NOT NULL
    )""",
    # --- ratings (paris_tui.host.ratings.postgres): as host/ratings.sqlite's tables.
    """CREATE TABLE IF NOT EXISTS ratings (
        account bigint PRIMARY KEY,
        mu double precision NOT NULL,
        sigma double precision NOT NULL,
        games integer NOT NULL DEFAULT 0,
        updated double precision NOT NULL
    )""",
    """CREATE TABLE IF NOT EXISTS rating_games (
        game text PRIMARY KEY,
        table_id text NOT NULL,
        finished double precision NOT NULL,
        rated integer NOT NULL,
        result text NOT NULL,
        names text NOT NULL DEFAULT '[]'
    )""",
    "CREATE INDEX IF NOT EXISTS rating_games_finished ON rating_games(finished)",
    """CREATE TABLE IF NOT EXISTS rating_marks (
        table_id text NOT NULL,
        seat integer NOT NULL,
        state text NOT NULL,
        PRIMARY KEY (table_id, seat)
    )""",
    # --- end of ratings
    # Turn-based tables' clocks (paris_tui.host.services.turns): as host/accounts.sqlite's.
    """CREATE TABLE IF NOT EXISTS turn_clocks (
        table_id text PRIMARY KEY,
        seat integer NOT NULL,
        move_no integer NOT NULL,
        since double precision NOT NULL,
        notified integer NOT NULL DEFAULT 0
    )""",
    # Table chat (schema 5): the tables' chat lines (paris_tui.host.services.chat),
    # the operator's mutes and each account's friends (accounts/store.py's same tables).
    """CREATE TABLE IF NOT EXISTS paris_chat (
        id bigserial PRIMARY KEY,
        table_id text NOT NULL,
        line text NOT NULL,
        said timestamptz NOT NULL DEFAULT now()
    )""",
    "CREATE INDEX IF NOT EXISTS paris_chat_table ON paris_chat(table_id, id)",
    """CREATE TABLE IF NOT EXISTS muted (
        account bigint PRIMARY KEY REFERENCES accounts(id) ON DELETE CASCADE,
        since double precision NOT NULL
    )""",
    """CREATE TABLE IF NOT EXISTS friends (
        account bigint NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        friend bigint NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        PRIMARY KEY (account, friend)
    )""",
    # --- one unfinished table per name across hosts (schema 6): a row per key of a
    # seated name ("f:" its folded form, "s:" its skeleton, host/accounts/names.py),
    # so the primary key refuses a second table to a name or to one that looks like
    # it. Written when a name takes a seat of a real-time table (a waiting table's
    # or the operator's new table's), under the table's lease; a row counts while
    # its table goes on (paris_tables, not finished, not archived) or, before its
    # game started, while its holder leases the table (see PostgresStore.seat).
    """CREATE TABLE IF NOT EXISTS paris_seated (
        key text PRIMARY KEY,
        name text NOT NULL,
        table_id text NOT NULL,
        holder text NOT NULL DEFAULT '',
        since timestamptz NOT NULL DEFAULT now()
    )""",
    "CREATE INDEX IF NOT EXISTS paris_seated_table ON paris_seated(table_id)",
    # Friends here at any host (schema 6): which accounts are here at which host
    # (a connection of the host is theirs), rewritten by each host every tick and
    # counted until ``until`` (a host that died stops renewing its rows).
    """CREATE TABLE IF NOT EXISTS paris_presence (
        account bigint NOT NULL,
        holder text NOT NULL,
        until timestamptz NOT NULL,
        PRIMARY KEY (account, holder)
    )""",
    # --- end of paris_seated and paris_presence
    # A player's chat mutes (schema 7): the writers an account hides in
    # every table's chat (accounts/store.py's same table).
    """CREATE TABLE IF NOT EXISTS chat_mutes (
        account bigint NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        muted bigint NOT NULL REFERENCES accounts(id) ON DELETE CASCADE,
        PRIMARY KEY (account, muted)
    )""",
    # Schema 8: wrong link codes per account, counted by every host and kept across
    # restarts (accounts/social.py); and each seat's people as the ratings saw them
    # (ratings/people.py: a digest of an address), so two seats of one person at
    # different hosts or across a restart still make a game unrated.
    """CREATE TABLE IF NOT EXISTS code_misses (
        account bigint PRIMARY KEY REFERENCES accounts(id) ON DELETE CASCADE,
        misses integer NOT NULL
    )""",
    """CREATE TABLE IF NOT EXISTS rating_people (
        table_id text NOT NULL,
        seat integer NOT NULL,
        person text NOT NULL,
        PRIMARY KEY (table_id, seat, person)
    )""",
    # Schema 9: tournaments (paris_tui.host.tournaments.postgres), as
    # host/tournaments.sqlite's tables.
    """CREATE TABLE IF NOT EXISTS tournaments (
        id bigserial PRIMARY KEY,
        name text NOT NULL,
        folded text NOT NULL,
        format text NOT NULL,
        players integer NOT NULL,
        rounds integer NOT NULL,
        move_time double precision NOT NULL,
        start double precision NOT NULL,
        rated integer NOT NULL,
        min_games integer NOT NULL,
        state text NOT NULL,
        created double precision NOT NULL
    )""",
    """CREATE TABLE IF NOT EXISTS tournament_entrants (
        tournament bigint NOT NULL REFERENCES tournaments(id) ON DELETE CASCADE,
        account bigint NOT NULL,
        name text NOT NULL,
        rating double precision NOT NULL,
        joined integer NOT NULL,
        withdrawn integer NOT NULL DEFAULT 0,
        PRIMARY KEY (tournament, account)
    )""",
    """CREATE TABLE IF NOT EXISTS tournament_rounds (
        tournament bigint NOT NULL REFERENCES tournaments(id) ON DELETE CASCADE,
        round integer NOT NULL,
        paired double precision NOT NULL,
        PRIMARY KEY (tournament, round)
    )""",
    """CREATE TABLE IF NOT EXISTS tournament_tables (
        tournament bigint NOT NULL REFERENCES tournaments(id) ON DELETE CASCADE,
        round integer NOT NULL,
        table_no integer NOT NULL,
        seats text NOT NULL,
        table_id text,
        places text,
        claimed text,
        claim_until double precision,
        PRIMARY KEY (tournament, round, table_no)
    )""",
    "CREATE INDEX IF NOT EXISTS tournament_tables_table ON tournament_tables(table_id)",
    # Schema 10: when each tournament table was opened and who was absent at its
    # start (ADD COLUMN: a database of schema 9 has the table without them).
    "ALTER TABLE tournament_tables ADD COLUMN IF NOT EXISTS opened double precision",
    "ALTER TABLE tournament_tables ADD COLUMN IF NOT EXISTS absent text",
    # A tournament's pairing is one host's at a time, under a lease with an epoch as a
    # table's referee is (paris_leases' rules; the epoch from paris_lease_epochs).
    """CREATE TABLE IF NOT EXISTS tournament_leases (
        tournament bigint PRIMARY KEY REFERENCES tournaments(id) ON DELETE CASCADE,
        holder text NOT NULL,
        until timestamptz NOT NULL,
        epoch bigint NOT NULL
    )""",
    """CREATE TABLE IF NOT EXISTS tournament_byes (
        tournament bigint NOT NULL REFERENCES tournaments(id) ON DELETE CASCADE,
        round integer NOT NULL,
        account bigint NOT NULL,
        PRIMARY KEY (tournament, round, account)
    )""",
]


def seat_keys(name: str) -> tuple[str, str]:
    """A seated name's two keys in paris_seated: same_name is a clash of either."""
    return f"f:{folded(name)}", f"s:{skeleton(name)}"


def _human_names(header: str) -> list[str] | None:
    """The human players of a real-time table's header (``None``: turn-based, or
    unreadable): the names paris_seated holds for it."""
    try:
        data = json.loads(header)
        app = data.get("app")
        move_time = app.get("move_time") if isinstance(app, dict) else None
        if not isinstance(move_time, int | float) or isinstance(move_time, bool):
            move_time = None
        if move_time is not None and is_turn_based(float(move_time)):
            return None
        return [
            str(p["name"])
            for p in data.get("players", [])
            if isinstance(p, dict) and not str(p.get("kind", "human")).startswith("ai:")
        ]
    except (ValueError, AttributeError, KeyError, TypeError):
        return None


def fill_seated(conn: Connection[Any]) -> int:
    """paris_seated's rows for every unfinished table (a database of schema 5, or
    one ``host migrate`` filled): how many names. A name at two such tables
    already (the read that was not a lock) keeps the first."""
    rows = conn.execute(
        "SELECT table_id, header FROM paris_tables WHERE NOT finished AND NOT archived "
        "ORDER BY number"
    ).fetchall()
    seated = 0
    for table_id, header in rows:
        for name in _human_names(str(header)) or []:
            for key in seat_keys(name):
                conn.execute(
                    "INSERT INTO paris_seated (key, name, table_id) VALUES (%s, %s, %s) "
                    "ON CONFLICT (key) DO NOTHING",
                    (key, name, str(table_id)),
                )
            seated += 1
    return seated


_TABLE_NAMES = [
    m.group(1)
    for m in (re.search(r"CREATE TABLE IF NOT EXISTS (\w+)", st) for st in SCHEMA)
    if m and m.group(1) != "paris_schema"
]


def _refuse_foreign_tables(conn: Any) -> None:
    """A database without paris-tui's schema that holds a table of one of its names
    (another application's ``accounts``): paris-tui would make its schema around it
    and fail at its first use of that table. Refused in one line instead."""
    rows = conn.execute(
        "SELECT name FROM unnest(%s::text[]) AS name WHERE to_regclass(name) IS NOT NULL",
        (_TABLE_NAMES,),
    ).fetchall()
    if rows:
        names = ", ".join(str(row[0]) for row in rows[:5])
        raise DatabaseUnavailable(
            f"the database holds tables paris-tui did not make ({names}): "
            "give paris-tui a database of its own"
        )


def ensure_schema(pool: ConnectionPool) -> None:
    """Create the schema or move it forward; refuse a newer one (:class:`SchemaTooNew`)."""
    psycopg, _pool = _driver()
    try:
        with pool.connection() as conn, conn.transaction():
            conn.execute("SELECT pg_advisory_xact_lock(%s)", (_SCHEMA_LOCK,))
            exists = conn.execute("SELECT to_regclass('paris_schema') IS NOT NULL").fetchone()
            version = 0
            if exists and exists[0]:
                row = conn.execute("SELECT version FROM paris_schema").fetchone()
                version = int(row[0]) if row else 0
            if version > SCHEMA_VERSION:
                raise SchemaTooNew(
                    f"the database is of a newer paris-tui (schema {version}, this one knows "
                    f"{SCHEMA_VERSION}): upgrade paris-tui"
                )
            if version == 0:
                _refuse_foreign_tables(conn)
            if version < SCHEMA_VERSION:
                for statement in SCHEMA:
                    conn.execute(statement)
                conn.execute(
                    "INSERT INTO paris_schema (one, version) VALUES (true, %s) "
                    "ON CONFLICT (one) DO UPDATE SET version = EXCLUDED.version",
                    (SCHEMA_VERSION,),
                )
                if 0 < version < 6:  # tables of schema 5 hold their names from now on
                    fill_seated(conn)
                log.info("database schema %d made (was %d)", SCHEMA_VERSION, version)
    except psycopg.Error as exc:
        raise DatabaseUnavailable(f"the database failed: {_one_line(exc)}") from None
