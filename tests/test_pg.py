"""The throwaway PostgreSQL server of tests/pg.py starts, answers and is the one per process."""

from __future__ import annotations

import psycopg
from pg import PostgresServer, postgres

__all__ = ["postgres"]  # the fixture, imported for the tests below


def test_a_real_postgres_answers_select_1(postgres: PostgresServer) -> None:
    with psycopg.connect(postgres.conninfo, connect_timeout=10) as conn:
        assert conn.execute("SELECT 1").fetchone() == (1,)
        assert conn.info.server_version >= 120000
    assert postgres.psql("SELECT 1").strip() == "1"


def test_each_test_can_have_a_database_of_its_own(postgres: PostgresServer) -> None:
    name = postgres.create_database()
    with psycopg.connect(postgres.dsn(name), connect_timeout=10, autocommit=True) as conn:
        conn.execute("CREATE TABLE t (n integer)")
        conn.execute("INSERT INTO t VALUES (7)")
        assert conn.execute("SELECT n FROM t").fetchall() == [(7,)]
    # It listens on its socket only: no TCP port was opened.
    assert postgres.psql("SHOW listen_addresses").strip() == ""
